//! The games' rows: one [`Store`](super::Store) implementation for both
//! databases ([`games_impl!`]), as [`players_impl!`](super::players) is
//! for the players' rows. The queries are written once in the SQL both
//! accept: `$N` parameters (SQLite reads them as numbered ones too),
//! `TRUE`/`FALSE`, `CAST(… AS …)`, and seats bound as `i16` (SQLite's
//! INTEGER holds it, PostgreSQL's SMALLINT is it). What differs between
//! the databases is an argument of the macro, so it is seen in one place.

/// The [`Store`](super::Store) implementation for a store with a `pool`
/// field (`SqliteStore`, `PgStore`): `$backend` is its name
/// ([`Store::backend`](super::Store::backend)); `$snapshot` is the
/// statement that makes a read transaction see one snapshot (`None`
/// where every transaction already does).
macro_rules! games_impl {
    ($store:ty, $backend:literal, $snapshot:expr) => {
        #[async_trait::async_trait]
        impl $crate::store::Store for $store {
            fn backend(&self) -> &'static str {
                $backend
            }

            async fn ping(&self) -> Result<(), $crate::store::StoreError> {
                sqlx::query("SELECT 1").execute(&self.pool).await?;
                Ok(())
            }

            async fn create_game(
                &self,
                game: &$crate::store::NewGame,
            ) -> Result<(), $crate::store::StoreError> {
                let mut tx = self.pool.begin().await?;
                sqlx::query(
                    "INSERT INTO games (id, config, status, created, clock, started, rated, \
                     creator, private, network) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                )
                .bind(game.id.as_str())
                .bind(&game.config)
                .bind(game.status.as_str())
                .bind(game.created_ms)
                .bind(&game.clock)
                // A game of bots only starts as it is created.
                .bind((game.status == $crate::store::Status::Playing).then_some(game.created_ms))
                .bind(game.rated)
                .bind(game.creator.map(|c| c.as_bytes().to_vec()))
                .bind(game.private)
                .bind(game.network.map(|c| c.as_bytes().to_vec()))
                .execute(&mut *tx)
                .await?;
                for s in &game.seats {
                    sqlx::query(
                        "INSERT INTO seats (game, seat, kind, token_hash, joined, account) \
                         VALUES ($1, $2, $3, $4, $5, $6)",
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

            async fn load_game(
                &self,
                id: &$crate::store::GameId,
            ) -> Result<Option<$crate::store::StoredGame>, $crate::store::StoreError> {
                use sqlx::Row;
                let game = id.as_str();
                // One read transaction, so the rows agree with each other.
                let mut tx = self.pool.begin().await?;
                if let Some(statement) = $snapshot {
                    sqlx::query(statement).execute(&mut *tx).await?;
                }
                let Some(row) = sqlx::query(
                    "SELECT config, status, resigned_seat, created, rematch, clock, started, \
                     rated, creator, private, network FROM games WHERE id = $1",
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
                    Ok($crate::store::SeatRow {
                        seat: $crate::store::seat_from_i64(
                            game,
                            i64::from(r.try_get::<i16, _>("seat")?),
                        )?,
                        kind: r.try_get("kind")?,
                        token_hash: $crate::store::hash_from_bytes(game, r.try_get("token_hash")?)?,
                        joined: r.try_get("joined")?,
                        player: $crate::store::players::account_of(
                            r.try_get("account")?,
                            r.try_get("name")?,
                        ),
                    })
                })
                .collect::<Result<Vec<_>, $crate::store::StoreError>>()?;
                let rows: Vec<(String, i64)> = sqlx::query_as(
                    "SELECT action, at FROM actions WHERE game = $1 ORDER BY idx",
                )
                .bind(game)
                .fetch_all(&mut *tx)
                .await?;
                tx.commit().await?;
                let (actions, action_times) = rows.into_iter().unzip();
                let resigned: Option<i16> = row.try_get("resigned_seat")?;
                Ok(Some($crate::store::StoredGame {
                    id: id.clone(),
                    config: row.try_get("config")?,
                    status: $crate::store::status_from_str(
                        game,
                        &row.try_get::<String, _>("status")?,
                    )?,
                    resigned: resigned
                        .map(|s| $crate::store::seat_from_i64(game, i64::from(s)))
                        .transpose()?,
                    created_ms: row.try_get("created")?,
                    seats,
                    actions,
                    rematch: row
                        .try_get::<Option<String>, _>("rematch")?
                        .map(|r| {
                            $crate::store::GameId::parse(&r).ok_or_else(|| {
                                $crate::store::StoreError::Corrupt {
                                    game: game.to_string(),
                                    message: "malformed rematch id".into(),
                                }
                            })
                        })
                        .transpose()?,
                    clock: row.try_get("clock")?,
                    started_ms: row.try_get("started")?,
                    action_times,
                    rated: row.try_get("rated")?,
                    private: row.try_get("private")?,
                    creator: $crate::store::CreatorKey::from_stored(game, row.try_get("creator")?)?,
                    network: $crate::store::CreatorKey::from_stored(game, row.try_get("network")?)?,
                }))
            }

            async fn games_with_status(
                &self,
                status: $crate::store::Status,
                limit: u32,
            ) -> Result<Vec<$crate::store::GameId>, $crate::store::StoreError> {
                let rows: Vec<(String,)> = sqlx::query_as(
                    "SELECT id FROM games WHERE status = $1 ORDER BY created DESC LIMIT $2",
                )
                .bind(status.as_str())
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter()
                    .map(|(id,)| $crate::store::stored_id(id))
                    .collect()
            }

            async fn append_action(
                &self,
                id: &$crate::store::GameId,
                index: u32,
                action: &str,
                at_ms: i64,
            ) -> Result<(), $crate::store::StoreError> {
                let conflict = || $crate::store::StoreError::Conflict {
                    game: id.clone(),
                    index,
                };
                // The log is bounded by the engine's action limit, far
                // below the 32 bits of PostgreSQL's column.
                let idx = i32::try_from(index).map_err(|_| conflict())?;
                // The count check refuses a gap; the primary key refuses a
                // second writer of the same index. The casts give
                // PostgreSQL the types of the parameters in the SELECT.
                let result = sqlx::query(
                    "INSERT INTO actions (game, idx, action, at) \
                     SELECT CAST($1 AS TEXT), CAST($2 AS INTEGER), CAST($3 AS TEXT), \
                     CAST($4 AS BIGINT) \
                     WHERE (SELECT COUNT(*) FROM actions WHERE game = CAST($1 AS TEXT)) \
                     = CAST($2 AS INTEGER)",
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
                    Err(e) if $crate::store::is_unique_violation(&e) => Err(conflict()),
                    Err(e) => Err(e.into()),
                }
            }

            async fn start_game(
                &self,
                id: &$crate::store::GameId,
                at_ms: i64,
            ) -> Result<bool, $crate::store::StoreError> {
                let r = sqlx::query(
                    "UPDATE games SET status = 'playing', started = $1 \
                     WHERE id = $2 AND status = 'open'",
                )
                .bind(at_ms)
                .bind(id.as_str())
                .execute(&self.pool)
                .await?;
                Ok(r.rows_affected() == 1)
            }

            async fn replace_with_bot(
                &self,
                id: &$crate::store::GameId,
                seat: u8,
                spec: &str,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query(
                    "UPDATE seats SET kind = $1, token_hash = NULL WHERE game = $2 AND seat = $3",
                )
                .bind(spec)
                .bind(id.as_str())
                .bind(i16::from(seat))
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn set_status(
                &self,
                id: &$crate::store::GameId,
                status: $crate::store::Status,
                resigned: Option<u8>,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query("UPDATE games SET status = $1, resigned_seat = $2 WHERE id = $3")
                    .bind(status.as_str())
                    .bind(resigned.map(i16::from))
                    .bind(id.as_str())
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn set_rematch(
                &self,
                id: &$crate::store::GameId,
                rematch: &$crate::store::GameId,
            ) -> Result<bool, $crate::store::StoreError> {
                let r = sqlx::query(
                    "UPDATE games SET rematch = $1 WHERE id = $2 AND rematch IS NULL",
                )
                .bind(rematch.as_str())
                .bind(id.as_str())
                .execute(&self.pool)
                .await?;
                Ok(r.rows_affected() == 1)
            }

            async fn mark_joined(
                &self,
                id: &$crate::store::GameId,
                seat: u8,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query("UPDATE seats SET joined = TRUE WHERE game = $1 AND seat = $2")
                    .bind(id.as_str())
                    .bind(i16::from(seat))
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn take_seat(
                &self,
                id: &$crate::store::GameId,
                seat: u8,
                hash: &$crate::token::TokenHash,
            ) -> Result<bool, $crate::store::StoreError> {
                let done = sqlx::query(
                    "UPDATE seats SET token_hash = $1, joined = TRUE \
                     WHERE game = $2 AND seat = $3 AND NOT joined AND account IS NULL",
                )
                .bind(hash.to_vec())
                .bind(id.as_str())
                .bind(i16::from(seat))
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() == 1)
            }

            async fn mark_left(
                &self,
                id: &$crate::store::GameId,
                seat: u8,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query("UPDATE seats SET joined = FALSE WHERE game = $1 AND seat = $2")
                    .bind(id.as_str())
                    .bind(i16::from(seat))
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn expire_open(
                &self,
                before_ms: i64,
                limit: u32,
            ) -> Result<Vec<$crate::store::GameId>, $crate::store::StoreError> {
                let rows: Vec<(String,)> = sqlx::query_as(
                    "SELECT id FROM games WHERE status = 'open' AND created < $1 \
                     ORDER BY created LIMIT $2",
                )
                .bind(before_ms)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                let mut removed = Vec::new();
                for (id,) in rows {
                    let id = $crate::store::stored_id(id)?;
                    if self.delete_open(&id).await? {
                        removed.push(id);
                    }
                }
                Ok(removed)
            }

            async fn delete_open(
                &self,
                id: &$crate::store::GameId,
            ) -> Result<bool, $crate::store::StoreError> {
                let mut tx = self.pool.begin().await?;
                // The write comes first and changes nothing: it takes
                // SQLite's write lock and PostgreSQL's row lock (waiting
                // for, then seeing, a start by another instance), so
                // nobody starts the game while it is removed; one started
                // meanwhile is not open.
                let still_open = sqlx::query(
                    "UPDATE games SET status = 'open' WHERE id = $1 AND status = 'open'",
                )
                .bind(id.as_str())
                .execute(&mut *tx)
                .await?;
                if still_open.rows_affected() == 0 {
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

            async fn adjourn(
                &self,
                id: &$crate::store::GameId,
                at_ms: i64,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query(
                    "INSERT INTO adjourned (game, since) VALUES ($1, $2) \
                     ON CONFLICT (game) DO NOTHING",
                )
                .bind(id.as_str())
                .bind(at_ms)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn unadjourn(
                &self,
                id: &$crate::store::GameId,
            ) -> Result<bool, $crate::store::StoreError> {
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
            ) -> Result<Vec<$crate::store::GameId>, $crate::store::StoreError> {
                let rows: Vec<(String,)> = sqlx::query_as(
                    "SELECT game FROM adjourned WHERE since < $1 ORDER BY since LIMIT $2",
                )
                .bind(before_ms)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter()
                    .map(|(game,)| $crate::store::stored_id(game))
                    .collect()
            }

            async fn charged_to(
                &self,
                creator: &$crate::store::CreatorKey,
                network: Option<&$crate::store::CreatorKey>,
            ) -> Result<Vec<$crate::store::ChargedGame>, $crate::store::StoreError> {
                let rows = sqlx::query_as($crate::store::CHARGED_QUERY)
                    .bind(creator.as_bytes().to_vec())
                    .bind(network.map(|n| n.as_bytes().to_vec()))
                    .bind(i64::from($crate::store::CHARGED_LIMIT))
                    .fetch_all(&self.pool)
                    .await?;
                $crate::store::charged_games(rows)
            }

            async fn count_by_status(
                &self,
            ) -> Result<Vec<($crate::store::Status, u64)>, $crate::store::StoreError> {
                let rows: Vec<(String, i64)> =
                    sqlx::query_as("SELECT status, COUNT(*) FROM games GROUP BY status")
                        .fetch_all(&self.pool)
                        .await?;
                Ok($crate::store::status_counts(rows))
            }

            async fn close(&self) {
                self.pool.close().await;
            }
        }
    };
}

pub(crate) use games_impl;
