//! New games: a request checked by the engine and the server's limits,
//! written with its seats and their new tokens, then kept in memory with
//! its bots set going. A rematch is a new game made from an old one.

use std::sync::Arc;
use std::time::Duration;

use bastide_bots::{BotSpec, Budget};
use bastide_engine::{Game, GameConfig};
use serde::Serialize;
use serde_json::Value;

use super::budget::{Charge, Payer};
use super::live::{GameHandle, LiveGame, Occupant};
use super::updates::rematch_update;
use super::{now_ms, unavailable, Hub};
use crate::clock::{ClockSpec, ClockState};
use crate::cluster::Notice;
use crate::guard::ClientKey;
use crate::protocol::{ErrorCode, ProtocolError};
use crate::store::players::Account;
use crate::store::{CreatorKey, GameId, NewGame, SeatRow, Status};
use crate::token;

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
    /// Whether the game moves ratings: its creator must be signed in,
    /// and it starts only once every person's seat is held by an account.
    #[serde(default)]
    pub rated: bool,
    /// Whether the game is private: its seats are taken by invite link
    /// only, and the lobby does not list it as open.
    #[serde(default)]
    pub private: bool,
    /// The signed-in player creating the game, who holds its first
    /// person's seat (set by the server, never read from the request).
    #[serde(skip)]
    pub creator: Option<Account>,
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
    /// The signed-in player holding the seat (the creator's first seat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

impl Hub {
    /// Creates a game: checks the configuration with the engine, draws a
    /// seed if none is given, and makes a token per person's seat.
    ///
    /// `client`, the address asking, is charged for the game until it
    /// starts or ends (`Settings::caps`), and its bots think within the
    /// caps' ceiling; a signed-in creator's game is charged to their
    /// account instead, so that people behind one address (a school, a
    /// household, a mobile carrier) do not share a cap once signed in; `None` (the operator, or the server itself) charges
    /// nobody and has the server's own limits.
    pub async fn create(
        self: &Arc<Hub>,
        mut req: CreateGame,
        client: Option<ClientKey>,
    ) -> Result<Created, ProtocolError> {
        let bad = |m: String| ProtocolError::new(ErrorCode::BadRequest, m);
        let bots_only = req.seats.iter().all(|s| s.trim() != "human");
        self.check_room(bots_only)?;
        let Value::Object(mut config) = req.config else {
            return Err(bad(
                "config must be a JSON object, the \"config\" of a game record".into(),
            ));
        };
        // Read before the server draws its own seed: only the request's
        // fields say what its creator chose.
        if req.rated {
            if let Some(field) = config.keys().find(|f| fixes_draws(f)) {
                return Err(bad(format!(
                    "a rated game cannot set config.{field}: it fixes the draws, which the game's creator would then know; leave it out (the server deals a rated game itself) or create the game unrated"
                )));
            }
        }
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
        if req.rated && config.players.len() < 2 {
            return Err(bad(
                "a rated game has two players at least: a game alone has no result to rate".into(),
            ));
        }
        if req.rated && req.creator.is_none() {
            return Err(ProtocolError::new(
                ErrorCode::SignInRequired,
                "a rated game is created by a signed-in player: sign in first",
            ));
        }
        // Whom the game is charged to: the account, else the address.
        // Its network counts every game created from it, whoever pays.
        let charged = client.map(|c| Payer {
            client: req
                .creator
                .as_ref()
                .map_or_else(|| CreatorKey::of(c), |a| CreatorKey::of_account(a.id)),
            network: Some(CreatorKey::of_network(c)),
        });
        let mut creator = req.creator;
        let mut seats = Vec::with_capacity(req.seats.len());
        for (i, s) in req.seats.iter().enumerate() {
            seats.push(if s.trim() == "human" {
                let (token, hash) = token::new_token();
                (
                    Occupant::Human {
                        hash,
                        // The creator holds the first person's seat.
                        joined: creator.is_some(),
                        player: creator.take(),
                    },
                    Some(token),
                )
            } else {
                let spec = self
                    .parse_bot(s, client.is_some())
                    .map_err(|e| bad(format!("seat {i}: {e}, or human")))?;
                if req.rated {
                    crate::rating::rated_seat(&spec).map_err(|e| bad(format!("seat {i}: {e}")))?;
                }
                (Occupant::Bot(spec), None)
            });
        }
        if let Some(c) = &mut req.clock {
            c.check().map_err(|m| bad(format!("clock: {m}")))?;
            c.settle_days(self.settings.correspondence_day);
        }
        let game = Game::new(config.clone()).map_err(|e| bad(format!("config: {e}")))?;
        if client.is_some() {
            super::bounds::within_sets(&config).map_err(bad)?;
        }
        let setup = Setup {
            clock: req.clock,
            rated: req.rated,
            private: req.private,
        };
        let mut created = self
            .insert_game(GameId::random(), config, game, seats, setup, charged)
            .await?;
        if req.rated {
            // The creator's own seat, the one an account holds.
            let own = created.seats.iter().position(|s| s.player.is_some());
            self.withhold_tokens(&mut created, own);
        }
        Ok(created)
    }

    /// A rated game's creator (or rematch's asker) is handed its own
    /// seat's token only: the other seats are taken by their players'
    /// accounts (`sit`), and a token of another's seat in the creator's
    /// hands was how a rival's seat was resigned. Each other person's
    /// seat keeps an invite, the game's address without a token: whoever
    /// opens it signed in takes the seat.
    fn withhold_tokens(&self, created: &mut Created, own: Option<usize>) {
        let link = format!(
            "{}/play/{}",
            self.settings.public_url.trim_end_matches('/'),
            created.id
        );
        for s in created.seats.iter_mut() {
            if Some(s.seat) != own && s.token.is_some() {
                s.token = None;
                s.invite = Some(link.clone());
            }
        }
    }

    /// Reads a bot seat; an iteration count past this server's limit is
    /// refused with the server's limit (the bots' own is larger). A
    /// `public` game (created without the operator's token) has the caps'
    /// lower ceiling.
    fn parse_bot(&self, s: &str, public: bool) -> Result<BotSpec, String> {
        let (think, iterations) = self.ceiling(public);
        let too_many_iterations = |n: u64| {
            format!(
                "mcts:{n} is more iterations than this server allows: give 1 to {iterations} or a time such as {}ms",
                think.as_millis()
            )
        };
        // Read before BotSpec::parse, whose own limit is larger and would
        // name it instead of this server's.
        let too_many = s
            .trim()
            .strip_prefix("mcts:")
            .map(|rest| rest.split(':').next().unwrap_or_default())
            .and_then(|n| n.parse::<u64>().ok())
            .filter(|&n| n > u64::from(iterations));
        if let Some(n) = too_many {
            return Err(too_many_iterations(n));
        }
        let spec = BotSpec::parse(s).map_err(|e| e.to_string())?;
        // The strong bot's budget is set for about 100 ms a move; a larger
        // one is for experiments at the terminal, not the server's cores.
        if let BotSpec::Strong(c) = &spec {
            if *c != bastide_bots::StrongConfig::default() {
                return Err(format!(
                    "{spec}: this server seats `strong` with its default budget only"
                ));
            }
        }
        if let BotSpec::Mcts(c) = &spec {
            match c.budget {
                Budget::Iterations(n) if n > iterations => {
                    return Err(too_many_iterations(u64::from(n)))
                }
                Budget::Time(t) if t > think => {
                    return Err(format!(
                        "a bot may think at most {} ms per move here{}",
                        think.as_millis(),
                        if public {
                            " (an operator may create longer-thinking bots)"
                        } else {
                            ""
                        }
                    ))
                }
                _ => {}
            }
        }
        Ok(spec)
    }

    /// The longest think time and the largest iteration budget a new
    /// game's bots may have.
    fn ceiling(&self, public: bool) -> (Duration, u32) {
        let s = &self.settings;
        if public {
            (
                s.bot_move_limit.min(s.caps.think),
                s.max_mcts_iterations.min(s.caps.iterations),
            )
        } else {
            (s.bot_move_limit, s.max_mcts_iterations)
        }
    }

    /// Writes a checked game with its seats (and their new tokens), keeps
    /// it in memory and sets its bots going.
    async fn insert_game(
        self: &Arc<Hub>,
        id: GameId,
        config: GameConfig,
        game: Game,
        seats: Vec<(Occupant, Option<String>)>,
        setup: Setup,
        charged: Option<Payer>,
    ) -> Result<Created, ProtocolError> {
        let Setup {
            clock: clock_spec,
            rated,
            private,
        } = setup;
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
                    joined: matches!(o, Occupant::Human { joined: true, .. }),
                    player: o.player().cloned(),
                })
                .collect(),
            rated,
            private,
            creator: charged.map(|p| p.client),
            network: charged.and_then(|p| p.network),
        };
        if let Some(payer) = charged {
            let correspondence = clock_spec
                .as_ref()
                .is_some_and(|c| c.days_per_move.is_some());
            let charge = Charge::new(
                payer,
                status == Status::Open,
                correspondence,
                seats.iter().map(|(o, _)| matches!(o, Occupant::Bot(_))),
            );
            // Shared mode: the address's games on other instances count
            // too (one query; each instance still counts its own in
            // memory, so a game whose rows lag counts here at once).
            let elsewhere = if self.cluster.is_some() {
                self.store
                    .charged_to(&payer.client, payer.network.as_ref())
                    .await
                    .map_err(unavailable)?
            } else {
                Vec::new()
            };
            self.budget
                .charge(&self.settings.caps, &id, charge, &elsewhere)?;
        }
        if let Err(e) = self.store.create_game(&new).await {
            self.budget.release(&id);
            return Err(unavailable(e));
        }
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
                    player: o.player().map(|p| p.name.clone()),
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
            rated,
            private,
            acted: vec![false; n],
            snapshots: Vec::new(),
        };
        self.claim(&id, &live).await;
        let handle = GameHandle::new(id, live);
        self.cache(handle.clone());
        self.schedule_bots(handle);
        Ok(created)
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
        client: Option<ClientKey>,
    ) -> Result<Created, ProtocolError> {
        let mut live = handle.live.lock().await;
        self.check_room(live.seats.iter().all(|s| matches!(s, Occupant::Bot(_))))?;
        let asker = Hub::seat_of(&live, token)?;
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
        let id = GameId::random();
        let tokens = rematch_tokens(&live.seats, &id);
        // New seat i is old seat i + 1.
        let seats: Vec<(Occupant, Option<String>)> = (0..n)
            .map(|i| match (&live.seats[(i + 1) % n], &tokens[i]) {
                (Occupant::Human { player, .. }, Some((token, hash))) => (
                    Occupant::Human {
                        hash: *hash,
                        joined: false,
                        // A player keeps their account in the rematch.
                        player: player.clone(),
                    },
                    Some(token.clone()),
                ),
                (Occupant::Bot(spec), _) => (Occupant::Bot(spec.clone()), None),
                // rematch_tokens gives every person's seat a token.
                (Occupant::Human { player, .. }, None) => {
                    let (token, hash) = token::new_token();
                    (
                        Occupant::Human {
                            hash,
                            joined: false,
                            player: player.clone(),
                        },
                        Some(token),
                    )
                }
            })
            .collect();
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
        let setup = Setup {
            clock: live.clock_spec.clone(),
            rated: live.rated,
            private: live.private,
        };
        let rated = setup.rated;
        let mut created = self
            .insert_game(
                id,
                config,
                game,
                seats,
                setup,
                client.map(|c| Payer {
                    client: CreatorKey::of(c),
                    network: Some(CreatorKey::of_network(c)),
                }),
            )
            .await?;
        let version = live.version();
        let tokens: Vec<Option<String>> = created.seats.iter().map(|s| s.token.clone()).collect();
        handle.publish(|| rematch_update(version, n, &created.id, &tokens, handle));
        // The people connected to other instances are told there, each
        // instance deriving their tokens itself: no token travels.
        self.notify(
            &handle.id,
            Notice::Rematch {
                game: created.id.clone(),
            },
        )
        .await;
        if rated {
            // The asker's seat moved down by one; every other person
            // was sent their own token above.
            self.withhold_tokens(&mut created, Some((asker + n - 1) % n));
        }
        Ok(created)
    }
}

/// By new seat, the token of each person's seat of `old`'s rematch `id`
/// (new seat i is old seat i + 1), derived from the old seat's token hash
/// ([`token::following_token`]).
pub(super) fn rematch_tokens(
    old: &[Occupant],
    id: &GameId,
) -> Vec<Option<(String, token::TokenHash)>> {
    let n = old.len();
    (0..n)
        .map(|i| match &old[(i + 1) % n] {
            Occupant::Human { hash, .. } => Some(token::following_token(hash, id.as_str())),
            Occupant::Bot(_) => None,
        })
        .collect()
}

/// The configuration fields a rated game may not have: each fixes hidden
/// information (the seed every shuffle comes from, the draw order, the
/// dealt halves, the map chips and their draws), so a creator who set one
/// would know what is coming and could farm rating from it.
fn fixes_draws(field: &str) -> bool {
    GameConfig::HIDDEN_FIELDS.contains(&field) || field == "deck_only"
}

/// What a new game is set up with besides its seats.
struct Setup {
    clock: Option<ClockSpec>,
    rated: bool,
    private: bool,
}

fn rematch_exists(id: &GameId) -> ProtocolError {
    ProtocolError::new(
        ErrorCode::RematchExists,
        format!("a rematch was already started: game {id}"),
    )
}
