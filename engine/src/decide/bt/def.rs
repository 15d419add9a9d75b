//! A tree's definition: its nodes in one flat array (depth first, the root first, subtrees
//! inlined where they are called), its blackboard keys with their defaults, and the script
//! functions its leaves and services call. Built from a `.bt` file by [`super::build`];
//! immutable, shared behind an `Arc` by every character that runs it.

use std::collections::BTreeMap;

use crate::decide::expr::Expr;
use crate::value::Value;

/// A node's index in [`TreeDef::nodes`]; the root is 0.
pub type NodeId = u32;

/// What a guard's observer aborts when its condition changes while the tree runs (Unreal's
/// "observer aborts").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Abort {
    /// Nothing: the condition is read when the guard is entered, and only then.
    None,
    /// Its own branch, when the condition stops holding while the branch runs.
    Own,
    /// The children after it in its fallback, when the condition comes to hold while one of
    /// them runs: the fallback goes back to the guard.
    LowerPriority,
    /// Both of the above.
    Both,
}

impl Abort {
    /// Whether the guard's own branch is aborted when its condition stops holding.
    pub fn own(self) -> bool {
        matches!(self, Abort::Own | Abort::Both)
    }

    /// Whether lower-priority branches are aborted when its condition comes to hold.
    pub fn lower(self) -> bool {
        matches!(self, Abort::LowerPriority | Abort::Both)
    }
}

/// An argument of a built-in leaf or a `set`: a constant, or a blackboard key read when the
/// leaf starts.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// A constant (numbers, strings, `true`/`false`, and words that name no key: places,
    /// entities, patterns, queries).
    Value(Value),
    /// A blackboard key, by its full name.
    Key(String),
}

/// Where a move goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A place or region name, an entity (name or handle), a point (vec2) or a cell `[x, y]`.
    One(Arg),
    /// A cell.
    Cell(Arg, Arg),
}

/// The built-in leaves: the runtime's long actions (through the character's action queue, the
/// navigation service and steering), which span ticks and are halted cleanly, and two constants.
#[derive(Debug, Clone, PartialEq)]
pub enum Leaf {
    /// `move_to(place)`, `move_to(x, y)`: walks there; succeeds on arrival, fails when the goal
    /// cannot be reached.
    MoveTo(Target),
    /// `follow_path(key)`: walks a list of cells; succeeds at the last.
    FollowPath(Arg),
    /// `flee()`: runs from the player, as `DoFlee` does; succeeds when there.
    Flee,
    /// `chase(target)`: steers after an entity; succeeds on the catch.
    Chase(Arg),
    /// `wait(ticks)`: does nothing for a number of ticks (a `sleep` action).
    Wait(Arg),
    /// `say(text)`: says a line; succeeds at once.
    Say(Arg),
    /// `go_to_position(query)`: runs a position query and walks to its best point; fails when
    /// the query finds none.
    GoToPosition(Arg),
    /// `play_pattern(pattern)`, `play_pattern(pattern, ticks)`: flies a movement pattern, until
    /// halted or for so many ticks.
    PlayPattern(Arg, Option<Arg>),
    /// `signal(id)`, `signal(id, scope)`: sends a signal; succeeds at once.
    Signal(Arg, Option<Arg>),
    /// `wait_signal(id)`, `wait_signal(id, scope)`: waits until the signal is sent.
    WaitSignal(Arg, Option<Arg>),
    /// `succeed()`: succeeds.
    Succeed,
    /// `fail()`: fails.
    Fail,
}

/// The kinds of node. The composites and decorators follow BehaviorTree.CPP's documented
/// behaviour, the guard follows Unreal's blackboard decorator; `docs/trees.md` has the table.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// Children in order until one fails; a running child is resumed, the ones before it are
    /// not ticked again.
    Sequence,
    /// A sequence that, after a failure, resumes at the child that failed (BehaviorTree.CPP's
    /// `SequenceWithMemory`).
    MemorySequence,
    /// A sequence that ticks its children from the first on every tick, halting a running child
    /// when one before it fails.
    ReactiveSequence,
    /// Children in order until one succeeds (a selector).
    Fallback,
    /// A fallback that ticks its children from the first on every tick, halting a running child
    /// when one before it succeeds or runs.
    ReactiveFallback,
    /// Every child each tick; succeeds when `success` children have, fails when `failure` have
    /// or success is out of reach, halting the ones still running.
    Parallel {
        /// Successes needed.
        success: u32,
        /// Failures that end it.
        failure: u32,
    },
    /// Success and failure swapped.
    Invert,
    /// Succeeds whenever the child finishes.
    ForceSuccess,
    /// Fails whenever the child finishes.
    ForceFailure,
    /// Runs the child again after each success, `times` times (`None`: for ever, once a tick);
    /// fails when the child fails.
    Repeat {
        /// How many successes make it succeed.
        times: Option<u32>,
    },
    /// Runs the child again after each failure, up to `times` attempts.
    Retry {
        /// The attempts.
        times: u32,
    },
    /// Fails and halts the child when it runs for `ticks` ticks without finishing.
    Timeout {
        /// The ticks the child has.
        ticks: u32,
    },
    /// Waits `ticks` ticks before ticking the child.
    Delay {
        /// The wait.
        ticks: u32,
    },
    /// After the child finishes (or is halted), fails at once for `ticks` ticks without ticking it.
    Cooldown {
        /// The cooldown.
        ticks: u32,
    },
    /// Ticks the child while the condition holds; with an abort mode, watches the condition.
    Guard {
        /// The condition over blackboard keys.
        cond: Expr,
        /// What a change of the condition aborts.
        abort: Abort,
    },
    /// Another tree of the file, inlined here with its ports remapped; ticks its root.
    Subtree {
        /// The tree called.
        name: String,
    },
    /// A condition over blackboard keys: succeeds when it holds.
    Check(Expr),
    /// Writes a blackboard key; succeeds.
    Set {
        /// The key (its full name).
        key: String,
        /// The value.
        value: Arg,
    },
    /// A built-in leaf.
    Leaf(Leaf),
    /// A function of the tree's leaf files (`.tac`, Lua or Rhai), returning success, failure or
    /// running.
    Script {
        /// Its index in [`TreeDef::functions`].
        function: u32,
    },
}

/// A service: a script function a composite calls every `every` ticks while it runs (and when it
/// starts), to keep blackboard keys up to date.
#[derive(Debug, Clone, PartialEq)]
pub struct Service {
    /// The function, an index in [`TreeDef::functions`].
    pub function: u32,
    /// The interval in ticks (at least 1).
    pub every: u32,
    /// Its index among the tree's services (where its timer is kept).
    pub slot: u32,
}

/// One node.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What it is.
    pub kind: NodeKind,
    /// Its children, in order.
    pub children: Vec<NodeId>,
    /// How the trace and the profiler name it (`move_to(post_a)`, `guard noise`, `sequence`).
    pub label: String,
    /// The 1-based line it is written on in its tree file (0 for trees built in code).
    pub line: u32,
    /// Its services (composites only).
    pub services: Vec<Service>,
}

/// A tree, ready to run.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeDef {
    pub(crate) name: String,
    pub(crate) nodes: Vec<Node>,
    pub(crate) keys: BTreeMap<String, Value>,
    pub(crate) functions: Vec<String>,
    pub(crate) leaf_files: Vec<String>,
    pub(crate) services: u32,
    /// Per node, whether it is pure: conditions, constants and the logic over them, which
    /// event-driven evaluation may re-read without ticking ([`super::tick::eval_pure`]).
    pub(crate) pure: Vec<bool>,
}

impl TreeDef {
    /// Its name (the first tree's name in its file).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Its nodes, the root first.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// A node.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// The blackboard keys it declares (subtrees' own keys under `Subtree.key`), with defaults.
    pub fn keys(&self) -> &BTreeMap<String, Value> {
        &self.keys
    }

    /// The script functions its leaves and services call, by index.
    pub fn functions(&self) -> &[String] {
        &self.functions
    }

    /// The `leaves` files, as written (relative to the tree file).
    pub fn leaf_files(&self) -> &[String] {
        &self.leaf_files
    }

    /// The same tree with its `leaves` files named as the host found them (resolved paths), and
    /// for a tree a script built, the script's own file.
    #[must_use]
    pub fn with_leaf_files(mut self, files: Vec<String>) -> Self {
        self.leaf_files = files;
        self
    }

    /// How many services it has.
    pub fn service_count(&self) -> usize {
        self.services as usize
    }
}
