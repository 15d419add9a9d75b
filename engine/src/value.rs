//! The dynamic value that attributes, globals, blackboards and script calls carry.
//!
//! One type for all of them, so that a value set by a scenario file, read by a `.tac` script and
//! written back by a Lua script is the same thing everywhere. Maps are `BTreeMap`s so that
//! iterating them, and serialising them into the trace, is in a stable order (determinism).

use std::collections::BTreeMap;
use std::fmt;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::world::EntityId;

/// A dynamically typed value.
///
/// Deserialising (from scenario files, data files) yields only nil, bools, numbers, strings, lists
/// and maps: an entity handle can never be forged from data, and a two-number array stays a list.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// No value.
    #[default]
    Nil,
    /// `true` or `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// Text.
    Str(String),
    /// A 2-D vector (positions, directions).
    Vec2(Vec2),
    /// A handle to an entity. Handles carry a generation, so a stale handle is detected.
    Entity(EntityId),
    /// An ordered list.
    List(Vec<Value>),
    /// A string-keyed map, iterated in key order.
    Map(BTreeMap<String, Value>),
}

/// The type of a [`Value`], used by schemas and checkers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ValueType {
    /// [`Value::Nil`].
    Nil,
    /// [`Value::Bool`].
    Bool,
    /// [`Value::Int`].
    Int,
    /// [`Value::Float`].
    Float,
    /// [`Value::Str`].
    Str,
    /// [`Value::Vec2`].
    Vec2,
    /// [`Value::Entity`].
    Entity,
    /// [`Value::List`].
    List,
    /// [`Value::Map`].
    Map,
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            ValueType::Nil => "nil",
            ValueType::Bool => "bool",
            ValueType::Int => "int",
            ValueType::Float => "float",
            ValueType::Str => "string",
            ValueType::Vec2 => "vec2",
            ValueType::Entity => "entity",
            ValueType::List => "list",
            ValueType::Map => "map",
        };
        f.write_str(name)
    }
}

impl Value {
    /// The value's type.
    pub fn value_type(&self) -> ValueType {
        match self {
            Value::Nil => ValueType::Nil,
            Value::Bool(_) => ValueType::Bool,
            Value::Int(_) => ValueType::Int,
            Value::Float(_) => ValueType::Float,
            Value::Str(_) => ValueType::Str,
            Value::Vec2(_) => ValueType::Vec2,
            Value::Entity(_) => ValueType::Entity,
            Value::List(_) => ValueType::List,
            Value::Map(_) => ValueType::Map,
        }
    }

    /// The value as a number, if it is one (ints widen to floats).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Int(i) => Some(i as f64),
            Value::Float(f) => Some(f),
            _ => None,
        }
    }

    /// The value as a whole number, if it is an int or a float with no fraction.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(i) => Some(i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(f as i64),
            _ => None,
        }
    }

    /// The value as text, if it is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// `==` as designers write it, in `.tac` and in model conditions alike: strings compare
    /// without regard to case (`Yes` is `yes`), a boolean equals anything of the same truthiness
    /// (`PlayerArmed == TRUE` holds for any weapon), a list equals a value it contains, and numbers
    /// compare by value (`3 == 3.0`). Anything else is equal only when identical.
    pub fn loosely_equals(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Bool(x), other) | (other, Value::Bool(x)) => *x == other.truthy(),
            (Value::List(items), other) | (other, Value::List(items)) if !matches!(other, Value::List(_)) => {
                items.iter().any(|i| i.loosely_equals(other))
            }
            (Value::Str(x), Value::Str(y)) => x.eq_ignore_ascii_case(y),
            (Value::Int(_) | Value::Float(_), Value::Int(_) | Value::Float(_)) => self.as_f64() == other.as_f64(),
            _ => self == other,
        }
    }

    /// Truthiness as the classic scripts use it: nil, false, 0 and "" are false.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Nil => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Float(f) => *f != 0.0,
            Value::Str(s) => !s.is_empty(),
            _ => true,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Nil => f.write_str("nil"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => f.write_str(s),
            Value::Vec2(v) => write!(f, "({}, {})", v.x, v.y),
            Value::Entity(e) => write!(f, "{e:?}"),
            Value::List(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("]")
            }
            Value::Map(map) => {
                f.write_str("{")?;
                for (i, (k, v)) in map.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{k} = {v}")?;
                }
                f.write_str("}")
            }
        }
    }
}

macro_rules! value_from {
    ($($t:ty => $variant:ident $(as $cast:ty)?),* $(,)?) => {
        $(impl From<$t> for Value {
            fn from(v: $t) -> Self {
                Value::$variant(v $(as $cast)?)
            }
        })*
    };
}

value_from! {
    bool => Bool,
    i64 => Int,
    i32 => Int as i64,
    u32 => Int as i64,
    f64 => Float,
    f32 => Float as f64,
    String => Str,
    Vec2 => Vec2,
    EntityId => Entity,
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Str(v.to_owned())
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> serde::de::Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a boolean, number, string, list or table")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(i64::try_from(v).map_or(Value::Float(v as f64), Value::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Str(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(v) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::List(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut table = BTreeMap::new();
        while let Some((k, v)) = map.next_entry::<String, Value>()? {
            table.insert(k, v);
        }
        Ok(Value::Map(table))
    }
}

/// A string-keyed table of values: globals, blackboards, attributes, script state.
pub type Table = BTreeMap<String, Value>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truthiness_follows_the_classic_scripts() {
        assert!(!Value::Nil.truthy());
        assert!(!Value::Int(0).truthy());
        assert!(Value::Int(3).truthy());
        assert!(!Value::from("").truthy());
        assert!(Value::from("x").truthy());
    }

    #[test]
    fn ints_widen_and_whole_floats_narrow() {
        assert_eq!(Value::Int(4).as_f64(), Some(4.0));
        assert_eq!(Value::Float(4.0).as_i64(), Some(4));
        assert_eq!(Value::Float(4.5).as_i64(), None);
        assert_eq!(Value::from("4").as_i64(), None);
    }

    #[test]
    fn data_never_deserialises_into_handles_or_vectors() {
        let v: Value = serde_json::from_str(r#"{"idx": 1, "version": 1, "xy": [1, 2.5], "n": null}"#).unwrap();
        let Value::Map(m) = v else { panic!("a table stays a map") };
        assert_eq!(m["idx"], Value::Int(1));
        assert_eq!(m["xy"], Value::List(vec![Value::Int(1), Value::Float(2.5)]));
        assert_eq!(m["n"], Value::Nil);
    }

    #[test]
    fn displays_nested_values_in_key_order() {
        let mut m = Table::new();
        m.insert("b".into(), Value::Int(2));
        m.insert("a".into(), Value::List(vec![Value::Bool(true), Value::Nil]));
        assert_eq!(Value::Map(m).to_string(), "{a = [true, nil], b = 2}");
    }
}
