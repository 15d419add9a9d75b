//! Errors of the tactical analyses.

use thiserror::Error;

/// What went wrong building or updating a tactical map. Every operation that can be handed bad
/// input returns one of these instead of panicking.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum FieldError {
    /// A team index was not below the number of teams the map was built with.
    #[error("team {team} does not exist (the map has {teams} teams)")]
    NoSuchTeam {
        /// The index given.
        team: usize,
        /// How many teams there are.
        teams: usize,
    },
    /// A source id is stale or was never issued.
    #[error("no influence source with id {0}")]
    NoSuchSource(u32),
    /// A strength, radius or weight was NaN or infinite.
    #[error("{what} must be finite, got {value}")]
    NotFinite {
        /// Which parameter.
        what: &'static str,
        /// The value given.
        value: f32,
    },
    /// Two layers (or a layer and a map) that must have the same size do not.
    #[error("size mismatch: expected {expected:?}, got {got:?}")]
    ShapeMismatch {
        /// `(width, height)` expected.
        expected: (u32, u32),
        /// `(width, height)` given.
        got: (u32, u32),
    },
    /// A convolution kernel is empty, not square, of even size or holds a non-finite weight.
    #[error("bad kernel: {0}")]
    BadKernel(&'static str),
    /// A node index is not in the graph.
    #[error("node {node} is not in the graph ({nodes} nodes)")]
    NoSuchNode {
        /// The index given.
        node: usize,
        /// How many nodes there are.
        nodes: usize,
    },
}

/// Checks that `value` is finite.
pub(crate) fn finite(what: &'static str, value: f32) -> Result<f32, FieldError> {
    if value.is_finite() { Ok(value) } else { Err(FieldError::NotFinite { what, value }) }
}
