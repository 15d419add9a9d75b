//! # tactica-lua
//!
//! Tactica's script API bound into Lua 5.4 (mlua, vendored, so a fresh machine builds it).
//!
//! - [`LuaBackend`]: a [`ScriptBackend`](tactica_stdlib::backend::ScriptBackend) for `.lua` files.
//!   Each file gets its own sandboxed state: the safe standard library only (no `io`, `os`,
//!   `package`, `require`, `debug`, `load`, `dofile`, `string.dump`, `collectgarbage`), text
//!   chunks only, an instruction budget and call-depth check in a hook, and an allocator limit,
//!   all from one [`ScriptLimits`](tactica_stdlib::ScriptLimits).
//! - Every function of the stdlib table is bound by one generic adapter, under its canonical
//!   name (`MoveTo`) and its snake_case alias (`move_to`); the adapter is made once per state and
//!   the call's context is lent to it for that call only (`lend.rs`, a scoped thread-local).
//! - Entity handles and vectors are userdata: scripts hold and compare them but cannot build
//!   them; a stale handle is an error, not another entity.
//! - A script defines handlers `on_spawn`, `on_think`, `on_encounter`, `on_hear(text)`,
//!   `on_tick`, and may define `sequence`: a coroutine started at spawn that queues actions in
//!   order and, before any query, waits until they have finished.
//!
//! ```
//! use std::path::Path;
//! use tactica_lua::LuaBackend;
//! use tactica_stdlib::backend::ScriptBackend;
//!
//! let mut lua = LuaBackend::standard();
//! assert!(lua.compile(Path::new("ok.lua"), "function on_think() Say('hi') end").is_ok());
//! let errors = lua.compile(Path::new("bad.lua"), "function on_think(\n  Say('hi')\nend").unwrap_err();
//! assert_eq!(errors[0].line, 2);
//! ```

#![deny(missing_docs)]

mod backend;
mod convert;
pub mod data;
mod error;
mod host;
mod lint;
mod patched;
mod plain;
mod print;
mod random;
mod sandbox;

pub use backend::{LuaBackend, SEQUENCE};

/// The squad signals a Lua script sends and waits for with literal ids (`Signal("ready")`,
/// `Wait("go")`), read without running it, for `tactica check`'s pairing of signals and waits
/// across languages; nothing when it does not parse.
pub fn squad_signals(source: &str) -> tactica_stdlib::ScriptSignals {
    lint::squad_signals(source)
}
