//! The LuaLS definitions (`docs/tactica.lua`, written by `tactica docs`) as a Lua language server
//! reads them. No lua-language-server is packaged for this machine's registries (npm, Debian), so
//! the check runs EmmyLua's checker, `emmylua_check` (crates.io), which reads the same LuaLS
//! annotations: every shipped Lua script must check without a warning, and a misspelt call and a
//! call with too many arguments must each be warned about.
//!
//! The checker is found on `PATH` or at `TACTICA_EMMYLUA_CHECK`. Without it the tests say they
//! passed over it; CI installs it and sets `TACTICA_REQUIRE_LUA_CHECKER=1`, which makes its
//! absence a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

fn checker() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TACTICA_EMMYLUA_CHECK") {
        return Some(PathBuf::from(p));
    }
    let found = std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join("emmylua_check")).find(|p| p.is_file()));
    if found.is_none() {
        assert!(
            std::env::var_os("TACTICA_REQUIRE_LUA_CHECKER").is_none(),
            "TACTICA_REQUIRE_LUA_CHECKER is set but emmylua_check is not on PATH"
        );
        eprintln!("passed over: emmylua_check is not installed (cargo install emmylua_check)");
    }
    found
}

/// A configuration that loads the definitions as a library. EmmyLua reads an element of an
/// array table as possibly nil (`taunts[i]` is `string?`) where lua-language-server reads the
/// element type; `arrayIndex = false` asks for lua-language-server's reading, which is what the
/// definitions are written for.
fn config(dir: &Path) -> PathBuf {
    let docs = std::fs::canonicalize("docs").unwrap();
    let path = dir.join(".emmyrc.json");
    let json = serde_json::json!({
        "runtime": { "version": "Lua5.4" },
        "workspace": { "library": [docs] },
        "strict": { "arrayIndex": false },
    });
    std::fs::write(&path, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    path
}

fn run(checker: &Path, config: &Path, folders: &[&Path]) -> (bool, String) {
    let out = Command::new(checker).arg("-c").arg(config).args(folders).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success() && !text.contains("warning:") && !text.contains("error:"), text)
}

fn scratch(name: &str) -> PathBuf {
    tempfile::Builder::new().prefix(&format!("tactica-luals-{name}-")).tempdir().unwrap().keep()
}

#[test]
fn every_shipped_lua_script_checks_clean_against_the_definitions() {
    let Some(checker) = checker() else { return };
    let dir = scratch("shipped");
    let config = config(&dir);
    // The hostile scripts of tests/hostile are written to break the sandbox; they are not shipped.
    let folders = [Path::new("examples"), Path::new("integrations/bevy/assets"), Path::new("tests/conformance")];
    let (clean, text) = run(&checker, &config, &folders);
    assert!(clean, "the checker warned about a shipped script:\n{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_misspelt_call_and_a_surplus_argument_are_warned_about() {
    let Some(checker) = checker() else { return };
    let dir = scratch("typo");
    let config = config(&dir);
    let mod_dir = dir.join("mod");
    std::fs::create_dir_all(&mod_dir).unwrap();
    std::fs::write(mod_dir.join("typo.lua"), "function on_think()\n  Sya(\"Halt!\")\n  MoveTo(1, 2, 3)\nend\n")
        .unwrap();
    let (clean, text) = run(&checker, &config, &[&mod_dir]);
    assert!(!clean, "{text}");
    assert!(text.contains("undefined global variable: Sya") || text.contains("`Sya`"), "{text}");
    assert!(text.contains("typo.lua:2:3"), "{text}");
    assert!(text.contains("typo.lua:3:"), "the third argument of MoveTo(x, y): {text}");
    // The same script spelt right checks clean: the warnings came from the mistakes.
    std::fs::write(mod_dir.join("typo.lua"), "function on_think()\n  Say(\"Halt!\")\n  MoveTo(1, 2)\nend\n").unwrap();
    let (clean, text) = run(&checker, &config, &[&mod_dir]);
    assert!(clean, "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
