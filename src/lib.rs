//! # tactica
//!
//! The Tactica runtime: load a [`scenario`], attach its scripts through the [`host`] (one
//! backend trait, one implementation per language), and play it tick by tick with the
//! [`runtime::Runtime`], recording a deterministic trace.
//!
//! ```no_run
//! use std::path::Path;
//!
//! let scenario = tactica::scenario::load(Path::new("examples/harbour/scenario.toml")).unwrap();
//! let mut rt = tactica::runtime::Runtime::new(scenario, tactica::languages()).unwrap();
//! rt.run(rt.scenario_ticks());
//! println!("{}", rt.trace_hash());
//! ```
//!
//! **Architecture invariant:** this crate is the only one that reads files, watches them or
//! talks to a terminal; the engine, the stdlib and the languages work on text and values.

#![warn(missing_docs)]

pub mod cli;
pub mod host;
pub mod reload;
pub mod render;
pub mod runtime;
pub mod scenario;

/// Every script language built into this runtime.
pub fn languages() -> Vec<Box<dyn host::ScriptBackend>> {
    vec![Box::new(host::TacBackend::new())]
}
