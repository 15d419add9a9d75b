//! The `tactica` binary as a user meets it: exit codes, help, the readable log, the hash.

use std::process::{Command, Output};

fn tactica(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().expect("the binary runs")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn run_plays_the_example_and_prints_a_readable_log_and_the_hash() {
    let trace = std::env::temp_dir().join(format!("tactica-cli-{}.jsonl", std::process::id()));
    let o = tactica(&["run", "examples/harbour", "--trace", trace.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("lookout says: \"Lock's open. Go!\""), "{out}");
    assert!(out.contains("runner is released by `breach`"), "{out}");
    assert!(out.contains("guard enters trapdoor"), "{out}");
    let written = std::fs::read_to_string(&trace).unwrap();
    let hash = tactica::runtime::trace_hash(&written);
    assert!(out.trim_end().ends_with(&format!("trace sha256 {hash}")), "{out}");
    // Fewer ticks, another seed: still fine, a shorter trace.
    let o = tactica(&["run", "examples/harbour/scenario.toml", "--ticks", "10", "--seed", "3", "-q"]);
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(out.contains("Played 10 ticks (1.0 s of game time)"), "{out}");
    assert!(!out.contains("[    0]"), "quiet prints only the summary");
}

#[test]
fn exit_codes_are_0_ok_1_errors_2_usage() {
    assert_eq!(tactica(&["check", "examples/harbour"]).status.code(), Some(0));
    let bad = std::env::temp_dir().join(format!("tactica-cli-bad-{}", std::process::id()));
    std::fs::create_dir_all(&bad).unwrap();
    std::fs::write(bad.join("scenario.toml"), "map = \"m.txt\"\nsed = 1\n").unwrap();
    std::fs::write(bad.join("m.txt"), "..\n.q\n").unwrap();
    let o = tactica(&["check", bad.to_str().unwrap(), bad.join("m.txt").to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(err.contains("scenario.toml:2:1: unknown field `sed`"), "{err}");
    assert!(err.contains("hint: did you mean `seed`?"), "{err}");
    assert!(err.contains("m.txt:2:2: unknown tile 'q'"), "{err}");
    assert!(out.contains("2 files checked, 2 errors"), "{out}");
    assert_eq!(tactica(&["run", bad.join("scenario.toml").to_str().unwrap()]).status.code(), Some(1));
    assert_eq!(tactica(&["run"]).status.code(), Some(2));
    assert_eq!(tactica(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(tactica(&["run", "x", "--ticks", "many"]).status.code(), Some(2));
}

#[test]
fn every_command_has_help() {
    for args in [&["--help"][..], &["run", "--help"], &["check", "--help"]] {
        let o = tactica(args);
        let (out, _) = text(&o);
        assert!(o.status.success(), "{args:?}");
        assert!(out.contains("Usage: tactica"), "{args:?}: {out}");
    }
}
