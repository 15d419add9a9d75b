//! TACTICA: what a game that runs modders' scripts needs beyond Rhai's own limits (see the
//! crate's `README.md`, which lists every change marked `TACTICA`).
//!
//! - **Work beyond the operation count.** Rhai counts one operation per step whatever the step
//!   does; a library function that scans or moves a whole string or array (`s.len()` counts the
//!   characters, `a.insert(0, x)` moves every element, `a == b` compares them all) is one step.
//!   Such functions call [`charge`] with the work they do (one unit per element, one per 16 bytes
//!   of text); the embedder starts a count with [`take_work`] and reads it with [`work`] in
//!   `Engine::on_progress`.
//! - **Shared values that outlive their call.** A closure that captures a variable makes it shared
//!   (`Rc`/`Arc` with a lock); a shared value that ends up holding the closure that captures it is
//!   a reference cycle, never freed. With [`track_shared`] on, every shared value made on this
//!   thread is noted, and [`release_shared`] empties every one still alive — which breaks every
//!   cycle — when the embedder's call is over and nothing of it is used again.

use crate::Dynamic;
use std::cell::{Cell, RefCell};

thread_local! {
    /// Work charged on this thread since the last [`take_work`].
    static WORK: Cell<u64> = const { Cell::new(0) };
    /// Whether shared values made on this thread are noted.
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    /// The shared values noted since the last [`release_shared`].
    #[cfg(not(feature = "no_closure"))]
    static SHARED: RefCell<Vec<Weak>> = const { RefCell::new(Vec::new()) };
}

#[cfg(all(not(feature = "no_closure"), not(feature = "sync")))]
type Weak = std::rc::Weak<crate::Locked<Dynamic>>;
#[cfg(all(not(feature = "no_closure"), feature = "sync"))]
type Weak = std::sync::Weak<crate::Locked<Dynamic>>;

/// What calling a native function costs beyond its one operation: finding it (the resolution
/// cache), checking its arguments and dispatching took about as long as eight operations of a
/// plain loop (`loop {}`) when measured, before the function does any work of its own.
pub const NATIVE_CALL_WORK: u64 = 8;

/// Charges `units` of work done inside a library function to this thread's count.
#[inline]
pub fn charge(units: u64) {
    if units > 0 {
        WORK.with(|w| w.set(w.get().saturating_add(units)));
    }
}

/// Charges scanning `bytes` bytes of text: one unit per 16 bytes.
#[inline]
pub fn charge_bytes(bytes: usize) {
    charge(bytes as u64 / 16);
}

/// Charges comparing two strings of `a` and `b` bytes: up to the shorter one.
#[inline]
pub fn charge_compare(a: usize, b: usize) {
    charge_bytes(a.min(b));
}

/// Charges sorting `n` elements: `n ⌈log₂ n⌉` comparisons.
#[inline]
pub fn charge_sort(n: usize) {
    if n > 1 {
        let n = n as u64;
        charge(n * u64::from(64 - (n - 1).leading_zeros()));
    }
}

/// The work charged on this thread since the last [`take_work`], and starts counting again from
/// zero.
#[inline]
pub fn take_work() -> u64 {
    WORK.with(|w| w.replace(0))
}

/// The work charged on this thread since the last [`take_work`].
#[inline]
pub fn work() -> u64 {
    WORK.with(Cell::get)
}

/// Starts (or stops) noting the shared values made on this thread.
pub fn track_shared(on: bool) {
    TRACKING.with(|t| t.set(on));
}

/// Notes `cell`, a shared value just made (called by `Dynamic::into_shared`).
#[cfg(not(feature = "no_closure"))]
pub(crate) fn note_shared(cell: &crate::Shared<crate::Locked<Dynamic>>) {
    if TRACKING.with(Cell::get) {
        SHARED.with(|s| s.borrow_mut().push(crate::Shared::downgrade(cell)));
    }
}

/// Empties every shared value noted since the last call that is still alive (each now holds
/// `()`), breaking any reference cycle among them; returns how many there were. Call it when
/// nothing made since the last call is used again.
pub fn release_shared() -> usize {
    #[cfg(not(feature = "no_closure"))]
    {
        let noted = SHARED.with(|s| std::mem::take(&mut *s.borrow_mut()));
        let mut alive = 0;
        for weak in &noted {
            if let Some(cell) = weak.upgrade() {
                alive += 1;
                // Dropped outside the lock: emptying one cell may free others.
                let old = crate::func::locked_write(&cell).map(|mut v| std::mem::take(&mut *v));
                drop(old);
            }
        }
        alive
    }
    #[cfg(feature = "no_closure")]
    0
}
