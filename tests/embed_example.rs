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

#[test]
fn the_readme_shows_lines_of_the_example() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let example = std::fs::read_to_string("examples/embed.rs").unwrap();
    let block = readme.split("```rust\n").nth(1).and_then(|b| b.split("```").next()).expect("a rust block");
    let lines: Vec<&str> = example.lines().map(str::trim).collect();
    for line in block.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")) {
        assert!(lines.contains(&line), "README line not in examples/embed.rs: {line}");
    }
}
