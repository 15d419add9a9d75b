//! Fuzzy logic (chapter 10): membership functions, hedges, operators, rule bases with rule
//! matrices, and weighted-average and centroid defuzzification.

mod membership;
mod system;

pub use membership::{
    Membership, Operators, and, grade, not, not_very, or, reverse_grade, trapezoid, triangle, very, weighted_average,
};
pub use system::{FuzzyResult, FuzzySpec, FuzzySystem, MatrixSpec, OutputDegrees, OutputSet, RuleSpec};
