//! Persistence behind one trait: [`Store`], with [`sqlite::SqliteStore`]
//! (the default, an embedded file) and [`postgres::PgStore`] (by URL).
//!
//! The store holds plain rows: games, seats and the append-only action log.
//! It knows nothing of the rules; the hub ([`crate::hub`]) turns rows into
//! games by replaying the log.
//!
//! Both stores run the same queries: they are written once, in the SQL
//! both databases accept, in `games.rs` (the games' rows) and
//! [`players`] (the players'); a backend's file holds only how it
//! connects and the few statements that differ (locks, snapshots).

use std::sync::Arc;

use async_trait::async_trait;
use thiserror::Error;

mod games;
pub mod players;
pub mod postgres;
pub mod sqlite;

/// A game's identifier: 16 lowercase hexadecimal digits (64 random bits),
/// so ids cannot be enumerated.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(String);

impl GameId {
    /// A fresh random id.
    pub fn random() -> GameId {
        GameId(crate::token::random_hex::<8>())
    }

    /// Checks an id from outside: exactly 16 lowercase hex digits.
    pub fn parse(s: &str) -> Option<GameId> {
        (s.len() == 16 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')))
            .then(|| GameId(s.to_string()))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The address (or, for a signed-in creator, the account) a game is
/// charged to (`hub/budget.rs`), as stored with the game so that a restart
/// charges it again: the first 16 bytes of the SHA-256 of the client's
/// address class (an IPv4 address or an IPv6 /64,
/// `guard::ClientKey`), so the rows do not show the address. It is a
/// pseudonym, not a secret: whoever reads the database can recover an IPv4
/// address by trying them all (docs/deploy.md, "Backups").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CreatorKey([u8; 16]);

impl CreatorKey {
    /// The key of a client address.
    pub fn of(client: crate::guard::ClientKey) -> CreatorKey {
        CreatorKey::hashed(b"bastide creator\0", client.to_string().as_bytes())
    }

    /// The key of a signed-in player's account: a signed-in creator's
    /// games are charged to the account, not to the address (never equal
    /// to an address's key: another prefix is hashed).
    pub fn of_account(account: i64) -> CreatorKey {
        CreatorKey::hashed(b"bastide account\0", &account.to_le_bytes())
    }

    /// The key of the network a client address is in (an IPv4 /24, an
    /// IPv6 /48): the caps per network count every game created from it,
    /// whoever it is charged to (`hub/budget.rs`).
    pub fn of_network(client: crate::guard::ClientKey) -> CreatorKey {
        CreatorKey::hashed(b"bastide network\0", client.network().as_bytes())
    }

    /// The first 16 bytes of the SHA-256 of `prefix` then `body`.
    fn hashed(prefix: &[u8], body: &[u8]) -> CreatorKey {
        use sha2::{Digest, Sha256};
        let digest = Sha256::new()
            .chain_update(prefix)
            .chain_update(body)
            .finalize();
        let mut key = [0u8; 16];
        key.copy_from_slice(&digest[..16]);
        CreatorKey(key)
    }

    /// The stored bytes.
    pub fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }

    /// Reads stored bytes; a length other than 16 is a corrupt row.
    pub(crate) fn from_stored(
        game: &str,
        bytes: Option<Vec<u8>>,
    ) -> Result<Option<CreatorKey>, StoreError> {
        bytes
            .map(|b| {
                <[u8; 16]>::try_from(b.as_slice())
                    .map(CreatorKey)
                    .map_err(|_| StoreError::Corrupt {
                        game: game.to_string(),
                        message: format!("the creator's key has {} bytes, not 16", b.len()),
                    })
            })
            .transpose()
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Created, waiting for people to join and someone to start it.
    Open,
    /// Started: actions are accepted.
    Playing,
    /// Over by the rules (final scoring done).
    Finished,
    /// Ended early because a player resigned.
    Resigned,
}

impl Status {
    /// The name used in the database and the protocol.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Resigned => "resigned",
        }
    }

    /// Reads a name written by [`Status::as_str`].
    pub fn parse(s: &str) -> Option<Status> {
        Some(match s {
            "open" => Status::Open,
            "playing" => Status::Playing,
            "finished" => Status::Finished,
            "resigned" => Status::Resigned,
            _ => return None,
        })
    }

    /// Whether the game can change no more.
    pub fn is_over(self) -> bool {
        matches!(self, Status::Finished | Status::Resigned)
    }
}

/// One seat as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// Seat number, 0-based, in turn order.
    pub seat: u8,
    /// `human` or a bot spec (`greedy`, `mcts:500`).
    pub kind: String,
    /// SHA-256 of the seat's token, for people.
    pub token_hash: Option<[u8; 32]>,
    /// Whether someone has claimed the seat with its token.
    pub joined: bool,
    /// The account holding the seat (a signed-in player's), if any.
    pub player: Option<players::Account>,
}

/// A game as written when it is created.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// Its id.
    pub id: GameId,
    /// The engine's configuration as JSON.
    pub config: String,
    /// Initial status ([`Status::Open`], or [`Status::Playing`] when only
    /// bots play).
    pub status: Status,
    /// Unix time in milliseconds.
    pub created_ms: i64,
    /// One row per seat.
    pub seats: Vec<SeatRow>,
    /// The time control as JSON, for timed games.
    pub clock: Option<String>,
    /// Whether the game is rated (docs/server.md, "Players").
    pub rated: bool,
    /// Whether the game is private: seated by invite link only.
    pub private: bool,
    /// The address the game is charged to (none: the operator's game,
    /// or the server's own).
    pub creator: Option<CreatorKey>,
    /// The network it was created from ([`CreatorKey::of_network`];
    /// none: the operator's game, or the server's own).
    pub network: Option<CreatorKey>,
}

/// A game as read back: its rows and its whole action log.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// Its id.
    pub id: GameId,
    /// The engine's configuration as JSON.
    pub config: String,
    /// Status as last written (the log may be ahead: a game whose last
    /// action ended it is finished even if the status write was lost).
    pub status: Status,
    /// The seat that resigned, if any.
    pub resigned: Option<u8>,
    /// Unix time in milliseconds.
    pub created_ms: i64,
    /// Seats in seat order.
    pub seats: Vec<SeatRow>,
    /// Actions in record form, in order: index `i` is action `i`.
    pub actions: Vec<String>,
    /// The game's rematch, once someone asked for one.
    pub rematch: Option<GameId>,
    /// The time control as JSON, for timed games.
    pub clock: Option<String>,
    /// When the game started (Unix milliseconds).
    pub started_ms: Option<i64>,
    /// When each action was committed (Unix milliseconds), by index.
    pub action_times: Vec<i64>,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether the game is private: seated by invite link only.
    pub private: bool,
    /// The address the game is charged to (none: the operator's game, or
    /// a game written before addresses were kept).
    pub creator: Option<CreatorKey>,
    /// The network it was created from (none: the operator's game, or a
    /// game written before networks were kept).
    pub network: Option<CreatorKey>,
}

/// A game that is charged to an address and not over: what
/// [`Store::charged_to`] reads, so that an instance in shared mode counts
/// the caps per address over every instance's games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChargedGame {
    /// Its id.
    pub id: GameId,
    /// Whether it is still open (created, not started).
    pub open: bool,
    /// Its seats.
    pub seats: usize,
    /// How many of them are bots'.
    pub bot_seats: usize,
    /// Whether it is charged to the creator asked about.
    pub by_creator: bool,
    /// Whether it was created from the network asked about.
    pub by_network: bool,
    /// Whether it is a correspondence game (days per move).
    pub correspondence: bool,
}

/// The most games [`Store::charged_to`] reads: far above the caps an
/// operator sets, so a count that reaches it refuses as the exact one would.
pub const CHARGED_LIMIT: u32 = 1000;

/// The query behind [`Store::charged_to`], the same for both databases
/// (`$1`… are positional parameters in both): open and running games
/// charged to `$1` or created from the network `$2` that are not
/// adjourned, at most `$3` (an adjourned game's bots do not think, as it
/// is in no instance's memory).
const CHARGED_QUERY: &str = "SELECT g.id, g.status, COUNT(*) AS seats, \
     SUM(CASE WHEN s.kind = 'human' THEN 0 ELSE 1 END) AS bots, \
     COALESCE(g.creator = $1, FALSE) AS by_creator, \
     COALESCE(g.network = $2, FALSE) AS by_network, \
     COALESCE(g.clock LIKE '%days_per_move%', FALSE) AS correspondence \
     FROM games g JOIN seats s ON s.game = g.id \
     WHERE (g.creator = $1 OR g.network = $2) AND g.status IN ('open', 'playing') \
     AND NOT EXISTS (SELECT 1 FROM adjourned a WHERE a.game = g.id) \
     GROUP BY g.id, g.status, g.creator, g.network, g.clock LIMIT $3";

/// One row of [`CHARGED_QUERY`].
type ChargedRow = (String, String, i64, i64, bool, bool, bool);

/// Reads [`CHARGED_QUERY`]'s rows.
fn charged_games(rows: Vec<ChargedRow>) -> Result<Vec<ChargedGame>, StoreError> {
    rows.into_iter()
        .map(
            |(id, status, seats, bots, by_creator, by_network, correspondence)| {
                Ok(ChargedGame {
                    id: stored_id(id)?,
                    open: status == Status::Open.as_str(),
                    seats: usize::try_from(seats).unwrap_or(0),
                    bot_seats: usize::try_from(bots).unwrap_or(0),
                    by_creator,
                    by_network,
                    correspondence,
                })
            },
        )
        .collect()
}

/// Why the store failed.
#[derive(Debug, Error)]
pub enum StoreError {
    /// An action with this index is already in the log (another writer won
    /// the race), or the index would leave a gap.
    #[error("action {index} of game {game} is already written or out of order")]
    Conflict {
        /// The game.
        game: GameId,
        /// The index that was refused.
        index: u32,
    },
    /// The database said no.
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A row that this version cannot read.
    #[error("corrupt row in game {game}: {message}")]
    Corrupt {
        /// The game.
        game: String,
        /// What is wrong.
        message: String,
    },
    /// A database URL this server cannot use.
    #[error("bad database URL: {0}")]
    Url(String),
}

/// The game store. Every write is committed before it returns, so the
/// caller may tell clients about it at once.
#[async_trait]
pub trait Store: players::Players + Send + Sync {
    /// `sqlite` or `postgres`.
    fn backend(&self) -> &'static str;

    /// Answers when the database can be queried.
    async fn ping(&self) -> Result<(), StoreError>;

    /// Writes a new game and its seats in one transaction.
    async fn create_game(&self, game: &NewGame) -> Result<(), StoreError>;

    /// Reads a game with its seats and log, or `None` if there is none.
    async fn load_game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError>;

    /// Ids of games with this status, newest first, at most `limit`.
    async fn games_with_status(
        &self,
        status: Status,
        limit: u32,
    ) -> Result<Vec<GameId>, StoreError>;

    /// Appends action `index` (0-based), committed at `at_ms` (Unix
    /// milliseconds), to a game's log. Refused with
    /// [`StoreError::Conflict`] if that index exists or the log holds
    /// fewer than `index` actions.
    async fn append_action(
        &self,
        id: &GameId,
        index: u32,
        action: &str,
        at_ms: i64,
    ) -> Result<(), StoreError>;

    /// Starts an open game at `at_ms`; says whether it was open.
    async fn start_game(&self, id: &GameId, at_ms: i64) -> Result<bool, StoreError>;

    /// Hands a person's seat to a bot for the rest of the game (its token
    /// stops working).
    async fn replace_with_bot(&self, id: &GameId, seat: u8, spec: &str) -> Result<(), StoreError>;

    /// Sets a game's status (and the seat that resigned).
    async fn set_status(
        &self,
        id: &GameId,
        status: Status,
        resigned: Option<u8>,
    ) -> Result<(), StoreError>;

    /// Records `rematch` as the game's rematch unless it has one already;
    /// says whether this call set it (of two racing requests, one does).
    async fn set_rematch(&self, id: &GameId, rematch: &GameId) -> Result<bool, StoreError>;

    /// Marks a seat as claimed.
    async fn mark_joined(&self, id: &GameId, seat: u8) -> Result<(), StoreError>;

    /// Takes a free person's seat for someone from the lobby: its token's
    /// hash replaced and the seat marked joined, only if it was not
    /// joined (false: someone took it first).
    async fn take_seat(
        &self,
        id: &GameId,
        seat: u8,
        hash: &crate::token::TokenHash,
    ) -> Result<bool, StoreError>;

    /// Marks a seat as free again (its person left before the start).
    async fn mark_left(&self, id: &GameId, seat: u8) -> Result<(), StoreError>;

    /// Removes up to `limit` open games created before `before_ms` (Unix
    /// milliseconds) that nobody started, with their seats; a game started
    /// meanwhile stays. Returns the ids removed. An open game has no
    /// actions, so nothing played is lost.
    async fn expire_open(&self, before_ms: i64, limit: u32) -> Result<Vec<GameId>, StoreError>;

    /// Removes an open game nobody started, with its seats; says whether
    /// it was removed (a game that is not open stays: its log is kept).
    async fn delete_open(&self, id: &GameId) -> Result<bool, StoreError>;

    /// Marks a running game adjourned since `at_ms` (Unix milliseconds);
    /// marking it again keeps the first time.
    async fn adjourn(&self, id: &GameId, at_ms: i64) -> Result<(), StoreError>;

    /// Takes a game out of the adjourned ones; says whether it was one.
    async fn unadjourn(&self, id: &GameId) -> Result<bool, StoreError>;

    /// Up to `limit` games adjourned before `before_ms`, the oldest first.
    async fn adjourned_before(&self, before_ms: i64, limit: u32)
        -> Result<Vec<GameId>, StoreError>;

    /// The open and running games charged to `creator` or created from
    /// `network` that are not adjourned, at most [`CHARGED_LIMIT`].
    async fn charged_to(
        &self,
        creator: &CreatorKey,
        network: Option<&CreatorKey>,
    ) -> Result<Vec<ChargedGame>, StoreError>;

    /// How many games have each status.
    async fn count_by_status(&self) -> Result<Vec<(Status, u64)>, StoreError>;

    /// Closes the connections (tests, shutdown).
    async fn close(&self);
}

/// Reads `count_by_status` rows.
fn status_counts(rows: Vec<(String, i64)>) -> Vec<(Status, u64)> {
    rows.into_iter()
        .filter_map(|(s, n)| Some((Status::parse(&s)?, u64::try_from(n).unwrap_or(0))))
        .collect()
}

/// Reads a stored game id.
pub(crate) fn stored_id(id: String) -> Result<GameId, StoreError> {
    GameId::parse(&id).ok_or_else(|| StoreError::Corrupt {
        message: "malformed game id".into(),
        game: id,
    })
}

/// Opens the store a URL names: `postgres://…` or `postgresql://…` for
/// PostgreSQL; `sqlite:PATH` or a plain file path for SQLite (the file is
/// created on first use). Runs the migrations.
pub async fn open(url: &str) -> Result<Arc<dyn Store>, StoreError> {
    if is_postgres_url(url) {
        Ok(Arc::new(postgres::PgStore::open(url).await?))
    } else {
        Ok(Arc::new(sqlite::SqliteStore::open(url).await?))
    }
}

/// Whether a database URL names PostgreSQL (else it is a SQLite file).
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Says whether a database error is a uniqueness violation (the race on
/// `(game, idx)` was lost).
pub(crate) fn is_unique_violation(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .is_some_and(|d| d.is_unique_violation())
}

/// Reads a stored token hash.
pub(crate) fn hash_from_bytes(
    game: &str,
    bytes: Option<Vec<u8>>,
) -> Result<Option<[u8; 32]>, StoreError> {
    bytes
        .map(|b| {
            <[u8; 32]>::try_from(b.as_slice()).map_err(|_| StoreError::Corrupt {
                game: game.to_string(),
                message: format!("a token hash has {} bytes, not 32", b.len()),
            })
        })
        .transpose()
}

/// Reads a stored status.
pub(crate) fn status_from_str(game: &str, s: &str) -> Result<Status, StoreError> {
    Status::parse(s).ok_or_else(|| StoreError::Corrupt {
        game: game.to_string(),
        message: format!("unknown status {s:?}"),
    })
}

/// Reads a stored seat number.
pub(crate) fn seat_from_i64(game: &str, n: i64) -> Result<u8, StoreError> {
    u8::try_from(n)
        .ok()
        .filter(|s| *s < 6)
        .ok_or_else(|| StoreError::Corrupt {
            game: game.to_string(),
            message: format!("seat {n} is out of range"),
        })
}
