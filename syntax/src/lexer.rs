//! The lexer: source text to tokens. It never fails — a character it does not know becomes a
//! [`Token::Error`] and the parser reports it where it stands.

use std::fmt;

use logos::Logos;

/// A byte range in the source.
pub type Span = std::ops::Range<usize>;

/// One token. Keywords are case-insensitive (`If`, `if`, `IF`; `BEGIN`/`begin`); words that are
/// keywords only in one place (`creature`, `state`, `rule` …) stay identifiers and the parser
/// recognises them by context, so they remain usable as names elsewhere.
#[derive(Logos, Debug, Clone, PartialEq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip(r"(//|#|--)[^\n]*", allow_greedy = true))]
pub enum Token<'src> {
    /// Anything the lexer does not recognise.
    Error,
    /// `if`.
    #[token("if", ignore(case))]
    If,
    /// `else`.
    #[token("else", ignore(case))]
    Else,
    /// `begin`.
    #[token("begin", ignore(case))]
    Begin,
    /// `end`.
    #[token("end", ignore(case))]
    End,
    /// `and` (also `&&`).
    #[token("and", ignore(case))]
    #[token("&&")]
    And,
    /// `or` (also `||`).
    #[token("or", ignore(case))]
    #[token("||")]
    Or,
    /// `not` (also `!`).
    #[token("not", ignore(case))]
    #[token("!")]
    Not,
    /// `true`.
    #[token("true", ignore(case))]
    True,
    /// `false`.
    #[token("false", ignore(case))]
    False,
    /// `while`.
    #[token("while", ignore(case))]
    While,
    /// `repeat`.
    #[token("repeat", ignore(case))]
    Repeat,
    /// `let`.
    #[token("let", ignore(case))]
    Let,
    /// `on`.
    #[token("on", ignore(case))]
    On,
    /// `when`.
    #[token("when", ignore(case))]
    When,
    /// `once`.
    #[token("once", ignore(case))]
    Once,
    /// `then`.
    #[token("then", ignore(case))]
    Then,
    /// A name: letters, digits, `_`, starting with a letter or `_`.
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident(&'src str),
    /// A whole number.
    #[regex(r"[0-9]+", |lex| lex.slice().parse::<i64>().ok())]
    Int(i64),
    /// A real number.
    #[regex(r"[0-9]+\.[0-9]+", |lex| lex.slice().parse::<f64>().ok())]
    Float(f64),
    /// A string literal, quotes included; it may span lines (reference 002b Example 8-11).
    #[regex(r#""([^"\\]|\\.)*""#)]
    #[regex(r#"'([^'\\]|\\.)*'"#)]
    Str(&'src str),
    /// `(`.
    #[token("(")]
    LParen,
    /// `)`.
    #[token(")")]
    RParen,
    /// `{`.
    #[token("{")]
    LBrace,
    /// `}`.
    #[token("}")]
    RBrace,
    /// `[`.
    #[token("[")]
    LBracket,
    /// `]`.
    #[token("]")]
    RBracket,
    /// `,`.
    #[token(",")]
    Comma,
    /// `;`.
    #[token(";")]
    Semi,
    /// `:`.
    #[token(":")]
    Colon,
    /// `.`.
    #[token(".")]
    Dot,
    /// `->`.
    #[token("->")]
    Arrow,
    /// `=`.
    #[token("=")]
    Assign,
    /// `==`.
    #[token("==")]
    Eq,
    /// `!=`.
    #[token("!=")]
    Ne,
    /// `<`.
    #[token("<")]
    Lt,
    /// `<=`.
    #[token("<=")]
    Le,
    /// `>`.
    #[token(">")]
    Gt,
    /// `>=`.
    #[token(">=")]
    Ge,
    /// `+`.
    #[token("+")]
    Plus,
    /// `-`.
    #[token("-")]
    Minus,
    /// `*`.
    #[token("*")]
    Star,
    /// `/`.
    #[token("/")]
    Slash,
    /// `%`.
    #[token("%")]
    Percent,
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Token::Error => "an unknown character",
            Token::If => "`if`",
            Token::Else => "`else`",
            Token::Begin => "`begin`",
            Token::End => "`end`",
            Token::And => "`and`",
            Token::Or => "`or`",
            Token::Not => "`not`",
            Token::True => "`true`",
            Token::False => "`false`",
            Token::While => "`while`",
            Token::Repeat => "`repeat`",
            Token::Let => "`let`",
            Token::On => "`on`",
            Token::When => "`when`",
            Token::Once => "`once`",
            Token::Then => "`then`",
            Token::Ident(name) => return write!(f, "`{name}`"),
            Token::Int(n) => return write!(f, "`{n}`"),
            Token::Float(x) => return write!(f, "`{x}`"),
            Token::Str(_) => "a string",
            Token::LParen => "`(`",
            Token::RParen => "`)`",
            Token::LBrace => "`{`",
            Token::RBrace => "`}`",
            Token::LBracket => "`[`",
            Token::RBracket => "`]`",
            Token::Comma => "`,`",
            Token::Semi => "`;`",
            Token::Colon => "`:`",
            Token::Dot => "`.`",
            Token::Arrow => "`->`",
            Token::Assign => "`=`",
            Token::Eq => "`==`",
            Token::Ne => "`!=`",
            Token::Lt => "`<`",
            Token::Le => "`<=`",
            Token::Gt => "`>`",
            Token::Ge => "`>=`",
            Token::Plus => "`+`",
            Token::Minus => "`-`",
            Token::Star => "`*`",
            Token::Slash => "`/`",
            Token::Percent => "`%`",
        };
        f.write_str(s)
    }
}

/// Splits `src` into tokens with their spans. Never fails: unknown input becomes [`Token::Error`]
/// (an unterminated string, a stray `@`, a number too big for 64 bits).
pub fn lex(src: &str) -> Vec<(Token<'_>, Span)> {
    tokens(src).collect()
}

/// [`lex`] one token at a time: the front end keeps only the tokens a parser reads, never a
/// second list of every token (a file of stray characters would hold one per byte).
pub(crate) fn tokens(src: &str) -> impl Iterator<Item = (Token<'_>, Span)> {
    Token::lexer(src).spanned().map(|(tok, span)| (tok.unwrap_or(Token::Error), span))
}

/// The text of a string literal token: quotes removed, `\n`, `\t`, `\"` and `\\` unescaped, and
/// the indentation of continuation lines collapsed to one space, so a string broken over lines
/// reads as one sentence (reference 002b Example 8-11).
pub fn unquote(raw: &str) -> String {
    let inner = match raw.chars().next() {
        Some(q @ ('"' | '\'')) => raw.strip_prefix(q).and_then(|s| s.strip_suffix(q)).unwrap_or(raw),
        _ => raw,
    };
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => {}
            },
            '\n' | '\r' => {
                while out.ends_with([' ', '\t']) {
                    out.pop();
                }
                if !out.ends_with(' ') {
                    out.push(' ');
                }
                let rest = chars.as_str().trim_start_matches([' ', '\t', '\r', '\n']);
                chars = rest.chars();
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Token<'_>> {
        lex(src).into_iter().map(|(t, _)| t).collect()
    }

    #[test]
    fn keywords_ignore_case_and_comments_are_skipped() {
        assert_eq!(
            kinds("If {LEVEL<5} BEGIN // gloss\n END # note\n begin end"),
            [
                Token::If,
                Token::LBrace,
                Token::Ident("LEVEL"),
                Token::Lt,
                Token::Int(5),
                Token::RBrace,
                Token::Begin,
                Token::End,
                Token::Begin,
                Token::End
            ]
        );
        assert_eq!(kinds("iffy"), [Token::Ident("iffy")]);
    }

    #[test]
    fn bad_input_becomes_error_tokens() {
        assert_eq!(kinds("a @ b"), [Token::Ident("a"), Token::Error, Token::Ident("b")]);
        assert_eq!(kinds("99999999999999999999"), [Token::Error]);
        assert!(kinds("\"open").contains(&Token::Error));
    }

    #[test]
    fn strings_span_lines_and_read_as_one_sentence() {
        let src = "\"I see you found the Red Amulet.\n        Bring it to the stone temple\n        and you will be rewarded.\"";
        assert_eq!(kinds(src).len(), 1);
        assert_eq!(
            unquote(src),
            "I see you found the Red Amulet. Bring it to the stone temple and you will be rewarded."
        );
        assert_eq!(unquote(r#""a \"q\" \\ b""#), r#"a "q" \ b"#);
    }
}
