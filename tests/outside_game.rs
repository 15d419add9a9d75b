//! A game crate of its own, in a folder outside the workspace, that depends on `tactica` the way
//! a game does: it builds with nothing from this repository's manifest (no `[patch]`), links the
//! patched Lua, and plays the embed example and the sandbox's determinism and budget cases with
//! the same output and trace hashes as this test computes inside the workspace.
//!
//! The game builds in the workspace's target folder with the workspace's profile for
//! dependencies, so only `tactica` (with the game's features) and the game itself are compiled;
//! still a build inside a test, so the tests are ignored by `cargo test`. CI runs the game built
//! from the packaged crates by name with `--ignored`; the other three are run by hand
//! (`cargo test --test outside_game -- --ignored`).

#[path = "../examples/embed.rs"]
mod embed;
#[path = "outside_game/sandbox.rs"]
mod sandbox;
#[path = "outside_game/summary.rs"]
mod summary;

use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::Digest;

/// The repository's root.
fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder for the game crate, outside the workspace (cargo would otherwise take the
/// repository's manifest as the game's workspace).
fn game_folder(test: &str) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-outside-game-{test}-")).tempdir().unwrap().keep();
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
/// Offline unless the game reads a registry's git index, which cargo fetches once.
fn run_game(dir: &Path, extra_config: &[&str], offline: bool) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut command = Command::new(cargo);
    command.current_dir(dir).args(["run", "--quiet"]);
    if offline {
        command.arg("--offline");
    }
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
    let printed = String::from_utf8(output.stdout).expect("UTF-8 output");
    // The embed example shows its subtitles as it plays (`[frame  0] goblin: …`); the summary is
    // the rest.
    printed.lines().filter(|l| !l.starts_with("[frame")).map(|l| format!("{l}\n")).collect()
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
    // A stopped tick's changes to `state` are rolled back, so the mod meets the pattern again on
    // each later tick, and is stopped again: the world goes on. The trace records the stop once
    // and then its two repeats with their count.
    let stops = expected.matches("error 14: line 14: instruction budget of 100000 exceeded inside `find`").count();
    assert_eq!(stops, 1, "stopped on tick 3:\n{expected}");
    assert!(expected.contains("error 14 repeated 2 more times"), "and on ticks 4 and 5:\n{expected}");
    assert!(expected.contains("embed 0 goblin: The gate is shut. I wait."), "{expected}");
    expected
}

#[test]
#[ignore = "builds a game crate outside the workspace (minutes); run by hand with --ignored"]
fn a_game_depending_on_tactica_by_path_plays_as_the_workspace_does() {
    let dir = game_folder("path");
    let path = repo().display().to_string().replace('\\', "/");
    write_game(
        &dir,
        &format!("tactica = {{ path = \"{path}\", default-features = false, features = [\"lua\", \"rhai\"] }}"),
    );
    let printed = run_game(&dir, &[], true);
    assert_eq!(printed, expected());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The crates.io index, as a registry's index names it.
const CRATES_IO: &str = "https://github.com/rust-lang/crates.io-index";

/// Where a crate's lines live in a registry index (cargo's layout: `1/a`, `2/ab`, `3/a/abc`,
/// `ab/cd/abcd…`).
fn index_path(name: &str) -> String {
    let lower = name.to_lowercase();
    match lower.len() {
        1 => format!("1/{lower}"),
        2 => format!("2/{lower}"),
        3 => format!("3/{}/{lower}", &lower[..1]),
        _ => format!("{}/{}/{lower}", &lower[..2], &lower[2..4]),
    }
}

/// Runs `program` with `args` in `dir`, failing the test with its output if it fails.
fn run(dir: &Path, program: &str, args: &[&str]) {
    let output = Command::new(program).current_dir(dir).args(args).output().expect("the program runs");
    assert!(
        output.status.success(),
        "{program} {args:?} failed:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A registry of the workspace's packaged crates, as a company's own registry serves them: a
/// git index (`file://`) whose lines are made from `cargo metadata`, and the `.crate` files
/// `cargo package` made, downloaded from the folder. Dependencies on crates.io stay on
/// crates.io. Returns the index's URL.
fn local_registry(dir: &Path) -> String {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let target = target_dir();
    // Every crate a game's `tactica` reaches, packaged as crates.io would get it.
    let output = Command::new(&cargo)
        .current_dir(repo())
        .args(["package", "--workspace", "--exclude", "tactica-bevy", "--no-verify", "--locked", "--allow-dirty"])
        .arg("--target-dir")
        .arg(&target)
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "cargo package failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let metadata = Command::new(&cargo)
        .current_dir(repo())
        .args(["metadata", "--format-version", "1", "--no-deps", "--locked", "--offline"])
        .output()
        .expect("cargo runs");
    assert!(metadata.status.success(), "{}", String::from_utf8_lossy(&metadata.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&metadata.stdout).unwrap();

    let index = dir.join("index");
    let crates = dir.join("crates");
    std::fs::create_dir_all(&index).unwrap();
    std::fs::create_dir_all(&crates).unwrap();
    let dl = format!("file://{}/{{crate}}-{{version}}.crate", crates.display());
    std::fs::write(index.join("config.json"), serde_json::json!({ "dl": dl, "api": null }).to_string()).unwrap();
    let mut packaged = 0;
    for package in metadata["packages"].as_array().unwrap() {
        let (name, version) = (package["name"].as_str().unwrap(), package["version"].as_str().unwrap());
        if name == "tactica-bevy" {
            continue;
        }
        let file = format!("{name}-{version}.crate");
        let bytes = std::fs::read(target.join("package").join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        std::fs::write(crates.join(&file), &bytes).unwrap();
        let cksum: String = sha2::Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        let deps: Vec<serde_json::Value> = package["dependencies"]
            .as_array()
            .unwrap()
            .iter()
            // A published crate's dev-dependencies do not reach its dependents.
            .filter(|d| d["kind"] != "dev")
            .map(|d| {
                let real = d["name"].as_str().unwrap();
                let ours = d["source"].is_null();
                serde_json::json!({
                    "name": d["rename"].as_str().unwrap_or(real),
                    "package": d["rename"].as_str().map(|_| real),
                    "req": d["req"],
                    "features": d["features"],
                    "optional": d["optional"],
                    "default_features": d["uses_default_features"],
                    "target": d["target"],
                    "kind": d["kind"].as_str().unwrap_or("normal"),
                    // The workspace's own crates are in this registry; the rest on crates.io.
                    "registry": if ours { serde_json::Value::Null } else { CRATES_IO.into() },
                })
            })
            .collect();
        let line = serde_json::json!({
            "name": name,
            "vers": version,
            "deps": deps,
            "cksum": cksum,
            "features": package["features"],
            "yanked": false,
            "links": package["links"],
            "v": 2,
        });
        let path = index.join(index_path(name));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, format!("{line}\n")).unwrap();
        packaged += 1;
    }
    assert!(packaged >= 9, "the packaged crates: {packaged}");
    run(&index, "git", &["init", "--quiet"]);
    run(&index, "git", &["add", "."]);
    run(
        &index,
        "git",
        &["-c", "user.name=tactica", "-c", "user.email=tactica@localhost", "commit", "--quiet", "-m", "index"],
    );
    format!("file://{}", index.display())
}

#[test]
#[ignore = "packages the workspace and builds a game crate outside it from the packages (minutes); CI runs it with --ignored"]
fn a_game_depending_on_the_packaged_crates_plays_as_the_workspace_does() {
    let dir = game_folder("registry");
    let registry = local_registry(&dir.join("registry"));
    write_game(
        &dir,
        "tactica = { version = \"=0.1.0\", registry = \"tactica-local\", default-features = false, features = [\"lua\", \"rhai\"] }",
    );
    let index = format!("registries.tactica-local.index=\"{registry}\"");
    let printed = run_game(&dir, &[&index], false);
    assert_eq!(printed, expected());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "builds a Bevy app outside the workspace and runs its test (minutes); run by hand with --ignored"]
fn a_new_bevy_app_with_the_plugin_passes_its_headless_test() {
    let dir = game_folder("bevy");
    let path = repo().display().to_string().replace('\\', "/");
    // The plugin as its docs add it (its default `hot-reload`), and Bevy with what the plugin
    // needs: the app and ECS, time, assets (the features the workspace's own build of the plugin
    // has, so Bevy's crates are reused from the target folder, not rebuilt).
    let manifest = format!(
        "[package]\nname = \"outside-bevy-app\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         [dependencies]\n\
         tactica = {{ path = \"{path}\", default-features = false, features = [\"lua\", \"rhai\"] }}\n\
         tactica-bevy = {{ path = \"{path}/integrations/bevy\" }}\n\
         bevy = {{ version = \"0.19\", default-features = false, features = [\"std\", \"bevy_asset\", \"multi_threaded\", \"async_executor\"] }}\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/lib.rs"), "//! A Bevy game with Tactica's plugin.\n").unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::copy(repo().join("tests/outside_game/bevy_headless.rs"), dir.join("tests/headless.rs")).unwrap();
    std::fs::copy(repo().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let keep = repo().join("integrations/bevy/assets/keep");
    for file in ["scenario.toml", "keep.txt", "scripts/trap.tac", "scripts/guard.tac", "scripts/goblin.lua"] {
        let to = dir.join("assets/keep").join(file);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(keep.join(file), &to).unwrap_or_else(|e| panic!("{file}: {e}"));
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(&dir)
        .args(["test", "--offline", "--target-dir"])
        .arg(target_dir())
        .args([
            "--config",
            "profile.dev.package.\"*\".opt-level=1",
            "--config",
            "profile.dev.package.\"*\".debug=false",
        ])
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the Bevy app's test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("test the_keep_plays_headless_as_tactica_plays_it ... ok"), "{stdout}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "builds a game crate outside the workspace (its build scripts); run by hand with --ignored"]
fn a_game_that_also_asks_for_an_unpatched_lua_gets_a_build_error_saying_why() {
    let dir = game_folder("vendored");
    let path = repo().display().to_string().replace('\\', "/");
    write_game(
        &dir,
        &format!(
            "tactica = {{ path = \"{path}\", default-features = false, features = [\"lua\"] }}\n\
             mlua = {{ version = \"0.12\", features = [\"lua54\", \"vendored\"] }}"
        ),
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // Not offline: mlua's own Lua (`lua-src`) is a crate the workspace never downloads.
    let output = Command::new(cargo)
        .current_dir(&dir)
        .args(["check", "--quiet", "--target-dir"])
        .arg(target_dir())
        .output()
        .expect("cargo runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "a second, unpatched Lua was accepted:\n{stderr}");
    assert!(
        stderr.contains("`vendored`, `external` and `module` features are mutually exclusive"),
        "the error says why:\n{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
