//! The evaluator: options in order, cheap tests on every candidate, then the lazy heap over score
//! bounds so that expensive tests run only on points that can still win (001:L191–L221).
//!
//! An [`Evaluation`] is resumable: [`Evaluation::step`] does units of work (generating an option's
//! candidates, the cheap tests of one candidate, one expensive test on the heap's top point) until a
//! deadline on a [`Clock`] passes, and picks up where it stopped on the next call — the heap
//! survives between frames (001:L212, L219). [`evaluate_exhaustive`] evaluates every test on every
//! candidate, in the same order, and is the reference the lazy evaluator must agree with.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap};
use std::sync::Arc;

use super::criteria::{self, Ctx};
use super::env::{Candidate, Objects, QueryEnv};
use super::generate::{self, Scratch};
use super::keyword::{Criterion, ObjectKind};
use super::record::{CandidateRecord, CandidateStatus, OptionRecord, QueryRecord, TestEffect, TestRecord};
use super::schedule::Clock;
use super::spec::{FailureAction, Query, Role, Test};
use crate::world::EntityId;

/// One request for a query's answer.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryRequest {
    /// Who asks (reservations of other agents are avoided; `currentPoint` reads this one's).
    pub owner: EntityId,
    /// The objects the query's keys name.
    pub objects: Objects,
    /// How many results to return (one, or two or three for contention, 001:L168); at least 1.
    pub results: usize,
    /// The seed of the `random` criterion.
    pub seed: u64,
    /// Whether to keep a [`QueryRecord`] of every candidate.
    pub record: bool,
}

impl QueryRequest {
    /// A request for the single best point.
    pub fn new(owner: EntityId, objects: Objects) -> Self {
        QueryRequest { owner, objects, results: 1, seed: 0, record: false }
    }
}

/// A chosen point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QueryResult {
    /// The point, with its source and cover.
    pub candidate: Candidate,
    /// Its score (sum of weight contributions).
    pub score: f64,
    /// The option (from 0) that produced it.
    pub option: usize,
}

/// Why an option produced nothing.
#[derive(Debug, Clone, PartialEq)]
pub enum FailureReason {
    /// An object the option names is not set in the request.
    MissingObject(ObjectKind),
    /// An influence layer the option names does not exist.
    UnknownLayer(String),
    /// Generation produced no usable point.
    NoCandidates,
    /// Every point was rejected: how many were held by others, off the map or blocked, and how many
    /// failed each condition.
    AllRejected {
        /// Held by other agents.
        reserved: usize,
        /// Off the map or in a blocked cell.
        blocked: usize,
        /// Failures per condition key.
        failed: BTreeMap<String, usize>,
    },
}

/// A failed option.
#[derive(Debug, Clone, PartialEq)]
pub struct OptionFailure {
    /// The option, from 0.
    pub option: usize,
    /// Why.
    pub reason: FailureReason,
}

/// A query that found nothing: why each option failed, and the query's failure action.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryFailure {
    /// Every option's failure, in order.
    pub options: Vec<OptionFailure>,
    /// The signal/blackboard action the query asks for on failure (001:L71).
    pub action: FailureAction,
}

impl QueryFailure {
    /// The world commands the failure action amounts to for the asking entity.
    pub fn commands(&self, entity: EntityId) -> Vec<crate::world::Command> {
        use crate::world::Command;
        let mut out = Vec::new();
        if let Some((key, value)) = &self.action.blackboard {
            out.push(Command::SetBlackboard { entity, key: key.clone(), value: value.clone() });
        }
        if let Some((scope, id)) = &self.action.signal {
            let action = crate::coord::Action::Signal { scope: scope.clone(), id: id.clone() };
            out.push(Command::Request { entity, action });
        }
        out
    }
}

/// How a query ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The best point(s), best first.
    Found(Vec<QueryResult>),
    /// Nothing valid.
    Failed(QueryFailure),
}

impl Outcome {
    /// The best point, if any.
    pub fn best(&self) -> Option<&QueryResult> {
        match self {
            Outcome::Found(r) => r.first(),
            Outcome::Failed(_) => None,
        }
    }
}

/// Counts of work done, for benchmarks and budgets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EvalStats {
    /// Candidates generated (all options).
    pub candidates: u64,
    /// Cheap tests evaluated.
    pub cheap_tests: u64,
    /// Expensive tests evaluated.
    pub expensive_tests: u64,
    /// Units of work done (see [`Evaluation::step`]).
    pub units: u64,
}

/// Whether an evaluation has finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// More work remains; call [`Evaluation::step`] again.
    InProgress,
    /// Finished; read [`Evaluation::outcome`].
    Done,
}

#[derive(Debug, Clone)]
struct Point {
    cand: Candidate,
    score: f64,
    /// The next test to evaluate; `tests.len()` when fully evaluated.
    next: usize,
    /// The condition that rejected it, or a rejection before testing.
    rejected: Option<Rejection>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Rejection {
    Test(usize),
    Reserved(EntityId),
    Blocked,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry {
    max: f64,
    idx: u32,
}

impl Eq for Entry {}
impl Ord for Entry {
    /// Highest bound first; on equal bounds the earlier candidate, which is also the exhaustive
    /// evaluator's tie-break.
    fn cmp(&self, o: &Self) -> Ordering {
        self.max.total_cmp(&o.max).then(o.idx.cmp(&self.idx))
    }
}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Phase {
    Generate,
    Cheap(usize),
    Heap,
    Done,
}

/// A resumable evaluation of one query for one request.
#[derive(Debug, Clone)]
pub struct Evaluation {
    query: Arc<Query>,
    req: QueryRequest,
    option: usize,
    phase: Phase,
    points: Vec<Point>,
    traces: Vec<Vec<TestRecord>>,
    heap: BinaryHeap<Entry>,
    first_expensive: usize,
    pos_suffix: Vec<f64>,
    neg_suffix: Vec<f64>,
    limits: Vec<(f64, f64)>,
    slack: f64,
    results: Vec<QueryResult>,
    result_idx: Vec<usize>,
    failures: Vec<OptionFailure>,
    stats: EvalStats,
    record: QueryRecord,
    outcome: Option<Outcome>,
    scratch: Scratch,
}

impl Evaluation {
    /// Starts evaluating `query` for `req`; nothing runs until [`Evaluation::step`].
    pub fn new(query: Arc<Query>, mut req: QueryRequest) -> Self {
        req.results = req.results.max(1);
        let record = QueryRecord { query: query.name.clone(), options: Vec::new(), outcome: String::new() };
        Evaluation {
            query,
            req,
            option: 0,
            phase: Phase::Generate,
            points: Vec::new(),
            traces: Vec::new(),
            heap: BinaryHeap::new(),
            first_expensive: 0,
            pos_suffix: Vec::new(),
            neg_suffix: Vec::new(),
            limits: Vec::new(),
            slack: 0.0,
            results: Vec::new(),
            result_idx: Vec::new(),
            failures: Vec::new(),
            stats: EvalStats::default(),
            record,
            outcome: None,
            scratch: Scratch::default(),
        }
    }

    /// Runs to the end in one call (a synchronous query).
    pub fn run(query: Arc<Query>, req: QueryRequest, env: &QueryEnv<'_>) -> (Outcome, EvalStats) {
        let mut e = Evaluation::new(query, req);
        while e.step(env, &super::schedule::NeverClock, u64::MAX) == Status::InProgress {}
        (e.outcome.clone().unwrap_or(Outcome::Found(Vec::new())), e.stats)
    }

    /// The outcome, once [`Status::Done`].
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// Work done so far.
    pub fn stats(&self) -> EvalStats {
        self.stats
    }

    /// The request.
    pub fn request(&self) -> &QueryRequest {
        &self.req
    }

    /// The debug record (filled when the request asked for one).
    pub fn record(&self) -> &QueryRecord {
        &self.record
    }

    /// Does units of work until `clock` reaches `deadline` (checked before each unit, so one call
    /// with time left always makes progress) or the query finishes.
    pub fn step(&mut self, env: &QueryEnv<'_>, clock: &dyn Clock, deadline: u64) -> Status {
        loop {
            if self.phase == Phase::Done {
                return Status::Done;
            }
            if clock.now() >= deadline {
                return Status::InProgress;
            }
            self.stats.units += 1;
            match self.phase {
                Phase::Generate => self.start_option(env),
                Phase::Cheap(i) => self.cheap(env, i),
                Phase::Heap => self.heap_step(env),
                Phase::Done => {}
            }
        }
    }

    fn ctx<'e, 'a>(&'e self, env: &'e QueryEnv<'a>) -> Ctx<'e, 'a> {
        Ctx { env, owner: self.req.owner, objects: &self.req.objects, config: self.query.config, seed: self.req.seed }
    }

    fn start_option(&mut self, env: &QueryEnv<'_>) {
        let Some(option) = self.query.options.get(self.option) else {
            let action = self.query.on_failure.clone();
            let failure = QueryFailure { options: std::mem::take(&mut self.failures), action };
            self.record.outcome = format!("failed: {}", describe_failure(&failure));
            self.outcome = Some(Outcome::Failed(failure));
            self.phase = Phase::Done;
            return;
        };
        let query = Arc::clone(&self.query);
        if let Err(reason) = check_option(&self.req.objects, option, env) {
            self.fail_option(reason);
            return;
        }
        self.points.clear();
        self.traces.clear();
        self.heap.clear();
        self.results.clear();
        self.result_idx.clear();
        let mut cands = Vec::new();
        for g in &option.generators {
            generate::generate(g, &self.req.objects, self.req.owner, env, &mut self.scratch, &mut cands);
        }
        // Several generators may give the same point; keep the first.
        let mut seen = std::collections::BTreeSet::new();
        for cand in cands {
            if !seen.insert(cand.key()) {
                continue;
            }
            let rejected = match env.reservations.holder(cand.key()) {
                Some(h) if h != self.req.owner => Some(Rejection::Reserved(h)),
                _ if !env.map.passable(super::env::cell(cand.position)) => Some(Rejection::Blocked),
                _ => None,
            };
            self.points.push(Point { cand, score: 0.0, next: 0, rejected });
        }
        self.stats.candidates += self.points.len() as u64;
        if self.req.record {
            self.traces = vec![Vec::new(); self.points.len()];
        }
        let ctx = self.ctx(env);
        self.limits = option.tests.iter().map(|t| criteria::limits(t, &ctx)).collect();
        self.first_expensive = option.first_expensive();
        let n = option.tests.len();
        self.pos_suffix = vec![0.0; n + 1];
        self.neg_suffix = vec![0.0; n + 1];
        for k in (0..n).rev() {
            let w = if let Role::Weight(w) = option.tests[k].role { w } else { 0.0 };
            self.pos_suffix[k] = self.pos_suffix[k + 1] + w.max(0.0);
            self.neg_suffix[k] = self.neg_suffix[k + 1] + w.min(0.0);
        }
        self.slack = 1e-9 * (1.0 + self.pos_suffix[0] - self.neg_suffix[0]);
        drop(query);
        if self.points.is_empty() {
            self.fail_option(FailureReason::NoCandidates);
        } else {
            self.phase = Phase::Cheap(0);
        }
    }

    fn fail_option(&mut self, reason: FailureReason) {
        self.finish_record();
        self.failures.push(OptionFailure { option: self.option, reason });
        self.option += 1;
        self.phase = Phase::Generate;
    }

    /// The cheap tests of candidate `i` (one unit).
    fn cheap(&mut self, env: &QueryEnv<'_>, i: usize) {
        if i >= self.points.len() {
            self.heap = self
                .points
                .iter()
                .enumerate()
                .filter(|(_, p)| p.rejected.is_none())
                .map(|(idx, p)| Entry { max: self.bound(p), idx: idx as u32 })
                .collect();
            self.phase = Phase::Heap;
            return;
        }
        self.phase = Phase::Cheap(i + 1);
        if self.points[i].rejected.is_some() {
            return;
        }
        let query = Arc::clone(&self.query);
        let tests = &query.options[self.option].tests[..self.first_expensive];
        for (k, t) in tests.iter().enumerate() {
            self.stats.cheap_tests += 1;
            if !self.apply_test(env, i, k, t) {
                return;
            }
        }
    }

    /// Evaluates test `k` on point `i`; false when it rejected the point.
    fn apply_test(&mut self, env: &QueryEnv<'_>, i: usize, k: usize, t: &Test) -> bool {
        let ctx = self.ctx(env);
        let raw = criteria::raw_value(t, &self.points[i].cand, &ctx);
        let effect = criteria::apply(t, raw, self.limits[k]);
        let p = &mut self.points[i];
        p.next = k + 1;
        let rec = match effect {
            Ok(add) => {
                p.score += add;
                if t.role.is_condition() { TestEffect::Pass } else { TestEffect::Add(add) }
            }
            Err(()) => {
                p.rejected = Some(Rejection::Test(k));
                TestEffect::Fail
            }
        };
        if let Some(trace) = self.traces.get_mut(i) {
            trace.push(TestRecord { key: t.key.clone(), raw, effect: rec });
        }
        effect.is_ok()
    }

    /// The most point `p` can still score (its score once fully evaluated).
    fn bound(&self, p: &Point) -> f64 {
        let n = self.pos_suffix.len() - 1;
        if p.next >= n { p.score } else { p.score + self.pos_suffix[p.next] + self.slack * (1.0 + p.score.abs()) }
    }

    fn heap_step(&mut self, env: &QueryEnv<'_>) {
        let Some(top) = self.heap.pop() else {
            self.finish_option();
            return;
        };
        let i = top.idx as usize;
        let query = Arc::clone(&self.query);
        let tests = &query.options[self.option].tests;
        let next = self.points[i].next.max(self.first_expensive);
        if next >= tests.len() {
            // Fully evaluated and nothing left can beat it: a final result (001:L209).
            self.results.push(QueryResult {
                candidate: self.points[i].cand,
                score: self.points[i].score,
                option: self.option,
            });
            self.result_idx.push(i);
            if self.results.len() >= self.req.results {
                self.finish_option();
            }
            return;
        }
        self.stats.expensive_tests += 1;
        if self.apply_test(env, i, next, &tests[next]) {
            let max = self.bound(&self.points[i]);
            self.heap.push(Entry { max, idx: top.idx });
        }
    }

    fn finish_option(&mut self) {
        if self.results.is_empty() {
            let mut failed = BTreeMap::new();
            let (mut reserved, mut blocked) = (0, 0);
            let tests = &self.query.options[self.option].tests;
            for p in &self.points {
                match p.rejected {
                    Some(Rejection::Test(k)) => *failed.entry(tests[k].key.clone()).or_insert(0) += 1,
                    Some(Rejection::Reserved(_)) => reserved += 1,
                    Some(Rejection::Blocked) => blocked += 1,
                    None => {}
                }
            }
            self.fail_option(FailureReason::AllRejected { reserved, blocked, failed });
            return;
        }
        self.finish_record();
        let results = std::mem::take(&mut self.results);
        self.record.outcome = format!("found {} point(s) in option {}", results.len(), self.option + 1);
        self.outcome = Some(Outcome::Found(results));
        self.phase = Phase::Done;
    }

    fn finish_record(&mut self) {
        if !self.req.record || self.option >= self.query.options.len() {
            return;
        }
        let tests = &self.query.options[self.option].tests;
        let n = tests.len();
        let mut candidates = Vec::with_capacity(self.points.len());
        for (i, p) in self.points.iter().enumerate() {
            let status = if let Some(rank) = self.result_idx.iter().position(|&r| r == i) {
                CandidateStatus::Chosen(rank)
            } else {
                match p.rejected {
                    Some(Rejection::Test(k)) => CandidateStatus::Failed(tests[k].key.clone()),
                    Some(Rejection::Reserved(h)) => CandidateStatus::Reserved(h),
                    Some(Rejection::Blocked) => CandidateStatus::Blocked,
                    None if p.next >= n => CandidateStatus::Passed,
                    None => CandidateStatus::Partial,
                }
            };
            let max = if p.rejected.is_none() { self.bound(p) } else { p.score };
            candidates.push(CandidateRecord {
                position: p.cand.position,
                source: p.cand.source,
                status,
                score: p.score,
                max_score: max,
                tests: self.traces.get(i).cloned().unwrap_or_default(),
            });
        }
        self.record.options.push(OptionRecord { option: self.option, candidates });
    }
}

/// Checks that every object and layer an option names is available.
fn check_option(objects: &Objects, option: &super::spec::QueryOption, env: &QueryEnv<'_>) -> Result<(), FailureReason> {
    for g in &option.generators {
        if let Some(o) = generate::needed_objects(g).find(|&o| objects.get(o).is_none()) {
            return Err(FailureReason::MissingObject(o));
        }
    }
    for t in &option.tests {
        if let Some(o) = t.object
            && objects.get(o).is_none()
        {
            return Err(FailureReason::MissingObject(o));
        }
        let needs_puppet =
            matches!(t.criterion, Criterion::Directness | Criterion::CanReachBefore | Criterion::CrossesLineOfFire);
        if needs_puppet && objects.get(ObjectKind::Puppet).is_none() {
            return Err(FailureReason::MissingObject(ObjectKind::Puppet));
        }
        if t.criterion == Criterion::Influence {
            let layer = t.param.clone().unwrap_or_default();
            if env.influence.influence_limits(&layer).is_none() {
                return Err(FailureReason::UnknownLayer(layer));
            }
        }
    }
    Ok(())
}

/// One line per failed option.
pub fn describe_failure(f: &QueryFailure) -> String {
    let parts: Vec<String> = f
        .options
        .iter()
        .map(|o| {
            let why = match &o.reason {
                FailureReason::MissingObject(k) => format!("object `{}` is not set", k.name()),
                FailureReason::UnknownLayer(l) => format!("no influence layer `{l}`"),
                FailureReason::NoCandidates => "generation produced no points".to_owned(),
                FailureReason::AllRejected { reserved, blocked, failed } => {
                    let mut v: Vec<String> = failed.iter().map(|(k, n)| format!("{n} failed {k}")).collect();
                    if *reserved > 0 {
                        v.push(format!("{reserved} reserved"));
                    }
                    if *blocked > 0 {
                        v.push(format!("{blocked} blocked"));
                    }
                    v.join(", ")
                }
            };
            format!("option {}: {why}", o.option + 1)
        })
        .collect();
    parts.join("; ")
}

/// Evaluates every test on every candidate (stopping at a point's first failed condition), in the
/// same order as the lazy evaluator, and ranks by score then candidate order. The reference for
/// equivalence tests and the peer of the benchmark.
pub fn evaluate_exhaustive(query: &Query, req: &QueryRequest, env: &QueryEnv<'_>) -> (Outcome, EvalStats) {
    let mut stats = EvalStats::default();
    let mut failures = Vec::new();
    let mut scratch = Scratch::default();
    let want = req.results.max(1);
    for (oi, option) in query.options.iter().enumerate() {
        if let Err(reason) = check_option(&req.objects, option, env) {
            failures.push(OptionFailure { option: oi, reason });
            continue;
        }
        let mut cands = Vec::new();
        for g in &option.generators {
            generate::generate(g, &req.objects, req.owner, env, &mut scratch, &mut cands);
        }
        let mut seen = std::collections::BTreeSet::new();
        cands.retain(|c| seen.insert(c.key()));
        stats.candidates += cands.len() as u64;
        let ctx = Ctx { env, owner: req.owner, objects: &req.objects, config: query.config, seed: req.seed };
        let limits: Vec<_> = option.tests.iter().map(|t| criteria::limits(t, &ctx)).collect();
        let first_exp = option.first_expensive();
        let mut valid: Vec<(f64, usize)> = Vec::new();
        let mut failed = BTreeMap::new();
        let (mut reserved, mut blocked) = (0, 0);
        'cand: for (i, c) in cands.iter().enumerate() {
            if env.reservations.holder(c.key()).is_some_and(|h| h != req.owner) {
                reserved += 1;
                continue;
            }
            if !env.map.passable(super::env::cell(c.position)) {
                blocked += 1;
                continue;
            }
            let mut score = 0.0;
            for (k, t) in option.tests.iter().enumerate() {
                if k < first_exp {
                    stats.cheap_tests += 1;
                } else {
                    stats.expensive_tests += 1;
                }
                match criteria::apply(t, criteria::raw_value(t, c, &ctx), limits[k]) {
                    Ok(add) => score += add,
                    Err(()) => {
                        *failed.entry(t.key.clone()).or_insert(0) += 1;
                        continue 'cand;
                    }
                }
            }
            valid.push((score, i));
        }
        if valid.is_empty() {
            let reason = if cands.is_empty() {
                FailureReason::NoCandidates
            } else {
                FailureReason::AllRejected { reserved, blocked, failed }
            };
            failures.push(OptionFailure { option: oi, reason });
            continue;
        }
        valid.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let results =
            valid.iter().take(want).map(|&(score, i)| QueryResult { candidate: cands[i], score, option: oi }).collect();
        return (Outcome::Found(results), stats);
    }
    (Outcome::Failed(QueryFailure { options: failures, action: query.on_failure.clone() }), stats)
}
