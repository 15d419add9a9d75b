//! What a game that embeds Tactica uses beyond the CLI's path: a world built in code instead of
//! a scenario file, scripts from memory (its own asset loader) instead of paths, and reloads fed
//! by the game ("this file changed") as well as by the watcher.

use std::path::{Path, PathBuf};

use tactica_engine::world::{EntityId, World};

use super::Runtime;
use crate::host::{ScriptBackend, ScriptError};
use crate::reload::ReloadReport;
use crate::scenario::Scenario;

impl Scenario {
    /// A scenario built in code around `world` (its map, entities, globals and places set by the
    /// game): no scripts yet — attach them to the runtime with [`Runtime::attach_source`] — the
    /// player is [`World::player`], encounters reach 5 cells, and `ticks` is 0 because the game
    /// drives the loop.
    pub fn from_world(name: &str, world: World) -> Scenario {
        Scenario {
            file: PathBuf::from(format!("{name}.toml")),
            name: name.to_owned(),
            player: world.player(),
            world,
            ticks: 0,
            threads: None,
            encounter_range: 5.0,
            player_says: Default::default(),
            entity_scripts: Vec::new(),
            entity_trees: Vec::new(),
            world_scripts: Vec::new(),
            data_files: Vec::new(),
            map_file: None,
            view_layer_every: None,
            load_work: 0,
            load_limits: crate::scenario::LoadLimits::new(),
        }
    }
}

impl Runtime {
    /// A runtime for a world the game built in code, with the given languages (see
    /// [`crate::languages_for`] to add the game's own host functions).
    ///
    /// ```
    /// use glam::IVec2;
    /// use tactica::runtime::Runtime;
    /// use tactica_engine::{grid::Map, world::{Entity, World}};
    ///
    /// let mut world = World::new(Map::open(16, 16), 10, 7);
    /// let troll = world.spawn(Entity::new("troll", "Troll", IVec2::new(3, 3))).unwrap();
    /// let mut rt = Runtime::from_world("cave", world, tactica::languages());
    /// rt.attach_source(Some(troll), "troll.tac", "on think { Say(\"Grr.\"); }", 1).unwrap();
    /// rt.tick();
    /// assert!(rt.drain_events().iter().any(|e| e.entity.as_deref() == Some("troll")));
    /// ```
    pub fn from_world(name: &str, world: World, backends: Vec<Box<dyn ScriptBackend>>) -> Runtime {
        match Runtime::new(Scenario::from_world(name, world), backends) {
            Ok(rt) => rt,
            // A scenario without scripts has nothing to compile, so nothing can fail.
            Err(_) => unreachable!("a scenario with no scripts always starts"),
        }
    }

    /// Attaches a script the game holds in memory to `entity` (or to the world with `None`).
    /// `name`'s extension picks the language (`.tac`, `.lua`, `.rhai`); it names the script in
    /// diagnostics, in the trace and in [`Runtime::reload_source`]. A name already attached shares
    /// that program (and `source` is ignored), as a file used by several entities does.
    pub fn attach_source(
        &mut self,
        entity: Option<EntityId>,
        name: impl AsRef<Path>,
        source: &str,
        think_every: u32,
    ) -> Result<(), Vec<ScriptError>> {
        self.host.attach_source(entity, name.as_ref(), source, think_every)
    }

    /// Hot reload fed by the game: `source` is the new text of the script attached as `name`
    /// (from memory or a file). Like [`Runtime::reload_file`], a valid script is swapped in for
    /// every entity using it at the next tick, with their state kept; one with a mistake leaves
    /// the old code running and reports why. Either way a `reload` event is logged.
    pub fn reload_source(&mut self, name: impl AsRef<Path>, source: &str) -> ReloadReport {
        let name = name.as_ref().to_path_buf();
        if !self.host.files().any(|f| f == name) {
            let e = ScriptError::new(&name, 0, 0, "no running script has this name");
            return self.finish_reload(name, Vec::new(), Err(vec![e]));
        }
        self.reload_script_text(name, source)
    }
}
