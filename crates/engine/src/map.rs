//! Bounded boards: the squares of a printed map where tiles may lie.
//!
//! The full map data format (start spaces, Chumak squares) belongs to the Map
//! Chips expansion; the board needs only to know which cells exist.

use crate::geometry::Pos;

/// The set of cells of a bounded map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapBounds {
    x0: i32,
    y0: i32,
    width: i32,
    height: i32,
    cells: Vec<bool>,
}

impl MapBounds {
    /// A map of the given cells (at least one).
    pub fn from_cells(cells: &[Pos]) -> Option<MapBounds> {
        let x0 = cells.iter().map(|p| p.x).min()?;
        let y0 = cells.iter().map(|p| p.y).min()?;
        let x1 = cells.iter().map(|p| p.x).max()?;
        let y1 = cells.iter().map(|p| p.y).max()?;
        let (width, height) = (x1 - x0 + 1, y1 - y0 + 1);
        let mut grid = vec![false; (width * height) as usize];
        for p in cells {
            grid[((p.y - y0) * width + (p.x - x0)) as usize] = true;
        }
        Some(MapBounds {
            x0,
            y0,
            width,
            height,
            cells: grid,
        })
    }

    /// Whether `p` is a square of the map.
    pub fn contains(&self, p: Pos) -> bool {
        let (x, y) = (p.x - self.x0, p.y - self.y0);
        x >= 0
            && y >= 0
            && x < self.width
            && y < self.height
            && self.cells[(y * self.width + x) as usize]
    }

    /// Width of the bounding rectangle.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height of the bounding rectangle.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The map's squares, row by row.
    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height).flat_map(move |y| {
            (0..self.width)
                .filter(move |x| self.cells[(y * self.width + x) as usize])
                .map(move |x| Pos::new(self.x0 + x, self.y0 + y))
        })
    }
}

/// A printed map: its squares, start spaces and special squares. Maps are
/// data (`maps/*.toml`), embedded at build time like tile catalogs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapDef {
    /// Map id (`ukraine`).
    pub name: String,
    /// Human title.
    pub title: String,
    /// Whether the layout is a reconstruction.
    pub reconstructed: bool,
    /// The squares.
    pub bounds: MapBounds,
    /// Start spaces, numbered from 1 in reading order.
    pub starts: Vec<Pos>,
    /// Chumak squares with their names, in reading order.
    pub chumak: Vec<(Pos, String)>,
    /// The land's outline as drawn (a country's border, not the squares'
    /// staircase): a polygon's corners in tenths of a square, the top-left
    /// corner of cell (0, 0) at (0, 0). Every square lies inside it. Empty:
    /// the squares' own border is drawn.
    pub outline: Vec<(i32, i32)>,
}

/// The maps built into the binary.
pub const BUILTIN_MAPS: &[(&str, &str)] = &[("ukraine.toml", include_str!("../maps/ukraine.toml"))];

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MapSpec {
    name: String,
    title: String,
    #[serde(default)]
    reconstructed: bool,
    origin: [i32; 2],
    rows: Vec<String>,
    #[serde(default)]
    chumak: Vec<String>,
    #[serde(default)]
    outline: Vec<[i32; 2]>,
}

impl MapDef {
    /// Parses and checks a map file; the error names the file and the problem.
    pub fn parse(file: &str, text: &str) -> Result<MapDef, String> {
        let spec: MapSpec = toml::from_str(text).map_err(|e| format!("map {file}: {e}"))?;
        let mut cells = Vec::new();
        let mut starts = Vec::new();
        let mut chumak = Vec::new();
        for (y, row) in spec.rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let p = Pos::new(spec.origin[0] + x as i32, spec.origin[1] + y as i32);
                match c {
                    '.' => continue,
                    '#' => {}
                    'S' => starts.push(p),
                    'C' => chumak.push(p),
                    other => {
                        return Err(format!(
                            "map {file}: row {y} column {x}: unknown symbol {other:?} (use . # S C)"
                        ))
                    }
                }
                cells.push(p);
            }
        }
        if starts.len() < 2 {
            return Err(format!(
                "map {file}: needs at least 2 start spaces (S), has {}",
                starts.len()
            ));
        }
        if chumak.len() != spec.chumak.len() {
            return Err(format!(
                "map {file}: {} Chumak squares (C) but {} names in `chumak`",
                chumak.len(),
                spec.chumak.len()
            ));
        }
        let bounds =
            MapBounds::from_cells(&cells).ok_or_else(|| format!("map {file}: no squares"))?;
        let outline: Vec<(i32, i32)> = spec.outline.iter().map(|&[x, y]| (x, y)).collect();
        check_outline(&outline, &cells).map_err(|e| format!("map {file}: outline: {e}"))?;
        Ok(MapDef {
            name: spec.name,
            title: spec.title,
            reconstructed: spec.reconstructed,
            bounds,
            starts,
            chumak: chumak.into_iter().zip(spec.chumak).collect(),
            outline,
        })
    }

    /// A built-in map by name.
    pub fn builtin(name: &str) -> Option<MapDef> {
        BUILTIN_MAPS
            .iter()
            .filter_map(|(f, t)| MapDef::parse(f, t).ok())
            .find(|m| m.name == name)
    }
}

/// Tenths of a square per square, the outline's unit.
const TENTHS: i32 = 10;

/// Checks a map's outline (none is fine): at least three corners, none
/// far off the squares, and every square inside it, so that the drawn
/// land never leaves a square where tiles may lie outside.
fn check_outline(outline: &[(i32, i32)], cells: &[Pos]) -> Result<(), String> {
    if outline.is_empty() {
        return Ok(());
    }
    if outline.len() < 3 {
        return Err(format!(
            "{} corners; a polygon has at least 3",
            outline.len()
        ));
    }
    // Coordinates are bounded, so the arithmetic below cannot overflow.
    let far = 1000 * TENTHS;
    if let Some(c) = outline.iter().find(|(x, y)| x.abs() > far || y.abs() > far) {
        return Err(format!("corner {c:?} is more than 1000 squares away"));
    }
    for p in cells {
        let (x0, y0) = (p.x * TENTHS, p.y * TENTHS);
        let (x1, y1) = (x0 + TENTHS, y0 + TENTHS);
        // Each corner nudged a hair inwards (in twentieths: doubled).
        let corners = [
            (2 * x0 + 1, 2 * y0 + 1),
            (2 * x1 - 1, 2 * y0 + 1),
            (2 * x1 - 1, 2 * y1 - 1),
            (2 * x0 + 1, 2 * y1 - 1),
        ];
        let outside = corners.iter().any(|&c| !inside_doubled(outline, c));
        // A corner of the outline poking into the square cuts it too.
        let poked = outline
            .iter()
            .any(|&(x, y)| x > x0 && x < x1 && y > y0 && y < y1);
        if outside || poked {
            return Err(format!("square ({}, {}) is not inside it", p.x, p.y));
        }
    }
    Ok(())
}

/// Whether point `q` (in twentieths of a square) is inside the polygon
/// `outline` (in tenths), by the even-odd rule.
fn inside_doubled(outline: &[(i32, i32)], q: (i32, i32)) -> bool {
    let mut inside = false;
    let n = outline.len();
    for i in 0..n {
        let (ax, ay) = (2 * outline[i].0, 2 * outline[i].1);
        let (bx, by) = (2 * outline[(i + 1) % n].0, 2 * outline[(i + 1) % n].1);
        if (ay > q.1) != (by > q.1) {
            // Where the edge crosses the line y = q.1, compared with q.0
            // without dividing: (q.0 - ax)(by - ay) < (q.1 - ay)(bx - ax),
            // the sign of (by - ay) taken into account.
            let lhs = i64::from(q.0 - ax) * i64::from(by - ay);
            let rhs = i64::from(q.1 - ay) * i64::from(bx - ax);
            if (by > ay && lhs < rhs) || (by < ay && lhs > rhs) {
                inside = !inside;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ukraine_loads_with_its_start_spaces_and_chumak_squares() {
        for (f, t) in BUILTIN_MAPS {
            MapDef::parse(f, t).unwrap();
        }
        let m = MapDef::builtin("ukraine").unwrap();
        assert_eq!(m.starts.len(), 3);
        assert_eq!(m.starts[0], Pos::new(0, 0));
        assert_eq!(m.chumak.len(), 8);
        // Bratslav and Uman lie two apart: the cell between them touches both.
        assert_eq!(m.chumak[4].0, Pos::new(-4, 2));
        assert_eq!(m.chumak[5].0, Pos::new(-2, 2));
        let squares = m.bounds.cells().count();
        assert!((130..=170).contains(&squares), "{squares} squares");
        assert!(m.bounds.contains(Pos::new(0, 0)));
        assert!(!m.bounds.contains(Pos::new(-6, -4)));
        for (p, _) in &m.chumak {
            assert!(m.bounds.contains(*p));
        }
    }

    #[test]
    fn ukraine_has_an_outline_around_its_squares() {
        let m = MapDef::builtin("ukraine").unwrap();
        assert!(m.outline.len() >= 20, "a coarse border, not a box");
        // Crimea hangs from the mainland: the outline goes below the
        // squares' last row there only.
        let lowest = m.outline.iter().map(|c| c.1).max().unwrap();
        assert!(lowest > 7 * TENTHS, "{lowest}");
    }

    #[test]
    fn an_outline_must_hold_every_square() {
        let map = |outline: &str| {
            MapDef::parse(
                "x.toml",
                &format!("name='x'\ntitle='x'\norigin=[0,0]\nrows=['S#S']\noutline={outline}\n"),
            )
        };
        // Around the three squares, with a slanted side.
        assert!(map("[[-2,-2],[32,-2],[35,12],[-2,11]]").is_ok());
        let e = map("[[-2,-2],[25,-2],[25,12],[-2,11]]").unwrap_err();
        assert!(e.contains("square (2, 0) is not inside"), "{e}");
        // A notch poking into the middle square.
        let e = map("[[-2,-2],[14,-2],[15,5],[16,-2],[32,-2],[32,12],[-2,12]]").unwrap_err();
        assert!(e.contains("square (1, 0) is not inside"), "{e}");
        let e = map("[[0,0],[10,10]]").unwrap_err();
        assert!(e.contains("at least 3"), "{e}");
    }

    #[test]
    fn bad_maps_say_what_is_wrong() {
        let e = MapDef::parse(
            "x.toml",
            "name='x'\ntitle='x'\norigin=[0,0]\nrows=['S#X']\n",
        )
        .unwrap_err();
        assert!(e.contains("unknown symbol 'X'"), "{e}");
        let e = MapDef::parse(
            "x.toml",
            "name='x'\ntitle='x'\norigin=[0,0]\nrows=['S##']\n",
        )
        .unwrap_err();
        assert!(e.contains("at least 2 start spaces"), "{e}");
        let e = MapDef::parse(
            "x.toml",
            "name='x'\ntitle='x'\norigin=[0,0]\nrows=['S#SC']\n",
        )
        .unwrap_err();
        assert!(e.contains("names"), "{e}");
    }
}
