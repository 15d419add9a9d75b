//! The `[field]` section end to end: scripts in Lua and Rhai read influence, layers, the best cell,
//! sight, hearing and the frag map, and get the numbers this test computes on its own from the
//! formulas (linear falloff, spherical spreading); bad sections are errors at their line.

use std::path::{Path, PathBuf};

use tactica::runtime::Runtime;
use tactica::scenario;
use tactica_engine::Value;
use tactica_engine::world::EventKind;

const SCENARIO: &str = r#"
map = "map.txt"
ticks = 3
[field]
teams = ["blue", "red"]
layers = ["tension", "frag"]
strength = 4.0
radius = 4.0
[field.hearing]
levels = { drum = 60.0 }
[[entities]]
name = "a"
kind = "soldier"
team = "blue"
at = [1, 1]
[[entities]]
name = "b"
kind = "soldier"
team = "red"
at = [8, 1]
attributes = { influence = 2 }
[[entities]]
name = "watcher"
kind = "guard"
at = [0, 3]
scripts = ["SCRIPT"]
[[entities]]
name = "drum"
kind = "drum"
at = [9, 3]
actions = [{ play_sound = "drum" }]
"#;

const LUA: &str = r#"
function on_think()
  if state.done then
    for _, s in ipairs(HeardSounds()) do Note("heard", s.name) Note("level", s.level) end
    Note("frag_a", LayerAt("frag", 1, 1))
    Note("frag_b", LayerAt("frag", 8.9, 1.2))
    return
  end
  state.done = true
  Note("inf_blue", InfluenceAt("blue", 3.5, 1.5))
  Note("inf_red", InfluenceAt("red", 6, 1))
  Note("tension", LayerAt("tension", 5, 1))
  local c = BestCell("influence.red", 5, 1, 2)
  Note("best", { c.x, c.y })
  Note("sees_a", CanSee(FindEntity("a")))
  Note("sees_drum", CanSee(FindEntity("drum")))
  RecordFrag(FindEntity("a"), FindEntity("b"))
end
"#;

const RHAI: &str = r#"
fn on_think() {
  if this.done == true {
    for s in heard_sounds() { note("heard", s.name); note("level", s.level); }
    note("frag_a", layer_at("frag", 1, 1));
    note("frag_b", layer_at("frag", 8.9, 1.2));
    return;
  }
  this.done = true;
  note("inf_blue", influence_at("blue", 3.5, 1.5));
  note("inf_red", influence_at("red", 6, 1));
  note("tension", layer_at("tension", 5, 1));
  let c = best_cell("influence.red", 5, 1, 2);
  note("best", [c.x, c.y]);
  note("sees_a", can_see(find_entity("a")));
  note("sees_drum", can_see(find_entity("drum")));
  record_frag(find_entity("a"), find_entity("b"));
}
"#;

fn fixture(name: &str, scenario: &str, script: Option<(&str, &str)>) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-field-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "..........\n..........\n....#.....\n..........\n").unwrap();
    let mut text = scenario.to_owned();
    if let Some((file, code)) = script {
        std::fs::write(dir.join(file), code).unwrap();
        text = text.replace("SCRIPT", file);
    }
    std::fs::write(dir.join("scenario.toml"), text).unwrap();
    dir.join("scenario.toml")
}

fn notes(path: &Path) -> Vec<(u64, String, Value)> {
    let mut rt = Runtime::new(scenario::load(path).unwrap(), tactica::languages()).unwrap();
    rt.run(3);
    let errors: Vec<_> =
        rt.world().log().events().iter().filter(|e| matches!(e.kind, EventKind::ScriptError { .. })).collect();
    assert!(errors.is_empty(), "{errors:?}");
    rt.world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { name, value } => Some((e.tick, name.clone(), value.clone())),
            _ => None,
        })
        .collect()
}

fn num(notes: &[(u64, String, Value)], name: &str) -> Vec<f64> {
    notes.iter().filter(|n| n.1 == name).map(|n| n.2.as_f64().unwrap_or(f64::NAN)).collect()
}

fn check(notes: &[(u64, String, Value)]) {
    // Linear falloff I₀·(1 − d/r), Euclidean distance between cells, r = 4.
    let linear = |strength: f64, d: f64| if d > 4.0 { 0.0 } else { strength * (1.0 - d / 4.0) };
    assert_eq!(num(notes, "inf_blue"), [linear(4.0, 2.0)], "a at (1,1), point in cell (3,1)");
    assert_eq!(num(notes, "inf_red"), [linear(2.0, 2.0)], "b (influence 2) at (8,1), cell (6,1)");
    assert_eq!(num(notes, "tension"), [linear(4.0, 4.0) + linear(2.0, 3.0)]);
    // Red's influence is highest next to b: within 2 cells of (5,1) that is (7,1).
    let best: Vec<&Value> = notes.iter().filter(|n| n.1 == "best").map(|n| &n.2).collect();
    assert_eq!(best.len(), 1);
    let Value::List(xy) = best[0] else { panic!("{best:?}") };
    assert_eq!((xy[0].as_f64(), xy[1].as_f64()), (Some(7.0), Some(1.0)));
    // The watcher faces east with a 120° cone: `a` is at atan(2/1) ≈ 63° off, the drum dead ahead.
    let flag = |name: &str| notes.iter().find(|n| n.1 == name).map(|n| n.2.clone());
    assert_eq!(flag("sees_a"), Some(Value::Bool(false)));
    assert_eq!(flag("sees_drum"), Some(Value::Bool(true)));
    // The drum (60 dB) sounded on tick 0, nine cells east along a clear row: heard on tick 1 only.
    let heard: Vec<(u64, Value)> = notes.iter().filter(|n| n.1 == "heard").map(|n| (n.0, n.2.clone())).collect();
    assert_eq!(heard, [(1, Value::Str("drum".into()))]);
    let level = num(notes, "level");
    assert!((level[0] - (60.0 - 20.0 * 9f64.log10())).abs() < 1e-4, "{level:?}");
    // The frag recorded on tick 0: +1 where a stands, −1 where b stands (nothing to forget yet).
    assert_eq!(num(notes, "frag_a"), [1.0, 1.0]);
    assert_eq!(num(notes, "frag_b"), [-1.0, -1.0]);
}

#[test]
fn lua_scripts_read_the_tactical_maps_and_senses() {
    check(&notes(&fixture("lua", SCENARIO, Some(("watcher.lua", LUA)))));
}

#[test]
fn rhai_scripts_read_the_same_numbers() {
    check(&notes(&fixture("rhai", SCENARIO, Some(("watcher.rhai", RHAI)))));
}

#[test]
fn bad_field_sections_are_errors_at_their_line_with_a_hint() {
    let cases = [
        ("layers = [\"tension\", \"frontiers\"]", "frontiers", 7, "did you mean `frontier`?"),
        ("falloff = \"cubic\"", "falloff `cubic`", 7, "exponential(RATE)"),
        ("metric = \"manhatan\"", "metric `manhatan`", 7, "did you mean `manhattan`?"),
        ("frag_decay = 1.5", "frag_decay", 7, ""),
        ("tension = true", "unknown field `tension`", 7, ""),
    ];
    for (line, message, at, hint) in cases {
        let text = format!("map = \"map.txt\"\n\n\n[field]\nteams = [\"blue\"]\n\n{line}\n");
        let err = scenario::load(&fixture("bad", &text, None)).unwrap_err();
        assert!(err.message.contains(message), "{line}: {}", err.message);
        assert_eq!(err.pos.line, at, "{line}");
        assert!(err.hint.as_deref().unwrap_or("").contains(hint), "{line}: {:?}", err.hint);
    }
    let twice = "map = \"map.txt\"\n[field]\nteams = [\"blue\", \"blue\"]\n";
    let err = scenario::load(&fixture("twice", twice, None)).unwrap_err();
    assert_eq!((err.pos.line, err.message.as_str()), (3, "team `blue` is listed twice"));
}

#[test]
fn without_a_field_section_layer_functions_fail_and_sight_uses_the_defaults() {
    let text = SCENARIO.split("[field]").next().unwrap().to_owned()
        + SCENARIO.split("levels = { drum = 60.0 }").nth(1).unwrap();
    // Two calls: a call that fails has its commands dropped, so the `sees` note must come from a
    // call of its own before `LayerAt` fails.
    let lua = "calls = 0\nfunction on_think() calls = calls + 1\nif calls == 1 then Note(\"sees\", CanSee(FindEntity(\"drum\"))) else Note(\"x\", LayerAt(\"tension\", 1, 1)) end end";
    let path = fixture("none", &text, Some(("w.lua", lua)));
    let mut rt = Runtime::new(scenario::load(&path).unwrap(), tactica::languages()).unwrap();
    rt.run(20);
    let kinds: Vec<&EventKind> = rt.world().log().events().iter().map(|e| &e.kind).collect();
    assert!(kinds.iter().any(|k| matches!(k, EventKind::Note { name, value: Value::Bool(true) } if name == "sees")));
    let failed = kinds.iter().find_map(|k| match k {
        EventKind::ScriptError { message, .. } => Some(message.clone()),
        _ => None,
    });
    assert!(failed.is_some_and(|m| m.contains("[field]")), "LayerAt needs a [field] section");
}
