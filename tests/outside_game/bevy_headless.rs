//! A new Bevy app's headless test, written from tactica-bevy's docs alone (the crate docs'
//! `App`, `docs/bevy.md`): the plugin loads the keep from the app's own `assets/` folder,
//! ticks in `FixedUpdate`, sends Tactica's events as messages, and plays the scenario with the
//! trace `tactica` itself gets. `tests/outside_game.rs` writes this app outside the workspace
//! and runs `cargo test` in it.

use bevy::prelude::*;
use tactica::prelude::*;
use tactica_bevy::{TacticaEvent, TacticaPlugin, TacticaRuntime, TacticaSystems};

/// What the characters said, as the app's subtitle system saw it.
#[derive(Resource, Default)]
struct Said(Vec<String>);

fn subtitles(mut events: MessageReader<TacticaEvent>, mut said: ResMut<Said>) {
    for e in events.read() {
        if let EventKind::Say { text } = &e.event.kind {
            said.0.push(text.clone());
        }
    }
}

#[test]
fn the_keep_plays_headless_as_tactica_plays_it() {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, AssetPlugin::default(), TacticaPlugin::scenario("keep/scenario.toml")))
        .insert_resource(Time::<Fixed>::from_hz(10.0))
        .init_resource::<Said>()
        .add_systems(FixedUpdate, subtitles.after(TacticaSystems::Tick));
    app.finish();
    app.cleanup();
    assert!(app.world().contains_resource::<TacticaRuntime>(), "the scenario loaded from the app's assets");
    for _ in 0..120 {
        app.world_mut().run_schedule(FixedUpdate);
    }

    let scenario = load_scenario(std::path::Path::new("assets/keep/scenario.toml")).unwrap();
    let mut rt = Runtime::new(scenario, languages()).unwrap();
    rt.run(120);
    let runtime = app.world().resource::<TacticaRuntime>();
    assert_eq!(runtime.trace_hash(), rt.trace_hash(), "the plugin's trace is tactica's");
    let said = &app.world().resource::<Said>().0;
    let expected: Vec<String> = rt
        .world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Say { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert!(!expected.is_empty(), "somebody speaks in the keep");
    assert_eq!(*said, expected, "every line came to the app's system as a message");
}
