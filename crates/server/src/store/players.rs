//! The players' rows: accounts, their sessions, seats held by account,
//! ratings and their changes. One implementation serves both databases
//! ([`players_impl!`]): the queries are written in the SQL both accept
//! (`$N` parameters, which SQLite reads as numbered ones too).

use async_trait::async_trait;

use super::{CreatorKey, GameId, Status, StoreError};
use crate::rating::{Class, Glicko};
use crate::token::TokenHash;

/// An account as the server shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    /// Its number.
    pub id: i64,
    /// Its name as chosen (unique without regard to case).
    pub name: String,
}

/// A player's standing in one rating class.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    /// Rating, deviation and volatility.
    pub glicko: Glicko,
    /// Rated games played in the class.
    pub games: i64,
    /// Rated games won (first place, alone or shared).
    pub wins: i64,
}

/// A game an account holds a seat in.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatOf {
    /// The game.
    pub game: GameId,
    /// The seat.
    pub seat: u8,
    /// The game's status.
    pub status: Status,
    /// When it was created (Unix milliseconds).
    pub created_ms: i64,
    /// Whether it is rated.
    pub rated: bool,
    /// The seat's place at the end (1 the best), once over.
    pub place: Option<u8>,
    /// The rating before and after, for a rated game that ended.
    pub change: Option<(f64, f64)>,
}

/// What one rated game did to a player's rating: a point of the rating
/// chart on the profile page.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    /// The game.
    pub game: GameId,
    /// Its rating class.
    pub class: Class,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
    /// The deviation after it.
    pub deviation: f64,
    /// When the game ended (Unix milliseconds).
    pub at_ms: i64,
}

/// One entry of a leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    /// The player's name.
    pub name: String,
    /// Their standing.
    pub standing: Standing,
}

/// What the end of a game with accounts in it writes besides its status:
/// each seat's place, and for a rated game the new ratings.
#[derive(Clone, Debug)]
pub struct GameEnd {
    /// The status it ends with.
    pub status: Status,
    /// The seat that resigned or ran out of time.
    pub resigned: Option<u8>,
    /// Each seat's place (1 the best), in seat order.
    pub places: Vec<u8>,
    /// For a rated game: the class, each seat's account (`None`: a bot),
    /// and each seat's rating as far as the server knows it without the
    /// store (a bot's fixed one; an account's is read in the transaction).
    pub rated: Option<(Class, Vec<Option<i64>>, Vec<Glicko>)>,
    /// When it ended (Unix milliseconds).
    pub at_ms: i64,
}

/// The players' part of the store.
#[async_trait]
pub trait Players: Send + Sync {
    /// Creates an account; `None` when the name is taken (in any case).
    async fn create_account(
        &self,
        name: &str,
        password_hash: &str,
        at_ms: i64,
    ) -> Result<Option<Account>, StoreError>;

    /// The account of a name (in any case) and its password hash.
    async fn account_by_name(&self, name: &str) -> Result<Option<(Account, String)>, StoreError>;

    /// Writes a session of `account` whose token hashes to `token_hash`,
    /// good until `expires_ms`.
    async fn create_session(
        &self,
        token_hash: &TokenHash,
        account: i64,
        at_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError>;

    /// The account of a session still good at `now_ms`.
    async fn session_account(
        &self,
        token_hash: &TokenHash,
        now_ms: i64,
    ) -> Result<Option<Account>, StoreError>;

    /// Ends a session (nothing if there is none).
    async fn delete_session(&self, token_hash: &TokenHash) -> Result<(), StoreError>;

    /// Sets an account's password hash and ends its sessions but `keep`
    /// (the one changing it), together: a thief signed in elsewhere is
    /// signed out by the change. Returns the sessions ended.
    async fn set_password(
        &self,
        account: i64,
        password_hash: &str,
        keep: &TokenHash,
    ) -> Result<u64, StoreError>;

    /// Ends every session of an account (signing out everywhere);
    /// returns how many there were.
    async fn delete_sessions(&self, account: i64) -> Result<u64, StoreError>;

    /// Binds a seat to an account (the account's player holds it), with
    /// the seat's place when the game is over already (a guest's ended
    /// game claimed).
    async fn bind_seat(
        &self,
        id: &GameId,
        seat: u8,
        account: i64,
        place: Option<u8>,
    ) -> Result<(), StoreError>;

    /// The seats an account holds, newest game first; `over` chooses the
    /// ended games (else the open and running ones).
    async fn seats_of(
        &self,
        account: i64,
        over: bool,
        limit: u32,
    ) -> Result<Vec<SeatOf>, StoreError>;

    /// Ends a running game: its status, places and (rated) the new
    /// ratings in one transaction. Says whether this call ended it (a game
    /// already ended changes no more, and its ratings are not moved twice).
    async fn end_game(&self, id: &GameId, end: &GameEnd) -> Result<bool, StoreError>;

    /// An account's standing per class.
    async fn standings(&self, account: i64) -> Result<Vec<(Class, Standing)>, StoreError>;

    /// The best-rated players of a class, at most `limit`.
    async fn leaderboard(&self, class: Class, limit: u32) -> Result<Vec<Ranked>, StoreError>;

    /// An account's rating changes, oldest first, the newest `limit` of
    /// them.
    async fn rating_history(
        &self,
        account: i64,
        limit: u32,
    ) -> Result<Vec<RatingPoint>, StoreError>;

    /// What a rated game that ended did to each player's rating, by seat
    /// (none for an unrated game, or one not over).
    async fn game_ratings(&self, id: &GameId) -> Result<Vec<SeatRating>, StoreError>;

    /// Notes that `account` was seen at `address` (signing in, signing
    /// up, creating or taking a seat) at `at_ms`: accounts seen at one
    /// address share its daily allowance of rated games
    /// ([`crate::rating::RATED_PAIRS_PER_DAY`]).
    async fn saw_account(
        &self,
        account: i64,
        address: &CreatorKey,
        at_ms: i64,
    ) -> Result<(), StoreError>;

    /// Voids every rated result of `account` (an operator's sanction of a
    /// cheat): each rated game it played counts for nobody any more. Its
    /// opponents get back what those games moved their ratings by (games
    /// and wins too; deviations stay), its own ratings start over as a
    /// new player's, and the games leave every rating history. Returns
    /// the games voided.
    async fn void_ratings(&self, account: i64) -> Result<u64, StoreError>;
}

/// One seat's rating change in a rated game that ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatRating {
    /// The seat.
    pub seat: u8,
    /// The player's name.
    pub name: String,
    /// The rating before the game.
    pub before: f64,
    /// The rating after it.
    pub after: f64,
}

/// An account from a seat's columns (both there, or none).
pub(crate) fn account_of(id: Option<i64>, name: Option<String>) -> Option<Account> {
    Some(Account {
        id: id?,
        name: name?,
    })
}

/// Reads a stored rating class.
pub(crate) fn class_from_str(s: &str) -> Result<Class, StoreError> {
    Class::parse(s).ok_or_else(|| StoreError::Corrupt {
        game: String::new(),
        message: format!("unknown rating class {s:?}"),
    })
}

/// The new rating of every seat of a rated game, from the ratings before
/// (`before[seat]`) and the places, with the pairs in `uncounted` (past
/// the daily limit) left out; `None` for a seat none of whose pairs
/// counted: the game moves its rating not at all.
pub(crate) fn settle(
    places: &[u8],
    before: &[Glicko],
    uncounted: &[(usize, usize)],
) -> Vec<Option<Glicko>> {
    (0..places.len())
        .map(|s| {
            let counts = |o: usize| !uncounted.contains(&(s.min(o), s.max(o)));
            let results = crate::rating::outcomes_counted(s, places, before, counts);
            (!results.is_empty())
                .then(|| crate::rating::update(before[s], &results, crate::rating::TAU))
        })
        .collect()
}

/// One `COUNT(*)` row, as both databases return it.
pub(crate) type Count = (i64,);

/// The lock keys of a rated game's daily allowances, in the order they
/// are taken: one per pair of accounts (`low`, `high`) and one per
/// address a pair shares. Sorted, so that two games ending at once take
/// the keys they share in one order and never wait on each other in a
/// circle; a collision of two keys only serialises more than needed.
pub(crate) fn allowance_keys(pairs: &[(i64, i64, Option<Vec<u8>>)]) -> Vec<i64> {
    use sha2::{Digest, Sha256};
    let key = |what: &[u8]| {
        let digest = Sha256::digest(what);
        let mut first = [0u8; 8];
        first.copy_from_slice(&digest[..8]);
        i64::from_be_bytes(first)
    };
    let mut keys: Vec<i64> = pairs
        .iter()
        .flat_map(|(low, high, address)| {
            let pair = key(format!("rated pair {low} {high}").as_bytes());
            let shared = address
                .as_ref()
                .map(|a| key(&[b"rated address ".as_slice(), a].concat()));
            std::iter::once(pair).chain(shared)
        })
        .collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The [`Players`] implementation for a store with a `pool` field
/// (`SqliteStore`, `PgStore`) over sqlx's database `$db`; `$lock` is what
/// a read of ratings about to be changed ends with (`FOR UPDATE` where
/// the database has it); `$allowance` is the statement that takes a lock
/// key of [`allowance_keys`] until the transaction ends (`None` where the
/// transaction's first write already keeps every other writer out).
macro_rules! players_impl {
    ($store:ty, $db:ty, $lock:literal, $allowance:expr) => {
        #[async_trait::async_trait]
        impl $crate::store::players::Players for $store {
            async fn create_account(
                &self,
                name: &str,
                password_hash: &str,
                at_ms: i64,
            ) -> Result<Option<$crate::store::players::Account>, $crate::store::StoreError> {
                let r: Result<(i64,), sqlx::Error> = sqlx::query_as(
                    "INSERT INTO accounts (name, name_key, password, created) \
                     VALUES ($1, $2, $3, $4) RETURNING id",
                )
                .bind(name)
                .bind(name.to_lowercase())
                .bind(password_hash)
                .bind(at_ms)
                .fetch_one(&self.pool)
                .await;
                match r {
                    Ok((id,)) => Ok(Some($crate::store::players::Account {
                        id,
                        name: name.to_string(),
                    })),
                    Err(e) if $crate::store::is_unique_violation(&e) => Ok(None),
                    Err(e) => Err(e.into()),
                }
            }

            async fn account_by_name(
                &self,
                name: &str,
            ) -> Result<Option<($crate::store::players::Account, String)>, $crate::store::StoreError>
            {
                let row: Option<(i64, String, String)> = sqlx::query_as(
                    "SELECT id, name, password FROM accounts WHERE name_key = $1",
                )
                .bind(name.to_lowercase())
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(|(id, name, password)| {
                    ($crate::store::players::Account { id, name }, password)
                }))
            }

            async fn create_session(
                &self,
                token_hash: &$crate::token::TokenHash,
                account: i64,
                at_ms: i64,
                expires_ms: i64,
            ) -> Result<(), $crate::store::StoreError> {
                // Sessions past their time go as new ones come: the table
                // holds the sessions of the last weeks, not all ever made.
                sqlx::query("DELETE FROM sessions WHERE expires < $1")
                    .bind(at_ms)
                    .execute(&self.pool)
                    .await?;
                sqlx::query(
                    "INSERT INTO sessions (token_hash, account, created, expires) \
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(token_hash.to_vec())
                .bind(account)
                .bind(at_ms)
                .bind(expires_ms)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn session_account(
                &self,
                token_hash: &$crate::token::TokenHash,
                now_ms: i64,
            ) -> Result<Option<$crate::store::players::Account>, $crate::store::StoreError> {
                let row: Option<(i64, String)> = sqlx::query_as(
                    "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account \
                     WHERE s.token_hash = $1 AND s.expires > $2",
                )
                .bind(token_hash.to_vec())
                .bind(now_ms)
                .fetch_optional(&self.pool)
                .await?;
                Ok(row.map(|(id, name)| $crate::store::players::Account { id, name }))
            }

            async fn delete_session(
                &self,
                token_hash: &$crate::token::TokenHash,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                    .bind(token_hash.to_vec())
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn set_password(
                &self,
                account: i64,
                password_hash: &str,
                keep: &$crate::token::TokenHash,
            ) -> Result<u64, $crate::store::StoreError> {
                let mut tx = self.pool.begin().await?;
                sqlx::query("UPDATE accounts SET password = $1 WHERE id = $2")
                    .bind(password_hash)
                    .bind(account)
                    .execute(&mut *tx)
                    .await?;
                let ended = sqlx::query("DELETE FROM sessions WHERE account = $1 AND token_hash <> $2")
                    .bind(account)
                    .bind(keep.to_vec())
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                tx.commit().await?;
                Ok(ended)
            }

            async fn delete_sessions(&self, account: i64) -> Result<u64, $crate::store::StoreError> {
                Ok(sqlx::query("DELETE FROM sessions WHERE account = $1")
                    .bind(account)
                    .execute(&self.pool)
                    .await?
                    .rows_affected())
            }

            async fn bind_seat(
                &self,
                id: &$crate::store::GameId,
                seat: u8,
                account: i64,
                place: Option<u8>,
            ) -> Result<(), $crate::store::StoreError> {
                sqlx::query(
                    "UPDATE seats SET account = $1, place = COALESCE($2, place) \
                     WHERE game = $3 AND seat = $4",
                )
                    .bind(account)
                    .bind(place.map(i16::from))
                    .bind(id.as_str())
                    .bind(i16::from(seat))
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn seats_of(
                &self,
                account: i64,
                over: bool,
                limit: u32,
            ) -> Result<Vec<$crate::store::players::SeatOf>, $crate::store::StoreError> {
                let rows: Vec<(String, i16, String, i64, bool, Option<i16>, Option<f64>, Option<f64>)> =
                    sqlx::query_as(
                        "SELECT g.id, s.seat, g.status, g.created, g.rated, s.place, c.before, c.after \
                         FROM seats s JOIN games g ON g.id = s.game \
                         LEFT JOIN rating_changes c ON c.game = s.game AND c.seat = s.seat \
                         WHERE s.account = $1 AND (g.status IN ('finished', 'resigned')) = $2 \
                         ORDER BY g.created DESC LIMIT $3",
                    )
                    .bind(account)
                    .bind(over)
                    .bind(i64::from(limit))
                    .fetch_all(&self.pool)
                    .await?;
                rows.into_iter()
                    .map(|(game, seat, status, created_ms, rated, place, before, after)| {
                        Ok($crate::store::players::SeatOf {
                            seat: $crate::store::seat_from_i64(&game, i64::from(seat))?,
                            status: $crate::store::status_from_str(&game, &status)?,
                            game: $crate::store::stored_id(game)?,
                            created_ms,
                            rated,
                            place: place.and_then(|p| u8::try_from(p).ok()),
                            change: before.zip(after),
                        })
                    })
                    .collect()
            }

            async fn end_game(
                &self,
                id: &$crate::store::GameId,
                end: &$crate::store::players::GameEnd,
            ) -> Result<bool, $crate::store::StoreError> {
                let mut tx = self.pool.begin().await?;
                // The write comes first: it takes SQLite's write lock and
                // PostgreSQL's row lock, so of two racing ends one waits
                // and then finds the game ended.
                let ended = sqlx::query(
                    "UPDATE games SET status = $1, resigned_seat = $2 \
                     WHERE id = $3 AND status = 'playing'",
                )
                .bind(end.status.as_str())
                .bind(end.resigned.map(i16::from))
                .bind(id.as_str())
                .execute(&mut *tx)
                .await?;
                if ended.rows_affected() == 0 {
                    tx.rollback().await?;
                    return Ok(false);
                }
                for (seat, place) in end.places.iter().enumerate() {
                    sqlx::query("UPDATE seats SET place = $1 WHERE game = $2 AND seat = $3")
                        .bind(i16::from(*place))
                        .bind(id.as_str())
                        // Seats are numbered below six.
                        .bind(seat as i16)
                        .execute(&mut *tx)
                        .await?;
                }
                if let Some((class, accounts, bots)) = &end.rated {
                    let mut before = bots.clone();
                    // Locked in the accounts' order, not the seats': two
                    // games of the same players in other seats ending at
                    // once would otherwise each hold a row the other waits
                    // for.
                    let mut by_account: Vec<(usize, i64)> = accounts
                        .iter()
                        .enumerate()
                        .filter_map(|(seat, a)| a.map(|a| (seat, a)))
                        .collect();
                    by_account.sort_unstable_by_key(|&(_, a)| a);
                    for &(seat, account) in &by_account {
                        sqlx::query(
                            "INSERT INTO ratings (account, class, rating, deviation, volatility, games, wins) \
                             VALUES ($1, $2, $3, $4, $5, 0, 0) ON CONFLICT (account, class) DO NOTHING",
                        )
                        .bind(account)
                        .bind(class.as_str())
                        .bind($crate::rating::Glicko::NEW.rating)
                        .bind($crate::rating::Glicko::NEW.deviation)
                        .bind($crate::rating::Glicko::NEW.volatility)
                        .execute(&mut *tx)
                        .await?;
                        let (rating, deviation, volatility): (f64, f64, f64) = sqlx::query_as(concat!(
                            "SELECT rating, deviation, volatility FROM ratings \
                             WHERE account = $1 AND class = $2",
                            $lock
                        ))
                        .bind(account)
                        .bind(class.as_str())
                        .fetch_one(&mut *tx)
                        .await?;
                        if let Some(b) = before.get_mut(seat) {
                            *b = $crate::rating::Glicko {
                                rating,
                                deviation,
                                volatility,
                            };
                        }
                    }
                    let at = end.at_ms;
                    let uncounted = Self::count_pairs(&mut tx, id, accounts, at).await?;
                    let after =
                        $crate::store::players::settle(&end.places, &before, &uncounted);
                    for (seat, account) in accounts.iter().enumerate() {
                        let Some(account) = account else { continue };
                        let (Some(b), Some(Some(a))) = (before.get(seat), after.get(seat)) else {
                            continue;
                        };
                        let won = end.places.get(seat) == Some(&1);
                        sqlx::query(
                            "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, \
                             games = games + 1, wins = wins + $4 WHERE account = $5 AND class = $6",
                        )
                        .bind(a.rating)
                        .bind(a.deviation)
                        .bind(a.volatility)
                        .bind(i64::from(won))
                        .bind(account)
                        .bind(class.as_str())
                        .execute(&mut *tx)
                        .await?;
                        sqlx::query(
                            "INSERT INTO rating_changes (game, seat, account, class, before, after, deviation, at) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                        )
                        .bind(id.as_str())
                        // Seats are numbered below six.
                        .bind(seat as i16)
                        .bind(account)
                        .bind(class.as_str())
                        .bind(b.rating)
                        .bind(a.rating)
                        .bind(a.deviation)
                        .bind(at)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn standings(
                &self,
                account: i64,
            ) -> Result<
                Vec<($crate::rating::Class, $crate::store::players::Standing)>,
                $crate::store::StoreError,
            > {
                let rows: Vec<(String, f64, f64, f64, i64, i64)> = sqlx::query_as(
                    "SELECT class, rating, deviation, volatility, games, wins FROM ratings \
                     WHERE account = $1 ORDER BY class",
                )
                .bind(account)
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter()
                    .map(|(class, rating, deviation, volatility, games, wins)| {
                        Ok((
                            $crate::store::players::class_from_str(&class)?,
                            $crate::store::players::Standing {
                                glicko: $crate::rating::Glicko {
                                    rating,
                                    deviation,
                                    volatility,
                                },
                                games,
                                wins,
                            },
                        ))
                    })
                    .collect()
            }

            async fn leaderboard(
                &self,
                class: $crate::rating::Class,
                limit: u32,
            ) -> Result<Vec<$crate::store::players::Ranked>, $crate::store::StoreError> {
                let rows: Vec<(String, f64, f64, f64, i64, i64)> = sqlx::query_as(
                    "SELECT a.name, r.rating, r.deviation, r.volatility, r.games, r.wins \
                     FROM ratings r JOIN accounts a ON a.id = r.account \
                     WHERE r.class = $1 \
                     ORDER BY CASE WHEN r.deviation > $3 THEN 1 ELSE 0 END, r.rating DESC, a.name_key \
                     LIMIT $2",
                )
                .bind(class.as_str())
                .bind(i64::from(limit))
                .bind($crate::rating::PROVISIONAL_DEVIATION)
                .fetch_all(&self.pool)
                .await?;
                Ok(rows
                    .into_iter()
                    .map(|(name, rating, deviation, volatility, games, wins)| {
                        $crate::store::players::Ranked {
                            name,
                            standing: $crate::store::players::Standing {
                                glicko: $crate::rating::Glicko {
                                    rating,
                                    deviation,
                                    volatility,
                                },
                                games,
                                wins,
                            },
                        }
                    })
                    .collect())
            }

            async fn rating_history(
                &self,
                account: i64,
                limit: u32,
            ) -> Result<Vec<$crate::store::players::RatingPoint>, $crate::store::StoreError> {
                // The newest `limit`, turned oldest first for the chart.
                let rows: Vec<(String, String, f64, f64, f64, i64)> = sqlx::query_as(
                    "SELECT game, class, before, after, deviation, at FROM rating_changes \
                     WHERE account = $1 ORDER BY at DESC, game DESC LIMIT $2",
                )
                .bind(account)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                let mut points = rows
                    .into_iter()
                    .map(|(game, class, before, after, deviation, at_ms)| {
                        Ok($crate::store::players::RatingPoint {
                            class: $crate::store::players::class_from_str(&class)?,
                            game: $crate::store::stored_id(game)?,
                            before,
                            after,
                            deviation,
                            at_ms,
                        })
                    })
                    .collect::<Result<Vec<_>, $crate::store::StoreError>>()?;
                points.reverse();
                Ok(points)
            }

            async fn game_ratings(
                &self,
                id: &$crate::store::GameId,
            ) -> Result<Vec<$crate::store::players::SeatRating>, $crate::store::StoreError> {
                let rows: Vec<(i16, String, f64, f64)> = sqlx::query_as(
                    "SELECT c.seat, a.name, c.before, c.after FROM rating_changes c \
                     JOIN accounts a ON a.id = c.account WHERE c.game = $1 ORDER BY c.seat",
                )
                .bind(id.as_str())
                .fetch_all(&self.pool)
                .await?;
                rows.into_iter()
                    .map(|(seat, name, before, after)| {
                        Ok($crate::store::players::SeatRating {
                            seat: $crate::store::seat_from_i64(id.as_str(), i64::from(seat))?,
                            name,
                            before,
                            after,
                        })
                    })
                    .collect()
            }

            async fn saw_account(
                &self,
                account: i64,
                address: &$crate::store::CreatorKey,
                at_ms: i64,
            ) -> Result<(), $crate::store::StoreError> {
                // An address seen long ago ties nobody any more.
                sqlx::query("DELETE FROM account_addresses WHERE account = $1 AND seen < $2")
                    .bind(account)
                    .bind(at_ms.saturating_sub($crate::rating::SHARED_ADDRESS_MS))
                    .execute(&self.pool)
                    .await?;
                sqlx::query(
                    "INSERT INTO account_addresses (account, address, seen) VALUES ($1, $2, $3) \
                     ON CONFLICT (account, address) DO UPDATE SET seen = excluded.seen",
                )
                .bind(account)
                .bind(address.as_bytes().to_vec())
                .bind(at_ms)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn void_ratings(&self, account: i64) -> Result<u64, $crate::store::StoreError> {
                let mut tx = self.pool.begin().await?;
                let games: Vec<(String,)> =
                    sqlx::query_as("SELECT DISTINCT game FROM rating_changes WHERE account = $1")
                        .bind(account)
                        .fetch_all(&mut *tx)
                        .await?;
                for (game,) in &games {
                    let others: Vec<(i64, String, f64, f64, Option<i16>)> = sqlx::query_as(
                        "SELECT c.account, c.class, c.before, c.after, s.place FROM rating_changes c \
                         LEFT JOIN seats s ON s.game = c.game AND s.seat = c.seat \
                         WHERE c.game = $1 AND c.account <> $2",
                    )
                    .bind(game)
                    .bind(account)
                    .fetch_all(&mut *tx)
                    .await?;
                    for (other, class, before, after, place) in others {
                        sqlx::query(
                            "UPDATE ratings SET rating = rating - $1, games = games - 1, \
                             wins = wins - $2 WHERE account = $3 AND class = $4",
                        )
                        .bind(after - before)
                        .bind(i64::from(place == Some(1)))
                        .bind(other)
                        .bind(class)
                        .execute(&mut *tx)
                        .await?;
                    }
                    for table in [
                        "DELETE FROM rating_changes WHERE game = $1",
                        "DELETE FROM rated_pairs WHERE game = $1",
                    ] {
                        sqlx::query(table).bind(game).execute(&mut *tx).await?;
                    }
                }
                sqlx::query("DELETE FROM ratings WHERE account = $1")
                    .bind(account)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(games.len() as u64)
            }
        }

        impl $store {
            /// The pairs of account seats (lower seat first) whose result
            /// a rated game ending at `at` may not count: the pair, or
            /// the address both were seen at, had
            /// [`RATED_PAIRS_PER_DAY`]($crate::rating::RATED_PAIRS_PER_DAY)
            /// rated games counted in the last day. The pairs that do
            /// count are written, for the next game's count.
            async fn count_pairs(
                tx: &mut sqlx::Transaction<'_, $db>,
                id: &$crate::store::GameId,
                accounts: &[Option<i64>],
                at: i64,
            ) -> Result<Vec<(usize, usize)>, $crate::store::StoreError> {
                use $crate::rating::{RATED_PAIRS_PER_DAY, RATED_PAIR_WINDOW_MS, SHARED_ADDRESS_MS};
                let since = at.saturating_sub(RATED_PAIR_WINDOW_MS);
                let mut pairs = Vec::new();
                for (i, a) in accounts.iter().enumerate() {
                    for (j, b) in accounts.iter().enumerate().skip(i + 1) {
                        let (Some(a), Some(b)) = (*a, *b) else { continue };
                        let (low, high) = (a.min(b), a.max(b));
                        let shared: Option<(Vec<u8>,)> = sqlx::query_as(
                            "SELECT x.address FROM account_addresses x \
                             JOIN account_addresses y ON y.address = x.address \
                             WHERE x.account = $1 AND y.account = $2 AND x.seen >= $3 AND y.seen >= $3 \
                             ORDER BY x.address LIMIT 1",
                        )
                        .bind(low)
                        .bind(high)
                        .bind(at.saturating_sub(SHARED_ADDRESS_MS))
                        .fetch_optional(&mut **tx)
                        .await?;
                        pairs.push(((i, j), (low, high, shared.map(|(a,)| a))));
                    }
                }
                // The check and the count are one step: each allowance's
                // key is held from before its count to the commit, so of
                // two games ending at once the second counts the first's
                // rows (READ COMMITTED reads afresh per statement).
                if let Some(statement) = $allowance {
                    let rows: Vec<_> = pairs.iter().map(|(_, row)| row.clone()).collect();
                    for key in $crate::store::players::allowance_keys(&rows) {
                        sqlx::query(statement).bind(key).execute(&mut **tx).await?;
                    }
                }
                let mut uncounted = Vec::new();
                for ((i, j), (low, high, shared)) in pairs {
                    let (pair,): $crate::store::players::Count = sqlx::query_as(
                        "SELECT COUNT(*) FROM rated_pairs WHERE low = $1 AND high = $2 AND at >= $3",
                    )
                    .bind(low)
                    .bind(high)
                    .bind(since)
                    .fetch_one(&mut **tx)
                    .await?;
                    let household = match &shared {
                        Some(address) => {
                            let (n,): $crate::store::players::Count = sqlx::query_as(
                                "SELECT COUNT(*) FROM rated_pairs WHERE address = $1 AND at >= $2",
                            )
                            .bind(address)
                            .bind(since)
                            .fetch_one(&mut **tx)
                            .await?;
                            n
                        }
                        None => 0,
                    };
                    if pair >= RATED_PAIRS_PER_DAY || household >= RATED_PAIRS_PER_DAY {
                        uncounted.push((i, j));
                        continue;
                    }
                    sqlx::query(
                        "INSERT INTO rated_pairs (game, low, high, address, at) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(id.as_str())
                    .bind(low)
                    .bind(high)
                    .bind(shared)
                    .bind(at)
                    .execute(&mut **tx)
                    .await?;
                }
                Ok(uncounted)
            }
        }
    };
}

pub(crate) use players_impl;
