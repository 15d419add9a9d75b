//! The script host: one backend trait, one implementation per language, chosen by file
//! extension, and the per-instance state that outlives any one version of a script's code.
//!
//! **Architecture invariant:** scripts never get `&mut World`. A [`ScriptCall`] lends them the
//! world read-only, the world's random generator, their own state table and a command buffer;
//! the runtime applies the commands after every script of the tick has run.

mod lanes;
mod native;
mod parallel;
mod pool;
mod tac;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tactica_engine::Table;
use tactica_engine::world::{CommandBuffer, EntityId, Event, World, WorldRng};

pub use lanes::LANES;
use lanes::Lane;
pub use native::{NativeBackend, NativeFn};
pub use parallel::{Called, Job, Ran, Shared};
pub use pool::{Threads, WorkerPool};
pub use tac::TacBackend;
pub use tactica_stdlib::backend::{ProgramId, ScriptBackend, ScriptCall, ScriptError, Trigger};
pub use tactica_stdlib::limits::ScriptLimits;
pub use tactica_stdlib::{Api, HostError, HostFn, Param, ScriptCtx, StateMut, Type};

/// The longest message a failed call puts in the trace, in bytes: a script can make its error as
/// long as it likes (`error(string.rep("x", 1e6))`), and it would land in the trace every tick.
/// Longer messages are cut, saying how much was cut. A message also counts against the tick's
/// output allowance ([`ScriptLimits::max_output_per_tick`]): once the tick's allowance is spent,
/// messages are cut to [`MIN_ERROR_MESSAGE`].
pub const MAX_ERROR_MESSAGE: usize = 1024;

/// What a failed call's message is cut to at least, however little of the tick's allowance is
/// left: enough to say what stopped it.
pub const MIN_ERROR_MESSAGE: usize = 160;

/// What an error weighs against the output allowance besides its message, as a command does.
const ERROR_WEIGHT: usize = 16;

/// Cuts `message` to at most `cap` bytes (at a character boundary), saying how much was cut.
fn cut_message(message: &mut String, cap: usize) {
    if message.len() <= cap {
        return;
    }
    let total = message.len();
    // Room for the note saying how much was cut.
    // (`str::floor_char_boundary` is newer than the crate's minimum Rust.)
    let mut keep = cap.saturating_sub(40);
    while !message.is_char_boundary(keep) {
        keep -= 1;
    }
    message.truncate(keep);
    message.push_str(&format!("… ({} bytes cut)", total - keep));
}

/// Runs one call of `inst` on `backend`: its output held to the limits, and a failed call undone
/// (see [`ScriptHost::run`]). Every scripts phase, on one thread or several, runs calls here.
#[allow(clippy::too_many_arguments)]
fn call(
    inst: &mut Instance,
    limits: &ScriptLimits,
    backend: &mut dyn ScriptBackend,
    program: ProgramId,
    shared: &parallel::Shared<'_>,
    rng: &mut WorldRng,
    trigger: &Trigger,
    commands: &mut CommandBuffer,
) -> Result<(), ScriptError> {
    let before = commands.len();
    let tick = shared.world.clock().tick();
    if inst.output.0 != tick {
        inst.output = (tick, 0);
    }
    commands.allow(limits.output_allowance(inst.output.1));
    // A failed call must leave the world as if it never ran: its commands are dropped and the
    // instance's state goes back to where it was. (Its draws were from its own stream, which
    // nothing else draws from, so no one else's rolls moved.) The state is copied on the call's
    // first write only: most calls write none.
    let mut state_before = None;
    let state = StateMut::journaled(&mut inst.state, &mut state_before);
    let mut call = ScriptCall {
        world: shared.world,
        rng,
        entity: inst.entity,
        state,
        commands,
        trigger,
        events: shared.events,
        blackboard: None,
    };
    let mut result = backend.run(program, &mut call);
    if let Err(e) = &mut result {
        commands.truncate(before);
        if let Some(state) = state_before {
            inst.state = state;
        }
        // The message goes into the trace: capped, and paid for from the tick's allowance.
        let tick_left =
            (limits.max_output_per_tick > 0).then(|| limits.max_output_per_tick.saturating_sub(inst.output.1));
        let cap = tick_left.map_or(MAX_ERROR_MESSAGE, |left| left.clamp(MIN_ERROR_MESSAGE, MAX_ERROR_MESSAGE));
        cut_message(&mut e.message, cap);
        if let Some(rendered) = &mut e.rendered {
            cut_message(rendered, 4 * MAX_ERROR_MESSAGE);
        }
        inst.output.1 += ERROR_WEIGHT + e.message.len();
    } else {
        inst.output.1 += commands.spent();
    }
    commands.allow(None);
    result
}

/// A script attached to an entity (or to the world), with its own state.
#[derive(Debug)]
pub struct Instance {
    /// The entity; `None` for world-level scripts.
    pub entity: Option<EntityId>,
    /// The script file (or `native:NAME`).
    pub file: PathBuf,
    /// Which backend runs it (`None`: a native Rust behaviour).
    pub backend: Option<usize>,
    /// Its program in that backend.
    pub program: ProgramId,
    /// Its state table, which survives reloads.
    pub state: Table,
    /// Behaviour scripts think every this many ticks.
    pub think_every: u32,
    /// … on the ticks whose number leaves this remainder divided by `think_every` (0: ticks 0,
    /// N, 2N …). A crowd staggers its members' phases so they do not all think on one tick.
    pub think_phase: u32,
    /// The tick of its last call and the bytes it handed the world in that tick.
    output: (u64, usize),
    /// Its place among its character's scripts (0 for the first attached), for its random
    /// streams.
    ordinal: u32,
    /// The key of its random streams, worked out at its first call.
    stream: Option<u64>,
    /// Made for a behaviour tree's leaves (the file is not attached to the entity): it keeps the
    /// leaves' state and gets no triggers.
    pub passive: bool,
    /// The lane whose copy of the language runs it (see [`LANES`]): fixed when it is attached,
    /// from its place among the instances alone, so it never depends on the number of threads.
    pub lane: usize,
}

impl Instance {
    /// The key its calls' random streams are made from ([`WorldRng::for_call`]): its
    /// character's name (empty for a world script) and its place among that character's
    /// scripts. Not its place among all instances, so adding a character leaves everyone else's
    /// rolls as they were; not its file, so the same script in another language rolls the same.
    pub fn stream_key(&mut self, world: &World) -> u64 {
        if let Some(key) = self.stream {
            return key;
        }
        let name = self.entity.and_then(|id| world.entity(id)).map_or("", |e| &*e.name);
        let key = WorldRng::stream_key(&[name.as_bytes(), &self.ordinal.to_le_bytes()]);
        self.stream = Some(key);
        key
    }
}

/// All backends and all script instances of a run.
#[derive(Default)]
pub struct ScriptHost {
    native: NativeBackend,
    /// Lane 0's backends: every program is compiled here first, and checks, lints and leaf
    /// look-ups ask these.
    backends: Vec<Box<dyn ScriptBackend>>,
    /// Lanes 1 … [`LANES`]` - 1`: copies of the backends ([`ScriptBackend::fork`]), made when an
    /// instance first needs one.
    lanes: Vec<Lane>,
    /// Each program's source (by backend and lane-0 program), to compile it into another lane.
    sources: BTreeMap<(usize, ProgramId), String>,
    programs: BTreeMap<PathBuf, (Option<usize>, ProgramId)>,
    instances: Vec<Instance>,
    limits: ScriptLimits,
    /// The leaf functions of each file trees have asked about, found once per version of the file.
    leaf_index: BTreeMap<PathBuf, Vec<String>>,
    /// How many scripts each entity (and the world, `None`) has had attached.
    ordinals: BTreeMap<Option<EntityId>, u32>,
}

impl ScriptHost {
    /// A host with no backends.
    pub fn new() -> Self {
        ScriptHost::default()
    }

    /// Sets the limits the host itself applies: what a call and a tick may hand the world
    /// ([`ScriptLimits::max_output_per_call`], [`ScriptLimits::max_output_per_tick`]). The
    /// languages apply the rest (see [`crate::languages_with`]).
    pub fn set_limits(&mut self, limits: ScriptLimits) {
        self.limits = limits;
    }

    /// The limits the host applies (see [`ScriptHost::set_limits`]).
    pub fn limits(&self) -> &ScriptLimits {
        &self.limits
    }

    /// Adds a language; returns its index.
    pub fn add_backend(&mut self, backend: Box<dyn ScriptBackend>) -> usize {
        self.backends.push(backend);
        self.backends.len() - 1
    }

    /// The backend for `file`'s extension.
    pub fn backend_for(&self, file: &Path) -> Option<usize> {
        let ext = file.extension()?.to_str()?;
        self.backends.iter().position(|b| b.extensions().contains(&ext))
    }

    /// The extensions the host can run.
    pub fn extensions(&self) -> Vec<&'static str> {
        self.backends.iter().flat_map(|b| b.extensions().iter().copied()).collect()
    }

    /// Compiles a file without attaching it (for `tactica check`).
    pub fn check_source(&mut self, file: &Path, source: &str) -> Result<(), Vec<ScriptError>> {
        let Some(b) = self.backend_for(file) else {
            return Err(vec![self.no_backend(file)]);
        };
        self.backends[b].compile(file, source).map(|_| ())
    }

    /// The mistakes the file's language finds without running it (see
    /// [`ScriptBackend::lint`]); empty for a file no backend handles.
    pub fn lint(
        &self,
        file: &Path,
        source: &str,
        api: &tactica_stdlib::Api,
    ) -> Vec<tactica_script::diagnostics::Diagnostic> {
        self.backend_for(file).map_or_else(Vec::new, |b| self.backends[b].lint(file, source, api))
    }

    fn no_backend(&self, file: &Path) -> ScriptError {
        let known = self.extensions().iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(", ");
        let mut e = ScriptError::new(file, 0, 0, "no script language is registered for this file's extension");
        e.message.push_str(&format!(" (known: {})", if known.is_empty() { "none".into() } else { known }));
        e
    }

    /// Loads `file` (compiling it once however many entities use it) and attaches an instance to
    /// `entity`.
    pub fn attach(&mut self, entity: Option<EntityId>, file: &Path, think_every: u32) -> Result<(), Vec<ScriptError>> {
        if self.programs.contains_key(file) {
            return self.attach_source(entity, file, "", think_every);
        }
        let source = crate::scenario::files::read_text(file, crate::scenario::files::MAX_SOURCE_BYTES)
            .map_err(|why| vec![ScriptError::new(file, 0, 0, format!("the script {why}"))])?;
        self.attach_source(entity, file, &source, think_every)
    }

    /// Attaches a script the game holds in memory (from its own asset loader, or written in
    /// code). `name` picks the language by its extension and names the script in diagnostics,
    /// traces and reloads; a name already attached shares that program and `source` is ignored.
    pub fn attach_source(
        &mut self,
        entity: Option<EntityId>,
        name: &Path,
        source: &str,
        think_every: u32,
    ) -> Result<(), Vec<ScriptError>> {
        let (backend, program) = match self.programs.get(name) {
            Some(&p) => p,
            None => {
                let Some(b) = self.backend_for(name) else {
                    return Err(vec![self.no_backend(name)]);
                };
                let program = self.backends[b].compile(name, source)?;
                self.programs.insert(name.to_path_buf(), (Some(b), program));
                self.sources.insert((b, program), source.to_owned());
                (Some(b), program)
            }
        };
        let lane = match backend {
            Some(b) => self.lane_for(self.instances.len() % LANES, b, program, name)?,
            None => 0,
        };
        let ordinal = self.next_ordinal(entity);
        self.instances.push(Instance {
            entity,
            file: name.to_path_buf(),
            backend,
            program,
            state: Table::new(),
            think_every: think_every.max(1),
            think_phase: 0,
            output: (0, 0),
            ordinal,
            stream: None,
            passive: false,
            lane,
        });
        Ok(())
    }

    /// The lane an instance of `program` placed at `wanted` runs on: `wanted`, with the program
    /// compiled into that lane's copy of the backend (made now if it is the lane's first), or
    /// lane 0 when the language cannot be copied.
    fn lane_for(
        &mut self,
        wanted: usize,
        b: usize,
        program: ProgramId,
        file: &Path,
    ) -> Result<usize, Vec<ScriptError>> {
        if wanted == 0 {
            return Ok(0);
        }
        if self.lanes.is_empty() {
            self.lanes = (1..LANES).map(|_| Lane::default()).collect();
        }
        let source = self.sources.get(&(b, program)).map_or("", String::as_str);
        let lane = &mut self.lanes[wanted - 1];
        Ok(if lane.add(&self.backends, b, program, file, source)? { wanted } else { 0 })
    }

    /// The place the next script attached to `entity` (or to the world) takes among its scripts.
    fn next_ordinal(&mut self, entity: Option<EntityId>) -> u32 {
        let n = self.ordinals.entry(entity).or_insert(0);
        *n += 1;
        *n - 1
    }

    /// Attaches a Rust behaviour to `entity` (or to the world). It runs on the same triggers and
    /// under the same rules as a script, under the name `native:NAME`.
    pub fn attach_native(&mut self, entity: Option<EntityId>, name: &str, think_every: u32, f: NativeFn) {
        let program = self.native.register(name, f);
        let file = PathBuf::from(format!("native:{name}"));
        let ordinal = self.next_ordinal(entity);
        self.instances.push(Instance {
            entity,
            file,
            backend: None,
            program,
            state: Table::new(),
            think_every: think_every.max(1),
            think_phase: 0,
            output: (0, 0),
            ordinal,
            stream: None,
            passive: false,
            lane: 0,
        });
    }

    /// Sets the tick within its think interval on which `instance` thinks (see
    /// [`Instance::think_phase`]); taken modulo the interval.
    pub fn set_think_phase(&mut self, instance: usize, phase: u32) {
        if let Some(i) = self.instances.get_mut(instance) {
            i.think_phase = phase % i.think_every;
        }
    }

    /// Whether `instance` thinks on `tick`.
    pub fn thinks_on(&self, instance: usize, tick: u64) -> bool {
        self.instances.get(instance).is_some_and(|i| tick % u64::from(i.think_every) == u64::from(i.think_phase))
    }

    /// The language of `instance`: its backend's first extension (`tac`, `lua`, `rhai`), or
    /// `native` for a Rust behaviour.
    pub fn language_of(&self, instance: usize) -> &'static str {
        match self.instances.get(instance).and_then(|i| i.backend) {
            Some(b) => self.backends[b].extensions().first().copied().unwrap_or("?"),
            None => "native",
        }
    }

    /// The attached instances, in attach order (the order they run in).
    pub fn instances(&self) -> &[Instance] {
        &self.instances
    }

    /// Runs `instance` for one call; `Err` when the script failed (its commands are already
    /// dropped).
    pub fn run(
        &mut self,
        instance: usize,
        world: &World,
        rng: &mut WorldRng,
        trigger: &Trigger,
        events: &[Event],
        commands: &mut CommandBuffer,
    ) -> Result<(), ScriptError> {
        let Some(inst) = self.instances.get_mut(instance) else { return Ok(()) };
        let shared = parallel::Shared { world, events, budget: None, timing: false };
        let program = inst.program;
        // `rng` may be shared with other calls here (the tick gives each call a stream of its
        // own): a failed call puts it back, so it shifts no one else's rolls.
        let rng_before = rng.clone();
        let result = match inst.backend {
            Some(b) => match lanes::backend(&mut self.backends, &mut self.lanes, inst.lane, b, program) {
                Some((backend, p)) => call(inst, &self.limits, backend, p, &shared, rng, trigger, commands),
                None => Err(lanes::missing(&inst.file)),
            },
            None => call(inst, &self.limits, &mut self.native, program, &shared, rng, trigger, commands),
        };
        if result.is_err() {
            *rng = rng_before;
        }
        result
    }

    /// Compiles `file` (once, however often asked) without attaching it: a behaviour tree's leaf
    /// file, whose functions trees call ([`ScriptHost::call_leaf`]).
    pub fn load(&mut self, file: &Path) -> Result<(), Vec<ScriptError>> {
        if self.programs.contains_key(file) {
            return Ok(());
        }
        let Some(b) = self.backend_for(file) else {
            return Err(vec![self.no_backend(file)]);
        };
        let source = crate::scenario::files::read_text(file, crate::scenario::files::MAX_SOURCE_BYTES)
            .map_err(|why| vec![ScriptError::new(file, 0, 0, format!("the leaf file {why}"))])?;
        let program = self.backends[b].compile(file, &source)?;
        self.programs.insert(file.to_path_buf(), (Some(b), program));
        self.sources.insert((b, program), source);
        Ok(())
    }

    /// Whether the loaded `file` defines the leaf function `function` (`.tac` leaves in any case).
    pub fn defines(&mut self, file: &Path, function: &str) -> bool {
        if !self.leaf_index.contains_key(file) {
            let names = self.leaf_names(file);
            self.leaf_index.insert(file.to_path_buf(), names);
        }
        let tac = file.extension().is_some_and(|e| e == "tac");
        self.leaf_index
            .get(file)
            .is_some_and(|names| names.iter().any(|n| n == function || (tac && n.eq_ignore_ascii_case(function))))
    }

    /// The functions of loaded `file` a behaviour tree may call (empty for a file not loaded).
    pub fn leaf_names(&self, file: &Path) -> Vec<String> {
        match self.programs.get(file) {
            Some(&(Some(b), program)) => self.backends[b].leaf_names(program),
            _ => Vec::new(),
        }
    }

    /// Calls `function` of the loaded `file` as a behaviour-tree leaf or service of `entity`, with
    /// the state of `entity`'s instance of the file (made, passive, on the first call when the
    /// file is not attached to it). As [`ScriptHost::run`]: the call's output is held to the
    /// limits, and a failed call's commands, generator draws and state changes are undone.
    #[allow(clippy::too_many_arguments)]
    pub fn call_leaf(
        &mut self,
        entity: EntityId,
        file: &Path,
        function: &str,
        world: &World,
        rng: &mut WorldRng,
        commands: &mut CommandBuffer,
        blackboard: &Table,
    ) -> Result<tactica_engine::Value, ScriptError> {
        let Some(&(Some(b), program)) = self.programs.get(file) else {
            return Err(ScriptError::new(file, 0, 0, "the leaf file is not loaded"));
        };
        let at = match self.instances.iter().position(|i| i.entity == Some(entity) && i.file == file) {
            Some(at) => at,
            None => {
                let ordinal = self.next_ordinal(Some(entity));
                self.instances.push(Instance {
                    entity: Some(entity),
                    file: file.to_path_buf(),
                    backend: Some(b),
                    program,
                    state: Table::new(),
                    think_every: 1,
                    think_phase: 0,
                    output: (0, 0),
                    ordinal,
                    stream: None,
                    passive: true,
                    lane: 0,
                });
                self.instances.len() - 1
            }
        };
        let inst = &mut self.instances[at];
        let before = commands.len();
        let tick = world.clock().tick();
        if inst.output.0 != tick {
            inst.output = (tick, 0);
        }
        commands.allow(self.limits.output_allowance(inst.output.1));
        let (rng_before, mut state_before) = (rng.clone(), None);
        let state = StateMut::journaled(&mut inst.state, &mut state_before);
        let trigger = Trigger::Think;
        let mut call = ScriptCall {
            world,
            rng,
            entity: Some(entity),
            state,
            commands,
            trigger: &trigger,
            events: &[],
            blackboard: Some(blackboard),
        };
        let file_name = &inst.file;
        let result = lanes::backend(&mut self.backends, &mut self.lanes, inst.lane, b, program)
            .map_or_else(|| Err(lanes::missing(file_name)), |(be, p)| be.call_leaf(p, function, &mut call));
        if result.is_err() {
            commands.truncate(before);
            *rng = rng_before;
            if let Some(state) = state_before {
                inst.state = state;
            }
        } else {
            inst.output.1 += commands.spent();
        }
        commands.allow(None);
        result.map_err(|mut e| {
            if e.file.as_os_str().is_empty() {
                e.file = file.to_path_buf();
            }
            e
        })
    }

    /// Reloads `file` from `source` for every instance that uses it. On error the old code keeps
    /// running.
    pub fn reload(&mut self, file: &Path, source: &str) -> Result<Vec<Option<EntityId>>, Vec<ScriptError>> {
        let Some(&(Some(b), program)) = self.programs.get(file) else {
            return Err(vec![ScriptError::new(file, 0, 0, "no running script uses this file")]);
        };
        self.backends[b].recompile(program, file, source)?;
        for lane in &mut self.lanes {
            lane.recompile(b, program, file, source)?;
        }
        self.sources.insert((b, program), source.to_owned());
        self.leaf_index.remove(file);
        Ok(self.instances.iter().filter(|i| i.file == file).map(|i| i.entity).collect())
    }

    /// The indices of the instances that run `file`.
    pub fn instances_of(&self, file: &Path) -> Vec<usize> {
        self.instances.iter().enumerate().filter(|(_, i)| i.file == file).map(|(n, _)| n).collect()
    }

    /// The files the host has loaded.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.programs.keys().map(PathBuf::as_path)
    }
}
