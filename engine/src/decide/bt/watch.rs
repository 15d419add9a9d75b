//! Event-driven evaluation: after a tick from the root, what could make the next tick different
//! is written down — the conditions the tree would read again (guards with observer aborts, pure
//! children before a reactive node's running child) with the results they had, the first tick a
//! timer is due, and whether anything runs that only a tick can look at (a script leaf). On the
//! ticks after, [`quiet`] asks only those: when the character's blackboard did not change (one
//! comparison), no timer is due and no running built-in leaf finished, the tick from the root
//! would change nothing, and is skipped.
//!
//! **Invariant:** skipping changes nothing — a tree evaluated this way issues the same commands
//! and trace events, tick for tick, as one ticked from the root every tick (`tests` in this
//! module's folder and `benches/trees.rs` compare both).

use crate::value::{Table, Value};
use crate::world::{EntityId, World};

use super::def::{NodeId, NodeKind, TreeDef};
use super::host::Status;
use super::leaves::poll;
use super::state::{GUARD_HELD, TreeState, Watch};
use super::tick::{eval_pure, read};

/// Writes down what the next ticks must watch, after a tick from the root at `now`.
pub(crate) fn collect(def: &TreeDef, st: &mut TreeState, now: u64) {
    st.watch.clear();
    st.volatile = false;
    // A tree whose root finished starts again on the next tick.
    let mut wake = if st.nodes[0].running() { u64::MAX } else { now + 1 };
    walk(def, st, 0, now, &mut wake);
    st.wake = wake;
}

fn walk(def: &TreeDef, st: &mut TreeState, id: NodeId, now: u64, wake: &mut u64) {
    let n = st.nodes[id as usize];
    if !n.running() {
        return;
    }
    let node = def.node(id);
    for s in &node.services {
        *wake = (*wake).min(st.services[s.slot as usize]);
    }
    let child = |i: usize| node.children[i];
    match &node.kind {
        NodeKind::Sequence | NodeKind::MemorySequence => walk(def, st, child(usize::from(n.idx)), now, wake),
        NodeKind::Fallback => {
            let running = usize::from(n.idx);
            for &c in &node.children[..running] {
                if let NodeKind::Guard { abort, .. } = &def.node(c).kind
                    && abort.lower()
                {
                    let held = st.nodes[c as usize].flags & GUARD_HELD != 0;
                    st.watch.push(Watch::Guard { node: c, held });
                }
            }
            walk(def, st, child(running), now, wake);
        }
        NodeKind::ReactiveSequence | NodeKind::ReactiveFallback => {
            let running = usize::from(n.idx);
            for &c in &node.children[..running] {
                let last = match st.nodes[c as usize].last {
                    super::state::Last::Success => Status::Success,
                    super::state::Last::Failure => Status::Failure,
                    _ => Status::Running,
                };
                if def.pure[c as usize] {
                    st.watch.push(Watch::Pure { node: c, last });
                } else {
                    // An action or a timer before the running child: the reactive node must tick
                    // it again every tick, as a tick from the root would.
                    st.volatile = true;
                }
            }
            walk(def, st, child(running), now, wake);
        }
        NodeKind::Parallel { .. } => {
            for (i, &c) in node.children.iter().enumerate() {
                if n.time & (1 << i) == 0 {
                    walk(def, st, c, now, wake);
                }
            }
        }
        NodeKind::Repeat { .. } => {
            if st.nodes[child(0) as usize].running() {
                walk(def, st, child(0), now, wake);
            } else {
                // `repeat forever` ends its tick after each success: it goes on next tick.
                *wake = (*wake).min(now + 1);
            }
        }
        NodeKind::Timeout { .. } => {
            *wake = (*wake).min(n.time);
            walk(def, st, child(0), now, wake);
        }
        NodeKind::Delay { .. } => {
            if now < n.time {
                *wake = (*wake).min(n.time);
            } else {
                walk(def, st, child(0), now, wake);
            }
        }
        NodeKind::Guard { abort, .. } => {
            if abort.own() {
                st.watch.push(Watch::Guard { node: id, held: n.flags & GUARD_HELD != 0 });
            }
            walk(def, st, child(0), now, wake);
        }
        NodeKind::Invert
        | NodeKind::ForceSuccess
        | NodeKind::ForceFailure
        | NodeKind::Retry { .. }
        | NodeKind::Cooldown { .. }
        | NodeKind::Subtree { .. } => walk(def, st, child(0), now, wake),
        // A running script leaf is called every tick: only a call can say how it is doing.
        NodeKind::Script { .. } => st.volatile = true,
        // Running built-in leaves are polled (`TreeState::runs`).
        NodeKind::Leaf(_) => {}
        NodeKind::Check(_) | NodeKind::Set { .. } => {}
    }
}

/// Whether the tick `now` of `me`'s tree can be skipped: nothing it watches changed. Updates
/// what was seen of the blackboard when it can.
pub(crate) fn quiet(def: &TreeDef, st: &mut TreeState, world: &World, me: EntityId, now: u64) -> bool {
    if st.volatile || now >= st.wake || st.pending.is_some() {
        return false;
    }
    let Some(e) = world.entity(me) else { return false };
    let version = e.blackboard.version();
    if version != st.seen {
        let empty = Table::new();
        let read = |k: &str| -> Option<&Value> { read(def, world, me, &empty, k) };
        for w in &st.watch {
            let same = match *w {
                Watch::Guard { node, held } => match &def.node(node).kind {
                    NodeKind::Guard { cond, .. } => cond.eval_with(&read) == held,
                    _ => false,
                },
                Watch::Pure { node, last } => {
                    let mut changed = false;
                    eval_pure(def, &st.nodes, node, &read, &mut changed) == Some(last) && !changed
                }
            };
            if !same {
                return false;
            }
        }
        st.seen = version;
    }
    st.runs.iter().all(|run| poll(run, world, me, now) == Status::Running)
}
