//! Decision models: the ways designers describe what a character decides.
//!
//! | module | model | source |
//! | --- | --- | --- |
//! | [`fsm`] | state machines with enter/exit/tick hooks, ordered guarded transitions, hierarchy, weighted transitions; the stealth guard | ch. 9, 12; 003 |
//! | [`adaptive`] | tactic histories: record decisions and their success per context, prefer what worked | 003 |
//! | [`ants`] | the two-colony ant simulation of chapter 9 | ch. 9 |
//! | [`fuzzy`] | membership functions, hedges, operators, rule bases and matrices, defuzzification | ch. 10 |
//! | [`rules`] | working memory, forward chaining (incremental, refraction), backward chaining, the tech tree, the 27-rule strike predictor | ch. 11 |
//! | [`bayes`] | probability helpers, discrete Bayesian networks (enumeration and variable elimination), tables learned from counters, what-if clamping, the frequency predictor | ch. 12, 13 |
//! | [`utility`] | modular utility AI after GAIA: considerations, weight functions, reasoners (sequence, rule-based, dual utility), pickers, targets, regions | Game AI Pro "Modular AI" |
//! | [`learn`] | three-layer back-propagation network with momentum; genetic algorithms | ch. 14, 15 |
//! | [`registry`] | [`Models`], the world's named models a scenario's `[models]` section loads | — |
//! | [`crowd`] | daily schedules, open-loop action queues with fail → flush → fallback, a propositional planner | "1000 NPCs at 60 FPS" |
//! | [`bt`] | behaviour trees: composites, decorators, observer aborts, services, subtrees with ports, built-in and script leaves, event-driven evaluation | BehaviorTree.CPP; Unreal |
//!
//! Every model is data (a TOML document parsed from a `&str`; the engine does no file IO) plus a
//! small per-entity state, so one definition serves thousands of characters and a reload swaps the
//! definition without touching the state. Randomness comes from a [`WorldRng`](crate::world::WorldRng)
//! passed in. Script hosts drive the models with plain [`Value`](crate::Value)s: each model has a
//! `*_value` entry point taking and returning maps and lists.

pub mod adaptive;
pub mod ants;
pub mod bayes;
pub mod bt;
pub mod crowd;
mod error;
pub mod expr;
pub mod fsm;
pub mod fuzzy;
pub mod learn;
pub mod registry;
pub mod rules;
pub mod utility;

pub use error::DecideError;
pub use registry::{Model, ModelKind, Models};
