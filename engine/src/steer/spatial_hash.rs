//! A spatial hash for neighbour queries: cost grows with the number of neighbours, not with the
//! square of the population (the book's own advice, 002b §1.6 and 002a L1608).
//!
//! Points are bucketed by the square cell `floor(p / cell_size)` they fall in. The cells are hashed
//! into a table of at least twice as many buckets as points and the points are counting-sorted into
//! one flat array, bucket by bucket, so a rebuild is two linear passes and allocates nothing once
//! the buffers have grown. Each sorted entry keeps its real cell key, so two cells that hash to the
//! same bucket never leak into each other's queries. Within a cell, points stay in index order:
//! queries visit candidates in a deterministic order.

use glam::{IVec2, Vec2};

/// Points bucketed by grid cell, rebuilt from a slice of positions.
#[derive(Debug, Clone)]
pub struct SpatialHash {
    cell_size: f32,
    inv_cell: f32,
    mask: usize,
    /// `start[b]..start[b + 1]` is bucket `b`'s range in the sorted arrays.
    start: Vec<u32>,
    /// The point index of each sorted entry.
    items: Vec<u32>,
    /// The position of each sorted entry (copied so queries read contiguous memory).
    positions: Vec<Vec2>,
    /// The cell of each sorted entry.
    cells: Vec<IVec2>,
    /// Scratch: each point's bucket during a rebuild.
    bucket_of: Vec<u32>,
}

impl SpatialHash {
    /// An empty hash with square cells of `cell_size` (non-finite or non-positive sizes become 1).
    /// Queries are cheapest when the cell is about the query radius.
    pub fn new(cell_size: f32) -> Self {
        let cell_size = if cell_size.is_finite() && cell_size > 0.0 { cell_size } else { 1.0 };
        SpatialHash {
            cell_size,
            inv_cell: 1.0 / cell_size,
            mask: 0,
            start: vec![0, 0],
            items: Vec::new(),
            positions: Vec::new(),
            cells: Vec::new(),
            bucket_of: Vec::new(),
        }
    }

    /// The cell edge length.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// How many points the last rebuild stored.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether it holds no points.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The cell a position falls in. Non-finite coordinates land in cell `(0, 0)`.
    pub fn cell_of(&self, p: Vec2) -> IVec2 {
        let c = (p * self.inv_cell).floor();
        let c = if c.is_finite() { c } else { Vec2::ZERO };
        c.clamp(Vec2::splat(-1e9), Vec2::splat(1e9)).as_ivec2()
    }

    fn bucket(&self, cell: IVec2) -> usize {
        let h = (cell.x as u32 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (cell.y as u32 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        ((h ^ (h >> 29)) as usize) & self.mask
    }

    /// Replaces the contents with `positions` (point `i` is `positions[i]`).
    pub fn rebuild(&mut self, positions: &[Vec2]) {
        let n = positions.len();
        let buckets = (2 * n).next_power_of_two().max(16);
        self.mask = buckets - 1;
        self.start.clear();
        self.start.resize(buckets + 1, 0);
        self.bucket_of.clear();
        for &p in positions {
            let b = self.bucket(self.cell_of(p));
            self.bucket_of.push(b as u32);
            self.start[b + 1] += 1;
        }
        for b in 0..buckets {
            self.start[b + 1] += self.start[b];
        }
        self.items.clear();
        self.items.resize(n, 0);
        self.positions.clear();
        self.positions.resize(n, Vec2::ZERO);
        self.cells.clear();
        self.cells.resize(n, IVec2::ZERO);
        // Fill each bucket from its start, in point order, using `start[b]` as the cursor and
        // restoring it afterwards from the next bucket's start.
        for (i, &p) in positions.iter().enumerate() {
            let b = self.bucket_of[i] as usize;
            let slot = self.start[b] as usize;
            self.items[slot] = i as u32;
            self.positions[slot] = p;
            self.cells[slot] = self.cell_of(p);
            self.start[b] += 1;
        }
        for b in (1..=buckets).rev() {
            self.start[b] = self.start[b - 1];
        }
        self.start[0] = 0;
    }

    /// Calls `visit(index, position)` for every point within `radius` of `center` (inclusive), in
    /// a deterministic order: cells row by row, points by index within a cell (or, when the query
    /// spans more cells than there are points, every point in bucket order).
    pub fn for_each_within(&self, center: Vec2, radius: f32, mut visit: impl FnMut(u32, Vec2)) {
        if self.items.is_empty() || !(radius >= 0.0) || !center.is_finite() {
            return;
        }
        let r2 = radius * radius;
        let lo = self.cell_of(center - Vec2::splat(radius));
        let hi = self.cell_of(center + Vec2::splat(radius));
        let span = (i64::from(hi.x) - i64::from(lo.x) + 1) * (i64::from(hi.y) - i64::from(lo.y) + 1);
        if !radius.is_finite() || span > self.items.len() as i64 {
            // A query wider than the population: scanning every point is cheaper than every cell.
            for (k, &p) in self.positions.iter().enumerate() {
                if p.distance_squared(center) <= r2 {
                    visit(self.items[k], p);
                }
            }
            return;
        }
        for cy in lo.y..=hi.y {
            for cx in lo.x..=hi.x {
                let cell = IVec2::new(cx, cy);
                let b = self.bucket(cell);
                let (s, e) = (self.start[b] as usize, self.start[b + 1] as usize);
                for k in s..e {
                    if self.cells[k] != cell {
                        continue;
                    }
                    let p = self.positions[k];
                    if p.distance_squared(center) <= r2 {
                        visit(self.items[k], p);
                    }
                }
            }
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
    }

    proptest! {
        #[test]
        fn matches_a_brute_force_scan(
            pts in prop::collection::vec((-50.0f32..50.0, -50.0f32..50.0), 0..200),
            cell in 0.5f32..8.0, radius in 0.0f32..12.0, cx in -50.0f32..50.0, cy in -50.0f32..50.0,
        ) {
            let pts: Vec<Vec2> = pts.into_iter().map(|(x, y)| Vec2::new(x, y)).collect();
            let mut h = SpatialHash::new(cell);
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
