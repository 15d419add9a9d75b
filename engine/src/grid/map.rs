//! The map itself.

use glam::IVec2;

/// The largest map a loader accepts, in cells (64 Mi). Bigger headers are rejected before anything
/// is allocated, so a corrupt or hostile header cannot exhaust memory.
pub const MAX_CELLS: u64 = 1 << 26;

/// A grid of cells, each with its tile character and its cost of entry.
///
/// A cost is the price of a straight step into the cell (a diagonal step pays √2 times it);
/// `f32::INFINITY` marks a blocked cell. Passable cells cost at least 1, which keeps the octile
/// distance an admissible heuristic for every search over the map.
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    width: u32,
    height: u32,
    tiles: Vec<u8>,
    cost: Vec<f32>,
}

impl Map {
    /// An open map of `width × height` cells of `.` costing 1.
    pub fn open(width: u32, height: u32) -> Self {
        let n = width as usize * height as usize;
        Map { width, height, tiles: vec![b'.'; n], cost: vec![1.0; n] }
    }

    /// A map from its parts; `tiles` and `cost` are row-major and `width × height` long.
    pub(crate) fn from_parts(width: u32, height: u32, tiles: Vec<u8>, cost: Vec<f32>) -> Self {
        debug_assert_eq!(tiles.len(), width as usize * height as usize);
        debug_assert_eq!(cost.len(), tiles.len());
        Map { width, height, tiles, cost }
    }

    /// Width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.tiles.len()
    }

    /// Whether the map has no cells.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }

    /// Whether `cell` is on the map.
    pub fn contains(&self, cell: IVec2) -> bool {
        cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < self.width && (cell.y as u32) < self.height
    }

    /// The flat index of `cell`, if it is on the map.
    pub fn index(&self, cell: IVec2) -> Option<usize> {
        self.contains(cell).then(|| cell.y as usize * self.width as usize + cell.x as usize)
    }

    /// The cell at flat index `i`.
    pub fn cell_at(&self, i: usize) -> IVec2 {
        let w = self.width as usize;
        IVec2::new((i % w) as i32, (i / w) as i32)
    }

    /// Whether `cell` is on the map and can be entered.
    pub fn passable(&self, cell: IVec2) -> bool {
        self.index(cell).is_some_and(|i| self.cost[i].is_finite())
    }

    /// The cost of entering `cell`: `None` off the map, `f32::INFINITY` when blocked.
    pub fn cost(&self, cell: IVec2) -> Option<f32> {
        self.index(cell).map(|i| self.cost[i])
    }

    /// The tile character of `cell`.
    pub fn tile(&self, cell: IVec2) -> Option<char> {
        self.index(cell).map(|i| char::from(self.tiles[i]))
    }

    /// Sets a cell's tile and cost (use `f32::INFINITY` to block it; finite costs below 1 are
    /// raised to 1 so that heuristics stay admissible). Returns `false` off the map.
    pub fn set(&mut self, cell: IVec2, tile: u8, cost: f32) -> bool {
        let Some(i) = self.index(cell) else { return false };
        self.tiles[i] = tile;
        self.cost[i] = if cost.is_nan() { f32::INFINITY } else { cost.max(1.0) };
        true
    }

    /// The per-cell costs, row-major (`INFINITY` = blocked). Searches read this directly.
    pub fn costs(&self) -> &[f32] {
        &self.cost
    }

    /// How many cells can be entered.
    pub fn passable_count(&self) -> usize {
        self.cost.iter().filter(|c| c.is_finite()).count()
    }

    /// Whether every passable cell costs exactly 1 (the case jump point search needs).
    pub fn is_uniform(&self) -> bool {
        self.cost.iter().all(|&c| c == 1.0 || c.is_infinite())
    }

    /// The map drawn as text, one row a line, with its own tile characters.
    pub fn to_ascii(&self) -> String {
        let mut s = String::with_capacity(self.tiles.len() + self.height as usize);
        for row in self.tiles.chunks(self.width.max(1) as usize) {
            s.extend(row.iter().map(|&b| char::from(b)));
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indexing_is_row_major_and_bounds_checked() {
        let mut m = Map::open(4, 3);
        assert_eq!(m.index(IVec2::new(3, 2)), Some(11));
        assert_eq!(m.cell_at(11), IVec2::new(3, 2));
        assert_eq!(m.index(IVec2::new(4, 0)), None);
        assert_eq!(m.index(IVec2::new(-1, 0)), None);
        assert!(m.set(IVec2::new(1, 1), b'#', f32::INFINITY));
        assert!(!m.passable(IVec2::new(1, 1)));
        assert!(!m.set(IVec2::new(9, 9), b'#', f32::INFINITY));
        assert_eq!(m.passable_count(), 11);
        assert!(m.is_uniform());
        m.set(IVec2::new(0, 0), b'3', 3.0);
        assert!(!m.is_uniform());
        m.set(IVec2::new(0, 1), b'x', 0.25);
        assert_eq!(m.cost(IVec2::new(0, 1)), Some(1.0), "costs below 1 are raised to 1");
        assert_eq!(m.to_ascii(), "3...\nx#..\n....\n");
    }
}
