//! The SQLite store: one file, created on first use, in WAL mode.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::Row;

use super::{
    hash_from_bytes, is_unique_violation, seat_from_i64, status_from_str, GameId, NewGame, SeatRow,
    Status, Store, StoreError, StoredGame,
};

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

#[async_trait]
impl Store for SqliteStore {
    fn backend(&self) -> &'static str {
        "sqlite"
    }

    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("INSERT INTO games (id, config, status, created, clock, started, rated, creator, private, network) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
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
                "INSERT INTO seats (game, seat, kind, token_hash, joined, account) VALUES (?, ?, ?, ?, ?, ?)",
            )
            .bind(game.id.as_str())
            .bind(i64::from(s.seat))
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
        // One read transaction, so the rows agree with each other.
        let mut tx = self.pool.begin().await?;
        let Some(row) = sqlx::query(
            "SELECT config, status, resigned_seat, created, rematch, clock, started, rated, creator, private, network FROM games WHERE id = ?",
        )
        .bind(game)
        .fetch_optional(&mut *tx)
        .await?
        else {
            return Ok(None);
        };
        let seats = sqlx::query(
            "SELECT s.seat, s.kind, s.token_hash, s.joined, s.account, a.name FROM seats s \
             LEFT JOIN accounts a ON a.id = s.account WHERE s.game = ? ORDER BY s.seat",
        )
        .bind(game)
        .fetch_all(&mut *tx)
        .await?
        .into_iter()
        .map(|r| {
            Ok(SeatRow {
                seat: seat_from_i64(game, r.try_get("seat")?)?,
                kind: r.try_get("kind")?,
                token_hash: hash_from_bytes(game, r.try_get("token_hash")?)?,
                joined: r.try_get("joined")?,
                player: super::players::account_of(r.try_get("account")?, r.try_get("name")?),
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        let rows = sqlx::query("SELECT idx, action, at FROM actions WHERE game = ? ORDER BY idx")
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
        let resigned: Option<i64> = row.try_get("resigned_seat")?;
        Ok(Some(StoredGame {
            id: id.clone(),
            config: row.try_get("config")?,
            status: status_from_str(game, &row.try_get::<String, _>("status")?)?,
            resigned: resigned.map(|s| seat_from_i64(game, s)).transpose()?,
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
            sqlx::query("SELECT id FROM games WHERE status = ? ORDER BY created DESC LIMIT ?")
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
        // The count check refuses a gap; the primary key refuses a second
        // writer of the same index.
        let result = sqlx::query(
            "INSERT INTO actions (game, idx, action, at) \
             SELECT ?1, ?2, ?3, ?4 WHERE (SELECT COUNT(*) FROM actions WHERE game = ?1) = ?2",
        )
        .bind(id.as_str())
        .bind(i64::from(index))
        .bind(action)
        .bind(at_ms)
        .execute(&self.pool)
        .await;
        let conflict = || StoreError::Conflict {
            game: id.clone(),
            index,
        };
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
        sqlx::query("UPDATE games SET status = ?, resigned_seat = ? WHERE id = ?")
            .bind(status.as_str())
            .bind(resigned.map(i64::from))
            .bind(id.as_str())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn set_rematch(&self, id: &GameId, rematch: &GameId) -> Result<bool, StoreError> {
        let r = sqlx::query("UPDATE games SET rematch = ? WHERE id = ? AND rematch IS NULL")
            .bind(rematch.as_str())
            .bind(id.as_str())
            .execute(&self.pool)
            .await?;
        Ok(r.rows_affected() == 1)
    }

    async fn start_game(&self, id: &GameId, at_ms: i64) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "UPDATE games SET status = 'playing', started = ? WHERE id = ? AND status = 'open'",
        )
        .bind(at_ms)
        .bind(id.as_str())
        .execute(&self.pool)
        .await?;
        Ok(r.rows_affected() == 1)
    }

    async fn replace_with_bot(&self, id: &GameId, seat: u8, spec: &str) -> Result<(), StoreError> {
        sqlx::query("UPDATE seats SET kind = ?, token_hash = NULL WHERE game = ? AND seat = ?")
            .bind(spec)
            .bind(id.as_str())
            .bind(i64::from(seat))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn mark_joined(&self, id: &GameId, seat: u8) -> Result<(), StoreError> {
        sqlx::query("UPDATE seats SET joined = 1 WHERE game = ? AND seat = ?")
            .bind(id.as_str())
            .bind(i64::from(seat))
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
            "UPDATE seats SET token_hash = ?, joined = 1 WHERE game = ? AND seat = ? AND joined = 0 AND account IS NULL",
        )
        .bind(hash.to_vec())
        .bind(id.as_str())
        .bind(i64::from(seat))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn mark_left(&self, id: &GameId, seat: u8) -> Result<(), StoreError> {
        sqlx::query("UPDATE seats SET joined = 0 WHERE game = ? AND seat = ?")
            .bind(id.as_str())
            .bind(i64::from(seat))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    async fn expire_open(&self, before_ms: i64, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'open' AND created < ? ORDER BY created LIMIT ?",
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
        // One transaction; SQLite has one writer at a time, so from the
        // first write on nobody can start the game under us.
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "DELETE FROM seats WHERE game = ?1 AND (SELECT status FROM games WHERE id = ?1) = 'open'",
        )
        .bind(id.as_str())
        .execute(&mut *tx)
        .await?;
        sqlx::query("UPDATE games SET rematch = NULL WHERE rematch = ?")
            .bind(id.as_str())
            .execute(&mut *tx)
            .await?;
        let gone = sqlx::query("DELETE FROM games WHERE id = ? AND status = 'open'")
            .bind(id.as_str())
            .execute(&mut *tx)
            .await?;
        if gone.rows_affected() == 1 {
            tx.commit().await?;
            Ok(true)
        } else {
            tx.rollback().await?;
            Ok(false)
        }
    }

    async fn adjourn(&self, id: &GameId, at_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO adjourned (game, since) VALUES (?, ?) ON CONFLICT (game) DO NOTHING",
        )
        .bind(id.as_str())
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn unadjourn(&self, id: &GameId) -> Result<bool, StoreError> {
        let gone = sqlx::query("DELETE FROM adjourned WHERE game = ?")
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
        let rows = sqlx::query("SELECT game FROM adjourned WHERE since < ? ORDER BY since LIMIT ?")
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

// SQLite has one writer at a time: the transaction's first write
// already keeps every other writer out until it commits, so its reads
// need no lock and a rated game's daily allowances are counted by one
// game's end at a time.
super::players::players_impl!(SqliteStore, sqlx::Sqlite, "", None::<&str>);
