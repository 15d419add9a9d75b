//! `tactica check` compiles Lua and Rhai files with diagnostics at file:line, and `tactica run`
//! plays scenarios whose scripts are Lua and Rhai; `.tac` warnings print but pass unless
//! `--deny-warnings`; `tactica explain` prints a code's long form.

use std::process::Command;

fn tactica(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn check_reports_lua_and_rhai_syntax_errors_with_their_line() {
    let dir = tempfile::Builder::new().prefix("tactica-check-").tempdir().unwrap().keep();
    let lua = dir.join("bad.lua");
    std::fs::write(&lua, "function on_think()\n  Say('hi'\nend\n").unwrap();
    let rhai = dir.join("bad.rhai");
    std::fs::write(&rhai, "fn on_think() {\n    say(\"hi\";\n}\n").unwrap();
    let (code, text) = tactica(&["check", lua.to_str().unwrap(), rhai.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("bad.lua:3"), "{text}");
    assert!(text.contains("bad.rhai:2"), "{text}");
    let (code, text) = tactica(&["check", "examples/modding/goblin.lua", "examples/modding/shaman.rhai"]);
    assert_eq!(code, 0, "{text}");
}

#[test]
fn run_plays_a_scenario_with_lua_and_rhai_scripts() {
    let (code, text) = tactica(&["run", "examples/modding", "-q"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Playing Goblin camp"), "{text}");
    assert!(text.contains("trace sha256 "), "{text}");
    assert!(!text.contains("script errors were reported"), "{text}");
}

/// A fresh folder under the temp dir holding `files`.
fn scratch(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-{name}-")).tempdir().unwrap().keep();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir
}

#[test]
fn check_exits_0_when_clean_0_with_warnings_and_1_with_errors() {
    let dir = scratch(
        "tac-exit",
        &[
            ("clean.tac", "If (PlayerArmed == TRUE) DoFlee();\n"),
            ("warned.tac", "CREATURE=1;\nSPEED=50;\nSPEED=60;\nEND\n"),
            ("broken.tac", "If (PlayerArmd == TRUE) DoFlee();\n"),
        ],
    );
    let path = |f: &str| dir.join(f).to_str().unwrap().to_owned();

    let (code, text) = tactica(&["check", &path("clean.tac")]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("1 file checked, 0 errors, 0 warnings\n"), "{text}");

    // A scenario file checked alone lints the scripts its characters run: the summary counts
    // them (the skirmish's pointman, cover, picket and the raiders' shared `.tac`); checked as a
    // folder, they are files of the check themselves.
    let (code, text) = tactica(&["check", "examples/skirmish/scenario.toml"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("1 file checked, 0 errors, 0 warnings (4 scripts linted with their scenario)"), "{text}");
    let (code, text) = tactica(&["check", "examples/skirmish"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("6 files checked, 0 errors, 0 warnings\n"), "{text}");

    // A warning is printed, as an ariadne report with its code, but does not fail the check …
    let (code, text) = tactica(&["check", &path("warned.tac")]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("[E0032] Warning: `SPEED` is set twice"), "{text}");
    assert!(text.contains("warned.tac:3:1"), "{text}");
    assert!(text.contains("1 file checked, 0 errors, 1 warning"), "{text}");
    // … unless CI asks for it to.
    let (code, text) = tactica(&["check", "--deny-warnings", &path("warned.tac")]);
    assert_eq!(code, 1, "{text}");
    let (code, text) = tactica(&["check", "--deny-warnings", &path("clean.tac")]);
    assert_eq!(code, 0, "{text}");

    let (code, text) = tactica(&["check", &path("broken.tac"), &path("warned.tac")]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("[E0010] Error: unknown name `PlayerArmd`"), "{text}");
    assert!(text.contains("did you mean `PlayerArmed`?"), "{text}");
    assert!(text.contains("2 files checked, 1 error, 1 warning"), "{text}");
}

#[test]
fn explain_prints_the_long_form_of_a_code_and_refuses_an_unknown_one() {
    let (code, text) = tactica(&["explain", "e0062"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.starts_with("E0062 (warning, found by `tactica check`)"), "{text}");
    assert!(
        text.contains("Wrong:") && text.contains("Right:") && text.contains("role cover { wait ready; }"),
        "{text}"
    );
    let (code, text) = tactica(&["explain"]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(text.lines().filter(|l| l.starts_with('E')).count(), tactica_script::Code::ALL.len(), "{text}");
    let (code, text) = tactica(&["explain", "E9999"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("not a Tactica Script diagnostic code"), "{text}");
}

/// A script a scenario uses is compiled twice by `tactica check FOLDER`: once as part of the
/// scenario, once as a file of its own. Each mistake is printed and counted once, in its fullest
/// form (with its code and span), whichever way the path was spelled.
#[test]
fn check_reports_a_mistake_in_a_scenarios_script_once() {
    let dir = scratch(
        "check-once",
        &[
            ("map.txt", "......\n......\n......\n"),
            (
                "scenario.toml",
                "name = \"once\"\nmap = \"map.txt\"\n\n[[entities]]\nname = \"a\"\nkind = \"human\"\nat = [1, 1]\n\
                 scripts = [\"a.tac\"]\n\n[[entities]]\nname = \"b\"\nkind = \"human\"\nat = [3, 1]\nscripts = [\"b.rhai\"]\n\n\
                 [[entities]]\nname = \"c\"\nkind = \"human\"\nat = [4, 1]\nscripts = [\"c.lua\"]\n",
            ),
            ("a.tac", "kind behaviour;\nif (DistanceToPlayer() < \"far\") Say(\"hi\");\n"),
            ("b.rhai", "fn on_think( {\n"),
            ("c.lua", "function on_thnk()\nend\n"),
        ],
    );
    let (code, text) = tactica(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{text}");
    assert_eq!(text.matches("needs numbers").count(), 1, "{text}");
    assert_eq!(text.matches("[E0016] Error").count(), 1, "{text}");
    assert_eq!(text.matches("b.rhai:1:").count(), 1, "{text}");
    assert_eq!(text.matches("[E0074] Warning").count(), 1, "{text}");
    assert!(text.contains("4 files checked, 2 errors, 1 warning"), "{text}");
    // The Lua file's own verdict is still printed: it passes, with its warning.
    assert!(text.contains("c.lua (1 warning)"), "{text}");

    // Named on the command line with two spellings of the same path, still once; the JSON line
    // is the `.tac` check's own, with its code and the end of its span.
    let toml = dir.join("scenario.toml");
    let tac = dir.join(".").join("a.tac");
    let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["check", "--format", "json", toml.to_str().unwrap(), tac.to_str().unwrap()])
        .output()
        .unwrap();
    let json = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = json.lines().filter(|l| l.contains("needs numbers")).collect();
    assert_eq!(lines.len(), 1, "{json}");
    assert!(lines[0].contains("\"code\":\"E0016\""), "{json}");
    assert!(lines[0].contains("\"line\":2"), "{json}");
}
