//! The behaviour-tree package: the character's blackboard (which its tree, its scripts and the
//! other models share) and trees built and run from a script — the same calls in `.tac`, Lua
//! and Rhai.
//!
//! Writes are commands, like every script change: a key set by `SetBlackboard` is on the
//! blackboard after the tick's scripts have run. Within one tick of a character's tree, the
//! tree's own writes (its `set` nodes, and its leaves' `SetBlackboard`) are read back at once, by
//! its conditions and by `GetBlackboard` in its leaves.

use std::sync::Arc;

use tactica_engine::Value;
use tactica_engine::decide::bt::{self, Catalog};
use tactica_engine::world::Command;

use crate::api::{HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

pub use tactica_engine::world::MAX_BLACKBOARD_KEYS;

/// The longest tree text `BuildTree` reads, in bytes.
pub const MAX_TREE_TEXT: usize = 64 * 1024;

fn p(name: &'static str, ty: Type) -> Param {
    Param { name, ty }
}

/// The functions of this package, in the order the API reference lists them.
pub(crate) fn functions() -> Vec<HostFn> {
    let f = |name, params, ret, doc, imp| HostFn { name, params, ret, doc, imp: HostImpl::Fn(imp) };
    vec![
        f(
            "GetBlackboard",
            vec![p("key", Type::Str)],
            Type::Any,
            "A key of the scripted character's blackboard, which its behaviour tree, its scripts and its models share, or nil (`GetBlackboard(\"noise\")`). In a tree's leaf, the tree's own writes of this tick are read back.",
            get_blackboard,
        ),
        f(
            "SetBlackboard",
            vec![p("key", Type::Str), p("value", Type::Any)],
            Type::Nil,
            "Sets a key of the scripted character's blackboard after every script of the tick has run (`SetBlackboard(\"noise\", true)`); a tree's conditions on the key are read again. A blackboard holds up to 1,024 keys; a new one past that is an error.",
            set_blackboard,
        ),
        f(
            "BuildTree",
            vec![p("text", Type::Str)],
            Type::Str,
            "Builds a behaviour tree from its text (the `.bt` language, `docs/trees.md`) and registers it under the tree's name, which it returns (`BuildTree(\"tree Idle { wait(10); }\")`). Its script leaves are functions of the script that built it, and of the files its `leaves` line names. A mistake is an error naming the line, column and code.",
            build_tree,
        ),
        f(
            "RunTree",
            vec![p("tree", Type::Str)],
            Type::Nil,
            "Runs a behaviour tree — one the scenario declares in `[models]` or one `BuildTree` built — on the scripted character from the next tick; a tree it runs already is halted cleanly first (`RunTree(\"guard\")`).",
            run_tree,
        ),
        f(
            "StopTree",
            vec![],
            Type::Nil,
            "Stops the scripted character's behaviour tree: what runs is halted cleanly at the next tick.",
            stop_tree,
        ),
        f(
            "TreeStatus",
            vec![],
            Type::Any,
            "What the scripted character's tree returned on its last tick — `running`, `success` or `failure` — or nil when it runs no tree.",
            tree_status,
        ),
        f(
            "TreeRunning",
            vec![],
            Type::Any,
            "The nodes of the scripted character's tree that are running now, as the tree file writes them (`{\"fallback\", \"sequence\", \"move_to(post_a)\"}`); empty without a tree.",
            tree_running,
        ),
    ]
}

fn bad(function: &'static str, index: usize, expected: impl Into<String>, got: impl Into<String>) -> HostError {
    HostError::BadArgument { function, index: index + 1, expected: expected.into(), got: got.into() }
}

fn str_arg<'v>(f: &'static str, args: &'v [Value], i: usize) -> Result<&'v str, HostError> {
    match args.get(i) {
        Some(Value::Str(s)) => Ok(s),
        other => Err(bad(f, i, "a string", other.map_or("nothing".to_owned(), |v| v.value_type().to_string()))),
    }
}

/// `GetBlackboard(key)`.
pub fn get_blackboard(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let key = str_arg("GetBlackboard", args, 0)?;
    if let Some(v) = ctx.blackboard.and_then(|b| b.get(key)) {
        return Ok(v.clone());
    }
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    Ok(me.blackboard.get(key).cloned().unwrap_or_default())
}

/// `SetBlackboard(key, value)`.
pub fn set_blackboard(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let key = str_arg("SetBlackboard", args, 0)?;
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    if !me.blackboard.contains_key(key) && me.blackboard.len() >= MAX_BLACKBOARD_KEYS {
        return Err(bad(
            "SetBlackboard",
            0,
            format!("a key the blackboard has (it holds {MAX_BLACKBOARD_KEYS} keys already)"),
            format!("`{key}`"),
        ));
    }
    let value = args.get(1).cloned().unwrap_or_default();
    let entity = ctx.me;
    ctx.commands.push(Command::SetBlackboard { entity, key: key.to_owned(), value });
    Ok(Value::Nil)
}

/// `BuildTree(text)`.
pub fn build_tree(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let text = str_arg("BuildTree", args, 0)?;
    if text.len() > MAX_TREE_TEXT {
        return Err(bad(
            "BuildTree",
            0,
            format!("a tree of at most {MAX_TREE_TEXT} bytes"),
            format!("{} bytes", text.len()),
        ));
    }
    let world = ctx.world;
    let mut places: Vec<String> = world.places().keys().cloned().collect();
    places.extend(world.regions().keys().cloned());
    places.extend(world.entities().map(|(_, e)| e.name.clone()));
    let catalog = Catalog { functions: None, places: Some(&places) };
    let (def, diagnostics) = bt::parse(text, &catalog);
    let Some(def) = def else {
        let d = diagnostics.iter().find(|d| d.is_error()).or(diagnostics.first());
        let got = match d {
            Some(d) => {
                let (line, column) = d.line_col(text);
                let hint = d.hint.as_ref().map(|h| format!(" ({h})")).unwrap_or_default();
                format!("line {line}, column {column}: [{}] {}: {}{hint}", d.code, d.message, d.label)
            }
            None => "a text that builds no tree".to_owned(),
        };
        return Err(bad("BuildTree", 0, "a tree's text", got));
    };
    let name = def.name().to_owned();
    ctx.commands.push(Command::DefineTree { name: name.clone(), def: Arc::new(def) });
    Ok(Value::Str(name))
}

/// Whether a tree of that model name is declared, or built earlier in this tick.
fn tree_known(ctx: &ScriptCtx<'_>, name: &str) -> bool {
    ctx.world.models.tree(name).is_some()
        || ctx.commands.as_slice().iter().any(|c| matches!(c, Command::DefineTree { name: n, .. } if n == name))
}

/// `RunTree(tree)`.
pub fn run_tree(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = str_arg("RunTree", args, 0)?;
    ctx.me().ok_or(HostError::NoSelf)?;
    if !tree_known(ctx, name) {
        let trees: Vec<&str> =
            ctx.world.models.iter().filter(|(_, e)| e.model.kind() == bt_kind()).map(|(n, _)| n).collect();
        let expected = match crate::names::suggest(name, trees.iter().copied()) {
            Some(s) => format!("a tree model (did you mean `{s}`?)"),
            None if trees.is_empty() => "a tree model (the scenario declares none; `BuildTree` builds one)".to_owned(),
            None => format!("a tree model ({})", trees.join(", ")),
        };
        return Err(bad("RunTree", 0, expected, format!("`{name}`")));
    }
    let entity = ctx.me;
    ctx.commands.push(Command::RunTree { entity, model: name.to_owned() });
    Ok(Value::Nil)
}

fn bt_kind() -> tactica_engine::decide::ModelKind {
    tactica_engine::decide::ModelKind::Tree
}

/// `StopTree()`.
pub fn stop_tree(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    ctx.me().ok_or(HostError::NoSelf)?;
    let entity = ctx.me;
    ctx.commands.push(Command::StopTree { entity });
    Ok(Value::Nil)
}

/// `TreeStatus()`.
pub fn tree_status(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    Ok(ctx.world.trees().get(ctx.me).and_then(|t| t.status()).map_or(Value::Nil, |s| Value::from(s.name())))
}

/// `TreeRunning()`.
pub fn tree_running(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    let Some(t) = ctx.world.trees().get(ctx.me) else { return Ok(Value::List(Vec::new())) };
    let def = t.def();
    Ok(Value::List(t.running().into_iter().map(|id| Value::from(def.node(id).label.as_str())).collect()))
}
