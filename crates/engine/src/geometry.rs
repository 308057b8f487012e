//! Positions, rotations, sides and the names of places on a tile.
//!
//! Everything here follows `notation.md`: `y` grows to the south, rotations are
//! clockwise quarter turns, and the twelve border places run clockwise from the
//! west end of the north side.

use std::fmt;
use std::str::FromStr;

pub use crate::limits::COORD_LIMIT;

/// A cell of the board. `x` grows to the east, `y` to the south.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Pos {
    /// Column, growing to the east.
    pub x: i32,
    /// Row, growing to the south.
    pub y: i32,
}

impl Pos {
    /// A position from its coordinates.
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// A position from outside coordinates, if both lie within
    /// ±[`COORD_LIMIT`]; the error names the coordinate and the range.
    pub fn checked(x: i64, y: i64) -> Result<Pos, String> {
        let one = |name: &str, v: i64| {
            i32::try_from(v)
                .ok()
                .filter(|v| (-COORD_LIMIT..=COORD_LIMIT).contains(v))
                .ok_or_else(|| {
                    format!(
                        "{name} = {v} is out of range: coordinates run from -{COORD_LIMIT} to {COORD_LIMIT}"
                    )
                })
        };
        Ok(Pos::new(one("x", x)?, one("y", y)?))
    }

    /// Whether both coordinates lie within ±[`COORD_LIMIT`].
    pub const fn in_range(self) -> bool {
        self.x >= -COORD_LIMIT
            && self.x <= COORD_LIMIT
            && self.y >= -COORD_LIMIT
            && self.y <= COORD_LIMIT
    }

    /// The neighbouring cell across `side`.
    pub fn step(self, side: Side) -> Pos {
        let (dx, dy) = side.delta();
        Pos::new(self.x + dx, self.y + dy)
    }

    /// This position moved by an offset.
    pub fn offset(self, dx: i32, dy: i32) -> Pos {
        Pos::new(self.x + dx, self.y + dy)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A clockwise quarter-turn count: 0, 90, 180 or 270 degrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Rotation(u8);

impl Rotation {
    /// All four rotations, in increasing order.
    pub const ALL: [Rotation; 4] = [Rotation(0), Rotation(1), Rotation(2), Rotation(3)];

    /// The rotation of `quarter_turns` clockwise quarter turns (taken modulo 4).
    pub const fn from_quarters(quarter_turns: u8) -> Rotation {
        Rotation(quarter_turns % 4)
    }

    /// The rotation for `degrees`, which must be 0, 90, 180 or 270.
    pub fn from_degrees(degrees: i64) -> Option<Rotation> {
        match degrees {
            0 => Some(Rotation(0)),
            90 => Some(Rotation(1)),
            180 => Some(Rotation(2)),
            270 => Some(Rotation(3)),
            _ => None,
        }
    }

    /// Number of clockwise quarter turns (0–3).
    pub const fn quarters(self) -> u8 {
        self.0
    }

    /// Degrees clockwise (0, 90, 180, 270).
    pub const fn degrees(self) -> u16 {
        self.0 as u16 * 90
    }

    /// This rotation followed by `other`.
    pub const fn then(self, other: Rotation) -> Rotation {
        Rotation((self.0 + other.0) % 4)
    }

    /// Rotates an offset `(dx, dy)` clockwise (screen coordinates, `y` south).
    pub fn rotate_offset(self, dx: i32, dy: i32) -> (i32, i32) {
        match self.0 {
            0 => (dx, dy),
            1 => (-dy, dx),
            2 => (-dx, -dy),
            _ => (dy, -dx),
        }
    }
}

/// A side of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Side {
    /// North (towards smaller `y`).
    N = 0,
    /// East.
    E = 1,
    /// South.
    S = 2,
    /// West.
    W = 3,
}

impl Side {
    /// The four sides, clockwise from north.
    pub const ALL: [Side; 4] = [Side::N, Side::E, Side::S, Side::W];

    /// The side with index `i` (0 = N, clockwise), modulo 4.
    pub const fn from_index(i: u8) -> Side {
        match i % 4 {
            0 => Side::N,
            1 => Side::E,
            2 => Side::S,
            _ => Side::W,
        }
    }

    /// Index clockwise from north.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side facing this one across a shared edge.
    pub const fn opposite(self) -> Side {
        Side::from_index(self as u8 + 2)
    }

    /// The side this one becomes after `r`.
    pub const fn rotate(self, r: Rotation) -> Side {
        Side::from_index(self as u8 + r.quarters())
    }

    /// Cell offset towards this side.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Side::N => (0, -1),
            Side::E => (1, 0),
            Side::S => (0, 1),
            Side::W => (-1, 0),
        }
    }

    /// The three border places on this side, clockwise.
    pub const fn places(self) -> [Place; 3] {
        let b = self as u8 * 3;
        [Place::border(b), Place::border(b + 1), Place::border(b + 2)]
    }

    /// The middle place of this side.
    pub const fn middle(self) -> Place {
        Place::border(self as u8 * 3 + 1)
    }

    /// One-letter name.
    pub const fn name(self) -> &'static str {
        match self {
            Side::N => "N",
            Side::E => "E",
            Side::S => "S",
            Side::W => "W",
        }
    }
}

/// A corner of a cell; also names the right-angle corner of a half tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Corner {
    /// North-west.
    NW = 0,
    /// North-east.
    NE = 1,
    /// South-east.
    SE = 2,
    /// South-west.
    SW = 3,
}

impl Corner {
    /// The four corners clockwise from north-west.
    pub const ALL: [Corner; 4] = [Corner::NW, Corner::NE, Corner::SE, Corner::SW];

    /// Corner of index `i` (0 = NW, clockwise), modulo 4.
    pub const fn from_index(i: u8) -> Corner {
        match i % 4 {
            0 => Corner::NW,
            1 => Corner::NE,
            2 => Corner::SE,
            _ => Corner::SW,
        }
    }

    /// The corner where a half tile turned by `r` has its right angle
    /// (catalog orientation: SW).
    pub const fn of_half(r: Rotation) -> Corner {
        Corner::from_index(3 + r.quarters())
    }

    /// The rotation that puts a half tile's right angle at this corner.
    pub const fn half_rotation(self) -> Rotation {
        Rotation::from_quarters(self as u8 + 1)
    }

    /// The diagonally opposite corner: the other half that fits in the same cell.
    pub const fn opposite(self) -> Corner {
        Corner::from_index(self as u8 + 2)
    }

    /// The two sides of the cell that meet at this corner (the short sides of
    /// a half tile with its right angle here), clockwise order of the half.
    pub const fn sides(self) -> [Side; 2] {
        match self {
            Corner::SW => [Side::W, Side::S],
            Corner::NW => [Side::N, Side::W],
            Corner::NE => [Side::E, Side::N],
            Corner::SE => [Side::S, Side::E],
        }
    }

    /// Whether this corner has a short side on `side`.
    pub const fn touches(self, side: Side) -> bool {
        let [a, b] = self.sides();
        a as u8 == side as u8 || b as u8 == side as u8
    }

    /// Two-letter name.
    pub const fn name(self) -> &'static str {
        match self {
            Corner::NW => "NW",
            Corner::NE => "NE",
            Corner::SE => "SE",
            Corner::SW => "SW",
        }
    }
}

impl Corner {
    /// The corner point this corner of a cell shares with the cells
    /// around it: the four cells that meet there, each with the corner of
    /// its own that the point is, clockwise from the cell itself. (A corner
    /// point is a place of its own, `notation.md`: Abbey & Mayor's barn
    /// stands on one.)
    pub fn cells_around(self, pos: Pos) -> [(Pos, Corner); 4] {
        // The point's offset from the cell's north-west corner, then the
        // four cells whose corner it is: the cell north-west of the point
        // has it as its south-east corner, and so on clockwise.
        let p = self.point(pos);
        let around = [
            (Pos::new(p.x - 1, p.y - 1), Corner::SE),
            (Pos::new(p.x, p.y - 1), Corner::SW),
            (Pos::new(p.x, p.y), Corner::NW),
            (Pos::new(p.x - 1, p.y), Corner::NE),
        ];
        // Start with the cell itself, keeping the clockwise order.
        let k = around.iter().position(|&(_, c)| c == self).unwrap_or(0);
        [
            around[k],
            around[(k + 1) % 4],
            around[(k + 2) % 4],
            around[(k + 3) % 4],
        ]
    }

    /// The corner point this corner of cell `pos` is, named by the cell
    /// whose north-west corner it is (one name for the four namings of a
    /// point).
    pub const fn point(self, pos: Pos) -> Pos {
        let (dx, dy) = match self {
            Corner::NW => (0, 0),
            Corner::NE => (1, 0),
            Corner::SE => (1, 1),
            Corner::SW => (0, 1),
        };
        Pos::new(pos.x + dx, pos.y + dy)
    }

    /// The two border places of a square tile beside this corner, clockwise
    /// (NE: NNE and ENE, SE: ESE and SSE, SW: SSW and WSW, NW: WNW and NNW).
    pub const fn beside(self) -> [Place; 2] {
        match self {
            Corner::NE => [Place::Nne, Place::Ene],
            Corner::SE => [Place::Ese, Place::Sse],
            Corner::SW => [Place::Ssw, Place::Wsw],
            Corner::NW => [Place::Wnw, Place::Nnw],
        }
    }

    /// This corner after the tile is turned by `r`.
    pub const fn rotate(self, r: Rotation) -> Corner {
        Corner::from_index(self as u8 + r.quarters())
    }

    /// The places beside this corner of its cell on a half tile whose
    /// right angle is at `right_angle`: the two short-side places at the
    /// right angle, a short-side place and `H1` or `H2` at an end of the
    /// long side; `None` at the corner the half leaves open (its gap).
    pub const fn half_beside(self, right_angle: Corner) -> Option<[Place; 2]> {
        // In catalog orientation (right angle SW) the long side runs from
        // H1 at the north-west corner to H2 at the south-east one.
        let r = right_angle.half_rotation();
        let back = Rotation::from_quarters(4 - r.quarters());
        let [a, b] = match self.rotate(back) {
            Corner::SW => [Place::Ssw, Place::Wsw],
            Corner::NW => [Place::Wnw, Place::H1],
            Corner::SE => [Place::H2, Place::Sse],
            Corner::NE => return None,
        };
        Some([a.rotate(r), b.rotate(r)])
    }
}

impl FromStr for Corner {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Corner::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown corner {}: expected NW, NE, SE or SW",
                    crate::limits::cut(s)
                )
            })
    }
}

impl fmt::Display for Corner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A named place on a tile: twelve border places, the centre, the three
/// places on a half tile's long side, and the inner places of fields that
/// touch no side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Place {
    /// West part of the north side.
    Nnw = 0,
    /// Middle of the north side.
    N = 1,
    /// East part of the north side.
    Nne = 2,
    /// North part of the east side.
    Ene = 3,
    /// Middle of the east side.
    E = 4,
    /// South part of the east side.
    Ese = 5,
    /// East part of the south side.
    Sse = 6,
    /// Middle of the south side.
    S = 7,
    /// West part of the south side.
    Ssw = 8,
    /// South part of the west side.
    Wsw = 9,
    /// Middle of the west side.
    W = 10,
    /// North part of the west side.
    Wnw = 11,
    /// The centre (monastery).
    C = 12,
    /// First place of a half tile's long side (clockwise).
    H1 = 13,
    /// Middle of a half tile's long side.
    H = 14,
    /// Last place of a half tile's long side.
    H2 = 15,
    /// First inner place: the first field of the tile (in its rules
    /// file's row) that touches no side, enclosed between cities.
    I1 = 16,
    /// Second inner place (a tile with two enclosed fields).
    I2 = 17,
}

/// Number of places, the length of a cell's place table.
pub const PLACE_COUNT: usize = 18;

/// All place names, in index order.
const PLACE_NAMES: [&str; PLACE_COUNT] = [
    "NNW", "N", "NNE", "ENE", "E", "ESE", "SSE", "S", "SSW", "WSW", "W", "WNW", "C", "H1", "H",
    "H2", "I1", "I2",
];

impl Place {
    /// Every place, in index order.
    pub const ALL: [Place; PLACE_COUNT] = [
        Place::Nnw,
        Place::N,
        Place::Nne,
        Place::Ene,
        Place::E,
        Place::Ese,
        Place::Sse,
        Place::S,
        Place::Ssw,
        Place::Wsw,
        Place::W,
        Place::Wnw,
        Place::C,
        Place::H1,
        Place::H,
        Place::H2,
        Place::I1,
        Place::I2,
    ];

    /// Border place of index `i` (0 = NNW, clockwise), modulo 12.
    pub const fn border(i: u8) -> Place {
        match i % 12 {
            0 => Place::Nnw,
            1 => Place::N,
            2 => Place::Nne,
            3 => Place::Ene,
            4 => Place::E,
            5 => Place::Ese,
            6 => Place::Sse,
            7 => Place::S,
            8 => Place::Ssw,
            9 => Place::Wsw,
            10 => Place::W,
            _ => Place::Wnw,
        }
    }

    /// Index in `0..PLACE_COUNT`.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this is one of the twelve places on a cell side.
    pub const fn is_border(self) -> bool {
        (self as u8) < 12
    }

    /// Whether this lies on a half tile's long side.
    pub const fn is_long_side(self) -> bool {
        matches!(self, Place::H1 | Place::H | Place::H2)
    }

    /// Whether this is an inner place (`I1`, `I2`): a field touching no
    /// side, which rotation leaves where it is.
    pub const fn is_inner(self) -> bool {
        matches!(self, Place::I1 | Place::I2)
    }

    /// The cell side a border place lies on.
    pub const fn side(self) -> Option<Side> {
        if self.is_border() {
            Some(Side::from_index(self as u8 / 3))
        } else {
            None
        }
    }

    /// Where this place ends up after the tile is turned by `r`. The centre,
    /// the long-side places and the inner places belong to the piece and do
    /// not move.
    pub const fn rotate(self, r: Rotation) -> Place {
        if self.is_border() {
            Place::border(self as u8 + 3 * r.quarters())
        } else {
            self
        }
    }

    /// The place on the neighbouring tile that touches this border place.
    pub const fn facing(self) -> Option<Place> {
        let i = self as u8;
        if i >= 12 {
            return None;
        }
        // North/south places mirror about the vertical, east/west about the
        // horizontal: NNW meets SSW, ENE meets WNW.
        let j = if (i / 3).is_multiple_of(2) {
            (20 - i) % 12
        } else {
            (26 - i) % 12
        };
        Some(Place::border(j))
    }

    /// The place's name as in `notation.md`.
    pub const fn name(self) -> &'static str {
        PLACE_NAMES[self as usize]
    }
}

impl FromStr for Place {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PLACE_NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Place::ALL[i])
            .ok_or_else(|| {
                format!(
                    "unknown place {}: expected one of {}",
                    crate::limits::cut(s),
                    PLACE_NAMES.join(", ")
                )
            })
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_places_pair_up_across_each_side() {
        assert_eq!(Place::Nnw.facing(), Some(Place::Ssw));
        assert_eq!(Place::N.facing(), Some(Place::S));
        assert_eq!(Place::Nne.facing(), Some(Place::Sse));
        assert_eq!(Place::Ene.facing(), Some(Place::Wnw));
        assert_eq!(Place::Ese.facing(), Some(Place::Wsw));
        assert_eq!(Place::W.facing(), Some(Place::E));
        assert_eq!(Place::C.facing(), None);
        for p in Place::ALL.into_iter().filter(|p| p.is_border()) {
            let f = p.facing().unwrap();
            assert_eq!(f.facing(), Some(p));
            assert_eq!(f.side().unwrap(), p.side().unwrap().opposite());
        }
    }

    #[test]
    fn rotation_moves_places_clockwise() {
        let r90 = Rotation::from_quarters(1);
        assert_eq!(Place::N.rotate(r90), Place::E);
        assert_eq!(Place::Wnw.rotate(r90), Place::Nne);
        assert_eq!(Place::C.rotate(r90), Place::C);
        assert_eq!(Place::H1.rotate(r90), Place::H1);
        assert_eq!(Place::I2.rotate(r90), Place::I2);
        assert_eq!(Side::W.rotate(r90), Side::N);
        assert_eq!(r90.rotate_offset(1, 0), (0, 1));
        assert_eq!(Rotation::from_quarters(2).rotate_offset(1, 0), (-1, 0));
        assert_eq!(Rotation::from_quarters(3).rotate_offset(1, 0), (0, -1));
    }

    #[test]
    fn half_corners_follow_rotation() {
        assert_eq!(Corner::of_half(Rotation::from_quarters(0)), Corner::SW);
        assert_eq!(Corner::of_half(Rotation::from_quarters(1)), Corner::NW);
        assert_eq!(Corner::of_half(Rotation::from_quarters(2)), Corner::NE);
        assert_eq!(Corner::of_half(Rotation::from_quarters(3)), Corner::SE);
        for c in Corner::ALL {
            assert_eq!(Corner::of_half(c.half_rotation()), c);
            // The short sides of a rotated half are the rotated catalog sides.
            let r = c.half_rotation();
            assert_eq!(c.sides(), [Side::W.rotate(r), Side::S.rotate(r)]);
        }
    }

    #[test]
    fn corner_points_are_shared_by_four_cells() {
        let p = Pos::new(2, -1);
        let around = Corner::NE.cells_around(p);
        assert_eq!(around[0], (p, Corner::NE));
        assert!(around.contains(&(Pos::new(3, -1), Corner::NW)));
        assert!(around.contains(&(Pos::new(2, -2), Corner::SE)));
        assert!(around.contains(&(Pos::new(3, -2), Corner::SW)));
        // Every cell around names the same point back.
        for (q, c) in around {
            let mut back = c.cells_around(q);
            let mut first = around;
            back.sort();
            first.sort();
            assert_eq!(back, first);
        }
    }

    #[test]
    fn places_beside_corners_of_squares_and_halves() {
        assert_eq!(Corner::NE.beside(), [Place::Nne, Place::Ene]);
        // A square tile turned by 90: what lay beside NE lies beside SE.
        let r = Rotation::from_quarters(1);
        assert_eq!(
            Corner::NE.beside().map(|p| p.rotate(r)),
            Corner::SE.beside()
        );
        // Catalog half (right angle SW): short sides W and S, long side
        // from H1 (NW) to H2 (SE); the NE corner is its gap.
        assert_eq!(
            Corner::SW.half_beside(Corner::SW),
            Some([Place::Ssw, Place::Wsw])
        );
        assert_eq!(
            Corner::NW.half_beside(Corner::SW),
            Some([Place::Wnw, Place::H1])
        );
        assert_eq!(
            Corner::SE.half_beside(Corner::SW),
            Some([Place::H2, Place::Sse])
        );
        assert_eq!(Corner::NE.half_beside(Corner::SW), None);
        // Right angle NE (turned 180): short sides E and N.
        assert_eq!(
            Corner::NE.half_beside(Corner::NE),
            Some([Place::Nne, Place::Ene])
        );
        assert_eq!(
            Corner::SE.half_beside(Corner::NE),
            Some([Place::Ese, Place::H1])
        );
        assert_eq!(
            Corner::NW.half_beside(Corner::NE),
            Some([Place::H2, Place::Nnw])
        );
        assert_eq!(Corner::SW.half_beside(Corner::NE), None);
    }

    #[test]
    fn place_names_round_trip() {
        for p in Place::ALL {
            assert_eq!(p.name().parse::<Place>().unwrap(), p);
        }
        assert!("NORTH".parse::<Place>().is_err());
        assert_eq!("I1".parse::<Place>(), Ok(Place::I1));
        assert!(Place::I1.is_inner() && !Place::I1.is_long_side() && !Place::I1.is_border());
        assert_eq!(Place::I2.side(), None);
        assert_eq!(Place::I2.facing(), None);
    }
}
