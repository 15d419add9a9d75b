//! [`LuaBackend`]: one sandboxed Lua state per script file, the stdlib table bound into it by one
//! generic adapter, handlers per trigger, and `sequence` coroutines that wait for the engine.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::thread::ThreadStatus;
use mlua::{Function, Lua, LuaString, Thread, Value as LuaValue, Variadic, ffi};
use tactica_engine::world::EntityId;
use tactica_stdlib::backend::{ProgramId, ScriptBackend, ScriptCall, ScriptError, Trigger};
use tactica_stdlib::{ActionMode, Api, ScriptCtx, ScriptLimits, Table, Type, Value, is_private, snake_case};

use crate::convert::{from_lua, to_lua};
use crate::error::script_error;
use crate::host::{Group, Shared, arity_error};
use crate::sandbox::{Meter, new_state};
use tactica_stdlib::crossing::Crossing;
use tactica_stdlib::instances::Instances;
use tactica_stdlib::lend::{lend, with_lent};

/// The name of the coroutine a script may define: started when its entity spawns, it issues
/// actions one after another and, before any query, waits until they have finished.
pub const SEQUENCE: &str = "sequence";

/// Lua as a Tactica script language.
pub struct LuaBackend {
    api: Rc<Api>,
    groups: Rc<Vec<Group>>,
    limits: ScriptLimits,
    programs: Vec<Program>,
}

// SAFETY: a `LuaBackend` owns every Lua state it made and every `Rc`, `Cell` and Lua handle
// (function, table, thread) that points into them: the states' registries hold the host closures,
// which hold clones of `api`, `groups`, a program's `meter` and `issued`, and nothing else does.
// No method hands any of them out — compiling returns a `ProgramId`, running writes plain `Value`s
// and commands into the call — so the whole graph moves between threads at once and only one
// thread ever touches the non-atomic reference counts. The context a call lends its host functions
// (`tactica_stdlib::lend`) is a thread-local that lives only for that call, on the calling thread.
// mlua's own `send` feature would give the same guarantee by locking a mutex on every operation,
// which is a cost on every script call; the backend is not `Sync`, so it is never shared.
unsafe impl Send for LuaBackend {}

struct Program {
    file: PathBuf,
    chunk: String,
    /// The running source, for error columns.
    source: String,
    lua: Lua,
    meter: Rc<Meter>,
    /// What the host closures of this state share (the running sequence among it).
    shared: Rc<Shared>,
    /// Whether this call has issued an action (a sequence's next query waits for it).
    issued: Rc<Cell<bool>>,
    /// Handlers seen so far with the line they start on (asking Lua for a function's debug info
    /// on every call was a good part of the per-call cost). A script that redefines a handler
    /// gets the new one: the entry is checked against the global each call.
    /// `None`: the file defines no such handler (its global is nil).
    /// By [`HANDLER_NAMES`] index; `None` not looked up yet.
    handlers: [Option<Option<(Function, u32)>>; 7],
    sequences: BTreeMap<EntityId, (Thread, u64)>,
    /// The globals table and the names a call looks up in it, made once per state (not a registry
    /// read and a string interned per call).
    globals: mlua::Table,
    keys: Keys,
    /// The C closure routine calls run through ([`do_routine`]).
    runner: Function,
    /// Per instance (its entity; `None` for a world script): the `state` table the last call left.
    /// It is handed to the next call as it is while the host's table still holds the same public
    /// entries, so a call whose state did not change converts nothing.
    states: Instances<mlua::Table>,
}

/// The handlers a call may run, in the order the host's caches keep them.
const HANDLER_NAMES: [&str; 7] = ["on_spawn", "on_think", "on_encounter", "on_hear", "on_tick", "on_reload", SEQUENCE];

/// Where `name` (one of [`HANDLER_NAMES`]) is kept.
fn handler_slot(name: &str) -> usize {
    HANDLER_NAMES.iter().position(|n| *n == name).unwrap_or(0)
}

/// Interned names: `state` and the handlers (by [`HANDLER_NAMES`] index).
struct Keys {
    state: LuaString,
    handlers: Vec<LuaString>,
}

impl Keys {
    fn new(lua: &Lua) -> mlua::Result<Keys> {
        Ok(Keys {
            state: lua.create_string("state")?,
            handlers: HANDLER_NAMES.iter().map(|&n| lua.create_string(n)).collect::<mlua::Result<_>>()?,
        })
    }

    fn handler(&self, name: &'static str) -> Option<&LuaString> {
        self.handlers.get(handler_slot(name))
    }
}

impl LuaBackend {
    /// A backend binding `api` under `limits`.
    pub fn new(api: Api, limits: ScriptLimits) -> Self {
        let mut groups: Vec<Group> = Vec::new();
        for f in api.all_functions() {
            if groups.iter().any(|g| g.name.eq_ignore_ascii_case(f.name)) {
                continue;
            }
            let overloads = api.function_indices(f.name).to_vec();
            let query = overloads.iter().any(|&k| api.function(k).is_some_and(|f| f.ret != Type::Nil));
            groups.push(Group { overloads, name: f.name, query });
        }
        LuaBackend { api: Rc::new(api), groups: Rc::new(groups), limits, programs: Vec::new() }
    }

    /// A backend with the standard table and the default limits.
    pub fn standard() -> Self {
        LuaBackend::new(Api::standard(), ScriptLimits::new())
    }

    /// The limits every call runs under.
    pub fn limits(&self) -> ScriptLimits {
        self.limits
    }

    fn load(&self, file: &Path, source: &str) -> Result<Program, Vec<ScriptError>> {
        let chunk = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
        let meter = Rc::new(Meter::default());
        meter.start(0); // loading runs the file's top level under the same limits as a call
        let fail = |e: mlua::Error, meter: &Meter| vec![script_error(file, &chunk, source, &e, meter.last_line.get())];
        let lua = new_state(&self.limits, &meter).map_err(|e| fail(e, &meter))?;
        let issued = Rc::new(Cell::new(false));
        let shared =
            Rc::new(Shared::new(Rc::clone(&self.api), Rc::clone(&self.groups), self.limits, Rc::clone(&issued)));
        self.install_api(&lua, &shared).map_err(|e| fail(e, &meter))?;
        crate::print::install(&lua, &chunk).map_err(|e| fail(e, &meter))?;
        lua.load(source).set_name(format!("@{chunk}")).set_mode(ChunkMode::Text).exec().map_err(|e| fail(e, &meter))?;
        let keys = Keys::new(&lua).map_err(|e| fail(e, &meter))?;
        let runner = crate::host::traceback_handler(&lua, &shared)
            .and_then(|traceback| make_runner(&lua, &keys, &traceback))
            .map_err(|e| fail(e, &meter))?;
        Ok(Program {
            globals: lua.globals(),
            keys,
            runner,
            states: Instances::default(),
            file: file.to_path_buf(),
            chunk,
            source: source.to_owned(),
            lua,
            meter,
            shared,
            issued,
            handlers: Default::default(),
            sequences: BTreeMap::new(),
        })
    }

    /// Defines every function of the table, under its canonical name and its snake_case alias,
    /// as a C closure reading its arguments off the stack (`host.rs`), made once per state. They
    /// reach the call's context through [`lend`](tactica_stdlib::lend): outside a call (while the
    /// file loads) they fail.
    fn install_api(&self, lua: &Lua, shared: &Rc<Shared>) -> mlua::Result<()> {
        let not_lent =
            || mlua::Error::runtime("host functions can only be called from a handler (on_think …), not while loading");
        let (api, groups, limits, flag) =
            (Rc::clone(&self.api), Rc::clone(&self.groups), self.limits, Rc::clone(&shared.issued));
        // The general path, for arguments the closures do not read themselves (tables …).
        let slow = lua.create_function(move |lua, (idx, args): (usize, Variadic<LuaValue>)| {
            with_lent(|ctx| host_call(lua, &api, &groups, &limits, ctx, &flag, idx, &args))
                .unwrap_or_else(|| Err(not_lent()))
        })?;
        // Results other than nil, booleans and numbers; it also keeps `shared` alive as long as
        // the state (every closure holds it as an upvalue).
        let keep = Rc::clone(shared);
        let push = lua.create_function(move |lua, ()| to_lua(lua, &keep.out.take()))?;
        // The metatables that mark handles and vectors.
        let metatable = |v: LuaValue| -> mlua::Result<*const std::ffi::c_void> {
            // SAFETY: reads the metatable of the one argument and leaves a light userdata.
            let p: LuaValue = unsafe {
                lua.exec_raw(v, |l| {
                    let p = if ffi::lua_getmetatable(l, 1) != 0 { ffi::lua_topointer(l, -1) } else { std::ptr::null() };
                    ffi::lua_settop(l, 0);
                    ffi::lua_pushlightuserdata(l, p.cast_mut());
                })
            }?;
            Ok(match p {
                LuaValue::LightUserData(p) => p.0.cast_const(),
                _ => std::ptr::null(),
            })
        };
        shared.entity_mt.set(metatable(to_lua(lua, &Value::Entity(EntityId::default()))?)?);
        shared.vec2_mt.set(metatable(to_lua(lua, &Value::Vec2(glam::Vec2::ZERO))?)?);
        let globals = lua.globals();
        for (i, g) in self.groups.iter().enumerate() {
            // SAFETY: `slow` and `push` are arguments 1 and 2; the closure replaces them as the
            // one result. `shared` outlives the closure: `push`, one of its upvalues, owns it.
            let f: Function = unsafe {
                lua.exec_raw((&slow, &push), |l| {
                    crate::host::push_closure(l, Rc::as_ptr(shared), i, 1, 2);
                    ffi::lua_replace(l, 1);
                    ffi::lua_settop(l, 1);
                })
            }?;
            let alias = snake_case(g.name);
            globals.raw_set(g.name, &f)?;
            if alias != g.name {
                globals.raw_set(alias, &f)?;
            }
        }
        Ok(())
    }
}

impl ScriptBackend for LuaBackend {
    fn fork(&self) -> Option<Box<dyn ScriptBackend>> {
        // A deep copy of the table: the `Rc`s of one backend never cross to another thread.
        Some(Box::new(LuaBackend::new((*self.api).clone(), self.limits)))
    }

    fn extensions(&self) -> &[&'static str] {
        &["lua"]
    }

    fn compile(&mut self, file: &Path, source: &str) -> Result<ProgramId, Vec<ScriptError>> {
        let program = self.load(file, source)?;
        self.programs.push(program);
        Ok(ProgramId(u32::try_from(self.programs.len() - 1).unwrap_or(u32::MAX)))
    }

    fn recompile(&mut self, program: ProgramId, file: &Path, source: &str) -> Result<(), Vec<ScriptError>> {
        // Checked in a scratch state first, so a broken file leaves the running state untouched.
        let fresh = self.load(file, source)?;
        let Some(p) = self.programs.get_mut(program.0 as usize) else {
            return Err(vec![ScriptError::new(file, 0, 0, "no such Lua program")]);
        };
        if p.sequences.is_empty() {
            *p = fresh;
            return Ok(());
        }
        // A `sequence` coroutine in progress lives in this state and cannot move to another: run
        // the new chunk here instead, so the coroutine keeps its progress and the functions it
        // calls by name are the new ones. Handlers the new file drops must stop running.
        p.meter.start(p.lua.used_memory());
        let exec = || -> mlua::Result<()> {
            let globals = p.lua.globals();
            for t in ["on_spawn", "on_think", "on_encounter", "on_hear", "on_tick", "on_reload", SEQUENCE] {
                globals.raw_set(t, LuaValue::Nil)?;
            }
            p.lua.load(source).set_name(format!("@{}", p.chunk)).set_mode(ChunkMode::Text).exec()
        };
        let result = exec().map_err(|e| vec![script_error(file, &p.chunk, source, &e, p.meter.last_line.get())]);
        if result.is_ok() {
            p.source = source.to_owned();
        }
        result
    }

    fn lint(&self, _file: &Path, source: &str, api: &Api) -> Vec<tactica_syntax::diagnostics::Diagnostic> {
        crate::lint::lint(api, source)
    }

    fn leaf_names(&self, program: ProgramId) -> Vec<String> {
        let Some(p) = self.programs.get(program.0 as usize) else { return Vec::new() };
        let mut names = Vec::new();
        for pair in p.globals.pairs::<LuaValue, LuaValue>() {
            // The script's own functions are Lua functions; the host's and the libraries' are C.
            if let Ok((LuaValue::String(name), LuaValue::Function(f))) = pair
                && f.info().what == "Lua"
                && let Ok(name) = name.to_str()
            {
                names.push(name.to_string());
            }
        }
        names.sort();
        names
    }

    fn call_leaf(&mut self, program: ProgramId, name: &str, call: &mut ScriptCall<'_>) -> Result<Value, ScriptError> {
        let Some(p) = self.programs.get_mut(program.0 as usize) else {
            return Err(ScriptError::new("lua", 0, 0, "no such Lua program"));
        };
        p.meter.start(p.lua.used_memory());
        crate::patched::clear_charges(&p.lua);
        let entity = call.entity;
        let mut ctx = call.ctx();
        let mut out = Value::Nil;
        let result = run_call(p, &self.limits, &mut ctx, Call::Leaf(name, &mut out), entity);
        ctx.finish();
        result.map(|()| out).map_err(|e| {
            let err = script_error(&p.file, &p.chunk, &p.source, &e, stop_line(&p.lua, &p.meter, &e));
            if p.meter.watchdog_fired.get() { err.by_watchdog(self.limits.max_wall_ms) } else { err }
        })
    }

    fn run(&mut self, program: ProgramId, call: &mut ScriptCall<'_>) -> Result<(), ScriptError> {
        let Some(p) = self.programs.get_mut(program.0 as usize) else {
            return Err(ScriptError::new("lua", 0, 0, "no such Lua program"));
        };
        p.meter.start(p.lua.used_memory());
        crate::patched::clear_charges(&p.lua);
        let trigger = call.trigger.clone();
        let entity = call.entity;
        let mut ctx = call.ctx();
        let result = run_call(p, &self.limits, &mut ctx, Call::Trigger(&trigger), entity);
        ctx.finish();
        result.map_err(|e| {
            let err = script_error(&p.file, &p.chunk, &p.source, &e, stop_line(&p.lua, &p.meter, &e));
            if p.meter.watchdog_fired.get() { err.by_watchdog(self.limits.max_wall_ms) } else { err }
        })
    }
}

/// Where a call that failed without a place of its own stopped: for running out of memory, the
/// script line Lua was running then; else the last line the hook saw.
fn stop_line(lua: &Lua, meter: &Meter, e: &mlua::Error) -> u32 {
    let line = if crate::error::is_memory_error(e) { crate::patched::memory_error_line(lua) } else { 0 };
    if line > 0 { line } else { meter.last_line.get() }
}

/// What a call runs: the handler of a trigger, or a behaviour tree's leaf (whose result goes
/// into the value).
enum Call<'a> {
    Trigger(&'a Trigger),
    Leaf(&'a str, &'a mut Value),
}

/// One call: lends the context to `H.call` for its duration, hands the instance's state table
/// in and takes it back, and runs the handler (and the sequence coroutine) the trigger asks for,
/// or the leaf.
fn run_call(
    p: &mut Program,
    limits: &ScriptLimits,
    ctx: &mut ScriptCtx<'_>,
    what: Call<'_>,
    entity: Option<EntityId>,
) -> mlua::Result<()> {
    let (trigger, leaf) = match what {
        Call::Trigger(t) => (t, None),
        Call::Leaf(name, out) => (&Trigger::Think, Some((name, out))),
    };
    if leaf.is_none()
        && let Some(done) = fast_call(p, limits, ctx, trigger, entity)?
    {
        return done;
    }
    let Program { lua, shared, sequences, meter, issued, handlers, globals, keys, states, .. } = p;
    // Host functions only ever write private keys, so the public part of `ctx.state` stays what
    // the call started with until the end: nothing needs copying to restore it after a failure.
    // The table the last call left is used again while it still says what the host's does.
    let state = match states.take(entity) {
        Some(t) if same_public(lua, &t, &ctx.state) => t,
        _ => {
            let state = lua.create_table_with_capacity(0, ctx.state.len())?;
            for (k, v) in ctx.state.iter().filter(|(k, _)| !is_private(k)) {
                state.raw_set(k.as_str(), to_lua(lua, v)?)?;
            }
            state
        }
    };
    globals.raw_set(&keys.state, &state)?;
    issued.set(false);
    let tick = ctx.tick();
    let outcome = lend(ctx, || -> mlua::Result<()> {
        let handlers = RefCell::new(handlers);
        // Until the hook sees a line, an error without a place (out of memory) is reported at
        // the line where the running handler starts.
        let handler = |name: &'static str| -> mlua::Result<Option<Function>> {
            let value = match keys.handler(name) {
                Some(key) => globals.raw_get::<LuaValue>(key)?,
                None => globals.raw_get::<LuaValue>(name)?,
            };
            match value {
                LuaValue::Function(f) => {
                    let mut cache = handlers.borrow_mut();
                    let slot = &mut cache[handler_slot(name)];
                    let line = match slot {
                        Some(Some((known, line))) if *known == f => *line,
                        _ => {
                            let line = f.info().line_defined.and_then(|l| u32::try_from(l).ok()).unwrap_or(0);
                            *slot = Some(Some((f.clone(), line)));
                            line
                        }
                    };
                    meter.last_line.set(line);
                    Ok(Some(f))
                }
                LuaValue::Nil => {
                    handlers.borrow_mut()[handler_slot(name)] = Some(None);
                    Ok(None)
                }
                _ => {
                    handlers.borrow_mut()[handler_slot(name)] = None;
                    Ok(None)
                }
            }
        };
        let set_mode = |mode| {
            with_lent(|c: &mut ScriptCtx<'_>| {
                c.flush_pattern();
                c.mode = mode;
            })
        };
        if let Some((name, out)) = leaf {
            let LuaValue::Function(f) = globals.raw_get::<LuaValue>(name)? else {
                return Err(mlua::Error::runtime(format!("the file defines no function `{name}`")));
            };
            meter.last_line.set(f.info().line_defined.and_then(|l| u32::try_from(l).ok()).unwrap_or(0));
            let returned = f.call::<LuaValue>(())?;
            *out = from_lua(&returned, limits, &mut Crossing::argument(limits))
                .map_err(|e| mlua::Error::runtime(format!("`{name}` returned {e}")))?;
            with_lent(|c: &mut ScriptCtx<'_>| c.flush_pattern());
            return Ok(());
        }
        match trigger {
            Trigger::Spawn => {
                if let Some(f) = handler(trigger.handler())? {
                    f.call::<()>(())?;
                }
                if let (Some(id), Some(seq)) = (entity, handler(SEQUENCE)?) {
                    let thread = lua.create_thread(seq)?;
                    sequences.insert(id, (thread, tick));
                    set_mode(ActionMode::Enqueue);
                    resume(shared, sequences, id, tick)?;
                    set_mode(ActionMode::Request);
                }
            }
            Trigger::Think => {
                if let Some(id) = entity
                    && sequences.get(&id).is_some_and(|(_, at)| *at < tick)
                {
                    // Ready once the actions it queued have been applied (a later tick) and run out.
                    let idle =
                        with_lent(|c: &mut ScriptCtx<'_>| c.me().is_some_and(|e| e.actions.is_idle())) == Some(true);
                    if idle {
                        set_mode(ActionMode::Enqueue);
                        resume(shared, sequences, id, tick)?;
                        set_mode(ActionMode::Request);
                    }
                }
                if let Some(f) = handler(trigger.handler())? {
                    f.call::<()>(())?;
                }
            }
            Trigger::Hear(text) => {
                if let Some(f) = handler(trigger.handler())? {
                    f.call::<()>(text.as_str())?;
                }
            }
            Trigger::Encounter | Trigger::Tick => {
                if let Some(f) = handler(trigger.handler())? {
                    f.call::<()>(())?;
                }
            }
            Trigger::Reload => {
                // The new code migrates the state the old code left: `on_reload(state)`.
                if let Some(f) = handler(trigger.handler())? {
                    f.call::<()>(globals.raw_get::<LuaValue>(&keys.state)?)?;
                }
            }
        }
        with_lent(|c: &mut ScriptCtx<'_>| c.flush_pattern());
        Ok(())
    });
    // The script may have replaced `state` wholesale; whatever table it holds now is kept.
    let now = globals.raw_get::<LuaValue>(&keys.state)?;
    if outcome.is_ok()
        && let LuaValue::Table(t) = &now
        && same_public(lua, t, &ctx.state)
    {
        // Nothing changed (compared in place): nothing to convert or write back.
        keep_state(states, ctx, entity, t.clone());
        return outcome;
    }
    let kept = match &now {
        LuaValue::Nil => Value::Map(Table::new()),
        v => from_lua(v, limits, &mut Crossing::kept(limits))
            .map_err(|e| mlua::Error::runtime(format!("`state`: {e}")))?,
    };
    match kept {
        // A failed call keeps the state it started with, plus what host functions recorded.
        Value::Map(_) if outcome.is_err() => {}
        Value::Map(m) => {
            ctx.state.retain(|k, _| is_private(k));
            ctx.state.extend(m.into_iter().filter(|(k, _)| !is_private(k)));
            if let LuaValue::Table(t) = now {
                keep_state(states, ctx, entity, t);
            }
        }
        other => {
            return Err(mlua::Error::runtime(format!("`state` must stay a table, not a {}", other.value_type())));
        }
    }
    outcome
}

/// Keeps `table` as the state table `entity`'s next call starts from.
fn keep_state(states: &mut Instances<mlua::Table>, _ctx: &ScriptCtx<'_>, entity: Option<EntityId>, table: mlua::Table) {
    states.insert(entity, table);
}

/// A routine call (think without a sequence to resume, encounter, tick, hear) in one step on
/// the Lua stack ([`routine`]): the handler the host already knows, the state table the last call left, and
/// nothing converted when the state did not change. `None`: this call takes the general path
/// (a handler not seen yet or not a function, a sequence to resume, another trigger, a failure).
fn fast_call(
    p: &mut Program,
    limits: &ScriptLimits,
    ctx: &mut ScriptCtx<'_>,
    trigger: &Trigger,
    entity: Option<EntityId>,
) -> mlua::Result<Option<mlua::Result<()>>> {
    let arg = match trigger {
        Trigger::Hear(text) => Some(text.as_str()),
        Trigger::Think | Trigger::Encounter | Trigger::Tick => None,
        Trigger::Spawn | Trigger::Reload => return Ok(None),
    };
    let Program { lua, sequences, meter, issued, handlers, keys, runner, states, globals, .. } = p;
    if let (Trigger::Think, Some(id)) = (trigger, entity)
        && sequences.contains_key(&id)
    {
        return Ok(None);
    }
    let slot = match trigger {
        Trigger::Think => 1,
        Trigger::Encounter => 2,
        Trigger::Hear(_) => 3,
        _ => 4,
    };
    let Some(known) = &handlers[slot] else { return Ok(None) };
    let known = known.as_ref().map(|(f, line)| {
        meter.last_line.set(*line);
        f
    });
    let public = ctx.state.keys().filter(|k| !is_private(k)).count();
    let mut fresh = false;
    for _ in 0..2 {
        if states.get(entity).is_none_or(|t| public != 0 && !same_public(lua, t, &ctx.state)) {
            let state = lua.create_table_with_capacity(0, public)?;
            for (k, v) in ctx.state.iter().filter(|(k, _)| !is_private(k)) {
                state.raw_set(k.as_str(), to_lua(lua, v)?)?;
            }
            states.insert(entity, state);
            fresh = true;
        }
        let Some(state) = states.get(entity) else { return Ok(None) };
        let expect_empty = public == 0 && !fresh;
        issued.set(false);
        let result = lend(ctx, || {
            let r = routine(lua, runner, slot, known, state, arg, expect_empty);
            with_lent(|c: &mut ScriptCtx<'_>| c.flush_pattern());
            r
        });
        let (code, now) = match result {
            Ok(r) => r,
            // A failure keeps the state the call started with, as on the general path (which
            // also reports a `state` that can no longer cross before the failure itself).
            Err(e) => {
                states.take(entity);
                match globals.raw_get::<LuaValue>(&keys.state)? {
                    LuaValue::Nil => {}
                    v => match from_lua(&v, limits, &mut Crossing::kept(limits))
                        .map_err(|e| mlua::Error::runtime(format!("`state`: {e}")))?
                    {
                        Value::Map(_) => {}
                        other => {
                            return Err(mlua::Error::runtime(format!(
                                "`state` must stay a table, not a {}",
                                other.value_type()
                            )));
                        }
                    },
                }
                return Ok(Some(Err(e)));
            }
        };
        match code {
            0 => {
                if public != 0 {
                    ctx.state.retain(|k, _| is_private(k));
                }
                return Ok(Some(Ok(())));
            }
            3 => {
                if !same_public(lua, state, &ctx.state) {
                    let table = LuaValue::Table(state.clone());
                    write_back(lua, &table, limits, ctx)?;
                }
                return Ok(Some(Ok(())));
            }
            4 => {
                write_back(lua, &now, limits, ctx)?;
                match now {
                    LuaValue::Table(t) => states.insert(entity, t),
                    _ => drop(states.take(entity)),
                }
                return Ok(Some(Ok(())));
            }
            // The table was not what the host expected: made afresh, once.
            2 => drop(states.take(entity)),
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// One routine call on the Lua stack, with no Lua code of ours between the host and the handler
/// (whose every instruction would pass the budget's count hook): checks the handler is still the
/// one the host knows (so it knows its line), checks a state table the host expects empty still
/// is, hands it in as `state`, runs the handler under the same message handler as
/// [`Function::call`] and says what became of `state`: 0 the same table and empty, 3 the same
/// table with entries (the host compares them), 4 another value (returned). 1 and 2 run nothing:
/// the handler changed, or the table is no longer empty.
fn routine(
    lua: &Lua,
    runner: &Function,
    slot: usize,
    known: Option<&Function>,
    state: &mlua::Table,
    arg: Option<&str>,
    expect_empty: bool,
) -> mlua::Result<(u8, LuaValue)> {
    lua.exec_raw_lua(|raw| {
        // SAFETY: the values are pushed by mlua; `do_routine` runs under `lua_pcall`, so every
        // Lua error it raises is caught there (the handler's own are caught inside it); the
        // stack is put back as it was.
        unsafe {
            let l = raw.state();
            let top = ffi::lua_gettop(l);
            if ffi::lua_checkstack(l, 20) == 0 {
                return Err(mlua::Error::StackError);
            }
            let pushed = (|| -> mlua::Result<()> {
                raw.push(runner)?;
                // The message handler (the runner's second upvalue) goes under the runner: the
                // handler runs unprotected inside it, so one `lua_pcall` catches both its errors
                // and the runner's own, with the handler's traceback.
                ffi::lua_getupvalue(l, -1, 2);
                ffi::lua_rotate(l, -2, 1);
                ffi::lua_pushinteger(l, slot as ffi::lua_Integer);
                raw.push(known)?;
                raw.push(state)?;
                raw.push(arg)?;
                ffi::lua_pushboolean(l, std::ffi::c_int::from(expect_empty));
                Ok(())
            })();
            if let Err(e) = pushed {
                ffi::lua_settop(l, top);
                return Err(e);
            }
            let status = ffi::lua_pcall(l, 5, 2, top + 1);
            let (status, value, code) = if status == ffi::LUA_OK {
                let value = raw.pop_value();
                (ffi::LUA_OK, value, Some(ffi::lua_tointegerx(l, -1, std::ptr::null_mut())))
            } else {
                (status, raw.pop_value(), None)
            };
            ffi::lua_settop(l, top);
            match code {
                Some(code) => Ok((u8::try_from(code).unwrap_or(1), value)),
                // As `Function::call` reports them (mlua's `pop_error`).
                None => {
                    let text = |v: &LuaValue| match v {
                        LuaValue::String(s) => s.to_string_lossy(),
                        other => other.to_string().unwrap_or_else(|_| format!("<{}>", other.type_name())),
                    };
                    Err(match value {
                        LuaValue::Error(e) => *e,
                        v if status == ffi::LUA_ERRMEM => mlua::Error::MemoryError(text(&v)),
                        v => mlua::Error::RuntimeError(text(&v)),
                    })
                }
            }
        }
    })
}

/// The C closure [`routine`] calls: upvalue 1 the key `state`, 2 the message handler (which
/// [`routine`] fetches for its `lua_pcall`), 3.. the handlers' names (by [`HANDLER_NAMES`] index).
fn make_runner(lua: &Lua, keys: &Keys, traceback: &Function) -> mlua::Result<Function> {
    let mut upvalues = vec![LuaValue::String(keys.state.clone()), LuaValue::Function(traceback.clone())];
    upvalues.extend(keys.handlers.iter().cloned().map(LuaValue::String));
    let n = upvalues.len() as std::ffi::c_int;
    // SAFETY: the arguments become the closure's upvalues, in order.
    unsafe { lua.exec_raw(mlua::MultiValue::from_iter(upvalues), |l| ffi::lua_pushcclosure(l, do_routine, n)) }
}

/// [`routine`]'s work on the Lua stack. Arguments: 1 the handler's slot, 2 the handler the host
/// knows, 3 the state table, 4 the handler's argument, 5 whether the table must be empty.
/// Results: the code and (for 4) the new `state`; a failure of the handler raises through to the
/// caller's `lua_pcall`.
unsafe extern "C-unwind" fn do_routine(l: *mut ffi::lua_State) -> std::ffi::c_int {
    // SAFETY: stack operations on the arguments and upvalues only; this frame owns nothing, so
    // an error (the handler's, or out of memory) may pass through it to the caller's `lua_pcall`.
    unsafe {
        let done = |code: ffi::lua_Integer, value: Option<std::ffi::c_int>| {
            match value {
                Some(i) => ffi::lua_pushvalue(l, i),
                None => ffi::lua_pushnil(l),
            }
            ffi::lua_pushinteger(l, code);
            ffi::lua_rotate(l, -2, 1);
            2
        };
        let slot = ffi::lua_tointegerx(l, 1, std::ptr::null_mut()) as std::ffi::c_int;
        ffi::lua_rawgeti(l, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_GLOBALS); // 6: _G
        ffi::lua_pushvalue(l, ffi::lua_upvalueindex(3 + slot));
        ffi::lua_rawget(l, 6); // 7: the handler now
        if ffi::lua_rawequal(l, 7, 2) == 0 {
            return done(1, None);
        }
        if ffi::lua_toboolean(l, 5) != 0 {
            ffi::lua_pushnil(l);
            if ffi::lua_next(l, 3) != 0 {
                ffi::lua_settop(l, 7);
                return done(2, None);
            }
        }
        ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
        ffi::lua_pushvalue(l, 3);
        ffi::lua_rawset(l, 6);
        if ffi::lua_type(l, 7) != ffi::LUA_TNIL {
            ffi::lua_pushvalue(l, 7);
            let nargs = if ffi::lua_type(l, 4) == ffi::LUA_TNIL {
                0
            } else {
                ffi::lua_pushvalue(l, 4);
                1
            };
            // Unprotected: a failure unwinds to [`routine`]'s `lua_pcall`, whose message handler
            // is the one `Function::call` uses, so it is reported as any other call's.
            ffi::lua_callk(l, nargs, 0, 0, None);
        }
        ffi::lua_settop(l, 7);
        ffi::lua_pushvalue(l, ffi::lua_upvalueindex(1));
        ffi::lua_rawget(l, 6); // 8: `state` now
        if ffi::lua_rawequal(l, 8, 3) == 0 {
            return done(4, Some(8));
        }
        ffi::lua_pushnil(l);
        let code = if ffi::lua_next(l, 8) == 0 { 0 } else { 3 };
        ffi::lua_settop(l, 8);
        done(code, None)
    }
}

/// Whether the Lua table `t` holds exactly the public entries of `table` (what the end of a call
/// would write back is already there): on the Lua stack when the table is plain, else through mlua.
fn same_public(lua: &Lua, t: &mlua::Table, table: &Table) -> bool {
    crate::plain::same_public(lua, t, table).unwrap_or_else(|| crate::convert::same_public(t, table))
}

/// The public part of the host's table becomes what `state` (the global after a call) holds.
fn write_back(lua: &Lua, state: &LuaValue, limits: &ScriptLimits, ctx: &mut ScriptCtx<'_>) -> mlua::Result<()> {
    let kept = match state {
        LuaValue::Nil => Value::Map(Table::new()),
        LuaValue::Table(t) if let Some(map) = crate::plain::to_map(lua, t, limits) => Value::Map(map),
        v => from_lua(v, limits, &mut Crossing::kept(limits))
            .map_err(|e| mlua::Error::runtime(format!("`state`: {e}")))?,
    };
    match kept {
        Value::Map(m) => {
            ctx.state.retain(|k, _| is_private(k));
            ctx.state.extend(m.into_iter().filter(|(k, _)| !is_private(k)));
            Ok(())
        }
        other => Err(mlua::Error::runtime(format!("`state` must stay a table, not a {}", other.value_type()))),
    }
}

/// Resumes `id`'s sequence coroutine; drops it once it has finished or failed.
fn resume(
    shared: &Shared,
    sequences: &mut BTreeMap<EntityId, (Thread, u64)>,
    id: EntityId,
    tick: u64,
) -> mlua::Result<()> {
    let Some(thread) = sequences.get(&id).map(|(t, _)| t.clone()) else { return Ok(()) };
    if thread.status() != ThreadStatus::Resumable {
        sequences.remove(&id);
        return Ok(());
    }
    // The host closures' queries wait (yield) only inside this thread.
    shared.seq.set(thread.to_pointer());
    let result = thread.resume::<()>(());
    shared.seq.set(std::ptr::null());
    if result.is_err() || thread.status() != ThreadStatus::Resumable {
        sequences.remove(&id);
    } else {
        sequences.insert(id, (thread, tick));
    }
    result
}

/// The one adapter from Lua to the stdlib table: converts the arguments, picks the overload by
/// arity, runs the Rust implementation over the lent context and converts the result back.
#[expect(clippy::too_many_arguments, reason = "the pieces of one lent call, kept apart for the borrow checker")]
fn host_call(
    lua: &Lua,
    api: &Api,
    groups: &[Group],
    limits: &ScriptLimits,
    ctx: &mut ScriptCtx<'_>,
    issued: &Cell<bool>,
    idx: usize,
    args: &[LuaValue],
) -> mlua::Result<LuaValue> {
    let group = groups.get(idx).ok_or_else(|| mlua::Error::runtime("no such host function"))?;
    let mut crossing = Crossing::argument(limits);
    let values = args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            from_lua(a, limits, &mut crossing).map_err(|e| format!("`{}` argument {}: {e}", group.name, i + 1))
        })
        .collect::<Result<Vec<Value>, String>>();
    // What was converted is copied work, charged at the script's next instruction (this frame
    // owns Rust values, so the hook must not raise here).
    crate::patched::charge_later(lua, crossing.weight() / 16);
    let values = values.map_err(mlua::Error::runtime)?;
    let f = group
        .overloads
        .iter()
        .filter_map(|&i| api.function(i))
        .find(|f| f.params.len() == values.len())
        .ok_or_else(|| mlua::Error::runtime(arity_error(api, group, values.len())))?;
    let out = f.call(ctx, &values).map_err(|e| mlua::Error::runtime(e.to_string()))?;
    if f.ret == Type::Nil {
        issued.set(true);
    }
    to_lua(lua, &out)
}
