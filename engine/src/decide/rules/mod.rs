//! Rule-based AI (chapter 11): working memory, forward chaining with conflict resolution and
//! refraction, backward chaining, the tech tree and the 27-rule strike predictor.

mod chain;
mod strike;
mod techtree;
#[cfg(test)]
mod tests;

pub use chain::{ChainState, FactId, Firing, Proof, RuleDef, RuleSet, RuleSpec, Strategy, WorkingMemory};
pub use strike::{Strike, StrikePredictor, StrikeRule};
pub use techtree::{CAVALRY_RULE, TECH_TREE};
