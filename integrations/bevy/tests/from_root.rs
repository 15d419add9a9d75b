//! The game started as a user starts it: from the repository root, with the code the crate docs
//! show (`AssetPlugin::default()`, `TacticaPlugin::scenario("keep/scenario.toml")`). The plugin
//! finds the scenario where Bevy's asset server finds its files — here a copy of the assets under
//! a temporary folder named by `BEVY_ASSET_ROOT`, as Bevy documents — so an edit to a script
//! arrives as a reload message, named as the trace names it, and nothing is warned about.
//!
//! It is the only test of this binary: it sets the working directory and an environment
//! variable for the whole process.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::MinimalPlugins;
use bevy::app::App;
use bevy::asset::AssetPlugin;
use bevy::ecs::message::Messages;
use bevy::time::{Fixed, Time};
use tactica_bevy::{TacticaAssetRoot, TacticaPlugin, TacticaReload, TacticaRuntime, TacticaWarning};
use tactica_engine::world::EventKind;

/// `BASE/assets/keep/…`, a copy of the crate's keep.
fn copy_assets() -> PathBuf {
    let base = tempfile::Builder::new().prefix("tactica-bevy-root-").tempdir().unwrap().keep();
    let keep = base.join("assets/keep");
    std::fs::create_dir_all(keep.join("scripts")).unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/keep");
    for f in ["scenario.toml", "keep.txt", "scripts/trap.tac", "scripts/guard.tac", "scripts/goblin.lua"] {
        std::fs::copy(from.join(f), keep.join(f)).unwrap();
    }
    tactica::reload::absolute(&base)
}

#[test]
fn started_from_the_repository_root_a_script_edit_arrives_as_a_reload() {
    let base = copy_assets();
    let repo_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::env::set_current_dir(&repo_root).unwrap();
    // SAFETY: this binary runs this one test, on this thread; nothing else reads the environment
    // while it is set.
    unsafe { std::env::set_var("BEVY_ASSET_ROOT", &base) };

    // The crate docs' app.
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), TacticaPlugin::scenario("keep/scenario.toml")))
        .insert_resource(Time::<Fixed>::from_hz(10.0));
    app.finish();
    app.cleanup();

    assert_eq!(app.world().resource::<TacticaAssetRoot>().0, base.join("assets"));
    assert!(app.world().contains_resource::<TacticaRuntime>(), "the scenario loaded from the asset folder");
    // Let the asset server load the scripts and start watching.
    pump_until(&mut app, Duration::from_secs(1), |_| false);
    let warnings: Vec<TacticaWarning> = app.world_mut().resource_mut::<Messages<TacticaWarning>>().drain().collect();
    assert_eq!(warnings, [], "every file is under the asset folder and the time is the scenario's");

    let guard = base.join("assets/keep/scripts/guard.tac");
    std::fs::write(&guard, "kind dialogue;\nIf (PlayerArmed == Sword) Say(\"Hand over the sword.\");\n").unwrap();
    let mut got = Vec::new();
    let arrived = pump_until(&mut app, Duration::from_secs(20), |app| {
        got.extend(app.world_mut().resource_mut::<Messages<TacticaReload>>().drain());
        got.iter().any(|r| r.ok)
    });
    assert!(arrived, "the edit reached the runtime: {got:?}");
    let reload = got.iter().find(|r| r.ok).unwrap();
    assert_eq!(reload.file, Path::new("scripts/guard.tac"), "named as the trace names it");
    assert_eq!(reload.path, guard);
    let runtime = app.world().resource::<TacticaRuntime>();
    let traced = runtime.lock().world().log().events().iter().find_map(|e| match &e.kind {
        EventKind::Reload { file, ok: true, .. } => Some(file.clone()),
        _ => None,
    });
    assert_eq!(traced.as_deref(), Some("scripts/guard.tac"));
    std::fs::remove_dir_all(&base).unwrap();
}

/// Runs frames until `until` holds or `limit` passes; whether it held.
fn pump_until(app: &mut App, limit: Duration, mut until: impl FnMut(&mut App) -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        app.update();
        if until(app) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}
