//! The host functions as Lua C closures that read their arguments straight off the Lua stack.
//!
//! Every name of the table (`DistanceToPlayer`, `distance_to_player`) is one C closure over the
//! [`Shared`] state of its Lua state and its overload group. A call whose arguments are nil,
//! booleans, numbers, strings, entity handles or vectors and whose result is nil, a boolean or a
//! number never leaves this file: no Lua wrapper, no `Vec`, no mlua value handles. Anything else
//! (a table argument, a string or list result …) takes the general path through mlua — `slow` for
//! the arguments, `push` for the result — with the same conversions as before.
//!
//! Lua errors unwind by `longjmp`, which must never cross a Rust frame that still owns something:
//! values that live across a call into Lua (the result being pushed, the error message) are kept
//! in [`Shared`], not on the stack of these functions.

use std::cell::{Cell, UnsafeCell};
use std::ffi::{c_int, c_void};
use std::rc::Rc;

use mlua::ffi::{self, lua_State};
use slotmap::{Key, KeyData};
use tactica_engine::world::EntityId;
use tactica_stdlib::lend::with_lent;

use crate::patched::lua_chargework;
use tactica_stdlib::{Api, ScriptLimits, Type, Value};

/// One overloaded name of the table: the indices of its overloads in [`Api::function`].
#[derive(Debug, Clone)]
pub(crate) struct Group {
    pub(crate) overloads: Vec<usize>,
    pub(crate) name: &'static str,
    /// Whether any overload returns a value: a query, which a sequence waits before.
    pub(crate) query: bool,
}

/// What the host closures of one Lua state share.
pub(crate) struct Shared {
    pub(crate) api: Rc<Api>,
    pub(crate) groups: Rc<Vec<Group>>,
    pub(crate) limits: ScriptLimits,
    /// Whether this call has issued an action (a sequence's next query waits for it).
    pub(crate) issued: Rc<Cell<bool>>,
    /// The thread of the sequence coroutine being resumed (null when none runs).
    pub(crate) seq: Cell<*const c_void>,
    /// The metatables of entity handles and vectors (see [`crate::convert`]).
    pub(crate) entity_mt: Cell<*const c_void>,
    pub(crate) vec2_mt: Cell<*const c_void>,
    /// The result being handed to `push`.
    pub(crate) out: Cell<Value>,
    /// The message of the error being raised.
    err: UnsafeCell<String>,
}

impl Shared {
    pub(crate) fn new(api: Rc<Api>, groups: Rc<Vec<Group>>, limits: ScriptLimits, issued: Rc<Cell<bool>>) -> Self {
        Shared {
            api,
            groups,
            limits,
            issued,
            seq: Cell::new(std::ptr::null()),
            entity_mt: Cell::new(std::ptr::null()),
            vec2_mt: Cell::new(std::ptr::null()),
            out: Cell::new(Value::Nil),
            err: UnsafeCell::new(String::new()),
        }
    }
}

/// An entity handle as the integer kept in its userdata's first user value.
pub(crate) fn entity_bits(id: EntityId) -> i64 {
    id.data().as_ffi().cast_signed()
}

/// A vector's two `f32`s as the integer kept in its userdata's first user value.
pub(crate) fn vec2_bits(p: glam::Vec2) -> i64 {
    (u64::from(p.x.to_bits()) | (u64::from(p.y.to_bits()) << 32)).cast_signed()
}

fn entity_of(bits: i64) -> EntityId {
    KeyData::from_ffi(bits.cast_unsigned()).into()
}

fn vec2_of(bits: i64) -> glam::Vec2 {
    let b = bits.cast_unsigned();
    glam::Vec2::new(f32::from_bits(b as u32), f32::from_bits((b >> 32) as u32))
}

/// Pushes the C closure for group `index` (upvalues: the shared state, the index, `slow`, `push`).
///
/// # Safety
/// `l` is a Lua state with `slow` and `push` at stack indices `slow` and `push`; `shared` stays
/// alive as long as the closure can be called.
pub(crate) unsafe fn push_closure(l: *mut lua_State, shared: *const Shared, index: usize, slow: c_int, push: c_int) {
    unsafe {
        ffi::lua_pushlightuserdata(l, shared.cast_mut().cast::<c_void>());
        ffi::lua_pushinteger(l, index as ffi::lua_Integer);
        ffi::lua_pushvalue(l, slow);
        ffi::lua_pushvalue(l, push);
        ffi::lua_pushcclosure(l, host_entry, 4);
    }
}

/// The closure's shared state and group.
unsafe fn upvalues<'s>(l: *mut lua_State) -> (&'s Shared, usize) {
    unsafe {
        let shared = &*ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)).cast::<Shared>();
        let index =
            usize::try_from(ffi::lua_tointegerx(l, ffi::lua_upvalueindex(2), std::ptr::null_mut())).unwrap_or(0);
        (shared, index)
    }
}

/// What a host call costs against the instruction budget, in VM instructions: about what the
/// Lua wrapper each call went through used to count. Charged first, before this frame owns
/// anything, so a budget that runs out here stops the script inside the call (`… inside
/// `Random``), as a library function's work does.
pub(crate) const HOST_CALL_WORK: usize = 8;

unsafe extern "C-unwind" fn host_entry(l: *mut lua_State) -> c_int {
    unsafe {
        // Strings handed in are copied into the host: one unit per 16 bytes, with the call.
        let mut bytes = 0usize;
        for i in 1..=ffi::lua_gettop(l) {
            if ffi::lua_type(l, i) == ffi::LUA_TSTRING {
                bytes = bytes.saturating_add(ffi::lua_rawlen(l, i));
            }
        }
        lua_chargework(l, HOST_CALL_WORK + bytes / 16);
        let (shared, index) = upvalues(l);
        // In a sequence, a query first waits until what the sequence issued has been carried
        // out: the coroutine yields here and the call goes on when it is resumed.
        if shared.groups.get(index).is_some_and(|g| g.query)
            && std::ptr::eq(l.cast_const().cast::<c_void>(), shared.seq.get())
            && pending(shared)
        {
            park_arguments(l);
            return ffi::lua_yieldk(l, 0, 0, Some(host_continue));
        }
        host_body(l, shared, index)
    }
}

unsafe extern "C-unwind" fn host_continue(l: *mut lua_State, _status: c_int, _ctx: ffi::lua_KContext) -> c_int {
    unsafe {
        unpark_arguments(l);
        let (shared, index) = upvalues(l);
        host_body(l, shared, index)
    }
}

/// The registry field of the table where host calls waiting in a sequence keep their arguments,
/// one entry per coroutine (a coroutine holds at most one waiting call). Its keys are weak: a
/// sequence dropped while it waits takes its entry with it.
const PARKED: &std::ffi::CStr = c"tactica.parked_arguments";

/// Pushes the table of parked arguments, made on first use.
unsafe fn parked_table(l: *mut lua_State) {
    unsafe {
        if ffi::lua_getfield(l, ffi::LUA_REGISTRYINDEX, PARKED.as_ptr()) == ffi::LUA_TTABLE {
            return;
        }
        ffi::lua_pop(l, 1);
        ffi::lua_createtable(l, 0, 4);
        ffi::lua_createtable(l, 0, 1);
        ffi::lua_pushstring(l, c"k".as_ptr());
        ffi::lua_setfield(l, -2, c"__mode".as_ptr());
        ffi::lua_setmetatable(l, -2);
        ffi::lua_pushvalue(l, -1);
        ffi::lua_setfield(l, ffi::LUA_REGISTRYINDEX, PARKED.as_ptr());
    }
}

/// Moves the call's arguments off the stack into the parked table, under this coroutine, before
/// the call waits (yields). Nothing may stay on a yielded C function's stack: whoever resumes the
/// coroutine owns its top (mlua's `Thread::resume` resets it to empty once the coroutine yields,
/// which left every argument `nil` when the call went on).
unsafe fn park_arguments(l: *mut lua_State) {
    unsafe {
        let nargs = ffi::lua_gettop(l);
        ffi::lua_createtable(l, nargs, 1);
        ffi::lua_rotate(l, 1, 1);
        // The arguments are now 2..=nargs+1; each `rawseti` takes the top one.
        for i in (1..=nargs).rev() {
            ffi::lua_rawseti(l, 1, ffi::lua_Integer::from(i));
        }
        ffi::lua_pushinteger(l, ffi::lua_Integer::from(nargs));
        ffi::lua_setfield(l, 1, c"n".as_ptr());
        parked_table(l);
        ffi::lua_pushthread(l);
        ffi::lua_pushvalue(l, 1);
        ffi::lua_rawset(l, -3);
        ffi::lua_settop(l, 0);
    }
}

/// Puts back on the stack the arguments [`park_arguments`] kept for this coroutine, and forgets
/// them.
unsafe fn unpark_arguments(l: *mut lua_State) {
    unsafe {
        ffi::lua_settop(l, 0);
        parked_table(l);
        ffi::lua_pushthread(l);
        ffi::lua_rawget(l, 1);
        ffi::lua_pushthread(l);
        ffi::lua_pushnil(l);
        ffi::lua_rawset(l, 1);
        // [parked, args]
        let n = if ffi::lua_type(l, 2) == ffi::LUA_TTABLE {
            ffi::lua_getfield(l, 2, c"n".as_ptr());
            let n = ffi::lua_tointegerx(l, -1, std::ptr::null_mut());
            ffi::lua_pop(l, 1);
            c_int::try_from(n).unwrap_or(0)
        } else {
            0
        };
        ffi::luaL_checkstack(l, n, c"too many arguments".as_ptr());
        for i in 1..=n {
            ffi::lua_rawgeti(l, 2, ffi::lua_Integer::from(i));
        }
        // [parked, args, a1 … an] → [a1 … an]
        ffi::lua_rotate(l, 1, n);
        ffi::lua_settop(l, n);
    }
}

/// Whether the sequence's last actions are still to be carried out.
fn pending(shared: &Shared) -> bool {
    shared.issued.get() || with_lent(|ctx| ctx.me().is_some_and(|e| !e.actions.is_idle())).unwrap_or(false)
}

/// What [`call`] decided.
enum Step {
    /// This many results are on the stack.
    Done(c_int),
    /// An argument needs the general path: nothing has run yet.
    Slow,
    /// The result is in `Shared::out` for `push`.
    Push,
    /// The message is in `Shared::err`.
    Fail,
}

unsafe fn host_body(l: *mut lua_State, shared: &Shared, index: usize) -> c_int {
    unsafe {
        match call(l, shared, index) {
            Step::Done(n) => n,
            Step::Slow => {
                // `slow(index, ...)`: the arguments stay where they are.
                let nargs = ffi::lua_gettop(l);
                ffi::lua_pushvalue(l, ffi::lua_upvalueindex(3));
                ffi::lua_pushinteger(l, index as ffi::lua_Integer);
                ffi::lua_rotate(l, 1, 2);
                ffi::lua_call(l, nargs + 1, ffi::LUA_MULTRET);
                ffi::lua_gettop(l)
            }
            Step::Push => {
                ffi::lua_settop(l, 0);
                ffi::lua_pushvalue(l, ffi::lua_upvalueindex(4));
                ffi::lua_call(l, 0, 1);
                1
            }
            Step::Fail => raise(l, shared),
        }
    }
}

/// Raises the message in `Shared::err` as a Lua error, placed at the script line that made
/// the call (`file.lua:7: …`, as a failed host call's traceback placed it before).
unsafe fn raise(l: *mut lua_State, shared: &Shared) -> c_int {
    unsafe {
        let msg = &mut *shared.err.get();
        let mut ar: ffi::lua_Debug = std::mem::zeroed();
        let mut level = 1;
        while ffi::lua_getstack(l, level, &raw mut ar) != 0 {
            if ffi::lua_getinfo(l, c"Sl".as_ptr(), &raw mut ar) != 0
                && !ar.source.is_null()
                && *ar.source == b'@' as std::ffi::c_char
                && ar.currentline > 0
            {
                let src = std::ffi::CStr::from_ptr(ar.short_src.as_ptr()).to_string_lossy();
                let place = format!("{src}:{}: ", ar.currentline);
                msg.insert_str(0, &place);
                break;
            }
            level += 1;
        }
        ffi::lua_settop(l, 0);
        ffi::lua_pushlstring(l, msg.as_ptr().cast(), msg.len());
        ffi::lua_error(l)
    }
}

/// Reads the arguments, runs the host function and pushes a plain result. Every Rust value it
/// makes is gone when it returns.
unsafe fn call(l: *mut lua_State, shared: &Shared, index: usize) -> Step {
    let fail = |m: String| {
        // SAFETY: the message buffer is only used here and in `raise`, one call at a time.
        unsafe { *shared.err.get() = m };
        Step::Fail
    };
    let Some(group) = shared.groups.get(index) else { return fail("no such host function".to_owned()) };
    let nargs = unsafe { ffi::lua_gettop(l) };
    let n = usize::try_from(nargs).unwrap_or(0);
    let api = &shared.api;
    let Some(f) = group.overloads.iter().filter_map(|&i| api.function(i)).find(|f| f.params.len() == n) else {
        // Arguments the general path would refuse are reported first, as it does.
        for i in 0..n {
            match unsafe { read(l, i as c_int + 1, shared) } {
                Some(Ok(_)) => {}
                Some(Err(e)) => return fail(format!("`{}` argument {}: {e}", group.name, i + 1)),
                None => return Step::Slow,
            }
        }
        return fail(arity_error(api, group, n));
    };
    let arg = |i: usize| match unsafe { read(l, i as c_int + 1, shared) } {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(fail(format!("`{}` argument {}: {e}", group.name, i + 1))),
        None => Err(Step::Slow),
    };
    let run = |args: &[Value]| with_lent(|ctx| f.call(ctx, args));
    // Up to three arguments are read onto this stack, not into a `Vec`.
    let called = match n {
        0 => run(&[]),
        // In order: the first argument that fails is the one reported.
        1 => {
            let a = match arg(0) {
                Ok(v) => v,
                Err(step) => return step,
            };
            run(&[a])
        }
        2 => {
            let a = match arg(0) {
                Ok(v) => v,
                Err(step) => return step,
            };
            let b = match arg(1) {
                Ok(v) => v,
                Err(step) => return step,
            };
            run(&[a, b])
        }
        3 => {
            let a = match arg(0) {
                Ok(v) => v,
                Err(step) => return step,
            };
            let b = match arg(1) {
                Ok(v) => v,
                Err(step) => return step,
            };
            let c = match arg(2) {
                Ok(v) => v,
                Err(step) => return step,
            };
            run(&[a, b, c])
        }
        _ => match (0..n).map(arg).collect::<Result<Vec<Value>, Step>>() {
            Ok(args) => run(&args),
            Err(step) => return step,
        },
    };
    let out = match called {
        Some(Ok(v)) => v,
        Some(Err(e)) => return fail(e.to_string()),
        None => {
            return fail("host functions can only be called from a handler (on_think …), not while loading".to_owned());
        }
    };
    if f.ret == Type::Nil {
        shared.issued.set(true);
    }
    unsafe {
        ffi::lua_settop(l, 0);
        match out {
            Value::Nil => ffi::lua_pushnil(l),
            Value::Bool(b) => ffi::lua_pushboolean(l, c_int::from(b)),
            Value::Int(i) => ffi::lua_pushinteger(l, i),
            Value::Float(x) => ffi::lua_pushnumber(l, x),
            other => {
                shared.out.set(other);
                return Step::Push;
            }
        }
    }
    Step::Done(1)
}

/// The value at `idx` when it can be read without mlua: `None` for tables, functions and other
/// userdata (the general path converts those).
unsafe fn read(l: *mut lua_State, idx: c_int, shared: &Shared) -> Option<Result<Value, String>> {
    unsafe {
        Some(Ok(match ffi::lua_type(l, idx) {
            ffi::LUA_TNIL => Value::Nil,
            ffi::LUA_TBOOLEAN => Value::Bool(ffi::lua_toboolean(l, idx) != 0),
            ffi::LUA_TNUMBER => {
                if ffi::lua_isinteger(l, idx) != 0 {
                    Value::Int(ffi::lua_tointegerx(l, idx, std::ptr::null_mut()))
                } else {
                    Value::Float(ffi::lua_tonumberx(l, idx, std::ptr::null_mut()))
                }
            }
            ffi::LUA_TSTRING => {
                let mut len = 0usize;
                let p = ffi::lua_tolstring(l, idx, &raw mut len);
                let bytes = std::slice::from_raw_parts(p.cast::<u8>(), len);
                if shared.limits.string_limit().is_some_and(|max| len > max) {
                    return Some(Err(format!(
                        "a string of {len} bytes is over the limit of {}",
                        shared.limits.max_string_len
                    )));
                }
                Value::Str(String::from_utf8_lossy(bytes).into_owned())
            }
            ffi::LUA_TUSERDATA => {
                if ffi::lua_getmetatable(l, idx) == 0 {
                    return None;
                }
                let mt = ffi::lua_topointer(l, -1);
                ffi::lua_settop(l, -2);
                let entity = std::ptr::eq(mt, shared.entity_mt.get());
                if !entity && !std::ptr::eq(mt, shared.vec2_mt.get()) {
                    return None;
                }
                let mut isnum = 0;
                ffi::lua_getiuservalue(l, idx, 1);
                let bits = ffi::lua_tointegerx(l, -1, &raw mut isnum);
                ffi::lua_settop(l, -2);
                if isnum == 0 {
                    return None;
                }
                if entity { Value::Entity(entity_of(bits)) } else { Value::Vec2(vec2_of(bits)) }
            }
            _ => return None,
        }))
    }
}

/// "`MoveTo` takes 1 or 2 argument(s), got 3".
pub(crate) fn arity_error(api: &Api, group: &Group, got: usize) -> String {
    let mut counts: Vec<usize> =
        group.overloads.iter().filter_map(|&i| api.function(i)).map(|f| f.params.len()).collect();
    counts.sort_unstable();
    counts.dedup();
    let list: Vec<String> = counts.iter().map(usize::to_string).collect();
    format!("`{}` takes {} argument(s), got {got}", group.name, list.join(" or "))
}

/// The message handler of routine calls: what mlua's own handler for [`mlua::Function::call`]
/// does — an error that is not one of mlua's becomes its text with a traceback (the traceback is
/// where a host error's line is found) — as a closure over [`Shared`] to tell handles and vectors
/// from mlua's errors.
pub(crate) fn traceback_handler(lua: &mlua::Lua, shared: &Rc<Shared>) -> mlua::Result<mlua::Function> {
    // SAFETY: builds a C closure over a pointer that the host closures' `push` keeps alive.
    unsafe {
        lua.exec_raw((), |l| {
            ffi::lua_pushlightuserdata(l, Rc::as_ptr(shared).cast_mut().cast::<c_void>());
            ffi::lua_pushcclosure(l, traceback, 1);
        })
    }
}

unsafe extern "C-unwind" fn traceback(l: *mut lua_State) -> c_int {
    unsafe {
        if ffi::lua_checkstack(l, 2) == 0 {
            return 1;
        }
        if ffi::lua_type(l, -1) == ffi::LUA_TUSERDATA {
            let shared = &*ffi::lua_touserdata(l, ffi::lua_upvalueindex(1)).cast::<Shared>();
            let mt = if ffi::lua_getmetatable(l, -1) != 0 {
                let p = ffi::lua_topointer(l, -1);
                ffi::lua_settop(l, -2);
                p
            } else {
                std::ptr::null()
            };
            // mlua's wrapped errors (the budget's, a host call's) pass as they are.
            if !std::ptr::eq(mt, shared.entity_mt.get()) && !std::ptr::eq(mt, shared.vec2_mt.get()) {
                return 1;
            }
        }
        let s = ffi::luaL_tolstring(l, -1, std::ptr::null_mut());
        if ffi::lua_checkstack(l, ffi::LUA_TRACEBACK_STACK) != 0 {
            ffi::luaL_traceback(l, l, s, 0);
            ffi::lua_remove(l, -2);
        }
        1
    }
}
