//! Group sequences as a designer meets them: scenario folders with their scripts, played through
//! the library, asserting on the trace.

mod common;

use tactica_engine::world::EventKind;

/// Lines an entity said, in order.
fn says(rt: &tactica::runtime::Runtime, who: &str) -> Vec<(u64, String)> {
    rt.world()
        .log()
        .events()
        .iter()
        .filter(|e| e.entity.as_deref() == Some(who))
        .filter_map(|e| match &e.kind {
            EventKind::Say { text } => Some((e.tick, text.clone())),
            _ => None,
        })
        .collect()
}

/// Two squads of one team, each a point man and a cover man. Squad `slow`'s point man is slow,
/// so its cover man must not go in when squad `fast`'s point man signals.
fn two_squads(ext: &str) -> String {
    let mut s = String::from("map = \"map.txt\"\nticks = 80\n");
    for (squad, y, speed) in [("fast", 0, 4.0), ("slow", 4, 1.0)] {
        s.push_str(&format!(
            "[[entities]]\nname = \"point_{squad}\"\nkind = \"soldier\"\nteam = \"blue\"\nsquad = \"{squad}\"\n\
             at = [0, {y}]\nspeed = {speed}\ntags = [\"point\"]\nscripts = [\"point.{ext}\"]\n\
             [[entities]]\nname = \"cover_{squad}\"\nkind = \"soldier\"\nteam = \"blue\"\nsquad = \"{squad}\"\n\
             at = [0, {}]\nspeed = 4.0\ntags = [\"cover\"]\n",
            y + 1
        ));
        if ext != "tac" {
            s.push_str(&format!("scripts = [\"cover.{ext}\"]\n"));
        }
    }
    s
}

const BREACH_TAC: &str = "sequence Breach {\n  role point {\n    MoveTo(4, 0);\n    Say(\"At the door.\");\n    signal breach;\n  }\n  role cover {\n    wait breach;\n    Say(\"Clear!\");\n  }\n}\nonce on spawn start Breach;\n";
const POINT_LUA: &str = "function sequence()\n  MoveTo(4, 0)\n  Say(\"At the door.\")\n  Signal(\"breach\")\nend\n";
const COVER_LUA: &str = "function sequence()\n  Wait(\"breach\")\n  Say(\"Clear!\")\nend\n";
const POINT_RHAI: &str =
    "fn sequence() {\n    move_to(4, 0);\n    say(\"At the door.\");\n    signal(\"breach\");\n}\n";
const COVER_RHAI: &str = "fn sequence() {\n    wait(\"breach\");\n    say(\"Clear!\");\n}\n";

#[test]
fn two_squads_of_one_team_release_only_their_own() {
    for (ext, point, cover) in
        [("tac", BREACH_TAC, ""), ("lua", POINT_LUA, COVER_LUA), ("rhai", POINT_RHAI, COVER_RHAI)]
    {
        let mut files = vec![(format!("point.{ext}"), point.to_owned())];
        if !cover.is_empty() {
            files.push((format!("cover.{ext}"), cover.to_owned()));
        }
        let refs: Vec<(&str, &str)> = files.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
        let rt = common::play(&common::folder(&format!("squads-{ext}"), &two_squads(ext), &refs));
        assert!(!rt.trace().contains("script_error"), "{ext}: {}", rt.trace());
        for squad in ["fast", "slow"] {
            let at_door = says(&rt, &format!("point_{squad}"));
            let clear = says(&rt, &format!("cover_{squad}"));
            assert_eq!(at_door.len(), 1, "{ext} {squad}: {at_door:?}");
            assert_eq!(clear.len(), 1, "{ext} {squad}: {clear:?}");
            assert!(
                clear[0].0 >= at_door[0].0,
                "{ext}: squad {squad}'s cover went in at tick {} before its own point man reached the door at {}",
                clear[0].0,
                at_door[0].0
            );
        }
        let slow_door = says(&rt, "point_slow")[0].0;
        let fast_door = says(&rt, "point_fast")[0].0;
        assert!(slow_door > fast_door + 5, "{ext}: the squads must be apart in time ({fast_door}, {slow_door})");
    }
}

#[test]
fn a_role_nobody_can_play_stops_the_start_with_a_clear_error() {
    let scenario = "map = \"map.txt\"\nticks = 5\n\
        [[entities]]\nname = \"point\"\nkind = \"soldier\"\nteam = \"red\"\nat = [0, 0]\ntags = [\"point\"]\nscripts = [\"breach.tac\"]\n\
        [[entities]]\nname = \"cover\"\nkind = \"soldier\"\nteam = \"red\"\nat = [0, 1]\ntags = [\"cover\"]\n";
    let tac = "sequence Breach {\n  role point { signal go; }\n  role cover { wait go; Say(\"In.\"); }\n  role archer { wait go; Say(\"Loosing.\"); }\n}\nonce on spawn start Breach;\n";
    let rt = common::play(&common::folder("uncast-role", scenario, &[("breach.tac", tac)]));
    let trace = rt.trace();
    assert!(trace.contains("script_error"), "{trace}");
    assert!(trace.contains("sequence `Breach` did not start: nobody on team `red` is tagged `archer`"), "{trace}");
    // Nobody was left waiting for ever: the sequence did not start at all.
    assert!(!trace.contains("\"kind\":\"wait\""), "{trace}");
    // And `check` on the scenario says so before anyone plays it (a warning: the tag may come).
    let path = common::folder("uncast-role-check", scenario, &[("breach.tac", tac)]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tactica")).arg("check").arg(&path).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("E0065") && text.contains("no character of the scenario is tagged `archer`"), "{text}");
    assert!(!text.contains("tagged `cover`"), "{text}");
}

#[test]
fn an_if_in_a_role_is_read_when_the_role_reaches_it() {
    // Night falls at tick 20; the archer walks for longer than that, then looks at the sky.
    let scenario = "map = \"map.txt\"\nticks = 80\n\
        [globals]\nGameTime = \"kDay\"\n\
        [[timeline]]\ntick = 20\nset = { GameTime = \"kNight\" }\n\
        [[entities]]\nname = \"captain\"\nkind = \"soldier\"\nteam = \"red\"\nat = [0, 0]\ntags = [\"archer\"]\nspeed = 2.0\nscripts = [\"watch.tac\"]\n";
    let tac = "sequence Watch {\n  role archer {\n    let far = 9;\n    MoveTo(far, 0);\n    if (GameTime == kNight) Say(\"It is night.\"); else Say(\"It is day.\");\n    Say(\"Done at \" + far + \".\");\n  }\n}\nonce on spawn start Watch;\n";
    let rt = common::play(&common::folder("late-if", scenario, &[("watch.tac", tac)]));
    assert!(!rt.trace().contains("script_error"), "{}", rt.trace());
    let lines: Vec<String> = says(&rt, "captain").into_iter().map(|(_, t)| t).collect();
    assert_eq!(lines, ["It is night.", "Done at 9."], "{}", rt.trace());
}

#[test]
fn team_and_world_signals_reach_beyond_the_squad() {
    // Squad `a` signals the whole team; squad `b`'s waiter (same team, another squad) hears it.
    let scenario = "map = \"map.txt\"\nticks = 10\n\
        [[entities]]\nname = \"caller\"\nkind = \"soldier\"\nteam = \"red\"\nsquad = \"a\"\nat = [0, 0]\nscripts = [\"call.tac\"]\n\
        [[entities]]\nname = \"listener\"\nkind = \"soldier\"\nteam = \"red\"\nsquad = \"b\"\nat = [0, 1]\nscripts = [\"listen.lua\"]\n\
        [[entities]]\nname = \"stranger\"\nkind = \"soldier\"\nteam = \"green\"\nat = [0, 2]\nscripts = [\"stranger.rhai\"]\n";
    let call = "sequence Call {\n  role caller {\n    signal team rally;\n    signal world dawn;\n  }\n}\nonce on spawn start Call;\n";
    let listen = "function sequence()\n  Wait(\"rally\", \"team\")\n  Say(\"Rallying.\")\nend\n";
    let stranger = "fn sequence() {\n    wait(\"dawn\", \"world\");\n    say(\"Morning.\");\n}\n";
    let path = common::folder(
        "signal-scopes",
        &scenario.replace("squad = \"a\"\nat = [0, 0]", "squad = \"a\"\nat = [0, 0]\ntags = [\"caller\"]"),
        &[("call.tac", call), ("listen.lua", listen), ("stranger.rhai", stranger)],
    );
    let rt = common::play(&path);
    assert!(!rt.trace().contains("script_error"), "{}", rt.trace());
    assert_eq!(says(&rt, "listener").len(), 1, "{}", rt.trace());
    assert_eq!(says(&rt, "stranger").len(), 1, "{}", rt.trace());
}
