//! The `[models]` section: named decision models loaded from data files and checked at load.
//!
//! ```toml
//! [models]
//! guard   = { fsm = "models/guard.fsm.toml" }
//! threat  = { fuzzy = "models/threat.toml" }
//! day     = { schedule = "models/villager.sched" }
//! ```
//!
//! Each entry names exactly one [`ModelKind`] key and a file relative to the scenario. A mistake in
//! a model file is reported at that file's line and column; a misspelt kind gets a did-you-mean.
//! Scripts drive the models through the stdlib's decision functions (`FsmStep("guard")` …).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::host::ScriptError;
use tactica_engine::decide::{DecideError, Model, ModelKind, Models};
use toml::Spanned;

use super::error::{ScenarioError, SourcePos};
use super::load::with_suggestion;

/// One declaration: `{ kind = "file" }` (a table so the kind key is checked by name).
pub type ModelDecl = BTreeMap<String, Spanned<String>>;

/// The section: model name → declaration.
pub type ModelsSection = BTreeMap<String, Spanned<ModelDecl>>;

/// Loads every declared model; `text`/`file` are the scenario's (for positions), `dir` its folder.
pub(crate) fn load(
    section: &ModelsSection,
    text: &str,
    file: &Path,
    dir: &Path,
    folders: &super::files::Folders,
) -> Result<Models, ScenarioError> {
    let mut models = Models::default();
    for (name, decl) in section {
        let at = |s: usize| SourcePos::of(text, s);
        let entries: Vec<_> = decl.get_ref().iter().collect();
        let [(key, path)] = entries.as_slice() else {
            let keys: Vec<&str> = ModelKind::ALL.iter().map(|k| k.key()).collect();
            return Err(ScenarioError::new(
                file,
                at(decl.span().start),
                format!("model `{name}` must name exactly one kind, like {{ fsm = \"{name}.toml\" }}"),
            )
            .hint(format!("kinds: {}", keys.join(", "))));
        };
        let Some(kind) = ModelKind::from_key(key) else {
            let keys: Vec<&str> = ModelKind::ALL.iter().map(|k| k.key()).collect();
            let err = ScenarioError::new(file, at(path.span().start), format!("model `{name}`: unknown kind `{key}`"));
            return Err(with_suggestion(err, key, &keys));
        };
        let resolved = dir.join(path.get_ref());
        let source = folders.read(&resolved).map_err(|why| {
            ScenarioError::new(file, at(path.span().start), format!("model `{name}`: the file {why}"))
        })?;
        let model = match kind {
            ModelKind::Tree => tree_model(&resolved, &source)?,
            _ => Model::parse(kind, &source).map_err(|e| model_error(&resolved, &source, &e))?,
        };
        models.insert(name.clone(), model, source_key(&resolved));
    }
    Ok(models)
}

/// A tree file read alone (its leaf files are checked when the runtime loads them): its first
/// mistake at its line and column, with its code and hint.
fn tree_model(file: &Path, source: &str) -> Result<Model, ScenarioError> {
    let (def, diagnostics) = tactica_engine::decide::bt::parse(source, &tactica_engine::decide::bt::Catalog::default());
    match def {
        Some(def) => Ok(Model::Tree(std::sync::Arc::new(def))),
        None => {
            let Some(d) = diagnostics.iter().find(|d| d.is_error()) else {
                return Err(ScenarioError::new(file, SourcePos::default(), "the tree file builds no tree"));
            };
            let err = ScenarioError::new(
                file,
                SourcePos::of(source, d.span.start),
                format!("[{}] {}: {}", d.code, d.message, d.label),
            );
            Err(match &d.hint {
                Some(h) => err.hint(h.clone()),
                None => err,
            })
        }
    }
}

/// How a model's file is named in the registry: its canonical path, so a reload finds it
/// whichever way the path is spelt.
pub fn source_key(path: &Path) -> String {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf()).display().to_string()
}

/// A model file's error at its line and column: parse errors carry them, names are found in the
/// text where they are written.
pub(crate) fn model_error(file: &Path, text: &str, e: &DecideError) -> ScenarioError {
    let find = |needle: &str| text.find(needle).map(|o| SourcePos::of(text, o)).unwrap_or_default();
    let pos = match e {
        DecideError::Parse { line, column, .. } => SourcePos { line: *line, column: *column },
        DecideError::Unknown { name, .. } | DecideError::Duplicate { name, .. } => {
            let quoted = find(&format!("\"{name}\""));
            if quoted.line > 0 { quoted } else { find(name) }
        }
        DecideError::Expression { source_text, offset, .. } => match text.find(source_text.as_str()) {
            Some(o) => SourcePos::of(text, o + offset),
            None => SourcePos::default(),
        },
        _ => SourcePos::default(),
    };
    let message = match e {
        DecideError::Parse { message, .. } => message.trim().to_owned(),
        DecideError::Expression { source_text, code, message, .. } => format!("[{code}] in `{source_text}`: {message}"),
        other => other.to_string(),
    };
    let err = ScenarioError::new(file, pos, message);
    match e {
        DecideError::Unknown { .. } => err.hint("check the spelling against the names the file defines"),
        DecideError::Expression { hint: Some(h), .. } => err.hint(h.clone()),
        _ => err,
    }
}

/// Whether some model came from `file` (already made absolute).
pub fn is_model_file(models: &Models, file: &Path) -> bool {
    models.has_source(&source_key(file))
}

/// Reloads the models that came from `file` (already made absolute): `None` when no model did,
/// else the names swapped or why the file was refused (the old definitions keep running).
pub fn reload(models: &mut Models, file: &Path) -> Option<Result<Vec<String>, ScriptError>> {
    let key = source_key(file);
    if !models.has_source(&key) {
        return None;
    }
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return Some(Err(ScriptError::new(file, 0, 0, format!("cannot read the model file: {e}")))),
    };
    Some(models.reload(&key, &text).map_err(|e| {
        let e = model_error(&PathBuf::from(file), &text, &e);
        let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        ScriptError::new(e.file, n(e.pos.line), n(e.pos.column), e.message)
    }))
}
