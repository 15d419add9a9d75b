//! What one character's run of a tree remembers between ticks: each node's last status and its
//! small memory (a child index, a counter, a timer), the built-in leaves running, the services'
//! timers, and what event-driven evaluation watches. The definition is shared; this is all a
//! character adds (16 bytes a node, plus what runs).

use std::sync::Arc;

use glam::IVec2;

use super::def::{NodeId, TreeDef};
use super::host::Status;
use crate::coord::Action;
use crate::world::EntityId;

/// The status a node last reported (what the trace has said of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Last {
    /// Never ticked since the tree (re)started.
    #[default]
    Idle,
    /// It returned running.
    Running,
    /// It returned success.
    Success,
    /// It returned failure.
    Failure,
    /// It was halted while running.
    Halted,
}

impl Last {
    pub(crate) fn of(s: Status) -> Last {
        match s {
            Status::Success => Last::Success,
            Status::Failure => Last::Failure,
            Status::Running => Last::Running,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Last::Idle => "idle",
            Last::Running => "running",
            Last::Success => "success",
            Last::Failure => "failure",
            Last::Halted => "halted",
        }
    }
}

/// One node's memory.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct NodeState {
    pub(crate) last: Last,
    /// Bit 0: a guard's condition as last read. Bit 1: a script leaf's calls queued actions.
    pub(crate) flags: u8,
    /// A composite's current child; a parallel's failures.
    pub(crate) idx: u16,
    /// A repeat's or retry's count; a parallel's successes.
    pub(crate) count: u32,
    /// A timer's tick (timeout, delay, cooldown); a parallel's finished children, one bit each.
    pub(crate) time: u64,
}

pub(crate) const GUARD_HELD: u8 = 1;
pub(crate) const QUEUED_ACTIONS: u8 = 2;

impl NodeState {
    pub(crate) fn running(&self) -> bool {
        self.last == Last::Running
    }
}

/// A built-in leaf that is running, and what it waits for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LeafRun {
    pub(crate) node: NodeId,
    pub(crate) what: Waiting,
}

/// What a running built-in leaf waits for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Waiting {
    /// Its action to leave the queue; a move succeeds when it leaves it standing in `goal`.
    Queue { action: Action, goal: Option<IVec2> },
    /// A chase to end on the catch.
    Chase { target: EntityId },
    /// A pattern, until halted or until the tick `until`.
    Pattern { name: String, until: Option<u64> },
}

/// What event-driven evaluation watches: a condition whose change would make the next tick
/// different, with the result it had.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Watch {
    /// A guard's condition (an observer abort).
    Guard { node: NodeId, held: bool },
    /// A pure child before a reactive node's running child, and what it returned.
    Pure { node: NodeId, last: Status },
}

/// A change to a character's tree, carried out at its next tick.
#[derive(Debug, Clone)]
pub(crate) enum Pending {
    /// Halt what runs and start this definition (a reload, or another tree attached).
    Swap(String, Arc<TreeDef>),
    /// Halt what runs and drop the tree.
    Stop,
}

/// One character's run of one tree.
#[derive(Debug, Clone)]
pub struct TreeState {
    pub(crate) def: Arc<TreeDef>,
    pub(crate) nodes: Vec<NodeState>,
    pub(crate) runs: Vec<LeafRun>,
    pub(crate) services: Vec<u64>,
    pub(crate) watch: Vec<Watch>,
    /// The first tick a timer is due (or the tree must run again): ticks before it can be skipped.
    pub(crate) wake: u64,
    /// A running script leaf or an impure child before a reactive node's running child: the tree
    /// is ticked every tick while so.
    pub(crate) volatile: bool,
    /// The blackboard version the watches were last checked against.
    pub(crate) seen: u64,
    /// The model name the tree was attached by (what a reload of that model swaps).
    pub(crate) model: String,
    /// A change asked for between ticks, carried out at the next tick (which can issue the
    /// commands a clean halt needs).
    pub(crate) pending: Option<Pending>,
    /// What the root returned last.
    pub(crate) status: Option<Status>,
    /// Whether the declared keys the blackboard lacks still need their defaults written.
    pub(crate) fresh: bool,
}

impl TreeState {
    /// A fresh run of `def` (attached as model `model`): every node idle, due at once.
    pub fn new(model: impl Into<String>, def: Arc<TreeDef>) -> Self {
        let nodes = vec![NodeState::default(); def.nodes.len()];
        let services = vec![0; def.service_count()];
        TreeState {
            def,
            nodes,
            runs: Vec::new(),
            services,
            watch: Vec::new(),
            wake: 0,
            volatile: false,
            seen: u64::MAX,
            model: model.into(),
            pending: None,
            status: None,
            fresh: true,
        }
    }

    /// The model name it was attached by.
    pub fn model(&self) -> &str {
        &self.model
    }

    /// The definition it runs.
    pub fn def(&self) -> &Arc<TreeDef> {
        &self.def
    }

    /// What the root returned on the last tick it was ticked (`None` before the first).
    pub fn status(&self) -> Option<Status> {
        self.status
    }

    /// The nodes running now, depth first.
    pub fn running(&self) -> Vec<NodeId> {
        (0..self.nodes.len() as NodeId).filter(|&i| self.nodes[i as usize].running()).collect()
    }

    /// The status node `id` last reported: `idle`, `running`, `success`, `failure` or `halted`.
    pub fn node_status(&self, id: NodeId) -> &'static str {
        self.nodes.get(id as usize).map_or("idle", |n| n.last.name())
    }
}
