//! Which open cells can reach which: the map's connected areas, labelled once per map edit.
//!
//! A diagonal step needs both cells beside it open, so it never joins cells that two straight
//! steps would not: the areas of the 8-connected walker are the 4-connected areas, found by one
//! breadth-first flood per area. Asking whether a goal is reachable is then one comparison, so
//! `BestCell` and the path calls can refuse a walled-off cell without searching the whole map.

use std::collections::VecDeque;

use glam::IVec2;

use crate::grid::Map;

/// An area label per cell (`NONE` for blocked cells), row-major.
#[derive(Debug, Clone, Default)]
pub struct Components {
    width: i32,
    height: i32,
    labels: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Components {
    /// Labels the open areas of `map`.
    pub fn of(map: &Map) -> Self {
        let (width, height) = (map.width() as i32, map.height() as i32);
        let mut labels = vec![NONE; map.costs().len()];
        let mut next = 0u32;
        let mut queue = VecDeque::new();
        let index = |c: IVec2| (c.y * width + c.x) as usize;
        for y in 0..height {
            for x in 0..width {
                let start = IVec2::new(x, y);
                if labels[index(start)] != NONE || !map.passable(start) {
                    continue;
                }
                labels[index(start)] = next;
                queue.push_back(start);
                while let Some(c) = queue.pop_front() {
                    for d in [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y] {
                        let n = c + d;
                        if map.passable(n) && labels[index(n)] == NONE {
                            labels[index(n)] = next;
                            queue.push_back(n);
                        }
                    }
                }
                next += 1;
            }
        }
        Components { width, height, labels }
    }

    /// The area of an open cell (`None` for blocked or off-map cells).
    pub fn area(&self, c: IVec2) -> Option<u32> {
        if c.x < 0 || c.y < 0 || c.x >= self.width || c.y >= self.height {
            return None;
        }
        Some(self.labels[(c.y * self.width + c.x) as usize]).filter(|&l| l != NONE)
    }

    /// Whether a walker in `from` can reach `to`.
    pub fn connected(&self, from: IVec2, to: IVec2) -> bool {
        self.area(from).is_some_and(|a| self.area(to) == Some(a))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::AStar;
    use proptest::prelude::*;

    proptest! {
        /// Connected exactly when A* (8-connected, no corner cutting) finds a path.
        #[test]
        fn connected_means_a_path_exists(walls in proptest::collection::vec(any::<bool>(), 64), a in 0i32..64, b in 0i32..64) {
            let mut map = Map::open(8, 8);
            for (i, &w) in walls.iter().enumerate() {
                if w && i % 3 == 0 {
                    map.set(IVec2::new(i as i32 % 8, i as i32 / 8), b'#', f32::INFINITY);
                }
            }
            let (a, b) = (IVec2::new(a % 8, a / 8), IVec2::new(b % 8, b / 8));
            let comps = Components::of(&map);
            let found = AStar::new().find(&map, a, b, &mut Vec::new()).is_ok();
            prop_assert_eq!(comps.connected(a, b), found);
        }
    }
}
