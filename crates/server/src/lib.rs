//! Bastide's game server: people play each other and bots over the
//! network, and nothing is lost.
//!
//! - [`store`]: the [`store::Store`] trait with SQLite (default) and
//!   PostgreSQL implementations; an append-only action log.
//! - [`hub`]: live games in memory, rebuilt from the log; the one path by
//!   which a game changes (check, commit, broadcast); bots.
//! - [`http`] and [`ws`]: the HTTP API and the WebSocket protocol, whose
//!   messages are in [`protocol`]. The protocol is documented in
//!   `docs/server.md`.
//! - [`cluster`]: shared mode, several instances on one PostgreSQL
//!   database told of each other's changes through NATS
//!   (`docs/scaling.md`).

#![warn(missing_docs)]

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use thiserror::Error;
use tokio::net::TcpListener;

use crate::cluster::{Cluster, ClusterConfig, ClusterError, Notice};
use crate::store::GameId;

pub mod admin;
pub(crate) mod api;
pub mod assets;
pub mod chat;
pub mod clock;
pub mod cluster;
pub mod guard;
pub mod hashing;
pub mod http;
pub mod hub;
pub mod listen;
pub mod metrics;
pub mod origin;
pub mod players;
pub mod protocol;
pub mod rating;
pub mod results;
pub mod seats;
pub mod store;
pub mod token;
pub mod ws;

pub use hub::{Caps, Hub, Settings};
pub use store::{Store, StoreError};

/// The database used when none is named: a SQLite file in the current
/// directory, created on first run.
pub const DEFAULT_DATABASE: &str = "bastide.db";

/// `bastide serve`'s options.
#[derive(Clone, Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port).
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Database: a SQLite file path or `sqlite:PATH`, or a
    /// `postgres://user@host/db` URL (default: the file bastide.db).
    #[arg(long)]
    pub database: Option<String>,
    /// The address people open, for invite links (default: http://ADDR).
    #[arg(long)]
    pub public_url: Option<String>,
    /// Longest time a bot may think about one move, in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    pub bot_move_ms: u64,
    /// Shared mode: a NATS server (`nats://127.0.0.1:4222`) through which
    /// several instances on one PostgreSQL database tell each other of
    /// changes (docs/scaling.md).
    #[arg(long)]
    pub nats: Option<String>,
    /// Shared mode: the prefix of the NATS subjects (`PREFIX.game.ID`);
    /// deployments sharing a NATS server keep apart by prefix.
    #[arg(long, default_value = cluster::DEFAULT_PREFIX)]
    pub nats_prefix: String,
    /// Shared mode: how long an instance's hold on a game's bots and
    /// clock lasts unless renewed, in milliseconds; another instance
    /// takes the game over this long after the holder dies.
    #[arg(long, default_value_t = 5_000)]
    pub lease_ms: u64,
    /// Shared mode: how often the games watched on this instance are
    /// compared with the log, in milliseconds: a notice lost (NATS down,
    /// an instance killed between commit and notice) delays this
    /// instance's clients by at most two of these.
    #[arg(long, default_value_t = 1_000)]
    pub sync_ms: u64,
    /// Limits per client address (docs/server.md, "Limits").
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Logs as one JSON object per line (time, level, target, fields)
    /// instead of text.
    #[arg(long)]
    pub log_json: bool,
    /// A file holding the operator's token (128 random bits at least,
    /// such as `openssl rand -hex 32`; a weak one is refused): it
    /// opens `/api/admin/…` and `/metrics` to `Authorization: Bearer TOKEN`.
    #[arg(long)]
    pub admin_token_file: Option<std::path::PathBuf>,
}

/// Reads the operator's token from its file; its hash is kept.
fn admin_token(path: &std::path::Path) -> Result<token::TokenHash, ServeError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ServeError::AdminToken(format!("{}: {e}", path.display())))?;
    let t = text.trim();
    if t.chars().any(char::is_whitespace) || token::strength_bits(t) < 128 {
        return Err(ServeError::AdminToken(format!(
            "{}: the token must be one word of 128 bits of chance at least, such as 32 random hex digits; this one holds about {} (make one with `openssl rand -hex 32`)",
            path.display(),
            token::strength_bits(t)
        )));
    }
    Ok(token::hash_token(t))
}

/// The limits `bastide serve` applies to each client address. Rates are
/// `PER_MINUTE/BURST` (`20/20`: twenty at once, then one every three
/// seconds; `0/0` refuses all).
#[derive(Clone, Debug, clap::Args)]
pub struct LimitArgs {
    /// Games created (and rematches) per address.
    #[arg(long, default_value = "20/20", value_parser = parse_rate)]
    pub create_rate: guard::Rate,
    /// Seats joined per address.
    #[arg(long, default_value = "60/30", value_parser = parse_rate)]
    pub join_rate: guard::Rate,
    /// WebSocket connections opened per address.
    #[arg(long, default_value = "120/60", value_parser = parse_rate)]
    pub connect_rate: guard::Rate,
    /// WebSocket messages per address, over all its connections.
    #[arg(long, default_value = "3000/300", value_parser = parse_rate)]
    pub message_rate: guard::Rate,
    /// HTTP requests of any kind per address.
    #[arg(long, default_value = "3000/300", value_parser = parse_rate)]
    pub request_rate: guard::Rate,
    /// Sign-in attempts (and accounts created) per address, and sign-in
    /// attempts per account name.
    #[arg(long, default_value = "10/10", value_parser = parse_rate)]
    pub sign_in_rate: guard::Rate,
    /// Table chat lines per address, over all its connections.
    #[arg(long, default_value = "30/10", value_parser = parse_rate)]
    pub chat_rate: guard::Rate,
    /// Open connections per address (WebSockets included).
    #[arg(long, default_value_t = 64)]
    pub max_connections_per_address: usize,
    /// Open connections in all (keep it below the process's file limit).
    #[arg(long, default_value_t = 4_096)]
    pub max_connections: usize,
    /// Seconds a client may take to send a request's headers (and a
    /// kept-alive connection may sit idle).
    #[arg(long, default_value_t = 10)]
    pub header_timeout_s: u64,
    /// A proxy network (`127.0.0.1/32`, `10.0.0.0/8`; repeatable) whose
    /// `X-Forwarded-For` names the client; without it the header is
    /// ignored.
    #[arg(long, value_name = "CIDR")]
    pub trust_proxy: Vec<ipnet::IpNet>,
    /// Open games (created, not started) per address.
    #[arg(long, default_value_t = 10)]
    pub max_open_games_per_address: usize,
    /// Bot seats in running games per address.
    #[arg(long, default_value_t = 12)]
    pub max_bot_seats_per_address: usize,
    /// Games of bots only running per address.
    #[arg(long, default_value_t = 2)]
    pub max_bot_games_per_address: usize,
    /// Correspondence games not over per address (or account).
    #[arg(long, default_value_t = 20)]
    pub max_correspondence_games_per_address: usize,
    /// A network (an IPv4 /24, an IPv6 /48) holds this many times an
    /// address's caps, over every game created from it.
    #[arg(long, default_value_t = 8)]
    pub network_cap_factor: usize,
    /// The longest a bot may think about a move in a game created without
    /// the operator's token, in milliseconds (`--bot-move-ms` bounds every
    /// game).
    #[arg(long, default_value_t = 2_000)]
    pub public_bot_move_ms: u64,
    /// The largest MCTS iteration budget in a game created without the
    /// operator's token.
    #[arg(long, default_value_t = 20_000)]
    pub public_mcts_iterations: u32,
    /// Searching bots (MCTS) thinking at once (default: the cores minus
    /// one, at least two); games of bots only hold all but one.
    #[arg(long)]
    pub bot_workers: Option<usize>,
    /// Password hashes (argon2id, 19 MiB each) running at once (default:
    /// the cores); four times as many may wait, and a sign-in beyond
    /// them is refused with 503 and Retry-After.
    #[arg(long)]
    pub password_hashers: Option<usize>,
    /// Minutes an open game waits for its start before it is removed
    /// (0: never).
    #[arg(long, default_value_t = 60)]
    pub open_game_minutes: u64,
    /// Minutes a running untimed game, a person to move, may have nobody
    /// connected before it is adjourned: let go from memory, not resumed
    /// at start, taken up again by a person's hello (0: never).
    #[arg(long, default_value_t = 15)]
    pub adjourn_minutes: u64,
    /// Days an adjourned game waits for a person before it is ended as
    /// resigned by nobody (0: never).
    #[arg(long, default_value_t = 7)]
    pub end_adjourned_days: u64,
    /// Games held in memory at once, across every address; a new game
    /// beyond them is refused (503), its last tenth kept for games with
    /// people. About 40 KiB a game with its sockets (the abuse example's
    /// 20,320 games from 254 networks: +805 MiB), so the default keeps a
    /// crowd of networks under about half a GiB.
    #[arg(long, default_value_t = 12_000)]
    pub max_live_games: usize,
}

fn parse_rate(s: &str) -> Result<guard::Rate, String> {
    let bad = || format!("{s:?}: give a rate as PER_MINUTE/BURST, such as 20/20");
    let (per_minute, burst) = s.split_once('/').ok_or_else(bad)?;
    Ok(guard::Rate::new(
        per_minute.trim().parse().map_err(|_| bad())?,
        burst.trim().parse().map_err(|_| bad())?,
    ))
}

impl LimitArgs {
    /// The limits and caps these flags give, on top of `settings`.
    pub fn apply(&self, settings: Settings) -> Settings {
        Settings {
            limits: guard::Limits {
                creates: self.create_rate,
                joins: self.join_rate,
                connects: self.connect_rate,
                messages: self.message_rate,
                requests: self.request_rate,
                sign_ins: self.sign_in_rate,
                chats: self.chat_rate,
                connections_per_address: self.max_connections_per_address,
                connections: self.max_connections,
                header_timeout: Duration::from_secs(self.header_timeout_s.max(1)),
                trust_proxy: self.trust_proxy.clone(),
            },
            caps: hub::Caps {
                open_games: self.max_open_games_per_address,
                bot_seats: self.max_bot_seats_per_address,
                bots_only_games: self.max_bot_games_per_address,
                correspondence_games: self.max_correspondence_games_per_address,
                network_factor: self.network_cap_factor.max(1),
                think: Duration::from_millis(self.public_bot_move_ms.max(1)),
                iterations: self.public_mcts_iterations.max(1),
            },
            bot_workers: self.bot_workers.unwrap_or(settings.bot_workers).max(1),
            password_hashers: self
                .password_hashers
                .unwrap_or(settings.password_hashers)
                .max(1),
            password_queue: 4 * self
                .password_hashers
                .unwrap_or(settings.password_hashers)
                .max(1),
            open_game_ttl: (self.open_game_minutes > 0)
                .then(|| Duration::from_secs(self.open_game_minutes.saturating_mul(60))),
            adjourn_after: (self.adjourn_minutes > 0)
                .then(|| Duration::from_secs(self.adjourn_minutes.saturating_mul(60))),
            end_adjourned_after: (self.end_adjourned_days > 0)
                .then(|| Duration::from_secs(self.end_adjourned_days.saturating_mul(86_400))),
            max_live_games: self.max_live_games.max(1),
            ..settings
        }
    }
}

/// Why the server could not run.
#[derive(Debug, Error)]
pub enum ServeError {
    /// The database could not be opened or migrated.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The address could not be bound, or the server failed.
    #[error("network: {0}")]
    Io(#[from] std::io::Error),
    /// Shared mode could not start.
    #[error("{0}")]
    Cluster(#[from] ClusterError),
    /// The operator's token file is missing or unfit.
    #[error("--admin-token-file {0}")]
    AdminToken(String),
}

/// Tasks applying other instances' notices; a game's notices always go
/// to the same one, in order. Many: a notice waits for its game's lock
/// (held across a commit's round trip), and holds up the notices of the
/// other games of its task meanwhile.
const NOTICE_WORKERS: usize = 16;

/// A running server: its address and the means to stop it.
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its hub.
    pub hub: Arc<Hub>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    stop: tokio::sync::oneshot::Sender<()>,
    /// Shared mode's background tasks (notices, leases, catch-up).
    background: Vec<tokio::task::AbortHandle>,
}

impl Running {
    /// Stops accepting, lets requests finish, gives up its leases (other
    /// instances take the games over at once), and closes the store.
    pub async fn shutdown(self) {
        self.hub.stop_driving();
        let _ = self.stop.send(());
        let _ = self.task.await;
        for t in &self.background {
            t.abort();
        }
        if let Some(c) = self.hub.cluster() {
            c.release_all().await;
            c.flush().await;
        }
        self.hub.store().close().await;
    }
}

/// Starts a server on `addr` over `store`: resumes every game in the
/// store (bots included), then serves until shut down.
pub async fn start(
    addr: SocketAddr,
    store: Arc<dyn Store>,
    settings: Settings,
) -> Result<Running, ServeError> {
    start_shared(addr, store, settings, None).await
}

/// Starts a server as [`start`] does; with a cluster, as one of several
/// instances sharing the store (docs/scaling.md).
pub async fn start_shared(
    addr: SocketAddr,
    store: Arc<dyn Store>,
    mut settings: Settings,
    cluster: Option<Arc<Cluster>>,
) -> Result<Running, ServeError> {
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    if settings.public_url.is_empty() {
        settings.public_url = format!("http://{addr}");
    }
    let hub = Hub::shared(store, settings, cluster.clone());
    let background = match cluster {
        Some(c) => run_cluster(&hub, c).await?,
        None => Vec::new(),
    };
    // Open games past their wait are removed first: they are not resumed.
    hub.expire_pass().await;
    let resumed = hub.resume_all().await?;
    if resumed > 0 {
        tracing::info!("resumed {resumed} games");
    }
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = http::router(hub.clone());
    let task = tokio::spawn(listen::serve(listener, app, hub.guard().clone(), stopped));
    // The rate limits' memory follows the clients of the last minutes.
    let forget = {
        let guard = hub.guard().clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(60));
            loop {
                tick.tick().await;
                guard.forget_idle();
            }
        })
    };
    let expire = repeat(&hub, Duration::from_secs(60), |hub| async move {
        hub.expire_pass().await;
        hub.adjourn_pass().await;
        hub.end_adjourned_pass().await;
    });
    let mut background = background;
    background.push(forget.abort_handle());
    background.push(expire);
    Ok(Running {
        addr,
        hub,
        task,
        stop,
        background,
    })
}

/// Starts shared mode's tasks: other instances' notices applied in order
/// per game, the leases renewed and orphaned games taken over, and the
/// watched games compared with the log.
async fn run_cluster(
    hub: &Arc<Hub>,
    cluster: Arc<Cluster>,
) -> Result<Vec<tokio::task::AbortHandle>, ServeError> {
    let mut subscription = cluster.subscribe().await?;
    let workers: Vec<tokio::sync::mpsc::Sender<(GameId, Notice)>> = (0..NOTICE_WORKERS)
        .map(|_| {
            // Bounded: a slow worker holds the subscription back, and
            // NATS drops what overflows its buffer; lost notices are
            // found in the log (`Hub::sync_pass`).
            let (tx, mut rx) = tokio::sync::mpsc::channel::<(GameId, Notice)>(1024);
            let hub = hub.clone();
            tokio::spawn(async move {
                while let Some((id, notice)) = rx.recv().await {
                    hub.on_notice(&id, notice).await;
                }
            });
            tx
        })
        .collect();
    let reader = {
        let cluster = cluster.clone();
        tokio::spawn(async move {
            while let Some(message) = subscription.next().await {
                let Some((id, notice)) = cluster.parse(&message) else {
                    continue;
                };
                let worker = {
                    use std::hash::{BuildHasher, BuildHasherDefault};
                    let h =
                        BuildHasherDefault::<std::collections::hash_map::DefaultHasher>::default()
                            .hash_one(&id);
                    (h % NOTICE_WORKERS as u64) as usize
                };
                if workers[worker].send((id, notice)).await.is_err() {
                    break;
                }
            }
        })
    };
    let leases = repeat(
        hub,
        (cluster.lease() / 3).max(Duration::from_millis(50)),
        |hub| async move { hub.lease_pass().await },
    );
    let sync = repeat(hub, cluster.sync_every(), |hub| async move {
        hub.sync_pass().await
    });
    Ok(vec![reader.abort_handle(), leases, sync])
}

/// Runs `pass` every `period` (a late pass delays the next rather than
/// bunching them up) until aborted.
fn repeat<F, Fut>(hub: &Arc<Hub>, period: Duration, pass: F) -> tokio::task::AbortHandle
where
    F: Fn(Arc<Hub>) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let hub = hub.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            pass(hub.clone()).await;
        }
    })
    .abort_handle()
}

/// Waits for Ctrl-C or, on Unix, SIGTERM (what systemd and container
/// runtimes send to stop a service).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// Runs `bastide serve` to the end (Ctrl-C or SIGTERM): opens the database, prints
/// the address to open, serves.
pub fn serve(args: ServeArgs) -> Result<(), ServeError> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // One JSON object per line, for a log collector (journald, Loki).
    let _ = if args.log_json {
        logs.json().try_init()
    } else {
        logs.try_init()
    };
    // The tile pictures a browser asks for, drawn before anyone asks
    // (`assets::prerender`); a request meanwhile draws what it needs.
    let _ = std::thread::Builder::new()
        .name("prerender".into())
        .spawn(assets::prerender);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let admin = args
        .admin_token_file
        .as_deref()
        .map(admin_token)
        .transpose()?;
    runtime.block_on(async move {
        let database = args
            .database
            .clone()
            .unwrap_or_else(|| DEFAULT_DATABASE.to_string());
        let (store, cluster) = match &args.nats {
            None => (store::open(&database).await?, None),
            Some(nats) => {
                if !store::is_postgres_url(&database) {
                    return Err(ClusterError::NeedsPostgres.into());
                }
                let pg = store::postgres::PgStore::open(&database).await?;
                let config = ClusterConfig {
                    nats_url: nats.clone(),
                    prefix: args.nats_prefix.clone(),
                    lease: Duration::from_millis(args.lease_ms.max(100)),
                    sync: Duration::from_millis(args.sync_ms.max(10)),
                };
                let cluster = Cluster::connect(&config, pg.pool().clone()).await?;
                (Arc::new(pg) as Arc<dyn Store>, Some(cluster))
            }
        };
        let shared = cluster
            .as_ref()
            .map(|c| {
                format!(
                    "; shared through NATS at {} as instance {}",
                    cluster::redacted(args.nats.as_deref().unwrap_or_default()),
                    c.instance()
                )
            })
            .unwrap_or_default();
        let settings = args.limits.apply(Settings {
            public_url: args.public_url.clone().unwrap_or_default(),
            bot_move_limit: std::time::Duration::from_millis(args.bot_move_ms.max(1)),
            admin_token: admin,
            ..Settings::default()
        });
        let running = start_shared(args.addr, store.clone(), settings, cluster).await?;
        let what = match store.backend() {
            "postgres" => "PostgreSQL".to_string(),
            _ => format!("SQLite ({database})"),
        };
        // Standard output, one line: scripts and tests read the address.
        println!(
            "Bastide server listening on http://{}/ (database: {what}{shared})",
            running.addr
        );
        stop_signal().await;
        tracing::info!("stopping: letting requests finish");
        running.shutdown().await;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    /// A token file's refusal or acceptance.
    fn read(text: &str) -> bool {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("admin-token");
        std::fs::write(&path, text).expect("write the token");
        super::admin_token(&path).is_ok()
    }

    #[test]
    fn a_weak_operator_token_is_refused() {
        assert!(!read("aaaaaaaaaaaaaaaa\n"));
        assert!(!read("correcthorsebattery"));
        assert!(!read("two words 0123456789abcdef0123456789abcdef"));
        assert!(read(&format!("{}\n", crate::token::random_hex::<16>())));
    }
}
