//! Helpers shared by the script tests: a scenario folder written to a temporary directory and
//! played with every built-in language.

#![allow(dead_code, reason = "each test binary uses a different part of the helpers")]

use std::path::{Path, PathBuf};

use tactica::runtime::Runtime;

pub mod bystanders;
pub mod families;

/// The map of the script tests: open ground with a wall segment, 12 × 6.
pub const MAP: &str = "\
............
............
.....#......
.....#......
............
............
";

/// Writes `scenario` (TOML), the map and `scripts` into a fresh folder named after `name` and
/// returns the scenario path.
pub fn folder(name: &str, scenario: &str, scripts: &[(&str, &str)]) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-scripts-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), MAP).unwrap();
    std::fs::write(dir.join("scenario.toml"), scenario).unwrap();
    for (file, text) in scripts {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir.join("scenario.toml")
}

/// Loads and plays a scenario with the built-in languages; panics with the script errors when it
/// does not load.
pub fn play(path: &Path) -> Runtime {
    let scenario = tactica::scenario::load(path).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = match Runtime::new(scenario, tactica::languages()) {
        Ok(rt) => rt,
        Err(errors) => panic!("{}", errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")),
    };
    rt.run(rt.scenario_ticks());
    // As `tactica run` ends a run: errors still repeating get their count.
    rt.finish();
    rt
}

/// Every run of script errors in the trace, as `(tick, entity, message, times)`: a
/// `script_error` and how many times it happened in all — itself and the repeats its
/// `script_error_repeated` counts (docs/trace.md, "Repeated errors").
pub fn error_runs(rt: &Runtime) -> Vec<(u64, String, String, u64)> {
    error_runs_in(rt.world().log().events())
}

/// [`error_runs`] of a list of events.
pub fn error_runs_in(events: &[tactica::engine::world::Event]) -> Vec<(u64, String, String, u64)> {
    use tactica::engine::world::EventKind;
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ScriptError { file, line, column, message } => {
                let repeats = events
                    .iter()
                    .find_map(|r| match &r.kind {
                        EventKind::ScriptErrorRepeated {
                            file: f,
                            line: l,
                            column: c,
                            message: m,
                            count,
                            first,
                            ..
                        } if r.entity == e.entity && (f, l, c, m, *first) == (file, line, column, message, e.tick) => {
                            Some(*count)
                        }
                        _ => None,
                    })
                    .unwrap_or(0);
                Some((e.tick, e.entity.clone().unwrap_or_default(), message.clone(), 1 + repeats))
            }
            _ => None,
        })
        .collect()
}

/// Loads a scenario and plays `ticks` ticks with the built-in languages; panics with the load or
/// compile errors.
pub fn run_ticks(path: &Path, ticks: u64) -> Runtime {
    let scenario = tactica::scenario::load(path).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(scenario, tactica::languages())
        .unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")));
    rt.run(ticks);
    rt
}

/// The values of a trace's `note` events, in order; panics when a script failed.
pub fn note_values(trace: &str) -> Vec<serde_json::Value> {
    assert!(!trace.contains("script_error"), "{trace}");
    trace
        .lines()
        .filter(|l| l.contains("\"kind\":\"note\""))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["value"].clone())
        .collect()
}
