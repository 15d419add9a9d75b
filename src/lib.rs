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
pub mod editor;
pub mod host;
#[cfg(feature = "cli")]
pub mod lsp;
pub mod output;
pub mod reload;
#[cfg(feature = "render")]
pub mod render;
pub mod runtime;
pub mod scenario;
pub mod testing;
#[cfg(feature = "view")]
pub mod view;
pub mod walk;
pub use tactica_stdlib::memory;

/// Every script language built into this runtime: Tactica Script (`.tac`), Lua (`.lua`) and Rhai
/// (`.rhai`), each binding the standard API table under the default [`host::ScriptLimits`].
pub fn languages() -> Vec<Box<dyn host::ScriptBackend>> {
    languages_with(host::ScriptLimits::new())
}

/// Every script language built into this runtime, under `limits`.
pub fn languages_with(limits: host::ScriptLimits) -> Vec<Box<dyn host::ScriptBackend>> {
    languages_for(&host::Api::standard(), limits)
}

/// Every script language built into this runtime, each binding `api` — the standard table plus
/// the game's own functions ([`host::Api::add_closure`]) — under `limits`. Hand the same `api` to
/// [`tactica_script::check`] (or `tactica check` in a build of the game's own) and scripts are
/// checked against the game's functions too.
pub fn languages_for(api: &host::Api, limits: host::ScriptLimits) -> Vec<Box<dyn host::ScriptBackend>> {
    #[cfg_attr(not(any(feature = "lua", feature = "rhai")), allow(unused_mut))]
    let mut all: Vec<Box<dyn host::ScriptBackend>> = vec![Box::new(host::TacBackend::with_api(api.clone(), limits))];
    #[cfg(feature = "lua")]
    all.push(Box::new(tactica_lua::LuaBackend::new(api.clone(), limits)));
    #[cfg(feature = "rhai")]
    all.push(Box::new(tactica_rhai::RhaiBackend::new(api.clone(), limits)));
    all
}
