//! Neighbour queries whose cost grows with the number of neighbours, not with the square of the
//! population (the book's own advice, 002b §1.6 and 002a L1608).
//!
//! The "spatial hash" is a bucket grid laid over the bounding box of the points at each rebuild:
//! cells `cell_size` tall and `cell_size / columns` wide (coarsened if the box would need more
//! than about four cells per point), numbered row by row, with the points counting-sorted into
//! one flat array cell by cell.
//! A rebuild is two linear passes and allocates nothing once the buffers have grown. Because
//! cells are numbered row-major, the cells of one query row are one contiguous range of the
//! sorted array, and [`SpatialHash::order`] lists the points in that spatial order so a caller
//! that queries in it reads memory that is already in cache. Within a cell, points stay in index
//! order: every query visits candidates in a deterministic order.
//!
//! **Narrow cells.** A query visits one run per row of cells. With square cells as wide as the
//! radius `r`, a run spans three cells (3r on average) where the circle is 2r wide; cells a
//! quarter as wide ([`SpatialHash::with_columns`]) trim a run to 2r plus a quarter cell while
//! the number of runs stays three. A flock's neighbour scan tests a quarter fewer candidates that
//! way. (Cutting each run to the circle's chord over its row as well trimmed a few more, but the
//! square root and cell arithmetic per row cost more than the candidates saved.)

use glam::{IVec2, Vec2};

/// The non-empty slot ranges of a query's rows of cells (see [`SpatialHash::runs_within`]).
#[derive(Debug, Clone)]
pub struct RunsWithin<'a> {
    start: &'a [u32],
    /// The first cell of the next row, and the rows left.
    row: usize,
    rows: usize,
    grid_w: usize,
    /// The query's first column and one past its last.
    lo_x: usize,
    hi_x: usize,
}

impl Iterator for RunsWithin<'_> {
    type Item = std::ops::Range<usize>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        while self.rows > 0 {
            let (s, e) = (self.start[self.row + self.lo_x] as usize, self.start[self.row + self.hi_x] as usize);
            self.row += self.grid_w;
            self.rows -= 1;
            if s < e {
                return Some(s..e);
            }
        }
        None
    }
}

/// Points bucketed by grid cell, rebuilt from a slice of positions.
#[derive(Debug, Clone)]
pub struct SpatialHash {
    cell_size: f32,
    /// Cells per `cell_size` across.
    columns: u32,
    /// The cells' width and height at the last rebuild (at least the requested ones).
    cell: Vec2,
    inv_cell: Vec2,
    origin: Vec2,
    grid_w: i32,
    grid_h: i32,
    /// `start[c]..start[c + 1]` is cell `c`'s range in the sorted arrays.
    start: Vec<u32>,
    /// The point index of each sorted entry.
    items: Vec<u32>,
    /// The position of each sorted entry (copied so queries read contiguous memory).
    positions: Vec<Vec2>,
    /// Scratch: each point's cell during a rebuild (`u32::MAX` for non-finite points).
    cell_of_point: Vec<u32>,
}

impl SpatialHash {
    /// An empty hash with square cells of `cell_size` (non-finite or non-positive sizes become 1).
    /// Queries are cheapest when the cell is about the query radius.
    pub fn new(cell_size: f32) -> Self {
        Self::with_columns(cell_size, 1)
    }

    /// An empty hash with cells `cell_size` tall and `cell_size / columns` wide (`columns` at
    /// least 1): for queries of radius about `cell_size` whose cost lies in the candidates they
    /// test rather than in the number of runs (see the module notes).
    pub fn with_columns(cell_size: f32, columns: u32) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 { cell_size } else { 1.0 };
        let columns = columns.max(1);
        let cell = Vec2::new(cell_size / columns as f32, cell_size);
        SpatialHash {
            cell_size,
            columns,
            cell,
            inv_cell: cell.recip(),
            origin: Vec2::ZERO,
            grid_w: 0,
            grid_h: 0,
            start: vec![0],
            items: Vec::new(),
            positions: Vec::new(),
            cell_of_point: Vec::new(),
        }
    }

    /// The requested cell height (cells are this wide over [`SpatialHash::with_columns`]).
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// How many points the last rebuild stored (points with non-finite coordinates are left out).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it holds no points.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The stored point indices in spatial order (cell by cell, row-major).
    pub fn order(&self) -> &[u32] {
        &self.items
    }

    fn cell_coords(&self, p: Vec2) -> IVec2 {
        let c = ((p - self.origin) * self.inv_cell)
            .clamp(Vec2::splat(-1.0), Vec2::new(self.grid_w as f32, self.grid_h as f32));
        // Floor of a value clamped to integers (so the same as clamping the floor), without a call
        // to `floorf`, which x86-64 without SSE4.1 cannot inline: it was 2.5% of a flock tick.
        let t = c.as_ivec2();
        t - IVec2::new(i32::from(c.x < t.x as f32), i32::from(c.y < t.y as f32))
    }

    /// Replaces the contents with `positions` (point `i` is `positions[i]`).
    pub fn rebuild(&mut self, positions: &[Vec2]) {
        let (mut lo, mut hi) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));
        for &p in positions.iter().filter(|p| p.is_finite()) {
            lo = lo.min(p);
            hi = hi.max(p);
        }
        if lo.x > hi.x {
            (lo, hi) = (Vec2::ZERO, Vec2::ZERO);
        }
        let extent = (hi - lo).max(Vec2::splat(0.0));
        // Coarsen the cells when the box would need more than ~4 cells per point (sparse
        // outliers), so memory stays linear in the population.
        let budget = (4 * positions.len()).max(64) as f32;
        let aspect = Vec2::new(1.0 / self.columns as f32, 1.0);
        let mut cell = self.cell_size;
        let cells_needed = |c: f32| {
            let n = (extent / (aspect * c)).floor() + 1.0;
            n.x * n.y
        };
        if cells_needed(cell) > budget {
            cell = (extent.x.max(extent.y) / budget.sqrt()).max(cell) * 1.01;
            while cells_needed(cell) > budget {
                cell *= 2.0;
            }
        }
        self.cell = aspect * cell;
        self.inv_cell = self.cell.recip();
        self.origin = lo;
        self.grid_w = (extent.x / self.cell.x).floor() as i32 + 1;
        self.grid_h = (extent.y / self.cell.y).floor() as i32 + 1;
        let cells = self.grid_w as usize * self.grid_h as usize;
        self.start.clear();
        self.start.resize(cells + 1, 0);
        self.cell_of_point.clear();
        for &p in positions {
            let c = if p.is_finite() {
                let cc = self.cell_coords(p).clamp(IVec2::ZERO, IVec2::new(self.grid_w - 1, self.grid_h - 1));
                let c = cc.y as u32 * self.grid_w as u32 + cc.x as u32;
                self.start[c as usize + 1] += 1;
                c
            } else {
                u32::MAX
            };
            self.cell_of_point.push(c);
        }
        for c in 0..cells {
            self.start[c + 1] += self.start[c];
        }
        let stored = self.start[cells] as usize;
        self.items.clear();
        self.items.resize(stored, 0);
        self.positions.clear();
        self.positions.resize(stored, Vec2::ZERO);
        // Fill each cell from its start, in point order, using `start[c]` as the cursor, then
        // shift the starts back.
        for (i, &p) in positions.iter().enumerate() {
            let c = self.cell_of_point[i];
            if c == u32::MAX {
                continue;
            }
            let slot = self.start[c as usize] as usize;
            self.items[slot] = i as u32;
            self.positions[slot] = p;
            self.start[c as usize] += 1;
        }
        for c in (1..=cells).rev() {
            self.start[c] = self.start[c - 1];
        }
        self.start[0] = 0;
    }

    /// Calls `visit(index, position)` for every point within `radius` of `center` (inclusive), in
    /// a deterministic order: cells row by row, points by index within a cell.
    pub fn for_each_within(&self, center: Vec2, radius: f32, mut visit: impl FnMut(u32, Vec2)) {
        self.for_each_slot_within(center, radius, |_, i, p| visit(i, p));
    }

    /// As [`SpatialHash::for_each_within`], also passing each point's *slot*: its position in
    /// [`SpatialHash::order`]. Callers that copy per-point data into slot order read it
    /// contiguously instead of jumping around by point index.
    pub fn for_each_slot_within(&self, center: Vec2, radius: f32, mut visit: impl FnMut(usize, u32, Vec2)) {
        let r2 = radius * radius;
        self.for_each_run_within(center, radius, |run| {
            for k in run {
                let p = self.positions[k];
                if p.distance_squared(center) <= r2 {
                    visit(k, self.items[k], p);
                }
            }
        });
    }

    /// Calls `run(slots)` with the slot ranges (positions in [`SpatialHash::order`]) of the cells
    /// that may hold points within `radius` of `center`: one contiguous range per row of cells,
    /// rows in order. Unlike [`SpatialHash::for_each_slot_within`] it does not test distances, so
    /// a caller that tests them itself, many at a time, reads each run as one slice.
    #[inline]
    pub fn for_each_run_within(&self, center: Vec2, radius: f32, run: impl FnMut(std::ops::Range<usize>)) {
        self.runs_within(center, radius).for_each(run);
    }

    /// The ranges [`SpatialHash::for_each_run_within`] calls back with, as an iterator: a loop
    /// over it stays in the caller's function (a callback is compiled as a function of its own,
    /// which keeps a caller's running sums out of registers and, inside a `#[target_feature]`
    /// function, runs without that feature).
    #[inline(always)]
    pub fn runs_within(&self, center: Vec2, radius: f32) -> RunsWithin<'_> {
        let none = RunsWithin { start: &self.start, row: 0, rows: 0, grid_w: 0, lo_x: 0, hi_x: 0 };
        if self.items.is_empty() || radius.is_nan() || radius < 0.0 || !center.is_finite() {
            return none;
        }
        let r = radius.min(1e30);
        let lo = self.cell_coords(center - Vec2::splat(r)).max(IVec2::ZERO);
        let hi = self.cell_coords(center + Vec2::splat(r)).min(IVec2::new(self.grid_w - 1, self.grid_h - 1));
        if lo.x > hi.x || lo.y > hi.y {
            return none;
        }
        let grid_w = self.grid_w as usize;
        RunsWithin {
            start: &self.start,
            row: lo.y as usize * grid_w,
            rows: (hi.y - lo.y + 1) as usize,
            grid_w,
            lo_x: lo.x as usize,
            hi_x: hi.x as usize + 1,
        }
    }

    /// The indices within `radius` of `center`, written into `out` (cleared first).
    pub fn query(&self, center: Vec2, radius: f32, out: &mut Vec<u32>) {
        out.clear();
        self.for_each_within(center, radius, |i, _| out.push(i));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn finds_exactly_the_points_in_range() {
        let pts = [Vec2::new(0.5, 0.5), Vec2::new(1.5, 0.5), Vec2::new(-3.0, 2.0), Vec2::new(0.9, 1.2)];
        let mut h = SpatialHash::new(1.0);
        h.rebuild(&pts);
        let mut out = Vec::new();
        h.query(Vec2::new(0.5, 0.5), 1.0, &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![0, 1, 3]);
        h.query(Vec2::new(0.5, 0.5), f32::NAN, &mut out);
        assert!(out.is_empty());
        h.rebuild(&[]);
        h.query(Vec2::ZERO, 10.0, &mut out);
        assert!(out.is_empty());
        // A far outlier and a non-finite point: memory stays bounded, the outlier is found, the
        // NaN is stored nowhere, and an unbounded radius finds everything finite.
        h.rebuild(&[Vec2::ZERO, Vec2::new(1e7, -1e7), Vec2::NAN, Vec2::ONE]);
        assert_eq!(h.len(), 3);
        h.query(Vec2::new(1e7, -1e7), 1.0, &mut out);
        assert_eq!(out, vec![1]);
        h.query(Vec2::ZERO, f32::INFINITY, &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![0, 1, 3]);
    }

    /// 50,000 points at a flock's density (0.05 a square unit), queried with the cell size as
    /// radius: square cells hand the caller about 29 candidates a query (a 24 × 24 square of
    /// them, 28.8), cells a quarter as wide about 22 (24 × 18, 21.6), in the same three runs.
    /// The circle holds 10. Measured: 29.6 and 22.4.
    #[test]
    fn narrow_cells_hand_out_fewer_candidates_in_as_many_runs() {
        let mut seed = 12_345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        let pts: Vec<Vec2> = (0..50_000).map(|_| Vec2::new(next() * 1000.0, next() * 1000.0)).collect();
        let per_query = |columns: u32| {
            let mut h = SpatialHash::with_columns(8.0, columns);
            h.rebuild(&pts);
            let (mut runs, mut candidates) = (0usize, 0usize);
            for &p in &pts[..5000] {
                h.for_each_run_within(p, 8.0, |r| {
                    runs += 1;
                    candidates += r.len();
                });
            }
            (runs as f32 / 5000.0, candidates as f32 / 5000.0)
        };
        let (square_runs, square) = per_query(1);
        let (narrow_runs, narrow) = per_query(4);
        assert!((28.5..30.5).contains(&square), "square cells: {square} candidates a query");
        assert!((21.5..23.5).contains(&narrow), "narrow cells: {narrow} candidates a query");
        assert!(square_runs <= 3.0 && narrow_runs <= 3.0, "runs {square_runs} and {narrow_runs}");
    }

    proptest! {
        #[test]
        fn matches_a_brute_force_scan(
            pts in prop::collection::vec((-50.0f32..50.0, -50.0f32..50.0), 0..200),
            cell in 0.5f32..8.0, columns in 1u32..6, radius in 0.0f32..12.0,
            cx in -50.0f32..50.0, cy in -50.0f32..50.0,
        ) {
            let pts: Vec<Vec2> = pts.into_iter().map(|(x, y)| Vec2::new(x, y)).collect();
            let mut h = SpatialHash::with_columns(cell, columns);
            h.rebuild(&pts);
            let c = Vec2::new(cx, cy);
            let mut got = Vec::new();
            h.query(c, radius, &mut got);
            got.sort_unstable();
            let want: Vec<u32> =
                (0..pts.len() as u32).filter(|&i| pts[i as usize].distance_squared(c) <= radius * radius).collect();
            prop_assert_eq!(got, want);
        }
    }
}
