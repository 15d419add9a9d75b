//! `tactica replay TRACE SCENARIO`: plays a scenario again and compares what happens, event by
//! event, with a trace recorded before (`tactica run --trace`, `tactica test --trace`, a
//! player's bug report). The first event that differs is the divergence, named by its tick, its
//! line in the trace and both sides; a trace every event of which comes again reproduces.
//!
//! Lines are compared as JSON values, so a trace re-indented or with its keys in another order
//! still reproduces; blank lines are skipped. The scenario is played up to the last tick the
//! trace reaches.

use std::collections::VecDeque;

use crate::runtime::Runtime;

/// How many lines before the divergence are shown with it.
const CONTEXT: usize = 3;

/// Where a replay first differs from its trace.
#[derive(Debug, Clone, PartialEq)]
pub struct Divergence {
    /// The line of the trace (from 1) where the two part.
    pub line: usize,
    /// The earlier tick of the two sides' events.
    pub tick: u64,
    /// The trace's line there (`None`: the trace ends, the replay goes on).
    pub expected: Option<String>,
    /// The replay's event there (`None`: the replay has no more events where the trace goes on).
    pub got: Option<String>,
    /// The lines before it, which both sides share, with their line numbers.
    pub context: Vec<(usize, String)>,
}

/// What a replay found.
#[derive(Debug, Clone, PartialEq)]
pub enum Replay {
    /// Every event of the trace came again, in order.
    Reproduces {
        /// The events compared.
        events: usize,
        /// The ticks played.
        ticks: u64,
    },
    /// The first difference.
    Diverges(Divergence),
}

/// Why a replay could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A line of the trace is not an event.
    #[error("line {line} of the trace is not a trace event: {message}")]
    NotAnEvent {
        /// The line (from 1).
        line: usize,
        /// Why.
        message: String,
    },
    /// The trace holds no event.
    #[error("the trace holds no event")]
    Empty,
}

/// One event of the trace: its line, its tick and its value.
struct Expected {
    line: usize,
    tick: u64,
    value: serde_json::Value,
    text: String,
}

fn read(trace: &str) -> Result<Vec<Expected>, ReplayError> {
    let mut out = Vec::new();
    for (i, text) in trace.lines().enumerate() {
        if text.trim().is_empty() {
            continue;
        }
        let line = i + 1;
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| ReplayError::NotAnEvent { line, message: e.to_string() })?;
        let tick = value
            .get("tick")
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| ReplayError::NotAnEvent { line, message: "it has no `tick`, a whole number".to_owned() })?;
        out.push(Expected { line, tick, value, text: text.trim().to_owned() });
    }
    if out.is_empty() {
        return Err(ReplayError::Empty);
    }
    Ok(out)
}

/// Plays `rt` (a runtime at tick 0) up to the trace's last tick and compares every event with the
/// trace's, in order.
pub fn replay(trace: &str, mut rt: Runtime) -> Result<Replay, ReplayError> {
    let expected = read(trace)?;
    let last_tick = expected.iter().map(|e| e.tick).max().unwrap_or(0);
    let mut next = 0;
    let mut seen = 0;
    let mut context: VecDeque<(usize, String)> = VecDeque::new();
    let mut ticks = 0;
    // The trace ends with what the run's end adds (`Runtime::finish`): played after its last tick.
    let mut finished = false;
    loop {
        if ticks <= last_tick {
            rt.tick();
            ticks += 1;
        } else if !finished {
            rt.finish();
            finished = true;
        } else {
            break;
        }
        let log = rt.world().log();
        for e in log.since(seen) {
            let got = e.to_json_line();
            let Some(want) = expected.get(next) else {
                let line = expected.last().map_or(1, |e| e.line + 1);
                return Ok(Replay::Diverges(Divergence {
                    line,
                    tick: e.tick,
                    expected: None,
                    got: Some(got),
                    context: context.into(),
                }));
            };
            let same = serde_json::from_str::<serde_json::Value>(&got).is_ok_and(|v| v == want.value);
            if !same {
                return Ok(Replay::Diverges(Divergence {
                    line: want.line,
                    tick: want.tick.min(e.tick),
                    expected: Some(want.text.clone()),
                    got: Some(got),
                    context: context.into(),
                }));
            }
            context.push_back((want.line, want.text.clone()));
            if context.len() > CONTEXT {
                context.pop_front();
            }
            next += 1;
        }
        seen = log.len();
    }
    match expected.get(next) {
        Some(want) => Ok(Replay::Diverges(Divergence {
            line: want.line,
            tick: want.tick,
            expected: Some(want.text.clone()),
            got: None,
            context: context.into(),
        })),
        None => Ok(Replay::Reproduces { events: next, ticks }),
    }
}

impl Divergence {
    /// The divergence for people: where, the shared lines before it, both sides.
    pub fn text(&self) -> String {
        let mut out = format!("the replay diverges at tick {} (line {} of the trace):\n", self.tick, self.line);
        for (line, text) in &self.context {
            out.push_str(&format!("    line {line}: {text}\n"));
        }
        out.push_str(&match &self.expected {
            Some(t) => format!("  - trace:  {t}\n"),
            None => "  - trace:  (ends here)\n".to_owned(),
        });
        out.push_str(&match &self.got {
            Some(t) => format!("  + replay: {t}\n"),
            None => "  + replay: (no more events)\n".to_owned(),
        });
        out
    }
}
