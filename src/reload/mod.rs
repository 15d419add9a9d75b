//! Hot reload: a changed script file is compiled between ticks and, if it is valid, swapped in
//! for every entity that uses it at the next tick boundary. State lives outside the code
//! (attributes, blackboards, each instance's state table, action queues, signals), so it
//! survives the swap; the instances get a [`Trigger::Reload`](crate::host::Trigger::Reload) call
//! on the next tick so attribute scripts re-apply and `on_reload(state)` hooks can migrate state.
//! A file with a mistake leaves the old code running and reports why.

#[cfg(feature = "watch")]
mod watcher;

use std::path::{Path, PathBuf};

use tactica_engine::world::EventKind;

#[cfg(feature = "watch")]
pub use watcher::FileWatcher;

use crate::host::ScriptError;
use crate::runtime::Runtime;

/// What became of one reload.
#[derive(Debug, Clone, PartialEq)]
pub struct ReloadReport {
    /// The file.
    pub file: PathBuf,
    /// The entities that use it (by name; empty for world scripts).
    pub entities: Vec<String>,
    /// `Ok` when the new code was taken; the problems when it was not.
    pub outcome: Result<(), Vec<ScriptError>>,
}

impl ReloadReport {
    /// The problems as text, one a line (the rendered diagnostics where there are some).
    pub fn message(&self) -> String {
        match &self.outcome {
            Ok(()) => String::new(),
            Err(errors) => errors
                .iter()
                .map(|e| e.rendered.clone().unwrap_or_else(|| e.to_string()))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

impl Runtime {
    /// Reloads `file` from disk now (call it between ticks). The swap is logged in the trace as a
    /// `reload` event, successful or not.
    pub fn reload_file(&mut self, file: &Path) -> ReloadReport {
        let file = absolute(file);
        let known: Option<PathBuf> = self.host_files().into_iter().find(|f| absolute(f) == file);
        let Some(host_path) = known else {
            if self.map_file().is_some_and(|m| absolute(m) == file) {
                return match crate::scenario::files::read_text(&file, crate::scenario::files::MAX_SOURCE_BYTES) {
                    Ok(text) => self.reload_map_text(&text),
                    Err(why) => {
                        let e = ScriptError::new(&file, 0, 0, format!("the map {why}; the old map stays"));
                        self.finish_reload(file, Vec::new(), Err(vec![e]))
                    }
                };
            }
            if self.is_query_file(&file) {
                let outcome = crate::scenario::files::read_text(&file, crate::scenario::files::MAX_SOURCE_BYTES)
                    .and_then(|src| crate::scenario::load_query_file(&mut self.world_mut().queries, &file, &src))
                    .map(|_| ())
                    .map_err(|why| vec![ScriptError::new(&file, 0, 0, format!("{why}; the old queries stay in use"))]);
                return self.finish_reload(file, Vec::new(), outcome);
            }
            let (world, host) = self.world_and_host();
            if let Some((users, outcome)) = crate::runtime::trees::reload(world, host, &file) {
                // Every character running the tree halts what runs and starts the new tree at the
                // next tick; its blackboard stays.
                return self.finish_reload(file, users, outcome);
            }
            let limits = self.load_limits();
            if let Some(outcome) = crate::scenario::models::reload(&mut self.world_mut().models, &file, limits) {
                // A population already evolving keeps evolving; a genetic model new in the file
                // starts its own.
                self.world_mut().start_genetics();
                return self.finish_reload(file, Vec::new(), outcome.map(|_| ()).map_err(|e| vec![e]));
            }
            let e = ScriptError::new(&file, 0, 0, "no running script uses this file");
            return self.finish_reload(file, Vec::new(), Err(vec![e]));
        };
        let source = match crate::scenario::files::read_text(&file, crate::scenario::files::MAX_SOURCE_BYTES) {
            Ok(s) => s,
            Err(e) => {
                let why = if file.exists() {
                    format!("the file {e}; the old code keeps running")
                } else {
                    "the file was deleted or renamed; the entities keep their last code".to_owned()
                };
                let users = self.entity_names_using(&host_path);
                return self.finish_reload(host_path, users, Err(vec![ScriptError::new(&file, 0, 0, why)]));
            }
        };
        self.reload_script_text(host_path, &source)
    }

    /// Takes a new version of the scenario's grid map, `text` in the map file's own format (an
    /// engine's asset server saw the file change): every cell that became a wall or open ground
    /// changes as `SetBlocked` would change it — plans are made again, a `cell` event is logged —
    /// so walls can rise and fall while the game runs. A map of another size, or one that does not
    /// parse, is refused and the old map stays. Returns the report, as for a script.
    pub fn reload_map_text(&mut self, text: &str) -> ReloadReport {
        let Some(file) = self.map_file().map(Path::to_path_buf) else {
            let e = ScriptError::new(Path::new("map"), 0, 0, "this world has no map file");
            return self.finish_reload(PathBuf::from("map"), Vec::new(), Err(vec![e]));
        };
        let parsed = if file.extension().is_some_and(|e| e == "map") {
            tactica_engine::grid::parse_movingai(text.as_bytes(), &file)
        } else {
            tactica_engine::grid::parse_ascii(text.as_bytes(), &file, &tactica_engine::grid::TerrainCosts::ascii())
        };
        let outcome = match parsed {
            Err(e) => Err(vec![ScriptError::new(&file, 0, 0, format!("{e}; the old map stays"))]),
            Ok(map) if (map.width(), map.height()) != (self.world().map().width(), self.world().map().height()) => {
                let why = format!(
                    "the map is {}×{} now, not {}×{}; a running world keeps its size, so the old map stays",
                    map.width(),
                    map.height(),
                    self.world().map().width(),
                    self.world().map().height()
                );
                Err(vec![ScriptError::new(&file, 0, 0, why)])
            }
            Ok(map) => match crate::scenario::charge_map_reload(&map, self.world(), self.load_limits()) {
                Err(why) => Err(vec![ScriptError::new(&file, 0, 0, format!("{why}; the old map stays"))]),
                Ok(()) => {
                    let edits: Vec<(glam::IVec2, bool)> = (0..map.len())
                        .map(|i| map.cell_at(i))
                        .filter(|&cell| map.passable(cell) != self.world().map().passable(cell))
                        .map(|cell| (cell, !map.passable(cell)))
                        .collect();
                    // One update of the navigation service for every edit: a map where many walls
                    // moved is taken in at the cost of one, not one per cell.
                    self.world_mut().set_blocked_cells(&edits);
                    Ok(())
                }
            },
        };
        self.finish_reload(file, Vec::new(), outcome)
    }

    /// Reloads the script file `file` with `source`, text the game read itself (an engine's
    /// asset server that saw the file change): the same swap as [`Runtime::reload_file`], which
    /// reads the file from disk. A file no script uses is refused.
    pub fn reload_file_text(&mut self, file: &Path, source: &str) -> ReloadReport {
        let file = absolute(file);
        match self.host_files().into_iter().find(|f| absolute(f) == file) {
            Some(host_path) => self.reload_script_text(host_path, source),
            None => {
                let e = ScriptError::new(&file, 0, 0, "no running script uses this file");
                self.finish_reload(file, Vec::new(), Err(vec![e]))
            }
        }
    }

    pub(crate) fn reload_script_text(&mut self, host_path: PathBuf, source: &str) -> ReloadReport {
        let users = self.entity_names_using(&host_path);
        let outcome = self.host_mut().reload(&host_path, source).map(|_| ());
        if outcome.is_ok() {
            self.schedule_reload_calls(&host_path);
        }
        self.finish_reload(host_path, users, outcome)
    }

    /// Reloads every file the watcher reports changed, in path order.
    #[cfg(feature = "watch")]
    pub fn reload_changed(&mut self, watcher: &FileWatcher) -> Vec<ReloadReport> {
        watcher.changed().into_iter().map(|f| self.reload_file(&f)).collect()
    }

    pub(crate) fn finish_reload(
        &mut self,
        file: PathBuf,
        entities: Vec<String>,
        outcome: Result<(), Vec<ScriptError>>,
    ) -> ReloadReport {
        let report = ReloadReport { file, entities, outcome };
        let kind = EventKind::Reload {
            file: self.display_path(&report.file),
            entities: report.entities.clone(),
            ok: report.outcome.is_ok(),
            message: report.message(),
        };
        self.world_mut().record(None, kind);
        report
    }
}

/// `path` made absolute and, where it exists, canonical — so the paths notify reports and the
/// paths the scenario named compare equal.
pub fn absolute(path: &Path) -> PathBuf {
    if let Ok(p) = path.canonicalize() {
        return p;
    }
    // A deleted file: canonicalise its folder.
    match (path.parent().and_then(|d| d.canonicalize().ok()), path.file_name()) {
        (Some(dir), Some(name)) => dir.join(name),
        _ => std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf()),
    }
}
