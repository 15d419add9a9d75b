//! Entity handles across the script boundary go stale safely, and a reloaded script keeps its
//! instance's state — in Lua and in Rhai.

mod common;

use tactica_engine::world::EventKind;

const SCENARIO: &str = r#"
map = "map.txt"
ticks = 0
[[entities]]
name = "victim"
kind = "sheep"
at = [3, 3]
[[entities]]
name = "watcher"
kind = "wolf"
at = [1, 1]
scripts = ["watcher.EXT"]
"#;

const LUA: &str = "function on_spawn()\n  state.prey = FindEntity('victim')\n  state.n = 0\nend\nfunction on_think()\n  state.n = state.n + 1\n  Say(NameOf(state.prey) .. ' ' .. state.n)\nend\n";
const RHAI: &str = "fn on_spawn() {\n    this.prey = find_entity(\"victim\");\n    this.n = 0;\n}\nfn on_think() {\n    this.n += 1;\n    say(name_of(this.prey) + \" \" + this.n);\n}\n";

fn stale_handle_is_an_error_not_a_crash(ext: &str, source: &str, line: u32) {
    let file = format!("watcher.{ext}");
    let path = common::folder(&format!("stale-{ext}"), &SCENARIO.replace("EXT", ext), &[(&file, source)]);
    let mut rt = common::play(&path);
    rt.run(2);
    let victim = rt.world().find("victim").unwrap();
    rt.world_mut().despawn(victim).unwrap();
    rt.run(2);
    rt.finish();
    let lines: Vec<String> = rt.world().log().events().iter().map(|e| e.to_json_line()).collect();
    assert!(lines.iter().any(|l| l.contains("\"text\":\"victim 2\"")), "{lines:#?}");
    let errors: Vec<_> = rt
        .world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ScriptError { line, message, .. } => Some((*line, message.clone())),
            _ => None,
        })
        .collect();
    // Both ticks after the despawn fail the same way: recorded once, the repeat counted.
    assert_eq!(errors.len(), 1, "{lines:#?}");
    let times: Vec<u64> = common::error_runs(&rt).iter().map(|r| r.3).collect();
    assert_eq!(times, [2], "{lines:#?}");
    assert_eq!(errors[0].0, line);
    assert!(errors[0].1.contains("expected a live entity, got a stale entity handle"), "{}", errors[0].1);
}

#[test]
fn lua_stale_handle() {
    stale_handle_is_an_error_not_a_crash("lua", LUA, 7);
}

#[test]
fn rhai_stale_handle() {
    stale_handle_is_an_error_not_a_crash("rhai", RHAI, 7);
}

fn reload_keeps_state(ext: &str, source: &str, reloaded: &str) {
    let file = format!("watcher.{ext}");
    let path = common::folder(&format!("reload-{ext}"), &SCENARIO.replace("EXT", ext), &[(&file, source)]);
    let mut rt = common::play(&path);
    rt.run(3);
    let script = path.parent().unwrap().join(&file);
    let broken = rt.host_mut().reload(&script, "this is not a script (");
    assert!(broken.is_err(), "a broken file leaves the old code running");
    rt.run(1);
    rt.host_mut().reload(&script, reloaded).unwrap();
    rt.run(2);
    let said: Vec<String> = rt
        .world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Say { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(said, ["victim 1", "victim 2", "victim 3", "victim 4", "again 5", "again 6"]);
}

#[test]
fn lua_reload_keeps_state() {
    let reloaded = LUA.replace("Say(NameOf(state.prey) .. ' ' .. state.n)", "Say('again ' .. state.n)");
    reload_keeps_state("lua", LUA, &reloaded);
}

#[test]
fn rhai_reload_keeps_state() {
    let reloaded = RHAI.replace("say(name_of(this.prey) + \" \" + this.n);", "say(\"again \" + this.n);");
    reload_keeps_state("rhai", RHAI, &reloaded);
}
