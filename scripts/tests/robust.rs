//! Bad input never panics or hangs: random text and random token soup go through the lexer,
//! parser, checker and — when they check — the VM on every trigger, under a small step budget.
//! The same exercise runs unbounded under cargo-fuzz (`scripts/fuzz`).

use proptest::prelude::*;
use tactica_script::{Api, check};

fn exercise(src: &str) {
    tactica_script::exercise(src, 2_000);
}

const WORDS: &[&str] = &[
    "If",
    "if",
    "ELSE",
    "BEGIN",
    "END",
    "begin",
    "end",
    "and",
    "or",
    "not",
    "while",
    "repeat",
    "let",
    "on",
    "when",
    "once",
    "then",
    "TRUE",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ";",
    ".",
    "->",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "0",
    "1",
    "5",
    "-1",
    "300",
    "\"hi\"",
    "\"a\nb\"",
    "PlayerArmed",
    "Dagger",
    "LEVEL",
    "GameTime",
    "kNight",
    "Say",
    "DoFlee",
    "move",
    "Ask",
    "PlayerLocation",
    "kDock",
    "Trigger",
    "kPoisonTrap",
    "INTELLIGENCE",
    "SPEED",
    "CREATURE",
    "creature",
    "Troll",
    "machine",
    "state",
    "initial",
    "entry",
    "exit",
    "tick",
    "rules",
    "rule",
    "fact",
    "weight",
    "strategy",
    "first",
    "prove",
    "Yes",
    "Unknown",
    "sequence",
    "role",
    "signal",
    "wait",
    "say",
    "one",
    "of",
    "enter",
    "spawn",
    "think",
    "encounter",
    "hear",
    "x",
    "y",
    "//c\n",
    "#c\n",
    "@",
    "\"",
    "creature.state",
    "kPatrol",
    "Random",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(src in "\\PC{0,200}") {
        exercise(&src);
    }

    #[test]
    fn random_token_soup_never_panics(words in prop::collection::vec(prop::sample::select(WORDS), 0..60)) {
        exercise(&words.join(" "));
    }

    #[test]
    fn any_loop_is_stopped_or_finishes(n in 0i64..50, body in prop::sample::select(&["n = n + 1;", "n = n;", "move(0, 1);"][..])) {
        let src = format!("let n = {n};\nwhile (n >= 0) {{ {body} }}");
        let (script, diags) = check("loop.tac", &src, &Api::standard());
        prop_assert!(script.is_some(), "{diags:?}");
        exercise(&src);
    }
}

#[test]
fn deeply_nested_input_does_not_overflow_the_stack() {
    exercise(&format!("If {}LEVEL{} Say(\"x\");", "(".repeat(200), ")".repeat(200)));
    exercise(&"If (LEVEL) BEGIN ".repeat(100));
    exercise(&"not ".repeat(300));
}
