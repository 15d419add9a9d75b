//! Movement patterns on tiles and in free space (002a §4.1 … 4.3).
//!
//! - [`StepPattern`]: the standard control-data arrays of Ex. 3-1 … 3-3 — turn right, turn left,
//!   step forward, step backward — one entry per tick, moving along the heading.
//! - [`PathPattern`]: a patrol route built from the book's tile lines (`BuildPathSegment`,
//!   Ex. 3-5), made relative (`NormalizePattern`, Ex. 3-7) and walked from any placement.
//! - [`PatternGrid`]: the 0/1 pattern matrix of Ex. 3-10 … 3-12, walked by choosing uniformly among
//!   the marked neighbours other than the cell just left.

use glam::{IVec2, Vec2};
use thiserror::Error;

use super::los_chase::{LineVariant, tile_line_into};
use crate::world::WorldRng;

/// One entry of a standard pattern (`ControlData`, Ex. 3-1). Turns are degrees in free space or
/// 45° direction steps on tiles; steps are distances or tile counts (L867).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StepControl {
    /// Turn toward local `+x` (right).
    pub turn_right: f32,
    /// Turn toward local `−x` (left).
    pub turn_left: f32,
    /// Move along the heading.
    pub step_forward: f32,
    /// Move against the heading.
    pub step_backward: f32,
}

impl StepControl {
    const fn new(turn_right: f32, turn_left: f32, step_forward: f32, step_backward: f32) -> Self {
        StepControl { turn_right, turn_left, step_forward, step_backward }
    }
}

/// The zigzag of Ex. 3-2 as printed (seven entries; the listing elides the rest): forward 2,
/// forward 2, right 10°, right 10°, forward 2, forward 2, left 10°.
pub const BOOK_ZIGZAG: [StepControl; 7] = [
    StepControl::new(0.0, 0.0, 2.0, 0.0),
    StepControl::new(0.0, 0.0, 2.0, 0.0),
    StepControl::new(10.0, 0.0, 0.0, 0.0),
    StepControl::new(10.0, 0.0, 0.0, 0.0),
    StepControl::new(0.0, 0.0, 2.0, 0.0),
    StepControl::new(0.0, 0.0, 2.0, 0.0),
    StepControl::new(0.0, 10.0, 0.0, 0.0),
];

/// A standard pattern being run: one entry per tick, then it loops (the book's sketch never wraps
/// its index, which would run off the array).
#[derive(Debug, Clone, PartialEq)]
pub struct StepPattern {
    /// The entries.
    pub controls: Vec<StepControl>,
    /// The next entry.
    pub index: usize,
}

impl StepPattern {
    /// A pattern starting at entry 0.
    pub fn new(controls: &[StepControl]) -> Self {
        StepPattern { controls: controls.to_vec(), index: 0 }
    }

    fn next_control(&mut self) -> Option<StepControl> {
        let c = *self.controls.get(self.index % self.controls.len().max(1))?;
        self.index = (self.index + 1) % self.controls.len();
        Some(c)
    }

    /// Applies the next entry to a free-space pose (Ex. 3-3), turning first, then stepping along
    /// the new heading. `heading` stays a unit vector.
    pub fn apply(&mut self, position: &mut Vec2, heading: &mut Vec2) {
        let Some(c) = self.next_control() else { return };
        // Right is toward local +x, i.e. clockwise: a negative rotation.
        let turn = (c.turn_left - c.turn_right).to_radians();
        *heading = Vec2::from_angle(turn).rotate(*heading).normalize_or(Vec2::Y);
        *position += *heading * (c.step_forward - c.step_backward);
    }

    /// Applies the next entry on tiles: `direction` is one of the eight 45° steps (0 = `+y`,
    /// counting toward `+x`), turns are whole direction steps and moves whole cells.
    pub fn apply_tile(&mut self, cell: &mut IVec2, direction: &mut u8) {
        const DIRS: [IVec2; 8] = [
            IVec2::new(0, 1),
            IVec2::new(1, 1),
            IVec2::new(1, 0),
            IVec2::new(1, -1),
            IVec2::new(0, -1),
            IVec2::new(-1, -1),
            IVec2::new(-1, 0),
            IVec2::new(-1, 1),
        ];
        let Some(c) = self.next_control() else { return };
        let turn = (c.turn_right - c.turn_left).round() as i64;
        *direction = (i64::from(*direction) + turn).rem_euclid(8) as u8;
        let steps = (c.step_forward - c.step_backward).round() as i32;
        *cell += DIRS[*direction as usize] * steps;
    }
}

/// Why a path pattern could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum PatternError {
    /// Adding the segment would exceed the pattern's capacity (the book's `kMaxPathLength`).
    #[error("pattern longer than its capacity of {capacity} cells")]
    TooLong {
        /// The capacity.
        capacity: usize,
    },
}

/// A tile patrol route: Bresenham segments appended end to end (Ex. 3-5 … 3-9).
///
/// **Vertices are stored once.** A segment whose start repeats the last stored cell skips it, and
/// [`PathPattern::normalize`] drops a final cell that repeats the first, so a closed route is a
/// cycle in which every step moves (the book's listing is ambiguous here, digest §4.2).
#[derive(Debug, Clone, PartialEq)]
pub struct PathPattern {
    cells: Vec<IVec2>,
    capacity: usize,
    closed: bool,
    scratch: Vec<IVec2>,
}

impl PathPattern {
    /// An empty pattern holding at most `capacity` cells (`InitializePathArrays`).
    pub fn new(capacity: usize) -> Self {
        PathPattern { cells: Vec::new(), capacity, closed: false, scratch: Vec::new() }
    }

    /// Appends the book's line from `start` to `end` (`BuildPathSegment`). On error the pattern is
    /// unchanged.
    pub fn add_segment(&mut self, start: IVec2, end: IVec2) -> Result<(), PatternError> {
        self.scratch.clear();
        tile_line_into(start, end, LineVariant::Book, &mut self.scratch);
        let skip = usize::from(self.cells.last() == Some(&start));
        if self.cells.len() + self.scratch.len() - skip > self.capacity {
            return Err(PatternError::TooLong { capacity: self.capacity });
        }
        self.cells.extend_from_slice(&self.scratch[skip..]);
        Ok(())
    }

    /// Makes the route relative to its first cell (`NormalizePattern`) and returns that origin.
    /// A route whose last cell repeats its first is marked closed and loses the repeat.
    pub fn normalize(&mut self) -> IVec2 {
        let Some(&origin) = self.cells.first() else { return IVec2::ZERO };
        if self.cells.len() > 1 && self.cells.last() == Some(&origin) {
            self.cells.pop();
            self.closed = true;
        }
        for c in &mut self.cells {
            *c -= origin;
        }
        origin
    }

    /// Whether the route returns to its start, so walking it loops.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The cells (relative after [`PathPattern::normalize`]).
    pub fn cells(&self) -> &[IVec2] {
        &self.cells
    }

    /// The cell for step `tick` when placed at `offset` (the book's `patternRowOffset/ColOffset`):
    /// a closed route loops, an open one stays at its end.
    pub fn cell_at(&self, tick: usize, offset: IVec2) -> Option<IVec2> {
        let n = self.cells.len();
        if n == 0 {
            return None;
        }
        let i = if self.closed { tick % n } else { tick.min(n - 1) };
        Some(self.cells[i] + offset)
    }
}

/// The eight neighbour offsets in the book's order (Ex. 3-12: `rowOffset`, `colOffset`), as
/// `(x = col, y = row)`.
pub const NEIGHBOUR_OFFSETS: [IVec2; 8] = [
    IVec2::new(-1, -1),
    IVec2::new(0, -1),
    IVec2::new(1, -1),
    IVec2::new(-1, 0),
    IVec2::new(1, 0),
    IVec2::new(-1, 1),
    IVec2::new(0, 1),
    IVec2::new(1, 1),
];

/// The 0/1 pattern matrix (Ex. 3-10 … 3-12): a walker may only enter marked cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternGrid {
    width: u32,
    height: u32,
    marks: Vec<bool>,
}

impl PatternGrid {
    /// An unmarked grid of `width × height` cells.
    pub fn new(width: u32, height: u32) -> Self {
        PatternGrid { width, height, marks: vec![false; width as usize * height as usize] }
    }

    fn index(&self, c: IVec2) -> Option<usize> {
        (c.x >= 0 && c.y >= 0 && (c.x as u32) < self.width && (c.y as u32) < self.height)
            .then(|| c.y as usize * self.width as usize + c.x as usize)
    }

    /// Whether `cell` is on the grid and marked.
    pub fn is_marked(&self, cell: IVec2) -> bool {
        self.index(cell).is_some_and(|i| self.marks[i])
    }

    /// Marks the book's line from `start` to `end` (`BuildPatternSegment`); cells off the grid are
    /// skipped.
    pub fn add_segment(&mut self, start: IVec2, end: IVec2) {
        let mut line = Vec::new();
        tile_line_into(start, end, LineVariant::Book, &mut line);
        for c in line {
            if let Some(i) = self.index(c) {
                self.marks[i] = true;
            }
        }
    }

    /// The marked neighbours of `cell` other than `previous`, in the book's offset order.
    pub fn choices(&self, cell: IVec2, previous: IVec2) -> Vec<IVec2> {
        NEIGHBOUR_OFFSETS.iter().map(|&o| cell + o).filter(|&c| c != previous && self.is_marked(c)).collect()
    }

    /// `FollowPattern`: the next cell, chosen uniformly among [`PatternGrid::choices`]. The printed
    /// exclusion test is mis-parenthesised (digest §4.3); this excludes exactly the previous cell.
    /// At a dead end the walker turns back (or stays, when even that cell is unmarked).
    pub fn follow(&self, cell: IVec2, previous: IVec2, rng: &mut WorldRng) -> IVec2 {
        let choices = self.choices(cell, previous);
        if choices.is_empty() {
            return if self.is_marked(previous) { previous } else { cell };
        }
        choices[rng.below(choices.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rc(r: i32, c: i32) -> IVec2 {
        IVec2::new(c, r)
    }

    #[test]
    fn zigzag_table_and_execution() {
        assert_eq!(
            BOOK_ZIGZAG[2],
            StepControl { turn_right: 10.0, turn_left: 0.0, step_forward: 0.0, step_backward: 0.0 }
        );
        assert_eq!(BOOK_ZIGZAG[6].turn_left, 10.0);
        let mut p = StepPattern::new(&BOOK_ZIGZAG);
        let (mut pos, mut heading) = (Vec2::ZERO, Vec2::Y);
        for _ in 0..7 {
            p.apply(&mut pos, &mut heading);
        }
        // 4 up, turn 20° toward +x, 4 along it, turn back 10°: net heading 10° right of +y.
        let want = Vec2::new(0.0, 4.0) + Vec2::from_angle(-20f32.to_radians()).rotate(Vec2::Y) * 4.0;
        assert!((pos - want).length() < 1e-5, "{pos} vs {want}");
        assert!((heading.angle_to(Vec2::Y).to_degrees() - 10.0).abs() < 1e-3);
        assert_eq!(p.index, 0, "looped");
        let tile = [StepControl::new(0.0, 0.0, 2.0, 0.0), StepControl::new(2.0, 0.0, 0.0, 0.0)];
        let (mut cell, mut dir) = (IVec2::ZERO, 0u8);
        let mut t = StepPattern::new(&tile);
        for _ in 0..4 {
            t.apply_tile(&mut cell, &mut dir);
        }
        assert_eq!((cell, dir), (IVec2::new(2, 2), 4), "up 2, turn to +x, right 2, turn to −y");
    }

    #[test]
    fn rectangle_of_ex_3_6_is_a_closed_34_cell_loop() {
        let mut p = PathPattern::new(100);
        for (a, b) in [((10, 3), (18, 3)), ((18, 3), (18, 12)), ((18, 12), (10, 12)), ((10, 12), (10, 3))] {
            p.add_segment(rc(a.0, a.1), rc(b.0, b.1)).unwrap();
        }
        assert_eq!(p.normalize(), rc(10, 3));
        assert!(p.is_closed());
        assert_eq!(p.cells().len(), 34, "the perimeter of a 9 × 10 rectangle");
        assert_eq!(p.cells()[8], rc(8, 0), "first corner, relative");
        let offset = rc(5, 2);
        assert_eq!(p.cell_at(0, offset), Some(rc(5, 2)));
        assert_eq!(p.cell_at(34, offset), Some(rc(5, 2)), "loops");
        for i in 0..34 {
            let (a, b) = (p.cell_at(i, offset).unwrap(), p.cell_at(i + 1, offset).unwrap());
            assert_eq!((b - a).abs().max_element(), 1, "every tick moves one cell");
        }
    }

    #[test]
    fn complex_patrol_of_ex_3_9_and_capacity() {
        let v = [(4, 2), (4, 11), (2, 24), (13, 27), (16, 24), (13, 17), (13, 13), (17, 5), (4, 2)];
        let mut p = PathPattern::new(200);
        for w in v.windows(2) {
            p.add_segment(rc(w[0].0, w[0].1), rc(w[1].0, w[1].1)).unwrap();
        }
        // Segment lengths (max |Δ| + 1) minus the shared vertices: 10+14+12+4+8+5+9+14 − 8.
        p.normalize();
        assert_eq!(p.cells().len(), 76 - 8);
        assert!(p.is_closed());
        assert!(p.cells().contains(&(rc(3, 17) - rc(4, 2))), "book cell (3,17) of segment 2");
        let mut small = PathPattern::new(5);
        assert_eq!(small.add_segment(rc(0, 0), rc(0, 9)), Err(PatternError::TooLong { capacity: 5 }));
        assert!(small.cells().is_empty());
        let mut open = PathPattern::new(10);
        open.add_segment(rc(0, 0), rc(0, 3)).unwrap();
        open.normalize();
        assert_eq!(open.cell_at(99, IVec2::ZERO), Some(rc(0, 3)), "an open route stops at its end");
    }

    fn book_grid() -> PatternGrid {
        let mut g = PatternGrid::new(20, 20);
        for (a, b) in [
            ((3, 2), (16, 2)),
            ((16, 2), (16, 11)),
            ((16, 11), (9, 11)),
            ((9, 11), (9, 2)),
            ((9, 2), (3, 6)),
            ((3, 6), (3, 2)),
        ] {
            g.add_segment(rc(a.0, a.1), rc(b.0, b.1));
        }
        g
    }

    #[test]
    fn pattern_matrix_junction_of_ex_3_11() {
        let g = book_grid();
        for c in [(9, 2), (8, 3), (7, 4), (6, 4), (5, 5), (4, 6), (3, 6)] {
            assert!(g.is_marked(rc(c.0, c.1)), "diagonal cell {c:?}");
        }
        assert!(!g.is_marked(rc(7, 3)), "textbook cell, not the book's");
        // Arriving at (9,2) from (10,2): the other marked neighbours, in offset order.
        assert_eq!(g.choices(rc(9, 2), rc(10, 2)), vec![rc(8, 2), rc(8, 3), rc(9, 3)]);
        let mut rng = WorldRng::new(7);
        let mut counts = [0usize; 3];
        for _ in 0..3000 {
            let next = g.follow(rc(9, 2), rc(10, 2), &mut rng);
            counts[[rc(8, 2), rc(8, 3), rc(9, 3)].iter().position(|&c| c == next).unwrap()] += 1;
        }
        assert!(counts.iter().all(|&n| (850..1150).contains(&n)), "uniform: {counts:?}");
    }

    #[test]
    fn walker_stays_on_the_pattern_and_turns_back_at_dead_ends() {
        let g = book_grid();
        let mut rng = WorldRng::new(3);
        let (mut prev, mut cell) = (rc(15, 2), rc(16, 2));
        for _ in 0..500 {
            let next = g.follow(cell, prev, &mut rng);
            assert!(g.is_marked(next) && (next - cell).abs().max_element() == 1);
            (prev, cell) = (cell, next);
        }
        let mut line = PatternGrid::new(5, 1);
        line.add_segment(IVec2::ZERO, IVec2::new(4, 0));
        assert_eq!(line.follow(IVec2::new(4, 0), IVec2::new(3, 0), &mut rng), IVec2::new(3, 0));
        assert_eq!(line.follow(IVec2::new(4, 0), IVec2::new(9, 9), &mut rng), IVec2::new(3, 0));
    }
}
