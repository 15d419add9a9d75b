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
}

/// Base-library globals a mod never gets: file access, module loading, code loading (`load` could
/// take a binary chunk) and the collector.
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
    install_hook(&lua, limits, meter)?;
    if let Some(bytes) = limits.memory_limit() {
        lua.set_memory_limit(bytes)?;
    }
    Ok(lua)
}

fn install_hook(lua: &Lua, limits: &ScriptLimits, meter: &Rc<Meter>) -> mlua::Result<()> {
    let max_ops = limits.ops_limit();
    let max_depth = limits.call_depth_limit();
    if max_ops.is_none() && max_depth.is_none() {
        return Ok(());
    }
    let meter = Rc::clone(meter);
    let every = ScriptLimits::HOOK_GRANULARITY;
    // A global hook: coroutines the script creates inherit it (Lua 5.4 copies the hook into new
    // threads), so no `coroutine.wrap` escapes the budget.
    lua.set_global_hook(HookTriggers::new().every_nth_instruction(every), move |lua, debug| {
        let line = debug.current_line().and_then(|l| u32::try_from(l).ok()).unwrap_or(0);
        if line > 0 {
            meter.last_line.set(line);
        }
        let ops = meter.ops.get() + u64::from(every);
        meter.ops.set(ops);
        if let Some(max) = max_ops
            && ops > max
        {
            return Err(mlua::Error::runtime(format!("line {line}: instruction budget of {max} exceeded")));
        }
        if let Some(depth) = max_depth
            && lua.inspect_stack(depth, |_| ()).is_some()
        {
            return Err(mlua::Error::runtime(format!("line {line}: call depth limit of {depth} exceeded")));
        }
        Ok(VmState::Continue)
    })
}
