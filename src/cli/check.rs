//! `tactica check`: validate scenarios, maps and scripts.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::host::ScriptHost;
use crate::runtime::Runtime;
use crate::scenario;
use tactica_engine::grid;

/// Checks every path (folders: every file in them that tactica knows) and prints diagnostics.
pub fn check(paths: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let mut host = ScriptHost::new();
    for b in crate::languages() {
        host.add_backend(b);
    }
    let mut files = Vec::new();
    for p in paths {
        collect(p, &host, &mut files);
    }
    let mut errors = 0usize;
    for f in &files {
        let problems = check_file(f, &mut host);
        if problems.is_empty() {
            println!("ok    {}", f.display());
        } else {
            for p in &problems {
                eprintln!("{p}");
            }
            errors += problems.len();
        }
    }
    println!("{} files checked, {errors} errors", files.len());
    Ok(if errors == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
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
    matches!(ext, "toml" | "map") || host.backend_for(p).is_some()
}

/// Every problem with one file, as printable text.
fn check_file(f: &Path, host: &mut ScriptHost) -> Vec<String> {
    if !f.exists() {
        return vec![format!("error: {}: no such file", f.display())];
    }
    match f.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "toml" => match scenario::load(f) {
            Err(e) => vec![format!("error: {e}")],
            Ok(s) => match Runtime::new(s, crate::languages()) {
                Ok(_) => Vec::new(),
                Err(errs) => errs.iter().map(|e| e.rendered.clone().unwrap_or_else(|| format!("error: {e}"))).collect(),
            },
        },
        "map" => grid::load_movingai(f).err().map(|e| format!("error: {e}")).into_iter().collect(),
        "txt" | "grid" => grid::load_ascii(f).err().map(|e| format!("error: {e}")).into_iter().collect(),
        _ => {
            let source = match std::fs::read_to_string(f) {
                Ok(s) => s,
                Err(e) => return vec![format!("error: {}: cannot read: {e}", f.display())],
            };
            match host.check_source(f, &source) {
                Ok(()) => Vec::new(),
                Err(errs) => errs.iter().map(|e| e.rendered.clone().unwrap_or_else(|| format!("error: {e}"))).collect(),
            }
        }
    }
}
