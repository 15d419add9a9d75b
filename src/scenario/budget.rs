//! The load budget: how much work a scenario may ask for before its first tick.
//!
//! Loading does work that grows with what the file asks: a crowd's count, a map's size, the
//! cover layer's rays, a filter's passes, the hierarchy's clusters, a network's training. A
//! scenario someone downloaded could ask for hours of it, or for more memory than the machine
//! has. So every such piece of work is charged here, where the loader is about to do it, in
//! **units** (about one elementary step — a cell visited, a step along a ray, a byte parsed —
//! with a kept byte or a spawned character weighed by what it holds; [`super::cost`] has every
//! formula): estimated from the sizes the keys give, before the work starts. A load that would
//! go past [`LoadLimits::work`] stops there, before spending anything on that piece, with a
//! [`ScenarioError`] at the key that asked for it, naming the limit.
//!
//! A game sets the limits through [`super::Loader::limits`]; the defaults ([`LoadLimits::new`])
//! leave every shipped example and test well inside (the largest needs less than a tenth).

use std::path::PathBuf;

use super::error::{ScenarioError, SourcePos};

/// What loading one scenario may do. `tactica` takes `--load-budget UNITS` for [`LoadLimits::work`].
///
/// ```
/// use tactica::scenario::{LoadLimits, Loader};
///
/// let tight = LoadLimits::new().set_work(50_000_000).set_ticks(100_000);
/// let scenario = Loader::new().limits(tight).load(std::path::Path::new("examples/village/scenario.toml"))?;
/// assert!(scenario.load_work <= 50_000_000);
/// # Ok::<(), tactica::scenario::ScenarioError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadLimits {
    /// Units of load-time work (see the module doc); `u64::MAX` for no limit.
    pub work: u64,
    /// The most ticks a scenario's `ticks` key may ask a run to play; `u64::MAX` for no limit.
    /// A run told how long to play (`tactica run --ticks N`, [`crate::runtime::Runtime::run`])
    /// is not held to it.
    pub ticks: u64,
}

impl LoadLimits {
    /// The default work budget: 2 billion units, a few seconds of loading on a desktop and a
    /// few hundred megabytes at most.
    pub const DEFAULT_WORK: u64 = 2_000_000_000;
    /// The default longest run a scenario may ask for: ten million ticks (11 days at 10 Hz).
    pub const DEFAULT_TICKS: u64 = 10_000_000;

    /// The defaults.
    pub const fn new() -> Self {
        LoadLimits { work: Self::DEFAULT_WORK, ticks: Self::DEFAULT_TICKS }
    }

    /// No limits at all: for content the game itself ships and trusts.
    pub const fn unlimited() -> Self {
        LoadLimits { work: u64::MAX, ticks: u64::MAX }
    }

    /// With a work budget of `units`.
    #[must_use]
    pub const fn set_work(mut self, units: u64) -> Self {
        self.work = units;
        self
    }

    /// With at most `ticks` asked for by a scenario's `ticks`.
    #[must_use]
    pub const fn set_ticks(mut self, ticks: u64) -> Self {
        self.ticks = ticks;
        self
    }
}

impl Default for LoadLimits {
    fn default() -> Self {
        Self::new()
    }
}

/// What a load is about to do, reported before each piece of charged work (for a progress bar).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoadProgress<'a> {
    /// The key that asked for it (`map`, `[field.cover]`, `[[crowd]] count` …).
    pub key: &'a str,
    /// What the work is, in words.
    pub what: &'a str,
    /// Its units.
    pub units: u64,
    /// Units spent before it.
    pub spent: u64,
    /// The budget.
    pub limit: u64,
}

impl LoadProgress<'_> {
    /// `n` as the load's messages write it, a comma between each group of three digits.
    pub fn grouped(n: u64) -> String {
        grouped(n)
    }
}

/// A progress callback.
pub type ProgressFn<'p> = &'p mut dyn FnMut(&LoadProgress<'_>);

/// The running account of one load.
pub(crate) struct Budget<'p> {
    limits: LoadLimits,
    spent: u64,
    progress: Option<ProgressFn<'p>>,
}

impl std::fmt::Debug for Budget<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget").field("limits", &self.limits).field("spent", &self.spent).finish_non_exhaustive()
    }
}

impl<'p> Budget<'p> {
    pub(crate) fn new(limits: LoadLimits, progress: Option<ProgressFn<'p>>) -> Self {
        Budget { limits, spent: 0, progress }
    }

    /// Units spent so far.
    pub(crate) fn spent(&self) -> u64 {
        self.spent
    }

    /// The limits.
    pub(crate) fn limits(&self) -> LoadLimits {
        self.limits
    }

    /// Charges `units` for `what`, asked for by `key` at `at` (the file and the key's place):
    /// an error there, naming the key and the limit, when they do not fit.
    pub(crate) fn charge(
        &mut self,
        units: u64,
        key: &str,
        what: &str,
        at: impl FnOnce() -> (PathBuf, SourcePos),
    ) -> Result<(), ScenarioError> {
        let limit = self.limits.work;
        if let Some(report) = self.progress.as_mut() {
            report(&LoadProgress { key, what, units, spent: self.spent, limit });
        }
        let total = self.spent.saturating_add(units);
        if total > limit {
            let (file, pos) = at();
            let before =
                if self.spent == 0 { String::new() } else { format!("; {} were spent before it", grouped(self.spent)) };
            return Err(ScenarioError::new(
                file,
                pos,
                format!(
                    "`{key}` asks for {} unit{} of load-time work ({what}), past the load budget of {} units{before}",
                    grouped(units),
                    if units == 1 { "" } else { "s" },
                    grouped(limit)
                ),
            )
            .hint(format!(
                "lower `{key}`; a game that trusts this scenario raises the budget (`LoadLimits::work`, or \
                 `tactica --load-budget UNITS`); docs/scenario.md, \"Load limits\""
            )));
        }
        self.spent = total;
        Ok(())
    }
}

/// `n` with a comma between each group of three digits: `2,000,000,000`.
pub(crate) fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(2_000_000_000), "2,000,000,000");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn a_charge_past_the_limit_is_an_error_at_the_key_and_spends_nothing() {
        let mut seen = Vec::new();
        let mut record = |p: &LoadProgress<'_>| seen.push((p.key.to_owned(), p.units, p.spent));
        let at = || (PathBuf::from("s.toml"), SourcePos { line: 3, column: 1 });
        let (err, spent) = {
            let mut budget = Budget::new(LoadLimits::new().set_work(1_000), Some(&mut record));
            budget.charge(600, "map", "the map's cells", at).unwrap();
            budget.charge(400, "count", "400 characters", at).unwrap();
            (budget.charge(1, "radius", "influence", at).unwrap_err(), budget.spent())
        };
        assert_eq!(
            err.to_string(),
            "s.toml:3:1: `radius` asks for 1 unit of load-time work (influence), past the load budget of 1,000 \
             units; 1,000 were spent before it\n  hint: lower `radius`; a game that trusts this scenario raises \
             the budget (`LoadLimits::work`, or `tactica --load-budget UNITS`); docs/scenario.md, \"Load limits\""
        );
        assert_eq!(spent, 1_000, "the refused charge spent nothing");
        assert_eq!(seen, [("map".into(), 600, 0), ("count".into(), 400, 600), ("radius".into(), 1, 1_000)]);
        let mut huge = Budget::new(LoadLimits::unlimited(), None);
        huge.charge(u64::MAX, "a", "b", at).unwrap();
        huge.charge(u64::MAX, "a", "b", at).unwrap();
        assert_eq!(huge.spent(), u64::MAX, "sums saturate");
    }
}
