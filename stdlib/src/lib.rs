//! # tactica-stdlib
//!
//! The one script-facing API of Tactica. Every script front-end — our `.tac` language, Lua, Rhai —
//! binds this one table, so a name means the same thing in all of them:
//!
//! - [`Api`]: the table — host functions ([`HostFn`]: name, parameters, return type, doc, one Rust
//!   implementation), globals the engine provides ([`Global`]), named values ([`Symbol`]:
//!   `Dagger`, `kNight`, `kDock` …), and the attribute schema ([`AttributeSpec`]).
//!   [`Api::standard`] holds the names of the classic scripts (reference 002b §4.10); a scenario
//!   declares more with [`Api::declare_global`] and [`Api::declare_symbol`].
//! - [`Type`]: the static types the checker reasons with.
//! - [`ScriptCtx`]: what a host function sees — the scripted entity, a `&World` view, the command
//!   buffer it writes to, the world's random generator, the typed text of a `hear` event, and the
//!   per-instance state table.
//! - [`Value`]: re-exported from the engine; the one value type of every backend.
//!
//! ```
//! use tactica_stdlib::{Api, Type};
//! let api = Api::standard();
//! let say = api.functions("say").next().unwrap(); // names are case-insensitive
//! assert_eq!(say.name, "Say");
//! assert_eq!(say.params[0].ty, Type::Str);
//! assert_eq!(api.symbol("dagger").unwrap().family, "weapon");
//! assert_eq!(api.attribute("intelligence").unwrap().max, 255);
//! ```
//!
//! **Architecture invariant:** this crate names no `mlua`, `rhai` or `.tac` type; it depends on the
//! engine only.

#![deny(missing_docs)]

mod api;
mod attributes;
pub mod backend;
mod context;
pub mod crossing;
mod decide;
mod entities;
mod field;
mod host;
pub mod instances;
pub mod lend;
pub mod limits;
pub mod lint;
mod machines;
pub mod memory;
mod names;
mod nav;
mod positions;
pub mod profile;
pub mod reach;
mod reference;
pub mod squad_signals;
mod state;
mod steer;
pub mod trees;
mod typed;
mod types;
mod waypoints;

pub use api::{Api, Global, GlobalSource, HostClosure, HostError, HostFn, HostFnPtr, HostImpl, Param, Symbol};
pub use attributes::{AttributeSpec, standard_attributes};
pub use context::{ActionMode, MAX_PRINT_CHARS, MAX_PRINTS_PER_TICK, SAY_COOLDOWN_TICKS, ScriptCtx, is_private};
pub use host::found_keyword;
pub use limits::ScriptLimits;
pub use machines::STATE_ATTRIBUTE;
pub use names::{STANDARD_SYMBOLS, suggest};
pub use reference::{HANDLERS, api_markdown, luals_meta, rhai_definitions, snake_case};
pub use squad_signals::ScriptSignals;
pub use state::StateMut;
pub use tactica_engine::{Table, Value, ValueType};
pub use typed::{FromArgs, FromValue, IntoValue};
pub use types::Type;
