//! The tactical waypoint package: the waypoints a scenario declares (`[[hidespots]]`) or
//! generates from its map (`[waypoints]`), with their tactical values — cover, shadow, sniping,
//! exposure, visibility — and the best of them for a purpose.

use glam::{IVec2, Vec2};
use tactica_engine::tactics::Property;
use tactica_engine::{Table, Value};

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
        f(
            "Waypoints",
            vec![p("x", Type::Number), p("y", Type::Number), p("radius", Type::Number)],
            Type::Any,
            "The tactical waypoints within `radius` of a point, nearest first (ties in database order): a list of tables with `x`, `y` (the cell's centre) and the values `cover`, `shadow`, `sniping`, `exposure`, `visibility` (0–1).",
            waypoints,
        ),
        f(
            "BestWaypoint",
            vec![p("value", Type::Str), p("x", Type::Number), p("y", Type::Number), p("radius", Type::Number)],
            Type::Any,
            "The waypoint within `radius` of a point with the highest value (`cover`, `shadow`, `sniping`, `exposure` or `visibility`) that the scripted entity can walk to, as a vec2 (the cell's centre), or nil (`BestWaypoint(\"sniping\", me.x, me.y, 20)`).",
            best_waypoint,
        ),
    ]
}

fn bad(function: &'static str, index: usize, expected: impl Into<String>, got: impl Into<String>) -> HostError {
    HostError::BadArgument { function, index: index + 1, expected: expected.into(), got: got.into() }
}

fn num(f: &'static str, args: &[Value], i: usize) -> Result<f32, HostError> {
    args.get(i).and_then(Value::as_f64).filter(|v| v.is_finite()).map(|v| v.clamp(-1e9, 1e9) as f32).ok_or_else(|| {
        bad(f, i, "a finite number", args.get(i).map_or("nothing".into(), |v| v.value_type().to_string()))
    })
}

fn centre(c: IVec2) -> Vec2 {
    c.as_vec2() + Vec2::splat(0.5)
}

/// `Waypoints(x, y, radius)`.
pub fn waypoints(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let at = Vec2::new(num("Waypoints", args, 0)?, num("Waypoints", args, 1)?);
    let r = num("Waypoints", args, 2)?.max(0.0);
    let mut near: Vec<(f32, usize, Value)> = Vec::new();
    for (k, (_, w)) in ctx.world.waypoints().iter().enumerate() {
        let d = centre(w.cell).distance(at);
        if d <= r {
            let mut t = Table::new();
            t.insert("x".into(), Value::Float(f64::from(centre(w.cell).x)));
            t.insert("y".into(), Value::Float(f64::from(centre(w.cell).y)));
            for prop in Property::ALL {
                t.insert(prop.name().into(), Value::Float(f64::from(w.properties.get(prop))));
            }
            near.push((d, k, Value::Map(t)));
        }
    }
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    Ok(Value::List(near.into_iter().map(|(_, _, v)| v).collect()))
}

/// `BestWaypoint(value, x, y, radius)`.
pub fn best_waypoint(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = args.first().and_then(Value::as_str).unwrap_or_default();
    let Some(prop) = Property::from_name(name) else {
        let names: Vec<&str> = Property::ALL.iter().map(|p| p.name()).collect();
        let hint = crate::names::suggest(name, names.iter().copied())
            .map_or_else(|| names.join(", "), |s| format!("did you mean `{s}`?"));
        return Err(bad("BestWaypoint", 0, format!("a waypoint value ({hint})"), format!("`{name}`")));
    };
    let at = Vec2::new(num("BestWaypoint", args, 1)?, num("BestWaypoint", args, 2)?);
    let r = num("BestWaypoint", args, 3)?.max(0.0);
    let walker = ctx.me().map(tactica_engine::world::Entity::cell);
    let mut best: Option<(f32, IVec2)> = None;
    for (_, w) in ctx.world.waypoints().iter() {
        let reachable = walker.is_none_or(|from| ctx.world.reachable(from, w.cell));
        let v = w.properties.get(prop);
        if centre(w.cell).distance(at) <= r && reachable && best.is_none_or(|(b, _)| v > b) {
            best = Some((v, w.cell));
        }
    }
    Ok(best.map_or(Value::Nil, |(_, c)| Value::Vec2(centre(c))))
}
