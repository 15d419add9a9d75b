//! The position-query package: `FindPosition` runs the reference's tactical position queries for
//! the scripted entity against the live world, within the world's per-tick query budget; a query
//! that does not fit is finished by the world in later ticks and read back through its handle.
//! Agents can hold the point they chose, so a squad's members spread over different points.

use std::sync::Arc;

use tactica_engine::Value;
use tactica_engine::tactics::query::{
    ObjectKind, ObjectState, Outcome, PositionAnswer, PositionService, Query, QueryConfig, compile_value,
    describe_failure,
};
use tactica_engine::world::{Command, EventKind};

use crate::api::{HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

fn p(name: &'static str, ty: Type) -> Param {
    Param { name, ty }
}

fn type_name(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string())
}

fn bad(function: &'static str, index: usize, expected: &str, got: String) -> HostError {
    HostError::BadArgument { function, index: index + 1, expected: expected.to_owned(), got }
}

/// The functions of this package, in the order the API reference lists them.
pub(crate) fn functions() -> Vec<HostFn> {
    let f = |name, params, ret, doc, imp| HostFn { name, params, ret, doc, imp: HostImpl::Fn(imp) };
    vec![
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
            "`FindPosition` with options: `target` (an entity or a point; default the blackboard's `target`, else the player), `referencePoint` and `leader` (entities or points), `reserve = true` (the point becomes the asker's: other agents' queries reject it until `ReleasePosition()` or the asker's next reserved point). When the scenario sets a per-tick query budget (`[queries] budget`) and this tick's is spent, the call returns a handle (a number) instead: ask `PositionStatus(handle)` and `PositionResult(handle)` in later ticks, or wait for the `position_ready` note.",
            find_position,
        ),
        f(
            "PositionStatus",
            vec![p("handle", Type::Int)],
            Type::Str,
            "What became of a query `FindPosition` deferred: `\"pending\"`, `\"found\"`, `\"failed\"`, or `\"unknown\"` (no such handle, or answered more than 600 ticks ago).",
            position_status,
        ),
        f(
            "PositionResult",
            vec![p("handle", Type::Int)],
            Type::Any,
            "The point a deferred `FindPosition` found (a vec2), or nil while it is pending or when it failed.",
            position_result,
        ),
        f(
            "ReservedPosition",
            vec![],
            Type::Any,
            "The point the scripted entity holds (from `FindPosition` with `reserve = true`), or nil.",
            reserved_position,
        ),
        f(
            "ReleasePosition",
            vec![],
            Type::Nil,
            "Gives up the point the scripted entity holds, so other agents' queries may pick it.",
            release_position,
        ),
    ]
}

/// The options `FindPosition` takes, and the query objects they set.
const POSITION_OPTIONS: [(&str, ObjectKind); 3] =
    [("target", ObjectKind::Target), ("referencePoint", ObjectKind::ReferencePoint), ("leader", ObjectKind::Leader)];

/// Every option's name, for "did you mean".
const OPTION_NAMES: [&str; 4] = ["target", "referencePoint", "leader", "reserve"];

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
            .map(ObjectState::of)
            .ok_or_else(|| bad("FindPosition", 1, &format!("`{key}`: a live entity"), "a stale handle".to_owned())),
        Value::Vec2(p) if p.is_finite() => Ok(ObjectState::at(*p)),
        other => Err(bad("FindPosition", 1, &format!("`{key}`: an entity or a point"), other.value_type().to_string())),
    }
}

/// `FindPosition(query [, options])`.
pub fn find_position(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let query = query_arg(ctx, args.first())?;
    ctx.me().ok_or(HostError::NoSelf)?;
    let mut request = PositionService::request(ctx.world, ctx.me);
    let objects = &mut request.objects;
    let mut reserve = false;
    match args.get(1) {
        None | Some(Value::Nil) => {}
        Some(Value::Map(options)) => {
            for (key, v) in options {
                if key == "reserve" {
                    reserve = match v {
                        Value::Bool(b) => *b,
                        other => {
                            return Err(bad(
                                "FindPosition",
                                1,
                                "`reserve`: true or false",
                                other.value_type().to_string(),
                            ));
                        }
                    };
                    continue;
                }
                let Some(&(_, kind)) = POSITION_OPTIONS.iter().find(|(k, _)| k == key) else {
                    let known = OPTION_NAMES;
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
    // The tick's query budget and the handles are shared by every script: spend them in
    // instance order, whatever thread this call runs on.
    ctx.rng.wait_turn();
    let service = ctx.world.positions();
    let Some(eval) = service.attempt(ctx.world, Arc::clone(&query), request.clone()) else {
        // The tick's budget is spent: the world finishes the query in the next ticks.
        let ticket = service.handle();
        ctx.commands.push(Command::SubmitPosition { ticket, query, request: Box::new(request), reserve });
        return Ok(Value::Int(ticket as i64));
    };
    match eval.outcome() {
        Some(Outcome::Found(results)) => {
            let Some(best) = results.first() else { return Ok(Value::Nil) };
            if reserve {
                ctx.commands.push(Command::ReservePosition { entity: ctx.me, point: best.candidate });
            }
            Ok(Value::Vec2(best.candidate.position))
        }
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

fn handle_arg(function: &'static str, args: &[Value]) -> Result<u64, HostError> {
    match args.first() {
        Some(Value::Int(n)) if *n > 0 => Ok(*n as u64),
        Some(Value::Float(f)) if f.fract() == 0.0 && *f > 0.0 => Ok(*f as u64),
        other => Err(bad(function, 0, "a handle FindPosition returned", type_name(other))),
    }
}

/// `PositionStatus(handle)`.
pub fn position_status(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let ticket = handle_arg("PositionStatus", args)?;
    // Whether a handle was issued this tick depends on the calls before this one.
    ctx.rng.wait_turn();
    Ok(Value::from(ctx.world.positions().answer(ticket).word()))
}

/// `PositionResult(handle)`.
pub fn position_result(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let ticket = handle_arg("PositionResult", args)?;
    ctx.rng.wait_turn();
    Ok(match ctx.world.positions().answer(ticket) {
        PositionAnswer::Found(p) => Value::Vec2(p),
        _ => Value::Nil,
    })
}

/// `ReservedPosition()`.
pub fn reserved_position(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    ctx.me().ok_or(HostError::NoSelf)?;
    Ok(ctx.world.positions().reservations().held_by(ctx.me).map_or(Value::Nil, |c| Value::Vec2(c.position)))
}

/// `ReleasePosition()`.
pub fn release_position(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    ctx.me().ok_or(HostError::NoSelf)?;
    ctx.commands.push(Command::ReleasePosition { entity: ctx.me });
    Ok(Value::Nil)
}
