//! Steering from scenarios and scripts: the `examples/steering` meadow played headless (the wolf
//! catches the deer its Lua script made flee, the flock stays connected and out of the walls, the
//! squad keeps its pyramid round the corner), steering orders from Rhai and `.tac` scripts, and
//! `[steering]` errors with line, column and hint.

mod common;

use std::path::Path;

use glam::Vec2;
use tactica::runtime::Runtime;
use tactica::scenario;
use tactica_engine::steer::Behaviour;
use tactica_engine::world::{EventKind, World};

fn meadow() -> Runtime {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/steering/scenario.toml");
    Runtime::new(scenario::load(&path).unwrap(), tactica::languages()).unwrap()
}

fn actions<'w>(w: &'w World, who: &str, name: &str) -> Vec<(u64, &'w str)> {
    w.log()
        .events()
        .iter()
        .filter(|e| e.entity.as_deref() == Some(who))
        .filter_map(|e| match &e.kind {
            EventKind::Action { action, detail } if action == name => Some((e.tick, detail.as_str())),
            _ => None,
        })
        .collect()
}

/// The size of the largest group of points linked through points within `r` of each other.
fn largest_group(pts: &[Vec2], r: f32) -> usize {
    let mut seen = vec![false; pts.len()];
    let mut best = 0;
    for start in 0..pts.len() {
        if seen[start] {
            continue;
        }
        let (mut stack, mut size) = (vec![start], 0);
        seen[start] = true;
        while let Some(i) = stack.pop() {
            size += 1;
            for j in 0..pts.len() {
                if !seen[j] && pts[i].distance(pts[j]) <= r {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        best = best.max(size);
    }
    best
}

#[test]
fn the_meadow_plays_a_catch_a_connected_flock_and_a_formation_round_the_corner() {
    let mut rt = meadow();
    let birds: Vec<_> = rt.world().entities().filter(|(_, e)| e.kind == "bird").map(|(id, _)| id).collect();
    assert_eq!(birds.len(), 16);
    assert_eq!(rt.world().steering().flock_members("birds"), birds, "`kind = \"bird\"` enrolled them all");
    let (mut disconnected, mut in_wall, mut worst_slot, mut smallest_main) = (0, 0, 0.0f32, usize::MAX);
    let ticks = rt.scenario_ticks();
    for tick in 0..ticks {
        rt.tick();
        let w = rt.world();
        let pts: Vec<Vec2> = birds.iter().map(|&b| w.entity(b).unwrap().position).collect();
        in_wall += pts.iter().filter(|p| !w.map().passable(p.floor().as_ivec2())).count();
        // Link: the view, 10 body lengths of 0.6.
        let group = largest_group(&pts, 6.0);
        if group < pts.len() {
            disconnected += 1;
        }
        smallest_main = smallest_main.min(group);
        let squad = w.steering().formation("squad").unwrap();
        if tick >= 60 {
            for (k, m) in squad.members.iter().enumerate() {
                worst_slot = worst_slot.max(w.entity(*m).unwrap().position.distance(squad.slot_positions()[k]));
            }
        }
        let everyone = w.entities().all(|(_, e)| w.map().passable(e.cell()));
        assert!(everyone, "tick {tick}: nobody stands in a wall");
    }
    let w = rt.world();
    assert_eq!(in_wall, 0);
    eprintln!(
        "meadow: flock split on {disconnected} of {ticks} ticks, main group never below {smallest_main}, worst slot error {worst_slot:.3}"
    );
    // Round the pillars parts of the flock go either side; regrouping (on in the scenario)
    // turns a part that falls behind back to the rest, and the rest waits for it. Measured:
    // split on 75 of 600 ticks, the main group never under 14 of 16 (a flock is chaotic: with
    // the waiting speed at 0.6, 0.7, 0.8 or 1.0 instead of 0.5 it measured 0, 0, 6 and 26;
    // without regrouping, 253 and 7, and other builds 135–207 and 9). The bounds hold it near
    // that; a flock that stays apart fails.
    assert!(disconnected <= 120, "the flock was split on {disconnected} of {ticks} ticks");
    assert!(smallest_main >= 13, "the main group fell to {smallest_main} birds");

    // The deer grazed until the wolf came near; its Lua script then made it evade; the faster
    // wolf caught it and stopped.
    let fled = actions(w, "deer", "steer");
    assert_eq!(fled.len(), 1, "{fled:?}");
    assert_eq!(fled[0].1, "evade wolf");
    let caught = actions(w, "wolf", "caught");
    assert_eq!(caught.len(), 1);
    assert_eq!(caught[0].1, "deer");
    assert!(caught[0].0 > fled[0].0, "caught after the flight began");
    assert_eq!(w.steering().behaviour(w.find("wolf").unwrap()), None);

    // The squad held its pyramid within half the spacing (0.75) after forming (6 s), the corner
    // included, and the captain reached the end of its route.
    assert!(worst_slot < 0.75, "worst slot error {worst_slot}");
    let sarge = w.entity(w.find("sarge").unwrap()).unwrap();
    assert!(sarge.position.distance(Vec2::new(74.5, 4.5)) < 3.5, "sarge ended at {}", sarge.position);
    assert!(w.steering().formation("squad").unwrap().remaining_path().is_empty());

    // The sentry flew its patrol square (5-cell legs) for six laps and stayed near it (each lap
    // starts where the last ended, so the square drifts a little: measured 9.4 cells).
    let sentry = w.entity(w.find("sentry").unwrap()).unwrap();
    assert_eq!(w.steering().behaviour(w.find("sentry").unwrap()).map(Behaviour::name), Some("pattern"));
    assert!(sentry.position.distance(Vec2::new(42.5, 30.5)) < 12.0, "sentry at {}", sentry.position);
}

#[test]
fn the_meadow_is_deterministic() {
    let trace = || {
        let mut rt = meadow();
        rt.run(200);
        rt.trace_hash()
    };
    assert_eq!(trace(), trace());
}

const ARENA: &str = r#"
map = "map.txt"
tick_rate = 10
[[entities]]
name = "hunter"
kind = "hunter"
at = [1, 1]
speed = 3.0
scripts = ["hunter.SCRIPT"]
[[entities]]
name = "rabbit"
kind = "rabbit"
at = [12, 6]
speed = 1.0
[[entities]]
name = "lead"
kind = "soldier"
at = [2, 6]
speed = 1.0
[steering.formations.pair]
captain = "lead"
path = [[12, 1]]
"#;

/// Open ground, 16 × 8.
const OPEN_MAP: &str = "................\n................\n................\n................\n................\n................\n................\n................\n";

fn arena(lang: &str, script: &str) -> Runtime {
    let scenario = ARENA.replace("SCRIPT", lang);
    let path = common::folder(&format!("steer-{lang}"), &scenario, &[(&format!("hunter.{lang}"), script)]);
    std::fs::write(path.with_file_name("map.txt"), OPEN_MAP).unwrap();
    Runtime::new(scenario::load(&path).unwrap(), tactica::languages()).unwrap()
}

#[test]
fn a_rhai_script_intercepts_and_a_bad_flock_name_is_a_script_error() {
    let mut rt = arena(
        "rhai",
        r#"
fn on_spawn() {
    Intercept(FindEntity("rabbit"));
}
fn on_think() {
    if SteeringOf(Me()) == "" && GetGlobal("asked") == () {
        SetGlobal("asked", true);
        JoinFlock("nope");
    }
}
"#,
    );
    rt.run(60);
    let w = rt.world();
    assert_eq!(actions(w, "hunter", "steer")[0].1, "intercept rabbit");
    assert_eq!(actions(w, "hunter", "caught").len(), 1, "the rabbit stands still: caught");
    let errors: Vec<&EventKind> =
        w.log().events().iter().map(|e| &e.kind).filter(|k| matches!(k, EventKind::ScriptError { .. })).collect();
    // A failing call drops the script's commands of that tick (the `SetGlobal` too), so it fails
    // again on every think after the catch — each time at its line, naming the function.
    assert!(!errors.is_empty());
    for e in &errors {
        assert!(
            matches!(e, EventKind::ScriptError { line: 8, message, .. } if message.contains("`JoinFlock` argument 1")),
            "{e:?}"
        );
    }
    assert_eq!(w.steering().behaviour(w.find("hunter").unwrap()), None, "a refused call changes nothing");
}

#[test]
fn a_lua_script_forms_up_behind_a_captain_then_stops() {
    let mut rt = arena(
        "lua",
        r#"
function on_think()
  if GetGlobal("t") == nil then
    SetGlobal("t", 0)
    FormUp(FindEntity("lead"), 0)
  else
    SetGlobal("t", GetGlobal("t") + 1)
    if GetGlobal("t") == 30 then StopSteering() end
  end
end
"#,
    );
    rt.run(5);
    let w = rt.world();
    let (hunter, lead) = (w.find("hunter").unwrap(), w.find("lead").unwrap());
    assert_eq!(w.steering().formation("pair").unwrap().members, vec![hunter]);
    assert_eq!(actions(w, "hunter", "steer")[0].1, "form up on lead: pair slot 0");
    rt.run(30);
    let w = rt.world();
    assert_eq!(w.steering().behaviour(hunter), None, "StopSteering left the formation");
    assert!(w.steering().formation("pair").unwrap().members.is_empty());
    assert_eq!(w.steering().behaviour(lead).map(Behaviour::name), Some("formation"));
}

fn load_error(name: &str, steering: &str) -> String {
    let text = format!("{ARENA}{steering}").replace("SCRIPT", "lua");
    let path = common::folder(&format!("steer-err-{name}"), &text, &[("hunter.lua", "")]);
    std::fs::write(path.with_file_name("map.txt"), OPEN_MAP).unwrap();
    scenario::load(&path).expect_err("must not load").to_string()
}

#[test]
fn steering_errors_have_line_column_and_hint() {
    let e = load_error("entity", "[[steering.agents]]\nentity = \"huntr\"\nchase = \"rabbit\"\n");
    assert!(e.contains(":24:10: no entity is named `huntr`") && e.contains("did you mean `hunter`?"), "{e}");
    let e = load_error("view", "[steering.flocks.f]\nmembers = [\"rabbit\"]\nview = \"wiide\"\n");
    assert!(e.contains(":25:8: unknown view `wiide`") && e.contains("did you mean `wide`?"), "{e}");
    let e = load_error("two", "[[steering.agents]]\nentity = \"hunter\"\nchase = \"rabbit\"\nevade = \"lead\"\n");
    assert!(e.contains(":23:1") && e.contains("exactly one of"), "{e}");
    let e = load_error("pattern", "[[steering.agents]]\nentity = \"hunter\"\npattern = \"patorl\"\n");
    assert!(e.contains("no pattern is named `patorl`") && e.contains("did you mean `patrol`?"), "{e}");
    let e = load_error("key", "[steering.flocks.f]\nmembers = [\"rabbit\"]\ncohesoin = 1.0\n");
    assert!(
        e.contains(":25:1") && e.contains("unknown field `cohesoin`") && e.contains("did you mean `cohesion`?"),
        "{e}"
    );
    let e = load_error("wait", "[steering.flocks.f]\nmembers = [\"rabbit\"]\nregroup_wait = 1.5\n");
    assert!(e.contains(":23:1") && e.contains("regroup_wait is a fraction of top speed, at most 1, not 1.5"), "{e}");
    let e = load_error("shape", "[steering.formations.g]\ncaptain = \"hunter\"\nshape = \"pyramd\"\n");
    assert!(e.contains("did you mean `pyramid`?"), "{e}");
    let e = load_error("path", "[steering.formations.g]\ncaptain = \"hunter\"\npath = [[40, 1]]\n");
    assert!(e.contains("off the map or in a wall"), "{e}");
}
