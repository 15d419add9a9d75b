//! Which obstacles a feeler may touch, looked up in one grid cell.
//!
//! Obstacles stand still while units move, so the question "which obstacle centres lie within
//! `reach` of this point" can be answered ahead of time for every cell of a grid: each cell lists
//! the obstacles within `reach` of any point of it. A query then reads one cell's list (most are
//! empty) and tests the few it holds, where a [`super::SpatialHash`] query walks a block of cells
//! for each unit: in a 50,000-unit flock tick that walk was 9% of the instructions.

use glam::Vec2;

/// Obstacle centres listed by the grid cells within `reach` of them.
#[derive(Debug, Clone, Default)]
pub(super) struct ObstacleCells {
    /// The largest query radius the lists answer for.
    reach: f32,
    origin: Vec2,
    cell: f32,
    grid_w: usize,
    grid_h: usize,
    /// `start[c]..start[c + 1]` is cell `c`'s range of `items`.
    start: Vec<u32>,
    /// Obstacle indices, ascending within each cell.
    items: Vec<u32>,
}

impl ObstacleCells {
    /// Lists `centres` (non-finite ones left out) for queries of radius up to `reach`.
    pub(super) fn build(centres: &[Vec2], reach: f32) -> Self {
        let reach = if reach.is_finite() && reach > 0.0 { reach } else { 0.0 };
        let finite = || centres.iter().enumerate().filter(|(_, c)| c.is_finite());
        let Some(lo) = finite().map(|(_, &c)| c).reduce(Vec2::min) else {
            return ObstacleCells { reach, ..Self::default() };
        };
        let hi = finite().map(|(_, &c)| c).fold(lo, Vec2::max);
        let origin = lo - Vec2::splat(reach);
        let extent = hi + Vec2::splat(reach) - origin;
        // Cells half the reach across: a cell's list then spans a square 2.5 reaches across, not
        // 3, so a query tests a third fewer obstacles. Coarser if that would take more than 2¹⁶
        // cells or, past that, ~4 per obstacle (a few obstacles far apart), so memory stays
        // bounded and then linear in their number.
        let budget = (4 * centres.len()).max(1 << 16) as f32;
        let mut cell = (reach * 0.5).max(extent.max_element() / 4096.0).max(f32::MIN_POSITIVE);
        while ((extent.x / cell).floor() + 1.0) * ((extent.y / cell).floor() + 1.0) > budget {
            cell *= 2.0;
        }
        let grid_w = (extent.x / cell) as usize + 1;
        let grid_h = (extent.y / cell) as usize + 1;
        let mut grid = ObstacleCells {
            reach,
            origin,
            cell,
            grid_w,
            grid_h,
            start: vec![0; grid_w * grid_h + 1],
            items: Vec::new(),
        };
        // Two passes over the cells each obstacle reaches: count, then fill (obstacles in index
        // order, so each list is ascending).
        let mut start = std::mem::take(&mut grid.start);
        for (_, &c) in finite() {
            grid.for_each_cell_near(c, |cell| start[cell + 1] += 1);
        }
        for c in 0..grid_w * grid_h {
            start[c + 1] += start[c];
        }
        let mut items = vec![0; start[grid_w * grid_h] as usize];
        let mut next = start.clone();
        for (k, &c) in finite() {
            grid.for_each_cell_near(c, |cell| {
                items[next[cell] as usize] = k as u32;
                next[cell] += 1;
            });
        }
        ObstacleCells { start, items, ..grid }
    }

    /// The largest query radius the lists answer for.
    pub(super) fn reach(&self) -> f32 {
        self.reach
    }

    /// Calls `visit` with every cell whose rectangle comes within `reach` of `centre`.
    fn for_each_cell_near(&self, centre: Vec2, mut visit: impl FnMut(usize)) {
        let cell_of = |v: f32, o: f32, n: usize| (((v - o) / self.cell).floor().max(0.0) as usize).min(n - 1);
        let (x0, x1) = (
            cell_of(centre.x - self.reach, self.origin.x, self.grid_w),
            cell_of(centre.x + self.reach, self.origin.x, self.grid_w),
        );
        let (y0, y1) = (
            cell_of(centre.y - self.reach, self.origin.y, self.grid_h),
            cell_of(centre.y + self.reach, self.origin.y, self.grid_h),
        );
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                // The rectangle's nearest point to the centre, with a little slack for rounding:
                // a cell may list an obstacle it cannot reach, never miss one it can.
                let min = self.origin + Vec2::new(cx as f32, cy as f32) * self.cell;
                let nearest = centre.clamp(min, min + Vec2::splat(self.cell));
                if nearest.distance(centre) <= self.reach * (1.0 + 1e-4) + self.cell * 1e-4 {
                    visit(cy * self.grid_w + cx);
                }
            }
        }
    }

    /// Calls `visit(k)` for every centre `centres[k]` (the ones the lists were built from) within
    /// `radius` of `point`, in ascending `k`. Radii up to [`ObstacleCells::reach`] read one
    /// cell's list; a larger one (the lists are stale) tests every centre.
    #[inline]
    pub(super) fn for_each_within(&self, centres: &[Vec2], point: Vec2, radius: f32, mut visit: impl FnMut(usize)) {
        let r2 = radius * radius;
        if radius > self.reach {
            for (k, c) in centres.iter().enumerate() {
                if c.distance_squared(point) <= r2 {
                    visit(k);
                }
            }
            return;
        }
        let c = (point - self.origin) / self.cell;
        // Also false for NaN: a point off the grid is farther than the reach from every centre.
        if !(c.x >= 0.0 && c.y >= 0.0 && c.x < self.grid_w as f32 && c.y < self.grid_h as f32) {
            return;
        }
        let cell = c.y as usize * self.grid_w + c.x as usize;
        let (Some(&s), Some(&e)) = (self.start.get(cell), self.start.get(cell + 1)) else { return };
        for &k in &self.items[s as usize..e as usize] {
            if centres[k as usize].distance_squared(point) <= r2 {
                visit(k as usize);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        #[test]
        fn finds_exactly_the_centres_in_range_in_index_order(
            centres in prop::collection::vec((-60.0f32..60.0, -60.0f32..60.0), 0..80),
            reach in 0.5f32..15.0, shrink in 0.0f32..1.0, px in -80.0f32..80.0, py in -80.0f32..80.0,
        ) {
            let centres: Vec<Vec2> = centres.into_iter().map(|(x, y)| Vec2::new(x, y)).collect();
            let cells = ObstacleCells::build(&centres, reach);
            let (point, radius) = (Vec2::new(px, py), reach * shrink);
            let mut got = Vec::new();
            cells.for_each_within(&centres, point, radius, |k| got.push(k));
            let want: Vec<usize> =
                (0..centres.len()).filter(|&k| centres[k].distance_squared(point) <= radius * radius).collect();
            prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn a_radius_beyond_the_reach_still_finds_everything() {
        let centres = [Vec2::new(0.0, 0.0), Vec2::new(9.0, 0.0), Vec2::new(30.0, 0.0)];
        let cells = ObstacleCells::build(&centres, 2.0);
        let mut found = Vec::new();
        cells.for_each_within(&centres, Vec2::new(1.0, 0.0), 10.0, |k| found.push(k));
        assert_eq!(found, [0, 1]);
    }

    #[test]
    fn no_obstacles_and_broken_points_find_nothing() {
        let empty = ObstacleCells::build(&[], 5.0);
        let mut hits = 0;
        empty.for_each_within(&[], Vec2::ZERO, 5.0, |_| hits += 1);
        let centres = [Vec2::new(1.0, 1.0), Vec2::NAN, Vec2::new(1e7, -1e7)];
        let cells = ObstacleCells::build(&centres, 5.0);
        cells.for_each_within(&centres, Vec2::NAN, 5.0, |_| hits += 1);
        assert_eq!(hits, 0);
        let mut found = Vec::new();
        cells.for_each_within(&centres, Vec2::new(1e7 + 1.0, -1e7), 5.0, |k| found.push(k));
        cells.for_each_within(&centres, Vec2::new(2.0, 2.0), 5.0, |k| found.push(k));
        assert_eq!(found, [2, 0], "a far outlier and a near one, the NaN listed nowhere");
        assert!(cells.start.len() <= (1 << 16) + 1, "memory stays bounded despite the outlier");
    }
}
