//! Line-of-sight chase on tiles with the book's Bresenham variant (002a §3.3, Ex. 2-4 … 2-7).
//!
//! The book doubles both deltas *before* computing the starting error term
//! (`deltaRow = abs(deltaRow*2); fraction = deltaRow*2 - deltaCol`), so its error term starts at
//! `4|Δminor| − 2|Δmajor|` instead of the textbook `2|Δminor| − |Δmajor|`. The lines still end at
//! the target, stay 8-connected and have `max(|Δ|) + 1` cells, but the minor-axis steps fall in
//! different places (digest §6.2). Tile chase reproduces the book's cell sequences, so the book's
//! variant is the default; [`LineVariant::Textbook`] is there for comparison.
//!
//! Cells are `IVec2 { x: column, y: row }` as everywhere in the engine; the book speaks of
//! `(row, col)`. Its test for the major axis is `deltaCol > deltaRow`, strictly, so ties walk the
//! row (y) axis.
//!
//! The line itself is [`crate::path::bresenham_line_into`]: one implementation for chase, patterns
//! and paths.

use glam::IVec2;

use crate::grid::Map;

/// Which error term the tile line starts with (the path module's, so there is one book line).
pub use crate::path::BresenhamVariant as LineVariant;

/// Appends the tile line from `start` to `end` (both included) to `out`.
pub fn tile_line_into(start: IVec2, end: IVec2, variant: LineVariant, out: &mut Vec<IVec2>) {
    crate::path::bresenham_line_into(start, end, variant, out);
}

/// The book's tile line from `start` to `end` (`BuildPathToTarget`): `start` first, `end` last.
pub fn book_line(start: IVec2, end: IVec2) -> Vec<IVec2> {
    let mut out = Vec::with_capacity((start - end).abs().max_element() as usize + 1);
    tile_line_into(start, end, LineVariant::Book, &mut out);
    out
}

/// A tile chaser that follows the book's line toward its prey one cell per move, rebuilding the
/// line whenever the prey has moved (002a L525, L559). The path buffer is reused.
#[derive(Debug, Clone, Default)]
pub struct TileLosChase {
    path: Vec<IVec2>,
    next: usize,
    target: Option<IVec2>,
    variant: LineVariant,
}

impl TileLosChase {
    /// A chaser using `variant` lines.
    pub fn new(variant: LineVariant) -> Self {
        TileLosChase { variant, ..Default::default() }
    }

    /// The current line, start cell first (the book's `pathRow`/`pathCol`).
    pub fn path(&self) -> &[IVec2] {
        &self.path
    }

    /// The cell to move to from `position` toward `prey`. Rebuilds the line when the prey moved or
    /// the chaser left its line; stays put on arrival, and when the next cell is not passable on
    /// `map` (the book's chase knows no walls; pass `None` for that).
    pub fn step(&mut self, position: IVec2, prey: IVec2, map: Option<&Map>) -> IVec2 {
        let on_line = self.next > 0 && self.path.get(self.next - 1) == Some(&position);
        if self.target != Some(prey) || !on_line {
            self.path.clear();
            tile_line_into(position, prey, self.variant, &mut self.path);
            self.next = 1;
            self.target = Some(prey);
        }
        let Some(&cell) = self.path.get(self.next) else { return position };
        if map.is_some_and(|m| !m.passable(cell)) {
            return position;
        }
        self.next += 1;
        cell
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The line's cell sequences (digest 002a §6.2, §6.5) are pinned once, in `path::bresenham`;
    // these tests are about chasing along it.

    #[test]
    fn chaser_follows_the_line_and_catches_a_slower_prey() {
        // The prey walks one cell east every other tick; the chaser steps every tick.
        let mut chaser = TileLosChase::default();
        let (mut pos, mut prey) = (IVec2::new(0, 0), IVec2::new(6, 9));
        let first = chaser.step(pos, prey, None);
        assert_eq!(first, book_line(pos, prey)[1]);
        pos = first;
        let mut caught = None;
        for tick in 1..60 {
            if tick % 2 == 0 {
                prey.x += 1;
            }
            pos = chaser.step(pos, prey, None);
            if pos == prey {
                caught = Some(tick);
                break;
            }
        }
        // Nine rows apart and one row per move: no chaser can arrive before tick 8. The prey's four
        // sidesteps by then (x = 10) leave the column gap as the longer axis for the last move, so
        // the recomputed line arrives one tick later.
        assert_eq!(caught, Some(9));
        assert_eq!(prey, IVec2::new(10, 9));
    }

    #[test]
    fn chaser_stops_at_walls_and_on_arrival() {
        let mut map = Map::open(5, 1);
        map.set(IVec2::new(2, 0), b'#', f32::INFINITY);
        let mut chaser = TileLosChase::default();
        let p = chaser.step(IVec2::new(0, 0), IVec2::new(4, 0), Some(&map));
        assert_eq!(p, IVec2::new(1, 0));
        assert_eq!(chaser.step(p, IVec2::new(4, 0), Some(&map)), p, "blocked by the wall");
        assert_eq!(chaser.step(IVec2::new(4, 0), IVec2::new(4, 0), None), IVec2::new(4, 0));
    }
}
