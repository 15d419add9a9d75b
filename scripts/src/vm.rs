//! The virtual machine: runs compiled chunks on a value stack, counting every step against the
//! call's budget, so an endless loop is stopped with a clear error instead of hanging the tick.
//!
//! Reading a value whole — joining or comparing text and lists, an argument handed to the host —
//! also costs one step per 16 bytes of text or per element (`size_work`), charged before the
//! work on the fused and the plain path alike, so a loop copying a long string meets the budget.

use std::fmt;

use tactica_engine::Value;
use tactica_stdlib::{HostError, ScriptCtx, ScriptLimits};

use crate::ast::BinOp;
use crate::code::{Op, Read, Script};
use crate::diagnostics::{Code, line_col};
use crate::runtime::ScriptState;

/// A script failed at run time. It carries the file, line and column of the instruction that
/// failed; the host logs it and stops the script for this tick.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}:{line}:{column}: {code}: {message}")]
pub struct RuntimeError {
    /// The stable code (`E0100` for the step budget).
    pub code: Code,
    /// What went wrong.
    pub message: String,
    /// The script file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// A VM's value stack and locals kept between runs in an [`crate::Instance`], so a run per entity-tick
/// allocates neither. Always empty between runs: it is no part of the instance's state (every
/// two compare equal, a clone starts without).
#[derive(Default)]
pub(crate) struct Scratch {
    stack: Vec<Value>,
    pub(crate) locals: Vec<Value>,
}

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Scratch::default()
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl fmt::Debug for Scratch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Scratch")
    }
}

/// One run of the VM: the budget is shared by every chunk the run executes. It works in
/// borrowed buffers and limits, so making one per entity-tick copies next to nothing.
pub(crate) struct Vm<'a> {
    pub script: &'a Script,
    pub limits: &'a ScriptLimits,
    pub steps: u64,
    /// The step count past which a run is stopped: `max_ops`, or never when that is 0.
    budget: u64,
    /// `limits.max_stack`, at hand for the check before every instruction.
    max_stack: usize,
    /// Whether `Edge` instructions detect rising edges (events scripts) or pass conditions through.
    pub edge_mode: bool,
    stack: &'a mut Vec<Value>,
    pub(crate) locals: &'a mut Vec<Value>,
    /// Running a sequence role: the command count when the role (re)started, so `Suspend` knows
    /// whether the role has queued anything yet.
    pub(crate) role_mark: Option<usize>,
    /// Where a role stopped at a `Suspend`, to go on from later.
    pub(crate) suspended: Option<usize>,
}

impl<'a> Vm<'a> {
    /// A VM on `scratch`, which must be empty (see [`Scratch`]; [`Vm::clear`] empties it).
    #[inline]
    pub(crate) fn new(script: &'a Script, limits: &'a ScriptLimits, scratch: &'a mut Scratch) -> Self {
        let Scratch { stack, locals } = scratch;
        if stack.capacity() == 0 {
            stack.reserve(16);
        }
        if script.n_locals != 0 {
            locals.resize(script.n_locals as usize, Value::Nil);
        }
        // `max_ops == 0` means no budget (`ScriptLimits::unlimited`), as in the other backends.
        let budget = if limits.max_ops == 0 { u64::MAX } else { limits.max_ops };
        let max_stack = limits.max_stack;
        Vm {
            script,
            limits,
            steps: 0,
            budget,
            max_stack,
            edge_mode: false,
            stack,
            locals,
            role_mark: None,
            suspended: None,
        }
    }

    /// Empties the buffers for the next run.
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.stack.clear();
        self.locals.clear();
    }

    pub fn error_at(&self, pc: usize, code: Code, message: impl Into<String>) -> RuntimeError {
        let at = self.script.spans.get(pc).map_or(0, |s| s.start);
        let (line, column) = line_col(&self.script.src, at);
        RuntimeError { code, message: message.into(), file: self.script.file.clone(), line, column }
    }

    fn host_error(&self, pc: usize, e: &HostError) -> RuntimeError {
        let code = if matches!(e, HostError::OutOfRange { .. }) { Code::AttributeRange } else { Code::HostError };
        self.error_at(pc, code, e.to_string())
    }

    fn pop(&mut self) -> Value {
        self.stack.pop().unwrap_or_default()
    }

    /// Pops the top value's truthiness.
    #[inline]
    fn pop_truthy(&mut self) -> bool {
        match self.stack.pop() {
            Some(v) => {
                let t = if let Value::Bool(b) = v { b } else { v.truthy() };
                discard(v);
                t
            }
            None => false,
        }
    }

    /// `Return` from a chunk whose stack started at `base`: only what it returns, if anything,
    /// stays above `base`.
    #[inline(always)]
    fn leave(&mut self, base: usize) {
        if self.stack.len() > base + 1 {
            let v = self.pop();
            self.cut(base);
            self.stack.push(v);
        }
    }

    /// Drops the values above `depth`.
    #[inline]
    fn cut(&mut self, depth: usize) {
        while self.stack.len() > depth {
            if let Some(v) = self.stack.pop() {
                discard(v);
            }
        }
    }

    /// Counts one step before the instruction at `pc` runs, with `depth` values on the stack;
    /// fails when the run is over its budget or its stack limit. Superinstructions call it again
    /// for their second half, so a run stops at the same instruction, fused or not.
    #[inline]
    fn step(&mut self, pc: usize, depth: usize) -> Result<(), RuntimeError> {
        self.steps += 1;
        if self.steps > self.budget {
            return Err(self.over_budget(pc));
        }
        if depth > self.max_stack {
            return Err(self.stack_overflow(pc));
        }
        Ok(())
    }

    /// Counts `work` steps of reading values whole (see [`size_work`]) for the instruction at
    /// `pc`; fails when that passes the budget.
    #[inline]
    fn charge(&mut self, pc: usize, work: u64) -> Result<(), RuntimeError> {
        if work > 0 {
            self.steps = self.steps.saturating_add(work);
            if self.steps > self.budget {
                return Err(self.over_budget(pc));
            }
        }
        Ok(())
    }

    #[cold]
    fn stack_overflow(&self, pc: usize) -> RuntimeError {
        self.error_at(pc, Code::BudgetExceeded, "the stack outgrew its limit")
    }

    #[cold]
    fn over_budget(&self, pc: usize) -> RuntimeError {
        let m =
            format!("stopped after {} steps (the budget of one call); is there an endless loop?", self.limits.max_ops);
        self.error_at(pc, Code::BudgetExceeded, m)
    }

    /// Calls host function `f` on the top `argc` values, which it pops; returns its result.
    #[inline(always)]
    fn call(&mut self, pc: usize, f: u32, argc: u8, ctx: &mut ScriptCtx<'_>) -> Result<Value, RuntimeError> {
        // The arguments are read in place off the stack (no `Vec` per call).
        let at = self.stack.len().saturating_sub(argc as usize);
        let Some(host) = self.script.api.function(f as usize) else {
            return Err(self.error_at(pc, Code::HostError, "the host function is gone"));
        };
        // What the host reads of its arguments (text copied into a line, a list walked) costs
        // one step per 16 bytes and per element, as in the other languages.
        let work: u64 = self.stack[at..].iter().map(size_work).sum();
        self.charge(pc, work)?;
        match host.call(ctx, &self.stack[at..]) {
            Ok(v) => {
                self.cut(at);
                Ok(v)
            }
            Err(e) => Err(self.host_error(pc, &e)),
        }
    }

    /// `a op b` for the instruction at `pc`, `a` popped, `b` given; pushes the result.
    #[inline(always)]
    fn binary(&mut self, pc: usize, op: BinOp, b: &Value) -> Result<(), RuntimeError> {
        // Comparing numbers (most conditions) needs no call and nothing dropped.
        if let Some(top) = self.stack.last_mut()
            && let Some(r) = compare_numbers(op, top, b)
        {
            discard(std::mem::replace(top, r));
            return Ok(());
        }
        self.binary_general(pc, op, b)
    }

    #[inline(never)]
    fn binary_general(&mut self, pc: usize, op: BinOp, b: &Value) -> Result<(), RuntimeError> {
        let a = self.pop();
        // Joining or comparing text and lists reads and copies all of them: one step per 16
        // bytes and per element, charged before the work (a loop copying a megabyte string ran
        // for seconds within its step budget).
        self.charge(pc, size_work(&a) + size_work(b))?;
        let r = binary(op, &a, b).map_err(|(code, m)| self.error_at(pc, code, m))?;
        if let Value::Str(s) = &r
            && self.limits.max_string_len != 0
            && s.len() > self.limits.max_string_len
        {
            let m = format!("a string grew past {} bytes, the limit of one value", self.limits.max_string_len);
            return Err(self.error_at(pc, Code::BudgetExceeded, m));
        }
        self.stack.push(r);
        Ok(())
    }

    /// `Edge(slot)`: in edge mode, the condition on top becomes "it just became true".
    #[inline(always)]
    fn edge(&mut self, slot: u32, inst: &mut ScriptState) {
        if self.edge_mode {
            let now = self.pop().truthy();
            let was = inst.edges.get(slot as usize).copied().unwrap_or(false);
            if let Some(e) = inst.edges.get_mut(slot as usize) {
                *e = now;
            }
            self.stack.push(Value::Bool(now && !was));
        }
    }

    /// Runs the chunk at `entry` and returns what it returns.
    #[inline(never)]
    pub fn run(&mut self, entry: u32, inst: &mut ScriptState, ctx: &mut ScriptCtx<'_>) -> Result<Value, RuntimeError> {
        let base = self.stack.len();
        self.exec(entry, inst, ctx)?;
        Ok(if self.stack.len() > base { self.pop() } else { Value::Nil })
    }

    /// Runs the chunk at `entry` for what it does, dropping what it returns (the top level).
    /// The interpreter is inlined here and in [`Vm::run`] only: a run per entity-tick then
    /// sets up one frame, not two.
    #[inline(always)]
    pub fn run_for_effect(
        &mut self,
        entry: u32,
        inst: &mut ScriptState,
        ctx: &mut ScriptCtx<'_>,
    ) -> Result<(), RuntimeError> {
        let base = self.stack.len();
        self.exec(entry, inst, ctx)?;
        self.cut(base);
        Ok(())
    }

    /// Runs the chunk at `entry`, leaving what it returns, if anything, on top of the stack as
    /// it found it.
    #[inline(always)]
    fn exec(&mut self, entry: u32, inst: &mut ScriptState, ctx: &mut ScriptCtx<'_>) -> Result<(), RuntimeError> {
        let base = self.stack.len();
        let mut pc = entry as usize;
        let script = self.script;
        loop {
            self.step(pc, self.stack.len())?;
            let Some(&op) = script.code.get(pc) else {
                return Err(self.error_at(pc, Code::RuntimeType, "jumped outside the code"));
            };
            pc += 1;
            match op {
                Op::Const(c) => self.stack.push(script.consts.get(c as usize).cloned().unwrap_or_default()),
                Op::Nil => self.stack.push(Value::Nil),
                Op::LoadLocal(s) => self.stack.push(self.locals.get(s as usize).cloned().unwrap_or_default()),
                Op::StoreLocal(s) => {
                    let v = self.pop();
                    if let Some(slot) = self.locals.get_mut(s as usize) {
                        *slot = v;
                    }
                }
                Op::LoadGlobal(g) => {
                    let v = script.api.global_at(g as usize).map(|g| g.read(ctx)).unwrap_or_default();
                    self.stack.push(v);
                }
                Op::LoadFact(f) => self.stack.push(inst.facts.get(f as usize).cloned().unwrap_or_default()),
                Op::StoreFact(f) => {
                    let v = self.pop();
                    if let Some(slot) = inst.facts.get_mut(f as usize) {
                        *slot = v;
                    }
                }
                Op::SetAttribute(c) => {
                    let v = self.pop();
                    let name = script.consts.get(c as usize).and_then(Value::as_str).unwrap_or_default().to_owned();
                    script.api.set_attribute(ctx, &name, v).map_err(|e| self.host_error(pc - 1, &e))?;
                }
                Op::Call { f, argc } => {
                    let v = self.call(pc - 1, f, argc, ctx)?;
                    self.stack.push(v);
                }
                Op::CallCompareJump { f, argc, op, edge, c, to } => {
                    // The call as in `call`, but its result is read where the host function
                    // wrote it: moving a fresh `Value` costs more here than the rest of the `if`.
                    let at = self.stack.len().saturating_sub(argc as usize);
                    let Some(host) = script.api.function(f as usize) else {
                        return Err(self.error_at(pc - 1, Code::HostError, "the host function is gone"));
                    };
                    let b = script.consts.get(c as usize).unwrap_or(&Value::Nil);
                    // The instructions after the call: `Const`, `Binary`, maybe `Edge`, the jump.
                    let rest = if edge { 4 } else { 3 };
                    // The deepest the stack gets in them: the result and the constant.
                    let depth = at + 2;
                    let work: u64 = self.stack[at..].iter().map(size_work).sum();
                    self.charge(pc - 1, work)?;
                    let fast = !(edge && self.edge_mode) && self.steps + rest <= self.budget && depth <= self.max_stack;
                    let out = host.call(ctx, &self.stack[at..]);
                    let holds = match &out {
                        Ok(v) if fast => compare(op, v, b),
                        _ => None,
                    };
                    match holds {
                        // No step of the rest can fail: count them and jump.
                        Some(holds) => {
                            // Only numbers compare, and they own nothing to drop.
                            std::mem::forget(out);
                            self.cut(at);
                            self.steps += rest;
                            pc = if holds { pc + rest as usize } else { to as usize };
                            // An `if` that ends its chunk (the usual behaviour file) jumps to the
                            // `Return`: done here, it needs no dispatch of its own.
                            if !holds
                                // `matches!`, not `==`: the derived `PartialEq` on `Op` is an out-of-line call.
                                && matches!(script.code.get(pc), Some(Op::Return))
                                && self.steps < self.budget
                                && self.stack.len() <= self.max_stack
                            {
                                self.steps += 1;
                                self.leave(base);
                                return Ok(());
                            }
                        }
                        // Anything else (not numbers, a limit hit on the way, edge detection)
                        // goes on from the `Const` as compiled.
                        None => {
                            let v = out.map_err(|e| self.host_error(pc - 1, &e))?;
                            self.cut(at);
                            self.stack.push(v);
                        }
                    }
                }
                Op::CallBinaryConst { f, argc, op, c } => {
                    // The result is compared where it lies instead of going through the stack.
                    let v = self.call(pc - 1, f, argc, ctx)?;
                    let depth = self.stack.len() + 1;
                    self.step(pc, depth)?;
                    self.step(pc + 1, depth + 1)?;
                    let b = script.consts.get(c as usize).unwrap_or(&Value::Nil);
                    match compare_numbers(op, &v, b) {
                        Some(r) => {
                            discard(v);
                            self.stack.push(r);
                        }
                        None => {
                            self.stack.push(v);
                            self.binary(pc + 1, op, b)?;
                        }
                    }
                    pc += 2;
                }
                Op::FactCompareConst { f, op, c } => {
                    // The `Const` and `Binary` halves' steps, at the depths they would see.
                    let depth = self.stack.len() + 1;
                    self.step(pc, depth)?;
                    self.step(pc + 1, depth + 1)?;
                    let a = inst.facts.get(f as usize).unwrap_or(&Value::Nil);
                    let b = script.consts.get(c as usize).unwrap_or(&Value::Nil);
                    let r = match compare_numbers(op, a, b) {
                        Some(r) => r,
                        None => binary(op, a, b).map_err(|(code, m)| self.error_at(pc + 1, code, m))?,
                    };
                    self.stack.push(r);
                    pc += 2;
                }
                Op::CallPop { f, argc } => {
                    let v = self.call(pc - 1, f, argc, ctx)?;
                    self.step(pc, self.stack.len() + 1)?;
                    discard(v);
                    pc += 1;
                }
                Op::Pop => {
                    if let Some(v) = self.stack.pop() {
                        discard(v);
                    }
                }
                Op::Not => {
                    let v = self.pop();
                    self.stack.push(Value::Bool(!v.truthy()));
                }
                Op::ToBool => {
                    let v = self.pop();
                    self.stack.push(Value::Bool(v.truthy()));
                }
                Op::Neg => {
                    let v = self.pop();
                    let r = match v {
                        Value::Int(n) => n.checked_neg().map(Value::Int),
                        Value::Float(x) => Some(Value::Float(-x)),
                        _ => None,
                    };
                    let r = r.ok_or_else(|| self.error_at(pc - 1, Code::RuntimeType, format!("cannot negate {v}")))?;
                    self.stack.push(r);
                }
                Op::Binary(op) => {
                    let b = self.pop();
                    self.binary(pc - 1, op, &b)?;
                }
                Op::BinaryConst { op, c } => {
                    // The constant would have been pushed by the `Const` half.
                    self.step(pc, self.stack.len() + 1)?;
                    let b = script.consts.get(c as usize).unwrap_or(&Value::Nil);
                    self.binary(pc, op, b)?;
                    pc += 1;
                }
                Op::Jump(t) => pc = t as usize,
                Op::JumpIfFalse(t) => {
                    if !self.pop_truthy() {
                        pc = t as usize;
                    }
                }
                Op::Edge(slot) => self.edge(slot, inst),
                Op::EdgeJumpIfFalse { slot, to } => {
                    self.edge(slot, inst);
                    self.step(pc, self.stack.len())?;
                    pc = if self.pop_truthy() { pc + 1 } else { to as usize };
                }
                Op::SayOneOf(n) => {
                    let at = self.stack.len().saturating_sub(n as usize);
                    let mut lines = self.stack.split_off(at);
                    if !lines.is_empty() {
                        let i = ctx.rng.below(lines.len());
                        let line = lines.swap_remove(i);
                        self.call_named(pc - 1, "Say", line, ctx)?;
                    }
                }
                Op::Signal(c) | Op::Wait(c) => {
                    let operand = script.consts.get(c as usize).cloned().unwrap_or_default();
                    let name = if matches!(op, Op::Signal(_)) { "Signal" } else { "Wait" };
                    match operand {
                        // `signal team ready;`: the `Signal(id, scope)` overload.
                        Value::List(args) => self.call_with(pc - 1, name, &args, ctx)?,
                        id => self.call_named(pc - 1, name, id, ctx)?,
                    }
                }
                Op::Start(c) => {
                    let name = script.consts.get(c as usize).and_then(Value::as_str).unwrap_or_default().to_owned();
                    self.start(pc - 1, &name, inst, ctx)?;
                }
                Op::Suspend => {
                    if let Some(mark) = self.role_mark
                        && ctx.commands.len() > mark
                    {
                        self.suspended = Some(pc);
                        self.cut(base);
                        return Ok(());
                    }
                }
                Op::Prove(f) => {
                    let goal = self.pop();
                    let proven = crate::rules::prove_in(script, inst, f, &goal, self.limits.max_prove_depth).is_some();
                    self.stack.push(Value::Bool(proven));
                }
                Op::Return => {
                    self.leave(base);
                    return Ok(());
                }
            }
        }
    }

    fn call_with(
        &mut self,
        pc: usize,
        name: &str,
        args: &[Value],
        ctx: &mut ScriptCtx<'_>,
    ) -> Result<(), RuntimeError> {
        let api = &self.script.api;
        let Some(host) = api.functions(name).find(|f| f.params.len() == args.len()) else {
            return Err(self.error_at(
                pc,
                Code::HostError,
                format!("the API has no `{name}` of {} arguments", args.len()),
            ));
        };
        self.charge(pc, args.iter().map(size_work).sum())?;
        host.call(ctx, args).map_err(|e| self.host_error(pc, &e))?;
        Ok(())
    }

    fn call_named(&mut self, pc: usize, name: &str, arg: Value, ctx: &mut ScriptCtx<'_>) -> Result<(), RuntimeError> {
        let api = &self.script.api;
        let Some(host) = api.functions(name).find(|f| f.params.len() == 1) else {
            return Err(self.error_at(pc, Code::HostError, format!("the API has no `{name}`")));
        };
        self.charge(pc, size_work(&arg))?;
        host.call(ctx, &[arg]).map_err(|e| self.host_error(pc, &e))?;
        Ok(())
    }

    /// `start SEQUENCE;` from a script: each role goes to the entity of the starter's team tagged
    /// with the role's name (the first in key order). The scope is the starter's own (its team's):
    /// the scope a Lua or Rhai script's `Signal`/`Wait` use, so a squad moved between languages
    /// signals alike, and two squads running the same sequence still do not release each other.
    fn start(
        &mut self,
        pc: usize,
        name: &str,
        inst: &mut ScriptState,
        ctx: &mut ScriptCtx<'_>,
    ) -> Result<(), RuntimeError> {
        let world = ctx.world;
        let (team, squad) = ctx.me().map(|e| (e.team.clone(), e.squad.clone())).unwrap_or_default();
        let roles: Vec<String> = self.script.roles(name).into_iter().map(str::to_owned).collect();
        // Cast from the starter's squad when it has one, else from its team.
        let cast: Vec<(String, tactica_engine::world::EntityId)> = roles
            .iter()
            .filter_map(|r| {
                world
                    .entities()
                    .find(|(_, e)| {
                        e.team == team && e.squad == squad && e.tags.iter().any(|t| t.eq_ignore_ascii_case(r))
                    })
                    .map(|(id, _)| (r.clone(), id))
            })
            .collect();
        // A role nobody can play would leave the others waiting for its signals for ever.
        if let Some(missing) = roles.iter().find(|r| !cast.iter().any(|(c, _)| c == *r)) {
            let who = match (team.is_empty(), squad.is_empty()) {
                (_, false) => format!("nobody in squad `{squad}` of team `{team}`"),
                (false, true) => format!("nobody on team `{team}`"),
                (true, true) => "no character".to_owned(),
            };
            return Err(self.error_at(
                pc,
                Code::NoSuchSequence,
                format!(
                    "sequence `{name}` did not start: {who} is tagged `{missing}`, so role `{missing}` has no one \
                     to play it (tag a character `{missing}` in the scenario)"
                ),
            ));
        }
        let cast: Vec<(&str, tactica_engine::world::EntityId)> = cast.iter().map(|(r, id)| (r.as_str(), *id)).collect();
        let scope = ctx.scope();
        let cursors = self
            .script
            .start_sequence(name, &scope, &cast, world, ctx.commands, ctx.rng, *self.limits)
            .map_err(|e| {
                let start = self.error_at(pc, e.code, e.message);
                if e.line == 0 {
                    return start;
                }
                // A role's own failure (its first stretch runs inside `start`) is placed where the
                // role failed, and says which `start` ran it.
                RuntimeError {
                    message: format!(
                        "{} (in sequence `{name}`, started at line {}:{})",
                        start.message, start.line, start.column
                    ),
                    ..e
                }
            })?;
        inst.start_roles(cursors, world.clock().tick());
        Ok(())
    }

    /// The current value of what a rule reads.
    pub fn read(&self, r: Read, inst: &ScriptState, ctx: &ScriptCtx<'_>) -> Value {
        match r {
            Read::Fact(f) => inst.facts.get(f as usize).cloned().unwrap_or_default(),
            Read::Global(g) => self.script.api.global_at(g as usize).map(|g| g.read(ctx)).unwrap_or_default(),
        }
    }
}

/// Drops a value the VM is done with. `Value`'s drop glue is an out-of-line call; the values a
/// run drops are mostly numbers and bools, which own nothing, so those are let go without it.
#[inline(always)]
pub(crate) fn discard(v: Value) {
    if matches!(v, Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_)) {
        std::mem::forget(v);
    } else {
        drop(v);
    }
}

/// Equality as scripts see it, the one meaning `==` has in designer text
/// ([`Value::loosely_equals`], shared with model conditions): a bool compares truthiness
/// (`PlayerArmed == TRUE`), a list equals each of its items (`playerHas == RedAmulet` when the
/// player holds several), strings compare without case, numbers compare as numbers.
pub fn values_equal(a: &Value, b: &Value) -> bool {
    a.loosely_equals(b)
}

/// The steps reading `v` whole costs: one per 16 bytes of text, one per element of a list or map.
fn size_work(v: &Value) -> u64 {
    match v {
        Value::Str(s) => s.len() as u64 / 16,
        Value::List(items) => items.len() as u64,
        Value::Map(m) => m.len() as u64,
        _ => 0,
    }
}

/// How a value reads inside a line of text: strings as they are, numbers as written (`7`,
/// `2.5`), booleans as `true`/`false`; nothing else (nil, entities, lists) has a plain form.
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::Str(s) => Some(s.clone()),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => Some(v.to_string()),
        _ => None,
    }
}

/// [`binary`] for `<`, `<=`, `>`, `>=` on two numbers; `None` for anything else.
#[inline]
fn compare_numbers(op: BinOp, a: &Value, b: &Value) -> Option<Value> {
    compare(op, a, b).map(Value::Bool)
}

/// [`compare_numbers`] as a plain bool.
#[inline(always)]
fn compare(op: BinOp, a: &Value, b: &Value) -> Option<bool> {
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return Some(match op {
            BinOp::Lt => x < y,
            BinOp::Le => x <= y,
            BinOp::Gt => x > y,
            BinOp::Ge => x >= y,
            _ => return None,
        });
    }
    let (x, y) = match (a, b) {
        (Value::Float(x), Value::Float(y)) => (*x, *y),
        (Value::Float(x), Value::Int(y)) => (*x, *y as f64),
        (Value::Int(x), Value::Float(y)) => (*x as f64, *y),
        _ => return None,
    };
    Some(match op {
        BinOp::Lt => x < y,
        BinOp::Le => x <= y,
        BinOp::Gt => x > y,
        BinOp::Ge => x >= y,
        _ => return None,
    })
}

fn binary(op: BinOp, a: &Value, b: &Value) -> Result<Value, (Code, String)> {
    let type_error = || (Code::RuntimeType, format!("`{}` cannot combine {} and {}", op.symbol(), Shown(a), Shown(b)));
    match op {
        BinOp::Eq => return Ok(Value::Bool(values_equal(a, b))),
        BinOp::Ne => return Ok(Value::Bool(!values_equal(a, b))),
        BinOp::And | BinOp::Or => {
            return Ok(Value::Bool(if op == BinOp::And { a.truthy() && b.truthy() } else { a.truthy() || b.truthy() }));
        }
        // `"You owe " + Gold`: text joined with anything that has a plain form.
        BinOp::Add if matches!(a, Value::Str(_)) || matches!(b, Value::Str(_)) => {
            return match (text_of(a), text_of(b)) {
                (Some(x), Some(y)) => Ok(Value::Str(x + &y)),
                _ => Err(type_error()),
            };
        }
        _ => {}
    }
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        let (x, y) = (*x, *y);
        let r = match op {
            BinOp::Lt => return Ok(Value::Bool(x < y)),
            BinOp::Le => return Ok(Value::Bool(x <= y)),
            BinOp::Gt => return Ok(Value::Bool(x > y)),
            BinOp::Ge => return Ok(Value::Bool(x >= y)),
            BinOp::Add => x.checked_add(y),
            BinOp::Sub => x.checked_sub(y),
            BinOp::Mul => x.checked_mul(y),
            BinOp::Div | BinOp::Rem if y == 0 => return Err((Code::RuntimeDivision, "division by zero".to_owned())),
            BinOp::Div => x.checked_div(y),
            BinOp::Rem => x.checked_rem(y),
            _ => None,
        };
        return r
            .map(Value::Int)
            .ok_or_else(|| (Code::RuntimeType, format!("`{}` overflowed on {x} and {y}", op.symbol())));
    }
    let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) else { return Err(type_error()) };
    Ok(match op {
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Ge => Value::Bool(x >= y),
        BinOp::Add => Value::Float(x + y),
        BinOp::Sub => Value::Float(x - y),
        BinOp::Mul => Value::Float(x * y),
        BinOp::Div | BinOp::Rem if y == 0.0 => return Err((Code::RuntimeDivision, "division by zero".to_owned())),
        BinOp::Div => Value::Float(x / y),
        BinOp::Rem => Value::Float(x % y),
        _ => return Err(type_error()),
    })
}

struct Shown<'a>(&'a Value);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::Str(s) => write!(f, "\"{s}\""),
            Value::Nil => f.write_str("nothing"),
            v => write!(f, "{v}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_follows_the_classic_scripts() {
        assert!(values_equal(&Value::from("Dagger"), &Value::Bool(true)), "armed == TRUE");
        assert!(values_equal(&Value::Bool(false), &Value::Nil));
        assert!(values_equal(&Value::from("troll"), &Value::from("Troll")));
        assert!(values_equal(
            &Value::List(vec![Value::from("Key"), Value::from("RedAmulet")]),
            &Value::from("RedAmulet")
        ));
        assert!(!values_equal(&Value::from("Sword"), &Value::from("Dagger")));
        assert!(values_equal(&Value::Int(2), &Value::Float(2.0)));
    }

    #[test]
    fn arithmetic_is_checked() {
        assert_eq!(binary(BinOp::Add, &Value::Int(2), &Value::Int(3)), Ok(Value::Int(5)));
        assert_eq!(binary(BinOp::Div, &Value::Int(7), &Value::Int(0)).unwrap_err().0, Code::RuntimeDivision);
        assert_eq!(binary(BinOp::Mul, &Value::Int(i64::MAX), &Value::Int(2)).unwrap_err().0, Code::RuntimeType);
        assert_eq!(binary(BinOp::Lt, &Value::from("a"), &Value::Int(1)).unwrap_err().0, Code::RuntimeType);
        assert_eq!(binary(BinOp::Lt, &Value::Float(1.5), &Value::Int(2)), Ok(Value::Bool(true)));
    }
}
