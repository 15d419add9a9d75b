//! Scripts and maps through Bevy's asset server: the folder it serves (found as Bevy finds it),
//! the loader, hot reload, and the warnings at start for anything that would keep a change from
//! arriving — a file outside that folder, no asset server, a server that does not watch — or
//! make the game's time differ from the scenario's (`Time<Fixed>` against `tick_rate`).

use std::path::{Path, PathBuf};

use bevy::app::App;
use bevy::asset::io::Reader;
use bevy::asset::io::file::FileAssetReader;
use bevy::asset::{Asset, AssetEvent, AssetLoader, AssetPlugin, AssetServer, Assets, Handle, LoadContext};
use bevy::ecs::prelude::*;
use bevy::reflect::TypePath;
use bevy::time::{Fixed, Time};

use crate::runtime::TacticaRuntime;

/// The folder Bevy's asset server reads files from, as an absolute path: Bevy's base folder
/// (`BEVY_ASSET_ROOT`, else the package's folder when run by cargo, `CARGO_MANIFEST_DIR`, else
/// the executable's folder) joined with [`AssetPlugin::file_path`] (`assets` by default). The
/// plugin finds it at start; scripts and maps under it reload when saved.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct TacticaAssetRoot(pub PathBuf);

impl TacticaAssetRoot {
    /// The folder as the app's `AssetPlugin` (or Bevy's default, `assets`) says.
    pub fn of(app: &App) -> TacticaAssetRoot {
        let file_path =
            app.get_added_plugins::<AssetPlugin>().first().map_or_else(|| "assets".to_owned(), |p| p.file_path.clone());
        TacticaAssetRoot(absolute(&FileAssetReader::get_base_path().join(file_path)))
    }
}

/// Something at start that would keep the game from behaving as the scenario does when played
/// with `tactica run` or edited — logged as a warning and sent as this message, never silent.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct TacticaWarning {
    /// The file it is about, when it is about one.
    pub file: Option<PathBuf>,
    /// What is wrong and what to do.
    pub message: String,
}

/// A script or map file the asset server saw change, and whether the new version was taken (the
/// old one keeps running when it was not; `message` says why).
#[derive(Message, Debug, Clone)]
pub struct TacticaReload {
    /// The file, relative to the scenario's folder, as the trace's `reload` event names it.
    pub file: PathBuf,
    /// The file on disk (absolute).
    pub path: PathBuf,
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
pub(crate) struct Watched {
    files: Vec<(Handle<TacticaText>, PathBuf)>,
}

/// Sends a warning as a message and to the log.
fn warn(out: &mut MessageWriter<TacticaWarning>, file: Option<PathBuf>, message: String) {
    tracing::warn!(target: "tactica_bevy", "{message}");
    out.write(TacticaWarning { file, message });
}

/// When a runtime arrives: asks the asset server for every script and map file under the asset
/// folder, and warns about every reason an edit would not arrive or the game's time would not
/// be the scenario's.
pub(crate) fn start_watching(
    runtime: Option<Res<TacticaRuntime>>,
    root: Res<TacticaAssetRoot>,
    server: Option<Res<AssetServer>>,
    fixed: Option<Res<Time<Fixed>>>,
    mut watched: ResMut<Watched>,
    mut warnings: MessageWriter<TacticaWarning>,
) {
    let Some(runtime) = runtime else { return };
    if !runtime.is_added() {
        return;
    }
    watched.files.clear();
    let root = &root.0;
    let rt = runtime.lock();
    let files: Vec<PathBuf> = rt.script_files().into_iter().chain(rt.map_file().map(Path::to_path_buf)).collect();
    let scenario = absolute(rt.file());
    let rate = rt.world().clock().rate();
    drop(rt);
    if let Some(fixed) = fixed {
        time_warning(&fixed, rate, &mut warnings);
    }
    let Some(server) = server else {
        if !files.is_empty() {
            let message = "no asset server (Bevy's AssetPlugin is not added): the scenario's scripts and map do not \
                           reload when edited; add AssetPlugin to reload them"
                .to_owned();
            warn(&mut warnings, None, message);
        }
        return;
    };
    if !server.watching_for_changes() && !files.is_empty() {
        let message = "the asset server does not watch for changes (the `hot-reload` feature of tactica-bevy, or \
                       AssetPlugin's `watch_for_changes_override`): edited scripts and maps do not reload"
            .to_owned();
        warn(&mut warnings, None, message);
    }
    if scenario.strip_prefix(root).is_err() && scenario.exists() {
        warn(&mut warnings, Some(scenario.clone()), outside(&scenario, root, "scenario"));
    }
    for file in files {
        let abs = absolute(&file);
        let Ok(relative) = abs.strip_prefix(root) else {
            warn(&mut warnings, Some(abs.clone()), outside(&abs, root, "file"));
            continue;
        };
        if TacticaTextLoader.extensions().iter().any(|e| abs.extension().is_some_and(|x| x == *e)) {
            let handle = server.load(relative.to_string_lossy().replace('\\', "/"));
            watched.files.push((handle, abs));
        }
    }
}

/// The warning for a file outside the asset folder.
fn outside(file: &Path, root: &Path, what: &str) -> String {
    format!(
        "the {what} {} is outside the folder Bevy's asset server serves ({}): editing it reloads nothing. Keep the \
         scenario in that folder and name it with `TacticaPlugin::scenario(\"…\")` (a path inside the folder), or \
         set `AssetPlugin::file_path` to the folder that holds it",
        file.display(),
        root.display()
    )
}

/// The warning when a fixed step does not last one scenario tick.
fn time_warning(fixed: &Time<Fixed>, tick_rate: u32, warnings: &mut MessageWriter<TacticaWarning>) {
    let hz = 1.0 / fixed.timestep().as_secs_f64();
    let rate = f64::from(tick_rate);
    if (hz - rate).abs() <= 1e-6 * rate {
        return;
    }
    let message = format!(
        "Time<Fixed> runs {hz} steps a second and the scenario {tick_rate} ticks a second: one fixed step is one \
         tick, so in real time characters move {:.2} times as fast as the scenario says; insert \
         `Time::<Fixed>::from_hz({tick_rate}.0)` to play at the scenario's speed",
        hz / rate
    );
    warn(warnings, None, message);
}

/// Reloads the scripts whose files the asset server saw change.
pub(crate) fn reload_changed(
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
        let path = watched.files[i].1.clone();
        let rt = runtime.get_mut();
        let report = if rt.map_file().is_some_and(|m| absolute(m) == path) {
            rt.reload_map_text(&text.text)
        } else {
            rt.reload_file_text(&path, &text.text)
        };
        let file = PathBuf::from(rt.display_path(&path));
        out.write(TacticaReload { file, path, ok: report.outcome.is_ok(), message: report.message() });
    }
}

fn absolute(path: &Path) -> PathBuf {
    tactica::reload::absolute(path)
}
