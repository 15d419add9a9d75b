//! Reasoners, options and actions (Listings 8.3, 8.4), and the brain that runs a reasoner tree.
//!
//! A brain is shared configuration ([`Brain`]); each character holds a [`BrainState`] (its
//! blackboard, selections, histories and timers). Each [`Brain::update`] walks the tree: a
//! reasoner picks an option, a newly selected option starts its actions (commands are emitted
//! once, open loop), and selected sub-reasoners update in turn.
//!
//! * **Sequence** runs its options in order, ignoring considerations; it is done after the last.
//! * **Rule-based** takes the first valid option (weight > 0) every update.
//! * **Dual utility** drops invalid options, keeps the highest rank, optionally drops weights
//!   "far below" the best (a percentage), and draws by weight (S4:493–498). The running option
//!   stays while it is still a candidate, so a brain does not flicker between equal options.
//!
//! When every action of a selected option is done (a finished sequence, an elapsed pause, a
//! command with a duration), the option is deselected and the reasoner chooses afresh next
//! update — which is when cooldowns on the option's history apply.

use glam::Vec2;
use serde::{Deserialize, Serialize};

use super::consider::{Combine, Consideration, Ctx, History, RankRule, option_weight};
use super::world::{Situation, Target};
use crate::decide::{DecideError, error::from_toml};
use crate::value::{Table, Value};
use crate::world::WorldRng;

/// The kinds of reasoner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasonerKind {
    /// Options in order.
    Sequence,
    /// The first valid option.
    RuleBased,
    /// Rank, then weighted random.
    DualUtility,
}

/// A reasoner as written in a data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReasonerSpec {
    /// Its kind.
    #[serde(rename = "type")]
    pub kind: ReasonerKind,
    /// Dual utility: drop options whose weight is below this percentage of the best.
    #[serde(default)]
    pub far_below: Option<f32>,
    /// Its options.
    pub options: Vec<OptionSpec>,
}

/// An option: considerations that judge it and actions run (in parallel) when it is selected.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionSpec {
    /// Its name (reported in the decision path).
    pub name: String,
    /// How its multipliers combine.
    #[serde(default)]
    pub combine: Combine,
    /// How its ranks combine.
    #[serde(default)]
    pub rank: RankRule,
    /// Its considerations.
    #[serde(default)]
    pub considerations: Vec<Consideration>,
    /// Its actions.
    #[serde(default)]
    pub actions: Vec<ActionSpec>,
}

/// What a selected option does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ActionSpec {
    /// A concrete game action the host performs (move, fire, play a sound …), emitted once.
    Emit {
        /// The action's name.
        name: String,
        /// What it acts on.
        #[serde(default)]
        target: Option<Target>,
        /// Extra parameters.
        #[serde(default)]
        args: Table,
        /// Seconds after which it counts as done; without one it runs until deselected.
        #[serde(default)]
        duration: Option<f64>,
    },
    /// Sets a brain-blackboard variable.
    SetVariable {
        /// The variable.
        variable: String,
        /// The value.
        value: Value,
    },
    /// Waits (a sequence's aiming pause).
    Pause {
        /// How long.
        seconds: f64,
    },
    /// Another reasoner: the hierarchy.
    Subreasoner {
        /// The reasoner.
        reasoner: ReasonerSpec,
    },
}

/// A brain's configuration: the top-level reasoner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Brain {
    /// The top-level reasoner.
    pub reasoner: ReasonerSpec,
}

/// One character's brain state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BrainState {
    /// The brain's blackboard.
    pub blackboard: Table,
    root: ReasonerState,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct ReasonerState {
    selected: Option<usize>,
    done: bool,
    options: Vec<OptionRun>,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct OptionRun {
    history: History,
    actions: Vec<ActionRun>,
}

#[derive(Debug, Clone, PartialEq)]
enum ActionRun {
    Running,
    Done,
    Until(f64),
    Sub(ReasonerState),
}

/// A command for the host to perform.
#[derive(Debug, Clone, PartialEq)]
pub struct Command {
    /// The action's name.
    pub name: String,
    /// The target actor's name, if the target is an actor.
    pub target: Option<String>,
    /// The target's position, if there is a valid target.
    pub position: Option<Vec2>,
    /// Extra parameters.
    pub args: Table,
}

/// What one update decided.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Decision {
    /// The selected option at each level of the tree, outermost first (the "status text").
    pub path: Vec<String>,
    /// Commands started this update.
    pub commands: Vec<Command>,
}

impl Brain {
    /// Parses a TOML brain (`[reasoner] type = …`, `[[reasoner.options]]` …).
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        let b: Brain = from_toml(text)?;
        check(&b.reasoner)?;
        Ok(b)
    }

    /// Updates a character's brain once.
    pub fn update(&self, state: &mut BrainState, sit: &Situation, rng: &mut WorldRng) -> Decision {
        let mut out = Decision::default();
        update_reasoner(&self.reasoner, &mut state.root, &mut state.blackboard, sit, rng, &mut out);
        out
    }

    /// [`Brain::update`] with plain values: the situation as [`Situation::from_value`] reads it;
    /// returns `{path = [...], commands = [{name, target, position, args}]}`.
    pub fn update_value(&self, state: &mut BrainState, situation: &Value, rng: &mut WorldRng) -> Value {
        self.update(state, &Situation::from_value(situation), rng).to_value()
    }
}

impl Decision {
    /// The decision as a plain value for script hosts.
    pub fn to_value(&self) -> Value {
        let commands = self
            .commands
            .iter()
            .map(|c| {
                let mut m = Table::new();
                m.insert("name".into(), Value::from(c.name.as_str()));
                m.insert("target".into(), c.target.as_deref().map_or(Value::Nil, Value::from));
                m.insert("position".into(), c.position.map_or(Value::Nil, Value::Vec2));
                m.insert("args".into(), Value::Map(c.args.clone()));
                Value::Map(m)
            })
            .collect();
        Value::Map(Table::from([
            ("path".to_owned(), Value::List(self.path.iter().map(|p| Value::from(p.as_str())).collect())),
            ("commands".to_owned(), Value::List(commands)),
        ]))
    }
}

fn check(spec: &ReasonerSpec) -> Result<(), DecideError> {
    if spec.options.is_empty() {
        return Err(DecideError::invalid("reasoner", "needs at least one option"));
    }
    if spec.far_below.is_some_and(|p| !(0.0..=100.0).contains(&p)) {
        return Err(DecideError::invalid("reasoner", "far_below is a percentage in 0..=100"));
    }
    for o in &spec.options {
        for a in &o.actions {
            if let ActionSpec::Subreasoner { reasoner } = a {
                check(reasoner)?;
            }
        }
    }
    Ok(())
}

/// The dual-utility candidates and their selection probabilities: steps 1–3 of S4:493–498
/// applied to (rank, weight) pairs, weights normalised over the survivors.
pub fn dual_utility_candidates(scores: &[(f32, f32)], far_below: Option<f32>) -> Vec<(usize, f64)> {
    let valid: Vec<usize> = (0..scores.len()).filter(|&i| scores[i].1 > 0.0).collect();
    let Some(top_rank) = valid.iter().map(|&i| scores[i].0).reduce(f32::max) else { return Vec::new() };
    let ranked: Vec<usize> = valid.into_iter().filter(|&i| scores[i].0 >= top_rank).collect();
    let best = ranked.iter().map(|&i| scores[i].1).fold(0.0, f32::max);
    let cut = far_below.map_or(0.0, |p| best * p / 100.0);
    let kept: Vec<usize> = ranked.into_iter().filter(|&i| scores[i].1 >= cut).collect();
    let total: f64 = kept.iter().map(|&i| f64::from(scores[i].1)).sum();
    kept.into_iter().map(|i| (i, f64::from(scores[i].1) / total)).collect()
}

/// Chooses among scored options; `current` stays chosen while it is still a candidate.
pub fn select(
    kind: ReasonerKind,
    scores: &[(f32, f32)],
    far_below: Option<f32>,
    current: Option<usize>,
    rng: &mut WorldRng,
) -> Option<usize> {
    match kind {
        ReasonerKind::Sequence | ReasonerKind::RuleBased => scores.iter().position(|s| s.1 > 0.0),
        ReasonerKind::DualUtility => {
            let c = dual_utility_candidates(scores, far_below);
            if current.is_some_and(|cur| c.iter().any(|(i, _)| *i == cur)) {
                return current;
            }
            let mut r = rng.range(0.0, 1.0);
            for &(i, p) in &c {
                if r < p {
                    return Some(i);
                }
                r -= p;
            }
            c.last().map(|(i, _)| *i)
        }
    }
}

fn update_reasoner(
    spec: &ReasonerSpec,
    st: &mut ReasonerState,
    bb: &mut Table,
    sit: &Situation,
    rng: &mut WorldRng,
    out: &mut Decision,
) {
    if st.options.len() != spec.options.len() {
        *st = ReasonerState { options: vec![OptionRun::default(); spec.options.len()], ..ReasonerState::default() };
    }
    let choice = match spec.kind {
        ReasonerKind::Sequence => match st.selected {
            None if !st.done => Some(0),
            other => other,
        },
        ReasonerKind::RuleBased | ReasonerKind::DualUtility => {
            let mut scores = Vec::with_capacity(spec.options.len());
            for (o, run) in spec.options.iter().zip(&st.options) {
                let mut ctx = Ctx { sit, blackboard: bb, rng, picker: None, history: run.history };
                scores.push(option_weight(&o.considerations, o.combine, o.rank, &mut ctx));
            }
            select(spec.kind, &scores, spec.far_below, st.selected, rng)
        }
    };
    if choice != st.selected {
        if let Some(old) = st.selected {
            deselect(&mut st.options[old], sit.time);
        }
        if let Some(new) = choice {
            start(&spec.options[new], &mut st.options[new], bb, sit, rng, out);
        }
        st.selected = choice;
    }
    let Some(i) = st.selected else { return };
    let at = out.path.len();
    out.path.push(spec.options[i].name.clone());
    let option = &spec.options[i];
    let run = &mut st.options[i];
    for (a, r) in option.actions.iter().zip(run.actions.iter_mut()) {
        match (a, &mut *r) {
            (_, ActionRun::Until(t)) if sit.time >= *t => *r = ActionRun::Done,
            (ActionSpec::Subreasoner { reasoner }, ActionRun::Sub(sub)) => {
                update_reasoner(reasoner, sub, bb, sit, rng, out);
                if sub.selected.is_none() {
                    *r = ActionRun::Done;
                }
            }
            _ => {}
        }
    }
    if run.actions.iter().all(|a| *a == ActionRun::Done) {
        deselect(run, sit.time);
        if spec.kind == ReasonerKind::Sequence {
            if i + 1 < spec.options.len() {
                st.selected = Some(i + 1);
                start(&spec.options[i + 1], &mut st.options[i + 1], bb, sit, rng, out);
                // The path names what runs after this update, below any finished sub-path.
                out.path.truncate(at);
                out.path.push(spec.options[i + 1].name.clone());
            } else {
                st.selected = None;
                st.done = true;
                out.path.truncate(at);
            }
        } else {
            st.selected = None;
        }
    }
}

fn deselect(run: &mut OptionRun, time: f64) {
    run.history.selected = false;
    run.history.stopped_at = Some(time);
    run.actions.clear();
}

fn start(
    option: &OptionSpec,
    run: &mut OptionRun,
    bb: &mut Table,
    sit: &Situation,
    rng: &mut WorldRng,
    out: &mut Decision,
) {
    run.history.selected = true;
    run.history.selected_at = Some(sit.time);
    for c in &option.considerations {
        c.select(rng, &mut run.history);
    }
    run.actions = option
        .actions
        .iter()
        .map(|a| match a {
            ActionSpec::Emit { name, target, args, duration } => {
                let resolved = target.as_ref().and_then(|t| t.resolve(sit, None, bb));
                out.commands.push(Command {
                    name: name.clone(),
                    target: resolved.and_then(|r| sit.actor(r.actor?)).map(|a| a.name.clone()),
                    position: resolved.map(|r| r.position),
                    args: args.clone(),
                });
                match duration {
                    Some(d) if *d <= 0.0 => ActionRun::Done,
                    Some(d) => ActionRun::Until(sit.time + d),
                    None => ActionRun::Running,
                }
            }
            ActionSpec::SetVariable { variable, value } => {
                bb.insert(variable.clone(), value.clone());
                ActionRun::Done
            }
            ActionSpec::Pause { seconds } => ActionRun::Until(sit.time + seconds),
            ActionSpec::Subreasoner { .. } => ActionRun::Sub(ReasonerState::default()),
        })
        .collect();
}
