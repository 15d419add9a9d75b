//! Rule systems (reference 002c §1.3): forward chaining to quiescence and backward chaining to a
//! goal, over working memory kept in the script's [`Instance`].
//!
//! **Conflict resolution** (documented in `docs/tac.md`): each cycle matches every rule, drops the
//! ones *refracted* — a rule does not fire again while the values it reads are the ones it last
//! fired on — and fires one of the rest: the first in authoring order (`first`, the default), the
//! highest weight with ties to the first (`weight`, as the book's fighting-game predictor), or one
//! drawn from the world's generator (`random`). Cycles repeat until no rule can fire, so an
//! always-true rule such as `when Priest == Yes then …` fires once, not forever.
//!
//! **Why not `tactica_engine::decide::rules`.** The engine's `RuleSet` has the same strategies,
//! tie-breaking and refraction key (the values a rule reads), but its matching is incremental: a
//! rule is re-matched only when a fact it reads changes in working memory, and its agenda persists
//! between runs. That holds because its conditions read facts alone and its actions assign
//! constants. A `.tac` rule's condition is bytecode that also reads engine globals and calls host
//! queries (`PlayerLocation`, `Random` …), which change outside working memory, and its action is
//! any statement (host calls, computed assignments) that can fail at run time (step budget, types).
//! Running `.tac` rules on the engine's agenda would miss re-matches when a global changes and
//! would need a fallible, generic condition/action interface in the engine; so the two stay
//! separate, and this one re-matches every rule each cycle (rule systems are small).

use tactica_engine::Value;
use tactica_stdlib::ScriptCtx;

use crate::code::{RulesCode, Script, Strategy};
use crate::diagnostics::Code;
use crate::runtime::Instance;
use crate::vm::{RuntimeError, Vm, values_equal};

/// Runs rule system `block` to quiescence; returns the names of the rules fired, in order.
pub(crate) fn forward_chain(
    vm: &mut Vm<'_>,
    block: usize,
    inst: &mut Instance,
    ctx: &mut ScriptCtx<'_>,
) -> Result<Vec<String>, RuntimeError> {
    let script = vm.script;
    let Some(rules) = script.rules.get(block) else { return Ok(vec![]) };
    let mut fired = Vec::new();
    loop {
        let mut candidates: Vec<(usize, Vec<Value>)> = Vec::new();
        for (i, rule) in rules.rules.iter().enumerate() {
            if !vm.run(rule.cond, inst, ctx)?.truthy() {
                continue;
            }
            let key: Vec<Value> = rule.reads.iter().map(|&r| vm.read(r, inst, ctx)).collect();
            if inst.refraction[block].get(i).is_some_and(|last| last.as_ref() == Some(&key)) {
                continue;
            }
            candidates.push((i, key));
        }
        let Some(pick) = choose(rules, &candidates, ctx) else { break };
        if fired.len() >= vm.limits.max_rule_firings as usize {
            let at = rules.rules[candidates[pick].0].cond as usize;
            return Err(vm.error_at(
                at,
                Code::BudgetExceeded,
                format!("rule system `{}` fired {} rules without settling", rules.name, fired.len()),
            ));
        }
        let (i, key) = candidates.swap_remove(pick);
        if let Some(slot) = inst.refraction[block].get_mut(i) {
            *slot = Some(key);
        }
        vm.run(rules.rules[i].then, inst, ctx)?;
        fired.push(rules.rules[i].name.clone());
    }
    Ok(fired)
}

fn choose(rules: &RulesCode, candidates: &[(usize, Vec<Value>)], ctx: &mut ScriptCtx<'_>) -> Option<usize> {
    if candidates.is_empty() {
        return None;
    }
    Some(match rules.strategy {
        Strategy::First => 0,
        Strategy::Random => ctx.rng.below(candidates.len()),
        Strategy::Weight => {
            // Strictly greater replaces, so ties stay with the first (reference 002c L5712).
            let mut best = 0;
            for (k, (i, _)) in candidates.iter().enumerate() {
                if rules.rules[*i].weight > rules.rules[candidates[best].0].weight {
                    best = k;
                }
            }
            best
        }
    })
}

/// Backward chaining: whether `fact == goal` holds in working memory or follows from rules whose
/// then-part asserts it and whose if-part (a conjunction of `fact == constant`) can be proven in
/// turn. Returns the rules used, goal first; `None` when it cannot be proven. Cycles and depth
/// beyond `max_depth` count as unproven.
pub fn prove(script: &Script, inst: &Instance, fact: u32, goal: &Value, max_depth: u32) -> Option<Vec<String>> {
    let mut visiting = Vec::new();
    prove_in(script, inst, fact, goal, max_depth, &mut visiting)
}

fn prove_in(
    script: &Script,
    inst: &Instance,
    fact: u32,
    goal: &Value,
    depth: u32,
    visiting: &mut Vec<(u32, Value)>,
) -> Option<Vec<String>> {
    if inst.facts.get(fact as usize).is_some_and(|v| values_equal(v, goal)) {
        return Some(vec![]);
    }
    if depth == 0 || visiting.iter().any(|(f, v)| *f == fact && values_equal(v, goal)) {
        return None;
    }
    visiting.push((fact, goal.clone()));
    let result = script.rules.iter().flat_map(|b| &b.rules).find_map(|rule| {
        if !rule.asserts.iter().any(|(f, v)| *f == fact && values_equal(v, goal)) {
            return None;
        }
        let conjuncts = rule.conjuncts.as_ref()?;
        let mut used = vec![rule.name.clone()];
        for (f, v) in conjuncts {
            used.extend(prove_in(script, inst, *f, v, depth - 1, visiting)?);
        }
        Some(used)
    });
    visiting.pop();
    result
}
