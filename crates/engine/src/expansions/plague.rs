//! The Plague, first edition (`plague.md`, seed `004_68c9f7c7e00c8a83.txt`).
//!
//! Six plague-source tiles bring six numbered outbreak tokens (face: active,
//! back: eradicated) into play; 18 flea tokens (red: active, pink: latent)
//! spread the plague from tile to tile and send home the followers on the
//! tiles they reach. This module reads top to bottom like the rules page:
//! components, set-up, definitions (adjacency and plague regions), then the
//! turn: eradication at its start, a new outbreak when a source is placed,
//! the mandatory spread, the optional flight, and the plague step that
//! follows the follower step.
//!
//! The turn machine reaches it only through its hooks (`PlagueRules`, at
//! the end of this module), and only while it is in play: the outbreak after
//! a tile is placed, the follower ban, the plague actions in the follower
//! step, the plague step when the follower step ends, the `flea` and `flee`
//! actions, and eradication when the next turn begins.

use serde::Serialize;

use crate::board::Board;
use crate::catalog::{Catalog, FeatureKind, Tag, TileIdx, NO_FEATURE};
use crate::expansions::{Expansion, Family};
use crate::features::NodeId;
use crate::game::{illegal, Action, Follower, Game, IllegalAction, Mode, Phase};
use crate::geometry::{Corner, Place, Pos, Side};
use crate::openspiel::ActionCodec;
use crate::rng::Rng;
use crate::scoring::{Event, Reason};
use crate::seat::Seat;
use crate::state::{put, ExpansionsJson};

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

/// Whether `tile` is a plague source.
pub fn is_source(cat: &Catalog, tile: TileIdx) -> bool {
    cat.tile(tile).has_tag(Tag::known(SOURCE_TAG))
}

// ---------------------------------------------------------------------------
// Naming tiles and places in actions

/// A tile named in an action: its cell and, for a half, its corner. Kept
/// small (cells fit in 16 bits) so that adding these actions does not make
/// every [`Action`] bigger than a placement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TileAt {
    /// Column.
    pub x: i16,
    /// Row.
    pub y: i16,
    /// The half's corner, for a cell with half tiles.
    pub half: Option<Corner>,
}

impl TileAt {
    /// The tile at `pos` (`None` when the cell is out of range).
    pub fn new(pos: Pos, half: Option<Corner>) -> Option<TileAt> {
        Some(TileAt {
            x: pos.x.try_into().ok()?,
            y: pos.y.try_into().ok()?,
            half,
        })
    }

    /// Its cell.
    pub fn pos(self) -> Pos {
        Pos::new(self.x.into(), self.y.into())
    }
}

/// A feature named in an action by one of its places: cell, half, place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeatureAt {
    /// Column.
    pub x: i16,
    /// Row.
    pub y: i16,
    /// The half's corner, for a cell with half tiles.
    pub half: Option<Corner>,
    /// A place of the feature.
    pub place: Place,
}

impl FeatureAt {
    /// The feature at `place` of the tile at `pos` (`None` when the cell is
    /// out of range).
    pub fn new(pos: Pos, half: Option<Corner>, place: Place) -> Option<FeatureAt> {
        let t = TileAt::new(pos, half)?;
        Some(FeatureAt {
            x: t.x,
            y: t.y,
            half,
            place,
        })
    }

    /// Its cell.
    pub fn pos(self) -> Pos {
        Pos::new(self.x.into(), self.y.into())
    }
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
struct Turn {
    /// A source was placed: no spread this turn.
    source: bool,
    /// The plague has spread this turn.
    spread: bool,
    /// A follower has fled this turn.
    fled: bool,
}

/// A set of pieces, one bit each: membership tests on the hot path cost a
/// shift instead of a scan of the token lists.
#[derive(Debug, Default)]
struct PieceSet(Vec<u64>);

impl Clone for PieceSet {
    fn clone(&self) -> PieceSet {
        PieceSet(self.0.clone())
    }

    fn clone_from(&mut self, src: &PieceSet) {
        self.0.clone_from(&src.0);
    }
}

impl PieceSet {
    fn has(&self, pi: u16) -> bool {
        self.0
            .get(pi as usize / 64)
            .is_some_and(|w| w >> (pi % 64) & 1 == 1)
    }

    fn set(&mut self, pi: u16, on: bool) {
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

/// The most pieces adjacent to one piece: a double tile has six
/// neighbouring cells, and a cell holds at most two pieces (two halves);
/// a square tile or a half has fewer (four cells, plus a half's partner).
const MAX_ADJACENT: usize = 12;

/// The pieces adjacent to one piece, stored when pieces are placed (the
/// relation between two pieces never changes once both are down).
#[derive(Clone, Copy, Debug)]
struct Adjacent {
    len: u8,
    list: [u16; MAX_ADJACENT],
}

impl Adjacent {
    const EMPTY: Adjacent = Adjacent {
        len: 0,
        list: [0; MAX_ADJACENT],
    };

    fn as_slice(&self) -> &[u16] {
        &self.list[..self.len as usize]
    }

    fn push(&mut self, q: u16) {
        // The bound holds by construction (see `MAX_ADJACENT`); indexing
        // panics rather than silently dropping a neighbour if it ever broke.
        self.list[self.len as usize] = q;
        self.len += 1;
    }
}

/// Where one flea's spreads (or the supply's) come from in a
/// [`SpreadList`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SpreadSource {
    /// The list's shared targets (the supply's, and every latent flea's:
    /// lifting a latent flea changes no active region).
    Shared,
    /// Its own targets, in the list's `listed` (an active flea whose
    /// lifting splits a region).
    Listed,
    /// The free tiles next to an active piece, less those whose only
    /// active neighbour it is (an active flea whose lifting splits no
    /// region): known from two bit sets and its neighbours, so tiles are
    /// not listed once per flea.
    Others,
}

/// The spreads of one flea (or of the supply), in a [`SpreadList`].
#[derive(Clone, Copy, Debug)]
struct SpreadGroup {
    /// The piece the flea leaves; `None` for the supply.
    from: Option<u16>,
    /// Where its spreads end when all the groups' spreads are counted one
    /// after another (they start where the previous group's end).
    end: u32,
    /// Where its targets end in `SpreadList::listed` (they start where the
    /// previous group's end); only a `Listed` group adds any.
    listed: u32,
    /// Where its targets are.
    source: SpreadSource,
}

/// The legal spreads of a turn, in the order they are listed, as groups
/// of one flea each: counting them, or building the `k`-th, does not
/// build the flea × tile pairs (with every flea active there can be
/// hundreds).
#[derive(Debug, Default)]
struct SpreadList {
    groups: Vec<SpreadGroup>,
    /// The targets of every `Shared` group, sorted by piece.
    shared: Vec<u16>,
    /// The targets of the `Listed` groups, one group after another.
    listed: Vec<u16>,
    /// A bit per free tile next to at least one active piece (`Others`).
    free: Vec<u64>,
    /// A bit per free tile next to exactly one active piece (`Others`).
    single: Vec<u64>,
}

impl Clone for SpreadList {
    fn clone(&self) -> SpreadList {
        SpreadList {
            groups: self.groups.clone(),
            shared: self.shared.clone(),
            listed: self.listed.clone(),
            free: self.free.clone(),
            single: self.single.clone(),
        }
    }

    fn clone_from(&mut self, src: &SpreadList) {
        self.groups.clone_from(&src.groups);
        self.shared.clone_from(&src.shared);
        self.listed.clone_from(&src.listed);
        self.free.clone_from(&src.free);
        self.single.clone_from(&src.single);
    }
}

impl SpreadList {
    fn clear(&mut self) {
        self.groups.clear();
        self.shared.clear();
        self.listed.clear();
        self.free.clear();
        self.single.clear();
    }

    /// The number of spreads.
    fn len(&self) -> usize {
        self.groups.last().map_or(0, |g| g.end as usize)
    }

    /// Adds a group of `count` spreads from `from`.
    fn push(&mut self, from: Option<u16>, source: SpreadSource, count: usize) {
        let end = self.len() + count;
        self.groups.push(SpreadGroup {
            from,
            end: end as u32,
            listed: self.listed.len() as u32,
            source,
        });
    }

    /// Where group `at`'s spreads start among all the spreads, and where
    /// its targets start in `listed` (both where the group before ends).
    fn starts(&self, at: usize) -> (usize, usize) {
        at.checked_sub(1)
            .and_then(|j| self.groups.get(j))
            .map_or((0, 0), |h| (h.end as usize, h.listed as usize))
    }

    /// A `Listed` group's targets.
    fn listed_targets(&self, at: usize) -> &[u16] {
        let end = self.groups.get(at).map_or(0, |g| g.listed as usize);
        self.listed.get(self.starts(at).1..end).unwrap_or_default()
    }

    /// The targets of group `at`, in order, to `f` until it returns false
    /// (then false). `adj` gives a piece's neighbours.
    fn each_target(
        &self,
        at: usize,
        adj: impl Fn(u16) -> Adjacent,
        mut f: impl FnMut(u16) -> bool,
    ) -> bool {
        let Some(g) = self.groups.get(at) else {
            return true;
        };
        match g.source {
            SpreadSource::Shared => self.shared.iter().all(|&t| f(t)),
            SpreadSource::Listed => self.listed_targets(at).iter().all(|&t| f(t)),
            SpreadSource::Others => {
                // Its neighbours that no other active piece touches are
                // left out.
                let from = g.from.map_or(Adjacent::EMPTY, adj);
                let only = |w: usize| {
                    let mut m = 0u64;
                    for &q in from.as_slice() {
                        if q as usize / 64 == w {
                            m |= 1 << (q % 64);
                        }
                    }
                    m & self.single.get(w).copied().unwrap_or(0)
                };
                self.free
                    .iter()
                    .enumerate()
                    .all(|(w, &a)| each_set_bit(&[a & !only(w)], |q| f((w * 64) as u16 + q)))
            }
        }
    }

    /// Every spread `(from, to)`, in order, to `f` until it returns false.
    fn each(&self, adj: impl Fn(u16) -> Adjacent, mut f: impl FnMut(Option<u16>, u16) -> bool) {
        for (at, g) in self.groups.iter().enumerate() {
            if !self.each_target(at, &adj, |t| f(g.from, t)) {
                return;
            }
        }
    }

    /// The `k`-th spread.
    fn nth(&self, k: usize, adj: impl Fn(u16) -> Adjacent) -> Option<(Option<u16>, u16)> {
        let at = self.groups.partition_point(|g| g.end as usize <= k);
        let g = self.groups.get(at)?;
        let mut i = k.checked_sub(self.starts(at).0)?;
        let to = match g.source {
            SpreadSource::Shared => self.shared.get(i).copied(),
            SpreadSource::Listed => self.listed_targets(at).get(i).copied(),
            SpreadSource::Others => {
                let mut to = None;
                self.each_target(at, adj, |t| {
                    if i == 0 {
                        to = Some(t);
                        return false;
                    }
                    i -= 1;
                    true
                });
                to
            }
        };
        Some((g.from, to?))
    }
}

/// One follower that may flee (its segment named once however many of
/// the player's followers share it), in `Plague::flight_from`.
#[derive(Clone, Copy, Debug)]
struct FlightGroup {
    /// The segment it stands on.
    start: NodeId,
    /// Where its flights end when all the groups' flights are counted one
    /// after another (they start where the previous group's end).
    end: u32,
    /// Where its destinations end in `Plague::flight_to` (they start where
    /// the previous group's end). A group with flights and none stored is
    /// a feature with no segment on a tile with a token: every other
    /// segment is a destination, searched only when a flight is built
    /// (most turns build one flight or none, and the walk that counts them
    /// costs a fraction of the search).
    stored: u32,
}

impl FlightGroup {
    /// Its number of flights and the range of its stored destinations,
    /// `prev` being the group before it.
    fn len(&self, prev: Option<&FlightGroup>) -> (u32, std::ops::Range<u32>) {
        let (end, stored) = prev.map_or((0, 0), |g| (g.end, g.stored));
        (self.end - end, stored..self.stored)
    }

    /// Whether its destinations are to be searched when built.
    fn unsearched(&self, prev: Option<&FlightGroup>) -> bool {
        let (count, stored) = self.len(prev);
        count > 0 && stored.is_empty()
    }
}

/// The most pieces whose tokens may change between two searches of the
/// flights that are kept by piece (a spread changes two, a merge flips a
/// few outbreaks); beyond that everything is searched again.
const STALE_PIECES: usize = 6;

/// What changed since the flights were searched: nothing, the tokens on a
/// few pieces (only the followers whose feature has a segment on one of
/// them can reach differently), or anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stale {
    /// The stored flights are those of the tokens as they are.
    No,
    /// A flea or an outbreak changed on these pieces.
    Pieces([u16; STALE_PIECES], u8),
    /// Search every follower again.
    All,
}

impl Stale {
    /// Records a change of the tokens on piece `pi`.
    fn add(&mut self, pi: u16) {
        *self = match *self {
            Stale::No => {
                let mut a = [0; STALE_PIECES];
                a[0] = pi;
                Stale::Pieces(a, 1)
            }
            Stale::Pieces(mut a, n) if (n as usize) < STALE_PIECES => {
                a[n as usize] = pi;
                Stale::Pieces(a, n + 1)
            }
            _ => Stale::All,
        };
    }
}

/// The Plague's tokens and the current turn's plague steps.
#[derive(Debug)]
pub struct Plague {
    supply: u8,
    /// Fleas on the board, ordered by the piece they lie on.
    fleas: Vec<Flea>,
    /// Outbreak tokens on the board; token number = index + 1.
    outbreaks: Vec<Outbreak>,
    /// Every source piece on the board (a seventh copy in a free-form deck
    /// gets no token but is still a source).
    sources: Vec<u16>,
    turn: Turn,
    // What follows is derived from the above and the board, kept so that
    // listing the legal actions does not search the board again; it takes
    // no part in equality.
    /// Pieces adjacent to each piece, for the pieces `0..adjacent.len()`.
    adjacent: Vec<Adjacent>,
    /// Pieces with a flea.
    flea_set: PieceSet,
    /// The index into `fleas` of the flea on each piece ([`NO_FLEA`] for
    /// none; pieces past the end have none).
    flea_index: Vec<u8>,
    /// Pieces with an active outbreak.
    active_set: PieceSet,
    /// Source pieces.
    source_set: PieceSet,
    /// Where each piece's border slots start in `slot_feature` and
    /// `slot_node`, for the pieces `0..slot_start.len()`. A piece has one
    /// slot per border place, in the order of [`border_slots`]: its own
    /// feature there and the segment across it, so a flight search reads
    /// who joins whom without asking the board.
    slot_start: Vec<u32>,
    /// The piece's own feature at each slot (`NO_FEATURE` where none).
    slot_feature: Vec<u8>,
    /// The segment across each slot (`NO_NODE` where none yet).
    slot_node: Vec<NodeId>,
    /// For each segment (node) of the pieces stored: where its piece's
    /// slots start, and a bit per slot of the piece that is this segment's
    /// (a flight search visits those slots only, not all of the piece's).
    node_slots: Vec<(u32, u64)>,
    /// How actions name each segment (node) of the pieces stored: the
    /// canonical place of its feature ([`Game::segment_anchor`]), fixed
    /// once its piece is down.
    node_anchor: Vec<FeatureAt>,
    /// Whether every piece stored has at most 64 slots, so that
    /// `node_slots` covers them all (always, for the catalog's shapes).
    slots_masked: bool,
    /// The legal spreads `(from, to)` of the current turn, in the order they
    /// are listed, while `spreads_valid`.
    spreads: SpreadList,
    /// Whether `spreads` was computed for the tokens and board as they are
    /// (set once the turn's tile is down, cleared by any change).
    spreads_valid: bool,
    /// The turn's flights, while `flights_stale` is empty and the board,
    /// the player and the followers are those they were searched for: per
    /// follower that may flee, in the order of [`Game::each_flight`], its
    /// index, its segment and where its destinations end in `flight_to`.
    /// The listings build the `flee` actions from them and the random
    /// player builds only the one it draws, instead of searching every
    /// follower's feature again.
    flight_from: Vec<FlightGroup>,
    /// The destinations of the groups of `flight_from`, one after another.
    flight_to: Vec<NodeId>,
    /// What changed on the board's tokens since the flights were searched.
    flights_stale: Stale,
    /// The number of pieces on the board when the flights were searched.
    flights_pieces: usize,
    /// The player the flights were searched for.
    flights_player: Seat,
    /// The followers as they were when the flights were searched.
    flights_followers: Vec<Follower>,
    /// A bit per segment on a piece with a flea or an active outbreak
    /// (none may be fled onto or across), kept as tokens come and go, so
    /// that a flight search starts from it as if those were visited.
    barred: Vec<u64>,
    /// Scratch for the searches that list spreads and flights, kept so
    /// that listing them does not allocate: spread targets (for the debug
    /// builds' check of the spreads), one flight search, one segment's
    /// neighbours, the flights' groups being replaced.
    scratch: (Vec<u16>, Vec<NodeId>, Vec<NodeId>, Vec<FlightGroup>),
}

// By hand, not derived: tree search copies a game into a reused scratch
// game with `clone_from`, which then reuses every vector's memory instead
// of allocating the Plague's state anew (the destructuring makes a new
// field a compile error here until it is copied).
impl Clone for Plague {
    fn clone(&self) -> Plague {
        Plague {
            supply: self.supply,
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
        }
    }

    fn clone_from(&mut self, src: &Plague) {
        let Plague {
            supply,
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
        } = src;
        self.supply = *supply;
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
    fn reserve_lists(&mut self, pieces: usize, segments: usize, followers: usize) {
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
    fn blank() -> Plague {
        Plague {
            supply: FLEAS,
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

    fn add_flea(&mut self, board: &Board, cat: &Catalog, piece: u16) {
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

    fn remove_flea(&mut self, board: &Board, cat: &Catalog, i: usize) {
        let f = self.fleas.remove(i);
        self.flea_set.set(f.piece, false);
        self.bar(board, cat, f.piece);
        self.index_fleas(f.piece);
        self.spreads_valid = false;
        self.flights_stale.add(f.piece);
    }

    fn add_outbreak(&mut self, board: &Board, cat: &Catalog, piece: u16) {
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
    fn eradicate(&mut self, board: &Board, cat: &Catalog, k: usize) {
        self.outbreaks[k].active = false;
        self.active_set.set(self.outbreaks[k].piece, false);
        self.bar(board, cat, self.outbreaks[k].piece);
        self.spreads_valid = false;
        self.flights_stale.add(self.outbreaks[k].piece);
    }
}

// ---------------------------------------------------------------------------
// Definitions: adjacent tiles, plague regions

/// The pieces adjacent to piece `pi`: those in orthogonally neighbouring
/// cells of any of its cells, and the other half of its own cell. Adjacency
/// is judged between occupied cells (`halfsies.md`): a single triangular gap
/// does not break it, so a half is adjacent to all four neighbouring cells
/// whichever of its sides face them.
pub fn adjacent_pieces(board: &Board, cat: &Catalog, pi: u16, out: &mut Vec<u16>) {
    out.clear();
    each_adjacent(board, cat, pi, |q| {
        if !out.contains(&q) {
            out.push(q);
        }
    });
}

/// [`adjacent_pieces`] on the stack: the same pieces in the same order.
fn board_adjacent(board: &Board, cat: &Catalog, pi: u16) -> Adjacent {
    let mut a = Adjacent::EMPTY;
    each_adjacent(board, cat, pi, |q| {
        if !a.as_slice().contains(&q) {
            a.push(q);
        }
    });
    a
}

/// Calls `f` with every piece adjacent to `pi`, in the order of
/// [`adjacent_pieces`], possibly more than once.
fn each_adjacent(board: &Board, cat: &Catalog, pi: u16, mut f: impl FnMut(u16)) {
    let piece = board.pieces()[pi as usize];
    for &(dx, dy) in &cat.tile(piece.tile).oriented(piece.rot).cells {
        let c = piece.pos.offset(dx, dy);
        let cells = [
            c,
            c.step(Side::N),
            c.step(Side::E),
            c.step(Side::S),
            c.step(Side::W),
        ];
        // A whole tile is alone in its cells: only a half shares its own.
        let from = usize::from(piece.corner.is_none());
        for &cell in &cells[from..] {
            for (q, _) in board.pieces_at(cell) {
                if q != pi {
                    f(q);
                }
            }
        }
    }
}

/// No segment across a border slot.
const NO_NODE: NodeId = NodeId::MAX;

/// Slots of each cell of a piece: its twelve border places, numbered as
/// [`Place::border`] numbers them.
const CELL_SLOTS: usize = 12;

/// Calls `f(own feature, across)` for every border slot of piece `pi`:
/// each place of each side of each cell (cells in order, sides N E S W, the
/// side's three places in order), then for a half the three places of its
/// long side. `across`, when a piece lies beyond: that piece, the number of
/// its own slot facing this one, and its segment there.
fn border_slots(
    board: &Board,
    cat: &Catalog,
    pi: u16,
    mut f: impl FnMut(u8, Option<(u16, usize, NodeId)>),
) {
    let piece = board.pieces()[pi as usize];
    let o = cat.tile(piece.tile).oriented(piece.rot);
    for (k, &(dx, dy)) in o.cells.iter().enumerate() {
        let pos = piece.pos.offset(dx, dy);
        for side in Side::ALL {
            let beyond = if o.sides[k][side.index()].present {
                board
                    .piece_facing(pos.step(side), side.opposite())
                    .filter(|(q, _)| *q != pi)
            } else {
                None
            };
            // The piece across and its places, looked up once a side
            // rather than once a place.
            let theirs = beyond.and_then(|(q, qpart)| {
                let places = board.part_places(cat, q, qpart)?;
                Some((q, qpart as usize * CELL_SLOTS, places))
            });
            for pl in side.places() {
                let across = theirs.and_then(|(q, slot0, places)| {
                    let fp = pl.facing()?;
                    Some((q, slot0 + fp.index(), places.node(fp)?))
                });
                f(o.place_feature[k][pl.index()], across);
            }
        }
    }
    if let Some(c) = piece.corner {
        let partner = board
            .pieces_at(piece.pos)
            .find(|(q, _)| *q != pi && board.pieces()[*q as usize].corner == Some(c.opposite()));
        // A half's long-side slots follow its one cell's: H1, H, H2, which
        // meet the partner's H2, H, H1.
        for (j, (mine, theirs)) in [
            (Place::H1, Place::H2),
            (Place::H, Place::H),
            (Place::H2, Place::H1),
        ]
        .into_iter()
        .enumerate()
        {
            let across = partner.and_then(|(q, qpart)| {
                let m = board.node_of(cat, q, qpart, theirs)?;
                Some((q, CELL_SLOTS + 2 - j, m))
            });
            f(o.place_feature[0][mine.index()], across);
        }
    }
}

/// Calls `f` with a bit per item for `n` items, all clear: on the stack for
/// a board of ordinary size.
fn with_bits<R>(n: usize, f: impl FnOnce(&mut [u64]) -> R) -> R {
    with_zeroed::<u64, 32, R>(n.div_ceil(64), f)
}

/// Calls `f` with `n` zeroed items: an array of `N` on the stack when
/// they fit, else a vector (a board far beyond any real game's).
fn with_zeroed<T: Copy + Default, const N: usize, R>(n: usize, f: impl FnOnce(&mut [T]) -> R) -> R {
    let mut stack = [T::default(); N];
    match stack.get_mut(..n) {
        Some(buf) => f(buf),
        None => f(&mut vec![T::default(); n]),
    }
}

/// Calls `f` with the index of every set bit of `bits`, lowest first,
/// until it returns false (then false).
fn each_set_bit(bits: &[u64], mut f: impl FnMut(u16) -> bool) -> bool {
    for (w, &word) in bits.iter().enumerate() {
        let mut word = word;
        while word != 0 {
            if !f((w * 64) as u16 + word.trailing_zeros() as u16) {
                return false;
            }
            word &= word - 1;
        }
    }
    true
}

/// Calls `f` with `n` segment ids (all 0) to write into: on the stack
/// for the feature lengths of real games, so that building one flight
/// does not allocate.
fn with_nodes<R>(n: usize, f: impl FnOnce(&mut [NodeId]) -> R) -> R {
    // Most flights built are among a feature's first few segments: a
    // short array is cheaper to zero than the long one.
    if n <= 32 {
        with_zeroed::<NodeId, 32, R>(n, f)
    } else {
        with_zeroed::<NodeId, 512, R>(n, f)
    }
}

/// Up to [`FLEAS`] + 1 pieces: the stack of a region search (a source and
/// the fleas it reaches, each pushed once).
type Stack = ([u16; FLEAS as usize + 1], usize);

impl Plague {
    /// Stores the adjacency of every piece placed since the last call (each
    /// new piece's neighbours, and the new piece in theirs).
    fn sync(&mut self, board: &Board, cat: &Catalog) {
        let n = board.pieces().len();
        while self.adjacent.len() < n {
            let pi = self.adjacent.len() as u16;
            let mut mine = Adjacent::EMPTY;
            each_adjacent(board, cat, pi, |q| {
                // Pieces placed later add themselves when their turn comes.
                if q < pi && !mine.as_slice().contains(&q) {
                    mine.push(q);
                }
            });
            for &q in mine.as_slice() {
                self.adjacent[q as usize].push(pi);
            }
            self.adjacent.push(mine);
            if is_source(cat, board.pieces()[pi as usize].tile) {
                self.source_set.set(pi, true);
            }
            let start = self.slot_node.len();
            self.slot_start.push(start as u32);
            let base = board.pieces()[pi as usize].node_base;
            let (fs, ns, starts) = (
                &mut self.slot_feature,
                &mut self.slot_node,
                &self.slot_start,
            );
            border_slots(board, cat, pi, |mine, across| {
                fs.push(mine);
                ns.push(across.map_or(NO_NODE, |(_, _, m)| m));
                // The piece across now faces this one: its slot there gets
                // this piece's segment (the relation is symmetric).
                if let Some((q, slot, _)) = across {
                    if let Some(&qs) = starts.get(q as usize) {
                        let own = if mine == NO_FEATURE {
                            NO_NODE
                        } else {
                            base + mine as NodeId
                        };
                        if let Some(x) = ns.get_mut(qs as usize + slot) {
                            *x = own;
                        }
                    }
                }
            });
            // How actions name this piece's segments.
            let piece = board.pieces()[pi as usize];
            let o = cat.tile(piece.tile).oriented(piece.rot);
            let nfeat = cat.tile(piece.tile).features.len();
            let need = base as usize + nfeat;
            if self.node_anchor.len() < need {
                let none = FeatureAt {
                    x: 0,
                    y: 0,
                    half: None,
                    place: Place::C,
                };
                self.node_anchor.resize(need, none);
            }
            for (fi, &(k, place)) in o.anchors.iter().enumerate().take(nfeat) {
                let (dx, dy) = o.cells[k as usize];
                let pos = piece.pos.offset(dx, dy);
                self.node_anchor[base as usize + fi] = FeatureAt {
                    x: pos.x as i16,
                    y: pos.y as i16,
                    half: piece.corner,
                    place,
                };
            }
            // This piece's segments and their slots.
            let slots = self.slot_node.len() - start;
            if slots > 64 {
                self.slots_masked = false;
            } else {
                if self.node_slots.len() < need {
                    self.node_slots.resize(need, (0, 0));
                }
                for fi in 0..nfeat {
                    self.node_slots[base as usize + fi] = (start as u32, 0);
                }
                for (k, &f) in self.slot_feature[start..].iter().enumerate() {
                    if f == NO_FEATURE {
                        continue;
                    }
                    if let Some(e) = self.node_slots.get_mut(base as usize + f as usize) {
                        e.1 |= 1 << k;
                    }
                }
            }
        }
    }

    /// The pieces adjacent to `pi`, in no particular order. From the stored
    /// adjacency while it covers the whole board (it does once the placing
    /// hook has run); otherwise searched on the board.
    #[inline]
    fn adjacent_to(&self, board: &Board, cat: &Catalog, pi: u16) -> Adjacent {
        if self.adjacent.len() == board.pieces().len() {
            if let Some(a) = self.adjacent.get(pi as usize) {
                return *a;
            }
        }
        board_adjacent(board, cat, pi)
    }

    /// Recomputes the plague regions after any change. An active region is
    /// an active outbreak's source tile plus every flea tile connected to it
    /// through adjacent flea tiles (two source tiles side by side are not
    /// connected by that alone). Fleas reached lie active side up, the others
    /// latent. When several active outbreaks share a region, all but the
    /// highest-numbered are flipped, and the regions are computed again.
    /// Returns the indexes of the outbreaks flipped, in order, and how many.
    fn recompute(&mut self, board: &Board, cat: &Catalog) -> ([u8; OUTBREAKS], usize) {
        let mut flipped = ([0u8; OUTBREAKS], 0);
        loop {
            let mut merged = self.region_pass(board, cat, false);
            if merged.1 > 1 {
                // The stored adjacency is not in board order, and the order
                // in which one pass meets several merged outbreaks is the
                // order of their events: the rare pass that flips more than
                // one is made again in board order.
                merged = self.region_pass(board, cat, true);
            }
            if merged.1 == 0 {
                return flipped;
            }
            for &k in &merged.0[..merged.1] {
                self.eradicate(board, cat, k as usize);
                if flipped.1 < OUTBREAKS {
                    flipped.0[flipped.1] = k;
                    flipped.1 += 1;
                }
            }
        }
    }

    /// One pass of [`Plague::recompute`]: sets every flea's region, and
    /// returns the active outbreaks met inside a higher one's region, in the
    /// order met (`in_board_order`: neighbours in the order of
    /// [`adjacent_pieces`]).
    fn region_pass(
        &mut self,
        board: &Board,
        cat: &Catalog,
        in_board_order: bool,
    ) -> ([u8; OUTBREAKS], usize) {
        for f in &mut self.fleas {
            f.region = None;
        }
        let mut merged = ([0u8; OUTBREAKS], 0usize);
        for o in (0..self.outbreaks.len()).rev() {
            if !self.outbreaks[o].active || merged.0[..merged.1].contains(&(o as u8)) {
                continue;
            }
            let mut stack: Stack = ([0; FLEAS as usize + 1], 0);
            stack.0[0] = self.outbreaks[o].piece;
            stack.1 = 1;
            // The source is the first entry; every other is a flea tile.
            let mut first = true;
            while stack.1 > 0 {
                stack.1 -= 1;
                let p = stack.0[stack.1];
                let is_flea = !std::mem::take(&mut first);
                let stored = if in_board_order {
                    board_adjacent(board, cat, p)
                } else {
                    self.adjacent_to(board, cat, p)
                };
                let list = stored.as_slice();
                for &q in list {
                    if let Some(i) = self.flea_on(q) {
                        if self.fleas[i].region.is_none() {
                            self.fleas[i].region = Some(o as u8);
                            stack.0[stack.1] = q;
                            stack.1 += 1;
                        }
                    } else if is_flea {
                        if let Some(k) = self.active_outbreak_on(q) {
                            let k = k as u8;
                            if k as usize != o
                                && !merged.0[..merged.1].contains(&k)
                                && merged.1 < OUTBREAKS
                            {
                                merged.0[merged.1] = k;
                                merged.1 += 1;
                            }
                        }
                    }
                }
            }
        }
        merged
    }

    /// Tiles a flea may be put on now, sorted by piece: no flea, not a
    /// source tile, adjacent to an active outbreak's tile or an active
    /// flea's tile. `lifted`: the index of a flea lifted to be moved, judged
    /// on the board without it (the regions it joined fall apart; it can
    /// join none, so no outbreak flips) and its own tile left out.
    fn spread_targets(
        &self,
        board: &Board,
        cat: &Catalog,
        lifted: Option<usize>,
        out: &mut Vec<u16>,
    ) {
        out.clear();
        // Room for every piece at once: grown within the first game, so
        // that a later deal's rarer, longer list allocates nothing.
        out.reserve(board.pieces().len());
        let lifted_piece = lifted.map(|i| self.fleas[i].piece);
        with_bits(board.pieces().len(), |targets| {
            // Marks the free tiles next to active piece `p`.
            let mut near = |p: u16| {
                for &q in self.adjacent_to(board, cat, p).as_slice() {
                    if Some(q) != lifted_piece && !self.flea_set.has(q) && !self.source_set.has(q) {
                        targets[q as usize / 64] |= 1 << (q % 64);
                    }
                }
            };
            let sources = self.outbreaks.iter().filter(|o| o.active);
            match lifted {
                None => {
                    for o in sources {
                        near(o.piece);
                    }
                    for f in self.fleas.iter().filter(|f| f.is_active()) {
                        near(f.piece);
                    }
                }
                Some(l) => {
                    // The regions without the lifted flea: every flea
                    // reached from an active source through flea tiles (one
                    // bit per index into `fleas`, at most 18).
                    let mut reached: u32 = 0;
                    let mut stack: Stack = ([0; FLEAS as usize + 1], 0);
                    for o in sources {
                        stack.0[0] = o.piece;
                        stack.1 = 1;
                        while stack.1 > 0 {
                            stack.1 -= 1;
                            let p = stack.0[stack.1];
                            // One look at the neighbours: fleas to go on
                            // with (the lifted one among them, skipped),
                            // free tiles to mark.
                            for &q in self.adjacent_to(board, cat, p).as_slice() {
                                if !self.flea_set.has(q) {
                                    if !self.source_set.has(q) {
                                        targets[q as usize / 64] |= 1 << (q % 64);
                                    }
                                } else if let Some(i) = self.flea_on(q) {
                                    if i != l && reached & (1 << i) == 0 {
                                        reached |= 1 << i;
                                        stack.0[stack.1] = q;
                                        stack.1 += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
            // In piece order, as listed.
            each_set_bit(targets, |q| {
                out.push(q);
                true
            });
        });
    }

    /// Every legal spread `(from, to)` in the order it is listed: `from` is
    /// `None` for a flea from the supply, else the piece a flea leaves. The
    /// flea comes from the supply while it has any; otherwise any latent
    /// flea moves; otherwise (all fleas active) any active one. A moving
    /// flea is lifted first: the target is judged on the board without it,
    /// and must be a new tile. (Whether the turn allows a spread at all is
    /// the caller's to ask.) `check`: room for the debug builds' check of
    /// [`Plague::all_active_spreads`].
    fn list_spreads(
        &self,
        board: &Board,
        cat: &Catalog,
        check: &mut Vec<u16>,
        out: &mut SpreadList,
    ) {
        out.clear();
        if self.supply > 0 {
            self.spread_targets(board, cat, None, &mut out.shared);
            out.push(None, SpreadSource::Shared, out.shared.len());
            return;
        }
        if self.fleas.iter().any(|fl| !fl.is_active()) {
            // Lifting a latent flea changes no active region, and a latent
            // flea never lies next to one.
            self.spread_targets(board, cat, None, &mut out.shared);
            for fl in self.fleas.iter().filter(|fl| !fl.is_active()) {
                out.push(Some(fl.piece), SpreadSource::Shared, out.shared.len());
            }
            return;
        }
        self.all_active_spreads(board, cat, check, out);
    }

    /// [`Plague::list_spreads`] when every flea on the board is active: any
    /// of them may move, each judged on the board without it. Lifting a
    /// flea that links no other flea to its source leaves every other flea
    /// active, so its targets are the tiles next to an active piece less
    /// those whose only active neighbour it was: one pass over the active
    /// pieces serves all such fleas, and they are counted, not listed
    /// ([`SpreadSource::Others`]). A flea whose lifting splits a region
    /// lists the free tiles next to the active sources and the fleas still
    /// reached, from the neighbours that pass kept. `check` is room for the
    /// debug builds' comparison with [`Plague::spread_targets`].
    fn all_active_spreads(
        &self,
        board: &Board,
        cat: &Catalog,
        check: &mut Vec<u16>,
        out: &mut SpreadList,
    ) {
        #[cfg(not(debug_assertions))]
        let _ = check;
        let n = self.fleas.len();
        // The fleas next to each flea, and those next to an active source
        // (a bit per index into `fleas`, at most 18).
        let mut links = [0u32; FLEAS as usize];
        let mut from_sources: u32 = 0;
        let flea_bits = |p: u16| {
            let mut m = 0u32;
            for &q in self.adjacent_to(board, cat, p).as_slice() {
                if let Some(j) = self.flea_on(q) {
                    m |= 1 << j;
                }
            }
            m
        };
        for (i, fl) in self.fleas.iter().enumerate().take(FLEAS as usize) {
            links[i] = flea_bits(fl.piece);
        }
        for o in self.outbreaks.iter().filter(|o| o.active) {
            from_sources |= flea_bits(o.piece);
        }
        let all: u32 = if n >= 32 { u32::MAX } else { (1 << n) - 1 };
        let words = board.pieces().len().div_ceil(64);
        // `free`: free tiles next to at least one active piece; `single`
        // first holds those next to at least two.
        out.free.resize(words, 0);
        out.single.resize(words, 0);
        // Each active piece's free neighbours, kept for the fleas whose
        // lifting splits a region.
        let mut flea_free = [Adjacent::EMPTY; FLEAS as usize];
        let mut source_free = [Adjacent::EMPTY; OUTBREAKS];
        let mut mark = |p: u16, keep: &mut Adjacent| {
            for &q in self.adjacent_to(board, cat, p).as_slice() {
                if !self.flea_set.has(q) && !self.source_set.has(q) {
                    let (w, b) = (q as usize / 64, 1u64 << (q % 64));
                    out.single[w] |= out.free[w] & b;
                    out.free[w] |= b;
                    keep.push(q);
                }
            }
        };
        for (o, keep) in self.outbreaks.iter().zip(source_free.iter_mut()) {
            if o.active {
                mark(o.piece, keep);
            }
        }
        for (fl, keep) in self.fleas.iter().zip(flea_free.iter_mut()) {
            mark(fl.piece, keep);
        }
        let mut free_count = 0;
        for (once, twice) in out.free.iter().zip(out.single.iter_mut()) {
            *twice = once & !*twice;
            free_count += once.count_ones() as usize;
        }
        for (l, fl) in self.fleas.iter().enumerate() {
            // The fleas still reached without flea `l`.
            let without = all & !(1 << l);
            let mut reached = from_sources & without;
            let mut todo = reached;
            while todo != 0 {
                let j = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let new = links.get(j).copied().unwrap_or(0) & without & !reached;
                reached |= new;
                todo |= new;
            }
            if l >= FLEAS as usize || reached != without {
                // Its targets: the free tiles next to an active source or
                // to a flea still reached, in piece order.
                let before = out.listed.len();
                with_bits(board.pieces().len(), |bits| {
                    let mut set = |q: u16| bits[q as usize / 64] |= 1 << (q % 64);
                    source_free
                        .iter()
                        .flat_map(|a| a.as_slice())
                        .for_each(|&q| set(q));
                    let mut todo = reached;
                    while todo != 0 {
                        let j = todo.trailing_zeros() as usize;
                        todo &= todo - 1;
                        flea_free
                            .get(j)
                            .into_iter()
                            .flat_map(|a| a.as_slice())
                            .for_each(|&q| set(q));
                    }
                    each_set_bit(bits, |q| {
                        out.listed.push(q);
                        true
                    });
                });
                let count = out.listed.len() - before;
                out.push(Some(fl.piece), SpreadSource::Listed, count);
                continue;
            }
            // Less its free neighbours that no other active piece touches.
            let only = flea_free
                .get(l)
                .map_or(&[][..], |a| a.as_slice())
                .iter()
                .filter(|&&q| {
                    out.single
                        .get(q as usize / 64)
                        .is_some_and(|w| w >> (q % 64) & 1 == 1)
                })
                .count();
            out.push(
                Some(fl.piece),
                SpreadSource::Others,
                free_count.saturating_sub(only),
            );
        }
        // Debug builds check every group against the search that judges
        // the board without the flea.
        // (Compared in place: the check allocates nothing either.)
        #[cfg(debug_assertions)]
        for (at, g) in out.groups.iter().enumerate() {
            self.spread_targets(board, cat, Some(at), check);
            let mut i = 0;
            out.each_target(
                at,
                |pi| self.adjacent_to(board, cat, pi),
                |t| {
                    debug_assert_eq!(check.get(i), Some(&t), "flea {at}'s spread {i}");
                    i += 1;
                    true
                },
            );
            debug_assert_eq!(i, check.len(), "flea {at}'s spreads");
            debug_assert_eq!(i, g.end as usize - out.starts(at).0, "flea {at}'s count");
        }
    }

    /// Lists the turn's spreads once the turn's tile is down, for the
    /// listings and checks that follow (the tokens do not change until a
    /// spread, which ends the spreading for the turn).
    fn prepare_spreads(&mut self, board: &Board, cat: &Catalog) {
        let mut spreads = std::mem::take(&mut self.spreads);
        if self.started() && !self.turn.source && !self.turn.spread {
            let mut targets = std::mem::take(&mut self.scratch.0);
            self.list_spreads(board, cat, &mut targets, &mut spreads);
            self.scratch.0 = targets;
            self.spreads_valid = true;
        } else {
            self.spreads_valid = false;
        }
        self.spreads = spreads;
    }
}

/// An event about an outbreak token (`extra` is its number).
fn token_event(board: &Board, reason: Reason, index: usize, piece: u16) -> Event {
    let p = board.pieces()[piece as usize];
    Event {
        reason,
        feature: None,
        at: Some((p.pos, p.corner, Place::C)),
        tiles: 0,
        extra: index as u32 + 1,
        points: [0; 6],
        followers: [0; 6],
        tile: Some(p.tile),
    }
}

impl Plague {
    /// Recomputes the regions and records every outbreak flipped by a merge.
    fn settle(&mut self, board: &Board, cat: &Catalog, events: &mut Vec<Event>) {
        let (flipped, n) = self.recompute(board, cat);
        for &k in &flipped[..n] {
            let piece = self.outbreaks[k as usize].piece;
            events.push(token_event(board, Reason::Eradicated, k as usize, piece));
        }
        self.spreads_valid = false;
    }
}

// ---------------------------------------------------------------------------
// The turn

impl Game {
    /// The Plague's tokens, when it is in play.
    pub fn plague(&self) -> Option<&Plague> {
        self.ext.plague.as_ref()
    }

    /// Step 1, eradication at the start of a turn (before the draw; not
    /// after the last turn). Only once the flea supply is empty: while no
    /// latent flea could be moved and more than one outbreak is active, the
    /// lowest-numbered active outbreak is flipped. Also clears the turn's
    /// plague steps.
    pub(crate) fn plague_turn_start(&mut self) {
        let Some(p) = self.ext.plague.as_mut() else {
            return;
        };
        p.turn = Turn::default();
        // Listed again once the turn's tile is down.
        p.spreads_valid = false;
        p.flights_stale = Stale::All;
        if p.supply == 0 {
            loop {
                let latent = p.fleas.iter().any(|f| !f.is_active());
                let active = p.outbreaks.iter().filter(|o| o.active).count();
                if latent || active <= 1 {
                    break;
                }
                let Some(k) = p.outbreaks.iter().position(|o| o.active) else {
                    break;
                };
                p.eradicate(&self.board, &self.rules.catalog, k);
                let piece = p.outbreaks[k].piece;
                self.events
                    .push(token_event(&self.board, Reason::Eradicated, k, piece));
                p.settle(&self.board, &self.rules.catalog, &mut self.events);
            }
        }
    }

    /// Step 3, a new outbreak: a placed source tile gets the next outbreak token,
    /// active. No follower on it and no spread this turn. If all 18 fleas
    /// formed one region and the new source is not connected to it, that
    /// region's outbreak is flipped (its fleas turn latent). Then the
    /// turn's spreads are listed for the steps that follow.
    pub(crate) fn plague_placed(&mut self, pi: u16) {
        let Some(p) = self.ext.plague.as_mut() else {
            return;
        };
        let cat = &*self.rules.catalog;
        p.sync(&self.board, cat);
        let tile = self.board.pieces()[pi as usize].tile;
        if is_source(cat, tile) {
            p.sources.push(pi);
        }
        if is_source(cat, tile) && p.outbreaks.len() < OUTBREAKS {
            p.turn.source = true;
            let one_region = match p.fleas.first() {
                Some(f) if p.supply == 0 && p.fleas.len() == FLEAS as usize => f
                    .region
                    .filter(|r| p.fleas.iter().all(|g| g.region == Some(*r))),
                _ => None,
            };
            let k = p.outbreaks.len();
            p.add_outbreak(&self.board, cat, pi);
            self.events
                .push(token_event(&self.board, Reason::Outbreak, k, pi));
            if let Some(r) = one_region {
                let nb = p.adjacent_to(&self.board, cat, pi);
                if !nb.as_slice().iter().any(|&q| p.flea_set.has(q)) {
                    let r = r as usize;
                    p.eradicate(&self.board, cat, r);
                    let old = p.outbreaks[r].piece;
                    self.events
                        .push(token_event(&self.board, Reason::Eradicated, r, old));
                }
            }
            p.settle(&self.board, cat, &mut self.events);
        }
        p.prepare_spreads(&self.board, cat);
        self.prepare_flights();
    }

    /// Why no follower may go onto the piece just placed: it has a flea, or
    /// it is a source with an active outbreak (the turn it was placed, and
    /// while its outbreak stays active).
    pub(crate) fn plague_follower_ban(&self) -> Option<&'static str> {
        let p = self.ext.plague.as_ref()?;
        let pi = self.last?;
        if p.flea_on(pi).is_some() {
            return Some("a follower may never go onto a tile with a flea");
        }
        if p.active_outbreak_on(pi).is_some() {
            return Some("no follower may go onto a plague source with an active outbreak");
        }
        None
    }

    /// Whether the tile of the turn is down, so that plague actions may be
    /// taken (in the follower step or the plague step after it).
    fn plague_turn_open(&self) -> bool {
        matches!(self.phase, Phase::Follower | Phase::Plague)
            && self.ext.plague.as_ref().is_some_and(Plague::started)
    }

    // -- 4. Spread ---------------------------------------------------------

    /// Calls `f(from, to)` for every legal spread until it returns false:
    /// `from` is `None` for a flea from the supply, else the piece a flea
    /// leaves. The flea comes from the supply while it has any; otherwise
    /// any latent flea moves; otherwise (all fleas active) any active one.
    /// A moving flea is lifted first: the target is judged on the board
    /// without it, and must be a new tile.
    fn each_spread(&self, f: impl FnMut(Option<u16>, u16) -> bool) {
        let Some(p) = &self.ext.plague else {
            return;
        };
        if !self.plague_turn_open() || p.turn.source || p.turn.spread {
            return;
        }
        let fresh;
        let spreads = if p.spreads_valid {
            &p.spreads
        } else {
            // Only if some path changed the tokens or the board without the
            // placing hook: list them now.
            let mut v = SpreadList::default();
            p.list_spreads(&self.board, &self.rules.catalog, &mut Vec::new(), &mut v);
            fresh = v;
            &fresh
        };
        let cat = &*self.rules.catalog;
        spreads.each(|pi| p.adjacent_to(&self.board, cat, pi), f);
    }

    /// Whether the current player still has to spread the plague this turn
    /// (a spread is owed and some tile can take a flea). The turn cannot end
    /// while it is.
    pub fn spread_owed(&self) -> bool {
        let mut any = false;
        self.each_spread(|_, _| {
            any = true;
            false
        });
        any
    }

    fn tile_at(&self, pos: Pos, corner: Option<Corner>) -> Option<u16> {
        self.board
            .pieces_at(pos)
            .find(|(q, _)| self.board.pieces()[*q as usize].corner == corner)
            .map(|(q, _)| q)
    }

    /// How a legal action names piece `pi`: its anchor cell (board cells
    /// always fit in 16 bits: see `board.rs`).
    fn tile_anchor(&self, pi: u16) -> TileAt {
        let p = self.board.pieces()[pi as usize];
        TileAt {
            x: p.pos.x as i16,
            y: p.pos.y as i16,
            half: p.corner,
        }
    }

    fn try_spread(&mut self, to: TileAt, from: Option<TileAt>) -> Result<(), IllegalAction> {
        let (to, to_corner) = (to.pos(), to.half);
        let from = from.map(|f| (f.pos(), f.half));
        let cat = &*self.rules.catalog;
        let Some(p) = &self.ext.plague else {
            return Err(illegal("plague", "the Plague is not in play in this game"));
        };
        if p.turn.source {
            return Err(illegal(
                "plague",
                "a plague source was placed this turn: the plague does not spread this turn",
            ));
        }
        if p.turn.spread {
            return Err(illegal(
                "plague",
                "the plague has already spread this turn (once per turn)",
            ));
        }
        let target = self
            .tile_at(to, to_corner)
            .ok_or_else(|| illegal("plague", format!("there is no tile at {to}")))?;
        let (origin, lifted) = match from {
            None if p.supply > 0 => (None, None),
            None => {
                return Err(illegal(
                    "plague",
                    "the flea supply is empty: move a flea on the board (add \"from\")",
                ))
            }
            Some(_) if p.supply > 0 => {
                return Err(illegal(
                    "plague",
                    "fleas come from the supply while it has any: leave out \"from\"",
                ))
            }
            Some((fp, fc)) => {
                let o = self
                    .tile_at(fp, fc)
                    .ok_or_else(|| illegal("plague", format!("there is no tile at {fp}")))?;
                let i = p.flea_on(o).ok_or_else(|| {
                    illegal("plague", format!("no flea lies on the tile at {fp}"))
                })?;
                if p.fleas[i].is_active() && p.fleas.iter().any(|f| !f.is_active()) {
                    return Err(illegal(
                        "plague",
                        format!("the flea at {fp} is active: while a latent flea lies on the board, a latent one moves"),
                    ));
                }
                if o == target {
                    return Err(illegal("plague", "a moving flea must go to a new tile"));
                }
                (Some(o), Some(i))
            }
        };
        // The lifted flea is not on `target` (checked just above).
        if p.flea_set.has(target) {
            return Err(illegal(
                "plague",
                format!("the tile at {to} already has a flea"),
            ));
        }
        if is_source(cat, self.board.pieces()[target as usize].tile) {
            return Err(illegal(
                "plague",
                "a flea never goes onto a plague source tile",
            ));
        }
        // A lifted latent flea changes no region: the fleas' regions as
        // they lie are those of the board without it.
        let lifted = lifted.filter(|&i| p.fleas[i].is_active());
        let mut targets = Vec::new();
        p.spread_targets(&self.board, cat, lifted, &mut targets);
        if !targets.contains(&target) {
            return Err(illegal(
                "plague",
                format!("the tile at {to} is not next to an active outbreak or an active flea"),
            ));
        }
        self.spread(target, origin);
        Ok(())
    }

    /// Applies a legal spread onto piece `target`, from the supply
    /// (`origin` `None`) or moving the flea on piece `origin`.
    fn spread(&mut self, target: u16, origin: Option<u16>) {
        // Every follower on the tile goes home unscored; then the flea lands.
        self.remove_followers_on(target);
        let Some(p) = self.ext.plague.as_mut() else {
            return;
        };
        match origin.and_then(|o| p.flea_on(o)) {
            Some(i) => p.remove_flea(&self.board, &self.rules.catalog, i),
            None => p.supply = p.supply.saturating_sub(1),
        }
        p.add_flea(&self.board, &self.rules.catalog, target);
        p.turn.spread = true;
        p.settle(&self.board, &self.rules.catalog, &mut self.events);
        self.prepare_flights();
    }

    /// A legal `flea` action, unchecked.
    fn spread_trusted(&mut self, to: TileAt, from: Option<TileAt>) {
        let Some(target) = self.tile_at(to.pos(), to.half) else {
            return;
        };
        let origin = from.and_then(|f| self.tile_at(f.pos(), f.half));
        self.spread(target, origin);
    }

    /// Sends home every follower on piece `pi`, unscored, with an event each.
    fn remove_followers_on(&mut self, pi: u16) {
        let mut i = 0;
        while i < self.followers.len() {
            let f = self.followers[i];
            if f.piece != pi {
                i += 1;
                continue;
            }
            let node = self.node(pi, f.feature);
            let kind = self.board.features().kind(node);
            let (pos, place) = self.feature_anchor(pi, f.feature);
            let corner = self.board.pieces()[pi as usize].corner;
            self.board.features_mut().add_followers(node, -1);
            self.followers.remove(i);
            self.follower_home(f);
            let mut followers = [0u8; 6];
            followers[f.player.index()] = 1;
            self.events.push(Event {
                reason: Reason::Plague,
                feature: Some(kind),
                at: Some((pos, corner, place)),
                tiles: 0,
                extra: 0,
                points: [0; 6],
                followers,
                tile: None,
            });
        }
    }

    // -- 5. Flight ---------------------------------------------------------

    /// The segments joined to segment `n` across its piece's sides (and
    /// across the long side of a half), in the order of [`border_slots`].
    fn segment_neighbours(&self, p: &Plague, n: NodeId, out: &mut Vec<NodeId>) {
        out.clear();
        let (pi, fi) = self.board.features().origin(n);
        let mut add = |m: NodeId| {
            if !out.contains(&m) {
                out.push(m);
            }
        };
        if p.slot_start.len() == self.board.pieces().len() {
            let start = p.slot_start[pi as usize] as usize;
            let end = p
                .slot_start
                .get(pi as usize + 1)
                .map_or(p.slot_node.len(), |&e| e as usize);
            for (&mine, &m) in p.slot_feature[start..end]
                .iter()
                .zip(&p.slot_node[start..end])
            {
                if mine == fi && m != NO_NODE {
                    add(m);
                }
            }
            return;
        }
        // Not stored yet (only before the placing hook has run): ask the
        // board.
        border_slots(&self.board, &self.rules.catalog, pi, |mine, other| {
            if let Some((_, _, m)) = other.filter(|_| mine == fi) {
                add(m);
            }
        });
    }

    /// Starts a flight search's `seen` (a bit per segment, all clear) from
    /// [`Plague::barred`]: the segments on tiles with a token are met as if
    /// visited.
    fn start_seen(&self, p: &Plague, seen: &mut [u64]) {
        debug_assert!(
            (0..self.board.features().len() as NodeId).all(|n| {
                let bit = p
                    .barred
                    .get(n as usize / 64)
                    .is_some_and(|w| w >> (n % 64) & 1 == 1);
                bit != p.is_clear(self.board.features().origin(n).0)
            }),
            "the barred segments are those on tiles with a token"
        );
        for (s, b) in seen.iter_mut().zip(&p.barred) {
            *s = *b;
        }
    }

    /// Whether the Plague's state `p` stores the slots of every piece on
    /// the board (then a flight search reads them instead of asking the
    /// board).
    fn slots_stored(&self, p: &Plague) -> bool {
        p.slots_masked && p.slot_start.len() == self.board.pieces().len()
    }

    /// The number of segments of the feature of segment `n`, and whether
    /// any of them lies on a tile with a token: one walk of the feature's
    /// member list, several times cheaper than a flight search. With no
    /// such segment every other segment is a destination
    /// ([`Game::flight_reach`] reaches them all).
    fn feature_walk(&self, p: &Plague, n: NodeId) -> (usize, bool) {
        let mut count = 0;
        let mut barred = false;
        for m in self.board.features().members(n) {
            count += 1;
            barred |= p
                .barred
                .get(m as usize / 64)
                .is_some_and(|w| w >> (m % 64) & 1 == 1);
        }
        (count, barred)
    }

    /// The segments a follower on segment `start` can flee to, into `out`:
    /// `start` first, then every segment of the same feature reachable
    /// through segments on tiles with no flea and no active outbreak, in
    /// the order met. Returns how many were written: the search stops when
    /// `out` is full, so `out` as long as the feature has segments holds
    /// them all, and a shorter one holds the first ones (that is all
    /// building the `k`-th flight needs). `seen` is as [`Game::start_seen`]
    /// leaves it (or all clear, for a feature with no segment on a tile
    /// with a token), and is left so.
    fn flight_reach(
        &self,
        p: &Plague,
        start: NodeId,
        seen: &mut [u64],
        nb: &mut Vec<NodeId>,
        out: &mut [NodeId],
    ) -> usize {
        let Some(first) = out.first_mut() else {
            return 0;
        };
        *first = start;
        let mut len = 1;
        let mut mark = |n: NodeId| {
            let (w, b) = (n as usize / 64, n % 64);
            let new = seen[w] & (1 << b) == 0;
            seen[w] |= 1 << b;
            new
        };
        // A follower on a barred segment still leaves from it; its bit
        // stays set.
        let start_free = mark(start);
        let stored = self.slots_stored(p);
        let mut i = 0;
        'search: while i < len && len < out.len() {
            let n = out[i];
            i += 1;
            if let Some(&(s, mut mask)) = p.node_slots.get(n as usize).filter(|_| stored) {
                // The segment's own slots, in order: the same segments in
                // the same order as `segment_neighbours` (a segment met
                // twice is marked the first time).
                while mask != 0 {
                    let k = mask.trailing_zeros() as usize;
                    mask &= mask - 1;
                    let m = p.slot_node.get(s as usize + k).copied().unwrap_or(NO_NODE);
                    // Barred segments are marked already.
                    if m != NO_NODE && mark(m) {
                        out[len] = m;
                        len += 1;
                        if len == out.len() {
                            break 'search;
                        }
                    }
                }
                continue;
            }
            self.segment_neighbours(p, n, nb);
            for &m in nb.iter() {
                if mark(m) {
                    out[len] = m;
                    len += 1;
                    if len == out.len() {
                        break 'search;
                    }
                }
            }
        }
        debug_assert!(
            out[1..len]
                .iter()
                .all(|&m| p.is_clear(self.board.features().origin(m).0)),
            "no flight enters a tile with a token"
        );
        let from = usize::from(!start_free);
        for &n in &out[from..len] {
            seen[n as usize / 64] &= !(1 << (n % 64));
        }
        len
    }

    /// [`Game::flight_reach`] into `reach`, made as long as the feature
    /// has segments: all of them.
    fn flight_reach_all(
        &self,
        p: &Plague,
        start: NodeId,
        seen: &mut [u64],
        (reach, nb): (&mut Vec<NodeId>, &mut Vec<NodeId>),
        segments: usize,
    ) {
        reach.resize(segments.max(1), 0);
        let len = self.flight_reach(p, start, seen, nb, reach);
        reach.truncate(len);
    }

    /// Whether a follower may flee now with the Plague's state `p` (which
    /// may be out of `self.ext`: the turn is asked of it).
    fn flight_turn(&self, p: &Plague) -> bool {
        matches!(self.phase, Phase::Follower | Phase::Plague) && p.started() && !p.turn.fled
    }

    /// The current player's followers that may flee, as (index, segment):
    /// no monk, and one follower per segment.
    fn fleeing_followers(&self) -> impl Iterator<Item = (usize, NodeId)> + '_ {
        self.followers
            .iter()
            .enumerate()
            .filter(|&(i, fl)| {
                fl.player == self.current
                    && self.follower_kind(fl) != FeatureKind::Monastery
                    && !self.followers[..i].iter().any(|g| {
                        g.player == fl.player && g.piece == fl.piece && g.feature == fl.feature
                    })
            })
            .map(|(i, fl)| (i, self.node(fl.piece, fl.feature)))
    }

    /// Calls `f(follower index, destination segment)` for every legal
    /// flight with the Plague's state `p`: once per turn, one of the current
    /// player's followers (never a monk) moves to another segment of its
    /// road, city or field.
    fn each_flight(
        &self,
        p: &Plague,
        (reach, nb): (&mut Vec<NodeId>, &mut Vec<NodeId>),
        mut f: impl FnMut(usize, NodeId),
    ) {
        if !self.flight_turn(p) || !self.followers.iter().any(|fl| fl.player == self.current) {
            return;
        }
        with_bits(self.board.features().len(), |seen| {
            self.start_seen(p, seen);
            for (i, start) in self.fleeing_followers() {
                let (segments, _) = self.feature_walk(p, start);
                self.flight_reach_all(p, start, seen, (reach, nb), segments);
                for &m in reach.get(1..).unwrap_or_default() {
                    f(i, m);
                }
            }
        });
    }

    /// How a `flee` action names segment `n`: from the names stored when
    /// its piece went down, or asked of the board before that.
    fn flight_anchor(&self, p: &Plague, n: NodeId) -> FeatureAt {
        match p.node_anchor.get(n as usize) {
            Some(a) if p.node_anchor.len() == self.board.features().len() => *a,
            _ => self.segment_anchor(n),
        }
    }

    /// Pushes the legal `flee` actions onto `out`, in the order of
    /// [`Game::each_flight`] (one follower's flights come together: its
    /// segment is named once).
    fn list_flights(
        &self,
        p: &Plague,
        scratch: (&mut Vec<NodeId>, &mut Vec<NodeId>),
        out: &mut Vec<Action>,
    ) {
        let mut from: Option<(usize, FeatureAt)> = None;
        self.each_flight(p, scratch, |i, m| {
            let a = match from {
                Some((j, a)) if j == i => a,
                _ => {
                    let f = self.followers[i];
                    let a = self.flight_anchor(p, self.node(f.piece, f.feature));
                    from = Some((i, a));
                    a
                }
            };
            out.push(Action::Flee {
                from: a,
                to: self.flight_anchor(p, m),
            });
        });
    }

    /// Pushes the stored flights onto `out` as `flee` actions, in the order
    /// of [`Game::list_flights`].
    fn push_stored_flights(&self, p: &Plague, out: &mut Vec<Action>) {
        let mut prev = None;
        for g in &p.flight_from {
            let (count, stored) = g.len(prev);
            prev = Some(g);
            if count == 0 {
                continue;
            }
            let from = self.flight_anchor(p, g.start);
            let mut push = |to: &[NodeId]| {
                out.extend(to.iter().map(|&m| Action::Flee {
                    from,
                    to: self.flight_anchor(p, m),
                }));
            };
            if stored.is_empty() {
                self.search_unsearched(p, g.start, count as usize + 1, |reach| {
                    push(reach.get(1..).unwrap_or_default());
                });
            } else if let Some(to) = p.flight_to.get(stored.start as usize..stored.end as usize) {
                push(to);
            }
        }
    }

    /// The `k`-th stored flight as a `flee` action.
    fn nth_stored_flight(&self, p: &Plague, k: usize) -> Option<Action> {
        let at = p.flight_from.partition_point(|g| g.end as usize <= k);
        let g = p.flight_from.get(at)?;
        let prev = at.checked_sub(1).and_then(|j| p.flight_from.get(j));
        let i = k - prev.map_or(0, |g| g.end as usize);
        let to = if g.unsearched(prev) {
            // Searched as far as the destination only.
            self.search_unsearched(p, g.start, i + 2, |reach| reach.get(i + 1).copied())?
        } else {
            *p.flight_to.get(g.len(prev).1.start as usize + i)?
        };
        Some(Action::Flee {
            from: self.flight_anchor(p, g.start),
            to: self.flight_anchor(p, to),
        })
    }

    /// Calls `f` with the first `n` segments a flight search from `start`
    /// meets ([`Game::flight_reach`]), for a group stored unsearched
    /// ([`FlightGroup::stored`]): its feature has no segment on a tile with
    /// a token, so the search starts with nothing seen, and the slots are
    /// stored (it was stored so only then), so it asks nothing of the
    /// board and fills no neighbour list.
    fn search_unsearched<R>(
        &self,
        p: &Plague,
        start: NodeId,
        n: usize,
        f: impl FnOnce(&[NodeId]) -> R,
    ) -> R {
        with_bits(self.board.features().len(), |seen| {
            with_nodes(n, |buf| {
                let len = self.flight_reach(p, start, seen, &mut Vec::new(), buf);
                f(&buf[..len])
            })
        })
    }

    /// Whether the stored flights are those of the game as it is: searched
    /// for these tokens, this board, this player and these followers.
    fn flights_current(&self, p: &Plague) -> bool {
        p.flights_stale == Stale::No
            && p.flights_pieces == self.board.pieces().len()
            && p.flights_player == self.current
            && p.flights_followers == self.followers
    }

    /// Searches the flights into the Plague's state for the listings that
    /// follow, unless the stored ones are still current. Called wherever
    /// the module changes what they depend on within a turn (the tile
    /// down, a spread, the follower step over); anything else that changes
    /// them is caught by [`Game::flights_current`].
    fn prepare_flights(&mut self) {
        if let Some(p) = &self.ext.plague {
            if !self.flights_current(p) {
                self.search_flights();
            }
        }
    }

    /// [`Game::prepare_flights`]'s search, in the order of
    /// [`Game::each_flight`]. A follower searched before on the same board
    /// for the same player keeps its destinations unless its feature has a
    /// segment on a piece whose tokens changed since (only such a piece
    /// can open or close a way along it), so a spread or a follower placed
    /// searches again only the followers it can concern.
    fn search_flights(&mut self) {
        // Only the vectors written are taken out: the search reads the rest
        // of the state where it lies (moving the whole state out and back
        // costs about as much as searching a small feature).
        let Some(p) = self.ext.plague.as_mut() else {
            return;
        };
        let mut old_from = std::mem::take(&mut p.flight_from);
        let mut to = std::mem::take(&mut p.flight_to);
        let (mut reach, mut nb) = (
            std::mem::take(&mut p.scratch.1),
            std::mem::take(&mut p.scratch.2),
        );
        let mut new_from = std::mem::take(&mut p.scratch.3);
        let mut followers = std::mem::take(&mut p.flights_followers);
        let Some(p) = self.ext.plague.as_ref() else {
            return;
        };
        let feats = self.board.features();
        // The features (roots) the changed pieces lie on.
        let mut stale = [0 as NodeId; 32];
        let mut n_stale = 0;
        let mut keep =
            p.flights_pieces == self.board.pieces().len() && p.flights_player == self.current;
        match p.flights_stale {
            Stale::No => {}
            Stale::All => keep = false,
            Stale::Pieces(pieces, n) => {
                for &q in &pieces[..n as usize] {
                    let Some(piece) = self.board.pieces().get(q as usize) else {
                        keep = false;
                        break;
                    };
                    let nfeat = self.rules.catalog.tile(piece.tile).features.len();
                    for fi in 0..nfeat {
                        let r = feats.root(piece.node_base + fi as NodeId);
                        if stale[..n_stale].contains(&r) {
                            continue;
                        }
                        if n_stale == stale.len() {
                            keep = false;
                            break;
                        }
                        stale[n_stale] = r;
                        n_stale += 1;
                    }
                }
            }
        }
        if !keep {
            old_from.clear();
        }
        // The new destinations go after the old ones, which are dropped at
        // the end.
        let old_len = to.len();
        new_from.clear();
        let slots = self.slots_stored(p);
        let mut end = 0u32;
        if self.flight_turn(p) {
            with_bits(feats.len(), |seen| {
                self.start_seen(p, seen);
                // The followers of `fleeing_followers`, each segment once:
                // a segment already grouped is one searched (this walks
                // only the player's groups, not every earlier follower).
                for fl in &self.followers {
                    if fl.player != self.current {
                        continue;
                    }
                    let start = self.node(fl.piece, fl.feature);
                    debug_assert_eq!(feats.kind(start), self.follower_kind(fl));
                    if feats.kind(start) == FeatureKind::Monastery
                        || new_from.iter().any(|g| g.start == start)
                    {
                        continue;
                    }
                    let kept = old_from
                        .iter()
                        .position(|g| g.start == start)
                        .filter(|_| n_stale == 0 || !stale[..n_stale].contains(&feats.root(start)));
                    match kept {
                        Some(j) => {
                            let (count, stored) = old_from[j].len(old_from.get(j.wrapping_sub(1)));
                            to.extend_from_within(stored.start as usize..stored.end as usize);
                            end += count;
                        }
                        None => {
                            let (segments, barred) = self.feature_walk(p, start);
                            // Unbarred: every other segment, searched only
                            // if one is built (debug builds search it now
                            // to check the walk).
                            let unsearched = !barred && slots;
                            if !unsearched || cfg!(debug_assertions) {
                                self.flight_reach_all(
                                    p,
                                    start,
                                    seen,
                                    (&mut reach, &mut nb),
                                    segments,
                                );
                            }
                            if unsearched {
                                debug_assert_eq!(
                                    reach.len(),
                                    segments,
                                    "a walk and a search disagree"
                                );
                                end += segments.saturating_sub(1) as u32;
                            } else {
                                to.extend_from_slice(reach.get(1..).unwrap_or_default());
                                end += reach.len().saturating_sub(1) as u32;
                            }
                        }
                    }
                    new_from.push(FlightGroup {
                        start,
                        end,
                        stored: (to.len() - old_len) as u32,
                    });
                }
            });
        }
        to.drain(..old_len);
        // As much room as the game's own list has (set for every follower
        // in play), so that a later deal with more followers down at once
        // allocates nothing.
        followers.clear();
        followers.reserve(self.followers.capacity());
        followers.extend_from_slice(&self.followers);
        let (pieces, current) = (self.board.pieces().len(), self.current);
        let Some(p) = self.ext.plague.as_mut() else {
            return;
        };
        p.flight_from = new_from;
        p.flight_to = to;
        p.scratch.3 = old_from;
        p.scratch.1 = reach;
        p.scratch.2 = nb;
        p.flights_stale = Stale::No;
        p.flights_pieces = pieces;
        p.flights_player = current;
        p.flights_followers = followers;
    }

    /// How a legal action names segment `n`: the canonical place of its
    /// feature on its piece.
    fn segment_anchor(&self, n: NodeId) -> FeatureAt {
        let (pi, fi) = self.board.features().origin(n);
        let (pos, place) = self.feature_anchor(pi, fi);
        FeatureAt {
            x: pos.x as i16,
            y: pos.y as i16,
            half: self.board.pieces()[pi as usize].corner,
            place,
        }
    }

    fn try_flee(&mut self, from: FeatureAt, to: FeatureAt) -> Result<(), IllegalAction> {
        let from = (from.pos(), from.half, from.place);
        let to = (to.pos(), to.half, to.place);
        let Some(p) = &self.ext.plague else {
            return Err(illegal("plague", "the Plague is not in play in this game"));
        };
        if p.turn.fled {
            return Err(illegal(
                "flight",
                "a follower has already fled this turn (one flight per turn)",
            ));
        }
        let cat = &*self.rules.catalog;
        let start = self
            .board
            .node_at(cat, from.0, from.1, from.2)
            .ok_or_else(|| {
                illegal(
                    "flight",
                    format!("there is no feature at {} {}", from.0, from.2),
                )
            })?;
        let (pi, fi) = self.board.features().origin(start);
        let who = self
            .followers
            .iter()
            .position(|f| f.player == self.current && f.piece == pi && f.feature == fi)
            .ok_or_else(|| {
                illegal(
                    "flight",
                    format!(
                        "you have no follower on the feature at {} {}",
                        from.0, from.2
                    ),
                )
            })?;
        if self.follower_kind(&self.followers[who]) == FeatureKind::Monastery {
            return Err(illegal("flight", "monks in monasteries never flee"));
        }
        let dest = self.board.node_at(cat, to.0, to.1, to.2).ok_or_else(|| {
            illegal(
                "flight",
                format!("there is no feature at {} {}", to.0, to.2),
            )
        })?;
        let feats = self.board.features();
        if feats.root(dest) != feats.root(start) {
            return Err(illegal(
                "flight",
                "a follower flees only along its own road, city or field",
            ));
        }
        if dest == start {
            return Err(illegal(
                "flight",
                "the follower must flee to another part of its feature",
            ));
        }
        let (mut reach, mut nb) = (Vec::new(), Vec::new());
        let (segments, _) = self.feature_walk(p, start);
        with_bits(self.board.features().len(), |seen| {
            self.start_seen(p, seen);
            self.flight_reach_all(p, start, seen, (&mut reach, &mut nb), segments)
        });
        if !reach.contains(&dest) {
            return Err(illegal(
                "flight",
                "a follower may not flee onto or across a tile with a flea or an active outbreak",
            ));
        }
        self.flee(who, dest);
        Ok(())
    }

    /// Moves follower `who` to segment `dest`: the turn's flight.
    fn flee(&mut self, who: usize, dest: NodeId) {
        let (qi, qf) = self.board.features().origin(dest);
        let f = &mut self.followers[who];
        f.piece = qi;
        f.feature = qf;
        if let Some(p) = &mut self.ext.plague {
            p.turn.fled = true;
        }
    }

    /// A legal `flee` action, unchecked (no search along the feature).
    fn flee_trusted(&mut self, from: FeatureAt, to: FeatureAt) {
        let cat = &*self.rules.catalog;
        let node = |a: FeatureAt| self.board.node_at(cat, a.pos(), a.half, a.place);
        let (Some(start), Some(dest)) = (node(from), node(to)) else {
            return;
        };
        let (pi, fi) = self.board.features().origin(start);
        let who = self
            .followers
            .iter()
            .position(|f| f.player == self.current && f.piece == pi && f.feature == fi);
        if let Some(who) = who {
            self.flee(who, dest);
        }
    }

    // -- The plague actions in the turn -------------------------------------

    /// The legal `flea` and `flee` actions (follower step and plague step).
    pub(crate) fn plague_actions(&self, out: &mut Vec<Action>) {
        self.each_spread(|from, to| {
            out.push(Action::Flea {
                to: self.tile_anchor(to),
                from: from.map(|o| self.tile_anchor(o)),
            });
            true
        });
        let Some(p) = &self.ext.plague else {
            return;
        };
        if !self.plague_turn_open() || p.turn.fled {
            return;
        }
        if self.flights_current(p) {
            let before = out.len();
            self.push_stored_flights(p, out);
            // Debug builds check the stored flights against a fresh search.
            #[cfg(debug_assertions)]
            {
                let mut fresh = Vec::new();
                self.list_flights(p, (&mut Vec::new(), &mut Vec::new()), &mut fresh);
                debug_assert_eq!(fresh, out[before..], "stored flights out of date");
            }
            let _ = before;
        } else {
            self.list_flights(p, (&mut Vec::new(), &mut Vec::new()), out);
        }
    }

    /// [`Expansion::pick_step_action`] in the follower step and the
    /// plague step: the list there is the follower step's own actions (or
    /// nothing), the spreads, the flights, then the plague step's `pass`
    /// unless a spread is owed. The spreads and flights stored for the
    /// turn are counted, and only the action picked is built. `None` (before
    /// any pick) when the stored ones are not current.
    fn plague_pick_action(
        &self,
        buf: &mut Vec<Action>,
        pick: &mut crate::expansions::Pick<'_>,
    ) -> Option<Action> {
        let p = self.ext.plague.as_ref()?;
        let follower_step = match self.phase {
            Phase::Follower => true,
            Phase::Plague => false,
            _ => return None,
        };
        let open = self.plague_turn_open();
        let spreads = open && !p.turn.source && !p.turn.spread;
        if spreads && !p.spreads_valid {
            return None;
        }
        let flights = open && !p.turn.fled;
        if flights && !self.flights_current(p) {
            return None;
        }
        let ns = if spreads { p.spreads.len() } else { 0 };
        let nf = if flights {
            p.flight_from.last().map_or(0, |g| g.end as usize)
        } else {
            0
        };
        buf.clear();
        if follower_step {
            // What `Game::legal_actions_into` lists before the plague's.
            self.follower_options(|a| buf.push(a));
            crate::expansions::follower_alternatives(self, buf);
            buf.push(Action::Pass);
        }
        let pass = usize::from(!follower_step && ns == 0);
        let n = buf.len() + ns + nf + pass;
        // The follower step's pass is listed before the plague's actions;
        // the plague step's comes last.
        let pass_at = if follower_step {
            buf.len().checked_sub(1)
        } else {
            (pass == 1).then_some(n - 1)
        };
        let mut k = pick(n, pass_at);
        if let Some(&a) = buf.get(k) {
            return Some(a);
        }
        k -= buf.len();
        let cat = &*self.rules.catalog;
        let adj = |pi| p.adjacent_to(&self.board, cat, pi);
        if let Some((from, to)) = (k < ns).then(|| p.spreads.nth(k, adj)).flatten() {
            return Some(Action::Flea {
                to: self.tile_anchor(to),
                from: from.map(|o| self.tile_anchor(o)),
            });
        }
        k -= ns;
        if k < nf {
            let a = self.nth_stored_flight(p, k);
            debug_assert!(a.is_some(), "plague_pick_action: flight {k} of {nf}");
            return a;
        }
        Some(Action::Pass)
    }

    /// The legal actions of the plague step: spread, flee, and `pass` unless
    /// a spread is owed.
    pub(crate) fn plague_step_actions(&self, out: &mut Vec<Action>) {
        let before = out.len();
        self.plague_actions(out);
        let owed = out[before..]
            .iter()
            .any(|a| matches!(a, Action::Flea { .. }));
        if !owed {
            out.push(Action::Pass);
        }
    }

    /// The follower step is over. Once the plague has broken out the turn
    /// goes on with the plague step (completed features are scored first, so
    /// spreading or fleeing then comes after scoring); returns false when
    /// the turn may simply end.
    pub(crate) fn enter_plague_step(&mut self) -> bool {
        if !self.ext.plague.as_ref().is_some_and(Plague::started) {
            return false;
        }
        if let Some(pi) = self.last {
            self.score_completed(pi);
        }
        self.phase = Phase::Plague;
        // A follower placed or scored changes the flights.
        self.prepare_flights();
        true
    }

    /// `pass` in the plague step: ends the turn, unless a spread is owed.
    pub(crate) fn plague_pass(&mut self) -> Result<(), IllegalAction> {
        if self.spread_owed() {
            return Err(illegal(
                "plague",
                "the plague must spread this turn: put a flea on a tile next to an active outbreak or an active flea",
            ));
        }
        self.end_plague_step();
        Ok(())
    }

    /// Ends the turn after the plague step: [`Game::end_turn`] without its
    /// completion scoring, which ran when the plague step began (spreading
    /// and fleeing place no tile, so nothing can have completed since, and
    /// a second scoring would find nothing).
    fn end_plague_step(&mut self) {
        self.end_turn_scored();
    }

    /// Checks and applies a `flea` or `flee` action.
    pub(crate) fn try_plague(&mut self, action: &Action) -> Result<(), IllegalAction> {
        if self.ext.plague.is_none() {
            return Err(illegal("plague", "the Plague is not in play in this game"));
        }
        if !matches!(self.phase, Phase::Follower | Phase::Plague) {
            return Err(illegal(
                "turn",
                "place the drawn tile first: the plague acts only once the turn's tile is down",
            ));
        }
        if !self.ext.plague.as_ref().is_some_and(Plague::started) {
            return Err(illegal(
                "plague",
                "the plague has not broken out yet: no outbreak token is on the board",
            ));
        }
        match *action {
            Action::Flea { to, from } => self.try_spread(to, from),
            Action::Flee { from, to } => self.try_flee(from, to),
            _ => Err(illegal("plague", "not a plague action")),
        }
    }
}

// ---------------------------------------------------------------------------
// State in JSON

/// The Plague's tokens, as `bastide replay` prints them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlagueJson {
    /// Fleas in the supply.
    pub supply: u8,
    /// Outbreak tokens on the board, by number.
    pub outbreaks: Vec<OutbreakJson>,
    /// Flea tokens on the board, in the order their tiles were placed.
    pub fleas: Vec<FleaJson>,
    /// Whether the plague has spread this turn.
    pub spread_done: bool,
    /// Whether a spread is still owed this turn.
    pub spread_owed: bool,
    /// Whether a follower has fled this turn.
    pub fled: bool,
}

/// An outbreak token.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutbreakJson {
    /// Its number, 1–6.
    pub number: u8,
    /// The source tile it lies on.
    pub tile: String,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// `active` (rats) or `eradicated` (field side).
    pub side: &'static str,
}

/// A flea token.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FleaJson {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Half corner, for a half tile.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half: Option<&'static str>,
    /// `active` (red) or `latent` (pink).
    pub side: &'static str,
    /// For an active flea: the number of the outbreak of its region.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outbreak: Option<u8>,
}

impl Game {
    /// The plague part of the state JSON.
    pub fn plague_json(&self) -> Option<PlagueJson> {
        let p = self.ext.plague.as_ref()?;
        let cat = self.catalog();
        let pieces = self.board.pieces();
        Some(PlagueJson {
            supply: p.supply,
            outbreaks: p
                .outbreaks
                .iter()
                .enumerate()
                .map(|(k, o)| {
                    let piece = pieces[o.piece as usize];
                    OutbreakJson {
                        number: k as u8 + 1,
                        tile: cat.tile(piece.tile).id.clone(),
                        x: piece.pos.x,
                        y: piece.pos.y,
                        side: if o.active { "active" } else { "eradicated" },
                    }
                })
                .collect(),
            fleas: p
                .fleas
                .iter()
                .map(|f| {
                    let piece = pieces[f.piece as usize];
                    FleaJson {
                        x: piece.pos.x,
                        y: piece.pos.y,
                        half: piece.corner.map(|c| c.name()),
                        side: if f.is_active() { "active" } else { "latent" },
                        outbreak: f.region.map(|r| r + 1),
                    }
                })
                .collect(),
            spread_done: p.turn.spread,
            spread_owed: self.spread_owed(),
            fled: p.turn.fled,
        })
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// The Plague's hooks into the turn.
pub(crate) struct PlagueRules;

// ---------------------------------------------------------------------------
// The action codec's numbering

/// Where a spread flea comes from, in the codec: the supply (0), or the
/// flea on the board of that rank (1–18) when the fleas are ordered by the
/// piece they sit on (placement order).
pub const FLEA_SOURCES: usize = 1 + FLEAS as usize;
/// Which follower flees, in the codec: the rank of its segment among the
/// current player's followers on the board, ordered by (piece, feature) —
/// at most 20 followers (the `followers` option's limit) and the large
/// follower.
pub const FLIGHT_SOURCES: usize = 21;

/// The piece in cell `p` (the half at `half` in a half-filled cell).
fn piece_in(g: &Game, p: Pos, half: Option<Corner>) -> Option<u16> {
    let board = g.board();
    board
        .pieces_at(p)
        .map(|(pi, _)| pi)
        .find(|&pi| board.pieces()[pi as usize].corner == half)
}

/// The pieces that carry a flea, ascending: a moved flea's source is its
/// rank here.
fn flea_pieces(g: &Game) -> Vec<u16> {
    let mut v: Vec<u16> = g
        .plague()
        .map(|p| p.fleas().iter().map(|f| f.piece).collect())
        .unwrap_or_default();
    v.sort_unstable();
    v
}

/// The segments `(piece, feature)` holding the current player's followers,
/// ascending and distinct: a flight's source is its rank here.
fn flight_sources(g: &Game) -> Vec<(u16, u8)> {
    let me = g.current_player();
    let mut v: Vec<(u16, u8)> = g
        .followers()
        .iter()
        .filter(|f| f.player == me)
        .map(|f| (f.piece, f.feature))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

impl Expansion for PlagueRules {
    const FAMILY: Family = Family::Plague;

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.plague.is_some()
    }

    /// Its codec segment: spread fleas, `tile code·FLEA_SOURCES + source`
    /// (the target tile; the supply or the rank of the flea moved), then
    /// flights, `follower·place codes + place code` (the rank of the
    /// fleeing follower's segment among the player's, then where to).
    fn codec_size(codec: &ActionCodec, _g: &Game) -> usize {
        codec.tile_codes() * FLEA_SOURCES + FLIGHT_SOURCES * codec.feature_codes()
    }

    fn encode(codec: &ActionCodec, g: &Game, a: &Action) -> Option<usize> {
        match *a {
            Action::Flea { to, from } => {
                let t = codec.tile_code(to.pos(), to.half)?;
                let f = match from {
                    None => 0,
                    Some(f) => {
                        let pi = piece_in(g, f.pos(), f.half)?;
                        1 + flea_pieces(g).iter().position(|&q| q == pi)?
                    }
                };
                (f < FLEA_SOURCES).then_some(t * FLEA_SOURCES + f)
            }
            Action::Flee { from, to } => {
                let cat = g.catalog();
                let board = g.board();
                let start = board.node_at(cat, from.pos(), from.half, from.place)?;
                let segment = board.features().origin(start);
                let f = flight_sources(g).iter().position(|&s| s == segment)?;
                // The destination by its canonical name, so that every name
                // of one segment gets the index `legal_indices` gives it.
                let dest = board.node_at(cat, to.pos(), to.half, to.place)?;
                let (qi, qf) = board.features().origin(dest);
                let (pos, place) = g.feature_anchor(qi, qf);
                let t = codec.feature_code(pos, board.pieces()[qi as usize].corner, place)?;
                (f < FLIGHT_SOURCES)
                    .then(|| codec.tile_codes() * FLEA_SOURCES + f * codec.feature_codes() + t)
            }
            _ => None,
        }
    }

    fn decode(codec: &ActionCodec, g: &Game, i: usize) -> Option<Action> {
        let fleas = codec.tile_codes() * FLEA_SOURCES;
        if i >= fleas {
            let i = i - fleas;
            let (f, t) = (i / codec.feature_codes(), i % codec.feature_codes());
            let (pi, fi) = *flight_sources(g).get(f)?;
            let (fp, fpl) = g.feature_anchor(pi, fi);
            let fh = g.board().pieces()[pi as usize].corner;
            let (tp, th, tpl) = codec.feature_of(t)?;
            return Some(Action::Flee {
                from: FeatureAt::new(fp, fh, fpl)?,
                to: FeatureAt::new(tp, th, tpl)?,
            });
        }
        let (t, f) = (i / FLEA_SOURCES, i % FLEA_SOURCES);
        let (tp, th) = codec.tile_of(t)?;
        let from = match f {
            0 => None,
            f => {
                let pi = *flea_pieces(g).get(f - 1)?;
                let piece = g.board().pieces()[pi as usize];
                Some(TileAt::new(piece.pos, piece.corner)?)
            }
        };
        Some(Action::Flea {
            to: TileAt::new(tp, th)?,
            from,
        })
    }

    /// A turn may add a spread, a flight and the plague step's `pass`.
    fn max_moves(_g: &Game) -> crate::expansions::MoveBound {
        crate::expansions::MoveBound {
            per_turn: 3,
            ..Default::default()
        }
    }

    /// The sources go below the first 17 shuffled tiles.
    fn after_shuffle(
        ctx: &crate::expansions::DeckCtx<'_>,
        bag: &mut Vec<TileIdx>,
        rng: &mut crate::rng::Rng,
    ) {
        setup(ctx.catalog, bag, rng);
    }

    /// Planes: active flea, latent flea, active outbreak, eradicated
    /// outbreak. Globals: fleas in the supply / 18, a spread is owed, a
    /// follower fled this turn, the plague has broken out.
    fn tensor_size(_g: &Game) -> (usize, usize) {
        (4, 4)
    }

    fn tensor(g: &Game, _player: Seat, t: &mut crate::openspiel::TensorPart<'_>) {
        let Some(p) = g.plague() else { return };
        for f in p.fleas() {
            t.set_piece(g, if f.is_active() { 0 } else { 1 }, f.piece, 1.0);
        }
        for o in p.outbreaks() {
            t.set_piece(g, if o.active { 2 } else { 3 }, o.piece, 1.0);
        }
        t.push(f32::from(p.supply()) / f32::from(FLEAS));
        t.push(f32::from(u8::from(g.spread_owed())));
        t.push(f32::from(u8::from(p.fled())));
        t.push(f32::from(u8::from(p.started())));
    }

    fn vocabulary(a: &Action) -> Option<(&'static str, &'static str)> {
        matches!(a, Action::Flea { .. } | Action::Flee { .. }).then_some(("plague", "the Plague"))
    }

    fn start(g: &mut Game, _start: TileIdx) {
        let cat = &*g.rules.catalog;
        let pieces = g.board.pieces().len() + g.pile.len();
        let segments = g.board.features().len()
            + g.pile
                .iter()
                .map(|t| cat.tile(*t).features.len())
                .sum::<usize>();
        // A seat's followers, and one more for a big figure.
        let followers = usize::from(g.rules.options.followers) + 1;
        let p = match &mut g.ext.plague {
            // An earlier deal's state: emptied, its vectors kept.
            Some(p) => {
                p.clone_from(&Plague::blank());
                p
            }
            None => g.ext.plague.insert(Plague::new()),
        };
        p.reserve_lists(pieces, segments, followers);
    }

    fn after_place(g: &mut Game, pi: u16) {
        g.plague_placed(pi);
    }

    fn follower_ban(g: &Game) -> Option<&'static str> {
        g.plague_follower_ban()
    }

    fn extra_actions(g: &Game, out: &mut Vec<Action>) {
        g.plague_actions(out);
    }

    fn after_follower_step(g: &mut Game) -> bool {
        g.enter_plague_step()
    }

    fn owns_phase(p: Phase) -> bool {
        p == Phase::Plague
    }

    fn step_actions(g: &Game, out: &mut Vec<Action>) {
        g.plague_step_actions(out);
    }

    fn pick_step_action(
        g: &Game,
        buf: &mut Vec<Action>,
        pick: &mut crate::expansions::Pick<'_>,
    ) -> Option<Action> {
        g.plague_pick_action(buf, pick)
    }

    fn apply_in_step(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        match a {
            Action::Pass if mode == Mode::Trusted => {
                g.end_plague_step();
                Some(Ok(()))
            }
            Action::Pass => Some(g.plague_pass()),
            Action::Follower { .. } => Some(Err(illegal(
                "turn",
                "the follower step is over: spread the plague, flee or pass",
            ))),
            _ => None,
        }
    }

    fn apply_action(g: &mut Game, a: &Action, mode: Mode) -> Option<Result<(), IllegalAction>> {
        match *a {
            // A legal spread or flight needs none of the checks (random
            // play, tree search).
            Action::Flea { to, from } if mode == Mode::Trusted => {
                g.spread_trusted(to, from);
                Some(Ok(()))
            }
            Action::Flee { from, to } if mode == Mode::Trusted => {
                g.flee_trusted(from, to);
                Some(Ok(()))
            }
            Action::Flea { .. } | Action::Flee { .. } => Some(g.try_plague(a)),
            _ => None,
        }
    }

    /// Eradication comes at the start of every turn but after the last.
    fn turn_start(g: &mut Game) {
        if !g.pile.is_empty() {
            g.plague_turn_start();
        }
    }

    fn state_json(g: &Game, _viewer: crate::state::Viewer, out: &mut ExpansionsJson) {
        if let Some(p) = g.plague_json() {
            put(out, "plague", p);
        }
    }
}

#[cfg(test)]
mod tests {
    //! Long set-ups (all 18 fleas on the board) built through the public
    //! API: a strip of monasteries (all-field tiles) south of the start tile,
    //! sources below it, fleas spread one a turn.

    use std::sync::Arc;

    use super::*;
    use crate::action::Figure;
    use crate::config::GameConfig;
    use crate::geometry::Rotation;

    const B: &str = "base/B";
    const SRC: &str = "plague/F";

    fn new_game(deck: &[&str]) -> Game {
        let mut c = GameConfig::new(2, 1);
        c.expansions = vec![SET.to_string()];
        c.deck = Some(deck.iter().map(|s| s.to_string()).collect());
        c.deck_only = true;
        Game::new(c).expect("valid config")
    }

    fn act(g: &mut Game, a: Action) {
        if let Err(e) = g.try_apply(&a) {
            panic!("{a:?} refused: {e}");
        }
    }

    fn tile(x: i32, y: i32) -> TileAt {
        TileAt::new(Pos::new(x, y), None).unwrap()
    }

    fn flea(x: i32, y: i32) -> Action {
        Action::Flea {
            to: tile(x, y),
            from: None,
        }
    }

    fn flea_from(f: (i32, i32), t: (i32, i32)) -> Action {
        Action::Flea {
            to: tile(t.0, t.1),
            from: Some(tile(f.0, f.1)),
        }
    }

    /// Places the drawn tile at `at` (rotation `rot`, or the first that fits).
    fn place(g: &mut Game, at: (i32, i32), rot: Option<u8>) {
        // A player holding halves draws first (the `draw` step).
        if g.legal_actions().contains(&Action::Draw) {
            act(g, Action::Draw);
        }
        let a = g
            .legal_actions()
            .into_iter()
            .find(|a| match a {
                Action::Place { pos, rot: r, .. } => {
                    *pos == Pos::new(at.0, at.1)
                        && rot.is_none_or(|q| *r == Rotation::from_quarters(q))
                }
                _ => false,
            })
            .unwrap_or_else(|| panic!("the drawn tile does not fit at {at:?}"));
        act(g, a);
    }

    /// One whole turn: place, pass the follower step, the plague actions,
    /// then pass the plague step if there is one.
    fn turn(g: &mut Game, at: (i32, i32), rot: Option<u8>, plague: &[Action]) {
        place(g, at, rot);
        act(g, Action::Pass);
        for a in plague {
            act(g, *a);
        }
        if g.phase() == Phase::Plague {
            act(g, Action::Pass);
        }
    }

    fn plague(g: &Game) -> &Plague {
        g.plague().expect("plague in play")
    }

    /// Fleas as (x, y, outbreak number of their region or 0 when latent).
    fn fleas(g: &Game) -> Vec<(i32, i32, u8)> {
        let mut v: Vec<_> = plague(g)
            .fleas()
            .iter()
            .map(|f| {
                let p = g.board().pieces()[f.piece as usize].pos;
                (p.x, p.y, f.region.map_or(0, |r| r + 1))
            })
            .collect();
        v.sort_unstable();
        v
    }

    fn active_outbreaks(g: &Game) -> Vec<usize> {
        plague(g)
            .outbreaks()
            .iter()
            .enumerate()
            .filter(|(_, o)| o.active)
            .map(|(k, _)| k + 1)
            .collect()
    }

    fn token_events(g: &Game) -> Vec<(&'static str, u32)> {
        g.events()
            .iter()
            .filter(|e| matches!(e.reason, Reason::Outbreak | Reason::Eradicated))
            .map(|e| (e.reason.name(), e.extra))
            .collect()
    }

    /// Strip cells (x, 1) for `xs`, in an order that keeps them touching.
    fn strip(xs: std::ops::RangeInclusive<i32>) -> Vec<(i32, i32)> {
        let mut v: Vec<i32> = xs.collect();
        v.sort_by_key(|x| (x.abs(), *x));
        v.into_iter().map(|x| (x, 1)).collect()
    }

    /// Builds the strip, then places the sources (cell, rotation) in order.
    fn setup(
        strip_xs: std::ops::RangeInclusive<i32>,
        sources: &[((i32, i32), u8)],
        extra: usize,
    ) -> Game {
        let cells = strip(strip_xs);
        let mut deck = vec![B; cells.len()];
        deck.extend(std::iter::repeat_n(SRC, sources.len()));
        deck.extend(std::iter::repeat_n(B, extra));
        let mut g = new_game(&deck);
        for c in cells {
            turn(&mut g, c, None, &[]);
        }
        for &(c, r) in sources {
            turn(&mut g, c, Some(r), &[]);
        }
        g
    }

    /// Spreads one flea a turn onto `targets`, placing a filler monastery
    /// at (x, 0) for x = start, start + step, … each turn.
    fn spread_all(g: &mut Game, targets: &[(i32, i32)], filler_start: i32, step: i32) -> i32 {
        let mut x = filler_start;
        for &t in targets {
            turn(g, (x, 0), None, &[flea(t.0, t.1)]);
            x += step;
        }
        x
    }

    fn line(from: i32, to: i32) -> Vec<(i32, i32)> {
        (from..=to).map(|x| (x, 1)).collect()
    }

    #[test]
    fn supply_exhausted_eradicates_the_lowest_outbreak_then_latent_fleas_move() {
        let mut g = setup(-9..=14, &[((-8, 2), 0), ((8, 2), 0)], 24);
        assert_eq!(active_outbreaks(&g), vec![1, 2]);
        // Region 1: 6 fleas around (-8,1); region 2: 12 fleas around (8,1).
        let mut targets = vec![(-8, 1), (-9, 1), (-7, 1), (-6, 1), (-5, 1), (-4, 1)];
        targets.extend([8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 14].map(|x| (x, 1)));
        let x = spread_all(&mut g, &targets, -2, -1);
        // The 18th flea left the supply; at the start of this turn the lowest
        // outbreak (1) was flipped: its 6 fleas are latent, and that stops it.
        assert_eq!(plague(&g).supply(), 0);
        assert_eq!(active_outbreaks(&g), vec![2]);
        assert_eq!(
            token_events(&g),
            vec![("outbreak", 1), ("outbreak", 2), ("eradicated", 1)]
        );
        let f = fleas(&g);
        assert_eq!(f.iter().filter(|f| f.2 == 0).count(), 6);
        assert!(f.iter().filter(|f| f.0 < 0).all(|f| f.2 == 0));
        assert!(f.iter().filter(|f| f.0 > 0).all(|f| f.2 == 2));
        // A latent flea must move now: not from the supply, not an active one.
        place(&mut g, (x, 0), None);
        let legal = g.legal_actions();
        let moves: Vec<&Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::Flea { .. }))
            .collect();
        assert!(!moves.is_empty());
        for a in &moves {
            let Action::Flea { from: Some(p), to } = a else {
                panic!("{a:?} does not move a flea");
            };
            assert!(p.x < 0, "{a:?} moves an active flea");
            assert!(to.x > 0, "{a:?} does not go next to the active region");
        }
        assert!(legal.contains(&flea_from((-9, 1), (2, 1))));
        let before = g.clone();
        let e = g.try_apply(&flea(2, 1)).unwrap_err();
        assert!(e.message.contains("supply is empty"), "{e}");
        let e = g.try_apply(&flea_from((3, 1), (2, 1))).unwrap_err();
        assert!(e.message.contains("latent one moves"), "{e}");
        let e = g.try_apply(&flea_from((-9, 1), (-3, 1))).unwrap_err();
        assert!(e.message.contains("not next to an active"), "{e}");
        assert!(g == before);
        act(&mut g, flea_from((-9, 1), (2, 1)));
        act(&mut g, Action::Pass);
        act(&mut g, Action::Pass);
        let f = fleas(&g);
        assert_eq!(f.iter().filter(|f| f.2 == 0).count(), 5);
        assert!(f.contains(&(2, 1, 2)));
        assert!(!f.iter().any(|f| f.0 == -9));
        // Latent fleas remain: no further eradication at this turn's start.
        assert_eq!(token_events(&g).len(), 3);
        assert_eq!(plague(&g).fleas().len(), FLEAS as usize);
    }

    #[test]
    fn eradication_repeats_until_a_latent_flea_exists() {
        let mut g = setup(-9..=16, &[((-8, 2), 0), ((-3, 2), 0), ((8, 2), 0)], 24);
        assert_eq!(active_outbreaks(&g), vec![1, 2, 3]);
        // Outbreak 1 gets no flea, outbreak 2 two, outbreak 3 sixteen.
        let mut targets = vec![(-3, 1), (-2, 1)];
        targets.extend([8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15, 16].map(|x| (x, 1)));
        spread_all(&mut g, &targets, -4, -1);
        // Flipping 1 makes no flea latent, so 2 is flipped too; then its two
        // fleas are latent and the eradication stops with 3 active.
        assert_eq!(active_outbreaks(&g), vec![3]);
        assert_eq!(
            token_events(&g),
            vec![
                ("outbreak", 1),
                ("outbreak", 2),
                ("outbreak", 3),
                ("eradicated", 1),
                ("eradicated", 2)
            ]
        );
        let f = fleas(&g);
        assert_eq!(
            f.iter()
                .filter(|f| f.2 == 0)
                .map(|f| (f.0, f.1))
                .collect::<Vec<_>>(),
            vec![(-3, 1), (-2, 1)]
        );
        assert_eq!(f.iter().filter(|f| f.2 == 3).count(), 16);
    }

    /// 18 active fleas in one region: x = -9..=8 on the strip, outbreak 1
    /// at (-8,2).
    fn all_in_one_region() -> Game {
        let mut g = setup(-9..=14, &[((-8, 2), 0)], 24);
        let mut targets = vec![(-8, 1), (-9, 1)];
        targets.extend(line(-7, 8));
        spread_all(&mut g, &targets, 2, 1);
        assert_eq!(plague(&g).supply(), 0);
        assert!(fleas(&g).iter().all(|f| f.2 == 1));
        assert_eq!(active_outbreaks(&g), vec![1]);
        g
    }

    #[test]
    fn all_eighteen_in_one_region_move_an_active_flea() {
        let mut g = all_in_one_region();
        // No eradication: only one outbreak is active.
        assert_eq!(token_events(&g), vec![("outbreak", 1)]);
        place(&mut g, (20, 0), None);
        let legal = g.legal_actions();
        let moves: Vec<&Action> = legal
            .iter()
            .filter(|a| matches!(a, Action::Flea { .. }))
            .collect();
        assert!(!moves.is_empty());
        assert!(moves
            .iter()
            .all(|a| matches!(a, Action::Flea { from: Some(_), .. })));
        // The last flea of the line moves to a filler above the line.
        assert!(legal.contains(&flea_from((8, 1), (5, 0))));
        // Not back onto its own tile, not onto a tile beside only itself.
        assert!(!legal.contains(&flea_from((8, 1), (8, 0))));
        assert!(!legal.contains(&flea_from((8, 1), (9, 1))));
        act(&mut g, flea_from((8, 1), (5, 0)));
        act(&mut g, Action::Pass);
        act(&mut g, Action::Pass);
        let f = fleas(&g);
        assert!(f.contains(&(5, 0, 1)));
        assert!(!f.iter().any(|f| (f.0, f.1) == (8, 1)));
        assert!(f.iter().all(|f| f.2 == 1));
    }

    #[test]
    fn a_new_source_away_from_the_single_region_turns_all_fleas_latent() {
        let cells = strip(-9..=14);
        let mut deck = vec![B; cells.len()];
        deck.push(SRC);
        deck.extend(std::iter::repeat_n(B, 18));
        deck.push(SRC);
        deck.extend(std::iter::repeat_n(B, 4));
        let mut g = new_game(&deck);
        for c in cells {
            turn(&mut g, c, None, &[]);
        }
        turn(&mut g, (-8, 2), Some(0), &[]);
        let mut targets = vec![(-8, 1), (-9, 1)];
        targets.extend(line(-7, 8));
        spread_all(&mut g, &targets, 2, 1);
        assert!(fleas(&g).iter().all(|f| f.2 == 1));
        // A new source below (12,1), which has no flea: it touches no flea.
        place(&mut g, (12, 2), Some(0));
        // Outbreak 2 is active; 1 flipped at once; all 18 fleas latent.
        assert_eq!(active_outbreaks(&g), vec![2]);
        assert_eq!(
            token_events(&g),
            vec![("outbreak", 1), ("outbreak", 2), ("eradicated", 1)]
        );
        assert!(fleas(&g).iter().all(|f| f.2 == 0));
        // No follower on the new source, no spread this turn.
        let legal = g.legal_actions();
        assert!(!legal
            .iter()
            .any(|a| matches!(a, Action::Flea { .. } | Action::Follower { .. })));
        act(&mut g, Action::Pass);
        act(&mut g, Action::Pass);
        // Next turn: a latent flea moves next to the new outbreak.
        place(&mut g, (20, 0), None);
        let legal = g.legal_actions();
        assert!(legal.contains(&flea_from((0, 1), (12, 1))));
        assert!(!legal.contains(&flea_from((0, 1), (9, 1))));
        act(&mut g, flea_from((0, 1), (12, 1)));
        let f = fleas(&g);
        assert!(f.contains(&(12, 1, 2)));
        assert_eq!(f.iter().filter(|f| f.2 == 0).count(), 17);
    }

    #[test]
    fn a_new_source_next_to_the_single_region_takes_it_over() {
        let cells = strip(-9..=14);
        let mut deck = vec![B; cells.len()];
        deck.push(SRC);
        deck.extend(std::iter::repeat_n(B, 18));
        deck.push(SRC);
        deck.extend(std::iter::repeat_n(B, 4));
        let mut g = new_game(&deck);
        for c in cells {
            turn(&mut g, c, None, &[]);
        }
        turn(&mut g, (-8, 2), Some(0), &[]);
        let mut targets = vec![(-8, 1), (-9, 1)];
        targets.extend(line(-7, 8));
        spread_all(&mut g, &targets, 2, 1);
        // The new source lies below the flea on (5,1): the regions join and
        // the lower outbreak 1 is flipped; every flea now belongs to 2.
        place(&mut g, (5, 2), Some(0));
        assert_eq!(active_outbreaks(&g), vec![2]);
        assert_eq!(
            token_events(&g),
            vec![("outbreak", 1), ("outbreak", 2), ("eradicated", 1)]
        );
        assert!(fleas(&g).iter().all(|f| f.2 == 2));
        assert_eq!(fleas(&g).len(), 18);
    }

    #[test]
    fn moving_the_flea_that_joins_the_region_splits_it() {
        // Outbreak 1 at (-8,2) turned so that its west side is field, with a
        // monastery at (-9,2) beside it; fleas on x = -8..=9 of the strip.
        let cells = strip(-9..=14);
        let mut deck = vec![B; cells.len() + 1];
        deck.push(SRC);
        deck.extend(std::iter::repeat_n(B, 22));
        let mut g = new_game(&deck);
        for c in cells {
            turn(&mut g, c, None, &[]);
        }
        turn(&mut g, (-9, 2), None, &[]);
        turn(&mut g, (-8, 2), Some(3), &[]);
        spread_all(&mut g, &line(-8, 9), 2, 1);
        assert!(fleas(&g).iter().all(|f| f.2 == 1));
        place(&mut g, (20, 0), None);
        // Lifted, the flea on (-8,1) no longer joins the line to the source:
        // the source alone is the region, and (-9,2) beside it is a target.
        assert!(g.legal_actions().contains(&flea_from((-8, 1), (-9, 2))));
        act(&mut g, flea_from((-8, 1), (-9, 2)));
        let f = fleas(&g);
        assert!(f.contains(&(-9, 2, 1)));
        assert_eq!(f.iter().filter(|f| f.2 == 0).count(), 17);
        assert!(f.iter().filter(|f| f.1 == 1).all(|f| f.2 == 0));
        // With latent fleas on the board, no eradication follows.
        act(&mut g, Action::Pass);
        act(&mut g, Action::Pass);
        assert_eq!(token_events(&g), vec![("outbreak", 1)]);
    }

    /// Half tiles and double tiles: adjacency is judged between occupied
    /// cells; the two halves of a cell touch; a double tile touches the
    /// neighbours of both its cells.
    #[test]
    fn adjacency_with_half_and_double_tiles() {
        const SHAPES: &str = r#"
set = "shapes"
title = "test shapes"
total = 3
[[tile]]
id = "half"
count = 2
shape = "half"
features = ["field W S H1 H H2"]
[[tile]]
id = "double"
count = 1
shape = "double"
features = ["field N S W 1:N 1:E 1:S"]
"#;
        let cat = Catalog::from_files(&[
            ("base.toml", include_str!("../../catalog/base.toml")),
            ("shapes.toml", SHAPES),
        ])
        .expect("test catalog");
        let b = cat.find("base/B").unwrap();
        let half = cat.find("shapes/half").unwrap();
        let double = cat.find("shapes/double").unwrap();
        let mut board = Board::new(16, None);
        let centre = board.place(&cat, b, Pos::new(0, 0), Rotation::default());
        // A half with its right angle at SW in (1,0): its short sides face
        // west (the centre) and south; its long side faces north-east.
        let h1 = board.place(&cat, half, Pos::new(1, 0), Rotation::from_quarters(0));
        // Tiles north and east of (1,0), which face the half's gap.
        let north = board.place(&cat, b, Pos::new(1, -1), Rotation::default());
        let east = board.place(&cat, b, Pos::new(2, 0), Rotation::default());
        let mut nb = Vec::new();
        adjacent_pieces(&board, &cat, h1, &mut nb);
        nb.sort_unstable();
        assert_eq!(nb, vec![centre, north, east]);
        // The other half fills the cell: the halves touch each other.
        let h2 = board.place(&cat, half, Pos::new(1, 0), Rotation::from_quarters(2));
        adjacent_pieces(&board, &cat, h1, &mut nb);
        assert!(nb.contains(&h2));
        adjacent_pieces(&board, &cat, north, &mut nb);
        nb.sort_unstable();
        assert_eq!(nb, vec![h1, h2]);
        // A double tile on (0,1)-(1,1) touches the centre, both halves.
        let d = board.place(&cat, double, Pos::new(0, 1), Rotation::default());
        adjacent_pieces(&board, &cat, d, &mut nb);
        nb.sort_unstable();
        assert_eq!(nb, vec![centre, h1, h2]);
        // Diagonal cells are not adjacent.
        adjacent_pieces(&board, &cat, east, &mut nb);
        assert!(!nb.contains(&north) && !nb.contains(&d));
    }

    /// A road crossing the long sides of two halves: a robber flees along it
    /// from one half to the other (and no further when a flea blocks it).
    #[test]
    fn flight_across_the_long_side_of_two_halves() {
        const BASE: &str = r#"
set = "base"
title = "test base"
total = 4
start = "D"
[[tile]]
id = "D"
count = 1
features = ["city N", "road W E", "field WNW ENE -> N", "field ESE S WSW"]
[[tile]]
id = "U"
count = 1
features = ["road W E", "field WNW N ENE", "field ESE S WSW"]
[[tile]]
id = "B"
count = 2
features = ["monastery", "field N E S W"]
"#;
        const HALVES: &str = r#"
set = "halfsies1"
title = "test halves"
total = 2
[[tile]]
id = "HR"
count = 2
shape = "half"
features = ["road W H", "field WNW H1", "field WSW S H2"]
"#;
        let cat = Arc::new(
            Catalog::from_files(&[
                ("base.toml", BASE),
                ("halfsies1.toml", HALVES),
                ("plague.toml", include_str!("../../catalog/plague.toml")),
            ])
            .expect("test catalog"),
        );
        let hr = cat.find("halfsies1/HR").expect("half in the test catalog");
        let mut c = GameConfig::new(2, 1);
        c.expansions = vec![SET.to_string(), "halfsies1".to_string()];
        c.hands = Some(vec![
            vec!["halfsies1/HR".to_string()],
            vec!["halfsies1/HR".to_string()],
        ]);
        c.deck = Some(
            ["base/U", SRC, "base/B", "base/B"]
                .map(String::from)
                .to_vec(),
        );
        c.deck_only = true;
        let mut g = Game::with_catalog(c, cat).expect("valid config");
        place(&mut g, (-1, 0), Some(0));
        act(
            &mut g,
            Action::Follower {
                pos: Pos::new(-1, 0),
                corner: None,
                place: Place::E,
                figure: Figure::Normal,
            },
        );
        // Each player plays a half from the hand instead of drawing.
        for q in [0, 2] {
            act(
                &mut g,
                Action::Place {
                    tile: hr,
                    pos: Pos::new(1, 0),
                    rot: Rotation::from_quarters(q),
                },
            );
            act(&mut g, Action::Pass);
        }
        turn(&mut g, (0, 1), Some(0), &[]);
        place(&mut g, (1, 1), None);
        let from = FeatureAt::new(Pos::new(-1, 0), None, Place::E).unwrap();
        let to_far = FeatureAt::new(Pos::new(1, 0), Some(Corner::NE), Place::E).unwrap();
        let to_near = FeatureAt::new(Pos::new(1, 0), Some(Corner::SW), Place::W).unwrap();
        let legal = g.legal_actions();
        assert!(
            legal.contains(&Action::Flee { from, to: to_far }),
            "{legal:?}"
        );
        assert!(legal.contains(&Action::Flee { from, to: to_near }));
        // A flea on the start tile (next to the outbreak) blocks the way.
        let mut blocked = g.clone();
        act(&mut blocked, flea(0, 0));
        let e = blocked
            .try_apply(&Action::Flee { from, to: to_far })
            .unwrap_err();
        assert!(e.message.contains("across"), "{e}");
        act(&mut g, Action::Flee { from, to: to_far });
        let f = g.followers()[0];
        assert_eq!(
            g.board().pieces()[f.piece as usize].corner,
            Some(Corner::NE)
        );
    }
}
