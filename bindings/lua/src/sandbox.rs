//! A sandboxed Lua state: the safe part of the standard library only, no way to load bytecode or
//! reach files, the OS, modules or the debug library, an instruction budget and call-depth check
//! in a hook, and an allocator limit.

use std::cell::Cell;
use std::rc::Rc;

use mlua::{HookTriggers, Lua, LuaOptions, StdLib, VmState};
use tactica_stdlib::ScriptLimits;

/// What the hook and the error reports share with the backend: the operations counted in this
/// call and the last script line the hook saw (for errors Lua reports without a position, such
/// as running out of memory).
#[derive(Debug, Default)]
pub(crate) struct Meter {
    pub(crate) ops: Cell<u64>,
    pub(crate) last_line: Cell<u32>,
    /// When the running call started, for the wall-clock watchdog.
    pub(crate) started: Cell<Option<std::time::Instant>>,
    /// Whether the watchdog stopped the running call.
    pub(crate) watchdog_fired: Cell<bool>,
    /// At a budget stop: the work charged that the count had not reached yet (the rest of one
    /// large charge). With `ops`, all the work the call was charged for, which a stop reports:
    /// how far past the budget one charge can take a call.
    pub(crate) uncounted: Cell<u64>,
    /// What the counting allocator had counted when the call started (host values the call
    /// creates count against the memory limit too; see `tactica_stdlib::memory`).
    pub(crate) allocated_at_start: Cell<tactica_stdlib::memory::Usage>,
    /// The Lua heap when the call started (its growth is already under Lua's own limit).
    pub(crate) lua_heap_at_start: Cell<usize>,
}

impl Meter {
    /// What a budget stop says the call was charged: the operations counted and what one charge
    /// still held when the count passed the budget.
    fn charged(&self) -> String {
        format!(" ({} units of work charged)", self.ops.get().saturating_add(self.uncounted.get()))
    }

    /// Starts counting a new call; `lua_heap` is the state's heap now (0 before it exists).
    pub(crate) fn start(&self, lua_heap: usize) {
        self.lua_heap_at_start.set(lua_heap);
        self.ops.set(0);
        self.watchdog_fired.set(false);
        self.uncounted.set(0);
        // The clock is first read at the hook's first periodic check (6,400 instructions in),
        // not on every call: a call that short is not what the watchdog is for, and reading the
        // clock was a good part of a short call's cost.
        self.started.set(None);
        self.allocated_at_start.set(tactica_stdlib::memory::Usage::now());
    }
}

/// Base-library globals a mod never gets: file access, module loading, code loading (`load` could
/// take a binary chunk) and the collector. Lua's `print` (to standard output) is replaced by one
/// that writes to the trace (`print.rs`).
const REMOVED_GLOBALS: [&str; 7] = ["dofile", "loadfile", "load", "loadstring", "require", "collectgarbage", "print"];

/// A fresh sandboxed state under `limits`, its hook feeding `meter`.
pub(crate) fn new_state(limits: &ScriptLimits, meter: &Rc<Meter>) -> mlua::Result<Lua> {
    // Never `Lua::new()`: its "safe" set still includes io, os and package.
    let libs = StdLib::COROUTINE | StdLib::TABLE | StdLib::STRING | StdLib::UTF8 | StdLib::MATH;
    let lua = Lua::new_with(libs, LuaOptions::new())?;
    let globals = lua.globals();
    for name in REMOVED_GLOBALS {
        globals.raw_set(name, mlua::Value::Nil)?;
    }
    let string: mlua::Table = globals.raw_get("string")?;
    string.raw_set("dump", mlua::Value::Nil)?;
    crate::convert::keep_handles(&lua)?;
    crate::random::install(&lua)?;
    install_hook(&lua, limits, meter)?;
    seal_error_catchers(&lua, limits, meter)?;
    if let Some(bytes) = limits.memory_limit() {
        lua.set_memory_limit(bytes)?;
    }
    Ok(lua)
}

/// The Lua functions that catch errors — `pcall`, `xpcall`, `coroutine.resume` — re-raise once the
/// call is over its instruction budget, and `setmetatable` refuses `__gc` (Lua runs finalizers with
/// hooks off, so a looping finalizer would escape every budget). Without this, `while true do pcall(function() while true
/// do end end) end` runs for ever: the hook's error is raised inside the inner loop, caught by
/// `pcall`, and the outer loop (too short to meet the hook) asks again. Once over budget, every
/// catch hands the error on, so nothing of that call runs again (the hook itself keeps failing
/// every further count, inside handlers and `__close` too).
const SEALED_CATCHERS: &str = r#"
local over, pack, unpack = ...
local raw_pcall, raw_xpcall, raw_resume = pcall, xpcall, coroutine.resume
local function pass(r)
  local over_budget = over()
  if over_budget then error(over_budget, 0) end
  return unpack(r, 1, r.n)
end
pcall = function(...) return pass(pack(raw_pcall(...))) end
xpcall = function(...) return pass(pack(raw_xpcall(...))) end
coroutine.resume = function(...) return pass(pack(raw_resume(...))) end
local raw_setmetatable, raw_rawget, raw_type = setmetatable, rawget, type
setmetatable = function(t, mt)
  if raw_type(mt) == "table" and raw_rawget(mt, "__gc") ~= nil then
    error("__gc is not available to scripts: a finalizer runs when the collector decides, " ..
          "outside the budget of any call; release resources where you stop using them", 2)
  end
  return raw_setmetatable(t, mt)
end
"#;

fn seal_error_catchers(lua: &Lua, limits: &ScriptLimits, meter: &Rc<Meter>) -> mlua::Result<()> {
    let max = limits.ops_limit();
    let m = Rc::clone(meter);
    // `nil` while within budget (or without one), else the message the hook raised (what the
    // caller re-raises).
    let over = lua.create_function(move |_, ()| {
        Ok(max
            .filter(|&max| m.ops.get() > max)
            .map(|max| format!("line {}: instruction budget of {max} exceeded{}", m.last_line.get(), m.charged())))
    })?;
    let table: mlua::Table = lua.globals().raw_get("table")?;
    let (pack, unpack): (mlua::Function, mlua::Function) = (table.raw_get("pack")?, table.raw_get("unpack")?);
    lua.load(SEALED_CATCHERS).set_name("=[tactica sandbox]").call::<()>((over, pack, unpack))
}

fn install_hook(lua: &Lua, limits: &ScriptLimits, meter: &Rc<Meter>) -> mlua::Result<()> {
    let max_ops = limits.ops_limit();
    let max_depth = limits.call_depth_limit();
    let max_wall = limits.wall_limit();
    let max_memory = limits.memory_limit();
    let counting = tactica_stdlib::memory::installed();
    if max_ops.is_none() && max_depth.is_none() && max_wall.is_none() && !(counting && max_memory.is_some()) {
        return Ok(());
    }
    let meter = Rc::clone(meter);
    let every = ScriptLimits::HOOK_GRANULARITY;
    // A global hook: coroutines the script creates inherit it (Lua 5.4 copies the hook into new
    // threads), so no `coroutine.wrap` escapes the budget.
    lua.set_global_hook(HookTriggers::new().every_nth_instruction(every), move |lua, debug| {
        let mut line = debug.current_line().and_then(|l| u32::try_from(l).ok()).unwrap_or(0);
        let ops = meter.ops.get() + u64::from(every);
        meter.ops.set(ops);
        // Inside a library function (which charges its work to this hook, see vendor/lua-src)
        // there is no line: the place is the script line that called it, and the message names
        // the function, so `string.find` with a pattern that backtracks for ever is found.
        // The same inside Tactica's own Lua (the API's wrappers, the sealed `pcall`): its lines
        // are not the script's, so the place is the first script frame below it.
        let ours = |source: Option<&str>| source.is_none_or(|s| !s.starts_with('@'));
        let mut inside = String::new();
        if max_ops.is_some_and(|max| ops > max) && (line == 0 || ours(debug.source().source.as_deref())) {
            if let Some(name) = debug.names().name {
                inside = format!(" inside `{name}`");
            }
            line =
                (1..32)
                    .find_map(|level| {
                        lua.inspect_stack(level, |d| {
                            if ours(d.source().source.as_deref()) { None } else { d.current_line() }
                        })
                        .flatten()
                    })
                    .and_then(|l| u32::try_from(l).ok())
                    .unwrap_or(0);
        }
        if line > 0 {
            meter.last_line.set(line);
        }
        if let Some(max) = max_ops
            && ops > max
        {
            meter.uncounted.set(crate::patched::work_pending(lua));
            let charged = meter.charged();
            return Err(mlua::Error::runtime(format!(
                "line {line}: instruction budget of {max} exceeded{inside}{charged}"
            )));
        }
        // With the counting allocator installed, whatever the call makes live — the Lua heap and
        // the host values it asks for alike — counts against the memory limit.
        // Lua's heap is under Lua's own limit (which collects garbage before it fails); what the
        // allocator saw grow besides it is host values, counted on top of the heap.
        let over_memory = || {
            let heap = i64::try_from(lua.used_memory()).unwrap_or(i64::MAX);
            let heap_growth = heap - i64::try_from(meter.lua_heap_at_start.get()).unwrap_or(0);
            let host = meter.allocated_at_start.get().elapsed().live - heap_growth;
            heap + host.max(0) > i64::try_from(max_memory.unwrap_or(usize::MAX)).unwrap_or(i64::MAX)
        };
        // Read every 64th hook call (6,400 instructions), with the clock: host values come only
        // from host calls, and the Lua heap has its own limit besides.
        let periodic = (ops / u64::from(every)).is_multiple_of(64);
        if let Some(max) = max_memory
            && counting
            && periodic
            && over_memory()
        {
            return Err(mlua::Error::runtime(format!("line {line}: memory limit of {max} bytes exceeded{inside}")));
        }
        // The clock is read every 64th hook call (6,400 instructions): cheap, and soon enough.
        if let Some(wall) = max_wall
            && periodic
            && match meter.started.get() {
                Some(t) => t.elapsed() > wall,
                None => {
                    meter.started.set(Some(std::time::Instant::now()));
                    false
                }
            }
        {
            meter.watchdog_fired.set(true);
            return Err(mlua::Error::runtime(format!(
                "line {line}: stopped by the wall-clock watchdog after {} ms",
                wall.as_millis()
            )));
        }
        if let Some(depth) = max_depth
            && lua.inspect_stack(depth, |_| ()).is_some()
        {
            return Err(mlua::Error::runtime(format!("line {line}: call depth limit of {depth} exceeded")));
        }
        Ok(VmState::Continue)
    })
}
