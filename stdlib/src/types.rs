//! The static types scripts are checked with.

use std::fmt;

/// A static type. Symbols carry their family (`weapon`, `place` …), so comparing a weapon with a
/// place is caught before the script runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// Anything (unknown until run time); accepted everywhere.
    Any,
    /// No value (what an action returns).
    Nil,
    /// `true` or `false`.
    Bool,
    /// A whole number.
    Int,
    /// A whole or real number.
    Number,
    /// Text.
    Str,
    /// A named value of one family (`Dagger` is a `weapon`).
    Symbol(String),
}

impl Type {
    /// A symbol type of `family`.
    pub fn symbol(family: &str) -> Type {
        Type::Symbol(family.to_owned())
    }

    /// Whether a value of type `arg` may be passed where `self` is expected.
    pub fn accepts(&self, arg: &Type) -> bool {
        match (self, arg) {
            (Type::Any, _) | (_, Type::Any) => true,
            (Type::Number, Type::Int) => true,
            // Symbols are text at run time: a string may name a trap the stdlib does not know.
            (Type::Symbol(_), Type::Str) | (Type::Str, Type::Symbol(_)) => true,
            (a, b) => a == b,
        }
    }

    /// Whether `==`/`!=` between the two makes sense. Comparing with a bool compares truthiness
    /// (`PlayerArmed == TRUE` asks "is the player armed at all", reference 002b §7 P27).
    pub fn comparable(&self, other: &Type) -> bool {
        match (self, other) {
            (Type::Bool, _) | (_, Type::Bool) => true,
            (Type::Int | Type::Number, Type::Int | Type::Number) => true,
            (a, b) => a.accepts(b),
        }
    }

    /// Whether the type is numeric (or unknown).
    pub fn is_numeric(&self) -> bool {
        matches!(self, Type::Int | Type::Number | Type::Any)
    }
}

impl Type {
    /// The type's name with its article, as a sentence wants it: `an int`, `a string`.
    pub fn article(&self) -> String {
        let name = self.to_string();
        let vowel = name.starts_with(['a', 'e', 'i', 'o', 'u']);
        format!("{} {name}", if vowel { "an" } else { "a" })
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Any => f.write_str("any"),
            Type::Nil => f.write_str("nothing"),
            Type::Bool => f.write_str("bool"),
            Type::Int => f.write_str("int"),
            Type::Number => f.write_str("number"),
            Type::Str => f.write_str("string"),
            Type::Symbol(family) => f.write_str(family),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acceptance_and_comparability() {
        assert!(Type::Number.accepts(&Type::Int));
        assert!(!Type::Int.accepts(&Type::Number));
        assert!(Type::symbol("trap").accepts(&Type::Str));
        assert!(!Type::symbol("trap").accepts(&Type::symbol("sound")));
        assert!(Type::symbol("weapon").comparable(&Type::Bool));
        assert!(!Type::symbol("weapon").comparable(&Type::symbol("kind")));
        assert!(!Type::Int.comparable(&Type::Str));
        assert_eq!(Type::symbol("weapon").to_string(), "weapon");
    }
}
