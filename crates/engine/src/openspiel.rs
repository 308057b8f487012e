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
use crate::game::{Action, Figure, Follower, Game, Phase, Rules};
use crate::geometry::{Corner, Place, Pos, Rotation, Side};
use crate::rng::Rng;
use crate::scoring::Event;
use crate::seat::Seat;
use crate::state::{ExpansionsJson, Viewer};

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

    /// The chance event of the next draw from the pile: each tile kind that
    /// may come next with its probability (its count over the tiles of the
    /// part of the pile drawn now: with the river, the river tiles come first,
    /// its lakes last). Sums to 1; empty when the pile is empty. A tile that
    /// then fits nowhere is set aside by the rules and the next one drawn.
    pub fn chance_outcomes(&self) -> Vec<(TileIdx, f64)> {
        let Some(part) = self.next_part() else {
            return Vec::new();
        };
        let mut counts: BTreeMap<TileIdx, u32> = BTreeMap::new();
        for t in &self.pile {
            if self.draw_part(*t) == part {
                *counts.entry(*t).or_insert(0) += 1;
            }
        }
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
        let part = self.next_part();
        let at = self
            .pile
            .iter()
            .rposition(|t| *t == tile && Some(self.draw_part(*t)) == part)
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
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    game: Game,
    /// Whether the drawn tile is still to be decided by chance.
    chance: bool,
}

impl State {
    /// A new game at its first chance node (the first draw).
    pub fn new(config: crate::GameConfig) -> Result<State, crate::ConfigError> {
        Ok(State::at_draw(Game::new(config)?))
    }

    /// A state for `game`, whose drawn tile is already known.
    pub fn from_game(game: Game) -> State {
        State {
            game,
            chance: false,
        }
    }

    /// A state for `game` whose drawn tile is still to be decided by chance
    /// (a chance node if a tile is drawn).
    pub fn at_draw(game: Game) -> State {
        let chance = game.visible_drawn_tile().is_some();
        State { game, chance }
    }

    /// The underlying game. At a chance node its drawn tile is the hidden
    /// one chance would give without intervention: do not show it.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The state as a game (a chance node resolved as the real pile says).
    pub fn into_game(self) -> Game {
        self.game
    }

    /// What kind of node this is.
    pub fn node(&self) -> Node {
        if self.game.is_finished() {
            Node::Terminal
        } else if self.chance {
            Node::Chance
        } else {
            Node::Player(self.game.current_player())
        }
    }

    /// Whether this is a chance node.
    pub fn is_chance(&self) -> bool {
        self.node() == Node::Chance
    }

    /// The tile kinds chance may draw now with their probabilities: every
    /// remaining tile of the pile's current part (the river first, …) that
    /// fits somewhere on the board, weighted by count. Sums to 1. Empty if
    /// this is not a chance node.
    pub fn chance_outcomes(&self) -> Vec<(TileIdx, f64)> {
        if !self.is_chance() {
            return Vec::new();
        }
        let counts = self.candidates();
        let total: u32 = counts.iter().map(|c| c.1).sum();
        counts
            .into_iter()
            .map(|(t, c)| (t, c as f64 / total as f64))
            .collect()
    }

    /// Candidate draws with their counts (the hidden drawn tile included).
    fn candidates(&self) -> Vec<(TileIdx, u32)> {
        let Some(d) = self.game.drawn else {
            return Vec::new();
        };
        let part = self.game.draw_part(d);
        let mut counts: BTreeMap<TileIdx, u32> = BTreeMap::new();
        counts.insert(d, 1);
        for t in &self.game.pile {
            if self.game.draw_part(*t) == part {
                *counts.entry(*t).or_insert(0) += 1;
            }
        }
        let mut probe = self.game.clone();
        let mut buf = Vec::new();
        counts
            .into_iter()
            .filter(|(t, _)| {
                if *t == d {
                    return true;
                }
                probe.drawn = Some(*t);
                probe.legal_actions_into(&mut buf);
                !buf.is_empty()
            })
            .collect()
    }

    /// Applies a chance outcome: `tile` becomes the drawn tile.
    pub fn apply_chance(&mut self, tile: TileIdx) -> Result<(), ChanceError> {
        if !self.is_chance() {
            return Err(ChanceError::NotChance);
        }
        let name = || self.game.rules.catalog.tile(tile).id.clone();
        if !self.candidates().iter().any(|c| c.0 == tile) {
            return Err(ChanceError::NotAnOutcome(name()));
        }
        self.swap_drawn(tile);
        self.chance = false;
        Ok(())
    }

    /// Puts a copy of `tile` from the drawn tile's part of the pile in the
    /// drawn tile's place, and the drawn tile where it was.
    fn swap_drawn(&mut self, tile: TileIdx) {
        let Some(d) = self.game.drawn else { return };
        if d == tile {
            return;
        }
        let part = self.game.draw_part(d);
        if let Some(i) = self
            .game
            .pile
            .iter()
            .rposition(|t| *t == tile && self.game.draw_part(*t) == part)
        {
            self.game.pile[i] = d;
            self.game.drawn = Some(tile);
        }
    }

    /// Samples a chance outcome with its probability and applies it.
    pub fn apply_random_chance(&mut self, rng: &mut Rng) -> Result<TileIdx, ChanceError> {
        let c = self.candidates();
        let total: u32 = c.iter().map(|x| x.1).sum();
        if !self.is_chance() || total == 0 {
            return Err(ChanceError::NotChance);
        }
        let mut k = rng.below(total as u64) as u32;
        for (t, n) in c {
            if k < n {
                self.apply_chance(t)?;
                return Ok(t);
            }
            k -= n;
        }
        Err(ChanceError::NotChance)
    }

    /// The current player's legal actions (none at chance or terminal nodes).
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.node() {
            Node::Player(_) => self.game.legal_actions(),
            _ => Vec::new(),
        }
    }

    /// Applies a player's action; after a turn the state is a chance node.
    pub fn apply(&mut self, action: &Action) -> Result<(), crate::IllegalAction> {
        if self.is_chance() {
            return Err(crate::IllegalAction {
                rule: "turn",
                message: "this is a chance node: apply a chance outcome (the draw) first".into(),
            });
        }
        let before = self.game.phase;
        self.game.try_apply(action)?;
        // A new tile was drawn when the game comes back to the placement
        // step from any other step (follower, plague, gingerbread, draft),
        // or when a Half-and-half player chose to draw; not while that
        // choice is still open.
        self.chance = (before != Phase::Place || *action == Action::Draw)
            && self.game.visible_drawn_tile().is_some();
        Ok(())
    }

    /// Final (or current) scores, in seat order.
    pub fn scores(&self) -> Vec<u32> {
        self.game.scores()
    }

    /// Zero-sum win/loss returns (see [`Game::returns`]).
    pub fn returns(&self) -> Vec<f64> {
        self.game.returns()
    }

    /// What `player` sees; at a chance node the drawn tile is hidden (it
    /// counts among the remaining tiles).
    pub fn observation(&self, player: Seat) -> Observation {
        let mut o = self.game.observation(player);
        if self.is_chance() {
            if let Some(d) = o.drawn.take() {
                *o.remaining.entry(d).or_insert(0) += 1;
                o.tiles_left += 1;
            }
        }
        o
    }

    /// A state consistent with what `player` knows, the hidden part
    /// resampled (at a chance node, the undisclosed drawn tile too).
    pub fn determinize(&self, player: Seat, rng: &mut Rng) -> State {
        let mut s = State {
            game: self.game.determinize(player, rng),
            chance: self.chance,
        };
        if s.is_chance() {
            let c = s.candidates();
            let total: u32 = c.iter().map(|x| x.1).sum();
            let mut k = rng.below(total.max(1) as u64) as u32;
            for (t, n) in c {
                if k < n {
                    s.swap_drawn(t);
                    break;
                }
                k -= n;
            }
        }
        s
    }
}

/// The action-index codec: a bijection between the actions of a position
/// and integers in `0..num_distinct_actions(game)`, the same for every game
/// of one configuration.
///
/// Layout (see `docs/openspiel.md`):
/// - `0`: pass;
/// - `1 + 16·k + p` (`1..=32`): a follower on cell `k` (0 or 1: the cell of
///   the tile just placed, in its catalog order) at place index `p`
///   (`Place::index`: NNW=0 … WNW=11, C=12, H1, H, H2);
/// - `33 + ((s·W + (y+R))·W + (x+R))·4 + r`: place the tile of slot `s`
///   (0: the drawn tile; 1, 2: the distinct tiles in the player's hand)
///   with its anchor at `(x, y)` and rotation `r` quarter turns, for
///   `|x|, |y| ≤ R` and `W = 2R + 1`;
/// - then one segment per expansion in play that has actions of its own,
///   in the fixed order of the expansions, each laid out by its module
///   (`Expansion::codec_size`, `encode`, `decode`).
///
/// A placement outside the window has no index: [`ActionCodec::encode`]
/// returns `None` and [`ActionCodec::legal_indices`] leaves it out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionCodec {
    /// Half the window's side: cells with `|x|, |y| ≤ radius`.
    pub radius: i32,
    /// Tile slots: 0 the drawn tile, then the distinct tiles in the
    /// current player's hand in catalog order (default 3).
    pub slots: usize,
}

/// Index of the pass action.
pub const PASS_INDEX: usize = 0;
/// First follower index.
pub const FOLLOWER_BASE: usize = 1;
/// Follower codes: two cells × 16 places.
pub const FOLLOWER_CODES: usize = 32;
/// First placement index.
pub const PLACE_BASE: usize = FOLLOWER_BASE + FOLLOWER_CODES;

impl Default for ActionCodec {
    fn default() -> ActionCodec {
        ActionCodec {
            radius: ActionCodec::DEFAULT_RADIUS,
            slots: 3,
        }
    }
}

/// One expansion's range of indices in a configuration's action space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodecSegment {
    /// The expansion (rules family) that owns it.
    pub family: crate::expansions::Family,
    /// Its first index.
    pub base: usize,
    /// Its number of indices.
    pub size: usize,
}

impl ActionCodec {
    /// The default window: 61 × 61 cells around the start tile, far more
    /// than a 72-tile game needs in practice.
    pub const DEFAULT_RADIUS: i32 = 30;

    /// Side of the window.
    pub fn width(&self) -> usize {
        (2 * self.radius + 1) as usize
    }

    /// First index after the shared segments (pass, followers,
    /// placements): where the expansions' segments begin.
    pub fn shared_end(&self) -> usize {
        PLACE_BASE + self.slots * self.cells() * 4
    }

    /// The action-space size of `game`'s configuration (OpenSpiel's
    /// `num_distinct_actions`): the shared segments and the segments of the
    /// expansions in play (base game, radius 30, one slot: 14,917).
    pub fn num_distinct_actions(&self, game: &Game) -> usize {
        self.shared_end() + crate::expansions::codec_size(self, game)
    }

    /// The expansions' segments in `game`'s configuration, in index order.
    pub fn segments(&self, game: &Game) -> Vec<CodecSegment> {
        crate::expansions::codec_segments(self, game)
            .into_iter()
            .map(|(family, base, size)| CodecSegment { family, base, size })
            .collect()
    }

    fn cells(&self) -> usize {
        self.width() * self.width()
    }

    /// Codes for a tile on the board: window cell × (whole tile or one of
    /// the four halves).
    pub(crate) fn tile_codes(&self) -> usize {
        self.cells() * 5
    }

    /// Codes for a place on a tile: tile code × 16 places.
    pub(crate) fn feature_codes(&self) -> usize {
        self.tile_codes() * 16
    }

    /// The code of the tile (or half) at `pos`, inside the window.
    pub(crate) fn tile_code(&self, pos: Pos, half: Option<Corner>) -> Option<usize> {
        Some(self.cell_index(pos)? * 5 + half.map_or(0, |c| c as usize + 1))
    }

    /// The tile (or half) of a tile code.
    pub(crate) fn tile_of(&self, code: usize) -> Option<(Pos, Option<Corner>)> {
        let (cell, h) = (code / 5, code % 5);
        if cell >= self.cells() {
            return None;
        }
        let w = self.width() as i32;
        let pos = Pos::new(cell as i32 % w - self.radius, cell as i32 / w - self.radius);
        let half = (h > 0).then(|| Corner::from_index(h as u8 - 1));
        Some((pos, half))
    }

    /// The code of a place on the tile (or half) at `pos`.
    pub(crate) fn feature_code(
        &self,
        pos: Pos,
        half: Option<Corner>,
        place: Place,
    ) -> Option<usize> {
        Some(self.tile_code(pos, half)? * 16 + place.index())
    }

    /// The place of a place code.
    pub(crate) fn feature_of(&self, code: usize) -> Option<(Pos, Option<Corner>, Place)> {
        let (pos, half) = self.tile_of(code / 16)?;
        Some((pos, half, Place::ALL[code % 16]))
    }

    /// The follower code (`0..32`) of a follower at `place` of cell `pos`
    /// of the tile just placed.
    pub(crate) fn follower_code(game: &Game, pos: Pos, place: Place) -> Option<usize> {
        let pi = game.last_piece()?;
        let piece = game.board().pieces()[pi as usize];
        let o = game.catalog().tile(piece.tile).oriented(piece.rot);
        let k = o
            .cells
            .iter()
            .position(|&(dx, dy)| piece.pos.offset(dx, dy) == pos)?;
        (k < 2).then_some(16 * k + place.index())
    }

    /// The follower of `figure` with follower code `code`.
    pub(crate) fn follower_of(game: &Game, code: usize, figure: Figure) -> Option<Action> {
        let (k, p) = (code / 16, code % 16);
        let pi = game.last_piece()?;
        let piece = game.board().pieces()[pi as usize];
        let o = game.catalog().tile(piece.tile).oriented(piece.rot);
        let &(dx, dy) = o.cells.get(k)?;
        Some(Action::Follower {
            pos: piece.pos.offset(dx, dy),
            corner: piece.corner,
            place: Place::ALL[p],
            figure,
        })
    }

    /// Distinct tiles in the current player's hand, in catalog order: the
    /// tiles of slots 1, 2, ….
    fn hand_slots(game: &Game) -> Vec<TileIdx> {
        let mut v = crate::expansions::hand(game);
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Index of the window cell `p`, if inside.
    pub fn cell_index(&self, p: Pos) -> Option<usize> {
        let r = self.radius;
        if p.x.abs() > r || p.y.abs() > r {
            return None;
        }
        Some((p.y + r) as usize * self.width() + (p.x + r) as usize)
    }

    /// The index of `action` in the position `game` (which names the tile
    /// just placed, for followers). `None` outside the window, or for a tile
    /// that is not the drawn one.
    pub fn encode(&self, game: &Game, action: &Action) -> Option<usize> {
        match *action {
            Action::Pass => Some(PASS_INDEX),
            Action::Follower {
                pos,
                place,
                figure: Figure::Normal,
                ..
            } => Some(FOLLOWER_BASE + Self::follower_code(game, pos, place)?),
            Action::Place { tile, pos, rot } => {
                let slot = if game.drawn_tile() == Some(tile) {
                    0
                } else {
                    1 + Self::hand_slots(game).iter().position(|t| *t == tile)?
                };
                if slot >= self.slots {
                    return None;
                }
                let cell = self.cell_index(pos)?;
                Some(PLACE_BASE + (slot * self.cells() + cell) * 4 + rot.quarters() as usize)
            }
            _ => crate::expansions::encode(self, game, action),
        }
    }

    /// The action with index `index` in the position `game`, or `None` if the
    /// index names nothing here (it may still be illegal: check with
    /// [`Game::legal_actions`] or [`Game::try_apply`]).
    pub fn decode(&self, game: &Game, index: usize) -> Option<Action> {
        if index == PASS_INDEX {
            return Some(Action::Pass);
        }
        if index < PLACE_BASE {
            return Self::follower_of(game, index - FOLLOWER_BASE, Figure::Normal);
        }
        if index >= self.shared_end() {
            return crate::expansions::decode(self, game, index);
        }
        let i = index - PLACE_BASE;
        let rot = Rotation::from_quarters((i % 4) as u8);
        let (slot, cell) = (i / 4 / self.cells(), i / 4 % self.cells());
        let w = self.width() as i32;
        let pos = Pos::new(cell as i32 % w - self.radius, cell as i32 / w - self.radius);
        let tile = match slot {
            0 => game.drawn_tile()?,
            s => *Self::hand_slots(game).get(s - 1)?,
        };
        Some(Action::Place { tile, pos, rot })
    }

    /// The indices of the legal actions, ascending (actions outside the
    /// window left out).
    pub fn legal_indices(&self, game: &Game) -> Vec<usize> {
        let mut v: Vec<usize> = game
            .legal_actions()
            .iter()
            .filter_map(|a| self.encode(game, a))
            .collect();
        v.sort_unstable();
        v
    }
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

/// Where an expansion writes its share of an observation tensor: its own
/// cell planes, numbered from 0, and its globals, appended in order. Values
/// are clamped to `0..=1` like the rest of the tensor.
pub struct TensorPart<'a> {
    codec: &'a ActionCodec,
    /// The planes after the shared ones.
    cells: &'a mut [f32],
    /// The current expansion's first plane and one past its last.
    base: usize,
    end: usize,
    globals: &'a mut Vec<f32>,
}

impl TensorPart<'_> {
    /// Starts the next expansion's part, `planes` planes long.
    pub(crate) fn begin(&mut self, planes: usize) {
        self.base = self.end;
        self.end += planes;
    }

    /// Globals written so far (shared and expansions').
    pub(crate) fn globals_written(&self) -> usize {
        self.globals.len()
    }

    /// Raises the expansion's plane `k` at cell `p` to at least `v` (cells
    /// outside the window are left out).
    pub fn set(&mut self, k: usize, p: Pos, v: f32) {
        debug_assert!(
            self.base + k < self.end,
            "plane {k} beyond the expansion's planes"
        );
        let ww = self.codec.width() * self.codec.width();
        if let Some(c) = self.codec.cell_index(p) {
            if let Some(slot) = self.cells.get_mut((self.base + k) * ww + c) {
                *slot = slot.max(v.clamp(0.0, 1.0));
            }
        }
    }

    /// Marks every cell of piece `pi` on the expansion's plane `k`.
    pub fn set_piece(&mut self, game: &Game, k: usize, pi: u16, v: f32) {
        let piece = game.board().pieces()[pi as usize];
        let o = game.catalog().tile(piece.tile).oriented(piece.rot);
        for &(dx, dy) in &o.cells {
            self.set(k, piece.pos.offset(dx, dy), v);
        }
    }

    /// The window's radius: cells with `|x|, |y| ≤ radius` are in the tensor.
    pub fn radius(&self) -> i32 {
        self.codec.radius
    }

    /// Appends one global.
    pub fn push(&mut self, v: f32) {
        self.globals.push(v.clamp(0.0, 1.0));
    }
}

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
        self.globals(game, player, game.visible_drawn_tile(), &mut [])
    }

    /// The globals of [`ActionCodec::state_tensor`] alone.
    pub fn state_globals(&self, state: &State, player: Seat) -> Vec<f32> {
        let o = state.observation(player);
        self.globals(state.game(), player, o.drawn, &mut [])
    }

    /// The tensor's shape for `game`: `(planes, globals)`. The shared part
    /// (`CELL_PLANES + 4·players` planes, `6 + 3·players + 1 + 2·kinds`
    /// globals) is followed by each expansion's in play, in the fixed order
    /// of the expansions (`docs/openspiel.md`).
    pub fn tensor_shape(&self, game: &Game) -> (usize, usize) {
        let n = game.player_count();
        let kinds = game.catalog().tiles().len();
        let (p, g) = crate::expansions::tensor_size(game);
        (
            CELL_PLANES + 4 * n + p,
            SHARED_PHASES + 3 * n + 1 + 2 * kinds + g,
        )
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
        self.tensor_into(game, player, game.visible_drawn_tile(), cells)
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
        self.tensor_into(state.game(), player, o.drawn, cells)
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
            .tensor_into(game, player, drawn, &mut cells)
            .unwrap_or_default();
        ObservationTensor {
            planes,
            width: w,
            cells,
            globals,
        }
    }

    fn tensor_into(
        &self,
        game: &Game,
        player: Seat,
        drawn: Option<TileIdx>,
        cells: &mut [f32],
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
        for f in game.followers() {
            let rel = f.player.after(player, n);
            let kind = follower_kind_index(game.follower_kind(f));
            let (pos, _) = game.feature_anchor(f.piece, f.feature);
            set(CELL_PLANES + 4 * rel + kind, pos, 1.0);
        }
        let shared = CELL_PLANES + 4 * n;
        let g = self.globals(game, player, drawn, &mut cells[shared * w * w..]);
        debug_assert_eq!(g.len(), globals_len);
        Some(g)
    }

    /// The globals of `player`'s tensor; the expansions write their cell
    /// planes into `cells` (the planes after the shared ones; empty: none).
    fn globals(
        &self,
        game: &Game,
        player: Seat,
        drawn: Option<TileIdx>,
        cells: &mut [f32],
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
        };
        crate::expansions::tensor(game, player, &mut part);
        debug_assert_eq!(g.len(), globals_len);
        g
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(i: usize) -> Seat {
        Seat::new(i).expect("a seat")
    }
    use crate::GameConfig;

    fn config(sets: &[&str], seed: u64) -> GameConfig {
        GameConfig::from_sets(2, seed, sets).expect("a valid set list")
    }

    const COMBOS: &[&[&str]] = &[
        &["base"],
        &["winter"],
        &["base", "river1"],
        &["base", "river2"],
        &["base", "river20", "cutcassonne"],
        &["base", "river1", "river2"],
        &["base", "halfsies1", "halfsies2"],
        &["winter", "gingerbread"],
        &["base", "map-chips"],
        &["base", "plague"],
        &["base", "inns-cathedrals"],
        &[
            "winter",
            "gingerbread",
            "plague",
            "river2",
            "halfsies1",
            "map-chips",
        ],
    ];

    /// Plays random games in every set combination, calling `check` at every
    /// position.
    #[test]
    fn codec_numbers_moved_fleas_and_flights_compactly() {
        // Moved fleas (the supply empty) and flights are rare in a few random
        // games: play Plague games until both have been round-tripped.
        let codec = ActionCodec::default();
        let (mut moved, mut flights) = (0, 0);
        for seed in 0..200 {
            let mut g = Game::new(config(&["base", "plague"], seed)).expect("config");
            let mut rng = Rng::new(seed);
            while !g.is_finished() {
                let legal = g.legal_actions();
                for a in &legal {
                    let i = codec.encode(&g, a).expect("inside the window");
                    assert_eq!(codec.decode(&g, i), Some(*a));
                    match a {
                        Action::Flea { from: Some(_), .. } => moved += 1,
                        Action::Flee { .. } => flights += 1,
                        _ => {}
                    }
                }
                // Prefer spreading, so the supply runs out in some games.
                let a = legal
                    .iter()
                    .find(|a| matches!(a, Action::Flea { .. }) && rng.below(2) == 0)
                    .copied()
                    .unwrap_or(legal[rng.below(legal.len() as u64) as usize]);
                g.apply_legal(&a);
            }
            if moved > 0 && flights > 0 {
                break;
            }
        }
        assert!(moved > 0 && flights > 0, "moved {moved}, flights {flights}");
        // The flight segment is follower × place, not place × place.
        let g = Game::new(config(&["base", "plague"], 0)).expect("config");
        let n = codec.num_distinct_actions(&g);
        assert!(n < 10_000_000, "{n}");
    }

    #[test]
    fn observation_tensor_shows_each_expansions_public_state() {
        let codec = ActionCodec::default();
        let ww = codec.width() * codec.width();
        let at = |t: &ObservationTensor, plane: usize, p: Pos| {
            codec.cell_index(p).map_or(0.0, |c| t.cells[plane * ww + c])
        };
        let mut seen = [0usize; 5];
        for (sets, check) in [
            (&["base", "plague"][..], 0),
            (&["winter", "gingerbread"][..], 1),
            (&["base", "inns-cathedrals"][..], 2),
            (&["base", "map-chips"][..], 3),
            (&["base", "halfsies1", "halfsies2"][..], 4),
        ] {
            let mut g = Game::new(config(sets, 5)).expect("config");
            let mut rng = Rng::new(5);
            let own = CELL_PLANES + 4 * g.player_count();
            while !g.is_finished() {
                let t = codec.observation_tensor(&g, seat(0));
                assert_eq!(codec.tensor_shape(&g), (t.planes, t.globals.len()));
                let shared = 6 + 3 * 2 + 1 + 2 * g.catalog().tiles().len();
                let tail = &t.globals[shared..];
                let pos_of = |pi: u16| g.board().pieces()[pi as usize].pos;
                match check {
                    0 => {
                        let p = g.plague().expect("plague");
                        for f in p.fleas() {
                            let plane = own + usize::from(!f.is_active());
                            assert_eq!(at(&t, plane, pos_of(f.piece)), 1.0);
                            seen[0] += 1;
                        }
                        assert_eq!(tail[0], f32::from(p.supply()) / 18.0);
                    }
                    1 => {
                        if let Some(city) = g.gingerbread().and_then(|m| m.city()) {
                            let (pi, fi) = g.segment(city);
                            assert_eq!(at(&t, own, g.feature_anchor(pi, fi).0), 1.0);
                            seen[1] += 1;
                        }
                    }
                    2 => {
                        for f in g.followers().iter().filter(|f| f.figure == Figure::Big) {
                            let plane = own + f.player.index();
                            assert_eq!(at(&t, plane, g.feature_anchor(f.piece, f.feature).0), 1.0);
                            seen[2] += 1;
                        }
                        assert_eq!(tail.len(), 2);
                    }
                    3 => {
                        let c = g.chips().expect("chips");
                        for q in c.squares.iter().filter(|q| !q.built) {
                            assert_eq!(at(&t, own + 1, q.pos), 1.0);
                            seen[3] += 1;
                        }
                        let mine: f32 = tail[..6]
                            .iter()
                            .zip([6.0, 4.0].iter().cycle())
                            .map(|(v, k)| v * k)
                            .sum();
                        assert_eq!(mine.round() as usize, c.hands[0].len());
                    }
                    _ => {
                        let h = g.halves().expect("halves");
                        let kinds = g.catalog().tiles().len();
                        let mine: f32 = tail[..kinds].iter().sum::<f32>() * 2.0;
                        assert_eq!(mine.round() as usize, h.hands[0].len());
                        seen[4] += h.hands[0].len();
                    }
                }
                let legal = g.legal_actions();
                let a = legal[rng.below(legal.len() as u64) as usize];
                g.apply_legal(&a);
            }
        }
        assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
    }

    #[test]
    fn games_stay_within_their_size() {
        // Every index used lies below the configuration's space, and every
        // game (with its draws) is shorter than its bound.
        let codec = ActionCodec::default();
        for combo in COMBOS {
            for seed in 0..3 {
                let mut g = Game::new(config(combo, seed)).expect("config");
                let space = codec.num_distinct_actions(&g);
                let bound = max_game_length(&g);
                let mut rng = Rng::new(seed);
                let mut moves = 1; // the first draw
                while !g.is_finished() {
                    for i in codec.legal_indices(&g) {
                        assert!(i < space, "{combo:?}: index {i} ≥ {space}");
                    }
                    let legal = g.legal_actions();
                    let before = g.tiles_left();
                    g.apply_legal(&legal[rng.below(legal.len() as u64) as usize]);
                    moves += 1 + usize::from(g.tiles_left() < before);
                }
                assert!(moves <= bound, "{combo:?}: {moves} moves > {bound}");
            }
        }
        let base = Game::new(config(&["base"], 1)).expect("config");
        let one_slot = ActionCodec {
            radius: 30,
            slots: 1,
        };
        assert_eq!(one_slot.num_distinct_actions(&base), 14_917);
        assert!(one_slot.segments(&base).is_empty());
        // The sizes tabled in docs/python.md (one tile slot without
        // Half-and-half, three with it, as the Python package builds them).
        let size = |sets: &[&str], slots: usize| {
            let g = Game::new(config(sets, 1)).expect("config");
            ActionCodec { radius: 30, slots }.num_distinct_actions(&g)
        };
        assert_eq!(size(&["base", "inns-cathedrals"], 1), 14_949);
        assert_eq!(size(&["base", "map-chips"], 1), 15_517);
        assert_eq!(size(&["base", "halfsies1"], 3), 44_686);
        assert_eq!(size(&["winter", "gingerbread"], 1), 312_597);
        assert_eq!(size(&["base", "plague"], 1), 6_619_692);
        let most = [
            "winter",
            "gingerbread",
            "plague",
            "river2",
            "halfsies1",
            "halfsies2",
        ];
        assert_eq!(size(&most, 3), 6_947_141);
        assert_eq!(size(COMBOS[COMBOS.len() - 1], 3), 6_947_741);
    }

    /// Each expansion in play owns one range of indices, the ranges follow
    /// the shared ones without gaps, and an index decodes to an action of
    /// the expansion whose range holds it.
    #[test]
    fn expansion_segments_tile_the_space() {
        use crate::expansions::Family;
        let codec = ActionCodec::default();
        for combo in COMBOS {
            let g = Game::new(config(combo, 1)).expect("config");
            let segs = codec.segments(&g);
            let mut next = codec.shared_end();
            for s in &segs {
                assert_eq!(s.base, next, "{combo:?}: {segs:?}");
                assert!(g.expansions().has_family(s.family), "{combo:?}: {s:?}");
                next = s.base + s.size;
            }
            assert_eq!(next, codec.num_distinct_actions(&g), "{combo:?}");
        }
        // In a game, every index of the plague's range names a plague
        // action or nothing, never another expansion's.
        let mut g = Game::new(config(&["winter", "plague", "gingerbread"], 2)).expect("config");
        let mut rng = Rng::new(2);
        for _ in 0..40 {
            let legal = g.legal_actions();
            g.apply_legal(&legal[rng.below(legal.len() as u64) as usize]);
        }
        for s in codec.segments(&g) {
            for i in (s.base..s.base + s.size).step_by(997) {
                let Some(a) = codec.decode(&g, i) else {
                    continue;
                };
                let plague = matches!(a, Action::Flea { .. } | Action::Flee { .. });
                assert_eq!(plague, s.family == Family::Plague, "{i}: {a:?} in {s:?}");
            }
        }
    }

    fn each_position(games: u64, mut check: impl FnMut(&Game, &mut Rng)) {
        for combo in COMBOS {
            for seed in 0..games {
                let mut g = Game::new(config(combo, seed)).expect("config");
                let mut rng = Rng::new(seed * 31 + 7);
                while !g.is_finished() {
                    check(&g, &mut rng);
                    let legal = g.legal_actions();
                    let a = legal[rng.below(legal.len() as u64) as usize];
                    g.apply_legal(&a);
                }
                check(&g, &mut rng);
            }
        }
    }

    #[test]
    fn chance_probabilities_sum_to_one() {
        each_position(3, |g, _| {
            let o = g.chance_outcomes();
            if g.tiles_left() == 0 {
                assert!(o.is_empty());
            } else {
                let s: f64 = o.iter().map(|x| x.1).sum();
                assert!((s - 1.0).abs() < 1e-9, "{s}");
                assert!(o.iter().all(|x| x.1 > 0.0));
            }
        });
    }

    #[test]
    fn the_next_draw_follows_the_outcomes_part_of_the_pile() {
        // The next tile the real pile gives is always a possible outcome.
        each_position(3, |g, _| {
            if let Some(next) = g.pile_in_order().next() {
                assert!(g.chance_outcomes().iter().any(|o| o.0 == next));
            }
        });
    }

    #[test]
    fn a_fixed_outcome_is_the_next_draw() {
        each_position(2, |g, rng| {
            if g.phase() != Phase::Follower || g.tiles_left() == 0 {
                return;
            }
            let o = g.chance_outcomes();
            let (t, _) = o[rng.below(o.len() as u64) as usize];
            let mut h = g.with_next_draw(t).expect("outcome");
            assert_eq!(h.pile_in_order().next(), Some(t));
            let events = h.events().len();
            h.apply_legal(&Action::Pass);
            // A plague or gingerbread step may come before the draw.
            if h.phase() != Phase::Place {
                return;
            }
            let discarded = h.events()[events..]
                .iter()
                .any(|e| e.tile == Some(t) && e.reason == crate::scoring::Reason::Discarded);
            // With half tiles a tile that fits nowhere waits (skipped) instead.
            assert!(h.drawn_tile() == Some(t) || discarded || h.ext.skipped.contains(&t));
        });
    }

    #[test]
    fn state_chance_nodes_draw_the_chosen_tile() {
        for combo in COMBOS {
            for seed in 0..3 {
                let mut s = State::new(config(combo, seed)).expect("config");
                let mut rng = Rng::new(seed);
                let mut turns = 0;
                while s.node() != Node::Terminal {
                    match s.node() {
                        Node::Chance => {
                            let o = s.chance_outcomes();
                            let total: f64 = o.iter().map(|x| x.1).sum();
                            assert!((total - 1.0).abs() < 1e-9);
                            let (t, _) = o[rng.below(o.len() as u64) as usize];
                            s.apply_chance(t).expect("outcome");
                            assert_eq!(s.game().drawn_tile(), Some(t));
                            assert!(!s.legal_actions().is_empty());
                            turns += 1;
                        }
                        Node::Player(_) => {
                            let l = s.legal_actions();
                            s.apply(&l[rng.below(l.len() as u64) as usize])
                                .expect("legal");
                        }
                        Node::Terminal => {}
                    }
                }
                assert!(turns > 10);
                let r = s.returns();
                assert!(r.iter().sum::<f64>().abs() < 1e-9);
            }
        }
    }

    #[test]
    fn determinize_keeps_public_state_and_permutes_the_pile() {
        each_position(2, |g, rng| {
            let p = seat(rng.below(2) as usize);
            let d = g.determinize(p, rng);
            assert_eq!(d.observation(p), g.observation(p));
            // The other seat's public view is the same; its own hidden items
            // (halves, chips) are a sample, so its expansions' part is
            // compared as a spectator sees it.
            let public = |mut o: Observation| {
                o.expansion_state.clear();
                o
            };
            assert_eq!(
                public(d.observation(seat(1 - p.index()))),
                public(g.observation(seat(1 - p.index())))
            );
            assert_eq!(
                d.state_json_as(Viewer::Spectator).expansions,
                g.state_json_as(Viewer::Spectator).expansions
            );
            let mut a: Vec<TileIdx> = g.pile_in_order().collect();
            let mut b: Vec<TileIdx> = d.pile_in_order().collect();
            // The sample depends only on what the player knows: the same
            // generator state gives the same pile from a reordered game.
            let mut shuffled = g.clone();
            shuffled.pile.reverse();
            let mut r1 = rng.clone();
            let mut r2 = rng.clone();
            assert_eq!(
                g.determinize(p, &mut r1).pile,
                shuffled.determinize(p, &mut r2).pile
            );
            assert_eq!(d.config().seed, 0);
            assert!(d.config().deck.is_none());
            // The next draw is still a possible outcome (parts respected).
            if let Some(next) = b.first() {
                assert!(g.chance_outcomes().iter().any(|o| o.0 == *next));
            }
            a.sort();
            b.sort();
            if g.visible_drawn_tile() == g.drawn_tile() {
                assert_eq!(a, b);
            }
            // A pending Half-and-half draw is resampled with the pile: the
            // tiles not yet seen are the same, whatever their order.
            assert_eq!(g.remaining_tiles(), d.remaining_tiles());
            if g.current_player() == p {
                assert_eq!(d.legal_actions(), g.legal_actions());
            }
        });
    }

    #[test]
    fn determinize_really_resamples() {
        let g = Game::new(config(&["base"], 3)).expect("config");
        let mut rng = Rng::new(1);
        let d1 = g.determinize(seat(0), &mut rng);
        let d2 = g.determinize(seat(0), &mut rng);
        let p0: Vec<_> = g.pile_in_order().collect();
        let p1: Vec<_> = d1.pile_in_order().collect();
        let p2: Vec<_> = d2.pile_in_order().collect();
        assert_ne!(p0, p1);
        assert_ne!(p1, p2);
    }

    #[test]
    fn codec_round_trips_every_legal_action() {
        let codec = ActionCodec::default();
        each_position(3, |g, _| {
            let legal = g.legal_actions();
            let mut seen = std::collections::HashSet::new();
            for a in &legal {
                let i = codec
                    .encode(g, a)
                    .unwrap_or_else(|| panic!("{a:?} is outside the window"));
                assert!(i < codec.num_distinct_actions(g));
                assert!(seen.insert(i), "two actions share index {i}");
                assert_eq!(codec.decode(g, i), Some(*a));
            }
            assert_eq!(codec.legal_indices(g).len(), legal.len());
        });
    }

    /// The tensor holds only what its seat may know: a determinization
    /// for that seat (pile reshuffled, other hands and a pending
    /// Half-and-half draw dealt again) leaves it unchanged, at every
    /// position of every combination.
    /// A codec with a small window (radius 8), enough for the tensor tests.
    fn small_codec() -> ActionCodec {
        ActionCodec {
            radius: 8,
            slots: 3,
        }
    }

    #[test]
    fn observation_globals_are_the_tensors_globals() {
        let codec = small_codec();
        each_position(1, |g, _| {
            for p in g.seats() {
                let t = codec.observation_tensor(g, p);
                assert_eq!(codec.observation_globals(g, p), t.globals);
            }
        });
    }

    #[test]
    fn a_tensor_written_into_a_buffer_is_the_same_tensor() {
        let codec = small_codec();
        each_position(2, |g, _| {
            let mut cells = vec![0f32; codec.tensor_cells(g)];
            let globals = codec.observation_tensor_into(g, seat(1), &mut cells);
            let t = codec.observation_tensor(g, seat(1));
            assert_eq!(globals.as_ref(), Some(&t.globals));
            assert_eq!(cells, t.cells);
            let state = State::from_game(g.clone());
            let mut cells = vec![0f32; codec.tensor_cells(g)];
            let globals = codec.state_tensor_into(&state, seat(0), &mut cells);
            let t = codec.state_tensor(&state, seat(0));
            assert_eq!((globals, cells), (Some(t.globals), t.cells));
            // A buffer of the wrong size is refused, untouched.
            let mut short = vec![0f32; codec.tensor_cells(g) - 1];
            assert_eq!(codec.observation_tensor_into(g, seat(0), &mut short), None);
            assert!(short.iter().all(|&v| v == 0.0));
        });
    }

    #[test]
    fn observation_tensor_depends_only_on_what_the_seat_knows() {
        let codec = ActionCodec::default();
        each_position(2, |g, rng| {
            for p in g.seats() {
                let d = g.determinize(p, rng);
                assert_eq!(
                    codec.observation_tensor(g, p),
                    codec.observation_tensor(&d, p),
                    "seat {p} sees a difference after determinization"
                );
            }
        });
    }

    #[test]
    fn observation_tensor_has_the_documented_shape() {
        let codec = ActionCodec::default();
        let g = Game::new(config(&["base"], 1)).expect("config");
        let t = codec.observation_tensor(&g, seat(0));
        assert_eq!(t.planes, CELL_PLANES + 8);
        assert_eq!(t.cells.len(), t.planes * 61 * 61);
        let kinds = g.catalog().tiles().len();
        assert_eq!(t.globals.len(), 6 + 3 * 2 + 1 + 2 * kinds);
        assert_eq!(codec.tensor_shape(&g), (t.planes, t.globals.len()));
        assert!(t
            .cells
            .iter()
            .chain(&t.globals)
            .all(|v| (0.0..=1.0).contains(v)));
        // The start tile is at the window's centre.
        let c = codec.cell_index(Pos::new(0, 0)).expect("centre");
        assert_eq!(t.cells[c], 1.0);
    }

    #[test]
    fn win_returns_are_zero_sum() {
        assert_eq!(win_returns(&[10, 5]), vec![1.0, -1.0]);
        assert_eq!(win_returns(&[7, 7]), vec![0.0, 0.0]);
        let r = win_returns(&[3, 9, 9]);
        assert!(r.iter().sum::<f64>().abs() < 1e-12);
        assert!(r[1] > 0.0 && r[0] < 0.0);
    }
}
