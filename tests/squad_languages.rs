//! Signal analysis across languages: `tactica check` (and so `run`) pairs a `.tac` sequence's
//! `wait`s and `signal`s with what the squad's Lua and Rhai scripts send and wait for (literal
//! ids), stays silent where it cannot know (a computed id), and still refuses a wait nobody can
//! signal whatever languages the squad-mates are written in.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A copy of `tests/squad` in a fresh folder of its own, with `edits` (file, from, to) made.
fn squad(tag: &str, edits: &[(&str, &str, &str)]) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-squad-{tag}-")).tempdir().unwrap().keep();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/squad");
    for e in std::fs::read_dir(&from).unwrap().flatten() {
        let mut text = std::fs::read_to_string(e.path()).unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        for (file, a, b) in edits {
            if *file == name {
                assert!(text.contains(a), "{file} has no `{a}`");
                text = text.replace(a, b);
            }
        }
        std::fs::write(dir.join(&name), text).unwrap();
    }
    dir
}

/// `tactica CMD DIR`, without colour: (success, stdout + stderr).
fn tactica(cmd: &str, dir: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tactica")).arg(cmd).arg(dir).env("NO_COLOR", "1").output().unwrap();
    (out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn a_squad_in_three_languages_checks_clean_and_plays() {
    let dir = squad("clean", &[]);
    let (ok, text) = tactica("check", &dir);
    assert!(ok && text.contains("4 files checked, 0 errors, 0 warnings"), "{text}");
    let (ok, text) = tactica("run", &dir);
    assert!(ok, "{text}");
    // The Lua cover's "ready" releases the .tac sergeant, whose "go" releases both the others,
    // and the Rhai medic's "patched" the sergeant again.
    for line in [
        "[    3] sarge is released by `ready`",
        "[    3] luac is released by `go`",
        "[    3] rhaic is released by `go`",
        "[    4] sarge is released by `patched`",
        "[    4] sarge says: \"Moving.\"",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

#[test]
fn a_wait_nobody_signals_is_still_refused_whoever_the_squad_mates_are() {
    // Nobody sends `ready` any more: not the Lua cover (it sends `steady`), not the medic.
    for (tag, edits) in [
        ("lua-other", vec![("cover.lua", "Signal(\"ready\")", "Signal(\"steady\")")]),
        // The same with the sender in Rhai instead of Lua.
        (
            "rhai-other",
            vec![
                ("cover.lua", "Signal(\"ready\")", "Signal(\"steady\")"),
                ("medic.rhai", "signal(\"patched\");", "signal(\"patched\");\n    signal(\"ready\", \"team\");"),
            ],
        ),
        // A `ready` sent to the whole team does not release a wait in the squad's scope.
        ("team-scope", vec![("cover.lua", "Signal(\"ready\")", "Signal(\"ready\", \"team\")")]),
    ] {
        let dir = squad(tag, &edits);
        let (ok, text) = tactica("check", &dir);
        assert!(!ok, "{tag}: {text}");
        assert!(text.contains("[E0061]") && text.contains("no role sends `ready`"), "{tag}: {text}");
        let (ok, text) = tactica("run", &dir);
        assert!(!ok && text.contains("E0061"), "{tag}: run refuses it too: {text}");
    }
}

#[test]
fn a_signal_only_a_lua_or_rhai_mate_waits_for_is_not_unused() {
    // The sergeant sends `go`; only the Lua cover and the Rhai medic wait for it.
    let dir = squad("unused", &[]);
    let (_, text) = tactica("check", &dir);
    assert!(!text.contains("E0062"), "{text}");
    // With the medic and the cover waiting for something else, `go` is unused again.
    let dir = squad(
        "unused-again",
        &[("cover.lua", "Wait(\"go\")", "Wait(\"went\")"), ("medic.rhai", "wait(\"go\");", "wait(\"went\");")],
    );
    let (_, text) = tactica("check", &dir);
    assert!(text.contains("[E0062]") && text.contains("signal `go` is never waited for"), "{text}");
}

#[test]
fn a_computed_signal_id_leaves_the_check_silent() {
    // `"rea" .. "dy"` is `ready` at run time; check cannot know it, so it does not refuse.
    let dir = squad("computed", &[("cover.lua", "Signal(\"ready\")", "Signal(\"rea\" .. \"dy\")")]);
    let (ok, text) = tactica("check", &dir);
    assert!(ok && !text.contains("E0061"), "{text}");
    let (ok, text) = tactica("run", &dir);
    assert!(ok && text.contains("sarge is released by `ready`"), "{text}");
}
