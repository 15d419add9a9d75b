//! Running a compiled script for a host: per-entity [`Instance`] state, the triggers a host fires
//! ([`Trigger`]), and what each kind of script does on each of them (DESIGN.md, "When scripts
//! run"; the table is repeated in `docs/tac.md`).

use tactica_engine::decide::fsm::{FsmState, HookKind, StateId};
use tactica_engine::world::{Command, CommandBuffer, EntityId, World, WorldRng};
use tactica_engine::{Table, Value};
use tactica_stdlib::{ActionMode, ScriptCtx, ScriptLimits};

use crate::code::{HandlerEvent, Script};
use crate::diagnostics::Code;
use crate::vm::{RuntimeError, Scratch, Vm};

/// What a file is attached to an entity as; it decides when the top-level statements run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptKind {
    /// Attribute scripts: the top level runs at spawn (and on reload).
    Attributes,
    /// Behaviour scripts: the top level runs on every think tick.
    Behaviour,
    /// Dialogue and taunts: the top level runs on `encounter` and `hear`.
    Dialogue,
    /// Events, traps and ambience: the top level runs every tick, each top-level `if` firing on
    /// the rising edge of its condition.
    Events,
}

/// Why the host runs a script now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// The entity spawned.
    Spawn,
    /// The entity's think tick.
    Think,
    /// Every tick.
    Tick,
    /// The player came into range or view.
    Encounter,
    /// The player typed text; the host puts it in [`ScriptCtx::heard`].
    Hear,
    /// The file was reloaded and this instance now runs the new code: attribute scripts and
    /// records re-apply, `on reload` handlers migrate state.
    Reload,
}

/// The state one script keeps for one entity. It lives with the host, outside the code, so it
/// survives a hot reload ([`Instance::migrate`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Instance {
    /// What the script's own code keeps (facts, edges, machines, …). Apart from `table` so that a
    /// run can lend the table to the host functions' context while the VM holds the rest.
    pub(crate) state: ScriptState,
    /// The free-form state table host functions use (say cooldowns, pattern anchors).
    pub table: Table,
    /// The VM's buffers between runs.
    scratch: Scratch,
}

/// The part of an [`Instance`] the script's own code reads and writes.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ScriptState {
    /// Working memory, by fact id.
    pub(crate) facts: Vec<Value>,
    facts_ready: bool,
    /// Facts a reload carried over from the old code: their initial values are not run again
    /// when the new code brings facts of its own to initialise.
    carried: Vec<bool>,
    /// Edge detectors: the last value of each edge-triggered condition.
    pub(crate) edges: Vec<bool>,
    /// Whether each `once` handler has fired.
    once: Vec<bool>,
    /// Each machine's position on the engine's state machine (none before its first think tick).
    machines: Vec<Option<FsmState>>,
    /// Per rule system, per rule: the values it last fired on (refraction).
    pub(crate) refraction: Vec<Vec<Option<Vec<Value>>>>,
    /// Sequence roles this instance started that stopped before an `if` and go on once their
    /// character has carried out what they queued.
    roles: Vec<RoleCursor>,
    /// The tick roles last moved on (they move on at most once a tick).
    roles_tick: Option<u64>,
}

/// Where a suspended sequence role goes on from.
#[derive(Debug, Clone, PartialEq)]
pub struct RoleCursor {
    /// The character playing the role.
    pub entity: EntityId,
    /// The sequence run's signal scope.
    pub scope: String,
    /// The instruction to go on from.
    pub pc: usize,
    /// The role's locals when it stopped.
    pub locals: Vec<Value>,
}

impl ScriptState {
    /// Keeps the roles a sequence start left suspended; they go on from a later tick.
    pub(crate) fn start_roles(&mut self, cursors: Vec<RoleCursor>, tick: u64) {
        self.roles.extend(cursors);
        self.roles_tick = Some(tick);
    }
}

impl Instance {
    /// How many started roles are still waiting to go on.
    pub fn suspended_roles(&self) -> usize {
        self.state.roles.len()
    }
}

/// What a run did besides issuing commands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunReport {
    /// State-machine changes: (machine, from, to); `from` is empty when the machine starts.
    pub state_changes: Vec<(String, String, String)>,
    /// Rules fired, in order.
    pub fired_rules: Vec<String>,
    /// VM steps used.
    pub steps: u64,
}

impl RunReport {
    /// Empties the report for the next run, keeping its buffers.
    #[inline]
    pub fn clear(&mut self) {
        self.state_changes.clear();
        self.fired_rules.clear();
        self.steps = 0;
    }
}

impl Instance {
    /// A fact's current value.
    pub fn fact(&self, script: &Script, name: &str) -> Option<&Value> {
        let i = script.facts.iter().position(|f| f.eq_ignore_ascii_case(name))?;
        self.state.facts.get(i)
    }

    /// Sets a fact (a scout reporting what it saw). Returns `false` if the script has no such fact.
    pub fn set_fact(&mut self, script: &Script, name: &str, value: Value) -> bool {
        let Some(i) = script.facts.iter().position(|f| f.eq_ignore_ascii_case(name)) else { return false };
        if let Some(slot) = self.state.facts.get_mut(i) {
            *slot = value;
        }
        true
    }

    /// The current state of a machine.
    pub fn state<'s>(&self, script: &'s Script, machine: &str) -> Option<&'s str> {
        let m = script.machines.iter().position(|m| m.name.eq_ignore_ascii_case(machine))?;
        let s = (*self.state.machines.get(m)?)?;
        Some(script.machines[m].model.name(s.current))
    }

    /// Carries the state over to a reloaded version of the script: facts and machine states by
    /// name, the state table as is. Edge detectors and refraction start afresh for changed code.
    pub fn migrate(&self, old: &Script, new: &Script) -> Instance {
        let mut inst = new.instantiate();
        let (st, this) = (&mut inst.state, &self.state);
        st.carried = vec![false; new.facts.len()];
        for (name, value) in old.facts.iter().zip(&this.facts) {
            if let Some(i) = new.facts.iter().position(|f| f.eq_ignore_ascii_case(name)) {
                st.facts[i] = value.clone();
                st.carried[i] = true;
            }
        }
        // A fact the new code adds still needs its initial value.
        if !this.facts_ready {
            st.carried.clear();
        }
        st.facts_ready = this.facts_ready && st.carried.iter().all(|&c| c);
        for (m, state) in old.machines.iter().zip(&this.machines) {
            let Some(s) = state else { continue };
            let name = m.model.name(s.current);
            if let Some(nm) = new.machines.iter().position(|x| x.name.eq_ignore_ascii_case(&m.name))
                && let Some(ns) = new.machines[nm].states.iter().position(|x| x.name.eq_ignore_ascii_case(name))
            {
                st.machines[nm] = Some(FsmState { current: ns as StateId, ticks_in_state: s.ticks_in_state });
            }
        }
        if old.code == new.code || old.n_edges == new.n_edges {
            // Edited bodies keep their edge detectors (positionally, when the file still has as
            // many): a condition that is still true must not fire again just because of a save.
            st.edges.clone_from(&this.edges);
        }
        // A `once` handler that already fired stays fired when the new file has a `once` handler
        // for the same event in the same place: `once on think start Breach;` with an edited
        // sequence must not start the sequence a second time.
        let once_events = |s: &Script| -> Vec<(u32, std::mem::Discriminant<HandlerEvent>)> {
            s.handlers.iter().filter_map(|h| Some((h.once?, std::mem::discriminant(&h.event)))).collect()
        };
        for ((o, oe), (n, ne)) in once_events(old).into_iter().zip(once_events(new)) {
            if oe == ne
                && let (Some(&fired), Some(slot)) = (this.once.get(o as usize), st.once.get_mut(n as usize))
            {
                *slot = fired;
            }
        }
        inst.table.clone_from(&self.table);
        inst
    }
}

/// Whether the top-level statements run on `trigger` in a script of `kind`.
fn top_runs(kind: ScriptKind, trigger: Trigger) -> bool {
    matches!(
        (kind, trigger),
        (ScriptKind::Attributes, Trigger::Spawn | Trigger::Reload)
            | (ScriptKind::Behaviour, Trigger::Think)
            | (ScriptKind::Dialogue, Trigger::Encounter | Trigger::Hear)
            // A world script ticks; on a character, an events file runs on its think ticks.
            | (ScriptKind::Events, Trigger::Tick | Trigger::Think)
    )
}

impl Script {
    /// Fresh state for one entity running this script.
    pub fn instantiate(&self) -> Instance {
        Instance { state: self.fresh_state(), table: Table::new(), scratch: Scratch::default() }
    }

    /// Starts `state` afresh when it was made for another version of the script.
    #[inline]
    fn fit(&self, state: &mut ScriptState) {
        if state.facts.len() != self.facts.len() || state.edges.len() != self.n_edges as usize {
            *state = self.fresh_state();
        }
    }

    fn fresh_state(&self) -> ScriptState {
        ScriptState {
            facts: vec![Value::Nil; self.facts.len()],
            facts_ready: false,
            carried: Vec::new(),
            edges: vec![false; self.n_edges as usize],
            once: vec![false; self.n_once as usize],
            machines: vec![None; self.machines.len()],
            refraction: self.rules.iter().map(|r| vec![None; r.rules.len()]).collect(),
            roles: Vec::new(),
            roles_tick: None,
        }
    }

    /// Lets the suspended roles of `inst` go on whose characters have carried out what the role
    /// queued (their action queue is idle): each runs to its next `if` that follows a queued
    /// action, or to its end. At most once a tick, and not on the tick they were started or last
    /// moved on (their actions are only applied after the scripts of that tick).
    fn advance_roles(
        &self,
        inst: &mut ScriptState,
        ctx: &mut ScriptCtx<'_>,
        limits: ScriptLimits,
    ) -> Result<(), RuntimeError> {
        let tick = ctx.world.clock().tick();
        if inst.roles.is_empty() || inst.roles_tick.is_some_and(|t| t >= tick) {
            return Ok(());
        }
        inst.roles_tick = Some(tick);
        let mut pending = std::mem::take(&mut inst.roles).into_iter();
        let mut keep = Vec::new();
        while let Some(c) = pending.next() {
            let Some(e) = ctx.world.entity(c.entity) else { continue };
            if !e.actions.is_idle() {
                keep.push(c);
                continue;
            }
            let mut role_inst = self.fresh_state();
            let mut table = Table::new();
            let mut role_ctx = ScriptCtx::new(ctx.world, c.entity, &mut *ctx.commands, &mut *ctx.rng, &mut table);
            role_ctx.mode = ActionMode::Enqueue;
            role_ctx.set_scope(c.scope.clone());
            let mut scratch = Scratch::default();
            let mut vm = Vm::new(self, &limits, &mut scratch);
            vm.locals.clone_from(&c.locals);
            vm.role_mark = Some(role_ctx.commands.len());
            if let Err(e) = vm.run(u32::try_from(c.pc).unwrap_or(u32::MAX), &mut role_inst, &mut role_ctx) {
                // The failed role is dropped; the others keep their places.
                keep.extend(pending);
                inst.roles = keep;
                return Err(e);
            }
            role_ctx.finish();
            if let Some(pc) = vm.suspended {
                keep.push(RoleCursor { pc, locals: std::mem::take(vm.locals), ..c });
            }
        }
        inst.roles = keep;
        Ok(())
    }

    /// Runs what `trigger` means for a script of `kind` (see [`ScriptKind`]). On error the
    /// commands this run issued are dropped and the error says where the script stopped.
    pub fn run(
        &self,
        inst: &mut Instance,
        kind: ScriptKind,
        trigger: Trigger,
        ctx: &mut ScriptCtx<'_>,
        limits: ScriptLimits,
    ) -> Result<RunReport, RuntimeError> {
        let mut report = RunReport::default();
        self.run_with(inst, kind, trigger, ctx, &limits, &mut report)?;
        Ok(report)
    }

    /// [`Script::run`] into a report the caller keeps (a host running thousands of entities a
    /// tick reuses one): `report` is emptied first, and on success says what this run did.
    pub fn run_with(
        &self,
        inst: &mut Instance,
        kind: ScriptKind,
        trigger: Trigger,
        ctx: &mut ScriptCtx<'_>,
        limits: &ScriptLimits,
        report: &mut RunReport,
    ) -> Result<(), RuntimeError> {
        if inst.state.facts.len() != self.facts.len() || inst.state.edges.len() != self.n_edges as usize {
            *inst = self.instantiate();
        }
        self.run_state(&mut inst.state, &mut inst.scratch, kind, trigger, ctx, limits, report)
    }

    /// [`Script::run`] on the parts of an instance, so that its table can be the context's.
    #[allow(clippy::too_many_arguments)]
    fn run_state(
        &self,
        state: &mut ScriptState,
        scratch: &mut Scratch,
        kind: ScriptKind,
        trigger: Trigger,
        ctx: &mut ScriptCtx<'_>,
        limits: &ScriptLimits,
        report: &mut RunReport,
    ) -> Result<(), RuntimeError> {
        if self.top_level_only {
            return self.run_top_level(state, scratch, kind, trigger, ctx, limits, report);
        }
        self.fit(state);
        report.clear();
        let mark = ctx.commands.len();
        let mut vm = Vm::new(self, limits, scratch);
        let result = self.run_inner(&mut vm, state, kind, trigger, ctx, report);
        report.steps = vm.steps;
        vm.clear();
        settle(ctx, mark, result)
    }

    /// [`Script::run_state`] for a file of top-level statements only (no records, handlers,
    /// rules, machines or sequences, so no roles either): all a run can do is the top level, and
    /// this is the path a crowd of simple behaviours takes every think tick, so it skips the rest.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn run_top_level(
        &self,
        state: &mut ScriptState,
        scratch: &mut Scratch,
        kind: ScriptKind,
        trigger: Trigger,
        ctx: &mut ScriptCtx<'_>,
        limits: &ScriptLimits,
        report: &mut RunReport,
    ) -> Result<(), RuntimeError> {
        self.fit(state);
        report.clear();
        if !state.facts_ready {
            state.facts_ready = true;
            state.carried.clear();
        }
        let main = match self.main {
            Some(main) if top_runs(kind, trigger) => main,
            _ => {
                ctx.finish();
                return Ok(());
            }
        };
        let mark = ctx.commands.len();
        let mut vm = Vm::new(self, limits, scratch);
        vm.edge_mode = kind == ScriptKind::Events;
        let result = vm.run_for_effect(main, state, ctx);
        report.steps = vm.steps;
        vm.clear();
        settle(ctx, mark, result)
    }

    fn run_inner(
        &self,
        vm: &mut Vm<'_>,
        inst: &mut ScriptState,
        kind: ScriptKind,
        trigger: Trigger,
        ctx: &mut ScriptCtx<'_>,
        report: &mut RunReport,
    ) -> Result<(), RuntimeError> {
        if !inst.facts_ready {
            inst.facts_ready = true;
            for block in &self.rules {
                for &(fact, init) in &block.facts {
                    if inst.carried.get(fact as usize).copied().unwrap_or(false) {
                        continue;
                    }
                    let v = vm.run(init, inst, ctx)?;
                    if let Some(slot) = inst.facts.get_mut(fact as usize) {
                        *slot = v;
                    }
                }
            }
            inst.carried.clear();
        }
        let top_runs = top_runs(kind, trigger);
        if matches!(trigger, Trigger::Spawn | Trigger::Reload) {
            self.run_records(vm, inst, ctx)?;
        }
        if matches!(trigger, Trigger::Think | Trigger::Tick) && !inst.roles.is_empty() {
            self.advance_roles(inst, ctx, *vm.limits)?;
        }
        if top_runs && let Some(main) = self.main {
            vm.edge_mode = kind == ScriptKind::Events;
            let r = vm.run(main, inst, ctx);
            vm.edge_mode = false;
            crate::vm::discard(r?);
        }
        for h in &self.handlers {
            let due = match (h.event, trigger) {
                (HandlerEvent::Spawn, Trigger::Spawn)
                | (HandlerEvent::Think, Trigger::Think)
                | (HandlerEvent::Tick, Trigger::Tick)
                | (HandlerEvent::Encounter, Trigger::Encounter)
                | (HandlerEvent::Hear, Trigger::Hear)
                | (HandlerEvent::Reload, Trigger::Reload) => true,
                // Edges are watched on the owner's clock: every tick for a world script, each
                // think tick for an entity's (which gets no `Tick`), so an entity's trap fires too.
                (HandlerEvent::Edge { cond, slot }, Trigger::Tick | Trigger::Think) => {
                    let now = vm.run(cond, inst, ctx)?.truthy();
                    let was = std::mem::replace(&mut inst.edges[slot as usize], now);
                    now && !was
                }
                _ => false,
            };
            if !due {
                continue;
            }
            if let Some(o) = h.once {
                if inst.once[o as usize] {
                    continue;
                }
                inst.once[o as usize] = true;
            }
            vm.run(h.entry, inst, ctx)?;
        }
        if trigger == Trigger::Think {
            for block in 0..self.rules.len() {
                let fired = crate::rules::forward_chain_block(vm, block, inst, ctx)?;
                report.fired_rules.extend(fired);
            }
            for m in 0..self.machines.len() {
                self.step_machine(vm, m, inst, ctx, report)?;
            }
        }
        Ok(())
    }

    /// Classic records whose `CREATURE` matches the entity's (all of them when it has none) and
    /// creature blocks whose kind is the entity's kind.
    fn run_records(
        &self,
        vm: &mut Vm<'_>,
        inst: &mut ScriptState,
        ctx: &mut ScriptCtx<'_>,
    ) -> Result<(), RuntimeError> {
        let me = ctx.me();
        let id = me.and_then(|e| e.attribute("CREATURE").as_i64());
        let kind = me.map(|e| e.kind.clone()).unwrap_or_default();
        for r in &self.records {
            let applies = match (&r.kind, r.creature) {
                (Some(k), _) => k.eq_ignore_ascii_case(&kind),
                (None, Some(c)) => id.is_none_or(|id| id == c),
                (None, None) => true,
            };
            if applies {
                vm.run(r.entry, inst, ctx)?;
            }
        }
        Ok(())
    }

    /// One step of machine `m` on the engine's state machine: its first step enters the initial
    /// state; later ones take the first transition whose condition holds (one to the current
    /// state stays), leaving and entering states; then the current state's tick runs. A condition
    /// that fails leaves the machine where it was.
    fn step_machine(
        &self,
        vm: &mut Vm<'_>,
        m: usize,
        inst: &mut ScriptState,
        ctx: &mut ScriptCtx<'_>,
        report: &mut RunReport,
    ) -> Result<(), RuntimeError> {
        let machine = &self.machines[m];
        let mut hooks = Vec::new();
        let from = match inst.machines[m] {
            None => {
                let start = machine.model.start();
                inst.machines[m] = Some(start);
                hooks = machine.model.start_hooks();
                machine.model.tick_hooks(&start, &mut hooks);
                None
            }
            Some(mut st) => {
                // `.tac` transitions have one target each, so the generator is never drawn from.
                let mut no_draw = WorldRng::new(0);
                let mut guard = |cond: &Option<u32>| match cond {
                    Some(c) => vm.run(*c, inst, ctx).map(|v| v.truthy()),
                    None => Ok(true),
                };
                let step = machine.model.try_step_with(&mut st, &mut guard, &mut no_draw, &mut hooks)?;
                inst.machines[m] = Some(st);
                Some(step.from)
            }
        };
        for hook in hooks {
            let code = &machine.states[usize::from(hook.id)];
            match hook.kind {
                HookKind::Exit | HookKind::Tick => {
                    let chunk = if hook.kind == HookKind::Exit { code.exit } else { code.tick };
                    if let Some(chunk) = chunk {
                        vm.run(chunk, inst, ctx)?;
                    }
                }
                HookKind::Enter => {
                    ctx.commands.push(Command::SetAttribute {
                        entity: ctx.me,
                        key: "state".to_owned(),
                        value: Value::Str(code.name.clone()),
                    });
                    if let Some(chunk) = code.entry {
                        vm.run(chunk, inst, ctx)?;
                    }
                    let was = from.map_or_else(String::new, |f| machine.model.name(f).to_owned());
                    report.state_changes.push((machine.name.clone(), was, code.name.clone()));
                }
            }
        }
        Ok(())
    }

    /// Starts a sequence: clears the signals of `scope` (so a second run does not see the first
    /// run's signals, reference 000 §6.4.3), then queues each cast entity's role, in order. Signals
    /// and waits are scoped to `scope`, so two squads running the same sequence do not release
    /// each other.
    #[allow(clippy::too_many_arguments)]
    pub fn start_sequence(
        &self,
        sequence: &str,
        scope: &str,
        cast: &[(&str, EntityId)],
        world: &World,
        commands: &mut CommandBuffer,
        rng: &mut WorldRng,
        limits: ScriptLimits,
    ) -> Result<Vec<RoleCursor>, RuntimeError> {
        let no_such = |message: String| RuntimeError {
            code: Code::NoSuchSequence,
            message,
            file: self.file.clone(),
            line: 0,
            column: 0,
        };
        let Some(seq) = self.sequences.iter().find(|s| s.name.eq_ignore_ascii_case(sequence)) else {
            return Err(no_such(format!("no sequence `{sequence}`")));
        };
        let mark = commands.len();
        commands.push(Command::ClearSignals { scope: scope.to_owned() });
        let mut inst = self.fresh_state();
        let mut cursors = Vec::new();
        for (role, entity) in cast {
            let Some((_, entry)) = seq.roles.iter().find(|(r, _)| r.eq_ignore_ascii_case(role)) else {
                commands.truncate(mark);
                return Err(no_such(format!("sequence `{}` has no role `{role}`", seq.name)));
            };
            let mut table = Table::new();
            let mut ctx = ScriptCtx::new(world, *entity, commands, rng, &mut table);
            ctx.mode = ActionMode::Enqueue;
            ctx.set_scope(scope);
            let mut scratch = Scratch::default();
            let mut vm = Vm::new(self, &limits, &mut scratch);
            vm.role_mark = Some(ctx.commands.len());
            if let Err(e) = vm.run(*entry, &mut inst, &mut ctx) {
                commands.truncate(mark);
                return Err(e);
            }
            ctx.finish();
            if let Some(pc) = vm.suspended {
                cursors.push(RoleCursor {
                    entity: *entity,
                    scope: scope.to_owned(),
                    pc,
                    locals: std::mem::take(vm.locals),
                });
            }
        }
        Ok(cursors)
    }
}

/// Ends a run: a run that worked issues what it gathered (`ScriptCtx::finish`); one that failed
/// takes back the commands it issued after `mark`.
fn settle(ctx: &mut ScriptCtx<'_>, mark: usize, result: Result<(), RuntimeError>) -> Result<(), RuntimeError> {
    match result {
        Ok(()) => {
            ctx.finish();
            Ok(())
        }
        Err(e) => {
            ctx.commands.truncate(mark);
            Err(e)
        }
    }
}

impl Script {
    /// The file's behaviour-tree leaves (`leaf NAME { … }`), as written.
    pub fn leaf_names(&self) -> impl Iterator<Item = &str> {
        self.leaves.iter().map(|(n, _)| n.as_str())
    }

    /// Runs leaf `name` (any case) for a behaviour tree and returns what it returned (`success`,
    /// `failure` or `running`, which are the strings of those names). The leaf reads and writes the
    /// instance's facts like a handler; on an error its commands are dropped.
    pub fn run_leaf(
        &self,
        inst: &mut Instance,
        name: &str,
        ctx: &mut ScriptCtx<'_>,
        limits: &ScriptLimits,
    ) -> Result<Value, RuntimeError> {
        let Some(&(_, entry)) = self.leaves.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)) else {
            return Err(RuntimeError {
                code: Code::NoSuchSequence,
                message: format!("no leaf `{name}`"),
                file: self.file.clone(),
                line: 0,
                column: 0,
            });
        };
        let Instance { state, scratch, .. } = inst;
        self.fit(state);
        let mark = ctx.commands.len();
        let mut vm = Vm::new(self, limits, scratch);
        let result = (|| {
            if !state.facts_ready {
                state.facts_ready = true;
                for block in &self.rules {
                    for &(fact, init) in &block.facts {
                        let v = vm.run(init, state, ctx)?;
                        if let Some(slot) = state.facts.get_mut(fact as usize) {
                            *slot = v;
                        }
                    }
                }
                state.carried.clear();
            }
            vm.run(entry, state, ctx)
        })();
        vm.clear();
        match result {
            Ok(v) => {
                ctx.finish();
                Ok(v)
            }
            Err(e) => {
                ctx.commands.truncate(mark);
                Err(e)
            }
        }
    }

    /// [`Script::run_with`] for a host that keeps one [`Instance`] per entity: builds the
    /// context around the instance's own state table. `heard` is the typed text of a `hear`
    /// event; `report` is emptied, then says what the run did.
    #[allow(clippy::too_many_arguments)]
    // Inlined into the host's loop over its entities: the arguments then need not be passed
    // through memory, and the common case goes straight to the VM.
    #[inline]
    pub fn run_entity(
        &self,
        inst: &mut Instance,
        kind: ScriptKind,
        trigger: Trigger,
        world: &World,
        me: EntityId,
        commands: &mut CommandBuffer,
        rng: &mut WorldRng,
        heard: Option<&str>,
        limits: &ScriptLimits,
        report: &mut RunReport,
    ) -> Result<(), RuntimeError> {
        let Instance { state, table, scratch } = inst;
        let mut ctx = ScriptCtx::new(world, me, commands, rng, table);
        // Read field by field, not copied whole: a caller's fresh `None` or limits are still in
        // flight in the store buffer, and a wider load than the stores that wrote them stalls.
        if let Some(heard) = heard {
            ctx.heard = Some(heard);
        }
        if self.top_level_only {
            return self.run_top_level(state, scratch, kind, trigger, &mut ctx, limits, report);
        }
        self.run_state(state, scratch, kind, trigger, &mut ctx, limits, report)
    }
}
