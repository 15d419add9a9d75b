//! Considerations (Listing 8.1): one factor each, evaluated to weight values, and their
//! combination into an option's weight and rank (Eq. 8.1, §8.6.3).

use serde::{Deserialize, Serialize};

use super::reasoner::{ReasonerKind, select};
use super::weights::{WeightFunction, WeightSpec, WeightValues};
use super::world::{Region, Situation, Target};
use crate::value::{Table, Value};
use crate::world::WorldRng;

/// Where a variable consideration reads its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Store {
    /// The brain's blackboard.
    #[default]
    Brain,
    /// The global blackboard.
    Global,
    /// The data store of the consideration's `target` actor.
    Target,
}

/// How a set combines its considerations' multipliers (§8.6.3, S4:553).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Combine {
    /// Any multiplier of 0 vetoes.
    #[default]
    And,
    /// Multipliers ≤ 0 are ignored unless all are.
    Or,
    /// Multipliers ≤ 0 become 1, those > 0 become 0.
    Not,
}

/// How a set combines ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankRule {
    /// The highest rank (the usual rule).
    #[default]
    Max,
    /// The lowest rank.
    Min,
    /// The sum of ranks.
    Sum,
}

/// A picker: one option per known actor, all sharing these considerations, chosen by a reasoner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Picker {
    /// Dual utility picks the best; rule-based takes the first valid.
    #[serde(default = "dual_utility")]
    pub reasoner: ReasonerKind,
    /// The dual-utility "far below" cut, in percent of the best weight.
    #[serde(default)]
    pub far_below: Option<f32>,
    /// The considerations applied to each candidate ([`Target::PickerEntity`] is the candidate).
    pub considerations: Vec<Consideration>,
}

fn dual_utility() -> ReasonerKind {
    ReasonerKind::DualUtility
}

/// One factor in a decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Consideration {
    /// Fixed weights; its addend defaults to 1. Added automatically (addend 1) to options without one.
    Tuning(WeightSpec),
    /// A Boolean variable from a data store.
    BooleanVariable {
        /// The variable.
        variable: String,
        /// Where to read it.
        #[serde(default)]
        store: Store,
        /// For [`Store::Target`]: whose data store.
        #[serde(default)]
        target: Option<Target>,
        /// Bool → weights.
        #[serde(default)]
        weight_function: WeightFunction,
    },
    /// A string variable from a data store.
    StringVariable {
        /// The variable.
        variable: String,
        /// Where to read it.
        #[serde(default)]
        store: Store,
        /// For [`Store::Target`]: whose data store.
        #[serde(default)]
        target: Option<Target>,
        /// String → weights.
        weight_function: WeightFunction,
    },
    /// A numeric variable from a data store.
    FloatVariable {
        /// The variable.
        variable: String,
        /// Where to read it.
        #[serde(default)]
        store: Store,
        /// For [`Store::Target`]: whose data store.
        #[serde(default)]
        target: Option<Target>,
        /// Number → weights.
        weight_function: WeightFunction,
    },
    /// The distance between two targets (an invalid target vetoes).
    Distance {
        /// From.
        from: Target,
        /// To.
        to: Target,
        /// Distance → weights.
        weight_function: WeightFunction,
    },
    /// Whether a target is inside a region.
    InRegion {
        /// The target.
        target: Target,
        /// The region.
        region: Region,
        /// Bool → weights.
        #[serde(default)]
        weight_function: WeightFunction,
    },
    /// Whether at least one actor passes the picker; the picked actor's name is stored on the
    /// brain blackboard in `variable`.
    EntityExists {
        /// The picker.
        picker: Picker,
        /// Where to store the pick.
        #[serde(default)]
        variable: Option<String>,
        /// Found → weights (default: veto when nothing is found).
        #[serde(default)]
        weight_function: WeightFunction,
    },
    /// The option's own history: seconds since it was selected (while selected), since the game
    /// started (never selected), or since it last stopped.
    ExecutionHistory {
        /// While the option runs.
        #[serde(default)]
        while_selected: Option<WeightFunction>,
        /// When it never ran.
        #[serde(default)]
        never_selected: Option<WeightFunction>,
        /// When it ran before but not now (a [`WeightFunction::Cooldown`] makes the sniper wait).
        #[serde(default)]
        since_stopped: Option<WeightFunction>,
    },
    /// A nested set with its own combination rules.
    Set {
        /// Multiplier rule.
        #[serde(default)]
        combine: Combine,
        /// Rank rule.
        #[serde(default)]
        rank: RankRule,
        /// The considerations.
        considerations: Vec<Consideration>,
    },
}

/// The execution history of one option.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct History {
    /// When it was last selected.
    pub selected_at: Option<f64>,
    /// When it last stopped.
    pub stopped_at: Option<f64>,
    /// Whether it is selected now.
    pub selected: bool,
    /// The cooldown drawn at its last selection.
    pub cooldown: f32,
}

/// What a consideration can read and write while it is evaluated.
pub struct Ctx<'a> {
    /// The world as the brain sees it.
    pub sit: &'a Situation,
    /// The brain's blackboard.
    pub blackboard: &'a mut Table,
    /// The random generator.
    pub rng: &'a mut WorldRng,
    /// The actor a picker is evaluating.
    pub picker: Option<usize>,
    /// The option's history.
    pub history: History,
}

impl Consideration {
    /// Evaluates the consideration to weight values.
    pub fn calculate(&self, ctx: &mut Ctx<'_>) -> WeightValues {
        match self {
            Consideration::Tuning(spec) => spec.values_with_addend(1.0),
            Consideration::BooleanVariable { variable, store, target, weight_function } => {
                let v = read(ctx, *store, target.as_ref(), variable);
                weight_function.calc_bool(v.is_some_and(Value::truthy))
            }
            Consideration::StringVariable { variable, store, target, weight_function } => {
                let s = read(ctx, *store, target.as_ref(), variable).map(ToString::to_string).unwrap_or_default();
                weight_function.calc_string(&s)
            }
            Consideration::FloatVariable { variable, store, target, weight_function } => {
                match read(ctx, *store, target.as_ref(), variable).and_then(Value::as_f64) {
                    Some(x) => weight_function.calc_float(x as f32, ctx.history.cooldown),
                    None => WeightValues::VETO,
                }
            }
            Consideration::Distance { from, to, weight_function } => {
                let a = from.resolve(ctx.sit, ctx.picker, ctx.blackboard);
                let b = to.resolve(ctx.sit, ctx.picker, ctx.blackboard);
                match (a, b) {
                    (Some(a), Some(b)) => {
                        weight_function.calc_float(a.position.distance(b.position), ctx.history.cooldown)
                    }
                    _ => WeightValues::VETO,
                }
            }
            Consideration::InRegion { target, region, weight_function } => {
                let inside =
                    target.resolve(ctx.sit, ctx.picker, ctx.blackboard).is_some_and(|t| region.contains(t.position));
                weight_function.calc_bool(inside)
            }
            Consideration::EntityExists { picker, variable, weight_function } => {
                let picked = pick(picker, ctx);
                if let Some(var) = variable {
                    match picked {
                        Some(i) => ctx.blackboard.insert(var.clone(), Value::from(ctx.sit.actors[i].name.as_str())),
                        None => ctx.blackboard.remove(var),
                    };
                }
                weight_function.calc_bool(picked.is_some())
            }
            Consideration::ExecutionHistory { while_selected, never_selected, since_stopped } => {
                let h = ctx.history;
                let (f, input) = match (h.selected, h.stopped_at) {
                    (true, _) => (while_selected, ctx.sit.time - h.selected_at.unwrap_or(ctx.sit.time)),
                    (false, None) => (never_selected, ctx.sit.time),
                    (false, Some(t)) => (since_stopped, ctx.sit.time - t),
                };
                f.as_ref().map_or_else(WeightValues::default, |f| f.calc_float(input as f32, h.cooldown))
            }
            Consideration::Set { combine, rank, considerations } => {
                let values: Vec<WeightValues> = considerations.iter().map(|c| c.calculate(ctx)).collect();
                combine_values(&values, *combine, *rank)
            }
        }
    }

    /// Draws new random parameters when the owning option is selected (cooldowns).
    pub fn select(&self, rng: &mut WorldRng, history: &mut History) {
        if let Consideration::ExecutionHistory { since_stopped: Some(f), .. } = self
            && let Some(c) = f.draw_cooldown(rng)
        {
            history.cooldown = c;
        }
    }

    fn is_tuning(&self) -> bool {
        matches!(self, Consideration::Tuning(_))
    }
}

fn read<'a>(ctx: &'a Ctx<'_>, store: Store, target: Option<&Target>, variable: &str) -> Option<&'a Value> {
    match store {
        Store::Brain => ctx.blackboard.get(variable),
        Store::Global => ctx.sit.globals.get(variable),
        Store::Target => {
            let t = target.unwrap_or(&Target::PickerEntity).resolve(ctx.sit, ctx.picker, ctx.blackboard)?;
            ctx.sit.actor(t.actor?)?.data.get(variable)
        }
    }
}

/// Runs a picker over every known actor; the index of the chosen one.
fn pick(picker: &Picker, ctx: &mut Ctx<'_>) -> Option<usize> {
    let outer = ctx.picker;
    let mut scores = Vec::with_capacity(ctx.sit.actors.len());
    for i in 0..ctx.sit.actors.len() {
        ctx.picker = Some(i);
        scores.push(option_weight(&picker.considerations, Combine::And, RankRule::Max, ctx));
    }
    ctx.picker = outer;
    select(picker.reasoner, &scores, picker.far_below, None, ctx.rng)
}

/// An option's (rank, weight): its considerations combined, plus an automatic Tuning (addend 1)
/// when it has none.
pub fn option_weight(
    considerations: &[Consideration],
    combine: Combine,
    rank: RankRule,
    ctx: &mut Ctx<'_>,
) -> (f32, f32) {
    let mut values: Vec<WeightValues> = considerations.iter().map(|c| c.calculate(ctx)).collect();
    if !considerations.iter().any(Consideration::is_tuning) {
        values.push(WeightValues { addend: 1.0, ..WeightValues::default() });
    }
    let w = combine_values(&values, combine, rank);
    (w.rank, w.addend * w.multiplier)
}

/// Combines weight values: addends summed, multipliers by `combine`, ranks by `rank`.
pub fn combine_values(values: &[WeightValues], combine: Combine, rank: RankRule) -> WeightValues {
    let addend = values.iter().map(|v| v.addend).sum();
    let all_nonpositive = values.iter().all(|v| v.multiplier <= 0.0);
    let multiplier = values
        .iter()
        .map(|v| match combine {
            Combine::And => v.multiplier,
            Combine::Or if v.multiplier <= 0.0 && !all_nonpositive => 1.0,
            Combine::Or => v.multiplier,
            Combine::Not => f32::from(u8::from(v.multiplier <= 0.0)),
        })
        .product();
    let ranks = values.iter().map(|v| v.rank);
    let rank = match rank {
        RankRule::Max => ranks.fold(f32::MIN, f32::max),
        RankRule::Min => ranks.fold(f32::MAX, f32::min),
        RankRule::Sum => ranks.sum::<f32>().max(f32::MIN),
    };
    WeightValues { addend, multiplier, rank }
}
