//! [`Watch`]: one test's expectations checked while one run plays. `tactica test` feeds it from
//! its own loop; a game feeds it from its own (a Bevy app's fixed step), so a test file holds
//! the AI to the same rules inside the game as on the command line.

use std::path::PathBuf;

use tactica_engine::world::{Event, World};

use super::expect::{Check, Frame, GoldenMode, Verdict};
use super::facts::Facts;
use super::prepare::PreparedTest;

/// A test's expectations being checked over one run.
///
/// After every tick, hand it the world and the events that tick added
/// ([`Watch::observe`]); when the run ends (or as soon as [`Watch::done`]), take the verdicts
/// ([`Watch::finish`]), one per expectation, in the test's order.
///
/// ```
/// # fn demo(test: &tactica::testing::PreparedTest) {
/// let mut scenario = test.scenario();
/// scenario.world.reseed(test.seed);
/// let mut rt = tactica::runtime::Runtime::new(scenario, tactica::languages()).unwrap();
/// let mut watch = tactica::testing::Watch::new(test, test.seed);
/// for _ in 0..test.ticks {
///     rt.tick();
///     let events = rt.drain_events();
///     watch.observe(rt.world(), &events);
/// }
/// let verdicts = watch.finish(rt.world());
/// assert!(verdicts.iter().all(|v| !v.failed()));
/// # }
/// ```
pub struct Watch<'t> {
    checks: Vec<Check<'t>>,
    facts: Facts,
    /// The last tick observed.
    last: Option<u64>,
}

impl<'t> Watch<'t> {
    /// Checks `test` on a run with `seed`. Golden files are compared on the test's own seed and
    /// not checked on others.
    pub fn new(test: &'t PreparedTest, seed: u64) -> Self {
        let mode = if seed == test.seed { GoldenMode::Compare } else { GoldenMode::Skip };
        Self::with_golden(test, mode)
    }

    /// Checks `test` on its own seed, recording its golden files instead of comparing them
    /// (`--bless`); [`Watch::written`] hands them back.
    pub fn blessing(test: &'t PreparedTest) -> Self {
        Self::with_golden(test, GoldenMode::Write)
    }

    fn with_golden(test: &'t PreparedTest, mode: GoldenMode) -> Self {
        let checks = test.expectations.iter().map(|e| Check::new(&e.rule, mode)).collect();
        Watch { checks, facts: Facts::default(), last: None }
    }

    /// Looks at the world after a tick, with the events that tick added (its first call gets the
    /// spawns logged while the scenario loaded too).
    pub fn observe(&mut self, world: &World, events: &[Event]) {
        let tick = world.clock().tick().saturating_sub(1);
        self.facts.absorb(events);
        let frame = Frame { tick, world, events, facts: &self.facts };
        for c in &mut self.checks {
            c.observe(&frame);
        }
        self.last = Some(tick);
    }

    /// Whether every expectation is decided, so playing on cannot change a verdict.
    pub fn done(&self) -> bool {
        self.checks.iter().all(|c| c.verdict().is_some())
    }

    /// The verdicts, one per expectation; those still open are decided as the run ends here.
    pub fn finish(&mut self, world: &World) -> Vec<Verdict> {
        let last = self.last.unwrap_or(0);
        self.checks.iter_mut().map(|c| c.finish(last, world, &self.facts)).collect()
    }

    /// The golden files a blessing run recorded: each file with its new text.
    pub fn written(&self) -> Vec<(PathBuf, String)> {
        self.checks.iter().filter_map(Check::written).map(|(g, text)| (g.file.clone(), text)).collect()
    }
}
