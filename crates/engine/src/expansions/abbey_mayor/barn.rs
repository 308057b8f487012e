//! Abbey & Mayor: the barn (`abbey-mayor.md`: "Barn" in the follower
//! step, "3. Scoring step — barns", end of game, edge cases 2, 3 and 7,
//! Decisions M3 and M4).
//!
//! Each player has one barn, a special figure (never a follower) placed
//! instead of a follower on a corner point of the tile just placed. The
//! point must stand on stable ground (Decision M4): each of the four cells
//! around it holds a tile having the point as a corner, and on every such
//! tile both places beside the point belong to one field. The barn then
//! joins every field touching its point into one (with Half-and-half a
//! half's gap bounds fields, so this can join fields no edge joins). It
//! may not go into a field that already holds a barn.
//!
//! The barn is not in `Game::followers`: it stands on a point, not on a
//! tile's feature, so the rules that clear a tile (the dragon, the
//! Plague's fleas) never reach it. It is kept here with one segment of its
//! field, whose root names the barn's field as fields join.
//!
//! Scoring: a barn placed in a field with farmers has the field scored in
//! the part's scoring step at 3 a completed city for the farmer majority;
//! a placement joining a farmers' field to a barn field, at 1 a city. In
//! both, the pig and the pig herd add their bonus (Traders & Builders'
//! `winners_bonus`, Decision M3), and then every figure in the field goes
//! home. No figure goes into a barn field by any means afterwards. At the
//! end each barn owner scores 4 a completed city of the barn's field (the
//! pig herd adds 1 only with the option `pig_herd_barn`).

use crate::action::{illegal, Action, IllegalAction, TileAt};
use crate::catalog::{FeatureKind, Tag};
use crate::expansions::traders_builders::PIGHERD;
use crate::features::NodeId;
use crate::game::Game;
use crate::geometry::{Corner, Pos};
use crate::scoring::{Event, Reason};
use crate::seat::Seat;
use crate::view::{put, ExpansionsJson};

/// Points a completed city for the farmers of a field a barn is placed in
/// (as at the end of the game).
pub const BARN_PLACED_PER_CITY: u32 = 3;
/// Points a completed city for the farmers of a field a placement joins to
/// a barn field.
pub const BARN_JOINED_PER_CITY: u32 = 1;
/// Points a completed city for each barn owner at the end of the game.
pub const BARN_FINAL_PER_CITY: u32 = 4;

/// The barn's codes in the action codec: a corner (4) of one of the at
/// most two cells of the tile just placed.
pub(crate) const BARN_CODES: usize = 8;

/// Tiles that can touch one corner point: two halves in each of the four
/// cells around it.
const MAX_AROUND: usize = 8;

const RULE: &str = "barn";

/// A barn on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Barn {
    /// Its owner.
    pub seat: Seat,
    /// The cell of the tile it was placed on (with [`Barn::corner`], the
    /// point's name in its record).
    pub pos: Pos,
    /// The corner of that cell it stands on.
    pub corner: Corner,
    /// A field segment under it: its root is the barn's field.
    node: NodeId,
}

/// The barns of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Barns {
    /// Per seat: whether the barn is still in the supply.
    supply: Vec<bool>,
    /// The barns on the board, in the order placed.
    placed: Vec<Barn>,
    /// A field segment of the barn placed in this part, when its field
    /// held farmers: the scoring step scores it at 3 a city.
    fresh: Option<NodeId>,
}

impl Barns {
    /// Every barn in the supply of `players` seats (an earlier deal's
    /// memory is kept).
    pub(crate) fn deal(&mut self, players: usize) {
        self.supply.clear();
        self.supply.resize(players, true);
        self.placed.clear();
        self.fresh = None;
    }

    /// Whether `seat`'s barn is in the supply.
    pub fn in_supply(&self, seat: Seat) -> bool {
        self.supply.get(seat.index()).copied().unwrap_or(false)
    }

    /// The barns on the board, in the order placed.
    pub fn placed(&self) -> &[Barn] {
        &self.placed
    }
}

/// Why a corner point is no barn's ground (Decision M4, edge case 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoGround {
    /// A cell around the point is empty there (no tile, or a half's gap).
    Empty,
    /// A tile shows a road, a city or a river beside the point.
    NotField,
    /// Two different fields of one tile meet at the point.
    TwoFields,
}

impl NoGround {
    fn why(self) -> &'static str {
        match self {
            NoGround::Empty => "a barn stands only where every cell around the corner holds a tile touching it (no empty cell, no half's gap there): choose another corner",
            NoGround::NotField => "a road, a city or a river meets this corner: a barn stands only where fields alone meet",
            NoGround::TwoFields => "two different fields of one tile meet at this corner: a barn stands only where each tile shows one field",
        }
    }
}

/// Why a barn may not go on a corner (the message is built only when a
/// player asked for it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoBarn {
    /// No tile was placed this turn.
    NoTile,
    /// The corner is not on the tile just placed (at that position).
    NotJustPlaced(Pos),
    /// The half just placed does not touch that corner of its cell.
    HalfMisses(Corner),
    /// The player's barn is on the board already.
    Placed,
    /// The point is no barn's ground.
    Ground(NoGround),
    /// The field there holds a barn.
    FieldHasBarn,
}

impl NoBarn {
    fn illegal(self) -> IllegalAction {
        match self {
            NoBarn::NoTile => illegal("turn", "no tile was placed this turn"),
            NoBarn::NotJustPlaced(pos) => illegal(
                RULE,
                format!("a barn goes on a corner of the tile just placed, at {pos}"),
            ),
            NoBarn::HalfMisses(corner) => illegal(
                RULE,
                format!("the half just placed does not touch its cell's {corner} corner: choose a corner it touches"),
            ),
            NoBarn::Placed => illegal(
                RULE,
                "your barn is already on the board: place a follower or pass",
            ),
            NoBarn::Ground(g) => illegal(RULE, g.why()),
            NoBarn::FieldHasBarn => illegal(
                RULE,
                "this field already holds a barn: a barn goes only into a field without one",
            ),
        }
    }
}

impl Game {
    /// Abbey & Mayor's barns, when the expansion is in play.
    pub fn barns(&self) -> Option<&Barns> {
        self.ext.abbey_mayor.as_ref().map(|s| &s.barns)
    }

    /// The field barn `b` stands in (fields joined since included).
    pub fn barn_field(&self, b: &Barn) -> crate::feature::FeatureRef {
        let (pi, fi) = self.board.features().origin(b.node);
        self.feature_of(pi, fi)
    }

    fn barns_mut(&mut self) -> Option<&mut Barns> {
        self.ext.abbey_mayor.as_mut().map(|s| &mut s.barns)
    }

    /// The field segments meeting at corner `corner` of cell `pos` (their
    /// count, written into `out`), or why no barn may stand there.
    fn barn_ground(
        &self,
        pos: Pos,
        corner: Corner,
        out: &mut [NodeId; MAX_AROUND],
    ) -> Result<usize, NoGround> {
        let cat = &*self.rules.catalog;
        let feats = self.board.features();
        let mut n = 0;
        // Per tile touching the point: its piece and its field there (a
        // double tile touches the point from two cells).
        let mut seen = [(u16::MAX, 0 as NodeId); MAX_AROUND];
        let mut tiles = 0;
        for (cell, c) in corner.cells_around(pos) {
            let mut touched = false;
            for (pi, part) in self.board.pieces_at(cell) {
                let piece = self.board.pieces()[pi as usize];
                let beside = match piece.corner {
                    None => Some(c.beside()),
                    Some(right_angle) => c.half_beside(right_angle),
                };
                let Some(beside) = beside else { continue };
                touched = true;
                let Some(places) = self.board.part_places(cat, pi, part) else {
                    continue;
                };
                for place in beside {
                    // A double tile's inner side has no place: its other
                    // cell shows the field there.
                    let Some(node) = places.node(place) else {
                        continue;
                    };
                    if feats.kind(node) != FeatureKind::Field {
                        return Err(NoGround::NotField);
                    }
                    match seen[..tiles].iter().find(|(q, _)| *q == pi) {
                        Some(&(_, other)) if other != node => return Err(NoGround::TwoFields),
                        Some(_) => {}
                        None if tiles < MAX_AROUND => {
                            seen[tiles] = (pi, node);
                            tiles += 1;
                            if n < MAX_AROUND {
                                out[n] = node;
                                n += 1;
                            }
                        }
                        None => {}
                    }
                }
            }
            if !touched {
                return Err(NoGround::Empty);
            }
        }
        Ok(n)
    }

    /// Whether a barn stands in the field of segment `node`.
    fn barn_in(&self, node: NodeId) -> bool {
        let Some(b) = self.barns() else { return false };
        if b.placed.is_empty() {
            return false;
        }
        let feats = self.board.features();
        let root = feats.root(node);
        b.placed.iter().any(|x| feats.root(x.node) == root)
    }

    /// Checks a barn on corner `corner` of the tile just placed, named by
    /// its cell (and half) `at`: the field segments it joins, or the rule
    /// it breaks.
    fn check_barn(
        &self,
        at: TileAt,
        corner: Corner,
        out: &mut [NodeId; MAX_AROUND],
    ) -> Result<usize, IllegalAction> {
        self.barn_fit(at, corner, out).map_err(NoBarn::illegal)
    }

    /// [`Game::check_barn`] without building the refusal's message: the
    /// listing asks it for every corner, most of which are refused.
    fn barn_fit(
        &self,
        at: TileAt,
        corner: Corner,
        out: &mut [NodeId; MAX_AROUND],
    ) -> Result<usize, NoBarn> {
        let pi = self.last.ok_or(NoBarn::NoTile)?;
        let piece = self.board.pieces()[pi as usize];
        if !self.on_piece(pi, at.pos(), at.half) {
            return Err(NoBarn::NotJustPlaced(piece.pos));
        }
        if let Some(right_angle) = piece.corner {
            if corner.half_beside(right_angle).is_none() {
                return Err(NoBarn::HalfMisses(corner));
            }
        }
        if !self.barns().is_some_and(|b| b.in_supply(self.current)) {
            return Err(NoBarn::Placed);
        }
        let n = self
            .barn_ground(at.pos(), corner, out)
            .map_err(NoBarn::Ground)?;
        if out[..n].iter().any(|&node| self.barn_in(node)) {
            return Err(NoBarn::FieldHasBarn);
        }
        Ok(n)
    }

    /// Puts the current player's barn on corner `corner` of the tile just
    /// placed: the fields at the point become one, and the follower step
    /// ends.
    pub(crate) fn place_barn(&mut self, at: TileAt, corner: Corner) -> Result<(), IllegalAction> {
        let mut nodes = [0 as NodeId; MAX_AROUND];
        let n = self.check_barn(at, corner, &mut nodes)?;
        let Some(&first) = nodes[..n].first() else {
            return Err(illegal(RULE, NoGround::Empty.why()));
        };
        let feats = self.board.features_mut();
        let mut root = feats.find(first);
        for &node in &nodes[1..n] {
            root = feats.union_root(root, node);
        }
        let farmers = feats.followers(root) > 0;
        let seat = self.current;
        if let Some(b) = self.barns_mut() {
            if let Some(s) = b.supply.get_mut(seat.index()) {
                *s = false;
            }
            b.placed.push(Barn {
                seat,
                pos: at.pos(),
                corner,
                node: first,
            });
            b.fresh = farmers.then_some(first);
        }
        self.end_follower_step();
        Ok(())
    }

    /// The barn's corners on the tile just placed, each point once.
    pub(crate) fn barn_spots(&self, out: &mut Vec<Action>) {
        let Some(pi) = self.last else { return };
        if !self.barns().is_some_and(|b| b.in_supply(self.current)) {
            return;
        }
        let piece = self.board.pieces()[pi as usize];
        let o = self.rules.catalog.tile(piece.tile).oriented(piece.rot);
        let mut points = [Pos::new(i32::MAX, i32::MAX); 8];
        let mut listed = 0;
        for &(dx, dy) in &o.cells {
            let cell = piece.pos.offset(dx, dy);
            let Some(at) = TileAt::new(cell, piece.corner) else {
                continue;
            };
            for corner in Corner::ALL {
                let point = corner.point(cell);
                if points[..listed].contains(&point) {
                    continue;
                }
                let mut nodes = [0 as NodeId; MAX_AROUND];
                if self.barn_fit(at, corner, &mut nodes).is_ok() {
                    if listed < points.len() {
                        points[listed] = point;
                        listed += 1;
                    }
                    out.push(Action::Barn { at, corner });
                }
            }
        }
    }

    /// Why no figure may go into the field of segment `node`: a barn
    /// stands in it.
    pub(crate) fn barn_ban(&self, node: NodeId) -> Option<&'static str> {
        (self.board.features().kind(node) == FeatureKind::Field && self.barn_in(node))
            .then_some("this field holds a barn: no figure may go into it by any means")
    }

    /// The part's barn scorings: the field of a barn placed in it with
    /// farmers at 3 a city, every other barn field holding farmers (a
    /// placement joined them) at 1 a city; the farmers and their pigs go
    /// home.
    pub(crate) fn score_barn_fields(&mut self) {
        let Some(b) = self.barns_mut() else { return };
        let fresh = b.fresh.take();
        if b.placed.is_empty() {
            return;
        }
        let mut roots = [(0 as NodeId, 0u32); 6];
        let mut n = 0;
        let feats = self.board.features();
        let fresh_root = fresh.map(|f| feats.root(f));
        for barn in self.barns().map_or(&[][..], |b| &b.placed[..]) {
            let r = feats.root(barn.node);
            if feats.followers(r) == 0 || roots[..n].iter().any(|(q, _)| *q == r) {
                continue;
            }
            let per_city = if fresh_root == Some(r) {
                BARN_PLACED_PER_CITY
            } else {
                BARN_JOINED_PER_CITY
            };
            if n < roots.len() {
                roots[n] = (r, per_city);
                n += 1;
            }
        }
        for &(root, per_city) in &roots[..n] {
            self.score_field_now(root, per_city, Reason::Barn);
        }
    }

    /// Final scoring of the barns: in each barn field, every barn owner
    /// scores 4 a completed city (5 with River II's pig herd under the
    /// option `pig_herd_barn`, Traders & Builders in play).
    pub(crate) fn score_barns_at_end(&mut self) {
        let Some(b) = self.barns() else { return };
        let feats = self.board.features();
        // One barn a seat, so at most six fields: on the stack.
        let mut fields = arrayvec::ArrayVec::<(NodeId, [u8; 6]), 6>::new();
        for barn in &b.placed {
            let r = feats.root(barn.node);
            let k = match fields.iter().position(|(q, _)| *q == r) {
                Some(k) => k,
                None if fields.try_push((r, [0; 6])).is_ok() => fields.len() - 1,
                None => continue,
            };
            if let Some(c) = fields[k].1.get_mut(barn.seat.index()) {
                *c = c.saturating_add(1);
            }
        }
        for (root, barns) in fields {
            self.score_barn_field(root, barns);
        }
    }

    /// One barn field at the end: `barns` per seat.
    fn score_barn_field(&mut self, root: NodeId, barns: [u8; 6]) {
        let cities = self.farm_cities(root);
        let herd = self.rules.options.pig_herd_barn
            && self.rules.options.pig_herd_bonus
            && self.ext.traders.is_some()
            && self.feature_has_tag(root, Tag::known(PIGHERD));
        let per_barn = (BARN_FINAL_PER_CITY + u32::from(herd)) * cities;
        let mut points = [0u32; 6];
        for (p, &c) in points.iter_mut().zip(&barns) {
            *p = per_barn * u32::from(c);
        }
        for (p, add) in self.players.iter_mut().zip(points) {
            p.score += add;
        }
        if self.log_events {
            let (pos, corner, place) = self.feature_spot(root);
            let cat = &*self.rules.catalog;
            let tiles = self.board.feature_tiles(cat, root, self.count_per_cell());
            self.events.push(Event {
                reason: Reason::Barn,
                feature: Some(FeatureKind::Field),
                at: Some((pos, corner, place)),
                tiles,
                extra: cities,
                points,
                followers: barns,
                tile: None,
            });
        }
    }

    /// The barn's index in A&M's codec segment.
    pub(crate) fn barn_code(&self, a: &Action) -> Option<usize> {
        let Action::Barn { at, corner } = *a else {
            return None;
        };
        let piece = self.board.pieces()[self.last? as usize];
        let o = self.rules.catalog.tile(piece.tile).oriented(piece.rot);
        let k = o
            .cells
            .iter()
            .position(|&(dx, dy)| piece.pos.offset(dx, dy) == at.pos())?;
        let code = k * 4 + corner as usize;
        (code < BARN_CODES).then_some(code)
    }

    /// The barn action of code `i` of A&M's codec segment.
    pub(crate) fn barn_of_code(&self, i: usize) -> Option<Action> {
        if i >= BARN_CODES {
            return None;
        }
        let piece = self.board.pieces()[self.last? as usize];
        let o = self.rules.catalog.tile(piece.tile).oriented(piece.rot);
        let &(dx, dy) = o.cells.get(i / 4)?;
        let at = TileAt::new(piece.pos.offset(dx, dy), piece.corner)?;
        Some(Action::Barn {
            at,
            corner: Corner::from_index(i as u8 % 4),
        })
    }

    /// The barns' planes and globals of the observation tensor (public:
    /// every seat sees every barn), relative to `player`.
    pub(crate) fn barns_tensor(&self, player: Seat, t: &mut crate::codec::TensorPart<'_>) {
        let n = self.player_count();
        let Some(b) = self.barns() else {
            for _ in 0..n {
                t.push(0.0);
            }
            return;
        };
        for x in &b.placed {
            t.set(x.seat.after(player, n), x.pos, 1.0);
        }
        for r in 0..n {
            t.push(f32::from(u8::from(b.in_supply(player.ahead(r, n)))));
        }
    }

    /// `barns`: every barn on the board (cell, corner, owner);
    /// `barns_in_supply`: per seat, whether its barn is in the supply.
    pub(crate) fn barns_json(&self, out: &mut ExpansionsJson) {
        let Some(b) = self.barns() else { return };
        let placed: Vec<serde_json::Value> = b
            .placed
            .iter()
            .map(|x| {
                serde_json::json!({
                    "x": x.pos.x,
                    "y": x.pos.y,
                    "corner": x.corner.name(),
                    "seat": x.seat.index(),
                })
            })
            .collect();
        put(out, "barns", placed);
        put(out, "barns_in_supply", &b.supply);
    }
}
