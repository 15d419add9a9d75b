//! The conformance suite: each behaviour in `tests/conformance/<name>/` is written once per
//! language and plays the same scenario; every language's trace must equal the one golden trace
//! in `trace.jsonl`, byte for byte, so the languages agree with each other exactly.
//!
//! One test body runs under every language (the `rgtest!` pattern of ripgrep): adding a language
//! is one line in the macro. `.tac` is not registered in `tactica::languages()` yet; its scripts
//! join here as a third leg when it is. Regenerate the goldens with `UPDATE_EXPECT=1` (after
//! reading the diff).

mod common;

use std::path::Path;

/// Plays behaviour `name` with its scripts in language `ext` and checks the trace.
fn check(name: &str, ext: &str) {
    let dir = Path::new("tests/conformance").join(name);
    let scenario = std::fs::read_to_string(dir.join("scenario.toml")).unwrap().replace(".EXT\"", &format!(".{ext}\""));
    let mut scripts = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == ext) {
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            scripts.push((file, std::fs::read_to_string(&path).unwrap()));
        }
    }
    assert!(!scripts.is_empty(), "{name} has no .{ext} scripts");
    let refs: Vec<(&str, &str)> = scripts.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
    let rt = common::play(&common::folder(&format!("conf-{name}-{ext}"), &scenario, &refs));
    let trace = rt.trace();
    assert!(!trace.contains("\"script_error\""), "{name}.{ext} failed:\n{trace}");
    let golden = dir.join("trace.jsonl");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&golden, &trace).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(trace == expected, "{name}.{ext}: the trace differs from {}:\n{trace}", golden.display());
}

macro_rules! conformance {
    ($($name:ident),* $(,)?) => {
        $(mod $name {
            #[test]
            fn lua() {
                super::check(stringify!($name), "lua");
            }

            #[test]
            fn rhai() {
                super::check(stringify!($name), "rhai");
            }
        })*
    };
}

conformance!(troll, wizard, trap, patrol, breach, build_order, guard, coward);
