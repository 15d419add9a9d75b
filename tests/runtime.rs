//! The tick loop: scripts run against a read-only world and their commands are applied after;
//! a failing script is stopped for that tick and reported while the others go on; encounters
//! and typed text reach the right entities.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::Mutex;

use tactica::host::Trigger;
use tactica::runtime::Runtime;
use tactica::scenario;
use tactica_engine::Value;
use tactica_engine::coord::Action;
use tactica_engine::world::{Command, EventKind};

fn fixture(name: &str, text: &str) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-rt-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "..........\n..........\n....#.....\n..........\n").unwrap();
    std::fs::write(dir.join("scenario.toml"), text).unwrap();
    dir.join("scenario.toml")
}

fn runtime(path: &Path) -> Runtime {
    Runtime::new(scenario::load(path).unwrap(), Vec::new()).unwrap()
}

const TWO_GUARDS: &str = r#"
map = "map.txt"
ticks = 10
[[entities]]
name = "a"
kind = "guard"
at = [0, 0]
[[entities]]
name = "b"
kind = "guard"
at = [9, 0]
"#;

#[test]
fn commands_apply_after_all_scripts_so_order_of_scripts_does_not_leak() {
    let mut rt = runtime(&fixture("order", TWO_GUARDS));
    let a = rt.world().find("a").unwrap();
    let b = rt.world().find("b").unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    // `a` sets a global; `b`, which runs after `a` in the same tick, must still see the old value.
    rt.attach_native(
        Some(a),
        "writer",
        1,
        Box::new(move |call| {
            if *call.trigger != Trigger::Think {
                return Ok(());
            }
            let n = call.world.global("n").as_i64().unwrap_or(0);
            call.commands.push(Command::SetGlobal { key: "n".into(), value: Value::Int(n + 1) });
            Ok(())
        }),
    );
    let seen2 = seen.clone();
    rt.attach_native(
        Some(b),
        "reader",
        1,
        Box::new(move |call| {
            if *call.trigger != Trigger::Think {
                return Ok(());
            }
            seen2.lock().unwrap().push(call.world.global("n").as_i64().unwrap_or(0));
            Ok(())
        }),
    );
    rt.run(3);
    assert_eq!(*seen.lock().unwrap(), [0, 1, 2]);
}

#[test]
fn a_failing_script_is_stopped_and_reported_and_the_world_goes_on() {
    let mut rt = runtime(&fixture("fail", TWO_GUARDS));
    let a = rt.world().find("a").unwrap();
    let b = rt.world().find("b").unwrap();
    rt.attach_native(
        Some(a),
        "broken",
        1,
        Box::new(move |call| {
            if *call.trigger != Trigger::Think {
                return Ok(());
            }
            // Half its work is done before it fails: none of it may land.
            call.commands.push(Command::Enqueue { entity: a, action: Action::Say { text: "never said".into() } });
            if call.world.clock().tick() == 1 { Err("attempt to index a nil value".into()) } else { Ok(()) }
        }),
    );
    rt.attach_native(
        Some(b),
        "steady",
        1,
        Box::new(move |call| {
            if *call.trigger != Trigger::Think {
                return Ok(());
            }
            call.commands.push(Command::Enqueue { entity: b, action: Action::Say { text: "on watch".into() } });
            Ok(())
        }),
    );
    rt.run(3);
    let events = rt.world().log().events();
    let said_by = |who: &str| {
        events.iter().filter(|e| e.entity.as_deref() == Some(who) && matches!(e.kind, EventKind::Say { .. })).count()
    };
    assert_eq!(said_by("b"), 3, "the other entity is untouched");
    assert_eq!(said_by("a"), 2, "the failing tick's partial output was dropped");
    let err = events.iter().find(|e| matches!(e.kind, EventKind::ScriptError { .. })).expect("reported");
    assert_eq!(err.tick, 1);
    assert_eq!(err.entity.as_deref(), Some("a"));
    assert!(err.to_json_line().contains("native:broken"), "{}", err.to_json_line());
}

#[test]
fn encounters_are_edge_triggered_and_only_hearers_hear() {
    let text = r#"
map = "map.txt"
player = "hero"
encounter_range = 3.0
[[entities]]
name = "hero"
kind = "player"
at = [0, 3]
speed = 10.0
actions = [{ move_to = [9, 3] }]
[[entities]]
name = "troll"
kind = "troll"
at = [5, 3]
[[entities]]
name = "hermit"
kind = "human"
at = [9, 0]
[[timeline]]
tick = 3
player_says = "Where is the TREASURE?"
"#;
    let mut rt = runtime(&fixture("encounter", text));
    let log = Arc::new(Mutex::new(Vec::new()));
    for name in ["troll", "hermit"] {
        let id = rt.world().find(name).unwrap();
        let log = log.clone();
        rt.attach_native(
            Some(id),
            name,
            1,
            Box::new(move |call| {
                match call.trigger {
                    Trigger::Encounter => {
                        log.lock().unwrap().push(format!("{} {name} meets the hero", call.world.clock().tick()))
                    }
                    Trigger::Hear(t) => {
                        log.lock().unwrap().push(format!("{} {name} hears {t}", call.world.clock().tick()))
                    }
                    _ => {}
                }
                Ok(())
            }),
        );
    }
    rt.run(12);
    // Scripts run before movement, so on tick k the hero stands at x = 0.5 + k (one cell a
    // tick). The troll at x = 5.5 is 3 away on tick 2 — met once, though the hero stays in range
    // for several ticks — and hears the tick-3 question; the hermit at (9.5, 0.5) is 3 away only
    // when the hero stops at (9.5, 3.5) on tick 9 (at x = 8.5 it is √10 ≈ 3.16 away).
    assert_eq!(
        *log.lock().unwrap(),
        ["2 troll meets the hero", "3 troll hears Where is the TREASURE?", "9 hermit meets the hero"]
    );
}
