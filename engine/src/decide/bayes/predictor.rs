//! The frequency-based move predictor of chapter 13 (Ex. 13-1): count how often each symbol
//! followed each history of the last `history` symbols and predict the most frequent follower.
//!
//! Frequencies are stored and probabilities computed on demand (L6649). Where the book falls
//! back to `rand() % 3` on any tie or when a history was never seen (0/0 = NaN there), this
//! picks at random among the tied best (the book's own advice, L6770) or among all symbols when
//! there is no data.

use serde::{Deserialize, Serialize};

use crate::world::WorldRng;

/// An n-gram frequency predictor over `symbols` symbols with a history of `history` symbols.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrequencyPredictor {
    symbols: usize,
    history: usize,
    /// Per history row: how often each symbol followed (`NCAB`).
    counts: Vec<u32>,
    /// Per history row: how often the history occurred (`NAB`).
    totals: Vec<u32>,
    recent: Vec<usize>,
    /// The last prediction.
    pub prediction: usize,
    /// Predictions scored.
    pub n: u32,
    /// Correct predictions.
    pub successes: u32,
    /// Predictions that were random draws (no data or a tie).
    pub guesses: u32,
}

/// One prediction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Prediction {
    /// The predicted symbol.
    pub symbol: usize,
    /// Whether it was drawn at random (no data for the history, or a tie).
    pub random: bool,
}

impl FrequencyPredictor {
    /// A predictor with zeroed counts. Like the book's zero-initialised globals, the history
    /// starts as symbol 0 repeated and the first prediction is symbol 0. `symbols` is at least 1;
    /// `history` is capped at 8.
    pub fn new(symbols: usize, history: usize) -> Self {
        let symbols = symbols.max(1);
        let history = history.min(8);
        let rows = symbols.pow(history as u32);
        FrequencyPredictor {
            symbols,
            history,
            counts: vec![0; rows * symbols],
            totals: vec![0; rows],
            recent: vec![0; history],
            prediction: 0,
            n: 0,
            successes: 0,
            guesses: 0,
        }
    }

    fn row(&self) -> usize {
        self.recent.iter().fold(0, |r, s| r * self.symbols + s)
    }

    /// `ProcessMove`: scores the last prediction, counts `symbol` after the current history,
    /// shifts it in and predicts the next symbol. Out-of-range symbols are ignored.
    pub fn process(&mut self, symbol: usize, rng: &mut WorldRng) -> Option<Prediction> {
        if symbol >= self.symbols {
            return None;
        }
        self.n += 1;
        if symbol == self.prediction {
            self.successes += 1;
        }
        let row = self.row();
        self.totals[row] += 1;
        self.counts[row * self.symbols + symbol] += 1;
        if self.history > 0 {
            self.recent.remove(0);
            self.recent.push(symbol);
        }
        let p = self.predict(rng);
        self.prediction = p.symbol;
        self.guesses += u32::from(p.random);
        Some(p)
    }

    /// The most frequent follower of the current history.
    pub fn predict(&self, rng: &mut WorldRng) -> Prediction {
        let row = self.row();
        let counts = &self.counts[row * self.symbols..(row + 1) * self.symbols];
        let best = counts.iter().copied().max().unwrap_or(0);
        if self.totals[row] == 0 || best == 0 {
            return Prediction { symbol: rng.below(self.symbols), random: true };
        }
        let tied: Vec<usize> = (0..self.symbols).filter(|&s| counts[s] == best).collect();
        match tied.as_slice() {
            [only] => Prediction { symbol: *only, random: false },
            _ => Prediction { symbol: tied[rng.below(tied.len())], random: true },
        }
    }

    /// `P(next = each symbol | current history)`; `None` when the history was never seen.
    pub fn probabilities(&self) -> Option<Vec<f64>> {
        let row = self.row();
        let total = self.totals[row];
        (total > 0).then(|| {
            self.counts[row * self.symbols..(row + 1) * self.symbols]
                .iter()
                .map(|&c| f64::from(c) / f64::from(total))
                .collect()
        })
    }

    /// How often each history occurred (`NAB`).
    pub fn history_counts(&self) -> &[u32] {
        &self.totals
    }

    /// How often each symbol followed a history (`NCAB[row]`).
    pub fn follower_counts(&self, row: usize) -> &[u32] {
        self.counts.get(row * self.symbols..(row + 1) * self.symbols).unwrap_or(&[])
    }
}
