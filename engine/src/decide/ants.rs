//! The two-colony ant simulation of chapter 9 (Ex. 9-6 … 9-20): red and black ants forage for
//! food, carry it home (where each delivery spawns an ant), then look for water; poison kills.
//!
//! Each ant is a four-state machine (forage, go home, thirsty, dead) whose transitions are
//! triggered by the tile it steps on — the chapter's `switch` over per-state functions.
//!
//! Fixes to the printed code: `Rnd(a, b)` is inclusive; initial placement and replacements pick
//! a random *ground* tile inside the border ring, so nothing lands out of bounds (the book's
//! `Rnd(2,kMaxRows)-3` can give −1) or on a home, and the resource counts are exact and
//! conserved. A replacement gives up after a bounded number of draws and then takes the first
//! ground tile, so it cannot spin forever on a full board.

use serde::{Deserialize, Serialize};

use crate::decide::learn::rnd;
use crate::world::WorldRng;

/// Rows of the world (`kMaxRows`).
pub const ROWS: i32 = 32;
/// Columns of the world (`kMaxCols`).
pub const COLS: i32 = 42;

/// A tile (Ex. 9-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tile {
    /// Plain ground.
    Ground,
    /// Water: quenches a thirsty ant.
    Water,
    /// The black colony's home.
    BlackHome,
    /// The red colony's home.
    RedHome,
    /// Poison: kills.
    Poison,
    /// Food: sends a foraging ant home.
    Food,
}

/// A colony (Ex. 9-8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Colony {
    /// Red ants, home at (5, 5).
    Red,
    /// Black ants, home at (5, 36).
    Black,
}

impl Colony {
    /// The home tile (row, column) (Ex. 9-11).
    pub fn home(self) -> (i32, i32) {
        match self {
            Colony::Red => (5, 5),
            Colony::Black => (5, 36),
        }
    }
}

/// An ant's state (Ex. 9-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum AntState {
    /// Wandering in search of food.
    Forage,
    /// Carrying food home.
    GoHome,
    /// Looking for water.
    Thirsty,
    /// Dead; its slot is never reused.
    Dead,
}

/// One ant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ant {
    /// Its colony.
    pub colony: Colony,
    /// Its state.
    pub state: AntState,
    /// Row.
    pub row: i32,
    /// Column.
    pub col: i32,
}

/// The tunable constants (Ex. 9-7, 9-20).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AntConfig {
    /// Water tiles (`kMaxWater`).
    pub water: usize,
    /// Poison tiles (`kMaxPoison`).
    pub poison: usize,
    /// Food tiles (`kMaxFood`).
    pub food: usize,
    /// The size of the ant pool, dead ants included (`kMaxEntities`).
    pub max_ants: usize,
}

impl Default for AntConfig {
    fn default() -> Self {
        AntConfig { water: 15, poison: 8, food: 20, max_ants: 200 }
    }
}

/// The world: tiles and ants.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AntWorld {
    tiles: Vec<Tile>,
    /// The ants in slot order; new ants are appended (and act in the tick they are born, as in
    /// the book's loop).
    pub ants: Vec<Ant>,
    /// The constants.
    pub config: AntConfig,
    /// Ticks run.
    pub ticks: u64,
}

/// Counts for a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AntCensus {
    /// Living red ants.
    pub red: usize,
    /// Living black ants.
    pub black: usize,
    /// Ants per state: forage, go home, thirsty, dead.
    pub by_state: [usize; 4],
    /// Tiles of water, poison and food.
    pub water: usize,
    /// Poison tiles.
    pub poison: usize,
    /// Food tiles.
    pub food: usize,
}

impl AntWorld {
    /// `InitializeWorld` and the four starting ants (Ex. 9-11, 9-14).
    pub fn new(config: AntConfig, rng: &mut WorldRng) -> Self {
        let mut w = AntWorld { tiles: vec![Tile::Ground; (ROWS * COLS) as usize], ants: Vec::new(), config, ticks: 0 };
        w.set_tile(5, 5, Tile::RedHome);
        w.set_tile(5, 36, Tile::BlackHome);
        for (tile, n) in [(Tile::Water, config.water), (Tile::Poison, config.poison), (Tile::Food, config.food)] {
            for _ in 0..n {
                w.place(tile, rng);
            }
        }
        for (colony, row, col) in
            [(Colony::Red, 5, 5), (Colony::Red, 8, 5), (Colony::Black, 5, 36), (Colony::Black, 8, 36)]
        {
            w.spawn(colony, row, col);
        }
        w
    }

    /// A world of plain ground with the two homes and no ants (for experiments and tests).
    pub fn empty(config: AntConfig) -> Self {
        let mut w = AntWorld { tiles: vec![Tile::Ground; (ROWS * COLS) as usize], ants: Vec::new(), config, ticks: 0 };
        w.set_tile(5, 5, Tile::RedHome);
        w.set_tile(5, 36, Tile::BlackHome);
        w
    }

    /// The tile at (row, col); ground outside the world.
    pub fn tile(&self, row: i32, col: i32) -> Tile {
        if (0..ROWS).contains(&row) && (0..COLS).contains(&col) {
            self.tiles[(row * COLS + col) as usize]
        } else {
            Tile::Ground
        }
    }

    /// Sets a tile; outside the world it does nothing.
    pub fn set_tile(&mut self, row: i32, col: i32, tile: Tile) {
        if (0..ROWS).contains(&row) && (0..COLS).contains(&col) {
            self.tiles[(row * COLS + col) as usize] = tile;
        }
    }

    /// Adds a foraging ant if the pool has room (`New`).
    pub fn spawn(&mut self, colony: Colony, row: i32, col: i32) -> bool {
        if self.ants.len() >= self.config.max_ants {
            return false;
        }
        self.ants.push(Ant { colony, state: AntState::Forage, row, col });
        true
    }

    /// Puts `tile` on a random ground tile inside the border ring.
    fn place(&mut self, tile: Tile, rng: &mut WorldRng) {
        for _ in 0..1000 {
            let (r, c) = (rnd(rng, 1, ROWS - 2), rnd(rng, 1, COLS - 2));
            if self.tile(r, c) == Tile::Ground {
                self.set_tile(r, c, tile);
                return;
            }
        }
        if let Some(i) = (0..self.tiles.len()).find(|&i| {
            let (r, c) = (i as i32 / COLS, i as i32 % COLS);
            (1..ROWS - 1).contains(&r) && (1..COLS - 1).contains(&c) && self.tiles[i] == Tile::Ground
        }) {
            self.tiles[i] = tile;
        }
    }

    /// One tick: every ant, in slot order, runs its state's behaviour (Ex. 9-15).
    pub fn tick(&mut self, rng: &mut WorldRng) {
        let mut i = 0;
        while i < self.ants.len() {
            match self.ants[i].state {
                AntState::Forage => self.forage(i, rng),
                AntState::GoHome => self.go_home(i, rng),
                AntState::Thirsty => self.thirsty(i, rng),
                AntState::Dead => {}
            }
            i += 1;
        }
        self.ticks += 1;
    }

    /// A random step in one of 8 directions or none, if it stays off the border ring.
    fn random_step(&self, i: usize, rng: &mut WorldRng) -> Option<(i32, i32)> {
        let a = self.ants[i];
        let (r, c) = (a.row + rnd(rng, 0, 2) - 1, a.col + rnd(rng, 0, 2) - 1);
        in_bounds(r, c).then_some((r, c))
    }

    /// Steps onto poison: the tile clears, the poison moves elsewhere, the ant dies.
    fn poisoned(&mut self, i: usize, r: i32, c: i32, rng: &mut WorldRng) {
        self.move_ant(i, r, c);
        self.set_tile(r, c, Tile::Ground);
        self.ants[i].state = AntState::Dead;
        self.place(Tile::Poison, rng);
    }

    fn move_ant(&mut self, i: usize, r: i32, c: i32) {
        self.ants[i].row = r;
        self.ants[i].col = c;
    }

    /// `Forage` (Ex. 9-17).
    fn forage(&mut self, i: usize, rng: &mut WorldRng) {
        let Some((r, c)) = self.random_step(i, rng) else { return };
        match self.tile(r, c) {
            Tile::Ground | Tile::Water => self.move_ant(i, r, c),
            Tile::Food => {
                self.move_ant(i, r, c);
                self.set_tile(r, c, Tile::Ground);
                self.ants[i].state = AntState::GoHome;
                self.place(Tile::Food, rng);
            }
            Tile::Poison => self.poisoned(i, r, c, rng),
            Tile::RedHome | Tile::BlackHome => {}
        }
    }

    /// `GoHome` (Ex. 9-18): the simple chase toward home; food and water are walked over.
    fn go_home(&mut self, i: usize, rng: &mut WorldRng) {
        let a = self.ants[i];
        let (hr, hc) = a.colony.home();
        let (r, c) = (a.row + (hr - a.row).signum(), a.col + (hc - a.col).signum());
        if !in_bounds(r, c) {
            return;
        }
        if self.tile(r, c) == Tile::Poison {
            self.poisoned(i, r, c, rng);
        } else if (r, c) == (hr, hc) {
            self.move_ant(i, r, c);
            self.ants[i].state = AntState::Thirsty;
            self.spawn(a.colony, hr, hc);
        } else {
            self.move_ant(i, r, c);
        }
    }

    /// `Thirsty` (Ex. 9-19).
    fn thirsty(&mut self, i: usize, rng: &mut WorldRng) {
        let Some((r, c)) = self.random_step(i, rng) else { return };
        match self.tile(r, c) {
            Tile::Ground | Tile::Food => self.move_ant(i, r, c),
            Tile::Water => {
                self.move_ant(i, r, c);
                self.set_tile(r, c, Tile::Ground);
                self.ants[i].state = AntState::Forage;
                self.place(Tile::Water, rng);
            }
            Tile::Poison => self.poisoned(i, r, c, rng),
            Tile::RedHome | Tile::BlackHome => {}
        }
    }

    /// Counts ants and resources.
    pub fn census(&self) -> AntCensus {
        let mut c = AntCensus::default();
        for a in &self.ants {
            c.by_state[a.state as usize] += 1;
            if a.state != AntState::Dead {
                match a.colony {
                    Colony::Red => c.red += 1,
                    Colony::Black => c.black += 1,
                }
            }
        }
        for t in &self.tiles {
            match t {
                Tile::Water => c.water += 1,
                Tile::Poison => c.poison += 1,
                Tile::Food => c.food += 1,
                _ => {}
            }
        }
        c
    }
}

/// Legal positions: rows 1..=30 and columns 1..=40 (the border ring is never entered).
fn in_bounds(r: i32, c: i32) -> bool {
    r >= 1 && c >= 1 && r < ROWS - 1 && c < COLS - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_up_follows_the_chapter() {
        let w = AntWorld::new(AntConfig::default(), &mut WorldRng::new(9));
        assert_eq!(w.tile(5, 5), Tile::RedHome);
        assert_eq!(w.tile(5, 36), Tile::BlackHome);
        let c = w.census();
        assert_eq!((c.water, c.poison, c.food), (15, 8, 20));
        assert_eq!((c.red, c.black), (2, 2));
        assert_eq!(w.ants[1], Ant { colony: Colony::Red, state: AntState::Forage, row: 8, col: 5 });
    }

    #[test]
    fn go_home_is_a_simple_chase() {
        let mut w = AntWorld::empty(AntConfig::default());
        w.ants.push(Ant { colony: Colony::Red, state: AntState::GoHome, row: 10, col: 12 });
        w.ants.push(Ant { colony: Colony::Black, state: AntState::GoHome, row: 5, col: 30 });
        w.set_tile(9, 11, Tile::Food); // walked over, not eaten
        w.tick(&mut WorldRng::new(1));
        assert_eq!((w.ants[0].row, w.ants[0].col), (9, 11));
        assert_eq!((w.ants[1].row, w.ants[1].col), (5, 31));
        assert_eq!(w.tile(9, 11), Tile::Food);
    }

    #[test]
    fn arriving_home_turns_thirsty_and_spawns_an_ant() {
        let mut w = AntWorld::empty(AntConfig::default());
        w.ants.push(Ant { colony: Colony::Red, state: AntState::GoHome, row: 6, col: 6 });
        w.tick(&mut WorldRng::new(2));
        assert_eq!(w.ants[0].state, AntState::Thirsty);
        assert_eq!((w.ants[0].row, w.ants[0].col), (5, 5));
        assert_eq!(w.ants.len(), 2);
        assert_eq!(w.ants[1].colony, Colony::Red);
        assert_eq!(w.ants[1].state, AntState::Forage);
    }

    #[test]
    fn tiles_trigger_transitions() {
        // Surround each ant with one kind of tile so that any step lands on it.
        let cases = [
            (AntState::Forage, Tile::Food, AntState::GoHome),
            (AntState::Forage, Tile::Poison, AntState::Dead),
            (AntState::Forage, Tile::Water, AntState::Forage),
            (AntState::Thirsty, Tile::Water, AntState::Forage),
            (AntState::Thirsty, Tile::Food, AntState::Thirsty),
            (AntState::Thirsty, Tile::Poison, AntState::Dead),
            (AntState::GoHome, Tile::Poison, AntState::Dead),
        ];
        for (seed, (from, tile, to)) in cases.into_iter().enumerate() {
            let mut w = AntWorld::empty(AntConfig::default());
            for r in 14..=16 {
                for c in 19..=21 {
                    w.set_tile(r, c, tile);
                }
            }
            w.ants.push(Ant { colony: Colony::Black, state: from, row: 15, col: 20 });
            let before = w.census();
            w.tick(&mut WorldRng::new(seed as u64));
            assert_eq!(w.ants[0].state, to, "{from:?} on {tile:?}");
            let after = w.census();
            assert_eq!(
                (before.water, before.poison, before.food),
                (after.water, after.poison, after.food),
                "{tile:?} conserved"
            );
        }
    }

    #[test]
    fn border_steps_are_refused() {
        let mut w = AntWorld::empty(AntConfig::default());
        w.ants.push(Ant { colony: Colony::Red, state: AntState::Forage, row: 1, col: 1 });
        let mut rng = WorldRng::new(4);
        for _ in 0..200 {
            w.tick(&mut rng);
            assert!(in_bounds(w.ants[0].row, w.ants[0].col));
        }
    }

    #[test]
    fn colonies_grow_resources_are_conserved_and_runs_replay() {
        for seed in [1, 2, 3] {
            let mut rng = WorldRng::new(seed);
            let mut w = AntWorld::new(AntConfig::default(), &mut rng);
            let mut replay = w.clone();
            let mut rng2 = rng.clone();
            for _ in 0..3000 {
                w.tick(&mut rng);
                let c = w.census();
                assert_eq!((c.water, c.poison, c.food), (15, 8, 20));
                assert!(w.ants.len() <= 200);
                assert!(w.ants.iter().all(|a| in_bounds(a.row, a.col) || (a.row, a.col) == a.colony.home()));
            }
            for _ in 0..3000 {
                replay.tick(&mut rng2);
            }
            assert_eq!(w, replay);
            let c = w.census();
            assert!(w.ants.len() > 20, "seed {seed}: {} ants", w.ants.len());
            assert_eq!(c.red + c.black + c.by_state[3], w.ants.len());
        }
    }
}
