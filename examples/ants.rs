//! The ant colonies of chapter 9, run headless: `cargo run --example ants [seed] [ticks]`.
//!
//! Prints the population every 250 ticks and the world at the end (`R`/`B` living ants, `r`/`b`
//! homes, `~` water, `x` poison, `*` food).

use tactica_engine::decide::ants::{AntConfig, AntState, AntWorld, COLS, Colony, ROWS, Tile};
use tactica_engine::world::WorldRng;

fn main() {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(42);
    let ticks: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(3000);
    let mut rng = WorldRng::new(seed);
    let mut world = AntWorld::new(AntConfig::default(), &mut rng);
    println!("ants: seed {seed}, {ticks} ticks, 32 × 42 world, 15 water, 8 poison, 20 food, pool of 200");
    println!(
        "{:>6} {:>5} {:>5} {:>7} {:>7} {:>7} {:>5}",
        "tick", "red", "black", "forage", "gohome", "thirsty", "dead"
    );
    for t in 0..=ticks {
        if t % 250 == 0 || t == ticks {
            let c = world.census();
            println!(
                "{t:>6} {:>5} {:>5} {:>7} {:>7} {:>7} {:>5}",
                c.red, c.black, c.by_state[0], c.by_state[1], c.by_state[2], c.by_state[3]
            );
        }
        if t < ticks {
            world.tick(&mut rng);
        }
    }
    for r in 0..ROWS {
        let line: String = (0..COLS)
            .map(|c| {
                let ant = world.ants.iter().find(|a| a.row == r && a.col == c && a.state != AntState::Dead);
                match (ant, world.tile(r, c)) {
                    (Some(a), _) if a.colony == Colony::Red => 'R',
                    (Some(_), _) => 'B',
                    (None, Tile::RedHome) => 'r',
                    (None, Tile::BlackHome) => 'b',
                    (None, Tile::Water) => '~',
                    (None, Tile::Poison) => 'x',
                    (None, Tile::Food) => '*',
                    (None, Tile::Ground) => '.',
                }
            })
            .collect();
        println!("{line}");
    }
    let c = world.census();
    println!(
        "summary: {} red and {} black ants alive, {} dead, {} slots used",
        c.red,
        c.black,
        c.by_state[3],
        world.ants.len()
    );
}
