//! The one limits struct every backend applies the same way.

/// Limits on one script call. `0` means "no limit" for none of them: every limit is always on, so
/// a runaway script is always stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptLimits {
    /// Instructions (VM steps, Lua/Rhai operations) one call may run before it is stopped.
    pub max_ops: u64,
    /// Values one call may hold on its stack (the memory limit of `.tac`).
    pub max_stack: usize,
    /// Rule firings in one forward-chaining run before it is stopped.
    pub max_rule_firings: u32,
    /// How deep backward chaining may recurse.
    pub max_prove_depth: u32,
}

impl ScriptLimits {
    /// The defaults: generous for designers' scripts, small enough to keep a tick short.
    pub const fn new() -> Self {
        ScriptLimits { max_ops: 100_000, max_stack: 1024, max_rule_firings: 1000, max_prove_depth: 32 }
    }

    /// Sets the instruction budget.
    #[must_use]
    pub const fn set_max_ops(mut self, n: u64) -> Self {
        self.max_ops = n;
        self
    }

    /// Sets the stack limit.
    #[must_use]
    pub const fn set_max_stack(mut self, n: usize) -> Self {
        self.max_stack = n;
        self
    }

    /// Sets the rule-firing limit.
    #[must_use]
    pub const fn set_max_rule_firings(mut self, n: u32) -> Self {
        self.max_rule_firings = n;
        self
    }
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits::new()
    }
}
