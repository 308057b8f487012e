//! The Plague's definitions and regions (`plague.md`, "Definitions" and
//! "Regions merge and split"): which pieces are adjacent (orthogonal
//! neighbours, judged between occupied cells so that half tiles and double
//! tiles behave as `halfsies.md` says), the active plague regions (an active
//! outbreak's source and the flea tiles joined to it) and the latent fleas
//! outside them, and the recomputation after every flea move or outbreak,
//! which flips all but the highest-numbered outbreak of a merged region.
//!
//! Adjacency between two pieces never changes once both are down, so it is
//! stored when each piece is placed (`Plague::sync`), and the region
//! searches run on small stacks over it instead of asking the board. The
//! same pass stores, for the flight, adjacency at the level of places: the
//! segment across each border place of each piece (`border_slots`) and how
//! actions name each segment.

use crate::action::FeatureAt;
use crate::board::Board;
use crate::catalog::{Catalog, NO_FEATURE};
use crate::features::NodeId;
use crate::geometry::{Place, Side};
use crate::scoring::{Event, Reason};

use super::components::{is_source, Plague, FLEAS, OUTBREAKS};

/// The most pieces adjacent to one piece: a double tile has six
/// neighbouring cells, and a cell holds at most two pieces (two halves);
/// a square tile or a half has fewer (four cells, plus a half's partner).
const MAX_ADJACENT: usize = 12;

/// The pieces adjacent to one piece, stored when pieces are placed (the
/// relation between two pieces never changes once both are down).
#[derive(Clone, Copy, Debug)]
pub(super) struct Adjacent {
    len: u8,
    list: [u16; MAX_ADJACENT],
}

impl Adjacent {
    pub(super) const EMPTY: Adjacent = Adjacent {
        len: 0,
        list: [0; MAX_ADJACENT],
    };

    pub(super) fn as_slice(&self) -> &[u16] {
        &self.list[..self.len as usize]
    }

    pub(super) fn push(&mut self, q: u16) {
        // The bound holds by construction (see `MAX_ADJACENT`); indexing
        // panics rather than silently dropping a neighbour if it ever broke.
        self.list[self.len as usize] = q;
        self.len += 1;
    }
}

/// The pieces adjacent to piece `pi` ([`Board::adjacent_pieces`], shared
/// with the dragon's movement).
pub fn adjacent_pieces(board: &Board, cat: &Catalog, pi: u16, out: &mut Vec<u16>) {
    board.adjacent_pieces(cat, pi, out);
}

/// [`adjacent_pieces`] on the stack: the same pieces in the same order.
fn board_adjacent(board: &Board, cat: &Catalog, pi: u16) -> Adjacent {
    let mut a = Adjacent::EMPTY;
    board.each_adjacent(cat, pi, |q| {
        if !a.as_slice().contains(&q) {
            a.push(q);
        }
    });
    a
}

/// No segment across a border slot.
pub(super) const NO_NODE: NodeId = NodeId::MAX;

/// Slots of each cell of a piece: its twelve border places, numbered as
/// [`Place::border`] numbers them.
const CELL_SLOTS: usize = 12;

/// Calls `f(own feature, across)` for every border slot of piece `pi`:
/// each place of each side of each cell (cells in order, sides N E S W, the
/// side's three places in order), then for a half the three places of its
/// long side. `across`, when a piece lies beyond: that piece, the number of
/// its own slot facing this one, and its segment there.
pub(super) fn border_slots(
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

/// Up to [`FLEAS`] + 1 pieces: the stack of a region search (a source and
/// the fleas it reaches, each pushed once).
pub(super) type Stack = ([u16; FLEAS as usize + 1], usize);

impl Plague {
    /// Stores the adjacency of every piece placed since the last call (each
    /// new piece's neighbours, and the new piece in theirs).
    pub(super) fn sync(&mut self, board: &Board, cat: &Catalog) {
        let n = board.pieces().len();
        while self.adjacent.len() < n {
            let pi = self.adjacent.len() as u16;
            let mut mine = Adjacent::EMPTY;
            board.each_adjacent(cat, pi, |q| {
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
    pub(super) fn adjacent_to(&self, board: &Board, cat: &Catalog, pi: u16) -> Adjacent {
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
}

/// An event about an outbreak token (`extra` is its number).
pub(super) fn token_event(board: &Board, reason: Reason, index: usize, piece: u16) -> Event {
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
    pub(super) fn settle(&mut self, board: &Board, cat: &Catalog, events: &mut Vec<Event>) {
        let (flipped, n) = self.recompute(board, cat);
        for &k in &flipped[..n] {
            let piece = self.outbreaks[k as usize].piece;
            events.push(token_event(board, Reason::Eradicated, k as usize, piece));
        }
        self.spreads_valid = false;
    }
}
