//! The wall-clock watchdog, the sandbox's last line of defence: with the operation budget off,
//! an endless loop is stopped by the clock, the trace says so with a `watchdog` event of its own
//! (that trace is no longer reproducible), and the other characters play on.

mod common;

use tactica::host::ScriptLimits;
use tactica::runtime::Runtime;
use tactica_engine::world::EventKind;

const SCENARIO: &str = r#"
map = "map.txt"
ticks = 3
[[entities]]
name = "lua_loop"
kind = "imp"
at = [1, 1]
scripts = ["loop.lua"]
[[entities]]
name = "rhai_loop"
kind = "imp"
at = [2, 1]
scripts = ["loop.rhai"]
[[entities]]
name = "talker"
kind = "human"
at = [3, 1]
scripts = ["talk.lua"]
"#;

#[test]
fn an_endless_loop_without_a_budget_meets_the_watchdog_and_the_trace_says_so() {
    let path = common::folder(
        "watchdog",
        SCENARIO,
        &[
            ("loop.lua", "function on_think()\n  while true do end\nend\n"),
            ("loop.rhai", "fn on_think() {\n    loop { }\n}\n"),
            ("talk.lua", "function on_think()\n  state.n = (state.n or 0) + 1\n  Note(\"n\", state.n)\nend\n"),
        ],
    );
    let limits = ScriptLimits::new().set_max_ops(0).set_max_wall_ms(50);
    let scenario = tactica::scenario::load(&path).unwrap();
    let mut rt = Runtime::new(scenario, tactica::languages_with(limits)).unwrap_or_else(|e| panic!("{e:?}"));
    let started = std::time::Instant::now();
    rt.run(3);
    assert!(started.elapsed().as_secs() < 20, "the watchdog did not stop the loops");
    let events = rt.world().log().events();
    // Both name the loop's line.
    for (entity, file, at) in [("lua_loop", "loop.lua", 2), ("rhai_loop", "loop.rhai", 2)] {
        let mine: Vec<&EventKind> =
            events.iter().filter(|e| e.entity.as_deref() == Some(entity)).map(|e| &e.kind).collect();
        let watchdogs = mine
            .iter()
            .filter(|k| matches!(k, EventKind::Watchdog { file: f, limit_ms: 50 } if f.ends_with(file)))
            .count();
        assert_eq!(watchdogs, 3, "{entity}: {mine:?}");
        let errors: Vec<&String> = mine
            .iter()
            .filter_map(|k| match k {
                EventKind::ScriptError { message, line, .. } if *line == at => Some(message),
                _ => None,
            })
            .collect();
        assert_eq!(errors.len(), 3, "{entity}: {mine:?}");
        assert!(errors.iter().all(|m| m.contains("wall-clock watchdog after 50 ms")), "{errors:?}");
    }
    let notes =
        events.iter().filter(|e| e.entity.as_deref() == Some("talker") && matches!(e.kind, EventKind::Note { .. }));
    assert_eq!(notes.count(), 3, "the talker played on");
    let line = events.iter().find(|e| matches!(e.kind, EventKind::Watchdog { .. })).unwrap().to_json_line();
    assert!(line.contains("\"kind\":\"watchdog\"") && line.contains("\"limit_ms\":50"), "{line}");
}
