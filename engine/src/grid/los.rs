//! Line of sight between cells.
//!
//! Visibility uses a supercover line: every cell the straight segment between the two cell centres
//! touches, in order. Where the segment passes exactly through a corner, both cells beside the
//! corner are part of the line, so a character never sees through the diagonal gap between two
//! wall blocks. (The book-exact Bresenham that tile chasing uses is a different line; it lives
//! with the chase code because its cell sequences are part of that behaviour.)

use glam::{IVec2, Vec2};

use super::map::Map;

/// Visits the supercover line from `a` to `b`, both included, stopping early when `visit` returns
/// `false`. Returns whether the whole line was visited.
///
/// Integer arithmetic only (in `i64`), so the result is exact and the same on every platform.
pub fn walk_supercover(a: IVec2, b: IVec2, mut visit: impl FnMut(IVec2) -> bool) -> bool {
    let (nx, ny) = (i64::from((b.x - a.x).abs()), i64::from((b.y - a.y).abs()));
    let (sx, sy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let mut p = a;
    if !visit(p) {
        return false;
    }
    let (mut ix, mut iy) = (0i64, 0i64);
    while ix < nx || iy < ny {
        // Which cell border the segment crosses next: compare the crossing parameters
        // (0.5 + ix) / nx and (0.5 + iy) / ny without dividing.
        let decision = (1 + 2 * ix) * ny - (1 + 2 * iy) * nx;
        if decision == 0 {
            if !visit(IVec2::new(p.x + sx, p.y)) || !visit(IVec2::new(p.x, p.y + sy)) {
                return false;
            }
            p += IVec2::new(sx, sy);
            ix += 1;
            iy += 1;
        } else if decision < 0 {
            p.x += sx;
            ix += 1;
        } else {
            p.y += sy;
            iy += 1;
        }
        if !visit(p) {
            return false;
        }
    }
    true
}

/// Visits the cells the segment from point `a` to point `b` (map units, not cell centres)
/// touches, in order, stopping at the first one `visit` refuses. Where the segment passes
/// exactly through a cell corner, both cells beside the corner are visited (a walker may not
/// squeeze diagonally between two walls). Returns whether every cell was accepted.
///
/// This is what a walker that stands anywhere in its cell crosses; `walk_supercover` is the same
/// rule for segments between cell centres, and every cell this visits for a sub-segment of a
/// centre-to-centre segment is one `walk_supercover` visits for the whole.
pub fn walk_segment(a: Vec2, b: Vec2, mut visit: impl FnMut(IVec2) -> bool) -> bool {
    // Amanatides and Woo's traversal; a corner is a tie of the two crossing parameters.
    const TIE: f32 = 1e-6;
    let mut cell = super::cell_of(a);
    let end = super::cell_of(b);
    if !visit(cell) {
        return false;
    }
    let d = b - a;
    let axis = |d: f32, from: f32, cell: i32| -> (i32, f32, f32) {
        if d > 0.0 {
            (1, (cell as f32 + 1.0 - from) / d, 1.0 / d)
        } else if d < 0.0 {
            (-1, (cell as f32 - from) / d, -1.0 / d)
        } else {
            (0, f32::INFINITY, f32::INFINITY)
        }
    };
    let (sx, mut tx, dx) = axis(d.x, a.x, cell.x);
    let (sy, mut ty, dy) = axis(d.y, a.y, cell.y);
    // Every step moves one cell closer to the end along some axis, so this bounds the walk even
    // when rounding puts the last crossing a hair past the end.
    let steps = (end - cell).abs().element_sum() + 2;
    for _ in 0..steps {
        if cell == end {
            return true;
        }
        if (tx - ty).abs() <= TIE * tx.max(ty).max(1.0) {
            if !visit(IVec2::new(cell.x + sx, cell.y)) || !visit(IVec2::new(cell.x, cell.y + sy)) {
                return false;
            }
            cell += IVec2::new(sx, sy);
            tx += dx;
            ty += dy;
        } else if tx < ty {
            cell.x += sx;
            tx += dx;
        } else {
            cell.y += sy;
            ty += dy;
        }
        if !visit(cell) {
            return false;
        }
    }
    cell == end
}

/// The supercover line from `a` to `b` as a list of cells.
pub fn supercover_line(a: IVec2, b: IVec2) -> Vec<IVec2> {
    let mut cells = Vec::new();
    walk_supercover(a, b, |c| {
        cells.push(c);
        true
    });
    cells
}

/// Whether `b` can be seen from `a`: every cell of the supercover line between their centres is
/// on the map and passable.
pub fn line_of_sight(map: &Map, a: IVec2, b: IVec2) -> bool {
    walk_supercover(a, b, |c| map.passable(c))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    fn visited(a: Vec2, b: Vec2) -> Vec<IVec2> {
        let mut v = Vec::new();
        assert!(walk_segment(a, b, |c| {
            v.push(c);
            true
        }));
        v
    }

    proptest! {
        /// Every cell a dense sampling of the segment lands in is visited, in order, and the
        /// walk is connected (each cell a neighbour of the one before).
        #[test]
        fn a_segment_visits_every_cell_it_crosses(ax in 0.0f32..20.0, ay in 0.0f32..20.0, bx in 0.0f32..20.0, by in 0.0f32..20.0) {
            let (a, b) = (Vec2::new(ax, ay), Vec2::new(bx, by));
            let cells = visited(a, b);
            prop_assert_eq!(cells[0], a.floor().as_ivec2());
            prop_assert_eq!(*cells.last().unwrap(), b.floor().as_ivec2());
            for w in cells.windows(2) {
                let d = (w[1] - w[0]).abs();
                prop_assert!(d.x <= 1 && d.y <= 1 && d != IVec2::ZERO, "{:?}", cells);
            }
            for k in 0..=2000 {
                let p = a.lerp(b, k as f32 / 2000.0);
                let c = p.floor().as_ivec2();
                // A sample a hair from a cell border may round into the neighbour.
                let near_border = (p.x - p.x.round()).abs() < 1e-3 || (p.y - p.y.round()).abs() < 1e-3;
                prop_assert!(near_border || cells.contains(&c), "{:?} not in {:?}", c, cells);
            }
        }
    }

    #[test]
    fn a_segment_through_a_corner_needs_both_cells_beside_it() {
        let wall = IVec2::new(1, 0);
        let open = |c: IVec2| c != wall;
        assert!(!walk_segment(Vec2::new(0.5, 1.5), Vec2::new(1.5, 0.5), open), "squeezes past (1, 0)");
        assert!(walk_segment(Vec2::new(0.5, 1.5), Vec2::new(0.5, 0.5), open));
        assert_eq!(
            visited(Vec2::new(0.5, 0.5), Vec2::new(2.5, 2.5)).len(),
            7,
            "three cells and two pairs beside corners"
        );
    }

    use super::*;

    fn v(x: i32, y: i32) -> IVec2 {
        IVec2::new(x, y)
    }

    #[test]
    fn straight_and_diagonal_lines() {
        assert_eq!(supercover_line(v(0, 0), v(3, 0)), vec![v(0, 0), v(1, 0), v(2, 0), v(3, 0)]);
        assert_eq!(
            supercover_line(v(0, 0), v(2, 2)),
            vec![v(0, 0), v(1, 0), v(0, 1), v(1, 1), v(2, 1), v(1, 2), v(2, 2)]
        );
        assert_eq!(supercover_line(v(2, 1), v(0, 0)), vec![v(2, 1), v(1, 1), v(1, 0), v(0, 0)]);
        assert_eq!(supercover_line(v(4, 4), v(4, 4)), vec![v(4, 4)]);
    }

    #[test]
    fn walls_block_sight_and_corners_do_not_leak() {
        let mut m = Map::open(5, 5);
        m.set(v(2, 2), b'#', f32::INFINITY);
        assert!(!line_of_sight(&m, v(0, 2), v(4, 2)));
        assert!(line_of_sight(&m, v(0, 0), v(4, 0)));
        // A diagonal gap between two wall blocks is not a window.
        let mut m = Map::open(3, 3);
        m.set(v(1, 0), b'#', f32::INFINITY);
        m.set(v(0, 1), b'#', f32::INFINITY);
        assert!(!line_of_sight(&m, v(0, 0), v(1, 1)));
        assert!(!line_of_sight(&m, v(0, 0), v(9, 9)), "off the map is not visible");
    }

    #[test]
    fn lines_are_connected_and_symmetric_as_sets() {
        for (a, b) in [(v(0, 0), v(7, 3)), (v(5, 1), v(-2, 6)), (v(3, 3), v(3, -4)), (v(0, 0), v(-5, -5))] {
            let fwd = supercover_line(a, b);
            for w in fwd.windows(2) {
                let d = (w[1] - w[0]).abs();
                assert!(d.x + d.y <= 2 && d.max_element() == 1, "{a} → {b}: {:?}", w);
            }
            let mut back = supercover_line(b, a);
            back.reverse();
            let mut f2 = fwd.clone();
            f2.sort_by_key(|c| (c.x, c.y));
            back.sort_by_key(|c| (c.x, c.y));
            assert_eq!(f2, back);
        }
    }
}
