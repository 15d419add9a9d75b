//! `run --profile-json`: the crowd's timeline is a Chrome trace-event file (the fields every event
//! needs, known phases, complete events that nest tick ⊃ phase ⊃ script call ⊃ host call), and
//! its spans add up, to the nanosecond, to the profiler's own totals.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tactica::runtime::{Phase, Runtime};

/// A `Write` the test can read back after the runtime has written into it.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const TICKS: u64 = 12;

/// Nanoseconds from a `ts` or `dur` in microseconds with three decimals.
fn ns(v: &Value) -> u128 {
    let us = v.as_f64().expect("a number");
    assert!(us >= 0.0, "negative time {us}");
    (us * 1000.0).round() as u128
}

/// The checks a trace-event reader makes; returns the complete events as (cat, name, start, end,
/// args) in file order.
fn check_format(json: &Value) -> Vec<(String, String, u128, u128, Value)> {
    assert_eq!(json["displayTimeUnit"], "ns");
    let events = json["traceEvents"].as_array().expect("traceEvents is an array");
    let mut complete = Vec::new();
    let mut names = 0;
    for e in events {
        let ph = e["ph"].as_str().expect("every event has a phase");
        assert!(e["name"].is_string(), "{e}");
        assert_eq!(e["pid"], 1, "{e}");
        assert_eq!(e["tid"], 1, "{e}");
        match ph {
            "M" => {
                assert!(["process_name", "thread_name"].contains(&e["name"].as_str().unwrap()), "{e}");
                assert!(e["args"]["name"].is_string(), "{e}");
                names += 1;
            }
            "X" => {
                let cat = e["cat"].as_str().expect("a category").to_owned();
                let start = ns(&e["ts"]);
                let end = start + ns(&e["dur"]);
                complete.push((cat, e["name"].as_str().unwrap().to_owned(), start, end, e["args"].clone()));
            }
            "i" => {
                assert_eq!(e["s"], "t", "{e}");
                ns(&e["ts"]);
            }
            other => panic!("an event of phase {other}: {e}"),
        }
    }
    assert_eq!(names, 2, "the process and the track are named");
    complete
}

/// Every complete event lies inside its parent: ticks at the top, phases in ticks, script calls
/// in the `scripts` phase, host calls in script calls; siblings do not overlap.
fn check_nesting(spans: &[(String, String, u128, u128, Value)]) {
    let level = |cat: &str| match cat {
        "tick" => 0,
        "phase" => 1,
        "script" => 2,
        "host" => 3,
        other => panic!("unknown category {other}"),
    };
    let mut stack: Vec<&(String, String, u128, u128, Value)> = Vec::new();
    let mut last_end_at_level = [0u128; 4];
    for s in spans {
        let l = level(&s.0);
        stack.truncate(l);
        assert_eq!(stack.len(), l, "{} `{}` has no parent", s.0, s.1);
        if let Some(parent) = stack.last() {
            assert!(
                parent.2 <= s.2 && s.3 <= parent.3,
                "`{}` [{}, {}] is not inside `{}` [{}, {}]",
                s.1,
                s.2,
                s.3,
                parent.1,
                parent.2,
                parent.3
            );
            if l == 2 {
                assert_eq!(parent.1, "scripts", "script calls sit in the scripts phase");
            }
        }
        assert!(s.2 >= last_end_at_level[l], "`{}` starts before the span before it ends", s.1);
        last_end_at_level[l] = s.3;
        for deeper in &mut last_end_at_level[l + 1..] {
            *deeper = s.2;
        }
        stack.push(s);
    }
}

#[test]
fn the_crowds_timeline_is_trace_event_json_and_adds_up_to_the_profile() {
    let scenario = tactica::scenario::load(Path::new("examples/crowd/scenario.toml")).unwrap();
    let mut rt = Runtime::new(scenario, tactica::languages()).unwrap();
    let out = Shared::default();
    rt.profile_timeline(Box::new(out.clone()));
    rt.run(TICKS);
    rt.finish_profile_timeline().unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    let json: Value = serde_json::from_str(&text).expect("the file is one JSON object");
    let spans = check_format(&json);
    check_nesting(&spans);
    let profile = rt.profile().expect("the timeline turned the profiler on");
    assert_eq!(profile.ticks(), TICKS);

    let mut by: BTreeMap<(String, String), (u64, u128)> = BTreeMap::new();
    for (cat, name, start, end, args) in &spans {
        let key = match cat.as_str() {
            "script" => ("file".to_owned(), args["file"].as_str().unwrap().to_owned()),
            _ => (cat.clone(), name.clone()),
        };
        let slot = by.entry(key).or_default();
        slot.0 += 1;
        slot.1 += end - start;
        if cat == "script" {
            let handler =
                (format!("handler {}", args["file"].as_str().unwrap()), args["handler"].as_str().unwrap().to_owned());
            let slot = by.entry(handler).or_default();
            slot.0 += 1;
            slot.1 += end - start;
        }
    }
    let get = |cat: &str, name: &str| by.get(&(cat.to_owned(), name.to_owned())).copied().unwrap_or_default();
    // Ticks: one span each, and each tick's span is its phases' sum.
    assert_eq!(spans.iter().filter(|s| s.0 == "tick").count() as u64, TICKS);
    let mut all_phases = 0;
    for phase in Phase::ALL {
        let stat = profile.phase(phase).expect("every phase is timed");
        assert_eq!(get("phase", phase.name()), (TICKS, stat.total().as_nanos()), "phase {}", phase.name());
        all_phases += stat.total().as_nanos();
    }
    let ticks_total: u128 = spans.iter().filter(|s| s.0 == "tick").map(|s| s.3 - s.2).sum();
    assert_eq!(ticks_total, all_phases);
    // Script files and handlers.
    let files = profile.files();
    assert_eq!(files.len(), 4, "{files:?}");
    for row in files {
        assert_eq!(get("file", &row.name), (row.calls, row.total.as_nanos()), "file {}", row.name);
        for handler in ["spawn", "think"] {
            if let Some(stat) = profile.handler(&row.name, handler) {
                assert_eq!(get(&format!("handler {}", row.name), handler), (stat.calls(), stat.total().as_nanos()));
            }
        }
    }
    // Host functions: the crowd's scripts call several, and each one's spans are its total.
    let host = profile.host_functions();
    assert!(host.len() >= 5, "{host:?}");
    for row in host {
        assert_eq!(get("host", &row.name), (row.calls, row.total.as_nanos()), "host function {}", row.name);
    }
    // A thousand characters think on every tick of the crowd.
    assert!(get("phase", "scripts").0 == TICKS && by.keys().filter(|k| k.0 == "file").count() == 4);
    assert!(spans.iter().filter(|s| s.0 == "script").count() as u64 >= 1000 * TICKS);
}

#[test]
fn run_writes_the_timeline_file_and_says_where() {
    let dir = tempfile::Builder::new().prefix("tactica-profile-json-").tempdir().unwrap().keep();
    let file = dir.join("harbour.json");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", "examples/harbour", "--ticks", "30", "--quiet", "--profile-json"])
        .arg(&file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(&format!("profile timeline written to {}", file.display())), "{stdout}");
    assert!(!stdout.contains("tick phases (per tick)"), "the tables are printed only with --profile");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let spans = check_format(&json);
    check_nesting(&spans);
    assert_eq!(spans.iter().filter(|s| s.0 == "tick").count(), 30);
    assert_eq!(json["otherData"]["scenario"], "Harbour at dusk");
    // A place that cannot hold a file (its "folder" is a file; missing folders would be made,
    // and CI runs as root, so only this fails for everyone): an error naming the file, not a panic.
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a folder").unwrap();
    let target = blocker.join("x.json");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", "examples/harbour", "--ticks", "1", "--quiet", "--profile-json"])
        .arg(&target)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1), "{}", String::from_utf8_lossy(&bad.stderr));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains(&format!("cannot write {}", target.display())),
        "{}",
        String::from_utf8_lossy(&bad.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}
