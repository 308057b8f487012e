//! The PostgreSQL store, named by a `postgres://` URL.
//!
//! A URL may choose a schema with libpq's `options` parameter, e.g.
//! `postgres://u@host/db?options=-c%20search_path%3Dbastide`: the tables
//! and migration history then live in that schema (the tests give each
//! test its own).

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::Row;

use super::{
    hash_from_bytes, is_unique_violation, seat_from_i64, status_from_str, GameId, NewGame, SeatRow,
    Status, Store, StoreError, StoredGame,
};

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

#[async_trait]
impl Store for PgStore {
    fn backend(&self) -> &'static str {
        "postgres"
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO games (id, config, status, created, clock, started, rated, creator, private, network) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
            .bind(game.id.as_str())
            .bind(&game.config)
            .bind(game.status.as_str())
            .bind(game.created_ms)
            .bind(&game.clock)
            // A game of bots only starts as it is created.
            .bind((game.status == Status::Playing).then_some(game.created_ms))
            .bind(game.rated)
            .bind(game.creator.map(|c| c.as_bytes().to_vec()))
            .bind(game.private)
            .bind(game.network.map(|c| c.as_bytes().to_vec()))
            .execute(&mut *tx)
            .await?;
        for s in &game.seats {
            sqlx::query(
                "INSERT INTO seats (game, seat, kind, token_hash, joined, account) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(game.id.as_str())
            .bind(i16::from(s.seat))
            .bind(&s.kind)
            .bind(s.token_hash.map(|h| h.to_vec()))
            .bind(s.joined)
            .bind(s.player.as_ref().map(|p| p.id))
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    async fn load_game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        let game = id.as_str();
        // REPEATABLE READ: the three reads see one snapshot.
        let mut tx = self.pool.begin().await?;
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            .execute(&mut *tx)
            .await?;
        let Some(row) = sqlx::query(
            "SELECT config, status, resigned_seat, created, rematch, clock, started, rated, creator, private, network FROM games WHERE id = $1",
        )
        .bind(game)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let seats = sqlx::query(
            "SELECT s.seat, s.kind, s.token_hash, s.joined, s.account, a.name FROM seats s \
             LEFT JOIN accounts a ON a.id = s.account WHERE s.game = $1 ORDER BY s.seat",
        )
        .bind(game)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|r| {
            Ok(SeatRow {
                seat: seat_from_i64(game, i64::from(r.try_get::<i16, _>("seat")?))?,
                kind: r.try_get("kind")?,
                token_hash: hash_from_bytes(game, r.try_get("token_hash")?)?,
                joined: r.try_get("joined")?,
                player: super::players::account_of(r.try_get("account")?, r.try_get("name")?),
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let rows = sqlx::query("SELECT idx, action, at FROM actions WHERE game = $1 ORDER BY idx")
            .bind(game)
            .fetch_all(&mut *tx)
            .await?;
        let mut actions = Vec::with_capacity(rows.len());
        let mut action_times = Vec::with_capacity(rows.len());
        for r in rows {
            actions.push(r.try_get::<String, _>("action")?);
            action_times.push(r.try_get::<i64, _>("at")?);
        }
        tx.commit().await?;
        let resigned: Option<i16> = row.try_get("resigned_seat")?;
        Ok(Some(StoredGame {
            id: id.clone(),
            config: row.try_get("config")?,
            status: status_from_str(game, &row.try_get::<String, _>("status")?)?,
            resigned: resigned
                .map(|s| seat_from_i64(game, i64::from(s)))
                .transpose()?,
            created_ms: row.try_get("created")?,
            seats,
            actions,
            rematch: row
                .try_get::<Option<String>, _>("rematch")?
                .map(|r| {
                    GameId::parse(&r).ok_or_else(|| StoreError::Corrupt {
                        game: game.to_string(),
                        message: "malformed rematch id".into(),
                    })
                })
                .transpose()?,
            clock: row.try_get("clock")?,
            started_ms: row.try_get("started")?,
            action_times,
            rated: row.try_get("rated")?,
            private: row.try_get("private")?,
            creator: super::CreatorKey::from_stored(game, row.try_get("creator")?)?,
            network: super::CreatorKey::from_stored(game, row.try_get("network")?)?,
        }))
    }

    async fn games_with_status(
        &self,
        status: Status,
        limit: u32,
    ) -> Result<Vec<GameId>, StoreError> {
        let rows =
            sqlx::query("SELECT id FROM games WHERE status = $1 ORDER BY created DESC LIMIT $2")
                .bind(status.as_str())
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
        rows.into_iter()
            .map(|r| {
                let id: String = r.try_get("id")?;
                GameId::parse(&id).ok_or_else(|| StoreError::Corrupt {
                    message: "malformed game id".into(),
                    game: id,
                })
            })
            .collect()
    }

    async fn append_action(
        &self,
        id: &GameId,
        index: u32,
        action: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let conflict = || StoreError::Conflict {
            game: id.clone(),
            index,
        };
        // The log is bounded by the engine's action limit, far below i32.
        let idx = i32::try_from(index).map_err(|_| conflict())?;
        // The count check refuses a gap; the primary key refuses a second
        // writer of the same index.
        let result = sqlx::query(
            "INSERT INTO actions (game, idx, action, at) \
             SELECT $1::text, $2::integer, $3::text, $4::bigint \
             WHERE (SELECT COUNT(*) FROM actions WHERE game = $1::text) = $2::integer",
        )
        .bind(id.as_str())
        .bind(idx)
        .bind(action)
        .bind(at_ms)
        .execute(&self.pool)
        .await;
        match result {
            Ok(r) if r.rows_affected() == 1 => Ok(()),
            Ok(_) => Err(conflict()),
            Err(e) if is_unique_violation(&e) => Err(conflict()),
            Err(e) => Err(e.into()),
        }
    }

    async fn set_status(
        &self,
        id: &GameId,
        status: Status,
        resigned: Option<u8>,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE games SET status = $1, resigned_seat = $2 WHERE id = $3")
            .bind(status.as_str())
            .bind(resigned.map(i16::from))
            .bind(id.as_str())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn set_rematch(&self, id: &GameId, rematch: &GameId) -> Result<bool, StoreError> {
        let r = sqlx::query("UPDATE games SET rematch = $1 WHERE id = $2 AND rematch IS NULL")
            .bind(rematch.as_str())
            .bind(id.as_str())
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }

    async fn start_game(&self, id: &GameId, at_ms: i64) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "UPDATE games SET status = 'playing', started = $1 WHERE id = $2 AND status = 'open'",
        )
        .bind(at_ms)
        .bind(id.as_str())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    async fn replace_with_bot(&self, id: &GameId, seat: u8, spec: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE seats SET kind = $1, token_hash = NULL WHERE game = $2 AND seat = $3")
            .bind(spec)
            .bind(id.as_str())
            .bind(i16::from(seat))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn mark_joined(&self, id: &GameId, seat: u8) -> Result<(), StoreError> {
        sqlx::query("UPDATE seats SET joined = TRUE WHERE game = $1 AND seat = $2")
            .bind(id.as_str())
            .bind(i16::from(seat))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn take_seat(
        &self,
        id: &GameId,
        seat: u8,
        hash: &crate::token::TokenHash,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE seats SET token_hash = $1, joined = TRUE WHERE game = $2 AND seat = $3 AND NOT joined AND account IS NULL",
        )
        .bind(hash.to_vec())
        .bind(id.as_str())
        .bind(i16::from(seat))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn mark_left(&self, id: &GameId, seat: u8) -> Result<(), StoreError> {
        sqlx::query("UPDATE seats SET joined = FALSE WHERE game = $1 AND seat = $2")
            .bind(id.as_str())
            .bind(i16::from(seat))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn expire_open(&self, before_ms: i64, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'open' AND created < $1 ORDER BY created LIMIT $2",
        )
        .bind(before_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut removed = Vec::new();
        for row in rows {
            let id = super::stored_id(row.try_get("id")?)?;
            if self.delete_open(&id).await? {
                removed.push(id);
            }
        }
        Ok(removed)
    }

    async fn delete_open(&self, id: &GameId) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        // The row lock keeps another instance from starting the game
        // while it is removed; one started meanwhile is not open.
        let still_open =
            sqlx::query("SELECT 1 FROM games WHERE id = $1 AND status = 'open' FOR UPDATE")
                .bind(id.as_str())
                .fetch_optional(&mut *tx)
                .await?;
        if still_open.is_none() {
            tx.rollback().await?;
            return Ok(false);
        }
        for sql in [
            "DELETE FROM seats WHERE game = $1",
            "UPDATE games SET rematch = NULL WHERE rematch = $1",
            "DELETE FROM games WHERE id = $1",
        ] {
            sqlx::query(sql).bind(id.as_str()).execute(&mut *tx).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn adjourn(&self, id: &GameId, at_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO adjourned (game, since) VALUES ($1, $2) ON CONFLICT (game) DO NOTHING",
        )
        .bind(id.as_str())
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn unadjourn(&self, id: &GameId) -> Result<bool, StoreError> {
        let gone = sqlx::query("DELETE FROM adjourned WHERE game = $1")
            .bind(id.as_str())
            .execute(&self.pool)
            .await?;
        Ok(gone.rows_affected() > 0)
    }

    async fn adjourned_before(
        &self,
        before_ms: i64,
        limit: u32,
    ) -> Result<Vec<GameId>, StoreError> {
        let rows =
            sqlx::query("SELECT game FROM adjourned WHERE since < $1 ORDER BY since LIMIT $2")
                .bind(before_ms)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
        rows.into_iter()
            .map(|r| super::stored_id(r.try_get("game")?))
            .collect()
    }

    async fn charged_to(
        &self,
        creator: &super::CreatorKey,
        network: Option<&super::CreatorKey>,
    ) -> Result<Vec<super::ChargedGame>, StoreError> {
        let rows = sqlx::query_as(super::CHARGED_QUERY)
            .bind(creator.as_bytes().to_vec())
            .bind(network.map(|n| n.as_bytes().to_vec()))
            .bind(i64::from(super::CHARGED_LIMIT))
            .fetch_all(&self.pool)
            .await?;
        super::charged_games(rows)
    }

    async fn count_by_status(&self) -> Result<Vec<(Status, u64)>, StoreError> {
        let rows: Vec<(String, i64)> =
            sqlx::query_as("SELECT status, COUNT(*) FROM games GROUP BY status")
                .fetch_all(&self.pool)
                .await?;
        Ok(super::status_counts(rows))
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}

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
