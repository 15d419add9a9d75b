//! The replay viewer of a failing run (`tactica test --view DIR`): the run played again with the
//! viewer recording, one marker on the timeline for every expectation that failed on it, and the
//! page opening at the first failing tick with the character that failure is about selected.
//!
//! A run is deterministic, so playing it again gives the run the test saw: the same scenario
//! (with the test's settings), the same seed, the same ticks.

use std::collections::HashSet;
use std::path::Path;

use super::Suite;
use super::expect::Verdict;
use super::prepare::PreparedTest;
use super::report::{Report, RunView};
use super::sweep::RunResult;
use crate::output::{OutputDir, OutputError};
use crate::view::{self, Marker, MarkerKind, ViewError, ViewOptions};

/// The most viewers one `tactica test` writes: a sweep where a change broke every seed would
/// otherwise record a thousand runs. The rest are counted and each can be had by replaying it.
pub const MAX_VIEWS: usize = 10;

/// Why a viewer was not written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WriteViewError {
    /// The folder or the file could not be written.
    #[error("cannot write the viewer: {0}")]
    Output(#[from] OutputError),
    /// The run could not be played again.
    #[error("cannot record the run for its viewer: {0}")]
    View(#[from] ViewError),
}

/// The viewers written for a report's failing runs.
#[derive(Debug, Default)]
pub struct Written {
    /// One per failing run written, in the matrix's order.
    pub views: Vec<RunView>,
    /// Failing runs past [`MAX_VIEWS`], which have none.
    pub left_out: usize,
}

/// The viewer options for one failing run of `test`: a marker for each failed expectation, the
/// page opening at the first of them with its character selected. `None` when nothing failed.
pub fn failure_options(test: &PreparedTest, seed: u64, result: &RunResult) -> Option<ViewOptions> {
    let mut markers: Vec<Marker> = test
        .expectations
        .iter()
        .zip(&result.verdicts)
        .filter_map(|(e, v)| match v {
            Verdict::Failed { tick, seen, entity } => Some(Marker {
                tick: *tick,
                label: format!("line {}: {} — {}", e.line, e.text, seen.lines().next().unwrap_or_default()),
                kind: MarkerKind::Failure,
                entity: entity.clone(),
            }),
            _ => None,
        })
        .collect();
    // Stable: of failures at one tick, the first written comes first.
    markers.sort_by_key(|m| m.tick);
    let first = markers.first()?;
    let at = first.tick;
    // The first failure's character; when it is about none, the next one at that tick that is.
    let select = markers.iter().take_while(|m| m.tick == at).find_map(|m| m.entity.clone());
    Some(ViewOptions {
        ticks: Some(test.ticks),
        seed: Some(seed),
        layer_every: None,
        markers,
        start_tick: Some(at),
        select,
    })
}

/// Plays `test` on `seed` again, recording it, and returns the viewer's page with `options`.
pub fn page(test: &PreparedTest, options: &ViewOptions) -> Result<String, ViewError> {
    let scenario = test.scenario();
    let layer_every = options.layer_every.or(scenario.view_layer_every);
    view::view_scenario(scenario, &ViewOptions { layer_every, ..options.clone() })
}

impl Suite {
    /// Writes into `dir` the viewer of each failing run of `report` (a report of this suite),
    /// at most [`MAX_VIEWS`], named `FILE-TEST-seed-S.html` after the test file, the test and the
    /// seed. `writing` is told each file before its run is played (recording a crowd takes a
    /// while).
    pub fn write_views(&self, report: &Report, dir: &Path, writing: &dyn Fn(&Path)) -> Result<Written, WriteViewError> {
        let failing: Vec<usize> = (0..report.results.len())
            .filter(|&i| report.results[i].error.is_none() && !report.results[i].passed())
            .collect();
        let mut written = Written { views: Vec::new(), left_out: failing.len().saturating_sub(MAX_VIEWS) };
        if failing.is_empty() {
            return Ok(written);
        }
        let out = OutputDir::create(dir)?;
        let mut names = HashSet::new();
        for &i in failing.iter().take(MAX_VIEWS) {
            let job = report.plan.jobs[i];
            let test = &self.tests[job.test];
            let Some(options) = failure_options(test, job.seed, &report.results[i]) else { continue };
            let name = file_name(test, job.seed, &mut names);
            writing(&out.path().join(&name));
            let html = page(test, &options)?;
            let file = out.write_file(&name, html.as_bytes())?;
            written.views.push(RunView {
                job: i,
                file: file.display().to_string(),
                tick: options.start_tick.unwrap_or(0),
                entity: options.select,
            });
        }
        Ok(written)
    }
}

/// `harbour-the-runner-gets-in-seed-7.html`, made unique among `taken` (two test files of one
/// name in different folders get `-2`, `-3` …).
fn file_name(test: &PreparedTest, seed: u64, taken: &mut HashSet<String>) -> String {
    let stem = test.file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let base = format!("{}-{}-seed-{seed}", slug(&stem), slug(&test.name));
    let mut name = format!("{base}.html");
    let mut n = 1;
    while !taken.insert(name.clone()) {
        n += 1;
        name = format!("{base}-{n}.html");
    }
    name
}

/// Lower-case letters and digits, every other run of characters one `-`; at most 60 of them.
fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.chars().count() >= 60 {
            break;
        }
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() { "test".to_owned() } else { out.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_keep_letters_and_digits_and_join_the_rest_with_one_dash() {
        assert_eq!(slug("the runner's way — by tick 60!"), "the-runner-s-way-by-tick-60");
        assert_eq!(slug("Über Größe"), "über-größe");
        assert_eq!(slug("///"), "test");
        assert_eq!(slug(&"x".repeat(100)).len(), 60);
    }
}
