//! Lua 5.4.9 with the patches Tactica's sandbox relies on, compiled and linked for mlua.
//!
//! Depending on this crate gives a program exactly one Lua: the C sources in this crate,
//! patched so that a modder's script cannot make a game's trace depend on the run (string and
//! table iteration order, `tostring` of a table, `table.sort`'s pivots, `math.random`'s seed) nor
//! hide work from the instruction budget (library functions and long VM instructions charge the
//! count hook for what they do). The crate's `README.md` lists every change; each is marked
//! `TACTICA` in the sources.
//!
//! mlua reaches these symbols through `mlua-sys`'s `external` feature, which this crate turns
//! on: mlua-sys then builds no Lua of its own. A build that also asks for mlua's `vendored` Lua
//! stops with mlua-sys's "mutually exclusive" error rather than linking an unpatched Lua.
//!
//! The functions below are the patches' additions to Lua's C API. Tactica's Lua binding
//! (`tactica-lua`) calls them; a game has no reason to.
//!
//! ```
//! use tactica_lua_src::{lua_chargelater, lua_clearcharges};
//!
//! // SAFETY: a fresh state, closed at the end; the charges only move counters.
//! unsafe {
//!     let l = mlua_sys::luaL_newstate();
//!     lua_chargelater(l, 10);
//!     lua_clearcharges(l);
//!     mlua_sys::lua_close(l);
//! }
//! ```
#![no_std]
#![deny(missing_docs)]

pub use mlua_sys::lua_State;

unsafe extern "C-unwind" {
    /// Charges `work` units to the count hook now, as if that many VM instructions had run:
    /// when the hook's counter runs out the hook is called from inside this call (and an error
    /// it raises unwinds from here with `longjmp`). Does nothing without a count hook.
    ///
    /// # Safety
    /// `l` is a live state, and the calling frame owns nothing that would have to be dropped:
    /// a hook error unwinds it without running destructors.
    pub fn lua_chargework(l: *mut lua_State, work: usize);
    /// Charges `work` units without calling the hook: the hook sees them at the script's next
    /// instruction (or the next [`lua_chargework`]). Does nothing without a count hook.
    ///
    /// # Safety
    /// `l` is a live state.
    pub fn lua_chargelater(l: *mut lua_State, work: usize);
    /// Forgets work charged with [`lua_chargelater`] (or inside the VM) that the hook has not
    /// counted yet.
    ///
    /// # Safety
    /// `l` is a live state.
    pub fn lua_clearcharges(l: *mut lua_State);
    /// The script line that was running when the state last ran out of memory, or 0 when
    /// unknown: Lua's memory errors carry no place of their own.
    ///
    /// # Safety
    /// `l` is a live state.
    pub fn lua_memerrorline(l: *mut lua_State) -> core::ffi::c_int;
    /// Inside the count hook: the work charged and not yet counted, which a stop raised by the
    /// hook leaves uncounted (the rest of one large charge).
    ///
    /// # Safety
    /// `l` is a live state.
    pub fn lua_workpending(l: *mut lua_State) -> usize;
    /// A number for the collectable value at stack index `idx` that depends only on the order
    /// values were created in (never an address): what `tostring` of a table prints.
    ///
    /// # Safety
    /// `l` is a live state and `idx` a valid index.
    pub fn lua_stableid(l: *mut lua_State, idx: core::ffi::c_int) -> core::ffi::c_uint;
}
