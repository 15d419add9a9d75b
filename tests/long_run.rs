//! A game that runs a world for a million ticks while draining its events keeps its memory flat:
//! the resident size after 1,000,000 ticks is within a small margin of the size after 10,000.
//! (Linux: the resident size is read from `/proc/self/statm`; elsewhere the test says so and
//! returns.)

use glam::IVec2;
use tactica::runtime::Runtime;
use tactica_engine::grid::Map;
use tactica_engine::world::{Entity, World};

/// Resident memory in KiB.
fn resident_kib() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4)
}

const TAC: &str = "on think { Note(\"tick\", 1); if (Random(4) == 0) Say(\"Hm.\"); }\n";
const LUA: &str = "function on_think() state.n = (state.n or 0) + 1; note('n', state.n) end\n";
const RHAI: &str = "fn on_think() { this.n = if this.n == () { 1 } else { this.n + 1 }; note(\"n\", this.n); }\n";

#[test]
fn a_million_ticks_keep_memory_flat() {
    let ticks: u64 = std::env::var("TACTICA_LONG_RUN_TICKS").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let Some(_) = resident_kib() else {
        println!("no /proc/self/statm here: the resident-size check passed over");
        return;
    };
    let mut world = World::new(Map::open(16, 16), 10, 9);
    let ids: Vec<_> = ["a", "b", "c"]
        .iter()
        .enumerate()
        .map(|(i, n)| world.spawn(Entity::new(*n, "Npc", IVec2::new(2 + 3 * i as i32, 4))).unwrap())
        .collect();
    let mut rt = Runtime::from_world("long", world, tactica::languages());
    rt.attach_source(Some(ids[0]), "a.tac", TAC, 1).unwrap();
    rt.attach_source(Some(ids[1]), "b.lua", LUA, 1).unwrap();
    rt.attach_source(Some(ids[2]), "c.rhai", RHAI, 1).unwrap();
    rt.keep_events(Some(1_000));
    let mut drained = 0usize;
    let mut at_10k = 0;
    for t in 1..=ticks {
        rt.tick();
        drained += rt.drain_events().len();
        if t == 10_000 {
            at_10k = resident_kib().unwrap_or(0);
        }
    }
    let at_end = resident_kib().unwrap_or(0);
    println!("resident size: {at_10k} KiB at 10,000 ticks, {at_end} KiB at {ticks} ticks; {drained} events drained");
    assert!(drained as u64 >= 3 * ticks, "every think noted something");
    assert!(rt.world().log().events().len() <= 2_000);
    // Flat: growth under 2 MiB (allocator noise), where keeping every event would add hundreds.
    assert!(at_end <= at_10k + 2_048, "resident size grew from {at_10k} KiB to {at_end} KiB");
}
