//! The one set of limits every script backend applies the same way: an instruction budget, a
//! memory limit, a call depth and a size cap for strings and collections, per script call.
//!
//! A script that goes over a limit is stopped for that call with an error naming the file and
//! line; the game and every other entity go on (DESIGN.md invariant 8).

/// Limits for one script call.
///
/// In the first five fields, `0` means *unlimited* (for trusted scripts and benchmarks only); the
/// three `.tac`-only fields (stack, rule firings, proof depth) are always on. The defaults
/// ([`ScriptLimits::new`]) are smaller in debug builds, so that tests reach a limit quickly.
///
/// | field | Lua | Rhai | `.tac` |
/// | --- | --- | --- | --- |
/// | `max_ops` | VM instructions counted by a hook every [`ScriptLimits::HOOK_GRANULARITY`] | `set_max_operations` | VM steps |
/// | `max_memory` | the state's allocator limit (`set_memory_limit`) | string, array and map size caps derived from it | value sizes |
/// | `max_call_depth` | frames on the Lua stack | `set_max_call_levels` | call frames |
/// | `max_string_len` | checked on every value crossing into the host | `set_max_string_size` | string values |
/// | `max_stack`, `max_rule_firings`, `max_prove_depth` | — | — | VM stack, forward and backward chaining |
/// | `max_output_per_call`, `max_output_per_tick` | the host, for every language: what a call hands the world | | |
/// | `max_kept_bytes` | the `state` table (the Lua heap itself is under `max_memory`) | `this` | the state table |
/// | `max_wall_ms` | the hook checks the clock every 6,400 instructions | `on_progress` every 1,024 operations | — (its budget is exact) |
///
/// ```
/// use tactica_stdlib::ScriptLimits;
/// const GENEROUS: ScriptLimits = ScriptLimits::new().set_max_ops(10_000_000).set_max_call_depth(256);
/// assert_eq!(GENEROUS.max_ops, 10_000_000);
/// assert!(ScriptLimits::unlimited().ops_limit().is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScriptLimits {
    /// Operations (VM instructions or Rhai operations) one call may run; 0 = unlimited.
    pub max_ops: u64,
    /// Bytes the script's heap may hold; 0 = unlimited.
    pub max_memory: usize,
    /// Nested calls (script functions calling script functions); 0 = unlimited.
    pub max_call_depth: usize,
    /// The longest string a script may build or pass to the host, in bytes; 0 = unlimited.
    pub max_string_len: usize,
    /// The most elements a list or map may hold; 0 = unlimited.
    pub max_collection_len: usize,
    /// Values one `.tac` call may hold on its VM stack (the `.tac` memory limit).
    pub max_stack: usize,
    /// Rule firings in one forward-chaining run (`.tac` rule systems) before it is stopped.
    pub max_rule_firings: u32,
    /// How deep `.tac` backward chaining may recurse.
    pub max_prove_depth: u32,
    /// Bytes one call may hand the world (notes, says, globals, attributes, events, actions: a
    /// command weighs 16 bytes plus its text and values); 0 = unlimited.
    pub max_output_per_call: usize,
    /// Bytes one script instance may hand the world in one tick, over all its calls; 0 =
    /// unlimited.
    pub max_output_per_tick: usize,
    /// Bytes one instance may keep between calls: its state table (Lua's `state`, Rhai's `this`),
    /// weighed as [`crate::crossing::weight`] weighs values; a call that would leave more fails,
    /// and the state stays as the call found it. 0 = unlimited.
    pub max_kept_bytes: usize,
    /// The wall-clock watchdog, in milliseconds per call (Lua and Rhai); 0 = off. The last line
    /// of defence only: the budgets above stop a script at the same point on every run, the
    /// watchdog at a time that depends on the machine, so when it fires the trace records a
    /// `watchdog` event saying the run is no longer reproducible.
    pub max_wall_ms: u32,
}

impl ScriptLimits {
    /// How many instructions the Lua hook lets pass between two checks: the instruction budget
    /// is exact to within this many instructions.
    pub const HOOK_GRANULARITY: u32 = 100;

    /// The default limits: release builds allow 1,000,000 operations, 16 MiB, 200 nested calls and
    /// 1 MiB strings per call; debug builds a tenth of the operations and a quarter of the memory.
    pub const fn new() -> Self {
        if cfg!(debug_assertions) {
            ScriptLimits {
                max_ops: 100_000,
                max_memory: 4 << 20,
                max_call_depth: 200,
                max_string_len: 1 << 20,
                max_collection_len: 100_000,
                max_stack: 1024,
                max_rule_firings: 1000,
                max_prove_depth: 32,
                max_output_per_call: 2 << 20,
                max_output_per_tick: 4 << 20,
                max_kept_bytes: 1 << 20,
                max_wall_ms: 5000,
            }
        } else {
            ScriptLimits {
                max_ops: 1_000_000,
                max_memory: 16 << 20,
                max_call_depth: 200,
                max_string_len: 1 << 20,
                max_collection_len: 1_000_000,
                max_stack: 1024,
                max_rule_firings: 1000,
                max_prove_depth: 32,
                max_output_per_call: 2 << 20,
                max_output_per_tick: 4 << 20,
                max_kept_bytes: 1 << 20,
                max_wall_ms: 1000,
            }
        }
    }

    /// No limits at all: for benchmarks and trusted code, never for mods.
    pub const fn unlimited() -> Self {
        ScriptLimits {
            max_ops: 0,
            max_memory: 0,
            max_call_depth: 0,
            max_string_len: 0,
            max_collection_len: 0,
            max_stack: 1 << 20,
            max_rule_firings: u32::MAX,
            max_prove_depth: 1024,
            max_output_per_call: 0,
            max_output_per_tick: 0,
            max_kept_bytes: 0,
            max_wall_ms: 0,
        }
    }

    /// Sets [`ScriptLimits::max_ops`] (0 = unlimited).
    #[must_use]
    pub const fn set_max_ops(mut self, ops: u64) -> Self {
        self.max_ops = ops;
        self
    }

    /// Sets [`ScriptLimits::max_memory`] (0 = unlimited).
    #[must_use]
    pub const fn set_max_memory(mut self, bytes: usize) -> Self {
        self.max_memory = bytes;
        self
    }

    /// Sets [`ScriptLimits::max_call_depth`] (0 = unlimited).
    #[must_use]
    pub const fn set_max_call_depth(mut self, depth: usize) -> Self {
        self.max_call_depth = depth;
        self
    }

    /// Sets [`ScriptLimits::max_string_len`] (0 = unlimited).
    #[must_use]
    pub const fn set_max_string_len(mut self, bytes: usize) -> Self {
        self.max_string_len = bytes;
        self
    }

    /// Sets [`ScriptLimits::max_collection_len`] (0 = unlimited).
    #[must_use]
    pub const fn set_max_collection_len(mut self, len: usize) -> Self {
        self.max_collection_len = len;
        self
    }

    /// Sets [`ScriptLimits::max_stack`].
    #[must_use]
    pub const fn set_max_stack(mut self, n: usize) -> Self {
        self.max_stack = n;
        self
    }

    /// Sets [`ScriptLimits::max_rule_firings`].
    #[must_use]
    pub const fn set_max_rule_firings(mut self, n: u32) -> Self {
        self.max_rule_firings = n;
        self
    }

    /// The operation budget, `None` when unlimited.
    pub const fn ops_limit(&self) -> Option<u64> {
        if self.max_ops == 0 { None } else { Some(self.max_ops) }
    }

    /// The memory limit, `None` when unlimited.
    pub const fn memory_limit(&self) -> Option<usize> {
        if self.max_memory == 0 { None } else { Some(self.max_memory) }
    }

    /// The call depth limit, `None` when unlimited.
    pub const fn call_depth_limit(&self) -> Option<usize> {
        if self.max_call_depth == 0 { None } else { Some(self.max_call_depth) }
    }

    /// The string length limit, `None` when unlimited.
    pub const fn string_limit(&self) -> Option<usize> {
        if self.max_string_len == 0 { None } else { Some(self.max_string_len) }
    }

    /// Sets [`ScriptLimits::max_output_per_call`] and [`ScriptLimits::max_output_per_tick`] (0 =
    /// unlimited).
    #[must_use]
    pub const fn set_max_output(mut self, per_call: usize, per_tick: usize) -> Self {
        self.max_output_per_call = per_call;
        self.max_output_per_tick = per_tick;
        self
    }

    /// Sets [`ScriptLimits::max_kept_bytes`] (0 = unlimited).
    #[must_use]
    pub const fn set_max_kept_bytes(mut self, bytes: usize) -> Self {
        self.max_kept_bytes = bytes;
        self
    }

    /// What an instance may keep between calls, `None` when unlimited.
    pub const fn kept_limit(&self) -> Option<usize> {
        if self.max_kept_bytes == 0 { None } else { Some(self.max_kept_bytes) }
    }

    /// Sets [`ScriptLimits::max_wall_ms`] (0 = off).
    #[must_use]
    pub const fn set_max_wall_ms(mut self, ms: u32) -> Self {
        self.max_wall_ms = ms;
        self
    }

    /// The watchdog's limit, `None` when off.
    pub const fn wall_limit(&self) -> Option<std::time::Duration> {
        if self.max_wall_ms == 0 { None } else { Some(std::time::Duration::from_millis(self.max_wall_ms as u64)) }
    }

    /// What one call of an instance may hand the world after it already handed `spent_this_tick`
    /// bytes this tick; `None` when unlimited.
    pub fn output_allowance(&self, spent_this_tick: usize) -> Option<usize> {
        let call = (self.max_output_per_call > 0).then_some(self.max_output_per_call);
        let tick = (self.max_output_per_tick > 0).then(|| self.max_output_per_tick.saturating_sub(spent_this_tick));
        match (call, tick) {
            (Some(c), Some(t)) => Some(c.min(t)),
            (c, t) => c.or(t),
        }
    }

    /// The collection length limit, `None` when unlimited.
    pub const fn collection_limit(&self) -> Option<usize> {
        if self.max_collection_len == 0 { None } else { Some(self.max_collection_len) }
    }
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_means_unlimited_and_setters_chain() {
        let l = ScriptLimits::new().set_max_ops(0).set_max_memory(1024).set_max_call_depth(0);
        assert_eq!(l.ops_limit(), None);
        assert_eq!(l.memory_limit(), Some(1024));
        assert_eq!(l.call_depth_limit(), None);
        assert_eq!(l.string_limit(), Some(1 << 20));
        let u = ScriptLimits::unlimited();
        assert!(u.ops_limit().is_none() && u.memory_limit().is_none() && u.collection_limit().is_none());
    }

    #[test]
    fn a_call_may_hand_over_the_smaller_of_its_cap_and_what_the_tick_has_left() {
        let l = ScriptLimits::new().set_max_output(1000, 2500);
        assert_eq!(l.output_allowance(0), Some(1000));
        assert_eq!(l.output_allowance(2000), Some(500));
        assert_eq!(l.output_allowance(3000), Some(0));
        assert_eq!(l.set_max_output(0, 2500).output_allowance(100), Some(2400));
        assert_eq!(ScriptLimits::unlimited().output_allowance(1 << 30), None);
    }

    #[test]
    fn debug_defaults_are_smaller_than_release_defaults() {
        // Both are written out so the test holds in either build.
        let debug_ops = 100_000u64;
        let release_ops = 1_000_000u64;
        assert!(debug_ops < release_ops);
        let expected = if cfg!(debug_assertions) { debug_ops } else { release_ops };
        assert_eq!(ScriptLimits::new().max_ops, expected);
        assert_eq!(ScriptLimits::default(), ScriptLimits::new());
    }
}
