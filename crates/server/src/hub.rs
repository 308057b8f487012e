//! Live games: the in-memory cache of every game in play, rebuilt from the
//! store's log, and the one path by which a game changes.
//!
//! Each game sits behind its own async mutex. An action is checked by the
//! engine on a copy of the game, appended to the store's log, and only
//! then applied to the cache and broadcast: an action is committed before
//! anyone is told. Bots think on the blocking pool, outside the lock.
//!
//! In shared mode ([`crate::cluster`]) several instances hold copies of a
//! game: each commit is also published, other instances' commits arrive
//! as notices ([`Hub::on_notice`]) and are applied by the same path, gaps
//! are filled from the log ([`Hub::sync_pass`]), and bots and timers run
//! only on the instance holding the game's lease ([`Hub::lease_pass`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bastide_bots::{BotSpec, Budget, View};
use bastide_engine::limits::cut_message;
use bastide_engine::record::{ActionError, ActionJson, Record};
use bastide_engine::{Game, GameConfig, Viewer};
use serde::Serialize;
use serde_json::{json, Value};
use tokio::sync::{broadcast, Mutex, Semaphore};

use crate::clock::{ClockSpec, ClockState, OnTimeout};
use crate::cluster::{Cluster, Notice};
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::{GameId, NewGame, SeatRow, Status, Store, StoreError, StoredGame};
use crate::token::{self, TokenHash};

/// Updates a connection may fall behind by before it is told to reconnect.
const UPDATE_QUEUE: usize = 256;

/// Fields of a configuration that fix hidden information (the draw order,
/// the deals): kept from clients until the game is over.
const HIDDEN_CONFIG_FIELDS: [&str; 4] = ["seed", "deck", "hands", "chips"];

/// How the server runs games.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The address people open, for invite links (`http://host:port`).
    pub public_url: String,
    /// The longest a bot may think about one move; past it the bot plays
    /// a legal move chosen without thought.
    pub bot_move_limit: Duration,
    /// The largest MCTS iteration budget a game may ask for.
    pub max_mcts_iterations: u32,
    /// How many bots may think at once (the blocking pool is larger).
    pub bot_threads: usize,
    /// Messages a connection may send per second, sustained.
    pub messages_per_second: f64,
    /// Messages a connection may send at once before the rate applies.
    pub message_burst: f64,
    /// The most games held in memory (open and running ones, and ended
    /// ones still watched); past it, new games are refused.
    pub max_live_games: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            public_url: "http://127.0.0.1:8080".into(),
            bot_move_limit: Duration::from_secs(10),
            max_mcts_iterations: 100_000,
            // Well above the core count: a bot that thinks long (an
            // iteration budget on a busy machine) must not keep the bots of
            // other games waiting for a turn to think; the cores are
            // shared between them instead.
            bot_threads: std::thread::available_parallelism().map_or(2, |n| n.get()) * 8,
            // Far above a person's pace; a whole game's actions fit in the
            // burst, so a fast client is never refused for playing.
            messages_per_second: 20.0,
            message_burst: 100.0,
            // About 23 KiB each: about 1.1 GiB at the limit.
            max_live_games: 50_000,
        }
    }
}

/// Who holds a seat.
#[derive(Clone, Debug)]
enum Occupant {
    /// A person, who acts with the seat's token.
    Human {
        /// The token's hash.
        hash: TokenHash,
        /// Whether someone has claimed the seat.
        joined: bool,
    },
    /// A bot, played by the server.
    Bot(BotSpec),
}

impl Occupant {
    fn kind(&self) -> String {
        match self {
            Occupant::Human { .. } => "human".into(),
            Occupant::Bot(spec) => spec.to_string(),
        }
    }
}

/// Who a connection speaks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The person in this seat: sees that seat's view.
    Seat(usize),
    /// Anyone else: sees the public view.
    Spectator,
}

/// One change of a game, written once per audience so that no connection
/// is ever handed another seat's text.
#[derive(Debug)]
pub struct Update {
    /// The game's version after the change.
    pub version: u32,
    /// By audience index; `None` where nobody of that audience was
    /// connected when the update was made.
    texts: [Option<String>; AUDIENCES],
}

/// Six seats and the spectators.
const AUDIENCES: usize = 7;

impl Audience {
    fn index(self) -> usize {
        match self {
            Audience::Seat(s) => s.min(AUDIENCES - 2),
            Audience::Spectator => AUDIENCES - 1,
        }
    }
}

impl Update {
    /// Writes the message for each audience that `wanted` names.
    fn build(
        version: u32,
        seats: usize,
        wanted: impl Fn(Audience) -> bool,
        text: impl Fn(Audience) -> String,
    ) -> Update {
        let mut texts: [Option<String>; AUDIENCES] = Default::default();
        for a in (0..seats.min(AUDIENCES - 1))
            .map(Audience::Seat)
            .chain([Audience::Spectator])
        {
            if wanted(a) {
                texts[a.index()] = Some(text(a));
            }
        }
        Update { version, texts }
    }

    /// The message for one audience (`None`: nobody of it was connected
    /// when the update was made, so it is nobody's).
    pub fn text_for(&self, audience: Audience) -> Option<&str> {
        self.texts[audience.index()].as_deref()
    }
}

/// A game in memory: a cache of the store's rows and log.
struct LiveGame {
    config: GameConfig,
    game: Game,
    actions: Vec<ActionJson>,
    seats: Vec<Occupant>,
    status: Status,
    resigned: Option<usize>,
    created_ms: i64,
    /// A bot task is driving this game; no second one starts.
    bot_running: bool,
    /// The rematch, once asked for.
    rematch: Option<GameId>,
    /// The time control, for timed games.
    clock_spec: Option<ClockSpec>,
    /// The clocks, once the game has started.
    clock: Option<ClockState>,
    /// The task that will call time on the seat to act.
    timer: Option<tokio::task::AbortHandle>,
}

impl LiveGame {
    /// Rebuilds a game from its stored rows by replaying the log.
    fn from_stored(stored: &StoredGame) -> Result<LiveGame, StoreError> {
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
        for (i, a) in record.actions.iter().enumerate() {
            let action = a
                .to_action(game.catalog())
                .map_err(|e| corrupt(format!("action {i} does not replay: {e}")))?;
            let actor = game.current_player().index();
            game.try_apply(&action)
                .map_err(|e| corrupt(format!("action {i} does not replay: {e}")))?;
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
        })
    }

    fn version(&self) -> u32 {
        // The engine bounds a log far below u32::MAX actions.
        u32::try_from(self.actions.len()).unwrap_or(u32::MAX)
    }

    /// Whether the game needs one instance to drive it: a running game
    /// with a bot seat (bots move by themselves) or a clock (time is
    /// called by a timer).
    fn needs_driver(&self) -> bool {
        self.status == Status::Playing
            && (self.clock_spec.is_some()
                || self.seats.iter().any(|s| matches!(s, Occupant::Bot(_))))
    }

    /// The seat to act while its time runs: a person in a running game.
    fn clocked_seat(&self) -> Option<usize> {
        let seat = self.game.current_player().index();
        (self.status == Status::Playing
            && !self.game.is_finished()
            && matches!(self.seats.get(seat), Some(Occupant::Human { .. })))
        .then_some(seat)
    }

    /// When the seat to act runs out of time.
    fn deadline(&self) -> Option<i64> {
        let seat = self.clocked_seat()?;
        self.clock.as_ref()?.deadline(seat)
    }

    /// The clocks for clients.
    fn clock_json(&self) -> Option<Value> {
        match (&self.clock, &self.clock_spec) {
            (Some(c), _) => Some(c.to_json(self.clocked_seat())),
            (None, Some(spec)) => Some(json!({ "spec": spec })),
            (None, None) => None,
        }
    }

    /// The seat a token belongs to.
    fn seat_for_token(&self, token: &str) -> Option<usize> {
        token::find_seat(
            token,
            self.seats.iter().map(|o| match o {
                Occupant::Human { hash, .. } => Some(hash),
                Occupant::Bot(_) => None,
            }),
        )
    }

    /// The bot to move now, if any.
    fn bot_to_move(&self) -> Option<BotJob> {
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
            }),
            _ => None,
        }
    }

    /// The configuration without its hidden fields while the game runs.
    fn public_config(&self) -> Value {
        let mut v = serde_json::to_value(&self.config).unwrap_or_default();
        if !self.status.is_over() {
            if let Some(o) = v.as_object_mut() {
                for f in HIDDEN_CONFIG_FIELDS {
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
                    })
                })
                .collect(),
        )
    }

    /// The lobby's summary of the game.
    fn summary(&self, id: &GameId) -> GameSummary {
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
        }
    }

    /// The record: complete once the game is over; while it runs, without
    /// the configuration's hidden fields (the seed would give away the
    /// draw order).
    fn record_json(&self) -> Value {
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

    /// The view and, for the seat to act, the legal actions.
    /// The body of a `welcome` for `audience` at the current version;
    /// with `full`, the audience's view and legal actions too (a hello
    /// without `since`, or a page's embedded state).
    fn welcome(&self, id: &GameId, audience: Audience, full: bool) -> Value {
        let mut welcome = json!({
            "game": id.as_str(),
            "seat": match audience { Audience::Seat(s) => Some(s), Audience::Spectator => None },
            "status": self.status.as_str(),
            "version": self.version(),
            "resigned": self.resigned,
            "players": self.config.players,
            "seats": self.seats_json(),
            "config": self.public_config(),
        });
        if let (Some(c), Some(o)) = (self.clock_json(), welcome.as_object_mut()) {
            o.insert("clock".into(), c);
        }
        if full {
            let (view, legal) = self.payload(&self.game, audience);
            if let Some(o) = welcome.as_object_mut() {
                o.insert("view".into(), view);
                if let Some(l) = legal {
                    o.insert("legal".into(), l);
                }
            }
        }
        welcome
    }

    fn payload(&self, game: &Game, audience: Audience) -> (Value, Option<Value>) {
        audience_payload(game, audience, self.offers_legal(audience))
    }

    /// Whether this audience is offered legal actions on its turn: a
    /// person's seat in a running game (not a seat a bot took over).
    fn offers_legal(&self, audience: Audience) -> bool {
        self.status == Status::Playing
            && matches!(audience, Audience::Seat(s)
                if matches!(self.seats.get(s), Some(Occupant::Human { .. })))
    }

    /// A `status` message per audience that `wanted` names; `timeout`
    /// names a seat that ran out of time.
    fn status_update(&self, timeout: Option<usize>, wanted: impl Fn(Audience) -> bool) -> Update {
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

/// What one audience sees of `game`, and the legal actions when it is
/// that seat's turn in a running game.
fn audience_payload(game: &Game, audience: Audience, playing: bool) -> (Value, Option<Value>) {
    match audience {
        Audience::Seat(s) => {
            let legal = (playing && !game.is_finished() && game.current_player().index() == s)
                .then(|| serde_json::to_value(game.legal_actions_json()).unwrap_or_default());
            // A seat the game lacks sees what a spectator sees.
            let view = game
                .seat(s)
                .map_or_else(|| public_view(game), |seat| game.view_json(seat));
            (view, legal)
        }
        Audience::Spectator => (public_view(game), None),
    }
}

/// What anyone may see: the engine's view for a spectator (every hand
/// shown by its size only, no seat).
pub fn public_view(game: &Game) -> Value {
    game.view(Viewer::Spectator)
}

/// The `played` message for one audience.
fn played_text(
    game: &Game,
    played: &Played<'_>,
    audience: Audience,
    playing: bool,
    clock: Option<&Value>,
) -> String {
    let (view, legal) = audience_payload(game, audience, playing);
    let mut body = json!({
        "version": played.version,
        "seat": played.seat,
        "action": played.action,
        "events": played.events,
        "view": view,
    });
    if let Some(o) = body.as_object_mut() {
        if let Some(l) = legal {
            o.insert("legal".into(), l);
        }
        if let Some(c) = clock {
            o.insert("clock".into(), c.clone());
        }
    }
    json!({ "played": body }).to_string()
}

/// What every audience is told of one committed action.
struct Played<'a> {
    version: u32,
    seat: usize,
    action: &'a ActionJson,
    /// The events it caused.
    events: &'a Value,
}

/// The events that happened after the first `before` ones.
fn new_events(game: &Game, before: usize) -> Value {
    let events = game.state_json().events;
    serde_json::to_value(events.get(before..).unwrap_or_default()).unwrap_or_default()
}

/// A bot's move to make.
struct BotJob {
    game: Game,
    spec: BotSpec,
    seat: usize,
    version: u32,
    seed: u64,
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
}

/// One game's handle: its cached state and its update channel.
pub struct GameHandle {
    id: GameId,
    live: Mutex<LiveGame>,
    updates: broadcast::Sender<Arc<Update>>,
    /// The game is over: the cache may drop it once nobody is connected.
    over: std::sync::atomic::AtomicBool,
    /// Connections per audience: updates are written only for audiences
    /// someone listens as.
    watchers: StdMutex<[u32; AUDIENCES]>,
    /// Shared mode: the log's version when the last catch-up pass found
    /// this copy behind ([`NOT_BEHIND`]: it was not).
    behind_at: AtomicU64,
}

/// [`GameHandle::behind_at`] when the copy was not behind.
const NOT_BEHIND: u64 = u64::MAX;

impl GameHandle {
    fn new(id: GameId, live: LiveGame) -> Arc<GameHandle> {
        let over = live.status.is_over();
        Arc::new(GameHandle {
            id,
            live: Mutex::new(live),
            updates: broadcast::channel(UPDATE_QUEUE).0,
            over: std::sync::atomic::AtomicBool::new(over),
            watchers: StdMutex::new([0; AUDIENCES]),
            behind_at: AtomicU64::new(NOT_BEHIND),
        })
    }

    /// Whether anyone is connected as `audience`.
    fn watched(&self, audience: Audience) -> bool {
        self.watchers.lock().unwrap_or_else(|e| e.into_inner())[audience.index()] > 0
    }

    /// Whether the cache may drop this game now.
    fn idle_and_over(&self) -> bool {
        self.over.load(Ordering::Relaxed) && self.updates.receiver_count() == 0
    }

    /// The game's id.
    pub fn id(&self) -> &GameId {
        &self.id
    }

    /// Sends an update, built only if someone is connected: the views
    /// cost more than the rest of an action, and bot games often have no
    /// watcher at all.
    fn publish(&self, update: impl FnOnce() -> Update) {
        if self.updates.receiver_count() > 0 {
            // A receiver may leave meanwhile: nobody watching is no error.
            let _ = self.updates.send(Arc::new(update()));
        }
    }
}

/// A request to create a game.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The engine's configuration (`config` of a record); without a
    /// `seed`, the server draws one.
    pub config: Value,
    /// One entry per player: `human`, `random`, `greedy` or `mcts:…`.
    pub seats: Vec<String>,
    /// A time control for the people (none: untimed).
    #[serde(default)]
    pub clock: Option<ClockSpec>,
}

/// A created game, as its creator sees it (the only time tokens are shown).
#[derive(Clone, Debug, Serialize)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// `open` (people to join) or `playing` (bots only).
    pub status: &'static str,
    /// Each seat, with a token and an invite link for people.
    pub seats: Vec<CreatedSeat>,
    /// The WebSocket path.
    pub ws: String,
}

/// One seat of a created game.
#[derive(Clone, Debug, Serialize)]
pub struct CreatedSeat {
    /// Seat number.
    pub seat: usize,
    /// `human` or a bot spec.
    pub kind: String,
    /// The seat's token: whoever holds it plays the seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// A link to hand to the person who will play the seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// A connection's place among a game's audiences, given up when dropped.
pub struct Watch {
    handle: Arc<GameHandle>,
    index: usize,
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut w = self
            .handle
            .watchers
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        w[self.index] = w[self.index].saturating_sub(1);
    }
}

/// What a connection receives when it says hello.
pub struct Attached {
    /// Keeps the connection counted among its audience's; drop it when
    /// the connection ends.
    pub watch: Watch,
    /// Updates after the welcome's version.
    pub updates: broadcast::Receiver<Arc<Update>>,
    /// The welcome message.
    pub welcome: String,
    /// The `played` messages the client missed, in order.
    pub backlog: Vec<String>,
    /// Who the connection speaks for.
    pub audience: Audience,
}

/// Every live game, and the one place games change.
pub struct Hub {
    store: Arc<dyn Store>,
    games: StdMutex<HashMap<GameId, Arc<GameHandle>>>,
    /// The cache's size after its last sweep: the next sweep comes when
    /// it has doubled, so sweeping costs O(1) per game cached.
    swept_at: AtomicU64,
    /// Serialises loads so that a game is replayed once.
    loading: Mutex<()>,
    bot_permits: Arc<Semaphore>,
    settings: Settings,
    /// Actions committed since the hub started (for load figures).
    committed: AtomicU64,
    /// The other instances, in shared mode (`--nats`).
    cluster: Option<Arc<Cluster>>,
}

fn unavailable(e: StoreError) -> ProtocolError {
    tracing::error!("store: {e}");
    ProtocolError::new(
        ErrorCode::Unavailable,
        "the game store is unavailable; nothing changed, try again",
    )
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Hub {
    /// A hub over a store, alone on it.
    pub fn new(store: Arc<dyn Store>, settings: Settings) -> Arc<Hub> {
        Hub::shared(store, settings, None)
    }

    /// A hub over a store shared with other instances, which `cluster`
    /// tells of changes (none: alone on the store).
    pub fn shared(
        store: Arc<dyn Store>,
        settings: Settings,
        cluster: Option<Arc<Cluster>>,
    ) -> Arc<Hub> {
        Arc::new(Hub {
            store,
            games: StdMutex::new(HashMap::new()),
            swept_at: AtomicU64::new(0),
            loading: Mutex::new(()),
            bot_permits: Arc::new(Semaphore::new(settings.bot_threads.max(1))),
            settings,
            committed: AtomicU64::new(0),
            cluster,
        })
    }

    /// The other instances, in shared mode.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.as_ref()
    }

    /// Whether this instance drives the game's bots and timer: always
    /// when alone; in shared mode, while it holds the game's lease.
    fn drives(&self, id: &GameId) -> bool {
        self.cluster.as_ref().is_none_or(|c| c.holds(id))
    }

    /// Tells the other instances (shared mode). Called under the game's
    /// lock, so that one instance's notices of a game leave in order.
    async fn notify(&self, id: &GameId, notice: Notice) {
        if let Some(c) = &self.cluster {
            c.publish(id, &notice).await;
        }
    }

    /// Takes the lease of a game that needs a driver (shared mode); the
    /// game's bots and timer start only on the instance that holds it.
    async fn claim(&self, id: &GameId, live: &LiveGame) {
        if let Some(c) = &self.cluster {
            if live.needs_driver() {
                if let Err(e) = c.acquire(id).await {
                    tracing::warn!("game {id}: lease not taken ({e}); another instance will");
                }
            }
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    fn cached(&self, id: &GameId) -> Option<Arc<GameHandle>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Keeps a game in memory. Games that are over stay while anyone is
    /// connected to them (a rematch reaches them there), and are swept
    /// out once nobody is.
    fn cache(&self, handle: Arc<GameHandle>) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.insert(handle.id.clone(), handle);
        let len = games.len() as u64;
        if len > 2 * self.swept_at.load(Ordering::Relaxed) + 64 {
            games.retain(|_, h| !h.idle_and_over());
            self.swept_at.store(games.len() as u64, Ordering::Relaxed);
        }
    }

    /// Refuses a new game when memory holds the most games allowed (after
    /// dropping the ended games nobody watches).
    fn check_room(&self) -> Result<(), ProtocolError> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= self.settings.max_live_games {
            games.retain(|_, h| !h.idle_and_over());
            self.swept_at.store(games.len() as u64, Ordering::Relaxed);
        }
        if games.len() >= self.settings.max_live_games {
            return Err(ProtocolError::new(
                ErrorCode::Unavailable,
                format!(
                    "the server is hosting its most games ({}); try again later",
                    self.settings.max_live_games
                ),
            ));
        }
        Ok(())
    }

    /// Marks a game over; the next sweep may drop it from memory. In
    /// shared mode its lease, if held, is given up.
    fn ended(&self, handle: &GameHandle) {
        handle.over.store(true, Ordering::Relaxed);
        if let Some(c) = self.cluster.as_ref().filter(|c| c.holds(&handle.id)) {
            let (c, id) = (c.clone(), handle.id.clone());
            tokio::spawn(async move { c.release(&id).await });
        }
    }

    /// Actions committed since the hub started.
    pub fn committed_actions(&self) -> u64 {
        self.committed.load(Ordering::Relaxed)
    }

    /// Number of games in memory.
    pub fn live_games(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// Loads every open and running game into memory and sets their bots
    /// going: after a restart, every game resumes by itself.
    pub async fn resume_all(self: &Arc<Hub>) -> Result<usize, StoreError> {
        if self.cluster.is_some() {
            // Shared mode: games are read when asked for, and those that
            // need a driver are taken over by lease (`lease_pass`).
            return Ok(0);
        }
        let mut n = 0;
        for status in [Status::Playing, Status::Open] {
            for id in self.store.games_with_status(status, u32::MAX).await? {
                if let Ok(handle) = self.get(&id).await {
                    self.arm_timer(&handle, &mut *handle.live.lock().await);
                    self.schedule_bots(handle);
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    /// One pass of the lease task (shared mode): renews this instance's
    /// leases, then takes over running games whose driver is gone and
    /// sets their bots and timers going here.
    pub async fn lease_pass(self: &Arc<Hub>) {
        let Some(c) = self.cluster.clone() else {
            return;
        };
        let lapsed = match c.renew().await {
            Ok(lapsed) => lapsed,
            Err(e) => return tracing::warn!("leases not renewed: {e}"),
        };
        for id in lapsed {
            // Held all along by the database, but not by this instance's
            // clock for a moment: its bots or timer may have stopped.
            tracing::warn!(
                "game {id}: lease renewed late (an overloaded machine?); driving it again"
            );
            self.take_over(&id).await;
        }
        let orphans = match c.orphans().await {
            Ok(o) => o,
            Err(e) => return tracing::warn!("cannot look for games to take over: {e}"),
        };
        for id in orphans {
            match c.acquire(&id).await {
                Ok(true) => {}
                Ok(false) => continue,
                Err(e) => {
                    tracing::warn!("game {id}: lease not taken: {e}");
                    continue;
                }
            }
            tracing::info!("game {id}: taken over (its driver was gone)");
            self.take_over(&id).await;
        }
    }

    /// Drives a game whose lease this instance just took, or renewed
    /// after its own clock had let it go: the cache is brought up to the
    /// log first (the last driver may have committed moves nobody here
    /// heard of).
    async fn take_over(self: &Arc<Hub>, id: &GameId) {
        let fresh = self.cached(id).is_none();
        let Ok(handle) = self.get(id).await else {
            return;
        };
        {
            let mut live = handle.live.lock().await;
            if !fresh {
                self.resync_locked(&handle, &mut live, None).await;
            }
            self.arm_timer(&handle, &mut live);
        }
        self.schedule_bots(handle);
    }

    /// One pass of the catch-up task (shared mode): every game in memory
    /// that someone here watches or that this instance drives is compared
    /// with the log, and caught up if news of it was lost (NATS down, an
    /// instance killed between its commit and its notice). A copy behind
    /// is caught up only if it has not moved past what the log held at
    /// the previous pass: news merely on its way is left to arrive.
    pub async fn sync_pass(self: &Arc<Hub>) {
        let Some(c) = self.cluster.clone() else {
            return;
        };
        let handles: Vec<Arc<GameHandle>> = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter(|h| {
                !h.over.load(Ordering::Relaxed)
                    && (h.updates.receiver_count() > 0 || self.drives(&h.id))
            })
            .cloned()
            .collect();
        for chunk in handles.chunks(1000) {
            let ids: Vec<GameId> = chunk.iter().map(|h| h.id.clone()).collect();
            let stored = match c.versions(&ids).await {
                Ok(v) => v,
                Err(e) => return tracing::warn!("cannot compare games with the log: {e}"),
            };
            for (id, version, status) in stored {
                let Some(handle) = chunk.iter().find(|h| h.id == id) else {
                    continue;
                };
                {
                    let mut live = handle.live.lock().await;
                    if live.version() >= version && live.status == status {
                        handle.behind_at.store(NOT_BEHIND, Ordering::Relaxed);
                        continue;
                    }
                    let before = handle.behind_at.swap(u64::from(version), Ordering::Relaxed);
                    if before == NOT_BEHIND || u64::from(live.version()) > before {
                        // News is on its way, or was at the last pass and
                        // has come since: look again next pass.
                        continue;
                    }
                    self.resync_locked(handle, &mut live, None).await;
                    handle.behind_at.store(NOT_BEHIND, Ordering::Relaxed);
                    self.arm_timer(handle, &mut live);
                }
                self.schedule_bots(handle.clone());
            }
        }
    }

    /// In shared mode, brings a game's cache up to the log before it is
    /// read over HTTP (summary, record, view): news of it may be on its
    /// way still.
    pub async fn freshen(&self, handle: &Arc<GameHandle>) {
        let Some(c) = &self.cluster else {
            return;
        };
        if let Ok(v) = c.versions(std::slice::from_ref(&handle.id)).await {
            let mut live = handle.live.lock().await;
            if v.iter()
                .any(|(_, version, status)| *version > live.version() || *status != live.status)
            {
                self.resync_locked(handle, &mut live, None).await;
            }
        }
    }

    /// A game by id, from memory or rebuilt from the store.
    pub async fn get(&self, id: &GameId) -> Result<Arc<GameHandle>, ProtocolError> {
        if let Some(h) = self.cached(id) {
            return Ok(h);
        }
        let _loading = self.loading.lock().await;
        if let Some(h) = self.cached(id) {
            return Ok(h);
        }
        let stored = self
            .store
            .load_game(id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| ProtocolError::new(ErrorCode::NotFound, format!("no game {id}")))?;
        let live = LiveGame::from_stored(&stored).map_err(unavailable)?;
        if live.status != stored.status {
            // Finish what a crash interrupted: the status write after the
            // last action.
            self.store
                .set_status(id, live.status, None)
                .await
                .map_err(unavailable)?;
        }
        let handle = GameHandle::new(id.clone(), live);
        self.cache(handle.clone());
        Ok(handle)
    }

    /// Creates a game: checks the configuration with the engine, draws a
    /// seed if none is given, and makes a token per person's seat.
    pub async fn create(self: &Arc<Hub>, req: CreateGame) -> Result<Created, ProtocolError> {
        let bad = |m: String| ProtocolError::new(ErrorCode::BadRequest, m);
        self.check_room()?;
        let Value::Object(mut config) = req.config else {
            return Err(bad(
                "config must be a JSON object, the \"config\" of a game record".into(),
            ));
        };
        if !config.contains_key("seed") {
            config.insert("seed".into(), token::random_u64().into());
        }
        let config: GameConfig = serde_json::from_value(Value::Object(config))
            .map_err(|e| bad(format!("config: {e}")))?;
        if req.seats.len() != config.players.len() {
            return Err(bad(format!(
                "seats names {} but the configuration has {} players: give one seat per player",
                req.seats.len(),
                config.players.len()
            )));
        }
        let mut seats = Vec::with_capacity(req.seats.len());
        for (i, s) in req.seats.iter().enumerate() {
            seats.push(if s.trim() == "human" {
                let (token, hash) = token::new_token();
                (
                    Occupant::Human {
                        hash,
                        joined: false,
                    },
                    Some(token),
                )
            } else {
                let spec =
                    BotSpec::parse(s).map_err(|e| bad(format!("seat {i}: {e}, or human")))?;
                self.check_budget(&spec)
                    .map_err(|m| bad(format!("seat {i}: {m}")))?;
                (Occupant::Bot(spec), None)
            });
        }
        if let Some(c) = &req.clock {
            c.check().map_err(|m| bad(format!("clock: {m}")))?;
        }
        let game = Game::new(config.clone()).map_err(|e| bad(format!("config: {e}")))?;
        self.insert_game(GameId::random(), config, game, seats, req.clock)
            .await
    }

    /// Writes a checked game with its seats (and their new tokens), keeps
    /// it in memory and sets its bots going.
    async fn insert_game(
        self: &Arc<Hub>,
        id: GameId,
        config: GameConfig,
        game: Game,
        seats: Vec<(Occupant, Option<String>)>,
        clock_spec: Option<ClockSpec>,
    ) -> Result<Created, ProtocolError> {
        let bad = |m: String| ProtocolError::new(ErrorCode::BadRequest, m);
        let status = if seats
            .iter()
            .any(|(o, _)| matches!(o, Occupant::Human { .. }))
        {
            Status::Open
        } else {
            Status::Playing
        };
        let created_ms = now_ms();
        let new = NewGame {
            id: id.clone(),
            config: serde_json::to_string(&config).map_err(|e| bad(e.to_string()))?,
            status,
            created_ms,
            clock: clock_spec
                .as_ref()
                .map(serde_json::to_string)
                .transpose()
                .map_err(|e| bad(e.to_string()))?,
            seats: seats
                .iter()
                .enumerate()
                .map(|(seat, (o, _))| SeatRow {
                    // At most six players: the engine checked.
                    seat: seat as u8,
                    kind: o.kind(),
                    token_hash: match o {
                        Occupant::Human { hash, .. } => Some(*hash),
                        Occupant::Bot(_) => None,
                    },
                    joined: false,
                })
                .collect(),
        };
        self.store.create_game(&new).await.map_err(unavailable)?;
        let n = seats.len();
        let created = Created {
            id: id.to_string(),
            status: status.as_str(),
            ws: format!("/api/games/{id}/ws"),
            seats: seats
                .iter()
                .enumerate()
                .map(|(seat, (o, token))| CreatedSeat {
                    seat,
                    kind: o.kind(),
                    invite: token.as_ref().map(|t| {
                        format!(
                            "{}/play/{id}#seat={seat}&token={t}",
                            self.settings.public_url.trim_end_matches('/')
                        )
                    }),
                    token: token.clone(),
                })
                .collect(),
        };
        let live = LiveGame {
            config,
            game,
            actions: Vec::new(),
            seats: seats.into_iter().map(|(o, _)| o).collect(),
            status,
            resigned: None,
            created_ms,
            bot_running: false,
            rematch: None,
            // A game of bots only has started: its clocks run (for nobody).
            clock: clock_spec
                .clone()
                .filter(|_| status == Status::Playing)
                .map(|c| ClockState::new(c, n, created_ms)),
            clock_spec,
            timer: None,
        };
        self.claim(&id, &live).await;
        let handle = GameHandle::new(id, live);
        self.cache(handle.clone());
        self.schedule_bots(handle);
        Ok(created)
    }

    /// Refuses bot budgets beyond the server's limits.
    fn check_budget(&self, spec: &BotSpec) -> Result<(), String> {
        if let BotSpec::Mcts(c) = spec {
            match c.budget {
                Budget::Iterations(n) if n > self.settings.max_mcts_iterations => {
                    return Err(format!(
                        "mcts:{n} is more iterations than this server allows ({})",
                        self.settings.max_mcts_iterations
                    ))
                }
                Budget::Time(t) if t > self.settings.bot_move_limit => {
                    return Err(format!(
                        "a bot may think at most {} ms per move here",
                        self.settings.bot_move_limit.as_millis()
                    ))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Games with a status, newest first (at most 100).
    pub async fn list(&self, status: Status) -> Result<Vec<GameSummary>, ProtocolError> {
        let ids = self
            .store
            .games_with_status(status, 100)
            .await
            .map_err(unavailable)?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Ok(h) = self.get(&id).await {
                out.push(h.live.lock().await.summary(&id));
            }
        }
        Ok(out)
    }

    /// A game's summary.
    pub async fn summary(&self, handle: &GameHandle) -> GameSummary {
        handle.live.lock().await.summary(&handle.id)
    }

    /// The game's record (see `LiveGame::record_json`) and whether it is
    /// complete.
    pub async fn record(&self, handle: &GameHandle) -> (Value, bool) {
        let live = handle.live.lock().await;
        (live.record_json(), live.status.is_over())
    }

    /// The public view, for spectators over HTTP.
    pub async fn public_view(&self, handle: &GameHandle) -> Value {
        public_view(&handle.live.lock().await.game)
    }

    /// A spectator's `welcome` body (the public view, no seat, no legal
    /// actions) and `f` of the game, under one lock so that both are of
    /// the same version: what a game's page embeds (`assets.rs`). Nothing
    /// of a seat's private hand is in it.
    pub async fn spectator_welcome<R>(
        &self,
        handle: &GameHandle,
        f: impl FnOnce(&Game) -> R,
    ) -> (Value, R) {
        let live = handle.live.lock().await;
        (
            live.welcome(&handle.id, Audience::Spectator, true),
            f(&live.game),
        )
    }

    /// Runs `f` on the game in memory, read only (routes outside this
    /// module, e.g. the client's feature details in `assets.rs`).
    pub async fn inspect<R>(&self, handle: &GameHandle, f: impl FnOnce(&Game) -> R) -> R {
        f(&handle.live.lock().await.game)
    }

    fn seat_of(live: &LiveGame, token: &str) -> Result<usize, ProtocolError> {
        live.seat_for_token(token).ok_or_else(|| {
            ProtocolError::new(
                ErrorCode::BadToken,
                "that token is not a seat's token in this game",
            )
        })
    }

    /// Claims the seat a token belongs to.
    pub async fn join(&self, handle: &GameHandle, token: &str) -> Result<usize, ProtocolError> {
        let mut live = handle.live.lock().await;
        let seat = Hub::seat_of(&live, token)?;
        self.mark_joined(handle, &mut live, seat).await?;
        Ok(seat)
    }

    /// Leaves a seat before the start: the seat shows as free again, and
    /// its invite link stays good for whoever takes it next.
    pub async fn leave(&self, handle: &GameHandle, token: &str) -> Result<usize, ProtocolError> {
        let mut live = handle.live.lock().await;
        let seat = Hub::seat_of(&live, token)?;
        if live.status != Status::Open {
            return Err(ProtocolError::new(
                ErrorCode::BadRequest,
                "a seat can be left only before the start; resign instead",
            ));
        }
        if let Some(Occupant::Human { joined, .. }) = live.seats.get_mut(seat) {
            if *joined {
                self.store
                    // Seats are numbered below six.
                    .mark_left(&handle.id, seat as u8)
                    .await
                    .map_err(unavailable)?;
                *joined = false;
                self.notify(&handle.id, Notice::Changed { timeout: None })
                    .await;
            }
        }
        Ok(seat)
    }

    async fn mark_joined(
        &self,
        handle: &GameHandle,
        live: &mut LiveGame,
        seat: usize,
    ) -> Result<(), ProtocolError> {
        if let Some(Occupant::Human { joined, .. }) = live.seats.get_mut(seat) {
            if !*joined {
                self.store
                    // Seats are numbered below six.
                    .mark_joined(&handle.id, seat as u8)
                    .await
                    .map_err(unavailable)?;
                *joined = true;
                self.notify(&handle.id, Notice::Changed { timeout: None })
                    .await;
            }
        }
        Ok(())
    }

    /// Starts an open game; any seat's token may.
    pub async fn start(
        self: &Arc<Hub>,
        handle: &Arc<GameHandle>,
        token: &str,
    ) -> Result<(), ProtocolError> {
        {
            let mut live = handle.live.lock().await;
            Hub::seat_of(&live, token)?;
            match live.status {
                Status::Open => {}
                Status::Playing => {
                    return Err(ProtocolError::new(
                        ErrorCode::BadRequest,
                        "the game has already started",
                    ))
                }
                _ => return Err(game_over()),
            }
            let now = now_ms();
            if !self
                .store
                .start_game(&handle.id, now)
                .await
                .map_err(unavailable)?
            {
                return Err(ProtocolError::new(
                    ErrorCode::BadRequest,
                    "the game has already started",
                ));
            }
            live.status = Status::Playing;
            let n = live.seats.len();
            live.clock = live.clock_spec.clone().map(|c| ClockState::new(c, n, now));
            self.notify(&handle.id, Notice::Changed { timeout: None })
                .await;
            handle.publish(|| live.status_update(None, |a| handle.watched(a)));
            self.claim(&handle.id, &live).await;
            self.arm_timer(handle, &mut live);
        }
        self.schedule_bots(handle.clone());
        Ok(())
    }

    /// Ends a running game: the token's seat resigns.
    pub async fn resign(&self, handle: &Arc<GameHandle>, seat: usize) -> Result<(), ProtocolError> {
        let mut live = handle.live.lock().await;
        match live.status {
            Status::Playing => {}
            Status::Open => {
                return Err(ProtocolError::new(
                    ErrorCode::NotStarted,
                    "the game has not started: there is nothing to resign",
                ))
            }
            _ => return Err(game_over()),
        }
        self.store
            // Seats are numbered below six.
            .set_status(&handle.id, Status::Resigned, Some(seat as u8))
            .await
            .map_err(unavailable)?;
        live.status = Status::Resigned;
        live.resigned = Some(seat);
        if let Some(t) = live.timer.take() {
            t.abort();
        }
        self.notify(&handle.id, Notice::Changed { timeout: None })
            .await;
        handle.publish(|| live.status_update(None, |a| handle.watched(a)));
        self.ended(handle);
        Ok(())
    }

    /// Resigns by token (HTTP).
    pub async fn resign_token(
        &self,
        handle: &Arc<GameHandle>,
        token: &str,
    ) -> Result<usize, ProtocolError> {
        let seat = Hub::seat_of(&*handle.live.lock().await, token)?;
        self.resign(handle, seat).await?;
        Ok(seat)
    }

    /// Starts a rematch of a game that is over: the same set-up with a
    /// new seed, seats rotated by one (seat 1 goes first), a new token per
    /// person. The one asking gets every seat's invite, as a creator does;
    /// each person connected to the old game is sent their own new token.
    /// Of two requests, the first wins; the second is told the rematch's id.
    pub async fn rematch(
        self: &Arc<Hub>,
        handle: &Arc<GameHandle>,
        token: &str,
    ) -> Result<Created, ProtocolError> {
        self.check_room()?;
        let mut live = handle.live.lock().await;
        Hub::seat_of(&live, token)?;
        if !live.status.is_over() {
            return Err(ProtocolError::new(
                ErrorCode::BadRequest,
                "a rematch follows a game that is over; this one is not",
            ));
        }
        if let Some(r) = &live.rematch {
            return Err(rematch_exists(r));
        }
        let n = live.seats.len();
        let mut config = live.config.clone();
        config.players.rotate_left(1);
        if let Some(hands) = config.hands.as_mut().filter(|h| h.len() == n) {
            hands.rotate_left(1);
        }
        config.seed = token::random_u64();
        let game = Game::new(config.clone())
            .map_err(|e| ProtocolError::new(ErrorCode::BadRequest, format!("config: {e}")))?;
        // New seat i is old seat i + 1.
        let seats: Vec<(Occupant, Option<String>)> = (0..n)
            .map(|i| match &live.seats[(i + 1) % n] {
                Occupant::Human { .. } => {
                    let (token, hash) = token::new_token();
                    (
                        Occupant::Human {
                            hash,
                            joined: false,
                        },
                        Some(token),
                    )
                }
                Occupant::Bot(spec) => (Occupant::Bot(spec.clone()), None),
            })
            .collect();
        let id = GameId::random();
        if !self
            .store
            .set_rematch(&handle.id, &id)
            .await
            .map_err(unavailable)?
        {
            // Another server process won the race.
            let stored = self
                .store
                .load_game(&handle.id)
                .await
                .map_err(unavailable)?;
            let r = stored.and_then(|s| s.rematch).unwrap_or_else(|| id.clone());
            live.rematch = Some(r.clone());
            return Err(rematch_exists(&r));
        }
        live.rematch = Some(id.clone());
        let spec = live.clock_spec.clone();
        let created = self.insert_game(id, config, game, seats, spec).await?;
        let version = live.version();
        let tokens: Vec<Option<String>> = created.seats.iter().map(|s| s.token.clone()).collect();
        handle.publish(|| rematch_update(version, n, &created.id, &tokens, handle));
        // The people connected to other instances get their tokens there.
        self.notify(
            &handle.id,
            Notice::Rematch {
                game: created.id.clone(),
                tokens,
            },
        )
        .await;
        Ok(created)
    }

    /// Subscribes a connection that said hello: resolves its token, and
    /// returns its welcome and the actions it missed since `since`.
    pub async fn attach(
        &self,
        handle: &Arc<GameHandle>,
        token: Option<&str>,
        since: Option<u32>,
    ) -> Result<Attached, ProtocolError> {
        let mut live = handle.live.lock().await;
        let audience = match token {
            Some(t) => {
                let seat = Hub::seat_of(&live, t)?;
                self.mark_joined(handle, &mut live, seat).await?;
                Audience::Seat(seat)
            }
            None => Audience::Spectator,
        };
        if self.cluster.is_some() && since.is_some_and(|s| s > live.version()) {
            // A client come from another instance may be ahead of our
            // copy: read the log before calling it ahead of the game.
            self.resync_locked(handle, &mut live, None).await;
        }
        let version = live.version();
        if let Some(s) = since.filter(|s| *s > version) {
            return Err(ProtocolError::new(
                ErrorCode::BadSince,
                format!("since {s} is ahead of the game, which is at version {version}"),
            ));
        }
        // Subscribed under the lock: every update after `version` reaches
        // this receiver, and none before it.
        let updates = handle.updates.subscribe();
        let watch = {
            let index = audience.index();
            handle.watchers.lock().unwrap_or_else(|e| e.into_inner())[index] += 1;
            Watch {
                handle: handle.clone(),
                index,
            }
        };
        let welcome =
            json!({ "welcome": live.welcome(&handle.id, audience, since.is_none()) }).to_string();
        let missed = since.filter(|s| *s < version).map(|s| {
            // A seat a bot took over is offered no legal actions.
            let person = matches!(audience, Audience::Seat(seat)
                    if matches!(live.seats.get(seat), Some(Occupant::Human { .. })));
            (
                live.config.clone(),
                live.actions.clone(),
                s,
                live.status == Status::Playing && person,
            )
        });
        drop(live);
        let backlog = match missed {
            None => Vec::new(),
            Some((config, actions, since, offers)) => tokio::task::spawn_blocking(move || {
                catch_up(config, &actions, since, audience, offers)
            })
            .await
            .map_err(|e| unavailable(StoreError::Url(format!("catch-up failed: {e}"))))?
            .map_err(unavailable)?,
        };
        Ok(Attached {
            watch,
            updates,
            welcome,
            backlog,
            audience,
        })
    }

    /// Checks, commits and broadcasts one action for `seat`. With
    /// `expected`, the action is refused unless the game is at that
    /// version. On any refusal nothing changes.
    pub async fn submit(
        self: &Arc<Hub>,
        handle: &Arc<GameHandle>,
        seat: usize,
        action: ActionJson,
        expected: Option<u32>,
        by_bot: bool,
    ) -> Result<u32, ProtocolError> {
        let version = {
            let mut live = handle.live.lock().await;
            match live.status {
                Status::Playing => {}
                Status::Open => {
                    return Err(ProtocolError::new(
                        ErrorCode::NotStarted,
                        "the game has not started yet",
                    ))
                }
                Status::Finished | Status::Resigned => return Err(game_over()),
            }
            if self.cluster.is_some() && expected.is_some_and(|v| v > live.version()) {
                // The client saw a version our copy lacks (it came from
                // another instance): catch up before judging the action.
                self.resync_locked(handle, &mut live, None).await;
            }
            if live.game.is_finished() {
                return Err(game_over());
            }
            if live.deadline().is_some_and(|d| now_ms() >= d) {
                // The timer has not fired yet, but time is up.
                self.flag_fall(handle, &mut live).await;
                return Err(ProtocolError::new(
                    ErrorCode::Timeout,
                    "the seat to act ran out of time",
                ));
            }
            if by_bot != matches!(live.seats.get(seat), Some(Occupant::Bot(_))) {
                return Err(ProtocolError::new(
                    ErrorCode::BadToken,
                    format!("seat {seat} is played by a bot now (its person ran out of time)"),
                ));
            }
            let version = live.version();
            if let Some(v) = expected.filter(|v| *v != version) {
                return Err(ProtocolError::new(
                    ErrorCode::StaleVersion,
                    format!("the action was for version {v}, but the game is at version {version}: someone acted first"),
                ));
            }
            let to_act = live.game.current_player().index();
            if to_act != seat {
                return Err(ProtocolError::new(
                    ErrorCode::NotYourTurn,
                    format!("seat {to_act} is to act, not seat {seat}"),
                ));
            }
            let engine_action = action.to_action(live.game.catalog()).map_err(|e| match e {
                ActionError::Malformed(m) => ProtocolError::new(ErrorCode::BadAction, m),
                ActionError::Illegal(i) => ProtocolError::new(ErrorCode::Illegal, i.to_string()),
            })?;
            let mut next = live.game.clone();
            next.try_apply(&engine_action)
                .map_err(|e| ProtocolError::new(ErrorCode::Illegal, cut_message(&e.to_string())))?;
            // Written as the engine would write it, so the log is canonical.
            let action = ActionJson::from_action(&engine_action, live.game.catalog());
            let text = serde_json::to_string(&action).map_err(|e| {
                ProtocolError::new(
                    ErrorCode::BadAction,
                    format!("cannot write the action: {e}"),
                )
            })?;
            let at = now_ms();
            match self
                .store
                .append_action(&handle.id, version, &text, at)
                .await
            {
                Ok(()) => {}
                Err(StoreError::Conflict { .. }) => {
                    // Another instance wrote this index first: our copy
                    // is behind. Catch up from the log (telling our
                    // clients what they missed) and refuse.
                    self.resync_locked(handle, &mut live, None).await;
                    drop(live);
                    self.schedule_bots(handle.clone());
                    return Err(ProtocolError::new(
                        ErrorCode::StaleVersion,
                        "another action was committed first",
                    ));
                }
                Err(e) => return Err(unavailable(e)),
            }
            // Committed: now the other instances, the cache and the clients.
            self.committed.fetch_add(1, Ordering::Relaxed);
            let version = version + 1;
            self.notify(
                &handle.id,
                Notice::Played {
                    version,
                    seat,
                    action: action.clone(),
                    at,
                },
            )
            .await;
            self.apply_committed(handle, &mut live, next, seat, action, at);
            if live.game.is_finished() {
                if let Err(e) = self
                    .store
                    .set_status(&handle.id, Status::Finished, None)
                    .await
                {
                    // The log says it is finished; a reload repairs this.
                    tracing::warn!("game {}: status not written: {e}", handle.id);
                }
            }
            self.arm_timer(handle, &mut live);
            version
        };
        self.schedule_bots(handle.clone());
        Ok(version)
    }

    /// Applies a committed action (`next` is the game after it) to the
    /// cache and tells this instance's clients.
    fn apply_committed(
        &self,
        handle: &Arc<GameHandle>,
        live: &mut LiveGame,
        next: Game,
        seat: usize,
        action: ActionJson,
        at: i64,
    ) {
        let before = live.game.events().len();
        live.game = next;
        live.actions.push(action.clone());
        if let Some(c) = live.clock.as_mut() {
            let person = matches!(live.seats.get(seat), Some(Occupant::Human { .. }));
            let turn_ended = live.game.is_finished() || live.game.current_player().index() != seat;
            c.charge(person.then_some(seat), at, turn_ended);
        }
        let version = live.version();
        let finished = live.game.is_finished();
        if finished {
            live.status = Status::Finished;
        }
        handle.publish(|| {
            let events = new_events(&live.game, before);
            let clock = live.clock_json();
            let text = |audience| {
                let played = Played {
                    version,
                    seat,
                    action: &action,
                    events: &events,
                };
                played_text(
                    &live.game,
                    &played,
                    audience,
                    live.offers_legal(audience),
                    clock.as_ref(),
                )
            };
            Update::build(version, live.seats.len(), |a| handle.watched(a), text)
        });
        if finished {
            handle.publish(|| live.status_update(None, |a| handle.watched(a)));
            self.ended(handle);
        }
    }

    /// Brings the cache up to the store (shared mode: another instance
    /// changed the game): every action it lacks is applied and sent to
    /// this instance's clients in order, then the rows (status, seats,
    /// rematch) are taken over, with a `status` message if they changed
    /// what clients see. `timeout` names the seat whose time was called.
    async fn resync_locked(
        &self,
        handle: &Arc<GameHandle>,
        live: &mut LiveGame,
        timeout: Option<usize>,
    ) {
        let fresh = match self.store.load_game(&handle.id).await {
            Ok(Some(stored)) => match LiveGame::from_stored(&stored) {
                Ok(fresh) => (fresh, stored),
                Err(e) => return tracing::error!("game {}: {e}", handle.id),
            },
            Ok(None) => return,
            Err(e) => return tracing::warn!("game {}: cannot catch up: {e}", handle.id),
        };
        let (fresh, stored) = fresh;
        tracing::debug!(
            "game {}: caught up from the log (copy at version {}, log at {})",
            handle.id,
            live.version(),
            fresh.version()
        );
        if fresh.version() < live.version() {
            // Read before our own latest commit: nothing to learn.
            return;
        }
        if live.status == Status::Open && fresh.status != Status::Open {
            // Started elsewhere: the start goes out before any action.
            live.status = Status::Playing;
            let n = live.seats.len();
            live.clock = match (&live.clock_spec, stored.started_ms) {
                (Some(spec), Some(t)) => Some(ClockState::new(spec.clone(), n, t)),
                _ => None,
            };
            live.seats.clone_from(&fresh.seats);
            handle.publish(|| live.status_update(None, |a| handle.watched(a)));
        }
        for i in live.actions.len()..fresh.actions.len() {
            let action = fresh.actions[i].clone();
            let seat = live.game.current_player().index();
            let mut next = live.game.clone();
            let applied = action
                .to_action(live.game.catalog())
                .map_err(|e| e.to_string())
                .and_then(|a| next.try_apply(&a).map_err(|e| e.to_string()));
            if let Err(e) = applied {
                // The log replayed in `from_stored`: this cannot happen
                // unless the cache went wrong; start it afresh.
                tracing::error!("game {}: action {i} does not apply: {e}", handle.id);
                let (bot_running, timer) = (live.bot_running, live.timer.take());
                *live = fresh;
                live.bot_running = bot_running;
                live.timer = timer;
                return;
            }
            let at = stored.action_times.get(i).copied().unwrap_or_default();
            self.apply_committed(handle, live, next, seat, action, at);
        }
        let kinds = |l: &LiveGame| l.seats.iter().map(Occupant::kind).collect::<Vec<_>>();
        let seen = (live.status, live.resigned, kinds(live));
        let was_over = live.status.is_over();
        live.seats = fresh.seats;
        live.status = fresh.status;
        live.resigned = fresh.resigned;
        live.rematch = fresh.rematch;
        live.clock = fresh.clock;
        if (live.status, live.resigned, kinds(live)) != seen {
            handle.publish(|| live.status_update(timeout, |a| handle.watched(a)));
        }
        if live.status.is_over() && !was_over {
            if let Some(t) = live.timer.take() {
                t.abort();
            }
            self.ended(handle);
        }
    }

    /// Acts on another instance's notice about a game this instance has in
    /// memory (games it does not have are read from the store when asked
    /// for, so there is nothing to update).
    pub async fn on_notice(self: &Arc<Hub>, id: &GameId, notice: Notice) {
        let Some(handle) = self.cached(id) else {
            return;
        };
        {
            let mut live = handle.live.lock().await;
            match notice {
                Notice::Played { version, .. } if version <= live.version() => return,
                Notice::Played {
                    version,
                    seat,
                    action,
                    at,
                } if version == live.version() + 1
                    && live.status == Status::Playing
                    && live.game.current_player().index() == seat =>
                {
                    let mut next = live.game.clone();
                    match action.to_action(live.game.catalog()) {
                        Ok(a) if next.try_apply(&a).is_ok() => {
                            self.apply_committed(&handle, &mut live, next, seat, action, at);
                        }
                        // Not what the log says: read the log.
                        _ => self.resync_locked(&handle, &mut live, None).await,
                    }
                }
                // A gap (news lost or out of order), or a change of rows.
                Notice::Played { .. } => self.resync_locked(&handle, &mut live, None).await,
                Notice::Changed { timeout } => {
                    self.resync_locked(&handle, &mut live, timeout).await
                }
                Notice::Rematch { game, tokens } => {
                    if live.rematch.is_none() {
                        live.rematch = GameId::parse(&game);
                    }
                    let n = live.seats.len();
                    let version = live.version();
                    handle.publish(|| rematch_update(version, n, &game, &tokens, &handle));
                }
            }
            self.arm_timer(&handle, &mut live);
        }
        self.schedule_bots(handle);
    }

    /// (Re)arms the timer that calls time on the seat to act, if its time
    /// runs.
    fn arm_timer(self: &Arc<Hub>, handle: &Arc<GameHandle>, live: &mut LiveGame) {
        if let Some(t) = live.timer.take() {
            t.abort();
        }
        // In shared mode only the lease holder calls time.
        let Some(deadline) = live.deadline().filter(|_| self.drives(&handle.id)) else {
            return;
        };
        let wait = u64::try_from(deadline.saturating_sub(now_ms())).unwrap_or(0);
        self.set_timer(handle, live, Duration::from_millis(wait));
    }

    /// Calls [`Hub::time_up`] after `wait`.
    fn set_timer(self: &Arc<Hub>, handle: &Arc<GameHandle>, live: &mut LiveGame, wait: Duration) {
        let version = live.version();
        let (hub, handle) = (self.clone(), handle.clone());
        let task = tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            hub.time_up(&handle, version).await;
        });
        live.timer = Some(task.abort_handle());
    }

    /// The timer rang: calls time if nothing was played meanwhile.
    async fn time_up(self: &Arc<Hub>, handle: &Arc<GameHandle>, version: u32) {
        let mut live = handle.live.lock().await;
        // A lease lost meanwhile: the new holder's timer calls time.
        if live.version() != version || !self.drives(&handle.id) {
            return;
        }
        // This task is the timer: it must not abort itself below.
        live.timer = None;
        match live.deadline() {
            Some(d) if now_ms() >= d => self.flag_fall(handle, &mut live).await,
            // Woke early (the system clock moved): wait again.
            Some(_) => self.arm_timer(handle, &mut live),
            None => {}
        }
    }

    /// The seat to act is out of time: it loses (the game ends as if it
    /// resigned) or a bot takes the seat over, as the clock says.
    async fn flag_fall(self: &Arc<Hub>, handle: &Arc<GameHandle>, live: &mut LiveGame) {
        let Some(seat) = live.clocked_seat() else {
            return;
        };
        let policy = live
            .clock_spec
            .as_ref()
            .map_or(OnTimeout::Lose, |c| c.on_timeout);
        // Seats are numbered below six.
        let seat_u8 = seat as u8;
        let written = match policy {
            OnTimeout::Lose => {
                self.store
                    .set_status(&handle.id, Status::Resigned, Some(seat_u8))
                    .await
            }
            OnTimeout::Bot => {
                self.store
                    .replace_with_bot(&handle.id, seat_u8, &BotSpec::Greedy.to_string())
                    .await
            }
        };
        if let Err(e) = written {
            tracing::error!("game {}: cannot call time: {e}; trying again", handle.id);
            self.set_timer(handle, live, Duration::from_secs(1));
            return;
        }
        self.notify(
            &handle.id,
            Notice::Changed {
                timeout: Some(seat),
            },
        )
        .await;
        match policy {
            OnTimeout::Lose => {
                live.status = Status::Resigned;
                live.resigned = Some(seat);
                handle.publish(|| live.status_update(Some(seat), |a| handle.watched(a)));
                self.ended(handle);
            }
            OnTimeout::Bot => {
                if let Some(s) = live.seats.get_mut(seat) {
                    *s = Occupant::Bot(BotSpec::Greedy);
                }
                handle.publish(|| live.status_update(Some(seat), |a| handle.watched(a)));
                // A bot seat needs a driver now.
                self.claim(&handle.id, live).await;
                self.schedule_bots(handle.clone());
            }
        }
        self.arm_timer(handle, live);
    }

    /// Starts the game's bot task if a bot is to move and none runs.
    fn schedule_bots(self: &Arc<Hub>, handle: Arc<GameHandle>) {
        if !self.drives(&handle.id) {
            return;
        }
        let hub = self.clone();
        tokio::spawn(async move { hub.run_bots(handle).await });
    }

    /// Plays the game's bot moves until a person is to move or it ends.
    async fn run_bots(self: Arc<Hub>, handle: Arc<GameHandle>) {
        {
            let mut live = handle.live.lock().await;
            if live.bot_running || live.bot_to_move().is_none() {
                return;
            }
            live.bot_running = true;
        }
        let mut failures = 0u32;
        loop {
            let job = {
                let mut live = handle.live.lock().await;
                // A lease lost (another instance drives now) stops the bots here.
                match live.bot_to_move().filter(|_| self.drives(&handle.id)) {
                    Some(job) => job,
                    None => {
                        live.bot_running = false;
                        return;
                    }
                }
            };
            let (seat, version) = (job.seat, job.version);
            let action = self.think(job).await;
            match self
                .submit(&handle, seat, action, Some(version), true)
                .await
            {
                Ok(_) => failures = 0,
                Err(e) if e.code == ErrorCode::StaleVersion => {}
                Err(e) => {
                    failures += 1;
                    tracing::warn!("game {}: bot move refused: {e}", handle.id);
                    if failures >= 30 {
                        handle.live.lock().await.bot_running = false;
                        return;
                    }
                    // The store may be back in a moment.
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        }
    }

    /// Asks the bot for a move on the blocking pool, within the time limit.
    async fn think(&self, job: BotJob) -> ActionJson {
        let legal = job.game.legal_actions();
        let fallback = |legal: &[bastide_engine::Action]| {
            // Reduced modulo the length: the index is in range.
            legal[(job.seed % legal.len().max(1) as u64) as usize]
        };
        let chosen = if legal.len() <= 1 {
            legal.first().copied()
        } else {
            let permit = self.bot_permits.clone().acquire_owned().await;
            let (game, spec, seed) = (job.game.clone(), job.spec.clone(), job.seed);
            let thinking = tokio::task::spawn_blocking(move || {
                // Held while thinking: bounds how many bots think at once.
                let _permit = permit;
                spec.build(seed).choose(&View::new(&game))
            });
            match tokio::time::timeout(self.settings.bot_move_limit, thinking).await {
                Ok(Ok(a)) if legal.contains(&a) => Some(a),
                _ => {
                    tracing::warn!("a bot ran out of time or failed; it plays a quick move");
                    Some(fallback(&legal))
                }
            }
        };
        match chosen {
            Some(a) => ActionJson::from_action(&a, job.game.catalog()),
            // A running game always has a legal action; `pass` is refused
            // harmlessly if that were ever false.
            None => ActionJson::Pass {},
        }
    }
}

/// The `rematch` message per audience: each person connected to the old
/// game gets their own new seat's token (`tokens` by new seat).
fn rematch_update(
    version: u32,
    n: usize,
    game: &str,
    tokens: &[Option<String>],
    handle: &GameHandle,
) -> Update {
    let text = |audience| {
        let mut body = json!({ "game": game });
        if let Audience::Seat(old) = audience {
            // Old seat s is new seat s - 1.
            let new = (old + n - 1) % n;
            if let Some(t) = tokens.get(new).and_then(Option::as_ref) {
                body["seat"] = new.into();
                body["token"] = t.clone().into();
            }
        }
        json!({ "rematch": body }).to_string()
    };
    Update::build(version, n, |a| handle.watched(a), text)
}

fn rematch_exists(id: &GameId) -> ProtocolError {
    ProtocolError::new(
        ErrorCode::RematchExists,
        format!("a rematch was already started: game {id}"),
    )
}

fn game_over() -> ProtocolError {
    ProtocolError::new(ErrorCode::GameOver, "the game is over")
}

/// The `played` messages for one audience after version `since`, replayed
/// from the configuration.
fn catch_up(
    config: GameConfig,
    actions: &[ActionJson],
    since: u32,
    audience: Audience,
    offers_legal: bool,
) -> Result<Vec<String>, StoreError> {
    let corrupt = |message: String| StoreError::Corrupt {
        game: String::new(),
        message,
    };
    let mut game = Game::new(config).map_err(|e| corrupt(e.to_string()))?;
    let since = since as usize;
    let mut out = Vec::with_capacity(actions.len().saturating_sub(since));
    for (i, a) in actions.iter().enumerate() {
        let action = a
            .to_action(game.catalog())
            .map_err(|e| corrupt(format!("action {i}: {e}")))?;
        let before = game.events().len();
        let actor = game.current_player().index();
        game.try_apply(&action)
            .map_err(|e| corrupt(format!("action {i}: {e}")))?;
        if i >= since {
            let events = new_events(&game, before);
            // Legal actions as the audience would be offered them now:
            // only the last of these messages can be acted on anyway.
            let playing = offers_legal;
            let version = u32::try_from(i + 1).unwrap_or(u32::MAX);
            // Past clocks are not rebuilt; the welcome has today's.
            let played = Played {
                version,
                seat: actor,
                action: a,
                events: &events,
            };
            out.push(played_text(&game, &played, audience, playing, None));
        }
    }
    Ok(out)
}
