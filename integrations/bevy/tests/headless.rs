//! The plugin in a headless Bevy app (`MinimalPlugins`, no window): it plays the keep scenario
//! with the trace the `tactica` CLI gets, moves linked entities, takes positions from entities
//! the game drives (ordered before the tick's set, the same trace on every run of the
//! multithreaded executor), sends every event as a message with the linked Bevy entity, reads
//! layers in place at Bevy's cells, and reloads a script the asset server saw change.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bevy::MinimalPlugins;
use bevy::app::{App, FixedUpdate};
use bevy::asset::AssetPlugin;
use bevy::ecs::message::Messages;
use bevy::ecs::prelude::*;
use bevy::ecs::schedule::MultiThreadedExecutor;
use bevy::math::{IVec2, Vec2};
use bevy::transform::components::Transform;
use tactica::runtime::Runtime;
use tactica_bevy::{
    GameDriven, TacticaEvent, TacticaName, TacticaPlugin, TacticaReload, TacticaRuntime, TacticaSystems, ToTactica,
};
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
        .filter_map(|e| match &e.event.kind {
            EventKind::Say { text } => Some(format!("{}: {text}", e.event.entity.as_deref().unwrap_or(""))),
            _ => None,
        })
        .collect();
    assert!(said.contains(&"guard: That sword will fit nicely in my collection.".to_owned()), "{said:?}");
    assert!(said.contains(&"goblin: Shiny boots! Mine soon.".to_owned()), "{said:?}");
    let trap = events.iter().any(|e| matches!(&e.event.kind, EventKind::Trigger { name } if name == "kFireTrap"));
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
    let root = tempfile::Builder::new().prefix("tactica-bevy-").tempdir().unwrap().keep();
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
        TacticaPlugin { asset_root: Some(root.clone()), ..Default::default() },
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
        reloads(app).iter().any(|r| r.ok && r.file == Path::new("keep.txt") && r.path == root.join("keep/keep.txt"))
    });
    assert!(opened, "the map change reached the world");
    let runtime = app.world().resource::<TacticaRuntime>();
    assert!(runtime.lock().world().map().passable(IVec2::new(7, 3).to_tactica()), "the wall at (7, 3) is gone");
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

#[test]
fn an_event_carries_the_linked_entity() {
    let mut app = app(TacticaRuntime::from_scenario(KEEP).unwrap());
    let guard = app.world_mut().spawn((TacticaName("guard".into()), Transform::default())).id();
    let hero = app.world_mut().spawn((TacticaName("hero".into()), Transform::default())).id();
    let mut events = Vec::new();
    for _ in 0..TICKS {
        events.extend(step(&mut app));
    }
    let guard_lines: Vec<&TacticaEvent> = events
        .iter()
        .filter(|e| matches!(e.event.kind, EventKind::Say { .. }) && e.event.entity.as_deref() == Some("guard"))
        .collect();
    assert!(!guard_lines.is_empty());
    assert!(guard_lines.iter().all(|e| e.entity == Some(guard)), "the guard's lines carry the guard's entity");
    let hero_moves = events.iter().filter(|e| matches!(e.event.kind, EventKind::Move { .. }));
    let hero_moves: Vec<&TacticaEvent> = hero_moves.filter(|e| e.event.entity.as_deref() == Some("hero")).collect();
    assert!(hero_moves.len() > 5 && hero_moves.iter().all(|e| e.entity == Some(hero)));
    // The goblin has no Bevy entity, nor has a world event.
    let goblin = events.iter().filter(|e| e.event.entity.as_deref() == Some("goblin"));
    assert!(goblin.clone().count() > 0 && goblin.clone().all(|e| e.entity.is_none()));
    assert!(events.iter().filter(|e| e.event.entity.is_none()).all(|e| e.entity.is_none()));
}

/// The keep with the hero driven by the game: a game system in `FixedUpdate`, ordered before the
/// tick's set, walks the hero's sprite a quarter of a cell east each step; the schedule runs on
/// the multithreaded executor. The trace's hash after `TICKS` steps.
fn driven_run(ordered: bool) -> String {
    let mut app = app(TacticaRuntime::from_scenario(KEEP).unwrap());
    app.edit_schedule(FixedUpdate, |s| {
        s.set_executor(MultiThreadedExecutor::new());
    });
    app.world_mut().spawn((TacticaName("hero".into()), GameDriven, Transform::from_xyz(2.5, 2.5, 0.0)));
    // A second linked entity and a reader of the events give the executor more to run side by side.
    app.world_mut().spawn((TacticaName("goblin".into()), Transform::default()));
    fn walk(mut driven: Query<&mut Transform, With<GameDriven>>) {
        for mut t in &mut driven {
            t.translation.x = (t.translation.x + 0.25).min(12.5);
        }
    }
    fn listen(mut events: MessageReader<TacticaEvent>, mut heard: Local<usize>) {
        *heard += events.read().count();
    }
    if ordered {
        app.add_systems(FixedUpdate, (walk.before(TacticaSystems::Tick), listen.after(TacticaSystems::Tick)));
    }
    app.finish();
    app.cleanup();
    for _ in 0..TICKS {
        app.world_mut().run_schedule(FixedUpdate);
    }
    app.world().resource::<TacticaRuntime>().trace_hash()
}

#[test]
fn a_game_system_before_the_tick_gives_one_trace_over_ten_multithreaded_runs() {
    let hashes: Vec<String> = (0..10).map(|_| driven_run(true)).collect();
    assert!(hashes.iter().all(|h| *h == hashes[0]), "{hashes:?}");
    // The walk matters: standing still is another run.
    assert_ne!(hashes[0], driven_run(false));
}

#[test]
fn layers_are_read_in_place_at_bevys_cells() {
    let mut app = app(TacticaRuntime::from_scenario("../../examples/tactics/scenario.toml").unwrap());
    for _ in 0..5 {
        step(&mut app);
    }
    let runtime = app.world().resource::<TacticaRuntime>();
    let cell = IVec2::new(4, 3);
    let (value, at, width) = {
        let cover = runtime.layer("cover").expect("the scenario keeps cover");
        assert_eq!(cover.name(), "cover");
        (cover.get(cell), cover.values().as_ptr(), cover.width())
    };
    let rt = runtime.lock();
    let kept = rt.world().tactical().unwrap().layer("cover").unwrap();
    assert_eq!(value, kept.get(cell.to_tactica()));
    assert!(value.is_some());
    assert_eq!(width, kept.width());
    assert!(std::ptr::eq(at, kept.values().as_ptr()), "the view reads the runtime's own values, no copy");
    drop(rt);
    assert!(runtime.layer("no-such-layer").is_none());
    assert_eq!(runtime.layer("cover").unwrap().get(IVec2::new(-1, 0)), None);
}

#[test]
fn positions_cross_in_bevys_types() {
    let runtime = TacticaRuntime::from_scenario(KEEP).unwrap().with_cell_size(32.0).with_flip_y();
    assert_eq!(runtime.to_world(Vec2::new(2.5, 3.0)), Vec2::new(80.0, -96.0));
    assert_eq!(runtime.to_grid(Vec2::new(80.0, -96.0)), Vec2::new(2.5, 3.0));
    assert_eq!(runtime.cell_at(Vec2::new(80.0, -96.0)), IVec2::new(2, 3));
    let hero = runtime.lock().world().find("hero").unwrap();
    assert_eq!(runtime.position(hero), Some(Vec2::new(2.5, 2.5)));
    assert_eq!(runtime.tick_rate(), 10);
    let mut runtime = runtime;
    assert!(runtime.passable(IVec2::new(2, 2)));
    assert!(runtime.set_blocked(IVec2::new(1, 1), true));
    assert!(!runtime.passable(IVec2::new(1, 1)));
}
