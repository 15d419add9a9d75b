//! # tactica
//!
//! The Tactica runtime: load a [`scenario`], attach its scripts through the [`host`] (one
//! backend trait, one implementation per language), and play it tick by tick with the
//! [`runtime::Runtime`], recording a deterministic trace.
//!
//! A game needs one import, [`prelude`]: the runtime, world building, values, events and host
//! functions. The prelude is the surface we mean to keep (its listing is checked in CI, see
//! `tests/public_api`); the modules beside it are the engine's workings, public for tools and
//! for games that go further.
//!
//! The guides are part of these docs, under [`guide`]: [embedding Tactica in a
//! game](guide::embedding), the [script API](guide::api), [modding with Lua and
//! Rhai](guide::modding), [Tactica Script](guide::tac), [behaviour trees](guide::trees),
//! [position queries](guide::tps), [the trace](guide::trace). The Bevy plugin is the
//! `tactica-bevy` crate.
//!
//! ```
//! use tactica::prelude::*;
//!
//! let scenario = load_scenario(std::path::Path::new("examples/harbour/scenario.toml")).unwrap();
//! let mut rt = Runtime::new(scenario, languages()).unwrap();
//! rt.run(20);
//! // The same scenario and seed give the same trace, byte for byte, on every run.
//! let mut again = Runtime::new(load_scenario(std::path::Path::new("examples/harbour/scenario.toml")).unwrap(), languages()).unwrap();
//! again.run(20);
//! assert_eq!(rt.trace_hash(), again.trace_hash());
//! ```
//!
//! **Architecture invariant:** this crate is the only one that writes files, watches them or
//! talks to a terminal; the engine, the stdlib and the languages work on text and values (the
//! engine's map loaders also take a path, for a game that reads a map without a scenario).

#![deny(missing_docs)]

#[cfg(feature = "cli")]
pub mod cli;
pub mod editor;
pub mod host;
#[cfg(feature = "cli")]
pub mod lsp;
pub mod output;
pub mod prelude;
pub mod reload;
#[cfg(feature = "render")]
pub mod render;
pub mod runtime;
pub mod scenario;
pub mod testing;
#[cfg(feature = "view")]
pub mod view;
pub mod walk;
/// The glam Tactica's positions and cells are made of (`IVec2`, `Vec2`), so a game names the same
/// types without depending on a glam of its own (which may be another version).
pub use glam;
pub use tactica_engine as engine;
pub use tactica_stdlib::memory;

/// The README's Rust blocks, compiled and run as doctests: what a game programmer copies from
/// them builds. (The guides' own blocks run as doctests of [`guide`].)
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The guides of the repository's `docs/` folder, as pages of this documentation: what docs.rs
/// shows is what the repository says. Their Rust blocks are compiled and run as doctests.
// The guides are Markdown for the repository's readers too: `<dir>` in a command line is text,
// not an HTML tag, a bare address is a link there, and `[x]` is text, not a Rust path.
#[allow(rustdoc::invalid_html_tags, rustdoc::bare_urls, rustdoc::broken_intra_doc_links)]
pub mod guide {
    pub mod embedding {
        #![doc = include_str!("../docs/embedding.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
    pub mod api {
        #![doc = include_str!("../docs/api.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
    pub mod modding {
        #![doc = include_str!("../docs/modding.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
    pub mod tac {
        #![doc = include_str!("../docs/tac.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
    pub mod trees {
        #![doc = include_str!("../docs/trees.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
    pub mod tps {
        #![doc = include_str!("../docs/tps.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
    pub mod trace {
        #![doc = include_str!("../docs/trace.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
    pub mod json {
        #![doc = include_str!("../docs/json.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
    pub mod editors {
        #![doc = include_str!("../docs/editors.md")]
        // The guide's links name the prelude's items (`[`Runtime`]`) as a game does.
        #[allow(unused_imports)]
        use crate::prelude::*;
    }
}

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
