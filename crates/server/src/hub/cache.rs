//! Which games are in memory: a game is loaded from the store (and its
//! log replayed) once, on first use, and kept while it runs or anyone
//! watches it; ended games nobody watches are swept out, and new games
//! are refused when memory holds the most allowed.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::live::{GameHandle, LiveGame};
use super::{now_ms, unavailable, Gone, Hub, Update};
use crate::cluster::Notice;
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::GameId;

impl Hub {
    pub(super) fn cached(&self, id: &GameId) -> Option<Arc<GameHandle>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Keeps a game in memory. Games that are over stay while anyone is
    /// connected to them (a rematch reaches them there), and are swept
    /// out once nobody is.
    pub(super) fn cache(&self, handle: Arc<GameHandle>) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.insert(handle.id.clone(), handle);
        let len = games.len() as u64;
        if len > 2 * self.swept_at.load(Ordering::Relaxed) + 64 {
            games.retain(|_, h| !h.idle_and_over());
            self.swept_at.store(games.len() as u64, Ordering::Relaxed);
        }
    }

    /// Refuses a new game when memory holds the most games allowed (after
    /// dropping the ended games nobody watches). The last tenth of the
    /// room is kept for games with people: a game of bots only is
    /// refused once the rest is full, so that strangers' bot games never
    /// crowd out a person's.
    pub(super) fn check_room(&self, bots_only: bool) -> Result<(), ProtocolError> {
        let max = self.settings.max_live_games;
        let reserve = if bots_only { (max / 10).max(1) } else { 0 };
        let room = max.saturating_sub(reserve);
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= room {
            games.retain(|_, h| !h.idle_and_over());
            self.swept_at.store(games.len() as u64, Ordering::Relaxed);
        }
        if games.len() >= room {
            return Err(ProtocolError::new(
                ErrorCode::Unavailable,
                if bots_only {
                    format!(
                        "the server is nearly full ({} games of {max}): its last room is kept for games with people; try again later, or play a bot yourself",
                        games.len()
                    )
                } else {
                    format!("the server is hosting its most games ({max}); try again later")
                },
            ));
        }
        Ok(())
    }

    /// Marks a game over; the next sweep may drop it from memory. In
    /// shared mode its lease, if held, is given up.
    pub(super) fn ended(&self, handle: &GameHandle) {
        handle.over.store(true, Ordering::Relaxed);
        self.budget.release(&handle.id);
        if let Some(c) = self.cluster.as_ref().filter(|c| c.holds(&handle.id)) {
            let (c, id) = (c.clone(), handle.id.clone());
            tokio::spawn(async move { c.release(&id).await });
        }
    }

    /// Number of games in memory.
    pub fn live_games(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// A game by id, from memory or rebuilt from the store.
    pub async fn get(&self, id: &GameId) -> Result<Arc<GameHandle>, ProtocolError> {
        if let Some(h) = self.cached(id) {
            return Ok(h);
        }
        let _loading = self.loading.lock().await;
        if let Some(h) = self.cached(id) {
            return Ok(h);
        }
        let stored = self
            .store
            .load_game(id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| ProtocolError::new(ErrorCode::NotFound, format!("no game {id}")))?;
        let live = LiveGame::from_stored(&stored).map_err(unavailable)?;
        if live.status != stored.status {
            // Finish what a crash interrupted: the status write after the
            // last action.
            // A rated game's ratings move now, with the status.
            self.write_end(id, &live, live.status, None)
                .await
                .map_err(unavailable)?;
        }
        // Charged to its creator again, as when it was created (alone on
        // the store: in shared mode each instance charges what it creates).
        if let Some(client) = stored.creator.filter(|_| self.cluster.is_none()) {
            if !live.status.is_over() {
                let payer = super::budget::Payer {
                    client,
                    network: stored.network,
                };
                self.budget.restore(id, live.charge(payer));
            }
        }
        let handle = GameHandle::new(id.clone(), live);
        handle
            .loaded_on_demand
            .store(true, std::sync::atomic::Ordering::Relaxed);
        self.cache(handle.clone());
        Ok(handle)
    }
}

impl Hub {
    /// Drops a game removed from the store (`gone` says why) from memory
    /// and from its creator's charges; its connections, here and on the
    /// other instances, are sent a `gone` message and closed.
    pub(super) async fn let_go(&self, id: &GameId, gone: Gone) {
        self.forget_gone(id, gone).await;
        self.notify(id, Notice::Gone { reason: gone }).await;
    }

    /// [`Hub::let_go`] on this instance only (another instance's notice).
    pub(super) async fn forget_gone(&self, id: &GameId, gone: Gone) {
        let handle = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        self.budget.release(id);
        let Some(handle) = handle else {
            return;
        };
        // Under the game's lock: a connection attaching meanwhile either
        // is subscribed already and gets the message, or sees the mark.
        let live = handle.live.lock().await;
        handle.gone.store(true, Ordering::Relaxed);
        let sentence = gone.sentence(self.settings.open_game_ttl);
        handle.publish(|| Update::gone(live.version(), live.seats.len(), gone, &sentence));
    }
}

/// Open games removed per pass (the rest wait for the next one).
const EXPIRE_BATCH: u32 = 1_000;

impl Hub {
    /// Removes the open games that waited longer than
    /// `Settings::open_game_ttl` for their start, from the store and from
    /// memory; returns how many. Run at start (before games are resumed)
    /// and every minute.
    pub async fn expire_pass(&self) -> usize {
        let Some(ttl) = self.settings.open_game_ttl else {
            return 0;
        };
        let before = now_ms().saturating_sub(super::millis(ttl));
        let mut total = 0;
        loop {
            let removed = match self.store.expire_open(before, EXPIRE_BATCH).await {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!("expiring open games: {e}");
                    return total;
                }
            };
            for id in &removed {
                self.let_go(id, Gone::Expired).await;
            }
            total += removed.len();
            if removed.len() < EXPIRE_BATCH as usize {
                if total > 0 {
                    tracing::info!("removed {total} open games nobody started");
                }
                return total;
            }
        }
    }
}
