//! Rule systems (forward chaining to quiescence, backward chaining to a goal) on the engine's one
//! rule engine, over working memory kept in the script's [`Instance`].
//!
//! **Forward chaining** is [`tactica_engine::decide::rules::forward_chain`]: the same cycle,
//! conflict resolution ([`Strategy`]: `first`, `weight` with ties to the first, `random` from the
//! world's generator) and refraction (a rule does not fire again while the values it reads are
//! the ones it last fired on, so `when Priest == Yes then …` fires once, not forever) as a
//! scenario's rule-base files. What differs is only what a `.tac` rule is: its condition is
//! bytecode that may also read engine globals and call host queries, and its action any statement;
//! both may fail (step budget, types), which stops the chain with the error. Because conditions
//! read more than working memory, every rule is re-matched each cycle (rule systems are small),
//! where a rule-base file's `RuleSet::run` re-matches only the rules whose facts changed.
//!
//! **Backward chaining** (`prove(Fact == value)`) is the engine's `RuleSet::prove_within`, on a
//! rule set built from the file's rules when it compiles: a rule whose condition is a conjunction
//! of `fact == constant` concludes its `fact = constant` assignments from those sub-goals; other
//! rules cannot serve as premises.

use std::collections::BTreeMap;

use tactica_engine::Value;
use tactica_engine::decide::expr::{CompareOp, Expr};
use tactica_engine::decide::rules::{ParsedRule, Productions, RuleSet, Strategy, forward_chain};
use tactica_engine::world::WorldRng;
use tactica_stdlib::ScriptCtx;

use crate::code::{RulesCode, Script};
use crate::diagnostics::Code;
use crate::runtime::{Instance, ScriptState};
use crate::vm::{RuntimeError, Vm};

/// One `.tac` rule system over one instance, as the engine's cycle sees it.
struct TacRules<'a, 'v, 'c> {
    vm: &'a mut Vm<'v>,
    rules: &'a RulesCode,
    inst: &'a mut ScriptState,
    ctx: &'a mut ScriptCtx<'c>,
}

impl Productions for TacRules<'_, '_, '_> {
    type Error = RuntimeError;

    fn len(&self) -> usize {
        self.rules.rules.len()
    }

    fn weight(&self, rule: usize) -> f64 {
        self.rules.rules[rule].weight as f64
    }

    fn matches(&mut self, rule: usize) -> Result<Option<Vec<Value>>, RuntimeError> {
        let r = &self.rules.rules[rule];
        if !self.vm.run(r.cond, self.inst, self.ctx)?.truthy() {
            return Ok(None);
        }
        Ok(Some(r.reads.iter().map(|&read| self.vm.read(read, self.inst, self.ctx)).collect()))
    }

    fn fire(&mut self, rule: usize) -> Result<(), RuntimeError> {
        self.vm.run(self.rules.rules[rule].then, self.inst, self.ctx).map(|_| ())
    }

    fn rng(&mut self) -> &mut WorldRng {
        self.ctx.rng
    }
}

/// Runs rule system `block` to quiescence; returns the names of the rules fired, in order.
pub(crate) fn forward_chain_block(
    vm: &mut Vm<'_>,
    block: usize,
    inst: &mut ScriptState,
    ctx: &mut ScriptCtx<'_>,
) -> Result<Vec<String>, RuntimeError> {
    let script = vm.script;
    let Some(rules) = script.rules.get(block) else { return Ok(vec![]) };
    let max = vm.limits.max_rule_firings as usize;
    let mut fired_on = std::mem::take(&mut inst.refraction[block]);
    let outcome = {
        let mut productions = TacRules { vm: &mut *vm, rules, inst: &mut *inst, ctx: &mut *ctx };
        forward_chain(&mut productions, rules.strategy, &mut fired_on, max)
    };
    inst.refraction[block] = fired_on;
    let chain = outcome?;
    if let Some(next) = chain.unsettled {
        let at = rules.rules[next].cond as usize;
        return Err(vm.error_at(
            at,
            Code::BudgetExceeded,
            format!("rule system `{}` fired {} rules without settling", rules.name, chain.fired.len()),
        ));
    }
    Ok(chain.fired.into_iter().map(|r| rules.rules[r].name.clone()).collect())
}

/// The file's rules on the engine's rule model, for backward chaining. Rule names repeated in
/// several rule systems are qualified with the system's name.
pub(crate) fn proof_model(script: &Script) -> Option<RuleSet> {
    let mut uses: BTreeMap<&str, usize> = BTreeMap::new();
    for r in script.rules.iter().flat_map(|b| &b.rules) {
        *uses.entry(r.name.as_str()).or_default() += 1;
    }
    let fact = |f: u32| script.facts.get(f as usize).cloned().unwrap_or_default();
    let mut parsed = Vec::new();
    for block in &script.rules {
        for r in &block.rules {
            let name = if uses[r.name.as_str()] > 1 { format!("{}.{}", block.name, r.name) } else { r.name.clone() };
            let when = match &r.conjuncts {
                Some(parts) => Expr::And(
                    parts
                        .iter()
                        .map(|(f, v)| Expr::Compare { fact: fact(*f), op: CompareOp::Eq, value: v.clone() })
                        .collect(),
                ),
                // Not a conjunction of `fact == constant`: it can conclude nothing by proof.
                None => Expr::Const(false),
            };
            let then = r.asserts.iter().map(|(f, v)| (fact(*f), v.clone())).collect();
            parsed.push(ParsedRule { name, when, then, emit: Vec::new(), weight: r.weight as f64 });
        }
    }
    if parsed.is_empty() {
        return None;
    }
    RuleSet::from_parsed(Value::Nil, Strategy::First, parsed).ok()
}

/// Backward chaining: whether `fact == goal` holds in working memory or follows from rules whose
/// then-part asserts it and whose if-part (a conjunction of `fact == constant`) can be proven in
/// turn. Returns the rules that would fire, in firing order (prerequisites first); `None` when it
/// cannot be proven. Cycles and chains deeper than `max_depth` count as unproven.
pub fn prove(script: &Script, inst: &Instance, fact: u32, goal: &Value, max_depth: u32) -> Option<Vec<String>> {
    prove_in(script, &inst.state, fact, goal, max_depth)
}

/// [`prove`] over the script's part of an instance (what the VM holds while it runs).
pub(crate) fn prove_in(
    script: &Script,
    inst: &ScriptState,
    fact: u32,
    goal: &Value,
    max_depth: u32,
) -> Option<Vec<String>> {
    let name = script.facts.get(fact as usize)?;
    let holds = || inst.facts.get(fact as usize).is_some_and(|v| v.loosely_equals(goal));
    let Some(model) = &script.proofs else { return holds().then(Vec::new) };
    let (mut wm, _) = model.memory();
    for (f, value) in script.facts.iter().zip(&inst.facts) {
        // Facts no rule mentions cannot take part in a proof.
        let _ = model.assert(&mut wm, f, value.clone());
    }
    match model.prove_within(&wm, name, goal.clone(), max_depth) {
        Ok(proof) => proof.proven.then_some(proof.rules),
        // The goal is a fact no rule concludes or reads: it holds or it does not.
        Err(_) => holds().then(Vec::new),
    }
}
