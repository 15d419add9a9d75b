//! Output people like and output programs read: ariadne colour at a terminal (none under
//! `NO_COLOR` or through a pipe, `--color` decides outright), and `--format json` on `check`,
//! `query` and `path`, one object per line as docs/json.md says.

use std::process::{Command, Output};

use serde_json::Value;

fn tactica(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().expect("the binary runs")
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect()
}

fn scratch(name: &str, file: &str, text: &str) -> String {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-formats-{name}-")).tempdir().unwrap().keep();
    let path = dir.join(file);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

const ESC: &str = "\u{1b}[";

#[test]
fn check_json_is_one_object_per_diagnostic_and_a_summary() {
    let bad = scratch("check", "bad.tac", "If (PlayerArmd == Dagger) DoFlea();\n");
    let out = tactica(&["check", &bad, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3, "{lines:?}");
    let first = &lines[0];
    assert_eq!(first["type"], "diagnostic");
    assert_eq!(first["severity"], "error");
    assert_eq!(first["code"], "E0010");
    assert_eq!(first["file"], bad.as_str());
    assert_eq!((first["line"].as_u64(), first["column"].as_u64()), (Some(1), Some(5)));
    assert_eq!((first["end_line"].as_u64(), first["end_column"].as_u64()), (Some(1), Some(15)));
    assert_eq!(first["message"], "unknown name `PlayerArmd`");
    assert_eq!(first["hint"], "did you mean `PlayerArmed`?");
    assert_eq!(lines[1]["code"], "E0011");
    assert_eq!(lines[1]["column"].as_u64(), Some(27));
    assert_eq!(
        lines[2],
        serde_json::json!({"type": "summary", "files": 1, "scripts_linted_with_their_scenario": 0, "errors": 2, "warnings": 0})
    );
    // Nothing for people on stderr: the objects are the whole report.
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    // A clean folder: only the summary.
    let out = tactica(&["check", "examples/cover", "--format", "json"]);
    assert!(out.status.success());
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["errors"], 0);
}

#[test]
fn colour_only_when_asked_or_at_a_terminal_without_no_color() {
    let bad = scratch("colour", "bad.tac", "DoFlea();\n");
    let piped = tactica(&["check", &bad]);
    let text = String::from_utf8_lossy(&piped.stderr);
    assert!(text.contains("[E0011] Error: unknown function `DoFlea`") && !text.contains(ESC), "{text}");
    let forced = tactica(&["check", &bad, "--color", "always"]);
    assert!(String::from_utf8_lossy(&forced.stderr).contains(ESC));
    let never = tactica(&["--color", "never", "check", &bad]);
    assert!(!String::from_utf8_lossy(&never.stderr).contains(ESC));

    // At a terminal: `script` gives the command a pseudo-terminal.
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("passed over the terminal case: util-linux `script` is not installed");
        return;
    }
    let at_terminal = |no_color: Option<&str>| {
        let mut cmd = Command::new("script");
        cmd.args(["-qec", &format!("{} check {bad}", env!("CARGO_BIN_EXE_tactica")), "/dev/null"]);
        cmd.env_remove("NO_COLOR");
        if let Some(v) = no_color {
            cmd.env("NO_COLOR", v);
        }
        String::from_utf8_lossy(&cmd.output().unwrap().stdout).into_owned()
    };
    let coloured = at_terminal(None);
    assert!(coloured.contains("DoFlea") && coloured.contains(ESC), "{coloured:?}");
    let plain = at_terminal(Some("1"));
    assert!(plain.contains("DoFlea") && !plain.contains(ESC), "{plain:?}");
}

#[test]
fn query_json_has_every_candidate_of_the_text_record_and_the_outcome() {
    let text = tactica(&["query", "examples/cover", "--entity", "scout"]);
    let text = String::from_utf8_lossy(&text.stdout).into_owned();
    let candidates_in_text = text.lines().filter(|l| l.starts_with("  (")).count();
    let out = tactica(&["query", "examples/cover", "--entity", "scout", "--format", "json"]);
    assert!(out.status.success());
    let lines = json_lines(&out);
    let (outcome, candidates) = lines.split_last().unwrap();
    assert_eq!(candidates.len(), candidates_in_text);
    assert!(candidates.iter().all(|c| c["type"] == "candidate" && c["query"] == "hide_from_sniper"));
    let best: Vec<&Value> = candidates.iter().filter(|c| c["status"] == "chosen").collect();
    assert_eq!(best.len(), 1);
    assert_eq!(best[0]["rank"], 1);
    // The text's result line names the same point and score.
    let result = text.lines().find(|l| l.starts_with("result 1:")).unwrap();
    let (x, y, score) =
        (best[0]["x"].as_f64().unwrap(), best[0]["y"].as_f64().unwrap(), best[0]["score"].as_f64().unwrap());
    assert!(result.starts_with(&format!("result 1: ({x:.2}, {y:.2}) score {score:.3}")), "{result} vs {best:?}");
    assert_eq!(outcome["type"], "outcome");
    assert_eq!(outcome["found"], true);
    assert_eq!(outcome["outcome"], "found 1 point(s) in option 1");
}

#[test]
fn path_json_is_one_object_per_query_and_the_totals() {
    let map = scratch("path", "m.map", "type octile\nheight 3\nwidth 4\nmap\n.@..\n.@..\n....\n");
    // The scenario file beside its map, as the benchmark sets ship them.
    let scen = std::path::Path::new(&map).with_file_name("m.map.scen");
    std::fs::write(&scen, "version 1\n0\tm.map\t4\t3\t0\t0\t2\t0\t6\n0\tm.map\t4\t3\t0\t0\t3\t0\t3\n").unwrap();
    let scen = scen.to_string_lossy().into_owned();
    let out = tactica(&["path", &map, &scen, "--algo", "astar", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1), "the second optimal length is wrong");
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["type"], "query");
    assert_eq!(lines[0]["start"], serde_json::json!([0, 0]));
    assert_eq!(lines[0]["goal"], serde_json::json!([2, 0]));
    assert_eq!(lines[0]["length"], 6.0);
    assert_eq!(lines[0]["matches"], true);
    assert_eq!(lines[1]["line"], 3);
    assert_eq!(lines[1]["optimal"], 3.0);
    assert_eq!(lines[1]["matches"], false);
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!((lines[2]["queries"].as_u64(), lines[2]["mismatches"].as_u64()), (Some(2), Some(1)));
}
