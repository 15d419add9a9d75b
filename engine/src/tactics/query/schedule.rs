//! Time slicing: a per-tick budget shared fairly by many running queries (001:L212–L221).
//!
//! Crysis 2 ran one query at a time, first come first served; the text suggests sharing time
//! between agents (001:L217). [`QueryScheduler::tick`] gives every running query a turn in
//! round-robin order starting where the last tick stopped, each turn getting an equal share of
//! what is left of the budget, and goes round again while time remains. Evaluations check the
//! [`Clock`] before every unit of work, so a tick overruns its budget by at most one unit.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

use super::env::QueryEnv;
use super::eval::{EvalStats, Evaluation, Outcome, QueryRequest, Status};
use super::record::QueryRecord;
use super::spec::Query;

/// A monotonic clock in nanoseconds. Inject a simulated one in tests.
pub trait Clock {
    /// Nanoseconds since an arbitrary start.
    fn now(&self) -> u64;
}

/// Wall time.
#[derive(Debug, Clone, Copy)]
pub struct WallClock(Instant);

impl WallClock {
    /// A clock starting now.
    pub fn new() -> Self {
        WallClock(Instant::now())
    }
}

impl Default for WallClock {
    fn default() -> Self {
        WallClock::new()
    }
}

impl Clock for WallClock {
    fn now(&self) -> u64 {
        u64::try_from(self.0.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// A clock that never advances (synchronous evaluation with no deadline).
#[derive(Debug, Clone, Copy)]
pub(crate) struct NeverClock;

impl Clock for NeverClock {
    fn now(&self) -> u64 {
        0
    }
}

/// A handle to a submitted query.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket(pub u64);

/// A finished query.
#[derive(Debug, Clone)]
pub struct Finished {
    /// Its ticket.
    pub ticket: Ticket,
    /// How it ended.
    pub outcome: Outcome,
    /// Work done.
    pub stats: EvalStats,
    /// Its debug record (empty unless the request asked for one).
    pub record: QueryRecord,
    /// Ticks it took, counting the one it finished in.
    pub ticks: u32,
}

struct Running {
    ticket: Ticket,
    eval: Evaluation,
    ticks: u32,
}

/// Runs many queries under one per-tick time budget.
#[derive(Default)]
pub struct QueryScheduler {
    running: VecDeque<Running>,
    next: u64,
}

impl QueryScheduler {
    /// An empty scheduler.
    pub fn new() -> Self {
        QueryScheduler::default()
    }

    /// Queues `query` for `req`.
    pub fn submit(&mut self, query: Arc<Query>, req: QueryRequest) -> Ticket {
        let ticket = Ticket(self.next);
        self.next += 1;
        self.running.push_back(Running { ticket, eval: Evaluation::new(query, req), ticks: 0 });
        ticket
    }

    /// Drops a queued or running query (its agent changed behaviour).
    pub fn cancel(&mut self, ticket: Ticket) -> bool {
        let before = self.running.len();
        self.running.retain(|r| r.ticket != ticket);
        self.running.len() != before
    }

    /// How many queries are unfinished.
    pub fn pending(&self) -> usize {
        self.running.len()
    }

    /// Spends at most `budget_ns` (plus one unit of work) on the running queries and returns those
    /// that finished, in the order they finished.
    pub fn tick(&mut self, env: &QueryEnv<'_>, clock: &dyn Clock, budget_ns: u64) -> Vec<Finished> {
        let start = clock.now();
        let end = start.saturating_add(budget_ns);
        let mut finished = Vec::new();
        for r in &mut self.running {
            r.ticks += 1;
        }
        // Round robin: each turn gets an equal share of what is left; queries that finish early
        // leave their time to the others, and the rotation carries over to the next tick.
        let mut turns_left = self.running.len();
        while let Some(mut r) = self.running.pop_front() {
            let now = clock.now();
            if now >= end {
                self.running.push_front(r);
                break;
            }
            let share = (end - now) / turns_left.max(1) as u64;
            let status = r.eval.step(env, clock, now + share.max(1));
            turns_left = turns_left.saturating_sub(1);
            if status == Status::Done {
                let outcome = r.eval.outcome().cloned().unwrap_or(Outcome::Found(Vec::new()));
                finished.push(Finished {
                    ticket: r.ticket,
                    outcome,
                    stats: r.eval.stats(),
                    record: r.eval.record().clone(),
                    ticks: r.ticks,
                });
            } else {
                self.running.push_back(r);
            }
            if turns_left == 0 {
                turns_left = self.running.len();
            }
            if self.running.is_empty() {
                break;
            }
        }
        finished
    }
}
