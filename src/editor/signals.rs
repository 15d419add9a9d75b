//! The signals a script sends and waits for, found by reading its tokens: `Signal("ready")` and
//! `Wait("ready", "team")` in any of the three languages, `signal ready;` and `wait team ready;`
//! in `.tac`. The `.tac` lexer reads Lua and Rhai well enough for this: names, strings, brackets
//! and comments are alike.

use std::collections::BTreeSet;

use tactica_script::lexer::{Token, lex, unquote};

/// Every signal name `source` sends or waits for.
pub fn signals_in(source: &str) -> BTreeSet<String> {
    let tokens: Vec<Token<'_>> = lex(source).into_iter().map(|(t, _)| t).collect();
    let mut out = BTreeSet::new();
    for (i, t) in tokens.iter().enumerate() {
        let Token::Ident(word) = t else { continue };
        if !(word.eq_ignore_ascii_case("signal") || word.eq_ignore_ascii_case("wait")) {
            continue;
        }
        match (tokens.get(i + 1), tokens.get(i + 2), tokens.get(i + 3)) {
            // A call in any language: the first argument, when it is a literal.
            (Some(Token::LParen), Some(Token::Str(raw)), _) => {
                out.insert(unquote(raw));
            }
            // `.tac` statements: `signal [team|world] name;`.
            (Some(Token::Ident(scope)), Some(Token::Ident(name)), _)
                if scope.eq_ignore_ascii_case("team") || scope.eq_ignore_ascii_case("world") =>
            {
                out.insert((*name).to_owned());
            }
            (Some(Token::Ident(name)), Some(Token::Semi), _) => {
                out.insert((*name).to_owned());
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_and_statements_in_every_language() {
        let lua = "-- Signal(\"not_me\")\nfunction sequence()\n  Signal(\"ready\")\n  wait('go', \"team\")\nend";
        assert_eq!(signals_in(lua), BTreeSet::from(["ready".to_owned(), "go".to_owned()]));
        let rhai = "fn sequence() { signal(\"breach\", \"world\"); let w = wait; }";
        assert_eq!(signals_in(rhai), BTreeSet::from(["breach".to_owned()]));
        let tac = "sequence breach {\n role a { signal ready; wait team go; }\n}";
        assert_eq!(signals_in(tac), BTreeSet::from(["ready".to_owned(), "go".to_owned()]));
        // A signal id computed at run time names nothing.
        assert!(signals_in("Signal(name)").is_empty());
    }
}
