//! Games whose people have all gone. A running game without a clock in
//! which a person is to move, with nobody connected for
//! `Settings::adjourn_after`, is adjourned: marked in the store and let go
//! from memory, so that abandoned games neither fill memory nor are
//! resumed at start. A person's hello takes it up again (its bots and
//! timer resume); one adjourned longer than `Settings::end_adjourned_after`
//! is ended as resigned by nobody, its log kept. Timed games need none of
//! this: their clock ends them.
//!
//! Shared mode (several instances, `lease.rs`): the instance holding a
//! game's lease adjourns it when nobody has been connected to its own copy
//! for the while, and gives the lease up; an adjourned game is no orphan,
//! so no instance takes it over. A person connected to another instance
//! at that moment is not left alone: that instance's next lease pass finds
//! a game its people watch adjourned, takes it up (one instance wins the
//! mark's removal), takes the lease and drives it. A person's hello on any
//! instance takes it up the same way.

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
            // In shared mode a game with a driver is adjourned by its
            // driver only (whose lease says nobody else moves its bots
            // meanwhile); one of people only, by any instance it is
            // deserted on.
            let ours = self.drives(&handle.id) || !live.needs_driver();
            if !waits_for_a_person || !ours || !handle.deserted_since(cutoff) {
                continue;
            }
            if let Err(e) = self.store.adjourn(&handle.id, now).await {
                tracing::warn!("adjourning game {}: {e}", handle.id);
                continue;
            }
            // A connection that found this copy before it went waits for
            // the lock; it sees the mark and loads the game afresh.
            handle.adjourned.store(true, Ordering::Relaxed);
            {
                let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
                if games
                    .get(&handle.id)
                    .is_some_and(|h| Arc::ptr_eq(h, &handle))
                {
                    games.remove(&handle.id);
                }
            }
            self.budget.release(&handle.id);
            if let Some(c) = &self.cluster {
                // Nobody drives an adjourned game (it is no orphan either).
                c.release(&handle.id).await;
            }
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
            // The mark is removed first: of several instances ending the
            // same games, one removes it and ends the game (a rated game's
            // ratings move once). A game whose end then fails runs again,
            // and is adjourned again once deserted.
            match self.store.unadjourn(&id).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(e) => {
                    tracing::warn!("game {id}: {e}");
                    continue;
                }
            }
            if let Ok(handle) = self.get(&id).await {
                if self.stop(&handle, "adjourned too long").await.is_ok() {
                    n += 1;
                }
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
        who: Option<&crate::store::players::Account>,
    ) -> (Arc<GameHandle>, Result<Attached, ProtocolError>) {
        let mut handle = handle;
        let mut attached = self.attach(&handle, token, since, who).await;
        if attached.is_err() && handle.is_adjourned() {
            attached = match self.get(handle.id()).await {
                Ok(h) => {
                    handle = h;
                    self.attach(&handle, token, since, who).await
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
        // Alone, only a copy read from the store may be adjourned; in
        // shared mode another instance may have adjourned any copy.
        if !handle.loaded_on_demand.swap(false, Ordering::Relaxed) && self.cluster.is_none() {
            return;
        }
        match self.store.unadjourn(&handle.id).await {
            Ok(true) if self.cluster.is_some() => {
                tracing::info!("game {}: taken up again", handle.id);
                self.drive_taken_up(&handle.id).await;
            }
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

impl Hub {
    /// Shared mode: this instance removed a game's adjourned mark, so it
    /// drives the game: it takes the lease (the adjourning instance gave
    /// it up) and, brought up to the log, sets its bots and timer going.
    pub(super) async fn drive_taken_up(self: &Arc<Hub>, id: &crate::store::GameId) {
        let Some(c) = self.cluster.clone() else {
            return;
        };
        match c.acquire(id).await {
            Ok(true) => self.take_over(id).await,
            // Someone holds it: they drive it.
            Ok(false) => {}
            // Left an orphan: the lease pass of some instance takes it.
            Err(e) => tracing::warn!("game {id}: lease not taken ({e}); another instance will"),
        }
    }

    /// Shared mode, in the lease pass: the games in memory with a person
    /// connected here that another instance adjourned meanwhile are taken
    /// up and driven here.
    pub(super) async fn take_up_watched(self: &Arc<Hub>) {
        let Some(c) = self.cluster.clone() else {
            return;
        };
        let watched: Vec<crate::store::GameId> = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|h| h.watched_by_a_seat() && !h.over.load(Ordering::Relaxed))
            .map(|h| h.id.clone())
            .collect();
        if watched.is_empty() {
            return;
        }
        let taken = match c.take_up(&watched).await {
            Ok(t) => t,
            Err(e) => return tracing::warn!("cannot look for adjourned games watched here: {e}"),
        };
        for id in taken {
            tracing::info!("game {id}: adjourned elsewhere while a person is here; taken up");
            self.drive_taken_up(&id).await;
        }
    }
}
