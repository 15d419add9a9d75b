//! # tactica-rhai
//!
//! Tactica's script API bound into Rhai. Not yet built.
