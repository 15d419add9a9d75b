//! The front door of the front end: source text to a [`Program`] plus diagnostics, never failing.
//! logos and chumsky stay behind this one function so either can be replaced.

use chumsky::error::{RichPattern, RichReason};
use chumsky::input::Input as _;
use chumsky::prelude::*;

use crate::ast::Program;
use crate::diagnostics::{Code, Diagnostic};
use crate::lexer::{Token, lex};
use crate::parser::{ParseError, program};

/// Parses a whole file. Returns the tree (with `Error` nodes where parts did not parse) and every
/// lexical and syntax error found; the tree is `None` only when nothing could be recovered.
pub fn parse(src: &str) -> (Option<Program>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let mut tokens = Vec::new();
    for (tok, span) in lex(src) {
        if tok == Token::Error {
            diagnostics.push(lex_error(src, span));
        } else {
            tokens.push((tok, SimpleSpan::from(span)));
        }
    }
    let eoi = SimpleSpan::from(src.len()..src.len());
    let (ast, errors) = program().parse(tokens.as_slice().map(eoi, |(t, s)| (t, s))).into_output_errors();
    diagnostics.extend(errors.iter().map(syntax_error));
    (ast, diagnostics)
}

fn lex_error(src: &str, span: std::ops::Range<usize>) -> Diagnostic {
    let text = src.get(span.clone()).unwrap_or_default();
    if text.starts_with('"') {
        return Diagnostic::new(Code::UnterminatedString, span, "unterminated string", "this string is never closed")
            .with_hint("add the closing `\"`");
    }
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return Diagnostic::new(Code::NumberTooLarge, span, "number too large", "does not fit in 64 bits");
    }
    let shown = text.chars().next().map_or_else(String::new, |c| c.escape_debug().to_string());
    Diagnostic::new(Code::UnknownCharacter, span, format!("unknown character `{shown}`"), "not part of the language")
        .with_hint("comments start with `//` or `#`; strings are written in double quotes")
}

fn syntax_error(e: &ParseError<'_, '_>) -> Diagnostic {
    let span = e.span().into_range();
    match e.reason() {
        RichReason::Custom(msg) => Diagnostic::new(Code::Syntax, span, msg.clone(), "here"),
        RichReason::ExpectedFound { .. } => {
            let found = e.found().map_or_else(|| "end of file".to_owned(), ToString::to_string);
            let mut expected: Vec<String> =
                e.expected().map(pattern).filter(|p| p != "something else" && p != "anything").collect();
            expected.sort();
            expected.dedup();
            if expected.iter().any(|p| p == "`;`") {
                // After a complete statement the only sensible fix is the `;`; the operators that
                // could also continue the expression are noise for a designer.
                return Diagnostic::new(Code::Syntax, span, format!("missing `;` before {found}"), "expected `;` here")
                    .with_hint("statements end with `;`");
            }
            let label = match expected.len() {
                0 => "not expected here".to_owned(),
                1 => format!("expected {}", expected[0]),
                _ => {
                    let last = expected.pop().unwrap_or_default();
                    format!("expected {} or {last}", expected.join(", "))
                }
            };
            let d = Diagnostic::new(Code::Syntax, span, format!("unexpected {found}"), label);
            match e.found() {
                Some(Token::End) => {
                    d.with_hint("`END` closes a `BEGIN` block or a `CREATURE=…;` record; is one of them missing?")
                }
                Some(Token::Else) => d.with_hint("an `ELSE` follows the `END` of the `BEGIN` block it belongs to"),
                None => d.with_hint("a block, bracket or string is not closed"),
                _ => d,
            }
        }
    }
}

fn pattern(p: &RichPattern<'_, Token<'_>>) -> String {
    match p {
        RichPattern::Token(t) => t.to_string(),
        RichPattern::Label(l) => l.to_string(),
        RichPattern::Identifier(i) => format!("`{i}`"),
        RichPattern::Any => "anything".to_owned(),
        RichPattern::SomethingElse => "something else".to_owned(),
        RichPattern::EndOfInput => "end of file".to_owned(),
        _ => "something else".to_owned(),
    }
}
