//! The shipped examples move round their walls: nobody in `examples/tactics` or
//! `examples/castle` is stopped by a wall, and the cells the tactics scout picks with `BestCell`
//! are cells it can walk to — and does.

use std::path::Path;

use glam::IVec2;
use tactica::runtime::Runtime;

fn play(path: &str) -> Runtime {
    let scenario = tactica::scenario::load(Path::new(path)).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(scenario, tactica::languages()).unwrap_or_else(|_| panic!("{path} does not load"));
    rt.run(rt.scenario_ticks());
    rt
}

fn events(trace: &str, entity: &str, kind: &str) -> Vec<serde_json::Value> {
    let who = format!("\"entity\":\"{entity}\"");
    let what = format!("\"kind\":\"{kind}\"");
    trace.lines().filter(|l| l.contains(&who) && l.contains(&what)).map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn nobody_in_the_tactics_example_is_stopped_and_the_scout_reaches_every_cell_it_picks() {
    let rt = play("examples/tactics/scenario.toml");
    let trace = rt.trace();
    assert!(!trace.contains("\"kind\":\"blocked\""), "someone was stopped:\n{trace}");
    let world = rt.world();
    let scout = world.entity(world.find("blue-scout").unwrap()).unwrap();
    let picks = events(&trace, "blue-scout", "action");
    assert!(picks.len() >= 5, "the scout picks cells ({} picks)", picks.len());
    let start = IVec2::new(15, 15);
    for p in &picks {
        let detail = p["detail"].as_str().unwrap();
        let (x, y) = detail.trim_matches(|c| c == '(' || c == ')').split_once(", ").unwrap();
        let cell = IVec2::new(x.parse().unwrap(), y.parse().unwrap());
        assert!(world.map().passable(cell) && world.reachable(start, cell), "the scout picked {cell}, out of reach");
    }
    // Every pick ends in an arrival, the last one where the scout stands now.
    let arrivals = events(&trace, "blue-scout", "arrive");
    assert_eq!(arrivals.len(), picks.len(), "{trace}");
    let last = arrivals.last().unwrap();
    assert_eq!(
        [last["cell"][0].as_i64().unwrap() as i32, last["cell"][1].as_i64().unwrap() as i32],
        scout.cell().to_array()
    );
    // The first pick is behind the wall south of it: reached round it, along a planned path.
    let paths = events(&trace, "blue-scout", "path");
    assert!(!paths.is_empty(), "the scout plans its way round the wall");
}

#[test]
fn nobody_in_the_castle_is_stopped_and_the_breach_squad_arrives() {
    let rt = play("examples/castle/scenario.toml");
    let trace = rt.trace();
    assert!(!trace.contains("\"kind\":\"blocked\""), "someone was stopped:\n{trace}");
    assert!(!trace.contains("a wall is in the way"));
    let arrivals = trace.matches("\"kind\":\"arrive\"").count();
    let moves = trace
        .lines()
        .filter(|l| l.contains("\"action\":\"move_to\"") || l.contains("\"action\":\"follow_path\""))
        .count();
    assert_eq!(arrivals, moves, "every move started ends in an arrival");
}
