//! Compound tactics as fuzzy expressions over waypoint properties (000 §6.1.1 "continuous
//! tactics", §6.1.2 "fuzzy decisions").

use std::collections::BTreeMap;

use super::{Property, Waypoint};

/// A fuzzy-logic expression: `AND` is the minimum of its operands, `OR` the maximum, `NOT` (also
/// written `!expr`) is `1 − x` (L56-61). Named inputs carry facts that are not waypoint properties, such as
/// "friends arriving" or "cannot see the enemy" (L144-155); a missing input counts as 0.
#[derive(Debug, Clone, PartialEq)]
pub enum Fuzzy {
    /// A waypoint property.
    Prop(Property),
    /// A named input from the situation.
    Input(String),
    /// A constant membership.
    Const(f32),
    /// All operands: their minimum (1 when empty).
    And(Vec<Fuzzy>),
    /// Any operand: their maximum (0 when empty).
    Or(Vec<Fuzzy>),
    /// The complement.
    Not(Box<Fuzzy>),
}

impl Fuzzy {
    /// A property operand.
    pub fn prop(p: Property) -> Self {
        Fuzzy::Prop(p)
    }

    /// A named input operand.
    pub fn input(name: impl Into<String>) -> Self {
        Fuzzy::Input(name.into())
    }

    /// `AND` of the operands.
    pub fn and(operands: impl IntoIterator<Item = Fuzzy>) -> Self {
        Fuzzy::And(operands.into_iter().collect())
    }

    /// `OR` of the operands.
    pub fn or(operands: impl IntoIterator<Item = Fuzzy>) -> Self {
        Fuzzy::Or(operands.into_iter().collect())
    }

    /// The chapter's sniper: cover AND visibility (L30).
    pub fn sniper() -> Self {
        Fuzzy::and([Fuzzy::prop(Property::Cover), Fuzzy::prop(Property::Visibility)])
    }

    /// The value at `w`, in `[0, 1]`.
    pub fn eval(&self, w: &Waypoint, inputs: &BTreeMap<String, f32>) -> f32 {
        let v = match self {
            Fuzzy::Prop(p) => w.properties.get(*p),
            Fuzzy::Input(name) => inputs.get(name).copied().unwrap_or(0.0),
            Fuzzy::Const(c) => *c,
            Fuzzy::And(ops) => ops.iter().map(|o| o.eval(w, inputs)).fold(1.0, f32::min),
            Fuzzy::Or(ops) => ops.iter().map(|o| o.eval(w, inputs)).fold(0.0, f32::max),
            Fuzzy::Not(o) => 1.0 - o.eval(w, inputs),
        };
        if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) }
    }
}

impl std::ops::Not for Fuzzy {
    type Output = Fuzzy;

    fn not(self) -> Fuzzy {
        Fuzzy::Not(Box::new(self))
    }
}
