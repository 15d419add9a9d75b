//! What a script call allocates, whatever allocates it: a counting global allocator.
//!
//! Lua has an allocator of its own (and a limit on it); Rhai and the host do not, so a Rhai
//! recursion in which every frame holds a large array, or host values a call creates, would be
//! bounded only by the size caps times the call depth. A game (and the `tactica` binary) that
//! installs [`CountingAllocator`] as its global allocator lets the Rhai backend hold each call
//! to [`crate::ScriptLimits::max_memory`] of live bytes, and charge the bytes a call allocates
//! to its operation budget (16 bytes = 1 operation), so work done by copying — `s + s`,
//! growing arrays — meets the budget too. Without it those two checks are off and the size caps
//! remain; [`installed`] says which.
//!
//! ```
//! // In the game's main crate:
//! #[global_allocator]
//! static ALLOCATOR: tactica_stdlib::memory::CountingAllocator = tactica_stdlib::memory::CountingAllocator;
//!
//! fn main() {
//!     assert!(tactica_stdlib::memory::installed());
//!     let start = tactica_stdlib::memory::Usage::now();
//!     let v = std::hint::black_box(vec![0u8; 4096]);
//!     assert!(start.elapsed().allocated >= 4096);
//!     drop(v);
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::sync::OnceLock;

// What does the allocating: mimalloc with the `mimalloc` feature (the `tactica` binary's; a
// crowd's tick makes and frees tens of thousands of small values, and glibc's allocator took a
// fifth of it), else the system's. The counting is the same on either.
#[cfg(feature = "mimalloc")]
use mimalloc::MiMalloc as Inner;
#[cfg(not(feature = "mimalloc"))]
use std::alloc::System as Inner;

/// The allocator underneath (mimalloc with the `mimalloc` feature, else the system's), counting
/// per thread the bytes allocated and the bytes live.
#[derive(Debug, Clone, Copy, Default)]
pub struct CountingAllocator;

thread_local! {
    // (bytes ever allocated, bytes live) on this thread. No destructor, so usable at any time.
    static COUNTS: Cell<(u64, i64)> = const { Cell::new((0, 0)) };
}

fn note(allocated: usize, freed: usize) {
    let _ = COUNTS.try_with(|c| {
        let (total, live) = c.get();
        #[allow(clippy::cast_possible_wrap, reason = "allocations are far below i64::MAX")]
        c.set((total + allocated as u64, live + allocated as i64 - freed as i64));
    });
}

// SAFETY: every method forwards to the inner allocator with the same arguments and only adds bookkeeping
// in a thread-local cell, which allocates nothing.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // The first allocation of the process sets mimalloc up for a tick loop, before memory
        // freed while a scenario loads is given back only for the first ticks to take again.
        #[cfg(feature = "mimalloc")]
        if !SET_UP.load(std::sync::atomic::Ordering::Relaxed) {
            SET_UP.store(true, std::sync::atomic::Ordering::Relaxed);
            keep_freed_memory();
        }
        // SAFETY: forwarded as given.
        let p = unsafe { Inner.alloc(layout) };
        if !p.is_null() {
            note(layout.size(), 0);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded as given.
        let p = unsafe { Inner.alloc_zeroed(layout) };
        if !p.is_null() {
            note(layout.size(), 0);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as given.
        unsafe { Inner.dealloc(ptr, layout) };
        note(0, layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded as given.
        let p = unsafe { Inner.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            // A move copies the old bytes: count the new block as allocated work.
            note(new_size, layout.size());
        }
        p
    }
}

/// The counts on this thread at one moment; [`Usage::elapsed`] gives what happened since.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Usage {
    /// Bytes allocated (a reallocation counts its new size).
    pub allocated: u64,
    /// Bytes live: allocated minus freed (negative when more was freed than allocated).
    pub live: i64,
}

impl Usage {
    /// The counts now (zero when the allocator is not installed).
    #[inline]
    pub fn now() -> Usage {
        let (allocated, live) = COUNTS.try_with(Cell::get).unwrap_or_default();
        Usage { allocated, live }
    }

    /// What was allocated, and how the live bytes grew, since `self`.
    #[inline]
    pub fn elapsed(self) -> Usage {
        let now = Usage::now();
        Usage { allocated: now.allocated - self.allocated, live: now.live - self.live }
    }
}

/// Runs `f` without counting what it allocates or frees on this thread: the host's own
/// bookkeeping inside a script call (the profiler's records) is never the script's to pay for,
/// or switching the profiler on would change what scripts may do, and so the trace.
pub fn uncounted<R>(f: impl FnOnce() -> R) -> R {
    let before = COUNTS.try_with(Cell::get).ok();
    let out = f();
    if let Some(before) = before {
        let _ = COUNTS.try_with(|c| c.set(before));
    }
    out
}

/// Whether [`CountingAllocator`] is the process's global allocator.
pub fn installed() -> bool {
    static INSTALLED: OnceLock<bool> = OnceLock::new();
    *INSTALLED.get_or_init(|| {
        let before = Usage::now();
        let probe = std::hint::black_box(vec![0u8; 64]);
        let counted = before.elapsed().allocated >= 64;
        drop(probe);
        counted
    })
}

/// How long mimalloc keeps freed memory before giving it back to the system, once
/// [`keep_freed_memory`] has run: ten seconds.
#[cfg(feature = "mimalloc")]
pub const KEEP_FREED_MS: i64 = 10_000;

/// Has mimalloc keep the memory a tick frees for [`KEEP_FREED_MS`] before it returns it to the
/// system (its default is one second). A game's tick frees and allocates again much the same
/// memory every frame; given back after a second, the next frame that needs it takes a page fault
/// (on a huge page, two megabytes zeroed) for every piece: 3.5% of a crowd's tick in a profile.
/// Memory a spike used and no tick needs again is still returned, ten seconds later.
/// [`CountingAllocator`] sits on mimalloc with this crate's `mimalloc` feature and calls this on
/// its first allocation; the runtime calls it when it starts, for a game that installs mimalloc
/// itself (the setting is the process's).
#[cfg(feature = "mimalloc")]
pub fn keep_freed_memory() {
    // SAFETY: setting an option is safe at any time; mimalloc reads it when it next purges.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, KEEP_FREED_MS as _) };
}

/// Whether [`CountingAllocator`] has run [`keep_freed_memory`] (it does on its first allocation;
/// setting the option allocates nothing).
#[cfg(feature = "mimalloc")]
static SET_UP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `mi_option_purge_delay` in `mimalloc.h` (v2 and v3 alike), which libmimalloc-sys does not name.
#[cfg(feature = "mimalloc")]
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

#[cfg(all(test, feature = "mimalloc"))]
mod tests {
    use super::MI_OPTION_PURGE_DELAY;

    #[test]
    fn the_option_set_is_the_purge_delay() {
        // SAFETY: reading an option is safe at any time.
        #[allow(clippy::useless_conversion, reason = "a C long is 32 bits on Windows")]
        let delay = || i64::from(unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) });
        // mimalloc v3's default purge delay is one second; no neighbouring option's is.
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(delay(), 1000);
        }
        super::keep_freed_memory();
        assert_eq!(delay(), super::KEEP_FREED_MS);
    }
}
