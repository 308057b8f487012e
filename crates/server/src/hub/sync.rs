//! Shared mode's news ([`crate::cluster`]): each commit is published to
//! the other instances, their commits arrive as notices and are applied
//! by the same path as this instance's own, and a copy that news missed
//! (NATS down, an instance killed between its commit and its notice) is
//! caught up from the log, which is the truth.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use super::live::{GameHandle, LiveGame, Occupant, NOT_BEHIND};
use super::updates::rematch_update;
use super::Hub;
use crate::clock::ClockState;
use crate::cluster::Notice;
use crate::store::{GameId, Status};

impl Hub {
    /// Tells the other instances (shared mode). Called under the game's
    /// lock, so that one instance's notices of a game leave in order.
    pub(super) async fn notify(&self, id: &GameId, notice: Notice) {
        if let Some(c) = &self.cluster {
            c.publish(id, &notice).await;
        }
    }

    /// One pass of the catch-up task (shared mode): every game in memory
    /// that someone here watches or that this instance drives is compared
    /// with the log, and caught up if news of it was lost (NATS down, an
    /// instance killed between its commit and its notice). A copy behind
    /// is caught up only if it has not moved past what the log held at
    /// the previous pass: news merely on its way is left to arrive.
    pub async fn sync_pass(self: &Arc<Hub>) {
        let Some(c) = self.cluster.clone() else {
            return;
        };
        let handles: Vec<Arc<GameHandle>> = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|h| {
                !h.over.load(Ordering::Relaxed)
                    && (h.updates.receiver_count() > 0 || self.drives(&h.id))
            })
            .cloned()
            .collect();
        for chunk in handles.chunks(1000) {
            let ids: Vec<GameId> = chunk.iter().map(|h| h.id.clone()).collect();
            let stored = match c.versions(&ids).await {
                Ok(v) => v,
                Err(e) => return tracing::warn!("cannot compare games with the log: {e}"),
            };
            for (id, version, status) in stored {
                let Some(handle) = chunk.iter().find(|h| h.id == id) else {
                    continue;
                };
                {
                    let mut live = handle.live.lock().await;
                    if live.version() >= version && live.status == status {
                        handle.behind_at.store(NOT_BEHIND, Ordering::Relaxed);
                        continue;
                    }
                    let before = handle.behind_at.swap(u64::from(version), Ordering::Relaxed);
                    if before == NOT_BEHIND || u64::from(live.version()) > before {
                        // News is on its way, or was at the last pass and
                        // has come since: look again next pass.
                        continue;
                    }
                    self.resync_locked(handle, &mut live, None).await;
                    handle.behind_at.store(NOT_BEHIND, Ordering::Relaxed);
                    self.arm_timer(handle, &mut live);
                }
                self.schedule_bots(handle.clone());
            }
        }
    }

    /// In shared mode, brings a game's cache up to the log before it is
    /// read over HTTP (summary, record, view): news of it may be on its
    /// way still.
    pub async fn freshen(&self, handle: &Arc<GameHandle>) {
        let Some(c) = &self.cluster else {
            return;
        };
        if let Ok(v) = c.versions(std::slice::from_ref(&handle.id)).await {
            let mut live = handle.live.lock().await;
            if v.iter()
                .any(|(_, version, status)| *version > live.version() || *status != live.status)
            {
                self.resync_locked(handle, &mut live, None).await;
            }
        }
    }

    /// Brings the cache up to the store (shared mode: another instance
    /// changed the game): every action it lacks is applied and sent to
    /// this instance's clients in order, then the rows (status, seats,
    /// rematch) are taken over, with a `status` message if they changed
    /// what clients see. `timeout` names the seat whose time was called.
    pub(super) async fn resync_locked(
        &self,
        handle: &Arc<GameHandle>,
        live: &mut LiveGame,
        timeout: Option<usize>,
    ) {
        let fresh = match self.store.load_game(&handle.id).await {
            Ok(Some(stored)) => match LiveGame::from_stored(&stored) {
                Ok(fresh) => (fresh, stored),
                Err(e) => return tracing::error!("game {}: {e}", handle.id),
            },
            Ok(None) => return,
            Err(e) => return tracing::warn!("game {}: cannot catch up: {e}", handle.id),
        };
        let (fresh, stored) = fresh;
        tracing::debug!(
            "game {}: caught up from the log (copy at version {}, log at {})",
            handle.id,
            live.version(),
            fresh.version()
        );
        if fresh.version() < live.version() {
            // Read before our own latest commit: nothing to learn.
            return;
        }
        if live.status == Status::Open && fresh.status != Status::Open {
            // Started elsewhere: the start goes out before any action.
            live.status = Status::Playing;
            let n = live.seats.len();
            live.clock = match (&live.clock_spec, stored.started_ms) {
                (Some(spec), Some(t)) => Some(ClockState::new(spec.clone(), n, t)),
                _ => None,
            };
            live.seats.clone_from(&fresh.seats);
            handle.publish(|| live.status_update(None, |a| handle.watched(a)));
        }
        for i in live.actions.len()..fresh.actions.len() {
            let action = fresh.actions[i].clone();
            let seat = live.game.current_player().index();
            let mut next = live.game.clone();
            let applied = action
                .to_action(live.game.catalog())
                .map_err(|e| e.to_string())
                .and_then(|a| next.try_apply(&a).map_err(|e| e.to_string()));
            if let Err(e) = applied {
                // The log replayed in `from_stored`: this cannot happen
                // unless the cache went wrong; start it afresh.
                tracing::error!("game {}: action {i} does not apply: {e}", handle.id);
                let (bot_running, timer) = (live.bot_running, live.timer.take());
                *live = fresh;
                live.bot_running = bot_running;
                live.timer = timer;
                return;
            }
            let at = stored.action_times.get(i).copied().unwrap_or_default();
            self.apply_committed(handle, live, next, seat, action, at);
        }
        let kinds = |l: &LiveGame| l.seats.iter().map(Occupant::kind).collect::<Vec<_>>();
        let seen = (live.status, live.resigned, kinds(live));
        let was_over = live.status.is_over();
        live.seats = fresh.seats;
        live.status = fresh.status;
        live.resigned = fresh.resigned;
        live.rematch = fresh.rematch;
        live.clock = fresh.clock;
        if (live.status, live.resigned, kinds(live)) != seen {
            handle.publish(|| live.status_update(timeout, |a| handle.watched(a)));
        }
        if live.status.is_over() && !was_over {
            if let Some(t) = live.timer.take() {
                t.abort();
            }
            self.ended(handle);
        }
    }

    /// Acts on another instance's notice about a game this instance has in
    /// memory (games it does not have are read from the store when asked
    /// for, so there is nothing to update).
    pub async fn on_notice(self: &Arc<Hub>, id: &GameId, notice: Notice) {
        let Some(handle) = self.cached(id) else {
            return;
        };
        if let Notice::Chat { line } = notice {
            // Talk changes nothing in the game.
            return self.on_chat_notice(&handle, line).await;
        }
        if let Notice::Gone { reason } = notice {
            return self.forget_gone(id, reason).await;
        }
        {
            let mut live = handle.live.lock().await;
            match notice {
                Notice::Played { version, .. } if version <= live.version() => return,
                Notice::Played {
                    version,
                    seat,
                    action,
                    at,
                } if version == live.version() + 1
                    && live.status == Status::Playing
                    && live.game.current_player().index() == seat =>
                {
                    let mut next = live.game.clone();
                    match action.to_action(live.game.catalog()) {
                        Ok(a) if next.try_apply(&a).is_ok() => {
                            self.apply_committed(&handle, &mut live, next, seat, action, at);
                        }
                        // Not what the log says: read the log.
                        _ => self.resync_locked(&handle, &mut live, None).await,
                    }
                }
                // A gap (news lost or out of order), or a change of rows.
                Notice::Played { .. } => self.resync_locked(&handle, &mut live, None).await,
                Notice::Changed { timeout } => {
                    self.resync_locked(&handle, &mut live, timeout).await
                }
                Notice::Rematch { game } => {
                    if live.rematch.is_none() {
                        live.rematch = GameId::parse(&game);
                    }
                    let tokens: Vec<Option<String>> = match GameId::parse(&game) {
                        Some(id) => super::create::rematch_tokens(&live.seats, &id)
                            .into_iter()
                            .map(|t| t.map(|(token, _)| token))
                            .collect(),
                        None => Vec::new(),
                    };
                    let n = live.seats.len();
                    let version = live.version();
                    handle.publish(|| rematch_update(version, n, &game, &tokens, &handle));
                }
                Notice::Chat { .. } | Notice::Gone { .. } => {}
            }
            self.arm_timer(&handle, &mut live);
        }
        self.schedule_bots(handle);
    }
}
