//! The replay viewer: one self-contained HTML file — no server, no network — holding a map and a
//! recorded run, to scrub in a browser (`tactica view`, `docs/viewer.md`).
//!
//! [`view_scenario`] plays a scenario and records what the trace does not hold
//! ([`record`]: positions every tick, planned routes, every position query's candidates, the
//! tactical layers at an interval, attributes and blackboards); [`view_trace`] builds the view
//! from a trace file, replaying its scenario when one is given and checking the replay's trace is
//! the same. [`encode`] packs the run compactly; [`html`] puts it and the viewer's code (the
//! `viewer/` folder, embedded in the binary) into one page.
//!
//! A test runner gives the viewer [`Marker`]s (a failed expectation at a tick) and the tick to
//! open at ([`ViewOptions::start_tick`]); a URL ending in `#t=123` opens at tick 123 too.

pub mod bytes;
pub mod encode;
pub mod html;
pub mod record;
pub mod trace;
pub mod trajectory;

use std::path::PathBuf;

use crate::host::ScriptError;
use crate::runtime::Runtime;
use crate::scenario::{Scenario, ScenarioError};

/// What to record and how the viewer opens.
#[derive(Debug, Clone, Default)]
pub struct ViewOptions {
    /// Ticks to play (default: the scenario's `ticks`).
    pub ticks: Option<u64>,
    /// The seed (default: the scenario's).
    pub seed: Option<u64>,
    /// Record the tactical layers every this many ticks (default: the scenario's `[view]
    /// layer_every`, else as often as keeps the file small; see
    /// [`record::default_layer_every`]).
    pub layer_every: Option<u64>,
    /// Marks on the timeline, besides the script errors the run itself reports.
    pub markers: Vec<Marker>,
    /// The tick the viewer opens at (default 0).
    pub start_tick: Option<u64>,
}

/// A mark on the viewer's timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct Marker {
    /// The tick.
    pub tick: u64,
    /// What happened, in a line.
    pub label: String,
    /// What kind of mark it is.
    pub kind: MarkerKind,
    /// The character it concerns, by name, if any.
    pub entity: Option<String>,
}

/// What a [`Marker`] marks: the viewer colours each kind and filters by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    /// A failed expectation of a test.
    Failure,
    /// An error (script errors of the run are marked without being asked).
    Error,
    /// Anything else worth a mark.
    Note,
}

impl MarkerKind {
    /// Its word in the viewer: `failure`, `error`, `note`.
    pub fn word(self) -> &'static str {
        match self {
            MarkerKind::Failure => "failure",
            MarkerKind::Error => "error",
            MarkerKind::Note => "note",
        }
    }
}

/// Why no view was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ViewError {
    /// The scenario did not load.
    #[error("{0}")]
    Scenario(#[from] ScenarioError),
    /// Its scripts did not compile.
    #[error("{}", .0.iter().map(ScriptError::report).collect::<Vec<_>>().join("\n"))]
    Scripts(Vec<ScriptError>),
    /// A line of the trace file is not a trace event.
    #[error(
        "{file}:{line}:{column}: {message}\n  hint: a trace is what `tactica run --trace FILE` writes, one JSON object a line (docs/trace.md)"
    )]
    Trace {
        /// The trace file.
        file: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The column, from 1.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The trace file could not be read.
    #[error("cannot read {file}: {source}")]
    Read {
        /// The file.
        file: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Plays `scenario` and returns the viewer's page for the run.
pub fn view_scenario(mut scenario: Scenario, options: &ViewOptions) -> Result<String, ViewError> {
    if let Some(seed) = options.seed {
        scenario.world.reseed(seed);
    }
    let options = &ViewOptions { layer_every: options.layer_every.or(scenario.view_layer_every), ..options.clone() };
    let mut rt = Runtime::new(scenario, crate::languages()).map_err(ViewError::Scripts)?;
    let rec = record_run(&mut rt, options);
    Ok(page(&rec, options))
}

/// Plays `options.ticks` ticks of `rt` (default: its scenario's) and records them; the runtime
/// is left at the end of the last, for a caller that wants to look at the world as it ended.
pub fn record_run(rt: &mut Runtime, options: &ViewOptions) -> record::Recording {
    let ticks = options.ticks.unwrap_or_else(|| rt.scenario_ticks());
    record::record(rt, ticks, options.layer_every)
}

/// Builds the viewer's page for a trace file: see [`trace::recording`].
pub fn view_trace(
    file: &std::path::Path,
    scenario: Option<Scenario>,
    options: &ViewOptions,
) -> Result<(String, trace::Source), ViewError> {
    let text = std::fs::read_to_string(file).map_err(|source| ViewError::Read { file: file.to_path_buf(), source })?;
    let (rec, source) = trace::recording(file, &text, scenario, options)?;
    Ok((page(&rec, options), source))
}

/// The viewer's page for a recording, with the markers and start tick of `options` and the
/// run's own script errors marked.
pub fn page(rec: &record::Recording, options: &ViewOptions) -> String {
    let mut markers = options.markers.clone();
    for e in rec.events.iter().filter(|e| e.kind == "script_error") {
        let body: serde_json::Value = serde_json::from_str(&e.body).unwrap_or_default();
        let at = format!(
            "{}:{}",
            body["file"].as_str().unwrap_or("?"),
            body["line"].as_u64().map_or_else(String::new, |l| l.to_string())
        );
        markers.push(Marker {
            tick: e.tick,
            label: format!("{at}: {}", body["message"].as_str().unwrap_or("")),
            kind: MarkerKind::Error,
            entity: e.entity.map(|i| rec.entities[i].name.clone()),
        });
    }
    markers.sort_by_key(|m| m.tick);
    let encoded = encode::encode(rec, &markers, options.start_tick.unwrap_or(0));
    html::page(&encoded)
}
