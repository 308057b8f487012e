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

#![warn(missing_docs)]

use std::net::SocketAddr;
use std::sync::Arc;

use axum::serve::ListenerExt;
use thiserror::Error;
use tokio::net::TcpListener;

pub mod assets;
pub mod clock;
pub mod http;
pub mod hub;
pub mod protocol;
pub mod store;
pub mod token;
pub mod ws;

pub use hub::{Hub, Settings};
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
}

/// A running server: its address and the means to stop it.
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// Its hub.
    pub hub: Arc<Hub>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    stop: tokio::sync::oneshot::Sender<()>,
}

impl Running {
    /// Stops accepting, lets requests finish, and closes the store.
    pub async fn shutdown(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
        self.hub.store().close().await;
    }
}

/// Starts a server on `addr` over `store`: resumes every game in the
/// store (bots included), then serves until shut down.
pub async fn start(
    addr: SocketAddr,
    store: Arc<dyn Store>,
    mut settings: Settings,
) -> Result<Running, ServeError> {
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    if settings.public_url.is_empty() {
        settings.public_url = format!("http://{addr}");
    }
    let hub = Hub::new(store, settings);
    let resumed = hub.resume_all().await?;
    if resumed > 0 {
        tracing::info!("resumed {resumed} games");
    }
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let app = http::router(hub.clone());
    let task = tokio::spawn(async move {
        // Without TCP_NODELAY, Nagle's algorithm holds each small update
        // back until the previous one is acknowledged: tens of
        // milliseconds per message on a live game.
        let listener = listener.tap_io(|tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::warn!("TCP_NODELAY: {e}");
            }
        });
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
    });
    Ok(Running {
        addr,
        hub,
        task,
        stop,
    })
}

/// Runs `bastide serve` to the end (Ctrl-C): opens the database, prints
/// the address to open, serves.
pub fn serve(args: ServeArgs) -> Result<(), ServeError> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let database = args
            .database
            .clone()
            .unwrap_or_else(|| DEFAULT_DATABASE.to_string());
        let store = store::open(&database).await?;
        let settings = Settings {
            public_url: args.public_url.clone().unwrap_or_default(),
            bot_move_limit: std::time::Duration::from_millis(args.bot_move_ms.max(1)),
            ..Settings::default()
        };
        let running = start(args.addr, store.clone(), settings).await?;
        let what = match store.backend() {
            "postgres" => "PostgreSQL".to_string(),
            _ => format!("SQLite ({database})"),
        };
        // Standard output, one line: scripts and tests read the address.
        println!(
            "Bastide server listening on http://{}/ (database: {what})",
            running.addr
        );
        let _ = tokio::signal::ctrl_c().await;
        eprintln!("stopping: letting requests finish");
        running.shutdown().await;
        Ok(())
    })
}
