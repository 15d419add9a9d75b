//! Tactics: tactical waypoints with their generated properties, and tactical position selection
//! ([`query`]): the query language designers write and the evaluator that answers it.

pub mod query;
