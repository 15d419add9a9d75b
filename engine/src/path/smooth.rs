//! Path smoothing by line of sight ("string pulling").
//!
//! A grid path zig-zags in 45° steps. Walking from the first cell, every cell that can still be
//! seen from the last kept corner is skipped; the corner moves on only when sight is lost. Sight
//! is the supercover line (the one the world's walker checks), so a smoothed segment never clips
//! a wall corner. On maps with terrain costs a shortcut must also not cross dearer ground than the
//! stretch of path it replaces, so smoothing never turns a road detour back into a swamp crossing.

use glam::IVec2;

use crate::grid::{Map, walk_supercover};

/// Writes the corners of `path` that must be kept (first and last included) into `out`
/// (cleared first). Paths of up to two cells come back unchanged.
pub fn smooth_path(map: &Map, path: &[IVec2], out: &mut Vec<IVec2>) {
    out.clear();
    let Some(&first) = path.first() else { return };
    out.push(first);
    let mut anchor = first;
    // The dearest cell cost on the stretch of path since the anchor.
    let mut dearest = map.cost(first).unwrap_or(f32::INFINITY);
    for i in 2..path.len() {
        dearest = dearest.max(map.cost(path[i - 1]).unwrap_or(f32::INFINITY));
        let limit = dearest.max(map.cost(path[i]).unwrap_or(f32::INFINITY));
        let clear = walk_supercover(anchor, path[i], |c| map.cost(c).is_some_and(|k| k.is_finite() && k <= limit));
        if !clear {
            anchor = path[i - 1];
            out.push(anchor);
            dearest = map.cost(anchor).unwrap_or(f32::INFINITY);
        }
    }
    if path.len() > 1 {
        out.push(path[path.len() - 1]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{TerrainCosts, line_of_sight, parse_ascii};
    use crate::path::AStar;
    use std::path::Path;

    fn map(text: &str) -> Map {
        parse_ascii(text.as_bytes(), Path::new("t"), &TerrainCosts::ascii()).unwrap()
    }

    fn smoothed(m: &Map, a: IVec2, b: IVec2) -> Vec<IVec2> {
        let mut cells = Vec::new();
        AStar::new().find(m, a, b, &mut cells).unwrap();
        let mut out = Vec::new();
        smooth_path(m, &cells, &mut out);
        out
    }

    #[test]
    fn an_open_field_becomes_one_segment() {
        let m = Map::open(10, 6);
        assert_eq!(smoothed(&m, IVec2::new(0, 0), IVec2::new(9, 4)), [IVec2::new(0, 0), IVec2::new(9, 4)]);
    }

    #[test]
    fn corners_are_kept_where_sight_ends() {
        let m = map("......\n.####.\n.#....\n.#....\n");
        let out = smoothed(&m, IVec2::new(2, 3), IVec2::new(0, 3));
        assert_eq!(out.first(), Some(&IVec2::new(2, 3)));
        assert_eq!(out.last(), Some(&IVec2::new(0, 3)));
        assert!(out.len() >= 4, "it must go round the wall: {out:?}");
        for w in out.windows(2) {
            assert!(line_of_sight(&m, w[0], w[1]), "{w:?}");
        }
    }

    #[test]
    fn shortcuts_never_cross_dearer_ground() {
        // The cheap way from (0,0) to (4,0) runs round the swamp; a straight shortcut would not.
        let m = map(".~~~.\n.~~~.\n.....\n");
        let out = smoothed(&m, IVec2::new(0, 0), IVec2::new(4, 0));
        // A* went (0,0) (0,1) (1,2) (2,2) (3,2) (4,1) (4,0); only (2,2) can go: every other
        // shortcut's line touches a swamp cell.
        let v = |x, y| IVec2::new(x, y);
        assert_eq!(out, [v(0, 0), v(0, 1), v(1, 2), v(3, 2), v(4, 1), v(4, 0)]);
        for w in out.windows(2).filter(|w| (w[1] - w[0]).abs().max_element() > 1) {
            assert!(walk_supercover(w[0], w[1], |c| m.cost(c) == Some(1.0)), "{w:?} crosses the swamp");
        }
        assert_eq!(smoothed(&m, IVec2::new(2, 2), IVec2::new(2, 2)), [IVec2::new(2, 2)]);
    }
}
