//! A propositional planner (S4:705–732): rules with preconditions and postconditions over a
//! finite set of ground propositions, held as bit vectors, searched breadth first, with plans
//! cached under a mask of the propositions they depend on.
//!
//! A cached plan is reused in any state that agrees with the original on its mask: the
//! propositions read by the plan's preconditions and by the goal. Every precondition then holds
//! again and every postcondition writes the same bits, so the plan still reaches the goal.

use std::collections::{BTreeMap, VecDeque};

use serde::{Deserialize, Serialize};

use crate::decide::{DecideError, error::from_toml};
use crate::value::Value;

/// A planning domain as written in a data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DomainSpec {
    /// The rules.
    pub rules: Vec<PlanRuleSpec>,
}

/// `Preconditions: at-home & is-hungry / Action: go-to-restaurant / Postconditions: ~at-home & at-restaurant`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanRuleSpec {
    /// The action.
    pub action: String,
    /// Literals that must hold (`~p` must not).
    #[serde(default)]
    pub pre: Vec<String>,
    /// Literals made true (`~p` made false).
    #[serde(default)]
    pub post: Vec<String>,
}

/// A compiled rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rule {
    pre_true: u64,
    pre_false: u64,
    add: u64,
    del: u64,
}

/// A planner over at most 64 propositions.
#[derive(Debug, Clone)]
pub struct Planner {
    props: Vec<String>,
    actions: Vec<String>,
    rules: Vec<Rule>,
    cache: Vec<CachedPlan>,
    /// How many plans were found by search (not from the cache).
    pub searches: u32,
}

#[derive(Debug, Clone)]
struct CachedPlan {
    mask: u64,
    key: u64,
    goal: (u64, u64),
    plan: Vec<u16>,
}

/// A set of true and false literals: a goal or a partial state.
pub type Literals = (u64, u64);

impl Planner {
    /// Parses and compiles a TOML domain.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        Self::new(&from_toml::<DomainSpec>(text)?)
    }

    /// Compiles a domain.
    pub fn new(spec: &DomainSpec) -> Result<Self, DecideError> {
        let mut p =
            Planner { props: Vec::new(), actions: Vec::new(), rules: Vec::new(), cache: Vec::new(), searches: 0 };
        for r in &spec.rules {
            let (pre_true, pre_false) = p.literals_mut(&r.pre)?;
            let (add, del) = p.literals_mut(&r.post)?;
            p.actions.push(r.action.clone());
            p.rules.push(Rule { pre_true, pre_false, add, del });
        }
        Ok(p)
    }

    fn literals_mut(&mut self, lits: &[String]) -> Result<Literals, DecideError> {
        let (mut t, mut f) = (0, 0);
        for l in lits {
            let (neg, name) = l.strip_prefix('~').map_or((false, l.as_str()), |n| (true, n));
            let i = match self.props.iter().position(|p| p == name) {
                Some(i) => i,
                None if self.props.len() < 64 => {
                    self.props.push(name.to_owned());
                    self.props.len() - 1
                }
                None => return Err(DecideError::invalid("planning domain", "at most 64 propositions")),
            };
            if neg {
                f |= 1 << i;
            } else {
                t |= 1 << i;
            }
        }
        Ok((t, f))
    }

    /// Literals by name (`["at-home", "~is-hungry"]`); unknown propositions are an error.
    pub fn literals(&self, lits: &[&str]) -> Result<Literals, DecideError> {
        let (mut t, mut f) = (0, 0);
        for l in lits {
            let (neg, name) = l.strip_prefix('~').map_or((false, *l), |n| (true, n));
            let i =
                self.props.iter().position(|p| p == name).ok_or_else(|| DecideError::unknown("proposition", name))?;
            if neg {
                f |= 1u64 << i;
            } else {
                t |= 1u64 << i;
            }
        }
        Ok((t, f))
    }

    /// The state with exactly these propositions true.
    pub fn state(&self, true_props: &[&str]) -> Result<u64, DecideError> {
        Ok(self.literals(true_props)?.0)
    }

    /// An action's name.
    pub fn action(&self, i: u16) -> &str {
        self.actions.get(usize::from(i)).map_or("", String::as_str)
    }

    /// The propositions true in `state`, by name.
    pub fn describe(&self, state: u64) -> Vec<&str> {
        (0..self.props.len()).filter(|i| state >> i & 1 == 1).map(|i| self.props[i].as_str()).collect()
    }

    /// Whether the rule's preconditions hold in `state` (`state & pre == pre`).
    fn applicable(r: &Rule, state: u64) -> bool {
        state & r.pre_true == r.pre_true && state & r.pre_false == 0
    }

    /// Applies a rule's postconditions.
    fn apply(r: &Rule, state: u64) -> u64 {
        (state & !r.del) | r.add
    }

    /// Runs a plan from `state`; `None` if a step is not applicable.
    pub fn execute(&self, state: u64, plan: &[u16]) -> Option<u64> {
        plan.iter().try_fold(state, |s, &a| {
            let r = self.rules.get(usize::from(a))?;
            Self::applicable(r, s).then(|| Self::apply(r, s))
        })
    }

    fn satisfied(state: u64, goal: Literals) -> bool {
        state & goal.0 == goal.0 && state & goal.1 == 0
    }

    /// A shortest plan (action ids) from `state` to `goal`, at most `max_len` steps; from the
    /// cache when a stored plan covers the state.
    pub fn plan(&mut self, state: u64, goal: Literals, max_len: usize) -> Option<Vec<u16>> {
        if let Some(c) = self.cache.iter().find(|c| c.goal == goal && state & c.mask == c.key) {
            return Some(c.plan.clone());
        }
        let plan = self.search(state, goal, max_len)?;
        self.searches += 1;
        let mut mask = goal.0 | goal.1;
        for &a in &plan {
            mask |= self.rules[usize::from(a)].pre_true | self.rules[usize::from(a)].pre_false;
        }
        self.cache.push(CachedPlan { mask, key: state & mask, goal, plan: plan.clone() });
        Some(plan)
    }

    /// For script hosts: the true propositions and the goal literals as lists of strings; returns
    /// the plan as a list of action names, or nil when there is none within `max_len` steps.
    pub fn plan_value(&mut self, state: &Value, goal: &Value, max_len: usize) -> Result<Value, DecideError> {
        let strings = |v: &Value| -> Vec<String> {
            match v {
                Value::List(items) => items.iter().map(ToString::to_string).collect(),
                Value::Nil => Vec::new(),
                other => vec![other.to_string()],
            }
        };
        let (s, g) = (strings(state), strings(goal));
        let state = self.state(&s.iter().map(String::as_str).collect::<Vec<_>>())?;
        let goal = self.literals(&g.iter().map(String::as_str).collect::<Vec<_>>())?;
        Ok(match self.plan(state, goal, max_len) {
            Some(plan) => Value::List(plan.iter().map(|&a| Value::from(self.action(a))).collect()),
            None => Value::Nil,
        })
    }

    /// Breadth-first search without the cache (the naive peer).
    pub fn search(&self, state: u64, goal: Literals, max_len: usize) -> Option<Vec<u16>> {
        let mut parent: BTreeMap<u64, (u64, u16)> = BTreeMap::new();
        let mut frontier = VecDeque::from([(state, 0usize)]);
        parent.insert(state, (state, u16::MAX));
        while let Some((s, depth)) = frontier.pop_front() {
            if Self::satisfied(s, goal) {
                let mut plan = Vec::new();
                let mut cur = s;
                while cur != state {
                    let (prev, a) = parent[&cur];
                    plan.push(a);
                    cur = prev;
                }
                plan.reverse();
                return Some(plan);
            }
            if depth >= max_len {
                continue;
            }
            for (i, r) in self.rules.iter().enumerate() {
                if Self::applicable(r, s) {
                    let next = Self::apply(r, s);
                    if let std::collections::btree_map::Entry::Vacant(e) = parent.entry(next) {
                        e.insert((s, i as u16));
                        frontier.push_back((next, depth + 1));
                    }
                }
            }
        }
        None
    }
}
