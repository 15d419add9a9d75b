//! The same scenario and seed give a byte-identical trace, run after run; another seed gives
//! another trace when something random happens.

use std::path::Path;

use tactica::runtime::Runtime;
use tactica::scenario;
use tactica_engine::coord::Action;
use tactica_engine::world::Command;

fn play(path: &Path, seed: Option<u64>, ticks: u64) -> String {
    let mut s = scenario::load(path).expect("scenario loads");
    if let Some(seed) = seed {
        s.world.reseed(seed);
    }
    let ids = s.world.entity_ids();
    let mut rt = Runtime::new(s, Vec::new()).expect("no scripts to fail");
    // A random taunt on every think tick makes the trace depend on the world's generator.
    for id in ids {
        rt.attach_native(
            Some(id),
            "taunt",
            7,
            Box::new(move |call| {
                const LINES: [&str; 4] = ["Grr!", "You again?", "Run, little one.", "Hmph."];
                let line = LINES[call.rng.below(LINES.len())];
                call.commands.push(Command::Enqueue { entity: id, action: Action::Say { text: line.into() } });
                Ok(())
            }),
        );
    }
    rt.run(ticks);
    rt.trace()
}

#[test]
fn three_runs_give_byte_identical_traces() {
    let path = Path::new("examples/harbour/scenario.toml");
    let first = play(path, None, 200);
    assert!(first.lines().count() > 100, "the run does something worth comparing");
    for _ in 0..2 {
        assert_eq!(play(path, None, 200), first);
    }
}

#[test]
fn another_seed_gives_another_trace() {
    let path = Path::new("examples/harbour/scenario.toml");
    let a = play(path, Some(1), 100);
    let b = play(path, Some(2), 100);
    assert_ne!(tactica::runtime::trace_hash(&a), tactica::runtime::trace_hash(&b));
    assert_eq!(a.lines().count(), b.lines().count(), "only the choice of lines differs");
}

#[test]
fn every_trace_line_has_tick_and_kind_and_names_entities() {
    let trace = play(Path::new("examples/harbour/scenario.toml"), None, 200);
    let mut last_tick = 0;
    for line in trace.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let tick = v["tick"].as_u64().expect("tick");
        assert!(tick >= last_tick, "ticks never go back");
        last_tick = tick;
        assert!(v["kind"].is_string(), "{line}");
        if let Some(e) = v.get("entity") {
            assert!(["fisherman", "guard", "lookout", "runner"].contains(&e.as_str().unwrap()), "{line}");
        }
    }
}
