//! What a tree needs from its host: the status every node returns, and [`LeafHost`], through
//! which the tree calls leaves and services written in a script language. The engine names no
//! language (architecture invariant); the runtime implements the trait over its script host, a
//! game or a benchmark over plain Rust.

use crate::value::{Table, Value};
use crate::world::{CommandBuffer, EntityId, World, WorldRng};

use super::TreeDef;

/// What a node returns when it is ticked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Status {
    /// It did what it is for.
    Success,
    /// It could not.
    Failure,
    /// It is still at it: tick it again next tick.
    Running,
}

impl Status {
    /// The word the trace and the scripts use: `success`, `failure`, `running`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Failure => "failure",
            Status::Running => "running",
        }
    }

    /// The status a script leaf returned: `"success"`, `"failure"` or `"running"` in any case
    /// (the `.tac` symbols `success`, `failure`, `running` are these strings), or `true`/`false`
    /// for success and failure. Anything else is no status.
    pub fn from_value(v: &Value) -> Option<Status> {
        match v {
            Value::Bool(true) => Some(Status::Success),
            Value::Bool(false) => Some(Status::Failure),
            Value::Str(s) if s.eq_ignore_ascii_case("success") => Some(Status::Success),
            Value::Str(s) if s.eq_ignore_ascii_case("failure") => Some(Status::Failure),
            Value::Str(s) if s.eq_ignore_ascii_case("running") => Some(Status::Running),
            _ => None,
        }
    }
}

/// One call of a script leaf or service: what it may read and where its commands go. Like a
/// script call, it reads the world and writes commands the world applies after the tick's
/// scripts; the blackboard writes its tree made earlier in this tick are in `blackboard`.
pub struct LeafCall<'a> {
    /// The world, read-only.
    pub world: &'a World,
    /// The world's random generator.
    pub rng: &'a mut WorldRng,
    /// Where the call's commands go.
    pub commands: &'a mut CommandBuffer,
    /// The character whose tree calls.
    pub entity: EntityId,
    /// The tree.
    pub tree: &'a TreeDef,
    /// The function's name (as the tree file writes it).
    pub function: &'a str,
    /// Whether it is called as a service (its result is not read) rather than a leaf.
    pub service: bool,
    /// Blackboard keys this character's tree wrote earlier in this tick, not applied yet: a
    /// leaf reading its blackboard sees these first.
    pub blackboard: &'a Table,
}

impl LeafCall<'_> {
    /// A blackboard key as the tree reads it: this tick's write, else the character's blackboard,
    /// else the tree's default.
    pub fn read(&self, key: &str) -> Option<&Value> {
        super::tick::read(self.tree, self.world, self.entity, self.blackboard, key)
    }
}

/// Calls the script functions a tree's leaves and services name.
pub trait LeafHost {
    /// Calls a leaf (or a service, whose status is ignored). A call that fails is the host's to
    /// report; it returns [`Status::Failure`].
    fn call(&mut self, call: &mut LeafCall<'_>) -> Status;

    /// The leaf was running and the tree halts it (a branch was aborted, a reactive node moved
    /// on, the tree was reloaded). The tree itself already dropped the actions the leaf queued;
    /// a host may run a clean-up hook here. The default does nothing.
    fn halt(&mut self, _call: &mut LeafCall<'_>) {}
}

/// A host for trees without script leaves: every call fails.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoScripts;

impl LeafHost for NoScripts {
    fn call(&mut self, _call: &mut LeafCall<'_>) -> Status {
        Status::Failure
    }
}

impl<F: FnMut(&mut LeafCall<'_>) -> Status> LeafHost for F {
    fn call(&mut self, call: &mut LeafCall<'_>) -> Status {
        self(call)
    }
}
