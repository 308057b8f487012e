//! The game-theory view of a game, shaped like OpenSpiel: a node is a
//! player's decision, a chance event (the draw) or terminal; chance outcomes
//! with their probabilities; legal actions; returns; a player's observation;
//! determinization of the hidden part; a fixed action-index codec and an
//! observation tensor for learning agents. `docs/openspiel.md` describes it
//! for readers outside the code.
//!
//! Two levels:
//! - on [`Game`] itself: [`Game::chance_outcomes`] and [`Game::set_next_draw`]
//!   for the tile the pile gives next, [`Game::determinize`],
//!   [`Game::observation`], [`Game::returns`]. The engine draws by itself at
//!   the end of a turn, so a `Game` is never *at* a chance node.
//! - [`State`]: a `Game` with explicit chance nodes, for code written against
//!   OpenSpiel's interface. After each turn (and at the start) the state is a
//!   chance node until an outcome is applied.
//!
//! Hidden information: the order of the draw pile (and the configuration's
//! `seed` and fixed `deck`, which determine it); with Half-and-half dealt
//! face down, the halves in the other players' hands; with Map Chips, the
//! other players' chips and the order of the chip supply (how many each
//! hand holds is public). Everything else is public: the board, followers,
//! scores, supplies, events, the drawn tile, and which tiles remain (the
//! pile as a multiset: every player can count them). Determinization
//! resamples all of it: the pile within its public parts, the hidden
//! hands, the chip supply.

use std::collections::BTreeMap;
use std::sync::Arc;

use thiserror::Error;

use crate::board::Piece;
use crate::catalog::{FeatureKind, TileIdx};
use crate::game::{Action, Follower, Game, Phase, Rules};
use crate::geometry::{Pos, Side};
use crate::rng::Rng;
use crate::scoring::Event;
use crate::seat::Seat;
use crate::state::{ExpansionsJson, Viewer};

pub use crate::codec::{
    ActionCodec, CodecSegment, TensorPart, FOLLOWER_BASE, FOLLOWER_CODES, PASS_INDEX, PLACE_BASE,
};

/// What kind of node a [`State`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Node {
    /// Chance draws the next tile: see [`State::chance_outcomes`].
    Chance,
    /// This seat must act.
    Player(Seat),
    /// The game is over.
    Terminal,
}

/// A chance outcome of a [`State`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// A tile kind: the tile drawn, a half dealt or a map's second start
    /// tile.
    Tile(TileIdx),
    /// A token kind an expansion draws mid-turn (Map Chips' chips, coded
    /// colour × 2 + value − 1 with purple, blue, orange); its name in
    /// [`State::outcome_name`].
    Token(u8),
}

impl From<TileIdx> for Outcome {
    fn from(t: TileIdx) -> Outcome {
        Outcome::Tile(t)
    }
}

impl Outcome {
    /// The outcome's integer id for frameworks: a tile kind's catalog
    /// index, a token kind's code after the catalog's tiles.
    pub fn index(self, game: &Game) -> usize {
        match self {
            Outcome::Tile(t) => usize::from(t.0),
            Outcome::Token(k) => game.catalog().tiles().len() + usize::from(k),
        }
    }

    /// Its name in `game`: a tile id (`base/U`) or a token's (`purple:1`),
    /// as records write them.
    pub fn name(self, game: &Game) -> String {
        match self {
            Outcome::Tile(t) => game.catalog().tile(t).id.clone(),
            Outcome::Token(k) => {
                crate::expansions::token_name(game, k).unwrap_or_else(|| format!("token {k}"))
            }
        }
    }

    /// The outcome of integer id `i` in `game` ([`Outcome::index`]).
    pub fn from_index(i: usize, game: &Game) -> Option<Outcome> {
        let tiles = game.catalog().tiles().len();
        if i < tiles {
            return u16::try_from(i).ok().map(|i| Outcome::Tile(TileIdx(i)));
        }
        let k = u8::try_from(i - tiles).ok()?;
        (k < crate::expansions::token_kinds(game)).then_some(Outcome::Token(k))
    }
}

/// A chance outcome that cannot be applied here.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ChanceError {
    /// The tile kind is not among the possible outcomes.
    #[error("tile {0} cannot be drawn now: it is not among the chance outcomes")]
    NotAnOutcome(String),
    /// The state is not a chance node.
    #[error("this is not a chance node: a player must act (or the game is over)")]
    NotChance,
}

impl Game {
    /// Which part of the draw pile a tile belongs to. The set-up may build
    /// the pile in parts whose order is public (the river's, for one), each
    /// shuffled on its own; only the order inside a part is hidden.
    fn draw_part(&self, t: TileIdx) -> u8 {
        crate::expansions::draw_part(self, t).unwrap_or(0)
    }

    /// The part of the pile the next draw comes from (the lowest left).
    fn next_part(&self) -> Option<u8> {
        self.pile.iter().map(|t| self.draw_part(*t)).min()
    }

    /// What the next draw may be: the tiles of the part drawn now that no
    /// order rule holds back (the Plague's sources during the first 17
    /// land draws). Every tile of the part if a rule would hold them all.
    fn next_draws(&self) -> impl Fn(&TileIdx) -> bool + '_ {
        let part = self.next_part();
        // A map's second start tile is the first land tile (no prelude).
        let start = self.chance.start.is_some();
        let in_part = move |t: &TileIdx| {
            if start {
                !crate::expansions::is_prelude_tile(&self.rules.catalog, *t)
            } else {
                Some(self.draw_part(*t)) == part
            }
        };
        let any_free = self
            .pile
            .iter()
            .any(|t| in_part(t) && !crate::expansions::holds_back(self, *t));
        move |t: &TileIdx| in_part(t) && !(any_free && crate::expansions::holds_back(self, *t))
    }

    /// The tiles still in the pile, by kind: public, since every player can
    /// count them. The drawn tile is not included, unless it is still
    /// unseen (a Half-and-half player's pending draw).
    pub fn remaining_tiles(&self) -> BTreeMap<TileIdx, u32> {
        self.remaining_counts()
            .into_iter()
            .enumerate()
            .filter(|&(_, c)| c > 0)
            .map(|(t, c)| (TileIdx(t as u16), c))
            .collect()
    }

    /// [`Game::remaining_tiles`] as a count per catalog tile kind (index
    /// = [`TileIdx`]), without a map: what the views and the tensor count.
    pub fn remaining_counts(&self) -> Vec<u32> {
        let mut v = vec![0u32; self.catalog().tiles().len()];
        for t in self.pile.iter().copied().chain(self.undisclosed_draws()) {
            v[t.0 as usize] += 1;
        }
        v
    }

    /// Where in the pile a copy of `tile` lies that may be the next draw.
    fn next_draw_at(&self, tile: TileIdx) -> Option<usize> {
        let next = self.next_draws();
        self.pile.iter().rposition(|t| *t == tile && next(t))
    }

    /// What the next chance outcome may be, by kind with its count: while
    /// an expansion's deal lasts (Half-and-half's, with explicit chance),
    /// what it deals from; else the tiles that may be the next draw.
    fn chance_counts(&self) -> BTreeMap<TileIdx, u32> {
        let mut counts: BTreeMap<TileIdx, u32> = BTreeMap::new();
        let mut add = |t: &TileIdx| *counts.entry(*t).or_insert(0) += 1;
        if let Some(supply) = crate::expansions::chance_deal(self) {
            supply.iter().for_each(&mut add);
        } else {
            let next = self.next_draws();
            self.pile.iter().filter(|t| next(t)).for_each(add);
        }
        counts
    }

    /// The chance event of the next draw from the pile: each tile kind that
    /// may come next with its probability (its count over the tiles of the
    /// part of the pile drawn now: with the river, the river tiles come first,
    /// its lakes last). Sums to 1; empty when the pile is empty. A tile that
    /// then fits nowhere is set aside by the rules and the next one drawn.
    pub fn chance_outcomes(&self) -> Vec<(TileIdx, f64)> {
        let counts = self.chance_counts();
        let total: u32 = counts.values().sum();
        counts
            .into_iter()
            .map(|(t, c)| (t, c as f64 / total as f64))
            .collect()
    }

    /// Fixes the chance outcome of the next draw from the pile: a copy of
    /// `tile` moves to the top of the hidden pile (the order of the others is
    /// kept).
    pub fn set_next_draw(&mut self, tile: TileIdx) -> Result<(), ChanceError> {
        let at = self
            .next_draw_at(tile)
            .ok_or_else(|| ChanceError::NotAnOutcome(self.rules.catalog.tile(tile).id.clone()))?;
        let t = self.pile.remove(at);
        self.pile.push(t);
        Ok(())
    }

    /// A copy of the game whose next draw is `tile`.
    pub fn with_next_draw(&self, tile: TileIdx) -> Result<Game, ChanceError> {
        let mut g = self.clone();
        g.set_next_draw(tile)?;
        Ok(g)
    }

    /// A game consistent with everything `player` can know, with the hidden
    /// part resampled: the pile is reshuffled inside each of its public parts
    /// (so it is a permutation of the real remaining pile), the other
    /// players' face-down halves and chips and the chip supply are dealt
    /// again from what `player` has not seen (hand sizes kept), and the seed
    /// and fixed deck are removed from the configuration. Public state (board,
    /// followers, scores, drawn tile, events) is unchanged. Bots search on
    /// such games, never on the real one.
    pub fn determinize(&self, player: Seat, rng: &mut Rng) -> Game {
        let mut g = self.clone();
        g.rules = Arc::new(Rules {
            catalog: self.rules.catalog.clone(),
            config: crate::config::GameConfig {
                seed: 0,
                deck: None,
                deck_only: false,
                ..self.rules.config.clone()
            },
            options: self.rules.options.clone(),
            map: self.rules.map.clone(),
            expansions: self.rules.expansions,
            fit: self.rules.fit.clone(),
            event_room: self.rules.event_room,
        });
        g.shuffle_hidden_pile(rng);
        resample_others_private(&mut g, player, rng);
        g
    }

    /// Like [`Game::determinize`] but keeps the configuration (and so the
    /// `Arc` it shares with this game): the cheap form for search loops that
    /// never read the seed.
    pub fn determinize_fast(&self, player: Seat, rng: &mut Rng) -> Game {
        let mut g = self.clone();
        g.shuffle_hidden_pile(rng);
        resample_others_private(&mut g, player, rng);
        g
    }

    /// [`Game::determinize_fast`] into an existing game, whose buffers are
    /// reused (`clone_from`): a search loop determinizes into one scratch
    /// game without allocating. Draws from `rng` exactly as
    /// `determinize_fast` does.
    pub fn determinize_fast_into(&self, player: Seat, rng: &mut Rng, out: &mut Game) {
        out.clone_from(self);
        out.shuffle_hidden_pile(rng);
        resample_others_private(out, player, rng);
    }

    /// Shuffles the pile inside each of its public parts. The pile is put in
    /// a canonical order first, so the result depends only on the multiset
    /// of remaining tiles and on `rng`, never on the real order.
    fn shuffle_hidden_pile(&mut self, rng: &mut Rng) {
        // While a player has not chosen to draw, the tile they would get
        // (and any passed over before it) is as hidden as the pile: it goes
        // back in, and the draw is made again.
        let redraw = crate::expansions::unsee_draws(self);
        self.shuffle_pile_parts(rng);
        crate::expansions::arrange_hidden(self, rng);
        if redraw {
            self.draw();
        }
    }

    fn shuffle_pile_parts(&mut self, rng: &mut Rng) {
        let in_parts = self
            .pile
            .first()
            .is_some_and(|t| crate::expansions::draw_part(self, *t).is_some());
        if !in_parts {
            self.pile.sort_unstable();
            rng.shuffle(&mut self.pile);
            return;
        }
        let mut keyed: Vec<(u8, TileIdx)> =
            self.pile.iter().map(|t| (self.draw_part(*t), *t)).collect();
        // Draw order: lowest part first; stored with the next draw last.
        keyed.sort_unstable_by_key(|k| (std::cmp::Reverse(k.0), k.1));
        let mut start = 0;
        while start < keyed.len() {
            let part = keyed[start].0;
            let end = start + keyed[start..].iter().take_while(|k| k.0 == part).count();
            rng.shuffle(&mut keyed[start..end]);
            start = end;
        }
        self.pile.clear();
        self.pile.extend(keyed.iter().map(|k| k.1));
    }

    /// What `player` sees: everything public plus the player's own hidden
    /// items, never the pile order.
    pub fn observation(&self, player: Seat) -> Observation {
        Observation {
            player,
            players: self.rules.config.players.clone(),
            base: self.rules.config.base.clone(),
            expansions: self.rules.config.expansions.clone(),
            current_player: (!self.is_finished()).then_some(self.current_player()),
            phase: self.phase,
            drawn: self.visible_drawn_tile(),
            scores: self.scores(),
            supply: self.players.iter().map(|p| p.supply).collect(),
            pieces: self.board.pieces().to_vec(),
            followers: self.followers.clone(),
            events: self.events.clone(),
            remaining: self.remaining_tiles(),
            tiles_left: self.tiles_unseen(),
            expansion_state: {
                let mut out = ExpansionsJson::new();
                crate::expansions::state_json(self, Viewer::Seat(player), &mut out);
                out
            },
        }
    }

    /// Win/loss returns, zero-sum: at the end the winners (highest score)
    /// share a win; seat `i` gets `n/(n-1) · (w_i − 1/n)` where `w_i` is
    /// `1/winners` for a winner and 0 otherwise. Two players: +1 / −1, a tie
    /// 0 / 0. All zeros while the game runs.
    pub fn returns(&self) -> Vec<f64> {
        let n = self.players.len();
        if !self.is_finished() {
            return vec![0.0; n];
        }
        win_returns(&self.scores())
    }
}

/// An upper bound on the moves left in `game`, chance outcomes (draws)
/// included (OpenSpiel's `max_game_length` when asked at the start): every
/// tile still to come is a turn of a draw, a placement and the follower
/// step, plus what the expansions in play add to a turn (`draw`, spreads,
/// flights, the plague step's `pass`, the gingerbread man's move), the
/// turns of halves held in hands, and draft picks. One more turn covers the
/// drawn tile.
pub fn max_game_length(game: &Game) -> usize {
    let b = crate::expansions::max_moves(game);
    let turns = game.tiles_unseen() + 1 + b.turns;
    turns * (3 + b.per_turn) + b.once
}

/// The zero-sum win/loss returns of final `scores` (see [`Game::returns`]).
pub fn win_returns(scores: &[u32]) -> Vec<f64> {
    let n = scores.len() as f64;
    let best = scores.iter().copied().max().unwrap_or(0);
    let winners = scores.iter().filter(|s| **s == best).count() as f64;
    scores
        .iter()
        .map(|s| {
            let w = if *s == best { 1.0 / winners } else { 0.0 };
            n / (n - 1.0) * (w - 1.0 / n)
        })
        .collect()
}

/// Determinization of private items: each expansion resamples what the
/// players other than `player` hold in secret, consistent with what
/// `player` knows (hand sizes are public and kept).
fn resample_others_private(game: &mut Game, player: Seat, rng: &mut Rng) {
    crate::expansions::resample(game, player, rng);
}

/// What one player may know about a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// The observing seat.
    pub player: Seat,
    /// Player names in seat order.
    pub players: Vec<String>,
    /// Base game.
    pub base: String,
    /// Expansions in play.
    pub expansions: Vec<String>,
    /// Seat to act (`None` when over).
    pub current_player: Option<Seat>,
    /// The step the game waits for.
    pub phase: Phase,
    /// The tile to place now (`None` at a [`State`]'s chance node).
    pub drawn: Option<TileIdx>,
    /// Points per seat.
    pub scores: Vec<u32>,
    /// Followers in each seat's supply.
    pub supply: Vec<u8>,
    /// Placed pieces in order.
    pub pieces: Vec<Piece>,
    /// Followers on the board.
    pub followers: Vec<Follower>,
    /// Every event so far.
    pub events: Vec<Event>,
    /// Tiles still to draw, by kind (with the drawn tile at a chance node).
    pub remaining: BTreeMap<TileIdx, u32>,
    /// Number of tiles still to draw.
    pub tiles_left: usize,
    /// Each expansion's part of the state as this seat sees it: the same
    /// JSON, under the same keys, as in the seat's view ([`Game::view`]),
    /// from the one statement of each expansion's secrets (its public state,
    /// the seat's own hand, the other hands only as `{"hidden": n}`).
    pub expansion_state: ExpansionsJson,
}

/// A game with explicit chance nodes, shaped like an OpenSpiel state.
///
/// Every draw is a chance outcome the caller chooses: the game never takes
/// a tile from its pile by itself, so nothing a seat observes depends on
/// the seed or the pile's order (`tests/explicit_chance.rs`). A chance
/// outcome is any tile of the part of the pile drawn now, weighted by its
/// count; one that fits nowhere is discarded (or held, as Half-and-half's
/// rules hold tiles passed over) and chance acts again. Where drawing is a
/// player's choice (Half-and-half) the player chooses first, with nothing
/// drawn, and the draw is a chance node after `draw`. The counts
/// (`tiles_left`, the remaining tiles) move only when an outcome is applied.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    game: Game,
}

/// The tokens `game` has drawn so far, in order (Map Chips' chips taken
/// from the supply), as chance outcomes: what chance gives a game rebuilt
/// from the same record with explicit chance.
pub fn tokens_drawn(game: &Game) -> Vec<Outcome> {
    crate::expansions::tokens_drawn(game)
        .into_iter()
        .map(Outcome::Token)
        .collect()
}

fn is_half(game: &Game, t: TileIdx) -> bool {
    game.catalog().tile(t).shape == crate::catalog::Shape::Half
}

/// The halves chance dealt among the chance outcomes `draws` of `game`,
/// by seat: one a node, round the table from seat 0, as they are dealt.
pub fn halves_dealt(game: &Game, draws: &[Outcome]) -> Vec<Vec<TileIdx>> {
    let players = game.player_count().max(1);
    let mut hands = vec![Vec::new(); players];
    let halves = draws.iter().filter_map(|o| match o {
        Outcome::Tile(t) if is_half(game, *t) => Some(*t),
        _ => None,
    });
    for (k, t) in halves.enumerate() {
        hands[k % players].push(t);
    }
    hands
}

/// The record of an explicit-chance game that started from `config` and
/// is now `game`, after the chance outcomes `draws` and the `actions`
/// (each in the order they came). The configuration fixes what chance
/// chose: the halves dealt as `hands` (round the table, as dealt), every
/// tile drawn (a map's second start tile first, those passed over too)
/// as the first tiles of `deck`, the tokens as the expansion's field for
/// them (Map Chips' `chip_draws`, which holds across reshuffles); so the
/// record replays the same game. A `deck_only` pile keeps its other tiles
/// after the drawn ones.
pub fn explicit_record(
    mut config: crate::GameConfig,
    game: &Game,
    draws: &[Outcome],
    actions: &[Action],
) -> crate::record::Record {
    let cat = game.catalog();
    let tokens: Vec<String> = draws
        .iter()
        .filter(|o| matches!(o, Outcome::Token(_)))
        .map(|o| o.name(game))
        .collect();
    crate::expansions::fix_tokens(game, &mut config, tokens);
    let hands = halves_dealt(game, draws);
    if hands.iter().any(|h| !h.is_empty()) {
        config.hands = Some(
            hands
                .iter()
                .map(|h| h.iter().map(|t| cat.tile(*t).id.clone()).collect())
                .collect(),
        );
    }
    let mut deck: Vec<String> = draws
        .iter()
        .filter_map(|o| match o {
            Outcome::Tile(t) if !is_half(game, *t) => Some(cat.tile(*t).id.clone()),
            _ => None,
        })
        .collect();
    if config.deck_only {
        deck.extend(game.pile_in_order().map(|t| cat.tile(t).id.clone()));
    }
    config.deck = Some(deck);
    crate::record::Record {
        format: crate::record::FORMAT,
        config,
        actions: actions
            .iter()
            .map(|a| crate::record::ActionJson::from_action(a, cat))
            .collect(),
    }
}

impl State {
    /// A new game at its first chance node (the first draw).
    pub fn new(config: crate::GameConfig) -> Result<State, crate::ConfigError> {
        Ok(State {
            game: Game::new_explicit_chance(config)?,
        })
    }

    /// A state for `game`, whose drawn tile is already known; its later
    /// draws are chance nodes.
    pub fn from_game(mut game: Game) -> State {
        game.chance.on = true;
        State { game }
    }

    /// A state for `game` whose drawn tile (if any, and any tile a pending
    /// draw passed over) goes back into the pile: the draw is decided by
    /// chance (or, where drawing is a choice, after the player chooses).
    pub fn at_draw(mut game: Game) -> State {
        game.chance.on = true;
        let phase = game.phase;
        let opening = matches!(phase, Phase::Place | Phase::Draft) && game.last_piece().is_none();
        if opening && game.drawn.is_some() {
            crate::expansions::unsee_draws(&mut game);
            if let Some(d) = game.drawn.take() {
                game.pile.push(d);
            }
            game.draw();
            // The draft goes on; the draw waits until it ends.
            if phase == Phase::Draft && !game.is_finished() {
                game.phase = phase;
            }
        }
        State { game }
    }

    /// The underlying game (with no tile drawn at a chance node).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The state as a game (its later draws still wait for chance).
    pub fn into_game(self) -> Game {
        self.game
    }

    /// What kind of node this is.
    pub fn node(&self) -> Node {
        if self.game.is_finished() {
            Node::Terminal
        } else if self.game.chance_due() {
            Node::Chance
        } else {
            Node::Player(self.game.current_player())
        }
    }

    /// Whether this is a chance node.
    pub fn is_chance(&self) -> bool {
        self.node() == Node::Chance
    }

    /// What chance may give now with its probability: a chip owed after a
    /// placement (Map Chips, by count in the supply); else a half of the
    /// deal; else every tile that may be the next draw (the river first,
    /// …), weighted by count, those that fit nowhere included (they are
    /// discarded and chance acts again). Sums to 1. Empty if this is not a
    /// chance node.
    pub fn chance_outcomes(&self) -> Vec<(Outcome, f64)> {
        if !self.is_chance() {
            return Vec::new();
        }
        if let Some(tokens) = crate::expansions::token_draw(&self.game) {
            let total: u32 = tokens.iter().map(|t| t.1).sum();
            return tokens
                .into_iter()
                .map(|(k, n)| (Outcome::Token(k), f64::from(n) / f64::from(total.max(1))))
                .collect();
        }
        self.game
            .chance_outcomes()
            .into_iter()
            .map(|(t, p)| (Outcome::Tile(t), p))
            .collect()
    }

    /// The integer ids chance outcomes may take in this game
    /// ([`Outcome::index`]): the catalog's tiles, then the token kinds.
    pub fn num_chance_outcomes(&self) -> usize {
        self.game.catalog().tiles().len() + usize::from(crate::expansions::token_kinds(&self.game))
    }

    /// An outcome's name: a tile id (`base/U`) or a token's (`purple:1`).
    pub fn outcome_name(&self, o: Outcome) -> String {
        o.name(&self.game)
    }

    /// The outcome a name names ([`State::outcome_name`]), if any.
    pub fn outcome_named(&self, name: &str) -> Option<Outcome> {
        if let Some(t) = self.game.catalog().find(name) {
            return Some(Outcome::Tile(t));
        }
        (0..crate::expansions::token_kinds(&self.game))
            .find(|k| crate::expansions::token_name(&self.game, *k).as_deref() == Some(name))
            .map(Outcome::Token)
    }

    /// Applies a chance outcome: a chip owed goes to the player's hand; a
    /// half of the deal to the next seat; a tile comes off the pile's
    /// current part and is drawn if it fits somewhere (else discarded or
    /// held as the rules say, and this stays a chance node).
    pub fn apply_chance(&mut self, outcome: impl Into<Outcome>) -> Result<(), ChanceError> {
        if !self.is_chance() {
            return Err(ChanceError::NotChance);
        }
        let outcome = outcome.into();
        let refused = |s: &State| ChanceError::NotAnOutcome(s.outcome_name(outcome));
        let tokens = crate::expansions::token_due(&self.game);
        let tile = match outcome {
            Outcome::Token(k) if tokens => {
                return if crate::expansions::take_token(&mut self.game, k) {
                    Ok(())
                } else {
                    Err(refused(self))
                };
            }
            Outcome::Tile(t) if !tokens => t,
            _ => return Err(refused(self)),
        };
        if let Some(supply) = crate::expansions::chance_deal(&self.game) {
            let at = supply.iter().rposition(|t| *t == tile).ok_or_else(|| {
                ChanceError::NotAnOutcome(self.game.rules.catalog.tile(tile).id.clone())
            })?;
            crate::expansions::deal_chance(&mut self.game, at);
            return Ok(());
        }
        let at = self.game.next_draw_at(tile).ok_or_else(|| {
            ChanceError::NotAnOutcome(self.game.rules.catalog.tile(tile).id.clone())
        })?;
        self.game.take_chance_draw(at);
        Ok(())
    }

    /// Samples a chance outcome with its probability and applies it.
    pub fn apply_random_chance(&mut self, rng: &mut Rng) -> Result<Outcome, ChanceError> {
        if !self.is_chance() {
            return Err(ChanceError::NotChance);
        }
        let o = match crate::expansions::token_draw(&self.game) {
            Some(tokens) => {
                let tokens: Vec<(Outcome, u32)> = tokens
                    .into_iter()
                    .map(|(k, n)| (Outcome::Token(k), n))
                    .collect();
                pick_weighted(&tokens, rng)
            }
            None => sample_draw(&self.game, rng).map(Outcome::Tile),
        }
        .ok_or(ChanceError::NotChance)?;
        self.apply_chance(o)?;
        Ok(o)
    }

    /// The current player's legal actions (none at chance or terminal nodes).
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.node() {
            Node::Player(_) => self.game.legal_actions(),
            _ => Vec::new(),
        }
    }

    /// Applies a player's action, one of [`State::legal_actions`] exactly
    /// (another spelling of a legal action, such as a follower named by
    /// another place of its feature, is refused); after a turn the state
    /// is a chance node.
    pub fn apply(&mut self, action: &Action) -> Result<(), crate::IllegalAction> {
        if self.is_chance() {
            return Err(crate::IllegalAction {
                rule: "turn",
                message: "this is a chance node: apply a chance outcome (the draw) first".into(),
            });
        }
        if !self.legal_actions().contains(action) {
            // The game's own check says why, if it refuses too.
            self.game.clone().try_apply(action)?;
            return Err(crate::IllegalAction {
                rule: "legal actions",
                message: "not among the legal actions: name it as the legal list does".into(),
            });
        }
        self.game.try_apply(action)
    }

    /// Final (or current) scores, in seat order.
    pub fn scores(&self) -> Vec<u32> {
        self.game.scores()
    }

    /// Zero-sum win/loss returns (see [`Game::returns`]).
    pub fn returns(&self) -> Vec<f64> {
        self.game.returns()
    }

    /// What `player` sees (at a chance node, nothing is drawn).
    pub fn observation(&self, player: Seat) -> Observation {
        self.game.observation(player)
    }

    /// A state consistent with what `player` knows, the hidden part
    /// resampled (the pile's order, the others' hidden hands).
    pub fn determinize(&self, player: Seat, rng: &mut Rng) -> State {
        State {
            game: self.game.determinize(player, rng),
        }
    }
}

/// A tile or half chance may give, drawn with its count's weight.
fn sample_draw(game: &Game, rng: &mut Rng) -> Option<TileIdx> {
    let counts: Vec<(TileIdx, u32)> = game.chance_counts().into_iter().collect();
    pick_weighted(&counts, rng)
}

/// One of `items`, drawn with its count's weight.
fn pick_weighted<T: Copy>(items: &[(T, u32)], rng: &mut Rng) -> Option<T> {
    let total: u64 = items.iter().map(|(_, n)| u64::from(*n)).sum();
    let mut k = rng.below(total.max(1));
    for &(t, n) in items {
        let n = u64::from(n);
        if k < n {
            return Some(t);
        }
        k -= n;
    }
    None
}

/// Per-cell planes of the observation tensor, before the follower planes.
pub const CELL_PLANES: usize = 26;

/// The phases in the order of the tensor's phase one-hot.
const PHASES: [Phase; 6] = [
    Phase::Place,
    Phase::Follower,
    Phase::Over,
    Phase::Gingerbread,
    Phase::Draft,
    Phase::Plague,
];

/// Length of the phase one-hot at the head of the globals.
pub const SHARED_PHASES: usize = PHASES.len();

/// The kind `k` of the follower planes `CELL_PLANES + 4·seat + k` for a
/// follower on a feature of `kind`: road, city, monastery, then fields and
/// the rest.
pub fn follower_kind_index(kind: FeatureKind) -> usize {
    match kind {
        FeatureKind::Road => 0,
        FeatureKind::City => 1,
        FeatureKind::Monastery => 2,
        _ => 3,
    }
}

/// The observation tensor of `player`: `planes × W × W` cell planes (the
/// codec's window, row `y + R`, column `x + R`) followed by a vector of
/// globals. Layout in `docs/openspiel.md`; every value lies in `0..=1`.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservationTensor {
    /// Number of cell planes.
    pub planes: usize,
    /// Side of the window.
    pub width: usize,
    /// `planes · width · width` values, plane-major.
    pub cells: Vec<f32>,
    /// The global values.
    pub globals: Vec<f32>,
}

impl ActionCodec {
    /// The observation tensor of `player` for `game` (the drawn tile shown
    /// once it is drawn in the players' sight; for a [`State`] at a chance
    /// node use [`ActionCodec::state_tensor`]).
    pub fn observation_tensor(&self, game: &Game, player: Seat) -> ObservationTensor {
        self.tensor(game, player, game.visible_drawn_tile())
    }

    /// The observation tensor of `player` for a [`State`].
    pub fn state_tensor(&self, state: &State, player: Seat) -> ObservationTensor {
        let o = state.observation(player);
        self.tensor(state.game(), player, o.drawn)
    }

    /// The globals of [`ActionCodec::observation_tensor`] alone, without
    /// the cost of the cell planes.
    pub fn observation_globals(&self, game: &Game, player: Seat) -> Vec<f32> {
        self.globals(game, player, game.visible_drawn_tile(), &mut [], true)
    }

    /// The globals of [`ActionCodec::state_tensor`] alone.
    pub fn state_globals(&self, state: &State, player: Seat) -> Vec<f32> {
        let o = state.observation(player);
        self.globals(state.game(), player, o.drawn, &mut [], true)
    }

    /// The globals of [`ActionCodec::observation_tensor`] as every seat
    /// sees them (OpenSpiel's public observer), laid out for `player`'s
    /// relative seats: the expansions' public counts (hand sizes, the
    /// halves' pool, the chip supply) kept, `player`'s own face-down
    /// halves and chips left at zero. The cell planes hold nothing hidden,
    /// so they and these globals make the public observation.
    pub fn public_observation_globals(&self, game: &Game, player: Seat) -> Vec<f32> {
        self.globals(game, player, game.visible_drawn_tile(), &mut [], false)
    }

    /// [`ActionCodec::public_observation_globals`] for a [`State`] (a tile
    /// a chance node has not yet shown stays unseen).
    pub fn public_state_globals(&self, state: &State, player: Seat) -> Vec<f32> {
        let o = state.observation(player);
        self.globals(state.game(), player, o.drawn, &mut [], false)
    }

    /// The tensor's shape for `game`: `(planes, globals)`. The shared part
    /// (`CELL_PLANES + 4·players` planes, `6 + 3·players + 1 + 2·kinds`
    /// globals) is followed by each expansion's in play, in the fixed order
    /// of the expansions (`docs/openspiel.md`).
    pub fn tensor_shape(&self, game: &Game) -> (usize, usize) {
        let (p, g) = crate::expansions::tensor_size(game);
        (
            CELL_PLANES + 4 * game.player_count() + p,
            self.shared_globals(game) + g,
        )
    }

    /// How many of the globals are the shared ones (`6 + 3·players + 1 +
    /// 2·kinds`, all public); the expansions' follow, and those mix public
    /// counts with the observer's own hidden items.
    pub fn shared_globals(&self, game: &Game) -> usize {
        SHARED_PHASES + 3 * game.player_count() + 1 + 2 * game.catalog().tiles().len()
    }

    /// [`ActionCodec::observation_tensor`] written into `cells`, a
    /// caller's buffer of `planes · width · width` zeros (e.g. memory a
    /// Python array owns: no second copy of the planes); returns the
    /// globals. `None` (nothing written) if `cells` has another length.
    pub fn observation_tensor_into(
        &self,
        game: &Game,
        player: Seat,
        cells: &mut [f32],
    ) -> Option<Vec<f32>> {
        self.tensor_into(game, player, game.visible_drawn_tile(), cells, true)
    }

    /// [`ActionCodec::state_tensor`] written into `cells` (as
    /// [`ActionCodec::observation_tensor_into`]).
    pub fn state_tensor_into(
        &self,
        state: &State,
        player: Seat,
        cells: &mut [f32],
    ) -> Option<Vec<f32>> {
        let o = state.observation(player);
        self.tensor_into(state.game(), player, o.drawn, cells, true)
    }

    /// [`ActionCodec::observation_tensor_into`] as the public observer
    /// sees it: the globals are [`ActionCodec::public_observation_globals`]
    /// (the cell planes hold nothing hidden).
    pub fn public_observation_tensor_into(
        &self,
        game: &Game,
        player: Seat,
        cells: &mut [f32],
    ) -> Option<Vec<f32>> {
        self.tensor_into(game, player, game.visible_drawn_tile(), cells, false)
    }

    /// [`ActionCodec::state_tensor_into`] as the public observer sees it.
    pub fn public_state_tensor_into(
        &self,
        state: &State,
        player: Seat,
        cells: &mut [f32],
    ) -> Option<Vec<f32>> {
        let o = state.observation(player);
        self.tensor_into(state.game(), player, o.drawn, cells, false)
    }

    /// The number of cell values of `game`'s tensor: `planes · width²`.
    pub fn tensor_cells(&self, game: &Game) -> usize {
        let w = self.width();
        self.tensor_shape(game).0 * w * w
    }

    fn tensor(&self, game: &Game, player: Seat, drawn: Option<TileIdx>) -> ObservationTensor {
        let w = self.width();
        let planes = self.tensor_shape(game).0;
        let mut cells = vec![0f32; planes * w * w];
        let globals = self
            .tensor_into(game, player, drawn, &mut cells, true)
            .unwrap_or_default();
        ObservationTensor {
            planes,
            width: w,
            cells,
            globals,
        }
    }

    /// `private`: as [`ActionCodec::globals`]'s.
    fn tensor_into(
        &self,
        game: &Game,
        player: Seat,
        drawn: Option<TileIdx>,
        cells: &mut [f32],
        private: bool,
    ) -> Option<Vec<f32>> {
        let n = game.player_count();
        let w = self.width();
        let (planes, globals_len) = self.tensor_shape(game);
        if cells.len() != planes * w * w {
            return None;
        }
        let cat = game.catalog();
        let mut set = |plane: usize, p: Pos, v: f32| {
            if let Some(c) = self.cell_index(p) {
                let slot = &mut cells[plane * w * w + c];
                *slot = slot.max(v);
            }
        };
        let last = game.last_piece();
        for (pi, piece) in game.board().pieces().iter().enumerate() {
            let def = cat.tile(piece.tile);
            let o = def.oriented(piece.rot);
            for (k, &(dx, dy)) in o.cells.iter().enumerate() {
                let p = piece.pos.offset(dx, dy);
                set(0, p, if piece.corner.is_some() { 0.5 } else { 1.0 });
                for side in Side::ALL {
                    if !o.sides[k][side.index()].present {
                        continue;
                    }
                    let f = o.place_feature[k][side.middle().index()];
                    let Some(fd) = def.features.get(f as usize) else {
                        continue;
                    };
                    let kind = match fd.kind {
                        FeatureKind::City => 1,
                        FeatureKind::Road => 2,
                        FeatureKind::River => 3,
                        _ => 0,
                    };
                    set(1 + 4 * side.index() + kind, p, 1.0);
                }
                for (fi, fd) in def.features.iter().enumerate() {
                    let here = o.place_feature[k].contains(&(fi as u8));
                    if !here {
                        continue;
                    }
                    if fd.kind == FeatureKind::Monastery {
                        set(17, p, 1.0);
                    }
                    if fd.arms > 0 {
                        set(18, p, 1.0);
                    }
                }
                if last == Some(pi as u16) {
                    set(19, p, 1.0);
                }
                if piece.corner.is_some() {
                    set(20, p, 1.0);
                }
            }
        }
        if let (Some(t), Phase::Place) = (drawn, game.phase()) {
            let mut probe = game.clone();
            probe.drawn = Some(t);
            for a in probe.legal_actions() {
                // The drawn tile only: the player to act may also place
                // halves from a hidden hand, which other seats must not see.
                match a {
                    Action::Place { tile, pos, rot } if tile == t => {
                        set(21 + rot.quarters() as usize, pos, 1.0);
                    }
                    _ => {}
                }
            }
        }
        // Plane 25: cells on the frontier (where a square could touch).
        for f in game.board().frontier() {
            set(25, f.pos, 1.0);
        }
        // Special figures (builder, pig) have their expansion's planes.
        for f in game.followers().iter().filter(|f| f.figure.is_follower()) {
            let rel = f.player.after(player, n);
            let kind = follower_kind_index(game.follower_kind(f));
            let (pos, _) = game.feature_anchor(f.piece, f.feature);
            set(CELL_PLANES + 4 * rel + kind, pos, 1.0);
        }
        let shared = CELL_PLANES + 4 * n;
        let g = self.globals(game, player, drawn, &mut cells[shared * w * w..], private);
        debug_assert_eq!(g.len(), globals_len);
        Some(g)
    }

    /// The globals of `player`'s tensor; the expansions write their cell
    /// planes into `cells` (the planes after the shared ones; empty: none).
    /// `private`: `player`'s own hidden items shown (false: the public
    /// observer's view, hidden items at zero).
    fn globals(
        &self,
        game: &Game,
        player: Seat,
        drawn: Option<TileIdx>,
        cells: &mut [f32],
        private: bool,
    ) -> Vec<f32> {
        let n = game.player_count();
        let cat = game.catalog();
        let globals_len = self.tensor_shape(game).1;
        let mut g = Vec::with_capacity(globals_len);
        let phase = game.phase();
        for p in PHASES {
            g.push((phase == p) as u8 as f32);
        }
        let scores = game.scores();
        for r in 0..n {
            g.push(((scores[player.ahead(r, n).index()] as f32) / 200.0).min(1.0));
        }
        let per = game.options().followers.max(1) as f32;
        for r in 0..n {
            g.push(game.players()[player.ahead(r, n).index()].supply as f32 / per);
        }
        for r in 0..n {
            g.push(
                (!game.is_finished() && game.current_player() == player.ahead(r, n)) as u8 as f32,
            );
        }
        // The tiles this seat has not seen: the pile, a pending
        // Half-and-half draw (already in `remaining_tiles`), and a drawn tile
        // a chance node hides (`drawn` is then `None`).
        let kinds = cat.tiles().len();
        let mut remaining = game.remaining_counts();
        let mut left = game.tiles_unseen();
        if drawn.is_none() {
            if let Some(d) = game.visible_drawn_tile() {
                remaining[d.0 as usize] += 1;
                left += 1;
            }
        }
        let total = game.board().pieces().len() + left + usize::from(drawn.is_some());
        g.push(left as f32 / total.max(1) as f32);
        let onehot = g.len();
        g.resize(onehot + kinds, 0.0);
        if let Some(t) = drawn {
            g[onehot + t.0 as usize] = 1.0;
        }
        for (t, &c) in cat.tiles().iter().zip(&remaining) {
            g.push((c as f32 / t.count.max(1) as f32).min(1.0));
        }
        let mut part = TensorPart {
            codec: self,
            cells,
            base: 0,
            end: 0,
            globals: &mut g,
            private,
        };
        crate::expansions::tensor(game, player, &mut part);
        debug_assert_eq!(g.len(), globals_len);
        g
    }
}

#[cfg(test)]
mod tests;
