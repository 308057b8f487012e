//! The board: which piece lies in which cell, the frontier of cells where a
//! square tile could go, edge matching, and the feature graph built as pieces
//! are placed.
//!
//! Cells (occupied, or on the frontier) live in a small open-addressing hash
//! table sized from the deck (`CellMap`): a few kilobytes however far the
//! board spreads. Every empty cell that touches a placed side is on the
//! frontier together with the edge codes it faces, so testing a square tile
//! against it is one masked compare (or one lookup in the game's fit table).

use std::fmt;

use crate::catalog::{Catalog, Oriented, Shape, SideProfile, TileIdx, NO_FEATURE};
use crate::features::{Features, NodeId};
use crate::geometry::{Corner, Place, Pos, Rotation, Side, PLACE_COUNT};
use crate::map::MapBounds;

/// A piece placed on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Tile kind.
    pub tile: TileIdx,
    /// Anchor cell (the catalog's first cell).
    pub pos: Pos,
    /// Rotation.
    pub rot: Rotation,
    /// For a half tile, the corner of its right angle.
    pub corner: Option<Corner>,
    /// Node of its first feature; feature `i` is node `node_base + i`.
    pub(crate) node_base: NodeId,
}

/// An empty cell touching at least one placed side, with the edge codes the
/// cell's own sides must match (byte `i` for side `i`, where `mask` is 0xFF).
/// Laid out in C order (the code at byte 8, the mask at byte 12), so that
/// [`Board::fit_masks`] loads four cells' codes and masks straight from the
/// frontier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct FrontierCell {
    /// The cell.
    pub pos: Pos,
    /// Edge codes facing the cell, one byte a side (N lowest).
    pub code: u32,
    /// 0xFF in the bytes of sides that face a placed piece.
    pub mask: u32,
}

const _: () = assert!(
    std::mem::size_of::<FrontierCell>() == 16
        && std::mem::offset_of!(FrontierCell, code) == 8
        && std::mem::offset_of!(FrontierCell, mask) == 12
);

/// Why a piece cannot go where it was put.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacementError {
    /// The cell is off the map.
    OffMap(Pos),
    /// The cell already holds a tile.
    Occupied(Pos),
    /// A square tile was put into a cell that holds a half tile.
    HalfFilled(Pos),
    /// A half tile was put where its corner is taken or crosses the other
    /// half's diagonal.
    HalfClash(Pos, Corner),
    /// The piece touches no placed tile along a full side.
    NoContact,
    /// A side does not match the tile it touches.
    Mismatch {
        /// The cell of the piece whose side does not match.
        pos: Pos,
        /// Its side (`None`: the long side of a half).
        side: Option<Side>,
        /// What the new piece has there.
        mine: &'static str,
        /// What the touching tile has there.
        theirs: &'static str,
    },
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::OffMap(p) => write!(f, "cell {p} is not a square of the map"),
            PlacementError::Occupied(p) => write!(f, "cell {p} already holds a tile"),
            PlacementError::HalfFilled(p) => write!(
                f,
                "cell {p} holds a half tile: only the matching half may go there, never a square tile"
            ),
            PlacementError::HalfClash(p, c) => write!(
                f,
                "cell {p} already holds a half that does not leave the {c} corner free on the same diagonal"
            ),
            PlacementError::NoContact => f.write_str(
                "the tile must touch a placed tile along a full side (corner contact is not enough)",
            ),
            PlacementError::Mismatch {
                pos,
                side,
                mine,
                theirs,
            } => match side {
                Some(s) => write!(
                    f,
                    "the {} side at {pos} has {mine} but the neighbouring tile has {theirs}: touching sides must match",
                    s.name()
                ),
                None => write!(
                    f,
                    "the long side at {pos} has {mine} but the other half has {theirs}: touching sides must match"
                ),
            },
        }
    }
}

/// Describes an edge code in words.
fn describe(code: u8) -> &'static str {
    let kind = |k: u8| match k & 3 {
        0 => "field",
        1 => "city",
        2 => "road",
        _ => "river",
    };
    let (a, b, c) = (code & 3, (code >> 2) & 3, (code >> 4) & 3);
    if a == b && b == c {
        match a {
            0 => "a field",
            1 => "a city",
            2 => "a road",
            _ => "a river",
        }
    } else if a == c {
        match kind(b) {
            "road" => "a road",
            "river" => "a river",
            "city" => "a city",
            _ => "a field",
        }
    } else {
        "a mixed edge"
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// Piece index + 1 (0 = empty), part number in the top bit.
    occ: u16,
    /// Frontier index + 1 (0 = not on the frontier).
    fr: u16,
}

const PART_BIT: u16 = 0x8000;

/// The board of one game.
#[derive(Debug)]
pub struct Board {
    cells: CellMap,
    pieces: Vec<Piece>,
    /// For each piece that is a half: the other half in its cell, if any.
    partner: Vec<u16>,
    frontier: Vec<FrontierCell>,
    /// Each frontier cell's [`FitTable`] key, in frontier order: the ids
    /// of the codes it faces, one base-`radix` digit a side (0: open).
    fr_key: Vec<u16>,
    /// The key digits: a code's id (set by [`Board::set_fit_keys`]; all
    /// zero, so every key zero, when the game has no table).
    code_id: [u8; 64],
    /// The weight of each side's digit in a key: 1, radix, radix², radix³.
    key_pow: [u16; 4],
    half_cells: Vec<Pos>,
    /// Pieces with a monastery whose monastery is not yet complete, in
    /// placement order: completion checks look at these few instead of
    /// probing the eight cells around every new tile.
    open_monasteries: Vec<u16>,
    /// For each entry of `open_monasteries`: the monastery's cell and how
    /// many of the eight cells around it are occupied, counted up as cells
    /// fill, so completion needs no look at the neighbours.
    monastery_cells: Vec<(Pos, u8)>,
    features: Features,
    bounds: Option<MapBounds>,
}

const NO_PIECE: u16 = u16::MAX;

/// For the single-square tiles of one game's deck: in which rotations each
/// fits a frontier cell, looked up by the cell's key (the codes it faces,
/// see [`Board::frontier_keys`]) instead of compared. Built once per game
/// set-up; a square tile of the deck fits a key exactly when every side
/// the key names carries that side's code, so each (tile, rotation) marks
/// the 16 keys made of its four codes and "open".
#[derive(Debug)]
pub(crate) struct FitTable {
    /// A code's digit in a key: 1..=k for the k codes on the tabled tiles'
    /// sides, `radix - 1` for any other code (no tabled tile fits there).
    code_id: [u8; 64],
    /// Digits a side (k + 2); 0 when there is no table.
    radix: u16,
    /// Keys a tile's row holds (radix⁴).
    keys: usize,
    /// For each catalog tile: its row + 1 (0: not tabled).
    row_of: Vec<u16>,
    /// Row after row: for each key, the fitting rotations' mask (bit r for
    /// [`Rotation::ALL`]`[r]`) in the low nibble and their number above it.
    fit: Vec<u8>,
}

impl Default for FitTable {
    /// No table: every tile keeps the compares.
    fn default() -> FitTable {
        FitTable {
            code_id: [0; 64],
            radix: 0,
            keys: 0,
            row_of: Vec::new(),
            fit: Vec::new(),
        }
    }
}

impl FitTable {
    /// Largest table built (bytes); a deck with more distinct codes or
    /// square tiles than that keeps the compares.
    const MAX_BYTES: usize = 1 << 17;

    /// The table for the square tiles among `tiles` (repeats allowed).
    pub(crate) fn new(cat: &Catalog, tiles: &[TileIdx]) -> FitTable {
        let mut row_of = vec![0u16; cat.tiles().len()];
        let mut rows: Vec<TileIdx> = Vec::new();
        let mut code_id = [0u8; 64];
        let mut codes = 0u8;
        for &t in tiles {
            let def = cat.tile(t);
            let Some(slot) = row_of.get_mut(t.0 as usize) else {
                continue;
            };
            if def.shape != Shape::Square || *slot != 0 {
                continue;
            }
            rows.push(t);
            *slot = rows.len() as u16;
            for s in &def.oriented(Rotation::default()).sides[0] {
                let id = &mut code_id[s.code as usize & 63];
                if *id == 0 {
                    codes += 1;
                    *id = codes;
                }
            }
        }
        let radix = u16::from(codes) + 2;
        let keys = (radix as usize).pow(4);
        if rows.is_empty() || keys * rows.len() > Self::MAX_BYTES {
            return FitTable::default();
        }
        for id in &mut code_id {
            if *id == 0 {
                *id = (radix - 1) as u8;
            }
        }
        let pow = [1, radix, radix * radix, radix * radix * radix].map(usize::from);
        let mut fit = vec![0u8; keys * rows.len()];
        for (row, &t) in rows.iter().enumerate() {
            let def = cat.tile(t);
            let fits = &mut fit[row * keys..(row + 1) * keys];
            for (r, rot) in Rotation::ALL.iter().enumerate() {
                let sides = &def.oriented(*rot).sides[0];
                // Every key that names, on each side, either nothing or
                // this rotation's code there: key[subset] is key[subset
                // without its lowest side] plus that side's digit.
                let mut key = [0usize; 16];
                for subset in 1..16usize {
                    let s = subset.trailing_zeros() as usize;
                    let digit = usize::from(code_id[sides[s].code as usize & 63]);
                    key[subset] = key[subset & (subset - 1)] + digit * pow[s];
                }
                for k in key {
                    if let Some(e) = fits.get_mut(k) {
                        *e = (*e | 1 << r) + 16;
                    }
                }
            }
        }
        FitTable {
            code_id,
            radix,
            keys,
            row_of,
            fit,
        }
    }

    /// Whether this table has a row for every square tile of `tiles`: a new
    /// game of the same configuration (another deal, which may hold fewer
    /// kinds) then takes it instead of building it again. Rows of tiles
    /// the deal lacks are never read, and their codes only add key digits
    /// no other tile matches, so the answers are those of a new table.
    pub(crate) fn serves(&self, cat: &Catalog, tiles: &[TileIdx]) -> bool {
        self.radix != 0
            && self.row_of.len() == cat.tiles().len()
            && tiles.iter().all(|&t| {
                cat.tile(t).shape != Shape::Square
                    || self.row_of.get(t.0 as usize).is_some_and(|r| *r != 0)
            })
    }

    /// The row of `tile`, indexed by frontier key, if it is tabled.
    #[inline]
    pub(crate) fn row(&self, tile: TileIdx) -> Option<&[u8]> {
        let r = usize::from(*self.row_of.get(tile.0 as usize)?).checked_sub(1)?;
        self.fit.get(r * self.keys..(r + 1) * self.keys)
    }
}

/// Cells that are occupied or on the frontier, in an open-addressing hash
/// table: a few kilobytes however far the board spreads, so a new game or a
/// clone for tree search costs little. Entries are never removed.
#[derive(Debug)]
struct CellMap {
    entries: Vec<(u32, Slot)>,
    bits: u32,
    /// The entries in use, so that a reset clears those few instead of the
    /// whole table.
    used: Vec<u32>,
}

impl Clone for CellMap {
    fn clone(&self) -> CellMap {
        CellMap {
            entries: self.entries.clone(),
            bits: self.bits,
            used: self.used.clone(),
        }
    }

    /// Copies into the existing table: no allocation when the sizes match
    /// (tree search clones into a reused scratch game).
    fn clone_from(&mut self, src: &CellMap) {
        self.entries.clone_from(&src.entries);
        self.bits = src.bits;
        self.used.clone_from(&src.used);
    }
}

impl CellMap {
    /// Entries for at most `max_cells` occupied cells: occupied plus
    /// frontier cells stay below 3 per tile; the load is kept under a half.
    fn capacity_for(max_cells: usize) -> usize {
        (6 * max_cells + 16).next_power_of_two()
    }

    fn new(max_cells: usize) -> CellMap {
        let cap = CellMap::capacity_for(max_cells);
        CellMap {
            entries: vec![(0, Slot::default()); cap],
            bits: cap.trailing_zeros(),
            used: Vec::with_capacity(cap / 2),
        }
    }

    /// 15 bits a coordinate: distinct for every cell within
    /// ±[`crate::geometry::COORD_LIMIT`], which every position from outside
    /// is checked against before it reaches the board. Wrapping adds keep a
    /// stray far position from panicking a debug build.
    #[inline]
    fn key(p: Pos) -> u32 {
        0x8000_0000
            | ((p.y.wrapping_add(0x4000) as u32 & 0x7FFF) << 16)
            | (p.x.wrapping_add(0x4000) as u32 & 0x7FFF)
    }

    #[inline]
    fn home(&self, key: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B1) >> (32 - self.bits)) as usize
    }

    /// Empties the table, keeping its buffers.
    fn clear(&mut self) {
        for &i in &self.used {
            if let Some(e) = self.entries.get_mut(i as usize) {
                *e = (0, Slot::default());
            }
        }
        self.used.clear();
    }

    #[inline]
    fn get(&self, p: Pos) -> Slot {
        let key = CellMap::key(p);
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, v) = self.entries[i];
            if k == key {
                return v;
            }
            if k == 0 {
                return Slot::default();
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn entry(&mut self, p: Pos) -> &mut Slot {
        let i = self.index(p);
        &mut self.entries[i].1
    }

    /// The index of `p`'s entry, made (empty) if it has none: one probe
    /// serves both the look and the update of a neighbour.
    #[inline]
    fn index(&mut self, p: Pos) -> usize {
        let key = CellMap::key(p);
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        loop {
            let k = self.entries[i].0;
            if k == key {
                return i;
            }
            if k == 0 {
                self.entries[i].0 = key;
                self.used.push(i as u32);
                return i;
            }
            i = (i + 1) & mask;
        }
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let mut b = Board {
            cells: self.cells.clone(),
            pieces: Vec::new(),
            partner: Vec::new(),
            frontier: Vec::new(),
            fr_key: Vec::new(),
            code_id: [0; 64],
            key_pow: [0; 4],
            half_cells: Vec::new(),
            open_monasteries: Vec::new(),
            monastery_cells: Vec::new(),
            features: Features::default(),
            bounds: None,
        };
        b.clone_rest_from(self);
        b
    }

    /// Reuses this board's buffers (a scratch game of tree search).
    fn clone_from(&mut self, src: &Board) {
        self.cells.clone_from(&src.cells);
        self.clone_rest_from(src);
    }
}

/// One part of a piece on the board, for naming the feature nodes at its
/// places ([`Board::part_places`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct PartPlaces<'a> {
    /// The piece's first feature node.
    base: NodeId,
    /// The feature at each place (`NO_FEATURE` where none).
    features: &'a [u8; PLACE_COUNT],
}

impl PartPlaces<'_> {
    /// The feature node at `place`, if a feature lies there.
    pub(crate) fn node(&self, place: Place) -> Option<NodeId> {
        let f = self.features[place.index()];
        (f != NO_FEATURE).then(|| self.base + f as NodeId)
    }
}

impl Board {
    /// Every field but the cell table, copied into existing buffers. The
    /// destructuring makes a new field a compile error here, so no clone
    /// can forget it.
    fn clone_rest_from(&mut self, src: &Board) {
        let Board {
            cells: _,
            pieces,
            partner,
            frontier,
            fr_key,
            code_id,
            key_pow,
            half_cells,
            open_monasteries,
            monastery_cells,
            features,
            bounds,
        } = src;
        self.pieces.clone_from(pieces);
        self.partner.clone_from(partner);
        self.frontier.clone_from(frontier);
        self.fr_key.clone_from(fr_key);
        self.code_id = *code_id;
        self.key_pow = *key_pow;
        self.half_cells.clone_from(half_cells);
        self.open_monasteries.clone_from(open_monasteries);
        self.monastery_cells.clone_from(monastery_cells);
        self.features.clone_from(features);
        self.bounds.clone_from(bounds);
    }

    /// Empties the board for a new game of the same size, keeping every
    /// buffer (no allocation).
    pub(crate) fn reset(&mut self) {
        self.cells.clear();
        self.pieces.clear();
        self.partner.clear();
        self.frontier.clear();
        self.fr_key.clear();
        self.half_cells.clear();
        self.open_monasteries.clear();
        self.monastery_cells.clear();
        self.features.clear();
    }

    /// Whether this board's table has room for a game of `max_cells`
    /// occupied cells (a reset for a new deal then keeps it).
    pub(crate) fn holds(&self, max_cells: usize) -> bool {
        self.cells.entries.len() >= CellMap::capacity_for(max_cells)
    }

    /// An empty board for games of at most `max_cells` occupied cells.
    pub fn new(max_cells: usize, bounds: Option<MapBounds>) -> Board {
        Board {
            cells: CellMap::new(max_cells),
            pieces: Vec::with_capacity(max_cells + 2),
            partner: Vec::with_capacity(max_cells + 2),
            frontier: Vec::with_capacity(64),
            fr_key: Vec::with_capacity(64),
            code_id: [0; 64],
            key_pow: [0; 4],
            half_cells: Vec::new(),
            // Room for more open monasteries (abbeys, shrines) than any
            // set deals, so that a game with many never grows the lists
            // long after warm-up.
            open_monasteries: Vec::with_capacity(32),
            monastery_cells: Vec::with_capacity(32),
            features: Features::with_capacity(max_cells * 4),
            bounds,
        }
    }

    /// Whether a tile may ever lie at `p` (always, on an unbounded board).
    pub fn allowed(&self, p: Pos) -> bool {
        self.bounds.as_ref().is_none_or(|b| b.contains(p))
    }

    /// The map, if the board is bounded.
    pub fn bounds(&self) -> Option<&MapBounds> {
        self.bounds.as_ref()
    }

    /// Placed pieces, in order of placement.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The feature graph.
    pub(crate) fn features(&self) -> &Features {
        &self.features
    }

    /// The feature graph, for the game's follower bookkeeping.
    pub(crate) fn features_mut(&mut self) -> &mut Features {
        &mut self.features
    }

    /// Cells where a square tile could touch the board.
    pub(crate) fn frontier(&self) -> &[FrontierCell] {
        &self.frontier
    }

    /// The empty cells next to a placed side (where a square tile could
    /// touch the board), in no promised order.
    pub fn frontier_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        self.frontier.iter().map(|c| c.pos)
    }

    /// Each frontier cell's key into the game's [`FitTable`], in frontier
    /// order (all zero when the game has none).
    pub(crate) fn frontier_keys(&self) -> &[u16] {
        &self.fr_key
    }

    /// Takes the key digits of `table` (before any piece is placed, or
    /// the frontier's keys are stale).
    pub(crate) fn set_fit_keys(&mut self, table: &FitTable) {
        self.code_id = table.code_id;
        let r = table.radix;
        self.key_pow = [1, r, r * r, r * r * r];
    }

    /// Cells holding exactly one half tile.
    pub fn half_cells(&self) -> &[Pos] {
        &self.half_cells
    }

    /// The pieces in cell `p` (none, one, or two halves), as
    /// `(piece index, part of the piece)`.
    pub fn pieces_at(&self, p: Pos) -> impl Iterator<Item = (u16, u8)> + '_ {
        let s = self.cells.get(p);
        let first = (s.occ != 0).then(|| ((s.occ & !PART_BIT) - 1, (s.occ >> 15) as u8));
        let second = first.and_then(|(pi, _)| {
            let q = self.partner[pi as usize];
            (q != NO_PIECE).then_some((q, 0))
        });
        first.into_iter().chain(second)
    }

    /// Calls `f` with every piece adjacent to piece `pi`, possibly more
    /// than once: those in orthogonally neighbouring cells of any of its
    /// cells, and the other half of its own cell. Adjacency is judged
    /// between occupied cells (`halfsies.md`): a single triangular gap does
    /// not break it, so a half is adjacent to all four neighbouring cells
    /// whichever of its sides face them. The rules that move a figure or a
    /// spread from tile to tile share it.
    #[inline]
    pub fn each_adjacent(&self, cat: &Catalog, pi: u16, mut f: impl FnMut(u16)) {
        let piece = self.pieces[pi as usize];
        // A whole tile is alone in its cells: only a half shares its own.
        let own_cell = piece.corner.is_some();
        for &(dx, dy) in &cat.tile(piece.tile).oriented(piece.rot).cells {
            let c = piece.pos.offset(dx, dy);
            if own_cell {
                self.each_piece_at(c, pi, &mut f);
            }
            for side in Side::ALL {
                self.each_piece_at(c.step(side), pi, &mut f);
            }
        }
    }

    /// [`Board::each_adjacent`] without repeats, in the order of first
    /// meeting, into `out` (cleared first).
    pub fn adjacent_pieces(&self, cat: &Catalog, pi: u16, out: &mut Vec<u16>) {
        out.clear();
        self.each_adjacent(cat, pi, |q| {
            if !out.contains(&q) {
                out.push(q);
            }
        });
    }

    /// Calls `f` with each piece in cell `p` other than `skip` (the
    /// iterator of [`Board::pieces_at`], unrolled for the adjacency walk).
    #[inline]
    fn each_piece_at(&self, p: Pos, skip: u16, f: &mut impl FnMut(u16)) {
        let occ = self.cells.get(p).occ;
        if occ == 0 {
            return;
        }
        let first = (occ & !PART_BIT) - 1;
        if first != skip {
            f(first);
        }
        let second = self.partner[first as usize];
        if second != NO_PIECE && second != skip {
            f(second);
        }
    }

    /// Pieces with a monastery not yet known to be complete, in placement
    /// order.
    pub fn open_monasteries(&self) -> &[u16] {
        &self.open_monasteries
    }

    /// Forgets the monasteries whose feature has been closed (scored).
    pub(crate) fn drop_complete_monasteries(&mut self, cat: &Catalog) {
        let (pieces, features) = (&self.pieces, &self.features);
        // A retain over both lists at once, keeping them parallel.
        let mut kept = 0;
        for i in 0..self.open_monasteries.len() {
            let q = self.open_monasteries[i];
            let p = pieces[q as usize];
            let open = cat
                .tile(p.tile)
                .monastery
                .is_some_and(|fi| !features.is_closed(features.root(p.node_base + fi as NodeId)));
            if open {
                self.open_monasteries[kept] = q;
                self.monastery_cells[kept] = self.monastery_cells[i];
                kept += 1;
            }
        }
        self.open_monasteries.truncate(kept);
        self.monastery_cells.truncate(kept);
    }

    /// Whether the eight cells around entry `i` of
    /// [`Board::open_monasteries`] are all occupied (the second value of
    /// [`Board::monastery_surroundings`], kept up to date by `place`).
    pub fn open_monastery_surrounded(&self, i: usize) -> bool {
        self.monastery_cells.get(i).is_some_and(|c| c.1 == 8)
    }

    /// Whether cell `p` holds anything.
    pub fn is_occupied(&self, p: Pos) -> bool {
        self.cells.get(p).occ != 0
    }

    /// How many pieces lie in cell `p` (two halves count two).
    pub fn pieces_in_cell(&self, p: Pos) -> u8 {
        let s = self.cells.get(p);
        if s.occ == 0 {
            0
        } else if self.partner[((s.occ & !PART_BIT) - 1) as usize] != NO_PIECE {
            2
        } else {
            1
        }
    }

    /// The piece in cell `p` whose side `side` is a real side (for a cell
    /// with halves, the half whose short side lies there).
    pub fn piece_facing(&self, p: Pos, side: Side) -> Option<(u16, u8)> {
        self.pieces_at(p)
            .find(|(pi, _)| self.side_present(*pi, side))
    }

    /// [`Board::piece_facing`] for a cell whose slot is already read.
    #[inline]
    fn facing_in(&self, s: Slot, side: Side) -> Option<(u16, u8)> {
        if s.occ == 0 {
            return None;
        }
        let first = ((s.occ & !PART_BIT) - 1, (s.occ >> 15) as u8);
        if self.side_present(first.0, side) {
            return Some(first);
        }
        let q = self.partner[first.0 as usize];
        (q != NO_PIECE && self.side_present(q, side)).then_some((q, 0))
    }

    fn side_present(&self, pi: u16, side: Side) -> bool {
        // Internal sides of a double tile face its own other cell, never an
        // outside query, so only a half can lack an outward side.
        match self.pieces[pi as usize].corner {
            Some(c) => c.touches(side),
            None => true,
        }
    }

    /// The feature node at `place` of the piece in cell `p` (for a half-filled
    /// cell, `corner` picks the half).
    pub(crate) fn node_at(
        &self,
        cat: &Catalog,
        p: Pos,
        corner: Option<Corner>,
        place: Place,
    ) -> Option<NodeId> {
        let (pi, part) = self
            .pieces_at(p)
            .find(|(pi, _)| self.pieces[*pi as usize].corner == corner)?;
        self.node_of(cat, pi, part, place)
    }

    /// The feature node at `place` of part `part` of piece `pi`.
    pub(crate) fn node_of(&self, cat: &Catalog, pi: u16, part: u8, place: Place) -> Option<NodeId> {
        self.part_places(cat, pi, part)?.node(place)
    }

    /// The places of part `part` of piece `pi`, as turned on the board:
    /// for callers that name several places of one part (one lookup of
    /// the piece and its orientation instead of one a place).
    pub(crate) fn part_places<'a>(
        &self,
        cat: &'a Catalog,
        pi: u16,
        part: u8,
    ) -> Option<PartPlaces<'a>> {
        let piece = self.pieces.get(pi as usize)?;
        let features = cat
            .tile(piece.tile)
            .oriented(piece.rot)
            .place_feature
            .get(part as usize)?;
        Some(PartPlaces {
            base: piece.node_base,
            features,
        })
    }

    /// Checks whether a tile fits at `anchor` turned by `rot`; says why not.
    pub fn check(
        &self,
        cat: &Catalog,
        tile: TileIdx,
        anchor: Pos,
        rot: Rotation,
    ) -> Result<(), PlacementError> {
        let def = cat.tile(tile);
        let o = def.oriented(rot);
        let mut contacts = 0;
        for (k, &(dx, dy)) in o.cells.iter().enumerate() {
            let pos = anchor.offset(dx, dy);
            if !self.allowed(pos) {
                return Err(PlacementError::OffMap(pos));
            }
            // A cell holds at most two pieces (two halves): a short array,
            // not a vector a call (the listing of halves checks every
            // candidate cell in four rotations).
            let mut here = [(0u16, 0u8); 2];
            let mut len = 0;
            for (slot, p) in here.iter_mut().zip(self.pieces_at(pos)) {
                *slot = p;
                len += 1;
            }
            match (def.shape, &here[..len]) {
                (_, []) => {}
                (Shape::Half, [(q, _)]) if self.pieces[*q as usize].corner.is_none() => {
                    return Err(PlacementError::Occupied(pos))
                }
                (Shape::Half, [(q, _)]) => {
                    let theirs = self.pieces[*q as usize].corner;
                    let mine = Corner::of_half(rot);
                    if theirs != Some(mine.opposite()) {
                        return Err(PlacementError::HalfClash(pos, mine));
                    }
                    // Both are halves here, so both have a long side.
                    let long = |o: &Oriented| o.half.map_or(0, |(_, side)| side.code);
                    let q = self.pieces[*q as usize];
                    let (theirs, mine) = (long(cat.tile(q.tile).oriented(q.rot)), long(o));
                    if theirs != mine {
                        return Err(PlacementError::Mismatch {
                            pos,
                            side: None,
                            mine: describe(mine),
                            theirs: describe(theirs),
                        });
                    }
                    contacts += 1;
                }
                (Shape::Half, _) => return Err(PlacementError::Occupied(pos)),
                (_, [(q, _)]) if self.pieces[*q as usize].corner.is_some() => {
                    return Err(PlacementError::HalfFilled(pos))
                }
                _ => return Err(PlacementError::Occupied(pos)),
            }
            for side in Side::ALL {
                let mine = o.sides[k][side.index()];
                if !mine.present {
                    continue;
                }
                let npos = pos.step(side);
                if let Some((q, qpart)) = self.piece_facing(npos, side.opposite()) {
                    let theirs = self.side_code(cat, q, qpart, side.opposite());
                    if !SideProfile::fit(theirs, mine.code) {
                        return Err(PlacementError::Mismatch {
                            pos,
                            side: Some(side),
                            mine: describe(mine.code),
                            theirs: describe(theirs),
                        });
                    }
                    contacts += 1;
                }
            }
        }
        if contacts == 0 {
            return Err(PlacementError::NoContact);
        }
        Ok(())
    }

    fn side_code(&self, cat: &Catalog, pi: u16, part: u8, side: Side) -> u8 {
        let piece = &self.pieces[pi as usize];
        cat.tile(piece.tile).oriented(piece.rot).sides[part as usize][side.index()].code
    }

    /// Whether an oriented single square fits the frontier cell `f`.
    #[inline]
    pub(crate) fn square_fits(f: &FrontierCell, o: &Oriented) -> bool {
        (o.packed ^ f.code) & f.mask == 0
    }

    /// The rotations in which a single square fits the frontier cell `f`:
    /// bit `r` for [`Rotation::ALL`]`[r]`, given the square's packed codes
    /// in the four rotations. On x86-64 the four compares are one SSE2
    /// compare (SSE2 is part of the baseline target, so no CPU check is
    /// needed); elsewhere four scalar compares.
    #[inline]
    pub(crate) fn fit_mask(f: &FrontierCell, packed: &[u32; 4]) -> u32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            use std::arch::x86_64::{
                _mm_and_si128, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_movemask_ps, _mm_set1_epi32,
                _mm_set_epi32, _mm_setzero_si128, _mm_xor_si128,
            };
            // SAFETY: these intrinsics only need SSE2, which this block is
            // compiled with (the `cfg` above), and touch no memory.
            unsafe {
                // `as i32` reinterprets the bits; lane r holds rotation r.
                let p = _mm_set_epi32(
                    packed[3] as i32,
                    packed[2] as i32,
                    packed[1] as i32,
                    packed[0] as i32,
                );
                let d = _mm_and_si128(
                    _mm_xor_si128(p, _mm_set1_epi32(f.code as i32)),
                    _mm_set1_epi32(f.mask as i32),
                );
                let zero = _mm_cmpeq_epi32(d, _mm_setzero_si128());
                _mm_movemask_ps(_mm_castsi128_ps(zero)) as u32
            }
        }
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        {
            let mut m = 0;
            for (r, p) in packed.iter().enumerate() {
                m |= u32::from((p ^ f.code) & f.mask == 0) << r;
            }
            m
        }
    }

    /// The rotations in which a single square (codes `packed` in the four
    /// rotations) fits each frontier cell: `out[i]` gets cell `i`'s
    /// [`Board::fit_mask`] for the cells `out` has room for. Returns the
    /// number of fitting (cell, rotation) pairs over the whole frontier.
    /// On x86-64 four cells are tested at once (one SSE2 compare per
    /// rotation), the per-cell work of sampling a random placement.
    pub(crate) fn fit_masks(&self, packed: &[u32; 4], out: &mut [u8]) -> u32 {
        let cells = &self.frontier[..];
        let n = cells.len();
        let mut total = 0u32;
        let mut i = 0;
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        {
            use std::arch::x86_64::{
                __m128i, _mm_add_epi32, _mm_and_si128, _mm_cmpeq_epi32, _mm_cvtsi128_si32,
                _mm_loadu_si128, _mm_or_si128, _mm_packs_epi32, _mm_packus_epi16, _mm_set1_epi32,
                _mm_setzero_si128, _mm_storeu_si128, _mm_sub_epi32, _mm_unpackhi_epi32,
                _mm_unpackhi_epi64, _mm_unpacklo_epi64, _mm_xor_si128,
            };
            // SAFETY: SSE2 is enabled for this block (the `cfg` above); the
            // four loads read cells i..i+4 of the frontier (16 bytes each,
            // `repr(C)`, checked by the assertion beside `FrontierCell`), in
            // bounds because i + 4 <= n; the store writes a local array of
            // four lanes.
            unsafe {
                let p = packed.map(|x| _mm_set1_epi32(x as i32));
                let bit = [1, 2, 4, 8].map(|b| _mm_set1_epi32(b));
                let zero = _mm_setzero_si128();
                let mut acc = zero;
                while i + 4 <= n {
                    let at = cells.as_ptr().add(i).cast::<__m128i>();
                    // Lanes (x, y, code, mask) of four cells into the four
                    // codes and the four masks.
                    let lo = _mm_unpackhi_epi32(_mm_loadu_si128(at), _mm_loadu_si128(at.add(1)));
                    let hi =
                        _mm_unpackhi_epi32(_mm_loadu_si128(at.add(2)), _mm_loadu_si128(at.add(3)));
                    let c = _mm_unpacklo_epi64(lo, hi);
                    let m = _mm_unpackhi_epi64(lo, hi);
                    // Lane j of e[r]: all ones when rotation r fits cell i + j.
                    let e =
                        p.map(|pr| _mm_cmpeq_epi32(_mm_and_si128(_mm_xor_si128(c, pr), m), zero));
                    acc = _mm_sub_epi32(
                        _mm_sub_epi32(acc, _mm_add_epi32(e[0], e[1])),
                        _mm_add_epi32(e[2], e[3]),
                    );
                    let bits = _mm_or_si128(
                        _mm_or_si128(_mm_and_si128(e[0], bit[0]), _mm_and_si128(e[1], bit[1])),
                        _mm_or_si128(_mm_and_si128(e[2], bit[2]), _mm_and_si128(e[3], bit[3])),
                    );
                    // Each lane's mask (0..=15) into one byte, four bytes.
                    let w = _mm_packs_epi32(bits, bits);
                    let four = _mm_cvtsi128_si32(_mm_packus_epi16(w, w)) as u32;
                    let bytes = four.to_le_bytes();
                    if let Some(dst) = out.get_mut(i..i + 4) {
                        dst.copy_from_slice(&bytes);
                    } else if let Some(rest) = out.get_mut(i..) {
                        // `out` ends inside this group.
                        rest.copy_from_slice(&bytes[..rest.len()]);
                    }
                    i += 4;
                }
                let mut lanes = [0u32; 4];
                _mm_storeu_si128(lanes.as_mut_ptr().cast::<__m128i>(), acc);
                total += lanes.iter().sum::<u32>();
            }
        }
        while i < n {
            let m = Board::fit_mask(&cells[i], packed);
            if let Some(dst) = out.get_mut(i) {
                *dst = m as u8;
            }
            total += m.count_ones();
            i += 1;
        }
        total
    }

    /// Places a tile (already checked) and joins its features to their
    /// neighbours. Returns the new piece's index.
    pub fn place(&mut self, cat: &Catalog, tile: TileIdx, anchor: Pos, rot: Rotation) -> u16 {
        let def = cat.tile(tile);
        let o = def.oriented(rot);
        let pi = self.pieces.len() as u16;
        let node_base = self.features.len() as NodeId;
        let corner = (def.shape == Shape::Half).then(|| Corner::of_half(rot));
        self.pieces.push(Piece {
            tile,
            pos: anchor,
            rot,
            corner,
            node_base,
        });
        self.partner.push(NO_PIECE);
        self.occupy(o, pi, anchor, corner, def.monastery.is_some());
        if let Some(open) = o.open_init {
            self.join_square(cat, pi, anchor, o, open);
            return pi;
        }
        for (fi, f) in def.features.iter().enumerate() {
            self.features.add(pi, fi as u8, f.kind, f.arms);
        }
        for (k, &(dx, dy)) in o.cells.iter().enumerate() {
            let pos = anchor.offset(dx, dy);
            for side in Side::ALL {
                if !o.sides[k][side.index()].present {
                    continue;
                }
                let mine = o.side_features[k][side.index()];
                let npos = pos.step(side);
                // One probe of the neighbour for both the match and the
                // frontier (off the map: a look that adds no entry).
                let at = if self.allowed(npos) {
                    Some(self.cells.index(npos))
                } else {
                    None
                };
                let nslot = match at {
                    Some(i) => self.cells.entries[i].1,
                    None => self.cells.get(npos),
                };
                match self.facing_in(nslot, side.opposite()) {
                    Some((q, qpart)) => self.join_facing(cat, side, q, qpart, node_base, mine),
                    None => {
                        self.open_side(node_base, mine);
                        if let (Some(i), 0) = (at, nslot.occ) {
                            let code = o.sides[k][side.index()].code;
                            self.add_frontier(i, npos, side.opposite(), code);
                        }
                    }
                }
            }
        }
        if let Some(c) = corner {
            let mine = [Place::H1, Place::H, Place::H2].map(|p| o.place_feature[0][p.index()]);
            let pos = anchor;
            let other = self
                .pieces_at(pos)
                .find(|(q, _)| *q != pi && self.pieces[*q as usize].corner == Some(c.opposite()));
            match other {
                Some((q, _)) => {
                    let qp = self.pieces[q as usize];
                    let qo = cat.tile(qp.tile).oriented(qp.rot);
                    // Long sides run in opposite directions: H1 meets H2.
                    let theirs =
                        [Place::H2, Place::H, Place::H1].map(|p| qo.place_feature[0][p.index()]);
                    self.join_side(qp.node_base, theirs, node_base, mine);
                }
                None => self.open_side(node_base, mine),
            }
        }
        pi
    }

    /// Puts piece `pi` into its cells: off the frontier, counted by the
    /// open monasteries around, and listed itself if it has a monastery.
    fn occupy(
        &mut self,
        o: &Oriented,
        pi: u16,
        anchor: Pos,
        corner: Option<Corner>,
        monastery: bool,
    ) {
        for (k, &(dx, dy)) in o.cells.iter().enumerate() {
            let pos = anchor.offset(dx, dy);
            let slot = self.cells.entry(pos);
            let fr = slot.fr;
            slot.fr = 0;
            if slot.occ == 0 {
                slot.occ = (pi + 1) | ((k as u16) << 15);
                if corner.is_some() {
                    self.half_cells.push(pos);
                }
                // A cell occupied for the first time: one more neighbour
                // for each open monastery around it.
                for (qpos, c) in &mut self.monastery_cells {
                    let (ddx, ddy) = (pos.x - qpos.x, pos.y - qpos.y);
                    if (-1..=1).contains(&ddx) && (-1..=1).contains(&ddy) && (ddx, ddy) != (0, 0) {
                        *c += 1;
                    }
                }
            } else {
                // The second half of a cell.
                let first = (slot.occ & !PART_BIT) - 1;
                self.partner[first as usize] = pi;
                self.partner[pi as usize] = first;
                self.half_cells.retain(|c| *c != pos);
            }
            self.remove_frontier(fr);
        }
        if monastery {
            // Its neighbours so far, once its own cells are down.
            let around = (0..9)
                .filter(|&i| i != 4)
                .filter(|i| self.cells.get(anchor.offset(i % 3 - 1, i / 3 - 1)).occ != 0)
                .count();
            self.open_monasteries.push(pi);
            self.monastery_cells.push((anchor, around as u8));
        }
    }

    /// The sides of a single square (`open`: [`Oriented::open_init`]): its
    /// four neighbours are looked at first, so that the sides meeting a
    /// piece take their features' edges off the counts before the nodes
    /// are made (no count added side by side and taken back), then the
    /// sides are joined or put on the frontier in the order of
    /// [`Board::place`]'s general loop, so the unions and the frontier come
    /// out the same.
    fn join_square(
        &mut self,
        cat: &Catalog,
        pi: u16,
        anchor: Pos,
        o: &Oriented,
        mut open: [u8; 16],
    ) {
        let node_base = self.features.len() as NodeId;
        let mut at = [None; 4];
        let mut empty = [false; 4];
        let mut facing = [None; 4];
        for side in Side::ALL {
            let s = side.index();
            if !o.sides[0][s].present {
                continue;
            }
            let npos = anchor.step(side);
            // One probe of the neighbour for both the match and the
            // frontier (off the map: a look that adds no entry).
            at[s] = self.allowed(npos).then(|| self.cells.index(npos));
            let nslot = match at[s] {
                Some(i) => self.cells.entries[i].1,
                None => self.cells.get(npos),
            };
            empty[s] = nslot.occ == 0;
            facing[s] = self.facing_in(nslot, side.opposite());
            if facing[s].is_some() {
                for f in o.side_once[s] {
                    if let Some(n) = open.get_mut(f as usize) {
                        *n = n.saturating_sub(1);
                    }
                }
            }
        }
        let def = cat.tile(self.pieces[pi as usize].tile);
        for ((fi, f), n) in def.features.iter().enumerate().zip(open) {
            self.features
                .add_open_edges(pi, fi as u8, f.kind, f.arms, u16::from(n));
        }
        for side in Side::ALL {
            let s = side.index();
            if !o.sides[0][s].present {
                continue;
            }
            match facing[s] {
                Some((q, qpart)) => {
                    let mine = o.side_features[0][s];
                    self.join_facing(cat, side, q, qpart, node_base, mine);
                }
                None => {
                    if let (Some(i), true) = (at[s], empty[s]) {
                        let code = o.sides[0][s].code;
                        self.add_frontier(i, anchor.step(side), side.opposite(), code);
                    }
                }
            }
        }
    }

    /// Joins the places `mine` of side `side` of the new piece (nodes from
    /// `my_base`) to part `qpart` of piece `q`, which faces that side.
    fn join_facing(
        &mut self,
        cat: &Catalog,
        side: Side,
        q: u16,
        qpart: u8,
        my_base: NodeId,
        mine: [u8; 3],
    ) {
        let qp = self.pieces[q as usize];
        let qo = cat.tile(qp.tile).oriented(qp.rot);
        let theirs = qo.across[qpart as usize][side.index()];
        self.join_side(qp.node_base, theirs, my_base, mine);
    }

    /// Joins the three places of a side to the three facing places of the
    /// neighbour, closing the neighbour's open edge there.
    // Inlined: called for a third of the sides placed, and its entry and
    // exit cost a fifth of its own work (callgrind).
    #[inline(always)]
    fn join_side(&mut self, their_base: NodeId, theirs: [u8; 3], my_base: NodeId, mine: [u8; 3]) {
        // Place by place, one search for the neighbour's root serves both
        // its edge count and the union. Counts are sums over a set, so
        // taking an edge off before or after a union ends the same, and
        // the unions come in the same order.
        for i in 0..3 {
            let (t, m) = (theirs[i], mine[i]);
            if t == NO_FEATURE {
                continue;
            }
            let first = !theirs[..i].contains(&t);
            // A pair joined already (a city or field side's three places)
            // would be a union of one set: nothing to do.
            let join = m != NO_FEATURE && !(0..i).any(|j| theirs[j] == t && mine[j] == m);
            if !first && !join {
                continue;
            }
            let root = self.features.find(their_base + t as NodeId);
            if first {
                self.features.close_edge_at_root(root);
            }
            if join {
                self.features.union_root(root, my_base + m as NodeId);
            }
        }
    }

    fn open_side(&mut self, base: NodeId, mine: [u8; 3]) {
        for (i, m) in mine.iter().enumerate() {
            if *m != NO_FEATURE && !mine[..i].contains(m) {
                self.features.add_open(base + *m as NodeId, 1);
            }
        }
    }

    /// Records that the empty cell `pos` (entry `i` of the cell table)
    /// faces `code` on its side `side`.
    // Inlined: called for about three sides a placement, and its entry
    // and exit cost a quarter of its own work (callgrind).
    #[inline(always)]
    fn add_frontier(&mut self, i: usize, pos: Pos, side: Side, code: u8) {
        let shift = 8 * side.index() as u32;
        let pow = self.key_pow[side.index()];
        let digit = u16::from(self.code_id[code as usize & 63]).wrapping_mul(pow);
        let slot = &mut self.cells.entries[i].1;
        if slot.fr == 0 {
            // A new frontier cell: this side is its only one so far.
            self.frontier.push(FrontierCell {
                pos,
                code: u32::from(code) << shift,
                mask: 0xFF << shift,
            });
            self.fr_key.push(digit);
            slot.fr = self.frontier.len() as u16;
            return;
        }
        let at = slot.fr as usize - 1;
        let (Some(f), Some(key)) = (self.frontier.get_mut(at), self.fr_key.get_mut(at)) else {
            debug_assert!(false, "a frontier slot past the frontier");
            return;
        };
        if f.mask & (0xFF << shift) != 0 {
            // A side set again: its old digit goes first.
            let old = (f.code >> shift) as usize & 63;
            *key = key.wrapping_sub(u16::from(self.code_id[old]).wrapping_mul(pow));
        }
        *key = key.wrapping_add(digit);
        f.code = (f.code & !(0xFF << shift)) | (u32::from(code) << shift);
        f.mask |= 0xFF << shift;
    }

    /// Takes frontier entry `fr` (index + 1, 0: none) off the frontier; its
    /// cell's slot has already been cleared by the caller.
    fn remove_frontier(&mut self, fr: u16) {
        if fr == 0 {
            return;
        }
        let at = fr as usize - 1;
        self.frontier.swap_remove(at);
        self.fr_key.swap_remove(at);
        if at < self.frontier.len() {
            let moved = self.frontier[at].pos;
            self.cells.entry(moved).fr = at as u16 + 1;
        }
    }

    /// The distinct pieces of the feature of `n`, each with its weight (cells
    /// it covers), for "a tile counts once" rules. `per_cell` counts the
    /// cells covered instead of pieces (two halves in a cell count one).
    pub(crate) fn feature_tiles(&self, cat: &Catalog, n: NodeId, per_cell: bool) -> u32 {
        // One bit a piece on the stack marks the pieces counted (no sort,
        // no list); a board of more pieces than it holds sorts keys instead.
        let mut seen = [0u64; 8];
        if self.pieces.len() > seen.len() * 64 {
            return self.long_feature_tiles(cat, n, per_cell);
        }
        let mut total = 0;
        for m in self.features.members(n) {
            let (pi, _) = self.features.origin(m);
            let mut key = pi;
            if per_cell && self.pieces[pi as usize].corner.is_some() {
                // Two halves of a cell: the lower index stands for both.
                key = key.min(self.partner[pi as usize]);
            }
            let (word, bit) = (usize::from(key / 64), 1u64 << (key % 64));
            if let Some(w) = seen.get_mut(word).filter(|w| **w & bit == 0) {
                *w |= bit;
                total += cat.tile(self.pieces[usize::from(key)].tile).cell_count() as u32;
            }
        }
        total
    }

    /// [`Board::feature_tiles`] on a board of more pieces than its bits.
    fn long_feature_tiles(&self, cat: &Catalog, n: NodeId, per_cell: bool) -> u32 {
        // Distinct keys on the stack for the usual feature; a feature with
        // more segments than that spills into a vector.
        let mut keys = [0u32; 256];
        let mut len = 0;
        let mut spill: Vec<u32> = Vec::new();
        for m in self.features.members(n) {
            let key = self.tile_key(m, per_cell);
            if len < keys.len() {
                keys[len] = key;
                len += 1;
            } else {
                spill.push(key);
            }
        }
        let keys: &mut [u32] = if spill.is_empty() {
            &mut keys[..len]
        } else {
            spill.extend_from_slice(&keys);
            &mut spill
        };
        self.distinct_weight(cat, keys)
    }

    /// What a feature's tile count counts for its member `m`: its piece,
    /// or with `per_cell` the cell of a half (two halves count once).
    #[inline]
    fn tile_key(&self, m: NodeId, per_cell: bool) -> u32 {
        let (pi, _) = self.features.origin(m);
        let piece = &self.pieces[pi as usize];
        if per_cell && piece.corner.is_some() {
            0x8000_0000 | ((piece.pos.x as u32 & 0x7FFF) << 15) | (piece.pos.y as u32 & 0x7FFF)
        } else {
            pi as u32
        }
    }

    /// The cells covered by the distinct keys of [`Board::tile_key`] in
    /// `keys` (sorted here).
    fn distinct_weight(&self, cat: &Catalog, keys: &mut [u32]) -> u32 {
        keys.sort_unstable();
        let mut total = 0;
        for (i, k) in keys.iter().enumerate() {
            if i > 0 && keys[i - 1] == *k {
                continue;
            }
            total += if k & 0x8000_0000 != 0 {
                1
            } else {
                cat.tile(self.pieces[*k as usize].tile).cell_count() as u32
            };
        }
        total
    }

    /// For a monastery on piece `pi`: (tiles around it, whether every
    /// surrounding cell is occupied). Each half counts as a tile, and a
    /// monastery on a half also counts the other half of its cell; with
    /// `per_cell` (2014 Half-and-half rules) an occupied cell counts one.
    pub fn monastery_surroundings(&self, pi: u16, per_cell: bool) -> (u32, bool) {
        let piece = self.pieces[pi as usize];
        let mut count = 0u32;
        let mut full = true;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let n = self.pieces_in_cell(piece.pos.offset(dx, dy)) as u32;
                count += if per_cell { n.min(1) } else { n };
                full &= n > 0;
            }
        }
        if !per_cell && piece.corner.is_some() && self.partner[pi as usize] != NO_PIECE {
            count += 1;
        }
        (count, full)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::{Game, GameConfig, Phase};

    /// Plays a random 2-player game of `sets` (config seed `seed`, picks
    /// from stream `stream` of it), calling `f` on every position.
    fn each_position(sets: &[&str], seed: u64, stream: u64, mut f: impl FnMut(&Game)) {
        let config = GameConfig::from_sets(2, seed, sets).expect("a valid set");
        let mut game = Game::new(config).expect("a valid configuration");
        let mut rng = Rng::for_stream(seed, stream);
        let mut buf = Vec::new();
        loop {
            f(&game);
            let Some(a) = game.random_action(&mut rng, &mut buf) else {
                break;
            };
            game.apply_legal(&a);
        }
    }

    /// `Board::fit_masks` (four frontier cells per compare, the sampler's
    /// first pass) gives every cell the mask `Board::fit_mask` gives it, and
    /// their total, on boards of every size a game passes through, with an
    /// output shorter than the frontier as well.
    #[test]
    fn grouped_fit_masks_agree_with_one_cell_at_a_time() {
        use crate::catalog::Shape;
        use crate::geometry::Rotation;
        for sets in [
            &["base"][..],
            &["winter", "gingerbread"],
            &["base", "river2"],
        ] {
            each_position(sets, 3, 9, |game| {
                if let (Phase::Place, Some(t)) = (game.phase(), game.drawn_tile()) {
                    let def = game.catalog().tile(t);
                    if def.shape == Shape::Square {
                        let packed = Rotation::ALL.map(|r| def.oriented(r).packed);
                        let frontier = game.board().frontier();
                        let one: Vec<u32> = frontier
                            .iter()
                            .map(|fc| Board::fit_mask(fc, &packed))
                            .collect();
                        let mut out = vec![0u8; frontier.len()];
                        let total = game.board().fit_masks(&packed, &mut out);
                        assert_eq!(total, one.iter().map(|m| m.count_ones()).sum::<u32>());
                        assert!(out.iter().zip(&one).all(|(a, b)| u32::from(*a) == *b));
                        let mut short = vec![0u8; frontier.len() / 2];
                        assert_eq!(game.board().fit_masks(&packed, &mut short), total);
                        assert_eq!(short[..], out[..short.len()]);
                    }
                }
            });
        }
    }

    /// The fit table gives every frontier cell, for every tabled tile, the
    /// rotations and count the compares give, on every board a game passes
    /// through, in sets with extra codes (the river), a bounded map and
    /// large tiles.
    #[test]
    fn fit_table_agrees_with_the_compares() {
        for sets in [
            &["base"][..],
            &["winter", "gingerbread"],
            &["base", "river2"],
            &["base", "map-chips"],
            &["base", "inns-cathedrals"],
        ] {
            let mut checked = 0;
            each_position(sets, 7, 3, |game| {
                let (cat, fit) = (&game.rules.catalog, &game.rules.fit);
                if game.phase() == Phase::Place {
                    let board = game.board();
                    assert_eq!(board.frontier_keys().len(), board.frontier().len());
                    for (i, def) in cat.tiles().iter().enumerate() {
                        let Some(row) = fit.row(TileIdx(i as u16)) else {
                            continue;
                        };
                        let packed = Rotation::ALL.map(|r| def.oriented(r).packed);
                        for (fc, key) in board.frontier().iter().zip(board.frontier_keys()) {
                            let want = Board::fit_mask(fc, &packed);
                            let got = row[*key as usize];
                            assert_eq!(u32::from(got & 15), want, "{sets:?} {}", def.id);
                            assert_eq!(u32::from(got >> 4), want.count_ones());
                            checked += 1;
                        }
                    }
                }
            });
            assert!(checked > 1000, "{sets:?}: only {checked} cells checked");
        }
    }

    /// The marked-bits tile count agrees with the sorted-keys count (the
    /// path of a board with more pieces than bits) for every feature of
    /// every position, per piece and per cell, with halves, the river's
    /// double-size source and a bounded map.
    #[test]
    fn feature_tiles_by_bits_agree_with_sorted_keys() {
        for sets in [
            &["base"][..],
            &["base", "halfsies1", "halfsies2"],
            &["base", "river20", "cutcassonne"],
            &["base", "map-chips"],
        ] {
            for seed in 1..4 {
                let mut checked = 0;
                each_position(sets, seed, 5, |game| {
                    let (cat, board) = (&*game.rules.catalog, game.board());
                    for n in 0..board.features().len() as NodeId {
                        for per_cell in [false, true] {
                            let bits = board.feature_tiles(cat, n, per_cell);
                            assert_eq!(
                                bits,
                                board.long_feature_tiles(cat, n, per_cell),
                                "{sets:?}"
                            );
                            assert!(bits > 0);
                            checked += 1;
                        }
                    }
                });
                assert!(
                    checked > 10_000,
                    "{sets:?}: only {checked} features checked"
                );
            }
        }
    }
}
