//! Small condition expressions over named facts: FSM guards, rule conditions, schedule filters.
//!
//! Grammar (keywords are case-insensitive, `&&`/`||`/`!` are accepted too):
//!
//! ```text
//! expr   := and ("or" and)*
//! and    := unary ("and" unary)*
//! unary  := "not" unary | atom
//! atom   := "(" expr ")" | "true" | "false" | NAME [OP literal]
//! OP     := == | != | < | <= | > | >=
//! literal:= number | "quoted" | NAME      (a bare name on the right is a symbol, e.g. `Temple == Yes`)
//! ```
//!
//! A bare `NAME` is true when the fact is truthy ([`Value::truthy`]). A fact that is not set reads
//! as [`Value::Nil`], so comparisons with it are false except `!=`.

use std::cmp::Ordering;

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

/// A comparison operator.
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

impl CompareOp {
    /// Applies the operator. Numbers compare numerically (ints widen), strings and bools by
    /// equality only; mismatched types are unequal and unordered.
    pub fn apply(self, left: &Value, right: &Value) -> bool {
        let ord = match (left.as_f64(), right.as_f64()) {
            (Some(a), Some(b)) => a.partial_cmp(&b),
            _ if left == right => Some(Ordering::Equal),
            _ => None,
        };
        match self {
            CompareOp::Eq => ord == Some(Ordering::Equal),
            CompareOp::Ne => ord != Some(Ordering::Equal),
            CompareOp::Lt => ord == Some(Ordering::Less),
            CompareOp::Le => matches!(ord, Some(Ordering::Less | Ordering::Equal)),
            CompareOp::Gt => ord == Some(Ordering::Greater),
            CompareOp::Ge => matches!(ord, Some(Ordering::Greater | Ordering::Equal)),
        }
    }
}

impl Expr {
    /// Parses `text`.
    pub fn parse(text: &str) -> Result<Expr, DecideError> {
        let tokens = tokenize(text)?;
        let mut p = Parser { text, tokens: &tokens, pos: 0 };
        let e = p.or()?;
        if p.pos < tokens.len() {
            return Err(p.error("unexpected text after the expression"));
        }
        Ok(e)
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

/// A token with its byte offset.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    /// A name or keyword.
    Name(String),
    /// A number.
    Num(f64),
    /// A quoted string.
    Str(String),
    /// An operator or parenthesis.
    Sym(&'static str),
}

/// Splits an expression into tokens (shared with the fuzzy rule parser).
pub(crate) fn tokenize(text: &str) -> Result<Vec<(Tok, usize)>, DecideError> {
    const SYMS: [&str; 12] = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "="];
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'-' | b'.')) {
                i += 1;
            }
            out.push((Tok::Name(text[start..i].to_owned()), start));
        } else if c.is_ascii_digit() || (c == '-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let start = i;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || matches!(bytes[i], b'.' | b'e' | b'E')) {
                i += 1;
            }
            let n = text[start..i].parse::<f64>().map_err(|e| DecideError::Expression {
                source_text: text.to_owned(),
                offset: start,
                message: e.to_string(),
            })?;
            out.push((Tok::Num(n), start));
        } else if c == '"' || c == '\'' {
            let start = i;
            let end = text[i + 1..].find(c).ok_or_else(|| DecideError::Expression {
                source_text: text.to_owned(),
                offset: start,
                message: "unterminated string".into(),
            })?;
            out.push((Tok::Str(text[i + 1..i + 1 + end].to_owned()), start));
            i += end + 2;
        } else if let Some(sym) = SYMS.iter().find(|s| text[i..].starts_with(*s)) {
            out.push((Tok::Sym(sym), i));
            i += sym.len();
        } else {
            return Err(DecideError::Expression {
                source_text: text.to_owned(),
                offset: i,
                message: format!("unexpected character `{c}`"),
            });
        }
    }
    Ok(out)
}

struct Parser<'a> {
    text: &'a str,
    tokens: &'a [(Tok, usize)],
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> DecideError {
        let offset = self.tokens.get(self.pos).map_or(self.text.len(), |t| t.1);
        DecideError::Expression { source_text: self.text.to_owned(), offset, message: message.to_owned() }
    }

    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.0)
    }

    fn keyword(&mut self, word: &str, sym: &str) -> bool {
        let hit = match self.peek() {
            Some(Tok::Name(n)) => n.eq_ignore_ascii_case(word),
            Some(Tok::Sym(s)) => *s == sym,
            _ => false,
        };
        if hit {
            self.pos += 1;
        }
        hit
    }

    fn or(&mut self) -> Result<Expr, DecideError> {
        let mut items = vec![self.and()?];
        while self.keyword("or", "||") {
            items.push(self.and()?);
        }
        Ok(if items.len() == 1 { items.remove(0) } else { Expr::Or(items) })
    }

    fn and(&mut self) -> Result<Expr, DecideError> {
        let mut items = vec![self.unary()?];
        while self.keyword("and", "&&") {
            items.push(self.unary()?);
        }
        Ok(if items.len() == 1 { items.remove(0) } else { Expr::And(items) })
    }

    fn unary(&mut self) -> Result<Expr, DecideError> {
        if self.keyword("not", "!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        self.atom()
    }

    fn atom(&mut self) -> Result<Expr, DecideError> {
        match self.peek().cloned() {
            Some(Tok::Sym("(")) => {
                self.pos += 1;
                let e = self.or()?;
                if !self.keyword("", ")") {
                    return Err(self.error("expected `)`"));
                }
                Ok(e)
            }
            Some(Tok::Name(n)) if n.eq_ignore_ascii_case("true") => {
                self.pos += 1;
                Ok(Expr::Const(true))
            }
            Some(Tok::Name(n)) if n.eq_ignore_ascii_case("false") => {
                self.pos += 1;
                Ok(Expr::Const(false))
            }
            Some(Tok::Name(fact)) => {
                self.pos += 1;
                let op = match self.peek() {
                    Some(Tok::Sym("==" | "=")) => CompareOp::Eq,
                    Some(Tok::Sym("!=")) => CompareOp::Ne,
                    Some(Tok::Sym("<")) => CompareOp::Lt,
                    Some(Tok::Sym("<=")) => CompareOp::Le,
                    Some(Tok::Sym(">")) => CompareOp::Gt,
                    Some(Tok::Sym(">=")) => CompareOp::Ge,
                    _ => return Ok(Expr::Fact(fact)),
                };
                self.pos += 1;
                let value = self.literal()?;
                Ok(Expr::Compare { fact, op, value })
            }
            _ => Err(self.error("expected a fact name, `not`, `true`, `false` or `(`")),
        }
    }

    fn literal(&mut self) -> Result<Value, DecideError> {
        let v = match self.peek() {
            Some(Tok::Num(n)) => number_value(*n),
            Some(Tok::Str(s)) => Value::Str(s.clone()),
            Some(Tok::Name(n)) if n.eq_ignore_ascii_case("true") => Value::Bool(true),
            Some(Tok::Name(n)) if n.eq_ignore_ascii_case("false") => Value::Bool(false),
            Some(Tok::Name(n)) => Value::Str(n.clone()),
            _ => return Err(self.error("expected a number, a string or a symbol")),
        };
        self.pos += 1;
        Ok(v)
    }
}

/// Whole numbers become ints so that `count == 3` equals an int fact and prints as `3`.
pub(crate) fn number_value(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9.0e15 { Value::Int(n as i64) } else { Value::Float(n) }
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
        let err = Expr::parse("a and (b or").unwrap_err();
        assert!(matches!(err, DecideError::Expression { offset: 11, .. }), "{err:?}");
        assert!(matches!(Expr::parse("a $ b"), Err(DecideError::Expression { offset: 2, .. })));
        assert!(Expr::parse("a b").is_err());
        assert!(Expr::parse("x == 'open").is_err());
    }
}
