//! The evaluation of the `strong` bot: each player's score plus what their
//! followers on open features are expected to bring, where a feature's
//! chance of completion comes from the tiles still unseen.
//!
//! For every empty cell a feature is open towards, the evaluator works
//! out which unseen tile kinds fit there (matching the edges of every
//! placed neighbour, in any rotation) and which of those also close the
//! feature at that cell (the tile's part of the feature reaches no other
//! empty neighbour). The chance that a cell gets its closing tile in time
//! is `1 − (1 − q)^D`, with `q` the unseen share of closing tiles and `D`
//! the owner's future draws spread over the feature's open cells; the
//! feature completes when all its cells do. A cell that no unseen tile
//! fits makes its feature impossible to finish, which the evaluation sees
//! at once (a dead city is worth its tiles, no more).
//!
//! Only public information is read: the board, the followers, the scores
//! and the unseen tiles counted by kind (`Game::remaining_counts`, which
//! every player can work out), never the pile order or a hidden hand.

use std::collections::HashMap;

use bastide_engine::{
    FeatureKind, FeatureRef, Figure, Game, Pos, Rotation, Shape, Side, Tag, TileIdx, NO_FEATURE,
};

/// Tunable weights of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrongWeights {
    /// Share of its owner's future turns a feature can count on, spread
    /// over its open cells.
    pub attention: f64,
    /// Share of any player's future turns an unowned city can count on
    /// (for the farms that border it).
    pub stray: f64,
    /// How much a tile that fits an open cell without closing it helps,
    /// relative to one that closes it (it keeps the feature alive).
    pub extend: f64,
    /// Worth of a follower in supply while many turns remain.
    pub supply: f64,
    /// Extra worth of each of the last two followers in supply.
    pub last_followers: f64,
    /// Own turns below which a follower in supply is worth less.
    pub supply_turns: f64,
    /// Per own future turn: the chance the owner fills a given empty cell
    /// around a monastery.
    pub monastery_own: f64,
    /// Per other player's future turn: the same chance.
    pub monastery_other: f64,
}

impl Default for StrongWeights {
    fn default() -> StrongWeights {
        StrongWeights {
            attention: 0.6,
            stray: 0.25,
            extend: 0.3,
            supply: 1.5,
            last_followers: 1.5,
            supply_turns: 8.0,
            monastery_own: 0.12,
            monastery_other: 0.06,
        }
    }
}

/// One square tile kind still unseen, with its side codes per rotation.
#[derive(Clone, Debug)]
struct UnseenKind {
    tile: TileIdx,
    count: u32,
    packed: [u32; 4],
}

/// Unseen counts that fit and that close, for one cell shape.
#[derive(Clone, Copy, Debug, Default)]
struct CellFit {
    fit: u32,
    close: u32,
}

/// What the evaluator learns of one open cell of a feature.
#[derive(Clone, Copy, Debug)]
struct OpenCell {
    pos: Pos,
    /// Sides of the cell that face the feature (bit per side).
    sides: u8,
}

/// The evaluator: the unseen tiles of the move being searched, and caches.
#[derive(Clone, Debug, Default)]
pub struct StrongEval {
    /// The weights used.
    pub weights: StrongWeights,
    kinds: Vec<UnseenKind>,
    total: u32,
    /// Key: (required codes, mask, facing sides, kind) → counts.
    fits: HashMap<(u32, u32, u8, u8), CellFit>,
    cells: Vec<OpenCell>,
    /// Per evaluation: completion chance of features already worked out.
    chances: Vec<(FeatureRef, f64, u16)>,
    groups: Vec<(FeatureRef, [u8; 6])>,
    seen: Vec<FeatureRef>,
    /// Evaluations made since the last [`StrongEval::prepare`].
    pub count: u64,
    /// Evaluations after which a search stops looking deeper (the
    /// budget; 0 is read as no limit).
    pub limit: u64,
}

/// The tags that change what a feature is worth.
const CATHEDRAL: Tag = Tag::known("cathedral");
const INN: Tag = Tag::known("inn");

impl StrongEval {
    /// An evaluator with the given weights.
    pub fn new(weights: StrongWeights) -> StrongEval {
        StrongEval {
            weights,
            ..StrongEval::default()
        }
    }

    /// Takes the unseen tiles of `game` (a public count) for the positions
    /// searched from it, and forgets the caches of the last move.
    pub fn prepare(&mut self, game: &Game) {
        let cat = game.catalog();
        self.kinds.clear();
        self.total = 0;
        for (i, &c) in game.remaining_counts().iter().enumerate() {
            if c == 0 {
                continue;
            }
            self.total += c;
            let t = TileIdx(i as u16);
            let def = cat.tile(t);
            if def.shape != Shape::Square {
                continue;
            }
            self.kinds.push(UnseenKind {
                tile: t,
                count: c,
                packed: Rotation::ALL.map(|r| def.oriented(r).packed),
            });
        }
        self.fits.clear();
        self.count = 0;
    }

    /// Whether the search has used its evaluations.
    pub fn spent(&self) -> bool {
        self.limit > 0 && self.count >= self.limit
    }

    /// Expected final points of each seat (first `player_count` entries).
    pub fn potentials(&mut self, game: &Game) -> [f64; 6] {
        self.count += 1;
        let mut out = [0f64; 6];
        let n = game.player_count();
        for (seat, p) in game.players().iter().enumerate() {
            out[seat] = p.score as f64;
        }
        if game.is_finished() {
            return out;
        }
        let turns = own_turns(game);
        self.chances.clear();
        self.group_followers(game);
        let w = self.weights;
        for gi in 0..self.groups.len() {
            let (root, counts) = self.groups[gi];
            let best = counts.iter().copied().max().unwrap_or(0);
            if best == 0 {
                continue;
            }
            let owners: Vec<usize> = (0..n).filter(|s| counts[*s] == best).collect();
            let draws = owners.iter().map(|s| turns[*s]).fold(0.0, f64::max);
            let f = game.feature(root);
            let (value, chance) = match f.kind() {
                FeatureKind::City | FeatureKind::Road => self.closable_value(game, root, draws),
                FeatureKind::Monastery => (self.monastery_value(game, root, &turns, &owners), 0.0),
                FeatureKind::Field => (self.farm_value(game, root, &turns), 0.0),
                FeatureKind::River => (0.0, 0.0),
            };
            for &s in &owners {
                out[s] += value;
            }
            // Followers on a feature likely to close come home to be used
            // again: a share of a follower's worth, by seat.
            if chance > 0.0 {
                for s in 0..n {
                    if counts[s] > 0 {
                        out[s] += 0.5 * chance * supply_worth(&w, turns[s]);
                    }
                }
            }
        }
        for (seat, p) in game.players().iter().enumerate() {
            let s = p.supply as f64;
            let t = supply_worth(&w, turns[seat]);
            out[seat] += t * s + t / w.supply.max(1e-9) * w.last_followers * s.min(2.0);
        }
        out
    }

    /// Groups the followers by feature: strength per seat (a big follower
    /// counts two, a mayor or wagon one, special figures nothing).
    fn group_followers(&mut self, game: &Game) {
        self.groups.clear();
        for f in game.followers() {
            // The mayor counts its city's coats of arms when scored; one is
            // the estimate here.
            let strength = match f.figure {
                Figure::Normal | Figure::Mayor | Figure::Wagon => 1,
                Figure::Big => 2,
                _ => 0,
            };
            let root = game.feature(game.follower_feature(f)).id();
            match self.groups.iter_mut().find(|g| g.0 == root) {
                Some(g) => g.1[f.player.index()] += strength,
                None => {
                    let mut c = [0u8; 6];
                    c[f.player.index()] = strength;
                    self.groups.push((root, c));
                }
            }
        }
    }

    /// A road's or city's expected worth to its owners, with its chance of
    /// completion, given `draws` future turns of its best-placed owner.
    fn closable_value(&mut self, game: &Game, root: FeatureRef, draws: f64) -> (f64, f64) {
        let f = game.feature(root);
        let (pts, tiles, extra) = f.value();
        if f.is_complete() {
            return (pts as f64, 1.0);
        }
        let (chance, cells) = self.completion(game, root, draws);
        let tags = feature_tags(game, root);
        let mult = match f.kind() {
            FeatureKind::City if tags.1 => 3.0,
            FeatureKind::City => 2.0,
            _ if tags.0 => 2.0,
            _ => 1.0,
        };
        let done = mult * (tiles + extra + cells as u32) as f64;
        (chance * done + (1.0 - chance) * pts as f64, chance)
    }

    /// The chance that a road or city closes within `draws` turns, and its
    /// number of open cells. Remembered for this evaluation.
    fn completion(&mut self, game: &Game, root: FeatureRef, draws: f64) -> (f64, u16) {
        let id = game.feature(root).id();
        if let Some(c) = self.chances.iter().find(|c| c.0 == id) {
            return (c.1, c.2);
        }
        let f = game.feature(id);
        let kind = f.kind();
        self.open_cells(game, id);
        let m = self.cells.len();
        let (chance, cells) = if m == 0 {
            // Open only where no square cell can serve (half cells): the
            // old rule of thumb, a chance that falls with each open edge.
            (0.5f64.powi(f.open_edges() as i32), f.open_edges())
        } else {
            let per_cell = draws * self.weights.attention / m as f64;
            let mut p = 1.0;
            for i in 0..m {
                let c = self.cells[i];
                let fit = self.cell_fit(game, c.pos, c.sides, kind);
                let q = (fit.close as f64 + self.weights.extend * (fit.fit - fit.close) as f64)
                    / self.total.max(1) as f64;
                p *= 1.0 - (1.0 - q.min(1.0)).powf(per_cell);
                if p < 1e-4 {
                    break;
                }
            }
            (p, m as u16)
        };
        self.chances.push((id, chance, cells));
        (chance, cells)
    }

    /// The empty cells feature `id` is open towards, each with the sides
    /// that face it, into `self.cells`.
    fn open_cells(&mut self, game: &Game, id: FeatureRef) {
        self.cells.clear();
        let cat = game.catalog();
        let board = game.board();
        for (pi, fi) in game.feature(id).segments() {
            let piece = board.pieces()[pi as usize];
            let o = cat.tile(piece.tile).oriented(piece.rot);
            for (k, &(dx, dy)) in o.cells.iter().enumerate() {
                let at = piece.pos.offset(dx, dy);
                for s in Side::ALL {
                    if !o.sides[k][s.index()].present
                        || !o.side_features[k][s.index()].contains(&fi)
                    {
                        continue;
                    }
                    let nb = at.step(s);
                    if board.is_occupied(nb) {
                        continue;
                    }
                    let bit = 1u8 << s.opposite().index();
                    match self.cells.iter_mut().find(|c| c.pos == nb) {
                        Some(c) => c.sides |= bit,
                        None => self.cells.push(OpenCell {
                            pos: nb,
                            sides: bit,
                        }),
                    }
                }
            }
        }
    }

    /// Unseen tiles that fit the empty cell `pos`, and those of them that
    /// also close the feature of `kind` its sides `sides` face.
    fn cell_fit(&mut self, game: &Game, pos: Pos, sides: u8, kind: FeatureKind) -> CellFit {
        let board = game.board();
        if !board.allowed(pos) {
            return CellFit::default();
        }
        let cat = game.catalog();
        let (mut req, mut mask) = (0u32, 0u32);
        for s in Side::ALL {
            let nb = pos.step(s);
            if let Some((pj, part)) = board.piece_facing(nb, s.opposite()) {
                let p = board.pieces()[pj as usize];
                let o = cat.tile(p.tile).oriented(p.rot);
                if let Some(side) = o.sides.get(part as usize) {
                    req |= (side[s.opposite().index()].code as u32) << (8 * s.index());
                    mask |= 0xFF << (8 * s.index());
                }
            }
        }
        let key = (req, mask, sides, kind as u8);
        if let Some(f) = self.fits.get(&key) {
            return *f;
        }
        let mut out = CellFit::default();
        for u in &self.kinds {
            let mut fits = false;
            let mut closes = false;
            for r in 0..4 {
                if u.packed[r] & mask != req {
                    continue;
                }
                fits = true;
                let o = cat.tile(u.tile).oriented(Rotation::ALL[r]);
                let def = cat.tile(u.tile);
                let of_kind = |f: u8| def.features.get(f as usize).is_some_and(|d| d.kind == kind);
                if closes_at(o.side_features[0], sides, mask, of_kind) {
                    closes = true;
                    break;
                }
            }
            if fits {
                out.fit += u.count;
            }
            if closes {
                out.close += u.count;
            }
        }
        self.fits.insert(key, out);
        out
    }

    /// A monastery's expected final worth: its points now plus, for every
    /// empty cell around it, the chance that cell is filled.
    fn monastery_value(
        &mut self,
        game: &Game,
        root: FeatureRef,
        turns: &[f64; 6],
        owners: &[usize],
    ) -> f64 {
        let f = game.feature(root);
        let (pts, _, _) = f.value();
        if f.is_complete() {
            return pts as f64;
        }
        let (pi, _) = game.segment(root);
        let board = game.board();
        let centre = board.pieces()[pi as usize].pos;
        let w = self.weights;
        let own = owners.iter().map(|s| turns[*s]).fold(0.0, f64::max);
        let all: f64 = turns.iter().sum();
        let draws = own * w.monastery_own + (all - own).max(0.0) * w.monastery_other;
        let mut v = pts as f64;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let c = centre.offset(dx, dy);
                if (dx, dy) == (0, 0) || board.is_occupied(c) {
                    continue;
                }
                let fit = self.cell_fit(game, c, 0, FeatureKind::Monastery);
                let q = fit.fit as f64 / self.total.max(1) as f64;
                v += 1.0 - (1.0 - q.min(1.0)).powf(draws);
            }
        }
        v
    }

    /// A farm's expected worth: its points now (the completed cities it
    /// feeds) plus 3 times the completion chance of each other city it
    /// borders.
    fn farm_value(&mut self, game: &Game, root: FeatureRef, turns: &[f64; 6]) -> f64 {
        let (pts, _, _) = game.feature(root).value();
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        for c in game.feature(root).bordering_cities() {
            let id = game.feature(c).id();
            if !seen.contains(&id) {
                seen.push(id);
            }
        }
        let all: f64 = turns.iter().sum();
        let mut v = pts as f64;
        for &c in &seen {
            if game.feature(c).is_complete() {
                continue;
            }
            let draws = self
                .city_draws(game, c, turns)
                .unwrap_or(all * self.weights.stray);
            v += 3.0 * self.completion(game, c, draws).0;
        }
        self.seen = seen;
        v
    }

    /// The future turns of the best-placed owner of city `c`, if anyone
    /// holds it.
    fn city_draws(&self, game: &Game, c: FeatureRef, turns: &[f64; 6]) -> Option<f64> {
        let (_, counts) = self.groups.iter().find(|g| g.0 == c)?;
        let best = counts.iter().copied().max()?;
        (best > 0).then(|| {
            (0..game.player_count())
                .filter(|s| counts[*s] == best)
                .map(|s| turns[s])
                .fold(0.0, f64::max)
        })
    }

    /// The evaluation of `seat`: its potential minus the best other
    /// player's.
    pub fn margin(&mut self, game: &Game, seat: bastide_engine::Seat) -> f64 {
        let p = self.potentials(game);
        crate::eval::margin_of(&p, game.player_count(), seat)
    }
}

/// Whether a square tile turned so that its sides read `side_features`
/// closes the feature facing it on `sides`: its own features of the
/// feature's kind (`of_kind`) on those sides reach no side whose neighbour
/// is empty (`mask` byte zero).
fn closes_at(
    side_features: [[u8; 3]; 4],
    sides: u8,
    mask: u32,
    of_kind: impl Fn(u8) -> bool,
) -> bool {
    let mut mine = [NO_FEATURE; 6];
    let mut len = 0;
    for (s, places) in side_features.iter().enumerate() {
        if sides >> s & 1 == 0 {
            continue;
        }
        for &f in places {
            if f != NO_FEATURE && of_kind(f) && !mine[..len].contains(&f) && len < mine.len() {
                mine[len] = f;
                len += 1;
            }
        }
    }
    (0..4).all(|s| {
        mask >> (8 * s) & 0xFF != 0 || !side_features[s].iter().any(|f| mine[..len].contains(f))
    })
}

/// (inn on it, cathedral in it) for the feature `root`.
fn feature_tags(game: &Game, root: FeatureRef) -> (bool, bool) {
    let cat = game.catalog();
    let board = game.board();
    let (mut inn, mut cathedral) = (false, false);
    for (pi, fi) in game.feature(root).segments() {
        let tile = cat.tile(board.pieces()[pi as usize].tile);
        if let Some(d) = tile.features.get(fi as usize) {
            inn |= d.tags.contains(INN);
            cathedral |= d.tags.contains(CATHEDRAL);
        }
    }
    (inn, cathedral)
}

/// The worth of one follower in supply to a seat with `turns` turns left.
fn supply_worth(w: &StrongWeights, turns: f64) -> f64 {
    w.supply * (turns / w.supply_turns).min(1.0)
}

/// Each seat's future draws: the current player's drawn tile (if still to
/// be placed) and its share of the pile in turn order.
pub fn own_turns(game: &Game) -> [f64; 6] {
    let n = game.player_count();
    let mut out = [0f64; 6];
    let cur = game.current_player().index();
    let pile = game.tiles_left();
    for (s, o) in out.iter_mut().enumerate().take(n) {
        let offset = (s + n - cur - 1) % n;
        if pile > offset {
            *o = ((pile - offset).div_ceil(n)) as f64;
        }
    }
    if game.drawn_tile().is_some() && game.phase() == bastide_engine::Phase::Place {
        out[cur] += 1.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use bastide_engine::GameConfig;

    /// Features 0 (a field) and 1 (a city) on a tile's four sides.
    fn sides(city: [bool; 4]) -> [[u8; 3]; 4] {
        city.map(|c| if c { [1, 1, 1] } else { [0, 0, 0] })
    }

    const CITY: fn(u8) -> bool = |f| f == 1;

    #[test]
    fn a_cap_closes_and_a_bend_into_an_empty_cell_does_not() {
        // The city faces the cell from the north; only north is built.
        let north = 0xFF;
        assert!(closes_at(
            sides([true, false, false, false]),
            1,
            north,
            CITY
        ));
        assert!(!closes_at(
            sides([true, true, false, false]),
            1,
            north,
            CITY
        ));
        // The bend closes once the east neighbour is built too.
        assert!(closes_at(
            sides([true, true, false, false]),
            1,
            north | 0xFF00,
            CITY
        ));
        // A field facing the city side is not the city: nothing of it to
        // carry on, so nothing left open by it.
        assert!(closes_at(
            sides([false, true, false, false]),
            1,
            north,
            CITY
        ));
    }

    #[test]
    fn own_turns_share_the_tiles_left_in_turn_order() {
        let game = Game::new(GameConfig::from_sets(2, 3, &["base"]).expect("sets")).expect("game");
        let t = own_turns(&game);
        let left = game.tiles_left() as f64;
        // The current player's drawn tile and the pile, dealt alternately.
        assert_eq!(t[0] + t[1], left + 1.0);
        assert!((t[0] - t[1]).abs() <= 1.0, "{t:?}");
    }

    #[test]
    fn a_finished_game_evaluates_to_its_scores() {
        let mut game =
            Game::new(GameConfig::from_sets(2, 5, &["base"]).expect("sets")).expect("game");
        let mut rng = bastide_engine::rng::Rng::new(2);
        let mut ev = StrongEval::default();
        while !game.is_finished() {
            ev.prepare(&game);
            let p = ev.potentials(&game);
            assert!(p.iter().all(|v| v.is_finite()), "{p:?}");
            for (s, pl) in game.players().iter().enumerate() {
                // Points scored are never lost; open features add to them.
                assert!(p[s] >= pl.score as f64, "seat {s}: {p:?}");
            }
            let l = game.legal_actions();
            game.apply_legal(&l[rng.below(l.len() as u64) as usize]);
        }
        let p = ev.potentials(&game);
        let scores = game.scores();
        assert_eq!(p[0], scores[0] as f64);
        assert_eq!(p[1], scores[1] as f64);
    }
}
