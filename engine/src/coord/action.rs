//! Actions and the per-entity queue.

use std::collections::VecDeque;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::world::Command;

/// One thing an entity does. Instant actions (say, sound, trigger, signal, effect) finish on the
/// tick they start; the others run over several ticks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Action {
    /// Walk to a point, in a straight line, at the entity's speed.
    MoveTo {
        /// Where to (map units).
        target: Vec2,
    },
    /// Walk through the points in order.
    FollowPath {
        /// The points (map units).
        points: Vec<Vec2>,
        /// The index of the next point to reach.
        next: usize,
    },
    /// Say a line.
    Say {
        /// The line.
        text: String,
    },
    /// Play a sound.
    PlaySound {
        /// The sound's name.
        name: String,
    },
    /// Fire a trigger.
    Trigger {
        /// The trigger's name.
        name: String,
    },
    /// Do nothing for a number of ticks.
    Sleep {
        /// Ticks left.
        ticks: u32,
    },
    /// Send a signal in a scope.
    Signal {
        /// The scope (group or sequence instance).
        scope: String,
        /// The signal id.
        id: String,
    },
    /// Wait until a signal has been sent in a scope (at once if it already was).
    Wait {
        /// The scope.
        scope: String,
        /// The signal id.
        id: String,
        /// Whether the wait has been logged as begun.
        logged: bool,
    },
    /// A change to the world a sequence makes at its place (`OpenDoor`, `SetGlobal`, a steering
    /// order, a note …): carried out when the queue reaches it, so it comes after everything the
    /// sequence queued before it and before what it queued after. Scripts never name it; a
    /// sequence's host calls become one (see `CommandBuffer::keep_in_queue`). A saved queue
    /// writes it as the command's text and cannot read it back.
    #[serde(skip_deserializing)]
    Effect {
        /// The change.
        #[serde(serialize_with = "command_text")]
        command: Box<Command>,
    },
}

/// Writes an effect's command as its text (commands carry shared queries and trees, which have
/// no saved form).
fn command_text<S: serde::Serializer>(command: &Command, out: S) -> Result<S::Ok, S::Error> {
    out.serialize_str(&format!("{command:?}"))
}

impl Action {
    /// The action's name as scripts and the trace spell it.
    pub fn name(&self) -> &'static str {
        match self {
            Action::MoveTo { .. } => "move_to",
            Action::FollowPath { .. } => "follow_path",
            Action::Say { .. } => "say",
            Action::PlaySound { .. } => "play_sound",
            Action::Trigger { .. } => "trigger",
            Action::Sleep { .. } => "sleep",
            Action::Signal { .. } => "signal",
            Action::Wait { .. } => "wait",
            Action::Effect { .. } => "effect",
        }
    }

    /// Whether the action finishes on the tick it starts.
    /// Every variant is named here, so a new action must say which it is: an instant one runs
    /// ahead of a move in progress and must leave it (and its plan) as it was.
    pub fn is_instant(&self) -> bool {
        match self {
            Action::Say { .. }
            | Action::PlaySound { .. }
            | Action::Trigger { .. }
            | Action::Signal { .. }
            | Action::Effect { .. } => true,
            Action::MoveTo { .. } | Action::FollowPath { .. } | Action::Sleep { .. } | Action::Wait { .. } => false,
        }
    }
}

/// What an entity is doing (the front) and will do next.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ActionQueue {
    items: VecDeque<Action>,
    /// Whether the front action has started (its start has been logged).
    pub(crate) started: bool,
    /// Whether the action behind instants pushed to the front had already started.
    #[serde(default)]
    resume_started: bool,
}

impl ActionQueue {
    /// Appends an action.
    pub fn push(&mut self, action: Action) {
        self.items.push_back(action);
    }

    /// Replaces what the entity is doing with `action` — unless `action` is what is running
    /// already, in which case it goes on undisturbed. Behaviour scripts that ask for the same thing
    /// every think tick (DoFlee every tick) thereby continue it instead of restarting it.
    ///
    /// Instants waiting at the front ([`ActionQueue::push_front`]: a `Say` issued earlier in the
    /// same script call) are kept: they were said "now", before the request, and a request
    /// replaces what the entity does, not what it was just told to say.
    pub fn request(&mut self, action: Action) {
        let pending = self.items.iter().take_while(|a| a.is_instant()).count();
        if self.items.get(pending).is_some_and(|a| same_request(a, &action)) {
            self.items.truncate(pending + 1);
            return;
        }
        if pending == 0 {
            self.clear();
        } else {
            // The running action behind the instants is dropped, so nothing resumes after them.
            self.items.truncate(pending);
            self.resume_started = false;
        }
        self.push(action);
    }

    /// Puts an instant action in front of the running one. The running action is not restarted
    /// when the instant one finishes (its start is not logged again).
    /// Several instants pushed this way keep the order they were pushed in.
    pub fn push_front(&mut self, action: Action) {
        let at = self.items.iter().position(|a| !a.is_instant()).unwrap_or(self.items.len());
        if at == 0 {
            self.resume_started = self.started || self.resume_started;
            self.started = false;
        }
        self.items.insert(at, action);
    }

    /// Drops every action.
    pub fn clear(&mut self) {
        self.items.clear();
        self.started = false;
        self.resume_started = false;
    }

    /// The running action.
    pub fn front(&self) -> Option<&Action> {
        self.items.front()
    }

    /// The running action, mutably.
    pub fn front_mut(&mut self) -> Option<&mut Action> {
        self.items.front_mut()
    }

    /// Finishes the running action; the next one starts.
    pub fn pop(&mut self) -> Option<Action> {
        let popped = self.items.pop_front();
        let resumes = popped.as_ref().is_some_and(Action::is_instant)
            && !self.items.front().is_some_and(Action::is_instant)
            && self.resume_started;
        self.started = resumes;
        if !self.items.front().is_some_and(Action::is_instant) {
            self.resume_started = false;
        }
        popped
    }

    /// Whether there is nothing to do.
    pub fn is_idle(&self) -> bool {
        self.items.is_empty()
    }

    /// How many actions are queued, the running one included.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the queue is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The queued actions, front first.
    pub fn iter(&self) -> impl Iterator<Item = &Action> {
        self.items.iter()
    }
}

/// Whether a newly requested action asks for what `running` already does (progress fields such
/// as a path's next index and a wait's logged flag do not count).
fn same_request(running: &Action, requested: &Action) -> bool {
    match (running, requested) {
        (Action::FollowPath { points: a, .. }, Action::FollowPath { points: b, .. }) => a == b,
        (Action::Wait { scope: s1, id: i1, .. }, Action::Wait { scope: s2, id: i2, .. }) => s1 == s2 && i1 == i2,
        (Action::Sleep { .. }, Action::Sleep { .. }) => true,
        _ => running == requested,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requesting_the_running_action_continues_it() {
        let mut q = ActionQueue::default();
        q.push(Action::FollowPath { points: vec![Vec2::ONE, Vec2::X], next: 1 });
        q.push(Action::Say { text: "after".into() });
        q.started = true;
        q.request(Action::FollowPath { points: vec![Vec2::ONE, Vec2::X], next: 0 });
        assert_eq!(q.len(), 1);
        assert!(q.started, "still running, not restarted");
        assert_eq!(q.front(), Some(&Action::FollowPath { points: vec![Vec2::ONE, Vec2::X], next: 1 }));
        q.request(Action::Say { text: "other".into() });
        assert!(!q.started);
        assert_eq!(q.front().map(Action::name), Some("say"));
    }

    #[test]
    fn an_instant_pushed_in_front_does_not_restart_the_running_action() {
        let mut q = ActionQueue::default();
        q.push(Action::Sleep { ticks: 5 });
        q.started = true;
        q.push_front(Action::PlaySound { name: "s".into() });
        q.push_front(Action::Say { text: "hi".into() });
        assert!(!q.started);
        assert_eq!(q.pop().map(|a| a.name()), Some("play_sound"), "instants keep their order");
        assert!(!q.started, "another instant is next");
        assert_eq!(q.pop().map(|a| a.name()), Some("say"));
        assert!(q.started, "the sleep resumes, its start already logged");
        assert_eq!(q.pop().map(|a| a.name()), Some("sleep"));
        assert!(!q.started);
    }

    #[test]
    fn a_request_keeps_the_instants_said_before_it() {
        // Say("Eek!") then DoFlee() in one call: Perform, then Request, applied in that order.
        let mut q = ActionQueue::default();
        q.push(Action::Sleep { ticks: 5 });
        q.started = true;
        q.push_front(Action::Say { text: "Eek!".into() });
        q.request(Action::MoveTo { target: Vec2::X });
        let names: Vec<&str> = q.iter().map(Action::name).collect();
        assert_eq!(names, ["say", "move_to"], "the line survives, the sleep is replaced");
        assert_eq!(q.pop().map(|a| a.name()), Some("say"));
        assert!(!q.started, "the move is new: its start is logged");

        // The same with the running action requested again: it continues behind the line.
        let mut q = ActionQueue::default();
        q.push(Action::MoveTo { target: Vec2::X });
        q.push(Action::Sleep { ticks: 1 });
        q.started = true;
        q.push_front(Action::Say { text: "Eek!".into() });
        q.request(Action::MoveTo { target: Vec2::X });
        let names: Vec<&str> = q.iter().map(Action::name).collect();
        assert_eq!(names, ["say", "move_to"]);
        assert_eq!(q.pop().map(|a| a.name()), Some("say"));
        assert!(q.started, "the running move goes on, not restarted");
    }

    #[test]
    fn names_and_instants() {
        assert!(Action::Say { text: String::new() }.is_instant());
        assert!(!Action::Sleep { ticks: 1 }.is_instant());
        assert_eq!(Action::MoveTo { target: Vec2::ZERO }.name(), "move_to");
    }
}
