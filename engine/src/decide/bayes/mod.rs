//! Probability and Bayesian techniques (chapters 12 and 13): helpers, discrete Bayesian networks
//! with exact inference, tables learned from counters, what-if queries, and the frequency-based
//! move predictor.

mod factor;
mod network;
mod predictor;
mod prob;
#[cfg(test)]
mod tests;

pub use network::{Counters, Evidence, Network, NetworkSpec, NodeId, NodeSpec, normalise};
pub use predictor::{FrequencyPredictor, Prediction};
pub use prob::{
    EncounterStats, bayes, expectation, lottery, odds_to_probability, pick_cumulative, pick_weighted,
    probability_to_odds, union2, union3,
};
