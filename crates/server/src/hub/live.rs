//! A game in memory: the cache of its store rows, with the game rebuilt
//! by replaying the log, and the handle that holds it behind its lock
//! with the channel its connections listen on.
//!
//! Everything the other rooms ask of a game's state (whose turn, whose
//! time runs, what a seat or the lobby is shown) is answered here, so
//! that the rules about hidden information sit in one place.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};

use bastide_bots::BotSpec;
use bastide_engine::record::{ActionJson, Record};
use bastide_engine::{Game, GameConfig};
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{broadcast, Mutex};

use super::messages::{audience_payload, legal_for, Update};
use crate::clock::{ClockSpec, ClockState};
use crate::protocol::{Audience, AUDIENCES};
use crate::store::players::Account;
use crate::store::{GameId, Status, StoreError, StoredGame};
use crate::token::{self, TokenHash};

/// A bot's move to make.
pub(super) struct BotJob {
    pub(super) game: Game,
    pub(super) spec: BotSpec,
    pub(super) seat: usize,
    pub(super) version: u32,
    pub(super) seed: u64,
    /// Whether the game has a person's seat (its searches go first).
    pub(super) people: bool,
}

/// Updates a connection may fall behind by before it is told to reconnect.
const UPDATE_QUEUE: usize = 256;

/// Who holds a seat.
#[derive(Clone, Debug)]
pub(super) enum Occupant {
    /// A person, who acts with the seat's token.
    Human {
        /// The token's hash.
        hash: TokenHash,
        /// Whether someone has claimed the seat.
        joined: bool,
        /// The signed-in player holding the seat, if any.
        player: Option<Account>,
    },
    /// A bot, played by the server.
    Bot(BotSpec),
}

impl Occupant {
    pub(super) fn kind(&self) -> String {
        match self {
            Occupant::Human { .. } => "human".into(),
            Occupant::Bot(spec) => spec.to_string(),
        }
    }

    /// The signed-in player holding the seat.
    pub(super) fn player(&self) -> Option<&Account> {
        match self {
            Occupant::Human { player, .. } => player.as_ref(),
            Occupant::Bot(_) => None,
        }
    }
}

/// A game in memory: a cache of the store's rows and log.
pub(super) struct LiveGame {
    pub(super) config: GameConfig,
    pub(super) game: Game,
    pub(super) actions: Vec<ActionJson>,
    pub(super) seats: Vec<Occupant>,
    pub(super) status: Status,
    pub(super) resigned: Option<usize>,
    pub(super) created_ms: i64,
    /// A bot task is driving this game; no second one starts.
    pub(super) bot_running: bool,
    /// The rematch, once asked for.
    pub(super) rematch: Option<GameId>,
    /// The time control, for timed games.
    pub(super) clock_spec: Option<ClockSpec>,
    /// The clocks, once the game has started.
    pub(super) clock: Option<ClockState>,
    /// The task that will call time on the seat to act.
    pub(super) timer: Option<tokio::task::AbortHandle>,
    /// Whether the game is rated (every person's seat held by an account).
    pub(super) rated: bool,
    /// Whether the game is private: seated by invite link only, never
    /// listed as open (docs/server.md, "Taking a seat").
    pub(super) private: bool,
    /// Which seats have made a move: a rated game resigned or lost on
    /// time before every seat moved is not rated (lichess's aborted
    /// game), so that nobody gains rating from a game never played.
    pub(super) acted: Vec<bool>,
    /// The game after every [`super::LOG_PAGE`] actions (`snapshots[k]`:
    /// after `(k + 1) × LOG_PAGE`): a page of the move log replays from
    /// the one before it, not from the start. A game as long as its sets
    /// (a base game is about 150 actions) has none.
    pub(super) snapshots: Vec<Game>,
}

impl LiveGame {
    /// Rebuilds a game from its stored rows by replaying the log.
    pub(super) fn from_stored(stored: &StoredGame) -> Result<LiveGame, StoreError> {
        let corrupt = |message: String| StoreError::Corrupt {
            game: stored.id.to_string(),
            message,
        };
        let config: GameConfig = serde_json::from_str(&stored.config)
            .map_err(|e| corrupt(format!("configuration: {e}")))?;
        let record = Record {
            format: bastide_engine::record::FORMAT,
            config: config.clone(),
            actions: stored
                .actions
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    serde_json::from_str(a).map_err(|e| corrupt(format!("action {i}: {e}")))
                })
                .collect::<Result<_, _>>()?,
        };
        let seats = stored
            .seats
            .iter()
            .map(|s| match (s.kind.as_str(), s.token_hash) {
                ("human", Some(hash)) => Ok(Occupant::Human {
                    hash,
                    joined: s.joined,
                    player: s.player.clone(),
                }),
                ("human", None) => Err(corrupt(format!("seat {} has no token", s.seat))),
                (spec, _) => BotSpec::parse(spec)
                    .map(Occupant::Bot)
                    .map_err(|e| corrupt(e.to_string())),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let clock_spec: Option<ClockSpec> = stored
            .clock
            .as_deref()
            .map(serde_json::from_str)
            .transpose()
            .map_err(|e| corrupt(format!("clock: {e}")))?;
        let mut clock = match (&clock_spec, stored.started_ms) {
            (Some(spec), Some(t)) => Some(ClockState::new(spec.clone(), seats.len(), t)),
            _ => None,
        };
        // The replay, charging each person's time as it was spent.
        let mut game =
            Game::new(config.clone()).map_err(|e| corrupt(format!("the configuration: {e}")))?;
        let mut acted = vec![false; seats.len()];
        let mut snapshots = Vec::new();
        for (i, a) in record.actions.iter().enumerate() {
            let action = a
                .to_action(game.catalog())
                .map_err(|e| corrupt(format!("action {i} does not replay: {e}")))?;
            let actor = game.current_player().index();
            game.try_apply(&action)
                .map_err(|e| corrupt(format!("action {i} does not replay: {e}")))?;
            if let Some(a) = acted.get_mut(actor) {
                *a = true;
            }
            if (i + 1).is_multiple_of(super::LOG_PAGE) {
                snapshots.push(game.clone());
            }
            if let Some(c) = clock.as_mut() {
                let person = matches!(seats.get(actor), Some(Occupant::Human { .. }));
                let turn_ended = game.is_finished() || game.current_player().index() != actor;
                let at = stored.action_times.get(i).copied().unwrap_or_default();
                c.charge(person.then_some(actor), at, turn_ended);
            }
        }
        if seats.len() != game.player_count() {
            return Err(corrupt(format!(
                "{} seats for {} players",
                seats.len(),
                game.player_count()
            )));
        }
        // The log is the truth: a game whose last action ended it is
        // finished even if the status write was lost in a crash.
        let status = if game.is_finished() && stored.status == Status::Playing {
            Status::Finished
        } else {
            stored.status
        };
        Ok(LiveGame {
            config,
            game,
            actions: record.actions,
            seats,
            status,
            resigned: stored.resigned.map(usize::from),
            created_ms: stored.created_ms,
            bot_running: false,
            rematch: stored.rematch.clone(),
            clock_spec,
            clock,
            timer: None,
            rated: stored.rated,
            private: stored.private,
            acted,
            snapshots,
        })
    }

    /// Where a replay of the log after version `since` starts: the last
    /// snapshot at or before `since` (the configuration if there is
    /// none), the number of actions it holds, and the log's actions from
    /// there up to `end`. The move log's pages and a reconnect's catch-up
    /// replay from it, so that their work is bounded by [`super::LOG_PAGE`]
    /// plus what they send, however long the game.
    pub(super) fn replay_start(
        &self,
        since: usize,
        end: usize,
    ) -> Result<(Game, usize, Vec<ActionJson>), StoreError> {
        let end = end.min(self.actions.len());
        let pages = since.min(end) / super::LOG_PAGE;
        let snapshot = pages.checked_sub(1).and_then(|k| self.snapshots.get(k));
        let (start, first) = match snapshot {
            Some(g) => (g.clone(), pages * super::LOG_PAGE),
            None => (
                Game::new(self.config.clone()).map_err(|e| StoreError::Corrupt {
                    game: String::new(),
                    message: format!("the configuration does not replay: {e}"),
                })?,
                0,
            ),
        };
        Ok((start, first, self.actions[first..end].to_vec()))
    }

    /// Whether every seat has made a move (docs/server.md, "Rated
    /// games": a game resigned before that is not rated).
    pub(super) fn everyone_moved(&self) -> bool {
        self.acted.iter().all(|a| *a)
    }

    /// What the game costs `payer`, its creator, as it stands: open
    /// until started, its bots and a correspondence game until it ends.
    pub(super) fn charge(&self, payer: super::budget::Payer) -> super::budget::Charge {
        super::budget::Charge::new(
            payer,
            self.status == Status::Open,
            self.clock_spec
                .as_ref()
                .is_some_and(|c| c.days_per_move.is_some()),
            self.seats.iter().map(|s| matches!(s, Occupant::Bot(_))),
        )
    }

    pub(super) fn version(&self) -> u32 {
        // The engine bounds a log far below u32::MAX actions.
        u32::try_from(self.actions.len()).unwrap_or(u32::MAX)
    }

    /// Whether the game needs one instance to drive it: a running game
    /// with a bot seat (bots move by themselves) or a clock (time is
    /// called by a timer).
    pub(super) fn needs_driver(&self) -> bool {
        self.status == Status::Playing
            && (self.clock_spec.is_some()
                || self.seats.iter().any(|s| matches!(s, Occupant::Bot(_))))
    }

    /// The seat to act while its time runs: a person in a running game.
    pub(super) fn clocked_seat(&self) -> Option<usize> {
        let seat = self.game.current_player().index();
        (self.status == Status::Playing
            && !self.game.is_finished()
            && matches!(self.seats.get(seat), Some(Occupant::Human { .. })))
        .then_some(seat)
    }

    /// When the seat to act runs out of time.
    pub(super) fn deadline(&self) -> Option<i64> {
        let seat = self.clocked_seat()?;
        self.clock.as_ref()?.deadline(seat)
    }

    /// The clocks for clients.
    pub(super) fn clock_json(&self) -> Option<Value> {
        match (&self.clock, &self.clock_spec) {
            (Some(c), _) => Some(c.to_json(self.clocked_seat())),
            (None, Some(spec)) => Some(json!({ "spec": spec })),
            (None, None) => None,
        }
    }

    /// The seat a token belongs to.
    pub(super) fn seat_for_token(&self, token: &str) -> Option<usize> {
        token::find_seat(
            token,
            self.seats.iter().map(|o| match o {
                Occupant::Human { hash, .. } => Some(hash),
                Occupant::Bot(_) => None,
            }),
        )
    }

    /// The bot to move now, if any.
    pub(super) fn bot_to_move(&self) -> Option<BotJob> {
        if self.status != Status::Playing || self.game.is_finished() {
            return None;
        }
        let seat = self.game.current_player().index();
        match self.seats.get(seat) {
            Some(Occupant::Bot(spec)) => Some(BotJob {
                game: self.game.clone(),
                spec: spec.clone(),
                seat,
                version: self.version(),
                // Fresh for every move and reproducible from the game.
                seed: self.config.seed
                    ^ u64::from(self.version()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
                    ^ seat as u64,
                people: self
                    .seats
                    .iter()
                    .any(|s| matches!(s, Occupant::Human { .. })),
            }),
            _ => None,
        }
    }

    /// The configuration without its hidden fields while the game runs.
    fn public_config(&self) -> Value {
        let mut v = serde_json::to_value(&self.config).unwrap_or_default();
        if !self.status.is_over() {
            if let Some(o) = v.as_object_mut() {
                // Kept from clients until the game is over.
                for f in GameConfig::HIDDEN_FIELDS {
                    o.remove(f);
                }
            }
        }
        v
    }

    fn seats_json(&self) -> Value {
        Value::Array(
            self.seats
                .iter()
                .enumerate()
                .map(|(seat, o)| {
                    json!({
                        "seat": seat,
                        "kind": o.kind(),
                        "joined": match o {
                            Occupant::Human { joined, .. } => *joined,
                            Occupant::Bot(_) => true,
                        },
                        "player": o.player().map(|p| p.name.as_str()),
                    })
                })
                .collect(),
        )
    }

    /// The lobby's summary of the game.
    pub(super) fn summary(&self, id: &GameId) -> GameSummary {
        GameSummary {
            id: id.to_string(),
            status: self.status.as_str(),
            version: self.version(),
            players: self.config.players.clone(),
            seats: self.seats_json(),
            scores: self.game.scores(),
            resigned: self.resigned,
            created: self.created_ms,
            config: self.public_config(),
            rematch: self.rematch.as_ref().map(ToString::to_string),
            rated: self.rated,
            private: self.private,
            clock: self.clock_spec.clone(),
            to_move: (self.status == Status::Playing && !self.game.is_finished())
                .then(|| self.game.current_player().index()),
        }
    }

    /// The record: complete once the game is over; while it runs, without
    /// the configuration's hidden fields (the seed would give away the
    /// draw order).
    pub(super) fn record_json(&self) -> Value {
        let record = Record {
            format: bastide_engine::record::FORMAT,
            config: self.config.clone(),
            actions: self.actions.clone(),
        };
        let mut v = serde_json::to_value(&record).unwrap_or_default();
        if let Some(c) = v.get_mut("config") {
            *c = self.public_config();
        }
        v
    }

    /// The body of a `welcome` for `audience` at the current version, for
    /// a client that has the game up to version `since`. Without `since`
    /// (a first hello, or a page's embedded state) it carries the
    /// audience's view and, for the seat to act, the legal actions. With
    /// `since` behind the game, neither: the `played` messages that follow
    /// bring them. With `since` at the current version nothing follows, so
    /// the legal actions come in the welcome itself: a seat reconnecting
    /// after a drop is offered its moves again (its last ones may have been
    /// cleared by an action the server never received).
    pub(super) fn welcome(&self, id: &GameId, audience: Audience, since: Option<u32>) -> Value {
        let mut welcome = json!({
            "game": id.as_str(),
            "seat": match audience { Audience::Seat(s) => Some(s), Audience::Spectator => None },
            "status": self.status.as_str(),
            "version": self.version(),
            "resigned": self.resigned,
            "players": self.config.players,
            "seats": self.seats_json(),
            "config": self.public_config(),
            "rated": self.rated,
        });
        if let (Some(c), Some(o)) = (self.clock_json(), welcome.as_object_mut()) {
            o.insert("clock".into(), c);
        }
        let (view, legal) = match since {
            None => {
                let (view, legal) = self.payload(&self.game, audience);
                (Some(view), legal)
            }
            Some(s) if s == self.version() => (
                None,
                legal_for(&self.game, audience, self.offers_legal(audience)),
            ),
            Some(_) => (None, None),
        };
        if let Some(o) = welcome.as_object_mut() {
            if let Some(v) = view {
                o.insert("view".into(), v);
            }
            if let Some(l) = legal {
                o.insert("legal".into(), l);
            }
        }
        welcome
    }

    fn payload(&self, game: &Game, audience: Audience) -> (Value, Option<Value>) {
        audience_payload(game, audience, self.offers_legal(audience))
    }

    /// Whether this audience is offered legal actions on its turn: a
    /// person's seat in a running game (not a seat a bot took over).
    pub(super) fn offers_legal(&self, audience: Audience) -> bool {
        self.status == Status::Playing
            && matches!(audience, Audience::Seat(s)
                if matches!(self.seats.get(s), Some(Occupant::Human { .. })))
    }

    /// A `status` message per audience that `wanted` names; `timeout`
    /// names a seat that ran out of time.
    pub(super) fn status_update(
        &self,
        timeout: Option<usize>,
        wanted: impl Fn(Audience) -> bool,
    ) -> Update {
        let text = |audience| {
            let (view, legal) = self.payload(&self.game, audience);
            let mut body = json!({
                "status": self.status.as_str(),
                "version": self.version(),
                "resigned": self.resigned,
                "seats": self.seats_json(),
                "view": view,
            });
            if let Some(o) = body.as_object_mut() {
                if let Some(c) = self.clock_json() {
                    o.insert("clock".into(), c);
                }
                if let Some(t) = timeout {
                    o.insert("timeout".into(), t.into());
                }
            }
            if let (Some(l), Some(o)) = (legal, body.as_object_mut()) {
                o.insert("legal".into(), l);
            }
            json!({ "status": body }).to_string()
        };
        Update::build(self.version(), self.seats.len(), wanted, text)
    }
}

/// A game as the lobby lists it.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    /// Its id.
    pub id: String,
    /// `open`, `playing`, `finished` or `resigned`.
    pub status: &'static str,
    /// Actions committed.
    pub version: u32,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// Each seat: number, kind (`human` or a bot spec) and whether it is
    /// claimed.
    pub seats: Value,
    /// Points per seat.
    pub scores: Vec<u32>,
    /// The seat that resigned.
    pub resigned: Option<usize>,
    /// Unix time in milliseconds.
    pub created: i64,
    /// The configuration (hidden fields left out while the game runs).
    pub config: Value,
    /// The rematch's id, once someone asked for one.
    pub rematch: Option<String>,
    /// Whether the game is rated.
    pub rated: bool,
    /// Whether the game is private (seated by invite link only).
    pub private: bool,
    /// The time control (none: untimed).
    pub clock: Option<ClockSpec>,
    /// The seat to act while the game runs (none: open or over), so a
    /// list of games says whose turn it is without each game's view.
    pub to_move: Option<usize>,
}

/// One game's handle: its cached state and its update channel.
pub struct GameHandle {
    pub(super) id: GameId,
    pub(super) live: Mutex<LiveGame>,
    pub(super) updates: broadcast::Sender<Arc<Update>>,
    /// The game is over: the cache may drop it once nobody is connected.
    pub(super) over: std::sync::atomic::AtomicBool,
    /// Connections per audience: updates are written only for audiences
    /// someone listens as.
    pub(super) watchers: StdMutex<[u32; AUDIENCES]>,
    /// Shared mode: the log's version when the last catch-up pass found
    /// this copy behind ([`NOT_BEHIND`]: it was not).
    pub(super) behind_at: AtomicU64,
    /// When a connection last left (or the copy was made), Unix ms: with
    /// nobody connected since long enough, the game may be adjourned.
    pub(super) seen_ms: std::sync::atomic::AtomicI64,
    /// This copy was let go by an adjournment: a connection must load
    /// the game afresh.
    pub(super) adjourned: std::sync::atomic::AtomicBool,
    /// This copy was read from the store when first asked for (not
    /// resumed at start, not created here): it may be adjourned.
    pub(super) loaded_on_demand: std::sync::atomic::AtomicBool,
    /// The game is gone from the store (expired or removed) and its
    /// connections were told: a hello on this copy finds no game.
    pub(super) gone: std::sync::atomic::AtomicBool,
    /// The table chat's newest lines, for the welcome (in memory only:
    /// they go with this copy).
    pub(super) chat: StdMutex<crate::chat::History>,
}

/// [`GameHandle::behind_at`] when the copy was not behind.
pub(super) const NOT_BEHIND: u64 = u64::MAX;

impl GameHandle {
    pub(super) fn new(id: GameId, live: LiveGame) -> Arc<GameHandle> {
        let over = live.status.is_over();
        Arc::new(GameHandle {
            id,
            live: Mutex::new(live),
            updates: broadcast::channel(UPDATE_QUEUE).0,
            over: std::sync::atomic::AtomicBool::new(over),
            watchers: StdMutex::new([0; AUDIENCES]),
            behind_at: AtomicU64::new(NOT_BEHIND),
            seen_ms: std::sync::atomic::AtomicI64::new(super::now_ms()),
            adjourned: std::sync::atomic::AtomicBool::new(false),
            loaded_on_demand: std::sync::atomic::AtomicBool::new(false),
            gone: std::sync::atomic::AtomicBool::new(false),
            chat: StdMutex::new(crate::chat::History::default()),
        })
    }

    /// Whether the game is not over, nobody is connected to it, and
    /// nobody has been since `cutoff` (Unix ms).
    pub(super) fn deserted_since(&self, cutoff: i64) -> bool {
        !self.over.load(Ordering::Relaxed)
            && self.updates.receiver_count() == 0
            && self.seen_ms.load(Ordering::Relaxed) < cutoff
    }

    /// Whether an adjournment let this copy go (load the game again).
    pub fn is_adjourned(&self) -> bool {
        self.adjourned.load(Ordering::Relaxed)
    }

    /// Whether a person is connected to one of the seats.
    pub(super) fn watched_by_a_seat(&self) -> bool {
        let w = self.watchers.lock().unwrap_or_else(|e| e.into_inner());
        w[..AUDIENCES - 1].iter().any(|n| *n > 0)
    }

    /// Whether anyone is connected as `audience`.
    pub(super) fn watched(&self, audience: Audience) -> bool {
        self.watchers.lock().unwrap_or_else(|e| e.into_inner())[audience.index()] > 0
    }

    /// Whether the cache may drop this game now.
    pub(super) fn idle_and_over(&self) -> bool {
        self.over.load(Ordering::Relaxed) && self.updates.receiver_count() == 0
    }

    /// The game's id.
    pub fn id(&self) -> &GameId {
        &self.id
    }

    /// Sends an update, built only if someone is connected: the views
    /// cost more than the rest of an action, and bot games often have no
    /// watcher at all.
    pub(super) fn publish(&self, update: impl FnOnce() -> Update) {
        if self.updates.receiver_count() > 0 {
            // A receiver may leave meanwhile: nobody watching is no error.
            let _ = self.updates.send(Arc::new(update()));
        }
    }
}
