//! Every scenario file of the shared benchmark data, solved by A* and by jump point search, must
//! give the optimal length of every query (1e-6 on `*.map.scen`, 1e-2 on `*.official.scen`).
//!
//! Debug builds solve every query with JPS and a deterministic sample with A* (every 20th query,
//! plus every query of files of up to 201 lines on maps of at most 256² cells); `cargo test
//! --release` and `tactica path` solve them all with both.

use std::path::PathBuf;

use tactica_engine::grid::{Map, load_movingai, shared_data_dir};
use tactica_engine::path::scen::{Algorithm, Scenario, load_scen, solve};

fn scenarios() -> Option<Vec<(PathBuf, Scenario, Map)>> {
    let Some(dir) = shared_data_dir() else {
        println!("shared benchmark data not found (set TACTICA_DATA); skipping the scenario check");
        return None;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("scen"))
        .expect("scen folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scen"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let scen = load_scen(&f).unwrap_or_else(|e| panic!("{e}"));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        let map_name = name.split(".map").next().unwrap().to_owned() + ".map";
        let map = load_movingai(&dir.join("maps").join(map_name)).unwrap_or_else(|e| panic!("{e}"));
        out.push((f, scen, map));
    }
    Some(out)
}

fn check(algorithm: Algorithm, sample: impl Fn(&Scenario, &Map) -> Option<usize>) {
    let Some(all) = scenarios() else { return };
    assert!(all.len() >= 14, "expected the 14 shared scenario files, found {}", all.len());
    let mut total = 0;
    for (file, mut scen, map) in all {
        if let Some(every) = sample(&scen, &map) {
            scen.queries = scen.queries.into_iter().step_by(every).collect();
        }
        let report = solve(&map, &scen, algorithm, |_, _| {}).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let bad: Vec<String> = report
            .mismatches()
            .take(5)
            .map(|r| format!("line {}: found {:?}, optimal {}", r.line, r.length, r.optimal))
            .collect();
        assert!(bad.is_empty(), "{} with {algorithm}: {bad:#?}", file.display());
        println!("{}: {}", file.file_name().unwrap().to_string_lossy(), report.summary());
        total += report.queries();
    }
    println!("{algorithm}: {total} queries solved optimally");
    assert!(total > 500);
}

#[test]
fn jump_point_search_is_optimal_on_every_query() {
    check(Algorithm::Jps, |_, _| None);
}

#[test]
fn astar_is_optimal_on_every_query() {
    check(Algorithm::AStar, |scen, map| {
        let small = scen.queries.len() <= 200 && map.len() <= 256 * 256;
        (cfg!(debug_assertions) && !small).then_some(20)
    });
}
