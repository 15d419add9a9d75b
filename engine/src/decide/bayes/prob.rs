//! Probability helpers from chapter 12: odds, expectation, unions, Bayes' rule, weighted random
//! choice by cumulative ranges and by lottery array, and adaptive encounter statistics.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::world::WorldRng;

/// Odds `a : b` for success as a probability, `a / (a + b)`; 0 when both are 0.
pub fn odds_to_probability(a: f64, b: f64) -> f64 {
    if a + b > 0.0 { a / (a + b) } else { 0.0 }
}

/// A probability as odds `p : (1 − p)`, returned as their ratio (0.6 → 1.5, "1.5 : 1").
pub fn probability_to_odds(p: f64) -> f64 {
    if p >= 1.0 { f64::INFINITY } else { p / (1.0 - p) }
}

/// The expectation `Σ xᵢ pᵢ` of a discrete distribution.
pub fn expectation(outcomes: &[(f64, f64)]) -> f64 {
    outcomes.iter().map(|(x, p)| x * p).sum()
}

/// `P(A ∪ B) = P(A) + P(B) − P(A ∩ B)` (rule 5).
pub fn union2(a: f64, b: f64, ab: f64) -> f64 {
    a + b - ab
}

/// Inclusion–exclusion for three events. The book (L6125) subtracts `P(A∩B∩C)`; the correct
/// formula adds it back, as here.
pub fn union3(a: f64, b: f64, c: f64, ab: f64, ac: f64, bc: f64, abc: f64) -> f64 {
    a + b + c - ab - ac - bc + abc
}

/// Bayes' rule `P(B|A) = P(B) P(A|B) / P(A)`; 0 when `P(A)` is 0.
pub fn bayes(p_b: f64, p_a_given_b: f64, p_a: f64) -> f64 {
    if p_a > 0.0 { p_b * p_a_given_b / p_a } else { 0.0 }
}

/// The index whose cumulative range holds `r` in `[0, Σ weights)` — the 0..99 draw of L5876.
/// `None` when `r` is beyond the total.
pub fn pick_cumulative(weights: &[f64], r: f64) -> Option<usize> {
    let mut acc = 0.0;
    for (i, w) in weights.iter().enumerate() {
        acc += w.max(0.0);
        if r < acc {
            return Some(i);
        }
    }
    None
}

/// Picks an index in proportion to its weight; `None` when all weights are 0.
pub fn pick_weighted(weights: &[f64], rng: &mut WorldRng) -> Option<usize> {
    let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
    if total <= 0.0 {
        return None;
    }
    pick_cumulative(weights, rng.range(0.0, total)).or_else(|| weights.iter().rposition(|w| *w > 0.0))
}

/// The lottery array of L5918: each choice's code repeated in proportion to its probability
/// over `slots` slots (rounded down; leftovers stay unassigned).
pub fn lottery(probabilities: &[f64], slots: usize) -> Vec<usize> {
    let mut out = Vec::with_capacity(slots);
    for (code, p) in probabilities.iter().enumerate() {
        let n = (p.max(0.0) * slots as f64 + 1e-9).floor() as usize;
        out.extend(std::iter::repeat_n(code, n.min(slots - out.len().min(slots))));
    }
    out
}

/// Adaptive encounter statistics (L5920–5924): per opponent class, encounters and deaths, and
/// whether to avoid or seek that class.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EncounterStats {
    /// Per class: (encounters, deaths).
    pub classes: BTreeMap<String, (u32, u32)>,
}

impl EncounterStats {
    /// Records one encounter with `class` and whether the creature died.
    pub fn record(&mut self, class: &str, died: bool) {
        let e = self.classes.entry(class.to_owned()).or_default();
        e.0 += 1;
        e.1 += u32::from(died);
    }

    /// The death rate against `class`; `None` before any encounter.
    pub fn death_rate(&self, class: &str) -> Option<f64> {
        self.classes.get(class).filter(|e| e.0 > 0).map(|e| f64::from(e.1) / f64::from(e.0))
    }

    /// Whether to avoid `class`: its death rate exceeds `threshold`. Unknown classes are not avoided.
    pub fn avoid(&self, class: &str, threshold: f64) -> bool {
        self.death_rate(class).is_some_and(|r| r > threshold)
    }
}
