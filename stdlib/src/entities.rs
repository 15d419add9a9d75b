//! The entity and world package: handles to entities and the queries and actions that take them,
//! globals, notes, paths and tactical position queries in the table form of the reference.
//!
//! Entity handles are [`Value::Entity`]: scripts get them from [`Me`](fn@me), `FindEntity`,
//! `Player` or `Nearest` and can never build one (no constructor exists in any language, and data
//! never deserialises into one). A handle whose entity is gone is *stale*: every function given one
//! returns an error naming the argument, never another entity's data.

use glam::Vec2;
use tactica_engine::coord::Action;
use tactica_engine::grid::line_of_sight;

use tactica_engine::Value;
use tactica_engine::world::{Command, Entity, EntityId, EventKind};

use crate::api::{HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

fn p(name: &'static str, ty: Type) -> Param {
    Param { name, ty }
}

/// The functions of this package, in the order the API reference lists them.
pub(crate) fn functions() -> Vec<HostFn> {
    let f = |name, params, ret, doc, imp| HostFn { name, params, ret, doc, imp: HostImpl::Fn(imp) };
    vec![
        f("Me", vec![], Type::Any, "The scripted entity's handle (`local me = Me()`).", me),
        f(
            "FindEntity",
            vec![p("name", Type::Str)],
            Type::Any,
            "The handle of the entity with this scenario name, or nil (`FindEntity(\"troll\")`).",
            find_entity,
        ),
        f("Player", vec![], Type::Any, "The player's handle, or nil when there is no player.", player),
        f(
            "Nearest",
            vec![p("kind", Type::Str)],
            Type::Any,
            "The nearest other entity of a kind, or nil (`Nearest(\"troll\")`); ties go to the first in key order.",
            nearest,
        ),
        f("NameOf", vec![p("entity", Type::Any)], Type::Str, "An entity's scenario name.", name_of),
        f("KindOf", vec![p("entity", Type::Any)], Type::Str, "An entity's kind (`troll`, `wizard` …).", kind_of),
        f(
            "PositionOf",
            vec![p("entity", Type::Any)],
            Type::Any,
            "An entity's position in map units, a vec2 with fields `x` and `y`.",
            position_of,
        ),
        f(
            "Distance",
            vec![p("a", Type::Any), p("b", Type::Any)],
            Type::Number,
            "The straight-line distance between two entities in map units (`Distance(Me(), Player())`).",
            distance,
        ),
        f(
            "LineOfSight",
            vec![p("a", Type::Any), p("b", Type::Any)],
            Type::Bool,
            "Whether nothing blocks the straight line between two entities' cells.",
            sight,
        ),
        f(
            "AttributeOf",
            vec![p("entity", Type::Any), p("name", Type::Str)],
            Type::Any,
            "One of an entity's attributes, or nil (`AttributeOf(Me(), \"HEALTH\")`).",
            attribute_of,
        ),
        f(
            "GetGlobal",
            vec![p("name", Type::Str)],
            Type::Any,
            "A world global, or nil (`GetGlobal(\"GameTime\")`).",
            get_global,
        ),
        f(
            "SetGlobal",
            vec![p("name", Type::Str), p("value", Type::Any)],
            Type::Nil,
            "Sets a world global after every script of the tick has run (`SetGlobal(\"alarm\", true)`). The \
             world holds up to 4,096 globals; a new one past that is an error.",
            set_global,
        ),
        f(
            "IsIdle",
            vec![],
            Type::Bool,
            "Whether the scripted entity has nothing queued. In a Lua `sequence` coroutine it waits for the queued actions to finish first.",
            is_idle,
        ),
        f(
            "FollowPath",
            vec![p("points", Type::Any)],
            Type::Nil,
            "Walks through a list of cells in order (`FollowPath({{1, 2}, {4, 2}})`).",
            follow_path,
        ),
        f(
            "Note",
            vec![p("name", Type::Str), p("value", Type::Any)],
            Type::Nil,
            "Records a `note` event in the trace (`Note(\"mood\", \"angry\")`).",
            note,
        ),
    ]
}

fn type_name(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string())
}

fn bad(function: &'static str, index: usize, expected: &str, got: String) -> HostError {
    HostError::BadArgument { function, index: index + 1, expected: expected.to_owned(), got }
}

/// The live entity behind argument `i`: a wrong type and a stale handle are both errors.
fn entity_arg<'w>(ctx: &ScriptCtx<'w>, f: &'static str, args: &[Value], i: usize) -> Result<&'w Entity, HostError> {
    match args.get(i) {
        Some(Value::Entity(id)) => {
            ctx.world.entity(*id).ok_or_else(|| bad(f, i, "a live entity", "a stale entity handle".to_owned()))
        }
        other => Err(bad(f, i, "entity", type_name(other))),
    }
}

fn str_arg<'v>(f: &'static str, args: &'v [Value], i: usize) -> Result<&'v str, HostError> {
    args.get(i).and_then(Value::as_str).ok_or_else(|| bad(f, i, "string", type_name(args.get(i))))
}

fn handle(id: Option<EntityId>) -> Value {
    id.map_or(Value::Nil, Value::Entity)
}

/// `Me()`.
pub fn me(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    ctx.me().ok_or(HostError::NoSelf)?;
    Ok(Value::Entity(ctx.me))
}

/// `FindEntity(name)`.
pub fn find_entity(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    Ok(handle(ctx.world.find(str_arg("FindEntity", args, 0)?)))
}

/// `Player()`.
pub fn player(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    Ok(handle(ctx.world.player()))
}

/// `Nearest(kind)`.
pub fn nearest(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let kind = str_arg("Nearest", args, 0)?;
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let mut best: Option<(f32, EntityId)> = None;
    for (id, e) in ctx.world.entities() {
        if id == ctx.me || e.kind != kind {
            continue;
        }
        let d = e.position.distance(me.position);
        if best.is_none_or(|(b, _)| d < b) {
            best = Some((d, id));
        }
    }
    Ok(handle(best.map(|(_, id)| id)))
}

/// `NameOf(entity)`.
pub fn name_of(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    Ok(Value::Str(entity_arg(ctx, "NameOf", args, 0)?.name.clone()))
}

/// `KindOf(entity)`.
pub fn kind_of(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    Ok(Value::Str(entity_arg(ctx, "KindOf", args, 0)?.kind.clone()))
}

/// `PositionOf(entity)`.
pub fn position_of(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    Ok(Value::Vec2(entity_arg(ctx, "PositionOf", args, 0)?.position))
}

/// `Distance(a, b)`.
pub fn distance(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let a = entity_arg(ctx, "Distance", args, 0)?;
    let b = entity_arg(ctx, "Distance", args, 1)?;
    Ok(Value::Float(f64::from(a.position.distance(b.position))))
}

/// `LineOfSight(a, b)`.
pub fn sight(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let a = entity_arg(ctx, "LineOfSight", args, 0)?;
    let b = entity_arg(ctx, "LineOfSight", args, 1)?;
    Ok(Value::Bool(line_of_sight(ctx.world.map(), a.cell(), b.cell())))
}

/// `AttributeOf(entity, name)`.
pub fn attribute_of(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let e = entity_arg(ctx, "AttributeOf", args, 0)?;
    Ok(e.attribute(str_arg("AttributeOf", args, 1)?).clone())
}

/// `GetGlobal(name)`.
pub fn get_global(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    Ok(ctx.world.global(str_arg("GetGlobal", args, 0)?).clone())
}

/// `SetGlobal(name, value)`: handles may not be stored in globals (they would outlive the call
/// in a place every script reads, and the trace could not print them stably).
pub fn set_global(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let key = str_arg("SetGlobal", args, 0)?.to_owned();
    let value = args.get(1).cloned().unwrap_or_default();
    if contains_handle(&value) {
        return Err(bad("SetGlobal", 1, "plain data (no entity handles)", "an entity handle".to_owned()));
    }
    if ctx.world.globals.len() >= tactica_engine::world::MAX_GLOBALS && !ctx.world.globals.contains_key(&key) {
        return Err(HostError::OverAllowance {
            function: "SetGlobal",
            reason: format!(
                "the world holds {} globals already, the most scripts may make; set the ones that exist \
                 (a list or map in one global holds many values)",
                tactica_engine::world::MAX_GLOBALS
            ),
        });
    }
    ctx.commands.push(Command::SetGlobal { key, value });
    Ok(Value::Nil)
}

fn contains_handle(v: &Value) -> bool {
    match v {
        Value::Entity(_) => true,
        Value::List(items) => items.iter().any(contains_handle),
        Value::Map(m) => m.values().any(contains_handle),
        _ => false,
    }
}

/// `IsIdle()`.
pub fn is_idle(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    Ok(Value::Bool(ctx.me().ok_or(HostError::NoSelf)?.actions.is_idle()))
}

/// `FollowPath(points)`: a list of `{x, y}` cells.
pub fn follow_path(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let Some(Value::List(items)) = args.first() else {
        return Err(bad("FollowPath", 0, "a list of {x, y} cells", type_name(args.first())));
    };
    let mut points = Vec::with_capacity(items.len());
    for item in items {
        let cell = match item {
            Value::List(xy) if xy.len() == 2 => xy[0].as_i64().zip(xy[1].as_i64()),
            Value::Vec2(v) => Some((v.x.floor() as i64, v.y.floor() as i64)),
            _ => None,
        };
        let Some((x, y)) = cell else {
            return Err(bad("FollowPath", 0, "a list of {x, y} cells", format!("an element {item}")));
        };
        let clamp = |v: i64| v.clamp(-(1 << 24), 1 << 24) as f32;
        points.push(Vec2::new(clamp(x), clamp(y)) + Vec2::splat(0.5));
    }
    if let Some(&last) = points.last() {
        ctx.act(Action::FollowPath { points, next: 0 });
        ctx.set_cursor(last);
    }
    Ok(Value::Nil)
}

/// `Note(name, value)`.
pub fn note(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = str_arg("Note", args, 0)?.to_owned();
    let value = args.get(1).cloned().unwrap_or_default();
    if contains_handle(&value) {
        return Err(bad("Note", 1, "plain data (no entity handles)", "an entity handle".to_owned()));
    }
    let entity = ctx.me().map(|_| ctx.me);
    ctx.commands.push(Command::Emit { entity, event: EventKind::Note { name, value } });
    Ok(Value::Nil)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(entries: &[(&str, Value)]) -> Value {
        Value::Map(entries.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect())
    }

    #[test]
    fn handles_are_found_inside_nested_values() {
        let v = Value::List(vec![Value::Int(1), map(&[("e", Value::Entity(EntityId::default()))])]);
        assert!(contains_handle(&v));
        assert!(!contains_handle(&Value::List(vec![Value::Int(1)])));
    }
}
