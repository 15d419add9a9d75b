//! The steering package: scripts start and stop steering behaviours — chase, evade, intercept,
//! flocking, formations, patterns — for the scripted entity.
//!
//! Like every change a script makes, an order is a command applied after all scripts of the tick
//! ran; steering then moves the entity continuously, tick after tick, until it is told otherwise
//! (a chaser or interceptor stops by itself once it has caught its target). Names of flocks,
//! formations and patterns are checked when the function is called, so a typo is a script error
//! at its line rather than a silent no-op.

use tactica_engine::Value;
use tactica_engine::steer::{Behaviour, SteerOrder};
use tactica_engine::world::{Command, EntityId};

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
            "TraceWalls",
            vec![],
            Type::Nil,
            "Explores by following walls with the left hand, one cell per `1/speed` seconds: it usually enters every room of a map of small rooms, and circles in the open (`TraceWalls()`).",
            trace_walls,
        ),
        f(
            "TraceToward",
            vec![p("target", Type::Any)],
            Type::Nil,
            "Heads for an entity a cell at a time along the book's line; when a wall blocks it, it follows the obstacle's edge until it sees the target again; stops on catching it (`TraceToward(Player())`).",
            trace_toward,
        ),
        f(
            "FollowTrail",
            vec![p("target", Type::Any)],
            Type::Nil,
            "Follows the breadcrumbs an entity drops from now on (one per cell it enters, the last 15 kept): onto the newest crumb within a step, else a random step; stops on catching it (`FollowTrail(Player())`).",
            follow_trail,
        ),
        f(
            "PotentialChase",
            vec![p("target", Type::Any)],
            Type::Nil,
            "Moves toward an entity under the book's Lennard-Jones potentials: drawn by the chase law, pushed off walls by the avoidance law; it closes to about two body lengths and keeps that distance (`PotentialChase(Player())`).",
            potential_chase,
        ),
        f(
            "TileChase",
            vec![p("target", Type::Any)],
            Type::Nil,
            "Chases an entity tile by tile along the book's Bresenham line, one cell per `1/speed` seconds, rebuilding the line when the target moves; a wall on the line stops it; stops on catching (`TileChase(Player())`).",
            tile_chase,
        ),
        f(
            "Chase",
            vec![p("target", Type::Any)],
            Type::Nil,
            "Steers toward an entity along the line of sight until it is caught (within 0.5), then stops (`Chase(Player())`).",
            chase,
        ),
        f(
            "Evade",
            vec![p("target", Type::Any)],
            Type::Nil,
            "Steers away from an entity along the line of sight, sliding along walls (`Evade(Nearest(\"wolf\"))`).",
            evade,
        ),
        f(
            "Intercept",
            vec![p("target", Type::Any)],
            Type::Nil,
            "Steers for the point where a moving entity will be (closing velocity), or chases it when it is behind; stops on catching it.",
            intercept,
        ),
        f(
            "JoinFlock",
            vec![p("flock", Type::Str)],
            Type::Nil,
            "Flocks with the scenario's named flock: cohesion, alignment, separation, wall feelers (`JoinFlock(\"birds\")`).",
            join_flock,
        ),
        f(
            "FormUp",
            vec![p("captain", Type::Any), p("slot", Type::Int)],
            Type::Nil,
            "Takes slot `slot` (0-based) in the formation the captain leads; later members move back one (`FormUp(FindEntity(\"sarge\"), 0)`).",
            form_up,
        ),
        f(
            "RunPattern",
            vec![p("pattern", Type::Str)],
            Type::Nil,
            "Flies a movement pattern over and over: `patrol`, `zigzag` or one of the scenario's (`RunPattern(\"patrol\")`).",
            run_pattern,
        ),
        f(
            "RunTileRoute",
            vec![p("route", Type::Str)],
            Type::Nil,
            "Walks one of the scenario's tile routes (`[steering.tile_routes]`) from the cell the scripted entity stands in, a cell per `1/speed` seconds along the book's lines between its corners: a route whose last corner is its first loops, any other ends; a wall on the next cell holds it there (`RunTileRoute(\"round\")`).",
            run_tile_route,
        ),
        f(
            "WanderTileGrid",
            vec![p("grid", Type::Str)],
            Type::Nil,
            "Wanders one of the scenario's pattern grids (`[steering.tile_grids]`), the book's 0/1 pattern matrix: a cell per `1/speed` seconds to a marked neighbour other than the cell just left, chosen by the world's seeded generator; at a dead end it turns back (`WanderTileGrid(\"lanes\")`).",
            wander_tile_grid,
        ),
        f(
            "RunTileSteps",
            vec![p("steps", Type::Str)],
            Type::Nil,
            "Runs one of the scenario's control-data arrays on tiles (`[steering.tile_steps]`) over and over from the scripted entity's cell and heading: `forward` walks that many cells, a cell per `1/speed` seconds, `turn_right`/`turn_left` turn in 45° steps (`turn_right` takes `+x` to `−y`) and take the rest of the tick; a wall holds it (`RunTileSteps(\"square\")`).",
            run_tile_steps,
        ),
        f(
            "StopSteering",
            vec![],
            Type::Nil,
            "Stops steering and leaves any flock or formation (a captain hands command to its first member).",
            stop_steering,
        ),
        f(
            "SteeringOf",
            vec![p("entity", Type::Any)],
            Type::Str,
            "What an entity steers by: `chase`, `evade`, `intercept`, `flock`, `formation`, `pattern`, `potential`, `tile_chase`, `trace_walls`, `trace_toward`, `follow_trail`, or \"\" when it does not steer.",
            steering_of,
        ),
    ]
}

fn bad(function: &'static str, index: usize, expected: &str, got: impl Into<String>) -> HostError {
    HostError::BadArgument { function, index: index + 1, expected: expected.to_owned(), got: got.into() }
}

fn type_name(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string())
}

/// A live entity handle in argument `i`.
fn entity_arg(ctx: &ScriptCtx<'_>, f: &'static str, args: &[Value], i: usize) -> Result<EntityId, HostError> {
    match args.get(i) {
        Some(Value::Entity(id)) if ctx.world.entity(*id).is_some() => Ok(*id),
        Some(Value::Entity(_)) => Err(bad(f, i, "a live entity", "a stale entity handle")),
        other => Err(bad(f, i, "entity", type_name(other))),
    }
}

fn str_arg<'v>(f: &'static str, args: &'v [Value], i: usize) -> Result<&'v str, HostError> {
    args.get(i).and_then(Value::as_str).ok_or_else(|| bad(f, i, "string", type_name(args.get(i))))
}

/// Issues the order for the scripted entity.
fn order(ctx: &mut ScriptCtx<'_>, order: SteerOrder) -> Result<Value, HostError> {
    ctx.me().ok_or(HostError::NoSelf)?;
    ctx.commands.push(Command::Steer { entity: ctx.me, order });
    Ok(Value::Nil)
}

/// A target other than the scripted entity.
fn target(ctx: &ScriptCtx<'_>, f: &'static str, args: &[Value]) -> Result<EntityId, HostError> {
    let id = entity_arg(ctx, f, args, 0)?;
    if id == ctx.me {
        return Err(bad(f, 0, "another entity", "the scripted entity itself"));
    }
    Ok(id)
}

/// `Chase(target)`.
pub fn chase(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let t = target(ctx, "Chase", args)?;
    order(ctx, SteerOrder::Chase(t))
}

/// `TraceWalls()`.
pub fn trace_walls(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    order(ctx, SteerOrder::TraceWalls)
}

/// `TraceToward(target)`.
pub fn trace_toward(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let t = target(ctx, "TraceToward", args)?;
    order(ctx, SteerOrder::TraceToward(t))
}

/// `FollowTrail(target)`.
pub fn follow_trail(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let t = target(ctx, "FollowTrail", args)?;
    order(ctx, SteerOrder::FollowTrail(t))
}

/// `PotentialChase(target)`.
pub fn potential_chase(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let t = target(ctx, "PotentialChase", args)?;
    order(ctx, SteerOrder::Potential(t))
}

/// `TileChase(target)`.
pub fn tile_chase(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let t = target(ctx, "TileChase", args)?;
    order(ctx, SteerOrder::TileChase(t))
}

/// `Evade(target)`.
pub fn evade(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let t = target(ctx, "Evade", args)?;
    order(ctx, SteerOrder::Evade(t))
}

/// `Intercept(target)`.
pub fn intercept(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let t = target(ctx, "Intercept", args)?;
    order(ctx, SteerOrder::Intercept(t))
}

/// `JoinFlock(flock)`.
pub fn join_flock(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = str_arg("JoinFlock", args, 0)?;
    if ctx.world.steering().flock(name).is_none() {
        let known: Vec<&str> = ctx.world.steering().flocks().keys().map(String::as_str).collect();
        return Err(bad(
            "JoinFlock",
            0,
            &format!("a flock of the scenario ({})", known.join(", ")),
            format!("`{name}`"),
        ));
    }
    order(ctx, SteerOrder::JoinFlock(name.to_owned()))
}

/// `FormUp(captain, slot)`.
pub fn form_up(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let captain = target(ctx, "FormUp", args)?;
    if ctx.world.steering().formation_led_by(captain).is_none() {
        return Err(bad("FormUp", 0, "the captain of a formation", "an entity that leads none"));
    }
    let slot = match args.get(1).and_then(Value::as_i64) {
        Some(s) if s >= 0 => s as usize,
        _ => return Err(bad("FormUp", 1, "a slot number 0 or more", type_name(args.get(1)))),
    };
    order(ctx, SteerOrder::FormUp { captain, slot })
}

/// `RunPattern(pattern)`.
pub fn run_pattern(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = str_arg("RunPattern", args, 0)?;
    if !ctx.world.steering().has_pattern(name) {
        return Err(bad("RunPattern", 0, "a pattern (patrol, zigzag or the scenario's)", format!("`{name}`")));
    }
    order(ctx, SteerOrder::RunPattern(name.to_owned()))
}

/// `RunTileRoute(route)`.
pub fn run_tile_route(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = str_arg("RunTileRoute", args, 0)?;
    if !ctx.world.steering().has_tile_route(name) {
        return Err(bad("RunTileRoute", 0, "a tile route of [steering.tile_routes]", format!("`{name}`")));
    }
    order(ctx, SteerOrder::RunTileRoute(name.to_owned()))
}

/// `WanderTileGrid(grid)`.
pub fn wander_tile_grid(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = str_arg("WanderTileGrid", args, 0)?;
    if !ctx.world.steering().has_tile_grid(name) {
        return Err(bad("WanderTileGrid", 0, "a tile grid of [steering.tile_grids]", format!("`{name}`")));
    }
    order(ctx, SteerOrder::WanderTileGrid(name.to_owned()))
}

/// `RunTileSteps(steps)`.
pub fn run_tile_steps(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = str_arg("RunTileSteps", args, 0)?;
    if !ctx.world.steering().has_tile_steps(name) {
        return Err(bad("RunTileSteps", 0, "tile steps of [steering.tile_steps]", format!("`{name}`")));
    }
    order(ctx, SteerOrder::RunTileSteps(name.to_owned()))
}

/// `StopSteering()`.
pub fn stop_steering(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    order(ctx, SteerOrder::Stop)
}

/// `SteeringOf(entity)`.
pub fn steering_of(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let id = entity_arg(ctx, "SteeringOf", args, 0)?;
    Ok(Value::from(ctx.world.steering().behaviour(id).map_or("", Behaviour::name)))
}
