//! Shared mode: several identical instances on one PostgreSQL database,
//! told of each other's changes through NATS (docs/scaling.md).
//!
//! PostgreSQL is the truth: the log's key `(game, idx)` lets exactly one
//! action win each turn, whichever instance it reached, and any instance
//! can rebuild any game from it. NATS only carries news: every committed
//! action is published on the game's subject (`PREFIX.game.ID`) and every
//! instance applies it to its copy of the game and tells its own
//! connections. News may be lost (NATS restarted, an instance killed
//! between its commit and its publish); versions make the loss visible
//! and the log fills it, so core NATS is enough and no second copy of the
//! log is kept in JetStream.
//!
//! Bots and clocks need one driver per game: the instance holding the
//! game's lease (a row of `leases`, renewed while the instance lives).

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use bastide_engine::record::ActionJson;
use serde::{Deserialize, Serialize};
use sqlx::postgres::PgPool;
use sqlx::Row;
use thiserror::Error;

use crate::store::{GameId, Status, StoreError};

/// The subject prefix used when none is named.
pub const DEFAULT_PREFIX: &str = "bastide";

/// Games looked for and taken over in one pass of the lease task: an
/// instance that comes up after another died takes its share, not all.
const ORPHANS_PER_PASS: i64 = 32;

/// How the shared mode is set up.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The NATS server, e.g. `nats://127.0.0.1:4222`.
    pub nats_url: String,
    /// Subjects are `PREFIX.game.ID`: deployments sharing one NATS server
    /// keep apart by prefix.
    pub prefix: String,
    /// How long a lease lasts unless renewed; renewed every third of it.
    pub lease: Duration,
    /// How often the games watched here are compared with the log.
    pub sync: Duration,
}

/// Why the shared mode could not start.
#[derive(Debug, Error)]
pub enum ClusterError {
    /// `--nats` with a SQLite file.
    #[error("--nats needs a PostgreSQL database (--database postgres://…): instances on several machines cannot share a SQLite file")]
    NeedsPostgres,
    /// A prefix NATS would not accept as subject tokens.
    #[error("--nats-prefix {0:?}: use letters, digits, '-' and '_', tokens separated by '.'")]
    BadPrefix(String),
    /// NATS did not answer.
    #[error("cannot reach NATS at {url}: {message} (is nats-server running there?)")]
    Connect {
        /// The URL tried.
        url: String,
        /// What the client said.
        message: String,
    },
    /// The subscription to the games' subjects failed.
    #[error("cannot subscribe to {subject} on NATS: {message}")]
    Subscribe {
        /// The subject.
        subject: String,
        /// What the client said.
        message: String,
    },
}

/// What one instance tells the others about a game, on its subject.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notice {
    /// Action `version - 1` was committed, by `seat`, at `at` (Unix ms).
    Played {
        /// The game's version after the action.
        version: u32,
        /// The seat that acted.
        seat: usize,
        /// The action in record form.
        action: ActionJson,
        /// When it was committed (Unix milliseconds).
        at: i64,
    },
    /// The game's rows changed (started, seat joined or left, resigned,
    /// time called, rematch): read them again.
    Changed {
        /// The seat that ran out of time, when time was called.
        #[serde(default)]
        timeout: Option<usize>,
    },
    /// A rematch was started: each person connected to the old game gets
    /// their new seat's token, which each instance derives from the old
    /// seat's token hash (no token or hash travels on NATS).
    Rematch {
        /// The rematch's id.
        game: String,
    },
    /// The open game was removed from the store (it expired, or an
    /// operator removed it): its connections are told and closed.
    Gone {
        /// Why.
        reason: crate::protocol::Gone,
    },
    /// A line of table chat said on that instance (chat lives in the
    /// instances' memory only: a line lost on NATS is lost).
    Chat {
        /// The line.
        line: crate::chat::Line,
    },
}

/// The game ids in one column of rows (a malformed one is skipped: ids
/// are written by this server).
fn game_ids(rows: &[sqlx::postgres::PgRow], column: &str) -> Vec<GameId> {
    rows.iter()
        .filter_map(|r| r.try_get::<String, _>(column).ok())
        .filter_map(|g| GameId::parse(&g))
        .collect()
}

/// A NATS URL as it may be shown and logged: credentials
/// (`nats://user:password@host`, `nats://token@host`) replaced by `***`.
pub fn redacted(url: &str) -> String {
    url.split(',')
        .map(|one| {
            let (scheme, rest) = one.split_once("://").unwrap_or(("", one));
            let authority_end = rest.find('/').unwrap_or(rest.len());
            let shown = match rest[..authority_end].rfind('@') {
                Some(at) => format!("***{}", &rest[at..]),
                None => rest.to_string(),
            };
            if scheme.is_empty() {
                shown
            } else {
                format!("{scheme}://{shown}")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The shared mode's connections: NATS for news, PostgreSQL for leases.
pub struct Cluster {
    nats: async_nats::Client,
    prefix: String,
    /// This instance's name among the lease holders (random per start).
    instance: String,
    pool: PgPool,
    lease: Duration,
    sync: Duration,
    /// The games whose lease this instance holds, each until when for
    /// sure (counted from before the database was asked, so never later
    /// than the database's own end of the lease).
    held: StdMutex<HashMap<GameId, Instant>>,
}

impl Cluster {
    /// Connects to NATS (retrying in the background if it goes away).
    pub async fn connect(
        config: &ClusterConfig,
        pool: PgPool,
    ) -> Result<Arc<Cluster>, ClusterError> {
        let valid = |t: &str| {
            !t.is_empty()
                && t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        };
        if !config.prefix.split('.').all(valid) {
            return Err(ClusterError::BadPrefix(config.prefix.clone()));
        }
        let instance = crate::token::random_hex::<6>();
        let nats = async_nats::ConnectOptions::new()
            .name(format!("bastide-{instance}"))
            // An instance's own notices are not news to it; worse, each
            // would wait for the game's lock behind its next commit.
            .no_echo()
            // Never give up: the games go on without news meanwhile (the
            // log fills what was missed), and news resumes with NATS.
            .max_reconnects(None)
            .reconnect_delay_callback(|attempts| {
                Duration::from_millis((100 * attempts as u64).min(1000))
            })
            .event_callback(|event| async move {
                tracing::info!("NATS: {event}");
            })
            .connect(config.nats_url.as_str())
            .await
            .map_err(|e| ClusterError::Connect {
                url: redacted(&config.nats_url),
                message: e.to_string(),
            })?;
        Ok(Arc::new(Cluster {
            nats,
            prefix: config.prefix.clone(),
            instance,
            pool,
            lease: config.lease,
            sync: config.sync,
            held: StdMutex::new(HashMap::new()),
        }))
    }

    /// This instance's name among lease holders.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// The lease's length.
    pub fn lease(&self) -> Duration {
        self.lease
    }

    /// How often the games watched here are compared with the log.
    pub fn sync_every(&self) -> Duration {
        self.sync
    }

    fn subject(&self, id: &GameId) -> String {
        format!("{}.game.{id}", self.prefix)
    }

    /// Subscribes to every game's subject.
    pub async fn subscribe(&self) -> Result<async_nats::Subscriber, ClusterError> {
        let subject = format!("{}.game.*", self.prefix);
        let sub =
            self.nats
                .subscribe(subject.clone())
                .await
                .map_err(|e| ClusterError::Subscribe {
                    subject: subject.clone(),
                    message: e.to_string(),
                })?;
        // Flushed: the server has the subscription before anything is
        // published on this instance's behalf.
        self.nats
            .flush()
            .await
            .map_err(|e| ClusterError::Subscribe {
                subject,
                message: e.to_string(),
            })?;
        Ok(sub)
    }

    /// Reads a message of the subscription: the game and the notice.
    pub fn parse(&self, message: &async_nats::Message) -> Option<(GameId, Notice)> {
        let id = message
            .subject
            .as_str()
            .strip_prefix(&self.prefix)?
            .strip_prefix(".game.")
            .and_then(GameId::parse)?;
        match serde_json::from_slice(&message.payload) {
            Ok(n) => Some((id, n)),
            Err(e) => {
                tracing::warn!("NATS: an unreadable notice for game {id}: {e}");
                None
            }
        }
    }

    /// Tells the other instances. A notice that does not get through is
    /// no loss: they find the change in the log (see the module's doc).
    pub async fn publish(&self, id: &GameId, notice: &Notice) {
        let payload = match serde_json::to_vec(notice) {
            Ok(p) => p,
            Err(e) => {
                tracing::error!("game {id}: cannot write a notice: {e}");
                return;
            }
        };
        if let Err(e) = self.nats.publish(self.subject(id), payload.into()).await {
            tracing::warn!("game {id}: notice not published ({e}); others will read the log");
        }
    }

    /// Whether this instance drives the game's bots and clock now.
    pub fn holds(&self, id: &GameId) -> bool {
        let held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        held.get(id).is_some_and(|until| Instant::now() < *until)
    }

    fn lease_secs(&self) -> f64 {
        self.lease.as_secs_f64()
    }

    /// Takes the game's lease if nobody holds it (or it ran out); says
    /// whether this instance holds it now.
    pub async fn acquire(&self, id: &GameId) -> Result<bool, StoreError> {
        let asked = Instant::now();
        let row = sqlx::query(
            "INSERT INTO leases (game, holder, until) \
             VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3)) \
             ON CONFLICT (game) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until \
             WHERE leases.holder = EXCLUDED.holder OR leases.until < clock_timestamp() \
             RETURNING holder",
        )
        .bind(id.as_str())
        .bind(&self.instance)
        .bind(self.lease_secs())
        .fetch_optional(&self.pool)
        .await?;
        let won = row.is_some();
        if won {
            self.held
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(id.clone(), asked + self.lease);
        }
        Ok(won)
    }

    /// Renews every lease this instance holds on a running game; forgets
    /// the others (ended games, leases that ran out).
    ///
    /// Returns the games renewed whose hold had run out by this
    /// instance's clock first (a renewal late on a loaded machine, while
    /// the database's end of the lease, always a little later, was not
    /// yet reached). Meanwhile [`Cluster::holds`] said no, so their bots
    /// and timers stopped here: the caller sets them going again.
    pub async fn renew(&self) -> Result<Vec<GameId>, StoreError> {
        let asked = Instant::now();
        let rows = sqlx::query(
            "UPDATE leases SET until = clock_timestamp() + make_interval(secs => $2) \
             WHERE holder = $1 AND until > clock_timestamp() \
             AND game IN (SELECT id FROM games WHERE status = 'playing') RETURNING game",
        )
        .bind(&self.instance)
        .bind(self.lease_secs())
        .fetch_all(&self.pool)
        .await?;
        let until = asked + self.lease;
        let now = Instant::now();
        let renewed = game_ids(&rows, "game");
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let lapsed = renewed
            .iter()
            .filter(|g| held.get(*g).is_none_or(|u| *u <= now))
            .cloned()
            .collect();
        // Leases taken while the renewal ran are kept: they end later.
        held.retain(|_, u| *u > until);
        held.extend(renewed.into_iter().map(|g| (g, until)));
        Ok(lapsed)
    }

    /// Running games that need a driver (a bot seat or a clock) and whose
    /// lease nobody holds, adjourned games aside (they wait for a person,
    /// `hub/adjourn.rs`): the ones to take over.
    pub async fn orphans(&self) -> Result<Vec<GameId>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g LEFT JOIN leases l ON l.game = g.id \
             WHERE g.status = 'playing' \
             AND (g.clock IS NOT NULL OR EXISTS \
                  (SELECT 1 FROM seats s WHERE s.game = g.id AND s.kind <> 'human')) \
             AND (l.game IS NULL OR l.until < clock_timestamp()) \
             AND NOT EXISTS (SELECT 1 FROM adjourned a WHERE a.game = g.id) \
             ORDER BY random() LIMIT $1",
        )
        .bind(ORPHANS_PER_PASS)
        .fetch_all(&self.pool)
        .await?;
        Ok(game_ids(&rows, "id"))
    }

    /// Takes the games of `ids` that are adjourned out of the adjourned
    /// ones; returns those this call took (of several instances asking,
    /// one takes each).
    pub async fn take_up(&self, ids: &[GameId]) -> Result<Vec<GameId>, StoreError> {
        let ids: Vec<&str> = ids.iter().map(GameId::as_str).collect();
        let rows = sqlx::query("DELETE FROM adjourned WHERE game = ANY($1) RETURNING game")
            .bind(&ids)
            .fetch_all(&self.pool)
            .await?;
        Ok(game_ids(&rows, "game"))
    }

    /// Gives up a game's lease (it ended, or this instance stops).
    pub async fn release(&self, id: &GameId) {
        self.held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
        let r = sqlx::query("DELETE FROM leases WHERE game = $1 AND holder = $2")
            .bind(id.as_str())
            .bind(&self.instance)
            .execute(&self.pool)
            .await;
        if let Err(e) = r {
            tracing::warn!("game {id}: lease not released ({e}); it runs out by itself");
        }
    }

    /// Gives up every lease: another instance takes the games over at
    /// once instead of when the leases run out.
    pub async fn release_all(&self) {
        self.held.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let r = sqlx::query("DELETE FROM leases WHERE holder = $1")
            .bind(&self.instance)
            .execute(&self.pool)
            .await;
        if let Err(e) = r {
            tracing::warn!("leases not released ({e}); they run out by themselves");
        }
    }

    /// Each game's version (actions logged) and status in the database.
    pub async fn versions(&self, ids: &[GameId]) -> Result<Vec<(GameId, u32, Status)>, StoreError> {
        let names: Vec<&str> = ids.iter().map(GameId::as_str).collect();
        let rows = sqlx::query(
            "SELECT g.id, g.status, (SELECT COUNT(*) FROM actions a WHERE a.game = g.id) AS n \
             FROM games g WHERE g.id = ANY($1)",
        )
        .bind(&names)
        .fetch_all(&self.pool)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let id: String = r.try_get("id")?;
            let status: String = r.try_get("status")?;
            let n: i64 = r.try_get("n")?;
            if let (Some(g), Some(s)) = (GameId::parse(&id), Status::parse(&status)) {
                out.push((g, u32::try_from(n).unwrap_or(u32::MAX), s));
            }
        }
        Ok(out)
    }

    /// Waits until what was published has left for NATS (shutdown).
    pub async fn flush(&self) {
        let _ = tokio::time::timeout(Duration::from_secs(2), self.nats.flush()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_never_shown() {
        assert_eq!(redacted("nats://127.0.0.1:4222"), "nats://127.0.0.1:4222");
        assert_eq!(
            redacted("nats://bob:s3cret@nats.example:4222"),
            "nats://***@nats.example:4222"
        );
        assert_eq!(
            redacted("tls://tok@a:1,tls://b:2"),
            "tls://***@a:1,tls://b:2"
        );
    }

    #[test]
    fn notices_round_trip() {
        let n = Notice::Played {
            version: 3,
            seat: 1,
            action: ActionJson::Pass {},
            at: 17,
        };
        let text = serde_json::to_string(&n).expect("JSON");
        assert_eq!(
            text,
            r#"{"played":{"version":3,"seat":1,"action":{"pass":{}},"at":17}}"#
        );
        assert_eq!(serde_json::from_str::<Notice>(&text).expect("read"), n);
        let c: Notice = serde_json::from_str(r#"{"changed":{}}"#).expect("read");
        assert_eq!(c, Notice::Changed { timeout: None });
    }
}
