//! The River: River I, River II, the 20th-anniversary River and the
//! CutCassonne river tiles (`river.md`).
//!
//! Set-up puts the source down as the start tile and the river tiles on top
//! of the pile (fork first, lakes last). While river tiles are placed, each
//! must extend one open end of the river, must not make an immediate U-turn or
//! a third turn the same way on its branch, must not point a curve at river
//! already on the board, and must never join two branches. A placement that
//! leaves two open ends facing one empty cell (so that only a join could
//! continue the river) is refused while the tile has another legal placement
//! (issue 12, `river.md` "Decision"). Rivers separate
//! fields and are never scored or occupied: that needs nothing here, since a
//! river is a feature kind of its own.

use std::collections::BTreeMap;

use arrayvec::ArrayVec;

use crate::board::Board;
use crate::catalog::{Catalog, FeatureKind, Oriented, Shape, Tag, TileIdx};
use crate::config::ConfigError;
use crate::expansions::{Expansion, Family};
use crate::game::{illegal, Action, Game, IllegalAction};
use crate::geometry::{Pos, Rotation, Side};
use crate::rng::Rng;

/// Tag of a river's source (where the river begins).
pub const SOURCE: &str = "source";
/// Tag of a lake (where a river ends).
pub const LAKE: &str = "lake";
/// Tag of River II's fork.
pub const FORK: &str = "fork";
/// Tag of River II's lake with the volcano.
pub const VOLCANO: &str = "volcano";
const SOURCE_TAG: Tag = Tag::known(SOURCE);
const LAKE_TAG: Tag = Tag::known(LAKE);
const FORK_TAG: Tag = Tag::known(FORK);
const VOLCANO_TAG: Tag = Tag::known(VOLCANO);

/// River set ids.
pub const RIVER_SETS: [&str; 4] = ["river1", "river2", "river20", "cutcassonne"];

/// The river's house rules (all off by default).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RiverOptions {
    /// `river_no_followers`: no follower may be placed until every river
    /// tile has left the pile.
    pub no_followers_until_complete: bool,
    /// `river_shuffle_all`: source and lakes are shuffled with the other
    /// river tiles; the first river tile drawn is the start tile.
    pub shuffle_all: bool,
    /// `river_lake_to_source`: the lake is the start tile and the source is
    /// drawn last.
    pub lake_to_source: bool,
    /// `river_both_lakes`: River I with River II keeps both lakes (last, in
    /// random order) instead of River I's lake only.
    pub both_lakes: bool,
}

impl RiverOptions {
    /// Option names and descriptions.
    pub const KNOWN: &'static [(&'static str, &'static str)] = &[
        (
            "river_no_followers",
            "true: no followers until the river is complete",
        ),
        (
            "river_shuffle_all",
            "true: source and lakes shuffled with the river tiles",
        ),
        (
            "river_lake_to_source",
            "true: build from the lake to the source",
        ),
        (
            "river_both_lakes",
            "true: River I + River II keep both lakes",
        ),
    ];

    /// Takes the river options out of the options map.
    pub fn parse(map: &BTreeMap<String, serde_json::Value>) -> Result<RiverOptions, ConfigError> {
        let flag = |name: &str| -> Result<bool, ConfigError> {
            match map.get(name) {
                None => Ok(false),
                Some(v) => v.as_bool().ok_or_else(|| ConfigError::BadOption {
                    name: name.to_string(),
                    problem: format!("{v} is not true or false"),
                }),
            }
        };
        Ok(RiverOptions {
            no_followers_until_complete: flag("river_no_followers")?,
            shuffle_all: flag("river_shuffle_all")?,
            lake_to_source: flag("river_lake_to_source")?,
            both_lakes: flag("river_both_lakes")?,
        })
    }
}

/// Builds the river stack from the river sets in play (`sets`, in the
/// registry's order) into `out`, river tiles first drawn first, and
/// returns the start tile. Built in place: a new deal of the same
/// configuration reuses `out`'s memory.
pub fn setup<'a>(
    cat: &Catalog,
    sets: impl Iterator<Item = &'a str> + Clone,
    opts: &RiverOptions,
    rng: &mut Rng,
    out: &mut Vec<TileIdx>,
) -> Result<TileIdx, ConfigError> {
    let has = |s: &str| sets.clone().any(|x| x == s);
    let mains = ["river1", "river2", "river20"]
        .into_iter()
        .filter(|s| has(s))
        .count();
    if mains == 0 {
        return Err(ConfigError::BadOption {
            name: "expansions".into(),
            problem: "cutcassonne's river tiles need a river set with a source: add river1, river2 or river20".into(),
        });
    }
    if has("river20") && mains > 1 {
        return Err(ConfigError::BadOption {
            name: "expansions".into(),
            problem:
                "river20 has its own double source and two lakes: combine it only with cutcassonne"
                    .into(),
        });
    }
    // Every river tile in play, in set and catalog order.
    out.clear();
    for s in sets.clone() {
        if let Some(set) = cat.set(s) {
            for &t in &set.tiles {
                for _ in 0..cat.tile(t).count {
                    out.push(t);
                }
            }
        }
    }
    let tagged = |t: &TileIdx, tag: Tag| cat.tile(*t).has_tag(tag);
    let both = has("river1") && has("river2");
    // River I with River II: one long river from River II's source and fork
    // to River I's lake.
    if both {
        out.retain(|t| !(cat.tile(*t).set == "river1" && tagged(t, SOURCE_TAG)));
        if !opts.both_lakes {
            out.retain(|t| !(cat.tile(*t).set == "river2" && tagged(t, LAKE_TAG)));
        }
    }
    if opts.shuffle_all {
        rng.shuffle(out);
        if out.is_empty() {
            return Err(ConfigError::BadOption {
                name: "expansions".into(),
                problem: "the river sets in play hold no river tile".into(),
            });
        }
        return Ok(out.remove(0));
    }
    let (first_tag, last_tag) = if opts.lake_to_source {
        (LAKE_TAG, SOURCE_TAG)
    } else {
        (SOURCE_TAG, LAKE_TAG)
    };
    let is_fork = |t: &TileIdx| !opts.lake_to_source && tagged(t, FORK_TAG);
    // The stack is written after the tiles (`n` of them), part by part,
    // each part in the tiles' order (a tile with several of these tags
    // joins each part it belongs to), then the tiles are dropped.
    let n = out.len();
    let Some(start) = out.iter().copied().find(|t| tagged(t, first_tag)) else {
        return Err(ConfigError::BadOption {
            name: "expansions".into(),
            problem: "the river sets in play have no tile to start the river from".into(),
        });
    };
    let part = |out: &mut Vec<TileIdx>, keep: &dyn Fn(&TileIdx) -> bool| {
        let from = out.len();
        for i in 0..n {
            let t = out[i];
            if keep(&t) {
                out.push(t);
            }
        }
        from..out.len()
    };
    part(out, &is_fork);
    let middle = part(out, &|t| {
        !tagged(t, first_tag) && !tagged(t, last_tag) && !is_fork(t)
    });
    let lasts = part(out, &|t| tagged(t, last_tag));
    // Building upstream, the extra start candidates (a second lake) join the
    // stack's bottom with the sources: every start candidate but the first,
    // which is the start tile.
    let extra = part(out, &|t| tagged(t, first_tag));
    out.remove(extra.start);
    let lasts = lasts.start..out.len();
    rng.shuffle(&mut out[middle]);
    rng.shuffle(&mut out[lasts]);
    out.drain(..n);
    Ok(start)
}

/// A turn of the river as it flows away from the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    Left,
    Right,
}

/// The course of one branch: what the turn rules need to know.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Course {
    /// The last turn on the branch.
    last: Option<Turn>,
    /// Whether a straight lies after the last turn.
    straight_since: bool,
    /// Consecutive turns the same way, ending with `last`.
    run: u8,
}

impl Course {
    /// The course after one more tile, or why that tile is not allowed.
    fn then(self, turn: Option<Turn>) -> Result<Course, &'static str> {
        let Some(t) = turn else {
            return Ok(Course {
                straight_since: true,
                ..self
            });
        };
        if self.last == Some(t) {
            if !self.straight_since {
                return Err("no immediate U-turn: a curve may not turn the same way as the curve just before it");
            }
            if self.run >= 2 {
                return Err("the river may not turn a third time the same way on one branch");
            }
        }
        Ok(Course {
            last: Some(t),
            straight_since: false,
            run: if self.last == Some(t) {
                self.run + 1
            } else {
                1
            },
        })
    }
}

/// An open end of the river: the cell whose river leaves through `side` into
/// an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiverEnd {
    /// The cell with the open end.
    pub pos: Pos,
    /// The side the river leaves by.
    pub side: Side,
    course: Course,
}

/// The river during play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct River {
    /// Open ends of the river.
    pub ends: Vec<RiverEnd>,
    /// House rules.
    pub options: RiverOptions,
}

/// At most one river end per side of each cell of a tile: a tile has at
/// most two cells ([`Shape::Double`]). Kept on the stack because the river's
/// checks run for every candidate placement of a river tile.
const MAX_SIDES: usize = 8;

/// The river sides of one placement: (cell offset, side).
type RiverSides = ArrayVec<((i32, i32), Side), MAX_SIDES>;

/// The open ends a river tile would leave (at most one per river side).
pub type NewEnds = ArrayVec<RiverEnd, MAX_SIDES>;

/// River sides of a tile turned by `rot`: (cell offset, side).
fn river_sides(cat: &Catalog, tile: TileIdx, rot: Rotation) -> RiverSides {
    let def = cat.tile(tile);
    let o = def.oriented(rot);
    let mut v = RiverSides::new();
    for (k, &off) in o.cells.iter().enumerate() {
        for s in Side::ALL {
            if !o.sides[k][s.index()].present {
                continue;
            }
            let f = o.place_feature[k][s.middle().index()];
            if def.features.get(f as usize).map(|d| d.kind) == Some(FeatureKind::River) {
                // Cannot overflow: at most two cells of four sides.
                let _ = v.try_push((off, s));
            }
        }
    }
    v
}

/// Whether a tile has any river on it.
pub fn is_river_tile(cat: &Catalog, tile: TileIdx) -> bool {
    cat.tile(tile).is_river
}

impl River {
    /// The river after the start tile is down.
    pub fn new(cat: &Catalog, start: TileIdx, options: RiverOptions) -> River {
        let mut r = River {
            ends: Vec::new(),
            options: RiverOptions::default(),
        };
        r.restart(cat, start, options);
        r
    }

    /// Makes this river [`River::new`]'s, keeping its memory.
    fn restart(&mut self, cat: &Catalog, start: TileIdx, options: RiverOptions) {
        self.ends.clear();
        self.ends.extend(
            river_sides(cat, start, Rotation::default())
                .into_iter()
                .map(|((dx, dy), side)| RiverEnd {
                    pos: Pos::new(dx, dy),
                    side,
                    course: Course::default(),
                }),
        );
        self.options = options;
    }

    /// Checks the river rules for a river tile that already fits by its
    /// edges; returns the new open ends it would leave.
    pub fn check(
        &self,
        board: &Board,
        cat: &Catalog,
        tile: TileIdx,
        pos: Pos,
        rot: Rotation,
    ) -> Result<NewEnds, &'static str> {
        let sides = river_sides(cat, tile, rot);
        if sides.is_empty() {
            return Ok(NewEnds::new());
        }
        let mut incoming: Option<(usize, Side)> = None;
        let mut outs: ArrayVec<(Pos, Side), MAX_SIDES> = ArrayVec::new();
        for ((dx, dy), s) in sides {
            let cell = pos.offset(dx, dy);
            let next = cell.step(s);
            if let Some(i) = self
                .ends
                .iter()
                .position(|e| e.pos == next && e.side == s.opposite())
            {
                if incoming.is_some() {
                    return Err("the branches of the river may never be joined");
                }
                incoming = Some((i, s));
            } else if board.is_occupied(next) {
                return Err("a river end of this tile would run into a placed tile");
            } else {
                // No more outs than sides.
                let _ = outs.try_push((cell, s));
            }
        }
        let Some((ei, in_side)) = incoming else {
            return Err("a river tile must extend an open end of the river");
        };
        let end = self.ends[ei];
        let heading = in_side.opposite();
        let fork = outs.len() > 1;
        let mut new_ends = NewEnds::new();
        for (cell, s) in outs {
            let turn = if s == heading {
                None
            } else if s == heading.rotate(Rotation::from_quarters(1)) {
                Some(Turn::Right)
            } else {
                Some(Turn::Left)
            };
            // A fork starts a fresh history on each branch.
            let base = if fork { Course::default() } else { end.course };
            let course = base.then(turn)?;
            if turn.is_some() && self.points_at_river(board, cat, cell, s) {
                return Err("a curve may not point the river towards river tiles already placed");
            }
            let _ = new_ends.try_push(RiverEnd {
                pos: cell,
                side: s,
                course,
            });
        }
        Ok(new_ends)
    }

    /// Whether the cells straight ahead of `from` across `side` hold river.
    fn points_at_river(&self, board: &Board, cat: &Catalog, from: Pos, side: Side) -> bool {
        let (x0, x1, y0, y1) = board.pieces().iter().fold(
            (i32::MAX, i32::MIN, i32::MAX, i32::MIN),
            |(a, b, c, d), p| {
                (
                    a.min(p.pos.x - 1),
                    b.max(p.pos.x + 1),
                    c.min(p.pos.y - 1),
                    d.max(p.pos.y + 1),
                )
            },
        );
        let mut cell = from.step(side);
        while cell.x >= x0 && cell.x <= x1 && cell.y >= y0 && cell.y <= y1 {
            if board
                .pieces_at(cell)
                .any(|(q, _)| is_river_tile(cat, board.pieces()[q as usize].tile))
            {
                return true;
            }
            cell = cell.step(side);
        }
        false
    }

    /// Whether two open ends would face the same empty cell once a river tile
    /// covering `cells` is placed, leaving `new_ends` (from [`River::check`]).
    /// No river tile can then ever be placed there (it would join the
    /// branches), nor anywhere else if those are the only ends.
    pub fn leaves_facing_ends(&self, cells: &[Pos], new_ends: &[RiverEnd]) -> bool {
        // A handful of ends at most: compare pairs, no allocation.
        let targets = || {
            self.ends
                .iter()
                .map(|e| e.pos.step(e.side))
                .filter(|t| !cells.contains(t))
                .chain(new_ends.iter().map(|e| e.pos.step(e.side)))
        };
        targets()
            .enumerate()
            .any(|(i, t)| targets().skip(i + 1).any(|u| u == t))
    }

    /// Whether two open ends face the same empty cell now.
    pub fn has_facing_ends(&self) -> bool {
        self.leaves_facing_ends(&[], &[])
    }

    /// Records a placed river tile: its incoming end is closed, its outgoing
    /// ends open.
    pub(crate) fn placed(
        &mut self,
        cat: &Catalog,
        tile: TileIdx,
        pos: Pos,
        rot: Rotation,
        new_ends: NewEnds,
    ) {
        for ((dx, dy), s) in river_sides(cat, tile, rot) {
            let cell = pos.offset(dx, dy);
            let next = cell.step(s);
            self.ends
                .retain(|e| !(e.pos == next && e.side == s.opposite()));
        }
        self.ends.extend(new_ends);
    }
}

/// The cells a tile turned as `o` covers with its anchor at `pos` (one or
/// two).
fn covered(o: &Oriented, pos: Pos) -> ArrayVec<Pos, 2> {
    // A tile has at most two cells (`Shape::Double`): the rest cannot exist.
    o.cells
        .iter()
        .take(2)
        .map(|&(dx, dy)| pos.offset(dx, dy))
        .collect()
}

/// The message of a placement refused because it leaves two ends facing one
/// cell.
pub const FACING_ENDS: &str = "this placement leaves both open ends of the river facing the same cell, where only a join (forbidden) could continue the river: place the tile where it leaves them apart";

impl Game {
    /// The river, while river sets are in play.
    pub fn river(&self) -> Option<&River> {
        self.ext.river.as_ref()
    }

    /// Calls `f` with each placement of the river tile `tile` that fits by
    /// its edges and keeps the river's rules, and whether it leaves two open
    /// ends facing one cell, until `f` returns false.
    fn river_candidates(&self, r: &River, tile: TileIdx, mut f: impl FnMut(Action, bool) -> bool) {
        let cat = &*self.rules.catalog;
        let def = cat.tile(tile);
        if def.shape == Shape::Square {
            // A river tile must extend an open end: only the cells in front
            // of the ends can take it.
            for end in &r.ends {
                let cell = end.pos.step(end.side);
                let Some(fc) = self.board.frontier().iter().find(|c| c.pos == cell) else {
                    continue;
                };
                for rot in Rotation::ALL {
                    if !Board::square_fits(fc, def.oriented(rot)) {
                        continue;
                    }
                    let Ok(ends) = r.check(&self.board, cat, tile, cell, rot) else {
                        continue;
                    };
                    let facing = r.leaves_facing_ends(&[cell], &ends);
                    if !f(
                        Action::Place {
                            tile,
                            pos: cell,
                            rot,
                        },
                        facing,
                    ) {
                        return;
                    }
                }
            }
            return;
        }
        self.edge_placements(tile, |a| {
            let Action::Place { pos, rot, .. } = a else {
                return true;
            };
            let Ok(ends) = r.check(&self.board, cat, tile, pos, rot) else {
                return true;
            };
            f(
                a,
                r.leaves_facing_ends(&covered(def.oriented(rot), pos), &ends),
            )
        });
    }

    /// Calls `f` with each legal placement of the river tile `tile` until it
    /// returns false. Placements that leave two ends facing one cell are
    /// offered only when the tile has no other placement.
    pub(crate) fn river_placements(
        &self,
        r: &River,
        tile: TileIdx,
        mut f: impl FnMut(Action) -> bool,
    ) {
        let mut apart = false;
        self.river_candidates(r, tile, |a, joins| {
            if joins {
                return true;
            }
            apart = true;
            f(a)
        });
        if !apart {
            // Only placements whose ends face each other: offered after
            // all, from a second pass (rare; no list to keep).
            self.river_candidates(r, tile, |a, joins| !joins || f(a));
        }
    }

    /// The river's rules for placing the drawn tile at `pos`, `rot` (its
    /// edges already fit); `Ok` for a tile without river.
    pub(crate) fn check_river_place(
        &self,
        tile: TileIdx,
        pos: Pos,
        rot: Rotation,
    ) -> Result<(), IllegalAction> {
        let Some(r) = &self.ext.river else {
            return Ok(());
        };
        let cat = &*self.rules.catalog;
        if !cat.tile(tile).is_river {
            return Ok(());
        }
        let ends = r
            .check(&self.board, cat, tile, pos, rot)
            .map_err(|m| illegal("river", m))?;
        if r.leaves_facing_ends(&covered(cat.tile(tile).oriented(rot), pos), &ends) {
            let mut apart = false;
            self.river_candidates(r, tile, |_, joins| {
                apart = !joins;
                !apart
            });
            if apart {
                return Err(illegal("river", FACING_ENDS));
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// The hooks

/// The river's hooks into the turn: its own placements and placement rules
/// for river tiles, its course kept up to date, the follower bans, the
/// volcano's extra turn, and the pile's public parts.
pub(crate) struct RiverRules;

impl Expansion for RiverRules {
    const LISTS_PLACEMENTS: bool = true;

    /// Only river tiles have placements of the river's own (see
    /// `placements`); the land tiles after them are plain edge matches.
    #[inline]
    fn lists_placements_of(g: &Game, tile: TileIdx) -> bool {
        g.rules.catalog.tile(tile).is_river
    }

    const FAMILY: Family = Family::River;
    const SWITCH_ON: (&'static str, &'static str) =
        ("the River", "river1, river2 or river20 to \"expansions\"");
    const OPTIONS: &'static [(&'static str, &'static str)] = RiverOptions::KNOWN;

    #[inline]
    fn active(g: &Game) -> bool {
        g.ext.river.is_some()
    }

    /// The river sets in play, spring first, replace the start tile.
    fn opening_pile(
        ctx: &crate::expansions::DeckCtx<'_>,
        rng: &mut Rng,
        out: &mut Vec<TileIdx>,
    ) -> Option<Result<TileIdx, ConfigError>> {
        let rivers = ctx
            .on
            .of_family(Family::River)
            .map(crate::expansions::ExpansionId::key);
        Some(setup(ctx.catalog, rivers, &ctx.options.river, rng, out))
    }

    /// River tiles come before the land tiles.
    fn is_prelude_tile(cat: &Catalog, t: TileIdx) -> bool {
        is_river_tile(cat, t)
    }

    /// The source is the start tile: the river's ends are its river sides.
    fn start(g: &mut Game, start: TileIdx) {
        let opts = g.rules.options.river.clone();
        match &mut g.ext.river {
            // An earlier deal's river: its vector of ends is reused.
            Some(r) => r.restart(&g.rules.catalog, start, opts),
            None => g.ext.river = Some(River::new(&g.rules.catalog, start, opts)),
        }
    }

    #[inline]
    fn placements<F: FnMut(Action) -> bool>(g: &Game, tile: TileIdx, f: &mut F) -> bool {
        match &g.ext.river {
            Some(r) if g.rules.catalog.tile(tile).is_river => {
                g.river_placements(r, tile, f);
                true
            }
            _ => false,
        }
    }

    fn placement_veto(
        g: &Game,
        tile: TileIdx,
        pos: Pos,
        rot: Rotation,
    ) -> Result<(), IllegalAction> {
        g.check_river_place(tile, pos, rot)
    }

    /// A river tile moves the river's open ends.
    fn before_place(g: &mut Game, tile: TileIdx, pos: Pos, rot: Rotation) {
        let cat = &*g.rules.catalog;
        if let Some(r) = &mut g.ext.river {
            if cat.tile(tile).is_river {
                let ends = r.check(&g.board, cat, tile, pos, rot).unwrap_or_default();
                r.placed(cat, tile, pos, rot, ends);
            }
        }
    }

    fn follower_ban(g: &Game) -> Option<&'static str> {
        let r = g.ext.river.as_ref()?;
        let cat = &*g.rules.catalog;
        let piece = g.board.pieces()[g.last? as usize];
        // The lake only: the Princess & the Dragon's volcanoes are land
        // tiles, for that expansion to rule.
        if cat.tile(piece.tile).is_river && cat.tile(piece.tile).has_tag(VOLCANO_TAG) {
            return Some("no follower may be placed on the lake with the volcano");
        }
        if r.options.no_followers_until_complete
            && (is_river_tile(cat, piece.tile) || g.pile.iter().any(|t| is_river_tile(cat, *t)))
        {
            return Some("house rule: no followers until the river is complete");
        }
        None
    }

    /// River II: after the volcano lake the same player draws again.
    fn extra_turn(g: &Game, pi: u16) -> bool {
        let def = g.rules.catalog.tile(g.board.pieces()[pi as usize].tile);
        // The option is the Princess & the Dragon's (Decision P5); it is
        // true in every game without it.
        def.is_river && def.has_tag(VOLCANO_TAG) && g.rules.options.volcano_extra_turn
    }

    /// The set-up builds the pile in parts whose order is public: the river
    /// first, its fork first and its lakes last, then the land tiles.
    fn draw_part(g: &Game, t: TileIdx) -> Option<u8> {
        let r = g.ext.river.as_ref()?;
        let def = g.rules.catalog.tile(t);
        Some(if !def.is_river {
            3
        } else if r.options.shuffle_all {
            1
        } else if def.has_tag(SOURCE_TAG) || def.has_tag(LAKE_TAG) {
            2
        } else if def.has_tag(FORK_TAG) && !r.options.lake_to_source {
            0
        } else {
            1
        })
    }
}
