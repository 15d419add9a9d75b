//! The patched Lua's additions to its C API (the `tactica-lua-src` crate, `vendor/lua-src`,
//! marked `TACTICA` there), as the host calls them.

// Referenced here, so the linker keeps the crate that provides Lua's symbols: mlua-sys links
// none in its `external` mode.
pub(crate) use tactica_lua_src::{
    lua_chargelater, lua_chargework, lua_clearcharges, lua_memerrorline, lua_workpending,
};

/// Starts a call's count afresh: work charged in an earlier call and never counted (that call
/// ended with an error first) is not the new call's, and the count hook's countdown starts whole.
/// Without the second, where a budget ran out (inside a host call or at a script instruction,
/// so whether the stop names the call) depended on how many instructions everything before the
/// call had run modulo the hook's granularity: loading more API functions moved it.
pub(crate) fn clear_charges(lua: &mlua::Lua) {
    // SAFETY: resets counters of the state; `lua_sethook` with the hook, mask and count it
    // already has only restarts the countdown (the hook itself is unchanged).
    lua.exec_raw_lua(|raw| unsafe {
        let l = raw.state();
        lua_clearcharges(l);
        let mask = mlua::ffi::lua_gethookmask(l);
        if mask != 0 {
            mlua::ffi::lua_sethook(l, mlua::ffi::lua_gethook(l), mask, mlua::ffi::lua_gethookcount(l));
        }
    });
}

/// Charges `work` units to `lua`'s count hook at the script's next instruction (see
/// [`lua_chargelater`]).
pub(crate) fn charge_later(lua: &mlua::Lua, work: usize) {
    if work == 0 {
        return;
    }
    // SAFETY: only adds to the state's count; nothing is pushed or raised.
    lua.exec_raw_lua(|raw| unsafe { lua_chargelater(raw.state(), work) });
}

/// The script line `lua` last ran out of memory at (0 when unknown).
pub(crate) fn memory_error_line(lua: &mlua::Lua) -> u32 {
    // SAFETY: reads one field of the state.
    let line = lua.exec_raw_lua(|raw| unsafe { lua_memerrorline(raw.state()) });
    u32::try_from(line).unwrap_or(0)
}

/// Inside the count hook: the work already charged that this hook call has not counted (see
/// [`lua_workpending`]).
pub(crate) fn work_pending(lua: &mlua::Lua) -> u64 {
    // SAFETY: reads one field of the state.
    let pending = lua.exec_raw_lua(|raw| unsafe { lua_workpending(raw.state()) });
    u64::try_from(pending).unwrap_or(u64::MAX)
}
