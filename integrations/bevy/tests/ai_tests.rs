//! The keep's AI tests (`assets/keep/keep.tactest`) from the game's own `cargo test`: once through
//! `tactica::testing` (what `tactica test` runs), and once inside a headless Bevy app, where a
//! [`Watch`] is fed from the plugin's fixed step — the same verdicts, passing and failing, so a
//! test file holds the AI to the same rules in the game as on the command line.

use std::path::{Path, PathBuf};

use bevy::MinimalPlugins;
use bevy::app::{App, FixedUpdate};
use bevy::ecs::message::Messages;
use tactica::runtime::Runtime;
use tactica::testing::{Options, PreparedTest, Suite, Verdict, Watch};
use tactica_bevy::{TacticaEvent, TacticaPlugin, TacticaRuntime};
use tactica_engine::world::Event;

const KEEP_TESTS: &str = "assets/keep/keep.tactest";

#[test]
fn the_keeps_ai_tests_pass_from_cargo_test() {
    tactica::testing::assert_passes(KEEP_TESTS);
}

/// Plays `test` in a headless Bevy app with the plugin, one fixed step a tick, and checks it with a
/// `Watch` fed from the plugin's messages.
fn verdicts_in_bevy(test: &PreparedTest) -> Vec<Verdict> {
    let mut scenario = test.scenario();
    scenario.world.reseed(test.seed);
    let runtime = Runtime::new(scenario, tactica::languages()).unwrap_or_else(|_| panic!("the keep's scripts compile"));
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TacticaPlugin::default()));
    app.insert_resource(TacticaRuntime::new(runtime));
    let mut watch = Watch::new(test, test.seed);
    for _ in 0..test.ticks {
        app.world_mut().run_schedule(FixedUpdate);
        let events: Vec<Event> =
            app.world_mut().resource_mut::<Messages<TacticaEvent>>().drain().map(|m| m.event).collect();
        let runtime = app.world().resource::<TacticaRuntime>();
        watch.observe(runtime.lock().world(), &events);
        if watch.done() {
            break;
        }
    }
    let runtime = app.world().resource::<TacticaRuntime>();
    watch.finish(runtime.lock().world())
}

/// The verdicts `tactica test` gives the same test.
fn verdicts_of_the_runner(file: &Path, name: &str) -> Vec<Verdict> {
    let mut suite = Suite::load(&[file]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(suite.keep_named(name), 1);
    let report = suite.run(&Options { threads: 1, ..Options::default() }, &|| {});
    report.results.into_iter().next().unwrap().verdicts
}

#[test]
fn a_watch_fed_by_the_plugin_agrees_with_the_runner() {
    let suite = Suite::load(&[KEEP_TESTS]).unwrap_or_else(|e| panic!("{e}"));
    let test = &suite.tests[0];
    let in_bevy = verdicts_in_bevy(test);
    assert_eq!(in_bevy.len(), 6);
    assert!(in_bevy.iter().all(|v| !v.failed()), "{in_bevy:?}");
    assert_eq!(in_bevy, verdicts_of_the_runner(Path::new(KEEP_TESTS), &test.name));
}

/// A copy of the keep with a test one tick too strict beside it.
fn strict_keep() -> PathBuf {
    let dir = tempfile::Builder::new().prefix("tactica-bevy-ai-").tempdir().unwrap().keep();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    for f in ["scenario.toml", "keep.txt", "scripts/trap.tac", "scripts/guard.tac", "scripts/goblin.lua"] {
        std::fs::copy(Path::new("assets/keep").join(f), dir.join(f)).unwrap();
    }
    let file = dir.join("strict.tactest");
    std::fs::write(
        &file,
        "scenario \"scenario.toml\";\n\ntest \"too strict\" {\n    expect guard says \"That sword will fit nicely in my collection.\" by 35;\n    expect hero reaches (3, 5) by 116;\n}\n",
    )
    .unwrap();
    file
}

#[test]
fn a_failure_in_bevy_is_the_runners_failure_at_the_same_tick() {
    let file = strict_keep();
    let suite = Suite::load(&[&file]).unwrap_or_else(|e| panic!("{e}"));
    let in_bevy = verdicts_in_bevy(&suite.tests[0]);
    assert_eq!(in_bevy, verdicts_of_the_runner(&file, "too strict"));
    // The guard eyes the sword at tick 36 and the hero steps onto (3, 5) at tick 117 (the CLI's
    // trace of the keep): each expectation fails at the end of its window.
    let ticks: Vec<u64> = in_bevy
        .iter()
        .map(|v| match v {
            Verdict::Failed { tick, .. } => *tick,
            other => panic!("expected a failure, got {other:?}"),
        })
        .collect();
    assert_eq!(ticks, [35, 116]);
}
