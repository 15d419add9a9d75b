//! Small condition expressions over named facts: FSM guards, rule conditions, schedule filters.
//!
//! The text is read by the designers' one front end ([`tactica_syntax::condition`]): a `.tac`
//! expression restricted to facts, constants, `== != < <= > >=`, `and`/`&&`, `or`/`||`,
//! `not`/`!` and brackets (keywords in any case). A bare name on the right of a comparison is a
//! symbol (`Temple == Yes`). Mistakes carry the same codes `tactica explain` knows.
//!
//! A bare `NAME` is true when the fact is truthy ([`Value::truthy`]). A fact that is not set reads
//! as [`Value::Nil`], so comparisons with it are false except `!=`.

use std::cmp::Ordering;

use tactica_syntax::condition::{self, Condition, Literal};
use tactica_syntax::{Code, Diagnostic};

use crate::decide::DecideError;
use crate::value::{Table, Value};

/// A parsed condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    /// A constant.
    Const(bool),
    /// The fact is truthy.
    Fact(String),
    /// `fact OP literal`.
    Compare {
        /// The fact's name.
        fact: String,
        /// The comparison.
        op: CompareOp,
        /// The literal on the right.
        value: Value,
    },
    /// Negation.
    Not(Box<Expr>),
    /// Conjunction.
    And(Vec<Expr>),
    /// Disjunction.
    Or(Vec<Expr>),
}

/// A comparison operator: the front end's own ([`tactica_syntax::condition::CompareOp`]), so a
/// condition means what the designer's text says without a second copy of the operators.
pub use tactica_syntax::condition::CompareOp;

/// Applying a [`CompareOp`] to two values.
pub trait Apply {
    /// Applies the operator. `==` and `!=` are [`Value::loosely_equals`], the one meaning `==`
    /// has in designer text (strings without regard to case, so `Temple == Yes` holds for
    /// `"yes"`); `< <= > >=` order numbers (ints widen) and nothing else.
    fn apply(self, left: &Value, right: &Value) -> bool;
}

impl Apply for CompareOp {
    fn apply(self, left: &Value, right: &Value) -> bool {
        let ord = || match (left.as_f64(), right.as_f64()) {
            (Some(a), Some(b)) => a.partial_cmp(&b),
            _ => None,
        };
        match self {
            CompareOp::Eq => left.loosely_equals(right),
            CompareOp::Ne => !left.loosely_equals(right),
            CompareOp::Lt => ord() == Some(Ordering::Less),
            CompareOp::Le => matches!(ord(), Some(Ordering::Less | Ordering::Equal)),
            CompareOp::Gt => ord() == Some(Ordering::Greater),
            CompareOp::Ge => matches!(ord(), Some(Ordering::Greater | Ordering::Equal)),
        }
    }
}

impl Expr {
    /// Parses `text` with the designers' front end ([`tactica_syntax::condition`]), so a model's
    /// condition reads exactly like a `.tac` condition and its mistakes get the same diagnostics.
    pub fn parse(text: &str) -> Result<Expr, DecideError> {
        condition::parse(text).map(|c| Expr::from(&c)).map_err(|d| text_error(text, &d))
    }

    /// Evaluates against facts looked up by `get`.
    pub fn eval_with<'a>(&self, get: &impl Fn(&str) -> Option<&'a Value>) -> bool {
        match self {
            Expr::Const(b) => *b,
            Expr::Fact(name) => get(name).is_some_and(Value::truthy),
            Expr::Compare { fact, op, value } => op.apply(get(fact).unwrap_or(&Value::Nil), value),
            Expr::Not(e) => !e.eval_with(get),
            Expr::And(es) => es.iter().all(|e| e.eval_with(get)),
            Expr::Or(es) => es.iter().any(|e| e.eval_with(get)),
        }
    }

    /// Evaluates against a table of facts.
    pub fn eval(&self, facts: &Table) -> bool {
        self.eval_with(&|name| facts.get(name))
    }

    /// Every fact name the expression reads, in order of appearance (with repeats removed).
    pub fn facts(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_facts(&mut out);
        out
    }

    fn collect_facts(&self, out: &mut Vec<String>) {
        match self {
            Expr::Const(_) => {}
            Expr::Fact(f) | Expr::Compare { fact: f, .. } => {
                if !out.contains(f) {
                    out.push(f.clone());
                }
            }
            Expr::Not(e) => e.collect_facts(out),
            Expr::And(es) | Expr::Or(es) => es.iter().for_each(|e| e.collect_facts(out)),
        }
    }
}

impl From<&Condition> for Expr {
    fn from(c: &Condition) -> Expr {
        match c {
            Condition::Const(b) => Expr::Const(*b),
            Condition::Fact(n) => Expr::Fact(n.text.clone()),
            Condition::Compare { fact, op, value } => {
                Expr::Compare { fact: fact.text.clone(), op: *op, value: literal_value(value) }
            }
            Condition::Not(c) => Expr::Not(Box::new(Expr::from(&**c))),
            Condition::And(cs) => Expr::And(cs.iter().map(Expr::from).collect()),
            Condition::Or(cs) => Expr::Or(cs.iter().map(Expr::from).collect()),
        }
    }
}

fn literal_value(l: &Literal) -> Value {
    match l {
        Literal::Int(n) => Value::Int(*n),
        Literal::Float(x) => Value::Float(*x),
        Literal::Str(s) | Literal::Symbol(s) => Value::Str(s.clone()),
        Literal::Bool(b) => Value::Bool(*b),
    }
}

/// The error for designer text the front end refused: the first diagnostic, at its offset in
/// `text`, with its code and hint (the others usually follow from it).
pub(crate) fn text_error(text: &str, diagnostics: &[Diagnostic]) -> DecideError {
    let Some(d) = diagnostics.first() else {
        return DecideError::Expression {
            source_text: text.to_owned(),
            offset: 0,
            code: Code::Syntax,
            message: "could not be read".to_owned(),
            hint: None,
        };
    };
    DecideError::Expression {
        source_text: text.to_owned(),
        offset: d.span.start,
        code: d.code,
        message: format!("{} ({})", d.message, d.label),
        hint: d.hint.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(pairs: &[(&str, Value)]) -> Table {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
    }

    #[test]
    fn precedence_is_not_then_and_then_or() {
        let e = Expr::parse("a or b and not c").unwrap();
        let t = facts(&[("a", false.into()), ("b", true.into()), ("c", false.into())]);
        assert!(e.eval(&t));
        let t = facts(&[("a", false.into()), ("b", true.into()), ("c", true.into())]);
        assert!(!e.eval(&t));
        assert_eq!(e.facts(), vec!["a", "b", "c"]);
    }

    #[test]
    fn comparisons_widen_numbers_and_read_symbols() {
        let t = facts(&[("health", Value::Int(15)), ("Temple", "Unknown".into())]);
        assert!(Expr::parse("health < 20.5 && Temple == Unknown").unwrap().eval(&t));
        assert!(!Expr::parse("health >= 16").unwrap().eval(&t));
        assert!(Expr::parse("missing != 3").unwrap().eval(&t));
        assert!(!Expr::parse("missing == 3").unwrap().eval(&t));
        assert!(Expr::parse("!(health > 100) || false").unwrap().eval(&t));
        assert!(Expr::parse("Temple == 'Unknown'").unwrap().eval(&t));
    }

    #[test]
    fn mistakes_are_reported_with_offsets() {
        // The bracket that is never closed is where the mistake is.
        let err = Expr::parse("a and (b or").unwrap_err();
        assert!(matches!(err, DecideError::Expression { offset: 6, code: Code::Syntax, .. }), "{err:?}");
        assert!(matches!(Expr::parse("a $ b"), Err(DecideError::Expression { offset: 2, .. })));
        let err = Expr::parse("health < Random(3)").unwrap_err();
        assert!(matches!(err, DecideError::Expression { offset: 9, code: Code::NotACondition, .. }), "{err:?}");
        assert!(err.to_string().contains("E0090"), "{err}");
        assert!(Expr::parse("a b").is_err());
        assert!(Expr::parse("x == 'open").is_err());
    }
}
