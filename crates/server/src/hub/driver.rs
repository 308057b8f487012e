//! What moves games by themselves: bots, which think on the blocking
//! pool outside the game's lock and submit like anyone else, and the
//! timers that call time on a person whose clock runs out. Only the
//! instance that drives a game (always when alone; the lease holder in
//! shared mode) runs them.

use std::sync::Arc;
use std::time::Duration;

use bastide_bots::{BotSpec, View};
use bastide_engine::record::ActionJson;

use super::live::{BotJob, GameHandle, LiveGame, Occupant};
use super::searches::{Asker, Worker};
use super::{now_ms, Hub};
use crate::clock::OnTimeout;
use crate::cluster::Notice;
use crate::metrics::Gauge;
use crate::protocol::ErrorCode;
use crate::store::{GameId, Status, StoreError};

impl Hub {
    /// Loads every open and running game into memory and sets their bots
    /// going: after a restart, every game resumes by itself.
    pub async fn resume_all(self: &Arc<Hub>) -> Result<usize, StoreError> {
        if self.cluster.is_some() {
            // Shared mode: games are read when asked for, and those that
            // need a driver are taken over by lease (`lease_pass`).
            return Ok(0);
        }
        // Adjourned games wait for a person's hello (`adjourn.rs`).
        let adjourned: std::collections::HashSet<GameId> = self
            .store
            .adjourned_before(i64::MAX, u32::MAX)
            .await?
            .into_iter()
            .collect();
        let mut n = 0;
        for status in [Status::Playing, Status::Open] {
            for id in self.store.games_with_status(status, u32::MAX).await? {
                if adjourned.contains(&id) {
                    continue;
                }
                if let Ok(handle) = self.get(&id).await {
                    handle
                        .loaded_on_demand
                        .store(false, std::sync::atomic::Ordering::Relaxed);
                    self.arm_timer(&handle, &mut *handle.live.lock().await);
                    self.schedule_bots(handle);
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    /// (Re)arms the timer that calls time on the seat to act, if its time
    /// runs.
    pub(super) fn arm_timer(self: &Arc<Hub>, handle: &Arc<GameHandle>, live: &mut LiveGame) {
        if let Some(t) = live.timer.take() {
            t.abort();
        }
        // In shared mode only the lease holder calls time.
        let Some(deadline) = live.deadline().filter(|_| self.drives(&handle.id)) else {
            return;
        };
        let wait = u64::try_from(deadline.saturating_sub(now_ms())).unwrap_or(0);
        self.set_timer(handle, live, Duration::from_millis(wait));
    }

    /// Calls [`Hub::time_up`] after `wait`.
    fn set_timer(self: &Arc<Hub>, handle: &Arc<GameHandle>, live: &mut LiveGame, wait: Duration) {
        let version = live.version();
        let (hub, handle) = (self.clone(), handle.clone());
        let task = tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            hub.time_up(&handle, version).await;
        });
        live.timer = Some(task.abort_handle());
    }

    /// The timer rang: calls time if nothing was played meanwhile.
    async fn time_up(self: &Arc<Hub>, handle: &Arc<GameHandle>, version: u32) {
        let mut live = handle.live.lock().await;
        // A lease lost meanwhile: the new holder's timer calls time.
        if live.version() != version || !self.drives(&handle.id) {
            return;
        }
        // This task is the timer: it must not abort itself below.
        live.timer = None;
        match live.deadline() {
            Some(d) if now_ms() >= d => self.flag_fall(handle, &mut live).await,
            // Woke early (the system clock moved): wait again.
            Some(_) => self.arm_timer(handle, &mut live),
            None => {}
        }
    }

    /// The seat to act is out of time: it loses (the game ends as if it
    /// resigned) or a bot takes the seat over, as the clock says.
    pub(super) async fn flag_fall(self: &Arc<Hub>, handle: &Arc<GameHandle>, live: &mut LiveGame) {
        let Some(seat) = live.clocked_seat() else {
            return;
        };
        let policy = live
            .clock_spec
            .as_ref()
            .map_or(OnTimeout::Lose, |c| c.on_timeout);
        // Seats are numbered below six.
        let seat_u8 = seat as u8;
        let written = match policy {
            OnTimeout::Lose => {
                self.write_end(&handle.id, live, Status::Resigned, Some(seat))
                    .await
            }
            OnTimeout::Bot => {
                self.store
                    .replace_with_bot(&handle.id, seat_u8, &BotSpec::Greedy.to_string())
                    .await
            }
        };
        if let Err(e) = written {
            tracing::error!("game {}: cannot call time: {e}; trying again", handle.id);
            self.set_timer(handle, live, Duration::from_secs(1));
            return;
        }
        self.notify(
            &handle.id,
            Notice::Changed {
                timeout: Some(seat),
            },
        )
        .await;
        match policy {
            OnTimeout::Lose => {
                live.status = Status::Resigned;
                live.resigned = Some(seat);
                handle.publish(|| live.status_update(Some(seat), |a| handle.watched(a)));
                self.ended(handle);
            }
            OnTimeout::Bot => {
                if let Some(s) = live.seats.get_mut(seat) {
                    *s = Occupant::Bot(BotSpec::Greedy);
                }
                handle.publish(|| live.status_update(Some(seat), |a| handle.watched(a)));
                // A bot seat needs a driver now.
                self.claim(&handle.id, live).await;
                self.schedule_bots(handle.clone());
            }
        }
        self.arm_timer(handle, live);
    }

    /// Starts the game's bot task if a bot is to move and none runs.
    pub(super) fn schedule_bots(self: &Arc<Hub>, handle: Arc<GameHandle>) {
        if !self.drives(&handle.id) {
            return;
        }
        let hub = self.clone();
        tokio::spawn(async move { hub.run_bots(handle).await });
    }

    /// Plays the game's bot moves until a person is to move or it ends.
    async fn run_bots(self: Arc<Hub>, handle: Arc<GameHandle>) {
        {
            let mut live = handle.live.lock().await;
            if live.bot_running || live.bot_to_move().is_none() {
                return;
            }
            live.bot_running = true;
        }
        let mut failures = 0u32;
        loop {
            let job = {
                let mut live = handle.live.lock().await;
                // A lease lost (another instance drives now) stops the bots here.
                match live.bot_to_move().filter(|_| self.drives(&handle.id)) {
                    Some(job) => job,
                    None => {
                        live.bot_running = false;
                        return;
                    }
                }
            };
            let (seat, version) = (job.seat, job.version);
            let asker = Asker {
                people: job.people,
                payer: self.budget.payer(&handle.id),
            };
            let action = self.think(job, asker).await;
            match self
                .submit(&handle, seat, action, Some(version), true)
                .await
            {
                Ok(_) => failures = 0,
                Err(e) if e.code == ErrorCode::StaleVersion => {}
                Err(e) => {
                    failures += 1;
                    tracing::warn!("game {}: bot move refused: {e}", handle.id);
                    if failures >= 30 {
                        handle.live.lock().await.bot_running = false;
                        return;
                    }
                    // The store may be back in a moment.
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// Asks the bot for a move on the blocking pool, within the time limit.
    async fn think(self: &Arc<Hub>, job: BotJob, asker: Asker) -> ActionJson {
        let legal = job.game.legal_actions();
        let fallback = |legal: &[bastide_engine::Action]| {
            // Reduced modulo the length: the index is in range.
            legal[(job.seed % legal.len().max(1) as u64) as usize]
        };
        let chosen = if legal.len() <= 1 {
            legal.first().copied()
        } else {
            // Searches wait for a worker, people's games first and
            // payers in turn (`searches.rs`); quick bots for a permit of
            // their own pool, first come first served. Each game waits
            // for one move at a time, so games take turns.
            let asked = std::time::Instant::now();
            let waiting = Gauge::up(&self.metrics.bots_waiting);
            let permit = match job.spec {
                BotSpec::Mcts(_) | BotSpec::Strong(_) => {
                    Permit::Search(self.searches.acquire(asker).await)
                }
                BotSpec::Random | BotSpec::Greedy => {
                    Permit::Quick(self.bot_permits.clone().acquire_owned().await)
                }
            };
            drop(waiting);
            self.metrics.bot_wait.observe(asked.elapsed());
            let (game, spec, seed) = (job.game.clone(), job.spec.clone(), job.seed);
            let hub = self.clone();
            let thinking = tokio::task::spawn_blocking(move || {
                // Held while thinking: bounds how many bots think at once.
                let _permit = permit;
                let _thinking = Gauge::up(&hub.metrics.bots_thinking);
                spec.build(seed).choose(&View::new(&game))
            });
            match tokio::time::timeout(self.settings.bot_move_limit, thinking).await {
                Ok(Ok(a)) if legal.contains(&a) => Some(a),
                _ => {
                    tracing::warn!("a bot ran out of time or failed; it plays a quick move");
                    Some(fallback(&legal))
                }
            }
        };
        match chosen {
            Some(a) => ActionJson::from_action(&a, job.game.catalog()),
            // A running game always has a legal action; `pass` is refused
            // harmlessly if that were ever false.
            None => ActionJson::Pass {},
        }
    }
}

/// What a bot holds while it thinks, given back when dropped: a search
/// worker, or a quick bot's permit (`Err`: the pool closed, which it
/// never is).
enum Permit {
    Search(#[allow(dead_code)] Worker),
    Quick(#[allow(dead_code)] Result<tokio::sync::OwnedSemaphorePermit, tokio::sync::AcquireError>),
}
