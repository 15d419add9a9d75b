//! The runtime as a Bevy resource, and reading its tactical layers in place.

use std::path::Path;
use std::sync::{Mutex, MutexGuard, OnceLock};

use bevy::ecs::prelude::*;
use bevy::math::{IVec2, Vec2};
use tactica::runtime::Runtime;
use tactica_engine::field::Layer;
use tactica_engine::world::EntityId;

use crate::convert::{ToBevy, ToTactica};

/// The Tactica runtime as a Bevy resource. The runtime is `Send`; the mutex makes it `Sync` as a
/// resource must be, and systems with `ResMut` reach it without locking ([`TacticaRuntime::get_mut`]).
///
/// Positions and cells cross in Bevy's types (`bevy::math::{IVec2, Vec2}`); see
/// [`crate::convert`] for why and for calls into the engine itself.
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
    /// Wraps a runtime the game made (a scenario, or a world built in code). Its scripts phase
    /// runs its workers on Bevy's `ComputeTaskPool` from now on ([`crate::ComputePool`]), as
    /// many as [`Runtime::threads`] says and the pool runs at once.
    pub fn new(mut runtime: Runtime) -> Self {
        runtime.set_pool(std::sync::Arc::new(crate::ComputePool));
        TacticaRuntime { runtime: Mutex::new(runtime), cell_size: 1.0, flip_y: false }
    }

    /// Loads a scenario with every built-in language; `path` is taken from the working
    /// directory. A game that loads from its asset folder names the scenario on the plugin
    /// instead ([`crate::TacticaPlugin::scenario`]), which finds it where Bevy's asset server
    /// does, whatever folder the game is started from. The error is the scenario's or the
    /// scripts' diagnostics, as text.
    pub fn from_scenario(path: impl AsRef<Path>) -> Result<Self, String> {
        Self::from_scenario_with(path, tactica::languages())
    }

    /// The same, with the given languages ([`tactica::languages_for`] adds the game's own
    /// host functions).
    pub fn from_scenario_with(
        path: impl AsRef<Path>,
        backends: Vec<Box<dyn tactica::host::ScriptBackend>>,
    ) -> Result<Self, String> {
        let scenario = tactica::scenario::load(path.as_ref()).map_err(|e| e.to_string())?;
        let rt = Runtime::new(scenario, backends)
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

    fn scale(&self) -> Vec2 {
        Vec2::new(self.cell_size, if self.flip_y { -self.cell_size } else { self.cell_size })
    }

    /// Where a grid position (in cells; a cell's centre is `x + 0.5`) is drawn.
    pub fn to_world(&self, grid: Vec2) -> Vec2 {
        grid * self.scale()
    }

    /// The grid position a drawn point stands for.
    pub fn to_grid(&self, world: Vec2) -> Vec2 {
        world / self.scale()
    }

    /// The cell a drawn point is in.
    pub fn cell_at(&self, world: Vec2) -> IVec2 {
        self.to_grid(world).floor().as_ivec2()
    }

    /// The runtime, from a system that holds the resource mutably (no locking).
    pub fn get_mut(&mut self) -> &mut Runtime {
        self.runtime.get_mut().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The runtime, from a system that holds the resource shared.
    pub fn lock(&self) -> MutexGuard<'_, Runtime> {
        self.runtime.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A tactical layer by name (`influence.red`, `cover`, `visibility` …), read in place: the
    /// view holds the runtime while it lives, so read what you need and let it go before the
    /// tick (`FixedUpdate` waits for it). `None` when the scenario keeps no such layer.
    pub fn layer(&self, name: &str) -> Option<LayerView<'_>> {
        let runtime = self.lock();
        let kept = runtime.world().tactical().is_some_and(|t| t.layer(name).is_some());
        kept.then(|| LayerView { runtime, name: name.to_owned() })
    }

    /// A character's position, in cells (`None` for a stale handle).
    pub fn position(&self, id: EntityId) -> Option<Vec2> {
        self.lock().world().entity(id).map(|e| e.position.to_bevy())
    }

    /// Whether a character may stand on `cell`.
    pub fn passable(&self, cell: IVec2) -> bool {
        self.lock().world().map().passable(cell.to_tactica())
    }

    /// Opens or blocks a cell of the map (every mover plans again); `false` when the cell is off
    /// the map.
    pub fn set_blocked(&mut self, cell: IVec2, blocked: bool) -> bool {
        self.get_mut().world_mut().set_blocked(cell.to_tactica(), blocked)
    }

    /// The scenario's ticks a second: the rate `Time<Fixed>` runs at for characters to move at
    /// their speed in real time (see the crate docs).
    pub fn tick_rate(&self) -> u32 {
        self.lock().world().clock().rate()
    }

    /// The SHA-256 of the trace so far (equal to the CLI's for the same scenario and ticks).
    pub fn trace_hash(&self) -> String {
        self.lock().trace_hash()
    }
}

/// A tactical layer read in place ([`TacticaRuntime::layer`]): cells in Bevy's `IVec2`, the
/// values as the engine keeps them (one `f32` per cell, row-major), and the whole [`Layer`]
/// through `Deref`.
pub struct LayerView<'a> {
    runtime: MutexGuard<'a, Runtime>,
    name: String,
}

impl LayerView<'_> {
    /// The layer's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The value at `cell`, `None` off the map.
    pub fn get(&self, cell: IVec2) -> Option<f32> {
        Layer::get(self, cell.to_tactica())
    }
}

impl std::ops::Deref for LayerView<'_> {
    type Target = Layer;

    fn deref(&self) -> &Layer {
        // The view exists only for a layer that was kept, and holds the runtime, so nothing can
        // take the layer away; the empty layer is never reached.
        static NONE: OnceLock<Layer> = OnceLock::new();
        match self.runtime.world().tactical().and_then(|t| t.layer(&self.name)) {
            Some(layer) => layer,
            None => NONE.get_or_init(|| Layer::new(0, 0)),
        }
    }
}
