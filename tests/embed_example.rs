//! `examples/embed.rs`, the plain game loop, runs and does what its comments say: the goblin mod
//! waits at the shut gate, the game opens it at frame 20, the goblin walks through, and the guard
//! hails the player; the game's sprites follow Tactica's moves.

#[path = "../examples/embed.rs"]
mod embed;

use glam::IVec2;

#[test]
fn the_embedded_game_plays() {
    let report = embed::play(60);
    let lines: Vec<(&str, &str)> = report.subtitles.iter().map(|(_, w, t)| (w.as_str(), t.as_str())).collect();
    assert!(lines.contains(&("goblin", "The gate is shut. I wait.")), "{lines:?}");
    assert!(lines.contains(&("guard", "Halt! Who goes there?")), "{lines:?}");
    let waited = report.subtitles.iter().find(|(_, w, _)| w == "goblin").map(|(f, _, _)| *f);
    assert_eq!(waited, Some(0), "the mod speaks on its first think");
    let crossed = report.crossed_at.expect("the goblin crosses once the gate opens");
    assert!(crossed >= 20, "not before the gate opens: {crossed}");
    let goblin = report.sprites.iter().find(|(n, _)| *n == "goblin").unwrap().1;
    assert_eq!(goblin, IVec2::new(12, 2), "the sprite ends where the mod walked");
}

/// The README's embedding block is compiled and run as a doctest of the crate (`src/lib.rs`
/// includes the README under `cfg(doctest)`); here: it shows a whole program that needs nothing
/// but the one import path.
#[test]
fn the_readme_block_needs_only_the_prelude() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let block = readme.split("```rust\n").nth(1).and_then(|b| b.split("```").next()).expect("a rust block");
    let uses: Vec<&str> = block.lines().filter(|l| l.starts_with("use ")).collect();
    assert_eq!(uses, ["use std::sync::{Arc, Mutex};", "use tactica::prelude::*;"]);
    assert!(!block.contains("tactica_engine") && !block.contains("tactica::host"), "{block}");
    for needed in ["WorldBuilder::from_rows", ".door(", "api.add_fn(", "attach_source(", "rt.tick()", "drain_events()"]
    {
        assert!(block.contains(needed), "the block shows {needed}");
    }
}
