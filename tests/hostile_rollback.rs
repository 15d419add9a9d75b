//! A failed call leaves the world as if it never ran — its commands dropped, and its rolls its
//! own (each script's calls draw from streams of their own) — so a script that rolls and then
//! fails cannot shift any other character's rolls, nor can adding it to the scenario. In every
//! language.

mod common;

/// The other characters' notes: a Lua and a Rhai character rolling every tick.
fn rolls(hostile: Option<(&str, &str)>) -> Vec<serde_json::Value> {
    let mut scenario = String::from("map = \"map.txt\"\nticks = 6\nseed = 11\n");
    let mut scripts: Vec<(&str, &str)> = vec![
        ("roller.lua", "function on_think() Note(\"lua\", Random(1000)) end\n"),
        ("roller.rhai", "fn on_think() { note(\"rhai\", random(1000)); }\n"),
    ];
    // The hostile character comes first, so its roll would come before everyone else's.
    if let Some((file, src)) = hostile {
        scenario.push_str(&format!(
            "[[entities]]\nname = \"hostile\"\nkind = \"imp\"\nat = [0, 0]\nscripts = [\"{file}\"]\n"
        ));
        scripts.push((file, src));
    }
    scenario.push_str("[[entities]]\nname = \"a\"\nkind = \"b\"\nat = [1, 0]\nscripts = [\"roller.lua\"]\n");
    scenario.push_str("[[entities]]\nname = \"b\"\nkind = \"b\"\nat = [2, 0]\nscripts = [\"roller.rhai\"]\n");
    let name = hostile.map_or("rollback-none".to_owned(), |(f, _)| format!("rollback-{f}"));
    let rt = common::play(&common::folder(&name, &scenario, &scripts));
    let trace = rt.trace();
    if hostile.is_some() {
        // One failure a tick, the repeats counted on one line (docs/trace.md, "Repeated errors").
        let times: u64 = common::error_runs(&rt).iter().map(|r| r.3).sum();
        assert_eq!(times, 6, "one failure a tick: {trace}");
    }
    trace
        .lines()
        .filter(|l| l.contains("\"kind\":\"note\"") && !l.contains("\"entity\":\"hostile\""))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .collect()
}

#[test]
fn a_roll_before_a_failure_does_not_shift_anyone_elses_rolls() {
    let clean = rolls(None);
    assert_eq!(clean.len(), 12);
    for (file, src) in [
        ("hostile.lua", "function on_think()\n  Random(2)\n  Say(\"never said\")\n  error(\"boom\")\nend\n"),
        ("hostile.rhai", "fn on_think() {\n  random(2);\n  say(\"never said\");\n  throw \"boom\";\n}\n"),
        (
            "hostile.tac",
            "kind behaviour;\nlet zero = 0;\nlet r = Random(2);\nSay(\"never said\");\nlet boom = r / zero;\n",
        ),
    ] {
        assert_eq!(rolls(Some((file, src))), clean, "{file}: the others' rolls are unchanged");
    }
}

/// What host functions wrote into the character's own state during a failed call is undone
/// with the rest: `Say` remembers a line to keep it from being repeated too soon, and the
/// failed call's line was never said, so the next call may say it at once.
#[test]
fn a_failed_call_leaves_no_line_cooling_down() {
    // A local of the chunk survives the rollback (it is Lua's, not the character's state), so
    // only the first call fails.
    let script = "local calls = 0\nfunction on_think()\n  calls = calls + 1\n  Say(\"hello\")\n  \
                  if calls == 1 then error(\"boom\") end\nend\n";
    let scenario = "map = \"map.txt\"\nticks = 3\nseed = 1\n\
                    [[entities]]\nname = \"a\"\nkind = \"b\"\nat = [1, 0]\nscripts = [\"hello.lua\"]\n";
    let trace = common::play(&common::folder("rollback-say", scenario, &[("hello.lua", script)])).trace();
    let ticks = |kind: &str| -> Vec<u64> {
        trace
            .lines()
            .filter(|l| l.contains(&format!("\"kind\":\"{kind}\"")))
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["tick"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(ticks("script_error"), [0], "{trace}");
    // Said on the call after the failure, not after the cooldown of a line never said.
    assert_eq!(ticks("say"), [1], "{trace}");
}
