//! The contract between the script host and a script language: [`ScriptBackend`] (compile,
//! recompile, run), what one call lends a script ([`ScriptCall`]), why it runs ([`Trigger`]) and
//! how it fails ([`ScriptError`]).
//!
//! It lives here, below the languages, so that the Lua, Rhai and `.tac` crates implement it
//! themselves; the root crate re-exports it as `tactica::host`.
//!
//! **Architecture invariant:** scripts never get `&mut World`. A [`ScriptCall`] lends them the
//! world read-only, the world's random generator, their own state table and a command buffer;
//! the runtime applies the commands after every script of the tick has run.

use std::path::{Path, PathBuf};

use tactica_engine::Value;
use tactica_engine::world::{CommandBuffer, EntityId, Event, World, WorldRng};

use crate::context::ScriptCtx;

/// Why a script is being run (see `docs/scripting.md`, "When scripts run").
#[derive(Debug, Clone, PartialEq)]
pub enum Trigger {
    /// The entity spawned, or its script was reloaded: attribute scripts set their values.
    Spawn,
    /// The entity's think tick: behaviour scripts decide.
    Think,
    /// The player came into range (edge-triggered).
    Encounter,
    /// The player typed this text near the entity (dialogue handlers read it with `Ask`).
    Hear(String),
    /// Every tick, for world-level scripts (events, traps, ambience).
    Tick,
    /// The script's file was reloaded: attribute scripts re-apply, `on_reload(state)` hooks run.
    Reload,
}

/// What one script call may see and do.
pub struct ScriptCall<'a> {
    /// The world, read-only.
    pub world: &'a World,
    /// The world's one random generator.
    pub rng: &'a mut WorldRng,
    /// The entity the script belongs to; `None` for world-level scripts.
    pub entity: Option<EntityId>,
    /// This instance's own state, kept by the host across calls and reloads (and put back by
    /// the host when the call fails).
    pub state: crate::StateMut<'a>,
    /// Where the script's commands go.
    pub commands: &'a mut CommandBuffer,
    /// Why it runs.
    pub trigger: &'a Trigger,
    /// What happened on the previous tick (region enter/exit, said lines …).
    pub events: &'a [Event],
    /// In a behaviour tree's leaf or service, the keys its tree wrote this tick (see
    /// [`ScriptCtx::blackboard`]); `None` elsewhere.
    pub blackboard: Option<&'a tactica_engine::Table>,
}

/// A script failure at load or run time, with its place in the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}:{column}: {message}", file.display())]
pub struct ScriptError {
    /// The script file.
    pub file: PathBuf,
    /// 1-based line; 0 when unknown.
    pub line: u32,
    /// 1-based column; 0 when unknown.
    pub column: u32,
    /// What went wrong.
    pub message: String,
    /// The full human-readable report (an ariadne rendering for `.tac`), when there is one.
    pub rendered: Option<String>,
    /// The watchdog's limit in milliseconds when the wall-clock watchdog stopped the call (the
    /// trace is then no longer reproducible, and the runtime records a `watchdog` event beside
    /// the error).
    pub watchdog: Option<u32>,
}

impl ScriptError {
    /// An error at a place in `file`.
    pub fn new(file: impl Into<PathBuf>, line: u32, column: u32, message: impl Into<String>) -> Self {
        ScriptError { file: file.into(), line, column, message: message.into(), rendered: None, watchdog: None }
    }

    /// This error, marked as raised by the wall-clock watchdog of `limit_ms`.
    #[must_use]
    pub fn by_watchdog(mut self, limit_ms: u32) -> Self {
        self.watchdog = Some(limit_ms);
        self
    }

    /// What to show a person: the full report where there is one, else `error: file:line:col: …`.
    pub fn report(&self) -> String {
        self.rendered.clone().unwrap_or_else(|| format!("error: {self}"))
    }
}

/// A compiled program inside one backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProgramId(pub u32);

/// One script language.
pub trait ScriptBackend: Send {
    /// The file extensions it handles, without the dot.
    fn extensions(&self) -> &[&'static str];
    /// Compiles `source` (from `file`) and checks it; every problem found is returned.
    fn compile(&mut self, file: &Path, source: &str) -> Result<ProgramId, Vec<ScriptError>>;
    /// Replaces a program's code with `source`, keeping its id (hot reload). On error the old code
    /// stays.
    fn recompile(&mut self, program: ProgramId, file: &Path, source: &str) -> Result<(), Vec<ScriptError>>;
    /// Runs `program` for one call. On error the host drops the commands the call issued.
    fn run(&mut self, program: ProgramId, call: &mut ScriptCall<'_>) -> Result<(), ScriptError>;
    /// Adds the names a scenario declares (its places, regions, creature kinds and globals) to the
    /// API this backend checks scripts against, before any script compiles. Languages that name
    /// things by plain strings (Lua, Rhai) need nothing and keep the default.
    fn declare_names(&mut self, _declare: &dyn Fn(&mut crate::Api)) {}
    /// A fresh backend of the same language, with the same API (names declared included) and
    /// limits, and no programs: the host makes one for each lane of a parallel scripts phase
    /// (the root crate's `src/host/lanes.rs`), each run by one worker thread at a time. `None`
    /// (the default): the language cannot be copied, and all its instances run on the first lane.
    fn fork(&self) -> Option<Box<dyn ScriptBackend>> {
        None
    }
    /// Finds mistakes in `source` without running it, against `api` (the standard table plus a
    /// scenario's names and a game's functions): calls to unknown functions (with the closest
    /// name), wrong argument counts, handlers with misspelled names, reads of globals the sandbox
    /// removed. Spans are byte offsets into `source`, so every language's findings render like
    /// `.tac`'s. Syntax errors are `compile`'s to report; a language without a linter keeps the
    /// default and finds nothing more.
    fn lint(&self, _file: &Path, _source: &str, _api: &crate::Api) -> Vec<tactica_syntax::diagnostics::Diagnostic> {
        Vec::new()
    }
    /// The functions of `program` a behaviour tree may call as leaves and services: Lua's and
    /// Rhai's script functions, `.tac`'s `leaf` blocks. A language without leaves keeps the
    /// default and has none.
    fn leaf_names(&self, _program: ProgramId) -> Vec<String> {
        Vec::new()
    }
    /// Calls function `name` of `program` as a behaviour tree's leaf or service, for the call's
    /// entity with its state, and returns what the function returned (the tree reads `success`,
    /// `failure` or `running`). On error the host drops the commands the call issued.
    fn call_leaf(&mut self, _program: ProgramId, name: &str, _call: &mut ScriptCall<'_>) -> Result<Value, ScriptError> {
        Err(ScriptError::new(
            "",
            0,
            0,
            format!("this language cannot run behaviour-tree leaves (`{name}`): write them in `.tac`, Lua or Rhai"),
        ))
    }
}

impl ScriptCall<'_> {
    /// The host-function context for this call: the scripted entity (a null handle for
    /// world-level scripts, so entity actions fail cleanly), the heard text of a `hear` trigger,
    /// and the call's world, generator, state and command buffer.
    pub fn ctx(&mut self) -> ScriptCtx<'_> {
        let me = self.entity.unwrap_or_default();
        let mut ctx = ScriptCtx::new(self.world, me, self.commands, self.rng, self.state.reborrow());
        if let Trigger::Hear(text) = self.trigger {
            ctx.heard = Some(text.as_str());
        }
        ctx.blackboard = self.blackboard;
        ctx
    }
}

impl Trigger {
    /// The name a script's handler for this trigger has: `on_spawn`, `on_think`, `on_encounter`,
    /// `on_hear`, `on_tick`, `on_reload`.
    pub fn handler(&self) -> &'static str {
        match self {
            Trigger::Spawn => "on_spawn",
            Trigger::Think => "on_think",
            Trigger::Encounter => "on_encounter",
            Trigger::Hear(_) => "on_hear",
            Trigger::Tick => "on_tick",
            Trigger::Reload => "on_reload",
        }
    }
}
