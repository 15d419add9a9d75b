//! Wall tracing with the left-hand rule (002b §2.6, Example 6-12): an exploration mover for maps
//! of small rooms. Each step it tries to go to its own left, else forward, else right, else back,
//! and then faces the way it moved. It usually enters every room; it is not guaranteed to (and in
//! open ground it circles), as the book says.
//!
//! The printed code tests `terrain[r-1][c]` for the "right" move of facing 4 although it moves
//! `row++` (002b §7 P15); the intended test, `terrain[r+1][c]`, is used here. Off-map cells count
//! as walls (the book relies on a walled border and has no bounds checks, P16).

use glam::IVec2;

use crate::grid::Map;

/// The four facings, with the book's direction numbers (002b §2.5: 2 up, 4 right, 6 down,
/// 8 left; rows grow downwards).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facing {
    /// 2: towards row − 1.
    Up = 2,
    /// 4: towards column + 1.
    Right = 4,
    /// 6: towards row + 1.
    Down = 6,
    /// 8: towards column − 1.
    Left = 8,
}

impl Facing {
    /// The step this facing moves by.
    pub fn step(self) -> IVec2 {
        match self {
            Facing::Up => IVec2::new(0, -1),
            Facing::Right => IVec2::new(1, 0),
            Facing::Down => IVec2::new(0, 1),
            Facing::Left => IVec2::new(-1, 0),
        }
    }

    /// The facing a quarter turn to the left (anticlockwise on screen).
    pub fn left(self) -> Facing {
        match self {
            Facing::Up => Facing::Left,
            Facing::Left => Facing::Down,
            Facing::Down => Facing::Right,
            Facing::Right => Facing::Up,
        }
    }

    /// The facing a quarter turn to the right.
    pub fn right(self) -> Facing {
        self.left().left().left()
    }

    /// The opposite facing.
    pub fn back(self) -> Facing {
        self.left().left()
    }
}

/// A mover that follows walls with its left hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WallTracer {
    /// Where it stands.
    pub cell: IVec2,
    /// Which way it faces.
    pub facing: Facing,
}

impl WallTracer {
    /// A tracer at `cell` facing right, as the book starts its troll.
    pub fn new(cell: IVec2) -> Self {
        WallTracer { cell, facing: Facing::Right }
    }

    /// One step: left, else forward, else right, else back — the first that is passable. Returns
    /// the new cell, or `None` (and stays) when walled in on all four sides.
    pub fn step(&mut self, map: &Map) -> Option<IVec2> {
        let f = self.facing;
        let dir = [f.left(), f, f.right(), f.back()].into_iter().find(|d| map.passable(self.cell + d.step()))?;
        self.cell += dir.step();
        self.facing = dir;
        Some(self.cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{TerrainCosts, parse_ascii};
    use std::path::Path;

    fn map(text: &str) -> Map {
        parse_ascii(text.as_bytes(), Path::new("t"), &TerrainCosts::ascii()).unwrap()
    }

    #[test]
    fn the_transition_table_is_the_books() {
        // Around (1,1) of a 3×3 room, open only where each case says; facing → expected move.
        // Each row: facing, the open neighbours, the facing it should move to.
        use Facing::*;
        let cases = [
            (Right, vec![Up, Right, Down, Left], Up),
            (Right, vec![Right, Down, Left], Right),
            (Right, vec![Down, Left], Down), // the book's misprinted branch (P15)
            (Right, vec![Left], Left),
            (Down, vec![Right, Down], Right),
            (Down, vec![Down, Left, Up], Down),
            (Down, vec![Left, Up], Left),
            (Down, vec![Up], Up),
            (Left, vec![Down, Left], Down),
            (Left, vec![Left, Up], Left),
            (Left, vec![Up, Right], Up),
            (Left, vec![Right], Right),
            (Up, vec![Left, Up], Left),
            (Up, vec![Up, Right], Up),
            (Up, vec![Right, Down], Right),
            (Up, vec![Down], Down),
        ];
        for (facing, open, expected) in cases {
            let mut m = Map::open(3, 3);
            for d in [Up, Right, Down, Left] {
                if !open.contains(&d) {
                    m.set(IVec2::ONE + d.step(), b'#', f32::INFINITY);
                }
            }
            let mut t = WallTracer { cell: IVec2::ONE, facing };
            assert_eq!(t.step(&m), Some(IVec2::ONE + expected.step()), "{facing:?} with {open:?}");
            assert_eq!(t.facing, expected);
        }
        assert_eq!(Facing::Up as u8, 2);
        assert_eq!(Facing::Left as u8, 8);
    }

    #[test]
    fn it_explores_from_room_to_room() {
        let m = map("#########\n#...#...#\n#.......#\n#...#...#\n#########\n");
        let mut t = WallTracer::new(IVec2::new(1, 1));
        let cells: Vec<IVec2> = (0..60).filter_map(|_| t.step(&m)).collect();
        assert_eq!(&cells[..3], &[IVec2::new(2, 1), IVec2::new(3, 1), IVec2::new(3, 2)]);
        let first_east = cells.iter().position(|c| c.x > 4).expect("enters the east room");
        let back_west = cells[first_east..].iter().position(|c| c.x < 4).expect("and comes back");
        assert!(back_west > 0);
    }

    #[test]
    fn in_open_ground_it_circles_and_walled_in_it_stays() {
        let m = Map::open(7, 7);
        let mut t = WallTracer::new(IVec2::new(3, 3));
        let cells: Vec<IVec2> = (0..8).filter_map(|_| t.step(&m)).collect();
        assert_eq!(cells[..4], cells[4..], "left, left, left, left: a 2×2 loop");
        let m = map("###\n#.#\n###\n");
        let mut t = WallTracer::new(IVec2::ONE);
        assert_eq!(t.step(&m), None);
        assert_eq!(t.cell, IVec2::ONE);
    }
}
