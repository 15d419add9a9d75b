//! The runtime: a loaded scenario, its scripts, and the tick loop that plays it.
//!
//! `embed.rs` is the part a game uses that the CLI does not: a world built in code, scripts
//! from memory; `stream.rs` takes events out as they happen (a drained stream, a bounded log, the
//! trace written and hashed as it goes); `narrate.rs` turns events into the sentences `tactica run`
//! prints.

mod chrome_trace;
mod embed;
mod file_names;
pub mod narrate;
pub mod profile;
mod repeats;
mod stream;
pub(crate) mod trees;

pub use profile::{Overrun, Phase, Profile};
pub use stream::TraceSink;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};
use tactica_engine::grid::line_of_sight;
use tactica_engine::world::{Command, CommandBuffer, EntityId, Event, EventKind, World};

use crate::host::{Job, NativeFn, ScriptBackend, ScriptError, ScriptHost, Shared, Threads, Trigger, WorkerPool};
use crate::scenario::Scenario;

/// A scenario being played.
///
/// Each [`Runtime::tick`] runs the phases in a fixed order: the world's own update (timeline),
/// scripts (against a read-only world, emitting commands), commands applied, action queues and
/// movement, region events, clock. See `ARCHITECTURE.md`.
pub struct Runtime {
    world: World,
    host: ScriptHost,
    name: String,
    file: PathBuf,
    ticks: u64,
    player: Option<EntityId>,
    encounter_range: f32,
    player_says: BTreeMap<u64, Vec<String>>,
    /// Query libraries and model files: watched and reloaded like scripts.
    data_files: Vec<PathBuf>,
    /// What a reload of a model file or the map may cost (the scenario's load limits).
    load_limits: crate::scenario::LoadLimits,
    /// The grid map's file, when the scenario came from one.
    map_file: Option<PathBuf>,
    /// The log range of the previous tick's events (what scripts see as "what just happened").
    previous: (usize, usize),
    /// Entities the player was within encounter range (and sight) of at the last check.
    in_range: BTreeSet<EntityId>,
    /// How many instances have had their `Spawn` call (instances only ever get appended).
    spawned: usize,
    /// Instances whose code was reloaded since the last tick: they get a `Reload` call next tick.
    reloaded: BTreeSet<usize>,
    /// Where events go as they happen, and how many the log keeps.
    stream: stream::Stream,
    /// The wall-clock time the scripts of one tick may take, if the game set one.
    script_budget: Option<std::time::Duration>,
    /// Instances whose think (or world tick) the budget put off, in the order it did: they go
    /// first next tick, longest waiting first.
    owed: Vec<usize>,
    /// The profiler, when a game or `--profile` asked for one.
    profiler: Option<Box<Profiler>>,
    /// The time a whole tick may take before the profiler lists it as an overrun.
    frame_budget: std::time::Duration,
    /// How many workers the scripts phase runs on (see [`Runtime::set_threads`]).
    threads: usize,
    /// Where they run: the runtime's own threads, or a game's pool ([`Runtime::set_pool`]);
    /// `None` with one worker.
    pool: Option<Arc<dyn WorkerPool>>,
    /// Whether `pool` is the game's (kept when the count of workers changes).
    games_pool: bool,
    /// Each failing script's run of errors: a repeat is counted, not recorded.
    repeats: repeats::Repeats,
    /// Script files as the trace names them, each asked of the file system once.
    file_names: file_names::FileNames,
}

/// The profile and what it needs while a tick runs.
struct Profiler {
    profile: Profile,
    /// This tick's script calls: instance, handler, start, time.
    calls: Vec<(usize, &'static str, std::time::Instant, std::time::Duration)>,
    /// This tick's host calls, taken from the stdlib's recorder.
    host_calls: Vec<tactica_stdlib::profile::HostCall>,
    /// Each instance's file as the trace names it (filled as instances first run).
    files: Vec<Option<String>>,
    /// The timeline being written in the Chrome trace-event format, when asked for.
    timeline: Option<chrome_trace::ChromeTrace>,
}

impl Runtime {
    /// A runtime for `scenario` with the given script languages; every script the scenario names
    /// is compiled and attached. All the problems found are returned together. With the
    /// `mimalloc` feature it also has mimalloc keep freed memory between ticks
    /// ([`tactica_stdlib::memory::keep_freed_memory`]).
    pub fn new(scenario: Scenario, backends: Vec<Box<dyn ScriptBackend>>) -> Result<Self, Vec<ScriptError>> {
        // Ticks free and take back much the same memory every frame: keep it between them.
        #[cfg(feature = "mimalloc")]
        tactica_stdlib::memory::keep_freed_memory();
        let mut host = ScriptHost::new();
        let signals = crate::scenario::squad_signals::of(&scenario);
        for mut b in backends {
            // The scenario's own names (places, regions, kinds, globals) are known to the checker,
            // and what its Lua and Rhai squad-mates signal and wait for.
            b.declare_names(&|api| {
                api.declare_world_names(&scenario.world);
                api.declare_script_signals(signals.clone());
            });
            host.add_backend(b);
        }
        let mut errors = Vec::new();
        // A broken file shared by several entities is reported once, not once per entity.
        let mut failed = std::collections::BTreeSet::new();
        for s in &scenario.entity_scripts {
            for f in &s.files {
                if failed.contains(f) {
                    continue;
                }
                if let Err(e) = host.attach(Some(s.entity), f, s.think_every) {
                    failed.insert(f.clone());
                    errors.extend(e);
                } else if s.think_phase != 0 {
                    host.set_think_phase(host.instances().len() - 1, s.think_phase);
                }
            }
        }
        for f in &scenario.world_scripts {
            if let Err(e) = host.attach(None, f, 1) {
                errors.extend(e);
            }
        }
        let mut world = scenario.world;
        if let Err(e) = trees::load(&mut world, &mut host, &scenario.entity_trees) {
            errors.extend(e);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let file = scenario.file;
        let threads = scenario.threads;
        let mut rt = Runtime {
            world,
            host,
            name: scenario.name,
            file: file.clone(),
            ticks: scenario.ticks,
            player: scenario.player,
            encounter_range: scenario.encounter_range,
            player_says: scenario.player_says,
            data_files: scenario.data_files,
            load_limits: scenario.load_limits,
            map_file: scenario.map_file,
            previous: (0, 0),
            in_range: BTreeSet::new(),
            spawned: 0,
            reloaded: BTreeSet::new(),
            stream: stream::Stream::default(),
            script_budget: None,
            owed: Vec::new(),
            profiler: None,
            frame_budget: profile::DEFAULT_FRAME_BUDGET,
            threads: 1,
            pool: None,
            games_pool: false,
            repeats: repeats::Repeats::default(),
            file_names: file_names::FileNames::new(&file),
        };
        rt.set_threads(threads.unwrap_or_else(default_threads));
        Ok(rt)
    }

    /// Attaches a Rust behaviour to `entity` (or to the world with `None`).
    pub fn attach_native(&mut self, entity: Option<EntityId>, name: &str, think_every: u32, f: NativeFn) {
        self.host.attach_native(entity, name, think_every, f);
    }

    /// The scenario's title.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The scenario file.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The grid map's file, when the scenario came from one.
    pub fn map_file(&self) -> Option<&Path> {
        self.map_file.as_deref()
    }

    /// The limits a reload of a model file or the map is held to (the scenario's load limits,
    /// [`crate::scenario::LoadLimits`]).
    pub fn load_limits(&self) -> crate::scenario::LoadLimits {
        self.load_limits
    }

    /// Holds later reloads to `limits`.
    pub fn set_load_limits(&mut self, limits: crate::scenario::LoadLimits) {
        self.load_limits = limits;
    }

    /// How many ticks the scenario asks to be played.
    pub fn scenario_ticks(&self) -> u64 {
        self.ticks
    }

    /// The world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, mutably — for a game between ticks (the player moves, a door opens).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The script host.
    pub fn host_mut(&mut self) -> &mut ScriptHost {
        &mut self.host
    }

    /// The world and the script host at once (a tree's reload builds it against both).
    pub(crate) fn world_and_host(&mut self) -> (&mut World, &mut ScriptHost) {
        (&mut self.world, &mut self.host)
    }

    /// The world as the next tick's scripts and trees will see it: a copy with the tick's first
    /// phase done (the timeline's changes due that tick: globals, doors). Nothing a script does
    /// during the tick shows before the tick's apply phase, so every position query of the tick
    /// reads this world; `tactica query` and `render --query` evaluate on it.
    pub fn world_as_next_tick_sees(&self) -> World {
        let mut world = self.world.clone();
        world.update();
        world
    }

    /// Plays one tick.
    pub fn tick(&mut self) {
        let mut laps = self.profiler.as_ref().map(|_| profile::PhaseClock::start());
        let lap = |laps: &mut Option<profile::PhaseClock>, phase: Phase| {
            if let Some(l) = laps {
                l.lap(phase);
            }
        };
        let tick = self.world.clock().tick();
        self.world.update();
        lap(&mut laps, Phase::Update);
        let tick_start = self.world.log().len();
        let heard = self.player_says.remove(&tick).unwrap_or_default();
        let (encountered, hearers) = self.perceive_player();
        lap(&mut laps, Phase::Perceive);
        let mut commands = CommandBuffer::default();
        let mut failures: Vec<(Option<EntityId>, ScriptError)> = Vec::new();
        let scripts_dir = self.file.parent().unwrap_or(Path::new(".")).to_path_buf();
        let scripts_dir = &scripts_dir;
        let Runtime { world, host, previous, spawned, reloaded, script_budget, owed, profiler, threads, pool, .. } =
            self;
        let mut trees = std::mem::take(world.trees_mut());
        let mut tree_profile = profiler.as_ref().map(|_| tactica_engine::decide::bt::TreeProfile::default());
        let reloaded = std::mem::take(reloaded);
        let started = std::time::Instant::now();
        // With a budget, the instances put off last tick go first, so none waits for ever.
        // Without a budget `owed` is empty: the order is plain instance order and nothing is
        // allocated for it on this per-tick path.
        let put_off: BTreeSet<usize> = owed.iter().copied().collect();
        let owed_before = put_off.clone();
        let first = std::mem::take(owed);
        let count = host.instances().len();
        let order = first.into_iter().chain((0..count).filter(move |i| !owed_before.contains(i)));
        let mut calls = profiler.as_mut().map(|p| std::mem::take(&mut p.calls));
        let timing = profiler.is_some();
        let timeline = profiler.as_ref().is_some_and(|p| p.timeline.is_some());
        if timing {
            tactica_stdlib::profile::record(true);
        }
        let mut went_through: Vec<usize> = Vec::new();
        let mut worker_times = Vec::new();
        let mut worker_host_calls = Vec::new();
        world.lend(|world, rng| {
            let events: &[Event] = world.log().range(previous.0..previous.1);
            // The tick's calls in the order one thread runs them; the budget's decisions are the
            // workers' (see `host/parallel.rs`).
            let mut jobs = Vec::new();
            for i in order {
                let inst = &host.instances()[i];
                if inst.passive {
                    continue;
                }
                let entity = inst.entity;
                let mut triggers = Vec::new();
                if i >= *spawned {
                    triggers.push(Trigger::Spawn);
                } else if reloaded.contains(&i) {
                    triggers.push(Trigger::Reload);
                }
                match entity {
                    Some(id) => {
                        if encountered.contains(&id) {
                            triggers.push(Trigger::Encounter);
                        }
                        if !heard.is_empty() && hearers.as_ref().is_none_or(|h| h.contains(&id)) {
                            triggers.extend(heard.iter().cloned().map(Trigger::Hear));
                        }
                        if host.thinks_on(i, tick) || put_off.contains(&i) {
                            triggers.push(Trigger::Think);
                        }
                    }
                    None => {
                        triggers.extend(heard.iter().cloned().map(Trigger::Hear));
                        triggers.push(Trigger::Tick);
                    }
                }
                if triggers.is_empty() {
                    continue;
                }
                let routine = triggers.iter().any(|t| matches!(t, Trigger::Think | Trigger::Tick));
                jobs.push(Job { instance: i, triggers, routine });
            }
            let shared = Shared { world, events, budget: script_budget.map(|b| (started, b)), timing };
            // A timeline draws the script calls on one track, where calls running side by side
            // would overlap: while one is recorded, the phase runs on one worker (the trace is
            // the same; `--profile`'s tables show the workers).
            let workers = if timeline { 1 } else { *threads };
            let ran = host.run_parallel(&jobs, rng, &shared, pool.as_deref(), workers);
            owed.extend(ran.owed);
            worker_times = ran.workers;
            worker_host_calls = ran.host_calls;
            commands.extend_issued(ran.commands);
            let mut issued = 0;
            for called in ran.calls {
                if called.result.is_ok() {
                    went_through.push(called.instance);
                }
                let end = issued + called.commands;
                let entity = host.instances()[called.instance].entity;
                if called.result.is_ok()
                    && commands.as_slice()[issued..end].iter().any(|c| matches!(c, Command::DefineTree { .. }))
                {
                    let builder = host.instances()[called.instance].file.clone();
                    for e in trees::name_builder(&mut commands, (issued, end), &builder, scripts_dir, host) {
                        failures.push((entity, e));
                    }
                }
                issued = end;
                if let (Some(calls), Some(t0)) = (calls.as_mut(), called.start) {
                    calls.push((called.instance, called.handler, t0, called.took));
                }
                if let Err(e) = called.result {
                    failures.push((entity, e));
                }
            }
            if !trees.is_empty() {
                let mut leaves = trees::Leaves { host, failures: &mut failures };
                trees.tick(world, rng, &mut commands, &mut leaves, tree_profile.as_mut());
            }
            *spawned = host.instances().len();
        });
        *world.trees_mut() = trees;
        if let Some(p) = profiler {
            tactica_stdlib::profile::record(false);
            p.host_calls.append(&mut worker_host_calls);
            p.profile.add_workers(&worker_times);
            if let Some(calls) = calls {
                p.calls = calls;
            }
            if let Some(t) = &tree_profile {
                p.profile.add_trees(t);
            }
        }
        lap(&mut laps, Phase::Scripts);
        self.file_failures(tick, failures, &went_through);
        self.world.apply(commands);
        lap(&mut laps, Phase::Apply);
        self.world.plan_paths();
        lap(&mut laps, Phase::Path);
        self.world.walk_actions();
        lap(&mut laps, Phase::Walk);
        self.world.steer_agents();
        lap(&mut laps, Phase::Steer);
        self.world.detect_region_events();
        lap(&mut laps, Phase::Events);
        self.world.update_tactical();
        lap(&mut laps, Phase::Field);
        self.world.end_tick();
        self.previous = (tick_start, self.world.log().len());
        self.stream_events(tick_start);
        lap(&mut laps, Phase::Trace);
        if let Some(laps) = laps {
            self.end_profiled_tick(tick, &laps);
        }
    }

    /// Records the tick's script errors, each in full unless it repeats its script's last one
    /// (`repeats.rs`), and sums up the runs of repeats that ended: those of the scripts whose
    /// calls (`went_through`, by instance) ran through this tick.
    fn file_failures(&mut self, tick: u64, failures: Vec<(Option<EntityId>, ScriptError)>, went_through: &[usize]) {
        for (entity, e) in failures {
            if let Some(limit_ms) = e.watchdog {
                // Whether the watchdog stops a call depends on the machine, so each stop is
                // news: recorded in full, never counted as a repeat.
                let file = self.display_path(&e.file);
                self.world.record(entity, EventKind::Watchdog { file: file.clone(), limit_ms });
                let kind = EventKind::ScriptError { file, line: e.line, column: e.column, message: e.message };
                self.world.record(entity, kind);
                continue;
            }
            let who = entity.and_then(|id| self.world.entity(id)).map(|en| en.name.to_string());
            let names = &self.file_names;
            let shown = || names.show(&e.file);
            let failure = repeats::Failure {
                key: (entity, e.file.clone()),
                file: &shown,
                who,
                line: e.line,
                column: e.column,
                message: &e.message,
            };
            let verdict = self.repeats.fail(failure, tick);
            if let Some((who, summary)) = verdict.ended {
                self.world.record_named(tick, who.as_deref(), summary);
            }
            if !verdict.record {
                continue;
            }
            let kind = EventKind::ScriptError {
                file: self.display_path(&e.file),
                line: e.line,
                column: e.column,
                message: e.message,
            };
            self.world.record(entity, kind);
        }
        if !self.repeats.is_empty() {
            for &i in went_through {
                let Some(inst) = self.host.instances().get(i) else { continue };
                if let Some((who, summary)) = self.repeats.succeeded(inst.entity, &inst.file) {
                    self.world.record_named(tick, who.as_deref(), summary);
                }
            }
        }
        self.repeats.end_tick();
    }

    /// Ends the run: every script error still repeating when the game stops gets its
    /// `script_error_repeated` line (with the count), on the last tick played. Call it once the
    /// last tick is played, before taking the trace; `tactica run` and `tactica test` do. Ticks
    /// played after it start new runs of errors.
    pub fn finish(&mut self) {
        let ended = self.repeats.finish();
        if ended.is_empty() {
            return;
        }
        let tick_start = self.world.log().len();
        let last = self.world.clock().tick().saturating_sub(1);
        for (who, summary) in ended {
            self.world.record_named(last, who.as_deref(), summary);
        }
        self.stream_events(tick_start);
    }

    /// Files the profiler's records of the tick that just ended.
    fn end_profiled_tick(&mut self, tick: u64, laps: &profile::PhaseClock) {
        let Some(mut p) = self.profiler.take() else { return };
        let mut per_language: BTreeMap<&'static str, (std::time::Duration, u64)> = BTreeMap::new();
        let calls = std::mem::take(&mut p.calls);
        for &(i, handler, _, took) in &calls {
            if p.files.len() <= i {
                p.files.resize(i + 1, None);
            }
            if p.files[i].is_none() {
                let file = self.host.instances().get(i).map(|inst| self.display_path(&inst.file));
                p.files[i] = Some(file.unwrap_or_default());
            }
            let file = p.files[i].as_deref().unwrap_or_default();
            p.profile.add_call(file, handler, took);
            let slot = per_language.entry(self.host.language_of(i)).or_default();
            slot.0 += took;
            slot.1 += 1;
        }
        for (language, (took, n)) in per_language {
            p.profile.add_language_tick(language, took, n);
        }
        tactica_stdlib::profile::take(&mut p.host_calls);
        p.profile.add_host_calls(&p.host_calls);
        if let Some(timeline) = &mut p.timeline {
            let spans: Vec<chrome_trace::CallSpan<'_>> = calls
                .iter()
                .map(|&(i, handler, start, took)| chrome_trace::CallSpan {
                    file: p.files[i].as_deref().unwrap_or_default(),
                    handler,
                    language: self.host.language_of(i),
                    entity: self.host.instances()[i].entity.and_then(|id| self.world.entity(id)).map(|e| &*e.name),
                    start,
                    took,
                })
                .collect();
            let over = laps.total() > p.profile.frame_budget();
            timeline.tick(tick, laps.started(), laps.laps(), &spans, &p.host_calls, over);
        }
        p.calls = calls;
        p.calls.clear();
        p.host_calls.clear();
        p.profile.end_tick(tick, laps, self.script_budget, self.owed.len());
        self.profiler = Some(p);
    }

    /// Writes the profiler's timeline to `out` in the Chrome trace-event format (Perfetto,
    /// `chrome://tracing`) as the ticks are played, from the next tick on: every tick, its
    /// phases, its script calls and their host calls, each a span of its own. Starts the
    /// profiler if it is off. [`Runtime::finish_profile_timeline`] closes the file.
    pub fn profile_timeline(&mut self, out: Box<dyn std::io::Write + Send>) {
        if self.profiler.is_none() {
            self.enable_profile();
        }
        let timeline = chrome_trace::ChromeTrace::new(out, &self.name);
        if let Some(p) = &mut self.profiler {
            p.timeline = Some(timeline);
        }
    }

    /// Ends the timeline [`Runtime::profile_timeline`] started: closes the JSON and flushes.
    /// The first write error of the whole timeline, if any, is returned here.
    pub fn finish_profile_timeline(&mut self) -> std::io::Result<()> {
        match self.profiler.as_mut().and_then(|p| p.timeline.take()) {
            Some(t) => t.finish(),
            None => Ok(()),
        }
    }

    /// Starts the profiler (afresh if it was running): from the next tick on, the time of every
    /// phase, script call and host call is recorded (see [`profile`]). Traces do not change.
    pub fn enable_profile(&mut self) {
        let mut profile = Profile::new();
        profile.set_frame_budget(self.frame_budget);
        self.profiler = Some(Box::new(Profiler {
            profile,
            calls: Vec::new(),
            host_calls: Vec::new(),
            files: Vec::new(),
            timeline: None,
        }));
    }

    /// Stops the profiler and hands back what it recorded.
    pub fn disable_profile(&mut self) -> Option<Profile> {
        self.profiler.take().map(|p| p.profile)
    }

    /// What the profiler has recorded so far; `None` when it is off.
    pub fn profile(&self) -> Option<&Profile> {
        self.profiler.as_ref().map(|p| &p.profile)
    }

    /// Sets the frame budget the profiler lists overrunning ticks against (default
    /// [`profile::DEFAULT_FRAME_BUDGET`], 16.6 ms). It only measures: nothing is put off for it.
    pub fn set_frame_budget(&mut self, budget: std::time::Duration) {
        self.frame_budget = budget;
        if let Some(p) = &mut self.profiler {
            p.profile.set_frame_budget(budget);
        }
    }

    /// Which entities the player has just come into range and sight of (edge-triggered), and who
    /// can hear the player now (`None`: there is no player, everybody hears).
    fn perceive_player(&mut self) -> (BTreeSet<EntityId>, Option<BTreeSet<EntityId>>) {
        let Some(p) = self.player.and_then(|id| self.world.entity(id).map(|e| (id, e.position, e.cell()))) else {
            return (BTreeSet::new(), None);
        };
        let (pid, ppos, pcell) = p;
        let now: BTreeSet<EntityId> = self
            .world
            .entities()
            .filter(|(id, e)| {
                *id != pid
                    && e.position.distance(ppos) <= self.encounter_range
                    && line_of_sight(self.world.map(), e.cell(), pcell)
            })
            .map(|(id, _)| id)
            .collect();
        let new: BTreeSet<EntityId> = now.difference(&self.in_range).copied().collect();
        self.in_range = now.clone();
        (new, Some(now))
    }

    /// A script path as the trace shows it: relative to the scenario's folder, with `/`, so the
    /// trace is the same wherever the scenario is played from.
    pub fn display_path(&self, path: &Path) -> String {
        self.file_names.show(path)
    }

    /// The script files in use, and the scenario's query and model files (what `--watch`
    /// watches).
    pub fn script_files(&self) -> Vec<PathBuf> {
        let mut files = self.host_files();
        files.extend(self.data_files.iter().cloned());
        files
    }

    /// Whether `file` (made absolute) is one of the scenario's query libraries.
    pub(crate) fn is_query_file(&self, file: &Path) -> bool {
        self.data_files.iter().any(|f| crate::reload::absolute(f) == file)
            && !crate::scenario::models::is_model_file(&self.world.models, file)
    }

    /// The script files in use.
    pub(crate) fn host_files(&self) -> Vec<PathBuf> {
        self.host.files().map(Path::to_path_buf).collect()
    }

    /// The names of the entities whose scripts include `file`, in instance order.
    pub(crate) fn entity_names_using(&self, file: &Path) -> Vec<String> {
        let mut names = Vec::new();
        for i in self.host.instances_of(file) {
            let entity = self.host.instances()[i].entity.and_then(|id| self.world.entity(id));
            if let Some(e) = entity
                && !names.contains(&e.name)
            {
                names.push(e.name.clone());
            }
        }
        names
    }

    /// Marks every instance of `file` for a `Reload` call on the next tick.
    pub(crate) fn schedule_reload_calls(&mut self, file: &Path) {
        self.reloaded.extend(self.host.instances_of(file));
    }

    /// Limits the wall-clock time the scripts of one tick may take. Once a tick's scripts have
    /// used `budget`, the remaining characters' routine thinks (and world scripts' ticks) wait
    /// for the next tick, where they go first; one-off triggers (spawn, reload, encounter, what
    /// was heard) always run. This trades reproducibility for frame time: with a budget, what
    /// runs depends on the machine's speed, so traces are no longer the same on every run.
    /// `None` (the default) runs every script every tick.
    pub fn set_script_budget(&mut self, budget: Option<std::time::Duration>) {
        self.script_budget = budget;
    }

    /// Runs the scripts phase on `threads` workers (at least 1; at most [`crate::host::LANES`]
    /// and, with a game's pool, at most what it runs side by side). The trace is the same for
    /// every count: see `docs/embedding.md`, "Threads". The default is the scenario's `threads`,
    /// else the machine's cores ([`default_threads`]). Without a game's pool
    /// ([`Runtime::set_pool`]) the runtime keeps `threads - 1` threads of its own, and the
    /// thread that calls [`Runtime::tick`] is the first worker; if the system cannot start them,
    /// the phase runs on the calling thread and [`Runtime::threads`] says 1.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, crate::host::LANES);
        if self.games_pool {
            self.threads = threads;
            return;
        }
        if self.pool.as_ref().is_some_and(|p| p.workers() == threads) {
            self.threads = threads;
            return;
        }
        self.pool = None;
        self.threads = 1;
        if threads > 1
            && let Ok(pool) = Threads::new(threads)
        {
            self.pool = Some(Arc::new(pool));
            self.threads = threads;
        }
    }

    /// Runs the scripts phase's workers on a game's pool (Bevy's `ComputeTaskPool`, say)
    /// instead of threads of the runtime's own, which it stops. The number of workers stays
    /// [`Runtime::threads`], capped by what the pool runs side by side.
    pub fn set_pool(&mut self, pool: Arc<dyn WorkerPool>) {
        self.pool = Some(pool);
        self.games_pool = true;
    }

    /// How many workers the scripts phase runs on (with a game's pool, the most it asks for).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// How many characters' thinks the budget put off in the last tick.
    pub fn scripts_put_off(&self) -> usize {
        self.owed.len()
    }

    /// Plays `n` ticks.
    pub fn run(&mut self, n: u64) {
        for _ in 0..n {
            self.tick();
        }
    }

    /// The trace so far: one JSON object a line, each line ending in `\n`. With a bounded log
    /// ([`Runtime::keep_events`]) it is the events still kept; the hash covers them all.
    pub fn trace(&self) -> String {
        let mut out = String::new();
        for e in self.world.log().events() {
            out.push_str(&e.to_json_line());
            out.push('\n');
        }
        out
    }
}

/// The machine's cores (what [`std::thread::available_parallelism`] reports; 1 if unknown).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The SHA-256 of a trace, in lowercase hex.
pub fn trace_hash(trace: &str) -> String {
    Sha256::digest(trace.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}
