//! The plugin in a headless Bevy app (`MinimalPlugins`, no window): it plays the keep scenario
//! with the trace the `tactica` CLI gets, moves linked entities, takes positions from entities
//! the game drives, sends every event as a message, and reloads a script the asset server saw
//! change.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::MinimalPlugins;
use bevy::app::{App, FixedUpdate};
use bevy::asset::AssetPlugin;
use bevy::ecs::message::Messages;
use bevy::transform::components::Transform;
use tactica::runtime::Runtime;
use tactica_bevy::{GameDriven, TacticaEvent, TacticaName, TacticaPlugin, TacticaReload, TacticaRuntime};
use tactica_engine::world::EventKind;

const KEEP: &str = "assets/keep/scenario.toml";
const TICKS: u64 = 120;

/// What `tactica run assets/keep --ticks 120` prints as the trace hash: the CLI loads the
/// scenario, builds the runtime with every language and runs it.
fn cli_hash() -> String {
    let scenario = tactica::scenario::load(Path::new(KEEP)).unwrap();
    let mut rt = Runtime::new(scenario, tactica::languages()).unwrap();
    rt.run(TICKS);
    rt.trace_hash()
}

fn app(runtime: TacticaRuntime) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TacticaPlugin::default()));
    app.insert_resource(runtime);
    app
}

/// Runs one fixed step and takes the messages it sent.
fn step(app: &mut App) -> Vec<TacticaEvent> {
    app.world_mut().run_schedule(FixedUpdate);
    app.world_mut().resource_mut::<Messages<TacticaEvent>>().drain().collect()
}

#[test]
fn a_headless_app_plays_the_scenario_as_the_cli_does() {
    let mut app = app(TacticaRuntime::from_scenario(KEEP).unwrap().with_cell_size(32.0));
    let hero = app.world_mut().spawn((TacticaName("hero".into()), Transform::default())).id();
    let mut events = Vec::new();
    for _ in 0..TICKS {
        events.extend(step(&mut app));
    }
    let runtime = app.world().resource::<TacticaRuntime>();
    assert_eq!(runtime.trace_hash(), cli_hash(), "the same trace as the CLI");
    let logged = runtime.lock().world().log().len();
    assert_eq!(events.len(), logged, "every event came out as a message, once");
    let said: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.0.kind {
            EventKind::Say { text } => Some(format!("{}: {text}", e.0.entity.as_deref().unwrap_or(""))),
            _ => None,
        })
        .collect();
    assert!(said.contains(&"guard: That sword will fit nicely in my collection.".to_owned()), "{said:?}");
    assert!(said.contains(&"goblin: Shiny boots! Mine soon.".to_owned()), "{said:?}");
    let trap = events.iter().any(|e| matches!(&e.0.kind, EventKind::Trigger { name } if name == "kFireTrap"));
    assert!(trap, "the pressure plate fired");
    // The hero's sprite stands where the hero does, 32 units a cell.
    let rt = runtime.lock();
    let at = rt.world().entity(rt.world().find("hero").unwrap()).unwrap().position;
    let t = app.world().get::<Transform>(hero).unwrap();
    assert_eq!((t.translation.x, t.translation.y), (at.x * 32.0, at.y * 32.0));
    assert!(at.x < 4.0 && at.y > 4.0, "the hero walked the whole path: {at}");
}

#[test]
fn an_entity_the_game_drives_moves_its_character() {
    let mut app = app(TacticaRuntime::from_scenario(KEEP).unwrap());
    app.world_mut().spawn((TacticaName("goblin".into()), GameDriven, Transform::from_xyz(9.0, 6.0, 0.0)));
    step(&mut app);
    let runtime = app.world().resource::<TacticaRuntime>();
    let rt = runtime.lock();
    let goblin = rt.world().entity(rt.world().find("goblin").unwrap()).unwrap();
    assert_eq!((goblin.position.x, goblin.position.y), (9.0, 6.0));
}

/// A copy of the keep under a fresh folder, so the test can edit a script.
fn copy_keep() -> PathBuf {
    let root = std::env::temp_dir().join(format!("tactica-bevy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let keep = root.join("keep");
    std::fs::create_dir_all(keep.join("scripts")).unwrap();
    for f in ["scenario.toml", "keep.txt", "scripts/trap.tac", "scripts/guard.tac", "scripts/goblin.lua"] {
        std::fs::copy(Path::new("assets/keep").join(f), keep.join(f)).unwrap();
    }
    root
}

#[test]
fn a_script_the_asset_server_sees_change_is_reloaded() {
    let root = copy_keep();
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin { file_path: root.display().to_string(), ..Default::default() },
        TacticaPlugin { asset_root: root.clone() },
    ));
    app.insert_resource(TacticaRuntime::from_scenario(root.join("keep/scenario.toml")).unwrap());
    // Let the asset server load the scripts and start watching.
    pump_until(&mut app, Duration::from_secs(1), |_| false);
    let guard = root.join("keep/scripts/guard.tac");
    std::fs::write(&guard, "kind dialogue;\nIf (PlayerArmed == Sword) Say(\"Hand over the sword.\");\n").unwrap();
    let taken = pump_until(&mut app, Duration::from_secs(20), |app| reloads(app).iter().any(|r| r.ok));
    assert!(taken, "the change reached the runtime through the asset server");
    // A broken version is refused with its diagnostics, and the last good one keeps running.
    std::fs::write(&guard, "kind dialogue;\nIf (PlayerArmed == Sword Say(\"x\");\n").unwrap();
    let refused = pump_until(&mut app, Duration::from_secs(20), |app| {
        reloads(app).iter().any(|r| !r.ok && r.message.contains("E0001"))
    });
    assert!(refused, "a broken script is refused with its error");
    // The map is an asset too: knock a hole in the inner wall and the world's cell opens.
    let map = root.join("keep/keep.txt");
    let text = std::fs::read_to_string(&map).unwrap();
    let mut rows: Vec<String> = text.lines().map(str::to_owned).collect();
    rows[3].replace_range(7..8, ".");
    std::fs::write(&map, rows.join("\n") + "\n").unwrap();
    let opened = pump_until(&mut app, Duration::from_secs(20), |app| {
        reloads(app).iter().any(|r| r.ok && r.file.ends_with("keep.txt"))
    });
    assert!(opened, "the map change reached the world");
    let runtime = app.world().resource::<TacticaRuntime>();
    assert!(runtime.lock().world().map().passable(glam::IVec2::new(7, 3)), "the wall at (7, 3) is gone");
    let log = runtime.lock().world().log().events().to_vec();
    let ok_reloads = log.iter().filter(|e| matches!(&e.kind, EventKind::Reload { ok: true, .. })).count();
    assert_eq!(ok_reloads, 2, "the good script reload and the map reload are in the trace");
    let opened_cell = log.iter().any(|e| matches!(&e.kind, EventKind::Cell { cell: [7, 3], blocked: false }));
    assert!(opened_cell, "the opened cell is logged as a map edit");
}

/// The reload messages sent since the last call.
fn reloads(app: &mut App) -> Vec<TacticaReload> {
    app.world_mut().resource_mut::<Messages<TacticaReload>>().drain().collect()
}

/// Runs frames until `until` holds or `limit` passes; whether it held.
fn pump_until(app: &mut App, limit: Duration, until: impl Fn(&mut App) -> bool) -> bool {
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
