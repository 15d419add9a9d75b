//! The entity and world package: handles to entities and the queries and actions that take them,
//! globals, notes, paths and tactical position queries in the table form of the reference.
//!
//! Entity handles are [`Value::Entity`]: scripts get them from [`Me`](fn@me), `FindEntity`,
//! `Player` or `Nearest` and can never build one (no constructor exists in any language, and data
//! never deserialises into one). A handle whose entity is gone is *stale*: every function given one
//! returns an error naming the argument, never another entity's data.

use glam::Vec2;
use std::sync::Arc;
use tactica_engine::coord::Action;
use tactica_engine::grid::line_of_sight;

use tactica_engine::Value;
use tactica_engine::tactics::query::{
    ObjectKind, ObjectState, Objects, Outcome, Query, QueryConfig, Reservations, compile_value, describe_failure,
    evaluate_in_world,
};
use tactica_engine::world::{Command, Entity, EntityId, EventKind};

use crate::api::{HostError, HostFn, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

fn p(name: &'static str, ty: Type) -> Param {
    Param { name, ty }
}

/// The functions of this package, in the order the API reference lists them.
pub(crate) fn functions() -> Vec<HostFn> {
    let f = |name, params, ret, doc, imp| HostFn { name, params, ret, doc, imp };
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
            "Sets a world global after every script of the tick has run (`SetGlobal(\"alarm\", true)`).",
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
        f(
            "FindPosition",
            vec![p("query", Type::Any)],
            Type::Any,
            "Runs a tactical position query for the scripted entity and returns the chosen point (a vec2 in map units), or nil when every option failed (the failure is noted in the trace and the query's `on_failure` runs). `query` is the name of a query the scenario's `[queries]` files declare, or the query itself in the reference's table form: one option `{Generation = {...}, Conditions = {...}, Weights = {...}}` or a list of options (`docs/tps.md`).",
            find_position,
        ),
        f(
            "FindPosition",
            vec![p("query", Type::Any), p("options", Type::Any)],
            Type::Any,
            "`FindPosition` with options: `target` (an entity or a point; default the blackboard's `target`, else the player), `referencePoint` and `leader` (entities or points).",
            find_position,
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

/// The options `FindPosition` takes, and the query objects they set.
const POSITION_OPTIONS: [(&str, ObjectKind); 3] =
    [("target", ObjectKind::Target), ("referencePoint", ObjectKind::ReferencePoint), ("leader", ObjectKind::Leader)];

fn query_arg(ctx: &ScriptCtx<'_>, query: Option<&Value>) -> Result<Arc<Query>, HostError> {
    let bad_query = |got: String| bad("FindPosition", 0, "a query name or a query table", got);
    match query {
        Some(Value::Str(name)) => ctx.world.queries.get(name).ok_or_else(|| {
            let names: Vec<&str> = ctx.world.queries.names().collect();
            let hint = match crate::names::suggest(name, names.iter().copied()) {
                Some(s) => format!(" (did you mean `{s}`?)"),
                None if names.is_empty() => " (the scenario declares no [queries])".to_owned(),
                None => format!(" (declared: {})", names.join(", ")),
            };
            bad_query(format!("`{name}`, which no [queries] file declares{hint}"))
        }),
        Some(v @ (Value::Map(_) | Value::List(_))) => {
            compile_value("FindPosition", v, QueryConfig::default()).map(Arc::new).map_err(|errors| {
                // The compiler can report one mistake at more than one stage; say it once.
                let mut said: Vec<String> = Vec::new();
                for e in errors.0.iter().map(ToString::to_string) {
                    if !said.contains(&e) {
                        said.push(e);
                    }
                }
                bad_query(said.join("; "))
            })
        }
        other => Err(bad_query(type_name(other))),
    }
}

fn object_arg(ctx: &ScriptCtx<'_>, key: &str, v: &Value) -> Result<ObjectState, HostError> {
    match v {
        Value::Entity(id) => ctx
            .world
            .entity(*id)
            .map(|e| ObjectState { position: e.position, forward: Vec2::from_angle(e.heading), speed: e.speed })
            .ok_or_else(|| bad("FindPosition", 1, &format!("`{key}`: a live entity"), "a stale handle".to_owned())),
        Value::Vec2(p) if p.is_finite() => Ok(ObjectState::at(*p)),
        other => Err(bad("FindPosition", 1, &format!("`{key}`: an entity or a point"), other.value_type().to_string())),
    }
}

/// `FindPosition(query [, options])`.
pub fn find_position(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let query = query_arg(ctx, args.first())?;
    ctx.me().ok_or(HostError::NoSelf)?;
    let mut objects = Objects::from_world(ctx.world, ctx.me);
    match args.get(1) {
        None | Some(Value::Nil) => {}
        Some(Value::Map(options)) => {
            for (key, v) in options {
                let Some(&(_, kind)) = POSITION_OPTIONS.iter().find(|(k, _)| k == key) else {
                    let known = POSITION_OPTIONS.map(|(k, _)| k);
                    let hint = crate::names::suggest(key, known).map_or_else(
                        || format!(" (options: {})", known.join(", ")),
                        |s| format!(" (did you mean `{s}`?)"),
                    );
                    return Err(bad("FindPosition", 1, "a known option", format!("`{key}`{hint}")));
                };
                objects.set(kind, object_arg(ctx, key, v)?);
            }
        }
        Some(other) => return Err(bad("FindPosition", 1, "a table of options", other.value_type().to_string())),
    }
    let eval =
        evaluate_in_world(ctx.world, ctx.me, query, objects, &Reservations::new(), ctx.world.clock().tick(), false);
    match eval.outcome() {
        Some(Outcome::Found(results)) => Ok(results.first().map_or(Value::Nil, |r| Value::Vec2(r.candidate.position))),
        Some(Outcome::Failed(failure)) => {
            let me = ctx.me;
            ctx.commands.push(Command::Emit {
                entity: Some(me),
                event: EventKind::Note {
                    name: "position_query_failed".to_owned(),
                    value: Value::from(describe_failure(failure).as_str()),
                },
            });
            for c in failure.commands(me) {
                ctx.commands.push(c);
            }
            Ok(Value::Nil)
        }
        None => Ok(Value::Nil),
    }
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
