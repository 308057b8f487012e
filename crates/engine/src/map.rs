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
