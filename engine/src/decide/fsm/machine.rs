//! Data-driven finite state machines with ordered guarded transitions and optional hierarchy.
//!
//! A machine is shared data ([`StateMachine`]); each entity holds its own small [`FsmState`].
//! Each [`StateMachine::step`]:
//!
//! 1. walks the active states from the outermost parent down to the leaf and, within each state,
//!    its transitions in written order; the first guard that holds fires (so an outer "alive →
//!    dead" or the ghost's `imBlue` override wins over anything inside);
//! 2. on a transition, runs exit hooks from the leaf up to the common ancestor, then enter hooks
//!    down to the new leaf (a composite target descends through `initial` children);
//! 3. runs the tick hooks of the active states, outermost first.
//!
//! No guard firing means staying. Hooks are names the host runs (a script function, an action);
//! the engine only reports them, in order, as [`Hook`]s.
//!
//! One engine for every state machine: a scenario's machine files give guards as text
//! ([`Expr`]); a host with guards of its own — `.tac` machines, whose guards are compiled
//! conditions that may fail — builds a `StateMachine<G>` with [`StateMachine::from_states`] and
//! steps it with [`StateMachine::try_step_with`]. [`SelfTransition`] says what a transition to the
//! state one is in means: leave and re-enter (the default), or stay (`.tac`).

use serde::{Deserialize, Serialize};

use crate::decide::expr::Expr;
use crate::decide::{DecideError, error::from_toml};
use crate::value::{Table, Value};
use crate::world::WorldRng;

/// A state machine as written in a data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FsmSpec {
    /// The state the machine starts in (a composite state descends to its initial child).
    pub initial: String,
    /// The states.
    pub states: Vec<StateSpec>,
    /// What a transition to the current state does.
    #[serde(default)]
    pub self_transition: SelfTransition,
}

/// What a transition whose target is the active state does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SelfTransition {
    /// Exit the state and enter it again (its exit and enter hooks run, `ticks_in_state` restarts).
    #[default]
    Reenter,
    /// Stay: the transition is taken — later transitions are not tried — but nothing is left or
    /// entered, and `ticks_in_state` goes on counting. `.tac` machines work this way.
    Stay,
}

/// One state of a machine a host builds in code ([`StateMachine::from_states`]), with guards of
/// the host's own type `G`.
#[derive(Debug, Clone, PartialEq)]
pub struct StateDef<G> {
    /// Its name.
    pub name: String,
    /// The composite state it belongs to.
    pub parent: Option<String>,
    /// For a composite state: the child entered when the state itself is the target.
    pub initial: Option<String>,
    /// Hooks run when the state is entered.
    pub on_enter: Vec<String>,
    /// Hooks run when the state is left.
    pub on_exit: Vec<String>,
    /// Hooks run on every step while the state is active.
    pub on_tick: Vec<String>,
    /// Transitions, tried in order: a guard and the targets with their weights.
    pub transitions: Vec<(G, Vec<(String, f64)>)>,
}

/// One state.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateSpec {
    /// Its name.
    pub name: String,
    /// The composite state it belongs to.
    #[serde(default)]
    pub parent: Option<String>,
    /// For a composite state: the child entered when the state itself is the target.
    #[serde(default)]
    pub initial: Option<String>,
    /// Hooks run when the state is entered (a list of names, or one name alone).
    #[serde(default, deserialize_with = "hook_names")]
    pub on_enter: Vec<String>,
    /// Hooks run when the state is left.
    #[serde(default, deserialize_with = "hook_names")]
    pub on_exit: Vec<String>,
    /// Hooks run on every step while the state is active.
    #[serde(default, deserialize_with = "hook_names")]
    pub on_tick: Vec<String>,
    /// Transitions, tried in order.
    #[serde(default)]
    pub transitions: Vec<TransitionSpec>,
}

/// A state's hooks as a file writes them: a list of names (`on_enter = ["alarm", "hide"]`), or
/// one name alone (`on_enter = "alarm"`), which is the list of that one.
fn hook_names<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    struct Names;
    impl<'de> serde::de::Visitor<'de> for Names {
        type Value = Vec<String>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a hook name or a list of hook names")
        }

        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Vec<String>, E> {
            Ok(vec![v.to_owned()])
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
            let mut names = Vec::new();
            while let Some(name) = seq.next_element::<String>()? {
                names.push(name);
            }
            Ok(names)
        }
    }
    d.deserialize_any(Names)
}

/// A guarded transition: to one state, or to one of several by weight (probabilistic
/// transitions, chapter 12: attack 0.5, flee 0.2, hide 0.1 — weights need not sum to 1).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransitionSpec {
    /// The guard ([`Expr`] syntax); empty means always.
    #[serde(default)]
    pub when: String,
    /// The target state.
    #[serde(default)]
    pub to: Option<String>,
    /// Weighted targets: `[[state, weight], …]`.
    #[serde(default)]
    pub weighted: Vec<(String, f64)>,
}

/// Which hook a [`Hook`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookKind {
    /// Entering a state.
    Enter,
    /// Leaving a state.
    Exit,
    /// A step while active.
    Tick,
}

/// A hook the host should run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hook<'a> {
    /// Enter, exit or tick.
    pub kind: HookKind,
    /// The state it belongs to.
    pub state: &'a str,
    /// That state's id.
    pub id: StateId,
    /// The hook's name.
    pub name: &'a str,
}

/// An index into a machine's states.
pub type StateId = u16;

/// A compiled state machine; `G` is the guard type (text conditions for data files).
#[derive(Debug, Clone)]
pub struct StateMachine<G = Expr> {
    states: Vec<State<G>>,
    initial: StateId,
    self_transition: SelfTransition,
}

#[derive(Debug, Clone)]
struct State<G> {
    name: String,
    parent: Option<StateId>,
    initial_child: Option<StateId>,
    depth: u8,
    on_enter: Vec<String>,
    on_exit: Vec<String>,
    on_tick: Vec<String>,
    transitions: Vec<Transition<G>>,
}

#[derive(Debug, Clone)]
struct Transition<G> {
    guard: G,
    targets: Vec<(StateId, f64)>,
}

/// One entity's position in a machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FsmState {
    /// The active leaf state.
    pub current: StateId,
    /// Steps taken since the leaf was entered.
    pub ticks_in_state: u32,
}

/// What a step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The leaf before the step.
    pub from: StateId,
    /// The leaf after it.
    pub to: StateId,
    /// Whether a transition fired (a self-transition counts).
    pub fired: bool,
}

impl StateMachine {
    /// Parses and compiles a TOML machine.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        Self::new(&from_toml::<FsmSpec>(text)?)
    }

    /// Compiles a machine, checking names, parents (no cycles) and guards.
    pub fn new(spec: &FsmSpec) -> Result<Self, DecideError> {
        let mut states = Vec::with_capacity(spec.states.len());
        for s in &spec.states {
            let mut transitions = Vec::new();
            for t in &s.transitions {
                let guard = if t.when.trim().is_empty() { Expr::Const(true) } else { Expr::parse(&t.when)? };
                let mut targets = t.weighted.clone();
                if let Some(to) = &t.to {
                    targets.push((to.clone(), 1.0));
                }
                transitions.push((guard, targets));
            }
            states.push(StateDef {
                name: s.name.clone(),
                parent: s.parent.clone(),
                initial: s.initial.clone(),
                on_enter: s.on_enter.clone(),
                on_exit: s.on_exit.clone(),
                on_tick: s.on_tick.clone(),
                transitions,
            });
        }
        StateMachine::from_states(&spec.initial, states, spec.self_transition)
    }
}

impl<G> StateMachine<G> {
    /// Compiles a machine whose guards the host made, checking names, parents (no cycles),
    /// initial children and targets.
    pub fn from_states(
        initial: &str,
        defs: Vec<StateDef<G>>,
        self_transition: SelfTransition,
    ) -> Result<Self, DecideError> {
        if defs.is_empty() || defs.len() > usize::from(StateId::MAX) {
            return Err(DecideError::invalid("state machine", "needs between 1 and 65535 states"));
        }
        let names: Vec<String> = defs.iter().map(|s| s.name.clone()).collect();
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(DecideError::Duplicate { kind: "state", name: n.clone() });
            }
        }
        let id = |name: &str| -> Result<StateId, DecideError> {
            names
                .iter()
                .position(|n| n == name)
                .map(|i| i as StateId)
                .ok_or_else(|| DecideError::unknown("state", name))
        };
        let mut states = Vec::with_capacity(defs.len());
        for s in defs {
            let mut transitions = Vec::new();
            for (guard, to) in s.transitions {
                let targets: Vec<(StateId, f64)> =
                    to.iter().map(|(n, w)| Ok((id(n)?, *w))).collect::<Result<_, DecideError>>()?;
                if targets.is_empty() || targets.iter().any(|(_, w)| !w.is_finite() || *w < 0.0) {
                    return Err(DecideError::invalid(
                        format!("transition of state `{}`", s.name),
                        "needs `to` or `weighted` targets with finite, non-negative weights",
                    ));
                }
                transitions.push(Transition { guard, targets });
            }
            states.push(State {
                parent: s.parent.as_deref().map(id).transpose()?,
                initial_child: s.initial.as_deref().map(id).transpose()?,
                name: s.name,
                depth: 0,
                on_enter: s.on_enter,
                on_exit: s.on_exit,
                on_tick: s.on_tick,
                transitions,
            });
        }
        for i in 0..states.len() {
            let mut depth = 0u8;
            let mut p = states[i].parent;
            while let Some(q) = p {
                depth += 1;
                if usize::from(depth) > states.len() {
                    return Err(DecideError::invalid("state machine", format!("parent cycle at `{}`", states[i].name)));
                }
                p = states[usize::from(q)].parent;
            }
            states[i].depth = depth;
        }
        let mut m = StateMachine { states, initial: 0, self_transition };
        m.initial = m.descend(id(initial)?)?;
        for i in 0..m.states.len() {
            if let Some(c) = m.states[i].initial_child
                && m.states[usize::from(c)].parent != Some(i as StateId)
            {
                return Err(DecideError::invalid(
                    format!("state `{}`", m.states[i].name),
                    "its initial child must name it as parent",
                ));
            }
        }
        Ok(m)
    }

    /// Follows `initial` children down to a leaf.
    fn descend(&self, mut s: StateId) -> Result<StateId, DecideError> {
        for _ in 0..self.states.len() {
            match self.states[usize::from(s)].initial_child {
                Some(c) => s = c,
                None => return Ok(s),
            }
        }
        Err(DecideError::invalid("state machine", "initial children form a cycle"))
    }

    /// A fresh instance in the initial leaf. Call [`StateMachine::start_hooks`] to run its enter hooks.
    pub fn start(&self) -> FsmState {
        FsmState { current: self.initial, ticks_in_state: 0 }
    }

    /// The enter hooks of the initial states, outermost first.
    pub fn start_hooks(&self) -> Vec<Hook<'_>> {
        let mut out = Vec::new();
        for s in self.path(self.initial) {
            self.push_hooks(&mut out, HookKind::Enter, s);
        }
        out
    }

    /// A state's id by name.
    pub fn state(&self, name: &str) -> Option<StateId> {
        self.states.iter().position(|s| s.name == name).map(|i| i as StateId)
    }

    /// A state's name.
    pub fn name(&self, id: StateId) -> &str {
        self.states.get(usize::from(id)).map_or("", |s| s.name.as_str())
    }

    /// Whether `state` is `ancestor` or lies inside it.
    pub fn is_in(&self, state: StateId, ancestor: StateId) -> bool {
        let mut s = Some(state);
        while let Some(q) = s {
            if q == ancestor {
                return true;
            }
            s = self.states.get(usize::from(q)).and_then(|st| st.parent);
        }
        false
    }

    /// The active states from the outermost to `leaf`.
    fn path(&self, leaf: StateId) -> Vec<StateId> {
        let mut v = vec![leaf];
        while let Some(p) = self.states[usize::from(*v.last().unwrap_or(&leaf))].parent {
            v.push(p);
        }
        v.reverse();
        v
    }

    fn push_hooks<'a>(&'a self, out: &mut Vec<Hook<'a>>, kind: HookKind, s: StateId) {
        let st = &self.states[usize::from(s)];
        let names = match kind {
            HookKind::Enter => &st.on_enter,
            HookKind::Exit => &st.on_exit,
            HookKind::Tick => &st.on_tick,
        };
        out.extend(names.iter().map(|n| Hook { kind, state: &st.name, id: s, name: n }));
    }

    /// The first transition that fires, as its target leaf; a guard's error stops the search.
    fn choose<E>(
        &self,
        leaf: StateId,
        guard: &mut impl FnMut(&G) -> Result<bool, E>,
        rng: &mut WorldRng,
    ) -> Result<Option<StateId>, E> {
        let mut node = Some(leaf);
        let mut chain = [0 as StateId; 32];
        let mut n = 0;
        while let Some(s) = node {
            if n < chain.len() {
                chain[n] = s;
                n += 1;
            }
            node = self.states[usize::from(s)].parent;
        }
        for &s in chain[..n].iter().rev() {
            for t in &self.states[usize::from(s)].transitions {
                if guard(&t.guard)? {
                    let Some(target) = pick_weighted(&t.targets, rng) else { return Ok(None) };
                    return Ok(self.descend(target).ok());
                }
            }
        }
        Ok(None)
    }

    /// Steps an instance with a host-supplied guard evaluator (fast paths, closures over the world).
    pub fn step_with<'a>(
        &'a self,
        inst: &mut FsmState,
        guard: &mut impl FnMut(&G) -> bool,
        rng: &mut WorldRng,
        hooks: &mut Vec<Hook<'a>>,
    ) -> Step {
        let step = self.try_step_with(inst, &mut |g: &G| Ok::<bool, std::convert::Infallible>(guard(g)), rng, hooks);
        match step {
            Ok(step) => step,
            Err(never) => match never {},
        }
    }

    /// Steps an instance with guards that may fail (a `.tac` condition that runs out of budget):
    /// on an error nothing changes — no state, no hooks — and the error comes back.
    pub fn try_step_with<'a, E>(
        &'a self,
        inst: &mut FsmState,
        guard: &mut impl FnMut(&G) -> Result<bool, E>,
        rng: &mut WorldRng,
        hooks: &mut Vec<Hook<'a>>,
    ) -> Result<Step, E> {
        let from = inst.current;
        let target = self.choose(from, guard, rng)?;
        match target {
            Some(to) if to == from && self.self_transition == SelfTransition::Stay => {
                inst.ticks_in_state = inst.ticks_in_state.saturating_add(1);
            }
            Some(to) => {
                self.transition(from, to, hooks);
                inst.current = to;
                inst.ticks_in_state = 0;
            }
            None => inst.ticks_in_state = inst.ticks_in_state.saturating_add(1),
        }
        self.tick_hooks(inst, hooks);
        Ok(Step { from, to: inst.current, fired: target.is_some() })
    }

    /// The tick hooks of the active states, outermost first, without stepping (a host's first
    /// step runs the enter hooks of [`StateMachine::start_hooks`] and then these).
    pub fn tick_hooks<'a>(&'a self, inst: &FsmState, hooks: &mut Vec<Hook<'a>>) {
        // Without allocating: this runs for every entity every step.
        let mut chain = [0 as StateId; 32];
        let mut n = 0;
        let mut node = Some(inst.current);
        while let Some(s) = node {
            if n < chain.len() {
                chain[n] = s;
                n += 1;
            }
            node = self.states[usize::from(s)].parent;
        }
        for &s in chain[..n].iter().rev() {
            self.push_hooks(hooks, HookKind::Tick, s);
        }
    }

    /// Exit hooks up to the common ancestor, then enter hooks down to `to`. A self-transition
    /// exits and re-enters the leaf.
    fn transition<'a>(&'a self, from: StateId, to: StateId, hooks: &mut Vec<Hook<'a>>) {
        let pf = self.path(from);
        let pt = self.path(to);
        let mut common = pf.iter().zip(&pt).take_while(|(a, b)| a == b).count();
        if common == pf.len() && common == pt.len() {
            common -= 1;
        }
        for &s in pf[common..].iter().rev() {
            self.push_hooks(hooks, HookKind::Exit, s);
        }
        for &s in &pt[common..] {
            self.push_hooks(hooks, HookKind::Enter, s);
        }
    }
}

impl StateMachine<Expr> {
    /// Steps an instance with facts read from a table; hooks are appended to `hooks`.
    pub fn step<'a>(
        &'a self,
        inst: &mut FsmState,
        facts: &Table,
        rng: &mut WorldRng,
        hooks: &mut Vec<Hook<'a>>,
    ) -> Step {
        self.step_with(inst, &mut |e: &Expr| e.eval(facts), rng, hooks)
    }

    /// Steps an instance and reports it as a plain value for script hosts:
    /// `{from, to, fired, hooks = [{kind, state, name}]}`.
    pub fn step_value(&self, inst: &mut FsmState, facts: &Table, rng: &mut WorldRng) -> Value {
        let mut hooks = Vec::new();
        let step = self.step(inst, facts, rng, &mut hooks);
        let hooks = hooks
            .iter()
            .map(|h| {
                let kind = match h.kind {
                    HookKind::Enter => "enter",
                    HookKind::Exit => "exit",
                    HookKind::Tick => "tick",
                };
                Value::Map(Table::from([
                    ("kind".to_owned(), Value::from(kind)),
                    ("state".to_owned(), Value::from(h.state)),
                    ("name".to_owned(), Value::from(h.name)),
                ]))
            })
            .collect();
        Value::Map(Table::from([
            ("from".to_owned(), Value::from(self.name(step.from))),
            ("to".to_owned(), Value::from(self.name(step.to))),
            ("fired".to_owned(), Value::Bool(step.fired)),
            ("hooks".to_owned(), Value::List(hooks)),
        ]))
    }
}

/// Picks a target by weight (cumulative ranges over the total, L5918); `None` if all weigh 0.
fn pick_weighted(targets: &[(StateId, f64)], rng: &mut WorldRng) -> Option<StateId> {
    if let [(only, _)] = targets {
        return Some(*only);
    }
    let total: f64 = targets.iter().map(|t| t.1).sum();
    if total <= 0.0 {
        return None;
    }
    let mut r = rng.range(0.0, total);
    for &(s, w) in targets {
        if r < w {
            return Some(s);
        }
        r -= w;
    }
    targets.iter().rev().find(|t| t.1 > 0.0).map(|t| t.0)
}
