//! The Rhai linter from outside: the shared codes read as `.tac`'s, and no text whatever makes it
//! panic.

use std::path::Path;

use proptest::prelude::*;
use tactica_rhai::RhaiBackend;
use tactica_stdlib::Api;
use tactica_stdlib::backend::ScriptBackend;
use tactica_syntax::diagnostics::Code;

fn codes(src: &str) -> Vec<Code> {
    RhaiBackend::standard().lint(Path::new("t.rhai"), src, &Api::standard()).iter().map(|d| d.code).collect()
}

#[test]
fn each_mistake_has_its_code() {
    assert_eq!(codes("fn on_think() { DoFlea(); }"), [Code::UnknownFunction]);
    assert_eq!(codes("fn on_think() { do_flee(1); }"), [Code::WrongArity]);
    assert_eq!(codes("fn on_tock() { }"), [Code::UnknownHandler]);
    assert_eq!(codes("import \"os\" as os;\nfn on_think() { }"), [Code::RemovedGlobal]);
    assert_eq!(codes("fn on_think() { let t = timestamp(); }"), [Code::RemovedGlobal]);
    assert_eq!(codes("fn on_think() { MoveTo(kWell); }"), [Code::UndefinedGlobal]);
}

#[test]
fn a_name_written_bare_is_an_undefined_variable_with_the_hint_that_names_are_strings() {
    let mut api = Api::standard();
    api.declare_symbol("kWell", "place");
    let src =
        "fn on_think() {\n    MoveTo(kWell);\n    if GetGlobal(\"PlayerArmed\") == Dagger { Say(\"Cute.\"); }\n}\n";
    let d = RhaiBackend::standard().lint(Path::new("t.rhai"), src, &api);
    let found: Vec<(Code, &str, Option<&str>)> =
        d.iter().map(|d| (d.code, &src[d.span.clone()], d.hint.as_deref())).collect();
    assert_eq!(
        found,
        [
            (
                Code::UndefinedGlobal,
                "kWell",
                Some("`kWell` is a place the scenario or the API names; in Rhai names are strings: write `\"kWell\"`")
            ),
            (
                Code::UndefinedGlobal,
                "Dagger",
                Some(
                    "`Dagger` is a weapon the scenario or the API names; in Rhai names are strings: write `\"Dagger\"`"
                )
            ),
        ]
    );
    // What the script declares anywhere, and Rhai's own `this`, are never findings.
    let clean = "const HOME = \"kWell\";\nfn on_think() { let x = 1; for i in 0..x { MoveTo(HOME); } this.n = x; }";
    assert_eq!(codes(clean), []);
}

/// Rhai-looking text.
fn rhai_soup() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "fn",
        "let",
        "const",
        "if",
        "else",
        "for",
        "in",
        "while",
        "loop",
        "return",
        "this",
        "|",
        "|x|",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ",",
        ".",
        ";",
        "=",
        "==",
        "\"s\"",
        "`t ${1}`",
        "1",
        "x",
        "on_thinck",
        "Say",
        "MoveTo",
        "timestamp",
        "os",
        "import",
        "print",
        "#{",
        "\n",
        " ",
        "//",
        "::",
    ]);
    prop::collection::vec(token, 0..60).prop_map(|t| t.join(" "))
}

proptest! {
    #[test]
    fn no_text_makes_the_linter_panic(src in rhai_soup()) {
        let _ = codes(&src);
    }

    #[test]
    fn no_bytes_make_the_linter_panic(src in ".{0,200}") {
        let _ = codes(&src);
    }
}
