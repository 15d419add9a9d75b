//! # tactica-stdlib
//!
//! The one script-facing API of Tactica: the value type that crosses into scripts, the table of
//! host functions every language binds, the attribute schema and the action vocabulary. It starts
//! as the re-export of the engine's [`Value`]; the API table grows with the languages.

pub use tactica_engine::{Table, Value, ValueType};
