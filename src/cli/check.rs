//! `tactica check`: validate scenarios, maps and scripts.
//!
//! Exit code 0 when no file has an error (warnings are printed but allowed, as with rustc),
//! 1 when an error was printed — or a warning, under `--deny-warnings` (for CI).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::host::{ScriptError, ScriptHost};
use crate::runtime::Runtime;
use crate::scenario;
use tactica_engine::grid;

/// Checks every path (folders: every file in them that tactica knows) and prints diagnostics.
/// `deny_warnings` makes a warning fail the check like an error.
pub fn check(paths: &[PathBuf], deny_warnings: bool) -> anyhow::Result<ExitCode> {
    let mut host = ScriptHost::new();
    for b in crate::languages() {
        host.add_backend(b);
    }
    let mut files = Vec::new();
    for p in paths {
        collect(p, &host, &mut files);
    }
    let scenario_names = scenario_names(&files);
    let (mut errors, mut warnings) = (0usize, 0usize);
    for f in &files {
        let found = check_file(f, &mut host, &scenario_names);
        for p in found.warnings.iter().chain(&found.errors) {
            eprintln!("{p}");
        }
        match (found.errors.len(), found.warnings.len()) {
            (0, 0) => println!("ok    {}", f.display()),
            (0, w) => println!("ok    {} ({})", f.display(), super::count(w as u64, "warning", "warnings")),
            _ => {}
        }
        errors += found.errors.len();
        warnings += found.warnings.len();
    }
    println!(
        "{}, {}, {}",
        super::count(files.len() as u64, "file checked", "files checked"),
        super::count(errors as u64, "error", "errors"),
        super::count(warnings as u64, "warning", "warnings")
    );
    let failed = errors > 0 || (deny_warnings && warnings > 0);
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// What checking one file found, as printable text.
#[derive(Default)]
struct Findings {
    errors: Vec<String>,
    warnings: Vec<String>,
}

impl From<Vec<String>> for Findings {
    fn from(errors: Vec<String>) -> Self {
        Findings { errors, warnings: Vec::new() }
    }
}

fn collect(p: &Path, host: &ScriptHost, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> =
            std::fs::read_dir(p).into_iter().flatten().flatten().map(|e| e.path()).collect();
        entries.sort();
        for e in entries {
            if e.is_dir() || known(&e, host) {
                collect(&e, host, out);
            }
        }
    } else {
        out.push(p.to_path_buf());
    }
}

fn known(p: &Path, host: &ScriptHost) -> bool {
    let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
    (ext == "toml" && is_scenario(p)) || ext == "map" || ext == "tps" || host.backend_for(p).is_some()
}

/// Whether a `.toml` file met while walking a folder is a scenario: `scenario.toml`, or a table
/// with a `map` key. Other TOML files (decision models, say) are data a scenario names, and are
/// checked when that scenario loads them.
fn is_scenario(p: &Path) -> bool {
    if p.file_name().is_some_and(|n| n == "scenario.toml") {
        return true;
    }
    let Ok(text) = crate::scenario::files::read_text(p, crate::scenario::files::MAX_SCENARIO_BYTES) else {
        return true; // unreadable: let the check say why
    };
    text.parse::<toml::Table>().map_or(true, |t| t.contains_key("map"))
}

/// Every problem with one file. Only `.tac` has warnings; the other languages' compilers report
/// errors alone.
fn check_file(
    f: &Path,
    host: &mut ScriptHost,
    scenario_names: &[(BTreeSet<PathBuf>, tactica_script::Api)],
) -> Findings {
    if !f.exists() {
        return vec![format!("error: {}: no such file", f.display())].into();
    }
    let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
    let errors = match ext {
        "toml" => match scenario::load(f) {
            Err(e) => vec![format!("error: {e}")],
            Ok(s) => {
                let warnings = tac_warnings_in(&s);
                let errors = match Runtime::new(s, crate::languages()) {
                    Ok(_) => Vec::new(),
                    Err(errs) => errs.iter().map(ScriptError::report).collect(),
                };
                return Findings { errors, warnings };
            }
        },
        "map" => grid::load_movingai(f).err().map(|e| format!("error: {e}")).into_iter().collect(),
        "txt" | "grid" => grid::load_ascii(f).err().map(|e| format!("error: {e}")).into_iter().collect(),
        _ => {
            let source = match crate::scenario::files::read_text(f, crate::scenario::files::MAX_SOURCE_BYTES) {
                Ok(s) => s,
                Err(why) => return vec![format!("error: {}: the file {why}", f.display())].into(),
            };
            if ext == "tps" {
                return check_query_blocks(f, &source).into();
            }
            if ext == "tac" {
                // A file a scenario of this check uses is checked with that scenario's names.
                let canonical = f.canonicalize().unwrap_or_else(|_| f.to_path_buf());
                let standard = tactica_script::Api::standard();
                let api =
                    scenario_names.iter().find(|(used, _)| used.contains(&canonical)).map_or(&standard, |(_, a)| a);
                return check_tac(f, &source, api);
            }
            match host.check_source(f, &source) {
                Ok(()) => Vec::new(),
                Err(errs) => errs.iter().map(ScriptError::report).collect(),
            }
        }
    };
    errors.into()
}

/// For each scenario among `files` that loads: the script files it uses (canonical paths) and
/// the API with its names declared (places, regions, kinds, globals, tags).
fn scenario_names(files: &[PathBuf]) -> Vec<(BTreeSet<PathBuf>, tactica_script::Api)> {
    let mut out = Vec::new();
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "toml")) {
        let Ok(s) = scenario::load(f) else { continue };
        let mut api = tactica_script::Api::standard();
        api.declare_world_names(&s.world);
        let used = s
            .entity_scripts
            .iter()
            .flat_map(|e| e.files.iter())
            .chain(&s.world_scripts)
            .map(|p| p.canonicalize().unwrap_or_else(|_| p.clone()))
            .collect();
        out.push((used, api));
    }
    out
}

/// The warnings of the scenario's `.tac` files checked against the scenario's own names (a role
/// no character is tagged for …): loading the scenario reports only errors.
fn tac_warnings_in(s: &scenario::Scenario) -> Vec<String> {
    let mut api = tactica_script::Api::standard();
    api.declare_world_names(&s.world);
    let files: std::collections::BTreeSet<&PathBuf> = s
        .entity_scripts
        .iter()
        .flat_map(|e| e.files.iter())
        .chain(&s.world_scripts)
        .filter(|f| f.extension().is_some_and(|e| e == "tac"))
        .collect();
    let mut warnings = Vec::new();
    for f in files {
        let Ok(source) = crate::scenario::files::read_text(f, crate::scenario::files::MAX_SOURCE_BYTES) else {
            continue;
        };
        let name = f.display().to_string();
        let (_, diagnostics) = tactica_script::check(&name, &source, &api);
        for d in diagnostics.iter().filter(|d| !d.is_error()) {
            warnings.push(tactica_script::render(&name, &source, std::slice::from_ref(d), false));
        }
    }
    warnings
}

/// A `.tac` file against the standard API (what the `.tac` backend compiles with), keeping the
/// warnings the backend drops.
/// A query file's mistakes, rendered like a `.tac` file's: the same front end read it.
fn check_query_blocks(f: &Path, source: &str) -> Vec<String> {
    let name = f.display().to_string();
    match tactica_engine::tactics::query::parse_queries(&name, source, Default::default()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .0
            .iter()
            .map(|e| match e.diagnostic(source) {
                Some(d) => tactica_script::render(&name, source, &[d], false),
                None => format!("error: {e}"),
            })
            .collect(),
    }
}

fn check_tac(f: &Path, source: &str, api: &tactica_script::Api) -> Findings {
    let name = f.display().to_string();
    let (_, diagnostics) = tactica_script::check(&name, source, api);
    let mut found = Findings::default();
    for d in &diagnostics {
        let text = tactica_script::render(&name, source, std::slice::from_ref(d), false);
        if d.is_error() { found.errors.push(text) } else { found.warnings.push(text) }
    }
    found
}
