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
///
/// Where one mistake makes the parser stumble on everything after it — a string whose closing
/// quote is missing, a `{` or `(` never closed — the mistake is reported where it is, and the
/// syntax errors it caused further on are left out.
pub fn parse(src: &str) -> (Option<Program>, Vec<Diagnostic>) {
    front(src, |tokens, eoi| program().parse(tokens.map(eoi, |(t, s)| (t, s))).into_output_errors())
}

/// The tokens of one text with their spans, as every grammar of the front end reads them.
pub(crate) type Tokens<'s> = [(Token<'s>, SimpleSpan)];

/// Lexes `src`, runs one grammar over the tokens (`run` gets them and the end-of-input span) and
/// turns every lexical and syntax error into a [`Diagnostic`] the same way for every kind of
/// designer text: `.tac` files, model conditions and query blocks.
pub(crate) fn front<'s, T, F>(src: &'s str, run: F) -> (Option<T>, Vec<Diagnostic>)
where
    F: for<'t> FnOnce(&'t Tokens<'s>, SimpleSpan) -> (Option<T>, Vec<ParseError<'t, 's>>),
{
    front_with(src, &KEYWORDS, true, run)
}

/// [`front`] for a kind of text with keywords of its own: a word one edit away from one of
/// `keywords` where the parser stumbled is reported as that keyword misspelt — the word the
/// parser stopped at, and with `look_back` the word before it too (a misspelt `.tac` keyword
/// parses as a name, so the parser stops a token later).
pub(crate) fn front_with<'s, T, F>(
    src: &'s str,
    keywords: &[&'static str],
    look_back: bool,
    run: F,
) -> (Option<T>, Vec<Diagnostic>)
where
    F: for<'t> FnOnce(&'t Tokens<'s>, SimpleSpan) -> (Option<T>, Vec<ParseError<'t, 's>>),
{
    let mut diagnostics = Vec::new();
    let mut tokens = Vec::new();
    // Syntax errors at or after this offset follow from an error already reported.
    let mut cut = usize::MAX;
    for (tok, span) in lex(src) {
        if tok == Token::Error {
            let (d, from) = lex_error(src, span, &tokens);
            cut = cut.min(from);
            diagnostics.push(d);
        } else {
            tokens.push((tok, SimpleSpan::from(span)));
        }
    }
    // A string that is not closed scrambles every bracket and statement after it: it is the
    // one error to fix first, so the parser's errors are left out altogether.
    let lex_failed = !diagnostics.is_empty();
    if lex_failed {
        cut = 0;
    } else if let Some((d, from)) = unclosed(src, &tokens) {
        cut = cut.min(from);
        diagnostics.push(d);
    }
    let eoi = SimpleSpan::from(src.len()..src.len());
    let (ast, errors) = run(tokens.as_slice(), eoi);
    let mut errors: Vec<&ParseError<'_, '_>> = errors.iter().filter(|e| e.span().start < cut).collect();
    errors.sort_by_key(|e| e.span().start);
    // After a misspelt or foreign keyword (`els {`, `If … Then … End`) the closing `}` or `END`
    // of that construct is unexpected too; that follows from the first error.
    let mut closers_explained = false;
    for e in errors {
        if closers_explained && matches!(e.found(), Some(Token::RBrace | Token::End)) {
            continue;
        }
        let (d, explains_closers) = syntax_error(e, &tokens, keywords, look_back);
        closers_explained |= explains_closers;
        if !diagnostics.iter().any(|o: &Diagnostic| o.span == d.span && o.message == d.message) {
            diagnostics.push(d);
        }
    }
    diagnostics.sort_by_key(|d| d.span.start);
    (ast, diagnostics)
}

/// The 1-based line of byte `at`.
fn line_of(src: &str, at: usize) -> usize {
    src.get(..at).map_or(1, |s| s.matches('\n').count() + 1)
}

/// The innermost `{` or `(` that is never closed (a closer of the other kind, or the end of the
/// file, comes first), with the offset from which the parser's errors follow from it.
fn unclosed(src: &str, tokens: &[(Token<'_>, SimpleSpan)]) -> Option<(Diagnostic, usize)> {
    let mut open: Vec<(Token<'_>, std::ops::Range<usize>)> = Vec::new();
    let mut never_closed = None;
    for (tok, span) in tokens {
        let want = match tok {
            Token::LBrace | Token::LParen => {
                open.push((tok.clone(), span.into_range()));
                continue;
            }
            Token::RBrace => Token::LBrace,
            Token::RParen => Token::LParen,
            _ => continue,
        };
        if let Some(at) = open.iter().rposition(|(t, _)| *t == want) {
            // Everything opened after the match was left open.
            if at + 1 < open.len() && never_closed.is_none() {
                never_closed = Some(open[at + 1].clone());
            }
            open.truncate(at);
        }
    }
    let (tok, span) = never_closed.or_else(|| open.pop())?;
    let start = span.start;
    let (what, close, hint) = if tok == Token::LBrace {
        ("block", "}", "add `}` where the block ends (or use `BEGIN … END` throughout)")
    } else {
        ("bracket", ")", "add `)` where the condition or the call's arguments end")
    };
    let d = Diagnostic::new(
        Code::Syntax,
        span,
        format!("this {what} is never closed"),
        format!("opened on line {}, no `{close}` closes it", line_of(src, start)),
    )
    .with_hint(hint);
    Some((d, start))
}

/// A lexical error and the offset from which the parser's errors follow from it.
fn lex_error(src: &str, span: std::ops::Range<usize>, before: &[(Token<'_>, SimpleSpan)]) -> (Diagnostic, usize) {
    let text = src.get(span.clone()).unwrap_or_default();
    if text.starts_with(['"', '\'']) {
        // Strings may run over several lines, so a forgotten `"` pairs the next string's opening
        // quote with it and the error shows up later. The culprit is the last string before this
        // one that runs over a line end.
        let culprit = before.iter().rev().find_map(|(t, s)| match t {
            Token::Str(raw) if raw.contains('\n') => Some(s.into_range()),
            _ => None,
        });
        if let Some(culprit) = culprit {
            let (from, end_line) = (culprit.start, line_of(src, culprit.end));
            let d = Diagnostic::new(
                Code::UnterminatedString,
                from..from + 1,
                "a string is not closed on its line",
                format!("this string runs on to line {end_line}"),
            )
            .with_hint(
                "strings may continue on the next line, so a missing `\"` shows up later: close this one where it ends",
            );
            return (d, from);
        }
        let d = Diagnostic::new(
            Code::UnterminatedString,
            span.clone(),
            "unterminated string",
            "this string is never closed",
        )
        .with_hint(format!("add the closing `{}`", &text[..1]));
        return (d, span.start);
    }
    (plain_lex_error(text, span.clone()), span.start)
}

fn plain_lex_error(text: &str, span: std::ops::Range<usize>) -> Diagnostic {
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        return Diagnostic::new(Code::NumberTooLarge, span, "number too large", "does not fit in 64 bits");
    }
    let shown = text.chars().next().map_or_else(String::new, |c| c.escape_debug().to_string());
    Diagnostic::new(Code::UnknownCharacter, span, format!("unknown character `{shown}`"), "not part of the language")
        .with_hint("comments start with `//`, `#` or `--`; strings are written in double (or single) quotes")
}

/// Words a designer means as keywords, and what they likely meant.
const KEYWORDS: [&str; 9] = ["else", "end", "begin", "if", "while", "repeat", "then", "when", "once"];

/// The keyword of `keywords` that `word` is a near miss of (`els` → `else`), if any.
fn near_keyword(word: &str, keywords: &[&'static str]) -> Option<&'static str> {
    let lower = word.to_ascii_lowercase();
    if keywords.contains(&lower.as_str()) {
        return None;
    }
    keywords.iter().copied().find(|k| strsim::damerau_levenshtein(&lower, k) == 1 && lower.len() >= 3)
}

/// The diagnostic for a parse error, and whether it explains a later unexpected `}`/`END`.
fn syntax_error(
    e: &ParseError<'_, '_>,
    tokens: &[(Token<'_>, SimpleSpan)],
    keywords: &[&'static str],
    look_back: bool,
) -> (Diagnostic, bool) {
    match keyword_error(e, tokens, keywords, look_back) {
        Some(d) => (d, true),
        None => {
            let mut d = plain_syntax_error(e);
            // A missing `;` is missing at the end of the statement, which is often the line
            // before the token that revealed it: point there.
            if d.message.starts_with("missing `;`")
                && let Some((_, prev)) = tokens.iter().rev().find(|(_, s)| s.end <= e.span().start)
            {
                d.span = prev.end.saturating_sub(1)..prev.end;
                d.label = "expected `;` after this".to_owned();
            }
            (d, false)
        }
    }
}

/// A misspelt keyword, `then`, or `=` for `==`: the mistakes with a fix to name.
fn keyword_error(
    e: &ParseError<'_, '_>,
    tokens: &[(Token<'_>, SimpleSpan)],
    keywords: &[&'static str],
    look_back: bool,
) -> Option<Diagnostic> {
    let span = e.span().into_range();
    // A misspelt keyword (`els`, `whle`) parses as a name, and the error comes a token later.
    let at = tokens.iter().position(|(_, s)| s.start >= span.start).unwrap_or(tokens.len());
    let candidates = [at.checked_sub(1).filter(|_| look_back), Some(at)];
    for (tok, s) in candidates.into_iter().flatten().filter_map(|i| tokens.get(i)) {
        if let Token::Ident(word) = tok
            && let Some(keyword) = near_keyword(word, keywords)
        {
            return Some(
                Diagnostic::new(
                    Code::Syntax,
                    s.into_range(),
                    format!("unknown word `{word}`"),
                    format!("did you mean `{keyword}`?"),
                )
                .with_hint(format!("`{word}` is not a keyword and names nothing here; keywords are written in full")),
            );
        }
    }
    match e.found() {
        Some(Token::Then) => {
            Some(Diagnostic::new(Code::Syntax, span, "`then` is not part of `.tac`", "remove `then`").with_hint(
                "write `if (condition) { … }`, `if (condition) statement;` or the book's `if (condition) BEGIN … END`",
            ))
        }
        Some(Token::Assign) if e.expected().any(|p| pattern(p) == "`==`") => Some(
            Diagnostic::new(Code::Syntax, span, "`=` in a condition", "`=` sets a value")
                .with_hint("to compare, write `==` (`if (PlayerArmed == TRUE)`)"),
        ),
        _ => None,
    }
}

fn plain_syntax_error(e: &ParseError<'_, '_>) -> Diagnostic {
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
