//! Modular utility AI after GAIA (Game AI Pro, "Modular AI"): considerations turned into weight
//! values by weight functions, combined by dual utility (addend, multiplier, rank), reasoners
//! (sequence, rule-based, dual utility) in a tree, pickers over known actors, targets and regions
//! — all defined in TOML, the chapter's XML listings written as tables.

mod consider;
mod reasoner;
#[cfg(test)]
mod tests;
mod weights;
mod world;

pub use consider::{Combine, Consideration, Ctx, History, Picker, RankRule, Store, combine_values, option_weight};
pub use reasoner::{
    ActionSpec, Brain, BrainState, Command, Decision, OptionSpec, ReasonerKind, ReasonerSpec, dual_utility_candidates,
    select,
};
pub use weights::{
    Curve, CurveKind, CurveOutput, SequenceEntry, StringEntry, WeightFunction, WeightSpec, WeightValues,
};
pub use world::{Actor, ActorRef, Region, Resolved, Situation, Target};
