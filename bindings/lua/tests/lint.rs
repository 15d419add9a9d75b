//! The Lua linter from outside: `tactica explain`'s Lua-only codes (E0074, E0075, E0079, whose examples
//! `scripts/tests/explain.rs` cannot check: they are Lua) are found in their wrong examples and
//! not in their right ones, the right examples compile, and no text whatever makes the linter
//! panic.

use std::path::Path;

use proptest::prelude::*;
use tactica_lua::LuaBackend;
use tactica_stdlib::Api;
use tactica_stdlib::backend::ScriptBackend;
use tactica_syntax::diagnostics::Code;
use tactica_syntax::{TextKind, explanation};

fn codes(src: &str) -> Vec<Code> {
    LuaBackend::standard().lint(Path::new("explain.lua"), src, &Api::standard()).iter().map(|d| d.code).collect()
}

#[test]
fn the_lua_explanations_wrong_examples_are_found_and_right_ones_clean() {
    let lua: Vec<Code> = Code::ALL.iter().copied().filter(|&c| explanation(c).text_kind == TextKind::Lua).collect();
    assert_eq!(lua, [Code::UnknownHandler, Code::RemovedGlobal, Code::UndefinedGlobal]);
    for code in lua {
        let e = explanation(code);
        assert_eq!(codes(e.wrong), [code], "{code}'s wrong example:\n{}", e.wrong);
        assert_eq!(codes(e.right), [], "{code}'s right example:\n{}", e.right);
        assert!(LuaBackend::standard().compile(Path::new("right.lua"), e.right).is_ok(), "{code}");
    }
}

#[test]
fn the_tac_codes_the_linter_shares_read_alike() {
    let d = LuaBackend::standard().lint(Path::new("t.lua"), "function on_think() DoFlea() end", &Api::standard());
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].code, d[0].message.as_str()), (Code::UnknownFunction, "unknown function `DoFlea`"));
    assert_eq!(d[0].hint.as_deref(), Some("did you mean `DoFlee`?"));
}

/// Lua-looking text: keywords, names, API names and punctuation in any order.
fn lua_soup() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "function",
        "end",
        "local",
        "if",
        "then",
        "else",
        "for",
        "in",
        "do",
        "while",
        "repeat",
        "until",
        "return",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ",",
        ".",
        ":",
        "=",
        "==",
        "..",
        "...",
        "\"s\"",
        "1",
        "x",
        "on_thinck",
        "Say",
        "MoveTo",
        "os",
        "io",
        "string",
        "dump",
        "self",
        "t",
        "\n",
        " ",
        "--",
        "#",
        "<const>",
        "goto",
        "::l::",
    ]);
    prop::collection::vec(token, 0..60).prop_map(|t| t.join(" "))
}

proptest! {
    #[test]
    fn no_text_makes_the_linter_panic(src in lua_soup()) {
        let _ = codes(&src);
    }

    #[test]
    fn no_bytes_make_the_linter_panic(src in ".{0,200}") {
        let _ = codes(&src);
    }
}
