//! The script profiler: where a tick's time goes, for a game's debug overlay or `tactica run
//! --profile`.
//!
//! [`Runtime::enable_profile`](super::Runtime::enable_profile) starts recording and [`Runtime::profile`](super::Runtime::profile) reads what was recorded:
//! time per tick phase, per language, per script file, per handler (file and trigger), per host
//! function (calls, total, median, max), and the ticks that overran a budget — the frame budget
//! for the whole tick ([`Profile::set_frame_budget`], 16.6 ms unless set) or the script budget
//! ([`Runtime::set_script_budget`](super::Runtime::set_script_budget)) for its scripts phase.
//!
//! **Cost.** Disabled, the runtime's only cost is a branch on an `Option` per phase and per
//! script call, and the host's one thread-local flag per host call
//! (`tactica_stdlib::profile`). Enabled, each phase, script call and host call reads the clock
//! twice.
//!
//! **Medians** come from a bounded reservoir per key: the first [`RESERVOIR`] samples are all
//! kept (the median is exact up to there), after which each new sample replaces a random kept
//! one with probability `RESERVOIR / seen` (Vitter's algorithm R, with the profiler's own
//! fixed-seed generator — the world's random stream is never touched), so the median is that of
//! a uniform sample of every call. Counts, totals and maxima are exact. Timing never changes
//! what the world does: a run with the profiler has the same trace as one without.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// Samples kept per key for its median.
pub const RESERVOIR: usize = 1024;

/// The frame budget unless set: one frame at 60 Hz.
pub const DEFAULT_FRAME_BUDGET: Duration = Duration::from_micros(16_600);

/// How many overrun ticks are listed (the most recent; [`Profile::overrun_count`] counts all).
pub const MAX_OVERRUNS: usize = 1024;

/// A tick's phases, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// The timeline: scheduled globals and doors.
    Update,
    /// The player's encounters and who hears what the player types.
    Perceive,
    /// Every script call of the tick.
    Scripts,
    /// Script failures recorded, then the scripts' commands applied.
    Apply,
    /// Position queries, path requests and the navigation service's budgeted searches.
    Path,
    /// Action queues: instants, waits, sleeps, walking the plans.
    Walk,
    /// Steering (flocks, formations, pursuers).
    Steer,
    /// Region enter/exit events.
    Events,
    /// The tactical layers and senses (`[field]`).
    Field,
    /// The clock, and the trace hashed and written as it goes (when streaming).
    Trace,
}

impl Phase {
    /// Every phase, in tick order.
    pub const ALL: [Phase; 10] = [
        Phase::Update,
        Phase::Perceive,
        Phase::Scripts,
        Phase::Apply,
        Phase::Path,
        Phase::Walk,
        Phase::Steer,
        Phase::Events,
        Phase::Field,
        Phase::Trace,
    ];

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Update => "update",
            Phase::Perceive => "perceive",
            Phase::Scripts => "scripts",
            Phase::Apply => "apply",
            Phase::Path => "path",
            Phase::Walk => "walk",
            Phase::Steer => "steer",
            Phase::Events => "events",
            Phase::Field => "field",
            Phase::Trace => "trace",
        }
    }
}

/// Timings of one key: exact count, total and maximum, and a reservoir of samples for the median.
#[derive(Debug, Clone, Default)]
pub struct Stat {
    calls: u64,
    total: Duration,
    max: Duration,
    samples: Vec<Duration>,
    seen: u64,
    rng: u64,
}

impl Stat {
    /// Adds one timing (of `calls` calls: a per-tick key adds a tick's calls at once).
    fn add(&mut self, took: Duration, calls: u64) {
        self.calls += calls;
        self.total += took;
        self.max = self.max.max(took);
        self.seen += 1;
        if self.samples.len() < RESERVOIR {
            self.samples.push(took);
        } else {
            // xorshift64*, seeded per key; only the profiler uses it.
            if self.rng == 0 {
                self.rng = 0x2545_F491_4F6C_DD1D;
            }
            self.rng ^= self.rng >> 12;
            self.rng ^= self.rng << 25;
            self.rng ^= self.rng >> 27;
            let r = self.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) % self.seen;
            if let Ok(r) = usize::try_from(r)
                && r < RESERVOIR
            {
                self.samples[r] = took;
            }
        }
    }

    /// How many calls.
    pub fn calls(&self) -> u64 {
        self.calls
    }

    /// Their total time.
    pub fn total(&self) -> Duration {
        self.total
    }

    /// The longest.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// The median of the samples (exact up to [`RESERVOIR`] samples, of a uniform sample after).
    pub fn median(&self) -> Duration {
        if self.samples.is_empty() {
            return Duration::ZERO;
        }
        let mut s = self.samples.clone();
        let mid = s.len() / 2;
        let (_, m, _) = s.select_nth_unstable(mid);
        *m
    }

    fn row(&self, name: String) -> Row {
        Row { name, calls: self.calls, total: self.total, median: self.median(), max: self.max }
    }
}

/// One line of a profile table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// What was timed: a phase, a language, a file, `file handler`, a host function.
    pub name: String,
    /// How many calls (for phases: ticks).
    pub calls: u64,
    /// Their total time.
    pub total: Duration,
    /// The median sample (see the module doc).
    pub median: Duration,
    /// The longest sample.
    pub max: Duration,
}

/// A tick that went over a budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overrun {
    /// The tick.
    pub tick: u64,
    /// How long the whole tick took.
    pub total: Duration,
    /// How long its scripts took.
    pub scripts: Duration,
    /// Whether the whole tick went over the frame budget.
    pub over_frame: bool,
    /// Whether its scripts went over the script budget ([`crate::runtime::Runtime::set_script_budget`]).
    pub over_scripts: bool,
    /// How many thinks the script budget put off to the next tick.
    pub put_off: usize,
}

/// What the profiler recorded (see the module doc).
#[derive(Debug, Clone)]
pub struct Profile {
    frame_budget: Duration,
    ticks: u64,
    phases: BTreeMap<Phase, Stat>,
    /// Per language, per tick: the tick's handler time in that language.
    languages: BTreeMap<&'static str, Stat>,
    files: BTreeMap<String, Stat>,
    handlers: BTreeMap<String, BTreeMap<&'static str, Stat>>,
    host: BTreeMap<&'static str, Stat>,
    /// Per behaviour tree, per tick: its time over every character running it.
    trees: BTreeMap<String, Stat>,
    /// Per tree node (`Tree #id name`), per tick: its time (children included).
    tree_nodes: BTreeMap<String, Stat>,
    overruns: VecDeque<Overrun>,
    overrun_count: u64,
    /// Per worker thread of the scripts phase, per tick: the time it ran, and the part of it
    /// spent waiting for its turn (a position query, a game's function; see `host/parallel.rs`).
    workers: Vec<(Stat, Stat)>,
}

impl Default for Profile {
    fn default() -> Self {
        Profile::new()
    }
}

impl Profile {
    /// An empty profile with the default frame budget.
    pub fn new() -> Self {
        Profile {
            frame_budget: DEFAULT_FRAME_BUDGET,
            ticks: 0,
            phases: BTreeMap::new(),
            languages: BTreeMap::new(),
            files: BTreeMap::new(),
            handlers: BTreeMap::new(),
            host: BTreeMap::new(),
            trees: BTreeMap::new(),
            tree_nodes: BTreeMap::new(),
            overruns: VecDeque::new(),
            overrun_count: 0,
            workers: Vec::new(),
        }
    }

    /// The wall-clock time a whole tick may take before it is listed as an overrun.
    pub fn set_frame_budget(&mut self, budget: Duration) {
        self.frame_budget = budget;
    }

    /// The frame budget.
    pub fn frame_budget(&self) -> Duration {
        self.frame_budget
    }

    /// How many ticks were profiled.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// One phase's timings (one sample per tick).
    pub fn phase(&self, phase: Phase) -> Option<&Stat> {
        self.phases.get(&phase)
    }

    /// The phases, by total time, longest first; `calls` counts ticks.
    pub fn phases(&self) -> Vec<Row> {
        sorted(self.phases.iter().map(|(p, s)| s.row(p.name().to_owned())))
    }

    /// One language's script time per tick (`tac`, `lua`, `rhai`, `native`): `calls` counts its
    /// handler calls, the median and maximum are over ticks.
    pub fn language(&self, language: &str) -> Option<&Stat> {
        self.languages.get(language)
    }

    /// Every language's row (see [`Profile::language`]), longest first.
    pub fn languages(&self) -> Vec<Row> {
        sorted(self.languages.iter().map(|(l, s)| s.row((*l).to_owned())))
    }

    /// Per script file (as the trace names it): its handler calls.
    pub fn files(&self) -> Vec<Row> {
        sorted(self.files.iter().map(|(f, s)| s.row(f.clone())))
    }

    /// Per handler: `file handler` (the handler is the trigger: spawn, think, encounter, hear,
    /// tick, reload).
    pub fn handlers(&self) -> Vec<Row> {
        sorted(self.handlers.iter().flat_map(|(f, hs)| hs.iter().map(move |(h, s)| s.row(format!("{f} {h}")))))
    }

    /// One handler's timings.
    pub fn handler(&self, file: &str, handler: &str) -> Option<&Stat> {
        self.handlers.get(file).and_then(|hs| hs.get(handler))
    }

    /// Per host function, every call from any language.
    pub fn host_functions(&self) -> Vec<Row> {
        sorted(self.host.iter().map(|(f, s)| s.row((*f).to_owned())))
    }

    /// One host function's timings.
    pub fn host_function(&self, name: &str) -> Option<&Stat> {
        self.host.get(name)
    }

    /// Per behaviour tree (by its name): one sample a tick, its time over every character
    /// running it; `calls` counts character-ticks, evaluated or skipped by event-driven
    /// evaluation. Longest first.
    pub fn trees(&self) -> Vec<Row> {
        sorted(self.trees.iter().map(|(t, s)| s.row(t.clone())))
    }

    /// Per tree node, named `Tree #number name`: one sample a tick, its time with its children's;
    /// `calls` counts the ticks of the node. Longest first.
    pub fn tree_nodes(&self) -> Vec<Row> {
        sorted(self.tree_nodes.iter().map(|(n, s)| s.row(n.clone())))
    }

    pub(super) fn add_trees(&mut self, t: &tactica_engine::decide::bt::TreeProfile) {
        for (tree, times) in &t.trees {
            self.trees.entry(tree.clone()).or_default().add(times.total, times.evaluated + times.skipped);
            for (id, (label, n, took)) in &times.nodes {
                self.tree_nodes.entry(format!("{tree} #{id} {label}")).or_default().add(*took, *n);
            }
        }
    }

    /// Per worker of the scripts phase (with the runtime's own threads, `worker 0` is the thread
    /// that plays the tick): its time running the phase, per tick; and `worker N waiting`, the
    /// part of it spent waiting for an earlier character's call to finish before asking for a
    /// position or calling a game's own function.
    pub fn workers(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        for (n, (ran, waited)) in self.workers.iter().enumerate() {
            rows.push(ran.row(format!("worker {n}")));
            rows.push(waited.row(format!("worker {n} waiting")));
        }
        rows
    }

    pub(super) fn add_workers(&mut self, workers: &[(Duration, Duration)]) {
        if self.workers.len() < workers.len() {
            self.workers.resize_with(workers.len(), Default::default);
        }
        for ((ran, waited), (r, w)) in workers.iter().zip(&mut self.workers) {
            r.add(*ran, 1);
            w.add(*waited, 1);
        }
    }

    /// The ticks that went over a budget, oldest first (the last [`MAX_OVERRUNS`]).
    pub fn overruns(&self) -> impl Iterator<Item = &Overrun> {
        self.overruns.iter()
    }

    /// How many ticks went over a budget in all.
    pub fn overrun_count(&self) -> u64 {
        self.overrun_count
    }

    pub(super) fn add_call(&mut self, file: &str, handler: &'static str, took: Duration) {
        match self.files.get_mut(file) {
            Some(s) => s.add(took, 1),
            None => self.files.entry(file.to_owned()).or_default().add(took, 1),
        }
        let hs = match self.handlers.get_mut(file) {
            Some(hs) => hs,
            None => self.handlers.entry(file.to_owned()).or_default(),
        };
        hs.entry(handler).or_default().add(took, 1);
    }

    pub(super) fn add_language_tick(&mut self, language: &'static str, took: Duration, calls: u64) {
        self.languages.entry(language).or_default().add(took, calls);
    }

    pub(super) fn add_host_calls(&mut self, calls: &[tactica_stdlib::profile::HostCall]) {
        for c in calls {
            self.host.entry(c.name).or_default().add(c.took, 1);
        }
    }

    pub(super) fn end_tick(&mut self, tick: u64, laps: &PhaseClock, script_budget: Option<Duration>, put_off: usize) {
        self.ticks += 1;
        let mut total = Duration::ZERO;
        for (p, d) in Phase::ALL.iter().zip(laps.laps) {
            self.phases.entry(*p).or_default().add(d, 1);
            total += d;
        }
        let scripts = laps.laps[2];
        let over_frame = total > self.frame_budget;
        let over_scripts = script_budget.is_some_and(|b| scripts > b);
        if over_frame || over_scripts {
            self.overrun_count += 1;
            if self.overruns.len() == MAX_OVERRUNS {
                self.overruns.pop_front();
            }
            self.overruns.push_back(Overrun { tick, total, scripts, over_frame, over_scripts, put_off });
        }
    }

    /// The tables as `tactica run --profile` prints them: aligned columns, each table sorted by
    /// total time.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "profile: {} ticks, frame budget {}, {} over budget",
            self.ticks,
            fmt_duration(self.frame_budget),
            self.overrun_count
        );
        let tables: [(&str, Vec<Row>); 6] = [
            ("tick phases (per tick)", self.phases()),
            ("scripts phase per worker thread (per tick; waiting = for an earlier call's turn)", self.workers()),
            ("languages (per tick; calls = handler calls)", self.languages()),
            ("script files", self.files()),
            ("handlers", self.handlers()),
            ("host functions", self.host_functions()),
        ];
        for (title, rows) in tables {
            out.push('\n');
            table(&mut out, title, &rows);
        }
        if !self.trees.is_empty() {
            out.push('\n');
            table(&mut out, "behaviour trees (per tick; calls = character-ticks)", &self.trees());
            out.push('\n');
            table(&mut out, "tree nodes (per tick, children included)", &self.tree_nodes());
        }
        out.push('\n');
        let _ = writeln!(out, "ticks over budget");
        if self.overrun_count == 0 {
            let _ = writeln!(out, "  none");
        }
        for o in &self.overruns {
            let mut why = Vec::new();
            if o.over_frame {
                why.push(format!("over the frame budget of {}", fmt_duration(self.frame_budget)));
            }
            if o.over_scripts {
                why.push(format!("scripts over the script budget, {} thinks put off", o.put_off));
            }
            let _ = writeln!(
                out,
                "  tick {}: {} (scripts {}): {}",
                o.tick,
                fmt_duration(o.total),
                fmt_duration(o.scripts),
                why.join("; ")
            );
        }
        if self.overrun_count > self.overruns.len() as u64 {
            let _ = writeln!(out, "  … and {} earlier", self.overrun_count - self.overruns.len() as u64);
        }
        out
    }
}

fn sorted(rows: impl Iterator<Item = Row>) -> Vec<Row> {
    let mut rows: Vec<Row> = rows.collect();
    rows.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.name.cmp(&b.name)));
    rows
}

fn table(out: &mut String, title: &str, rows: &[Row]) {
    let width = rows.iter().map(|r| r.name.chars().count()).max().unwrap_or(0).max(title.chars().count());
    let _ = writeln!(out, "{title:<width$}  {:>9}  {:>10}  {:>10}  {:>10}", "calls", "total", "median", "max");
    if rows.is_empty() {
        let _ = writeln!(out, "  none");
    }
    for r in rows {
        let _ = writeln!(
            out,
            "{:<width$}  {:>9}  {:>10}  {:>10}  {:>10}",
            r.name,
            r.calls,
            fmt_duration(r.total),
            fmt_duration(r.median),
            fmt_duration(r.max)
        );
    }
}

/// A duration in the unit that suits it: `812 ns`, `12.3 µs`, `4.56 ms`, `1.234 s`.
pub fn fmt_duration(d: Duration) -> String {
    let ns = d.as_nanos();
    if ns < 1_000 {
        format!("{ns} ns")
    } else if ns < 1_000_000 {
        format!("{:.1} µs", ns as f64 / 1e3)
    } else if ns < 1_000_000_000 {
        format!("{:.2} ms", ns as f64 / 1e6)
    } else {
        format!("{:.3} s", ns as f64 / 1e9)
    }
}

/// The trigger's handler name in the profile.
pub(crate) fn handler_name(t: &crate::host::Trigger) -> &'static str {
    use crate::host::Trigger;
    match t {
        Trigger::Spawn => "spawn",
        Trigger::Reload => "reload",
        Trigger::Think => "think",
        Trigger::Encounter => "encounter",
        Trigger::Hear(_) => "hear",
        Trigger::Tick => "tick",
    }
}

/// A tick's phase laps: the clock is read once between phases.
pub(super) struct PhaseClock {
    started: Instant,
    last: Instant,
    laps: [Duration; 10],
}

impl PhaseClock {
    pub(super) fn start() -> Self {
        let now = Instant::now();
        PhaseClock { started: now, last: now, laps: [Duration::ZERO; 10] }
    }

    /// When the tick began (the first phase starts here; each starts where the last ended).
    pub(super) fn started(&self) -> Instant {
        self.started
    }

    /// Each phase's time, in [`Phase::ALL`] order.
    pub(super) fn laps(&self) -> &[Duration; 10] {
        &self.laps
    }

    /// The whole tick's time.
    pub(super) fn total(&self) -> Duration {
        self.laps.iter().sum()
    }

    /// Ends `phase` now (its time is what passed since the previous lap).
    pub(super) fn lap(&mut self, phase: Phase) {
        let now = Instant::now();
        self.laps[phase as usize] += now - self.last;
        self.last = now;
    }
}
