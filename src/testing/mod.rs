//! Tests of a game's AI: test files (`.tactest`) state what a scenario's characters must do, and
//! this module plays them — on one seed or a thousand, on every core, on one machine or split
//! over many — and says which expectation failed, on which seed, at which tick, what was seen
//! instead, and the one command that replays it. `tactica test` is a thin shell over it.
//!
//! ```text
//! scenario "scenario.toml";
//!
//! test "the smugglers get in" {
//!     expect runner reaches warehouse by 150;
//!     expect signal "breach" of lookout before enter "warehouse" of runner;
//!     never script_error;
//! }
//! ```
//!
//! From a game's own `cargo test`, one call runs a folder of them and fails with the report:
//!
//! ```no_run
//! #[test]
//! fn the_ai_does_what_the_designers_wrote() {
//!     tactica::testing::assert_passes("assets/ai-tests");
//! }
//! ```
//!
//! The file format is `tactica_syntax::testfile` (read by the designers' one front end);
//! `docs/testing.md` explains every expectation. The pieces:
//!
//! - [`prepare`]: finding test files, loading each scenario once per test with the test's
//!   settings, resolving the expectations;
//! - [`Watch`]: one test's expectations checked tick by tick while a run plays (a game can drive
//!   it from its own loop), each decided at the first tick it can be;
//! - [`sweep`]: the (test × seed) matrix on many threads, results in the matrix's order;
//! - [`Report`]: what a matrix found — text, JSON Lines, JUnit XML — and [`Failure`], the data a
//!   failure carries (test, seed, tick, expectation, what was seen) for a viewer to open;
//! - [`shard`]: a share of the matrix per machine, and merging the shares' files;
//! - [`replay`]: a recorded trace against a new run, to the first divergence.

mod expect;
mod facts;
#[cfg(feature = "cli")]
pub mod junit;
pub mod prepare;
pub mod replay;
mod report;
pub mod shard;
pub mod sweep;
#[cfg(feature = "view")]
pub mod view;
mod watch;

use std::path::{Path, PathBuf};

pub use expect::{GoldenKind, Verdict};
pub use prepare::{Expectation, LoadError, PreparedTest, Problem};
pub use report::{
    ExpectationStats, Failure, Plan, PlannedExpectation, PlannedTest, Report, RunError, RunView, replay_command,
};
pub use shard::Shard;
pub use sweep::{Job, RunResult, Seeds};
pub use watch::Watch;

/// How a suite is run.
#[derive(Debug, Clone)]
pub struct Options {
    /// Play every test on these seeds; `None` plays each on its own seed.
    pub seeds: Option<Seeds>,
    /// Threads to play on (at least one).
    pub threads: usize,
    /// Write golden files from this run instead of comparing them.
    pub bless: bool,
}

impl Default for Options {
    /// Each test on its own seed, on every core, goldens compared.
    fn default() -> Self {
        Options { seeds: None, threads: std::thread::available_parallelism().map_or(1, usize::from), bless: false }
    }
}

/// The tests of a set of test files, loaded and ready to play.
#[derive(Debug, Clone)]
pub struct Suite {
    /// The tests, file by file in path order, each file's in written order.
    pub tests: Vec<PreparedTest>,
    /// The warnings the files gave (they do not stop a test).
    pub warnings: Vec<Problem>,
}

impl Suite {
    /// Loads every test file under `paths` (a file, or a folder searched for `*.tactest`).
    pub fn load<P: AsRef<Path>>(paths: &[P]) -> Result<Suite, LoadError> {
        let paths: Vec<PathBuf> = paths.iter().map(|p| p.as_ref().to_path_buf()).collect();
        let (tests, warnings) = prepare::load(&paths)?;
        Ok(Suite { tests, warnings })
    }

    /// Keeps only the tests named `name`; returns how many are left.
    pub fn keep_named(&mut self, name: &str) -> usize {
        self.tests.retain(|t| t.name == name);
        self.tests.len()
    }

    /// The matrix these tests make on `seeds`.
    pub fn plan(&self, seeds: Option<Seeds>) -> Plan {
        Plan::new(&self.tests, seeds)
    }

    /// Plays the whole matrix; `done` is called after each run (a progress bar's tick).
    pub fn run(&self, options: &Options, done: &(dyn Fn() + Sync)) -> Report {
        let plan = self.plan(options.seeds);
        let (results, written) = sweep::run(&self.tests, &plan.jobs, options.threads, options.bless, done);
        write_goldens(&written);
        Report { plan, results, views: Vec::new() }
    }

    /// Plays `shard`'s share of the matrix and returns it as the file `--merge` reads.
    pub fn run_shard(&self, options: &Options, shard: Shard, done: &(dyn Fn() + Sync)) -> shard::ShardFile {
        let plan = self.plan(options.seeds);
        let mine: Vec<usize> = (0..plan.jobs.len()).filter(|&i| shard.takes(i)).collect();
        let jobs: Vec<Job> = mine.iter().map(|&i| plan.jobs[i]).collect();
        let (results, written) = sweep::run(&self.tests, &jobs, options.threads, options.bless, done);
        write_goldens(&written);
        shard::ShardFile {
            format: shard::FORMAT,
            shard,
            fingerprint: plan.fingerprint(),
            results: mine.into_iter().zip(results).collect(),
            plan,
        }
    }
}

/// Writes the golden files a blessing run recorded. A file that cannot be written is a failure
/// the next run reports (its golden is missing or stale), so the error is printed, not hidden.
fn write_goldens(written: &[(PathBuf, String)]) {
    for (path, text) in written {
        // Never through a link: a downloaded example folder could point a golden anywhere.
        let result = crate::output::write_file(path, text.as_bytes());
        if let Err(e) = result {
            eprintln!("error: cannot write the golden file {}: {e}", path.display());
        }
    }
}

/// Runs every test under `paths` with `options`.
pub fn run<P: AsRef<Path>>(paths: &[P], options: &Options) -> Result<Report, LoadError> {
    Ok(Suite::load(paths)?.run(options, &|| {}))
}

/// Runs every test under `path` (a test file or a folder of them), each on its own seed, on
/// every core, and panics with the report if a test fails or cannot run — the one call a game's
/// own `cargo test` needs.
pub fn assert_passes(path: impl AsRef<Path>) {
    let path = path.as_ref();
    match run(&[path], &Options::default()) {
        Ok(report) if report.passed() => {}
        Ok(report) => panic!("the AI tests under {} failed:\n{}", path.display(), report.text(false)),
        Err(e) => panic!("the AI tests under {} could not be loaded:\n{e}", path.display()),
    }
}
