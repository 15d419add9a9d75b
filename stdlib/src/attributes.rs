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
        AttributeSpec::int(
            "INTELLIGENCE",
            0,
            255,
            "Whether it finds its way: below 50 it walks straight at its goal and stops at the first wall; from 50 \
             on it plans round walls.",
        ),
        AttributeSpec::int(
            "SPEED",
            0,
            255,
            "Its walking speed: SPEED / 32 cells a second (130 walks about 4, 255 about 8); it replaces the \
             scenario's `speed`.",
        ),
        AttributeSpec::int(
            "STRENGTH",
            0,
            255,
            "Designer data: the runtime gives it no meaning of its own; scripts and models read it \
             (`AttributeOf(Me(), \"STRENGTH\")`).",
        ),
        AttributeSpec::int("COURAGE", 0, 255, "Designer data, read by scripts and models (as STRENGTH)."),
        AttributeSpec::int("MAGIC", 0, 255, "Designer data, read by scripts and models (as STRENGTH)."),
        AttributeSpec::int("HEALTH", 0, 1000, "Designer data, read by scripts and models (as STRENGTH)."),
        AttributeSpec::int("ARMOR", 0, 255, "Designer data, read by scripts and models (as STRENGTH)."),
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
