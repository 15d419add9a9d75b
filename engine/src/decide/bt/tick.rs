//! One tick of one character's tree from the root: every node's behaviour, halting, services,
//! and the trace events of status changes. `docs/trees.md` states each node's rules; the
//! comments here say why where the anchors differ.

use std::time::Instant;

use crate::coord::Action;
use crate::value::{Table, Value};
use crate::world::{Command, CommandBuffer, EntityId, EventKind, World, WorldRng};

use super::def::{Arg, Leaf, NodeId, NodeKind, TreeDef};
use super::host::{LeafCall, LeafHost, Status};
use super::leaves;
use super::profile::TreeProfile;
use super::state::{GUARD_HELD, Last, NodeState, QUEUED_ACTIONS, TreeState};

/// How many nodes one tree may tick in one tick. A `repeat 1000000` around a leaf that succeeds
/// at once would otherwise loop inside the frame; past this the tree is halted, noted, and
/// starts again the next tick.
pub const MAX_NODE_TICKS: u32 = 10_000;

/// What a tick of one character's tree works with.
pub(crate) struct Env<'a, 'w> {
    pub(crate) world: &'w World,
    pub(crate) rng: &'a mut WorldRng,
    pub(crate) commands: &'a mut CommandBuffer,
    pub(crate) host: &'a mut dyn LeafHost,
    pub(crate) me: EntityId,
    pub(crate) now: u64,
    pub(crate) trace: bool,
    /// Blackboard keys this tree wrote this tick: read before the character's blackboard, which
    /// the writes reach only when the tick's commands are applied.
    pub(crate) overlay: &'a mut Table,
    pub(crate) profile: Option<&'a mut TreeProfile>,
}

/// A tick of one tree for one character.
pub(crate) struct Ticker<'s, 'a, 'w> {
    pub(crate) def: &'s TreeDef,
    pub(crate) st: &'s mut TreeState,
    pub(crate) env: &'s mut Env<'a, 'w>,
    budget: u32,
    /// Where this tick's commands start in the buffer.
    mark: usize,
    /// What halting leaves takes back (their actions, their steering), put before everything
    /// the tick issues: a reactive node that starts an earlier leaf and then halts the later one
    /// must not have the halt drop what it just started.
    halts: Vec<Command>,
}

impl<'s, 'a, 'w> Ticker<'s, 'a, 'w> {
    pub(crate) fn new(def: &'s TreeDef, st: &'s mut TreeState, env: &'s mut Env<'a, 'w>) -> Self {
        let mark = env.commands.len();
        Ticker { def, st, env, budget: MAX_NODE_TICKS, mark, halts: Vec::new() }
    }

    /// Puts the tick's halts before the rest of its commands.
    fn flush_halts(&mut self) {
        if !self.halts.is_empty() {
            self.env.commands.insert_at(self.mark, self.halts.drain(..));
        }
    }

    /// Halts everything running (a reload swapping the tree, a tree stopped).
    pub(crate) fn halt_everything(&mut self) {
        self.halt_tree(0);
        self.flush_halts();
    }

    /// A command that takes back what a halted leaf started.
    pub(crate) fn halt_command(&mut self, command: Command) {
        self.halts.push(command);
    }

    /// Ticks the root. When the tick ran out of budget, everything running is halted and the
    /// tree starts afresh next tick.
    pub(crate) fn tick_root(&mut self) -> Status {
        let status = self.tick(0);
        self.finish_root(status)
    }

    fn finish_root(&mut self, status: Status) -> Status {
        if self.budget == 0 {
            self.halt_tree(0);
            self.flush_halts();
            let value = Value::from(format!(
                "the tree `{}` ticked more than {MAX_NODE_TICKS} nodes in one tick (a `repeat` around leaves that \
                 finish at once?); it was halted and starts again next tick",
                self.def.name
            ));
            let me = self.env.me;
            self.env.commands.push(Command::Emit {
                entity: Some(me),
                event: EventKind::Note { name: "tree_budget".to_owned(), value },
            });
            return Status::Failure;
        }
        self.flush_halts();
        status
    }

    /// A key's value: this tick's write, else the character's blackboard, else the tree's default.
    pub(crate) fn read(&self, key: &str) -> Option<&Value> {
        read(self.def, self.env.world, self.env.me, self.env.overlay, key)
    }

    pub(crate) fn arg(&self, arg: &Arg) -> Value {
        match arg {
            Arg::Value(v) => v.clone(),
            Arg::Key(k) => self.read(k).cloned().unwrap_or_default(),
        }
    }

    fn node(&self, id: NodeId) -> &'s super::def::Node {
        &self.def.nodes[id as usize]
    }

    fn state(&mut self, id: NodeId) -> &mut NodeState {
        &mut self.st.nodes[id as usize]
    }

    /// Records what `id` returned: a trace event when it differs from what it last reported.
    fn report(&mut self, id: NodeId, status: Status) {
        self.set_last(id, Last::of(status));
    }

    fn set_last(&mut self, id: NodeId, last: Last) {
        let n = &mut self.st.nodes[id as usize];
        if n.last == last {
            return;
        }
        n.last = last;
        if self.env.trace {
            let node = self.node(id);
            let event = EventKind::Node {
                tree: self.def.name.clone(),
                node: id,
                name: node.label.clone(),
                status: last.name(),
            };
            let me = self.env.me;
            self.env.commands.push(Command::Emit { entity: Some(me), event });
        }
    }

    /// Ticks node `id` and returns its status.
    pub(crate) fn tick(&mut self, id: NodeId) -> Status {
        if self.budget == 0 {
            return Status::Failure;
        }
        self.budget -= 1;
        let started = self.env.profile.is_some().then(Instant::now);
        let entering = !self.st.nodes[id as usize].running();
        if entering {
            self.enter(id);
        }
        self.run_services(id);
        let status = self.behave(id, entering);
        self.report(id, status);
        if let (Some(t0), Some(p)) = (started, self.env.profile.as_deref_mut()) {
            p.node(self.def, id, t0.elapsed());
        }
        status
    }

    /// A node that was not running starts afresh: its memory is cleared, except a memory
    /// sequence's place (which survives failures and halts, as BehaviorTree.CPP's does) and a
    /// cooldown's timer.
    fn enter(&mut self, id: NodeId) {
        let now = self.env.now;
        let kind = &self.node(id).kind;
        let n = self.state(id);
        match kind {
            NodeKind::MemorySequence => {}
            NodeKind::Cooldown { .. } => {}
            NodeKind::Timeout { ticks } | NodeKind::Delay { ticks } => {
                n.idx = 0;
                n.count = 0;
                n.time = now + u64::from(*ticks);
            }
            _ => {
                n.idx = 0;
                n.count = 0;
                n.time = 0;
            }
        }
    }

    /// A composite's services that are due: when it starts (unless the service ran fewer than
    /// `every` ticks ago, for a composite that starts again and again), then every `every` ticks
    /// while it runs.
    fn run_services(&mut self, id: NodeId) {
        let node = self.node(id);
        if node.services.is_empty() {
            return;
        }
        let now = self.env.now;
        for s in &node.services {
            let due = &mut self.st.services[s.slot as usize];
            if now >= *due {
                *due = now + u64::from(s.every.max(1));
                self.call_script(id, s.function, false);
            }
        }
    }

    fn behave(&mut self, id: NodeId, entering: bool) -> Status {
        let node = self.node(id);
        let children = &node.children;
        match &node.kind {
            NodeKind::Sequence | NodeKind::MemorySequence => {
                let memory = matches!(node.kind, NodeKind::MemorySequence);
                let mut i = usize::from(self.state(id).idx);
                while i < children.len() {
                    match self.tick(children[i]) {
                        Status::Running => {
                            self.state(id).idx = i as u16;
                            return Status::Running;
                        }
                        Status::Failure => {
                            self.halt_children(id);
                            self.state(id).idx = if memory { i as u16 } else { 0 };
                            return Status::Failure;
                        }
                        Status::Success => i += 1,
                    }
                }
                self.state(id).idx = 0;
                Status::Success
            }
            NodeKind::Fallback => {
                let mut i = usize::from(self.state(id).idx);
                if !entering && let Some(j) = self.lower_priority_abort(id, i) {
                    self.halt(children[i]);
                    i = j;
                }
                while i < children.len() {
                    match self.tick(children[i]) {
                        Status::Running => {
                            self.state(id).idx = i as u16;
                            return Status::Running;
                        }
                        Status::Success => {
                            self.halt_children(id);
                            self.state(id).idx = 0;
                            return Status::Success;
                        }
                        Status::Failure => i += 1,
                    }
                }
                self.state(id).idx = 0;
                Status::Failure
            }
            NodeKind::ReactiveSequence | NodeKind::ReactiveFallback => {
                let (go_on, done) = match node.kind {
                    NodeKind::ReactiveSequence => (Status::Success, Status::Failure),
                    _ => (Status::Failure, Status::Success),
                };
                for (i, &c) in children.iter().enumerate() {
                    let s = self.tick(c);
                    if s == Status::Running {
                        // The child before that was running is halted: the reactive node moved
                        // to an earlier one. So is one after it, should it have run.
                        for &other in children.iter().filter(|&&o| o != c) {
                            self.halt(other);
                        }
                        self.state(id).idx = i as u16;
                        return Status::Running;
                    }
                    if s == done {
                        self.halt_children(id);
                        return done;
                    }
                    debug_assert_eq!(s, go_on);
                }
                self.halt_children(id);
                go_on
            }
            NodeKind::Parallel { success, failure } => self.parallel(id, *success, *failure),
            NodeKind::Invert => match self.tick(children[0]) {
                Status::Success => Status::Failure,
                Status::Failure => Status::Success,
                Status::Running => Status::Running,
            },
            NodeKind::ForceSuccess => match self.tick(children[0]) {
                Status::Running => Status::Running,
                _ => Status::Success,
            },
            NodeKind::ForceFailure => match self.tick(children[0]) {
                Status::Running => Status::Running,
                _ => Status::Failure,
            },
            NodeKind::Repeat { times } => loop {
                match self.tick(children[0]) {
                    Status::Running => return Status::Running,
                    Status::Failure => {
                        self.state(id).count = 0;
                        return Status::Failure;
                    }
                    Status::Success => {
                        let n = self.state(id);
                        n.count = n.count.saturating_add(1);
                        match times {
                            Some(t) if n.count >= *t => {
                                n.count = 0;
                                return Status::Success;
                            }
                            Some(_) => {}
                            // For ever: once a tick, so a child that finishes at once does not
                            // hold the frame.
                            None => return Status::Running,
                        }
                    }
                }
                if self.budget == 0 {
                    return Status::Failure;
                }
            },
            NodeKind::Retry { times } => loop {
                match self.tick(children[0]) {
                    Status::Running => return Status::Running,
                    Status::Success => {
                        self.state(id).count = 0;
                        return Status::Success;
                    }
                    Status::Failure => {
                        let n = self.state(id);
                        n.count = n.count.saturating_add(1);
                        if n.count >= *times {
                            n.count = 0;
                            return Status::Failure;
                        }
                    }
                }
                if self.budget == 0 {
                    return Status::Failure;
                }
            },
            NodeKind::Timeout { .. } => {
                if self.env.now >= self.state(id).time {
                    self.halt(children[0]);
                    return Status::Failure;
                }
                self.tick(children[0])
            }
            NodeKind::Delay { .. } => {
                if self.env.now < self.state(id).time {
                    return Status::Running;
                }
                self.tick(children[0])
            }
            NodeKind::Cooldown { ticks } => {
                if entering && self.env.now < self.state(id).time {
                    return Status::Failure;
                }
                let s = self.tick(children[0]);
                if s != Status::Running {
                    self.state(id).time = self.env.now + u64::from(*ticks);
                }
                s
            }
            NodeKind::Guard { cond, abort } => {
                if entering || abort.own() {
                    let held = cond.eval_with(&|k| self.read(k));
                    let n = self.state(id);
                    n.flags = if held { n.flags | GUARD_HELD } else { n.flags & !GUARD_HELD };
                    if !held {
                        self.halt(children[0]);
                        return Status::Failure;
                    }
                }
                self.tick(children[0])
            }
            NodeKind::Subtree { .. } => self.tick(children[0]),
            NodeKind::Check(cond) => {
                if cond.eval_with(&|k| self.read(k)) {
                    Status::Success
                } else {
                    Status::Failure
                }
            }
            NodeKind::Set { key, value } => {
                let v = self.arg(value);
                self.env.overlay.insert(key.clone(), v.clone());
                let me = self.env.me;
                self.env.commands.push(Command::SetBlackboard { entity: me, key: key.clone(), value: v });
                Status::Success
            }
            NodeKind::Leaf(leaf) => {
                if entering {
                    leaves::start(self, id, leaf)
                } else {
                    leaves::resume(self, id)
                }
            }
            NodeKind::Script { function } => self.call_script(id, *function, true),
        }
    }

    /// BehaviorTree.CPP's `Parallel`: each tick, every child not yet finished is ticked; the
    /// thresholds are checked after each child, and when one is reached the children still
    /// running are halted.
    fn parallel(&mut self, id: NodeId, success: u32, failure: u32) -> Status {
        let children = &self.node(id).children;
        let n = children.len() as u32;
        for (i, &c) in children.iter().enumerate() {
            let bit = 1u64 << i;
            if self.state(id).time & bit == 0 {
                match self.tick(c) {
                    Status::Success => {
                        let s = self.state(id);
                        s.time |= bit;
                        s.count += 1;
                    }
                    Status::Failure => {
                        let s = self.state(id);
                        s.time |= bit;
                        s.idx += 1;
                    }
                    Status::Running => {}
                }
            }
            let s = *self.state(id);
            let done = if s.count >= success {
                Some(Status::Success)
            } else if n - u32::from(s.idx) < success || u32::from(s.idx) >= failure {
                Some(Status::Failure)
            } else {
                None
            };
            if let Some(done) = done {
                self.halt_children(id);
                let s = self.state(id);
                (s.time, s.count, s.idx) = (0, 0, 0);
                return done;
            }
        }
        Status::Running
    }

    /// The first guard before child `running` of fallback `id` whose condition came to hold
    /// since it was last read (Unreal's lower-priority observer abort). Every guard read is
    /// remembered, so an abort fires once per change.
    fn lower_priority_abort(&mut self, id: NodeId, running: usize) -> Option<usize> {
        let children = &self.node(id).children;
        for (j, &c) in children.iter().enumerate().take(running) {
            let NodeKind::Guard { cond, abort } = &self.node(c).kind else { continue };
            if !abort.lower() {
                continue;
            }
            let held = cond.eval_with(&|k| self.read(k));
            let n = self.state(c);
            let was = n.flags & GUARD_HELD != 0;
            n.flags = if held { n.flags | GUARD_HELD } else { n.flags & !GUARD_HELD };
            if held && !was {
                return Some(j);
            }
        }
        None
    }

    /// Calls a script function for a leaf (`leaf`) or a service; its blackboard writes become
    /// visible to the rest of this tick.
    fn call_script(&mut self, id: NodeId, function: u32, leaf: bool) -> Status {
        let before = self.env.commands.len();
        let name = &self.def.functions[function as usize];
        let mut call = LeafCall {
            world: self.env.world,
            rng: &mut *self.env.rng,
            commands: &mut *self.env.commands,
            entity: self.env.me,
            tree: self.def,
            function: name,
            service: !leaf,
            blackboard: &*self.env.overlay,
        };
        let status = self.env.host.call(&mut call);
        let me = self.env.me;
        let mut queued = false;
        for c in &self.env.commands.as_slice()[before.min(self.env.commands.len())..] {
            match c {
                Command::SetBlackboard { entity, key, value } if *entity == me => {
                    self.env.overlay.insert(key.clone(), value.clone());
                }
                Command::Request { entity, .. } | Command::Enqueue { entity, .. } | Command::Steer { entity, .. }
                    if *entity == me =>
                {
                    queued = true;
                }
                _ => {}
            }
        }
        if leaf && queued {
            self.state(id).flags |= QUEUED_ACTIONS;
        }
        status
    }

    /// Halts everything running under `id`, whatever `id` itself last returned (a tick that ran
    /// out of budget, a reload).
    pub(crate) fn halt_tree(&mut self, id: NodeId) {
        for &c in &self.node(id).children {
            self.halt_tree(c);
        }
        self.halt(id);
    }

    /// Halts every running child of `id`.
    fn halt_children(&mut self, id: NodeId) {
        for &c in &self.node(id).children {
            self.halt(c);
        }
    }

    /// Halts `id` if it runs: its running children first, then itself — a built-in leaf drops
    /// its action or its steering, a script leaf its queued actions (and the host may clean up),
    /// a cooldown starts cooling. The trace says `halted`.
    pub(crate) fn halt(&mut self, id: NodeId) {
        if !self.st.nodes[id as usize].running() {
            return;
        }
        self.halt_children(id);
        match &self.node(id).kind {
            NodeKind::Leaf(_) => leaves::stop(self, id),
            NodeKind::Script { function } => {
                let me = self.env.me;
                if self.state(id).flags & QUEUED_ACTIONS != 0 {
                    self.halt_command(Command::ClearActions { entity: me });
                    self.halt_command(Command::Steer { entity: me, order: crate::steer::SteerOrder::Stop });
                }
                let name = &self.def.functions[*function as usize];
                let mut call = LeafCall {
                    world: self.env.world,
                    rng: &mut *self.env.rng,
                    commands: &mut *self.env.commands,
                    entity: me,
                    tree: self.def,
                    function: name,
                    service: false,
                    blackboard: &*self.env.overlay,
                };
                self.env.host.halt(&mut call);
            }
            NodeKind::Cooldown { ticks } => {
                let until = self.env.now + u64::from(*ticks);
                self.state(id).time = until;
            }
            _ => {}
        }
        let keeps = matches!(self.node(id).kind, NodeKind::MemorySequence | NodeKind::Cooldown { .. });
        let n = self.state(id);
        n.flags &= !QUEUED_ACTIONS;
        if !keeps {
            (n.idx, n.count, n.time) = (0, 0, 0);
        }
        self.set_last(id, Last::Halted);
    }

    /// Pushes an action command for the character.
    pub(crate) fn act(&mut self, command: fn(EntityId, Action) -> Command, action: Action) {
        let me = self.env.me;
        self.env.commands.push(command(me, action));
    }
}

/// A key's value as a tree reads it: `overlay` (this tick's writes), else the character's
/// blackboard, else the tree's declared default.
pub(crate) fn read<'v>(
    def: &'v TreeDef,
    world: &'v World,
    me: EntityId,
    overlay: &'v Table,
    key: &str,
) -> Option<&'v Value> {
    overlay.get(key).or_else(|| world.entity(me).and_then(|e| e.blackboard.get(key))).or_else(|| def.keys.get(key))
}

/// The status a pure node returns (conditions, constants and the logic over them: no time, no
/// action, no script), without ticking it: event-driven evaluation asks this of the pure children
/// it watches. `changed` is set when a node the tick would visit would report another status than
/// it last did (a tick would then record an event). `None` for a node that is not pure.
pub(crate) fn eval_pure<'v>(
    def: &TreeDef,
    nodes: &[NodeState],
    id: NodeId,
    read: &dyn Fn(&str) -> Option<&'v Value>,
    changed: &mut bool,
) -> Option<Status> {
    let node = &def.nodes[id as usize];
    let bool_status = |b: bool| if b { Status::Success } else { Status::Failure };
    let child = |i: usize, changed: &mut bool| eval_pure(def, nodes, node.children[i], read, changed);
    let status = match &node.kind {
        NodeKind::Check(cond) => bool_status(cond.eval_with(&read)),
        NodeKind::Leaf(Leaf::Succeed) => Status::Success,
        NodeKind::Leaf(Leaf::Fail) => Status::Failure,
        NodeKind::Invert => match child(0, changed)? {
            Status::Success => Status::Failure,
            Status::Failure => Status::Success,
            Status::Running => Status::Running,
        },
        NodeKind::ForceSuccess => Status::Success.min_with(child(0, changed)?),
        NodeKind::ForceFailure => Status::Failure.min_with(child(0, changed)?),
        NodeKind::Subtree { .. } | NodeKind::Retry { .. } | NodeKind::Repeat { times: Some(_) } => child(0, changed)?,
        NodeKind::Guard { cond, .. } => {
            if cond.eval_with(&read) {
                child(0, changed)?
            } else {
                Status::Failure
            }
        }
        NodeKind::Sequence | NodeKind::ReactiveSequence | NodeKind::Fallback | NodeKind::ReactiveFallback => {
            let stop = match node.kind {
                NodeKind::Sequence | NodeKind::ReactiveSequence => Status::Failure,
                _ => Status::Success,
            };
            let mut status = if stop == Status::Failure { Status::Success } else { Status::Failure };
            for i in 0..node.children.len() {
                if child(i, changed)? == stop {
                    status = stop;
                    break;
                }
            }
            status
        }
        _ => return None,
    };
    if nodes[id as usize].last != Last::of(status) {
        *changed = true;
    }
    Some(status)
}

trait MinWith {
    /// `self`, unless `child` is still running.
    fn min_with(self, child: Status) -> Status;
}

impl MinWith for Status {
    fn min_with(self, child: Status) -> Status {
        if child == Status::Running { Status::Running } else { self }
    }
}
