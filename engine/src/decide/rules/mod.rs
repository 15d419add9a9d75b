//! Rule-based AI (chapter 11): working memory, forward chaining with conflict resolution and
//! refraction, backward chaining, the tech tree and the 27-rule strike predictor.
//!
//! One engine serves every rule system: [`agenda`] holds the cycle, conflict resolution and
//! refraction; [`RuleSet`] (a scenario's rule-base files) drives it over its working memory, and
//! `.tac` rule systems drive it with their compiled conditions, and answer `prove` with a
//! [`RuleSet`] built from their rules ([`RuleSet::from_parsed`]).

pub mod agenda;
mod chain;
mod strike;
mod techtree;
#[cfg(test)]
mod tests;

pub use agenda::{Chain, Productions, Strategy, forward_chain};
pub use chain::{
    ChainState, FactId, Firing, PROVE_DEPTH, ParsedRule, Proof, RuleDef, RuleSet, RuleSpec, WorkingMemory,
};
pub use strike::{Strike, StrikePredictor, StrikeRule};
pub use techtree::{CAVALRY_RULE, TECH_TREE};
