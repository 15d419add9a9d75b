//! Bad input never panics or hangs: random text and random token soup go through the lexer,
//! parser, checker and — when they check — the VM on every trigger, under a small step budget.
//! The same exercise runs unbounded under cargo-fuzz (`scripts/fuzz`).

use glam::IVec2;
use proptest::prelude::*;
use tactica_engine::grid::Map;
use tactica_engine::world::{CommandBuffer, Entity, World, WorldRng};
use tactica_script::{Api, ScriptKind, ScriptLimits, Trigger, check, render};

fn exercise(src: &str) {
    let api = Api::standard();
    let (script, diags) = check("fuzz.tac", src, &api);
    let _ = render("fuzz.tac", src, &diags, false);
    let Some(script) = script else { return };
    let mut world = World::new(Map::open(8, 8), 10, 1);
    let mut p = Entity::new("player", "Human", IVec2::new(1, 1));
    p.tags.insert("player".into());
    world.spawn(p).unwrap();
    let me = world.spawn(Entity::new("it", "Troll", IVec2::new(3, 3))).unwrap();
    world.globals.insert("PlayerArmed".into(), "Dagger".into());
    let limits = ScriptLimits::new().set_max_ops(2_000);
    let mut rng = WorldRng::new(3);
    for kind in [ScriptKind::Attributes, ScriptKind::Behaviour, ScriptKind::Dialogue, ScriptKind::Events] {
        let mut inst = script.instantiate();
        for trigger in
            [Trigger::Spawn, Trigger::Think, Trigger::Tick, Trigger::Encounter, Trigger::Hear, Trigger::Think]
        {
            let mut commands = CommandBuffer::default();
            let heard = (trigger == Trigger::Hear).then_some("what is your name");
            let _ = script.run_entity(&mut inst, kind, trigger, &world, me, &mut commands, &mut rng, heard, limits);
        }
    }
    for name in script.sequence_names().map(str::to_owned).collect::<Vec<_>>() {
        let roles: Vec<String> = script.roles(&name).into_iter().map(str::to_owned).collect();
        let cast: Vec<(&str, _)> = roles.iter().map(|r| (r.as_str(), me)).collect();
        let mut commands = CommandBuffer::default();
        let _ = script.start_sequence(&name, "s", &cast, &world, &mut commands, &mut rng, limits);
    }
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
