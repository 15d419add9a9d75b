//! The worst tick a hostile script can cause, beside what the per-call budget itself costs.
//!
//! Every case of the generated hostile families (`tests/common/families.rs`: every Lua
//! `string`/`table`/`utf8`/`math` function, the work inside one Lua instruction, every Rhai
//! function on arrays, maps and strings and Rhai's operators on them) and every script of
//! `tests/hostile/` plays alone in a world under the default (release) limits, its inputs growing
//! to the caps tick by tick, each tick timed. A script that spends its whole budget on nothing
//! (`while true do end`, `loop {}`) is the peer: its tick is what the budget is meant to cost, and
//! the ratio says how far the worst input gets beyond it — work a script can cause without paying
//! for it shows up here as a large ratio.
//!
//! `cargo bench --bench hostile` prints one line per language and a summary; each case plays
//! `ROUNDS` times and its worst tick is the median of the rounds' worst (the machine is shared).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[path = "../tests/common/families.rs"]
mod families;

// As the `tactica` binary does: Rhai calls are held to the memory limit and pay for what they
// allocate.
#[global_allocator]
static ALLOCATOR: tactica::memory::CountingAllocator = tactica::memory::CountingAllocator;

const MAP: &str = "............\n............\n.....#......\n.....#......\n............\n............\n";

/// How many times each case plays.
const ROUNDS: usize = 3;

/// Writes a one-character scenario of `ticks` ticks running `source` as `file` into a fresh
/// folder and returns its path.
fn folder(root: &Path, n: usize, file: &str, source: &str, ticks: u64) -> PathBuf {
    let dir = root.join(format!("case{n}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("map.txt"), MAP).unwrap();
    std::fs::write(dir.join(file), source).unwrap();
    let scenario = format!(
        "map = \"map.txt\"\nticks = {ticks}\n[[entities]]\nname = \"hostile\"\nkind = \"imp\"\nat = [8, 3]\nscripts = [\"{file}\"]\n"
    );
    std::fs::write(dir.join("scenario.toml"), scenario).unwrap();
    dir.join("scenario.toml")
}

/// The slowest tick of one play of `scenario`, and whether the watchdog stopped anything.
fn worst_tick(scenario: &Path, ticks: u64) -> (Duration, bool) {
    let loaded = tactica::scenario::load(scenario).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = match tactica::runtime::Runtime::new(loaded, tactica::languages()) {
        Ok(rt) => rt,
        // A file refused at load (a hostile top level) costs no tick.
        Err(_) => return (Duration::ZERO, false),
    };
    let mut worst = Duration::ZERO;
    for _ in 0..ticks {
        let t0 = Instant::now();
        rt.tick();
        worst = worst.max(t0.elapsed());
    }
    let watchdog =
        rt.world().log().events().iter().any(|e| matches!(e.kind, tactica_engine::world::EventKind::Watchdog { .. }));
    (worst, watchdog)
}

/// The median over `ROUNDS` plays of a case's worst tick.
fn case_worst(root: &Path, n: usize, file: &str, source: &str, ticks: u64) -> (Duration, bool) {
    let path = folder(root, n, file, source, ticks);
    let mut rounds: Vec<(Duration, bool)> = (0..ROUNDS).map(|_| worst_tick(&path, ticks)).collect();
    rounds.sort();
    let watchdog = rounds.iter().any(|r| r.1);
    (rounds[ROUNDS / 2].0, watchdog)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let root = tempfile::Builder::new().prefix("tactica-bench-hostile-").tempdir().unwrap().keep();
    let mut cases: Vec<(String, String, u64)> = Vec::new();
    for c in families::lua_library_cases().iter().chain(&families::lua_vm_cases()) {
        cases.push((c.file(), c.source(), 12));
    }
    for c in families::rhai_cases() {
        cases.push((c.file(), c.source(), 9));
    }
    let hostile = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&hostile).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    for f in files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        cases.push((name, std::fs::read_to_string(&f).unwrap(), 3));
    }

    // The peers: a call that spends its whole budget and does nothing else.
    let lua_budget = case_worst(&root, 9_000, "budget.lua", "function on_think()\n  while true do end\nend\n", 5);
    let rhai_budget = case_worst(&root, 9_001, "budget.rhai", "fn on_think() {\n    loop { }\n}\n", 5);

    let mut results: Vec<(Duration, String, bool)> = Vec::new();
    for (n, (file, source, ticks)) in cases.iter().enumerate() {
        let (worst, watchdog) = case_worst(&root, n, file, source, *ticks);
        results.push((worst, file.clone(), watchdog));
    }
    results.sort_by_key(|r| std::cmp::Reverse(r.0));
    let _ = std::fs::remove_dir_all(&root);

    println!("the ten slowest cases (worst tick, median of {ROUNDS} plays):");
    for (d, file, watchdog) in results.iter().take(10) {
        println!("  {:8.2} ms  {file}{}", ms(*d), if *watchdog { "  (watchdog!)" } else { "" });
    }
    for (lang, ext, budget) in [("Lua", ".lua", lua_budget.0), ("Rhai", ".rhai", rhai_budget.0)] {
        let mine: Vec<&(Duration, String, bool)> = results.iter().filter(|r| r.1.ends_with(ext)).collect();
        let worst = mine.first().map_or(Duration::ZERO, |r| r.0);
        let name = mine.first().map_or("", |r| r.1.as_str());
        println!(
            "{lang}: {} cases, worst tick {:.2} ms ({name}); the budget's own cost {:.2} ms ({:.1}x)",
            mine.len(),
            ms(worst),
            ms(budget),
            worst.as_secs_f64() / budget.as_secs_f64().max(1e-9)
        );
    }
    let watchdogs = results.iter().filter(|r| r.2).count();
    let (worst, name, _) = &results[0];
    println!(
        "hostile suite: {} cases, worst tick {:.2} ms ({name}); per-call budget's cost: Lua {:.2} ms, Rhai {:.2} ms; watchdog stops: {watchdogs}",
        results.len(),
        ms(*worst),
        ms(lua_budget.0),
        ms(rhai_budget.0)
    );
}
