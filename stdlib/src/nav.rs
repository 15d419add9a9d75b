//! The navigation package: the map's doors and walls, and paths from the scripted entity.
//!
//! Moves themselves (`MoveTo`, `FollowPath`, `DoFlee` …) plan through the world's navigation
//! service; these calls let a script ask the same questions the service answers — can I get
//! there, how far is it, what way — and change the map (a lever opens a gate). Map changes are
//! commands: they take effect after every script of the tick has run, before anyone moves.

use std::cell::RefCell;

use glam::{IVec2, Vec2};
use tactica_engine::Value;
use tactica_engine::nav::PlanState;
use tactica_engine::path::{AStar, PathError, Status};
use tactica_engine::world::Command;

use crate::api::{HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

/// The most nodes one `PathDistance` or `FindPath` call may expand. A script call runs inside one
/// tick's frame; past this the call fails rather than stall it (the world's own moves are
/// time-sliced by the navigation service instead).
pub const PATH_CALL_EXPANSIONS: usize = 200_000;

fn p(name: &'static str, ty: Type) -> Param {
    Param { name, ty }
}

/// The functions of this package, in the order the API reference lists them.
pub(crate) fn functions() -> Vec<HostFn> {
    let f = |name, params, ret, doc, imp| HostFn { name, params, ret, doc, imp: HostImpl::Fn(imp) };
    vec![
        f(
            "OpenDoor",
            vec![p("door", Type::Str)],
            Type::Nil,
            "Opens a door the scenario declares (`OpenDoor(\"gate\")`): its cells become open ground and everyone moving plans again.",
            open_door,
        ),
        f(
            "CloseDoor",
            vec![p("door", Type::Str)],
            Type::Nil,
            "Closes a door (`CloseDoor(\"gate\")`): its cells are blocked and everyone moving plans again.",
            close_door,
        ),
        f(
            "SetBlocked",
            vec![p("x", Type::Int), p("y", Type::Int), p("blocked", Type::Bool)],
            Type::Nil,
            "Blocks a cell or opens it as plain ground (`SetBlocked(4, 2, true)` — a wall falls or rises).",
            set_blocked,
        ),
        f(
            "Reachable",
            vec![p("x", Type::Int), p("y", Type::Int)],
            Type::Bool,
            "Whether the scripted entity could walk to a cell on the map as it is now (no search: the map's connected areas).",
            reachable,
        ),
        f(
            "PathDistance",
            vec![p("x", Type::Int), p("y", Type::Int)],
            Type::Any,
            "The cost of the shortest path from the scripted entity's cell to a cell (straight steps 1, diagonal √2, times terrain costs), or nil when it cannot get there. Fails when the search would expand more than 200,000 cells.",
            path_distance,
        ),
        f(
            "FindPath",
            vec![p("x", Type::Int), p("y", Type::Int)],
            Type::Any,
            "The shortest path from the scripted entity's cell to a cell, as a list of cells (vec2s, its own cell first), or nil when it cannot get there; same bound as `PathDistance`. `FollowPath(FindPath(x, y))` walks it.",
            find_path,
        ),
        f(
            "PathStatus",
            vec![],
            Type::Str,
            "What the scripted entity's move is doing: `idle` (no move), `searching` (waiting for the navigation service's per-tick budget), `walking`, or `unreachable` (its goal cannot be reached on the map as it is).",
            path_status,
        ),
        f(
            "CancelPath",
            vec![],
            Type::Nil,
            "Stops the scripted entity's move and drops its search and everything queued after it.",
            cancel_path,
        ),
    ]
}

fn bad(function: &'static str, index: usize, expected: &str, got: String) -> HostError {
    HostError::BadArgument { function, index: index + 1, expected: expected.to_owned(), got }
}

fn type_name(v: Option<&Value>) -> String {
    v.map_or_else(|| "nothing".to_owned(), |v| v.value_type().to_string())
}

fn door_arg(ctx: &ScriptCtx<'_>, f: &'static str, args: &[Value]) -> Result<String, HostError> {
    let name = args.first().and_then(Value::as_str).ok_or_else(|| bad(f, 0, "a door name", type_name(args.first())))?;
    if ctx.world.doors().contains_key(name) {
        return Ok(name.to_owned());
    }
    let names: Vec<&str> = ctx.world.doors().keys().map(String::as_str).collect();
    let expected = match crate::names::suggest(name, names.iter().copied()) {
        Some(s) => format!("a door the scenario declares (did you mean `{s}`?)"),
        None if names.is_empty() => "a door the scenario declares (it declares none)".to_owned(),
        None => format!("a door the scenario declares ({})", names.join(", ")),
    };
    Err(bad(f, 0, &expected, format!("`{name}`")))
}

fn cell_arg(f: &'static str, args: &[Value], i: usize) -> Result<IVec2, HostError> {
    let n = |i: usize| {
        args.get(i)
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite())
            .map(|v| v.floor().clamp(-1e9, 1e9) as i32)
            .ok_or_else(|| bad(f, i, "a number", type_name(args.get(i))))
    };
    Ok(IVec2::new(n(i)?, n(i + 1)?))
}

/// `OpenDoor(door)`.
pub fn open_door(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = door_arg(ctx, "OpenDoor", args)?;
    ctx.commands.push(Command::SetDoor { name, open: true });
    Ok(Value::Nil)
}

/// `CloseDoor(door)`.
pub fn close_door(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let name = door_arg(ctx, "CloseDoor", args)?;
    ctx.commands.push(Command::SetDoor { name, open: false });
    Ok(Value::Nil)
}

/// `SetBlocked(x, y, blocked)`.
pub fn set_blocked(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let cell = cell_arg("SetBlocked", args, 0)?;
    if !ctx.world.map().contains(cell) {
        return Err(bad("SetBlocked", 0, "a cell on the map", format!("({}, {})", cell.x, cell.y)));
    }
    let blocked = match args.get(2) {
        Some(Value::Bool(b)) => *b,
        other => return Err(bad("SetBlocked", 2, "true or false", type_name(other))),
    };
    ctx.commands.push(Command::SetBlocked { cell, blocked });
    Ok(Value::Nil)
}

/// `Reachable(x, y)`.
pub fn reachable(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let to = cell_arg("Reachable", args, 0)?;
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    Ok(Value::Bool(ctx.world.reachable(me.cell(), to)))
}

thread_local! {
    /// One searcher per thread, so a call reuses its map-sized buffers instead of allocating them.
    static SEARCH: RefCell<AStar> = RefCell::new(AStar::new());
}

/// The shortest path from the scripted entity to `to`, bounded by [`PATH_CALL_EXPANSIONS`].
fn search(ctx: &ScriptCtx<'_>, f: &'static str, to: IVec2, cells: &mut Vec<IVec2>) -> Result<Option<f64>, HostError> {
    let from = ctx.me().ok_or(HostError::NoSelf)?.cell();
    if !ctx.world.reachable(from, to) {
        return Ok(None);
    }
    SEARCH.with(|s| {
        let mut astar = s.borrow_mut();
        let map = ctx.world.map();
        match astar.begin(map, from, to) {
            Ok(()) => {}
            Err(PathError::OffMap { .. } | PathError::Blocked { .. } | PathError::NoPath { .. }) => return Ok(None),
            Err(e) => return Err(bad(f, 0, "a cell a path can reach", e.to_string())),
        }
        match astar.step(map, PATH_CALL_EXPANSIONS) {
            Status::Found => Ok(astar.write_path(cells)),
            Status::NotFound => Ok(None),
            Status::InProgress => Err(bad(
                f,
                0,
                "a cell within 200,000 expanded cells of search",
                format!(
                    "({}, {}): the search ran out (use MoveTo, which the navigation service time-slices)",
                    to.x, to.y
                ),
            )),
        }
    })
}

/// `PathDistance(x, y)`.
pub fn path_distance(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let to = cell_arg("PathDistance", args, 0)?;
    let mut cells = Vec::new();
    Ok(search(ctx, "PathDistance", to, &mut cells)?.map_or(Value::Nil, Value::Float))
}

/// `FindPath(x, y)`.
pub fn find_path(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let to = cell_arg("FindPath", args, 0)?;
    let mut cells = Vec::new();
    Ok(match search(ctx, "FindPath", to, &mut cells)? {
        Some(_) => Value::List(cells.iter().map(|c| Value::Vec2(c.as_vec2())).collect()),
        None => Value::Nil,
    })
}

/// `PathStatus()`.
pub fn path_status(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let goal = me.actions.iter().find(|a| !a.is_instant()).and_then(|a| match a {
        tactica_engine::coord::Action::MoveTo { target } => Some(*target),
        tactica_engine::coord::Action::FollowPath { points, next } => points.get(*next).copied(),
        _ => None,
    });
    let nav = ctx.world.nav();
    let status = match goal.map(|g: Vec2| g.floor().as_ivec2()) {
        None => "idle",
        Some(g) if nav.refused(ctx.me, g) || !ctx.world.reachable(me.cell(), g) => "unreachable",
        Some(_) => match nav.plan(ctx.me).map(|p| &p.state) {
            Some(PlanState::Pending(_)) => "searching",
            _ => "walking",
        },
    };
    Ok(Value::from(status))
}

/// `CancelPath()`.
pub fn cancel_path(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    ctx.me().ok_or(HostError::NoSelf)?;
    ctx.commands.push(Command::ClearActions { entity: ctx.me });
    Ok(Value::Nil)
}
