//! Games whose people have all gone. A running game without a clock in
//! which a person is to move, with nobody connected for
//! `Settings::adjourn_after`, is adjourned: marked in the store and let go
//! from memory, so that abandoned games neither fill memory nor are
//! resumed at start. A person's hello takes it up again (its bots and
//! timer resume); one adjourned longer than `Settings::end_adjourned_after`
//! is ended as resigned by nobody, its log kept. Timed games need none of
//! this: their clock ends them.
//!
//! Shared mode (several instances) leaves games in memory: a game's copy
//! lives on every instance that serves it, and its lease holder drives it.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::live::{GameHandle, Occupant};
use super::{millis, now_ms, Attached, Audience, Hub};
use crate::protocol::ProtocolError;
use crate::store::Status;

/// Adjourned games ended per pass (the rest wait for the next one).
const END_BATCH: u32 = 100;

impl Hub {
    /// Adjourns the games in memory whose people have been gone longer
    /// than `Settings::adjourn_after`; returns how many. Run every minute.
    pub async fn adjourn_pass(&self) -> usize {
        let Some(after) = self.settings.adjourn_after else {
            return 0;
        };
        if self.cluster.is_some() {
            return 0;
        }
        let now = now_ms();
        let cutoff = now.saturating_sub(millis(after));
        let candidates: Vec<Arc<GameHandle>> = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|h| h.deserted_since(cutoff))
            .cloned()
            .collect();
        let mut n = 0;
        for handle in candidates {
            let live = handle.live.lock().await;
            // Checked again under the lock: a hello may have come. A
            // timed game (correspondence games included, whose people are
            // away for days by design) is never adjourned: its clock ends it.
            let waits_for_a_person = live.status == Status::Playing
                && live.clock_spec.is_none()
                && !live.bot_running
                && live.bot_to_move().is_none()
                && live
                    .seats
                    .iter()
                    .any(|s| matches!(s, Occupant::Human { .. }));
            if !waits_for_a_person || !handle.deserted_since(cutoff) {
                continue;
            }
            if let Err(e) = self.store.adjourn(&handle.id, now).await {
                tracing::warn!("adjourning game {}: {e}", handle.id);
                continue;
            }
            // A connection that found this copy before it went waits for
            // the lock; it sees the mark and loads the game afresh.
            handle.adjourned.store(true, Ordering::Relaxed);
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            if games
                .get(&handle.id)
                .is_some_and(|h| Arc::ptr_eq(h, &handle))
            {
                games.remove(&handle.id);
            }
            drop(games);
            self.budget.release(&handle.id);
            n += 1;
        }
        if n > 0 {
            tracing::info!("adjourned {n} games whose people have gone");
        }
        n
    }

    /// Ends the games adjourned longer than
    /// `Settings::end_adjourned_after`; returns how many. Run every minute.
    pub async fn end_adjourned_pass(self: &Arc<Hub>) -> usize {
        let Some(after) = self.settings.end_adjourned_after else {
            return 0;
        };
        let before = now_ms().saturating_sub(millis(after));
        let ids = match self.store.adjourned_before(before, END_BATCH).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("reading adjourned games: {e}");
                return 0;
            }
        };
        let mut n = 0;
        for id in ids {
            if let Ok(handle) = self.get(&id).await {
                if self.stop(&handle, "adjourned too long").await.is_ok() {
                    n += 1;
                }
            }
            // Ended (or over already, or gone): no longer adjourned.
            if let Err(e) = self.store.unadjourn(&id).await {
                tracing::warn!("game {id}: {e}");
            }
        }
        n
    }

    /// A connection's hello: [`Hub::attach`], reading the game again if
    /// an adjournment let this copy go meanwhile, and taking an adjourned
    /// game up again when a person comes back. Returns the copy the
    /// connection now speaks to.
    pub async fn hello(
        self: &Arc<Hub>,
        handle: Arc<GameHandle>,
        token: Option<&str>,
        since: Option<u32>,
    ) -> (Arc<GameHandle>, Result<Attached, ProtocolError>) {
        let mut handle = handle;
        let mut attached = self.attach(&handle, token, since).await;
        if attached.is_err() && handle.is_adjourned() {
            attached = match self.get(handle.id()).await {
                Ok(h) => {
                    handle = h;
                    self.attach(&handle, token, since).await
                }
                Err(e) => Err(e),
            };
        }
        if attached
            .as_ref()
            .is_ok_and(|a| matches!(a.audience, Audience::Seat(_)))
        {
            self.take_up(&handle).await;
        }
        (handle, attached)
    }

    /// A person said hello to a game loaded from the store on demand: if
    /// it was adjourned, it runs again (its bots and its timer).
    ///
    /// Alone on its store, this instance adjourned the game at a person's
    /// move and nothing moved it since, so the bots have nothing to do
    /// until that person moves (and `submit` sets them going then); but
    /// the log may have moved on meanwhile (another driver's moves, in
    /// shared mode), and then the bot to move waits for this call
    /// (`tests/limits.rs`, `taking_up_an_adjourned_game_restarts_its_bots`).
    /// The timer is armed for the same reason, though no adjourned game
    /// has one: timed games are never adjourned (their clocks end them).
    async fn take_up(self: &Arc<Hub>, handle: &Arc<GameHandle>) {
        if !handle.loaded_on_demand.swap(false, Ordering::Relaxed) {
            return;
        }
        match self.store.unadjourn(&handle.id).await {
            Ok(true) => {
                tracing::info!("game {}: taken up again", handle.id);
                self.arm_timer(handle, &mut *handle.live.lock().await);
                self.schedule_bots(handle.clone());
            }
            Ok(false) => {}
            Err(e) => tracing::warn!("game {}: {e}", handle.id),
        }
    }
}
