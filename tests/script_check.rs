//! `tactica check` compiles Lua and Rhai files with diagnostics at file:line, and `tactica run`
//! plays scenarios whose scripts are Lua and Rhai.

use std::process::Command;

fn tactica(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn check_reports_lua_and_rhai_syntax_errors_with_their_line() {
    let dir = std::env::temp_dir().join(format!("tactica-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lua = dir.join("bad.lua");
    std::fs::write(&lua, "function on_think()\n  Say('hi'\nend\n").unwrap();
    let rhai = dir.join("bad.rhai");
    std::fs::write(&rhai, "fn on_think() {\n    say(\"hi\";\n}\n").unwrap();
    let (code, text) = tactica(&["check", lua.to_str().unwrap(), rhai.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("bad.lua:3"), "{text}");
    assert!(text.contains("bad.rhai:2"), "{text}");
    let (code, text) = tactica(&["check", "examples/modding/goblin.lua", "examples/modding/shaman.rhai"]);
    assert_eq!(code, 0, "{text}");
}

#[test]
fn run_plays_a_scenario_with_lua_and_rhai_scripts() {
    let (code, text) = tactica(&["run", "examples/modding", "-q"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Playing Goblin camp"), "{text}");
    assert!(text.contains("trace sha256 "), "{text}");
    assert!(!text.contains("script errors were reported"), "{text}");
}
