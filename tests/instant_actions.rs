//! Talking does not disturb walking, in every language: a scout's behaviour script asks for the
//! well 18 cells away round a wall on every think (`MoveTo(kWell)`, which continues the move
//! already running) and, every few thinks, does something instant — says a line, plays a sound,
//! fires a trigger, sends a signal (in its squad or a named scope), orders a building, or all of
//! them at once, before or after asking for the move. Each walk makes exactly the searches of the
//! walk that only takes notes, arrives on the same tick and crosses the same cells; and the same
//! behaviour written in `.tac`, Lua and Rhai leaves byte-identical traces.

mod common;
#[path = "../engine/tests/walk/mod.rs"]
mod walk;

use tactica::runtime::Runtime;
use tactica_engine::world::{Event, EventKind};

/// A 12 × 10 yard with a wall down column 6 from the top to row 7.
const MAP: &str = "\
......#.....
......#.....
......#.....
......#.....
......#.....
......#.....
......#.....
......#.....
............
............
";

fn scenario(script: &str) -> String {
    format!(
        r#"name = "Well run"
map = "yard.txt"
seed = 9
ticks = 60

[places]
kWell = [10, 1]

[[entities]]
name = "scout"
kind = "scout"
at = [3, 1]
speed = 5.0
team = "blue"
scripts = ["{script}"]
think_every = 1
"#
    )
}

/// The instants, each as `.tac`, Lua and Rhai write it; `None` takes a note instead (a call
/// that touches no action queue).
const INSTANTS: &[(&str, [&str; 3])] = &[
    ("note", ["Note(\"quiet\", 1);", "Note(\"quiet\", 1)", "Note(\"quiet\", 1);"]),
    ("say", ["Say(\"Step \" + Random(1000));", "Say(\"Step \" .. Random(1000))", "Say(\"Step \" + Random(1000));"]),
    ("sound", ["PlaySound(\"steps\");", "PlaySound(\"steps\")", "PlaySound(\"steps\");"]),
    ("trigger", ["Trigger(\"tripwire\");", "Trigger(\"tripwire\")", "Trigger(\"tripwire\");"]),
    ("signal", ["Signal(\"moving\");", "Signal(\"moving\")", "Signal(\"moving\");"]),
    ("team signal", ["Signal(\"moving\", \"team\");", "Signal(\"moving\", \"team\")", "Signal(\"moving\", \"team\");"]),
    ("build", ["Build(\"tower\");", "Build(\"tower\")", "Build(\"tower\");"]),
    (
        "all",
        [
            "Say(\"Step \" + Random(1000)); PlaySound(\"steps\"); Trigger(\"tripwire\"); Signal(\"moving\"); \
             Build(\"tower\");",
            "Say(\"Step \" .. Random(1000)) PlaySound(\"steps\") Trigger(\"tripwire\") Signal(\"moving\") \
             Build(\"tower\")",
            "Say(\"Step \" + Random(1000)); PlaySound(\"steps\"); Trigger(\"tripwire\"); Signal(\"moving\"); \
             Build(\"tower\");",
        ],
    ),
];

/// The scout's script in `lang` (0 `.tac`, 1 Lua, 2 Rhai): the instant on one think in three
/// (by the world's generator, so the three languages draw alike), before or after the move.
fn script(lang: usize, instant: &str, before: bool) -> (String, String) {
    let (file, text) = match lang {
        0 => {
            let walk = "MoveTo(kWell);";
            let body = if before {
                format!("if (Random(3) == 0) {{ {instant} }}\n  {walk}")
            } else {
                format!("{walk}\n  if (Random(3) == 0) {{ {instant} }}")
            };
            ("scout.tac", format!("on think {{\n  {body}\n}}\n"))
        }
        1 => {
            let walk = "MoveTo(\"kWell\")";
            let body = if before {
                format!("if Random(3) == 0 then {instant} end\n  {walk}")
            } else {
                format!("{walk}\n  if Random(3) == 0 then {instant} end")
            };
            ("scout.lua", format!("function on_think()\n  {body}\nend\n"))
        }
        _ => {
            let walk = "MoveTo(\"kWell\");";
            let body = if before {
                format!("if Random(3) == 0 {{ {instant} }}\n  {walk}")
            } else {
                format!("{walk}\n  if Random(3) == 0 {{ {instant} }}")
            };
            ("scout.rhai", format!("fn on_think() {{\n  {body}\n}}\n"))
        }
    };
    (file.to_owned(), text)
}

/// What a walk did (the engine tests' summary) and its trace.
#[derive(Debug)]
struct Walk {
    summary: walk::Walk,
    trace: String,
}

impl std::ops::Deref for Walk {
    type Target = walk::Walk;
    fn deref(&self) -> &walk::Walk {
        &self.summary
    }
}

fn walk(lang: usize, name: &str, instant: &str, before: bool) -> Walk {
    let (file, text) = script(lang, instant, before);
    let path = common::folder(
        &format!("instant-{lang}-{}-{before}", name.replace(' ', "-")),
        &scenario(&file),
        &[(file.as_str(), text.as_str()), ("yard.txt", MAP)],
    );
    let rt: Runtime = common::play(&path);
    let events: &[Event] = rt.world().log().events();
    let errors: Vec<&Event> = events.iter().filter(|e| matches!(e.kind, EventKind::ScriptError { .. })).collect();
    assert!(errors.is_empty(), "{file} ({name}): {errors:?}\n{text}");
    Walk {
        summary: walk::Walk::from_events(events),
        // The script's file name is the one thing the languages' traces may differ in.
        trace: rt.trace().replace(&file, "scout"),
    }
}

#[test]
fn the_walk_that_only_takes_notes_searches_once() {
    for lang in 0..3 {
        let quiet = walk(lang, "note", INSTANTS[0].1[lang], true);
        assert_eq!(quiet.searches, [0], "one search, on the first tick");
        assert_eq!(quiet.cells.len(), 18, "{:?}", quiet.cells);
        assert_eq!(quiet.cells.last(), Some(&[10, 1]));
        assert_eq!(quiet.arrived, Some(33));
        assert_eq!(quiet.instants, 0);
    }
}

#[test]
fn no_instant_in_any_language_restarts_or_replans_the_move() {
    for before in [true, false] {
        let quiet = walk(0, "note", INSTANTS[0].1[0], before);
        for (name, texts) in &INSTANTS[1..] {
            let tac = walk(0, name, texts[0], before);
            assert_eq!(tac.searches, quiet.searches, "{name} (before the move: {before})");
            assert_eq!(tac.arrived, quiet.arrived, "{name} (before the move: {before})");
            assert_eq!(tac.cells, quiet.cells, "{name} (before the move: {before})");
            assert!(tac.instants >= 10, "{name}: {} instants", tac.instants);
            for (lang, text) in texts.iter().enumerate().skip(1) {
                let other = walk(lang, name, text, before);
                assert_eq!(other.trace, tac.trace, "{name} in language {lang} (before the move: {before})");
            }
        }
    }
}
