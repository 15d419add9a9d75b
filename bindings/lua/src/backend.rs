//! [`LuaBackend`]: one sandboxed Lua state per script file, the stdlib table bound into it by one
//! generic adapter, handlers per trigger, and `sequence` coroutines that wait for the engine.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::chunk::ChunkMode;
use mlua::thread::ThreadStatus;
use mlua::{Function, Lua, Thread, Value as LuaValue, Variadic};
use tactica_engine::world::EntityId;
use tactica_stdlib::backend::{ProgramId, ScriptBackend, ScriptCall, ScriptError, Trigger};
use tactica_stdlib::{ActionMode, Api, ScriptCtx, ScriptLimits, Table, Type, Value, is_private, snake_case};

use crate::convert::{from_lua, to_lua};
use crate::error::script_error;
use crate::sandbox::{Meter, new_state};
use tactica_stdlib::lend::{lend, with_lent};

/// The name of the coroutine a script may define: started when its entity spawns, it issues
/// actions one after another and, before any query, waits until they have finished.
pub const SEQUENCE: &str = "sequence";

/// The Lua wrappers around the host table. `H` is reachable only as an upvalue here: scripts can
/// neither replace the host entry point nor call it with a forged function index.
const WRAPPERS: &str = r"
local H, groups = ...
local running, yield = coroutine.running, coroutine.yield
for _, g in ipairs(groups) do
  local idx = g.index
  local f
  if g.query then
    f = function(...)
      if H.seq ~= nil and running() == H.seq and H.pending() then yield() end
      return H.call(idx, ...)
    end
  else
    f = function(...) return H.call(idx, ...) end
  end
  for _, name in ipairs(g.names) do _G[name] = f end
end
";

/// One overloaded name of the table: the indices of its overloads in [`Api::function`].
#[derive(Debug, Clone)]
struct Group {
    overloads: Vec<usize>,
    name: &'static str,
}

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
    hidden: mlua::Table,
    /// Whether this call has issued an action (a sequence's next query waits for it).
    issued: Rc<Cell<bool>>,
    /// Handlers seen so far with the line they start on (asking Lua for a function's debug info
    /// on every call was a good part of the per-call cost). A script that redefines a handler
    /// gets the new one: the entry is checked against the global each call.
    handlers: BTreeMap<&'static str, (Function, u32)>,
    sequences: BTreeMap<EntityId, (Thread, u64)>,
}

impl LuaBackend {
    /// A backend binding `api` under `limits`.
    pub fn new(api: Api, limits: ScriptLimits) -> Self {
        let mut groups: Vec<Group> = Vec::new();
        for f in api.all_functions() {
            if groups.iter().any(|g| g.name.eq_ignore_ascii_case(f.name)) {
                continue;
            }
            groups.push(Group { overloads: api.function_indices(f.name).to_vec(), name: f.name });
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
        let hidden = self.install_api(&lua, &issued).map_err(|e| fail(e, &meter))?;
        crate::print::install(&lua, &chunk).map_err(|e| fail(e, &meter))?;
        lua.load(source).set_name(format!("@{chunk}")).set_mode(ChunkMode::Text).exec().map_err(|e| fail(e, &meter))?;
        Ok(Program {
            file: file.to_path_buf(),
            chunk,
            source: source.to_owned(),
            lua,
            meter,
            hidden,
            issued,
            handlers: BTreeMap::new(),
            sequences: BTreeMap::new(),
        })
    }

    /// Defines every function of the table (canonical name and snake_case alias) as a Lua
    /// wrapper over the one hidden entry point `H.call`. `H.call` and `H.pending` are made once per
    /// state and reach the call's context through [`lend`](crate::lend): outside a call (while the
    /// file loads) they fail.
    fn install_api(&self, lua: &Lua, issued: &Rc<Cell<bool>>) -> mlua::Result<mlua::Table> {
        let hidden = lua.create_table()?;
        let not_lent =
            || mlua::Error::runtime("host functions can only be called from a handler (on_think …), not while loading");
        let (api, groups, limits, flag) =
            (Rc::clone(&self.api), Rc::clone(&self.groups), self.limits, Rc::clone(issued));
        let call = lua.create_function(move |lua, (idx, args): (usize, Variadic<LuaValue>)| {
            with_lent(|ctx| host_call(lua, &api, &groups, &limits, ctx, &flag, idx, &args))
                .unwrap_or_else(|| Err(not_lent()))
        })?;
        let flag = Rc::clone(issued);
        let pending = lua.create_function(move |_, ()| {
            with_lent(|ctx| flag.get() || ctx.me().is_some_and(|e| !e.actions.is_idle())).ok_or_else(not_lent)
        })?;
        hidden.set("call", call)?;
        hidden.set("pending", pending)?;
        let groups = lua.create_table()?;
        for (i, g) in self.groups.iter().enumerate() {
            let t = lua.create_table()?;
            t.set("index", i)?;
            let query = g.overloads.iter().any(|&k| self.api.function(k).is_some_and(|f| f.ret != Type::Nil));
            t.set("query", query)?;
            let alias = snake_case(g.name);
            let names = if alias == g.name { vec![g.name.to_owned()] } else { vec![g.name.to_owned(), alias] };
            t.set("names", names)?;
            groups.raw_push(t)?;
        }
        lua.load(WRAPPERS).set_name("=[tactica api]").call::<()>((hidden.clone(), groups))?;
        Ok(hidden)
    }
}

impl ScriptBackend for LuaBackend {
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

    fn run(&mut self, program: ProgramId, call: &mut ScriptCall<'_>) -> Result<(), ScriptError> {
        let Some(p) = self.programs.get_mut(program.0 as usize) else {
            return Err(ScriptError::new("lua", 0, 0, "no such Lua program"));
        };
        p.meter.start(p.lua.used_memory());
        let trigger = call.trigger.clone();
        let entity = call.entity;
        let mut ctx = call.ctx();
        let result = run_call(p, &self.limits, &mut ctx, &trigger, entity);
        ctx.finish();
        result.map_err(|e| {
            let err = script_error(&p.file, &p.chunk, &p.source, &e, p.meter.last_line.get());
            if p.meter.watchdog_fired.get() { err.by_watchdog(self.limits.max_wall_ms) } else { err }
        })
    }
}

/// One call: lends the context to `H.call` for its duration, swaps the instance's state table in
/// and out, and runs the handler (and the sequence coroutine) the trigger asks for.
fn run_call(
    p: &mut Program,
    limits: &ScriptLimits,
    ctx: &mut ScriptCtx<'_>,
    trigger: &Trigger,
    entity: Option<EntityId>,
) -> mlua::Result<()> {
    let Program { lua, hidden, sequences, meter, issued, handlers, .. } = p;
    // Host functions only ever write private keys, so the public part of `ctx.state` stays what
    // the call started with until the end: nothing needs copying to restore it after a failure.
    let state = lua.create_table_with_capacity(0, ctx.state.len())?;
    for (k, v) in ctx.state.iter().filter(|(k, _)| !is_private(k)) {
        state.raw_set(k.as_str(), to_lua(lua, v)?)?;
    }
    lua.globals().raw_set("state", state)?;
    issued.set(false);
    let tick = ctx.tick();
    let outcome = lend(ctx, || -> mlua::Result<()> {
        let globals = lua.globals();
        let handlers = RefCell::new(handlers);
        // Until the hook sees a line, an error without a place (out of memory) is reported at
        // the line where the running handler starts.
        let handler = |name: &'static str| -> mlua::Result<Option<Function>> {
            match globals.raw_get::<LuaValue>(name)? {
                LuaValue::Function(f) => {
                    let mut cache = handlers.borrow_mut();
                    let line = match cache.get(name) {
                        Some((known, line)) if *known == f => *line,
                        _ => {
                            let line = f.info().line_defined.and_then(|l| u32::try_from(l).ok()).unwrap_or(0);
                            cache.insert(name, (f.clone(), line));
                            line
                        }
                    };
                    meter.last_line.set(line);
                    Ok(Some(f))
                }
                _ => Ok(None),
            }
        };
        let set_mode = |mode| {
            with_lent(|c: &mut ScriptCtx<'_>| {
                c.flush_pattern();
                c.mode = mode;
            })
        };
        match trigger {
            Trigger::Spawn => {
                if let Some(f) = handler(trigger.handler())? {
                    f.call::<()>(())?;
                }
                if let (Some(id), Some(seq)) = (entity, handler(SEQUENCE)?) {
                    let thread = lua.create_thread(seq)?;
                    sequences.insert(id, (thread, tick));
                    set_mode(ActionMode::Enqueue);
                    resume(hidden, sequences, id, tick)?;
                    set_mode(ActionMode::Request);
                }
            }
            Trigger::Think => {
                if let Some(id) = entity {
                    // Ready once the actions it queued have been applied (a later tick) and run out.
                    let idle =
                        with_lent(|c: &mut ScriptCtx<'_>| c.me().is_some_and(|e| e.actions.is_idle())) == Some(true);
                    if idle && sequences.get(&id).is_some_and(|(_, at)| *at < tick) {
                        set_mode(ActionMode::Enqueue);
                        resume(hidden, sequences, id, tick)?;
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
                    f.call::<()>(lua.globals().raw_get::<LuaValue>("state")?)?;
                }
            }
        }
        with_lent(|c: &mut ScriptCtx<'_>| c.flush_pattern());
        Ok(())
    });
    // The script may have replaced `state` wholesale; whatever table it holds now is kept.
    let kept = match lua.globals().raw_get::<LuaValue>("state")? {
        LuaValue::Nil => Value::Map(Table::new()),
        v => from_lua(&v, limits, 0).map_err(|e| mlua::Error::runtime(format!("`state`: {e}")))?,
    };
    match kept {
        // A failed call keeps the state it started with, plus what host functions recorded.
        Value::Map(_) if outcome.is_err() => {}
        Value::Map(m) => {
            ctx.state.retain(|k, _| is_private(k));
            ctx.state.extend(m.into_iter().filter(|(k, _)| !is_private(k)));
        }
        other => {
            return Err(mlua::Error::runtime(format!("`state` must stay a table, not a {}", other.value_type())));
        }
    }
    outcome
}

/// Resumes `id`'s sequence coroutine; drops it once it has finished or failed.
fn resume(
    hidden: &mlua::Table,
    sequences: &mut BTreeMap<EntityId, (Thread, u64)>,
    id: EntityId,
    tick: u64,
) -> mlua::Result<()> {
    let Some(thread) = sequences.get(&id).map(|(t, _)| t.clone()) else { return Ok(()) };
    if thread.status() != ThreadStatus::Resumable {
        sequences.remove(&id);
        return Ok(());
    }
    hidden.raw_set("seq", thread.clone())?;
    let result = thread.resume::<()>(());
    hidden.raw_set("seq", LuaValue::Nil)?;
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
    let values = args
        .iter()
        .enumerate()
        .map(|(i, a)| from_lua(a, limits, 0).map_err(|e| format!("`{}` argument {}: {e}", group.name, i + 1)))
        .collect::<Result<Vec<Value>, String>>()
        .map_err(mlua::Error::runtime)?;
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

/// "`MoveTo` takes 1 or 2 arguments, got 3".
fn arity_error(api: &Api, group: &Group, got: usize) -> String {
    let mut counts: Vec<usize> =
        group.overloads.iter().filter_map(|&i| api.function(i)).map(|f| f.params.len()).collect();
    counts.sort_unstable();
    counts.dedup();
    let list: Vec<String> = counts.iter().map(usize::to_string).collect();
    format!("`{}` takes {} argument(s), got {got}", group.name, list.join(" or "))
}
