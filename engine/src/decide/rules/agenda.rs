//! The one forward-chaining engine: conflict resolution, refraction and the match–fire cycle,
//! whatever a rule's condition is.
//!
//! A data-file [`RuleSet`](super::RuleSet) drives it with conditions over its working memory; a
//! `.tac` rule system drives it with conditions that are bytecode (they may read globals and call
//! host functions, and may fail). Both get the same cycle from [`forward_chain`] and the same
//! choice from [`Strategy::choose`], so a fix or a speed-up here lands for both.
//!
//! **The cycle.** Every rule is matched; a rule that matches is left out while the values it reads
//! are the ones it last fired on (refraction — without it `if (Priest == Yes) …` would fire
//! forever); the strategy picks one of the rest; it fires; repeat until none is left.

use serde::{Deserialize, Serialize};

use crate::value::Value;
use crate::world::WorldRng;

/// Conflict resolution: which of the matching rules fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// The first matching rule in written order.
    #[default]
    First,
    /// The matching rule with the highest weight; ties go to the first written (the book's
    /// fighting-game predictor keeps the first best it finds).
    Weight,
    /// A matching rule chosen uniformly at random, from the world's generator.
    Random,
}

impl Strategy {
    /// Picks one of `conflict` (rule indices in written order) by this strategy; `weight` gives a
    /// rule's weight. `None` when the set is empty.
    pub fn choose(
        self,
        conflict: impl Iterator<Item = usize> + Clone,
        weight: impl Fn(usize) -> f64,
        rng: &mut WorldRng,
    ) -> Option<usize> {
        match self {
            Strategy::First => conflict.min(),
            // Strictly greater replaces, so ties stay with the first written.
            Strategy::Weight => conflict.fold(None, |best: Option<usize>, r| match best {
                Some(b) if weight(b) >= weight(r) => Some(b),
                _ => Some(r),
            }),
            Strategy::Random => {
                let n = conflict.clone().count();
                if n == 0 {
                    return None;
                }
                conflict.clone().nth(rng.below(n))
            }
        }
    }
}

/// Rules as the cycle sees them: how many, their weights, whether one matches now (and on what
/// values, its refraction key), firing one, and the generator a `random` choice draws from (the
/// rules' own, since matching may draw from it too).
pub trait Productions {
    /// Why matching or firing failed (`Infallible` when it cannot).
    type Error;
    /// How many rules there are, in written order.
    fn len(&self) -> usize;
    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Rule `rule`'s weight for [`Strategy::Weight`].
    fn weight(&self, rule: usize) -> f64;
    /// `Some(key)` when rule `rule` matches now, `key` being the values of what it reads.
    fn matches(&mut self, rule: usize) -> Result<Option<Vec<Value>>, Self::Error>;
    /// Fires rule `rule`.
    fn fire(&mut self, rule: usize) -> Result<(), Self::Error>;
    /// The world's generator.
    fn rng(&mut self) -> &mut WorldRng;
}

/// What a [`forward_chain`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    /// The rules fired, in order.
    pub fired: Vec<usize>,
    /// `None` when no rule was left to fire; else the rule that would have fired next when the
    /// firing limit was reached (a rule base that does not settle).
    pub unsettled: Option<usize>,
}

/// Runs the cycle to quiescence or `max_firings`. `fired_on[r]` is what rule `r` last fired on;
/// it is read and updated, so refraction carries over between runs when the caller keeps it.
pub fn forward_chain<P: Productions>(
    rules: &mut P,
    strategy: Strategy,
    fired_on: &mut [Option<Vec<Value>>],
    max_firings: usize,
) -> Result<Chain, P::Error> {
    // Weights matter to one strategy; the others do not pay for collecting them.
    let weights: Vec<f64> =
        if strategy == Strategy::Weight { (0..rules.len()).map(|r| rules.weight(r)).collect() } else { Vec::new() };
    let mut fired = Vec::new();
    loop {
        let mut conflict: Vec<(usize, Vec<Value>)> = Vec::new();
        for r in 0..rules.len() {
            let Some(key) = rules.matches(r)? else { continue };
            if fired_on.get(r).is_some_and(|last| last.as_ref() == Some(&key)) {
                continue;
            }
            conflict.push((r, key));
        }
        let Some(pick) =
            strategy.choose(conflict.iter().map(|(r, _)| *r), |r| weights.get(r).copied().unwrap_or(0.0), rules.rng())
        else {
            return Ok(Chain { fired, unsettled: None });
        };
        if fired.len() >= max_firings {
            return Ok(Chain { fired, unsettled: Some(pick) });
        }
        let key = conflict.into_iter().find(|(r, _)| *r == pick).map(|(_, k)| k);
        if let Some(slot) = fired_on.get_mut(pick) {
            *slot = key;
        }
        rules.fire(pick)?;
        fired.push(pick);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counters: rule r matches while `count[r] < limit[r]` and adds one when it fires; rule 2
    /// fails to match once `count[0]` reaches 2.
    struct Counters {
        count: Vec<i64>,
        limit: Vec<i64>,
        weights: Vec<f64>,
        rng: WorldRng,
    }

    impl Productions for Counters {
        type Error = String;
        fn len(&self) -> usize {
            self.count.len()
        }
        fn weight(&self, rule: usize) -> f64 {
            self.weights[rule]
        }
        fn matches(&mut self, rule: usize) -> Result<Option<Vec<Value>>, String> {
            if rule == 2 && self.count[0] >= 2 {
                return Err("rule 2 cannot be matched".into());
            }
            Ok((self.count[rule] < self.limit[rule]).then(|| vec![Value::Int(self.count[rule])]))
        }
        fn fire(&mut self, rule: usize) -> Result<(), String> {
            self.count[rule] += 1;
            Ok(())
        }
        fn rng(&mut self) -> &mut WorldRng {
            &mut self.rng
        }
    }

    fn counters(limit: &[i64], weights: &[f64]) -> Counters {
        Counters {
            count: vec![0; limit.len()],
            limit: limit.to_vec(),
            weights: weights.to_vec(),
            rng: WorldRng::new(1),
        }
    }

    #[test]
    fn first_fires_in_written_order_until_quiet() {
        let mut c = counters(&[2, 1], &[0.0, 0.0]);
        let mut on = vec![None; 2];
        let chain = forward_chain(&mut c, Strategy::First, &mut on, 100).unwrap();
        assert_eq!(chain, Chain { fired: vec![0, 0, 1], unsettled: None });
    }

    #[test]
    fn weight_prefers_the_heaviest_and_ties_go_to_the_first() {
        let mut c = counters(&[1, 1, 0], &[1.0, 5.0, 5.0]);
        let mut on = vec![None; 3];
        let chain = forward_chain(&mut c, Strategy::Weight, &mut on, 100).unwrap();
        assert_eq!(chain.fired, [1, 0]);
        assert_eq!(
            Strategy::Weight.choose([0, 1, 2].into_iter(), |r| [1.0, 5.0, 5.0][r], &mut WorldRng::new(1)),
            Some(1)
        );
    }

    #[test]
    fn refraction_stops_a_rule_firing_twice_on_the_same_values() {
        // A rule that matches forever on an unchanging value fires once.
        struct Always(WorldRng);
        impl Productions for Always {
            type Error = std::convert::Infallible;
            fn len(&self) -> usize {
                1
            }
            fn weight(&self, _: usize) -> f64 {
                0.0
            }
            fn matches(&mut self, _: usize) -> Result<Option<Vec<Value>>, Self::Error> {
                Ok(Some(vec![Value::from("Yes")]))
            }
            fn fire(&mut self, _: usize) -> Result<(), Self::Error> {
                Ok(())
            }
            fn rng(&mut self) -> &mut WorldRng {
                &mut self.0
            }
        }
        let mut on = vec![None];
        let mut always = Always(WorldRng::new(1));
        assert_eq!(forward_chain(&mut always, Strategy::First, &mut on, 10).unwrap().fired, [0]);
        assert!(forward_chain(&mut always, Strategy::First, &mut on, 10).unwrap().fired.is_empty(), "kept");
    }

    #[test]
    fn a_limit_reports_the_rule_that_would_fire_next_and_a_failing_match_stops_the_cycle() {
        let mut c = counters(&[100, 0, 5], &[0.0; 3]);
        c.count[0] = 0;
        let mut on = vec![None; 3];
        // Rule 2 fails to match once rule 0 has fired twice: the error comes out, nothing more fires.
        let err = forward_chain(&mut c, Strategy::First, &mut on, 100).unwrap_err();
        assert_eq!(err, "rule 2 cannot be matched");
        assert_eq!(c.count, [2, 0, 0]);
        let mut c = counters(&[100], &[0.0]);
        let mut on = vec![None];
        let chain = forward_chain(&mut c, Strategy::First, &mut on, 3).unwrap();
        assert_eq!(chain, Chain { fired: vec![0, 0, 0], unsettled: Some(0) });
    }
}
