//! The limits every grammar of the front end reads text under, so that no text up to the file
//! cap (1 MiB) can overflow a stack, or cost memory or time out of proportion to its size.
//!
//! **Nesting.** The parsers, the checker, lowering and the syntax tree's own drop all recurse once
//! per level of nesting. Before any parser runs, `scan` walks the tokens once and counts, at
//! every token, the constructs open around it: brackets (`(`, `[`, `{`) and `BEGIN … END` blocks
//! until they close, and — within one statement at one bracket level — every operator and every
//! `if`, `while`, `repeat` and `else` (a chain `a + b + c` is a tree as deep as it is long, and an
//! `if` whose body is another `if` nests without a bracket). The count is an upper bound of the
//! depth of any syntax tree the grammar can build from the text, so a text within
//! [`MAX_NESTING`] keeps every pass after it within that depth. Past it, the text gets one
//! [`Code::NestingTooDeep`] at the token that went past, and no parser runs.
//!
//! **Stack.** The chumsky parsers use far more stack per level when the crate is built without
//! optimisation (a game's debug build) than optimised. [`with_stack`] runs a pass where at least
//! the stack the scanned depth needs is left, growing a segment (stacker) when the caller's thread
//! has less, so the same text parses on any thread and in any build.
//!
//! **Findings.** A file of a million stray characters would make a million diagnostics, each a few
//! hundred bytes, and every later step would look at all of them. A grammar reports at most
//! [`MAX_DIAGNOSTICS`] errors and then one [`Code::TooManyErrors`] saying how many more there were.

use chumsky::span::SimpleSpan;

use crate::diagnostics::{Code, Diagnostic};
use crate::lexer::Token;

/// The deepest nesting any designer text may have: brackets, blocks, statements inside
/// statements and operators in one expression, counted together (Lua's own parser stops at 200
/// levels counted much the same way).
pub const MAX_NESTING: usize = 200;

/// The most errors one text reports; the rest are summed up in one [`Code::TooManyErrors`].
pub const MAX_DIAGNOSTICS: usize = 100;

/// Which grammar the tokens are for: what nests in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grammar {
    /// `.tac` files and model conditions: brackets, blocks, operators and statement keywords.
    Tac,
    /// Fuzzy premises: brackets and the prefix words `not`, `very` and `somewhat`.
    Premise,
    /// Query blocks and fuzzy conclusions: brackets only.
    Blocks,
}

/// What [`scan`] found in a text within the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Depth {
    /// The deepest count of everything open at one token.
    pub(crate) levels: usize,
}

/// One open bracket or block, or the whole text (the first frame).
struct Frame {
    /// What opened it (`None` for the text itself).
    opener: Option<Opener>,
    /// Operators and statement keywords counted in its current statement.
    count: usize,
    /// The deepest bracket closed in its current statement, counted with the bracket itself: the
    /// operators after it enclose it (`(a + b) * c` is a `*` above a `+`).
    inner: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opener {
    Paren,
    Bracket,
    /// A `{` that holds a condition (`if {x} …`): closing it does not end the statement.
    ConditionBrace,
    /// A `{` block.
    Brace,
    Begin,
}

/// The frames open at a token, with the sum the limit applies to kept as they change.
struct Open {
    frames: Vec<Frame>,
    /// Every frame's count, plus one for each frame besides the first.
    sum: usize,
}

impl Open {
    /// The nesting at this token: a path into the tree goes through every open frame's
    /// operators and keywords, each bracket, and at most one closed bracket of the innermost.
    fn depth(&self) -> usize {
        self.sum + self.frames.last().map_or(0, |f| f.inner)
    }

    fn push(&mut self, opener: Opener) {
        self.frames.push(Frame { opener: Some(opener), count: 0, inner: 0 });
        self.sum += 1;
    }

    fn count(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            f.count += 1;
            self.sum += 1;
        }
    }

    /// Closes the innermost frame `closes` names and everything opened after it; whether the
    /// frame closed was a block. A closer with nothing of its kind open closes nothing: it is
    /// the parser's to report.
    fn close(&mut self, closes: &[Opener]) -> Option<bool> {
        let at = self.frames.iter().rposition(|f| f.opener.is_some_and(|o| closes.contains(&o)))?;
        let block = matches!(self.frames[at].opener, Some(Opener::Brace | Opener::Begin));
        // Depth of the closed bracket's content, the brackets left open inside it included.
        let mut inside = 0;
        for f in self.frames.drain(at..).rev() {
            inside = 1 + f.count + f.inner.max(inside);
            self.sum -= 1 + f.count;
        }
        if let Some(parent) = self.frames.last_mut() {
            parent.inner = parent.inner.max(inside);
        }
        Some(block)
    }

    /// Ends the statement of the innermost frame: its operators, keywords and brackets no longer
    /// enclose what follows.
    fn end_statement(&mut self) {
        if let Some(f) = self.frames.last_mut() {
            self.sum -= f.count;
            f.count = 0;
            f.inner = 0;
        }
    }
}

/// Counts the nesting of `tokens` (see the module doc): the depth found, or the diagnostic at
/// the token that went past [`MAX_NESTING`].
pub(crate) fn scan(tokens: &[(Token<'_>, SimpleSpan)], grammar: Grammar) -> Result<Depth, Diagnostic> {
    let mut open = Open { frames: vec![Frame { opener: None, count: 0, inner: 0 }], sum: 0 };
    let mut deepest = 0usize;
    let mut previous: Option<&Token<'_>> = None;
    for (i, (tok, span)) in tokens.iter().enumerate() {
        let next_is_else = matches!(tokens.get(i + 1), Some((Token::Else, _)));
        match tok {
            Token::LParen => open.push(Opener::Paren),
            Token::LBracket => open.push(Opener::Bracket),
            Token::LBrace if matches!(previous, Some(Token::If | Token::While | Token::When)) => {
                open.push(Opener::ConditionBrace);
            }
            Token::LBrace => open.push(Opener::Brace),
            Token::Begin => open.push(Opener::Begin),
            Token::Comma => open.end_statement(),
            Token::Semi if !next_is_else => open.end_statement(),
            _ => {
                if let Some(closes) = closes(tok) {
                    // A block ends the statement that owns it, unless an `else` goes on with it.
                    if open.close(closes) == Some(true) && !next_is_else {
                        open.end_statement();
                    }
                } else if counts(tok, grammar) {
                    open.count();
                }
            }
        }
        if open.depth() > MAX_NESTING {
            return Err(too_deep(span.into_range()));
        }
        deepest = deepest.max(open.depth());
        previous = Some(tok);
    }
    Ok(Depth { levels: deepest })
}

/// The openers a closing token closes.
fn closes(tok: &Token<'_>) -> Option<&'static [Opener]> {
    Some(match tok {
        Token::RParen => &[Opener::Paren],
        Token::RBracket => &[Opener::Bracket],
        Token::RBrace => &[Opener::Brace, Opener::ConditionBrace],
        Token::End => &[Opener::Begin],
        _ => return None,
    })
}

/// Whether `tok` adds a level to its statement in `grammar`.
fn counts(tok: &Token<'_>, grammar: Grammar) -> bool {
    match grammar {
        Grammar::Tac => matches!(
            tok,
            Token::Plus
                | Token::Minus
                | Token::Star
                | Token::Slash
                | Token::Percent
                | Token::Eq
                | Token::Ne
                | Token::Lt
                | Token::Le
                | Token::Gt
                | Token::Ge
                | Token::And
                | Token::Or
                | Token::Not
                | Token::If
                | Token::While
                | Token::Repeat
                | Token::Else
        ),
        Grammar::Premise => match tok {
            Token::Not => true,
            Token::Ident(word) => word.eq_ignore_ascii_case("very") || word.eq_ignore_ascii_case("somewhat"),
            _ => false,
        },
        Grammar::Blocks => false,
    }
}

fn too_deep(span: std::ops::Range<usize>) -> Diagnostic {
    Diagnostic::new(
        Code::NestingTooDeep,
        span,
        format!("nested more than {MAX_NESTING} levels deep"),
        "the limit is reached here",
    )
    .with_hint(
        "brackets, blocks, statements inside statements and the operators of one expression all count; \
         split the expression with `let` or move the inner part into its own statement",
    )
}

/// The summary that stands for every error past [`MAX_DIAGNOSTICS`]: `more` of them (`None`:
/// the check stopped there, so they were not counted), the first at `span`.
pub fn too_many(span: std::ops::Range<usize>, more: Option<usize>) -> Diagnostic {
    let message = match more {
        Some(1) => "1 more error not listed".to_owned(),
        Some(n) => format!("{n} more errors not listed"),
        None => format!("checking stopped after {MAX_DIAGNOSTICS} errors"),
    };
    let label = if more.is_some() { "the first error not listed" } else { "not checked from here on" };
    Diagnostic::new(Code::TooManyErrors, span, message, label)
        .with_hint(format!("a file reports its first {MAX_DIAGNOSTICS} errors; fix those and check again"))
}

/// Stack one level of nesting may take in the deepest pass, in any build: the chumsky parsers
/// built without optimisation take about 150 KiB per bracket (measured), optimised a tenth.
const STACK_PER_LEVEL: usize = 192 << 10;
/// Stack a pass takes besides its nesting.
const STACK_BASE: usize = 256 << 10;

/// Runs `f`, a pass over text nested `levels` deep, where at least the stack it needs is left:
/// on the caller's stack when it has room, else on a segment allocated for the call.
pub fn with_stack<R>(levels: usize, f: impl FnOnce() -> R) -> R {
    let need = STACK_BASE + levels.min(MAX_NESTING + 1) * STACK_PER_LEVEL;
    stacker::maybe_grow(need, need, f)
}

/// Stack one level of a syntax tree takes in the passes over a checked tree (the checker and
/// lowering, conditions turned into models), in any build.
const TREE_STACK_PER_LEVEL: usize = 16 << 10;

/// Runs `f`, a pass over a syntax tree the front end built (so at most [`MAX_NESTING`] deep),
/// where the stack that depth needs is left.
pub fn with_tree_stack<R>(f: impl FnOnce() -> R) -> R {
    let need = STACK_BASE + MAX_NESTING * TREE_STACK_PER_LEVEL;
    stacker::maybe_grow(need, need, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;

    fn depth(src: &str, grammar: Grammar) -> Result<usize, (Code, std::ops::Range<usize>)> {
        let tokens: Vec<_> = lex(src).into_iter().map(|(t, s)| (t, SimpleSpan::from(s))).collect();
        scan(&tokens, grammar).map(|d| d.levels).map_err(|d| (d.code, d.span))
    }

    #[test]
    fn brackets_blocks_operators_and_statement_keywords_count() {
        assert_eq!(depth("x = 1;", Grammar::Tac), Ok(0));
        assert_eq!(depth("x = (1 + 2) * 3;", Grammar::Tac), Ok(3), "( + then *: the `*` encloses the bracket");
        assert_eq!(depth("if (a) if (b) Say(\"x\");", Grammar::Tac), Ok(3), "two `if`s and one bracket at a time");
        assert_eq!(depth("on think { if (a) { Say(\"x\"); } }", Grammar::Tac), Ok(4));
        // Statements one after the other do not add up.
        assert_eq!(depth(&"if (a == 1) { Say(\"x\"); }\n".repeat(500), Grammar::Tac), Ok(3));
        assert_eq!(depth(&"x = 1 + 2 + 3;\n".repeat(500), Grammar::Tac), Ok(2));
        // An `else if` chain nests: each link is a statement inside the one before.
        let chain = "if (a) Say(\"x\"); else ".repeat(60) + "Say(\"y\");";
        assert_eq!(depth(&chain, Grammar::Tac), Ok(121), "an `if` and an `else` a link, and the last call");
        let braced = "if (a) { Say(\"x\"); } else ".repeat(60) + "{ Say(\"y\"); }";
        assert_eq!(depth(&braced, Grammar::Tac), Ok(122));
        // A condition in braces does not end the statement it belongs to.
        let conds = "if {a} ".repeat(50) + "Say(\"x\");";
        assert_eq!(depth(&conds, Grammar::Tac), Ok(51));
        // Arguments and list items are separate expressions.
        assert_eq!(depth(&format!("Max({});", ["1 + 1"; 300].join(", ")), Grammar::Tac), Ok(2));
        // Operators after a bracket enclose it.
        assert_eq!(depth("x = ((((y)))) + 1;", Grammar::Tac), Ok(5));
        let after = format!("x = {}y{}{};", "(".repeat(100), ")".repeat(100), " + 1".repeat(100));
        assert_eq!(depth(&after, Grammar::Tac), Ok(200));
    }

    #[test]
    fn past_the_limit_the_diagnostic_stands_at_the_token_that_went_past() {
        let src = format!("x = {}1{};", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert_eq!(depth(&src, Grammar::Tac), Ok(MAX_NESTING));
        let src = format!("x = {}1{};", "(".repeat(MAX_NESTING + 1), ")".repeat(MAX_NESTING + 1));
        let at = 4 + MAX_NESTING;
        assert_eq!(depth(&src, Grammar::Tac), Err((Code::NestingTooDeep, at..at + 1)));
        let src = format!("x = 1{};", " + 1".repeat(MAX_NESTING + 5));
        let at = 5 + 4 * MAX_NESTING + 1;
        assert_eq!(depth(&src, Grammar::Tac), Err((Code::NestingTooDeep, at..at + 1)));
        let src = "if (a) ".repeat(MAX_NESTING);
        assert!(matches!(depth(&src, Grammar::Tac), Err((Code::NestingTooDeep, _))));
    }

    #[test]
    fn each_grammar_counts_what_nests_in_it() {
        let words = "very ".repeat(MAX_NESTING + 1) + "x is near";
        assert!(depth(&words, Grammar::Premise).is_err());
        assert_eq!(depth(&words, Grammar::Blocks), Ok(0));
        assert_eq!(depth(&"a is b and ".repeat(400), Grammar::Premise), Ok(0), "`and` chains are flat there");
        let weights = format!("query q {{ option {{ Weights {{ {} }} }} }}", "w = -1 ".repeat(400));
        assert_eq!(depth(&weights, Grammar::Blocks), Ok(3));
        let blocks = "{".repeat(MAX_NESTING + 1);
        assert!(depth(&blocks, Grammar::Blocks).is_err());
    }

    #[test]
    fn unmatched_closers_close_nothing() {
        assert_eq!(depth(") ) } END ] x = (1);", Grammar::Tac), Ok(1));
        // A closer of another kind does not close a bracket; the matching one closes both.
        assert_eq!(depth("( { ) }", Grammar::Tac), Ok(2));
    }
}
