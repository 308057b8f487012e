//! The PostgreSQL store, named by a `postgres://` URL.
//!
//! A URL may choose a schema with libpq's `options` parameter, e.g.
//! `postgres://u@host/db?options=-c%20search_path%3Dbastide`: the tables
//! and migration history then live in that schema (the tests give each
//! test its own).

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

use super::StoreError;

/// Games in a PostgreSQL database.
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    /// Connects to `url` and runs the migrations.
    pub async fn open(url: &str) -> Result<PgStore, StoreError> {
        let options =
            PgConnectOptions::from_str(url).map_err(|e| StoreError::Url(format!("{e}")))?;
        PgStore::connect_with(options).await
    }

    /// Connects with explicit options and runs the migrations.
    pub async fn connect_with(options: PgConnectOptions) -> Result<PgStore, StoreError> {
        let pool = PgPoolOptions::new()
            .max_connections(16)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(options)
            .await?;
        sqlx::migrate!("migrations/postgres").run(&pool).await?;
        Ok(PgStore { pool })
    }
}

impl PgStore {
    /// The connection pool (shared mode keeps its leases in the same
    /// database).
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }
}

// REPEATABLE READ: a transaction's reads see one snapshot (PostgreSQL's
// default, READ COMMITTED, takes one per statement).
super::games::games_impl!(
    PgStore,
    "postgres",
    Some("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
);

// The ratings about to be changed are locked as they are read: two games
// ending at once for one player apply one after the other. A rated
// game's daily allowances (per pair, per shared address) are held by
// transaction-scoped advisory locks while counted and written, so two
// games ending at once cannot both take the last one.
super::players::players_impl!(
    PgStore,
    sqlx::Postgres,
    " FOR UPDATE",
    Some("SELECT pg_advisory_xact_lock($1)")
);
