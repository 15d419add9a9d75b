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
    budget: &mut super::budget::Budget<'_>,
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
        let what = format!("reading model `{name}` ({} bytes)", source.len());
        let pos = at(path.span().start);
        budget.charge(super::cost::data_file(source.len() as u64), "[models]", &what, || (file.to_path_buf(), pos))?;
        charge_model_work(kind, name, &source, &resolved, budget)?;
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

/// The sizes of a network file that its load-time training grows with.
#[derive(serde::Deserialize)]
struct NetSize {
    inputs: Vec<serde::de::IgnoredAny>,
    outputs: Vec<serde::de::IgnoredAny>,
    hidden: Spanned<u64>,
    train: Option<TrainSize>,
}

#[derive(serde::Deserialize)]
struct TrainSize {
    rows: Vec<serde::de::IgnoredAny>,
    max_epochs: Spanned<u64>,
}

/// The sizes of a genetic model's population.
#[derive(serde::Deserialize)]
struct PopulationSize {
    genes: Vec<serde::de::IgnoredAny>,
    size: Spanned<u64>,
}

/// Charges what parsing a model does beyond reading it: a network's training, a genetic
/// model's population. The error stands at the key in the model's own file. A file whose sizes
/// do not read is charged nothing here: parsing it reports why.
fn charge_model_work(
    kind: ModelKind,
    name: &str,
    source: &str,
    path: &Path,
    budget: &mut super::budget::Budget<'_>,
) -> Result<(), ScenarioError> {
    let at = |span: std::ops::Range<usize>| (path.to_path_buf(), SourcePos::of(source, span.start));
    match kind {
        ModelKind::Nn => {
            let Ok(net) = toml::from_str::<NetSize>(source) else { return Ok(()) };
            let (inputs, outputs) = (net.inputs.len() as u64, net.outputs.len() as u64);
            let hidden = *net.hidden.get_ref();
            let units = super::cost::network(inputs, hidden, outputs);
            let what = format!("network `{name}`: {inputs} inputs, {hidden} hidden, {outputs} outputs");
            budget.charge(units, "hidden", &what, || at(net.hidden.span()))?;
            let Some(train) = net.train else { return Ok(()) };
            let epochs = *train.max_epochs.get_ref();
            let units = super::cost::training(inputs, hidden, outputs, train.rows.len() as u64, epochs);
            let what = format!("training network `{name}`: {epochs} epochs over {} rows", train.rows.len());
            budget.charge(units, "max_epochs", &what, || at(train.max_epochs.span()))
        }
        ModelKind::Genetic => {
            let Ok(p) = toml::from_str::<PopulationSize>(source) else { return Ok(()) };
            let size = *p.size.get_ref();
            let units = super::cost::population(size, p.genes.len() as u64);
            let what = format!("a population of {size} with {} genes for `{name}`", p.genes.len());
            budget.charge(units, "size", &what, || at(p.size.span()))
        }
        _ => Ok(()),
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
pub fn reload(
    models: &mut Models,
    file: &Path,
    limits: super::budget::LoadLimits,
) -> Option<Result<Vec<String>, ScriptError>> {
    let key = source_key(file);
    if !models.has_source(&key) {
        return None;
    }
    let text = match super::files::read_text(file, super::files::MAX_SOURCE_BYTES) {
        Ok(t) => t,
        Err(why) => return Some(Err(ScriptError::new(file, 0, 0, format!("the model file {why}")))),
    };
    // A reload does the work a load does (a network trains again), under the scenario's limits.
    let mut budget = super::budget::Budget::new(limits, None);
    let kinds: Vec<(String, ModelKind)> =
        models.iter().filter(|(_, e)| e.source == key).map(|(n, e)| (n.to_owned(), e.model.kind())).collect();
    for (name, kind) in kinds {
        if let Err(e) = charge_model_work(kind, &name, &text, file, &mut budget) {
            let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
            return Some(Err(ScriptError::new(e.file, n(e.pos.line), n(e.pos.column), e.message)));
        }
    }
    Some(models.reload(&key, &text).map_err(|e| {
        let e = model_error(&PathBuf::from(file), &text, &e);
        let n = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        ScriptError::new(e.file, n(e.pos.line), n(e.pos.column), e.message)
    }))
}
