//! Tactical position selection: the reference's query examples on built maps with known answers,
//! diagnostics, lazy-versus-exhaustive equivalence, time slicing and reservations.

mod tps {
    pub mod common;
    mod connect;
    mod diagnostics;
    mod examples;
    mod features;
    mod lazy;
    mod schedule;
}
