//! Every unit of the engine is either reached in play — by a script call, a scenario key or a
//! `tactica` command — or marked internal with a reason (`tactica_stdlib::reach`). This test
//! walks `engine/src`, so a new engine module without an entry fails it, and checks that what an
//! entry names exists: the script call in the API table, the key in `docs/scenario.md`, the
//! subcommand and flag in the CLI.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use tactica_stdlib::Api;
use tactica_stdlib::reach::{CAPABILITIES, Reach};

/// The engine's units: each file and folder directly under a module folder of `engine/src`.
fn engine_units() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/src");
    let mut units = BTreeSet::new();
    for module in std::fs::read_dir(&root).unwrap() {
        let module = module.unwrap().path();
        if !module.is_dir() {
            continue;
        }
        let mname = module.file_name().unwrap().to_string_lossy().into_owned();
        for entry in std::fs::read_dir(&module).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name == "mod.rs" || name == "tests.rs" || name == "tests" {
                continue;
            }
            if path.is_dir() {
                units.insert(format!("{mname}/{name}"));
            } else if let Some(stem) = name.strip_suffix(".rs") {
                units.insert(format!("{mname}/{stem}"));
            }
        }
    }
    units
}

#[test]
fn every_engine_unit_has_exactly_one_entry() {
    let units = engine_units();
    assert!(units.len() > 50, "the walk found the engine ({} units)", units.len());
    let listed: Vec<&str> = CAPABILITIES.iter().map(|c| c.unit).collect();
    let missing: Vec<&String> = units.iter().filter(|u| !listed.contains(&u.as_str())).collect();
    assert!(missing.is_empty(), "engine units with no entry in tactica_stdlib::reach::CAPABILITIES: {missing:?}");
    let gone: Vec<&&str> = listed.iter().filter(|u| !units.contains(**u)).collect();
    assert!(gone.is_empty(), "entries for units the engine no longer has: {gone:?}");
    let mut seen = BTreeSet::new();
    for u in &listed {
        assert!(seen.insert(*u), "`{u}` is listed twice");
    }
}

#[test]
fn internal_units_say_why_and_reached_units_say_how() {
    for c in CAPABILITIES {
        match c.reach {
            Reach::Internal(why) | Reach::NotYet(why) => {
                assert!(why.len() >= 20, "`{}` is marked internal or not yet in play without a reason: {why:?}", c.unit)
            }
            Reach::InPlay { calls, keys, commands } => assert!(
                !(calls.is_empty() && keys.is_empty() && commands.is_empty()),
                "`{}` is marked in play but names no call, key or command",
                c.unit
            ),
        }
    }
}

#[test]
fn the_calls_named_exist_in_the_api_table() {
    let api = Api::standard();
    for c in CAPABILITIES {
        if let Reach::InPlay { calls, .. } = c.reach {
            for call in calls {
                assert!(
                    api.functions(call).any(|f| f.name == *call),
                    "`{}` names the script call `{call}`, which the API table does not have",
                    c.unit
                );
            }
        }
    }
}

/// Whether `docs/scenario.md` documents `key` of `section` (`""`: the top level): the section's
/// header appears, and after it the key is written as an assignment, a header or a code word.
fn documented(doc: &str, section: &str, key: &str) -> bool {
    let written = |from: &str| {
        [format!("{key} ="), format!("`{key}`"), format!("[{key}]"), format!("[[{key}]]"), format!("[{key}.")]
            .iter()
            .any(|form| from.contains(form.as_str()))
    };
    if section.is_empty() {
        return written(doc);
    }
    [format!("[{section}]"), format!("[[{section}]]"), format!("[{section}.")]
        .iter()
        .filter_map(|h| doc.find(h.as_str()))
        .min()
        .is_some_and(|at| written(&doc[at..]))
}

#[test]
fn the_scenario_keys_named_are_documented() {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scenario.md")).unwrap();
    assert!(!documented(&doc, "field", "no_such_key_at_all"), "the check can fail");
    for c in CAPABILITIES {
        if let Reach::InPlay { keys, .. } = c.reach {
            for (section, key) in keys {
                assert!(
                    documented(&doc, section, key),
                    "`{}` names the scenario key `{key}` of `[{section}]`, which docs/scenario.md does not document",
                    c.unit
                );
            }
        }
    }
}

#[test]
fn the_commands_named_exist() {
    for c in CAPABILITIES {
        if let Reach::InPlay { commands, .. } = c.reach {
            for command in commands {
                let mut words = command.split_whitespace();
                let sub = words.next().unwrap();
                let out = Command::new(env!("CARGO_BIN_EXE_tactica")).args([sub, "--help"]).output().unwrap();
                assert!(out.status.success(), "`{}` names `tactica {sub}`, which does not exist", c.unit);
                let help = String::from_utf8_lossy(&out.stdout);
                for flag in words {
                    assert!(
                        help.contains(flag),
                        "`{}` names `tactica {sub} {flag}`, which `--help` does not list",
                        c.unit
                    );
                }
            }
        }
    }
}
