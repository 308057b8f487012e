//! The Plague's flight (`plague.md`, "A turn with the plague", step 5):
//! once a turn, any time after the tile is known, one of the current
//! player's followers (never a monk) moves to another part of its road,
//! city or field, never onto or across a tile with a flea or an active
//! outbreak.
//!
//! A flight search walks the feature segment by segment across the pieces'
//! border slots (stored when each piece goes down: `regions.rs`),
//! starting with the segments on tiles with a token marked as visited. The
//! turn's flights are searched once and kept per follower (`FlightGroup`):
//! a token change on a few pieces searches again only the followers whose
//! feature touches them (`Stale`), and a feature with no barred segment is
//! only counted until a flight along it is built.

use crate::action::{Action, FeatureAt};
use crate::catalog::FeatureKind;
use crate::features::NodeId;
use crate::game::{illegal, Game, IllegalAction};

use super::components::Plague;
use super::regions::{border_slots, NO_NODE};
use super::{with_bits, with_zeroed};

/// One follower that may flee (its segment named once however many of
/// the player's followers share it), in `Plague::flight_from`.
#[derive(Clone, Copy, Debug)]
pub(super) struct FlightGroup {
    /// The segment it stands on.
    start: NodeId,
    /// Where its flights end when all the groups' flights are counted one
    /// after another (they start where the previous group's end).
    pub(super) end: u32,
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
pub(super) enum Stale {
    /// The stored flights are those of the tokens as they are.
    No,
    /// A flea or an outbreak changed on these pieces.
    Pieces([u16; STALE_PIECES], u8),
    /// Search every follower again.
    All,
}

impl Stale {
    /// Records a change of the tokens on piece `pi`.
    pub(super) fn add(&mut self, pi: u16) {
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

impl Game {
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
        self.plague_step_open() && p.started() && !p.turn.fled
    }

    /// The current player's figures that may flee, as (index, segment):
    /// no monk, and one figure per segment. Special figures (builder, pig)
    /// flee too, instead of a follower (seed 004, lines 138-140): every
    /// seat's figure on a feature may, since each moves along its own.
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
    pub(super) fn list_flights(
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
    pub(super) fn push_stored_flights(&self, p: &Plague, out: &mut Vec<Action>) {
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
    pub(super) fn nth_stored_flight(&self, p: &Plague, k: usize) -> Option<Action> {
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
    pub(super) fn flights_current(&self, p: &Plague) -> bool {
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
    pub(super) fn prepare_flights(&mut self) {
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

    pub(super) fn try_flee(&mut self, from: FeatureAt, to: FeatureAt) -> Result<(), IllegalAction> {
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
        let who = self.fleeing_figure(pi, fi).ok_or_else(|| {
            illegal(
                "flight",
                format!(
                    "you have no follower, builder or pig on the feature at {} {}",
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
    pub(super) fn flee_trusted(&mut self, from: FeatureAt, to: FeatureAt) {
        let cat = &*self.rules.catalog;
        let node = |a: FeatureAt| self.board.node_at(cat, a.pos(), a.half, a.place);
        let (Some(start), Some(dest)) = (node(from), node(to)) else {
            return;
        };
        let (pi, fi) = self.board.features().origin(start);
        if let Some(who) = self.fleeing_figure(pi, fi) {
            self.flee(who, dest);
        }
    }

    /// Which of the current player's figures on segment `(pi, fi)` a
    /// `flee` from it moves: a follower if one stands there, else a
    /// special figure (a builder or a pig that shares no segment with a
    /// follower of its owner).
    fn fleeing_figure(&self, pi: u16, fi: u8) -> Option<usize> {
        let mine = |f: &crate::game::Follower| {
            f.player == self.current && f.piece == pi && f.feature == fi
        };
        self.followers
            .iter()
            .position(|f| mine(f) && f.figure.is_follower())
            .or_else(|| self.followers.iter().position(mine))
    }
}
