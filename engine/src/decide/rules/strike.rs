//! The fighting-game strike predictor of chapter 11 (Ex. 11-6 … 11-11): 27 weighted rules
//! "if the last two strikes were A, B then the next is C", reinforced when right and suppressed
//! when wrong.
//!
//! The printed Ex. 11-11 has garbled braces; the prose (L5826–5834) fixes the semantics followed
//! here: the random-guess tally and the working-memory roll happen on every call.

use serde::{Deserialize, Serialize};

use crate::world::WorldRng;

/// A strike.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strike {
    /// Punch.
    Punch,
    /// Low kick.
    LowKick,
    /// High kick.
    HighKick,
}

impl Strike {
    /// The three strikes in the book's order.
    pub const ALL: [Strike; 3] = [Strike::Punch, Strike::LowKick, Strike::HighKick];

    /// Index 0..3 (Punch, LowKick, HighKick).
    pub fn index(self) -> usize {
        self as usize
    }

    /// A strike by name (`punch`, `low_kick`, `high_kick`, or `P`/`L`/`H`).
    pub fn parse(name: &str) -> Option<Strike> {
        match name.to_ascii_lowercase().as_str() {
            "punch" | "p" => Some(Strike::Punch),
            "low_kick" | "lowkick" | "l" => Some(Strike::LowKick),
            "high_kick" | "highkick" | "h" => Some(Strike::HighKick),
            _ => None,
        }
    }
}

/// One rule `(A, B) → C` with its weight and matched flag (`TRule`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StrikeRule {
    /// The strike before the previous one.
    pub a: Strike,
    /// The previous strike.
    pub b: Strike,
    /// The predicted strike.
    pub c: Strike,
    /// Whether it matched the working memory at the last prediction.
    pub matched: bool,
    /// Its strength.
    pub weight: i32,
}

/// The predictor's working memory, rules and tallies.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StrikePredictor {
    /// `strikeA`, `strikeB`: the last two strikes (`None` = Unknown).
    pub memory: [Option<Strike>; 2],
    /// The 27 rules; index = 9·A + 3·B + C.
    pub rules: Vec<StrikeRule>,
    /// The rule that made the last prediction.
    pub previous_rule: Option<usize>,
    /// The last prediction (`strikeC`).
    pub prediction: Option<Strike>,
    /// The last random guess, for the baseline.
    pub random_prediction: Option<Strike>,
    /// Predictions scored.
    pub n: u32,
    /// Correct predictions.
    pub successes: u32,
    /// Correct random guesses.
    pub random_successes: u32,
}

impl Default for StrikePredictor {
    fn default() -> Self {
        Self::new()
    }
}

impl StrikePredictor {
    /// `Initialize()`: every rule at weight 0, memory Unknown.
    pub fn new() -> Self {
        let mut rules = Vec::with_capacity(27);
        for a in Strike::ALL {
            for b in Strike::ALL {
                for c in Strike::ALL {
                    rules.push(StrikeRule { a, b, c, matched: false, weight: 0 });
                }
            }
        }
        StrikePredictor {
            memory: [None, None],
            rules,
            previous_rule: None,
            prediction: None,
            random_prediction: None,
            n: 0,
            successes: 0,
            random_successes: 0,
        }
    }

    /// `ProcessMove`: scores the last prediction, learns, and predicts the next strike (`None`
    /// while fewer than two strikes are known).
    pub fn process(&mut self, strike: Strike, rng: &mut WorldRng) -> Option<Strike> {
        // Part 1: fill the working memory.
        if self.memory[0].is_none() {
            self.memory[0] = Some(strike);
            return None;
        }
        if self.memory[1].is_none() {
            self.memory[1] = Some(strike);
            return None;
        }
        // Part 2: score and learn.
        self.n += 1;
        if self.prediction == Some(strike) {
            self.successes += 1;
            if let Some(r) = self.previous_rule {
                self.rules[r].weight += 1;
            }
        } else {
            if let Some(r) = self.previous_rule {
                self.rules[r].weight -= 1;
            }
            // Backward chaining: reward the first matched rule that would have been right.
            if let Some(r) = self.rules.iter_mut().find(|r| r.matched && r.c == strike) {
                r.weight += 1;
            }
        }
        if self.random_prediction == Some(strike) {
            self.random_successes += 1;
        }
        self.memory = [self.memory[1], Some(strike)];
        self.predict(rng)
    }

    /// Part 3: match, pick the heaviest matched rule (ties: the first), fire.
    fn predict(&mut self, rng: &mut WorldRng) -> Option<Strike> {
        let [a, b] = self.memory;
        let mut best: Option<usize> = None;
        for (i, r) in self.rules.iter_mut().enumerate() {
            r.matched = Some(r.a) == a && Some(r.b) == b;
            if r.matched && best.is_none() {
                best = Some(i);
            }
        }
        for (i, r) in self.rules.iter().enumerate() {
            if r.matched && best.is_some_and(|b| r.weight > self.rules[b].weight) {
                best = Some(i);
            }
        }
        self.previous_rule = best;
        self.prediction = best.map(|i| self.rules[i].c);
        self.random_prediction = Some(Strike::ALL[rng.below(3)]);
        self.prediction
    }

    /// The success rates of the rules and of random guessing.
    pub fn success_rates(&self) -> (f64, f64) {
        if self.n == 0 {
            return (0.0, 0.0);
        }
        (f64::from(self.successes) / f64::from(self.n), f64::from(self.random_successes) / f64::from(self.n))
    }
}
