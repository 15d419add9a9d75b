//! What the command line promises a CI job and a shell user: every example checks clean, a trace
//! can go to standard output, script errors fail a run unless told to keep going, a closed pipe
//! ends the program quietly, counts read as English, and a team's influence is drawn in the team's
//! colour.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const TACTICA: &str = env!("CARGO_BIN_EXE_tactica");

fn tactica(args: &[&str]) -> std::process::Output {
    Command::new(TACTICA).args(args).output().unwrap()
}

#[test]
fn every_example_folder_checks_clean() {
    let out = tactica(&["check", "examples"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(", 0 errors, 0 warnings"), "{stdout}");
    for dir in std::fs::read_dir("examples").unwrap().flatten().filter(|e| e.path().is_dir()) {
        let out = tactica(&["check", dir.path().to_str().unwrap()]);
        assert!(out.status.success(), "{}: {}", dir.path().display(), String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn counts_read_as_english() {
    let path = common::folder("cli-one", "map = \"map.txt\"\nticks = 1\n", &[]);
    let out = tactica(&["check", path.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 file checked, 0 errors, 0 warnings"));
    let out = tactica(&["run", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Played 1 tick (0.1 s of game time): 0 entities, 0 events"), "{stdout}");
}

#[test]
fn a_trace_to_standard_output_is_the_trace_alone() {
    let out = tactica(&["run", "examples/castle", "--trace", "-", "--ticks", "20"]);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!std::path::Path::new("-").exists(), "no file named `-`");
    assert!(stdout.lines().count() > 10);
    for line in stdout.lines() {
        serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{line}: {e}"));
    }
    let hash = stderr.lines().find_map(|l| l.strip_prefix("trace sha256 ")).expect("the summary is on stderr");
    assert_eq!(hash, tactica::runtime::trace_hash(&stdout));
}

#[test]
fn script_errors_fail_a_run_unless_it_keeps_going() {
    let text =
        "map = \"map.txt\"\nticks = 2\n[[entities]]\nname = \"a\"\nkind = \"b\"\nat = [0, 0]\nscripts = [\"a.lua\"]\n";
    let path = common::folder("cli-errors", text, &[("a.lua", "function on_think() error('boom') end\n")]);
    let out = tactica(&["run", path.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("2 script errors were reported"), "{stdout}");
    let out = tactica(&["run", "--keep-going", path.to_str().unwrap()]);
    assert!(out.status.success());
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    use std::os::unix::process::ExitStatusExt;
    let mut child = Command::new(TACTICA)
        .args(["run", "examples/castle"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap(); // then the pipe closes
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    assert!(first.starts_with("Playing"), "{first}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(status.success() || status.signal() == Some(13), "ended by SIGPIPE or done: {status:?}");
}

#[test]
fn a_teams_influence_is_drawn_in_its_colour() {
    let png = tempfile::Builder::new().prefix("tactica-blue-").tempdir().unwrap().keep().join("blue.png");
    let out = tactica(&[
        "render",
        "examples/tactics",
        "--layer",
        "influence.blue",
        "--tick",
        "20",
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let img = image::open(&png).unwrap().to_rgb8();
    // The legend's high end (right of the ramp, just under the map) is the strongest colour.
    let (w, h) = img.dimensions();
    let ramp_y = h - tactica::render::LEGEND_PX + 6;
    let hot = img.get_pixel(w - 1, ramp_y).0;
    let cold = img.get_pixel(0, ramp_y).0;
    assert!(i32::from(hot[2]) > i32::from(hot[0]) + 40, "the strongest blue influence is blue, not red: {hot:?}");
    assert!(cold[0] >= hot[0] && cold[1] >= hot[1], "the weak end is pale: {cold:?} vs {hot:?}");
    std::fs::remove_file(&png).unwrap();
}
