//! The SQLite store: one file, created on first use, in WAL mode.

use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

use super::StoreError;

/// Games in an SQLite file.
pub struct SqliteStore {
    pool: SqlitePool,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `url`: `sqlite:PATH`,
    /// `sqlite://PATH` or a plain path. Runs the migrations.
    pub async fn open(url: &str) -> Result<SqliteStore, StoreError> {
        let url = if url.starts_with("sqlite:") {
            url.to_string()
        } else {
            format!("sqlite://{url}")
        };
        let options = SqliteConnectOptions::from_str(&url)
            .map_err(|e| StoreError::Url(format!("{url}: {e}")))?
            .create_if_missing(true)
            // WAL: readers never block the writer. With WAL, NORMAL
            // synchronisation loses nothing when the process is killed
            // (only a power cut can lose the last commits).
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("migrations/sqlite").run(&pool).await?;
        Ok(SqliteStore { pool })
    }
}

// A transaction reads one snapshot from its first read on (WAL mode).
super::games::games_impl!(SqliteStore, "sqlite", None::<&str>);

// SQLite has one writer at a time: the transaction's first write
// already keeps every other writer out until it commits, so its reads
// need no lock and a rated game's daily allowances are counted by one
// game's end at a time.
super::players::players_impl!(SqliteStore, sqlx::Sqlite, "", None::<&str>);
