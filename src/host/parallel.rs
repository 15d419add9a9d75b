//! The scripts phase on several threads, with the result of one.
//!
//! The runtime hands the host the tick's calls as [`Job`]s, in the order one thread would run
//! them (their *positions*). Each worker thread owns whole lanes (`lanes.rs`): it runs, in
//! position order, the jobs of the instances on its lanes, into its own command buffer. What
//! the calls share and whose result depends on order is made to come out in position order:
//! - random numbers: each call draws from a stream of its own, decided by the seed, the tick and
//!   its script (its character and its place among that character's scripts,
//!   [`super::Instance::stream_key`]), so nothing about them is shared;
//! - the position service's budget and handles, by turns ([`TurnOrder`]): a call that asks for
//!   a position waits until every earlier position has finished;
//! - commands: each worker's buffer is consumed front to back while the jobs are merged in
//!   position order, so the apply order is the one thread's, "by stage, then issue order";
//! - output allowances, failures and their rollback, and state tables are per instance, and an
//!   instance runs on one worker, so they are exactly as on one thread;
//! - a game's own host functions (closures over the game's state) run in turn, as draws do;
//! - under a script time budget the phase runs on one worker, since which calls wait is decided
//!   over the whole phase in order.
//!
//! A worker that panics still moves past its turns (`WorkerTurns` does when dropped), so the
//! others never wait for ever, and the panic then reaches the caller.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use tactica_engine::world::{Command, CommandBuffer, Event, TurnOrder, World, WorldRng};

use super::lanes::{self, Lane};
use super::pool::WorkerPool;
use super::{Instance, LANES, NativeBackend, ScriptBackend, ScriptError, ScriptHost, ScriptLimits, Trigger};

/// One instance's calls of this tick.
#[derive(Debug, Clone)]
pub struct Job {
    /// The instance.
    pub instance: usize,
    /// Its triggers, in the order they run.
    pub triggers: Vec<Trigger>,
    /// Whether it is a routine call (think, world tick) a script time budget may put off.
    pub routine: bool,
}

/// One call that ran.
#[derive(Debug)]
pub struct Called {
    /// The instance.
    pub instance: usize,
    /// The handler's name (`on_think` …).
    pub handler: &'static str,
    /// When it started, and how long it took (measured only when asked).
    pub start: Option<Instant>,
    /// How long it took.
    pub took: Duration,
    /// How many commands it left in [`Ran::commands`], right after the previous call's.
    pub commands: usize,
    /// `Err` when it failed (its commands were dropped).
    pub result: Result<(), ScriptError>,
}

/// What a parallel scripts phase did, in position order.
pub struct Ran {
    /// Every call, in the order one thread would have run them.
    pub calls: Vec<Called>,
    /// Their commands, in that order.
    pub commands: Vec<Command>,
    /// The instances whose routine call the script budget put off, in position order.
    pub owed: Vec<usize>,
    /// Per worker: the time it ran, and the part of it spent waiting for a turn.
    pub workers: Vec<(Duration, Duration)>,
    /// The host calls recorded on the worker threads other than the caller's (the caller's stay
    /// in its thread-local recorder).
    pub host_calls: Vec<tactica_stdlib::profile::HostCall>,
}

/// What the phase needs besides the host: read-only, shared by the workers.
pub struct Shared<'w> {
    /// The world.
    pub world: &'w World,
    /// What happened on the previous tick.
    pub events: &'w [Event],
    /// A script time budget, from when the phase started.
    pub budget: Option<(Instant, Duration)>,
    /// Whether to time calls and record host calls.
    pub timing: bool,
}

/// One worker's output.
#[derive(Default)]
struct Output {
    calls: Vec<(usize, Called)>,
    commands: Vec<Command>,
    owed: Vec<(usize, usize)>,
    ran: Duration,
    host_calls: Vec<tactica_stdlib::profile::HostCall>,
}

/// What a worker owns for the phase.
struct Worker<'h> {
    index: usize,
    /// Lane 0's backends and the native behaviours, for the worker that owns lane 0.
    first: Option<(&'h mut Vec<Box<dyn ScriptBackend>>, &'h mut NativeBackend)>,
    /// Its other lanes, by lane number.
    lanes: Vec<(usize, &'h mut Lane)>,
    /// Its instances, and for each of its jobs (position, slot in `instances`).
    instances: Vec<&'h mut Instance>,
    jobs: Vec<(usize, usize)>,
}

impl ScriptHost {
    /// Runs the tick's `jobs` (in position order) on up to `threads` workers (at most
    /// [`LANES`], and at most what `pool` runs side by side; without a pool, on the calling
    /// thread); each call draws from its own stream of `rng`'s seed; see the module doc.
    pub fn run_parallel(
        &mut self,
        jobs: &[Job],
        rng: &WorldRng,
        shared: &Shared<'_>,
        pool: Option<&dyn WorkerPool>,
        threads: usize,
    ) -> Ran {
        // Under a script time budget, "at least one routine call a tick" and "the rest wait,
        // longest waiting first" are decisions over the whole phase in order: one worker takes
        // them (a budget trades reproducibility for frame time in any case).
        let most = pool.map_or(1, WorkerPool::workers);
        let workers = if shared.budget.is_some() { 1 } else { threads.clamp(1, LANES).min(most.max(1)) };
        let streams = (rng.seed(), shared.world.clock().tick());
        let limits = self.limits;
        let mut crew: Vec<Worker<'_>> = (0..workers)
            .map(|index| Worker { index, first: None, lanes: Vec::new(), instances: Vec::new(), jobs: Vec::new() })
            .collect();
        let ScriptHost { native, backends, lanes, instances, .. } = self;
        crew[0].first = Some((backends, native));
        for (n, lane) in lanes.iter_mut().enumerate() {
            crew[(n + 1) % workers].lanes.push((n + 1, lane));
        }
        let lane_of: Vec<usize> = instances.iter().map(|i| i.lane).collect();
        // Each instance's slot in its worker's list.
        let mut slot = Vec::with_capacity(instances.len());
        for inst in instances.iter_mut() {
            let w = &mut crew[inst.lane % workers];
            slot.push(w.instances.len());
            w.instances.push(inst);
        }
        let mut worker_of = Vec::with_capacity(jobs.len());
        for (position, job) in jobs.iter().enumerate() {
            let owner = lane_of[job.instance] % workers;
            crew[owner].jobs.push((position, slot[job.instance]));
            worker_of.push(owner);
        }
        let first: Vec<usize> = crew.iter().map(|w| w.jobs.first().map_or(usize::MAX, |j| j.0)).collect();
        let order = TurnOrder::new(&first);
        let outputs = match pool {
            Some(pool) if workers > 1 => {
                // Each worker is taken out of its slot by whichever thread the pool gives it.
                let crew: Vec<Mutex<Option<Worker<'_>>>> = crew.into_iter().map(|w| Mutex::new(Some(w))).collect();
                let done: Vec<Mutex<Option<Output>>> = (0..workers).map(|_| Mutex::new(None)).collect();
                pool.run(workers, &|i| {
                    let Some(w) = crew[i].lock().unwrap_or_else(PoisonError::into_inner).take() else { return };
                    // The playing thread records its host calls already, and keeps them; a
                    // worker thread's are handed back with its output.
                    let own_recorder = shared.timing && !tactica_stdlib::profile::recording();
                    if own_recorder {
                        tactica_stdlib::profile::record(true);
                    }
                    let mut out = work(w, jobs, (&order, streams), shared, &limits);
                    if own_recorder {
                        tactica_stdlib::profile::take(&mut out.host_calls);
                        tactica_stdlib::profile::record(false);
                    }
                    *done[i].lock().unwrap_or_else(PoisonError::into_inner) = Some(out);
                });
                done.into_iter()
                    .map(|o| o.into_inner().unwrap_or_else(PoisonError::into_inner).unwrap_or_default())
                    .collect()
            }
            _ => crew.into_iter().map(|w| work(w, jobs, (&order, streams), shared, &limits)).collect(),
        };
        merge(outputs, &worker_of, &order)
    }
}

/// Puts the workers' outputs in position order.
fn merge(outputs: Vec<Output>, worker_of: &[usize], order: &TurnOrder) -> Ran {
    let waited = order.waited();
    let mut ran = Ran {
        calls: Vec::new(),
        commands: Vec::new(),
        owed: Vec::new(),
        workers: outputs.iter().zip(&waited).map(|(o, &w)| (o.ran, Duration::from_nanos(w))).collect(),
        host_calls: Vec::new(),
    };
    let mut owed: Vec<(usize, usize)> = Vec::new();
    let mut streams: Vec<_> = outputs
        .into_iter()
        .map(|o| {
            owed.extend(o.owed);
            ran.host_calls.extend(o.host_calls);
            (o.calls.into_iter().peekable(), o.commands.into_iter())
        })
        .collect();
    for (position, &w) in worker_of.iter().enumerate() {
        let (calls, commands) = &mut streams[w];
        while let Some((_, called)) = calls.next_if(|(p, _)| *p == position) {
            ran.commands.extend(commands.by_ref().take(called.commands));
            ran.calls.push(called);
        }
    }
    owed.sort_unstable();
    ran.owed = owed.into_iter().map(|(_, i)| i).collect();
    ran
}

/// One worker's share of the phase.
/// `turns`: the phase's turn order, and the seed and tick every call's stream comes from.
fn work(
    mut w: Worker<'_>,
    jobs: &[Job],
    turns: (&Arc<TurnOrder>, (u64, u64)),
    shared: &Shared<'_>,
    limits: &ScriptLimits,
) -> Output {
    let (order, (seed, tick)) = turns;
    let started = Instant::now();
    let mut out = Output::default();
    let mine = std::mem::take(&mut w.jobs);
    let mut turns = order.worker(w.index);
    let mut commands = CommandBuffer::default();
    // At least one routine call runs each tick, so a tiny budget still progresses.
    let mut thought = false;
    for (k, &(position, at)) in mine.iter().enumerate() {
        let job = &jobs[position];
        let stream = WorldRng::for_call(seed, tick, w.instances[at].stream_key(shared.world));
        let mut rng = turns.rng_for(position, stream);
        let over = thought && shared.budget.is_some_and(|(t0, b)| t0.elapsed() >= b);
        let routine = job.routine && !over;
        if over && job.routine {
            out.owed.push((position, job.instance));
        }
        thought |= routine;
        for t in &job.triggers {
            if over && matches!(t, Trigger::Think | Trigger::Tick) {
                continue;
            }
            let inst = &mut *w.instances[at];
            let program = inst.program;
            let start = shared.timing.then(Instant::now);
            let before = commands.len();
            let result = match inst.backend {
                None => match &mut w.first {
                    Some((_, native)) => {
                        super::call(inst, limits, &mut **native, program, shared, &mut rng, t, &mut commands)
                    }
                    None => Err(lanes::missing(&inst.file)),
                },
                Some(b) => {
                    let found = if inst.lane == 0 {
                        w.first.as_mut().and_then(|(be, _)| be.get_mut(b)).map(|be| (&mut **be, program))
                    } else {
                        let lane = inst.lane;
                        w.lanes.iter_mut().find(|(n, _)| *n == lane).and_then(|(_, l)| l.get(b, program))
                    };
                    match found {
                        Some((backend, program)) => {
                            super::call(inst, limits, backend, program, shared, &mut rng, t, &mut commands)
                        }
                        None => Err(lanes::missing(&inst.file)),
                    }
                }
            };
            let failed = result.is_err();
            out.calls.push((
                position,
                Called {
                    instance: job.instance,
                    handler: crate::runtime::profile::handler_name(t),
                    start,
                    took: start.map(|s| s.elapsed()).unwrap_or_default(),
                    commands: commands.len() - before,
                    result,
                },
            ));
            if failed {
                break; // stopped for this tick
            }
        }
        turns.finish(rng, mine.get(k + 1).map_or(usize::MAX, |j| j.0));
    }
    out.commands = commands.into_vec();
    out.ran = started.elapsed();
    out
}
