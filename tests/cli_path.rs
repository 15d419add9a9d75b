//! `tactica path`: solving a MovingAI scenario file from the command line.

use std::path::PathBuf;
use std::process::{Command, Output};

fn tactica(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().expect("the binary runs")
}

/// A folder with a 4 × 3 map (a wall at x = 1, rows 0–1, so the way from (0,0) to (2,0) runs
/// round its foot without cutting a corner: 6 steps) and scenario text of our own.
fn fixture(name: &str, scen: &str) -> (PathBuf, String, String) {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-cli-path-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("m.map"), "type octile\nheight 3\nwidth 4\nmap\n.@..\n.@..\n....\n").unwrap();
    std::fs::write(dir.join("m.map.scen"), scen).unwrap();
    let map = dir.join("m.map").to_string_lossy().into_owned();
    let scen = dir.join("m.map.scen").to_string_lossy().into_owned();
    (dir, map, scen)
}

#[test]
fn solves_every_query_and_writes_the_paths() {
    let scen = "version 1\n0\tm.map\t4\t3\t0\t0\t2\t0\t6\n0\tm.map\t4\t3\t0\t0\t0\t2\t2\n";
    let (dir, map, scen) = fixture("ok", scen);
    let paths = dir.join("paths.txt");
    for algo in ["astar", "jps"] {
        let o = tactica(&["path", &map, &scen, "--algo", algo, "--paths", paths.to_str().unwrap()]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
        assert!(out.contains(&format!("{algo}: 2 queries, 0 mismatches")), "{out}");
        assert_eq!(out.lines().count(), 4, "a header, a line per query, the totals: {out}");
        let written = std::fs::read_to_string(&paths).unwrap();
        assert_eq!(written, "0 0,0 0,1 0,2 1,2 2,2 2,1 2,0\n1 0,0 0,1 0,2\n", "{algo}");
    }
}

#[test]
fn mismatches_and_bad_input_exit_with_1_and_name_the_line() {
    let (_, map, scen) = fixture("wrong", "version 1\n0\tm.map\t4\t3\t0\t0\t3\t0\t3\n");
    let o = tactica(&["path", &map, &scen, "-q"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("mismatch: query 0 (line 2)"), "{out}");
    let (_, map, scen) = fixture("bad", "version 1\n0\tm.map\t4\t3\t0\t0\t3\t0\t3\n0\tm.map\t4\t3\t0\tq\t3\t0\t3\n");
    let o = tactica(&["path", &map, &scen]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(err.contains("m.map.scen:3: field `start y` must be a whole number, found `q`"), "{err}");
    let (_, map, scen) = fixture("off", "version 1\n0\tm.map\t4\t3\t0\t0\t9\t0\t3\n");
    let err = String::from_utf8_lossy(&tactica(&["path", &map, &scen]).stderr).into_owned();
    assert!(err.contains(":2: the goal (9, 0) is off the 4×3 map"), "{err}");
    assert_eq!(tactica(&["path", &map, &scen, "--algo", "bfs"]).status.code(), Some(2));
    assert!(String::from_utf8_lossy(&tactica(&["path", "--help"]).stdout).contains("Usage: tactica path"));
}
