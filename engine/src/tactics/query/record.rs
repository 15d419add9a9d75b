//! Debug records: every candidate of every option tried, which condition rejected it, and what
//! each weight contributed (001:L223–L229), with a plain-text formatter for `tactica query`.
//!
//! A renderer colours candidates as the text does: white for the chosen point, green for passed,
//! red for failed, blue for only partially evaluated (the lazy evaluator skipped the rest).

use std::fmt::Write as _;

use glam::Vec2;

use super::env::PointSource;
use super::spec::{Query, Role};
use crate::world::EntityId;

/// What one test did to one candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TestEffect {
    /// A condition passed.
    Pass,
    /// A condition failed (the point was rejected).
    Fail,
    /// A weight added this much.
    Add(f64),
}

/// One test's evaluation on one candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct TestRecord {
    /// The test's key.
    pub key: String,
    /// The raw value (bools as 0/1).
    pub raw: f64,
    /// What it did.
    pub effect: TestEffect,
}

/// Where a candidate ended up.
#[derive(Debug, Clone, PartialEq)]
pub enum CandidateStatus {
    /// Returned, with its rank (0 = best).
    Chosen(usize),
    /// Passed every condition but was not returned.
    Passed,
    /// Rejected by this condition.
    Failed(String),
    /// Held by another agent.
    Reserved(EntityId),
    /// Off the map or in a blocked cell.
    Blocked,
    /// Not fully evaluated: it could not beat the chosen point.
    Partial,
}

impl CandidateStatus {
    /// The debug colour of the text (001:L226).
    pub fn colour(&self) -> &'static str {
        match self {
            CandidateStatus::Chosen(_) => "white",
            CandidateStatus::Passed => "green",
            CandidateStatus::Failed(_) | CandidateStatus::Reserved(_) | CandidateStatus::Blocked => "red",
            CandidateStatus::Partial => "blue",
        }
    }
}

/// One candidate's record.
#[derive(Debug, Clone, PartialEq)]
pub struct CandidateRecord {
    /// Position.
    pub position: Vec2,
    /// Source.
    pub source: PointSource,
    /// Outcome.
    pub status: CandidateStatus,
    /// Score so far (final when fully evaluated).
    pub score: f64,
    /// The highest it could still score.
    pub max_score: f64,
    /// Tests evaluated, in order.
    pub tests: Vec<TestRecord>,
}

/// One option's record.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionRecord {
    /// The option, from 0.
    pub option: usize,
    /// Its candidates in generation order.
    pub candidates: Vec<CandidateRecord>,
}

/// Everything one evaluation did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QueryRecord {
    /// The query's name.
    pub query: String,
    /// The options tried, in order (those that failed before generating have no record).
    pub options: Vec<OptionRecord>,
    /// One line saying how it ended.
    pub outcome: String,
}

/// The parsed query, one line per entry, in evaluation order (the log line of 001:L226).
pub fn format_query(q: &Query) -> String {
    let mut s = format!("query {}\n", q.name);
    for (i, o) in q.options.iter().enumerate() {
        let _ = writeln!(s, "  option {}", i + 1);
        for g in &o.generators {
            // A spacing of 0 means the generator's default, one cell.
            let spacing = if g.spacing > 0.0 { g.spacing } else { 1.0 };
            let _ = writeln!(s, "    generate {} (radius {}, spacing {spacing})", g.key, g.radius);
        }
        for t in &o.tests {
            let (what, v) = match t.role {
                Role::Require(b) => ("require", b.to_string()),
                Role::Min(x) => ("min", x.to_string()),
                Role::Max(x) => ("max", x.to_string()),
                Role::Weight(w) => ("weight", w.to_string()),
            };
            let _ = writeln!(s, "    {what:<7} {} = {v}  [{:?}]", t.key, t.cost);
        }
    }
    s
}

/// The record as plain text: one line per candidate with its status, score and every test.
pub fn format_record(r: &QueryRecord) -> String {
    let mut s = format!("query {}: {}\n", r.query, r.outcome);
    for o in &r.options {
        let _ = writeln!(s, "option {} ({} candidates)", o.option + 1, o.candidates.len());
        for c in &o.candidates {
            let status = match &c.status {
                CandidateStatus::Chosen(0) => "BEST".to_owned(),
                CandidateStatus::Chosen(k) => format!("result #{}", k + 1),
                CandidateStatus::Passed => "passed".to_owned(),
                CandidateStatus::Failed(k) => format!("failed {k}"),
                CandidateStatus::Reserved(_) => "reserved".to_owned(),
                CandidateStatus::Blocked => "blocked".to_owned(),
                CandidateStatus::Partial => format!("partial (max {:.3})", c.max_score),
            };
            let _ = write!(
                s,
                "  ({:6.2}, {:6.2}) {:<5} score {:7.3}  {status}",
                c.position.x,
                c.position.y,
                c.status.colour(),
                c.score
            );
            for t in &c.tests {
                // A path distance to a point nobody can walk to is infinite: say so in words.
                let raw = if t.raw.is_finite() { format!("{:.3}", t.raw) } else { "unreachable".to_owned() };
                let _ = match t.effect {
                    TestEffect::Pass => write!(s, " | {}={raw} ok", t.key),
                    TestEffect::Fail => write!(s, " | {}={raw} FAIL", t.key),
                    TestEffect::Add(a) => write!(s, " | {}={raw} {:+.3}", t.key, a),
                };
            }
            s.push('\n');
        }
    }
    s
}
