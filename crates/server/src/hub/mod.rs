//! Live games: the in-memory cache of every game in play, rebuilt from the
//! store's log, and the one path by which a game changes.
//!
//! Each game sits behind its own async mutex. An action is checked by the
//! engine on a copy of the game, appended to the store's log, and only
//! then applied to the cache and broadcast: an action is committed before
//! anyone is told. Bots think on the blocking pool, outside the lock.
//!
//! In shared mode ([`crate::cluster`]) several instances hold copies of a
//! game: each commit is also published, other instances' commits arrive
//! as notices ([`Hub::on_notice`]) and are applied by the same path, gaps
//! are filled from the log ([`Hub::sync_pass`]), and bots and timers run
//! only on the instance holding the game's lease ([`Hub::lease_pass`]).
//!
//! The module is split by job, each file one room:
//!
//! - `live.rs`: a game in memory (its rows, its replayed game, its
//!   clocks) and its handle, the update channel connections listen on.
//! - `updates.rs`: who a connection speaks for, the message each
//!   audience is sent, and how a connection attaches and catches up.
//! - `create.rs`: new games and rematches, checked and written.
//! - `bounds.rs`: what a stranger's game may ask for beyond the
//!   engine's own limits.
//! - `play.rs`: seats and actions, the check-commit-broadcast path.
//! - `driver.rs`: the bots and the clocks, which move games by
//!   themselves.
//! - `cache.rs`: which games are in memory, how they are loaded and
//!   when they are dropped.
//! - `lease.rs`: shared mode's leases, which say which instance drives
//!   a game, and taking a game over.
//! - `sync.rs`: shared mode's news, keeping this instance's copies in
//!   step with the log.
//! - `log.rs`: the move history a page at a time, as spectators see it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bastide_engine::Game;
use serde_json::Value;
use tokio::sync::{Mutex, Semaphore};

use crate::cluster::Cluster;
use crate::guard::{Guard, Limits};
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::{GameId, Status, Store, StoreError};

mod adjourn;
mod bounds;
mod budget;
mod cache;
mod chat;
mod create;
mod driver;
mod lease;
mod live;
mod log;
mod messages;
mod operate;
mod play;
mod searches;
mod seat;
mod sync;
mod updates;

pub use crate::protocol::{Audience, Gone, GONE_CLOSE_CODE};
pub use budget::Caps;
pub use create::{CreateGame, Created, CreatedSeat};
pub use live::{GameHandle, GameSummary};
pub use log::LOG_PAGE;
pub use messages::{public_view, Update};
pub use seat::Seated;
pub use updates::{Attached, Backlog, Watch, CATCH_UP_MOVES, CATCH_UP_PIECES};

/// How the server runs games.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The address people open, for invite links (`http://host:port`).
    pub public_url: String,
    /// The longest a bot may think about one move; past it the bot plays
    /// a legal move chosen without thought.
    pub bot_move_limit: Duration,
    /// The largest MCTS iteration budget a game may ask for.
    pub max_mcts_iterations: u32,
    /// How many quick bots (random, greedy) may think at once (the
    /// blocking pool is larger).
    pub bot_threads: usize,
    /// How many searching bots (MCTS) may think at once: the workers
    /// they queue for, people's games first and payers in turn
    /// (`searches.rs`); games of bots only hold all but one.
    pub bot_workers: usize,
    /// What one client address may hold at once.
    pub caps: Caps,
    /// How long an open game waits for its start before it is removed
    /// (`None`: forever).
    pub open_game_ttl: Option<Duration>,
    /// How long a running untimed game waits with nobody connected, a
    /// person to move, before it is adjourned (`None`: never).
    pub adjourn_after: Option<Duration>,
    /// How long an adjourned game waits for a person before it is ended
    /// (`None`: forever).
    pub end_adjourned_after: Option<Duration>,
    /// The hash of the operator's token (`--admin-token-file`); `None`
    /// turns the operator's endpoints off.
    pub admin_token: Option<crate::token::TokenHash>,
    /// Messages a connection may send per second, sustained.
    pub messages_per_second: f64,
    /// Messages a connection may send at once before the rate applies.
    pub message_burst: f64,
    /// The most games held in memory (open and running ones, and ended
    /// ones still watched); past it, new games are refused.
    pub max_live_games: usize,
    /// Rate limits and connection caps per client address.
    pub limits: Limits,
    /// How long a correspondence game's day is: a day, but tests
    /// shorten it.
    pub correspondence_day: Duration,
    /// Password hashes (19 MiB each) running at once, over every
    /// sign-in and new account (`hashing.rs`).
    pub password_hashers: usize,
    /// Password hashes waiting for a hasher; beyond them a sign-in is
    /// refused with `503` and `Retry-After`.
    pub password_queue: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            public_url: "http://127.0.0.1:8080".into(),
            bot_move_limit: Duration::from_secs(10),
            max_mcts_iterations: 100_000,
            // Well above the core count: a bot that thinks long (an
            // iteration budget on a busy machine) must not keep the bots of
            // other games waiting for a turn to think; the cores are
            // shared between them instead.
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()) * 8,
            // One core is kept for everything else: quick bots, the
            // connections, the store; at least two, so that games of
            // bots only (which hold all workers but one) always leave
            // one for a person's game.
            bot_workers: std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .max(2),
            caps: Caps::default(),
            open_game_ttl: Some(Duration::from_secs(60 * 60)),
            adjourn_after: Some(Duration::from_secs(15 * 60)),
            end_adjourned_after: Some(Duration::from_secs(7 * 24 * 60 * 60)),
            admin_token: None,
            // Far above a person's pace; a whole game's actions fit in the
            // burst, so a fast client is never refused for playing.
            messages_per_second: 20.0,
            message_burst: 100.0,
            // About 40 KiB a game with its sockets (measured against a
            // crowd of 254 networks): under half a GiB at the limit.
            max_live_games: 12_000,
            limits: Limits::default(),
            correspondence_day: Duration::from_secs(86_400),
            // One per core; a queue a few hashes deep waits well under
            // a second.
            password_hashers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            password_queue: 4 * std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

impl Settings {
    /// The default settings without rate limits or per-address caps: for
    /// benchmarks and tests that play many games from one address.
    pub fn unlimited() -> Settings {
        Settings {
            limits: Limits::unlimited(),
            caps: Caps::unlimited(),
            ..Settings::default()
        }
    }
}

/// Every live game, and the one place games change.
pub struct Hub {
    store: Arc<dyn Store>,
    games: StdMutex<HashMap<GameId, Arc<GameHandle>>>,
    /// The cache's size after its last sweep: the next sweep comes when
    /// it has doubled, so sweeping costs O(1) per game cached.
    swept_at: AtomicU64,
    /// Serialises loads so that a game is replayed once.
    loading: Mutex<()>,
    bot_permits: Arc<Semaphore>,
    /// The searching bots' workers (`Settings::bot_workers`), handed
    /// out fairly (`searches.rs`).
    searches: Arc<searches::Searches>,
    /// What each client address holds.
    budget: budget::Budget,
    settings: Settings,
    /// Actions committed since the hub started (for load figures).
    committed: AtomicU64,
    /// The other instances, in shared mode (`--nats`).
    cluster: Option<Arc<Cluster>>,
    /// Rate limits and connection caps.
    guard: Arc<Guard>,
    /// Running counts for operators (`GET /metrics`).
    metrics: crate::metrics::Metrics,
    /// Set when the server shuts down: no game's bots or timer go on.
    stopped: AtomicBool,
    /// The gate every password hash goes through.
    hashing: crate::hashing::HashGate,
}

impl Hub {
    /// Stops driving games: no bot starts another move and no timer calls
    /// time (a search under way ends, its move refused). A server that
    /// shuts down calls it first, so that its bots do not search on and
    /// on against a closed store (another server in the same process, as
    /// in tests and the abuse example, would pay for it).
    pub fn stop_driving(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    /// Whether [`Hub::stop_driving`] was called.
    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }
}

/// A store failure as a client is told of it (the cause goes to the log,
/// not to the client).
pub(crate) fn unavailable(e: StoreError) -> ProtocolError {
    tracing::error!("store: {e}");
    ProtocolError::new(
        ErrorCode::Unavailable,
        "the game store is unavailable; nothing changed, try again",
    )
}

/// Unix time in milliseconds, as the store and the clocks count it.
/// A duration in whole milliseconds, saturated (for Unix-ms arithmetic).
fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// Unix time in milliseconds, as the store and the clocks count it.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Hub {
    /// A hub over a store, alone on it.
    pub fn new(store: Arc<dyn Store>, settings: Settings) -> Arc<Hub> {
        Hub::shared(store, settings, None)
    }

    /// A hub over a store shared with other instances, which `cluster`
    /// tells of changes (none: alone on the store).
    pub fn shared(
        store: Arc<dyn Store>,
        settings: Settings,
        cluster: Option<Arc<Cluster>>,
    ) -> Arc<Hub> {
        Arc::new(Hub {
            store,
            games: StdMutex::new(HashMap::new()),
            swept_at: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
            loading: Mutex::new(()),
            bot_permits: Arc::new(Semaphore::new(settings.bot_threads.max(1))),
            searches: searches::Searches::new(settings.bot_workers),
            budget: budget::Budget::default(),
            guard: Guard::new(settings.limits.clone()),
            hashing: crate::hashing::HashGate::new(
                settings.password_hashers,
                settings.password_queue,
            ),
            metrics: crate::metrics::Metrics::default(),
            settings,
            committed: AtomicU64::new(0),
            cluster,
        })
    }

    /// The other instances, in shared mode.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Running counts for operators.
    pub fn metrics(&self) -> &crate::metrics::Metrics {
        &self.metrics
    }

    /// The gate every password hash goes through.
    pub fn hashing(&self) -> &crate::hashing::HashGate {
        &self.hashing
    }

    /// The rate limits and connection caps, shared by every connection.
    pub fn guard(&self) -> &Arc<Guard> {
        &self.guard
    }

    /// Actions committed since the hub started.
    pub fn committed_actions(&self) -> u64 {
        self.committed.load(Ordering::Relaxed)
    }

    /// Games with a status, newest first (at most 100).
    pub async fn list(&self, status: Status) -> Result<Vec<GameSummary>, ProtocolError> {
        let ids = self
            .store
            .games_with_status(status, 100)
            .await
            .map_err(unavailable)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Ok(h) = self.get(&id).await {
                let live = h.live.lock().await;
                // A private game is seated by its invite links: not listed
                // as open (it is listed once it runs, to be watched).
                if !(status == Status::Open && live.private) {
                    out.push(live.summary(&id));
                }
            }
        }
        Ok(out)
    }

    /// The seat a person is to act in, in a running game (a player's
    /// "your turn"); `None` for a game not running or a bot to move.
    pub async fn to_act(&self, id: &GameId) -> Option<usize> {
        let handle = self.get(id).await.ok()?;
        let live = handle.live.lock().await;
        live.clocked_seat()
    }

    /// A game's summary.
    pub async fn summary(&self, handle: &GameHandle) -> GameSummary {
        handle.live.lock().await.summary(&handle.id)
    }

    /// The game's record (see `LiveGame::record_json`) and whether it is
    /// complete.
    pub async fn record(&self, handle: &GameHandle) -> (Value, bool) {
        let live = handle.live.lock().await;
        (live.record_json(), live.status.is_over())
    }

    /// The public view, for spectators over HTTP.
    pub async fn public_view(&self, handle: &GameHandle) -> Value {
        public_view(&handle.live.lock().await.game)
    }

    /// A spectator's `welcome` body (the public view, no seat, no legal
    /// actions) and `f` of the game, under one lock so that both are of
    /// the same version: what a game's page embeds (`assets.rs`). Nothing
    /// of a seat's private hand is in it.
    pub async fn spectator_welcome<R>(
        &self,
        handle: &GameHandle,
        f: impl FnOnce(&Game) -> R,
    ) -> (Value, R) {
        let live = handle.live.lock().await;
        let mut welcome = handle.welcome_with_chat(&live, Audience::Spectator, None);
        // A seat's player opens the page too: it has only the lines
        // everyone reads, never the spectators'.
        if let Some(o) = welcome.as_object_mut() {
            let everyone = handle
                .chat
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .for_everyone();
            o.insert("chat".into(), everyone);
        }
        (welcome, f(&live.game))
    }

    /// Runs `f` on the game in memory, read only (routes outside this
    /// module, e.g. the client's feature details in `assets.rs`).
    pub async fn inspect<R>(&self, handle: &GameHandle, f: impl FnOnce(&Game) -> R) -> R {
        f(&handle.live.lock().await.game)
    }
}
