//! Software prefetch for the per-tick passes over every character.
//!
//! A crowd's passes (who asks for a path, who walks) visit ten thousand characters in key order;
//! each one's action queue, plan and route live in their own heap blocks, so the first read of
//! each is a cache miss the hardware prefetcher cannot foresee (`perf annotate` put two thirds
//! of the walk loop's own time on the load of the queue's front). Naming the block a few
//! characters ahead lets the loads overlap with the work on the characters before it.

/// How many characters ahead a pass prefetches: enough for a load from memory to land while the
/// characters in between are handled, few enough that the lines are still cached when reached.
/// Most characters in a crowd only check that they still wait or walk, a few dozen nanoseconds
/// each, so a load from memory needs a dozen or more of them to hide behind.
pub(crate) const AHEAD: usize = 16;

/// For a block reached through one prefetched earlier (a route through its plan): how many
/// characters ahead the first block is read to find it. Half of [`AHEAD`], so the first load has
/// had half the distance to land and the second has the other half. In the crowd's walk pass
/// (ticks 200–400, medians of five alternating runs on a loaded machine): one stage 8 ahead
/// 3.34 ms; one stage 16 ahead 3.07 ms; 16 then 8 2.68–2.77 ms.
pub(crate) const AHEAD_SECOND: usize = AHEAD / 2;

/// Asks the CPU to start loading the cache line at `p` into its caches. A hint only: nothing is
/// read into the program, nothing changes, and the result of no computation depends on it.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `prefetcht0` is a hint that never faults, whatever the address (dangling or null
    // included) and reads nothing into a register; SSE, which it needs, is part of the x86-64
    // baseline every x86-64 target has.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// [`prefetch`] for the first `len` bytes at `p`, which may span two cache lines (no more: `len`
/// is at most a line).
#[inline(always)]
pub(crate) fn prefetch_span(p: usize, len: usize) {
    debug_assert!(len <= 64);
    prefetch(p as *const u8);
    prefetch(p.wrapping_add(len - 1) as *const u8);
}

/// The address of `r`, to prefetch later (an address, not a pointer, so a scratch list of them
/// keeps the world `Send`).
pub(crate) fn address_of<T>(r: Option<&T>) -> usize {
    r.map_or(0, |r| std::ptr::from_ref(r) as usize)
}
