//! Timing host functions for a profiler, at near-zero cost when nobody asks.
//!
//! [`HostFn::call`](crate::HostFn::call) — the one way every language calls into the host —
//! checks one thread-local flag. While a profiler has switched recording on for this thread
//! ([`record`]), each call's name, start and wall-clock time is appended to a thread-local list
//! that the profiler takes with [`take`]; otherwise the flag is the only cost. The start lets a
//! timeline (Perfetto's) nest each host call inside the script call that made it. The runtime switches it on
//! around its scripts phase only, so nothing else on the thread is recorded.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

thread_local! {
    static ON: Cell<bool> = const { Cell::new(false) };
    static CALLS: RefCell<Vec<HostCall>> = const { RefCell::new(Vec::new()) };
}

/// One recorded host call.
#[derive(Debug, Clone, Copy)]
pub struct HostCall {
    /// The host function.
    pub name: &'static str,
    /// When it started.
    pub start: Instant,
    /// How long it took.
    pub took: Duration,
}

/// Switches recording of host calls on this thread on or off.
pub fn record(on: bool) {
    ON.with(|f| f.set(on));
}

/// Whether host calls on this thread are being recorded.
#[inline]
pub fn recording() -> bool {
    ON.with(Cell::get)
}

/// Moves the calls recorded so far into `into`, oldest first.
pub fn take(into: &mut Vec<HostCall>) {
    CALLS.with(|c| into.append(&mut c.borrow_mut()));
}

/// Runs `f`, recording its time under `name`: what [`crate::HostFn::call`] does while recording,
/// out of the way of the common path so that it stays small enough to inline into every
/// language's call site.
#[cold]
#[inline(never)]
pub(crate) fn timed_recording<R>(name: &'static str, f: impl FnOnce() -> R) -> R {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    crate::memory::uncounted(|| CALLS.with(|c| c.borrow_mut().push(HostCall { name, start, took })));
    out
}
