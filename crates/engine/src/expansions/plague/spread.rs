//! The Plague's spread (`plague.md`, "A turn with the plague", step 4):
//! once a turn, unless a source was placed, a flea goes onto a tile with no
//! flea, not a source, next to an active outbreak or an active flea; it
//! comes from the supply while it has any, else from a latent region, else
//! (all 18 fleas active) an active flea moves. Every follower on the tile
//! goes home unscored.
//!
//! The legal spreads are listed once, when the turn's tile is down
//! (`SpreadList`), as one group per flea rather than as flea × tile pairs:
//! with every flea active there can be hundreds, and the random player
//! builds only the one it draws. Debug builds check every group against the
//! plain search that judges the board without the lifted flea.

use crate::action::TileAt;
use crate::board::Board;
use crate::catalog::Catalog;
use crate::game::{illegal, Game, IllegalAction};
use crate::geometry::{Corner, Pos};
use crate::scoring::{Event, Reason};

use super::components::{is_source, Plague, FLEAS, OUTBREAKS};
use super::regions::{Adjacent, Stack};
use super::{each_set_bit, with_bits};

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
pub(super) struct SpreadGroup {
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
pub(super) struct SpreadList {
    pub(super) groups: Vec<SpreadGroup>,
    /// The targets of every `Shared` group, sorted by piece.
    pub(super) shared: Vec<u16>,
    /// The targets of the `Listed` groups, one group after another.
    pub(super) listed: Vec<u16>,
    /// A bit per free tile next to at least one active piece (`Others`).
    pub(super) free: Vec<u64>,
    /// A bit per free tile next to exactly one active piece (`Others`).
    pub(super) single: Vec<u64>,
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
    pub(super) fn len(&self) -> usize {
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
    pub(super) fn nth(
        &self,
        k: usize,
        adj: impl Fn(u16) -> Adjacent,
    ) -> Option<(Option<u16>, u16)> {
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

impl Plague {
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
    pub(super) fn prepare_spreads(&mut self, board: &Board, cat: &Catalog) {
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

impl Game {
    /// Calls `f(from, to)` for every legal spread until it returns false:
    /// `from` is `None` for a flea from the supply, else the piece a flea
    /// leaves. The flea comes from the supply while it has any; otherwise
    /// any latent flea moves; otherwise (all fleas active) any active one.
    /// A moving flea is lifted first: the target is judged on the board
    /// without it, and must be a new tile.
    pub(super) fn each_spread(&self, f: impl FnMut(Option<u16>, u16) -> bool) {
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
    pub(super) fn tile_anchor(&self, pi: u16) -> TileAt {
        let p = self.board.pieces()[pi as usize];
        TileAt {
            x: p.pos.x as i16,
            y: p.pos.y as i16,
            half: p.corner,
        }
    }

    pub(super) fn try_spread(
        &mut self,
        to: TileAt,
        from: Option<TileAt>,
    ) -> Result<(), IllegalAction> {
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
        // Every figure on the tile goes home unscored, and the figures that
        // lose their owner's last follower with them; then the flea lands.
        self.remove_followers_on(target);
        crate::expansions::followers_left(self);
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
    pub(super) fn spread_trusted(&mut self, to: TileAt, from: Option<TileAt>) {
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
            if f.figure.is_follower() {
                self.board.features_mut().add_followers(node, -1);
            }
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
        // Followers the expansions keep off the features (a tower's top).
        crate::expansions::figures_home_on(self, pi, Reason::Plague);
    }
}
