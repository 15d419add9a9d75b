//! What a host function sees while a script runs: the scripted entity, a read-only world, the
//! command buffer, the world's random generator and the per-instance state table.

use glam::{IVec2, Vec2};
use tactica_engine::Value;
use tactica_engine::coord::Action;
use tactica_engine::world::{Command, CommandBuffer, Entity, EntityId, EventKind, World, WorldRng, queue_weight};

/// How long (in ticks) a speaker waits before repeating the same line: a taunt script run on every
/// encounter does not spam (DESIGN.md, "When scripts run").
pub const SAY_COOLDOWN_TICKS: u64 = 50;

/// Whether a state-table key belongs to the host (`__said:…`, sequence bookkeeping): scripts
/// never see or set such keys, and the bindings carry them across calls untouched.
pub fn is_private(key: &str) -> bool {
    key.starts_with("__")
}

/// How a script's continuing actions reach the entity's queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionMode {
    /// Behaviour scripts: a request replaces what runs unless it asks for the same thing again
    /// (DoFlee every think tick continues the flight), see `ActionQueue::request`.
    Request,
    /// Sequences: each action is queued after the previous one.
    Enqueue,
}

/// The context of one script call. Scripts never mutate the world: they read `world` and push
/// commands into `commands`, which the engine applies after every script has run.
pub struct ScriptCtx<'a> {
    /// The world, read-only.
    pub world: &'a World,
    /// The scripted entity.
    pub me: EntityId,
    /// Where the script's changes go.
    pub commands: &'a mut CommandBuffer,
    /// The world's random generator (taunt choice, random rule choice).
    pub rng: &'a mut WorldRng,
    /// The text the player typed, during a `hear` event.
    pub heard: Option<&'a str>,
    /// The per-instance state table; it lives outside the code, so it survives a reload.
    pub state: crate::StateMut<'a>,
    /// In a behaviour tree's leaf or service: the blackboard keys the character's tree wrote
    /// earlier in this tick, which `GetBlackboard` reads before the blackboard (where they arrive
    /// when the tick's commands are applied).
    pub blackboard: Option<&'a tactica_engine::Table>,
    /// The scope signals and waits use when set (a sequence instance); `None` means the entity's
    /// own ([`Entity::signal_scope`]), built only when a signal or wait asks for it.
    scope: Option<String>,
    /// How continuing actions are issued.
    pub mode: ActionMode,
    /// Ticks before the same line may be said again.
    pub say_cooldown: u64,
    pattern: Vec<IVec2>,
    cursor: Option<Vec2>,
    /// Whether this context has queued an action for `me` (a sequence's later changes to the
    /// world then wait behind it, see [`ScriptCtx::keep_in_order`]).
    queued_here: bool,
}

impl<'a> ScriptCtx<'a> {
    /// A context for `me`, issuing requests (behaviour mode), scoped to `me`'s team.
    pub fn new(
        world: &'a World,
        me: EntityId,
        commands: &'a mut CommandBuffer,
        rng: &'a mut WorldRng,
        state: impl Into<crate::StateMut<'a>>,
    ) -> Self {
        ScriptCtx {
            world,
            me,
            commands,
            rng,
            heard: None,
            state: state.into(),
            blackboard: None,
            scope: None,
            mode: ActionMode::Request,
            say_cooldown: SAY_COOLDOWN_TICKS,
            pattern: Vec::new(),
            cursor: None,
            queued_here: false,
        }
    }

    /// The scope signals and waits use: the one [`ScriptCtx::set_scope`] gave (a sequence
    /// instance), else the entity's own ([`Entity::signal_scope`]; empty for no entity).
    pub fn scope(&self) -> String {
        match &self.scope {
            Some(scope) => scope.clone(),
            None => self.me().map_or_else(String::new, Entity::signal_scope),
        }
    }

    /// Sets the scope signals and waits use (a sequence instance's).
    pub fn set_scope(&mut self, scope: impl Into<String>) {
        self.scope = Some(scope.into());
    }

    /// The scripted entity, if it still exists.
    pub fn me(&self) -> Option<&'a Entity> {
        self.world.entity(self.me)
    }

    /// The player (see [`World::player`]).
    pub fn player(&self) -> Option<&'a Entity> {
        self.world.player().and_then(|id| self.world.entity(id))
    }

    /// Issues a continuing action the way [`ScriptCtx::mode`] says.
    pub fn act(&mut self, action: Action) {
        self.flush_pattern();
        match self.mode {
            // A request replaces what the character does: the queue does not grow.
            ActionMode::Request => self.commands.push(Command::Request { entity: self.me, action }),
            ActionMode::Enqueue => self.queue(Command::Enqueue { entity: self.me, action }),
        }
    }

    /// Issues a command that adds to `me`'s queue, within its caps on actions and bytes.
    fn queue(&mut self, command: Command) {
        self.queued_here = true;
        let me = self.me();
        let len = me.map_or(0, |e| e.actions.len());
        self.commands.push_queued_weighed(len, || me.map_or(0, |e| queue_weight(&e.actions)), command);
    }

    /// Issues an instant action (say, sound, trigger, signal): in behaviour mode it runs now,
    /// ahead of whatever the entity is doing; in a sequence it runs in its turn.
    ///
    /// A world-level script (one run for no entity: `me` names none) has no queue; its instants
    /// are recorded as events directly.
    pub fn perform(&mut self, action: Action) {
        if self.me().is_none() {
            let event = match action {
                Action::Say { text } => EventKind::Say { text },
                Action::PlaySound { name } => EventKind::Sound { name },
                Action::Trigger { name } => EventKind::Trigger { name },
                _ => return,
            };
            self.commands.push(Command::Emit { entity: None, event });
            return;
        }
        match self.mode {
            ActionMode::Request => self.queue(Command::Perform { entity: self.me, action }),
            ActionMode::Enqueue => {
                self.flush_pattern();
                self.queue(Command::Enqueue { entity: self.me, action });
            }
        }
    }

    /// In a sequence, after a host call that issued the commands since the buffer had `mark` of
    /// them: the call's changes to the world that act directly (a door, a global, a steering
    /// order, a note, a reservation …) wait in `me`'s queue behind what the sequence queued
    /// before them, so a sequence's calls take effect in the order they are written. Every host
    /// call goes through here ([`crate::HostFn::call`]), so a new function with an effect is kept
    /// in order without being named. In behaviour mode, or with nothing queued before, it does
    /// nothing: the change is made when the tick's commands are.
    pub fn keep_in_order(&mut self, mark: usize) {
        if self.mode != ActionMode::Enqueue {
            return;
        }
        let Some(me) = self.me() else { return };
        let own = |c: &Command| matches!(c, Command::Enqueue { entity, .. } if *entity == self.me);
        let foreign = self.commands.as_slice().get(mark..).is_some_and(|tail| tail.iter().any(|c| !own(c)));
        if !foreign {
            return;
        }
        if !self.pattern.is_empty() {
            // Steps gathered before this call are walked before its change: the path they make
            // goes in front of what the call issued.
            let before = self.commands.len();
            self.flush_pattern();
            let path: Vec<Command> = self.commands.as_slice()[before..].to_vec();
            self.commands.truncate(before);
            self.commands.insert_at(mark, path);
        }
        let pending = self.queued_here || !me.actions.is_idle();
        self.queued_here = self.commands.keep_in_queue(mark, self.me, pending, me.actions.len());
    }

    /// Adds one step of a movement pattern: one cell relative to the previous step (reference
    /// 002b §4.4). Steps gather into one path, issued when the script ends or another action comes.
    pub fn push_move(&mut self, step: IVec2) {
        self.pattern.push(step);
    }

    /// Where the next queued move starts: after the moves this call already queued.
    pub fn cursor(&self) -> Vec2 {
        self.cursor.or_else(|| self.me().map(|e| e.cell().as_vec2() + Vec2::splat(0.5))).unwrap_or_default()
    }

    /// Moves the cursor (after queueing a move).
    pub fn set_cursor(&mut self, at: Vec2) {
        self.cursor = Some(at);
    }

    /// Issues the gathered movement pattern as one path. In behaviour mode the path is anchored
    /// where the pattern started, so asking for it again on the next think tick continues it.
    pub fn flush_pattern(&mut self) {
        if self.pattern.is_empty() {
            return;
        }
        let steps = std::mem::take(&mut self.pattern);
        let points_from = |anchor: Vec2| -> Vec<Vec2> {
            steps
                .iter()
                .scan(anchor, |at, d| {
                    *at += d.as_vec2();
                    Some(*at)
                })
                .collect()
        };
        match self.mode {
            ActionMode::Enqueue => {
                let points = points_from(self.cursor());
                if let Some(&last) = points.last() {
                    self.cursor = Some(last);
                }
                self.queue(Command::Enqueue { entity: self.me, action: Action::FollowPath { points, next: 0 } });
            }
            ActionMode::Request => {
                let here = self.cursor();
                let anchor = match (self.state.get(PATTERN_ANCHOR), self.me().and_then(|e| e.actions.front())) {
                    (Some(Value::Vec2(a)), Some(Action::FollowPath { points, .. })) if *points == points_from(*a) => *a,
                    _ => here,
                };
                self.state.insert(PATTERN_ANCHOR.to_owned(), Value::Vec2(anchor));
                let points = points_from(anchor);
                self.commands
                    .push(Command::Request { entity: self.me, action: Action::FollowPath { points, next: 0 } });
            }
        }
    }

    /// Ends the call: issues what is still gathered.
    pub fn finish(&mut self) {
        self.flush_pattern();
    }

    /// The current tick.
    pub fn tick(&self) -> u64 {
        self.world.clock().tick()
    }

    /// A script's debug line (`print` in Lua and Rhai, `Print` in `.tac`): a `print` event with
    /// the script's `file`, the call's `line` and `text`, which narration shows. A script instance
    /// prints at most [`MAX_PRINTS_PER_TICK`] lines a tick, each cut to [`MAX_PRINT_CHARS`]
    /// characters; the first print past the cap says so and later ones that tick are dropped, so
    /// a print in a loop cannot flood the trace. Prints count against the call's output
    /// allowance like any other command.
    pub fn print(&mut self, file: &str, line: u32, text: &str) {
        let tick = i64::try_from(self.tick()).unwrap_or(i64::MAX);
        let count = match (self.state.get(PRINT_TICK), self.state.get(PRINT_COUNT)) {
            (Some(Value::Int(t)), Some(Value::Int(n))) if *t == tick => *n,
            _ => 0,
        };
        let limit = i64::from(MAX_PRINTS_PER_TICK);
        if count > limit {
            return;
        }
        self.state.insert(PRINT_TICK.to_owned(), Value::Int(tick));
        self.state.insert(PRINT_COUNT.to_owned(), Value::Int(count + 1));
        let text = if count == limit {
            format!("[more prints this tick are dropped: at most {MAX_PRINTS_PER_TICK} a tick]")
        } else if text.chars().count() > MAX_PRINT_CHARS {
            let cut: String = text.chars().take(MAX_PRINT_CHARS).collect();
            format!("{cut}…")
        } else {
            text.to_owned()
        };
        let entity = self.me().map(|_| self.me);
        let event = EventKind::Print { file: file.to_owned(), line, text };
        self.commands.push(Command::Emit { entity, event });
    }
}

/// How many `print` lines one script instance may write in one tick (see [`ScriptCtx::print`]).
pub const MAX_PRINTS_PER_TICK: u32 = 20;

/// How many characters of one `print` line reach the trace; the rest is cut and marked `…`.
pub const MAX_PRINT_CHARS: usize = 200;

/// The state-table keys counting an instance's prints in the current tick.
const PRINT_TICK: &str = "__print_tick";
const PRINT_COUNT: &str = "__print_count";

/// The state-table key remembering where the running movement pattern started.
const PATTERN_ANCHOR: &str = "__pattern_anchor";
