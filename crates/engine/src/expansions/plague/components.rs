//! The Plague's components and set-up (`plague.md`, "Components" and
//! "Setup"): the token counts, the set-up that shuffles the six sources in
//! below the first 17 tiles, and the state that holds the tokens: the flea
//! supply, the fleas and outbreak tokens on the board, and what the current
//! turn has done.
//!
//! The state also keeps what is derived from the tokens and the board (bit
//! sets of pieces, the stored adjacency and border slots, the turn's spreads
//! and flights), so that listing the legal actions does not search the board
//! again; that part takes no part in equality, and `Clone` is written by
//! hand so that tree search reuses every vector's memory. The fields are
//! open to the other parts (`pub(super)`), each of which keeps its own
//! derived store; every token change goes through the few methods at the end
//! of this file, which mark the stores that depend on it stale.

use crate::action::FeatureAt;
use crate::board::Board;
use crate::catalog::{Catalog, Tag, TileIdx};
use crate::features::NodeId;
use crate::game::Follower;
use crate::rng::Rng;
use crate::seat::Seat;

use super::flight::{FlightGroup, Stale};
use super::regions::Adjacent;
use super::spread::SpreadList;

// ---------------------------------------------------------------------------
// Components

/// The expansion id and tile-set id of the Plague.
pub const SET: &str = "plague";
/// The tag of a plague-source tile (the plague doctor's symbol).
pub const SOURCE_TAG: &str = "plague";
/// Flea tokens in the game.
pub const FLEAS: u8 = 18;
/// Outbreak tokens, numbered 1 to 6.
pub const OUTBREAKS: usize = 6;
/// Base tiles set aside to be played before the sources are shuffled in.
pub const SAFE_TILES: usize = 17;

// ---------------------------------------------------------------------------
// Set-up

/// Set-up: `bag` holds the shuffled base tiles (river tiles, if any, come
/// before it and are not touched). The first 17 stay on top; the 6 source
/// tiles are shuffled into the rest below them.
pub fn setup(cat: &Catalog, bag: &mut Vec<TileIdx>, rng: &mut Rng) {
    let Some(set) = cat.set(SET) else {
        return;
    };
    // In place (a new deal reuses the bag): the rest and the sources after
    // it, shuffled together.
    let top = SAFE_TILES.min(bag.len());
    for &t in &set.tiles {
        for _ in 0..cat.tile(t).count {
            bag.push(t);
        }
    }
    if let Some(rest) = bag.get_mut(top..) {
        rng.shuffle(rest);
    }
}

/// The set-up's rule as the draws go (explicit chance and determinization,
/// which never read the pile's order): no source comes among the first
/// [`SAFE_TILES`] land tiles drawn. Counted from the land tiles (neither a
/// source nor a prelude tile such as the river's) left in the pile, so it
/// follows every way a tile leaves or goes back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SafeDraws {
    /// Land tiles in the pile at the start, after the start spaces.
    land: u16,
    /// How many of the first land draws are safe (17, fewer when a map's
    /// second start tile took one, or when the land tiles are fewer).
    safe: u16,
}

impl SafeDraws {
    /// Counts the deal's land tiles in `pile`; `taken` land tiles already
    /// came off its top for the start spaces.
    pub fn count(cat: &Catalog, pile: &[TileIdx], taken: usize) -> SafeDraws {
        let land = pile.iter().filter(|t| is_land(cat, **t)).count();
        let safe = SAFE_TILES.min(land + taken).saturating_sub(taken);
        SafeDraws {
            land: u16::try_from(land).unwrap_or(u16::MAX),
            safe: u16::try_from(safe).unwrap_or(u16::MAX),
        }
    }

    /// Safe land draws still to come, given the land tiles left in `pile`.
    pub fn left(&self, cat: &Catalog, pile: &[TileIdx]) -> usize {
        let now = pile.iter().filter(|t| is_land(cat, **t)).count();
        let drawn = usize::from(self.land).saturating_sub(now);
        usize::from(self.safe).saturating_sub(drawn)
    }
}

/// A land tile: in the set-up's safe top, neither a source nor a prelude
/// tile (drawn before the land, like the river's).
fn is_land(cat: &Catalog, t: TileIdx) -> bool {
    !is_source(cat, t) && !crate::expansions::is_prelude_tile(cat, t)
}

/// Determinization: `pile` (next draw last) was shuffled uniformly inside
/// its parts; `left` safe land draws are still to come. Keeps the land
/// tiles' places and puts on them: the first `left` land tiles in the
/// shuffled order that are not sources, then the rest of the land part
/// shuffled again. Uniform over the orders the set-up can make.
/// `scratch` holds the lists it works in, so that a bot's search does not
/// allocate for it.
pub fn arrange_safe(
    cat: &Catalog,
    pile: &mut [TileIdx],
    left: usize,
    rng: &mut Rng,
    scratch: &mut SafeScratch,
) {
    if left == 0 {
        return;
    }
    let SafeScratch {
        places,
        order,
        rest,
    } = scratch;
    // The land places in draw order.
    places.clear();
    places.extend(
        (0..pile.len())
            .rev()
            .filter(|&i| !crate::expansions::is_prelude_tile(cat, pile[i])),
    );
    if !places.iter().any(|&i| is_source(cat, pile[i])) {
        return;
    }
    order.clear();
    rest.clear();
    for &i in places.iter() {
        let t = pile[i];
        if order.len() < left && !is_source(cat, t) {
            order.push(t);
        } else {
            rest.push(t);
        }
    }
    rng.shuffle(rest);
    order.append(rest);
    for (&i, &t) in places.iter().zip(order.iter()) {
        pile[i] = t;
    }
}

/// The lists [`arrange_safe`] works in. Not part of the game's state: a
/// copy starts empty, and `clone_from` keeps the copy's own memory.
#[derive(Debug, Default)]
pub struct SafeScratch {
    places: Vec<usize>,
    order: Vec<TileIdx>,
    rest: Vec<TileIdx>,
}

impl Clone for SafeScratch {
    fn clone(&self) -> SafeScratch {
        SafeScratch::default()
    }

    fn clone_from(&mut self, _src: &SafeScratch) {}
}

/// Whether `tile` is a plague source.
pub fn is_source(cat: &Catalog, tile: TileIdx) -> bool {
    cat.tile(tile).has_tag(Tag::known(SOURCE_TAG))
}

// ---------------------------------------------------------------------------
// State

/// A flea token on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flea {
    /// The piece (tile or half tile) it lies on.
    pub piece: u16,
    /// Active side up: the index (number − 1) of the active outbreak whose
    /// region holds it. `None`: latent (pink side up).
    pub region: Option<u8>,
}

impl Flea {
    /// Whether it lies active (red) side up.
    pub fn is_active(&self) -> bool {
        self.region.is_some()
    }
}

/// An outbreak token, on the source tile where it broke out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outbreak {
    /// The source piece it lies on.
    pub piece: u16,
    /// Face up (rats): active. Flipped (field): eradicated for good.
    pub active: bool,
}

/// What the current turn has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Turn {
    /// A source was placed: no spread this turn.
    pub(super) source: bool,
    /// The plague has spread this turn.
    pub(super) spread: bool,
    /// A follower has fled this turn.
    pub(super) fled: bool,
}

/// A set of pieces, one bit each: membership tests on the hot path cost a
/// shift instead of a scan of the token lists.
#[derive(Debug, Default)]
pub(super) struct PieceSet(Vec<u64>);

impl Clone for PieceSet {
    fn clone(&self) -> PieceSet {
        PieceSet(self.0.clone())
    }

    fn clone_from(&mut self, src: &PieceSet) {
        self.0.clone_from(&src.0);
    }
}

impl PieceSet {
    pub(super) fn has(&self, pi: u16) -> bool {
        self.0
            .get(pi as usize / 64)
            .is_some_and(|w| w >> (pi % 64) & 1 == 1)
    }

    pub(super) fn set(&mut self, pi: u16, on: bool) {
        let w = pi as usize / 64;
        if w >= self.0.len() {
            self.0.resize(w + 1, 0);
        }
        if on {
            self.0[w] |= 1 << (pi % 64);
        } else {
            self.0[w] &= !(1 << (pi % 64));
        }
    }
}

/// No flea on a piece, in `Plague::flea_index`.
const NO_FLEA: u8 = u8::MAX;

/// The Plague's tokens and the current turn's plague steps.
#[derive(Debug)]
pub struct Plague {
    pub(super) supply: u8,
    /// The deal's safe tiles: how the first 17 land draws are counted.
    pub(super) safe: SafeDraws,
    /// Fleas on the board, ordered by the piece they lie on.
    pub(super) fleas: Vec<Flea>,
    /// Outbreak tokens on the board; token number = index + 1.
    pub(super) outbreaks: Vec<Outbreak>,
    /// Every source piece on the board (a seventh copy in a free-form deck
    /// gets no token but is still a source).
    pub(super) sources: Vec<u16>,
    pub(super) turn: Turn,
    // What follows is derived from the above and the board, kept so that
    // listing the legal actions does not search the board again; it takes
    // no part in equality.
    /// Pieces adjacent to each piece, for the pieces `0..adjacent.len()`.
    pub(super) adjacent: Vec<Adjacent>,
    /// Pieces with a flea.
    pub(super) flea_set: PieceSet,
    /// The index into `fleas` of the flea on each piece ([`NO_FLEA`] for
    /// none; pieces past the end have none).
    pub(super) flea_index: Vec<u8>,
    /// Pieces with an active outbreak.
    pub(super) active_set: PieceSet,
    /// Source pieces.
    pub(super) source_set: PieceSet,
    /// Where each piece's border slots start in `slot_feature` and
    /// `slot_node`, for the pieces `0..slot_start.len()`. A piece has one
    /// slot per border place, in the order of [`border_slots`]: its own
    /// feature there and the segment across it, so a flight search reads
    /// who joins whom without asking the board.
    ///
    /// [`border_slots`]: super::regions::border_slots
    pub(super) slot_start: Vec<u32>,
    /// The piece's own feature at each slot (`NO_FEATURE` where none).
    pub(super) slot_feature: Vec<u8>,
    /// The segment across each slot (`NO_NODE` where none yet).
    pub(super) slot_node: Vec<NodeId>,
    /// For each segment (node) of the pieces stored: where its piece's
    /// slots start, and a bit per slot of the piece that is this segment's
    /// (a flight search visits those slots only, not all of the piece's).
    pub(super) node_slots: Vec<(u32, u64)>,
    /// How actions name each segment (node) of the pieces stored: the
    /// canonical place of its feature ([`Game::segment_anchor`]), fixed
    /// once its piece is down.
    pub(super) node_anchor: Vec<FeatureAt>,
    /// Whether every piece stored has at most 64 slots, so that
    /// `node_slots` covers them all (always, for the catalog's shapes).
    pub(super) slots_masked: bool,
    /// The legal spreads `(from, to)` of the current turn, in the order they
    /// are listed, while `spreads_valid`.
    pub(super) spreads: SpreadList,
    /// Whether `spreads` was computed for the tokens and board as they are
    /// (set once the turn's tile is down, cleared by any change).
    pub(super) spreads_valid: bool,
    /// The turn's flights, while `flights_stale` is empty and the board,
    /// the player and the followers are those they were searched for: per
    /// follower that may flee, in the order of [`Game::each_flight`], its
    /// index, its segment and where its destinations end in `flight_to`.
    /// The listings build the `flee` actions from them and the random
    /// player builds only the one it draws, instead of searching every
    /// follower's feature again.
    pub(super) flight_from: Vec<FlightGroup>,
    /// The destinations of the groups of `flight_from`, one after another.
    pub(super) flight_to: Vec<NodeId>,
    /// What changed on the board's tokens since the flights were searched.
    pub(super) flights_stale: Stale,
    /// The number of pieces on the board when the flights were searched.
    pub(super) flights_pieces: usize,
    /// The player the flights were searched for.
    pub(super) flights_player: Seat,
    /// The followers as they were when the flights were searched.
    pub(super) flights_followers: Vec<Follower>,
    /// A bit per segment on a piece with a flea or an active outbreak
    /// (none may be fled onto or across), kept as tokens come and go, so
    /// that a flight search starts from it as if those were visited.
    pub(super) barred: Vec<u64>,
    /// Scratch for the searches that list spreads and flights, kept so
    /// that listing them does not allocate: spread targets (for the debug
    /// builds' check of the spreads), one flight search, one segment's
    /// neighbours, the flights' groups being replaced.
    pub(super) scratch: (Vec<u16>, Vec<NodeId>, Vec<NodeId>, Vec<FlightGroup>),
    /// Scratch for a determinization's safe draws ([`arrange_safe`]).
    pub(super) arrange: SafeScratch,
}

// By hand, not derived: tree search copies a game into a reused scratch
// game with `clone_from`, which then reuses every vector's memory instead
// of allocating the Plague's state anew (the destructuring makes a new
// field a compile error here until it is copied).
impl Clone for Plague {
    fn clone(&self) -> Plague {
        Plague {
            supply: self.supply,
            safe: self.safe,
            fleas: self.fleas.clone(),
            outbreaks: self.outbreaks.clone(),
            sources: self.sources.clone(),
            turn: self.turn,
            adjacent: self.adjacent.clone(),
            flea_set: self.flea_set.clone(),
            flea_index: self.flea_index.clone(),
            active_set: self.active_set.clone(),
            source_set: self.source_set.clone(),
            slot_start: self.slot_start.clone(),
            slot_feature: self.slot_feature.clone(),
            slot_node: self.slot_node.clone(),
            node_slots: self.node_slots.clone(),
            node_anchor: self.node_anchor.clone(),
            slots_masked: self.slots_masked,
            spreads: self.spreads.clone(),
            spreads_valid: self.spreads_valid,
            flight_from: self.flight_from.clone(),
            flight_to: self.flight_to.clone(),
            flights_stale: self.flights_stale,
            flights_pieces: self.flights_pieces,
            flights_player: self.flights_player,
            flights_followers: self.flights_followers.clone(),
            barred: self.barred.clone(),
            scratch: (
                self.scratch.0.clone(),
                self.scratch.1.clone(),
                self.scratch.2.clone(),
                Vec::new(),
            ),
            arrange: SafeScratch::default(),
        }
    }

    fn clone_from(&mut self, src: &Plague) {
        let Plague {
            supply,
            safe,
            fleas,
            outbreaks,
            sources,
            turn,
            adjacent,
            flea_set,
            flea_index,
            active_set,
            source_set,
            slot_start,
            slot_feature,
            slot_node,
            node_slots,
            node_anchor,
            slots_masked,
            spreads,
            spreads_valid,
            flight_from,
            flight_to,
            flights_stale,
            flights_pieces,
            flights_player,
            flights_followers,
            barred,
            scratch,
            arrange: _,
        } = src;
        self.supply = *supply;
        self.safe = *safe;
        self.fleas.clone_from(fleas);
        self.outbreaks.clone_from(outbreaks);
        self.sources.clone_from(sources);
        self.turn = *turn;
        self.adjacent.clone_from(adjacent);
        self.flea_set.clone_from(flea_set);
        self.flea_index.clone_from(flea_index);
        self.active_set.clone_from(active_set);
        self.source_set.clone_from(source_set);
        self.slot_start.clone_from(slot_start);
        self.slot_feature.clone_from(slot_feature);
        self.slot_node.clone_from(slot_node);
        self.node_slots.clone_from(node_slots);
        self.node_anchor.clone_from(node_anchor);
        self.slots_masked = *slots_masked;
        self.spreads.clone_from(spreads);
        self.spreads_valid = *spreads_valid;
        self.flight_from.clone_from(flight_from);
        self.flight_to.clone_from(flight_to);
        self.flights_stale = *flights_stale;
        self.flights_pieces = *flights_pieces;
        self.flights_player = *flights_player;
        self.flights_followers.clone_from(flights_followers);
        self.barred.clone_from(barred);
        self.scratch.0.clone_from(&scratch.0);
        self.scratch.1.clone_from(&scratch.1);
        self.scratch.2.clone_from(&scratch.2);
        // The last scratch vector is empty between calls: nothing to copy.
    }
}

impl PartialEq for Plague {
    fn eq(&self, other: &Plague) -> bool {
        self.supply == other.supply
            && self.safe == other.safe
            && self.fleas == other.fleas
            && self.outbreaks == other.outbreaks
            && self.sources == other.sources
            && self.turn == other.turn
    }
}

impl Eq for Plague {}

impl Default for Plague {
    fn default() -> Plague {
        Plague::new()
    }
}

impl Plague {
    /// All 18 fleas in the supply, no outbreak yet.
    pub fn new() -> Plague {
        let mut p = Plague::blank();
        p.fleas.reserve(FLEAS as usize);
        p.outbreaks.reserve(OUTBREAKS);
        p.sources.reserve(OUTBREAKS);
        p
    }

    /// Room for the longest lists a game of `pieces` pieces, `segments`
    /// feature segments and `followers` followers a seat can make: the
    /// spreads (each target a distinct piece, from the supply or from any
    /// flea) and the flights (every other segment of a feature, for each
    /// follower). Reserved once a deal, so that a game with longer lists
    /// than any before does not grow them mid-playout.
    pub(super) fn reserve_lists(&mut self, pieces: usize, segments: usize, followers: usize) {
        let s = &mut self.spreads;
        s.groups.reserve(usize::from(FLEAS) + 1);
        s.shared.reserve(pieces);
        s.listed.reserve(usize::from(FLEAS) * pieces);
        s.free.reserve(pieces.div_ceil(64));
        s.single.reserve(pieces.div_ceil(64));
        self.scratch.0.reserve(pieces);
        self.flight_to.reserve(followers * segments);
        self.scratch.1.reserve(segments);
        self.flight_from.reserve(followers);
        self.scratch.3.reserve(followers);
    }

    /// [`Plague::new`] without any memory reserved: copied into an
    /// earlier deal's state, it empties that state and keeps its memory.
    pub(super) fn blank() -> Plague {
        Plague {
            supply: FLEAS,
            safe: SafeDraws::default(),
            fleas: Vec::new(),
            outbreaks: Vec::new(),
            sources: Vec::new(),
            turn: Turn::default(),
            adjacent: Vec::new(),
            flea_set: PieceSet::default(),
            flea_index: Vec::new(),
            active_set: PieceSet::default(),
            source_set: PieceSet::default(),
            slot_start: Vec::new(),
            slot_feature: Vec::new(),
            slot_node: Vec::new(),
            node_slots: Vec::new(),
            node_anchor: Vec::new(),
            slots_masked: true,
            spreads: SpreadList::default(),
            spreads_valid: false,
            flight_from: Vec::new(),
            flight_to: Vec::new(),
            flights_stale: Stale::All,
            flights_pieces: 0,
            flights_player: Seat::default(),
            flights_followers: Vec::new(),
            barred: Vec::new(),
            scratch: (Vec::new(), Vec::new(), Vec::new(), Vec::new()),
            arrange: SafeScratch::default(),
        }
    }

    /// Fleas still in the supply.
    pub fn supply(&self) -> u8 {
        self.supply
    }

    /// Fleas on the board, ordered by the piece they lie on.
    pub fn fleas(&self) -> &[Flea] {
        &self.fleas
    }

    /// Outbreak tokens placed so far; token number = index + 1.
    pub fn outbreaks(&self) -> &[Outbreak] {
        &self.outbreaks
    }

    /// Whether the plague has broken out (a first outbreak token is down).
    pub fn started(&self) -> bool {
        !self.outbreaks.is_empty()
    }

    /// Whether the plague has spread this turn.
    pub fn spread_done(&self) -> bool {
        self.turn.spread
    }

    /// Whether a follower has fled this turn.
    pub fn fled(&self) -> bool {
        self.turn.fled
    }

    /// The flea on piece `pi`, if any (index into [`Plague::fleas`]).
    pub fn flea_on(&self, pi: u16) -> Option<usize> {
        match self.flea_index.get(pi as usize) {
            Some(&i) if i != NO_FLEA => Some(i as usize),
            _ => None,
        }
    }

    /// Numbers the fleas again in `flea_index` after one was added or
    /// removed (the fleas after it moved up or down by one).
    fn index_fleas(&mut self, changed: u16) {
        let need = changed as usize + 1;
        if self.flea_index.len() < need {
            self.flea_index.resize(need, NO_FLEA);
        }
        self.flea_index[changed as usize] = NO_FLEA;
        for (i, f) in self.fleas.iter().enumerate() {
            // At most 18 fleas: the index fits in a byte.
            self.flea_index[f.piece as usize] = i as u8;
        }
    }

    /// The active outbreak on piece `pi`, if any (index = number − 1).
    pub fn active_outbreak_on(&self, pi: u16) -> Option<usize> {
        if !self.active_set.has(pi) {
            return None;
        }
        self.outbreaks
            .iter()
            .position(|o| o.active && o.piece == pi)
    }

    /// A piece a follower may flee onto or across: no flea (active or
    /// latent) and no active outbreak.
    pub fn is_clear(&self, pi: u16) -> bool {
        !self.flea_set.has(pi) && !self.active_set.has(pi)
    }

    /// Sets the [`Plague::barred`] bits of piece `pi`'s segments as its
    /// tokens say.
    fn bar(&mut self, board: &Board, cat: &Catalog, pi: u16) {
        let Some(piece) = board.pieces().get(pi as usize) else {
            return;
        };
        let n = cat.tile(piece.tile).features.len() as NodeId;
        let on = !self.is_clear(pi);
        for node in piece.node_base..piece.node_base + n {
            let (w, b) = (node as usize / 64, 1u64 << (node % 64));
            if self.barred.len() <= w {
                if !on {
                    continue;
                }
                self.barred.resize(w + 1, 0);
            }
            if on {
                self.barred[w] |= b;
            } else {
                self.barred[w] &= !b;
            }
        }
    }

    pub(super) fn add_flea(&mut self, board: &Board, cat: &Catalog, piece: u16) {
        let at = self.fleas.partition_point(|f| f.piece < piece);
        self.fleas.insert(
            at,
            Flea {
                piece,
                region: None,
            },
        );
        self.flea_set.set(piece, true);
        self.bar(board, cat, piece);
        self.index_fleas(piece);
        self.spreads_valid = false;
        self.flights_stale.add(piece);
    }

    pub(super) fn remove_flea(&mut self, board: &Board, cat: &Catalog, i: usize) {
        let f = self.fleas.remove(i);
        self.flea_set.set(f.piece, false);
        self.bar(board, cat, f.piece);
        self.index_fleas(f.piece);
        self.spreads_valid = false;
        self.flights_stale.add(f.piece);
    }

    pub(super) fn add_outbreak(&mut self, board: &Board, cat: &Catalog, piece: u16) {
        self.outbreaks.push(Outbreak {
            piece,
            active: true,
        });
        self.active_set.set(piece, true);
        self.bar(board, cat, piece);
        self.spreads_valid = false;
        self.flights_stale.add(piece);
    }

    /// Flips outbreak `k` to its field side.
    pub(super) fn eradicate(&mut self, board: &Board, cat: &Catalog, k: usize) {
        self.outbreaks[k].active = false;
        self.active_set.set(self.outbreaks[k].piece, false);
        self.bar(board, cat, self.outbreaks[k].piece);
        self.spreads_valid = false;
        self.flights_stale.add(self.outbreaks[k].piece);
    }
}
