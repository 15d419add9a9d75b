//! The built-in leaves: the runtime's long actions as tree leaves. Each goes through the same
//! path as a script's action — a `Request` into the character's action queue (moves plan through
//! the navigation service), a steering order, a signal — and then watches for it to end:
//!
//! | leaf | starts | succeeds | fails | halted |
//! | --- | --- | --- | --- | --- |
//! | `move_to`, `flee`, `go_to_position` | a `move_to` action | the action is gone and the character stands in the goal cell | it is gone elsewhere (unreachable, replaced) | the queue is cleared |
//! | `follow_path` | a `follow_path` action | gone, standing in the last cell | gone elsewhere | the queue is cleared |
//! | `wait` | a `sleep` action | the sleep is over | — | the queue is cleared |
//! | `wait_signal` | a `wait` action | released | gone unreleased | the queue is cleared |
//! | `chase` | steering `chase` | the chase ended with the target alive (caught) | the target is gone, or other steering replaced it | steering stops |
//! | `play_pattern` | steering `pattern` | with a tick count, when it has run that long | other steering replaced it | steering stops |
//! | `say`, `signal` | the instant action | at once | — | — |
//!
//! A leaf that starts reports `running` on that tick and is looked at from the next (its action
//! reaches the queue when the tick's commands are applied). Looking is a read of the world
//! (`poll`), so event-driven evaluation asks it every tick without ticking the tree.

use glam::{IVec2, Vec2};

use crate::coord::Action;
use crate::grid::cell_of;
use crate::steer::{Behaviour, SteerOrder};
use crate::tactics::query::{Outcome, PositionService};
use crate::value::Value;
use crate::world::{Command, EntityId, World};

use super::def::{Arg, Leaf, NodeId, Target};
use super::host::Status;
use super::state::{LeafRun, Waiting};
use super::tick::Ticker;

/// How far `flee()` runs, in cells: as far as `DoFlee` does.
pub const FLEE_CELLS: i32 = 4;

/// Starts leaf `id`.
pub(crate) fn start(t: &mut Ticker<'_, '_, '_>, id: NodeId, leaf: &Leaf) -> Status {
    let world = t.env.world;
    let me = t.env.me;
    let Some(e) = world.entity(me) else { return Status::Failure };
    match leaf {
        Leaf::Succeed => Status::Success,
        Leaf::Fail => Status::Failure,
        Leaf::MoveTo(target) => {
            let point = match target {
                Target::One(arg) => point_of(world, &t.arg(arg)),
                Target::Cell(x, y) => match (t.arg(x).as_f64(), t.arg(y).as_f64()) {
                    (Some(x), Some(y)) if x.is_finite() && y.is_finite() => Some(centre(x, y)),
                    _ => None,
                },
            };
            match point {
                Some(p) => queue(t, id, Action::MoveTo { target: p }, Some(cell_of(p))),
                None => Status::Failure,
            }
        }
        Leaf::FollowPath(arg) => {
            let points: Vec<Vec2> = match t.arg(arg) {
                Value::List(items) => items.iter().filter_map(|v| point_of(world, v)).collect(),
                _ => Vec::new(),
            };
            match points.last() {
                Some(&last) => queue(t, id, Action::FollowPath { points, next: 0 }, Some(cell_of(last))),
                None => Status::Failure,
            }
        }
        Leaf::Flee => {
            let Some(player) = world.player().and_then(|p| world.entity(p)) else { return Status::Failure };
            match flee_cell(world, e.cell(), player.cell()) {
                Some(cell) => {
                    let target = cell.as_vec2() + Vec2::splat(0.5);
                    queue(t, id, Action::MoveTo { target }, Some(cell))
                }
                None => Status::Failure,
            }
        }
        Leaf::GoToPosition(arg) => {
            let Value::Str(name) = t.arg(arg) else { return Status::Failure };
            let Some(query) = world.queries.get(&name) else { return Status::Failure };
            let eval = world.positions().evaluate(world, query, PositionService::request(world, me));
            match eval.outcome() {
                Some(Outcome::Found(results)) if !results.is_empty() => {
                    let p = results[0].candidate.position;
                    queue(t, id, Action::MoveTo { target: p }, Some(cell_of(p)))
                }
                _ => Status::Failure,
            }
        }
        Leaf::Wait(arg) => {
            let ticks = t.arg(arg).as_f64().filter(|x| x.is_finite()).unwrap_or(0.0).clamp(0.0, f64::from(u32::MAX));
            if ticks < 1.0 {
                return Status::Success;
            }
            queue(t, id, Action::Sleep { ticks: ticks as u32 }, None)
        }
        Leaf::Say(arg) => {
            let text = match t.arg(arg) {
                Value::Str(s) => s,
                other => other.to_string(),
            };
            t.act(|entity, action| Command::Perform { entity, action }, Action::Say { text });
            Status::Success
        }
        Leaf::Signal(id_arg, scope) => {
            let Some((scope, signal)) = signal_of(t, e, id_arg, scope.as_ref()) else { return Status::Failure };
            t.act(|entity, action| Command::Perform { entity, action }, Action::Signal { scope, id: signal });
            Status::Success
        }
        Leaf::WaitSignal(id_arg, scope) => {
            let Some((scope, signal)) = signal_of(t, e, id_arg, scope.as_ref()) else { return Status::Failure };
            queue(t, id, Action::Wait { scope, id: signal, logged: false }, None)
        }
        Leaf::Chase(arg) => {
            let Some(target) = entity_of(world, &t.arg(arg)).filter(|&target| target != me) else {
                return Status::Failure;
            };
            t.env.commands.push(Command::Steer { entity: me, order: SteerOrder::Chase(target) });
            t.st.runs.push(LeafRun { node: id, what: Waiting::Chase { target } });
            Status::Running
        }
        Leaf::PlayPattern(name, ticks) => {
            let Value::Str(name) = t.arg(name) else { return Status::Failure };
            if !world.steering().has_pattern(&name) {
                return Status::Failure;
            }
            let until = match ticks.as_ref().map(|a| t.arg(a)) {
                Some(v) => {
                    Some(t.env.now + v.as_f64().filter(|x| x.is_finite()).unwrap_or(0.0).clamp(0.0, 1e12) as u64)
                }
                None => None,
            };
            t.env.commands.push(Command::Steer { entity: me, order: SteerOrder::RunPattern(name.clone()) });
            t.st.runs.push(LeafRun { node: id, what: Waiting::Pattern { name, until } });
            Status::Running
        }
    }
}

/// A leaf that was running: still running, or done (and what it leaves behind cleaned up).
pub(crate) fn resume(t: &mut Ticker<'_, '_, '_>, id: NodeId) -> Status {
    let Some(at) = t.st.runs.iter().position(|r| r.node == id) else { return Status::Failure };
    let status = poll(&t.st.runs[at], t.env.world, t.env.me, t.env.now);
    if status != Status::Running {
        let run = t.st.runs.remove(at);
        if let Waiting::Pattern { .. } = run.what {
            let me = t.env.me;
            t.env.commands.push(Command::Steer { entity: me, order: SteerOrder::Stop });
        }
    }
    status
}

/// Halts running leaf `id`: its action leaves the queue, its steering stops.
pub(crate) fn stop(t: &mut Ticker<'_, '_, '_>, id: NodeId) {
    let Some(at) = t.st.runs.iter().position(|r| r.node == id) else { return };
    let run = t.st.runs.remove(at);
    let me = t.env.me;
    let command = match run.what {
        Waiting::Queue { .. } => Command::ClearActions { entity: me },
        Waiting::Chase { .. } | Waiting::Pattern { .. } => Command::Steer { entity: me, order: SteerOrder::Stop },
    };
    t.halt_command(command);
}

/// What a running leaf's action has come to, read from the world alone.
pub(crate) fn poll(run: &LeafRun, world: &World, me: EntityId, now: u64) -> Status {
    let Some(e) = world.entity(me) else { return Status::Failure };
    match &run.what {
        Waiting::Queue { action, goal } => {
            let front = e.actions.iter().find(|a| !a.is_instant());
            if front.is_some_and(|a| same_action(a, action)) {
                return Status::Running;
            }
            let ok = match action {
                Action::MoveTo { .. } | Action::FollowPath { .. } => goal.is_some_and(|g| e.cell() == g),
                Action::Wait { scope, id, .. } => world.signals().is_sent(scope, id),
                _ => true,
            };
            if ok { Status::Success } else { Status::Failure }
        }
        Waiting::Chase { target } => match world.steering().behaviour(me) {
            Some(Behaviour::Chase(t)) if t == target => Status::Running,
            // The steering ends a chase itself only on the catch (or when the prey is gone).
            None if world.entity(*target).is_some() => Status::Success,
            _ => Status::Failure,
        },
        Waiting::Pattern { name, until } => {
            if until.is_some_and(|u| now >= u) {
                return Status::Success;
            }
            match world.steering().behaviour(me) {
                Some(Behaviour::Pattern(n)) if n == name => Status::Running,
                _ => Status::Failure,
            }
        }
    }
}

fn queue(t: &mut Ticker<'_, '_, '_>, id: NodeId, action: Action, goal: Option<IVec2>) -> Status {
    t.act(|entity, action| Command::Request { entity, action }, action.clone());
    t.st.runs.push(LeafRun { node: id, what: Waiting::Queue { action, goal } });
    Status::Running
}

/// Whether `a` in the queue is the action a leaf asked for (a path's progress does not count).
fn same_action(a: &Action, asked: &Action) -> bool {
    match (a, asked) {
        (Action::FollowPath { points: p, .. }, Action::FollowPath { points: q, .. }) => p == q,
        (Action::Sleep { .. }, Action::Sleep { .. }) => true,
        (Action::Wait { scope: s1, id: i1, .. }, Action::Wait { scope: s2, id: i2, .. }) => s1 == s2 && i1 == i2,
        _ => a == asked,
    }
}

fn centre(x: f64, y: f64) -> Vec2 {
    Vec2::new(x.floor().clamp(-1e9, 1e9) as f32, y.floor().clamp(-1e9, 1e9) as f32) + Vec2::splat(0.5)
}

/// Where a value points: a vec2, a cell `[x, y]` or `{x, y}`, an entity, or a name — of a region
/// (its centre), a place, an entity, or `player`.
pub(crate) fn point_of(world: &World, v: &Value) -> Option<Vec2> {
    match v {
        Value::Vec2(p) if p.is_finite() => Some(*p),
        Value::List(xy) if xy.len() == 2 => match (xy[0].as_f64(), xy[1].as_f64()) {
            (Some(x), Some(y)) if x.is_finite() && y.is_finite() => Some(centre(x, y)),
            _ => None,
        },
        Value::Map(m) => match (m.get("x").and_then(Value::as_f64), m.get("y").and_then(Value::as_f64)) {
            (Some(x), Some(y)) if x.is_finite() && y.is_finite() => Some(Vec2::new(x as f32, y as f32)),
            _ => None,
        },
        Value::Entity(_) => entity_of(world, v).and_then(|id| world.entity(id)).map(|e| e.position),
        Value::Str(name) => {
            if let Some(r) = world.region(name) {
                return Some((r.min + r.max).as_vec2() * 0.5 + Vec2::splat(0.5));
            }
            world.place(name).or_else(|| entity_of(world, v).and_then(|id| world.entity(id)).map(|e| e.position))
        }
        _ => None,
    }
}

/// The entity a value names: a live handle, a scenario name, or `player`.
pub(crate) fn entity_of(world: &World, v: &Value) -> Option<EntityId> {
    match v {
        Value::Entity(id) => world.entity(*id).map(|_| *id),
        Value::Str(name) if name.eq_ignore_ascii_case("player") => world.player(),
        Value::Str(name) => world.find(name),
        _ => None,
    }
}

/// The cell `flee()` runs to: up to [`FLEE_CELLS`] straight away from the player, else along the
/// one axis still open (as `DoFlee` chooses).
fn flee_cell(world: &World, here: IVec2, there: IVec2) -> Option<IVec2> {
    let away = (here - there).clamp(IVec2::splat(-1), IVec2::ONE);
    let away = if away == IVec2::ZERO { IVec2::X } else { away };
    let map = world.map();
    [away, IVec2::new(away.x, 0), IVec2::new(0, away.y)]
        .into_iter()
        .filter(|d| *d != IVec2::ZERO)
        .find_map(|d| (1..=FLEE_CELLS).rev().map(|k| here + d * k).find(|&c| map.passable(c)))
}

/// A signal's scope and id: `squad` (the default: the character's squad, else team, else
/// itself), `team` or `world`.
fn signal_of(
    t: &Ticker<'_, '_, '_>,
    e: &crate::world::Entity,
    id: &Arg,
    scope: Option<&Arg>,
) -> Option<(String, String)> {
    let signal = match t.arg(id) {
        Value::Str(s) if !s.is_empty() => s,
        _ => return None,
    };
    let word = match scope.map(|a| t.arg(a)) {
        None => "squad".to_owned(),
        Some(Value::Str(s)) => s.to_ascii_lowercase(),
        Some(_) => return None,
    };
    let scope = match word.as_str() {
        "squad" => e.signal_scope(),
        "team" if e.team.is_empty() => e.signal_scope(),
        "team" => format!("team:{}", e.team),
        "world" => "world".to_owned(),
        _ => return None,
    };
    Some((scope, signal))
}
