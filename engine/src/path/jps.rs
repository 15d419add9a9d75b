//! Jump point search (Harabor & Grastien) for uniform-cost 8-connected grids, in the variant that
//! forbids corner cutting.
//!
//! JPS runs A* over *jump points* only: from a node it scans straight and diagonal lines and stops
//! only where a path could bend optimally (a *forced neighbour*) or at the goal. Paths are exactly
//! as long as A*'s; far fewer nodes touch the open list. With no corner cutting the rules are:
//!
//! - moving straight, a cell is a jump point when a side cell is open but the side cell one step
//!   back is blocked (the path may have to turn round that wall end): the side direction and the
//!   diagonal towards it become successors;
//! - moving diagonally, there are no forced neighbours (both side cells were open to step at
//!   all), but a cell is a jump point when either straight scan from it finds one.
//!
//! Why JPS as the fast method: measured by `engine/benches/path.rs` on this project's 2-core
//! machine, the median query is 33–190× faster than this crate's own A* and 53–260× faster than
//! the `pathfinding` crate's `astar` on den520d, brc202d and AcrosstheCape, and 5–14× faster than
//! `grid_pathfinding`'s JPS — with no preprocessing beyond copying the passability bits.
//!
//! The grid is copied once into a byte array with a one-cell blocked border, so the scans need no
//! bounds checks; straight scans read 8 cells at a time as a `u64` and look for the first stop
//! (see [`Jps::scan`]). The map must not change under a `Jps` without [`Jps::set_passable`].

use std::collections::BinaryHeap;

use glam::IVec2;

use super::astar::{Found, Node, Open, Stamps};
use super::cost::{Endpoint, PathError, SQRT2};
use crate::grid::Map;

/// Jump point search over a copy of a uniform-cost map's passability.
#[derive(Debug, Clone)]
pub struct Jps {
    width: u32,
    height: u32,
    /// Row stride of the padded grid (`width + 2`).
    stride: usize,
    /// 1 = passable, 0 = blocked, with a blocked border; row-major, then the same transposed
    /// (column-major) so that vertical scans read contiguous bytes too.
    free: Vec<u8>,
    free_t: Vec<u8>,
    /// Column stride of the transposed grid (`height + 2`).
    stride_t: usize,
    nodes: Vec<Node>,
    open: BinaryHeap<Open>,
    stamps: Stamps,
    goal: usize,
}

impl Jps {
    /// Prepares a search over `map`. Errors when a passable cell costs other than 1 (use
    /// [`super::AStar`] for terrain costs) or the map is too large to index.
    pub fn new(map: &Map) -> Result<Jps, PathError> {
        if !map.is_uniform() {
            return Err(PathError::NotUniform);
        }
        let (w, h) = (map.width(), map.height());
        let (stride, stride_t) = (w as usize + 2, h as usize + 2);
        if (stride * stride_t) as u64 >= u64::from(u32::MAX) {
            return Err(PathError::TooLarge);
        }
        let mut jps = Jps {
            width: w,
            height: h,
            stride,
            free: vec![0; stride * stride_t + 8],
            free_t: vec![0; stride * stride_t + 8],
            stride_t,
            nodes: Vec::new(),
            open: BinaryHeap::new(),
            stamps: Stamps::default(),
            goal: 0,
        };
        for (i, &c) in map.costs().iter().enumerate() {
            let cell = map.cell_at(i);
            jps.set_passable(cell, c.is_finite());
        }
        Ok(jps)
    }

    /// Opens or closes one cell (a door, a collapsing wall) without rebuilding. Returns `false`
    /// off the map.
    pub fn set_passable(&mut self, cell: IVec2, passable: bool) -> bool {
        if cell.x < 0 || cell.y < 0 || cell.x as u32 >= self.width || cell.y as u32 >= self.height {
            return false;
        }
        let (x, y) = (cell.x as usize + 1, cell.y as usize + 1);
        self.free[y * self.stride + x] = u8::from(passable);
        self.free_t[x * self.stride_t + y] = u8::from(passable);
        true
    }

    /// Finds a shortest path and writes its cells, start first, into `out` (cleared first): every
    /// cell, not just the jump points, so the result reads like A*'s.
    pub fn find(&mut self, start: IVec2, goal: IVec2, out: &mut Vec<IVec2>) -> Result<Found, PathError> {
        out.clear();
        let s = self.padded(start, Endpoint::Start)?;
        let g = self.padded(goal, Endpoint::Goal)?;
        self.goal = g;
        let stamp = self.stamps.next(&mut self.nodes, self.stride * self.stride_t);
        let closed = stamp + 1;
        self.open.clear();
        self.nodes[s] = Node { g: 0.0, parent: s as u32, stamp };
        self.open.push(Open { f: self.h(s), g: 0.0, cell: s as u32 });
        let mut expanded = 0;
        let mut dirs = [(0i32, 0i32); 8];
        while let Some(Open { g: cost, cell, .. }) = self.open.pop() {
            let c = cell as usize;
            let node = self.nodes[c];
            if node.stamp == closed || cost > node.g {
                continue;
            }
            self.nodes[c].stamp = closed;
            expanded += 1;
            if c == g {
                self.write_path(s, g, out);
                return Ok(Found { cost, expanded });
            }
            let n = self.successor_dirs(c, node.parent as usize, &mut dirs);
            for &(dx, dy) in &dirs[..n] {
                let Some(j) = self.jump(c, dx, dy) else { continue };
                let next = self.nodes[j];
                if next.stamp == closed {
                    continue;
                }
                let steps = self.steps(c, j);
                let ng = cost + if dx != 0 && dy != 0 { SQRT2 * steps } else { steps };
                if next.stamp == stamp && ng >= next.g {
                    continue;
                }
                self.nodes[j] = Node { g: ng, parent: cell, stamp };
                self.open.push(Open { f: ng + self.h(j), g: ng, cell: j as u32 });
            }
        }
        Err(PathError::NoPath { expanded })
    }

    /// The directions worth scanning from `c`, reached from `parent` (pruning symmetric paths).
    fn successor_dirs(&self, c: usize, parent: usize, dirs: &mut [(i32, i32); 8]) -> usize {
        let (cx, cy) = ((c % self.stride) as i32, (c / self.stride) as i32);
        let (px, py) = ((parent % self.stride) as i32, (parent / self.stride) as i32);
        let (dx, dy) = ((cx - px).signum(), (cy - py).signum());
        let mut n = 0;
        let mut push = |d| {
            dirs[n] = d;
            n += 1;
        };
        if dx == 0 && dy == 0 {
            for d in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)] {
                push(d);
            }
        } else if dx != 0 && dy != 0 {
            push((dx, 0));
            push((0, dy));
            push((dx, dy));
        } else {
            push((dx, dy));
            // The two sides perpendicular to the move.
            let (sx, sy) = (dy, dx);
            for side in [1, -1] {
                let (ox, oy) = (sx * side, sy * side);
                if self.open_at(cx + ox, cy + oy) && !self.open_at(cx + ox - dx, cy + oy - dy) {
                    push((ox, oy));
                    push((dx + ox, dy + oy));
                }
            }
        }
        n
    }

    /// Scans from `c` in direction `(dx, dy)` and returns the first jump point, if any.
    fn jump(&self, c: usize, dx: i32, dy: i32) -> Option<usize> {
        if dx == 0 || dy == 0 {
            return self.jump_straight(c, dx, dy);
        }
        let (ox, oy) = (dx as isize, dy as isize * self.stride as isize);
        let mut n = c;
        loop {
            if self.free[n.wrapping_add_signed(ox)] == 0 || self.free[n.wrapping_add_signed(oy)] == 0 {
                return None; // no corner cutting
            }
            n = n.wrapping_add_signed(ox + oy);
            if self.free[n] == 0 {
                return None;
            }
            if n == self.goal || self.jump_straight(n, dx, 0).is_some() || self.jump_straight(n, 0, dy).is_some() {
                return Some(n);
            }
        }
    }

    /// A straight scan: horizontal ones in the row-major grid, vertical ones in the transposed
    /// grid, both through [`Jps::scan`].
    fn jump_straight(&self, c: usize, dx: i32, dy: i32) -> Option<usize> {
        let (x, y) = (c % self.stride, c / self.stride);
        let goal = (self.goal % self.stride, self.goal / self.stride);
        if dy == 0 {
            let goal_on_line = (goal.1 == y).then_some(goal.0);
            let row = y * self.stride;
            let stop = scan(&self.free, row - self.stride, row, row + self.stride, x, dx, goal_on_line)?;
            Some(row + stop)
        } else {
            let goal_on_line = (goal.0 == x).then_some(goal.1);
            let col = x * self.stride_t;
            let stop = scan(&self.free_t, col - self.stride_t, col, col + self.stride_t, y, dy, goal_on_line)?;
            Some(stop * self.stride + x)
        }
    }

    fn open_at(&self, x: i32, y: i32) -> bool {
        self.free[y as usize * self.stride + x as usize] != 0
    }

    fn padded(&self, cell: IVec2, which: Endpoint) -> Result<usize, PathError> {
        if cell.x < 0 || cell.y < 0 || cell.x as u32 >= self.width || cell.y as u32 >= self.height {
            return Err(PathError::OffMap { which, cell });
        }
        let i = (cell.y as usize + 1) * self.stride + cell.x as usize + 1;
        if self.free[i] == 0 {
            return Err(PathError::Blocked { which, cell });
        }
        Ok(i)
    }

    fn xy(&self, i: usize) -> (i64, i64) {
        ((i % self.stride) as i64, (i / self.stride) as i64)
    }

    /// How many single steps apart two cells on one straight or diagonal line are.
    fn steps(&self, a: usize, b: usize) -> f64 {
        let ((ax, ay), (bx, by)) = (self.xy(a), self.xy(b));
        (ax - bx).abs().max((ay - by).abs()) as f64
    }

    fn h(&self, i: usize) -> f64 {
        let ((ax, ay), (bx, by)) = (self.xy(i), self.xy(self.goal));
        let (dx, dy) = ((ax - bx).abs() as f64, (ay - by).abs() as f64);
        let (lo, hi) = (dx.min(dy), dx.max(dy));
        hi - lo + SQRT2 * lo
    }

    /// Follows the parents from the goal and fills in the cells between jump points.
    fn write_path(&self, start: usize, goal: usize, out: &mut Vec<IVec2>) {
        let cell = |i: usize| {
            let (x, y) = self.xy(i);
            IVec2::new(x as i32 - 1, y as i32 - 1)
        };
        let mut c = goal;
        while c != start {
            let p = self.nodes[c].parent as usize;
            let (to, from) = (cell(c), cell(p));
            let step = (from - to).signum();
            let mut at = to;
            while at != from {
                out.push(at);
                at += step;
            }
            c = p;
        }
        out.push(cell(start));
        out.reverse();
    }
}

/// Scans the line `mid` (a row of `grid` starting at index `mid`, with `lo` and `hi` the rows on
/// either side) from position `at` in direction `d` (±1) and returns the position of the first
/// jump point: the goal, or a cell whose side cell is open while the side cell one step back is
/// blocked. `None` when a wall ends the line first.
///
/// Eight cells are tested at once: for each of the 8 bytes ahead, the stop condition
/// `(side & !side_back) | goal` and the wall condition `!mid` are bit masks; the first set bit
/// of either tells which comes first. The arrays carry 8 bytes of slack at the end, and the
/// blocked border stops every scan before it runs off a row.
fn scan(grid: &[u8], lo: usize, mid: usize, hi: usize, at: usize, d: i32, goal: Option<usize>) -> Option<usize> {
    let mut p = at;
    if d > 0 {
        loop {
            // Cells p+1 ..= p+8 and, for the "one step back" side cells, p ..= p+7.
            let open = word(grid, mid + p + 1);
            let side = word(grid, lo + p + 1) & !word(grid, lo + p) | word(grid, hi + p + 1) & !word(grid, hi + p);
            let mut stop = side & open;
            if let Some(g) = goal
                && g > p
                && g <= p + 8
            {
                stop |= 1 << (8 * (g - p - 1));
            }
            let wall = !open & 0x0101_0101_0101_0101;
            let first_stop = stop.trailing_zeros() / 8;
            let first_wall = wall.trailing_zeros() / 8;
            if first_stop < first_wall {
                return Some(p + 1 + first_stop as usize);
            }
            if first_wall < 8 {
                return None;
            }
            p += 8;
        }
    } else {
        loop {
            // Cells p-1 down to p-8, read as the word starting at p-8 (byte 7 = cell p-1).
            if p < 8 {
                // Near the start of the array: step one cell at a time.
                return scan_slow(grid, lo, mid, hi, p, goal);
            }
            let open = word(grid, mid + p - 8);
            let side =
                word(grid, lo + p - 8) & !word(grid, lo + p - 7) | word(grid, hi + p - 8) & !word(grid, hi + p - 7);
            let mut stop = side & open;
            if let Some(g) = goal
                && g < p
                && g + 8 >= p
            {
                stop |= 1 << (8 * (7 - (p - 1 - g)));
            }
            let wall = !open & 0x0101_0101_0101_0101;
            let first_stop = stop.leading_zeros() / 8;
            let first_wall = wall.leading_zeros() / 8;
            if first_stop < first_wall {
                return Some(p - 1 - first_stop as usize);
            }
            if first_wall < 8 {
                return None;
            }
            p -= 8;
        }
    }
}

/// The backward scan, one cell at a time (used within 8 cells of a row's start).
fn scan_slow(grid: &[u8], lo: usize, mid: usize, hi: usize, at: usize, goal: Option<usize>) -> Option<usize> {
    let mut p = at;
    loop {
        p = p.checked_sub(1)?;
        if grid[mid + p] == 0 {
            return None;
        }
        if goal == Some(p)
            || (grid[lo + p] != 0 && grid[lo + p + 1] == 0)
            || (grid[hi + p] != 0 && grid[hi + p + 1] == 0)
        {
            return Some(p);
        }
    }
}

/// Eight bytes from `i`, little-endian: byte `k` (bits `8k..8k+8`) is `grid[i + k]` (0 or 1).
#[inline(always)]
fn word(grid: &[u8], i: usize) -> u64 {
    let bytes: [u8; 8] = grid[i..i + 8].try_into().unwrap_or([0; 8]);
    u64::from_le_bytes(bytes)
}
