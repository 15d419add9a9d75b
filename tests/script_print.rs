//! Debug output that works: `print` in Lua and Rhai and `Print` in `.tac` write a `print` event
//! with the script's file, the line of the call and the text — in the trace, deterministic, and
//! narrated by `tactica run` — and a script that prints in a loop is cut at the cap
//! (`MAX_PRINTS_PER_TICK` lines a tick, each at most `MAX_PRINT_CHARS` characters).

mod common;

use tactica_engine::world::EventKind;
use tactica_stdlib::{MAX_PRINT_CHARS, MAX_PRINTS_PER_TICK};

const SCENARIO: &str = r#"
name = "prints"
map = "map.txt"
ticks = 2

[[entities]]
name = "lua"
kind = "goblin"
at = [1, 1]
scripts = ["talk.lua"]

[[entities]]
name = "rhai"
kind = "goblin"
at = [2, 1]
scripts = ["talk.rhai"]

[[entities]]
name = "tac"
kind = "goblin"
at = [3, 1]
scripts = ["talk.tac"]
"#;

const LUA: &str =
    "-- prints twice a think\nfunction on_think()\n  local n = 7\n  print(\"lua sees\", n, true)\n  print()\nend\n";
const RHAI: &str =
    "// prints a think\nfn on_think() {\n    let n = 7;\n\n    print(`rhai sees ${n}`);\n    debug(\"dbg\");\n}\n";
const TAC: &str = "kind behaviour;\n// prints a think\nPrint(\"tac sees\");\nPrint(42);\n";

/// The `print` events of a run as (tick, entity, file, line, text).
fn prints(rt: &tactica::runtime::Runtime) -> Vec<(u64, String, String, u32, String)> {
    rt.world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Print { file, line, text } => {
                Some((e.tick, e.entity.clone().unwrap_or_default(), file.clone(), *line, text.clone()))
            }
            EventKind::ScriptError { message, .. } => panic!("a script failed: {message}"),
            _ => None,
        })
        .collect()
}

#[test]
fn print_is_an_event_with_file_line_and_text_in_every_language() {
    let path = common::folder("print", SCENARIO, &[("talk.lua", LUA), ("talk.rhai", RHAI), ("talk.tac", TAC)]);
    let rt = common::run_ticks(&path, 1);
    let got = prints(&rt);
    let want = |entity: &str, file: &str, line: u32, text: &str| {
        (0, entity.to_owned(), file.to_owned(), line, text.to_owned())
    };
    assert_eq!(
        got,
        [
            want("lua", "talk.lua", 4, "lua sees\t7\ttrue"),
            want("lua", "talk.lua", 5, ""),
            want("rhai", "talk.rhai", 5, "rhai sees 7"),
            want("rhai", "talk.rhai", 6, "\"dbg\""),
            want("tac", "talk.tac", 3, "tac sees"),
            want("tac", "talk.tac", 4, "42"),
        ]
    );
    // In the trace as `docs/trace.md` shows it, the same on every run.
    let trace = rt.trace();
    assert!(
        trace.contains(
            r#"{"tick":0,"entity":"lua","kind":"print","file":"talk.lua","line":4,"text":"lua sees\t7\ttrue"}"#
        ),
        "{trace}"
    );
    assert_eq!(common::run_ticks(&path, 1).trace(), trace);
}

#[test]
fn tactica_run_narrates_prints() {
    let path = common::folder("print-narrate", SCENARIO, &[("talk.lua", LUA), ("talk.rhai", RHAI), ("talk.tac", TAC)]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", &path.display().to_string(), "--ticks", "1"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("[    0] lua prints (talk.lua:4): lua sees\t7\ttrue"), "{text}");
    assert!(text.contains("[    0] rhai prints (talk.rhai:5): rhai sees 7"), "{text}");
    assert!(text.contains("[    0] tac prints (talk.tac:3): tac sees"), "{text}");
}

#[test]
fn a_print_flood_is_cut_at_the_cap() {
    let scenario = SCENARIO.replace("talk", "flood");
    let long = "x".repeat(MAX_PRINT_CHARS + 50);
    let lua = format!("function on_think()\n  for i = 1, 1000 do print(\"{long}\") end\nend\n");
    let rhai = "fn on_think() {\n    for i in 0..1000 { print(i); }\n}\n";
    let tac = "kind behaviour;\nPrint(1); Print(2); Print(3); Print(4); Print(5); Print(6); Print(7); Print(8); Print(9); \
               Print(10); Print(11); Print(12); Print(13); Print(14); Print(15); Print(16); Print(17); Print(18); \
               Print(19); Print(20); Print(21); Print(22);\n";
    let path =
        common::folder("print-flood", &scenario, &[("flood.lua", &lua), ("flood.rhai", rhai), ("flood.tac", tac)]);
    let rt = common::run_ticks(&path, 2);
    let got = prints(&rt);
    let cap = MAX_PRINTS_PER_TICK as usize;
    for tick in 0..2 {
        for who in ["lua", "rhai", "tac"] {
            let lines: Vec<&String> = got.iter().filter(|p| p.0 == tick && p.1 == who).map(|p| &p.4).collect();
            assert_eq!(lines.len(), cap + 1, "{who} at tick {tick}: the cap, then one line saying so: {lines:?}");
            assert!(lines[cap].contains("more prints this tick are dropped"), "{lines:?}");
        }
    }
    let lua_line = &got.iter().find(|p| p.1 == "lua").unwrap().4;
    assert_eq!(lua_line.chars().count(), MAX_PRINT_CHARS + 1, "cut, and marked with …");
    assert!(lua_line.ends_with('…'));
    assert_eq!(got.iter().find(|p| p.1 == "rhai").unwrap().4, "0");
}

#[test]
fn a_lua_sequence_prints_from_its_coroutine_with_its_line() {
    let scenario = "name = \"seq\"\nmap = \"map.txt\"\nticks = 3\n\n[[entities]]\nname = \"scout\"\nkind = \"goblin\"\nat = [1, 1]\nspeed = 4.0\nscripts = [\"scout.lua\"]\n";
    let lua = "function sequence()\n  print(\"off\")\n  MoveTo(3, 1)\n  local idle = IsIdle()\n  print(\"there\", idle)\nend\n";
    let rt = common::run_ticks(&common::folder("print-sequence", scenario, &[("scout.lua", lua)]), 40);
    let got: Vec<(u32, String)> = prints(&rt).into_iter().map(|p| (p.3, p.4)).collect();
    assert_eq!(got, [(2, "off".to_owned()), (5, "there\ttrue".to_owned())]);
}
