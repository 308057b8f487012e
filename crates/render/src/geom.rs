//! Tile geometry computed from catalog data alone.
//!
//! Every tile is laid out in its catalog orientation in a local frame where
//! one cell is [`S`] units wide, `x` east and `y` south. Each border place is
//! a stretch of the tile's outline; a city is the polygon over the stretches
//! it covers, closed by wall curves bowing into the tile; roads and rivers
//! run from the middles of sides to the centre or across; fields are what is
//! left. Where a follower stands is worked out on a coarse grid: the spot of
//! a feature's area that lies farthest from everything else.

use bastide_engine::expansions::{inns_cathedrals, river};
use bastide_engine::{Catalog, FeatureDef, FeatureKind, Shape, Tag, TileDef};
use bastide_engine::{Place, Side};

/// Width of one cell in local units.
pub const S: f64 = 100.0;

/// Where the middle place of a side starts and ends, as fractions of the side.
const SPLIT: [f64; 4] = [0.0, 0.4, 0.6, 1.0];

/// Half width of a drawn road (local units).
pub const ROAD_HALF: f64 = 4.5;
/// Half width of a drawn river.
pub const RIVER_HALF: f64 = 7.0;

/// A point in the local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pt {
    pub x: f64,
    pub y: f64,
}

impl Pt {
    pub const fn new(x: f64, y: f64) -> Pt {
        Pt { x, y }
    }
    pub fn lerp(self, o: Pt, t: f64) -> Pt {
        Pt::new(self.x + (o.x - self.x) * t, self.y + (o.y - self.y) * t)
    }
    pub fn dist(self, o: Pt) -> f64 {
        ((self.x - o.x).powi(2) + (self.y - o.y).powi(2)).sqrt()
    }
}

/// One border place: a stretch of the outline, clockwise.
#[derive(Clone, Copy, Debug)]
pub struct Seg {
    pub cell: u8,
    pub place: Place,
    pub a: Pt,
    pub b: Pt,
}

impl Seg {
    fn mid(&self) -> Pt {
        self.a.lerp(self.b, 0.5)
    }
}

/// A path command.
#[derive(Clone, Copy, Debug)]
pub enum Cmd {
    M(Pt),
    L(Pt),
    Q(Pt, Pt),
    C(Pt, Pt, Pt),
    Z,
}

/// A path, as SVG draws it and as a polyline for hit tests.
#[derive(Clone, Debug, Default)]
pub struct Path(pub Vec<Cmd>);

impl Path {
    /// Points along the path (quadratic curves cut into short lines); a
    /// closing command adds nothing, polygons are closed implicitly.
    pub fn flatten(&self) -> Vec<Pt> {
        let mut out = Vec::new();
        let mut cur = Pt::new(0.0, 0.0);
        for c in &self.0 {
            match *c {
                Cmd::M(p) | Cmd::L(p) => {
                    out.push(p);
                    cur = p;
                }
                Cmd::Q(c1, p) => {
                    for k in 1..=16 {
                        out.push(quad(cur, c1, p, k as f64 / 16.0));
                    }
                    cur = p;
                }
                Cmd::C(c1, c2, p) => {
                    for k in 1..=20 {
                        out.push(cubic(cur, c1, c2, p, k as f64 / 20.0));
                    }
                    cur = p;
                }
                Cmd::Z => {}
            }
        }
        out
    }

    /// The direction of the first drawn piece at its middle.
    fn tangent(&self) -> (f64, f64) {
        let mut cur = None;
        for c in &self.0 {
            match *c {
                Cmd::M(p) => cur = Some(p),
                Cmd::L(p) | Cmd::Q(_, p) | Cmd::C(_, _, p) => {
                    if let Some(a) = cur {
                        return (p.x - a.x, p.y - a.y);
                    }
                }
                Cmd::Z => {}
            }
        }
        (1.0, 0.0)
    }

    /// The point halfway along the first drawn piece.
    fn middle(&self) -> Option<Pt> {
        let mut cur = None;
        for c in &self.0 {
            match *c {
                Cmd::M(p) => cur = Some(p),
                Cmd::L(p) => return cur.map(|a| a.lerp(p, 0.5)),
                Cmd::Q(c1, p) => return cur.map(|a| quad(a, c1, p, 0.5)),
                Cmd::C(c1, c2, p) => return cur.map(|a| cubic(a, c1, c2, p, 0.5)),
                Cmd::Z => {}
            }
        }
        cur
    }
}

fn cubic(a: Pt, c1: Pt, c2: Pt, b: Pt, t: f64) -> Pt {
    let u = 1.0 - t;
    let (w0, w1, w2, w3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
    Pt::new(
        w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x,
        w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y,
    )
}

fn quad(a: Pt, c: Pt, b: Pt, t: f64) -> Pt {
    let u = 1.0 - t;
    Pt::new(
        u * u * a.x + 2.0 * u * t * c.x + t * t * b.x,
        u * u * a.y + 2.0 * u * t * c.y + t * t * b.y,
    )
}

/// The tile's outline, clockwise.
pub fn outline(shape: Shape) -> Vec<Pt> {
    match shape {
        Shape::Square => vec![
            Pt::new(0.0, 0.0),
            Pt::new(S, 0.0),
            Pt::new(S, S),
            Pt::new(0.0, S),
        ],
        Shape::Half => vec![Pt::new(0.0, 0.0), Pt::new(S, S), Pt::new(0.0, S)],
        Shape::Double => vec![
            Pt::new(0.0, 0.0),
            Pt::new(2.0 * S, 0.0),
            Pt::new(2.0 * S, S),
            Pt::new(0.0, S),
        ],
    }
}

/// Local width of a shape (height is always one cell).
pub fn width(shape: Shape) -> f64 {
    if shape == Shape::Double {
        2.0 * S
    } else {
        S
    }
}

fn side_segs(cell: u8, side: Side, out: &mut Vec<Seg>) {
    let ox = cell as f64 * S;
    let (a, b) = match side {
        Side::N => (Pt::new(ox, 0.0), Pt::new(ox + S, 0.0)),
        Side::E => (Pt::new(ox + S, 0.0), Pt::new(ox + S, S)),
        Side::S => (Pt::new(ox + S, S), Pt::new(ox, S)),
        Side::W => (Pt::new(ox, S), Pt::new(ox, 0.0)),
    };
    for (k, place) in side.places().into_iter().enumerate() {
        out.push(Seg {
            cell,
            place,
            a: a.lerp(b, SPLIT[k]),
            b: a.lerp(b, SPLIT[k + 1]),
        });
    }
}

/// The border places of a shape as stretches of its outline, clockwise.
pub fn perimeter(shape: Shape) -> Vec<Seg> {
    let mut v = Vec::new();
    match shape {
        Shape::Square => {
            for s in Side::ALL {
                side_segs(0, s, &mut v);
            }
        }
        Shape::Half => {
            side_segs(0, Side::W, &mut v);
            let (a, b) = (Pt::new(0.0, 0.0), Pt::new(S, S));
            for (k, place) in [Place::H1, Place::H, Place::H2].into_iter().enumerate() {
                v.push(Seg {
                    cell: 0,
                    place,
                    a: a.lerp(b, SPLIT[k]),
                    b: a.lerp(b, SPLIT[k + 1]),
                });
            }
            side_segs(0, Side::S, &mut v);
        }
        Shape::Double => {
            side_segs(0, Side::N, &mut v);
            side_segs(1, Side::N, &mut v);
            side_segs(1, Side::E, &mut v);
            side_segs(1, Side::S, &mut v);
            side_segs(0, Side::S, &mut v);
            side_segs(0, Side::W, &mut v);
        }
    }
    v
}

/// The centre of a cell of the shape (a half's centroid for a half).
pub fn cell_centre(shape: Shape, cell: u8) -> Pt {
    match shape {
        Shape::Half => Pt::new(S / 3.0, 2.0 * S / 3.0),
        _ => Pt::new(cell.min(1) as f64 * S + S / 2.0, S / 2.0),
    }
}

/// The centre of the cell a point lies in; for a point near the middle of
/// a double-size tile, the centre of the whole tile.
fn centre_near(shape: Shape, p: Pt) -> Pt {
    if shape == Shape::Double {
        if (p.x - S).abs() < S / 4.0 {
            return Pt::new(S, S / 2.0);
        }
        return cell_centre(shape, u8::from(p.x > S));
    }
    cell_centre(shape, 0)
}

/// The point where a place lies: the middle of its stretch, or a centre.
fn place_point(segs: &[Seg], shape: Shape, cell: u8, place: Place) -> Option<Pt> {
    if place == Place::C {
        return Some(cell_centre(shape, cell));
    }
    segs.iter()
        .find(|s| s.cell == cell && s.place == place)
        .map(Seg::mid)
}

/// A city: its area and the walls between it and the rest of the tile.
#[derive(Clone, Debug)]
pub struct CityGeom {
    pub feature: usize,
    pub fill: Path,
    pub walls: Vec<Path>,
    poly: Vec<Pt>,
}

/// A road or river piece.
#[derive(Clone, Debug)]
pub struct LineGeom {
    pub feature: usize,
    pub kind: FeatureKind,
    pub path: Path,
}

/// Small things drawn upright over the tiles.
#[derive(Clone, Debug, PartialEq)]
pub enum Deco {
    /// A monastery building.
    Monastery(Pt),
    /// A coat of arms.
    Shield(Pt),
    /// An inn by a road.
    Inn(Pt),
    /// A picture named by a tag (`garden`, `farmhouse`, …); unknown tags are
    /// drawn as a plain badge with their initial.
    Scenery(Pt, String),
}

impl Deco {
    /// Where it stands.
    pub fn at(&self) -> Pt {
        match self {
            Deco::Monastery(p) | Deco::Shield(p) | Deco::Inn(p) | Deco::Scenery(p, _) => *p,
        }
    }
}

/// Everything needed to draw one tile kind, in catalog orientation.
#[derive(Clone, Debug)]
pub struct TileGeom {
    pub shape: Shape,
    pub outline: Vec<Pt>,
    pub cities: Vec<CityGeom>,
    pub lines: Vec<LineGeom>,
    /// Where roads meet or end in the open: a small house.
    pub junctions: Vec<Pt>,
    /// Where rivers start, end or fork: a pond.
    pub ponds: Vec<Pt>,
    pub decos: Vec<Deco>,
    /// For each feature: where its follower stands.
    pub anchors: Vec<Pt>,
    /// For each feature: whether a follower there lies down (a farmer).
    pub lying: Vec<bool>,
    /// For each feature: a second spot, clear of the follower and the coat
    /// of arms, for a neutral figure.
    pub figure_spots: Vec<Pt>,
    /// Where a token lying on the tile (a Plague outbreak or flea token)
    /// may go, each with how good a spot it is when no follower is near:
    /// the token takes the best of them, counting also how far it is from
    /// the followers on the tile.
    pub token_spots: Vec<(Pt, f64)>,
    /// Inner fields (places `I1`, `I2`) that the cities' walls leave no
    /// room for: a small meadow drawn over the walls, where its farmer
    /// lies.
    pub meadows: Vec<Pt>,
}

/// The wall of a city from `p` to `q` (clockwise around the tile), bowed
/// from the chord towards the centre of its cell. It leaves each end at less
/// than 45 degrees to the border, so caps on two sides that meet at a corner
/// do not cross.
fn wall(shape: Shape, p: Pt, q: Pt) -> Cmd {
    let m = p.lerp(q, 0.5);
    let c = centre_near(shape, m);
    let bow = (m.lerp(c, 0.76).x - m.x, m.lerp(c, 0.76).y - m.y);
    let c1 = p.lerp(q, 0.4);
    let c2 = q.lerp(p, 0.4);
    Cmd::C(
        Pt::new(c1.x + bow.0, c1.y + bow.1),
        Pt::new(c2.x + bow.0, c2.y + bow.1),
        q,
    )
}

fn city_geom(shape: Shape, segs: &[Seg], fi: usize, places: &[(u8, Place)]) -> CityGeom {
    let n = segs.len();
    let inside: Vec<bool> = segs
        .iter()
        .map(|s| places.contains(&(s.cell, s.place)))
        .collect();
    let mut fill = Path::default();
    let mut walls = Vec::new();
    if inside.iter().all(|&b| b) {
        let o = outline(shape);
        fill.0.push(Cmd::M(o[0]));
        fill.0.extend(o[1..].iter().map(|&p| Cmd::L(p)));
        fill.0.push(Cmd::Z);
    } else if !inside.iter().any(|&b| b) {
        // No border place: a small walled town in the middle.
        let c = cell_centre(shape, places.first().map_or(0, |p| p.0));
        let r = 14.0;
        let pts = [
            Pt::new(c.x - r, c.y - r),
            Pt::new(c.x + r, c.y - r),
            Pt::new(c.x + r, c.y + r),
            Pt::new(c.x - r, c.y + r),
        ];
        fill.0.push(Cmd::M(pts[0]));
        fill.0.extend(pts[1..].iter().map(|&p| Cmd::L(p)));
        fill.0.push(Cmd::Z);
        let mut w = fill.clone();
        w.0.pop();
        w.0.push(Cmd::L(pts[0]));
        walls.push(w);
    } else {
        // Runs of consecutive covered stretches, clockwise.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for start in 0..n {
            if inside[start] && !inside[(start + n - 1) % n] {
                let mut end = start;
                while inside[(end + 1) % n] {
                    end = (end + 1) % n;
                }
                runs.push((start, end));
            }
        }
        fill.0.push(Cmd::M(segs[runs[0].0].a));
        for (k, &(start, end)) in runs.iter().enumerate() {
            let mut i = start;
            loop {
                fill.0.push(Cmd::L(segs[i].b));
                if i == end {
                    break;
                }
                i = (i + 1) % n;
            }
            let from = segs[end].b;
            let to = segs[runs[(k + 1) % runs.len()].0].a;
            let w = wall(shape, from, to);
            fill.0.push(w);
            walls.push(Path(vec![Cmd::M(from), w]));
        }
        fill.0.push(Cmd::Z);
    }
    let poly = fill.flatten();
    CityGeom {
        feature: fi,
        fill,
        walls,
        poly,
    }
}

fn point_in_poly(p: Pt, poly: &[Pt]) -> bool {
    let mut inside = false;
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let mut j = n - 1;
    for i in 0..n {
        let (a, b) = (poly[i], poly[j]);
        if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
            inside = !inside;
        }
        j = i;
    }
    inside
}

fn dist_to_polyline(p: Pt, line: &[Pt]) -> f64 {
    let mut best = f64::INFINITY;
    for w in line.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len2 = dx * dx + dy * dy;
        let t = if len2 > 0.0 {
            (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        best = best.min(p.dist(Pt::new(a.x + t * dx, a.y + t * dy)));
    }
    if line.len() == 1 {
        best = p.dist(line[0]);
    }
    best
}

/// Where a road or river from `p` that ends at a city meets its wall: the
/// wall point on the shortest way from `p` via the wall to the cell centre.
fn gate(p: Pt, centre: Pt, cities: &[CityGeom]) -> Option<Pt> {
    let mut best: Option<(f64, Pt)> = None;
    for c in cities {
        for w in &c.walls {
            for q in w.flatten() {
                let cost = p.dist(q) + q.dist(centre);
                if best.is_none_or(|(b, _)| cost < b - 1e-9) {
                    best = Some((cost, q));
                }
            }
        }
    }
    best.map(|(_, q)| q)
}

/// A path from `p` to `end` heading for the cell centre first.
fn approach(p: Pt, centre: Pt, end: Pt) -> Path {
    let (dx, dy) = (centre.x - p.x, centre.y - p.y);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((end.x - p.x) * dx + (end.y - p.y) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let ctrl = p.lerp(p.lerp(centre, t), 0.7);
    Path(vec![Cmd::M(p), Cmd::Q(ctrl, end)])
}

const GRID: f64 = 4.0;
const OUT: i32 = -1;
const EMPTY: i32 = -2;
const BLOCK: i32 = -3;
/// Grid cells below which an inner field's area is too small to show.
const MEADOW_CELLS: usize = 60;

/// Builds the drawing geometry of a tile kind.
pub fn tile_geom(cat: &Catalog, def: &TileDef) -> TileGeom {
    let shape = def.shape;
    let segs = perimeter(shape);
    let nf = def.features.len();
    let mut g = TileGeom {
        shape,
        outline: outline(shape),
        cities: Vec::new(),
        lines: Vec::new(),
        junctions: Vec::new(),
        ponds: Vec::new(),
        decos: Vec::new(),
        anchors: vec![cell_centre(shape, 0); nf],
        figure_spots: vec![cell_centre(shape, 0); nf],
        token_spots: Vec::new(),
        meadows: Vec::new(),
        lying: def
            .features
            .iter()
            .map(|f| f.kind == FeatureKind::Field)
            .collect(),
    };
    let mut monastery_at: Vec<(u8, Pt)> = Vec::new();
    for (fi, f) in def.features.iter().enumerate() {
        match f.kind {
            FeatureKind::City => g.cities.push(city_geom(shape, &segs, fi, &f.places)),
            FeatureKind::Monastery => {
                let cell = f.places.first().map_or(0, |p| p.0);
                let p = cell_centre(shape, cell);
                monastery_at.push((cell, p));
                g.decos.push(Deco::Monastery(p));
                // The picture puts the monk beside the building, upright.
                g.anchors[fi] = p;
            }
            _ => {}
        }
    }
    // Roads and rivers.
    for kind in [FeatureKind::River, FeatureKind::Road] {
        let lines: Vec<(usize, Vec<(u8, Pt)>)> = def
            .features
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind == kind)
            .map(|(fi, f)| {
                let pts = f
                    .places
                    .iter()
                    .filter_map(|&(c, p)| place_point(&segs, shape, c, p).map(|q| (c, q)))
                    .collect();
                (fi, pts)
            })
            .collect();
        let marker = |g: &mut TileGeom, p: Pt| {
            let list = if kind == FeatureKind::River {
                &mut g.ponds
            } else {
                &mut g.junctions
            };
            if !list.contains(&p) {
                list.push(p);
            }
        };
        for (fi, pts) in &lines {
            let fi = *fi;
            match pts.len() {
                0 => {}
                2 => {
                    let (c0, p0) = pts[0];
                    let (c1, p1) = pts[1];
                    let ctrl = cell_centre(shape, c0).lerp(cell_centre(shape, c1), 0.5);
                    g.lines.push(LineGeom {
                        feature: fi,
                        kind,
                        path: Path(vec![Cmd::M(p0), Cmd::Q(ctrl, p1)]),
                    });
                }
                1 => {
                    let (cell, p) = pts[0];
                    let centre = cell_centre(shape, cell);
                    // Single ends of the same kind in this cell.
                    let singles = lines
                        .iter()
                        .filter(|(_, q)| q.len() == 1 && q[0].0 == cell)
                        .count();
                    let monastery = monastery_at.iter().find(|m| m.0 == cell);
                    let path = if let Some(&(_, m)) = monastery {
                        Path(vec![Cmd::M(p), Cmd::L(m)])
                    } else if singles >= 3 || g.cities.is_empty() || p == centre {
                        marker(&mut g, centre);
                        Path(vec![Cmd::M(p), Cmd::L(centre)])
                    } else {
                        match gate(p, centre, &g.cities) {
                            Some(end) => approach(p, centre, end),
                            None => {
                                marker(&mut g, centre);
                                Path(vec![Cmd::M(p), Cmd::L(centre)])
                            }
                        }
                    };
                    g.lines.push(LineGeom {
                        feature: fi,
                        kind,
                        path,
                    });
                }
                _ => {
                    // A fork or crossing: every end runs to the centre.
                    let cell = pts[0].0;
                    let centre = cell_centre(shape, cell);
                    for &(_, p) in pts {
                        g.lines.push(LineGeom {
                            feature: fi,
                            kind,
                            path: Path(vec![Cmd::M(p), Cmd::L(centre)]),
                        });
                    }
                    marker(&mut g, centre);
                }
            }
        }
    }
    // A source whose river runs through it (the double-size source of the
    // 20th-anniversary river) has its spring halfway along the river.
    if def.has_tag(Tag::known(river::SOURCE)) && g.ponds.is_empty() {
        let springs: Vec<Pt> = g
            .lines
            .iter()
            .filter(|l| l.kind == FeatureKind::River)
            .filter_map(|l| l.path.middle())
            .collect();
        g.ponds.extend(springs);
    }
    // Followers on roads stand halfway along (nearer the edge on a road
    // that leads to a monastery, to keep clear of the building).
    for fi in 0..nf {
        let Some(line) = g.lines.iter().find(|l| l.feature == fi) else {
            continue;
        };
        let to_monastery = match line.path.0.as_slice() {
            [Cmd::M(a), Cmd::L(b)] if monastery_at.iter().any(|m| m.1 == *b) => {
                Some(a.lerp(*b, 0.3))
            }
            _ => None,
        };
        if let Some(m) = to_monastery.or_else(|| line.path.middle()) {
            g.anchors[fi] = m;
        }
    }
    // Inns stand beside their road, on the side away from cities.
    for (fi, f) in def.features.iter().enumerate() {
        if f.kind != FeatureKind::Road || !f.tags.contains(Tag::known(inns_cathedrals::INN)) {
            continue;
        }
        let Some(line) = g.lines.iter().find(|l| l.feature == fi) else {
            continue;
        };
        let a = g.anchors[fi];
        let (t0, t1) = line.path.tangent();
        let len = (t0 * t0 + t1 * t1).sqrt().max(1e-9);
        let (nx, ny) = (-t1 / len, t0 / len);
        let (ux, uy) = (t0 / len, t1 / len);
        let mut candidates = Vec::new();
        for along in [0.0, 24.0, -24.0] {
            for side in [16.0, -16.0] {
                candidates.push(Pt::new(
                    a.x + ux * along + nx * side,
                    a.y + uy * along + ny * side,
                ));
            }
        }
        let flat: Vec<(FeatureKind, Vec<Pt>)> =
            g.lines.iter().map(|l| (l.kind, l.path.flatten())).collect();
        let free = |p: &Pt| {
            point_in_poly(*p, &g.outline)
                && !g.cities.iter().any(|c| point_in_poly(*p, &c.poly))
                && flat.iter().all(|(kind, line)| {
                    let hw = if *kind == FeatureKind::River {
                        RIVER_HALF
                    } else {
                        ROAD_HALF
                    };
                    dist_to_polyline(*p, line) > hw + 8.0
                })
        };
        let spot = candidates
            .iter()
            .copied()
            .find(free)
            .unwrap_or(candidates[0]);
        // Move the road's follower along the road, away from the inn: along
        // the tangent where the road is straight, else to a point of the
        // curve itself (a curved road's tangent leaves it).
        let road = line.path.flatten();
        g.anchors[fi] = [0.0, 16.0, -16.0]
            .into_iter()
            .map(|k| Pt::new(a.x + ux * k, a.y + uy * k))
            .filter(|p| dist_to_polyline(*p, &road) < 1.0)
            .chain(
                road.iter()
                    .copied()
                    .filter(|p| (8.0..=20.0).contains(&p.dist(a))),
            )
            .max_by(|p, q| p.dist(spot).total_cmp(&q.dist(spot)))
            .unwrap_or(a);
        g.decos.push(Deco::Inn(spot));
    }
    place_areas(cat, def, &segs, &mut g);
    g
}

/// Where the meadow of inner field `f` goes when the walls leave it no
/// area: between the followers of the cities it borders (the cities come
/// first on a tile, so their spots are known), else the cell's centre; a
/// second meadow at the same point goes to the mirror point across the
/// centre.
fn meadow_spot(g: &TileGeom, f: &FeatureDef, shape: Shape) -> Pt {
    let centre = cell_centre(shape, 0);
    let cities: Vec<Pt> = f
        .cities
        .iter()
        .filter_map(|&c| g.anchors.get(usize::from(c)).copied())
        .collect();
    let n = cities.len().max(1) as f64;
    let mut m = if cities.is_empty() {
        centre
    } else {
        Pt::new(
            cities.iter().map(|p| p.x).sum::<f64>() / n,
            cities.iter().map(|p| p.y).sum::<f64>() / n,
        )
    };
    if g.meadows.iter().any(|q| q.dist(m) < 20.0) {
        m = Pt::new(2.0 * centre.x - m.x, 2.0 * centre.y - m.y);
    }
    m
}

/// The grid cells next to cell `k` (of a `cols` by `rows` grid).
fn grid_next(k: usize, cols: usize, rows: usize) -> impl Iterator<Item = usize> {
    let (i, j) = (k % cols, k / cols);
    [
        (i > 0).then(|| k - 1),
        (i + 1 < cols).then(|| k + 1),
        (j > 0).then(|| k - cols),
        (j + 1 < rows).then(|| k + cols),
    ]
    .into_iter()
    .flatten()
}

/// Spreads the labels of the queued cells into the empty cells they reach.
fn flood(
    label: &mut [i32],
    queue: &mut std::collections::VecDeque<usize>,
    cols: usize,
    rows: usize,
) {
    while let Some(k) = queue.pop_front() {
        for n in grid_next(k, cols, rows) {
            if label[n] == EMPTY {
                label[n] = label[k];
                queue.push_back(n);
            }
        }
    }
}

/// The areas of empty cells, each a list of its cells, in grid order.
fn empty_areas(label: &[i32], cols: usize, rows: usize) -> Vec<Vec<usize>> {
    let mut seen = vec![false; label.len()];
    let mut areas = Vec::new();
    for start in 0..label.len() {
        if label[start] != EMPTY || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut area = vec![start];
        let mut i = 0;
        while let Some(&k) = area.get(i) {
            for n in grid_next(k, cols, rows) {
                if label[n] == EMPTY && !seen[n] {
                    seen[n] = true;
                    area.push(n);
                }
            }
            i += 1;
        }
        areas.push(area);
    }
    areas
}

/// Labels a grid over the tile and puts field and city followers (and the
/// coats of arms) where their areas are widest.
fn place_areas(cat: &Catalog, def: &TileDef, segs: &[Seg], g: &mut TileGeom) {
    let shape = g.shape;
    let cols = (width(shape) / GRID) as usize;
    let rows = (S / GRID) as usize;
    let at = |i: usize, j: usize| Pt::new((i as f64 + 0.5) * GRID, (j as f64 + 0.5) * GRID);
    let lines: Vec<(FeatureKind, Vec<Pt>)> =
        g.lines.iter().map(|l| (l.kind, l.path.flatten())).collect();
    let mut label = vec![EMPTY; cols * rows];
    for j in 0..rows {
        for i in 0..cols {
            let p = at(i, j);
            let k = j * cols + i;
            if !point_in_poly(p, &g.outline) {
                label[k] = OUT;
                continue;
            }
            let blocked = lines.iter().any(|(kind, line)| {
                let hw = if *kind == FeatureKind::River {
                    RIVER_HALF
                } else {
                    ROAD_HALF
                };
                dist_to_polyline(p, line) < hw + 3.0
            }) || g.junctions.iter().any(|q| q.dist(p) < 9.0)
                || g.ponds.iter().any(|q| q.dist(p) < 13.0)
                || g.decos.iter().any(|d| match d {
                    Deco::Monastery(q) => (q.x - p.x).abs() < 17.0 && (q.y - p.y).abs() < 17.0,
                    Deco::Inn(q) => (q.x - p.x).abs() < 12.0 && (q.y - p.y).abs() < 12.0,
                    Deco::Shield(_) | Deco::Scenery(..) => false,
                });
            if blocked {
                label[k] = BLOCK;
                continue;
            }
            if let Some(c) = g.cities.iter().find(|c| point_in_poly(p, &c.poly)) {
                label[k] = c.feature as i32;
            }
        }
    }
    // Fields spread from their border places, all at once.
    let cell_of = |p: Pt| -> Option<usize> {
        let i = (p.x / GRID).floor();
        let j = (p.y / GRID).floor();
        (i >= 0.0 && j >= 0.0 && (i as usize) < cols && (j as usize) < rows)
            .then(|| j as usize * cols + i as usize)
    };
    let mut queue = std::collections::VecDeque::new();
    for (fi, f) in def.features.iter().enumerate() {
        if f.kind != FeatureKind::Field {
            continue;
        }
        for s in segs
            .iter()
            .filter(|s| f.places.contains(&(s.cell, s.place)))
        {
            for t in [0.5, 0.2, 0.8] {
                let p = s.a.lerp(s.b, t);
                let c = centre_near(shape, p);
                let d = p.dist(c).max(1e-9);
                let q = p.lerp(c, 2.5 / d);
                if let Some(k) = cell_of(q) {
                    if label[k] == EMPTY {
                        label[k] = fi as i32;
                        queue.push_back(k);
                    }
                }
            }
        }
    }
    flood(&mut label, &mut queue, cols, rows);
    // Inner fields (places I1, I2) touch no side, so nothing above reached
    // them: they take what is left, enclosed between cities, the largest
    // area for I1.
    let inner: Vec<usize> = [Place::I1, Place::I2]
        .iter()
        .filter_map(|&p| {
            def.features
                .iter()
                .position(|f| f.kind == FeatureKind::Field && f.places.contains(&(0, p)))
        })
        .collect();
    if !inner.is_empty() {
        let mut areas = empty_areas(&label, cols, rows);
        areas.sort_by_key(|a| std::cmp::Reverse(a.len()));
        for (&fi, area) in inner.iter().zip(areas) {
            for &k in &area {
                label[k] = fi as i32;
            }
        }
    }
    // Clearance: chamfer distance to the nearest cell of another label.
    let big = 1_000_000;
    let mut dist: Vec<i32> = (0..cols * rows)
        .map(|k| if label[k] >= 0 { big } else { 0 })
        .collect();
    let idx = |i: i64, j: i64| -> Option<usize> {
        (i >= 0 && j >= 0 && (i as usize) < cols && (j as usize) < rows)
            .then(|| j as usize * cols + i as usize)
    };
    let near = [
        (-1i64, 0i64, 3),
        (0, -1, 3),
        (-1, -1, 4),
        (1, -1, 4),
        (1, 0, 3),
        (0, 1, 3),
        (1, 1, 4),
        (-1, 1, 4),
    ];
    for pass in 0..2 {
        let order: Vec<usize> = if pass == 0 {
            (0..cols * rows).collect()
        } else {
            (0..cols * rows).rev().collect()
        };
        let nb = if pass == 0 { &near[..4] } else { &near[4..] };
        for k in order {
            if label[k] < 0 {
                continue;
            }
            let (i, j) = ((k % cols) as i64, (k / cols) as i64);
            // The tile's edge counts as a neighbour of another kind.
            if i == 0 || j == 0 || i as usize == cols - 1 || j as usize == rows - 1 {
                dist[k] = dist[k].min(3);
            }
            for &(di, dj, w) in nb {
                let d = match idx(i + di, j + dj) {
                    Some(n) if label[n] == label[k] => dist[n] + w,
                    Some(_) => w,
                    None => w,
                };
                dist[k] = dist[k].min(d);
            }
        }
    }
    // The widest spot of the cells whose label passes `want`, at least
    // `min_d` from every point of `avoid`, nearest the middle of the area.
    let best = |want: &dyn Fn(i32) -> bool, avoid: &[Pt], min_d: f64| -> Option<Pt> {
        let cells: Vec<usize> = (0..cols * rows)
            .filter(|&k| want(label[k]))
            .filter(|&k| {
                let p = at(k % cols, k / cols);
                avoid.iter().all(|a| p.dist(*a) >= min_d)
            })
            .collect();
        let max = cells.iter().map(|&k| dist[k]).max()?;
        let n = cells.len() as f64;
        let cx = cells.iter().map(|&k| at(k % cols, k / cols).x).sum::<f64>() / n;
        let cy = cells.iter().map(|&k| at(k % cols, k / cols).y).sum::<f64>() / n;
        let centroid = Pt::new(cx, cy);
        let good = (max as f64 * 0.8).max(max.min(6) as f64);
        cells
            .iter()
            .filter(|&&k| dist[k] as f64 >= good)
            .map(|&k| at(k % cols, k / cols))
            .min_by(|a, b| a.dist(centroid).total_cmp(&b.dist(centroid)))
    };
    // A spot of the cells whose label passes `want` with room for a disc
    // of `radius` (clear of roads, walls and the tile's edge): far from
    // every point of `avoid` (up to 26 units) and with room to spare (up to
    // 20 units), nearest the middle of the tile.
    let middle = cell_centre(shape, 0);
    let roomy = |want: &dyn Fn(i32) -> bool, avoid: &[Pt], radius: f64| -> Option<Pt> {
        let mut found: Option<(f64, f64, Pt)> = None;
        for k in 0..cols * rows {
            let room = dist[k] as f64 * GRID / 3.0;
            if !want(label[k]) || room < radius {
                continue;
            }
            let p = at(k % cols, k / cols);
            let far = avoid.iter().map(|a| p.dist(*a)).fold(26.0, f64::min);
            let score = (far + 0.5 * room.min(20.0)).round();
            let near = p.dist(middle);
            if found.is_none_or(|(s, n, _)| score > s || (score == s && near < n)) {
                found = Some((score, near, p));
            }
        }
        found.map(|(_, _, p)| p)
    };
    for (fi, f) in def.features.iter().enumerate() {
        match f.kind {
            FeatureKind::Field | FeatureKind::City => {
                let me = fi as i32;
                let spot = best(&|l| l == me, &[], 0.0);
                // An inner field squeezed between walls (a sliver, or
                // nothing) gets a meadow to show where its farmer lies.
                let room = label.iter().filter(|&&l| l == me).count();
                if room < MEADOW_CELLS && f.places.iter().any(|(_, p)| p.is_inner()) {
                    let m = spot.unwrap_or_else(|| meadow_spot(g, f, shape));
                    g.meadows.push(m);
                    g.anchors[fi] = m;
                    g.figure_spots[fi] = Pt::new(m.x + 12.0, m.y);
                    continue;
                }
                let spot = spot.unwrap_or_else(|| {
                    // Nothing of it is visible: just inside its first place.
                    f.places
                        .first()
                        .and_then(|&(c, p)| place_point(segs, shape, c, p))
                        .map(|p| p.lerp(centre_near(shape, p), 0.3))
                        .unwrap_or_else(|| cell_centre(shape, 0))
                });
                g.anchors[fi] = spot;
                let mut taken = vec![spot];
                if f.kind == FeatureKind::City && f.arms > 0 {
                    let s = best(&|l| l == me, &[spot], 27.0)
                        .unwrap_or(Pt::new(spot.x - 14.0, spot.y - 10.0));
                    g.decos.push(Deco::Shield(s));
                    taken.push(s);
                }
                g.figure_spots[fi] = best(&|l| l == me, &taken, 24.0)
                    .or_else(|| best(&|l| l == me, &[spot], 16.0))
                    .unwrap_or(Pt::new(spot.x - 15.0, spot.y + 6.0));
            }
            _ => {}
        }
    }
    // Scenery: pictures with no rule (farmhouses, gardens, a pig herd, …),
    // each on a free bit of field (its own field for a field's tag).
    let mut wanted: Vec<(Option<usize>, String)> = Vec::new();
    let on_feature = |t: Tag| def.features.iter().any(|f| f.tags.contains(t));
    for t in def.tags.iter() {
        let name = cat.tag_name(t);
        if !NOT_SCENERY.contains(&name) && !on_feature(t) {
            wanted.push((None, name.to_string()));
        }
    }
    for (fi, f) in def.features.iter().enumerate() {
        for name in cat.tag_names(f.tags) {
            if !NOT_SCENERY.contains(&name) {
                wanted.push((Some(fi), name.to_string()));
            }
        }
    }
    for (owner, tag) in wanted {
        // A volcano rises from the lake.
        if tag == "volcano" {
            if let Some(&p) = g.ponds.first() {
                g.decos.push(Deco::Scenery(p, tag));
                continue;
            }
        }
        let mut avoid: Vec<Pt> = g.anchors.clone();
        avoid.extend(g.decos.iter().map(Deco::at));
        let is_field = |l: i32| {
            l >= 0
                && def
                    .features
                    .get(l as usize)
                    .is_some_and(|f| f.kind == FeatureKind::Field)
        };
        let is_city = |l: i32| {
            l >= 0
                && def
                    .features
                    .get(l as usize)
                    .is_some_and(|f| f.kind == FeatureKind::City)
        };
        let doctor_spot = || -> Option<Pt> {
            let room = |k: usize| dist[k] as f64 * GRID / 3.0;
            let cells: Vec<usize> = (0..cols * rows)
                .filter(|&k| (k % cols).is_multiple_of(2) && (k / cols).is_multiple_of(2))
                .collect();
            let mut found: Option<(f64, f64, Pt)> = None;
            for &k in &cells {
                let l = label[k];
                if !is_field(l) || room(k) < 12.0 {
                    continue;
                }
                let p = at(k % cols, k / cols);
                let fixed = def
                    .features
                    .iter()
                    .enumerate()
                    .filter(|&(fi, _)| fi as i32 != l)
                    .map(|(fi, _)| g.anchors[fi])
                    .chain(g.decos.iter().map(Deco::at));
                let far = fixed.map(|a| p.dist(a)).fold(26.0, f64::min);
                let gap = cells
                    .iter()
                    .filter(|&&q| label[q] == l && room(q) >= 10.0)
                    .map(|&q| p.dist(at(q % cols, q / cols)).min(24.0))
                    .fold(0.0, f64::max);
                let score = (far + gap + 0.5 * room(k).min(14.0)).round();
                let near = p.dist(middle);
                if found.is_none_or(|(s, n, _)| score > s || (score == s && near < n)) {
                    found = Some((score, near, p));
                }
            }
            found.map(|(_, _, p)| p)
        };
        let spot = match owner {
            Some(fi) => best(&|l| l == fi as i32, &avoid, 22.0)
                .or_else(|| best(&|l| l == fi as i32, &[], 0.0)),
            // The plague doctor's disc is big: wholly on a field, far from
            // the other followers' spots, leaving room in its field for the
            // farmer beside it.
            None if tag == "plague" => doctor_spot()
                .or_else(|| best(&is_field, &avoid, 22.0))
                .or_else(|| best(&|l| l >= 0, &avoid, 18.0)),
            // The gingerbread symbol is printed in a city.
            None if tag == "gingerbread" => {
                best(&is_city, &avoid, 22.0).or_else(|| best(&|l| l >= 0, &avoid, 18.0))
            }
            None => best(&is_field, &avoid, 22.0).or_else(|| best(&|l| l >= 0, &avoid, 18.0)),
        };
        let spot = spot.unwrap_or_else(|| cell_centre(shape, 0));
        // A farmer in the doctor's field lies beside the symbol, not on it.
        if tag == "plague" {
            let cell = cell_of(spot).map(|k| label[k]).filter(|&l| is_field(l));
            if let Some(fi) = cell {
                if let Some(a) = roomy(&|l| l == fi, &[spot], 10.0) {
                    g.anchors[fi as usize] = a;
                }
            }
        }
        g.decos.push(Deco::Scenery(spot, tag));
    }
    // Where a token may lie: wholly inside the tile, off the pictures where
    // there is room, preferably on open ground clear of roads and walls and
    // near the middle. Which of these spots a token takes depends also on
    // the followers standing on the tile, known only when drawing a board.
    let mut pictures: Vec<(Pt, f64)> = Vec::new();
    for d in &g.decos {
        let r = match d {
            Deco::Monastery(_) => 17.0,
            Deco::Scenery(..) => 13.0,
            Deco::Shield(_) | Deco::Inn(_) => 10.0,
        };
        pictures.push((d.at(), r));
    }
    pictures.extend(g.junctions.iter().map(|&p| (p, 8.0)));
    pictures.extend(g.ponds.iter().map(|&p| (p, 12.0)));
    let mut ring = g.outline.clone();
    ring.extend(g.outline.first().copied());
    for j in (0..rows).step_by(2) {
        for i in (0..cols).step_by(2) {
            let k = j * cols + i;
            let p = at(i, j);
            if label[k] == OUT || dist_to_polyline(p, &ring) < TOKEN_R + 2.0 {
                continue;
            }
            let open = if label[k] >= 0 {
                (dist[k] as f64 * GRID / 3.0).min(TOKEN_R + 6.0)
            } else {
                0.0
            };
            let overlap: f64 = pictures
                .iter()
                .map(|&(q, r)| (TOKEN_R + r + 1.0 - p.dist(q)).max(0.0))
                .sum();
            let penalty = if overlap > 0.0 { 60.0 + overlap } else { 0.0 };
            let score = 2.0 * open - penalty - 0.02 * p.dist(middle);
            g.token_spots.push((p, score));
        }
    }
    if g.token_spots.is_empty() {
        g.token_spots.push((middle, 0.0));
    }
}

/// Radius of the largest token lying on a tile (an outbreak token).
pub const TOKEN_R: f64 = 14.0;

/// Tags that are drawn by the river, road or city itself, or are not
/// pictures at all.
const NOT_SCENERY: [&str; 8] = [
    "source",
    "lake",
    "fork",
    "bridge",
    "city-bridge",
    "inn",
    "start",
    "reconstructed",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perimeter_is_closed_and_clockwise() {
        for shape in [Shape::Square, Shape::Half, Shape::Double] {
            let p = perimeter(shape);
            for w in 0..p.len() {
                let a = p[w];
                let b = p[(w + 1) % p.len()];
                assert!(a.b.dist(b.a) < 1e-9, "{shape:?} gap after {:?}", a.place);
            }
        }
    }

    /// Followers stand on their own feature: a city's inside its walls, a
    /// farmer in no city and off the roads, a road's on the road.
    fn check_anchors(cat: &Catalog, def: &TileDef) {
        let g = tile_geom(cat, def);
        let lines: Vec<(FeatureKind, usize, Vec<Pt>)> = g
            .lines
            .iter()
            .map(|l| (l.kind, l.feature, l.path.flatten()))
            .collect();
        for (fi, f) in def.features.iter().enumerate() {
            let a = g.anchors[fi];
            assert!(
                point_in_poly(a, &g.outline),
                "{} feature {fi}: {a:?} off the tile",
                def.id
            );
            let in_city = g.cities.iter().find(|c| point_in_poly(a, &c.poly));
            match f.kind {
                FeatureKind::City => {
                    assert_eq!(in_city.map(|c| c.feature), Some(fi), "{} city {fi}", def.id)
                }
                FeatureKind::Field if g.meadows.contains(&a) => {}
                FeatureKind::Field => {
                    assert!(
                        in_city.is_none(),
                        "{} field {fi} at {a:?} in a city",
                        def.id
                    );
                    for (kind, _, line) in &lines {
                        let d = dist_to_polyline(a, line);
                        assert!(
                            d > ROAD_HALF,
                            "{} field {fi} at {a:?} on a {}",
                            def.id,
                            kind.name()
                        );
                    }
                }
                FeatureKind::Road => {
                    let d = lines
                        .iter()
                        .filter(|(_, l, _)| *l == fi)
                        .map(|(_, _, line)| dist_to_polyline(a, line))
                        .fold(f64::INFINITY, f64::min);
                    assert!(d < 2.0, "{} road {fi} follower {d} off the road", def.id);
                }
                _ => {}
            }
        }
    }

    #[test]
    fn followers_stand_on_their_features() {
        let cat = Catalog::builtin();
        for def in cat.tiles() {
            check_anchors(&cat, def);
        }
        let shapes =
            Catalog::from_files(&[("shapes.toml", include_str!("../tests/data/shapes.toml"))])
                .expect("test catalog");
        for def in shapes.tiles() {
            check_anchors(&shapes, def);
        }
    }

    #[test]
    fn inner_fields_have_spots_of_their_own() {
        let cat = Catalog::builtin();
        let geom = |id: &str| {
            let def = cat.tile(cat.find(id).expect(id));
            (def, tile_geom(&cat, def))
        };
        let inner = |def: &TileDef, p: Place| {
            def.features
                .iter()
                .position(|f| f.places.contains(&(0, p)))
                .expect("an inner field")
        };
        // F's three cities leave room between them: a field area, no meadow.
        let (f, g) = geom("traders-builders/F");
        assert!(g.meadows.is_empty());
        assert!(!g
            .cities
            .iter()
            .any(|c| point_in_poly(g.anchors[inner(f, Place::I1)], &c.poly)));
        // B's two cities cover the tile: two meadows, apart.
        let (b, g) = geom("abbey-mayor/B");
        let (i1, i2) = (
            g.anchors[inner(b, Place::I1)],
            g.anchors[inner(b, Place::I2)],
        );
        assert_eq!(g.meadows, vec![i1, i2]);
        assert!(i1.dist(i2) > 20.0, "{i1:?} {i2:?}");
        // C's meadow lies between its two cities' followers.
        let (c, g) = geom("traders-builders/C");
        let spot = g.anchors[inner(c, Place::I1)];
        assert_eq!(g.meadows, vec![spot]);
        assert!(
            spot.y > g.anchors[0].y && spot.y < g.anchors[1].y,
            "{spot:?}"
        );
    }

    #[test]
    fn city_cap_follower_is_in_the_north() {
        let cat = Catalog::builtin();
        let e = cat.tile(cat.find("base/E").expect("base/E"));
        let g = tile_geom(&cat, e);
        let city = e
            .features
            .iter()
            .position(|f| f.kind == FeatureKind::City)
            .expect("city");
        assert!(g.anchors[city].y < 30.0, "{:?}", g.anchors[city]);
        let field = e
            .features
            .iter()
            .position(|f| f.kind == FeatureKind::Field)
            .expect("field");
        assert!(g.anchors[field].y > 40.0, "{:?}", g.anchors[field]);
    }
}
