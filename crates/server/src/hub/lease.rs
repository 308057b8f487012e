//! Shared mode's leases ([`crate::cluster`]): several instances may hold
//! a copy of a game, but only the one holding its lease drives it (runs
//! its bots and calls its time), so that no move is made twice. Leases
//! are renewed by a periodic pass, which also takes over running games
//! whose driver is gone.

use std::sync::Arc;

use super::live::LiveGame;
use super::Hub;
use crate::store::GameId;

impl Hub {
    /// Whether this instance drives the game's bots and timer: always
    /// when alone; in shared mode, while it holds the game's lease; never
    /// once the server stops.
    pub(super) fn drives(&self, id: &GameId) -> bool {
        !self.stopped() && self.cluster.as_ref().is_none_or(|c| c.holds(id))
    }

    /// Takes the lease of a game that needs a driver (shared mode); the
    /// game's bots and timer start only on the instance that holds it.
    pub(super) async fn claim(&self, id: &GameId, live: &LiveGame) {
        if let Some(c) = &self.cluster {
            if live.needs_driver() {
                if let Err(e) = c.acquire(id).await {
                    tracing::warn!("game {id}: lease not taken ({e}); another instance will");
                }
            }
        }
    }

    /// One pass of the lease task (shared mode): renews this instance's
    /// leases, then takes over running games whose driver is gone and
    /// sets their bots and timers going here.
    pub async fn lease_pass(self: &Arc<Hub>) {
        let Some(c) = self.cluster.clone() else {
            return;
        };
        let lapsed = match c.renew().await {
            Ok(lapsed) => lapsed,
            Err(e) => return tracing::warn!("leases not renewed: {e}"),
        };
        for id in lapsed {
            // Not in memory: this instance let the game go (adjourned it)
            // while the renewal ran, which renewed it once more: let it
            // go again rather than drive a game nobody should.
            if self.cached(&id).is_none() {
                c.release(&id).await;
                continue;
            }
            // Held all along by the database, but not by this instance's
            // clock for a moment: its bots or timer may have stopped.
            tracing::warn!(
                "game {id}: lease renewed late (an overloaded machine?); driving it again"
            );
            self.take_over(&id).await;
        }
        self.take_up_watched().await;
        let orphans = match c.orphans().await {
            Ok(o) => o,
            Err(e) => return tracing::warn!("cannot look for games to take over: {e}"),
        };
        for id in orphans {
            match c.acquire(&id).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(e) => {
                    tracing::warn!("game {id}: lease not taken: {e}");
                    continue;
                }
            }
            tracing::info!("game {id}: taken over (its driver was gone)");
            self.take_over(&id).await;
        }
    }

    /// Drives a game whose lease this instance just took, or renewed
    /// after its own clock had let it go: the cache is brought up to the
    /// log first (the last driver may have committed moves nobody here
    /// heard of).
    pub(super) async fn take_over(self: &Arc<Hub>, id: &GameId) {
        let fresh = self.cached(id).is_none();
        let Ok(handle) = self.get(id).await else {
            return;
        };
        {
            let mut live = handle.live.lock().await;
            if !fresh {
                self.resync_locked(&handle, &mut live, None).await;
            }
            self.arm_timer(&handle, &mut live);
        }
        self.schedule_bots(handle);
    }
}
