//! Fuzzy rule bases: linguistic variables, rules and rule matrices, defuzzification.
//!
//! Every rule fires on every evaluation, to the degree of its premise (L5180); rules that name
//! the same output set are combined with OR (L5352). A rule matrix (Table 10-3) expands into one
//! rule per cell.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::membership::{Membership, Operators, not_very, very, weighted_average};
use tactica_syntax::{Code, condition};

use crate::decide::expr::text_error;
use crate::decide::{DecideError, error::from_toml};
use crate::value::{Table, Value};

/// A fuzzy rule base as written in a data file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuzzySpec {
    /// Which AND/OR to use.
    #[serde(default)]
    pub operators: Operators,
    /// Input variables: name → (set name → shape).
    pub inputs: BTreeMap<String, BTreeMap<String, Membership>>,
    /// Output variables: name → (set name → output set).
    pub outputs: BTreeMap<String, BTreeMap<String, OutputSet>>,
    /// Rules `when <premise> then <output> is <set>`.
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
    /// Rule matrices for two inputs.
    #[serde(default)]
    pub matrices: Vec<MatrixSpec>,
}

/// One output set: a singleton value for the weighted average and, optionally, a shape for the
/// centroid method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSet {
    /// The crisp value of the set (its singleton).
    pub value: f64,
    /// The set's shape, for clip-union-centroid defuzzification.
    #[serde(default)]
    pub shape: Option<Membership>,
}

/// One rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// The premise: `distance is close and not size is large`, with `very` and `somewhat` hedges.
    pub when: String,
    /// The conclusion: `threat is high`.
    pub then: String,
}

/// A rule matrix: the cell at (row set, column set) names the output set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixSpec {
    /// The input variable along the rows.
    pub rows: String,
    /// The row sets, top to bottom.
    pub row_sets: Vec<String>,
    /// The input variable along the columns.
    pub columns: String,
    /// The column sets, left to right.
    pub column_sets: Vec<String>,
    /// The output variable.
    pub output: String,
    /// Output set names, one row per row set; `""` leaves a cell empty.
    pub cells: Vec<Vec<String>>,
}

/// A compiled fuzzy rule base.
#[derive(Debug, Clone)]
pub struct FuzzySystem {
    operators: Operators,
    inputs: Vec<(String, Vec<(String, Membership)>)>,
    outputs: Vec<(String, Vec<(String, OutputSet)>)>,
    rules: Vec<Rule>,
}

#[derive(Debug, Clone)]
struct Rule {
    premise: Premise,
    output: usize,
    set: usize,
}

#[derive(Debug, Clone)]
enum Premise {
    Is(usize, usize),
    Not(Box<Premise>),
    Very(Box<Premise>),
    Somewhat(Box<Premise>),
    And(Vec<Premise>),
    Or(Vec<Premise>),
}

/// One output variable's sets after an evaluation: (set name, degree, set), in name order.
pub type OutputDegrees = Vec<(String, f64, OutputSet)>;

/// The degrees of every output set after an evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct FuzzyResult {
    /// Per output variable (in name order): its name and its sets' degrees.
    pub outputs: Vec<(String, OutputDegrees)>,
}

impl FuzzySystem {
    /// Parses and compiles a TOML rule base.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        Self::new(&from_toml::<FuzzySpec>(text)?)
    }

    /// Compiles a rule base.
    pub fn new(spec: &FuzzySpec) -> Result<Self, DecideError> {
        let inputs: Vec<_> = spec
            .inputs
            .iter()
            .map(|(n, sets)| (n.clone(), sets.iter().map(|(s, m)| (s.clone(), *m)).collect()))
            .collect();
        let outputs: Vec<_> = spec
            .outputs
            .iter()
            .map(|(n, sets)| (n.clone(), sets.iter().map(|(s, o)| (s.clone(), *o)).collect()))
            .collect();
        let mut sys = FuzzySystem { operators: spec.operators, inputs, outputs, rules: Vec::new() };
        for r in &spec.rules {
            let premise = sys.parse_premise(&r.when)?;
            let (output, set) = sys.parse_conclusion(&r.then)?;
            sys.rules.push(Rule { premise, output, set });
        }
        for m in &spec.matrices {
            sys.expand_matrix(m)?;
        }
        Ok(sys)
    }

    fn expand_matrix(&mut self, m: &MatrixSpec) -> Result<(), DecideError> {
        if m.cells.len() != m.row_sets.len() || m.cells.iter().any(|r| r.len() != m.column_sets.len()) {
            return Err(DecideError::invalid(
                format!("matrix {} × {}", m.rows, m.columns),
                "cells must have one row per row set and one entry per column set",
            ));
        }
        let row_var = self.input(&m.rows)?;
        let col_var = self.input(&m.columns)?;
        let out = find(&self.outputs, &m.output, "output variable")?;
        for (r, row_set) in m.row_sets.iter().enumerate() {
            let rs = find(&self.inputs[row_var].1, row_set, "fuzzy set")?;
            for (c, col_set) in m.column_sets.iter().enumerate() {
                let cell = &m.cells[r][c];
                if cell.is_empty() {
                    continue;
                }
                let cs = find(&self.inputs[col_var].1, col_set, "fuzzy set")?;
                let set = find(&self.outputs[out].1, cell, "output set")?;
                let premise = Premise::And(vec![Premise::Is(row_var, rs), Premise::Is(col_var, cs)]);
                self.rules.push(Rule { premise, output: out, set });
            }
        }
        Ok(())
    }

    fn input(&self, name: &str) -> Result<usize, DecideError> {
        find(&self.inputs, name, "input variable")
    }

    /// The input variables' names, in the order [`FuzzySystem::evaluate_slice`] expects.
    pub fn input_names(&self) -> impl Iterator<Item = &str> {
        self.inputs.iter().map(|(n, _)| n.as_str())
    }

    /// How many rules there are after matrices have been expanded.
    pub fn rule_count(&self) -> usize {
        self.rules.len()
    }

    /// The degree of membership of `x` in an input set.
    pub fn membership(&self, variable: &str, set: &str, x: f64) -> Result<f64, DecideError> {
        let v = self.input(variable)?;
        let s = find(&self.inputs[v].1, set, "fuzzy set")?;
        Ok(self.inputs[v].1[s].1.degree(x))
    }

    /// Evaluates every rule with inputs given by name.
    pub fn evaluate(&self, inputs: &BTreeMap<String, f64>) -> Result<FuzzyResult, DecideError> {
        let xs = self
            .inputs
            .iter()
            .map(|(n, _)| inputs.get(n).copied().ok_or_else(|| DecideError::unknown("input value", n)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(self.evaluate_slice(&xs))
    }

    /// Evaluates with inputs in [`FuzzySystem::input_names`] order; missing trailing inputs read as 0.
    pub fn evaluate_slice(&self, xs: &[f64]) -> FuzzyResult {
        let degrees: Vec<Vec<f64>> = self
            .inputs
            .iter()
            .enumerate()
            .map(|(i, (_, sets))| {
                let x = xs.get(i).copied().unwrap_or(0.0);
                sets.iter().map(|(_, m)| m.degree(x)).collect()
            })
            .collect();
        let mut out: Vec<Vec<f64>> = self.outputs.iter().map(|(_, s)| vec![0.0; s.len()]).collect();
        for rule in &self.rules {
            let strength = self.strength(&rule.premise, &degrees);
            let slot = &mut out[rule.output][rule.set];
            *slot = self.operators.or(*slot, strength);
        }
        FuzzyResult {
            outputs: self
                .outputs
                .iter()
                .zip(out)
                .map(|((name, sets), ds)| {
                    (name.clone(), sets.iter().zip(ds).map(|((s, o), d)| (s.clone(), d, *o)).collect())
                })
                .collect(),
        }
    }

    fn strength(&self, p: &Premise, degrees: &[Vec<f64>]) -> f64 {
        match p {
            Premise::Is(v, s) => degrees[*v][*s],
            Premise::Not(p) => 1.0 - self.strength(p, degrees),
            Premise::Very(p) => very(self.strength(p, degrees)),
            Premise::Somewhat(p) => not_very(self.strength(p, degrees)),
            Premise::And(ps) => {
                ps.iter().map(|p| self.strength(p, degrees)).reduce(|a, b| self.operators.and(a, b)).unwrap_or(1.0)
            }
            Premise::Or(ps) => {
                ps.iter().map(|p| self.strength(p, degrees)).reduce(|a, b| self.operators.or(a, b)).unwrap_or(0.0)
            }
        }
    }

    fn parse_conclusion(&self, text: &str) -> Result<(usize, usize), DecideError> {
        let c = condition::parse_conclusion(text).map_err(|d| text_error(text, &d))?;
        let o = match &c.output {
            Some(name) => find(&self.outputs, &name.text, "output variable")?,
            None if self.outputs.len() == 1 => 0,
            None => {
                return Err(DecideError::Expression {
                    source_text: text.to_owned(),
                    offset: 0,
                    code: Code::Syntax,
                    message: "expected `<output> is <set>`".to_owned(),
                    hint: Some("the system has several outputs, so name the one the rule concludes".to_owned()),
                });
            }
        };
        Ok((o, find(&self.outputs[o].1, &c.set.text, "output set")?))
    }

    /// Reads the premise with the designers' front end, then resolves its names.
    fn parse_premise(&self, text: &str) -> Result<Premise, DecideError> {
        let p = condition::parse_premise(text).map_err(|d| text_error(text, &d))?;
        self.resolve(&p)
    }

    fn resolve(&self, p: &condition::Premise) -> Result<Premise, DecideError> {
        use condition::Premise as P;
        let all = |ps: &[P]| ps.iter().map(|p| self.resolve(p)).collect::<Result<Vec<_>, _>>();
        Ok(match p {
            P::Is { var, set } => {
                let v = find(&self.inputs, &var.text, "input variable")?;
                Premise::Is(v, find(&self.inputs[v].1, &set.text, "fuzzy set")?)
            }
            P::Not(p) => Premise::Not(Box::new(self.resolve(p)?)),
            P::Very(p) => Premise::Very(Box::new(self.resolve(p)?)),
            P::Somewhat(p) => Premise::Somewhat(Box::new(self.resolve(p)?)),
            P::And(ps) => Premise::And(all(ps)?),
            P::Or(ps) => Premise::Or(all(ps)?),
        })
    }
}

fn find<T>(items: &[(String, T)], name: &str, kind: &'static str) -> Result<usize, DecideError> {
    items.iter().position(|(n, _)| n == name).ok_or_else(|| DecideError::unknown(kind, name))
}

impl FuzzyResult {
    fn output(&self, name: &str) -> Option<&[(String, f64, OutputSet)]> {
        self.outputs.iter().find(|(n, _)| n == name).map(|(_, s)| s.as_slice())
    }

    /// The degree of an output set (0 when unknown).
    pub fn degree(&self, output: &str, set: &str) -> f64 {
        self.output(output).and_then(|s| s.iter().find(|(n, ..)| n == set)).map_or(0.0, |(_, d, _)| *d)
    }

    /// The output set with the highest degree (ties: first in name order); `None` if all are 0.
    pub fn strongest(&self, output: &str) -> Option<&str> {
        let sets = self.output(output)?;
        let mut best: Option<&(String, f64, OutputSet)> = None;
        for s in sets {
            if s.1 > best.map_or(0.0, |b| b.1) {
                best = Some(s);
            }
        }
        best.map(|b| b.0.as_str())
    }

    /// Singleton defuzzification: `Σ μᵢ vᵢ / Σ μᵢ`; `None` when every degree is 0.
    pub fn weighted_average(&self, output: &str) -> Option<f64> {
        weighted_average(self.output(output)?.iter().map(|(_, d, o)| (*d, o.value)))
    }

    /// Clip-union-centroid defuzzification over the sets' shapes (sets without a shape act as
    /// their singleton value), sampled at `samples` points across the shapes' supports.
    /// `None` when the clipped union is empty.
    pub fn centroid(&self, output: &str, samples: usize) -> Option<f64> {
        let sets = self.output(output)?;
        let shaped: Vec<_> = sets.iter().filter_map(|(_, d, o)| o.shape.map(|m| (*d, m))).collect();
        let (lo, hi) = shaped.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), (_, m)| {
            let (a, b) = m.support();
            (lo.min(a), hi.max(b))
        });
        let (mut num, mut den) = (0.0, 0.0);
        if hi > lo && samples > 1 {
            let step = (hi - lo) / (samples - 1) as f64;
            for i in 0..samples {
                let x = lo + step * i as f64;
                let mu = shaped.iter().map(|(d, m)| m.degree(x).min(*d)).fold(0.0, f64::max);
                num += mu * x * step;
                den += mu * step;
            }
        }
        for (_, d, o) in sets.iter().filter(|(_, _, o)| o.shape.is_none()) {
            num += d * o.value;
            den += d;
        }
        (den > 0.0).then(|| num / den)
    }

    /// The degrees as a plain value: `{output = {set = degree}}`, for script hosts.
    pub fn to_value(&self) -> Value {
        Value::Map(
            self.outputs
                .iter()
                .map(|(n, sets)| {
                    let t: Table = sets.iter().map(|(s, d, _)| (s.clone(), Value::Float(*d))).collect();
                    (n.clone(), Value::Map(t))
                })
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The threat-assessment rule base of chapter 10 (Ex. 10-6, Table 10-3).
    pub(crate) const THREAT: &str = include_str!("threat.toml");

    #[test]
    fn threat_assessment_reproduces_the_chapter() {
        let sys = FuzzySystem::from_toml(THREAT).unwrap();
        assert_eq!(sys.rule_count(), 12);
        assert!((sys.membership("distance", "close", 25.0).unwrap() - 0.16667).abs() < 1e-4);
        assert_eq!(sys.membership("distance", "medium", 25.0).unwrap(), 0.75);
        assert!((sys.membership("size", "small", 8.0).unwrap() - 0.73333).abs() < 1e-4);
        let r = sys.evaluate(&[("distance".to_owned(), 25.0), ("size".to_owned(), 8.0)].into()).unwrap();
        // Ex. 10-7: low 0.73, medium 0.17, high 0.17 (the book rounds to two places).
        assert!((r.degree("threat", "low") - 0.73).abs() < 0.01);
        assert!((r.degree("threat", "medium") - 0.17).abs() < 0.01);
        assert!((r.degree("threat", "high") - 0.17).abs() < 0.01);
        // nDeploy: 19.375 at full precision, 19.53 with the book's rounded degrees (printed 19.5 ≈ 20).
        let deploy = r.weighted_average("threat").unwrap();
        assert!((19.375 - 1e-9..=19.55).contains(&deploy), "{deploy}");
        assert!(matches!(deploy.round() as i64, 19 | 20));
        assert_eq!(r.strongest("threat"), Some("low"));
        // Centroid of the clipped triangles lies between the low and the high singletons and,
        // since the triangles are symmetric and equally wide, near the weighted average.
        let c = r.centroid("threat", 601).unwrap();
        assert!((c - deploy).abs() < 3.0, "centroid {c} vs {deploy}");
    }

    #[test]
    fn explicit_rules_match_the_hand_written_ex_10_7() {
        let mut text = THREAT.split("[[matrices]]").next().unwrap().to_owned();
        text.push_str(
            r#"
[[rules]]
when = "(distance is medium and size is tiny) or (distance is medium and size is small)"
then = "threat is low"
[[rules]]
when = "distance is close and size is tiny"
then = "medium"
[[rules]]
when = "distance is close and size is small"
then = "threat is high"
"#,
        );
        let sys = FuzzySystem::from_toml(&text).unwrap();
        let r = sys.evaluate_slice(&[25.0, 8.0]);
        let by_hand_low = f64::max(f64::min(0.75, 0.2), f64::min(0.75, 8.0 / 15.0 + 0.2));
        assert!((r.degree("threat", "low") - by_hand_low).abs() < 1e-12);
        assert!((r.weighted_average("threat").unwrap() - 19.375).abs() < 1e-9);
    }

    #[test]
    fn hedges_in_premises_and_empty_outputs() {
        let text = r#"
[inputs.health]
low = { shape = "reverse_grade", x0 = 20, x1 = 60 }
[outputs.flee]
yes = { value = 1 }
[[rules]]
when = "health is very low"
then = "flee is yes"
"#;
        let sys = FuzzySystem::from_toml(text).unwrap();
        assert!((sys.evaluate_slice(&[40.0]).degree("flee", "yes") - 0.25).abs() < 1e-12);
        let none = sys.evaluate_slice(&[90.0]);
        assert_eq!(none.weighted_average("flee"), None);
        assert_eq!(none.strongest("flee"), None);
    }

    #[test]
    fn bad_rule_bases_are_typed_errors() {
        let base = THREAT.split("[[matrices]]").next().unwrap();
        let bad_set = format!("{base}\n[[rules]]\nwhen = \"distance is nearish\"\nthen = \"threat is low\"\n");
        assert!(matches!(FuzzySystem::from_toml(&bad_set), Err(DecideError::Unknown { kind: "fuzzy set", .. })));
        let bad_syntax = format!("{base}\n[[rules]]\nwhen = \"distance close\"\nthen = \"threat is low\"\n");
        assert!(matches!(FuzzySystem::from_toml(&bad_syntax), Err(DecideError::Expression { .. })));
        assert!(matches!(FuzzySystem::from_toml("inputs = 3"), Err(DecideError::Parse { line: 1, .. })));
    }
}
