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

#[cfg(feature = "cli")]
pub mod cli;
pub mod host;
pub mod reload;
#[cfg(feature = "render")]
pub mod render;
pub mod runtime;
pub mod scenario;
pub use tactica_stdlib::memory;

/// Every script language built into this runtime: Tactica Script (`.tac`), Lua (`.lua`) and Rhai
/// (`.rhai`), each binding the standard API table under the default [`host::ScriptLimits`].
pub fn languages() -> Vec<Box<dyn host::ScriptBackend>> {
    languages_with(host::ScriptLimits::new())
}

/// Every script language built into this runtime, under `limits` (`.tac` runs under its own
/// `ScriptLimits` from its stdlib defaults).
pub fn languages_with(limits: host::ScriptLimits) -> Vec<Box<dyn host::ScriptBackend>> {
    let api = || tactica_stdlib::Api::standard();
    #[cfg_attr(not(any(feature = "lua", feature = "rhai")), allow(unused_mut))]
    let mut all: Vec<Box<dyn host::ScriptBackend>> = vec![Box::new(host::TacBackend::new())];
    #[cfg(feature = "lua")]
    all.push(Box::new(tactica_lua::LuaBackend::new(api(), limits)));
    #[cfg(feature = "rhai")]
    all.push(Box::new(tactica_rhai::RhaiBackend::new(api(), limits)));
    let _ = (api, limits); // unused when neither Lua nor Rhai is built in
    all
}
