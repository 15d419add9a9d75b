//! The keep, in a window: a tile map, a hero walking a path, a goblin scripted in Lua, a guard
//! scripted in Tactica Script whose taunt follows the hero's weapon, and a pressure-plate trap —
//! all from `assets/keep`, played by [`TacticaPlugin`]. What characters say floats above them
//! and runs along the bottom of the window; the trap flashes its tile.
//!
//! ```sh
//! cargo run -p tactica-bevy --example keep --features window
//! ```
//!
//! Edit `assets/keep/scripts/guard.tac` while it runs: the guard's new line is live at once (a
//! broken edit is shown at the bottom and the old script keeps running).
//!
//! With `TACTICA_SCREENSHOT=path.png` it saves a screenshot at tick 60 and exits (the README's
//! picture is taken this way: `integrations/bevy/screenshot.sh`).

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use tactica_bevy::{TacticaEvent, TacticaName, TacticaPlugin, TacticaReload, TacticaRuntime};
use tactica_engine::world::EventKind;

const CELL: f32 = 40.0;
const MAP: &str = include_str!("../assets/keep/keep.txt");

fn main() {
    App::new()
        .add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window {
                title: "Tactica — the keep".into(),
                resolution: (720, 400).into(),
                ..default()
            }),
            ..default()
        }))
        // The scenario is found in the asset folder, wherever the game is started from.
        .add_plugins(TacticaPlugin::scenario("keep/scenario.toml").with_cell_size(CELL).with_flip_y())
        // Ten Tactica ticks a second, as the scenario's tick_rate says.
        .insert_resource(Time::<Fixed>::from_hz(10.0))
        .init_resource::<Subtitles>()
        .add_systems(Startup, setup)
        .add_systems(Update, (speech, reloads, fade, screenshot))
        .run();
}

/// The last lines said, newest last.
#[derive(Resource, Default)]
struct Subtitles(Vec<String>);

#[derive(Component)]
struct SubtitleText;

/// A speech bubble that fades.
#[derive(Component)]
struct Bubble(Timer);

#[derive(Component)]
struct Tile {
    cell: (i32, i32),
}

fn setup(mut commands: Commands) {
    // The plugin draws cell (x, y) at (x, -y) × CELL (rows down the screen); the camera looks at
    // the map's centre, a little low to leave room for the subtitles.
    let rows = MAP.lines().count() as f32;
    let cols = MAP.lines().next().map_or(0, str::len) as f32;
    let centre = Vec3::new((cols - 1.0) * CELL / 2.0, -(rows - 1.0) * CELL / 2.0 - 30.0, 0.0);
    commands.spawn((Camera2d, Transform::from_translation(centre)));
    for (y, row) in MAP.lines().enumerate() {
        for (x, c) in row.chars().enumerate() {
            let color = if c == '#' { Color::srgb(0.25, 0.22, 0.2) } else { Color::srgb(0.55, 0.5, 0.42) };
            commands.spawn((
                Sprite::from_color(color, Vec2::splat(CELL - 2.0)),
                Transform::from_xyz(x as f32 * CELL, -(y as f32) * CELL, -1.0),
                Tile { cell: (x as i32, y as i32) },
            ));
        }
    }
    let character = |name: &str, color: Color| {
        (
            TacticaName(name.into()),
            Sprite::from_color(color, Vec2::splat(CELL * 0.7)),
            Transform::from_xyz(0.0, 0.0, 1.0),
        )
    };
    for (name, color) in [
        ("hero", Color::srgb(0.2, 0.45, 0.9)),
        ("goblin", Color::srgb(0.3, 0.75, 0.25)),
        ("guard", Color::srgb(0.8, 0.25, 0.2)),
    ] {
        commands.spawn(character(name, color)).with_children(|c| {
            c.spawn((
                Text2d::new(name),
                TextFont { font_size: FontSize::Px(13.0), ..default() },
                TextColor(Color::WHITE),
                Transform::from_xyz(0.0, -CELL * 0.55, 1.0),
            ));
        });
    }
    commands.spawn((
        Text::new("The keep: a Lua goblin, a .tac guard, a pressure plate at (10, 2)."),
        TextFont { font_size: FontSize::Px(16.0), ..default() },
        Node { position_type: PositionType::Absolute, left: Val::Px(12.0), bottom: Val::Px(10.0), ..default() },
        SubtitleText,
    ));
}

/// Lines said become bubbles over the speaker and subtitles; the trap flashes its tile.
fn speech(
    mut commands: Commands,
    mut events: MessageReader<TacticaEvent>,
    mut subtitles: ResMut<Subtitles>,
    mut text: Query<&mut Text, With<SubtitleText>>,
    mut tiles: Query<(&Tile, &mut Sprite)>,
) {
    for e in events.read() {
        let who = e.event.entity.clone().unwrap_or_default();
        match &e.event.kind {
            EventKind::Say { text: line } => {
                subtitles.0.push(format!("{who}: {line}"));
                // The event carries the speaker's own Bevy entity.
                if let Some(speaker) = e.entity {
                    commands.entity(speaker).with_children(|c| {
                        c.spawn((
                            Text2d::new(line.clone()),
                            TextFont { font_size: FontSize::Px(15.0), ..default() },
                            TextColor(Color::srgb(1.0, 0.95, 0.6)),
                            Transform::from_xyz(0.0, CELL * 0.75, 2.0),
                            Bubble(Timer::from_seconds(4.0, TimerMode::Once)),
                        ));
                    });
                }
            }
            EventKind::Trigger { name } => {
                subtitles.0.push(format!("*click* {name}!"));
                for (tile, mut sprite) in &mut tiles {
                    if tile.cell == (10, 2) {
                        sprite.color = Color::srgb(0.95, 0.4, 0.1);
                    }
                }
            }
            _ => {}
        }
    }
    let keep = subtitles.0.len().saturating_sub(3);
    subtitles.0.drain(..keep);
    if let Ok(mut t) = text.single_mut()
        && !subtitles.0.is_empty()
    {
        t.0 = subtitles.0.join("\n");
    }
}

/// A script edited while the game runs: the result goes to the subtitles.
fn reloads(mut reloads: MessageReader<TacticaReload>, mut subtitles: ResMut<Subtitles>) {
    for r in reloads.read() {
        let file = r.file.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let line = if r.ok { format!("{file} reloaded") } else { format!("{file} refused: {}", r.message) };
        subtitles.0.push(line);
    }
}

fn fade(mut commands: Commands, time: Res<Time>, mut bubbles: Query<(Entity, &mut Bubble)>) {
    for (e, mut b) in &mut bubbles {
        if b.0.tick(time.delta()).is_finished() {
            commands.entity(e).despawn();
        }
    }
}

/// With `TACTICA_SCREENSHOT`, saves the window at tick 60 and exits a little later.
fn screenshot(
    mut commands: Commands,
    runtime: Option<Res<TacticaRuntime>>,
    mut done: Local<Option<u64>>,
    mut exit: MessageWriter<AppExit>,
) {
    let (Ok(path), Some(runtime)) = (std::env::var("TACTICA_SCREENSHOT"), runtime) else { return };
    let tick = runtime.lock().world().clock().tick();
    match *done {
        None if tick >= 60 => {
            commands.spawn(Screenshot::primary_window()).observe(save_to_disk(path));
            *done = Some(tick);
        }
        Some(at) if tick >= at + 10 => {
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}
