//! The attribute schema: which attributes an attribute script may set, their type and legal range.
//!
//! "Never assume any script being parsed is valid … you cannot expect the values entered by script
//! writers to be within legal ranges" (reference 002b §4.2, L3861): every assignment is checked
//! against this schema, by the checker when the value is a constant and again at run time.

use crate::types::Type;

/// One attribute an attribute script may set.
#[derive(Debug, Clone, PartialEq)]
pub struct AttributeSpec {
    /// The canonical name (scripts may spell it in any case).
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// The smallest legal value.
    pub min: i64,
    /// The largest legal value.
    pub max: i64,
    /// What it means.
    pub doc: String,
}

impl AttributeSpec {
    /// An integer attribute with an inclusive range.
    pub fn int(name: &str, min: i64, max: i64, doc: &str) -> Self {
        AttributeSpec { name: name.to_owned(), ty: Type::Int, min, max, doc: doc.to_owned() }
    }

    /// Whether `v` lies in the legal range.
    pub fn in_range(&self, v: i64) -> bool {
        (self.min..=self.max).contains(&v)
    }
}

/// The attributes of the classic attribute scripts (reference 002b §4.2: intelligence, speed,
/// strength, courage, magic ability; `CREATURE` names the record's creature type).
pub fn standard_attributes() -> Vec<AttributeSpec> {
    vec![
        AttributeSpec::int("CREATURE", 1, 9999, "Which creature type a classic record configures (`CREATURE=1;`)."),
        AttributeSpec::int("INTELLIGENCE", 0, 255, "How clever the creature is; clever ones path-find better."),
        AttributeSpec::int("STRENGTH", 0, 255, "How hard it hits."),
        AttributeSpec::int("SPEED", 0, 255, "How fast it moves."),
        AttributeSpec::int("COURAGE", 0, 255, "How readily it fights instead of fleeing."),
        AttributeSpec::int("MAGIC", 0, 255, "Its magic ability."),
        AttributeSpec::int("HEALTH", 0, 1000, "Hit points."),
        AttributeSpec::int("ARMOR", 0, 255, "How much damage it shrugs off."),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_book_values_are_legal() {
        let attrs = standard_attributes();
        let get = |n: &str| attrs.iter().find(|a| a.name == n).unwrap();
        for (n, v) in [("INTELLIGENCE", 40), ("STRENGTH", 110), ("SPEED", 130), ("CREATURE", 1)] {
            assert!(get(n).in_range(v), "{n}={v}");
        }
        assert!(!get("SPEED").in_range(256));
        assert!(!get("SPEED").in_range(-1));
    }
}
