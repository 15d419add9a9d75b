//! # tactica-rhai
//!
//! Tactica's script API bound into Rhai.
//!
//! - [`RhaiBackend`]: a [`ScriptBackend`](tactica_stdlib::backend::ScriptBackend) for `.rhai`
//!   files. One engine built from `Engine::new_raw` plus the core, logic, math, array, map and
//!   string packages: no `eval`, no `import` (a dummy module resolver), no time; `print` and `debug`
//!   write `print` events to the trace (`print.rs`). Every
//!   call runs under the one [`ScriptLimits`](tactica_stdlib::ScriptLimits): max operations, call
//!   levels, and string, array and map size caps in place of a memory limit.
//! - Every function of the stdlib table is registered by one generic adapter, under its
//!   canonical name (`MoveTo`) and its snake_case alias (`move_to`).
//! - `Entity` and `Vec2` are custom types with no constructor: scripts hold and compare handles
//!   but cannot build them; a stale handle is an error, not another entity.
//! - A script defines `fn on_spawn()`, `fn on_think()`, `fn on_encounter()`, `fn on_hear(text)`,
//!   `fn on_tick()`, and may define `fn sequence()`, run once at spawn with its actions queued
//!   in order. The instance's state table is `this` inside every handler.
//!
//! ```
//! use std::path::Path;
//! use tactica_rhai::RhaiBackend;
//! use tactica_stdlib::backend::ScriptBackend;
//!
//! let mut rhai = RhaiBackend::standard();
//! assert!(rhai.compile(Path::new("ok.rhai"), "fn on_think() { say(\"hi\"); }").is_ok());
//! let errors = rhai.compile(Path::new("bad.rhai"), "fn on_think() {\n  say(\"hi\"\n}").unwrap_err();
//! assert_eq!(errors[0].line, 3);
//! ```

#![deny(missing_docs)]

mod backend;
mod calls;
mod convert;
mod lint;
mod print;
mod text;
mod work;

pub use backend::{RhaiBackend, SEQUENCE};

/// The squad signals a Rhai script sends and waits for with literal ids (`signal("ready")`,
/// `wait("go")`), read without running it, for `tactica check`'s pairing of signals and waits
/// across languages; nothing when it does not compile.
pub fn squad_signals(source: &str) -> tactica_stdlib::ScriptSignals {
    let engine = backend::sandboxed_engine(
        std::sync::Arc::new(tactica_stdlib::Api::raw()),
        &tactica_stdlib::ScriptLimits::new(),
    );
    lint::squad_signals(&engine, source)
}
