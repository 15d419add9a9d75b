//! One front end for everything a designer types: a scenario's model conditions and its query
//! files are read by the same lexer and grammar as `.tac`, and their mistakes come out the same
//! way — a stable code `tactica explain` knows, the place, a label and a hint.

mod common;

use std::process::Command;

const TACTICA: &str = env!("CARGO_BIN_EXE_tactica");

/// `tactica ARGS` run inside `dir`; its stdout and stderr, with the summary line first.
fn tactica_in(dir: &std::path::Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(TACTICA).args(args).current_dir(dir).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

const GUARD: &str = "initial = \"idle\"\n\n[[states]]\nname = \"idle\"\n\
transitions = [ { when = \"sees_player and health < MaxHealth() / 4\", to = \"flee\" } ]\n\n\
[[states]]\nname = \"flee\"\n";

const SCENARIO: &str = "map = \"map.txt\"\nticks = 5\n\n[models]\nguard = { fsm = \"guard.toml\" }\n";

#[test]
fn a_call_in_a_model_condition_is_refused_with_its_code_place_and_hint() {
    let path = common::folder("fe-model", SCENARIO, &[("guard.toml", GUARD)]);
    let dir = path.parent().unwrap();
    let (ok, text) = tactica_in(dir, &["check", "scenario.toml"]);
    assert!(!ok);
    insta::assert_snapshot!(text, @r"
    1 file checked, 1 error, 0 warnings
    error: guard.toml:5:52: [E0090] in `sees_player and health < MaxHealth() / 4`: a model compares a fact with a constant (expected a number, a string, `true`/`false` or a symbol)
      hint: compute the value in a `.tac` script and store it as a fact
    ");
    // Written as a fact the model reads, it loads and plays.
    let fixed = GUARD.replace("health < MaxHealth() / 4", "health < 25");
    let path = common::folder("fe-model-fixed", SCENARIO, &[("guard.toml", &fixed)]);
    let (ok, text) = tactica_in(path.parent().unwrap(), &["check", "scenario.toml"]);
    assert!(ok, "{text}");
}

#[test]
fn a_model_condition_has_the_tac_hints() {
    // `=` for `==` gets the hint a `.tac` condition gets, at the `=`.
    let bad = GUARD.replace("sees_player and health < MaxHealth() / 4", "alarm = Yes");
    let path = common::folder("fe-model-eq", SCENARIO, &[("guard.toml", &bad)]);
    let (_, text) = tactica_in(path.parent().unwrap(), &["check", "scenario.toml"]);
    insta::assert_snapshot!(text, @r"
    1 file checked, 1 error, 0 warnings
    error: guard.toml:5:33: [E0001] in `alarm = Yes`: `=` in a condition (`=` sets a value)
      hint: to compare, write `==` (`if (PlayerArmed == TRUE)`)
    ");
}

const COVER: &str = "-- hide from the target, nearest first\nquery hide {\n    option {\n        \
Generation { grid_around_puppet = 8 }\n        Conditions { visble_from_target = false }\n        \
Weights    { distance_from_puppet = -1.0 }\n    }\n}\n";

#[test]
fn query_files_are_checked_and_rendered_like_tac() {
    let scenario = "map = \"map.txt\"\nticks = 5\n\n[queries]\nfiles = [\"cover.tps\"]\n";
    let broken = "query hide {\n    option {\n        Generation { grid_around_puppet 8 }\n    }\n}\n";
    let path = common::folder("fe-tps", scenario, &[("cover.tps", COVER), ("broken.tps", broken)]);
    let dir = path.parent().unwrap();
    let (ok, text) = tactica_in(dir, &["check", "cover.tps", "broken.tps"]);
    assert!(!ok);
    insta::assert_snapshot!(text, @r"
    2 files checked, 2 errors, 0 warnings
    [E0091] Error: unknown keyword `visble` in `visble_from_target`; did you mean `visible`?
       ╭─[ cover.tps:5:22 ]
       │
     5 │         Conditions { visble_from_target = false }
       │                      ─────────┬────────  
       │                               ╰────────── here
    ───╯

    [E0001] Error: unexpected `8`
       ╭─[ broken.tps:3:41 ]
       │
     3 │         Generation { grid_around_puppet 8 }
       │                                         ┬  
       │                                         ╰── expected `=` or `{`
    ───╯
    ");
    // The scenario names the file, so loading it reports the same mistake with the same code.
    let (_, text) = tactica_in(dir, &["check", "scenario.toml"]);
    assert!(text.contains("cover.tps:5:22: [E0091] unknown keyword `visble`"), "{text}");
    // The codes are explained.
    for code in ["E0090", "E0091", "E0092", "E0093"] {
        let (ok, text) = tactica_in(dir, &["explain", code]);
        assert!(ok && text.starts_with(code), "{text}");
    }
}

#[test]
fn a_condition_means_the_same_in_a_model_and_in_tac() {
    // Strings compare without regard to case in `.tac`; a model's condition agrees.
    let facts: tactica_engine::value::Table =
        [("Temple".to_owned(), tactica_engine::Value::from("yes")), ("health".to_owned(), 12.into())].into();
    let e = tactica_engine::decide::expr::Expr::parse("Temple == Yes and not (health >= 20)").unwrap();
    assert!(e.eval(&facts));
}
