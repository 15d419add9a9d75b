//! The vendored Lua's additions (`vendor/lua-src`, marked `TACTICA` there), as the host calls
//! them.

use mlua::ffi::lua_State;

unsafe extern "C-unwind" {
    /// Charges `work` units to the count hook now, as if that many instructions had run: when
    /// the budget runs out the hook raises its error from inside this call. Only for a frame that
    /// owns nothing Rust would have to drop (a hook error unwinds it with `longjmp`).
    pub(crate) fn lua_chargework(l: *mut lua_State, work: usize);
    /// Charges `work` units without calling the hook: it sees them at the script's next
    /// instruction. Safe from anywhere, Rust frames included.
    pub(crate) fn lua_chargelater(l: *mut lua_State, work: usize);
    /// The script line that was running when the state last ran out of memory (0 when unknown):
    /// Lua's memory errors carry no place of their own.
    pub(crate) fn lua_memerrorline(l: *mut lua_State) -> std::ffi::c_int;
    /// Forgets work charged with [`lua_chargelater`] (or inside the VM) that the hook has not
    /// counted yet.
    pub(crate) fn lua_clearcharges(l: *mut lua_State);
    /// Inside the count hook: the work charged and not yet counted, which a stop raised by the
    /// hook leaves uncounted (the rest of one large charge).
    pub(crate) fn lua_workpending(l: *mut lua_State) -> usize;
}

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
