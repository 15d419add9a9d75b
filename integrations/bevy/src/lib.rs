//! # tactica-bevy
//!
//! Tactica in a Bevy game. Add [`TacticaPlugin`], insert a [`TacticaRuntime`] (from a scenario
//! file or a world the game builds), and:
//!
//! - the runtime ticks in `FixedUpdate` (set the rate with `Time::<Fixed>`; one fixed step is one
//!   Tactica tick);
//! - Bevy entities carrying [`TacticaEntity`] (or a [`TacticaName`] the plugin resolves) follow
//!   their Tactica character: its position becomes their `Transform` after each tick; entities
//!   the game moves itself carry [`GameDriven`] too, and their `Transform` becomes the
//!   character's position before the tick;
//! - everything that happens comes out as [`TacticaEvent`] messages (a line said, a sound, a
//!   move), for the game's own subtitles, audio and animation;
//! - scripts (`.tac`, `.lua`, `.rhai`) and the grid map under the asset folder are loaded
//!   through Bevy's asset server, and a changed file is reloaded while the game runs (feature
//!   `hot-reload`, on by default): a broken script leaves the old one running and its error comes
//!   out as a [`TacticaReload`] message; a changed map raises and lowers walls (cells that became
//!   walls or open ground), and a game can also edit the map in code through
//!   `TacticaRuntime::get_mut().world_mut()`;
//! - the tactical layers (influence, cover, visibility …) are read from systems through
//!   [`TacticaRuntime::layer`].
//!
//! ```no_run
//! use bevy::prelude::*;
//! use tactica_bevy::{TacticaEvent, TacticaPlugin, TacticaRuntime};
//!
//! fn subtitles(mut events: MessageReader<TacticaEvent>) {
//!     for e in events.read() {
//!         if let tactica_engine::world::EventKind::Say { text } = &e.0.kind {
//!             println!("{}: {text}", e.0.entity.as_deref().unwrap_or(""));
//!         }
//!     }
//! }
//!
//! App::new()
//!     .add_plugins((MinimalPlugins, AssetPlugin::default(), TacticaPlugin::default()))
//!     .insert_resource(TacticaRuntime::from_scenario("assets/keep/scenario.toml").unwrap())
//!     .add_systems(Update, subtitles)
//!     .run();
//! ```

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use bevy::app::{App, FixedUpdate, Plugin, Update};
use bevy::asset::io::Reader;
use bevy::asset::{Asset, AssetApp, AssetEvent, AssetLoader, AssetServer, Assets, Handle, LoadContext};
use bevy::ecs::prelude::*;
use bevy::reflect::TypePath;
use bevy::transform::components::Transform;
use tactica::runtime::Runtime;
use tactica_engine::field::Layer;
use tactica_engine::world::{EntityId, Event};

/// The Tactica runtime as a Bevy resource. The runtime is `Send`; the mutex makes it `Sync` as a
/// resource must be, and systems with `ResMut` reach it without locking ([`TacticaRuntime::get_mut`]).
#[derive(Resource)]
pub struct TacticaRuntime {
    runtime: Mutex<Runtime>,
    /// How many world units one grid cell is (sprites of 32 pixels: 32).
    pub cell_size: f32,
    /// Grid rows count down the screen while Bevy's y axis points up: with `flip_y` a cell's
    /// row `y` is drawn at `-y * cell_size`, so the map reads as its text file does.
    pub flip_y: bool,
}

impl TacticaRuntime {
    /// Wraps a runtime the game made (a scenario, or a world built in code).
    pub fn new(runtime: Runtime) -> Self {
        TacticaRuntime { runtime: Mutex::new(runtime), cell_size: 1.0, flip_y: false }
    }

    /// Loads a scenario with every built-in language. The error is the scenario's or the
    /// scripts' diagnostics, as text.
    pub fn from_scenario(path: impl AsRef<Path>) -> Result<Self, String> {
        let scenario = tactica::scenario::load(path.as_ref()).map_err(|e| e.to_string())?;
        let rt = Runtime::new(scenario, tactica::languages())
            .map_err(|errors| errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))?;
        Ok(TacticaRuntime::new(rt))
    }

    /// The same, with `cell_size` world units a cell.
    pub fn with_cell_size(mut self, cell_size: f32) -> Self {
        self.cell_size = cell_size;
        self
    }

    /// The same, drawing rows down the screen (see [`TacticaRuntime::flip_y`]).
    pub fn with_flip_y(mut self) -> Self {
        self.flip_y = true;
        self
    }

    /// Where a grid position is drawn.
    pub fn to_world(&self, x: f32, y: f32) -> (f32, f32) {
        let sy = if self.flip_y { -self.cell_size } else { self.cell_size };
        (x * self.cell_size, y * sy)
    }

    /// The grid position a drawn point stands for.
    pub fn to_grid(&self, x: f32, y: f32) -> (f32, f32) {
        let sy = if self.flip_y { -self.cell_size } else { self.cell_size };
        (x / self.cell_size, y / sy)
    }

    /// The runtime, from a system that holds the resource mutably (no locking).
    pub fn get_mut(&mut self) -> &mut Runtime {
        self.runtime.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The runtime, from a system that holds the resource shared.
    pub fn lock(&self) -> MutexGuard<'_, Runtime> {
        self.runtime.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A tactical layer by name (`influence.red`, `cover`, `visibility` …), copied out for a
    /// system to read or draw.
    pub fn layer(&self, name: &str) -> Option<Layer> {
        self.lock().world().tactical().and_then(|t| t.layer(name).cloned())
    }

    /// The SHA-256 of the trace so far (equal to the CLI's for the same scenario and ticks).
    pub fn trace_hash(&self) -> String {
        self.lock().trace_hash()
    }
}

/// Links a Bevy entity to a Tactica character.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TacticaEntity(pub EntityId);

/// Links a Bevy entity to the Tactica character of this name; the plugin resolves it to a
/// [`TacticaEntity`] (for characters a scenario spawns).
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct TacticaName(pub String);

/// The game moves this entity itself (the player's avatar): its `Transform` is copied to the
/// character before each tick instead of the other way round.
#[derive(Component, Debug, Clone, Copy, Default)]
pub struct GameDriven;

/// One thing that happened in Tactica (said, heard, moved, triggered …), in trace order.
#[derive(Message, Debug, Clone)]
pub struct TacticaEvent(pub Event);

/// A script or map file the asset server saw change, and whether the new version was taken (the
/// old one keeps running when it was not; `message` says why).
#[derive(Message, Debug, Clone)]
pub struct TacticaReload {
    /// The file.
    pub file: PathBuf,
    /// Whether the new version runs.
    pub ok: bool,
    /// The diagnostics when it does not.
    pub message: String,
}

/// A script or grid-map file, as the asset server loads it.
#[derive(Asset, TypePath, Debug, Clone)]
pub struct TacticaText {
    /// Its text.
    pub text: String,
}

/// Loads `.tac`, `.lua` and `.rhai` scripts and `.txt`/`.map` grid maps as [`TacticaText`] (a
/// game's own loaders for those extensions are not disturbed: the asset server picks a loader by
/// the asset type asked for).
#[derive(Default, TypePath)]
pub struct TacticaTextLoader;

impl AssetLoader for TacticaTextLoader {
    type Asset = TacticaText;
    type Settings = ();
    type Error = std::io::Error;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _load_context: &mut LoadContext<'_>,
    ) -> Result<TacticaText, std::io::Error> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let text = String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        Ok(TacticaText { text })
    }

    fn extensions(&self) -> &[&str] {
        &["tac", "lua", "rhai", "txt", "map"]
    }
}

/// The files the runtime uses, as asset handles, with their paths on disk.
#[derive(Resource, Default)]
struct Watched {
    files: Vec<(Handle<TacticaText>, PathBuf)>,
}

/// The plugin. `asset_root` is the folder Bevy's `AssetPlugin` serves (`assets` by default):
/// scripts under it are watched through the asset server.
#[derive(Debug, Clone)]
pub struct TacticaPlugin {
    /// The asset server's folder, as a path from the working directory.
    pub asset_root: PathBuf,
}

impl Default for TacticaPlugin {
    fn default() -> Self {
        TacticaPlugin { asset_root: PathBuf::from("assets") }
    }
}

#[derive(Resource, Clone)]
struct AssetRoot(PathBuf);

impl Plugin for TacticaPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<TacticaEvent>()
            .add_message::<TacticaReload>()
            .insert_resource(AssetRoot(self.asset_root.clone()))
            .init_resource::<Watched>()
            .add_systems(FixedUpdate, (link_names, push_game_positions, tick, pull_positions).chain());
        if app.world().contains_resource::<AssetServer>() {
            app.init_asset::<TacticaText>()
                .init_asset_loader::<TacticaTextLoader>()
                .add_systems(Update, (watch_scripts, reload_changed).chain());
        }
    }
}

/// Resolves [`TacticaName`]s to [`TacticaEntity`] links.
fn link_names(
    mut commands: Commands,
    runtime: Option<Res<TacticaRuntime>>,
    unlinked: Query<(Entity, &TacticaName), Without<TacticaEntity>>,
) {
    let Some(runtime) = runtime else { return };
    let rt = runtime.lock();
    for (entity, name) in &unlinked {
        if let Some(id) = rt.world().find(&name.0) {
            commands.entity(entity).insert(TacticaEntity(id));
        }
    }
}

/// Copies the `Transform` of [`GameDriven`] entities to their characters.
fn push_game_positions(
    runtime: Option<ResMut<TacticaRuntime>>,
    driven: Query<(&TacticaEntity, &Transform), With<GameDriven>>,
) {
    let Some(mut runtime) = runtime else { return };
    let moves: Vec<(EntityId, (f32, f32))> =
        driven.iter().map(|(link, t)| (link.0, runtime.to_grid(t.translation.x, t.translation.y))).collect();
    let rt = runtime.get_mut();
    for (id, (x, y)) in moves {
        if let Some(e) = rt.world_mut().entity_mut(id) {
            // Tactica's glam is not Bevy's: the coordinates cross as plain numbers.
            e.position = glam::Vec2::new(x, y);
        }
    }
}

/// One Tactica tick; its events come out as messages.
fn tick(runtime: Option<ResMut<TacticaRuntime>>, mut out: MessageWriter<TacticaEvent>) {
    let Some(mut runtime) = runtime else { return };
    let rt = runtime.get_mut();
    rt.tick();
    out.write_batch(rt.drain_events().into_iter().map(TacticaEvent));
}

/// Moves linked entities to their characters' positions (z is kept).
fn pull_positions(
    runtime: Option<Res<TacticaRuntime>>,
    mut linked: Query<(&TacticaEntity, &mut Transform), Without<GameDriven>>,
) {
    let Some(runtime) = runtime else { return };
    let rt = runtime.lock();
    for (link, mut transform) in &mut linked {
        if let Some(e) = rt.world().entity(link.0) {
            let (x, y) = runtime.to_world(e.position.x, e.position.y);
            transform.translation.x = x;
            transform.translation.y = y;
        }
    }
}

/// Asks the asset server for every script file under the asset root the runtime uses, once.
fn watch_scripts(
    runtime: Option<Res<TacticaRuntime>>,
    root: Res<AssetRoot>,
    server: Res<AssetServer>,
    mut watched: ResMut<Watched>,
) {
    let Some(runtime) = runtime else { return };
    if !watched.files.is_empty() {
        return;
    }
    let root = absolute(&root.0);
    let rt = runtime.lock();
    for file in rt.script_files().into_iter().chain(rt.map_file().map(Path::to_path_buf)) {
        let abs = absolute(&file);
        let Ok(relative) = abs.strip_prefix(&root) else { continue };
        if TacticaTextLoader.extensions().iter().any(|e| abs.extension().is_some_and(|x| x == *e)) {
            let handle = server.load(relative.to_string_lossy().replace('\\', "/"));
            watched.files.push((handle, abs));
        }
    }
}

/// Reloads the scripts whose files the asset server saw change.
fn reload_changed(
    mut changes: MessageReader<AssetEvent<TacticaText>>,
    texts: Res<Assets<TacticaText>>,
    runtime: Option<ResMut<TacticaRuntime>>,
    watched: Res<Watched>,
    mut out: MessageWriter<TacticaReload>,
) {
    let Some(mut runtime) = runtime else { return };
    for change in changes.read() {
        // The first load (`Added`) is the file as the runtime already runs it; a change on disk
        // comes as `Modified`.
        let AssetEvent::Modified { id } = change else { continue };
        let Some(i) = watched.files.iter().position(|(h, _)| h.id() == *id) else { continue };
        let Some(text) = texts.get(*id) else { continue };
        let file = watched.files[i].1.clone();
        let rt = runtime.get_mut();
        let report = if rt.map_file().is_some_and(|m| absolute(m) == file) {
            rt.reload_map_text(&text.text)
        } else {
            rt.reload_file_text(&file, &text.text)
        };
        out.write(TacticaReload { file, ok: report.outcome.is_ok(), message: report.message() });
    }
}

fn absolute(path: &Path) -> PathBuf {
    tactica::reload::absolute(path)
}
