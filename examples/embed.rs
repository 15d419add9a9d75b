//! Tactica inside a plain game loop, no engine: the game owns its characters and its map, Tactica
//! gives two of them a brain.
//!
//! - The game's own structs (`Game`, `Npc`) hold sprites and a gate; the Tactica world is built
//!   from the game's own map rows (the gate a door in them), and the game opens the door when the
//!   gate opens (frame 20).
//! - One host function of the game's own, `GateOpen()`, a closure with a Rust signature over the
//!   game's state.
//! - A Lua mod loaded from a string (a goblin that waits at the gate, then walks through), and a
//!   `.tac` guard that hails the player when the player comes into sight.
//! - Every frame the game drains Tactica's events: moves move its sprites, lines become subtitles.
//!
//! Run it with `cargo run --example embed`; `tests/embed_example.rs` runs it too.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use tactica::prelude::*;

/// The game's map: `#` wall, `|` the gate (shut at first).
const MAP: [&str; 5] =
    ["################", "#......#.......#", "#......|.......#", "#......#.......#", "################"];

/// A mod, as a modder ships it: Lua, in the game's own asset bundle.
const GOBLIN_MOD: &str = r#"
function on_think()
  if gate_open() then
    move_to(12, 2)
  elseif not state.complained then
    say("The gate is shut. I wait.")
    state.complained = true
  end
end
"#;

/// The guard, written by a designer in Tactica Script.
const GUARD: &str = "on encounter { Say(\"Halt! Who goes there?\"); }\n";

/// A character as the game knows it: a sprite and, when it has a brain, its Tactica handle.
struct Npc {
    name: &'static str,
    sprite: IVec2,
    brain: Option<EntityId>,
}

/// What the example reports when it ends (the test reads it).
pub struct Report {
    /// The subtitles shown, `(frame, speaker, line)`.
    pub subtitles: Vec<(u32, String, String)>,
    /// Where each character's sprite ended.
    pub sprites: Vec<(&'static str, IVec2)>,
    /// The frame the goblin crossed the gate, if it did.
    pub crossed_at: Option<u32>,
    /// The SHA-256 of the whole run's trace: the same on every machine and every build.
    pub trace_hash: String,
}

/// Plays `frames` frames of the game.
pub fn play(frames: u32) -> Report {
    let gate_cell = IVec2::new(7, 2);
    let gate_open = Arc::new(AtomicBool::new(false));

    // The game's own function, registered once: every language can call it, `check` knows it
    // (`GateOpen() -> bool`, from the closure's signature).
    let mut api = Api::standard();
    let open = Arc::clone(&gate_open);
    api.add_fn(
        "GateOpen",
        &[],
        "Whether the castle gate is open (`GateOpen()`).",
        move |_ctx: &mut ScriptCtx<'_>, ()| Ok::<bool, Infallible>(open.load(Ordering::Relaxed)),
    );

    // The Tactica world, built from the game's map rows: the gate is a door, shut at first.
    let mut world = WorldBuilder::from_rows(MAP)
        .door('|', "gate", false)
        .tick_rate(10)
        .seed(1)
        .build()
        .expect("the game's map is well formed");
    let mut npcs = vec![
        Npc { name: "goblin", sprite: IVec2::new(2, 2), brain: None },
        Npc { name: "guard", sprite: IVec2::new(10, 2), brain: None },
        Npc { name: "player", sprite: IVec2::new(9, 1), brain: None },
    ];
    for npc in &mut npcs {
        let mut e = Entity::new(npc.name, "Npc", npc.sprite);
        e.speed = 4.0; // cells a second: at 10 ticks a second, a cell every 2.5 frames
        if npc.name == "player" {
            e.tags.insert("player".into());
        }
        npc.brain = Some(world.spawn(e).expect("names are unique"));
    }
    let mut rt = Runtime::from_world("embed", world, languages_for(&api, ScriptLimits::new()));
    rt.attach_source(npcs[0].brain, "mods/goblin.lua", GOBLIN_MOD, 1).expect("the mod loads");
    rt.attach_source(npcs[1].brain, "guard.tac", GUARD, 1).expect("the guard checks");
    // A game that runs for hours keeps only recent events; it takes them out every frame.
    rt.keep_events(Some(256));

    let mut report = Report { subtitles: Vec::new(), sprites: Vec::new(), crossed_at: None, trace_hash: String::new() };
    for frame in 0..frames {
        // The game's own logic first: at frame 20 the gate opens, and the map follows.
        if frame == 20 {
            gate_open.store(true, Ordering::Relaxed);
            rt.world_mut().set_door("gate", true);
        }
        rt.tick();
        for event in rt.drain_events() {
            let who = event.entity.clone().unwrap_or_default();
            match &event.kind {
                EventKind::Move { to, .. } => {
                    if let Some(npc) = npcs.iter_mut().find(|n| n.name == who) {
                        npc.sprite = IVec2::new(to[0], to[1]);
                        if npc.name == "goblin" && npc.sprite.x > gate_cell.x && report.crossed_at.is_none() {
                            report.crossed_at = Some(frame);
                        }
                    }
                }
                EventKind::Say { text } => {
                    println!("[frame {frame:>3}] {who}: {text}");
                    report.subtitles.push((frame, who, text.clone()));
                }
                _ => {}
            }
        }
    }
    report.sprites = npcs.iter().map(|n| (n.name, n.sprite)).collect();
    report.trace_hash = rt.trace_hash();
    report
}

#[allow(dead_code)] // the test includes this file for `play`
fn main() {
    let report = play(60);
    for (name, at) in &report.sprites {
        println!("{name} ends at ({}, {})", at.x, at.y);
    }
    match report.crossed_at {
        Some(f) => println!("the goblin went through the gate at frame {f}"),
        None => println!("the goblin never got through"),
    }
    println!("trace {}", report.trace_hash);
}
