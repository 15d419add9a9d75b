//! Commands: the only way scripts change the world.

use super::entity::EntityId;
use super::events::EventKind;
use crate::coord::Action;
use crate::steer::SteerOrder;
use crate::value::Value;

/// A change a script asks for. Scripts read a view of the world and push commands; the engine
/// applies them after every script has run, in a fixed order (see [`CommandBuffer::sorted`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Command {
    /// Forget every signal of a scope (a sequence starting).
    ClearSignals {
        /// The scope.
        scope: String,
    },
    /// Set a world global.
    SetGlobal {
        /// The global.
        key: String,
        /// Its new value.
        value: Value,
    },
    /// Set an entity's attribute.
    SetAttribute {
        /// The entity.
        entity: EntityId,
        /// The attribute.
        key: String,
        /// Its new value.
        value: Value,
    },
    /// Set a value on an entity's blackboard.
    SetBlackboard {
        /// The entity.
        entity: EntityId,
        /// The key.
        key: String,
        /// Its new value.
        value: Value,
    },
    /// Drop everything an entity was going to do.
    ClearActions {
        /// The entity.
        entity: EntityId,
    },
    /// Do this now instead of whatever else — but go on undisturbed if it is already running.
    Request {
        /// The entity.
        entity: EntityId,
        /// The action.
        action: Action,
    },
    /// Do this instant action (say, sound, trigger, signal) now, ahead of whatever runs; the
    /// running action goes on after it.
    Perform {
        /// The entity.
        entity: EntityId,
        /// The action.
        action: Action,
    },
    /// Do this after everything already queued.
    Enqueue {
        /// The entity.
        entity: EntityId,
        /// The action.
        action: Action,
    },
    /// Record an event directly: what world-level scripts (traps, ambience) fire, which no
    /// entity's queue carries, and what decision models report (state changes, notes).
    Emit {
        /// The entity it concerns, if any.
        entity: Option<EntityId>,
        /// The event.
        event: EventKind,
    },
    /// Change an entity's steering (chase, evade, intercept, join a flock, form up, run a pattern,
    /// stop).
    Steer {
        /// The entity.
        entity: EntityId,
        /// The order.
        order: SteerOrder,
    },
    /// Opens a cell or blocks it (`SetBlocked`).
    SetBlocked {
        /// The cell.
        cell: glam::IVec2,
        /// Whether it becomes blocked.
        blocked: bool,
    },
    /// Queue a position query that did not fit in the tick's budget, under the handle the script
    /// was given (`FindPosition`).
    SubmitPosition {
        /// The handle.
        ticket: u64,
        /// The query.
        query: std::sync::Arc<crate::tactics::query::Query>,
        /// Who asks, and the objects.
        request: Box<crate::tactics::query::QueryRequest>,
        /// Whether the answer is reserved for the asker.
        reserve: bool,
    },
    /// An agent takes a point (`FindPosition` with `reserve = true`).
    ReservePosition {
        /// The agent.
        entity: EntityId,
        /// The point.
        point: crate::tactics::query::Candidate,
    },
    /// An agent gives up its point (`ReleasePosition`).
    ReleasePosition {
        /// The agent.
        entity: EntityId,
    },
    /// Adds a round's tallies to one individual of a genetic model's population (`GeneticScore`).
    GeneticScore {
        /// The model.
        model: String,
        /// The individual.
        slot: usize,
        /// Damage it dealt.
        done: f64,
        /// Damage it took.
        received: f64,
    },
    /// Records how a tactic went in a context for an adaptive model (`AdaptiveRecord`).
    AdaptiveRecord {
        /// The model.
        model: String,
        /// The context.
        context: String,
        /// The tactic's index.
        tactic: usize,
        /// Its success, 0–1.
        success: f64,
    },
    /// Breeds a genetic model's next generation (`GeneticEvolve`).
    GeneticEvolve {
        /// The model.
        model: String,
    },
    /// Registers a behaviour tree a script built (`BuildTree`) under a model name.
    DefineTree {
        /// The model name.
        name: String,
        /// The tree.
        def: std::sync::Arc<crate::decide::bt::TreeDef>,
    },
    /// Runs the named tree model on a character (`RunTree`): a tree it runs already is halted
    /// cleanly at its next tick and the new one starts.
    RunTree {
        /// The character.
        entity: EntityId,
        /// The tree's model name.
        model: String,
    },
    /// Stops a character's tree (`StopTree`): what runs is halted cleanly at its next tick.
    StopTree {
        /// The character.
        entity: EntityId,
    },
    /// Opens or closes a named door (`OpenDoor`, `CloseDoor`).
    SetDoor {
        /// The door.
        name: String,
        /// Whether it becomes open.
        open: bool,
    },
}

impl Command {
    /// The stage of the fixed apply order this command belongs to: signals, then globals, then
    /// entity state, then action queues. Within a stage, commands keep the order they were issued
    /// in — which is the order scripts ran in, entity key order.
    fn stage(&self) -> u8 {
        match self {
            Command::ClearSignals { .. } => 0,
            Command::SetGlobal { .. } | Command::DefineTree { .. } => 1,
            Command::SetAttribute { .. } | Command::SetBlackboard { .. } => 2,
            Command::ClearActions { .. }
            | Command::Request { .. }
            | Command::Perform { .. }
            | Command::Enqueue { .. }
            | Command::Emit { .. }
            | Command::Steer { .. }
            | Command::GeneticScore { .. }
            | Command::SubmitPosition { .. }
            | Command::ReservePosition { .. }
            | Command::ReleasePosition { .. }
            | Command::GeneticEvolve { .. }
            | Command::AdaptiveRecord { .. }
            | Command::RunTree { .. }
            | Command::StopTree { .. } => 3,
            // The map changes before the actions phase, so this tick's moves plan on it.
            Command::SetBlocked { .. } | Command::SetDoor { .. } => 1,
        }
    }
}

/// Whether `command` adds an action to `entity`'s own queue (what a sequence issues in order).
fn is_own_action(command: &Command, entity: EntityId) -> bool {
    matches!(command, Command::Enqueue { entity: e, .. } if *e == entity)
}

/// How many actions scripts may leave waiting in one character's queue. A character does at most
/// `MAX_ACTIONS_PER_TICK` instant actions a tick, so a script that queues more
/// every call (a `Say` or `Signal` in a loop) would grow the queue, and the memory, for the whole
/// game. Scripts meet it as an error from the action that would pass it; the world drops
/// whatever still reaches it in one tick (several scripts of one character) with a note.
pub const MAX_QUEUED_ACTIONS: usize = 1_024;

/// How many bytes of text and values the actions scripts leave waiting in one character's queue
/// may weigh (as [`Command::weight`] weighs them: 16 bytes an action plus what it prints as). The
/// count cap alone let a sequence park a thousand one-megabyte lines behind a long walk; past
/// this, the action that would pass it is an error the script sees.
pub const MAX_QUEUED_BYTES: usize = 1 << 20;

/// What the actions waiting in `queue` weigh (see [`MAX_QUEUED_BYTES`]).
pub fn queue_weight(queue: &crate::coord::ActionQueue) -> usize {
    use std::fmt::Write as _;
    queue
        .iter()
        .map(|action| {
            let mut n = ByteCount(16);
            let _ = write!(n, "{action:?}");
            n.0
        })
        .sum()
}

/// How many globals the world holds before scripts may add no more: a script that makes up a new
/// global every call (`SetGlobal("seen" .. n, true)`) would grow the world for the whole game.
/// Setting one that exists is always allowed; a new one past this is an error the script sees.
pub const MAX_GLOBALS: usize = 4_096;

/// The commands scripts issued during one tick.
#[derive(Debug, Clone, Default)]
pub struct CommandBuffer {
    commands: Vec<Command>,
    /// What the running call may still hand over, in bytes ([`CommandBuffer::allow`]).
    allowance: Option<usize>,
    /// Bytes the running call has handed over.
    spent: usize,
    /// Why the running call's last command was refused, until taken.
    refused: Option<String>,
    /// Actions the running call added to its character's queue.
    queued: usize,
    /// What the character's queue weighed when the running call first queued an action, and what
    /// the call's own queued actions weigh.
    queued_bytes: (Option<usize>, usize),
}

/// Counts the bytes a value would print as, without printing it.
struct ByteCount(usize);

impl std::fmt::Write for ByteCount {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0 += s.len();
        Ok(())
    }
}

impl Command {
    /// What this command carries into the world, in bytes: 16 for the command itself plus its
    /// text and values as they would print (a `Note` of a megabyte string weighs a megabyte).
    pub fn weight(&self) -> usize {
        use std::fmt::Write as _;
        let mut n = ByteCount(16);
        let _ = match self {
            // The query is the scenario's, shared; only the request is the script's.
            Command::SubmitPosition { request, .. } => write!(n, "{request:?}"),
            other => write!(n, "{other:?}"),
        };
        n.0
    }
}

impl CommandBuffer {
    /// Issues a command — unless the running call's allowance ([`CommandBuffer::allow`]) is
    /// spent, in which case the command is dropped and [`CommandBuffer::take_refusal`] says why.
    pub fn push(&mut self, command: Command) {
        if let Some(allowance) = self.allowance {
            let weight = command.weight();
            if self.spent + weight > allowance {
                self.refused.get_or_insert_with(|| {
                    format!(
                        "this call handed the world more than {allowance} bytes (notes, says, globals, \
                         attributes, events and actions; each command weighs 16 bytes plus its text)"
                    )
                });
                return;
            }
            self.spent += weight;
        }
        self.commands.push(command);
    }

    /// Starts a script call that may hand over at most `bytes` (`None`: no limit); returns
    /// nothing, and [`CommandBuffer::spent`] then counts from zero.
    pub fn allow(&mut self, bytes: Option<usize>) {
        self.allowance = bytes;
        self.spent = 0;
        self.refused = None;
        self.queued = 0;
        self.queued_bytes = (None, 0);
    }

    /// Issues a command that adds an action to a queue holding `queue_len` already — refused, as
    /// a command over the allowance is, when that and what this call queued reach
    /// [`MAX_QUEUED_ACTIONS`].
    pub fn push_queued(&mut self, queue_len: usize, command: Command) {
        self.push_queued_weighed(queue_len, || 0, command);
    }

    /// [`CommandBuffer::push_queued`] for a queue whose actions weigh `queue_bytes()` (asked once
    /// per call): also refused when that, what this call queued and `command` pass
    /// [`MAX_QUEUED_BYTES`].
    pub fn push_queued_weighed(&mut self, queue_len: usize, queue_bytes: impl FnOnce() -> usize, command: Command) {
        let base = *self.queued_bytes.0.get_or_insert_with(queue_bytes);
        let weight = command.weight();
        if base + self.queued_bytes.1 + weight > MAX_QUEUED_BYTES {
            self.refused.get_or_insert_with(|| {
                format!(
                    "the character's action queue holds {} bytes of actions already (at most {MAX_QUEUED_BYTES}: \
                     16 bytes an action plus its text and values); let them run out, or `CancelPath()` to drop them",
                    base + self.queued_bytes.1
                )
            });
            return;
        }
        if queue_len + self.queued >= MAX_QUEUED_ACTIONS {
            self.refused.get_or_insert_with(|| {
                format!(
                    "the character's action queue holds {MAX_QUEUED_ACTIONS} actions already (a character does at \
                     most {} instant actions a tick); let them run out, or `CancelPath()` to drop them",
                    super::tick::MAX_ACTIONS_PER_TICK
                )
            });
            return;
        }
        self.queued += 1;
        self.queued_bytes.1 += weight;
        self.push(command);
    }

    /// Keeps a sequence's calls in their order: every command issued since the buffer had `mark`
    /// of them that changes the world directly (a door, a global, a steering order, a note …)
    /// becomes an [`Action::Effect`] queued for `entity` — once `entity` has something queued
    /// before it (`pending`: its queue, of `queue_len` actions, is not idle or the call queued
    /// already; or an action queued earlier in these commands). Effects count against the
    /// queue's cap as any queued action does. Returns whether `entity` now has something queued.
    pub fn keep_in_queue(&mut self, mark: usize, entity: EntityId, mut pending: bool, queue_len: usize) -> bool {
        let from = mark.min(self.commands.len());
        if self.commands[from..].iter().all(|c| is_own_action(c, entity)) {
            return pending || from < self.commands.len();
        }
        let tail = self.commands.split_off(from);
        for command in tail {
            if is_own_action(&command, entity) {
                pending = true;
                self.commands.push(command);
            } else if !pending {
                self.commands.push(command);
            } else if queue_len + self.queued >= MAX_QUEUED_ACTIONS {
                self.refused.get_or_insert_with(|| {
                    format!(
                        "the character's action queue holds {MAX_QUEUED_ACTIONS} actions already (a sequence's \
                         changes to the world wait in it, in their place); let them run out, or `CancelPath()` to \
                         drop them"
                    )
                });
            } else {
                self.queued += 1;
                let action = Action::Effect { command: Box::new(command) };
                self.commands.push(Command::Enqueue { entity, action });
            }
        }
        pending
    }

    /// Bytes handed over since the last [`CommandBuffer::allow`].
    pub fn spent(&self) -> usize {
        self.spent
    }

    /// Why a command of the running call was refused, once.
    pub fn take_refusal(&mut self) -> Option<String> {
        self.refused.take()
    }

    /// How many commands were issued.
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    /// Whether no command was issued.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Drops the commands issued since the buffer had `len` of them (a script that failed
    /// half-way has its partial output discarded).
    pub fn truncate(&mut self, len: usize) {
        self.commands.truncate(len);
    }

    /// The commands in apply order (stable sort by stage).
    pub fn sorted(mut self) -> Vec<Command> {
        self.commands.sort_by_key(Command::stage);
        self.commands
    }

    /// The commands as issued, taken out (a worker's buffer, merged into the tick's).
    pub fn into_vec(self) -> Vec<Command> {
        self.commands
    }

    /// Appends commands already issued and weighed elsewhere (the workers', in merge order). An
    /// empty buffer takes the list as it is: a tick's commands are moved, not copied.
    pub fn extend_issued(&mut self, commands: Vec<Command>) {
        if self.commands.is_empty() {
            self.commands = commands;
        } else {
            self.commands.extend(commands);
        }
    }

    /// The commands issued while the buffer grew from `from` to `to` commands, to amend.
    pub fn range_mut(&mut self, from: usize, to: usize) -> &mut [Command] {
        let to = to.min(self.commands.len());
        &mut self.commands[from.min(to)..to]
    }

    /// The commands as issued.
    pub fn as_slice(&self) -> &[Command] {
        &self.commands
    }

    /// Puts `commands` before the ones issued since the buffer had `len` of them: a behaviour
    /// tree's halts, which must take effect before what its tick started.
    pub fn insert_at(&mut self, len: usize, commands: impl IntoIterator<Item = Command>) {
        let at = len.min(self.commands.len());
        self.commands.splice(at..at, commands);
    }

    /// The commands issued since the buffer had `len` of them, to amend (a host naming the
    /// script a tree was built by).
    pub fn since_mut(&mut self, len: usize) -> &mut [Command] {
        let from = len.min(self.commands.len());
        &mut self.commands[from..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_over_its_allowance_has_its_command_dropped_and_told_why() {
        let e = EntityId::default();
        let note = |n: usize| Command::Emit {
            entity: Some(e),
            event: crate::world::EventKind::Note { name: "n".into(), value: Value::Str("x".repeat(n)) },
        };
        assert!(note(1000).weight() > 1000 && note(1000).weight() < 1100);
        let mut b = CommandBuffer::default();
        b.allow(Some(2500));
        b.push(note(1000));
        b.push(note(1000));
        assert!(b.take_refusal().is_none());
        b.push(note(1000)); // over: dropped
        assert_eq!(b.len(), 2);
        assert!(b.take_refusal().unwrap().contains("more than 2500 bytes"));
        assert!(b.take_refusal().is_none(), "told once");
        b.allow(None);
        b.push(note(100_000));
        assert_eq!(b.len(), 3);
    }

    #[test]
    fn a_call_cannot_queue_past_the_queues_cap() {
        let e = EntityId::default();
        let sleep = || Command::Enqueue { entity: e, action: Action::Sleep { ticks: 1 } };
        let mut b = CommandBuffer::default();
        b.allow(None);
        // A queue of 1,020 has room for 4 more, counting what this call queued.
        for _ in 0..5 {
            b.push_queued(MAX_QUEUED_ACTIONS - 4, sleep());
        }
        assert_eq!(b.len(), 4);
        assert!(b.take_refusal().unwrap().contains("action queue holds 1024 actions already"));
        // The next call counts afresh.
        b.allow(None);
        b.push_queued(MAX_QUEUED_ACTIONS - 1, sleep());
        assert_eq!((b.len(), b.take_refusal()), (5, None));
    }

    #[test]
    fn a_sequences_changes_wait_in_its_queue_behind_what_it_queued() {
        let e = EntityId::default();
        let door = |open| Command::SetDoor { name: "back".into(), open };
        let wait = || Command::Enqueue {
            entity: e,
            action: Action::Wait { scope: "s".into(), id: "go".into(), logged: false },
        };
        let mut b = CommandBuffer::default();
        b.allow(None);
        // Nothing queued before: the door opens now.
        assert!(!b.keep_in_queue(0, e, false, 0));
        b.push(door(true));
        assert!(!b.keep_in_queue(0, e, false, 0));
        assert_eq!(b.as_slice(), [door(true)]);
        // A wait, then the door in the same call: the door waits behind it.
        let mark = b.len();
        b.push(wait());
        b.push(door(false));
        assert!(b.keep_in_queue(mark, e, false, 0));
        assert_eq!(b.as_slice()[1], wait());
        assert_eq!(
            b.as_slice()[2],
            Command::Enqueue { entity: e, action: Action::Effect { command: Box::new(door(false)) } }
        );
        // A queue that is not idle holds the change too, and the cap counts it.
        let mark = b.len();
        b.push(door(true));
        assert!(b.keep_in_queue(mark, e, true, MAX_QUEUED_ACTIONS - 1));
        assert_eq!(b.len(), 3, "over the cap: dropped");
        assert!(b.take_refusal().unwrap().contains("1024 actions already"));
    }

    #[test]
    fn apply_order_is_by_stage_then_issue_order() {
        let e = EntityId::default();
        let mut b = CommandBuffer::default();
        b.push(Command::Enqueue { entity: e, action: Action::Sleep { ticks: 1 } });
        b.push(Command::SetGlobal { key: "a".into(), value: Value::Int(1) });
        b.push(Command::SetAttribute { entity: e, key: "x".into(), value: Value::Int(1) });
        b.push(Command::SetGlobal { key: "b".into(), value: Value::Int(2) });
        b.push(Command::ClearSignals { scope: "s".into() });
        let keys: Vec<u8> = b.clone().sorted().iter().map(Command::stage).collect();
        assert_eq!(keys, [0, 1, 1, 2, 3]);
        let sorted = b.sorted();
        assert!(matches!(&sorted[1], Command::SetGlobal { key, .. } if key == "a"));
        assert!(matches!(&sorted[2], Command::SetGlobal { key, .. } if key == "b"));
    }
}
