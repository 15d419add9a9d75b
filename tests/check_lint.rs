//! `tactica check` lints Lua and Rhai without running them: a misspelt call (E0011, with the
//! closest name), a wrong argument count (E0013), a misspelt handler (E0074, a warning), a
//! global the sandbox removed (E0075) and a place written bare where names are strings (E0079, a
//! warning), each at file:line:col and rendered like `.tac`'s findings.
//! The four mistakes in each language live in `tests/lint/`; their reports are snapshots.
//! Every shipped Lua and Rhai script lints clean, and what a script defines itself is never
//! a finding.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `tactica check ARGS` from the repository root, without colour: (exit code, stdout + stderr).
fn check(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .arg("check")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout));
    (out.status.code(), text)
}

/// The report on `tests/lint/FILE`, checked for its exit code and its code.
fn report(file: &str, code: &str, exit: i32) -> String {
    let path = format!("tests/lint/{file}");
    let (status, text) = check(&[&path]);
    assert_eq!(status, Some(exit), "{text}");
    assert!(text.contains(&format!("[{code}]")), "{text}");
    text
}

#[test]
fn lua_misspelt_call() {
    insta::assert_snapshot!(report("sya.lua", "E0011", 1));
}

#[test]
fn lua_wrong_arity() {
    insta::assert_snapshot!(report("arity.lua", "E0013", 1));
}

#[test]
fn lua_misspelt_handler() {
    insta::assert_snapshot!(report("handler.lua", "E0074", 0));
}

#[test]
fn lua_removed_global() {
    insta::assert_snapshot!(report("removed.lua", "E0075", 1));
}

#[test]
fn rhai_misspelt_call() {
    insta::assert_snapshot!(report("sya.rhai", "E0011", 1));
}

#[test]
fn rhai_wrong_arity() {
    insta::assert_snapshot!(report("arity.rhai", "E0013", 1));
}

#[test]
fn rhai_misspelt_handler() {
    insta::assert_snapshot!(report("handler.rhai", "E0074", 0));
}

#[test]
fn rhai_removed_global() {
    insta::assert_snapshot!(report("removed.rhai", "E0075", 1));
}

/// A place of the scenario written bare in a Lua or Rhai mod (`MoveTo(kWell)`, as `.tac` writes it)
/// is a warning when the scenario is checked: there names are strings.
#[test]
fn lua_place_written_bare() {
    insta::assert_snapshot!(report("well/lua.toml", "E0079", 0));
}

#[test]
fn rhai_place_written_bare() {
    insta::assert_snapshot!(report("well/rhai.toml", "E0079", 0));
}

#[test]
fn json_findings_carry_their_place_and_hint() {
    let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["check", "tests/lint/sya.lua", "--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(first["code"], "E0011");
    assert_eq!((first["line"].as_u64(), first["column"].as_u64()), (Some(3), Some(3)));
    assert_eq!(first["hint"], "did you mean `Say`?");
}

/// Every `.lua` and `.rhai` file under `dir`.
fn scripts_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            scripts_under(&p, out);
        } else if p.extension().is_some_and(|e| e == "lua" || e == "rhai") {
            out.push(p);
        }
    }
}

#[test]
fn every_shipped_lua_and_rhai_script_lints_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["examples", "integrations/bevy/assets", "tests/conformance"] {
        scripts_under(&root.join(dir), &mut files);
    }
    assert!(files.len() >= 10, "{files:?}");
    let args: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (status, text) = check(&[&["--deny-warnings"], args.as_slice()].concat());
    assert_eq!(status, Some(0), "{text}");
    assert!(text.contains(&format!("{} files checked, 0 errors, 0 warnings", files.len())), "{text}");
}

#[test]
fn what_a_script_defines_itself_is_never_a_finding() {
    let dir = tempfile::Builder::new().prefix("tactica-check-lint-").tempdir().unwrap().keep();
    let lua = dir.join("clean.lua");
    std::fs::write(
        &lua,
        r#"-- A local function named like a handler is a helper, not a handler.
local function on_thinck() return 1 end
local function helper(n) return n + on_thinck() end
local t = {}
function on_think()
  t:insert(helper(1))            -- a method call on a table
  table.insert(t, 2)
  local s = ("Halt"):upper()      -- string methods
  local n = s:len() + #t
  later(n)                        -- defined below
  local MoveTo = function(a, b, c) return a end
  MoveTo(1, 2, 3)                 -- a local named like an API function
  print("n is", n)
end
function later(n) Say(tostring(n)) end
"#,
    )
    .unwrap();
    let rhai = dir.join("clean.rhai");
    std::fs::write(
        &rhai,
        r#"// Functions the script defines, closures, `this` and the engine's own functions.
fn helper(n) { n + 1 }
fn on_think() {
    let double = |x| x * 2;
    let n = double(helper(1));
    this.count = (this.count ?? 0) + n;
    let items = [3, 1, 2];
    items.sort();
    let s = "halt".to_upper();
    let Say = |a, b, c| a;
    Say(1, 2, 3);
    print(`count ${this.count}, ${s.len()} letters`);
    later();
}
fn later() { MoveTo(1, 2); }
"#,
    )
    .unwrap();
    let (status, text) = check(&["--deny-warnings", &lua.display().to_string(), &rhai.display().to_string()]);
    assert_eq!(status, Some(0), "{text}");
    assert!(text.contains("2 files checked, 0 errors, 0 warnings"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_scenario_check_lints_its_scripts() {
    let dir = tempfile::Builder::new().prefix("tactica-check-lint-scenario-").tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "....\n....\n").unwrap();
    std::fs::write(dir.join("guard.lua"), "function on_thinck()\n  Say(\"Halt!\")\nend\n").unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        "name = \"lint\"\nmap = \"map.txt\"\n\n[[entities]]\nname = \"guard\"\nkind = \"human\"\nat = [1, 1]\nscripts = [\"guard.lua\"]\n",
    )
    .unwrap();
    let (status, text) = check(&[&dir.join("scenario.toml").display().to_string()]);
    assert_eq!(status, Some(0), "a warning only: {text}");
    assert!(text.contains("[E0074]") && text.contains("guard.lua:1:10"), "{text}");
    let (status, _) = check(&["--deny-warnings", &dir.join("scenario.toml").display().to_string()]);
    assert_eq!(status, Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}
