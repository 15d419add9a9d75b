//! Walls for steered bodies: a move that would enter a blocked cell slides along the wall instead,
//! and the map's walls as circles a flock's feelers can see.

use glam::{IVec2, Vec2};

use super::super::obstacle::Circle;
use crate::grid::Map;

/// Where a body moving from `from` toward `to` ends up: `to` if the cell there is passable and the
/// move does not cut a wall's corner; else the move along x alone or y alone (sliding along the
/// wall), whichever is free and longer; else `from`. Steps are short (one tick), at most one cell
/// in each axis is crossed, so checking the end cell and the two side cells suffices.
pub fn slide(map: &Map, from: Vec2, to: Vec2) -> Vec2 {
    if !to.is_finite() {
        return from;
    }
    let free = |p: Vec2| {
        let (a, b) = (from.floor().as_ivec2(), p.floor().as_ivec2());
        map.passable(b)
            && (a.x == b.x || a.y == b.y || (map.passable(IVec2::new(b.x, a.y)) && map.passable(IVec2::new(a.x, b.y))))
    };
    if free(to) {
        return to;
    }
    let (along_x, along_y) = (Vec2::new(to.x, from.y), Vec2::new(from.x, to.y));
    let dx = (to.x - from.x).abs();
    let dy = (to.y - from.y).abs();
    let order = if dx >= dy { [along_x, along_y] } else { [along_y, along_x] };
    order.into_iter().find(|&p| free(p)).unwrap_or(from)
}

/// One circle per blocked cell that borders a passable one, plus the ring just outside the map:
/// what a feeler must see (interior wall cells are hidden behind the border ones). Radius: half a
/// cell; a flock's feeler clearance widens it.
pub fn wall_circles(map: &Map) -> Vec<Circle> {
    let (w, h) = (map.width() as i32, map.height() as i32);
    let mut out = Vec::new();
    for y in -1..=h {
        for x in -1..=w {
            let c = IVec2::new(x, y);
            if map.passable(c) {
                continue;
            }
            let borders_floor = [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y].iter().any(|&d| map.passable(c + d));
            if borders_floor {
                out.push(Circle { center: c.as_vec2() + Vec2::splat(0.5), radius: 0.5 });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn room() -> Map {
        // 5×4, a wall cell at (2, 1).
        let mut m = Map::open(5, 4);
        m.set(IVec2::new(2, 1), b'#', f32::INFINITY);
        m
    }

    #[test]
    fn a_blocked_move_slides_along_the_wall() {
        let m = room();
        // Into the wall cell diagonally: x alone would enter it too, y alone is free.
        assert_eq!(slide(&m, Vec2::new(1.8, 0.5), Vec2::new(2.2, 1.1)), Vec2::new(1.8, 1.1));
        // Straight into it: nowhere to go.
        assert_eq!(slide(&m, Vec2::new(1.8, 1.5), Vec2::new(2.2, 1.5)), Vec2::new(2.2, 1.5).with_x(1.8));
        // Free moves are untouched; off the map is a wall.
        assert_eq!(slide(&m, Vec2::new(0.5, 0.5), Vec2::new(0.9, 0.7)), Vec2::new(0.9, 0.7));
        assert_eq!(slide(&m, Vec2::new(0.2, 0.5), Vec2::new(-0.1, 0.5)), Vec2::new(0.2, 0.5));
        assert_eq!(slide(&m, Vec2::new(0.2, 0.5), Vec2::NAN), Vec2::new(0.2, 0.5));
    }

    #[test]
    fn walls_are_border_circles() {
        let m = room();
        let circles = wall_circles(&m);
        // The 7×6 ring around the map minus its 4 corners (they touch no floor), plus the wall cell.
        assert_eq!(circles.len(), 2 * 5 + 2 * 4 + 1);
        assert!(circles.iter().any(|c| c.center == Vec2::new(2.5, 1.5)));
        assert!(!circles.iter().any(|c| c.center == Vec2::new(-0.5, -0.5)));
    }
}
