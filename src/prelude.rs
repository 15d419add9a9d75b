//! Everything a game needs from Tactica, in one import: `use tactica::prelude::*;`.
//!
//! - running: [`Runtime`] (a scenario file with [`load_scenario`], or a world built in code
//!   with [`Runtime::from_world`]), the script languages ([`languages`], [`languages_for`]), the
//!   reload report;
//! - world building: [`WorldBuilder`] (a map from the game's own rows or cells, doors and places
//!   included), [`World`], [`Entity`], [`EntityId`], [`Map`], [`Region`], [`Action`], and glam's
//!   [`IVec2`] and [`Vec2`] (the glam Tactica's types use: `tactica::glam`);
//! - values: [`Value`], [`Table`];
//! - events: [`Event`], [`EventKind`] (what [`Runtime::drain_events`] gives);
//! - host functions: [`Api`] (with [`Api::add_fn`] for a closure with a Rust signature),
//!   [`FromValue`]/[`IntoValue`] for the game's own argument and result types, [`ScriptCtx`],
//!   [`HostError`], [`Type`], [`Param`], [`ScriptLimits`], [`ScriptError`];
//! - the script languages' common trait, [`ScriptBackend`] (what [`languages`] returns boxed), for
//!   a game that keeps or passes the list itself.
//!
//! What is not here is the engine's workings (the modules beside the prelude, and
//! `tactica::engine`): public for tools and for games that go further, but the prelude is the
//! surface a game can hold us to. `tests/public_api/tactica.txt` records it; a change to it is a
//! diff there.
//!
//! ```
//! use tactica::prelude::*;
//!
//! let world = WorldBuilder::from_rows(["#####", "#..W#", "#####"]).place('W', "well").build().unwrap();
//! let mut rt = Runtime::from_world("yard", world, languages());
//! rt.tick();
//! assert!(rt.drain_events().is_empty(), "nobody lives here yet");
//! ```

pub use crate::host::{Api, HostError, Param, ScriptBackend, ScriptCtx, ScriptError, ScriptLimits, Type};
pub use crate::reload::ReloadReport;
pub use crate::runtime::Runtime;
pub use crate::scenario::{Scenario, load as load_scenario};
pub use crate::{languages, languages_for, languages_with};
pub use glam::{IVec2, Vec2};
pub use tactica_engine::coord::Action;
pub use tactica_engine::grid::Map;
pub use tactica_engine::world::{
    BuildError, Entity, EntityId, Event, EventKind, Region, Tile, World, WorldBuilder, WorldError,
};
pub use tactica_engine::{Table, Value};
pub use tactica_stdlib::{FromArgs, FromValue, IntoValue};
