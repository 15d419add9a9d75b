//! The runtime's side of behaviour trees: each tree model is checked with its leaf files (the
//! `.tac`, Lua and Rhai functions its leaves call, compiled into the script host) and the
//! scenario's places; trees are ticked in the scripts phase with [`Leaves`] calling those
//! functions; a tree file saved while the game runs swaps the tree of every character running
//! it, which halts what ran and starts the new tree, keeping the blackboard.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tactica_engine::decide::Model;
use tactica_engine::decide::bt::{self, Catalog, LeafCall, LeafHost, Status, TreeDef};
use tactica_engine::world::{Command, EntityId, World};
use tactica_script::{Code, Diagnostic};

use crate::host::{ScriptError, ScriptHost};

/// Builds the tree of `file` (its text `source`) with everything checked: its leaves against
/// the functions of its leaf files (compiled into `host` here), its place arguments against
/// `world`'s places, regions and characters. The tree names its leaf files as `host` knows them.
pub(crate) fn build(
    file: &Path,
    source: &str,
    host: &mut ScriptHost,
    world: &World,
) -> Result<TreeDef, Vec<ScriptError>> {
    let places = places(world);
    let (def, diagnostics) = diagnose(file, source, host, Some(&places));
    match def {
        Some(def) => Ok(def),
        None => Err(errors(file, source, &diagnostics)),
    }
}

/// Every mistake of the tree file `file` (text `source`), warnings too, with its leaf files
/// compiled into `host` and its place arguments checked against `places` when given; and the
/// tree, when there is no error. What `tactica check` and the language server report of a tree.
pub(crate) fn diagnose(
    file: &Path,
    source: &str,
    host: &mut ScriptHost,
    places: Option<&[String]>,
) -> (Option<TreeDef>, Vec<Diagnostic>) {
    let (ast, mut diagnostics) = tactica_script::tree::parse(source);
    let Some(ast) = ast else { return (None, diagnostics) };
    let dir = file.parent().unwrap_or(Path::new("."));
    let mut functions = Vec::new();
    let mut files = Vec::new();
    for (leaf_file, span) in bt::leaf_files(&ast) {
        let path = dir.join(&leaf_file);
        if host.backend_for(&path).is_none() {
            continue; // E0127 from the build: not a script file
        }
        match host.load(&path) {
            Ok(()) => {
                functions.extend(host.leaf_names(&path));
                files.push(path.display().to_string());
            }
            Err(errs) => {
                let why = errs.first().map_or_else(String::new, |e| format!(": {}", e.message));
                diagnostics.push(
                    Diagnostic::new(
                        Code::TreeLeafFile,
                        span,
                        format!("the leaf file `{leaf_file}` cannot be used{why}"),
                        "here",
                    )
                    .with_hint("fix the file (`tactica check` it); its path is relative to the tree file"),
                );
            }
        }
    }
    let (def, more) = bt::build(source, &ast, &Catalog { functions: Some(&functions), places });
    diagnostics.extend(more);
    diagnostics.sort_by_key(|d| d.span.start);
    let def = def.filter(|_| !diagnostics.iter().any(Diagnostic::is_error)).map(|d| d.with_leaf_files(files));
    (def, diagnostics)
}

/// The names a leaf's place argument may take: places, regions and characters.
pub(crate) fn places(world: &World) -> Vec<String> {
    let mut places: Vec<String> = world.places().keys().cloned().collect();
    places.extend(world.regions().keys().cloned());
    places.extend(world.entities().map(|(_, e)| e.name.clone()));
    places
}

/// The errors among `diagnostics`, as script errors with their ariadne rendering.
fn errors(file: &Path, source: &str, diagnostics: &[Diagnostic]) -> Vec<ScriptError> {
    let name = file.display().to_string();
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let (line, column) = d.line_col(source);
            let mut e = ScriptError::new(file, line, column, format!("{}: {}", d.code, d.message));
            e.rendered = Some(tactica_script::render(&name, source, std::slice::from_ref(d), false));
            e
        })
        .collect()
}

/// Builds every tree model of `world` with its leaf files (replacing what the scenario loaded,
/// which could not see them), then attaches each character's tree.
pub(crate) fn load(
    world: &mut World,
    host: &mut ScriptHost,
    attach: &[(EntityId, String)],
) -> Result<(), Vec<ScriptError>> {
    let mut errors = Vec::new();
    let trees: Vec<(String, String)> = world
        .models
        .iter()
        .filter(|(_, e)| matches!(&*e.model, Model::Tree(_)) && !e.source.is_empty())
        .map(|(n, e)| (n.to_owned(), e.source.clone()))
        .collect();
    for (name, source_key) in trees {
        let file = PathBuf::from(&source_key);
        let text = match crate::scenario::files::read_text(&file, crate::scenario::files::MAX_SOURCE_BYTES) {
            Ok(t) => t,
            Err(why) => {
                errors.push(ScriptError::new(&file, 0, 0, format!("the tree file {why}")));
                continue;
            }
        };
        match build(&file, &text, host, world) {
            Ok(def) => world.models.insert(name, Model::Tree(Arc::new(def)), source_key),
            Err(e) => errors.extend(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    for (entity, model) in attach {
        if let Some(def) = world.models.tree(model).cloned() {
            world.trees_mut().attach(*entity, model.clone(), def);
        }
    }
    Ok(())
}

/// What a tree file's reload did: the characters running its trees (by name), and whether the
/// new trees were taken or why not.
pub(crate) type ReloadOutcome = (Vec<String>, Result<(), Vec<ScriptError>>);

/// Reloads the tree models that came from `file` (absolute): `None` when none did, else the
/// characters that run them (by name) and whether the new tree was taken. Every character
/// running one swaps at its next tick.
pub(crate) fn reload(world: &mut World, host: &mut ScriptHost, file: &Path) -> Option<ReloadOutcome> {
    let key = crate::scenario::models::source_key(file);
    let names: Vec<String> =
        world.models.names_from(&key).into_iter().filter(|n| world.models.tree(n).is_some()).collect();
    if names.is_empty() {
        return None;
    }
    let runners = |world: &World| -> Vec<String> {
        world
            .trees()
            .iter()
            .filter(|(_, t)| names.contains(&t.model().to_owned()))
            .filter_map(|(id, _)| world.entity(id).map(|e| e.name.clone()))
            .collect()
    };
    let users = runners(world);
    let text = match crate::scenario::files::read_text(file, crate::scenario::files::MAX_SOURCE_BYTES) {
        Ok(t) => t,
        Err(why) => {
            let e = ScriptError::new(file, 0, 0, format!("the tree file {why}; the old tree keeps running"));
            return Some((users, Err(vec![e])));
        }
    };
    let def = match build(file, &text, host, world) {
        Ok(def) => Arc::new(def),
        Err(e) => return Some((users, Err(e))),
    };
    for name in &names {
        world.models.insert(name.clone(), Model::Tree(Arc::clone(&def)), key.clone());
        world.trees_mut().reload(name, &def);
    }
    Some((users, Ok(())))
}

/// What a tree built by a script (`BuildTree`) calls: the functions of the script that built it
/// (`builder`) and of the files its `leaves` line names (relative to `dir`, the scenario's
/// scripts folder), loaded now. The `DefineTree` commands a call issued after `from` are amended.
pub(crate) fn name_builder(
    commands: &mut tactica_engine::world::CommandBuffer,
    (from, to): (usize, usize),
    builder: &Path,
    dir: &Path,
    host: &mut ScriptHost,
) -> Vec<ScriptError> {
    let mut errors = Vec::new();
    for c in commands.range_mut(from, to) {
        let Command::DefineTree { def, .. } = c else { continue };
        let mut files = Vec::new();
        for f in def.leaf_files() {
            let path = dir.join(f);
            match host.load(&path) {
                Ok(()) => files.push(path.display().to_string()),
                Err(e) => errors.extend(e),
            }
        }
        files.push(builder.display().to_string());
        *def = Arc::new((**def).clone().with_leaf_files(files));
    }
    errors
}

/// Calls script leaves and services through the script host; failures are collected to be
/// recorded as `script_error`s after the scripts phase, and the leaf fails.
pub(crate) struct Leaves<'a> {
    pub(crate) host: &'a mut ScriptHost,
    pub(crate) failures: &'a mut Vec<(Option<EntityId>, ScriptError)>,
}

impl Leaves<'_> {
    /// The leaf file of `tree` that defines `function`.
    fn file_of(&mut self, tree: &TreeDef, function: &str) -> Option<PathBuf> {
        tree.leaf_files().iter().map(PathBuf::from).find(|f| self.host.defines(f, function))
    }
}

impl LeafHost for Leaves<'_> {
    fn call(&mut self, call: &mut LeafCall<'_>) -> Status {
        let Some(file) = self.file_of(call.tree, call.function) else {
            let files = call.tree.leaf_files().join(", ");
            let e = ScriptError::new(
                call.tree.leaf_files().first().map_or("tree", String::as_str),
                0,
                0,
                format!(
                    "the tree `{}` calls `{}`, which none of its leaf files defines ({})",
                    call.tree.name(),
                    call.function,
                    if files.is_empty() { "it names none" } else { &files }
                ),
            );
            self.failures.push((Some(call.entity), e));
            return Status::Failure;
        };
        let result = self.host.call_leaf(
            call.entity,
            &file,
            call.function,
            call.world,
            call.rng,
            call.commands,
            call.blackboard,
        );
        match result {
            Ok(_) if call.service => Status::Success,
            Ok(v) => Status::from_value(&v).unwrap_or_else(|| {
                let e = ScriptError::new(
                    &file,
                    0,
                    0,
                    format!(
                        "the leaf `{}` returned {}; a leaf returns \"success\", \"failure\" or \"running\" (or true/false)",
                        call.function,
                        if v == tactica_engine::Value::Nil { "nothing".to_owned() } else { v.to_string() }
                    ),
                );
                self.failures.push((Some(call.entity), e));
                Status::Failure
            }),
            Err(e) => {
                self.failures.push((Some(call.entity), e));
                Status::Failure
            }
        }
    }

    /// A halted leaf's clean-up: the function `<leaf>_halted` of its file, when there is one.
    fn halt(&mut self, call: &mut LeafCall<'_>) {
        let hook = format!("{}_halted", call.function);
        let Some(file) = self.file_of(call.tree, &hook) else { return };
        if let Err(e) =
            self.host.call_leaf(call.entity, &file, &hook, call.world, call.rng, call.commands, call.blackboard)
        {
            self.failures.push((Some(call.entity), e));
        }
    }
}
