//! Adaptive tactics in play: an `adaptive` model learns from what scripts record and chooses by
//! it, the same in `.tac`, Lua and Rhai.

use tactica::runtime::Runtime;

mod common;

const MODEL: &str = "tactics = [\"defensive\", \"offensive\", \"berserk\", \"balanced\"]\ndefault = \"balanced\"\n";

fn play(ext: &str) -> Vec<String> {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-adaptive-{ext}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "....\n").unwrap();
    std::fs::write(dir.join("duel.toml"), MODEL).unwrap();
    // Each think: note the choice for "cornered", then report that defending worked there and
    // berserking did not, and note how defending has done in the open (never tried: nil).
    let script = match ext {
        "lua" => {
            "function on_think()\n  Note(\"choice\", AdaptiveChoose(\"duel\", \"cornered\"))\n  AdaptiveRecord(\"duel\", \"cornered\", \"defensive\", 1)\n  AdaptiveRecord(\"duel\", \"cornered\", \"berserk\", 0)\n  Note(\"open\", AdaptiveChoose(\"duel\", \"open\"))\n  Note(\"rate\", AdaptiveRate(\"duel\", \"cornered\", \"berserk\"))\nend\n"
        }
        "rhai" => {
            "fn on_think() {\n  note(\"choice\", adaptive_choose(\"duel\", \"cornered\"));\n  adaptive_record(\"duel\", \"cornered\", \"defensive\", 1);\n  adaptive_record(\"duel\", \"cornered\", \"berserk\", 0);\n  note(\"open\", adaptive_choose(\"duel\", \"open\"));\n  note(\"rate\", adaptive_rate(\"duel\", \"cornered\", \"berserk\"));\n}\n"
        }
        _ => {
            "on think {\n  Note(\"choice\", AdaptiveChoose(\"duel\", \"cornered\"));\n  AdaptiveRecord(\"duel\", \"cornered\", \"defensive\", 1);\n  AdaptiveRecord(\"duel\", \"cornered\", \"berserk\", 0);\n  Note(\"open\", AdaptiveChoose(\"duel\", \"open\"));\n  Note(\"rate\", AdaptiveRate(\"duel\", \"cornered\", \"berserk\"));\n}\n"
        }
    };
    std::fs::write(dir.join(format!("fighter.{ext}")), script).unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        format!(
            "map = \"map.txt\"\n[models]\nduel = {{ adaptive = \"duel.toml\" }}\n\n\
             [[entities]]\nname = \"fighter\"\nkind = \"orc\"\nat = [0, 0]\nscripts = [\"fighter.{ext}\"]\n"
        ),
    )
    .unwrap();
    let rt = common::run_ticks(&dir.join("scenario.toml"), 3);
    common::note_values(&rt.trace()).iter().map(ToString::to_string).collect()
}

#[test]
fn an_adaptive_model_prefers_what_worked_in_each_context_in_every_language() {
    let lua = play("lua");
    assert_eq!(play("rhai"), lua);
    assert_eq!(play("tac"), lua);
    // Tick 0: no history anywhere, so the default for both contexts, and berserk untried. From
    // tick 1 on, in the corner defending scores 1, berserking 0 and the untried count 0.5:
    // defending wins; the open has no history still, so the default.
    let expected = [
        "\"balanced\"",
        "\"balanced\"",
        "null",
        "\"defensive\"",
        "\"balanced\"",
        "0.0",
        "\"defensive\"",
        "\"balanced\"",
        "0.0",
    ];
    assert_eq!(lua, expected);
}

#[test]
fn an_unknown_tactic_is_an_error_with_a_suggestion() {
    let dir = tempfile::Builder::new().prefix("tactica-adaptive-bad-").tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "....\n").unwrap();
    std::fs::write(dir.join("duel.toml"), MODEL).unwrap();
    std::fs::write(dir.join("f.lua"), "function on_think() AdaptiveRecord(\"duel\", \"x\", \"defensiv\", 1) end\n")
        .unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        "map = \"map.txt\"\n[models]\nduel = { adaptive = \"duel.toml\" }\n[[entities]]\nname = \"a\"\nkind = \"k\"\nat = [0, 0]\nscripts = [\"f.lua\"]\n",
    )
    .unwrap();
    let loaded = tactica::scenario::load(&dir.join("scenario.toml")).unwrap();
    let mut rt = Runtime::new(loaded, tactica::languages()).unwrap_or_else(|_| panic!("loads"));
    rt.run(1);
    assert!(rt.trace().contains("did you mean `defensive`?"), "{}", rt.trace());
}
