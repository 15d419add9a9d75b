//! Breadcrumb pathfinding (002b §2.4): the player drops an invisible crumb on every legal step; a
//! follower that finds a crumb beside it jumps onto it, scanning newest first, so it always follows
//! the trail *towards* the player; with no crumb in reach it wanders at random.
//!
//! Differences from the printed code, each on purpose: unset crumbs are `None` rather than
//! `(−1, −1)` (the book's marker traps a follower standing at (0, 0), 002b §7 P10); the player
//! is whoever calls [`Trail::step`], not a hard-coded `entityList[0]` (P8); and a random step into
//! a wall is not taken (the book's tile demo has no walls in the wandering code).

use glam::IVec2;

use crate::grid::Map;
use crate::world::WorldRng;

/// How many crumbs a trail keeps (the book's `kMaxTrailLength`).
pub const MAX_TRAIL_LENGTH: usize = 15;

/// The last [`MAX_TRAIL_LENGTH`] cells a player stepped onto, newest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Trail {
    crumbs: [Option<IVec2>; MAX_TRAIL_LENGTH],
}

impl Trail {
    /// An empty trail.
    pub fn new() -> Self {
        Trail::default()
    }

    /// The crumbs, newest first (`None` = not yet dropped).
    pub fn crumbs(&self) -> &[Option<IVec2>; MAX_TRAIL_LENGTH] {
        &self.crumbs
    }

    /// Drops a crumb at `cell`: every crumb moves one place older, the oldest is forgotten.
    pub fn drop_crumb(&mut self, cell: IVec2) {
        self.crumbs.copy_within(0..MAX_TRAIL_LENGTH - 1, 1);
        self.crumbs[0] = Some(cell);
    }

    /// The book's `KeyDown`: moves the player at `position` one step of `step` if that is a legal
    /// move (onto a passable cell of the map) and then drops a crumb where it arrived. Returns
    /// whether it moved; an illegal move neither moves nor drops a crumb.
    pub fn step(&mut self, map: &Map, position: &mut IVec2, step: IVec2) -> bool {
        let to = *position + step;
        if !map.passable(to) {
            return false;
        }
        *position = to;
        self.drop_crumb(to);
        true
    }

    /// The newest crumb within one step (the 3 × 3 block around `cell`, `cell` included).
    pub fn newest_near(&self, cell: IVec2) -> Option<IVec2> {
        self.crumbs.iter().flatten().copied().find(|c| (*c - cell).abs().max_element() <= 1)
    }
}

/// One step of a follower at `cell`: onto the newest crumb within reach, else a random step of
/// −1, 0 or +1 on each axis (row first, as the book draws them), kept on the map and out of walls.
pub fn follow_trail(trail: &Trail, map: &Map, cell: IVec2, rng: &mut WorldRng) -> IVec2 {
    if let Some(crumb) = trail.newest_near(cell) {
        return crumb;
    }
    let dy = rng.below(3) as i32 - 1;
    let dx = rng.below(3) as i32 - 1;
    let max = IVec2::new(map.width() as i32 - 1, map.height() as i32 - 1).max(IVec2::ZERO);
    let to = (cell + IVec2::new(dx, dy)).clamp(IVec2::ZERO, max);
    if map.passable(to) { to } else { cell }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The book's (row, col) as a cell.
    fn rc(r: i32, c: i32) -> IVec2 {
        IVec2::new(c, r)
    }

    #[test]
    fn crumbs_are_dropped_after_legal_moves_newest_first() {
        let map = Map::open(20, 20);
        let mut trail = Trail::new();
        let mut player = rc(5, 5);
        for _ in 0..3 {
            assert!(trail.step(&map, &mut player, IVec2::X));
        }
        // 002b §5.2: the start (5,5) is never recorded.
        assert_eq!(trail.crumbs()[..4], [Some(rc(5, 8)), Some(rc(5, 7)), Some(rc(5, 6)), None]);
        for _ in 0..13 {
            trail.step(&map, &mut player, IVec2::Y);
        }
        assert_eq!(trail.crumbs()[14], Some(rc(5, 7)), "after 16 moves the first one's cell is gone");
        assert!(!trail.crumbs().contains(&Some(rc(5, 6))));
        // At the top row, "up" neither moves nor drops a crumb.
        let mut top = rc(0, 3);
        let before = trail;
        assert!(!trail.step(&map, &mut top, -IVec2::Y));
        assert_eq!((top, trail), (rc(0, 3), before));
    }

    #[test]
    fn the_follower_takes_the_newest_crumb_in_reach() {
        // 002b §5.2: the player walked up, right, down, right, right from (3,3).
        let mut trail = Trail::new();
        for c in [rc(3, 3), rc(2, 3), rc(2, 4), rc(3, 4), rc(3, 5), rc(3, 6)] {
            trail.drop_crumb(c);
        }
        let map = Map::open(10, 10);
        let mut rng = WorldRng::new(1);
        // The troll stands on crumb 5 but crumb 2 (3,4) is the newest in reach.
        assert_eq!(follow_trail(&trail, &map, rc(3, 3), &mut rng), rc(3, 4));
        assert_eq!(follow_trail(&trail, &map, rc(3, 4), &mut rng), rc(3, 5));
        assert_eq!(follow_trail(&trail, &map, rc(4, 7), &mut rng), rc(3, 6));
    }

    #[test]
    fn with_no_crumb_in_reach_it_wanders_on_the_map() {
        let mut map = Map::open(4, 4);
        map.set(IVec2::new(1, 1), b'#', f32::INFINITY);
        let trail = Trail::new();
        let mut rng = WorldRng::new(7);
        let mut seen = std::collections::BTreeSet::new();
        // An empty trail does not trap a follower at (0,0) (the book's −1 marker would).
        for _ in 0..200 {
            let to = follow_trail(&trail, &map, IVec2::ZERO, &mut rng);
            assert!(map.passable(to) && to.max_element() <= 1, "{to}");
            seen.insert((to.x, to.y));
        }
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), [(0, 0), (0, 1), (1, 0)]);
        // The same seed wanders the same way.
        let walk = |seed| {
            let mut rng = WorldRng::new(seed);
            let mut at = IVec2::new(2, 2);
            (0..20)
                .map(|_| {
                    at = follow_trail(&trail, &map, at, &mut rng);
                    at
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(walk(3), walk(3));
    }
}
