//! Inputs a game must refuse rather than play: values with no meaning (NaN, a region inside out, a
//! zero period), files that are not files or are far too large, paths out of the scenario's
//! folder, and script calls that name places nobody declared. Each is refused at its file, line
//! and column, by `load` and by `tactica check` alike; and an interrupted run still writes its trace.

mod common;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tactica::scenario;

const TACTICA: &str = env!("CARGO_BIN_EXE_tactica");

fn write(name: &str, scenario: &str) -> PathBuf {
    common::folder(&format!("inputs-{name}"), scenario, &[])
}

/// Loads `text` and returns the error, asserting its line and column; `tactica check` must refuse
/// it with the same position.
fn refused(name: &str, text: &str, line: usize, column: usize) -> String {
    let path = write(name, text);
    let e = scenario::load(&path).expect_err("must not load");
    assert_eq!((e.pos.line, e.pos.column), (line, column), "{e}");
    let out = Command::new(TACTICA).arg("check").arg(&path).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "check accepted {name}: {stderr}");
    assert!(stderr.contains(&format!("scenario.toml:{line}:{column}")), "check names the place: {stderr}");
    e.to_string()
}

const ENTITY: &str = "[[entities]]\nname = \"a\"\nkind = \"b\"\n";

#[test]
fn numbers_without_meaning_are_refused_where_they_are_written() {
    let e = refused("nan-range", "map = \"map.txt\"\nencounter_range = nan\n", 2, 19);
    assert!(e.contains("`encounter_range` is not a finite number") && e.contains("hint"), "{e}");
    let e = refused("inf-speed", &format!("map = \"map.txt\"\n{ENTITY}at = [0, 0]\nspeed = -inf\n"), 6, 9);
    assert!(e.contains("`speed` is not a finite number"), "{e}");
    let e = refused("nan-global", "map = \"map.txt\"\n[globals]\nmorale = nan\n", 3, 10);
    assert!(e.contains("`morale`"), "{e}");
    let e = refused("negative-range", "map = \"map.txt\"\nencounter_range = -2.0\n", 2, 19);
    assert!(e.contains("encounter_range must be 0 or more, not -2"), "{e}");
}

#[test]
fn positions_regions_and_periods_are_checked() {
    let e = refused("nan-at", &format!("map = \"map.txt\"\n{ENTITY}at = [nan, 1]\n"), 5, 7);
    assert!(e.contains("`at` is not a finite number"), "{e}");
    let e = refused("float-at", &format!("map = \"map.txt\"\n{ENTITY}at = [1.5, 2]\n"), 5, 6);
    assert!(e.contains("a cell [x, y] of two whole numbers, or the name of a place"), "{e}");
    assert!(!e.contains("untagged"), "serde's wording is not for designers: {e}");
    let e = refused("region", "map = \"map.txt\"\n[regions]\nyard = { min = [4, 4], max = [1, 5] }\n", 3, 8);
    assert!(e.contains("region `yard` has its min [4, 4] past its max [1, 5]") && e.contains("swap"), "{e}");
    let text = format!("map = \"map.txt\"\n{ENTITY}at = [0, 0]\nthink_every = 0\nscripts = [\"a.lua\"]\n");
    let path = common::folder("inputs-think", &text, &[("a.lua", "function on_think() end\n")]);
    let e = scenario::load(&path).expect_err("think_every = 0 must not load");
    assert_eq!((e.pos.line, e.pos.column), (2, 1), "{e}");
    assert!(e.to_string().contains("`a` has think_every = 0: it must be 1 or more"), "{e}");
}

#[test]
fn files_that_are_not_files_or_are_too_large_are_refused_quickly() {
    let started = Instant::now();
    #[cfg(unix)]
    {
        let out = Command::new(TACTICA).args(["run", "/dev/zero"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains("/dev/zero: the scenario is not a regular file"), "{stderr}");
    }
    let big = "-- padding\n".repeat(110_000); // 1.2 MB, over the 1 MiB a script may be
    let text = format!("map = \"map.txt\"\n{ENTITY}at = [0, 0]\nscripts = [\"big.lua\"]\n");
    let path = common::folder("inputs-big", &text, &[("big.lua", &big)]);
    let scenario = scenario::load(&path).unwrap();
    let errors =
        tactica::runtime::Runtime::new(scenario, tactica::languages()).err().expect("a 1.2 MB script is refused");
    let e = errors[0].to_string();
    assert!(e.contains("big.lua") && e.contains("is larger than the 1024 KiB such a file may be"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(20), "refusing is quick: {:?}", started.elapsed());
}

#[test]
fn files_outside_the_scenario_folder_are_refused_unless_allowed() {
    let path = write("outside", &format!("map = \"map.txt\"\n{ENTITY}at = [0, 0]\nscripts = [\"../shared.lua\"]\n"));
    let dir = path.parent().unwrap();
    let shared = dir.parent().unwrap().join("shared.lua");
    std::fs::write(&shared, "function on_think() Note(\"shared\", 1) end\n").unwrap();
    let e = scenario::load(&path).expect_err("../ is outside");
    assert_eq!((e.pos.line, e.pos.column), (6, 12), "{e}");
    assert!(
        e.to_string().contains("lies outside the scenario's folder") && e.to_string().contains("allow_folders"),
        "{e}"
    );

    let common_dir = dir.join("../inputs-common");
    std::fs::create_dir_all(&common_dir).unwrap();
    std::fs::write(common_dir.join("shared.lua"), "function on_think() Note(\"shared\", 1) end\n").unwrap();
    let allowed = format!(
        "map = \"map.txt\"\nallow_folders = [\"../inputs-common\"]\nticks = 1\n{ENTITY}at = [0, 0]\nscripts = [\"../inputs-common/shared.lua\"]\n"
    );
    std::fs::write(&path, allowed).unwrap();
    let rt = common::play(&path);
    assert_eq!(common::note_values(&rt.trace()), vec![serde_json::json!(1)]);

    std::fs::write(&path, "map = \"map.txt\"\nallow_folders = [\"../no-such-folder\"]\n").unwrap();
    let e = scenario::load(&path).expect_err("a missing folder is refused");
    assert_eq!((e.pos.line, e.pos.column), (2, 18), "{e}");
}

#[test]
fn moving_to_a_place_nobody_declared_is_a_script_error() {
    let text = "map = \"map.txt\"\nticks = 2\n[places]\nkDock = [3, 3]\n\
                [[entities]]\nname = \"l\"\nkind = \"b\"\nat = [0, 0]\nscripts = [\"l.lua\"]\n\
                [[entities]]\nname = \"r\"\nkind = \"b\"\nat = [0, 1]\nscripts = [\"r.rhai\"]\n";
    let path = common::folder(
        "inputs-place",
        text,
        &[
            ("l.lua", "function on_think()\n  MoveTo(\"kDok\")\nend\n"),
            ("r.rhai", "fn on_think() {\n  MoveTo(\"nowhere\");\n}\n"),
        ],
    );
    let rt = common::play(&path);
    let trace = rt.trace();
    let errors: Vec<&str> = trace.lines().filter(|l| l.contains("\"kind\":\"script_error\"")).collect();
    // Each entity, each tick: recorded on tick 0, tick 1's repeat counted (docs/trace.md).
    assert_eq!(errors.len(), 2, "{trace}");
    let times: Vec<u64> = common::error_runs(&rt).iter().map(|r| r.3).collect();
    assert_eq!(times, [2, 2], "{trace}");
    assert!(errors[0].contains("l.lua") && errors[0].contains("did you mean `kDock`?"), "{}", errors[0]);
    assert!(errors[1].contains("r.rhai") && errors[1].contains("`nowhere`"), "{}", errors[1]);
    assert!(!trace.contains("\"kind\":\"move"), "nobody moved: {trace}");
}

/// A running `tactica run --watch` stopped with Ctrl-C (SIGINT) writes the trace it played and
/// prints that trace's hash.
#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_trace_so_far() {
    let text = "map = \"map.txt\"\ntick_rate = 50\n[[entities]]\nname = \"a\"\nkind = \"b\"\nat = [0, 0]\n\
                scripts = [\"a.lua\"]\n";
    let path = common::folder("inputs-ctrlc", text, &[("a.lua", "function on_think() Note(\"t\", 1) end\n")]);
    let trace = path.with_file_name("trace.jsonl");
    let mut child = Command::new(TACTICA)
        .args(["run", "--watch", "--quiet", "--trace"])
        .arg(&trace)
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("Playing"), "{first}");
    std::thread::sleep(Duration::from_millis(600)); // about 30 ticks at 50 Hz
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(rest.contains("interrupted after"), "{rest}");
    let written = std::fs::read_to_string(&trace).expect("the trace is written");
    let notes = written.lines().filter(|l| l.contains("\"kind\":\"note\"")).count();
    assert!(notes >= 5, "some ticks were played: {notes}");
    let hash = rest.lines().find_map(|l| l.strip_prefix("trace sha256 ")).expect("the hash is printed");
    assert_eq!(hash, tactica::runtime::trace_hash(&written), "the printed hash is the written trace's");
    let played: u64 = rest.split("interrupted after ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert_eq!(notes as u64, played, "one note per played tick");
}
