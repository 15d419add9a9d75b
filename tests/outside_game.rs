//! A game crate of its own, in a folder outside the workspace, that depends on `tactica` the way
//! a game does: it builds with nothing from this repository's manifest (no `[patch]`), links the
//! patched Lua, and plays the embed example and the sandbox's determinism and budget cases with
//! the same output and trace hashes as this test computes inside the workspace.
//!
//! The game builds in the workspace's target folder with the workspace's profile for
//! dependencies, so only `tactica` (with the game's features) and the game itself are compiled;
//! still a build inside a test, so the test is ignored by `cargo test` and CI runs it by name
//! with `--ignored`.

#[path = "../examples/embed.rs"]
mod embed;
#[path = "outside_game/sandbox.rs"]
mod sandbox;
#[path = "outside_game/summary.rs"]
mod summary;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root.
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder for the game crate, outside the workspace (cargo would otherwise take the
/// repository's manifest as the game's workspace).
fn game_folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tactica-outside-game-{test}-{}", std::process::id()));
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap();
    }
    std::fs::create_dir_all(dir.join("src")).unwrap();
    assert!(!dir.starts_with(repo()), "{} is inside the workspace", dir.display());
    dir
}

/// Writes the game: its manifest with `dependency` as the `tactica` line, the embed example and
/// the sandbox cases as its modules, and the workspace's lock file so that it builds offline
/// with the versions the workspace tests.
fn write_game(dir: &Path, dependency: &str) {
    let manifest = format!(
        "[package]\nname = \"outside-game\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n{dependency}\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    let copy = |from: &str, to: &str| {
        std::fs::copy(repo().join(from), dir.join(to)).unwrap_or_else(|e| panic!("copying {from}: {e}"));
    };
    copy("examples/embed.rs", "src/embed.rs");
    copy("tests/outside_game/sandbox.rs", "src/sandbox.rs");
    copy("tests/outside_game/summary.rs", "src/summary.rs");
    copy("tests/outside_game/game_main.rs", "src/main.rs");
    copy("Cargo.lock", "Cargo.lock");
}

/// The target folder the workspace builds in.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("target"))
}

/// Builds and runs the game in `dir` with `cargo run`, returning what it printed.
fn run_game(dir: &Path, extra_config: &[&str]) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.current_dir(dir).args(["run", "--quiet", "--offline"]);
    // The workspace's target folder and its profile for dependencies (`Cargo.toml`,
    // `[profile.dev.package."*"]`): the dependencies the workspace built are reused, not rebuilt.
    // (cargo releases the folder's lock before it runs the tests.)
    command.arg("--target-dir").arg(target_dir());
    for config in
        ["profile.dev.package.\"*\".opt-level=1", "profile.dev.package.\"*\".debug=false"].iter().chain(extra_config)
    {
        command.args(["--config", config]);
    }
    let output = command.output().expect("cargo runs");
    assert!(
        output.status.success(),
        "the game crate in {} did not build and run:\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// What the game must print: the same run inside the workspace.
fn expected() -> String {
    let expected = summary::summary();
    // The cases mean something: the patched Lua's answers, and the budget's stop.
    assert!(expected.contains("sandbox say tostring table: #"), "tostring prints a creation number:\n{expected}");
    assert!(
        expected.contains("instruction budget of 100000 exceeded inside `find`"),
        "the backtracking pattern is stopped inside `find`:\n{expected}"
    );
    assert!(
        expected.contains("sandbox say still thinking on turn 4"),
        "the mod thinks again the next tick:\n{expected}"
    );
    assert!(expected.contains("embed 0 goblin: The gate is shut. I wait."), "{expected}");
    expected
}

#[test]
#[ignore = "builds a game crate outside the workspace (minutes); CI runs it with --ignored"]
fn a_game_depending_on_tactica_by_path_plays_as_the_workspace_does() {
    let dir = game_folder("path");
    let path = repo().display().to_string().replace('\\', "/");
    write_game(
        &dir,
        &format!("tactica = {{ path = \"{path}\", default-features = false, features = [\"lua\", \"rhai\"] }}"),
    );
    let printed = run_game(&dir, &[]);
    assert_eq!(printed, expected());
    std::fs::remove_dir_all(&dir).unwrap();
}
