//! Weight values (addend, multiplier, rank) and the weight functions that turn a consideration's
//! raw input — a bool, a number, a string — into them.

use serde::{Deserialize, Serialize};

use crate::world::WorldRng;

/// What one consideration contributes: an option's weight is `(Σ addends) · (Π multipliers)`
/// and its rank the maximum rank (Eq. 8.1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeightValues {
    /// Added into the option's base weight.
    pub addend: f32,
    /// Multiplied into it; 0 vetoes the option.
    pub multiplier: f32,
    /// The option's category; the highest rank wins before weights are compared.
    pub rank: f32,
}

impl Default for WeightValues {
    /// The neutral defaults: addend 0, multiplier 1, rank −FLT_MAX (S4:506).
    fn default() -> Self {
        WeightValues { addend: 0.0, multiplier: 1.0, rank: f32::MIN }
    }
}

impl WeightValues {
    /// The veto: defaults with multiplier 0.
    pub const VETO: WeightValues = WeightValues { addend: 0.0, multiplier: 0.0, rank: f32::MIN };
}

/// Weight values as written: anything left out keeps its neutral default; `veto = true` sets the
/// multiplier to 0, `veto = false` means all defaults.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct WeightSpec {
    /// The addend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub addend: Option<f32>,
    /// The multiplier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub multiplier: Option<f32>,
    /// The rank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<f32>,
    /// The Boolean shorthand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub veto: Option<bool>,
}

impl WeightSpec {
    /// A spec that vetoes.
    pub const VETO: WeightSpec = WeightSpec { addend: None, multiplier: None, rank: None, veto: Some(true) };

    /// The values this spec stands for.
    pub fn values(&self) -> WeightValues {
        self.values_with_addend(0.0)
    }

    /// The values with a different default addend (the Tuning consideration's is 1).
    pub fn values_with_addend(&self, default_addend: f32) -> WeightValues {
        if self.veto == Some(true) {
            return WeightValues::VETO;
        }
        let d = WeightValues::default();
        WeightValues {
            addend: self.addend.unwrap_or(default_addend),
            multiplier: self.multiplier.unwrap_or(d.multiplier),
            rank: self.rank.unwrap_or(d.rank),
        }
    }
}

fn veto_spec() -> WeightSpec {
    WeightSpec::VETO
}

/// One section of a [`WeightFunction::FloatSequence`]: inputs up to and including `exact` (and
/// above the previous entry) get these weights.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SequenceEntry {
    /// The section's upper bound.
    pub exact: f32,
    /// Its weights.
    #[serde(flatten)]
    pub weights: WeightSpec,
}

/// One entry of a [`WeightFunction::String`]; strings compare case-insensitively (AIString).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StringEntry {
    /// The string to match.
    pub value: String,
    /// Its weights.
    #[serde(flatten)]
    pub weights: WeightSpec,
}

/// A response curve over an input scaled to `[0, 1]` by `min`/`max`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Curve {
    /// The shape.
    pub kind: CurveKind,
    /// Slope (linear, power) or steepness (logistic).
    #[serde(default = "one")]
    pub m: f32,
    /// Exponent (power) or height (logistic).
    #[serde(default = "one")]
    pub k: f32,
    /// Horizontal shift.
    #[serde(default)]
    pub c: f32,
    /// Vertical shift.
    #[serde(default)]
    pub b: f32,
    /// Input mapped to 0.
    #[serde(default)]
    pub min: f32,
    /// Input mapped to 1.
    #[serde(default = "one")]
    pub max: f32,
    /// Which weight value the curve produces.
    #[serde(default)]
    pub output: CurveOutput,
}

fn one() -> f32 {
    1.0
}

/// Response curve shapes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveKind {
    /// `m (x − c) + b`
    Linear,
    /// `m (x − c)^k + b`
    Power,
    /// `k / (1 + e^(−m (x − c))) + b`
    Logistic,
}

/// Which weight value a curve sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveOutput {
    /// The multiplier.
    #[default]
    Multiplier,
    /// The addend.
    Addend,
    /// The rank.
    Rank,
}

impl Curve {
    /// The curve's value at a raw input.
    pub fn eval(&self, input: f32) -> f32 {
        let span = self.max - self.min;
        let x = if span.abs() > f32::EPSILON { ((input - self.min) / span).clamp(0.0, 1.0) } else { 0.0 };
        match self.kind {
            CurveKind::Linear => self.m * (x - self.c) + self.b,
            CurveKind::Power => self.m * (x - self.c).max(0.0).powf(self.k) + self.b,
            CurveKind::Logistic => self.k / (1.0 + (-self.m * (x - self.c)).exp()) + self.b,
        }
    }
}

/// Turns a consideration's input into weight values (Listing 8.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum WeightFunction {
    /// A Boolean input: `true_weights` (default: no effect) or `false_weights` (default: veto).
    Boolean {
        /// Weights when true.
        #[serde(default)]
        true_weights: WeightSpec,
        /// Weights when false.
        #[serde(default = "veto_spec")]
        false_weights: WeightSpec,
    },
    /// Ignores the input.
    Constant {
        /// The weights.
        #[serde(default)]
        weights: WeightSpec,
    },
    /// Sections of a numeric input: the first entry whose `exact` is at least the input; above
    /// the last, `default`.
    FloatSequence {
        /// Sections in ascending `exact` order.
        entries: Vec<SequenceEntry>,
        /// Weights above the last section.
        #[serde(default)]
        default: WeightSpec,
    },
    /// Matches a string input against entries; no match gives `default`.
    String {
        /// The entries.
        entries: Vec<StringEntry>,
        /// Weights when nothing matches.
        #[serde(default)]
        default: WeightSpec,
    },
    /// A response curve over a numeric input.
    Curve {
        /// The curve.
        curve: Curve,
    },
    /// Vetoes while the input (seconds) is below a cooldown drawn uniformly from `[min, max]`
    /// each time the option is selected — the sniper's 60–120 s between shots.
    Cooldown {
        /// Shortest cooldown.
        min: f32,
        /// Longest cooldown.
        max: f32,
    },
}

impl WeightFunction {
    /// Weights for a Boolean input. Numeric functions read it as 1 or 0.
    pub fn calc_bool(&self, b: bool) -> WeightValues {
        match self {
            WeightFunction::Boolean { true_weights, false_weights } => {
                if b {
                    true_weights.values()
                } else {
                    false_weights.values()
                }
            }
            _ => self.calc_float(f32::from(u8::from(b)), 0.0),
        }
    }

    /// Weights for a numeric input; `cooldown` is the option's current drawn cooldown.
    pub fn calc_float(&self, x: f32, cooldown: f32) -> WeightValues {
        match self {
            WeightFunction::Boolean { .. } => self.calc_bool(x != 0.0),
            WeightFunction::Constant { weights } => weights.values(),
            WeightFunction::FloatSequence { entries, default } => {
                entries.iter().find(|e| x <= e.exact).map_or_else(|| default.values(), |e| e.weights.values())
            }
            WeightFunction::String { default, .. } => default.values(),
            WeightFunction::Curve { curve } => {
                let y = curve.eval(x);
                let mut w = WeightValues::default();
                match curve.output {
                    CurveOutput::Multiplier => w.multiplier = y,
                    CurveOutput::Addend => w.addend = y,
                    CurveOutput::Rank => w.rank = y,
                }
                w
            }
            WeightFunction::Cooldown { .. } => {
                if x < cooldown {
                    WeightValues::VETO
                } else {
                    WeightValues::default()
                }
            }
        }
    }

    /// Weights for a string input (case-insensitive). Other functions see a non-empty string as true.
    pub fn calc_string(&self, s: &str) -> WeightValues {
        match self {
            WeightFunction::String { entries, default } => entries
                .iter()
                .find(|e| e.value.eq_ignore_ascii_case(s))
                .map_or_else(|| default.values(), |e| e.weights.values()),
            _ => self.calc_bool(!s.is_empty()),
        }
    }

    /// Called when the owning option is selected: draws a new cooldown.
    pub fn draw_cooldown(&self, rng: &mut WorldRng) -> Option<f32> {
        match *self {
            WeightFunction::Cooldown { min, max } => Some(rng.range(f64::from(min), f64::from(max)) as f32),
            _ => None,
        }
    }
}

impl Default for WeightFunction {
    /// The default Boolean function: no effect when true, veto when false.
    fn default() -> Self {
        WeightFunction::Boolean { true_weights: WeightSpec::default(), false_weights: WeightSpec::VETO }
    }
}
