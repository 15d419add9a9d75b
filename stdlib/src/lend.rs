//! Lending the call's [`ScriptCtx`] to the host functions a script engine calls back into.
//!
//! Functions registered with an embedded engine (Lua's, made once per state; Rhai's) must be
//! `'static`, but the context borrows the world for one call only. [`lend`] publishes a pointer to it in a thread-local slot for exactly the duration of
//! the script call (a guard restores the slot, also on unwinding), and [`with_lent`] takes it out
//! of the slot while a host function uses it, so there is never a second `&mut` to it. This is
//! the `scoped-tls` pattern, written out because the context's type has a lifetime. Both bindings
//! share this one slot; the guard makes nested lends (a call inside a call) restore correctly.

use std::cell::Cell;
use std::ptr;

use crate::ScriptCtx;

thread_local! {
    static LENT: Cell<*mut ()> = const { Cell::new(ptr::null_mut()) };
}

/// Puts the slot back to what it held when the guard was made.
struct Restore(*mut ());

impl Drop for Restore {
    fn drop(&mut self) {
        LENT.with(|slot| slot.set(self.0));
    }
}

/// Runs `f` with `ctx` lent to the host functions it calls.
pub fn lend<R>(ctx: &mut ScriptCtx<'_>, f: impl FnOnce() -> R) -> R {
    let raw: *mut ScriptCtx<'_> = ctx;
    let previous = LENT.with(|slot| slot.replace(raw.cast::<()>()));
    let _restore = Restore(previous);
    f()
}

/// Runs `f` on the lent context; `None` when nothing is lent (a host function called outside a
/// script call, or from inside another host function).
pub fn with_lent<R>(f: impl FnOnce(&mut ScriptCtx<'_>) -> R) -> Option<R> {
    let raw = LENT.with(|slot| slot.replace(ptr::null_mut()));
    if raw.is_null() {
        return None;
    }
    let _restore = Restore(raw);
    // SAFETY: `raw` was stored by `lend` from a `&mut ScriptCtx` that is alive for the whole of
    // that `lend` call, and we are inside it (its guard clears the slot when it returns). The slot
    // is emptied while `f` runs, so this is the only reference to the context. `f` is generic
    // over the reference's lifetimes, so nothing borrowed from the context can outlive this call.
    let ctx = unsafe { &mut *raw.cast::<ScriptCtx<'_>>() };
    Some(f(ctx))
}
