//! Production rules over a working memory: incremental forward chaining with refraction, a
//! naive peer, and backward chaining with an explanation.
//!
//! **Conflict resolution and refraction** are the one engine's ([`super::agenda`]): each cycle
//! the rules whose conditions hold and whose read values differ from what they last fired on form
//! the conflict set, [`Strategy`] picks one, it fires, and the cycle repeats until the set is
//! empty. `.tac` rule systems run on the same engine.
//!
//! **Incremental matching.** A rule is re-matched only when a fact it reads changed; the naive
//! peer ([`RuleSet::run_naive`]) drives [`super::agenda::forward_chain`] directly, re-matching
//! every rule every cycle, and gives the same firings.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::agenda::{Productions, Strategy, forward_chain};
use crate::decide::expr::{Apply, CompareOp, Expr};
use crate::decide::{DecideError, error::from_toml};
use crate::value::{Table, Value};
use crate::world::WorldRng;

/// A rule base as written in a data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// The value a fact has before anything sets it (the tech tree's `Unknown`).
    #[serde(default)]
    pub default: Value,
    /// How one rule is chosen among those that match.
    #[serde(default)]
    pub strategy: Strategy,
    /// The rules, in priority order for [`Strategy::First`].
    pub rules: Vec<RuleDef>,
}

/// One rule: `if when then assign …; emit …`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleDef {
    /// Its name (reported when it fires).
    pub name: String,
    /// The condition ([`Expr`] syntax; `Temple == Yes and …`).
    pub when: String,
    /// Facts it asserts.
    #[serde(default)]
    pub then: BTreeMap<String, Value>,
    /// Events it triggers (the host acts on them).
    #[serde(default)]
    pub emit: Vec<String>,
    /// Its weight for [`Strategy::Weight`].
    #[serde(default)]
    pub weight: f64,
}

/// How deep [`RuleSet::prove`] follows chains of rules.
pub const PROVE_DEPTH: u32 = 256;

/// One rule with its condition already parsed (see [`RuleSet::from_parsed`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedRule {
    /// Its name.
    pub name: String,
    /// Its condition.
    pub when: Expr,
    /// Facts it asserts, in order.
    pub then: Vec<(String, Value)>,
    /// Events it triggers.
    pub emit: Vec<String>,
    /// Its weight for [`Strategy::Weight`].
    pub weight: f64,
}

/// An index into a rule set's facts.
pub type FactId = usize;

/// A compiled rule base, shared by every entity that uses it.
#[derive(Debug, Clone)]
pub struct RuleSet {
    facts: Vec<String>,
    index: BTreeMap<String, FactId>,
    default: Value,
    strategy: Strategy,
    rules: Vec<Rule>,
    readers: Vec<Vec<usize>>,
}

#[derive(Debug, Clone)]
struct Rule {
    name: String,
    cond: Cond,
    reads: Vec<FactId>,
    assigns: Vec<(FactId, Value)>,
    emit: Vec<String>,
    weight: f64,
}

/// A condition with fact names resolved to ids.
#[derive(Debug, Clone)]
enum Cond {
    Const(bool),
    Truthy(FactId),
    Cmp(FactId, CompareOp, Value),
    Not(Box<Cond>),
    All(Vec<Cond>),
    Any(Vec<Cond>),
}

impl Cond {
    fn eval(&self, v: &[Value]) -> bool {
        match self {
            Cond::Const(b) => *b,
            Cond::Truthy(f) => v[*f].truthy(),
            Cond::Cmp(f, op, lit) => op.apply(&v[*f], lit),
            Cond::Not(c) => !c.eval(v),
            Cond::All(cs) => cs.iter().all(|c| c.eval(v)),
            Cond::Any(cs) => cs.iter().any(|c| c.eval(v)),
        }
    }
}

/// The facts of one entity, in a rule set's fact order.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkingMemory {
    values: Vec<Value>,
    dirty: Vec<FactId>,
    is_dirty: Vec<bool>,
}

impl WorkingMemory {
    /// A fact's value.
    pub fn get(&self, fact: FactId) -> &Value {
        self.values.get(fact).unwrap_or(&Value::Nil)
    }

    /// Sets a fact; a change is remembered so the next run re-matches only the rules reading it.
    pub fn set(&mut self, fact: FactId, value: Value) {
        let Some(slot) = self.values.get_mut(fact) else { return };
        if *slot != value {
            *slot = value;
            if !self.is_dirty[fact] {
                self.is_dirty[fact] = true;
                self.dirty.push(fact);
            }
        }
    }

    /// Every value, in fact order.
    pub fn values(&self) -> &[Value] {
        &self.values
    }
}

/// Per-entity chaining state: which rules match and what each last fired on.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChainState {
    matched: Vec<bool>,
    fired_on: Vec<Option<Vec<Value>>>,
    agenda: BTreeSet<usize>,
    primed: bool,
}

/// A rule that fired.
#[derive(Debug, Clone, PartialEq)]
pub struct Firing<'a> {
    /// The rule's name.
    pub rule: &'a str,
    /// The events it triggered.
    pub emit: &'a [String],
}

/// The result of backward chaining.
#[derive(Debug, Clone, PartialEq)]
pub struct Proof {
    /// Whether the goal holds or follows from the rules.
    pub proven: bool,
    /// The rules that would fire, in firing order (prerequisites first).
    pub rules: Vec<String>,
    /// The facts already in memory the proof rests on.
    pub known: Vec<(String, Value)>,
    /// Goals that neither hold nor follow (when not proven: what scouting must confirm).
    pub missing: Vec<(String, Value)>,
}

impl RuleSet {
    /// Parses and compiles a TOML rule base.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        Self::new(&from_toml::<RuleSpec>(text)?)
    }

    /// Compiles a rule base.
    pub fn new(spec: &RuleSpec) -> Result<Self, DecideError> {
        let mut parsed = Vec::new();
        for r in &spec.rules {
            parsed.push(ParsedRule {
                name: r.name.clone(),
                when: Expr::parse(&r.when)?,
                then: r.then.iter().map(|(f, v)| (f.clone(), v.clone())).collect(),
                emit: r.emit.clone(),
                weight: r.weight,
            });
        }
        Self::from_parsed(spec.default.clone(), spec.strategy, parsed)
    }

    /// Compiles rules whose conditions are already parsed: how a host that reads its own rule
    /// syntax (a `.tac` rule system) lowers its rules onto this engine.
    pub fn from_parsed(default: Value, strategy: Strategy, parsed: Vec<ParsedRule>) -> Result<Self, DecideError> {
        let mut names = BTreeSet::new();
        for r in &parsed {
            names.extend(r.when.facts());
            names.extend(r.then.iter().map(|(f, _)| f.clone()));
        }
        let facts: Vec<String> = names.into_iter().collect();
        let index: BTreeMap<String, FactId> = facts.iter().enumerate().map(|(i, f)| (f.clone(), i)).collect();
        let mut rules = Vec::new();
        let mut seen = BTreeSet::new();
        for r in parsed {
            if !seen.insert(r.name.clone()) {
                return Err(DecideError::Duplicate { kind: "rule", name: r.name.clone() });
            }
            rules.push(Rule {
                cond: compile(&r.when, &index),
                reads: r.when.facts().iter().map(|f| index[f]).collect(),
                assigns: r.then.iter().map(|(f, v)| (index[f], v.clone())).collect(),
                name: r.name,
                emit: r.emit,
                weight: r.weight,
            });
        }
        let mut readers = vec![Vec::new(); facts.len()];
        for (i, r) in rules.iter().enumerate() {
            for &f in &r.reads {
                readers[f].push(i);
            }
        }
        Ok(RuleSet { facts, index, default, strategy, rules, readers })
    }

    /// A fact's id.
    pub fn fact(&self, name: &str) -> Result<FactId, DecideError> {
        self.index.get(name).copied().ok_or_else(|| DecideError::unknown("fact", name))
    }

    /// The fact names, in id order.
    pub fn facts(&self) -> &[String] {
        &self.facts
    }

    /// A fresh working memory (every fact at the default) and chaining state.
    pub fn memory(&self) -> (WorkingMemory, ChainState) {
        let n = self.facts.len();
        let wm = WorkingMemory { values: vec![self.default.clone(); n], dirty: Vec::new(), is_dirty: vec![false; n] };
        let st = ChainState {
            matched: vec![false; self.rules.len()],
            fired_on: vec![None; self.rules.len()],
            agenda: BTreeSet::new(),
            primed: false,
        };
        (wm, st)
    }

    /// Sets a fact by name (a scout's report: `Temple = Yes`).
    pub fn assert(&self, wm: &mut WorkingMemory, fact: &str, value: impl Into<Value>) -> Result<(), DecideError> {
        wm.set(self.fact(fact)?, value.into());
        Ok(())
    }

    /// For script hosts: asserts `facts` (name → value), forward-chains to quiescence and
    /// returns `{fired = [rule names], emit = [events], facts = {non-default facts}}`.
    pub fn run_value(
        &self,
        wm: &mut WorkingMemory,
        st: &mut ChainState,
        facts: &Table,
        rng: &mut WorldRng,
    ) -> Result<Value, DecideError> {
        for (name, value) in facts {
            wm.set(self.fact(name)?, value.clone());
        }
        let firings = self.run(wm, st, rng, 10_000);
        let fired = firings.iter().map(|f| Value::from(f.rule)).collect();
        let emit = firings.iter().flat_map(|f| f.emit.iter().map(|e| Value::from(e.as_str()))).collect();
        Ok(Value::Map(Table::from([
            ("fired".to_owned(), Value::List(fired)),
            ("emit".to_owned(), Value::List(emit)),
            ("facts".to_owned(), Value::Map(self.to_table(wm))),
        ])))
    }

    /// What each rule last fired on, as a plain value (a list with `nil` for "never"), so a script
    /// host can keep refraction between calls in the script's state table.
    pub fn refraction_value(&self, st: &ChainState) -> Value {
        Value::List(st.fired_on.iter().map(|k| k.as_ref().map_or(Value::Nil, |k| Value::List(k.clone()))).collect())
    }

    /// Restores [`RuleSet::refraction_value`] into a fresh state; entries that no longer fit (the
    /// rule base was reloaded with other rules) are dropped, so those rules may fire again.
    pub fn restore_refraction(&self, st: &mut ChainState, saved: &Value) {
        let Value::List(items) = saved else { return };
        for (rule, item) in items.iter().enumerate().take(st.fired_on.len()) {
            if let Value::List(key) = item
                && key.len() == self.rules[rule].reads.len()
            {
                st.fired_on[rule] = Some(key.clone());
            }
        }
    }

    /// A fact's value by name.
    pub fn value<'a>(&self, wm: &'a WorkingMemory, fact: &str) -> Option<&'a Value> {
        self.index.get(fact).map(|&f| wm.get(f))
    }

    /// The facts that differ from the default, as a table (for script hosts and tests).
    pub fn to_table(&self, wm: &WorkingMemory) -> Table {
        self.facts
            .iter()
            .zip(&wm.values)
            .filter(|(_, v)| **v != self.default)
            .map(|(f, v)| (f.clone(), v.clone()))
            .collect()
    }

    fn key(&self, rule: usize, wm: &WorkingMemory) -> Vec<Value> {
        self.rules[rule].reads.iter().map(|&f| wm.values[f].clone()).collect()
    }

    fn rematch(&self, rule: usize, wm: &WorkingMemory, st: &mut ChainState) {
        let m = self.rules[rule].cond.eval(&wm.values);
        st.matched[rule] = m;
        let fresh = m && st.fired_on[rule].as_ref().is_none_or(|k| *k != self.key(rule, wm));
        if fresh {
            st.agenda.insert(rule);
        } else {
            st.agenda.remove(&rule);
        }
    }

    fn choose(&self, conflict: impl Iterator<Item = usize> + Clone, rng: &mut WorldRng) -> Option<usize> {
        self.strategy.choose(conflict, |r| self.rules[r].weight, rng)
    }

    fn fire<'a>(&'a self, rule: usize, wm: &mut WorkingMemory, st: &mut ChainState) -> Firing<'a> {
        st.fired_on[rule] = Some(self.key(rule, wm));
        for (f, v) in &self.rules[rule].assigns {
            wm.set(*f, v.clone());
        }
        Firing { rule: &self.rules[rule].name, emit: &self.rules[rule].emit }
    }

    /// Forward-chains to quiescence (or `max_firings`), re-matching only rules whose facts
    /// changed. Returns the firings in order.
    pub fn run<'a>(
        &'a self,
        wm: &mut WorkingMemory,
        st: &mut ChainState,
        rng: &mut WorldRng,
        max_firings: usize,
    ) -> Vec<Firing<'a>> {
        let mut out = Vec::new();
        if !st.primed {
            st.primed = true;
            wm.dirty.clear();
            wm.is_dirty.iter_mut().for_each(|d| *d = false);
            for r in 0..self.rules.len() {
                self.rematch(r, wm, st);
            }
        }
        loop {
            while let Some(f) = wm.dirty.pop() {
                wm.is_dirty[f] = false;
                for &r in &self.readers[f] {
                    self.rematch(r, wm, st);
                }
            }
            if out.len() >= max_firings {
                break;
            }
            let Some(rule) = self.choose(st.agenda.iter().copied(), rng) else { break };
            st.agenda.remove(&rule);
            out.push(self.fire(rule, wm, st));
        }
        out
    }

    /// The naive peer of [`RuleSet::run`]: the one engine's cycle ([`forward_chain`]), which
    /// re-matches every rule every cycle. Same firings.
    pub fn run_naive<'a>(
        &'a self,
        wm: &mut WorkingMemory,
        st: &mut ChainState,
        rng: &mut WorldRng,
        max_firings: usize,
    ) -> Vec<Firing<'a>> {
        let mut rules = Memory { set: self, wm, rng };
        let chain = match forward_chain(&mut rules, self.strategy, &mut st.fired_on, max_firings) {
            Ok(chain) => chain,
            Err(never) => match never {},
        };
        wm.dirty.clear();
        wm.is_dirty.iter_mut().for_each(|d| *d = false);
        st.primed = false;
        chain.fired.into_iter().map(|r| Firing { rule: &self.rules[r].name, emit: &self.rules[r].emit }).collect()
    }

    /// Backward-chains from the goal `fact == value`: which rules would have to fire, resting on
    /// which known facts, and what is missing (L5533–5548). Rule conditions must be conjunctions
    /// of comparisons for their `==` parts to become sub-goals; other tests are checked against
    /// memory as they stand.
    pub fn prove(&self, wm: &WorkingMemory, fact: &str, value: impl Into<Value>) -> Result<Proof, DecideError> {
        self.prove_within(wm, fact, value, PROVE_DEPTH)
    }

    /// [`RuleSet::prove`] following chains of rules at most `max_depth` deep; a goal deeper than
    /// that counts as unproven (so a long or hostile rule base cannot exhaust the stack).
    pub fn prove_within(
        &self,
        wm: &WorkingMemory,
        fact: &str,
        value: impl Into<Value>,
        max_depth: u32,
    ) -> Result<Proof, DecideError> {
        let f = self.fact(fact)?;
        let mut proof = Proof { proven: false, rules: Vec::new(), known: Vec::new(), missing: Vec::new() };
        let mut stack = Vec::new();
        proof.proven = self.goal(wm, f, &value.into(), &mut stack, &mut proof, max_depth.min(PROVE_DEPTH));
        Ok(proof)
    }

    fn goal(
        &self,
        wm: &WorkingMemory,
        f: FactId,
        v: &Value,
        stack: &mut Vec<(FactId, Value)>,
        proof: &mut Proof,
        depth: u32,
    ) -> bool {
        if CompareOp::Eq.apply(&wm.values[f], v) {
            proof.known.push((self.facts[f].clone(), v.clone()));
            return true;
        }
        if depth == 0 || stack.iter().any(|(g, w)| *g == f && w.loosely_equals(v)) {
            return false;
        }
        stack.push((f, v.clone()));
        let mut first_missing = None;
        for r in &self.rules {
            if !r.assigns.iter().any(|(g, w)| *g == f && CompareOp::Eq.apply(w, v)) {
                continue;
            }
            let mut trial = Proof { proven: false, rules: Vec::new(), known: Vec::new(), missing: Vec::new() };
            if self.premise(wm, &r.cond, stack, &mut trial, depth - 1) {
                proof.rules.append(&mut trial.rules);
                proof.known.append(&mut trial.known);
                proof.rules.push(r.name.clone());
                stack.pop();
                return true;
            }
            // A rule that fails only by going round a cycle says nothing about what is missing.
            if !trial.missing.is_empty() {
                first_missing.get_or_insert(trial.missing);
            }
        }
        stack.pop();
        match first_missing {
            // What the first rule that could conclude the goal still lacks.
            Some(m) => proof.missing.extend(m),
            // Nothing concludes it: it must be observed.
            None => proof.missing.push((self.facts[f].clone(), v.clone())),
        }
        false
    }

    fn premise(
        &self,
        wm: &WorkingMemory,
        c: &Cond,
        stack: &mut Vec<(FactId, Value)>,
        proof: &mut Proof,
        depth: u32,
    ) -> bool {
        match c {
            Cond::All(cs) => {
                // Every part is visited, so that `missing` lists all that is lacking.
                let mut ok = true;
                for c in cs {
                    ok &= self.premise(wm, c, stack, proof, depth);
                }
                ok
            }
            Cond::Cmp(f, CompareOp::Eq, v) => self.goal(wm, *f, v, stack, proof, depth),
            Cond::Truthy(f) => self.goal(wm, *f, &Value::Bool(true), stack, proof, depth),
            other => other.eval(&wm.values),
        }
    }
}

/// A rule set over one working memory, as the one engine's cycle sees it.
struct Memory<'s, 'w> {
    set: &'s RuleSet,
    wm: &'w mut WorkingMemory,
    rng: &'w mut WorldRng,
}

impl Productions for Memory<'_, '_> {
    type Error = std::convert::Infallible;

    fn len(&self) -> usize {
        self.set.rules.len()
    }

    fn weight(&self, rule: usize) -> f64 {
        self.set.rules[rule].weight
    }

    fn matches(&mut self, rule: usize) -> Result<Option<Vec<Value>>, Self::Error> {
        Ok(self.set.rules[rule].cond.eval(&self.wm.values).then(|| self.set.key(rule, self.wm)))
    }

    fn fire(&mut self, rule: usize) -> Result<(), Self::Error> {
        for (f, v) in &self.set.rules[rule].assigns {
            self.wm.set(*f, v.clone());
        }
        Ok(())
    }

    fn rng(&mut self) -> &mut WorldRng {
        self.rng
    }
}

fn compile(e: &Expr, index: &BTreeMap<String, FactId>) -> Cond {
    match e {
        Expr::Const(b) => Cond::Const(*b),
        Expr::Fact(f) => Cond::Truthy(index[f]),
        Expr::Compare { fact, op, value } => Cond::Cmp(index[fact], *op, value.clone()),
        Expr::Not(e) => Cond::Not(Box::new(compile(e, index))),
        Expr::And(es) => Cond::All(es.iter().map(|e| compile(e, index)).collect()),
        Expr::Or(es) => Cond::Any(es.iter().map(|e| compile(e, index)).collect()),
    }
}
