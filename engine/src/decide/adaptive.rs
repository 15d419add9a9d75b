//! Adaptive tactics (design article 003, L86–L100): record each decision with its context and
//! how well it went, and prefer what has worked in that context. Before any history exists the
//! default tactic (or a random one) is used; a small exploration rate keeps trying the others.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::decide::{DecideError, error::from_toml};
use crate::world::WorldRng;

/// An adaptive model's definition, as a scenario's `[models]` file gives it:
///
/// ```toml
/// tactics = ["defensive", "offensive", "berserk", "balanced"]
/// default = "balanced"   # used before any history (default: a random one)
/// explore = 0.1          # chance of trying a random tactic instead of the best
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdaptiveSpec {
    /// The tactics, in preference order for ties.
    pub tactics: Vec<String>,
    /// The tactic used before any history.
    #[serde(default)]
    pub default: Option<String>,
    /// Exploration rate, 0–1.
    #[serde(default)]
    pub explore: f64,
}

impl AdaptiveSpec {
    /// Parses and checks a definition.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        let spec: AdaptiveSpec = from_toml(text)?;
        if spec.tactics.is_empty() {
            return Err(DecideError::invalid("tactics", "name at least one tactic"));
        }
        if let Some(d) = &spec.default
            && !spec.tactics.contains(d)
        {
            return Err(DecideError::unknown("tactic", d.clone()));
        }
        if !(0.0..=1.0).contains(&spec.explore) {
            return Err(DecideError::invalid("explore", "a chance, 0 to 1"));
        }
        Ok(spec)
    }

    /// An empty history over the spec's tactics.
    pub fn history(&self) -> TacticHistory {
        let names: Vec<&str> = self.tactics.iter().map(String::as_str).collect();
        let default = self.default.as_ref().and_then(|d| self.tactics.iter().position(|t| t == d));
        TacticHistory::new(&names, default, self.explore)
    }
}

/// Per context and tactic: how often it was tried and how much success it earned.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct TacticHistory {
    /// The tactics (`defensive`, `offensive`, `berserk`, `balanced` …), in preference order for ties.
    pub tactics: Vec<String>,
    /// (context, tactic index) → (tries, total success in `[0, 1]` per try).
    pub record: BTreeMap<(String, usize), (u32, f64)>,
    /// Chance of trying a random tactic instead of the best (exploration).
    pub explore: f64,
    /// The tactic used before any history exists; `None` picks at random.
    pub default: Option<usize>,
}

impl TacticHistory {
    /// A history over these tactics.
    pub fn new(tactics: &[&str], default: Option<usize>, explore: f64) -> Self {
        TacticHistory {
            tactics: tactics.iter().map(|t| (*t).to_owned()).collect(),
            record: BTreeMap::new(),
            explore: explore.clamp(0.0, 1.0),
            default,
        }
    }

    /// Records how a tactic went in a context (success clamped to `[0, 1]`: advantage gained,
    /// health kept, time won, however the game scores it).
    pub fn record(&mut self, context: &str, tactic: usize, success: f64) {
        if tactic >= self.tactics.len() {
            return;
        }
        let e = self.record.entry((context.to_owned(), tactic)).or_default();
        e.0 += 1;
        e.1 += success.clamp(0.0, 1.0);
    }

    /// The mean success of a tactic in a context; `None` before it was tried there.
    pub fn success_rate(&self, context: &str, tactic: usize) -> Option<f64> {
        self.record.get(&(context.to_owned(), tactic)).filter(|e| e.0 > 0).map(|e| e.1 / f64::from(e.0))
    }

    /// Chooses a tactic for a context: the best tried one (ties: earlier tactic), untried ones
    /// counting as the default's neutral 0.5 so that they get a chance; before any history, the
    /// default or a random tactic; with probability `explore`, a random tactic.
    pub fn choose(&self, context: &str, rng: &mut WorldRng) -> Option<usize> {
        let n = self.tactics.len();
        if n == 0 {
            return None;
        }
        let tried = (0..n).any(|t| self.success_rate(context, t).is_some());
        if !tried {
            return Some(self.default.filter(|d| *d < n).unwrap_or_else(|| rng.below(n)));
        }
        if rng.chance(self.explore) {
            return Some(rng.below(n));
        }
        let score = |t: usize| self.success_rate(context, t).unwrap_or(0.5);
        (0..n).reduce(|best, t| if score(t) > score(best) { t } else { best })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adapts_to_what_works_per_context() {
        let mut h = TacticHistory::new(&["defensive", "offensive", "berserk", "balanced"], Some(3), 0.1);
        let mut rng = WorldRng::new(6);
        assert_eq!(h.choose("cornered", &mut rng), Some(3), "default before history");
        // The player punishes aggression when cornered but not in the open.
        let payoff = |ctx: &str, t: usize| match (ctx, t) {
            ("cornered", 0) => 0.8,
            ("cornered", _) => 0.2,
            ("open", 2) => 0.9,
            _ => 0.3,
        };
        for _ in 0..400 {
            for ctx in ["cornered", "open"] {
                let t = h.choose(ctx, &mut rng).unwrap();
                h.record(ctx, t, payoff(ctx, t));
            }
        }
        let mut picks = [0usize; 4];
        let mut rng = WorldRng::new(7);
        for _ in 0..1000 {
            picks[h.choose("cornered", &mut rng).unwrap()] += 1;
        }
        assert!(picks[0] > 850, "{picks:?}");
        let open = (0..1000).filter(|_| h.choose("open", &mut rng) == Some(2)).count();
        assert!(open > 850, "{open}");
        assert!((h.success_rate("cornered", 0).unwrap() - 0.8).abs() < 1e-9);
        h.record("open", 99, 1.0); // ignored
        assert_eq!(TacticHistory::new(&[], None, 0.0).choose("x", &mut rng), None);
    }
}
