//! Model conditions: the `when = "…"` text of state-machine transitions and rule bases, and the
//! premises and conclusions of fuzzy rules.
//!
//! A condition is a `.tac` expression — the same lexer, the same grammar, the same diagnostics —
//! restricted to what a data file can evaluate without a script: facts, literals, the comparisons
//! `== != < <= > >=`, `and`, `or`, `not` and brackets. A bare name on the left of a comparison is
//! a fact; on the right it is a symbol (`Temple == Yes`). Anything else (a call, arithmetic) is
//! refused with [`Code::NotACondition`] and a hint to move the logic into a `.tac` script.
//!
//! Fuzzy rules read `distance is close and not health is very low` ([`parse_premise`]) and
//! `threat is high` ([`parse_conclusion`]); `is`, `very` and `somewhat` are words of those
//! sentences only, so they stay usable as names everywhere else.

use chumsky::input::ValueInput;
use chumsky::prelude::*;

use crate::ast::{BinOp, Expr, ExprKind, Name, UnOp};
use crate::diagnostics::{Code, Diagnostic};
use crate::lexer::{Span, Token};
use crate::limits::Grammar;
use crate::parser::{Extra, expr, ident, kw};
use crate::tac::front;

/// A comparison of a fact with a literal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CompareOp {
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
}

/// The constant on the right of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A quoted string.
    Str(String),
    /// A bare name on the right (`Yes` in `Temple == Yes`), which means its own spelling.
    Symbol(String),
    /// `true` or `false`.
    Bool(bool),
}

/// A parsed model condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// `true` or `false`.
    Const(bool),
    /// The fact is truthy.
    Fact(Name),
    /// `fact OP literal`.
    Compare {
        /// The fact on the left.
        fact: Name,
        /// The comparison.
        op: CompareOp,
        /// The constant on the right.
        value: Literal,
    },
    /// `not c`.
    Not(Box<Condition>),
    /// `a and b and …`.
    And(Vec<Condition>),
    /// `a or b or …`.
    Or(Vec<Condition>),
}

impl Condition {
    /// Every fact it reads, in order of appearance, each once.
    pub fn facts(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.collect(&mut out);
        out
    }

    fn collect<'a>(&'a self, out: &mut Vec<&'a str>) {
        match self {
            Condition::Const(_) => {}
            Condition::Fact(f) | Condition::Compare { fact: f, .. } => {
                if !out.contains(&f.text.as_str()) {
                    out.push(&f.text);
                }
            }
            Condition::Not(c) => c.collect(out),
            Condition::And(cs) | Condition::Or(cs) => cs.iter().for_each(|c| c.collect(out)),
        }
    }
}

/// Parses a condition. Every mistake is reported, each with its span in `text`.
pub fn parse(text: &str) -> Result<Condition, Vec<Diagnostic>> {
    let (tree, mut diagnostics) = front(text, Grammar::Tac, |tokens, eoi| {
        expr().then_ignore(end()).parse(tokens.map(eoi, |(t, s)| (t, s))).into_output_errors()
    });
    if diagnostics.is_empty()
        && let Some(tree) = tree
    {
        match lower(&tree) {
            Ok(c) => return Ok(c),
            Err(d) => diagnostics.push(d),
        }
    }
    if diagnostics.is_empty() {
        diagnostics.push(Diagnostic::new(Code::Syntax, 0..text.len(), "empty condition", "expected a condition"));
    }
    Err(diagnostics)
}

/// A condition from an expression another grammar has read (a behaviour tree's `check` and
/// `guard`): the same restriction to facts, constants, comparisons and `and`/`or`/`not`.
pub fn from_expr(e: &Expr) -> Result<Condition, Diagnostic> {
    lower(e)
}

/// The condition an expression is, or why it cannot be one (a call, arithmetic).
pub(crate) fn lower(e: &Expr) -> Result<Condition, Diagnostic> {
    match &e.kind {
        ExprKind::Bool(b) => Ok(Condition::Const(*b)),
        ExprKind::Name(n) => Ok(Condition::Fact(n.clone())),
        ExprKind::Unary { op: UnOp::Not, expr } => Ok(Condition::Not(Box::new(lower(expr)?))),
        ExprKind::Binary { op: op @ (BinOp::And | BinOp::Or), lhs, rhs } => {
            let mut items = Vec::new();
            for side in [lhs, rhs] {
                match (lower(side)?, op) {
                    (Condition::And(inner), BinOp::And) | (Condition::Or(inner), BinOp::Or) => items.extend(inner),
                    (c, _) => items.push(c),
                }
            }
            Ok(if *op == BinOp::And { Condition::And(items) } else { Condition::Or(items) })
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let Some(op) = compare(*op) else { return Err(not_a_condition(e, "arithmetic")) };
            let ExprKind::Name(fact) = &lhs.kind else {
                return Err(Diagnostic::new(
                    Code::NotACondition,
                    lhs.span.clone(),
                    "a comparison in a model starts with a fact",
                    "expected a fact's name here",
                )
                .with_hint("write the fact on the left and a constant on the right: `health < 30`, `Temple == Yes`"));
            };
            Ok(Condition::Compare { fact: fact.clone(), op, value: literal(rhs)? })
        }
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) => Err(Diagnostic::new(
            Code::NotACondition,
            e.span.clone(),
            "a constant on its own is not a condition",
            "compare a fact with it",
        )
        .with_hint("write `fact == value`, or `true`/`false` for a condition that always or never holds")),
        ExprKind::Call { .. } | ExprKind::Prove { .. } => Err(not_a_condition(e, "a call")),
        ExprKind::Unary { op: UnOp::Neg, .. } => Err(not_a_condition(e, "arithmetic")),
        ExprKind::Error => {
            Err(Diagnostic::new(Code::Syntax, e.span.clone(), "this part did not parse", "not a condition"))
        }
    }
}

fn compare(op: BinOp) -> Option<CompareOp> {
    Some(match op {
        BinOp::Eq => CompareOp::Eq,
        BinOp::Ne => CompareOp::Ne,
        BinOp::Lt => CompareOp::Lt,
        BinOp::Le => CompareOp::Le,
        BinOp::Gt => CompareOp::Gt,
        BinOp::Ge => CompareOp::Ge,
        _ => return None,
    })
}

fn literal(e: &Expr) -> Result<Literal, Diagnostic> {
    Ok(match &e.kind {
        ExprKind::Int(n) => Literal::Int(*n),
        ExprKind::Float(x) => Literal::Float(*x),
        ExprKind::Str(s) => Literal::Str(s.clone()),
        ExprKind::Bool(b) => Literal::Bool(*b),
        ExprKind::Name(n) => Literal::Symbol(n.text.clone()),
        ExprKind::Unary { op: UnOp::Neg, expr } => match &expr.kind {
            ExprKind::Int(n) => Literal::Int(-n),
            ExprKind::Float(x) => Literal::Float(-x),
            _ => return Err(not_a_condition(e, "arithmetic")),
        },
        _ => {
            return Err(Diagnostic::new(
                Code::NotACondition,
                e.span.clone(),
                "a model compares a fact with a constant",
                "expected a number, a string, `true`/`false` or a symbol",
            )
            .with_hint("compute the value in a `.tac` script and store it as a fact"));
        }
    })
}

fn not_a_condition(e: &Expr, what: &str) -> Diagnostic {
    Diagnostic::new(
        Code::NotACondition,
        e.span.clone(),
        format!("{what} cannot be part of a model's condition"),
        "a model reads facts only",
    )
    .with_hint("models compare facts with constants; compute the value in a `.tac` script and store it as a fact")
}

/// A fuzzy rule's premise: `var is set`, hedged by `very`/`somewhat`, combined by `and`, `or`,
/// `not` and brackets.
#[derive(Debug, Clone, PartialEq)]
pub enum Premise {
    /// `var is set`.
    Is {
        /// The input variable.
        var: Name,
        /// The fuzzy set.
        set: Name,
    },
    /// `not p`.
    Not(Box<Premise>),
    /// `very p` (also `var is very set`).
    Very(Box<Premise>),
    /// `somewhat p` (also `var is somewhat set`).
    Somewhat(Box<Premise>),
    /// `a and b and …`.
    And(Vec<Premise>),
    /// `a or b or …`.
    Or(Vec<Premise>),
}

fn premise<'t, 's: 't, I>() -> impl Parser<'t, I, Premise, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let name = ident().labelled("a name");
    recursive(|premise| {
        let hedge = choice((kw("very").to(1u8), kw("somewhat").to(2u8))).or_not();
        let is = name.clone().then_ignore(kw("is")).then(hedge).then(name.clone()).map(|((var, hedge), set)| {
            let p = Premise::Is { var, set };
            match hedge {
                Some(1) => Premise::Very(Box::new(p)),
                Some(_) => Premise::Somewhat(Box::new(p)),
                None => p,
            }
        });
        let atom =
            choice((is, premise.delimited_by(just(Token::LParen), just(Token::RParen)))).labelled("`<input> is <set>`");
        let unary = recursive(|unary| {
            choice((
                just(Token::Not).ignore_then(unary.clone()).map(|p| Premise::Not(Box::new(p))),
                kw("very").ignore_then(unary.clone()).map(|p| Premise::Very(Box::new(p))),
                kw("somewhat").ignore_then(unary).map(|p| Premise::Somewhat(Box::new(p))),
                atom,
            ))
        });
        let and = unary
            .separated_by(just(Token::And))
            .at_least(1)
            .collect::<Vec<_>>()
            .map(|mut v| if v.len() == 1 { v.remove(0) } else { Premise::And(v) });
        and.separated_by(just(Token::Or))
            .at_least(1)
            .collect::<Vec<_>>()
            .map(|mut v| if v.len() == 1 { v.remove(0) } else { Premise::Or(v) })
    })
}

/// Parses a fuzzy rule's premise (`distance is close and not health is very low`).
pub fn parse_premise(text: &str) -> Result<Premise, Vec<Diagnostic>> {
    let (tree, diagnostics) = front(text, Grammar::Premise, |tokens, eoi| {
        premise().then_ignore(end()).parse(tokens.map(eoi, |(t, s)| (t, s))).into_output_errors()
    });
    match tree {
        Some(p) if diagnostics.is_empty() => Ok(p),
        _ => Err(or_empty(diagnostics, text, "expected `<input> is <set>`")),
    }
}

/// A fuzzy rule's conclusion: `output is set`, or just `set` when the system has one output.
#[derive(Debug, Clone, PartialEq)]
pub struct Conclusion {
    /// The output variable, when named.
    pub output: Option<Name>,
    /// The output set.
    pub set: Name,
}

/// Parses a fuzzy rule's conclusion (`threat is high`, or `high`).
pub fn parse_conclusion(text: &str) -> Result<Conclusion, Vec<Diagnostic>> {
    let (tree, diagnostics) = front(text, Grammar::Blocks, |tokens, eoi| {
        let name = ident().labelled("a name");
        name.clone()
            .then_ignore(kw("is"))
            .or_not()
            .then(name)
            .map(|(output, set)| Conclusion { output, set })
            .then_ignore(end())
            .parse(tokens.map(eoi, |(t, s)| (t, s)))
            .into_output_errors()
    });
    match tree {
        Some(c) if diagnostics.is_empty() => Ok(c),
        _ => Err(or_empty(diagnostics, text, "expected `<output> is <set>`")),
    }
}

fn or_empty(mut diagnostics: Vec<Diagnostic>, text: &str, expected: &str) -> Vec<Diagnostic> {
    if diagnostics.is_empty() {
        let span: Span = 0..text.len();
        diagnostics.push(Diagnostic::new(Code::Syntax, span, "empty rule text", expected.to_owned()));
    }
    diagnostics
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(c: &Condition) -> &str {
        match c {
            Condition::Fact(n) | Condition::Compare { fact: n, .. } => &n.text,
            other => panic!("not a fact: {other:?}"),
        }
    }

    #[test]
    fn and_binds_tighter_than_or_and_chains_flatten() {
        let Condition::Or(items) = parse("a or b and not c or d").unwrap() else { panic!() };
        assert_eq!(items.len(), 3);
        let Condition::And(inner) = &items[1] else { panic!("{items:?}") };
        assert_eq!(fact(&inner[0]), "b");
        assert!(matches!(&inner[1], Condition::Not(c) if fact(c) == "c"));
        let Condition::And(items) = parse("a && b && c").unwrap() else { panic!() };
        assert_eq!(items.len(), 3);
    }

    #[test]
    fn literals_symbols_and_quotes() {
        let c = parse("Temple == Yes").unwrap();
        assert!(matches!(&c, Condition::Compare { op: CompareOp::Eq, value: Literal::Symbol(s), .. } if s == "Yes"));
        assert!(
            matches!(parse("x == 'open'").unwrap(), Condition::Compare { value: Literal::Str(s), .. } if s == "open")
        );
        assert!(
            matches!(parse("x >= -2.5").unwrap(), Condition::Compare { op: CompareOp::Ge, value: Literal::Float(v), .. } if v == -2.5)
        );
        assert!(matches!(parse("x < -3").unwrap(), Condition::Compare { value: Literal::Int(-3), .. }));
        assert_eq!(parse("TRUE").unwrap(), Condition::Const(true));
        assert_eq!(parse("health < 20 and armed").unwrap().facts(), ["health", "armed"]);
    }

    #[test]
    fn mistakes_have_codes_spans_and_hints() {
        let e = parse("a and (b or").unwrap_err();
        assert_eq!(e[0].code, Code::Syntax);
        assert_eq!(e[0].message, "this bracket is never closed");
        let e = parse("x = 3").unwrap_err();
        assert_eq!(e[0].message, "`=` in a condition");
        let e = parse("a $ b").unwrap_err();
        assert_eq!((e[0].code, e[0].span.clone()), (Code::UnknownCharacter, 2..3));
        let e = parse("health < Random(3)").unwrap_err();
        assert_eq!((e[0].code, e[0].span.clone()), (Code::NotACondition, 9..18));
        let e = parse("health + 1 > 3").unwrap_err();
        assert_eq!(e[0].code, Code::NotACondition);
        let e = parse("3 == health").unwrap_err();
        assert_eq!(e[0].message, "a comparison in a model starts with a fact");
        assert!(parse("").is_err());
        assert!(parse("x == 'open").is_err());
        assert!(parse("a b").is_err());
    }

    #[test]
    fn fuzzy_premises_and_conclusions() {
        let p = parse_premise("(distance is medium and size is tiny) or health is very low").unwrap();
        let Premise::Or(items) = p else { panic!() };
        assert!(matches!(&items[0], Premise::And(v) if v.len() == 2));
        assert!(matches!(&items[1], Premise::Very(b) if matches!(&**b, Premise::Is { set, .. } if set.text == "low")));
        assert!(matches!(parse_premise("not very x is near").unwrap(), Premise::Not(_)));
        assert!(parse_premise("distance close").is_err());
        let c = parse_conclusion("threat is low").unwrap();
        assert_eq!((c.output.map(|n| n.text), c.set.text), (Some("threat".to_owned()), "low".to_owned()));
        assert!(parse_conclusion("low").unwrap().output.is_none());
        assert!(parse_conclusion("threat is").is_err());
    }
}
