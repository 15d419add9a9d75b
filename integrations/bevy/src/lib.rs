//! # tactica-bevy
//!
//! Tactica in a Bevy game. Add [`TacticaPlugin`] naming the scenario in your asset folder, and:
//!
//! - the runtime ticks in `FixedUpdate`: one fixed step is one Tactica tick (see "Time" below),
//!   inside the public [`TacticaSystems`] sets, so the game's systems order themselves around
//!   it;
//! - Bevy entities carrying [`TacticaEntity`] (or a [`TacticaName`] the plugin resolves) follow
//!   their Tactica character: its position becomes their `Transform` after each tick; entities
//!   the game moves itself carry [`GameDriven`] too, and their `Transform` becomes the
//!   character's position before the tick;
//! - everything that happens comes out as [`TacticaEvent`] messages (a line said, a sound, a
//!   move) with the linked Bevy entity, for the game's own subtitles, audio and animation;
//! - scripts (`.tac`, `.lua`, `.rhai`) and the grid map are loaded through Bevy's asset server
//!   from the folder it serves ([`TacticaAssetRoot`], found as Bevy finds it), and a changed file
//!   is reloaded while the game runs (feature `hot-reload`, on by default): a broken script leaves
//!   the old one running and its error comes out as a [`TacticaReload`] message; a changed map
//!   raises and lowers walls. Anything that would keep an edit from arriving — a file outside that
//!   folder, no asset server, a server that does not watch — is a [`TacticaWarning`] at start,
//!   also logged;
//! - positions and cells are Bevy's `Vec2`/`IVec2` ([`convert`] says why Tactica keeps its own
//!   glam and how to cross); the tactical layers (influence, cover, visibility …) are read in
//!   place with [`TacticaRuntime::layer`].
//!
//! ```no_run
//! use bevy::prelude::*;
//! use tactica_bevy::{TacticaEvent, TacticaPlugin, TacticaReload, TacticaSystems};
//! use tactica_engine::world::EventKind;
//!
//! fn subtitles(mut events: MessageReader<TacticaEvent>) {
//!     for e in events.read() {
//!         if let EventKind::Say { text } = &e.event.kind {
//!             println!("{}: {text}", e.event.entity.as_deref().unwrap_or(""));
//!         }
//!     }
//! }
//!
//! fn reloads(mut reloads: MessageReader<TacticaReload>) {
//!     for r in reloads.read() {
//!         println!("{} {}", r.file.display(), if r.ok { "reloaded" } else { &r.message });
//!     }
//! }
//!
//! App::new()
//!     // The scenario is a path in the asset folder (`assets/keep/scenario.toml` here).
//!     .add_plugins((MinimalPlugins, AssetPlugin::default(), TacticaPlugin::scenario("keep/scenario.toml")))
//!     // One fixed step is one tick: at the scenario's `tick_rate`, characters walk at their speed.
//!     .insert_resource(Time::<Fixed>::from_hz(10.0))
//!     .add_systems(FixedUpdate, subtitles.after(TacticaSystems::Tick))
//!     .add_systems(Update, reloads)
//!     .run();
//! ```
//!
//! ## Where the files are
//!
//! The scenario is named as an asset path, inside the folder Bevy's asset server serves: Bevy's
//! base folder (`BEVY_ASSET_ROOT`, else the package's folder when cargo runs the game, else the
//! executable's folder) joined with `AssetPlugin::file_path` (`assets`). So
//! `cargo run -p my-game` finds it from any working directory, and the files it loads are the
//! files the asset server watches. [`TacticaRuntime::from_scenario`] takes a path from the
//! working directory instead; a scenario or script outside the asset folder then runs, but
//! editing it reloads nothing, and the plugin says so at start.
//!
//! ## Time
//!
//! Each run of `FixedUpdate` is one Tactica tick, whatever `Time<Fixed>` says: the scenario's
//! clock advances `1 / tick_rate` seconds a tick, and speeds are cells a second of that clock.
//! For characters to move at their speed in real time, run `FixedUpdate` at the scenario's rate,
//! `Time::<Fixed>::from_hz(tick_rate)` ([`TacticaRuntime::tick_rate`]); Bevy's default is 64 Hz,
//! and the plugin warns at start when the two differ. The trace does not depend on either: the
//! same scenario gives the same trace however fast its ticks are run.
//!
//! ## Headless, a fixed number of ticks
//!
//! `App::update` runs as many fixed steps as the time since the last update allows (none, one,
//! or several), so a headless run that must play exactly `n` ticks — a CI test of the game's AI —
//! runs the schedule itself:
//!
//! ```no_run
//! # use bevy::prelude::*;
//! # use tactica_bevy::{TacticaPlugin, TacticaRuntime};
//! let mut app = App::new();
//! app.add_plugins((MinimalPlugins, AssetPlugin::default(), TacticaPlugin::scenario("keep/scenario.toml")));
//! app.finish(); // what `run` does first: the plugin loads the scenario
//! app.cleanup();
//! for _ in 0..120 {
//!     app.world_mut().run_schedule(FixedUpdate);
//! }
//! println!("{}", app.world().resource::<TacticaRuntime>().trace_hash()); // as `tactica run --ticks 120`
//! ```

#![deny(missing_docs)]

pub mod assets;
pub mod convert;
mod pool;
mod runtime;
mod sync;

use std::path::PathBuf;

use bevy::app::{App, FixedUpdate, Plugin, Update};
use bevy::asset::{AssetApp, AssetServer};
use bevy::ecs::prelude::*;
use tactica::host::{Api, ScriptLimits};

pub use assets::{TacticaAssetRoot, TacticaReload, TacticaText, TacticaTextLoader, TacticaWarning};
pub use convert::{ToBevy, ToTactica};
pub use pool::ComputePool;
pub use runtime::{LayerView, TacticaRuntime};
pub use sync::{GameDriven, TacticaEntity, TacticaEvent, TacticaName, TacticaSystems};

/// The Bevy guide's Rust blocks (`docs/bevy.md`), compiled as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/bevy.md")]
pub struct GuideDoctests;

/// The plugin. With [`TacticaPlugin::scenario`] it loads the scenario from the asset folder at
/// start; without, the game inserts a [`TacticaRuntime`] itself (a world built in code, or a
/// scenario from anywhere).
#[derive(Debug, Clone)]
pub struct TacticaPlugin {
    /// The scenario to play, as a path inside the asset folder (`keep/scenario.toml`).
    pub scenario: Option<String>,
    /// The asset folder; `None` (the default) takes it from Bevy's `AssetPlugin`, as the asset
    /// server does ([`TacticaAssetRoot`]).
    pub asset_root: Option<PathBuf>,
    /// The API the scenario's scripts bind: the standard one unless the game adds its own
    /// functions ([`Api::add_fn`]).
    pub api: Option<Api>,
    /// The limits every script call runs under.
    pub limits: ScriptLimits,
    /// World units a cell (see [`TacticaRuntime::cell_size`]).
    pub cell_size: f32,
    /// Rows down the screen (see [`TacticaRuntime::flip_y`]).
    pub flip_y: bool,
}

impl Default for TacticaPlugin {
    fn default() -> Self {
        TacticaPlugin {
            scenario: None,
            asset_root: None,
            api: None,
            limits: ScriptLimits::new(),
            cell_size: 1.0,
            flip_y: false,
        }
    }
}

impl TacticaPlugin {
    /// The plugin playing `scenario`, a path inside the asset folder.
    pub fn scenario(scenario: impl Into<String>) -> Self {
        TacticaPlugin { scenario: Some(scenario.into()), ..Default::default() }
    }

    /// The same, with the game's own host functions.
    pub fn with_api(mut self, api: Api) -> Self {
        self.api = Some(api);
        self
    }

    /// The same, `cell_size` world units a cell.
    pub fn with_cell_size(mut self, cell_size: f32) -> Self {
        self.cell_size = cell_size;
        self
    }

    /// The same, drawing rows down the screen.
    pub fn with_flip_y(mut self) -> Self {
        self.flip_y = true;
        self
    }

    /// The folder the scenario is looked for in and scripts are watched under.
    fn root(&self, app: &App) -> TacticaAssetRoot {
        match &self.asset_root {
            Some(p) => TacticaAssetRoot(tactica::reload::absolute(p)),
            None => TacticaAssetRoot::of(app),
        }
    }

    /// Registers what the asset server needs, once it is there.
    fn with_asset_server(&self, app: &mut App) {
        if app.world().contains_resource::<AssetServer>() && !app.world().contains_resource::<AssetsRegistered>() {
            app.insert_resource(AssetsRegistered)
                .init_asset::<TacticaText>()
                .init_asset_loader::<TacticaTextLoader>()
                .add_systems(Update, assets::reload_changed.after(assets::start_watching));
        }
    }

    /// Loads the scenario from the asset folder; a scenario that does not load is an error in the
    /// log and a [`TacticaWarning`], and the game runs without a runtime.
    fn load(&self, app: &mut App) {
        let Some(scenario) = &self.scenario else { return };
        if app.world().contains_resource::<ScenarioTried>() {
            return;
        }
        app.insert_resource(ScenarioTried);
        let root = app.world().resource::<TacticaAssetRoot>().0.clone();
        let path = root.join(scenario);
        let api = self.api.clone().unwrap_or_else(Api::standard);
        match TacticaRuntime::from_scenario_with(&path, tactica::languages_for(&api, self.limits)) {
            Ok(rt) => {
                let mut rt = rt.with_cell_size(self.cell_size);
                rt.flip_y = self.flip_y;
                app.insert_resource(rt);
            }
            Err(e) => {
                let message = format!("the scenario {scenario} did not load from the asset folder: {e}");
                tracing::error!(target: "tactica_bevy", "{message}");
                app.world_mut().write_message(TacticaWarning { file: Some(path), message });
            }
        }
    }
}

/// Marks that the asset types are registered (the plugin may see the asset server at build or
/// only at finish).
#[derive(Resource)]
struct AssetsRegistered;

/// Marks that the plugin's scenario was loaded, or tried (once, at build or at finish).
#[derive(Resource)]
struct ScenarioTried;

impl Plugin for TacticaPlugin {
    fn build(&self, app: &mut App) {
        let root = self.root(app);
        app.add_message::<TacticaEvent>()
            .add_message::<TacticaReload>()
            .add_message::<TacticaWarning>()
            .insert_resource(root)
            .init_resource::<assets::Watched>()
            .configure_sets(FixedUpdate, (TacticaSystems::Tick, TacticaSystems::Pull).chain())
            .add_systems(
                FixedUpdate,
                (
                    (sync::link_names, sync::push_game_positions, sync::tick).chain().in_set(TacticaSystems::Tick),
                    sync::pull_positions.in_set(TacticaSystems::Pull),
                ),
            )
            .add_systems(Update, assets::start_watching);
        self.with_asset_server(app);
        // The asset folder is known now if the AssetPlugin came first; otherwise at `finish`.
        if !app.get_added_plugins::<bevy::asset::AssetPlugin>().is_empty() {
            self.load(app);
        }
    }

    fn finish(&self, app: &mut App) {
        // Every plugin is built now: an AssetPlugin added after this one has its say.
        let root = self.root(app);
        app.insert_resource(root);
        self.with_asset_server(app);
        self.load(app);
    }
}
