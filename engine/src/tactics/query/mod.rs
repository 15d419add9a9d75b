//! Tactical position selection (TPS): the query language and its evaluator, after CryEngine's
//! system as described in reference 001 (Game AI Pro ch. 26), with EQS/UQS-style generators.
//!
//! A [`Query`] is a list of options tried in order; each has Generation (where candidate points come
//! from), Conditions (all must pass) and Weights (normalised criteria times signed multipliers,
//! summed). Keys are keywords joined by underscores — criterion first, then objects, with `min_`/
//! `max_` turning a number into a condition and `around` naming the generation centre:
//!
//! ```
//! use std::sync::Arc;
//! use glam::Vec2;
//! use tactica_engine::grid::Map;
//! use tactica_engine::tactics::query::*;
//! use tactica_engine::world::EntityId;
//!
//! let src = r#"
//! query step_back {
//!     option {
//!         Generation { grid_around_puppet = 3 }
//!         Conditions { min_distance_from_puppet = 2 }
//!         Weights    { distance_from_target = 1.0 }
//!     }
//! }"#;
//! let q = Arc::new(parse_queries("demo.tac", src, QueryConfig::default()).unwrap().remove(0));
//! let map = Map::open(16, 16);
//! let reservations = Reservations::new();
//! let env = QueryEnv::new(&map, &reservations);
//! let objects = Objects::new()
//!     .with(ObjectKind::Puppet, ObjectState::at(Vec2::new(8.5, 8.5)))
//!     .with(ObjectKind::Target, ObjectState::at(Vec2::new(12.5, 8.5)));
//! let (outcome, _) = Evaluation::run(q, QueryRequest::new(EntityId::default(), objects), &env);
//! // The grid point farthest from the target, 2 or more cells from us: a corner on our far side.
//! assert_eq!(outcome.best().unwrap().candidate.position, Vec2::new(5.5, 5.5));
//! ```
//!
//! Modules: [`keyword`] (the registry and type tags), `compile` ([`compile_value`] from a `Value`
//! map), `text` ([`parse_queries`], the `.tac` block syntax), `spec` (the compiled form), `env`
//! (objects, candidates, data-source traits), `connect` (those traits for `WaypointDb`, grid A*
//! and `field` layers), `generate`, `criteria`, `eval` (the lazy heap
//! evaluator and the exhaustive reference), `schedule` (time slicing), `reserve`, `record` (debug
//! records), `library` (reload).

mod compile;
mod connect;
mod criteria;
mod env;
mod error;
mod eval;
mod generate;
pub mod keyword;
mod library;
mod live;
mod record;
mod reserve;
mod schedule;
mod service;
mod spec;
mod text;

pub use compile::compile_value;
pub use connect::{AStarOracle, COVERED};
pub use criteria::{camera_center, can_reach_before, directness, leftness, random01, segments_intersect};
pub use env::{
    Candidate, Cover, CoverRail, CoverRailSource, EntitySource, Hidespot, HidespotShape, HidespotSource,
    InfluenceLookup, NoData, ObjectState, Objects, PathOracle, PointKey, PointSource, QueryEnv, cell,
};
pub use error::{Location, QueryError, QueryErrorKind, QueryErrors};
pub use eval::{
    EvalStats, Evaluation, FailureReason, OptionFailure, Outcome, QueryFailure, QueryRequest, QueryResult, Status,
    describe_failure, evaluate_exhaustive,
};
pub use keyword::{CostClass, Criterion, GeneratorKind, ObjectKind, Section};
pub use library::QueryLibrary;
pub use live::evaluate_in_world;
pub use record::{
    CandidateRecord, CandidateStatus, OptionRecord, QueryRecord, TestEffect, TestRecord, format_query, format_record,
};
pub use reserve::Reservations;
pub use schedule::{Clock, Finished, QueryScheduler, Ticket, WallClock};
pub use service::{ANSWER_TICKS, AskedQuery, PositionAnswer, PositionService};
pub use spec::{FailureAction, GeneratorSpec, Query, QueryConfig, QueryOption, Role, Test};
pub use text::parse_queries;
