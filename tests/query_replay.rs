//! One evaluation of a position query: for every (character, tick) at which the game ran a
//! position query, the point it chose is the point `tactica query --tick T --entity E` prints and
//! the point `tactica render --query` reports. The queries are found by the game's own record
//! (`PositionService::keep_records`), not listed by hand, over the shipped examples that ask
//! queries (`cover`: a Lua `FindPosition`; `guard`: a tree's `go_to_position`) and over
//! `tests/query_replay`, where Lua and Rhai characters hold points, read a blackboard target or
//! pass one, and a gate the timeline opens changes the paths.
//!
//! The replay must reproduce everything the game's query read; the last test shows each of those
//! things changes at least one answer there, so a replay that missed one would fail the first.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use tactica::engine::tactics::query::{
    CandidateStatus, ObjectKind, ObjectState, Objects, PositionService, QueryRecord, Reservations, evaluate_in_world,
};
use tactica::engine::world::World;
use tactica::glam::Vec2;
use tactica::runtime::Runtime;

/// One query the game ran.
#[derive(Debug, Clone)]
struct Asked {
    tick: u64,
    asker: String,
    query: String,
    /// The point chosen, or `None` when every option failed.
    chosen: Option<Vec2>,
}

fn scenario(path: &str) -> PathBuf {
    let p = Path::new(path);
    if p.is_dir() { p.join("scenario.toml") } else { p.to_path_buf() }
}

fn runtime(path: &str) -> Runtime {
    let s = tactica::scenario::load(&scenario(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    Runtime::new(s, tactica::languages()).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn chosen(record: &QueryRecord) -> Option<Vec2> {
    record
        .options
        .iter()
        .flat_map(|o| &o.candidates)
        .find(|c| matches!(c.status, CandidateStatus::Chosen(0)))
        .map(|c| c.position)
}

/// Plays the scenario for its ticks with the queries recorded; also returns, for each tick, the
/// world as that tick's scripts saw it (when `worlds`).
fn play(path: &str, worlds: bool) -> (Vec<Asked>, Vec<World>) {
    let mut rt = runtime(path);
    rt.world_mut().positions_mut().keep_records(true);
    let mut asked = Vec::new();
    let mut seen = Vec::new();
    for tick in 0..rt.scenario_ticks() {
        if worlds {
            seen.push(rt.world_as_next_tick_sees());
        }
        rt.tick();
        for q in rt.world_mut().positions_mut().take_records() {
            assert_eq!(q.tick, tick, "no query of this scenario waits for budget");
            let asker = rt.world().entity(q.owner).map(|e| e.name.to_string()).expect("the asker lives");
            asked.push(Asked { tick, asker, chosen: chosen(&q.record), query: q.record.query });
        }
    }
    (asked, seen)
}

fn tactica(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().expect("the binary runs")
}

fn point_text(p: Vec2) -> String {
    format!("({:.2}, {:.2})", p.x, p.y)
}

/// The point `tactica query` prints for `a`, or `None` when it says it found none.
fn query_says(path: &str, a: &Asked, extra: &[&str]) -> Option<String> {
    let tick = a.tick.to_string();
    let mut args = vec!["query", path, "--tick", &tick, "--entity", &a.asker, "--name", &a.query];
    args.extend_from_slice(extra);
    let o = tactica(&args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr);
    if let Some(line) = out.lines().find(|l| l.starts_with("result 1: ")) {
        assert_eq!(o.status.code(), Some(0), "{a:?}: {err}");
        let p = line.trim_start_matches("result 1: ");
        return Some(p[..p.find(')').expect("a point") + 1].to_owned());
    }
    assert_eq!(o.status.code(), Some(1), "{a:?}: {out}{err}");
    assert!(out.contains("no point: "), "{a:?}: {out}{err}");
    None
}

/// The point `tactica render --query` reports for `a`, or `None` when it found nothing.
fn render_says(path: &str, a: &Asked, extra: &[&str], png: &Path) -> Option<String> {
    let tick = a.tick.to_string();
    let png = png.to_str().unwrap();
    let mut args = vec!["render", path, "--query", &a.query, "--entity", &a.asker, "--tick", &tick, "-o", png];
    args.extend_from_slice(extra);
    let o = tactica(&args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(0), "{a:?}: {}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains(&format!("query {} for {} at tick {}", a.query, a.asker, a.tick)), "{out}");
    if out.contains("found nothing: ") {
        return None;
    }
    let at = out.find("chose ").unwrap_or_else(|| panic!("{a:?}: {out}")) + "chose ".len();
    Some(out[at..at + out[at..].find(')').expect("a point") + 1].to_owned())
}

/// Every query the game ran in `path` against what `query` and `render --query` say at its tick.
/// `extra` gives the arguments standing for a character's script options (a `target` it passes).
fn tools_agree_with_the_game(path: &str, extra: impl Fn(&Asked) -> Vec<&'static str>) -> Vec<Asked> {
    let (asked, _) = play(path, false);
    let dir = tempfile::Builder::new().prefix("tactica-query-replay-").tempdir().unwrap();
    let png = dir.path().join("query.png");
    for a in &asked {
        let game = a.chosen.map(point_text);
        let extra = extra(a);
        assert_eq!(query_says(path, a, &extra), game, "`tactica query` for {a:?}");
        assert_eq!(render_says(path, a, &extra, &png), game, "`tactica render --query` for {a:?}");
    }
    asked
}

#[test]
fn the_cover_scouts_query_is_replayed_by_query_and_render() {
    let asked = tools_agree_with_the_game("examples/cover", |_| Vec::new());
    let what: Vec<(u64, &str, &str, Option<Vec2>)> =
        asked.iter().map(|a| (a.tick, &*a.asker, &*a.query, a.chosen)).collect();
    // The scout asks once, finds the hidespot and never asks again.
    assert_eq!(what, [(0, "scout", "take_cover", Some(Vec2::new(12.5, 13.5)))]);
}

#[test]
fn the_gate_guards_tree_queries_are_replayed_by_query_and_render() {
    let asked = tools_agree_with_the_game("examples/guard", |_| Vec::new());
    assert!(!asked.is_empty(), "the guard takes cover when shots are fired");
    assert!(asked.iter().all(|a| a.asker == "guard" && a.query == "hide_from_player" && a.tick >= 200), "{asked:?}");
    assert!(asked.iter().all(|a| a.chosen.is_some()), "{asked:?}");
}

/// `dan.lua` passes `{target = FindEntity("decoy")}`; the others ask with their own objects.
fn replay_targets(a: &Asked) -> Vec<&'static str> {
    if a.asker == "dan" { vec!["--target", "decoy"] } else { Vec::new() }
}

#[test]
fn every_query_of_a_squad_holding_points_is_replayed_by_query_and_render() {
    let asked = tools_agree_with_the_game("tests/query_replay", replay_targets);
    let count = |who: &str| asked.iter().filter(|a| a.asker == who).count();
    // ann every other tick, bob every third, cat every tick, dan every fourth, over 24 ticks.
    assert_eq!([count("ann"), count("bob"), count("cat"), count("dan")], [12, 8, 24, 6]);
    assert!(asked.iter().all(|a| a.chosen.is_some()), "{asked:?}");
}

#[test]
fn a_target_given_as_a_point_or_an_entity_is_the_one_the_query_reads() {
    let path = "tests/query_replay";
    let a = Asked { tick: 8, asker: "dan".into(), query: "flank".into(), chosen: None };
    let by_name = query_says(path, &a, &["--target", "decoy"]);
    // The decoy stands still at (18, 7): its centre as a point is the same target.
    assert_eq!(query_says(path, &a, &["--target", "18.5,7.5"]), by_name);
    let dir = tempfile::Builder::new().prefix("tactica-query-target-").tempdir().unwrap();
    assert_eq!(render_says(path, &a, &["--target", "18.5,7.5"], &dir.path().join("q.png")), by_name);
    // Without it, dan's target is the player (its blackboard names none): another point.
    assert_ne!(query_says(path, &a, &[]), by_name);
    let o = tactica(&["query", path, "--tick", "8", "--entity", "dan", "--target", "decoi"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--target: no entity is named `decoi` at tick 8"));
    let o = tactica(&["query", path, "--entity", "dan", "--seed", "4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the tick as the seed"));
}

/// A tick the game never reaches is refused at once, not replayed for as long as it takes; the
/// last tick is still answered.
#[test]
fn a_tick_past_the_scenarios_end_is_refused() {
    let path = "tests/query_replay";
    for command in [&["query", path, "--entity", "dan"][..], &["render", path, "--query", "flank", "--entity", "dan"]] {
        let mut args = command.to_vec();
        args.extend(["--tick", "99999999"]);
        let o = tactica(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&o.stderr)
                .contains("--tick 99999999 is past the end of tests/query_replay (24 ticks)"),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let o = tactica(&["query", path, "--entity", "dan", "--tick", "24"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The answer to `a` with the game's own request changed by `change`, on `world`.
fn answer_with(
    world: &World,
    a: &Asked,
    reservations: &Reservations,
    change: impl FnOnce(&World, &mut Objects, &mut u64),
) -> Option<Vec2> {
    let id = world.find(&a.asker).unwrap();
    let query = world.queries.get(&a.query).unwrap();
    let mut request = PositionService::request(world, id);
    if a.asker == "dan" {
        let decoy = world.entity(world.find("decoy").unwrap()).unwrap();
        request.objects.set(ObjectKind::Target, ObjectState::of(decoy));
    }
    change(world, &mut request.objects, &mut request.seed);
    let eval = evaluate_in_world(world, id, Arc::clone(&query), request.objects, reservations, request.seed, true);
    chosen(eval.record())
}

#[test]
fn each_thing_the_replay_reproduces_changes_some_answer_in_the_squad_scenario() {
    let (asked, worlds) = play("tests/query_replay", true);
    let differs = |what: &str, f: &dyn Fn(&Asked, &World) -> Option<Vec2>| {
        let n = asked.iter().filter(|a| f(a, &worlds[a.tick as usize]) != a.chosen).count();
        assert!(n > 0, "no answer depends on {what}: the test could not see a replay that missed it");
        n
    };
    // The game's own request on the world its tick saw gives every answer: the baseline.
    for a in &asked {
        let w = &worlds[a.tick as usize];
        assert_eq!(answer_with(w, a, w.positions().reservations(), |_, _, _| {}), a.chosen, "{a:?}");
    }
    differs("the points other characters hold", &|a, w| answer_with(w, a, &Reservations::new(), |_, _, _| {}));
    differs("the tick as the seed", &|a, w| answer_with(w, a, w.positions().reservations(), |_, _, s| *s = 0));
    differs("the blackboard's target", &|a, w| {
        answer_with(w, a, w.positions().reservations(), |w, o, _| {
            if a.asker == "cat" {
                let player = w.entity(w.player().unwrap()).unwrap();
                o.set(ObjectKind::Target, ObjectState::of(player));
            }
        })
    });
    // The world before the tick's first phase: the gate still closed on tick 6.
    let mut rt = runtime("tests/query_replay");
    rt.run(6);
    let before = rt.world().clone();
    let cat6 = asked.iter().find(|a| a.tick == 6 && a.asker == "cat").unwrap();
    assert_ne!(answer_with(&before, cat6, before.positions().reservations(), |_, _, _| {}), cat6.chosen);
}
