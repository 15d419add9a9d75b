//! Block files: the position-query files a scenario's `[queries]` lists (`.tps`).
//!
//! ```text
//! -- take cover from the target, nearest first
//! query take_cover {
//!     option {
//!         Generation { hidespots_from_target_around_puppet = 15 }
//!         Conditions { min_distance_from_puppet = 5, canReachBefore_the_target = true }
//!         Weights    { distance_from_puppet = -1.0 }
//!     }
//!     on_failure { signal = "no_cover" }
//! }
//! ```
//!
//! A file holds any number of `query NAME { … }` blocks. Inside, an entry is `key = value` or
//! `key { … }` (a `=` before the `{` is allowed, so a Lua-style table reads too); entries may be
//! separated by newlines, `,` or `;`. Values are numbers, strings, `true`/`false`, bare names and
//! nested blocks. This module gives the tree with spans; what keys mean is the engine's business.

use chumsky::input::ValueInput;
use chumsky::prelude::*;

use crate::ast::Name;
use crate::diagnostics::Diagnostic;
use crate::lexer::{Span, Token, unquote};
use crate::limits::Grammar;
use crate::parser::{Extra, ident, kw};
use crate::tac::front;

/// One `query NAME { … }` block.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The block's name.
    pub name: Name,
    /// Its entries, in written order.
    pub entries: Vec<Entry>,
}

/// `key = value` or `key { … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key.
    pub key: Name,
    /// The value.
    pub value: Value,
}

/// A value in a block.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A quoted string.
    Str(String),
    /// A bare name (`hard`).
    Symbol(String),
    /// `true` or `false`.
    Bool(bool),
    /// A nested block with where it is written.
    Block(Vec<Entry>, Span),
}

fn entries<'t, 's: 't, I>() -> impl Parser<'t, I, Vec<Entry>, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    recursive(|entries| {
        let key = ident().labelled("a key");
        let block = entries.delimited_by(just(Token::LBrace), just(Token::RBrace)).map_with(|items, e| {
            let span: SimpleSpan = e.span();
            Value::Block(items, span.into_range())
        });
        let number = just(Token::Minus)
            .or_not()
            .then(select! { Token::Int(n) => Value::Int(n), Token::Float(x) => Value::Float(x) })
            .map(|(minus, v)| match (minus.is_some(), v) {
                (true, Value::Int(n)) => Value::Int(-n),
                (true, Value::Float(x)) => Value::Float(-x),
                (_, v) => v,
            });
        let scalar = choice((
            number,
            select! {
                Token::Str(s) => Value::Str(unquote(s)),
                Token::True => Value::Bool(true),
                Token::False => Value::Bool(false),
                Token::Ident(s) => Value::Symbol(s.to_owned()),
            },
        ))
        .labelled("a value");
        let value = choice((just(Token::Assign).or_not().ignore_then(block), just(Token::Assign).ignore_then(scalar)));
        let separator = choice((just(Token::Comma), just(Token::Semi))).repeated();
        separator.clone().ignore_then(
            key.then(value).map(|(key, value)| Entry { key, value }).then_ignore(separator).repeated().collect(),
        )
    })
}

/// Parses a block file: every `query` block, or every mistake found (each with its span).
pub fn parse(src: &str) -> Result<Vec<Block>, Vec<Diagnostic>> {
    let (tree, diagnostics) = front(src, Grammar::Blocks, |tokens, eoi| {
        let name = ident().labelled("the query's name");
        let block = kw("query")
            .ignore_then(name)
            .then(entries().delimited_by(just(Token::LBrace), just(Token::RBrace)))
            .map(|(name, entries)| Block { name, entries });
        block
            .repeated()
            .collect::<Vec<_>>()
            .then_ignore(end())
            .parse(tokens.map(eoi, |(t, s)| (t, s)))
            .into_output_errors()
    });
    match tree {
        Some(blocks) if diagnostics.is_empty() => Ok(blocks),
        _ => Err(diagnostics),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;

    #[test]
    fn queries_sections_values_and_separators() {
        let src = "-- a comment\nquery take_cover {\n  option {\n    Generation = { grid_around_puppet = 10 }\n    \
                   Weights { distance_from_puppet = -1.0; hardCover = 1 }\n  }\n  on_failure { signal = \"no_cover\", \
                   scope = squad }\n}\nquery b { option { Generation { grid_around_puppet = 2 } } }\n";
        let blocks = parse(src).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].name.text, "take_cover");
        assert_eq!(&src[blocks[0].name.span.clone()], "take_cover");
        let Value::Block(option, _) = &blocks[0].entries[0].value else { panic!() };
        let Value::Block(weights, _) = &option[1].value else { panic!() };
        assert_eq!(weights[0].value, Value::Float(-1.0));
        assert_eq!(weights[1].value, Value::Int(1));
        let Value::Block(fail, _) = &blocks[0].entries[1].value else { panic!() };
        assert_eq!(fail[0].value, Value::Str("no_cover".into()));
        assert_eq!(fail[1].value, Value::Symbol("squad".into()));
    }

    #[test]
    fn mistakes_are_diagnostics_with_spans() {
        let e = parse("query q {\n  option {\n    Generation { grid_around_puppet 10 }\n  }\n}\n").unwrap_err();
        assert_eq!(e[0].code, Code::Syntax);
        assert_eq!((e[0].span.clone(), e[0].label.as_str()), (57..59, "expected `=` or `{`"), "{e:?}");
        let e = parse("query q {\n  option {\n").unwrap_err();
        assert_eq!(e[0].message, "this block is never closed");
        let e = parse("query q { option { Weights { x = \"open } } }").unwrap_err();
        assert_eq!(e[0].code, Code::UnterminatedString);
        let e = parse("qurey q { }").unwrap_err();
        assert_eq!(e[0].code, Code::Syntax);
    }
}
