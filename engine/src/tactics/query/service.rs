//! Position queries as a service of the world: one per-tick budget of work shared by every
//! `FindPosition` of the tick, queries that did not fit carried on in later ticks, and the points
//! agents hold.
//!
//! The budget counts units of evaluation work (a generated batch, one test of one candidate), not
//! time, so a run spends it the same way on every machine and the trace stays reproducible. A
//! script's query runs at once while the tick's budget lasts; once it is spent, the query becomes
//! a *pending* one — the script gets a handle, and the world finishes the query in the following
//! ticks, oldest first, announcing each answer with a `position_ready` or `position_failed` note.
//! An agent has at most one query waiting: asking again cancels the one before (its behaviour
//! moved on), so an agent that asks every tick cannot crowd out the others. A pending query starts
//! over in the background rather than resuming the part the script's attempt did: the world may
//! have changed between the two.
//!
//! Reservations are the reference's: an agent holds at most one point, and other agents'
//! queries reject the points held.
//!
//! A replay viewer wants every query of a run with every candidate it weighed:
//! [`PositionService::keep_records`] makes each evaluation record itself (which only adds the
//! per-test traces: the evaluation, its work units and its answer are the same) and keeps the
//! records until [`PositionService::take_records`].

use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use glam::Vec2;

use super::env::{Candidate, Objects};
use super::eval::{Evaluation, Outcome, QueryRequest, Status};
use super::live::with_world_env;
use super::record::QueryRecord;
use super::reserve::Reservations;
use super::schedule::Clock;
use super::spec::Query;
use crate::world::{EntityId, World};

/// How long (in ticks) an answer stays readable after the query finished.
pub const ANSWER_TICKS: u64 = 600;

/// What became of a query handle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PositionAnswer {
    /// Still waiting for budget.
    Pending,
    /// Found this point.
    Found(Vec2),
    /// Every option failed.
    Failed,
    /// The same agent asked again before this one was answered.
    Cancelled,
    /// No such handle, or its answer is older than [`ANSWER_TICKS`].
    Unknown,
}

impl PositionAnswer {
    /// The word scripts see: `pending`, `found`, `failed` or `unknown`.
    pub fn word(self) -> &'static str {
        match self {
            PositionAnswer::Pending => "pending",
            PositionAnswer::Found(_) => "found",
            PositionAnswer::Failed => "failed",
            PositionAnswer::Cancelled => "cancelled",
            PositionAnswer::Unknown => "unknown",
        }
    }
}

#[derive(Debug, Clone)]
struct Pending {
    ticket: u64,
    owner: EntityId,
    eval: Evaluation,
    reserve: bool,
}

/// The world's position-query service. Budget and handles are atomics because scripts ask
/// through a shared `&World` (from several threads in a parallel scripts phase); they only count,
/// and are reset at the first query of a tick. Scripts touch them in instance order: the stdlib
/// waits for the call's turn first (`WorldRng::wait_turn`), so the counts never depend on which
/// thread got there first.
#[derive(Debug, Default)]
pub struct PositionService {
    budget: u64,
    spent: AtomicU64,
    spent_tick: AtomicU64,
    next_ticket: AtomicU64,
    /// The highest handle whose query was submitted: handles above it are issued this tick.
    submitted: u64,
    pending: VecDeque<Pending>,
    answers: BTreeMap<u64, (PositionAnswer, u64)>,
    reservations: Reservations,
    /// Whether finished evaluations are recorded (for a viewer), and the records not yet taken.
    keep_records: bool,
    records: Mutex<Vec<AskedQuery>>,
}

/// One finished evaluation with its debug record, kept while [`PositionService::keep_records`]
/// is on.
#[derive(Debug, Clone)]
pub struct AskedQuery {
    /// The tick it finished on.
    pub tick: u64,
    /// Who asked.
    pub owner: EntityId,
    /// Every option tried, every candidate, its fate, score and each test's result.
    pub record: QueryRecord,
}

/// A clock that ticks once per unit of work: [`Evaluation::step`] reads it once before each.
struct UnitClock(Cell<u64>);

impl Clock for UnitClock {
    fn now(&self) -> u64 {
        let n = self.0.get();
        self.0.set(n + 1);
        n
    }
}

/// Steps `eval` until it finishes or `units` of work are done; returns whether it finished and
/// the units used.
fn step_for(world: &World, reservations: &Reservations, eval: &mut Evaluation, units: u64) -> (bool, u64) {
    let clock = UnitClock(Cell::new(0));
    let done = with_world_env(world, reservations, |env| eval.step(env, &clock, units)) == Status::Done;
    // The clock was read once more than units were done (the check that stopped the loop).
    (done, clock.0.get().saturating_sub(1).min(units))
}

impl Clone for PositionService {
    fn clone(&self) -> Self {
        let copy = |a: &AtomicU64| AtomicU64::new(a.load(Relaxed));
        PositionService {
            budget: self.budget,
            spent: copy(&self.spent),
            spent_tick: copy(&self.spent_tick),
            next_ticket: copy(&self.next_ticket),
            submitted: self.submitted,
            pending: self.pending.clone(),
            answers: self.answers.clone(),
            reservations: self.reservations.clone(),
            keep_records: self.keep_records,
            records: Mutex::new(self.records.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()),
        }
    }
}

impl PositionService {
    /// Units of work all queries of one tick may do together; 0 (the default) means no limit.
    pub fn set_budget(&mut self, units: u64) {
        self.budget = units;
    }

    /// The per-tick budget (0 = none).
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The points agents hold.
    pub fn reservations(&self) -> &Reservations {
        &self.reservations
    }

    /// How many queries wait for budget.
    pub fn pending(&self) -> usize {
        self.pending.len()
    }

    fn left(&self, tick: u64) -> u64 {
        if self.spent_tick.load(Relaxed) != tick {
            self.spent_tick.store(tick, Relaxed);
            self.spent.store(0, Relaxed);
        }
        self.budget.saturating_sub(self.spent.load(Relaxed))
    }

    /// The request `asker` makes when it asks a query on `world` as it stands: its objects from
    /// the asker ([`Objects::from_world`]: itself, and the `target`, `referencePoint` and `leader`
    /// its blackboard or attributes name), and the tick as the seed of the `random` criterion. A
    /// script's `FindPosition`, a tree's `go_to_position` and `tactica query` all start here, so
    /// they ask the same thing on the same tick.
    pub fn request(world: &World, asker: EntityId) -> QueryRequest {
        let mut req = QueryRequest::new(asker, Objects::from_world(world, asker));
        req.seed = world.clock().tick();
        req
    }

    /// Runs `query` to its end on `world` now, whatever is left of the tick's budget, against the
    /// points held: what a script's query does while the tick has budget, what a tree's
    /// `go_to_position` does, and what `tactica query` and `render --query` replay. Recorded
    /// while [`PositionService::keep_records`] is on.
    pub fn evaluate(&self, world: &World, query: Arc<Query>, mut req: QueryRequest) -> Evaluation {
        req.record |= self.keep_records;
        let owner = req.owner;
        let mut eval = Evaluation::new(query, req);
        step_for(world, &self.reservations, &mut eval, u64::MAX);
        self.keep(world.clock().tick(), owner, &eval);
        eval
    }

    /// Runs a script's query now with what is left of this tick's budget: the evaluation if it
    /// finished, else `None` (the budget is spent; submit it with [`PositionService::handle`]).
    pub fn attempt(&self, world: &World, query: Arc<Query>, mut req: QueryRequest) -> Option<Evaluation> {
        if self.budget == 0 {
            return Some(self.evaluate(world, query, req));
        }
        req.record |= self.keep_records;
        let owner = req.owner;
        let mut eval = Evaluation::new(query, req);
        let left = self.left(world.clock().tick());
        // Queries already waiting go first: a new one that took the budget before them every tick
        // could starve them for ever.
        if left == 0 || !self.pending.is_empty() || self.next_ticket.load(Relaxed) > self.submitted {
            return None;
        }
        let (done, used) = step_for(world, &self.reservations, &mut eval, left);
        self.spent.fetch_add(used, Relaxed);
        if done {
            self.keep(world.clock().tick(), owner, &eval);
        }
        done.then_some(eval)
    }

    /// Records every evaluation that finishes from now on (or stops, and forgets the records not
    /// taken). Recording adds each test's trace to the evaluation and changes nothing it does.
    pub fn keep_records(&mut self, on: bool) {
        self.keep_records = on;
        if !on {
            self.records.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner).clear();
        }
    }

    /// The evaluations that finished since the last call, in the order they finished.
    pub fn take_records(&mut self) -> Vec<AskedQuery> {
        std::mem::take(self.records.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner))
    }

    fn keep(&self, tick: u64, owner: EntityId, eval: &Evaluation) {
        if self.keep_records {
            self.records.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(AskedQuery {
                tick,
                owner,
                record: eval.record().clone(),
            });
        }
    }

    /// A fresh handle for a query that will go on in the background (the script's command that
    /// submits it carries this number).
    pub fn handle(&self) -> u64 {
        self.next_ticket.fetch_add(1, Relaxed) + 1
    }

    /// Queues a query under `ticket` (applied from the script's command at `tick`), cancelling
    /// the asker's earlier one.
    pub fn submit(&mut self, ticket: u64, query: Arc<Query>, mut req: QueryRequest, reserve: bool, tick: u64) {
        req.record |= self.keep_records;
        let owner = req.owner;
        for p in self.pending.iter().filter(|p| p.owner == owner) {
            self.answers.insert(p.ticket, (PositionAnswer::Cancelled, tick));
        }
        self.pending.retain(|p| p.owner != owner);
        self.submitted = self.submitted.max(ticket);
        self.pending.push_back(Pending { ticket, owner, eval: Evaluation::new(query, req), reserve });
        self.answers.insert(ticket, (PositionAnswer::Pending, u64::MAX));
    }

    /// What became of `ticket`.
    pub fn answer(&self, ticket: u64) -> PositionAnswer {
        match self.answers.get(&ticket) {
            Some(&(a, _)) => a,
            // Issued this tick; the world queues it once every script of the tick has run.
            None if ticket > self.submitted && ticket <= self.next_ticket.load(Relaxed) => PositionAnswer::Pending,
            None => PositionAnswer::Unknown,
        }
    }

    /// `owner` takes `point` (giving up what it held); `Err` with the holder when another agent
    /// took it first.
    pub fn reserve(&mut self, owner: EntityId, point: Candidate) -> Result<(), EntityId> {
        self.reservations.reserve(owner, point)
    }

    /// `owner` gives up its point.
    pub fn release(&mut self, owner: EntityId) {
        self.reservations.release(owner);
    }

    /// Forgets the queries and points of agents that are gone, and answers past their time.
    pub(crate) fn retain(&mut self, alive: impl Fn(EntityId) -> bool, tick: u64) {
        self.pending.retain(|p| alive(p.owner));
        let gone: Vec<EntityId> = self.holders().filter(|&h| !alive(h)).collect();
        for owner in gone {
            self.reservations.release(owner);
        }
        self.answers.retain(|_, &mut (_, done)| done == u64::MAX || tick.saturating_sub(done) <= ANSWER_TICKS);
    }

    fn holders(&self) -> impl Iterator<Item = EntityId> + '_ {
        self.pending.iter().map(|p| p.owner).chain(self.reservations.owners())
    }

    /// Spends what is left of this tick's budget on the pending queries, oldest first. Returns
    /// the finished ones: (owner, ticket, answer).
    pub(crate) fn run_pending(&mut self, world: &World) -> Vec<(EntityId, u64, PositionAnswer)> {
        let tick = world.clock().tick();
        let mut left = if self.budget == 0 { u64::MAX } else { self.left(tick) };
        let mut finished = Vec::new();
        while left > 0 {
            let Some(mut p) = self.pending.pop_front() else { break };
            let (done, used) = step_for(world, &self.reservations, &mut p.eval, left);
            left = left.saturating_sub(used);
            if !done {
                self.pending.push_front(p);
                break;
            }
            self.keep(tick, p.owner, &p.eval);
            let answer = match p.eval.outcome() {
                Some(Outcome::Found(r)) if !r.is_empty() => {
                    if p.reserve && self.reservations.reserve(p.owner, r[0].candidate).is_err() {
                        PositionAnswer::Failed
                    } else {
                        PositionAnswer::Found(r[0].candidate.position)
                    }
                }
                _ => PositionAnswer::Failed,
            };
            self.answers.insert(p.ticket, (answer, tick));
            finished.push((p.owner, p.ticket, answer));
        }
        if self.budget > 0 {
            self.spent.store(self.budget - left, Relaxed);
        }
        finished
    }
}
