//! What a run of the matrix found, as data ([`Report`]: the [`Plan`] and one [`RunResult`] per
//! job) and as the three things people and programs read: text, JSON Lines and (in
//! `junit.rs`) JUnit XML. A report is built from the plan and the results alone, so a report
//! merged from shards is the report the unsharded run prints.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::expect::Verdict;
use super::prepare::{PreparedTest, shown};
use super::sweep::{Job, RunResult, Seeds};

/// The matrix: the tests (what a report needs of each) and the runs, in their one order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    /// The tests, in discovery order.
    pub tests: Vec<PlannedTest>,
    /// The seeds every test is played on (`None`: each on its own).
    pub seeds: Option<Seeds>,
    /// The runs.
    pub jobs: Vec<Job>,
}

/// A test as a report names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedTest {
    /// Its file, as found.
    pub file: String,
    /// Its name.
    pub name: String,
    /// The line its `test` stands on.
    pub line: u32,
    /// Its own seed.
    pub seed: u64,
    /// The ticks it plays.
    pub ticks: u64,
    /// The SHA-256 of its file's text.
    pub source_sha: String,
    /// Its expectations.
    pub expectations: Vec<PlannedExpectation>,
}

/// An expectation as a report names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedExpectation {
    /// The statement, on one line.
    pub text: String,
    /// The line it stands on.
    pub line: u32,
}

impl Plan {
    /// The plan for `tests` on `seeds` (each on its own seed when `None`).
    pub fn new(tests: &[PreparedTest], seeds: Option<Seeds>) -> Plan {
        let planned = tests
            .iter()
            .map(|t| PlannedTest {
                file: shown(&t.file),
                name: t.name.clone(),
                line: t.line,
                seed: t.seed,
                ticks: t.ticks,
                source_sha: t.source_sha.clone(),
                expectations: t
                    .expectations
                    .iter()
                    .map(|e| PlannedExpectation { text: e.text.clone(), line: e.line })
                    .collect(),
            })
            .collect();
        Plan { tests: planned, seeds, jobs: super::sweep::jobs(tests, seeds) }
    }

    /// A hash naming the plan: shards of one matrix share it.
    pub fn fingerprint(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        Sha256::digest(json.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// One expectation that did not hold on one run: everything needed to show it, replay it, or
/// open a viewer at the tick it went wrong.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// The test file.
    pub file: String,
    /// The test.
    pub test: String,
    /// The seed of the run.
    pub seed: u64,
    /// The first tick at which it could be seen to fail.
    pub tick: u64,
    /// The expectation, as written.
    pub expectation: String,
    /// The line it stands on.
    pub line: u32,
    /// What the world showed instead.
    pub seen: String,
    /// The one command that plays this run again and shows this failure.
    pub replay: String,
}

/// A run that could not start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunError {
    /// The test file.
    pub file: String,
    /// The test.
    pub test: String,
    /// The seed.
    pub seed: u64,
    /// Why.
    pub message: String,
}

/// The results of a matrix.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// What was run.
    pub plan: Plan,
    /// One result per job of the plan, in its order.
    pub results: Vec<RunResult>,
}

/// How one expectation fared over a test's runs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExpectationStats {
    /// Runs it held on.
    pub passed: usize,
    /// Runs it did not hold on.
    pub failed: usize,
    /// Runs it was not checked on.
    pub not_checked: usize,
    /// The seeds it failed on, in order.
    pub failing_seeds: Vec<u64>,
}

/// The command that replays a run of a test: `tactica test FILE --name NAME --seed S`.
pub fn replay_command(file: &str, test: &str, seed: u64) -> String {
    format!("tactica test {} --name {} --seed {seed}", quote(file), quote(test))
}

/// `s` as one shell word.
fn quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=+,".contains(c)) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

impl Report {
    /// The runs of test `t`: each job's seed and result.
    fn runs(&self, t: usize) -> impl Iterator<Item = (u64, &RunResult)> {
        self.plan.jobs.iter().zip(&self.results).filter(move |(j, _)| j.test == t).map(|(j, r)| (j.seed, r))
    }

    /// Whether every run of every test passed.
    pub fn passed(&self) -> bool {
        self.results.iter().all(RunResult::passed)
    }

    /// Whether some run could not start (a script that does not compile): a load error.
    pub fn has_errors(&self) -> bool {
        self.results.iter().any(|r| r.error.is_some())
    }

    /// How each expectation of test `t` fared.
    pub fn stats(&self, t: usize) -> Vec<ExpectationStats> {
        let n = self.plan.tests[t].expectations.len();
        let mut stats = vec![ExpectationStats::default(); n];
        for (seed, r) in self.runs(t) {
            for (s, v) in stats.iter_mut().zip(&r.verdicts) {
                match v {
                    Verdict::Passed { .. } | Verdict::Written { .. } => s.passed += 1,
                    Verdict::NotChecked { .. } => s.not_checked += 1,
                    Verdict::Failed { .. } => {
                        s.failed += 1;
                        s.failing_seeds.push(seed);
                    }
                }
            }
        }
        stats
    }

    /// Every failure, test by test, seed by seed, expectation by expectation.
    pub fn failures(&self) -> Vec<Failure> {
        let mut out = Vec::new();
        for (job, r) in self.plan.jobs.iter().zip(&self.results) {
            let t = &self.plan.tests[job.test];
            for (e, v) in t.expectations.iter().zip(&r.verdicts) {
                if let Verdict::Failed { tick, seen } = v {
                    out.push(Failure {
                        file: t.file.clone(),
                        test: t.name.clone(),
                        seed: job.seed,
                        tick: *tick,
                        expectation: e.text.clone(),
                        line: e.line,
                        seen: seen.clone(),
                        replay: replay_command(&t.file, &t.name, job.seed),
                    });
                }
            }
        }
        out
    }

    /// Every run that could not start.
    pub fn errors(&self) -> Vec<RunError> {
        self.plan
            .jobs
            .iter()
            .zip(&self.results)
            .filter_map(|(job, r)| {
                let t = &self.plan.tests[job.test];
                r.error.as_ref().map(|m| RunError {
                    file: t.file.clone(),
                    test: t.name.clone(),
                    seed: job.seed,
                    message: m.clone(),
                })
            })
            .collect()
    }

    /// (tests that passed on every run, tests that did not).
    fn test_counts(&self) -> (usize, usize) {
        let passed = (0..self.plan.tests.len()).filter(|&t| self.runs(t).all(|(_, r)| r.passed())).count();
        (passed, self.plan.tests.len() - passed)
    }

    /// The report for people: each file's tests, each failing expectation with the seeds it failed
    /// on, the first failure's tick and what was seen, and the command that replays it.
    pub fn text(&self, colour: bool) -> String {
        let paint = |code: &str, s: &str| if colour { format!("\x1b[{code}m{s}\x1b[0m") } else { s.to_owned() };
        let mut out = String::new();
        let mut file = None;
        for (t, test) in self.plan.tests.iter().enumerate() {
            if file != Some(&test.file) {
                out.push_str(&format!("{}\n", test.file));
                file = Some(&test.file);
            }
            let runs: Vec<(u64, &RunResult)> = self.runs(t).collect();
            let passed = runs.iter().filter(|(_, r)| r.passed()).count();
            let seeds = match self.plan.seeds {
                Some(s) if runs.len() > 1 => format!("{} seeds, {}..{}", runs.len(), s.from, s.to),
                _ => format!("seed {}", runs.first().map_or(test.seed, |(s, _)| *s)),
            };
            if passed == runs.len() {
                out.push_str(&format!("  {}    {}  ({seeds}, {} ticks)\n", paint("32", "ok"), test.name, test.ticks));
                if runs.iter().any(|(_, r)| r.verdicts.iter().any(|v| matches!(v, Verdict::Written { .. }))) {
                    self.expectation_lines(t, &runs, &paint, &mut out);
                }
                continue;
            }
            for (seed, r) in &runs {
                if let Some(e) = &r.error {
                    out.push_str(&format!("  {} {}  (seed {seed})\n", paint("31", "ERROR"), test.name));
                    for l in e.lines() {
                        out.push_str(&format!("        {l}\n"));
                    }
                }
            }
            if runs.iter().any(|(_, r)| r.error.is_none()) {
                let verdict = if runs.len() == 1 { seeds } else { format!("{passed} of {} seeds passed", runs.len()) };
                out.push_str(&format!("  {}  {}  ({verdict})\n", paint("31", "FAIL"), test.name));
                self.expectation_lines(t, &runs, &paint, &mut out);
            }
        }
        let (ok, failed) = self.test_counts();
        let errors = self.errors().len();
        let mut summary =
            format!("\n{}: {ok} passed, {failed} failed", count(self.plan.tests.len() as u64, "test", "tests"));
        if errors > 0 {
            summary.push_str(&format!(", {} could not run", count(errors as u64, "run", "runs")));
        }
        summary.push_str(&format!(" ({})\n", count(self.results.len() as u64, "run", "runs")));
        out.push_str(&summary);
        out
    }

    fn expectation_lines(
        &self,
        t: usize,
        runs: &[(u64, &RunResult)],
        paint: &dyn Fn(&str, &str) -> String,
        out: &mut String,
    ) {
        let test = &self.plan.tests[t];
        let sweep = runs.len() > 1;
        let checked = runs.iter().filter(|(_, r)| r.error.is_none()).count();
        for (i, (e, s)) in test.expectations.iter().zip(self.stats(t)).enumerate() {
            let written = runs.iter().find_map(|(_, r)| match r.verdicts.get(i) {
                Some(Verdict::Written { lines, .. }) => Some(*lines),
                _ => None,
            });
            if let Some(lines) = written {
                out.push_str(&format!("      {} {}  (written: {lines} lines)\n", paint("33", "✎"), e.text));
                continue;
            }
            if s.failed == 0 {
                let counts = if sweep {
                    let not =
                        if s.not_checked > 0 { format!(", not checked on {}", s.not_checked) } else { String::new() };
                    format!("  {}/{checked}{not}", s.passed)
                } else {
                    String::new()
                };
                out.push_str(&format!("      {} {}{counts}\n", paint("32", "✓"), e.text));
                continue;
            }
            out.push_str(&format!("      {} {}  (line {})\n", paint("31", "✗"), e.text, e.line));
            if sweep {
                out.push_str(&format!(
                    "          {}/{} passed; failed on seeds {}\n",
                    s.passed,
                    s.passed + s.failed,
                    list(&s.failing_seeds)
                ));
            }
            let first = runs.iter().find_map(|(seed, r)| match r.verdicts.get(i) {
                Some(Verdict::Failed { tick, seen }) => Some((*seed, *tick, seen)),
                _ => None,
            });
            if let Some((seed, tick, seen)) = first {
                let at = if sweep { format!("seed {seed}, tick {tick}") } else { format!("tick {tick}") };
                let mut lines = seen.lines();
                out.push_str(&format!("          {at}: {}\n", lines.next().unwrap_or_default()));
                for l in lines {
                    out.push_str(&format!("          {l}\n"));
                }
                if sweep {
                    out.push_str(&format!("          replay: {}\n", replay_command(&test.file, &test.name, seed)));
                }
            }
        }
        // One run: one command replays every failure of it.
        if let [(seed, r)] = runs
            && !r.passed()
            && r.error.is_none()
        {
            out.push_str(&format!("      replay: {}\n", replay_command(&test.file, &test.name, *seed)));
        }
    }

    /// The report for programs: one JSON object per line (`docs/testing.md`, "JSON"): each test
    /// with its expectations' counts, each failure, each run that could not start, a summary.
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        let mut out = Vec::new();
        for (t, test) in self.plan.tests.iter().enumerate() {
            let runs: Vec<(u64, &RunResult)> = self.runs(t).collect();
            let expectations: Vec<serde_json::Value> = test
                .expectations
                .iter()
                .zip(self.stats(t))
                .map(|(e, s)| {
                    serde_json::json!({
                        "text": e.text, "line": e.line, "passed": s.passed, "failed": s.failed,
                        "not_checked": s.not_checked, "failing_seeds": s.failing_seeds,
                    })
                })
                .collect();
            out.push(serde_json::json!({
                "type": "test", "file": test.file, "name": test.name, "line": test.line, "seed": test.seed,
                "ticks": test.ticks, "runs": runs.len(), "passed_runs": runs.iter().filter(|(_, r)| r.passed()).count(),
                "expectations": expectations,
            }));
        }
        for f in self.failures() {
            let mut v = serde_json::to_value(&f).unwrap_or_default();
            v["type"] = "failure".into();
            out.push(v);
        }
        for e in self.errors() {
            let mut v = serde_json::to_value(&e).unwrap_or_default();
            v["type"] = "error".into();
            out.push(v);
        }
        let (passed, failed) = self.test_counts();
        out.push(serde_json::json!({
            "type": "summary", "tests": self.plan.tests.len(), "passed": passed, "failed": failed,
            "runs": self.results.len(), "failed_runs": self.results.iter().filter(|r| !r.passed()).count(),
            "errors": self.errors().len(), "ok": self.passed(),
        }));
        out
    }
}

/// `n` with the singular or plural noun: `1 run`, `2 runs`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `1, 2, 3` — at most 20 seeds, then how many more.
fn list(seeds: &[u64]) -> String {
    const SHOWN: usize = 20;
    let mut s: Vec<String> = seeds.iter().take(SHOWN).map(u64::to_string).collect();
    if seeds.len() > SHOWN {
        s.push(format!("… and {} more", seeds.len() - SHOWN));
    }
    s.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_commands_are_one_shell_word_per_argument() {
        assert_eq!(
            replay_command("examples/harbour/harbour.tactest", "the runner's way", 7),
            "tactica test examples/harbour/harbour.tactest --name 'the runner'\\''s way' --seed 7"
        );
        assert_eq!(replay_command("a b.tactest", "x", 1), "tactica test 'a b.tactest' --name x --seed 1");
        assert_eq!(list(&(1..=22).collect::<Vec<_>>()).rsplit(", ").next(), Some("… and 2 more"));
    }
}
