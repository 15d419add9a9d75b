//! Never silent: at start the plugin warns — in the log and as a `TacticaWarning` message — about
//! a scenario or script outside the folder Bevy's asset server serves (editing it would reload
//! nothing), an app without an asset server, a `Time<Fixed>` at another rate than the
//! scenario's ticks; and a scenario the plugin cannot load is an error in the log. The log is
//! read through a `tracing` subscriber of the test's own.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

use bevy::MinimalPlugins;
use bevy::app::App;
use bevy::asset::AssetPlugin;
use bevy::ecs::message::Messages;
use bevy::time::{Fixed, Time};
use tactica_bevy::{TacticaAssetRoot, TacticaPlugin, TacticaRuntime, TacticaWarning};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

/// Every `tactica_bevy` log line so far: level and message.
static LOGGED: Mutex<Vec<(Level, String)>> = Mutex::new(Vec::new());

/// Keeps the plugin's log lines.
struct Capture;

impl Subscriber for Capture {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.target().starts_with("tactica_bevy")
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        struct Message(String);
        impl Visit for Message {
            fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        let mut m = Message(String::new());
        event.record(&mut m);
        LOGGED.lock().unwrap().push((*event.metadata().level(), m.0));
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

fn capture() {
    static ONCE: Once = Once::new();
    // The systems run on the executor's threads: the subscriber must be the global one.
    ONCE.call_once(|| tracing::subscriber::set_global_default(Capture).unwrap());
}

/// The log lines containing `text`.
fn logged(text: &str) -> Vec<(Level, String)> {
    LOGGED.lock().unwrap().iter().filter(|(_, m)| m.contains(text)).cloned().collect()
}

/// A copy of the crate's keep under a temporary folder, outside any asset folder.
fn copy_keep(tag: &str) -> PathBuf {
    let keep = tempfile::Builder::new().prefix(&format!("tactica-bevy-warn-{tag}-")).tempdir().unwrap().keep();
    std::fs::create_dir_all(keep.join("scripts")).unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/keep");
    for f in ["scenario.toml", "keep.txt", "scripts/trap.tac", "scripts/guard.tac", "scripts/goblin.lua"] {
        std::fs::copy(from.join(f), keep.join(f)).unwrap();
    }
    tactica::reload::absolute(&keep)
}

fn warnings(app: &mut App) -> Vec<TacticaWarning> {
    app.world_mut().resource_mut::<Messages<TacticaWarning>>().drain().collect()
}

#[test]
fn a_scenario_outside_the_asset_folder_is_warned_about_file_by_file() {
    capture();
    let keep = copy_keep("outside");
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), TacticaPlugin::default()))
        .insert_resource(TacticaRuntime::from_scenario(keep.join("scenario.toml")).unwrap())
        .insert_resource(Time::<Fixed>::from_hz(10.0));
    app.finish();
    app.cleanup();
    app.update();
    let root = app.world().resource::<TacticaAssetRoot>().0.clone();
    assert_eq!(root, tactica::reload::absolute(&Path::new(env!("CARGO_MANIFEST_DIR")).join("assets")));
    let got = warnings(&mut app);
    let files: Vec<PathBuf> = got.iter().filter_map(|w| w.file.clone()).collect();
    let expected: Vec<PathBuf> =
        ["scenario.toml", "scripts/guard.tac", "scripts/goblin.lua", "scripts/trap.tac", "keep.txt"]
            .iter()
            .map(|f| keep.join(f))
            .collect();
    let mut sorted = files.clone();
    sorted.sort();
    let mut want = expected.clone();
    want.sort();
    assert_eq!(sorted, want, "{got:?}");
    let scenario = got.iter().find(|w| w.file.as_deref() == Some(keep.join("scenario.toml").as_path())).unwrap();
    assert_eq!(
        scenario.message,
        format!(
            "the scenario {} is outside the folder Bevy's asset server serves ({}): editing it reloads nothing. Keep \
             the scenario in that folder and name it with `TacticaPlugin::scenario(\"…\")` (a path inside the \
             folder), or set `AssetPlugin::file_path` to the folder that holds it",
            keep.join("scenario.toml").display(),
            root.display()
        )
    );
    // The same lines in the log, as warnings.
    let guard = keep.join("scripts/guard.tac").display().to_string();
    let lines = logged(&format!("the file {guard} is outside the folder"));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0].0, Level::WARN);
    // Warned once, at start: later frames are quiet.
    app.update();
    assert_eq!(warnings(&mut app), []);
    std::fs::remove_dir_all(&keep).unwrap();
}

#[test]
fn no_asset_server_and_another_fixed_rate_are_warned_about() {
    capture();
    let mut app = App::new();
    // MinimalPlugins' Time<Fixed> runs at Bevy's 64 Hz; the keep ticks 10 times a second.
    app.add_plugins((MinimalPlugins, TacticaPlugin::default()))
        .insert_resource(TacticaRuntime::from_scenario("assets/keep/scenario.toml").unwrap());
    app.finish();
    app.cleanup();
    app.update();
    let got: Vec<String> = warnings(&mut app).into_iter().map(|w| w.message).collect();
    assert_eq!(
        got,
        [
            "Time<Fixed> runs 64 steps a second and the scenario 10 ticks a second: one fixed step is one tick, so in \
             real time characters move 6.40 times as fast as the scenario says; insert \
             `Time::<Fixed>::from_hz(10.0)` to play at the scenario's speed",
            "no asset server (Bevy's AssetPlugin is not added): the scenario's scripts and map do not reload when \
             edited; add AssetPlugin to reload them",
        ]
    );
    assert_eq!(logged("Time<Fixed> runs 64 steps").len(), 1);
}

#[test]
fn a_scenario_the_plugin_cannot_load_is_an_error_in_the_log() {
    capture();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), TacticaPlugin::scenario("keep/no-such.toml")));
    app.finish();
    app.cleanup();
    assert!(!app.world().contains_resource::<TacticaRuntime>());
    let got = warnings(&mut app);
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].message.starts_with("the scenario keep/no-such.toml did not load from the asset folder: "),
        "{got:?}"
    );
    let lines = logged("keep/no-such.toml did not load");
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].0, Level::ERROR);
}
