//! The `.tac` backend: Tactica Script through the host's one backend trait.
//!
//! How the host's calls map onto the language (docs/tac.md, "When scripts run"): a world-level
//! script runs as an *events* script on every tick; an entity's script runs as the kind its top
//! level suggests ([`Script::default_kind`]: attributes, dialogue or behaviour). `Reload` re-runs
//! attribute scripts and records, so attribute values follow the edited file, and `on reload`
//! handlers. Each (program, entity) pair keeps
//! its [`Instance`] — working memory, machine states, edge detectors — here, outside the code, and
//! a recompile carries it over to the new code ([`Instance::migrate`]).

use std::path::Path;

use tactica_engine::world::{Command, EventKind};
use tactica_script::{
    Api, Diagnostic, Instance, RunReport, Script, ScriptCtx, ScriptKind, ScriptLimits, check, render,
};
use tactica_stdlib::instances::Instances;

use super::{ProgramId, ScriptBackend, ScriptCall, ScriptError, Trigger};

/// Runs `.tac` files.
pub struct TacBackend {
    api: Api,
    limits: ScriptLimits,
    programs: Vec<Script>,
    /// Per program, each instance's working memory, found by entity slot (a tree keyed by
    /// program and entity cost a cache miss per level, ten thousand times a tick).
    instances: Vec<Instances<Instance>>,
    /// One run's report, its buffers kept from run to run.
    report: RunReport,
}

impl TacBackend {
    /// A backend with the standard API and default limits.
    pub fn new() -> Self {
        TacBackend::with_api(Api::standard(), ScriptLimits::new())
    }

    /// A backend binding `api` (the standard table plus a game's own functions) under `limits`.
    pub fn with_api(api: Api, limits: ScriptLimits) -> Self {
        TacBackend { api, limits, programs: Vec::new(), instances: Vec::new(), report: RunReport::default() }
    }

    fn build(&self, file: &Path, source: &str) -> Result<Script, Vec<ScriptError>> {
        let name = file.display().to_string();
        let (script, diags) = check(&name, source, &self.api);
        let errors: Vec<&Diagnostic> = diags.iter().filter(|d| d.is_error()).collect();
        match script {
            Some(s) if errors.is_empty() => Ok(s),
            _ => Err(errors
                .into_iter()
                .map(|d| {
                    let (line, column) = d.line_col(source);
                    let mut e = ScriptError::new(file, line, column, format!("{}: {}", d.code, d.message));
                    e.rendered = Some(render(&name, source, std::slice::from_ref(d), false));
                    e
                })
                .collect()),
        }
    }
}

impl Default for TacBackend {
    fn default() -> Self {
        TacBackend::new()
    }
}

impl ScriptBackend for TacBackend {
    fn fork(&self) -> Option<Box<dyn ScriptBackend>> {
        Some(Box::new(TacBackend::with_api(self.api.clone(), self.limits)))
    }

    fn extensions(&self) -> &[&'static str] {
        &["tac"]
    }

    fn compile(&mut self, file: &Path, source: &str) -> Result<ProgramId, Vec<ScriptError>> {
        let script = self.build(file, source)?;
        self.programs.push(script);
        self.instances.push(Instances::default());
        Ok(ProgramId(u32::try_from(self.programs.len() - 1).unwrap_or(u32::MAX)))
    }

    fn recompile(&mut self, program: ProgramId, file: &Path, source: &str) -> Result<(), Vec<ScriptError>> {
        let new = self.build(file, source)?;
        let Some(old) = self.programs.get(program.0 as usize) else {
            return Err(vec![ScriptError::new(file, 0, 0, "no such program")]);
        };
        for inst in self.instances.get_mut(program.0 as usize).into_iter().flat_map(Instances::values_mut) {
            *inst = inst.migrate(old, &new);
        }
        self.programs[program.0 as usize] = new;
        Ok(())
    }

    fn declare_names(&mut self, declare: &dyn Fn(&mut Api)) {
        declare(&mut self.api);
    }

    fn leaf_names(&self, program: ProgramId) -> Vec<String> {
        self.programs.get(program.0 as usize).map_or_else(Vec::new, |s| s.leaf_names().map(str::to_owned).collect())
    }

    fn call_leaf(
        &mut self,
        program: ProgramId,
        name: &str,
        call: &mut ScriptCall<'_>,
    ) -> Result<tactica_engine::Value, ScriptError> {
        let Some(script) = self.programs.get(program.0 as usize) else {
            return Err(ScriptError::new("tac", 0, 0, "no such program"));
        };
        let Some(instances) = self.instances.get_mut(program.0 as usize) else {
            return Err(ScriptError::new("tac", 0, 0, "no such program"));
        };
        let inst = instances.get_or_insert_with(call.entity, || script.instantiate());
        let me = call.entity.unwrap_or_default();
        let mut ctx = ScriptCtx::new(call.world, me, call.commands, call.rng, call.state.reborrow());
        ctx.blackboard = call.blackboard;
        script
            .run_leaf(inst, name, &mut ctx, &self.limits)
            .map_err(|e| ScriptError::new(&e.file, e.line, e.column, format!("{}: {}", e.code, e.message)))
    }

    fn run(&mut self, program: ProgramId, call: &mut ScriptCall<'_>) -> Result<(), ScriptError> {
        let Some(script) = self.programs.get(program.0 as usize) else {
            return Err(ScriptError::new("tac", 0, 0, "no such program"));
        };
        let kind = if call.entity.is_some() { script.default_kind() } else { ScriptKind::Events };
        let (trigger, heard) = match call.trigger {
            Trigger::Spawn => (tactica_script::Trigger::Spawn, None),
            Trigger::Reload => (tactica_script::Trigger::Reload, None),
            Trigger::Think => (tactica_script::Trigger::Think, None),
            Trigger::Encounter => (tactica_script::Trigger::Encounter, None),
            Trigger::Hear(text) => (tactica_script::Trigger::Hear, Some(text.as_str())),
            Trigger::Tick => (tactica_script::Trigger::Tick, None),
        };
        let Some(instances) = self.instances.get_mut(program.0 as usize) else {
            return Err(ScriptError::new("tac", 0, 0, "no such program"));
        };
        let inst = instances.get_or_insert_with(call.entity, || script.instantiate());
        // A world-level script has no entity of its own: its instants become events directly.
        let me = call.entity.unwrap_or_default();
        let mut ctx = ScriptCtx::new(call.world, me, call.commands, call.rng, call.state.reborrow());
        ctx.heard = heard;
        script
            .run_with(inst, kind, trigger, &mut ctx, &self.limits, &mut self.report)
            .map_err(|e| ScriptError::new(&e.file, e.line, e.column, format!("{}: {}", e.code, e.message)))?;
        for (machine, from, to) in self.report.state_changes.drain(..) {
            call.commands.push(Command::Emit { entity: call.entity, event: EventKind::State { machine, from, to } });
        }
        Ok(())
    }
}
