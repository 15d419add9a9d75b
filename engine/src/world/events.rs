//! The event log: everything that happened, in order. It becomes the trace.

use serde::Serialize;

use crate::value::Value;

/// One thing that happened on one tick. Serialised as one JSON object: `tick`, then `entity` where
/// there is one, then `kind` and the kind's own fields (see `docs/trace.md`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Event {
    /// The tick it happened on.
    pub tick: u64,
    /// The scenario name of the entity it concerns, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    /// What happened.
    #[serde(flatten)]
    pub kind: EventKind,
}

/// What happened. Every variant is one `kind` of trace line; `docs/trace.md` lists their fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum EventKind {
    /// An entity came into the world.
    Spawn {
        /// Its kind.
        of: String,
        /// Its team.
        team: String,
        /// The cell it stands in.
        cell: [i32; 2],
    },
    /// An entity left the world.
    Despawn,
    /// An entity stepped from one cell into another.
    Move {
        /// The cell it left.
        from: [i32; 2],
        /// The cell it entered.
        to: [i32; 2],
    },
    /// An entity reached the target of a move.
    Arrive {
        /// The cell it arrived in.
        cell: [i32; 2],
    },
    /// A move could not go on: the way is blocked or there is no way.
    Blocked {
        /// The cell it stopped in.
        cell: [i32; 2],
        /// Why.
        reason: String,
    },
    /// A move's path was found: the search's start and goal cells and the grid path's cost
    /// (straight steps 1, diagonal √2, times the cells' terrain costs). The walk follows it smoothed.
    Path {
        /// The cell the search started from.
        from: [i32; 2],
        /// The cell it leads to.
        to: [i32; 2],
        /// The grid path's cost.
        cost: f64,
    },
    /// A cell of the map was opened or blocked while the world ran.
    Cell {
        /// The cell.
        cell: [i32; 2],
        /// Whether it is now blocked.
        blocked: bool,
    },
    /// A door opened or closed.
    Door {
        /// The door's name.
        name: String,
        /// Whether it is now open.
        open: bool,
    },
    /// An entity said a line.
    Say {
        /// The line.
        text: String,
    },
    /// A trigger fired (a trap, an exposition, a door).
    Trigger {
        /// The trigger's name.
        name: String,
    },
    /// A sound was played.
    Sound {
        /// The sound's name.
        name: String,
    },
    /// A signal was sent.
    Signal {
        /// The scope (group or sequence instance) it was sent in.
        scope: String,
        /// The signal id.
        id: String,
    },
    /// An entity began waiting for a signal that had not been sent yet.
    Wait {
        /// The scope.
        scope: String,
        /// The signal id.
        id: String,
    },
    /// A wait was released by its signal.
    Release {
        /// The scope.
        scope: String,
        /// The signal id.
        id: String,
    },
    /// An entity entered a region.
    Enter {
        /// The region's name.
        region: String,
    },
    /// An entity left a region.
    Exit {
        /// The region's name.
        region: String,
    },
    /// An attribute changed.
    Attribute {
        /// The attribute.
        key: String,
        /// Its new value.
        value: Value,
    },
    /// A world global changed.
    Global {
        /// The global.
        key: String,
        /// Its new value.
        value: Value,
    },
    /// A state machine changed state.
    State {
        /// The machine's name.
        machine: String,
        /// The state it left.
        from: String,
        /// The state it entered.
        to: String,
    },
    /// An action started (moves, patterns, flee, attack …; instant actions log their own kind).
    Action {
        /// The action's name.
        action: String,
        /// A short description of its arguments.
        detail: String,
    },
    /// A script failed at run time and was stopped for this tick.
    ScriptError {
        /// The script file.
        file: String,
        /// 1-based line, 0 when unknown.
        line: u32,
        /// 1-based column, 0 when unknown.
        column: u32,
        /// What went wrong.
        message: String,
    },
    /// A run of `script_error`s ended: after the first (recorded in full) the script failed the
    /// same way `count` more times, on every call from tick `first` to tick `last`; those were
    /// counted, not recorded. Recorded when its next call did not fail that way, or when the game
    /// stopped.
    ScriptErrorRepeated {
        /// The script file.
        file: String,
        /// 1-based line, 0 when unknown.
        line: u32,
        /// 1-based column, 0 when unknown.
        column: u32,
        /// What went wrong.
        message: String,
        /// How many times it failed the same way after the first.
        count: u64,
        /// The tick of the first error (the one recorded).
        first: u64,
        /// The tick of the last repeat.
        last: u64,
    },
    /// The wall-clock watchdog stopped a script call (beside its `script_error`): the call ran
    /// longer than the limit on this machine, so this trace may differ from another run's.
    Watchdog {
        /// The script file.
        file: String,
        /// The limit, in milliseconds.
        limit_ms: u32,
    },
    /// A script file was reloaded while running.
    Reload {
        /// The script file.
        file: String,
        /// The entities that use it.
        entities: Vec<String>,
        /// Whether the new code was taken.
        ok: bool,
        /// The diagnostics when it was not.
        message: String,
    },
    /// Anything else a script or model reports, with a name and a value.
    Note {
        /// What it is.
        name: String,
        /// Its data.
        value: Value,
    },
    /// A script's debug line: `print` in Lua and Rhai, `Print` in `.tac`. Scripts are held to a
    /// few such lines a tick, each cut to a bounded length (`tactica_stdlib::ScriptCtx::print`).
    Print {
        /// The script file's name.
        file: String,
        /// 1-based line of the call; 0 when unknown.
        line: u32,
        /// What was printed.
        text: String,
    },
    /// A behaviour-tree node's status changed: it started running, succeeded, failed, or was
    /// halted while it ran (`decide::bt`). Only changes are recorded, never a status repeated.
    Node {
        /// The tree (its name in the tree file).
        tree: String,
        /// The node's number: depth first from the root's 0, subtrees counted where they are called.
        node: u32,
        /// The node as written, shortened (`move_to(post_a)`, `guard noise`, `sequence`).
        name: String,
        /// `running`, `success`, `failure` or `halted`.
        status: &'static str,
    },
}

impl EventKind {
    /// Every kind as the trace names it, with when it happens (`docs/trace.md` has the table).
    pub const KINDS: &[(&str, &str)] = &[
        ("spawn", "an entity comes into the world"),
        ("despawn", "an entity leaves the world"),
        ("move", "an entity's cell changes"),
        ("arrive", "a `move_to` or `follow_path` reaches its end"),
        ("blocked", "a move cannot go on: its goal is walled off, blocked or off the map"),
        ("path", "a move's path was found"),
        ("cell", "a script or the game blocked or opened a cell"),
        ("door", "a door opened or closed"),
        ("say", "a line is said"),
        ("trigger", "a trigger fires (traps, expositions, doors)"),
        ("sound", "a sound is played"),
        ("signal", "a signal is sent in a scope"),
        ("wait", "an entity starts waiting for a signal not yet sent"),
        ("release", "a wait ends because its signal was sent"),
        ("enter", "an entity steps into a region"),
        ("exit", "an entity steps out of a region"),
        ("attribute", "an attribute changes"),
        ("global", "a world global changes"),
        ("state", "a state machine changes state"),
        ("action", "a long action starts"),
        ("script_error", "a script failed at run time and was stopped for that tick"),
        (
            "script_error_repeated",
            "a script failed the same way again and again: the count, once the run of repeats ended",
        ),
        ("watchdog", "the wall-clock watchdog stopped a script call"),
        ("reload", "a script file was reloaded while running"),
        ("note", "anything else a script or model reports"),
        ("print", "a script's debug line"),
        ("node", "a behaviour-tree node starts running, succeeds, fails or is halted"),
    ];

    /// The kind as the trace names it (`"say"`, `"script_error"` …), one of [`EventKind::KINDS`].
    pub fn name(&self) -> &'static str {
        match self {
            EventKind::Spawn { .. } => "spawn",
            EventKind::Despawn => "despawn",
            EventKind::Move { .. } => "move",
            EventKind::Arrive { .. } => "arrive",
            EventKind::Blocked { .. } => "blocked",
            EventKind::Path { .. } => "path",
            EventKind::Cell { .. } => "cell",
            EventKind::Door { .. } => "door",
            EventKind::Say { .. } => "say",
            EventKind::Trigger { .. } => "trigger",
            EventKind::Sound { .. } => "sound",
            EventKind::Signal { .. } => "signal",
            EventKind::Wait { .. } => "wait",
            EventKind::Release { .. } => "release",
            EventKind::Enter { .. } => "enter",
            EventKind::Exit { .. } => "exit",
            EventKind::Attribute { .. } => "attribute",
            EventKind::Global { .. } => "global",
            EventKind::State { .. } => "state",
            EventKind::Action { .. } => "action",
            EventKind::ScriptError { .. } => "script_error",
            EventKind::ScriptErrorRepeated { .. } => "script_error_repeated",
            EventKind::Watchdog { .. } => "watchdog",
            EventKind::Reload { .. } => "reload",
            EventKind::Note { .. } => "note",
            EventKind::Print { .. } => "print",
            EventKind::Node { .. } => "node",
        }
    }

    /// The event's own word, which a test's `say "…"` or `enter "…"` names: the line said or
    /// printed, the name of a trigger, sound, door or note, a signal's id, a region, the state a
    /// machine entered, the action started, the key of an attribute or global, why a move was
    /// blocked, the message of a script error, a file reloaded, a tree's node as written. Kinds
    /// without one (spawn, move, arrive …) have none.
    pub fn text(&self) -> Option<&str> {
        Some(match self {
            EventKind::Say { text } | EventKind::Print { text, .. } => text,
            EventKind::Trigger { name } | EventKind::Sound { name } | EventKind::Door { name, .. } => name,
            EventKind::Note { name, .. } => name,
            EventKind::Signal { id, .. } | EventKind::Wait { id, .. } | EventKind::Release { id, .. } => id,
            EventKind::Enter { region } | EventKind::Exit { region } => region,
            EventKind::State { to, .. } => to,
            EventKind::Action { action, .. } => action,
            EventKind::Attribute { key, .. } | EventKind::Global { key, .. } => key,
            EventKind::Blocked { reason, .. } => reason,
            EventKind::ScriptError { message, .. } | EventKind::ScriptErrorRepeated { message, .. } => message,
            EventKind::Reload { file, .. } | EventKind::Watchdog { file, .. } => file,
            EventKind::Node { name, .. } => name,
            EventKind::Spawn { .. }
            | EventKind::Despawn
            | EventKind::Move { .. }
            | EventKind::Arrive { .. }
            | EventKind::Path { .. }
            | EventKind::Cell { .. } => return None,
        })
    }
}

/// The events of a run, in the order they happened.
///
/// Every event has an index, counted from the first event of the run; [`EventLog::len`] is the
/// number ever logged. A game that runs for hours forgets old events ([`EventLog::forget_before`])
/// after it has taken them out, so the log keeps only the recent ones while indices stay valid.
#[derive(Debug, Clone, Default)]
pub struct EventLog {
    events: Vec<Event>,
    /// The index of `events[0]`: how many events were forgotten.
    first: usize,
}

impl EventLog {
    /// Appends an event.
    pub fn push(&mut self, tick: u64, entity: Option<&str>, kind: EventKind) {
        self.events.push(Event { tick, entity: entity.map(str::to_owned), kind });
    }

    /// The events still kept (all of them, unless some were forgotten).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The events from index `from` on (what a tick added, when `from` was the length before it);
    /// of those already forgotten, nothing.
    pub fn since(&self, from: usize) -> &[Event] {
        self.events.get(from.saturating_sub(self.first)..).unwrap_or(&[])
    }

    /// The events with indices in `range` that are still kept.
    pub fn range(&self, range: std::ops::Range<usize>) -> &[Event] {
        let start = range.start.saturating_sub(self.first).min(self.events.len());
        let end = range.end.saturating_sub(self.first).clamp(start, self.events.len());
        &self.events[start..end]
    }

    /// How many events were ever logged (the index the next one gets).
    pub fn len(&self) -> usize {
        self.first + self.events.len()
    }

    /// Whether nothing has happened yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The index of the oldest event still kept.
    pub fn first_kept(&self) -> usize {
        self.first
    }

    /// Forgets the events with an index below `index`. Old events are dropped in batches (when
    /// at least as many can go as are kept), so forgetting a few every tick costs O(1) amortised
    /// and the log holds at most twice what the caller keeps.
    pub fn forget_before(&mut self, index: usize) {
        let n = index.saturating_sub(self.first).min(self.events.len());
        if n > 0 && n >= self.events.len() - n {
            self.events.drain(..n);
            self.first += n;
            if self.events.capacity() > 4 * self.events.len().max(64) {
                self.events.shrink_to(2 * self.events.len().max(64));
            }
        }
    }
}

impl Event {
    /// The event as one JSON Lines line (no trailing newline).
    pub fn to_json_line(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string(self).unwrap_or_else(|e| unserialisable(&e))
    }

    /// Appends [`Event::to_json_line`] and a `\n` to `out`: a tick's lines written into one
    /// buffer kept between ticks, without a `String` per event.
    pub fn write_json_line(&self, out: &mut Vec<u8>) {
        let start = out.len();
        if let Err(e) = serde_json::to_writer(&mut *out, self) {
            out.truncate(start);
            out.extend_from_slice(unserialisable(&e).as_bytes());
        }
        out.push(b'\n');
    }
}

/// The line that stands in for an event serde could not write.
fn unserialisable(e: &serde_json::Error) -> String {
    format!("{{\"kind\":\"unserialisable\",\"error\":{:?}}}", e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_start_with_tick_entity_kind() {
        let mut log = EventLog::default();
        log.push(3, Some("troll"), EventKind::Say { text: "Grr".into() });
        log.push(4, None, EventKind::Global { key: "GameTime".into(), value: Value::Int(2) });
        let lines: Vec<String> = log.events().iter().map(Event::to_json_line).collect();
        assert_eq!(lines[0], r#"{"tick":3,"entity":"troll","kind":"say","text":"Grr"}"#);
        assert_eq!(lines[1], r#"{"tick":4,"kind":"global","key":"GameTime","value":2}"#);
        assert_eq!(log.since(1).len(), 1);
        assert!(log.since(9).is_empty());
    }

    #[test]
    fn a_line_written_into_a_buffer_is_the_line_and_a_newline() {
        let events = [
            Event {
                tick: 0,
                entity: Some("a \"quoted\" name\n".into()),
                kind: EventKind::Say { text: "Ünïcode \u{1}".into() },
            },
            Event { tick: 7, entity: None, kind: EventKind::Path { from: [1, -2], to: [3, 4], cost: 0.1 + 0.2 } },
            Event { tick: u64::MAX, entity: Some("m".into()), kind: EventKind::Move { from: [0, 0], to: [1, 1] } },
            Event {
                tick: 3,
                entity: None,
                kind: EventKind::Note {
                    name: "n".into(),
                    value: Value::List(vec![Value::Float(f64::NAN), Value::Float(1e300), Value::Nil]),
                },
            },
            Event { tick: 1, entity: Some("w".into()), kind: EventKind::Despawn },
        ];
        let mut buffer = b"kept".to_vec();
        let mut expected = "kept".to_owned();
        for e in &events {
            e.write_json_line(&mut buffer);
            expected.push_str(&e.to_json_line());
            expected.push('\n');
        }
        assert_eq!(String::from_utf8(buffer).unwrap(), expected);
    }

    #[test]
    fn every_kind_is_named_as_its_trace_line_says() {
        let cell = [0, 0];
        let s = || "x".to_owned();
        let all = [
            EventKind::Spawn { of: s(), team: s(), cell },
            EventKind::Despawn,
            EventKind::Move { from: cell, to: cell },
            EventKind::Arrive { cell },
            EventKind::Blocked { cell, reason: s() },
            EventKind::Path { from: cell, to: cell, cost: 1.0 },
            EventKind::Cell { cell, blocked: true },
            EventKind::Door { name: s(), open: true },
            EventKind::Say { text: s() },
            EventKind::Trigger { name: s() },
            EventKind::Sound { name: s() },
            EventKind::Signal { scope: s(), id: s() },
            EventKind::Wait { scope: s(), id: s() },
            EventKind::Release { scope: s(), id: s() },
            EventKind::Enter { region: s() },
            EventKind::Exit { region: s() },
            EventKind::Attribute { key: s(), value: Value::Int(1) },
            EventKind::Global { key: s(), value: Value::Int(1) },
            EventKind::State { machine: s(), from: s(), to: s() },
            EventKind::Action { action: s(), detail: s() },
            EventKind::ScriptError { file: s(), line: 1, column: 1, message: s() },
            EventKind::ScriptErrorRepeated { file: s(), line: 1, column: 1, message: s(), count: 2, first: 0, last: 2 },
            EventKind::Watchdog { file: s(), limit_ms: 1 },
            EventKind::Reload { file: s(), entities: vec![], ok: true, message: s() },
            EventKind::Note { name: s(), value: Value::Nil },
            EventKind::Print { file: s(), line: 1, text: s() },
            EventKind::Node { tree: s(), node: 3, name: s(), status: "running" },
        ];
        assert_eq!(all.len(), EventKind::KINDS.len());
        for (kind, (name, _)) in all.iter().zip(EventKind::KINDS) {
            let line = Event { tick: 0, entity: None, kind: kind.clone() }.to_json_line();
            assert!(line.contains(&format!("\"kind\":\"{name}\"")), "{line}");
            assert_eq!(kind.name(), *name);
        }
    }

    #[test]
    fn forgetting_keeps_indices_and_bounds_the_log() {
        let mut log = EventLog::default();
        for t in 0..1000 {
            log.push(t, None, EventKind::Say { text: t.to_string() });
            log.forget_before(log.len().saturating_sub(10));
            assert!(log.events().len() <= 20, "at most twice what is kept");
        }
        assert_eq!(log.len(), 1000);
        assert!(log.first_kept() >= 980);
        let last = log.since(999);
        assert!(matches!(&last[0].kind, EventKind::Say { text } if text == "999"));
        assert_eq!(log.since(0).len(), log.events().len(), "forgotten events are not returned");
        assert_eq!(log.range(995..998).len(), 3);
        assert!(matches!(&log.range(995..998)[0].kind, EventKind::Say { text } if text == "995"));
        assert!(log.range(0..5).is_empty());
    }
}
