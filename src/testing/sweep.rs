//! Playing the (test × seed) matrix: each run clones its test's scenario (parsed, checked and
//! built once when the test was loaded), reseeds the world and compiles its scripts into a
//! runtime of its own, then plays until every expectation is decided. Runs are spread over
//! threads that take the next run as they finish one; each result goes back to its place in the
//! matrix, so the report is the same whatever the number of threads.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde::{Deserialize, Serialize};

use super::expect::Verdict;
use super::prepare::PreparedTest;
use super::watch::Watch;
use crate::runtime::Runtime;

/// Seeds to play every test on: `from` to `to`, both included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seeds {
    /// The first seed.
    pub from: u64,
    /// The last seed.
    pub to: u64,
}

impl Seeds {
    /// The most seeds one sweep plays (a typo like `1..1000000000` should not start a week's work).
    pub const MAX: u64 = 1_000_000;

    /// How many seeds.
    pub fn len(&self) -> u64 {
        self.to - self.from + 1
    }

    /// Never: a range holds at least one seed.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl std::str::FromStr for Seeds {
    type Err = String;

    /// `7` (one seed) or `1..100` (a hundred: both ends included).
    fn from_str(s: &str) -> Result<Self, String> {
        let number = |t: &str| {
            t.trim().parse::<u64>().map_err(|_| format!("`{t}` is not a seed: seeds are whole numbers from 0"))
        };
        let (from, to) = match s.split_once("..") {
            Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
            None => (number(s)?, number(s)?),
        };
        if from > to {
            return Err(format!("`{s}` runs backwards: write the smaller seed first ({to}..{from})"));
        }
        let seeds = Seeds { from, to };
        if seeds.len() > Self::MAX {
            return Err(format!("`{s}` is {} seeds; a sweep plays at most {}", seeds.len(), Self::MAX));
        }
        Ok(seeds)
    }
}

/// One run of the matrix: a test (by its index among the tests loaded) on one seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Job {
    /// The test.
    pub test: usize,
    /// The seed.
    pub seed: u64,
}

/// The matrix in its one order: test by test, each on its own seed, or on every seed of `seeds`.
pub fn jobs(tests: &[PreparedTest], seeds: Option<Seeds>) -> Vec<Job> {
    tests
        .iter()
        .enumerate()
        .flat_map(|(test, t)| match seeds {
            Some(s) => (s.from..=s.to).map(|seed| Job { test, seed }).collect::<Vec<_>>(),
            None => vec![Job { test, seed: t.seed }],
        })
        .collect()
}

/// What one run found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunResult {
    /// One verdict per expectation, in the test's order (empty when the run could not start).
    pub verdicts: Vec<Verdict>,
    /// How many ticks were played before every expectation was decided.
    pub ticks_played: u64,
    /// Why the run could not start (the scenario's scripts do not compile), if it could not.
    pub error: Option<String>,
}

impl RunResult {
    /// Whether every expectation held.
    pub fn passed(&self) -> bool {
        self.error.is_none() && !self.verdicts.iter().any(Verdict::failed)
    }
}

/// A runtime for `test` on `seed`, at tick 0.
pub fn start(test: &PreparedTest, seed: u64) -> Result<Runtime, String> {
    let mut scenario = test.scenario();
    scenario.world.reseed(seed);
    Runtime::new(scenario, crate::languages()).map_err(|errors| {
        let reports: Vec<String> = errors.iter().map(|e| e.report()).collect();
        format!("the scenario's scripts do not load:\n{}", reports.join("\n"))
    })
}

/// Plays `test` on `seed` until its expectations are decided (all its ticks when `bless`
/// records golden files, which come back with the result).
pub fn play(test: &PreparedTest, seed: u64, bless: bool) -> (RunResult, Vec<(PathBuf, String)>) {
    let mut rt = match start(test, seed) {
        Ok(rt) => rt,
        Err(error) => return (RunResult { verdicts: Vec::new(), ticks_played: 0, error: Some(error) }, Vec::new()),
    };
    // The sweep already keeps every core busy with runs side by side; each run's own workers
    // would only compete with them (the trace is the same on any number).
    rt.set_threads(1);
    let mut watch = if bless && seed == test.seed { Watch::blessing(test) } else { Watch::new(test, seed) };
    let mut seen = 0;
    let mut played = 0;
    while played < test.ticks && !watch.done() {
        rt.tick();
        played += 1;
        let log = rt.world().log();
        watch.observe(rt.world(), log.since(seen));
        seen = log.len();
    }
    let verdicts = watch.finish(rt.world());
    (RunResult { verdicts, ticks_played: played, error: None }, watch.written())
}

/// Plays `jobs` on `threads` threads (at least one); `done` is called after each run. The results
/// come back in the order of `jobs`, with the golden files blessing runs recorded.
pub fn run(
    tests: &[PreparedTest],
    jobs: &[Job],
    threads: usize,
    bless: bool,
    done: &(dyn Fn() + Sync),
) -> (Vec<RunResult>, Vec<(PathBuf, String)>) {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<RunResult>>> = Mutex::new(vec![None; jobs.len()]);
    let written: Mutex<Vec<(usize, PathBuf, String)>> = Mutex::new(Vec::new());
    let worker = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            // A panic is a bug in Tactica, never in the test: it costs that run, not the sweep.
            let played =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| play(&tests[job.test], job.seed, bless)));
            let (result, files) = played.unwrap_or_else(|_| (panicked(), Vec::new()));
            results.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(result);
            written
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .extend(files.into_iter().map(|(p, t)| (i, p, t)));
            done();
        }
    };
    std::thread::scope(|s| {
        for _ in 1..threads.max(1) {
            s.spawn(worker);
        }
        worker();
    });
    let results = results.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    let results = results.into_iter().map(|r| r.unwrap_or_else(panicked)).collect();
    let mut written = written.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    written.sort_by_key(|(i, _, _)| *i);
    (results, written.into_iter().map(|(_, p, t)| (p, t)).collect())
}

fn panicked() -> RunResult {
    RunResult {
        verdicts: Vec::new(),
        ticks_played: 0,
        error: Some("the run stopped with an internal error (a panic); this is a bug in Tactica".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_read_one_or_a_range_with_both_ends() {
        assert_eq!("7".parse::<Seeds>(), Ok(Seeds { from: 7, to: 7 }));
        let s: Seeds = "1..100".parse().unwrap();
        assert_eq!((s.from, s.to, s.len()), (1, 100, 100));
        assert_eq!("1..=3".parse::<Seeds>().map(|s| s.len()), Ok(3));
        assert!("9..2".parse::<Seeds>().unwrap_err().contains("2..9"));
        assert!("x".parse::<Seeds>().is_err());
        assert!("0..1000000".parse::<Seeds>().unwrap_err().contains("at most"));
    }
}
