//! A world built from the game's own data — rows of characters as the game draws its level, or
//! one [`Tile`] per cell from the game's own tile type — with its doors and places, and no file:
//! a game that already holds its level in memory has no path to give.
//!
//! ```
//! use tactica_engine::world::{Entity, WorldBuilder};
//! use glam::IVec2;
//!
//! let mut world = WorldBuilder::from_rows([
//!     "#########",
//!     "#...#..W#",
//!     "#...|...#",
//!     "#########",
//! ])
//! .door('|', "gate", false) // every `|` is a cell of the door `gate`, shut
//! .place('W', "well")       // `W` is open ground with a place named `well` on it
//! .tick_rate(10)
//! .seed(7)
//! .build()
//! .unwrap();
//! assert!(!world.map().passable(IVec2::new(4, 2)), "the gate is shut");
//! world.set_door("gate", true);
//! assert!(world.map().passable(IVec2::new(4, 2)));
//! assert_eq!(world.place("well").map(|p| p.floor().as_ivec2()), Some(IVec2::new(7, 1)));
//! world.spawn(Entity::new("troll", "Troll", IVec2::new(1, 1))).unwrap();
//! ```

use std::collections::BTreeMap;

use glam::{IVec2, Vec2};

use super::World;
use crate::grid::{MAX_CELLS, Map, TerrainCosts};

/// What one cell of a world built from the game's data is.
#[derive(Debug, Clone, PartialEq)]
pub enum Tile {
    /// Open ground costing 1.
    Open,
    /// Open ground costing this much to enter (swamp 5, road 1; below 1 counts as 1, so the
    /// searches' distance estimate stays exact; infinite is a wall).
    Cost(f32),
    /// A wall.
    Wall,
    /// A cell of the named door, open or shut at first (cells of one name form one door, opened
    /// and shut together by `World::set_door`, `OpenDoor`, the timeline).
    Door {
        /// The door's name.
        name: String,
        /// Whether it starts open.
        open: bool,
    },
    /// Open ground with the named place at its centre (`MoveTo("well")`); each name once.
    Place(String),
}

impl Tile {
    /// A cell of the door `name`.
    pub fn door(name: impl Into<String>, open: bool) -> Tile {
        Tile::Door { name: name.into(), open }
    }

    /// Open ground with the place `name` on it.
    pub fn place(name: impl Into<String>) -> Tile {
        Tile::Place(name.into())
    }
}

/// Why a world could not be built from the game's data. Rows and columns count from 1, as an
/// editor shows them; cells are `(x, y)` from 0, as the world uses them.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildError {
    /// No rows, or no cells.
    #[error("the world has no cells: give at least one row of at least one character")]
    Empty,
    /// A row of another width than the first.
    #[error("row {row} is {found} characters wide, but the first row is {expected}: every row must be as wide")]
    Ragged {
        /// The row (from 1).
        row: usize,
        /// The first row's width.
        expected: usize,
        /// This row's.
        found: usize,
    },
    /// A character the legend does not know.
    #[error(
        "row {row}, column {column}: `{tile}` means nothing yet; give it a meaning with `.terrain`, `.door` or `.place` \
         (known without: `.` and space open, `\"` grass 3, `~` swamp 5, `1`–`9` that cost, `#` `@` `O` `T` `W` walls)"
    )]
    UnknownTile {
        /// The row (from 1).
        row: usize,
        /// The column (from 1, in characters).
        column: usize,
        /// The character.
        tile: char,
    },
    /// More cells than any map may have.
    #[error("{width} × {height} cells is more than the {MAX_CELLS} a map may have")]
    TooLarge {
        /// Width.
        width: u64,
        /// Height.
        height: u64,
    },
    /// Cells given for a grid of another size.
    #[error("{found} cells were given for a {width} × {height} grid, which has {expected}")]
    CellCount {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// `width × height`.
        expected: u64,
        /// How many came (counting stops one past `expected`).
        found: u64,
    },
    /// One place marked on two cells.
    #[error("the place `{name}` is marked at ({}, {}) and again at ({}, {}): a place is one cell", first.x, first.y, second.x, second.y)]
    PlaceTwice {
        /// The place.
        name: String,
        /// Where it was marked first.
        first: IVec2,
        /// Where again.
        second: IVec2,
    },
    /// Cells of one door that start in different states.
    #[error("the door `{name}` starts open at some cells and shut at others: give all its cells one state")]
    DoorState {
        /// The door.
        name: String,
    },
    /// A cost that is not a number.
    #[error("the cell ({}, {}) costs NaN: a cost is a number of 1 or more (or infinite, a wall)", cell.x, cell.y)]
    BadCost {
        /// The cell.
        cell: IVec2,
    },
}

/// Builds a [`World`] from rows or cells; see the module docs.
#[derive(Debug, Clone)]
pub struct WorldBuilder {
    source: Source,
    legend: TerrainCosts,
    doors: BTreeMap<char, (String, bool)>,
    places: BTreeMap<char, String>,
    tick_rate: u32,
    seed: u64,
}

#[derive(Debug, Clone)]
enum Source {
    /// Read at `build`, with the legend given by then.
    Rows(Vec<String>),
    /// Laid as they came: cells carry their own meaning.
    Cells(Result<Layout, BuildError>),
}

/// The map as it is laid cell by cell, and the doors and places met on the way.
#[derive(Debug, Clone)]
struct Layout {
    map: Map,
    doors: BTreeMap<String, (Vec<IVec2>, bool)>,
    places: BTreeMap<String, IVec2>,
}

impl Layout {
    /// A grid of `width × height` open cells, checked for size.
    fn new(width: u32, height: u32) -> Result<Layout, BuildError> {
        let n = u64::from(width) * u64::from(height);
        if n > MAX_CELLS {
            return Err(BuildError::TooLarge { width: u64::from(width), height: u64::from(height) });
        }
        if n == 0 {
            return Err(BuildError::Empty);
        }
        Ok(Layout { map: Map::open(width, height), doors: BTreeMap::new(), places: BTreeMap::new() })
    }

    /// Lays `tile` at the cell of index `i`.
    fn lay(&mut self, i: usize, tile: Tile) -> Result<(), BuildError> {
        let cell = self.map.cell_at(i);
        match tile {
            Tile::Open => {}
            Tile::Cost(c) if c.is_nan() => return Err(BuildError::BadCost { cell }),
            Tile::Cost(c) if c.is_infinite() => {
                self.map.set(cell, b'#', f32::INFINITY);
            }
            Tile::Cost(c) => {
                let c = c.max(1.0);
                self.map.set(cell, cost_tile(c), c);
            }
            Tile::Wall => {
                self.map.set(cell, b'#', f32::INFINITY);
            }
            Tile::Door { name, open } => {
                let entry = self.doors.entry(name.clone()).or_insert_with(|| (Vec::new(), open));
                if entry.1 != open {
                    return Err(BuildError::DoorState { name });
                }
                entry.0.push(cell);
            }
            Tile::Place(name) => {
                if let Some(&first) = self.places.get(&name) {
                    return Err(BuildError::PlaceTwice { name, first, second: cell });
                }
                self.places.insert(name, cell);
            }
        }
        Ok(())
    }
}

impl WorldBuilder {
    /// A world drawn as rows of characters, top row first (row 0 is `y = 0`): `.` and space
    /// open, `"` grass (3), `~` swamp (5), `1`–`9` that cost, `#` `@` `O` `T` `W` walls, and
    /// whatever [`WorldBuilder::terrain`], [`WorldBuilder::door`] and [`WorldBuilder::place`]
    /// give a meaning. 10 ticks a second and seed 0 unless set.
    pub fn from_rows<S: AsRef<str>>(rows: impl IntoIterator<Item = S>) -> WorldBuilder {
        let rows = rows.into_iter().map(|r| r.as_ref().to_owned()).collect();
        WorldBuilder::new(Source::Rows(rows))
    }

    /// A world of `width × height` cells from the game's own tiles, row-major (`(0, 0)`, `(1,
    /// 0)` …), each turned into a [`Tile`]:
    /// `WorldBuilder::from_cells(w, h, level.iter().map(|t| match t { … }))`.
    pub fn from_cells(width: u32, height: u32, cells: impl IntoIterator<Item = Tile>) -> WorldBuilder {
        WorldBuilder::new(Source::Cells(lay_cells(width, height, cells)))
    }

    fn new(source: Source) -> WorldBuilder {
        WorldBuilder {
            source,
            legend: TerrainCosts::ascii(),
            doors: BTreeMap::new(),
            places: BTreeMap::new(),
            tick_rate: 10,
            seed: 0,
        }
    }

    /// `tile` costs `cost` to enter (`None`: a wall) in rows.
    pub fn terrain(mut self, tile: char, cost: Option<f32>) -> Self {
        self.legend.set(tile, cost);
        self
    }

    /// Every `tile` in rows is a cell of the door `name`, open or shut at first.
    pub fn door(mut self, tile: char, name: impl Into<String>, open: bool) -> Self {
        self.doors.insert(tile, (name.into(), open));
        self
    }

    /// `tile` in rows is open ground with the place `name` on it (once in the rows).
    pub fn place(mut self, tile: char, name: impl Into<String>) -> Self {
        self.places.insert(tile, name.into());
        self
    }

    /// Ticks a second.
    pub fn tick_rate(mut self, rate: u32) -> Self {
        self.tick_rate = rate;
        self
    }

    /// The seed of the world's random generator.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The world, with its doors declared and its places named.
    pub fn build(self) -> Result<World, BuildError> {
        let Layout { map, doors, places } = match self.source {
            Source::Rows(ref rows) => self.read_rows(rows)?,
            Source::Cells(layout) => layout?,
        };
        let mut world = World::new(map, self.tick_rate, self.seed);
        for (name, (cells, open)) in doors {
            // Every cell was laid on this map, so none is off it.
            if let Err(e) = world.add_door(name.clone(), cells, open) {
                unreachable!("door `{name}` laid on the map: {e}");
            }
        }
        for (name, cell) in places {
            world.add_place(name, cell.as_vec2() + Vec2::splat(0.5));
        }
        Ok(world)
    }

    /// The rows, laid with the legend.
    fn read_rows(&self, rows: &[String]) -> Result<Layout, BuildError> {
        let Some(first) = rows.first() else { return Err(BuildError::Empty) };
        let width = first.chars().count();
        if (width as u64).saturating_mul(rows.len() as u64) > MAX_CELLS {
            return Err(BuildError::TooLarge { width: width as u64, height: rows.len() as u64 });
        }
        // Both fit a u32: their product is at most MAX_CELLS.
        let (w, h) = (u32::try_from(width).unwrap_or(u32::MAX), u32::try_from(rows.len()).unwrap_or(u32::MAX));
        let mut layout = Layout::new(w, h)?;
        for (r, row) in rows.iter().enumerate() {
            let found = row.chars().count();
            if found != width {
                return Err(BuildError::Ragged { row: r + 1, expected: width, found });
            }
            for (c, ch) in row.chars().enumerate() {
                let tile = if let Some((name, open)) = self.doors.get(&ch) {
                    Tile::door(name.clone(), *open)
                } else if let Some(name) = self.places.get(&ch) {
                    Tile::place(name.clone())
                } else {
                    match ch.is_ascii().then(|| self.legend.get(ch as u8)).flatten() {
                        Some(Some(cost)) if cost <= 1.0 => Tile::Open,
                        Some(Some(cost)) => Tile::Cost(cost),
                        Some(None) => Tile::Wall,
                        None => return Err(BuildError::UnknownTile { row: r + 1, column: c + 1, tile: ch }),
                    }
                };
                layout.lay(r * width + c, tile)?;
            }
        }
        Ok(layout)
    }
}

/// Lays `cells` on a `width × height` grid as they come (never more than it holds, whatever the
/// iterator yields).
fn lay_cells(width: u32, height: u32, cells: impl IntoIterator<Item = Tile>) -> Result<Layout, BuildError> {
    let mut layout = Layout::new(width, height)?;
    let expected = layout.map.len();
    let mut found = 0usize;
    for tile in cells {
        if found == expected {
            return Err(BuildError::CellCount { width, height, expected: expected as u64, found: expected as u64 + 1 });
        }
        layout.lay(found, tile)?;
        found += 1;
    }
    if found != expected {
        return Err(BuildError::CellCount { width, height, expected: expected as u64, found: found as u64 });
    }
    Ok(layout)
}

/// The tile character a cell of cost `c` is drawn with (`1`–`9` by cost, `~` dearer), so
/// `Map::to_ascii` and the renderers show it.
fn cost_tile(c: f32) -> u8 {
    if c <= 1.0 {
        b'.'
    } else if c < 9.5 {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "1 < c < 9.5")]
        let d = c.round() as u8;
        b'0' + d
    } else {
        b'~'
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_as_the_legend_says() {
        let world = WorldBuilder::from_rows(["#.~2", "\"|W@"])
            .door('|', "hatch", true)
            .place('W', "well")
            .terrain('@', Some(4.0))
            .build()
            .unwrap();
        let map = world.map();
        assert_eq!((map.width(), map.height()), (4, 2));
        let costs: Vec<Option<f32>> = (0..8).map(|i| map.cost(map.cell_at(i))).collect();
        assert_eq!(
            costs,
            [Some(f32::INFINITY), Some(1.0), Some(5.0), Some(2.0), Some(3.0), Some(1.0), Some(1.0), Some(4.0)]
        );
        assert_eq!(world.doors()["hatch"].cells, [IVec2::new(1, 1)]);
        assert!(world.doors()["hatch"].open);
        assert_eq!(world.place("well"), Some(Vec2::new(2.5, 1.5)));
        assert_eq!(world.clock().rate(), 10);
    }

    #[test]
    fn cells_from_the_games_own_tiles() {
        #[derive(Clone, Copy)]
        enum Mine {
            Floor,
            Rock,
            Mud,
            Gate,
            Shrine,
        }
        let level = [Mine::Rock, Mine::Floor, Mine::Mud, Mine::Gate, Mine::Gate, Mine::Shrine];
        let world = WorldBuilder::from_cells(
            3,
            2,
            level.iter().map(|t| match t {
                Mine::Floor => Tile::Open,
                Mine::Rock => Tile::Wall,
                Mine::Mud => Tile::Cost(4.0),
                Mine::Gate => Tile::door("gate", false),
                Mine::Shrine => Tile::place("shrine"),
            }),
        )
        .seed(3)
        .tick_rate(20)
        .build()
        .unwrap();
        assert_eq!(world.map().to_ascii(), "#.4\n##.\n");
        assert_eq!(world.doors()["gate"].cells, [IVec2::new(0, 1), IVec2::new(1, 1)]);
        assert_eq!(world.place("shrine"), Some(Vec2::new(2.5, 1.5)));
        assert_eq!(world.clock().rate(), 20);
    }

    #[test]
    fn every_mistake_is_named() {
        let err = |b: WorldBuilder| b.build().unwrap_err();
        assert_eq!(err(WorldBuilder::from_rows(Vec::<&str>::new())), BuildError::Empty);
        assert_eq!(err(WorldBuilder::from_rows([""])), BuildError::Empty);
        assert_eq!(err(WorldBuilder::from_rows(["...", ".."])), BuildError::Ragged { row: 2, expected: 3, found: 2 });
        let unknown = err(WorldBuilder::from_rows(["..", ".x"]));
        assert_eq!(unknown, BuildError::UnknownTile { row: 2, column: 2, tile: 'x' });
        assert!(unknown.to_string().starts_with("row 2, column 2: `x` means nothing yet"), "{unknown}");
        assert_eq!(
            err(WorldBuilder::from_rows(["W.W"]).place('W', "well")),
            BuildError::PlaceTwice { name: "well".into(), first: IVec2::new(0, 0), second: IVec2::new(2, 0) }
        );
        assert_eq!(
            err(WorldBuilder::from_cells(2, 1, [Tile::door("d", true), Tile::door("d", false)])),
            BuildError::DoorState { name: "d".into() }
        );
        assert_eq!(
            err(WorldBuilder::from_cells(2, 2, vec![Tile::Open; 3])),
            BuildError::CellCount { width: 2, height: 2, expected: 4, found: 3 }
        );
        assert_eq!(
            err(WorldBuilder::from_cells(1, 1, std::iter::repeat(Tile::Open))),
            BuildError::CellCount { width: 1, height: 1, expected: 1, found: 2 }
        );
        assert_eq!(
            err(WorldBuilder::from_cells(1 << 14, 1 << 14, std::iter::repeat(Tile::Open))),
            BuildError::TooLarge { width: 1 << 14, height: 1 << 14 }
        );
        assert_eq!(err(WorldBuilder::from_cells(0, 5, [])), BuildError::Empty);
        assert_eq!(
            err(WorldBuilder::from_cells(1, 1, [Tile::Cost(f32::NAN)])),
            BuildError::BadCost { cell: IVec2::ZERO }
        );
    }

    #[test]
    fn costs_below_one_count_as_one_and_infinite_is_a_wall() {
        let world = WorldBuilder::from_cells(3, 1, [Tile::Cost(0.2), Tile::Cost(f32::INFINITY), Tile::Cost(12.0)])
            .build()
            .unwrap();
        assert_eq!(world.map().to_ascii(), ".#~\n");
        assert_eq!(world.map().cost(IVec2::new(0, 0)), Some(1.0));
        assert_eq!(world.map().cost(IVec2::new(2, 0)), Some(12.0));
    }
}
