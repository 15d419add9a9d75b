//! The native block syntax for queries in `.tac` files (documented in `docs/tps.md`):
//!
//! ```text
//! -- take cover from the target, nearest first; fall back to any grid point that hides us
//! query take_cover {
//!     option {
//!         Generation { hidespots_from_target_around_puppet = 15 }
//!         Conditions { min_distance_from_puppet = 5, canReachBefore_the_target = true }
//!         Weights    { distance_from_puppet = -1.0 }
//!     }
//!     option {
//!         Generation { grid_around_puppet = 10 }
//!         Conditions { visible_from_target = false }
//!     }
//!     on_failure { signal = "no_cover", scope = "squad", blackboard = "noCover" }
//! }
//! ```
//!
//! A file holds any number of queries. Entries are `key = value`, separated by newlines, commas or
//! semicolons; values are numbers, `true`/`false`, strings and `{ … }` maps. `--` and `//` start
//! comments. A `=` before a section's `{` is allowed, so a Lua-style table reads as well. The parser
//! builds the same [`Value`] map a Lua table gives and compiles it with the same code; diagnostics
//! carry the file, line and column.

use std::collections::BTreeMap;

use super::compile::compile_located;
use super::error::{Location, QueryError, QueryErrorKind, QueryErrors};
use super::spec::{Query, QueryConfig};
use crate::value::Value;

/// Parses and compiles every query in `src`. `file` names the source in diagnostics.
pub fn parse_queries(file: &str, src: &str, config: QueryConfig) -> Result<Vec<Query>, QueryErrors> {
    let tokens = lex(file, src)?;
    let mut p = Parser { file, tokens, pos: 0, spans: BTreeMap::new() };
    let mut raw = Vec::new();
    while p.peek().is_some() {
        raw.push(p.query().map_err(|e| QueryErrors(vec![e]))?);
    }
    let mut queries = Vec::new();
    let mut errors = Vec::new();
    for (name, value, spans) in raw {
        let at = |path: &str| {
            let (line, column) = spans.get(path).copied().unwrap_or((1, 1));
            Location::File { file: file.to_owned(), line, column }
        };
        match compile_located(&name, &value, config, &at) {
            Ok(q) => queries.push(q),
            Err(QueryErrors(e)) => errors.extend(e),
        }
    }
    if errors.is_empty() { Ok(queries) } else { Err(QueryErrors(errors)) }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Num(f64),
    Str(String),
    Open,
    Close,
    Eq,
    Sep,
}

struct Token {
    tok: Tok,
    line: u32,
    col: u32,
}

fn lex(file: &str, src: &str) -> Result<Vec<Token>, QueryErrors> {
    let err = |line, column, msg: String| {
        QueryErrors(vec![QueryError {
            kind: QueryErrorKind::Syntax(msg),
            location: Location::File { file: file.to_owned(), line, column },
        }])
    };
    let chars: Vec<char> = src.chars().collect();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let mut out = Vec::new();
    while i < chars.len() {
        let c = chars[i];
        let (l0, c0) = (line, col);
        let next = chars.get(i + 1).copied();
        if c == '\n' {
            i += 1;
            line += 1;
            col = 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            col += 1;
            continue;
        }
        if (c == '-' && next == Some('-')) || (c == '/' && next == Some('/')) {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let tok = match c {
            '{' => Tok::Open,
            '}' => Tok::Close,
            '=' => Tok::Eq,
            ',' | ';' => Tok::Sep,
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
                    i += 1;
                }
                if chars.get(i) != Some(&'"') {
                    return Err(err(l0, c0, "unterminated string".into()));
                }
                Tok::Str(chars[start + 1..i].iter().collect())
            }
            c if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' => {
                i += 1;
                while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                    i += 1;
                }
                i -= 1;
                let text: String = chars[start..=i].iter().collect();
                match text.parse::<f64>() {
                    Ok(x) if x.is_finite() => Tok::Num(x),
                    _ => return Err(err(l0, c0, format!("`{text}` is not a number"))),
                }
            }
            c if c.is_alphabetic() || c == '_' => {
                while i + 1 < chars.len() && (chars[i + 1].is_alphanumeric() || chars[i + 1] == '_') {
                    i += 1;
                }
                Tok::Ident(chars[start..=i].iter().collect())
            }
            other => return Err(err(l0, c0, format!("unexpected character `{other}`"))),
        };
        i += 1;
        col += (i - start) as u32;
        out.push(Token { tok, line: l0, col: c0 });
    }
    Ok(out)
}

type Spans = BTreeMap<String, (u32, u32)>;

struct Parser<'a> {
    file: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    spans: Spans,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn error(&self, msg: String) -> QueryError {
        let (line, column) = match self.peek().or(self.tokens.last()) {
            Some(t) => (t.line, t.col),
            None => (1, 1),
        };
        QueryError {
            kind: QueryErrorKind::Syntax(msg),
            location: Location::File { file: self.file.to_owned(), line, column },
        }
    }

    fn next(&mut self) -> Option<&Token> {
        let t = self.tokens.get(self.pos);
        self.pos += 1;
        t
    }

    fn skip_seps(&mut self) {
        while matches!(self.peek(), Some(Token { tok: Tok::Sep, .. })) {
            self.pos += 1;
        }
    }

    fn expect(&mut self, want: &Tok, what: &str) -> Result<(), QueryError> {
        match self.peek() {
            Some(t) if &t.tok == want => {
                self.pos += 1;
                Ok(())
            }
            _ => Err(self.error(format!("expected {what}"))),
        }
    }

    fn ident(&mut self, what: &str) -> Result<(String, (u32, u32)), QueryError> {
        match self.peek() {
            Some(Token { tok: Tok::Ident(s), line, col }) => {
                let r = (s.clone(), (*line, *col));
                self.pos += 1;
                Ok(r)
            }
            _ => Err(self.error(format!("expected {what}"))),
        }
    }

    /// Opens a block: an optional `=` then `{`.
    fn open(&mut self) -> Result<(), QueryError> {
        if matches!(self.peek(), Some(Token { tok: Tok::Eq, .. })) {
            self.pos += 1;
        }
        self.expect(&Tok::Open, "`{`")
    }

    fn at_close(&mut self) -> bool {
        self.skip_seps();
        if matches!(self.peek(), Some(Token { tok: Tok::Close, .. })) {
            self.pos += 1;
            return true;
        }
        false
    }

    fn query(&mut self) -> Result<(String, Value, Spans), QueryError> {
        self.spans.clear();
        let (word, _) = self.ident("`query`")?;
        if word != "query" {
            self.pos -= 1;
            return Err(self.error(format!("expected `query`, found `{word}`")));
        }
        let (name, at) = self.ident("the query's name")?;
        self.spans.insert(String::new(), at);
        self.open()?;
        let mut options = Vec::new();
        let mut top = BTreeMap::new();
        while !self.at_close() {
            if self.peek().is_none() {
                return Err(self.error("missing `}` at the end of the query".into()));
            }
            let (word, at) = self.ident("`option` or `on_failure`")?;
            match word.as_str() {
                "option" => {
                    let path = format!("Options[{}]", options.len());
                    self.spans.insert(path.clone(), at);
                    self.open()?;
                    let mut sections = BTreeMap::new();
                    while !self.at_close() {
                        if self.peek().is_none() {
                            return Err(self.error("missing `}` at the end of the option".into()));
                        }
                        let (section, at) = self.ident("a section (Generation, Conditions, Weights)")?;
                        let spath = format!("{path}.{section}");
                        self.spans.insert(spath.clone(), at);
                        self.open()?;
                        let entries = self.entries(&spath)?;
                        sections.insert(section, entries);
                    }
                    options.push(Value::Map(sections));
                }
                "on_failure" | "OnFailure" => {
                    self.spans.insert("OnFailure".into(), at);
                    self.open()?;
                    top.insert("OnFailure".to_owned(), self.entries("OnFailure")?);
                }
                other => {
                    self.pos -= 1;
                    return Err(self.error(format!("expected `option` or `on_failure`, found `{other}`")));
                }
            }
        }
        top.insert("Options".to_owned(), Value::List(options));
        Ok((name, Value::Map(top), std::mem::take(&mut self.spans)))
    }

    /// `key = value` entries up to the closing `}` (already past the `{`).
    fn entries(&mut self, path: &str) -> Result<Value, QueryError> {
        let mut map = BTreeMap::new();
        while !self.at_close() {
            if self.peek().is_none() {
                return Err(self.error("missing `}`".into()));
            }
            let (key, at) = self.ident("a key")?;
            let kpath = format!("{path}.{key}");
            self.spans.insert(kpath.clone(), at);
            self.expect(&Tok::Eq, &format!("`=` after `{key}`"))?;
            let value = match self.next().map(|t| t.tok.clone()) {
                Some(Tok::Num(x)) if x.fract() == 0.0 && x.abs() < 9.0e15 => Value::Int(x as i64),
                Some(Tok::Num(x)) => Value::Float(x),
                Some(Tok::Str(s)) => Value::Str(s),
                Some(Tok::Ident(s)) if s == "true" => Value::Bool(true),
                Some(Tok::Ident(s)) if s == "false" => Value::Bool(false),
                Some(Tok::Ident(s)) => Value::Str(s),
                Some(Tok::Open) => self.entries(&kpath)?,
                _ => {
                    self.pos -= 1;
                    return Err(self.error(format!("expected a value for `{key}`")));
                }
            };
            if map.insert(key.clone(), value).is_some() {
                self.pos -= 1;
                return Err(self.error(format!("`{key}` is given twice")));
            }
        }
        Ok(Value::Map(map))
    }
}
