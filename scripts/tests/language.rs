//! The constructs beyond the book: events, taunt choice, rule systems, state machines, sequences,
//! loops and the step budget — each asserting what the script did.

mod common;

use common::{Harness, compile, compile_with};
use glam::IVec2;
use tactica_engine::Value;
use tactica_engine::coord::Action;
use tactica_engine::world::{CommandBuffer, Region, WorldRng};
use tactica_script::{Api, Code, ScriptKind, ScriptLimits, Trigger};
use tactica_stdlib::Type;

const SIZE: IVec2 = IVec2::new(16, 16);

fn marker(src: &str) -> Harness {
    Harness::new(src, ScriptKind::Events, "marker", IVec2::ZERO, IVec2::new(1, 1), SIZE)
}

#[test]
fn on_enter_a_cell_fires_once_per_entry_and_once_fires_once_ever() {
    let mut h = marker("on enter (3, 4) { Trigger(kSpikeTrap); }\nonce on enter (5, 5) Trigger(kAlarmTrap);");
    for cell in [(3, 4), (3, 4), (2, 2), (3, 4), (5, 5), (1, 1), (5, 5)] {
        h.put_player(IVec2::new(cell.0, cell.1));
        h.fire(Trigger::Tick, None);
    }
    assert_eq!(h.triggered(), ["kSpikeTrap", "kSpikeTrap", "kAlarmTrap"]);
}

#[test]
fn on_enter_a_region_and_when_at_nightfall_are_edges() {
    let mut h =
        marker("on enter kDock PlaySound(kSeagullSnd);\nwhen (GameTime == kNight) { PlaySound(kCricketsSnd); }");
    h.world.add_region("kDock", Region::new(IVec2::new(4, 4), IVec2::new(6, 6)));
    h.global("GameTime", "kDay");
    for cell in [(4, 4), (5, 5), (6, 6), (9, 9), (4, 6)] {
        h.put_player(IVec2::new(cell.0, cell.1));
        h.fire(Trigger::Tick, None);
    }
    assert_eq!(h.sounds(), ["kSeagullSnd", "kSeagullSnd"]);
    h.global("GameTime", "kNight");
    h.fire(Trigger::Tick, None);
    h.fire(Trigger::Tick, None);
    assert_eq!(h.sounds().last().map(String::as_str), Some("kCricketsSnd"));
    assert_eq!(h.sounds().len(), 3);
}

#[test]
fn say_one_of_draws_from_the_world_generator_deterministically() {
    let src = "on encounter say one of [\"a\", \"b\", \"c\"];";
    let run = |seed: u64| {
        let mut h = Harness::new(src, ScriptKind::Dialogue, "troll", IVec2::ZERO, IVec2::ONE, SIZE);
        *h.world.rng() = WorldRng::new(seed);
        for _ in 0..30 {
            h.fire(Trigger::Encounter, None);
            h.idle(60); // past the say cooldown
        }
        h.said()
    };
    let a = run(1);
    assert_eq!(a.len(), 30);
    assert_eq!(a, run(1), "same seed, same lines");
    for line in ["a", "b", "c"] {
        assert!(a.iter().any(|l| l == line), "{line} never said in 30 draws");
    }
    // The independent reference: the same draws from the same generator.
    let mut rng = WorldRng::new(1);
    let want: Vec<String> = (0..30).map(|_| ["a", "b", "c"][rng.below(3)].to_owned()).collect();
    assert_eq!(a, want);
}

#[test]
fn a_speaker_does_not_repeat_a_line_within_the_cooldown() {
    let mut h = Harness::new("Say(\"Grr\");", ScriptKind::Dialogue, "troll", IVec2::ZERO, IVec2::ONE, SIZE);
    for _ in 0..10 {
        h.fire(Trigger::Encounter, None);
    }
    assert_eq!(h.said(), ["Grr"]);
    h.idle(tactica_stdlib::SAY_COOLDOWN_TICKS as usize);
    h.fire(Trigger::Encounter, None);
    assert_eq!(h.said(), ["Grr", "Grr"]);
}

#[test]
fn block_form_creature_applies_to_its_kind_only() {
    let src = "creature Troll { intelligence = 20; Strength = 75; }\ncreature Giant { INTELLIGENCE = 5; }";
    let mut h = Harness::new(src, ScriptKind::Attributes, "troll", IVec2::ZERO, IVec2::ONE, SIZE);
    h.fire(Trigger::Spawn, None);
    assert_eq!(h.attr("INTELLIGENCE"), Value::Int(20));
    assert_eq!(h.attr("STRENGTH"), Value::Int(75));
}

#[test]
fn classic_records_apply_by_creature_id() {
    let src = "CREATURE=1; SPEED=10; END\nCREATURE=2; SPEED=20; END";
    let mut h = Harness::new(src, ScriptKind::Attributes, "troll", IVec2::ZERO, IVec2::ONE, SIZE);
    h.world.entity_mut(h.me).unwrap().attributes.insert("CREATURE".into(), Value::Int(2));
    h.fire(Trigger::Spawn, None);
    assert_eq!(h.attr("SPEED"), Value::Int(20));
}

#[test]
fn an_out_of_range_value_computed_at_run_time_is_refused() {
    let mut h = Harness::new("SPEED = LEVEL * 100;", ScriptKind::Attributes, "troll", IVec2::ZERO, IVec2::ONE, SIZE);
    h.global("LEVEL", Value::Int(9));
    let mut rng = WorldRng::new(1);
    let mut commands = CommandBuffer::default();
    let err = h
        .script
        .run_entity(
            &mut h.inst,
            h.kind,
            Trigger::Spawn,
            &h.world,
            h.me,
            &mut commands,
            &mut rng,
            None,
            &ScriptLimits::new(),
            &mut tactica_script::RunReport::default(),
        )
        .unwrap_err();
    assert_eq!(err.code, Code::AttributeRange);
    assert_eq!((err.line, err.column), (1, 1));
    assert!(err.message.contains("SPEED") && err.message.contains("900"), "{err}");
    assert!(commands.is_empty(), "a failed call issues nothing");
}

#[test]
fn an_endless_loop_is_stopped_by_the_step_budget() {
    let script = compile("let n = 0;\nwhile (TRUE) { n = n + 1; }");
    let h = Harness::with_script(script, ScriptKind::Behaviour, "troll", IVec2::ZERO, IVec2::ONE, SIZE);
    let mut inst = h.script.instantiate();
    let mut rng = WorldRng::new(1);
    let mut commands = CommandBuffer::default();
    let limits = ScriptLimits::new().set_max_ops(500);
    let err = h
        .script
        .run_entity(
            &mut inst,
            ScriptKind::Behaviour,
            Trigger::Think,
            &h.world,
            h.me,
            &mut commands,
            &mut rng,
            None,
            &limits,
            &mut tactica_script::RunReport::default(),
        )
        .unwrap_err();
    assert_eq!(err.code, Code::BudgetExceeded);
    assert_eq!(
        err.to_string(),
        "test.tac:2:1: E0100: stopped after 500 steps (the budget of one call); is there an endless loop?"
            .replace("2:1", &format!("{}:{}", err.line, err.column))
    );
    assert_eq!(err.line, 2);
}

/// Reading a value whole costs one step per 16 bytes of its text: joining and comparing strings
/// and handing one to the host pay for its length, so a loop that copies a long string meets the
/// step budget as soon as a loop that copies a short one would meet it after many more rounds.
#[test]
fn work_on_long_strings_costs_one_step_per_16_bytes() {
    let steps = |src: &str| {
        let mut h = Harness::new(src, ScriptKind::Behaviour, "troll", IVec2::ZERO, IVec2::ONE, SIZE);
        h.fire(Trigger::Think, None).steps
    };
    let long = "x".repeat(1600);
    // Each operation reads `s` twice (joining, comparing) or once (the host's argument).
    for (op, extra) in [("let t = s + s;", 200), ("let e = (s == s);", 200), ("Say(s);", 100)] {
        let short = steps(&format!("let s = \"x\";\n{op}"));
        let with_long = steps(&format!("let s = \"{long}\";\n{op}"));
        assert_eq!(with_long - short, extra, "{op}: {short} steps with a short string, {with_long} with 1,600 bytes");
    }
}

#[test]
fn repeat_runs_a_body_n_times() {
    let mut h = Harness::new(
        "repeat 3 move(1, 0);\nrepeat 0 move(0, 1);",
        ScriptKind::Behaviour,
        "troll",
        IVec2::new(2, 2),
        IVec2::ONE,
        SIZE,
    );
    h.fire(Trigger::Think, None);
    let Some(Action::FollowPath { points, .. }) = h.front() else { panic!() };
    assert_eq!(points.len(), 3);
    assert_eq!(points.last().unwrap().floor().as_ivec2(), IVec2::new(5, 2));
}

const TECH_TREE: &str = r"
rules TechTree {
  strategy first;
  fact Peasants = Unknown;  fact Woodcutter = Unknown; fact Stonemason = Unknown;
  fact Blacksmith = Unknown; fact Barracks = Unknown;  fact Fletcher = Unknown;
  fact WoodWalls = Unknown;  fact StoneWalls = Unknown; fact Cavalry = Unknown;
  fact FootSoldier = Unknown; fact Spearman = Unknown; fact Archer = Unknown;
  fact Temple = Unknown; fact Priest = Unknown; fact Crossbowman = Unknown; fact Longbowman = Unknown;
  rule priest when Priest == Yes then begin Temple = Yes; Barracks = Yes; Woodcutter = Yes; Stonemason = Yes; end
  rule r1 when Peasants == Yes and Woodcutter == Unknown then Woodcutter = Maybe;
  rule r2 when Peasants == Yes and Stonemason == Unknown then Stonemason = Maybe;
  rule r3 when Woodcutter == Yes and Barracks == Unknown then Barracks = Maybe;
  rule r4 when Woodcutter == Yes and Stonemason == Yes and Temple == Unknown then Temple = Maybe;
  rule r5 when Barracks == Yes and Blacksmith == Unknown then Blacksmith = Maybe;
  rule r6 when Fletcher == Yes and FootSoldier == Yes and Archer == Unknown then Archer = Maybe;
  rule r7 when Woodcutter == Yes and WoodWalls == Unknown then WoodWalls = Maybe;
  rule r8 when Stonemason == Yes and StoneWalls == Unknown then StoneWalls = Maybe;
  rule r9 when Archer == Yes and Crossbowman == Unknown then Crossbowman = Maybe;
  rule r10 when Archer == Maybe and Longbowman == Unknown then Longbowman = Maybe;
  rule r11 when Longbowman == Yes then begin Archer = Yes; Fletcher = Yes; FootSoldier = Yes; Barracks = Yes; Woodcutter = Yes; end
  rule r12 when Cavalry == Yes then begin Blacksmith = Yes; FootSoldier = Yes; Barracks = Yes; Woodcutter = Yes; end
  rule r13 when StoneWalls == Yes then Stonemason = Yes;
}
";

fn facts_after(initial: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut h = Harness::new(TECH_TREE, ScriptKind::Behaviour, "ai", IVec2::ZERO, IVec2::ONE, SIZE);
    h.fire(Trigger::Spawn, None); // working memory takes its initial values
    for (k, v) in initial {
        assert!(h.inst.set_fact(&h.script, k, Value::from(*v)));
    }
    h.fire(Trigger::Think, None);
    let names = [
        "Peasants",
        "Woodcutter",
        "Stonemason",
        "Blacksmith",
        "Barracks",
        "Fletcher",
        "WoodWalls",
        "StoneWalls",
        "Cavalry",
        "FootSoldier",
        "Spearman",
        "Archer",
        "Temple",
        "Priest",
        "Crossbowman",
        "Longbowman",
    ];
    let mut known: Vec<(String, String)> = names
        .iter()
        .filter_map(|n| match h.inst.fact(&h.script, n) {
            Some(Value::Str(v)) if v != "Unknown" => Some(((*n).to_owned(), v.clone())),
            _ => None,
        })
        .collect();
    known.sort();
    // Thinking again fires nothing: quiescence, no re-firing on the same facts.
    let again = h.fire(Trigger::Think, None);
    assert!(again.fired_rules.is_empty(), "re-fired: {:?}", again.fired_rules);
    known
}

fn sorted(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = pairs.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect();
    v.sort();
    v
}

#[test]
fn forward_chaining_reaches_the_fixed_points_of_reference_002c_we10() {
    assert_eq!(
        facts_after(&[("Peasants", "Yes")]),
        sorted(&[("Peasants", "Yes"), ("Woodcutter", "Maybe"), ("Stonemason", "Maybe")])
    );
    assert_eq!(
        facts_after(&[("Priest", "Yes")]),
        sorted(&[
            ("Priest", "Yes"),
            ("Temple", "Yes"),
            ("Barracks", "Yes"),
            ("Woodcutter", "Yes"),
            ("Stonemason", "Yes"),
            ("Blacksmith", "Maybe"),
            ("WoodWalls", "Maybe"),
            ("StoneWalls", "Maybe"),
        ])
    );
    assert_eq!(
        facts_after(&[("Longbowman", "Yes")]),
        sorted(&[
            ("Longbowman", "Yes"),
            ("Archer", "Yes"),
            ("Fletcher", "Yes"),
            ("FootSoldier", "Yes"),
            ("Barracks", "Yes"),
            ("Woodcutter", "Yes"),
            ("Crossbowman", "Maybe"),
            ("Blacksmith", "Maybe"),
            ("WoodWalls", "Maybe"),
        ])
    );
    assert_eq!(
        facts_after(&[("Woodcutter", "Yes"), ("Stonemason", "Yes")]),
        sorted(&[
            ("Woodcutter", "Yes"),
            ("Stonemason", "Yes"),
            ("Barracks", "Maybe"),
            ("WoodWalls", "Maybe"),
            ("StoneWalls", "Maybe"),
            ("Temple", "Maybe"),
        ])
    );
    assert_eq!(
        facts_after(&[("Cavalry", "Yes")]),
        sorted(&[
            ("Cavalry", "Yes"),
            ("Blacksmith", "Yes"),
            ("FootSoldier", "Yes"),
            ("Barracks", "Yes"),
            ("Woodcutter", "Yes"),
            ("WoodWalls", "Maybe"),
        ])
    );
    assert_eq!(
        facts_after(&[("Fletcher", "Yes"), ("FootSoldier", "Yes")]),
        sorted(&[("Fletcher", "Yes"), ("FootSoldier", "Yes"), ("Archer", "Maybe"), ("Longbowman", "Maybe")])
    );
    assert_eq!(facts_after(&[("StoneWalls", "Yes")]), sorted(&[("StoneWalls", "Yes"), ("Stonemason", "Yes")]));
}

#[test]
fn conflict_resolution_first_weight_random() {
    let src = |strategy: &str| {
        format!(
            "rules R {{ strategy {strategy}; fact Go = Yes; fact Pick = Unknown;
             rule a when Go == Yes and Pick == Unknown then Pick = Maybe;
             rule b weight 5 when Go == Yes and Pick == Unknown then Pick = No;
             rule c weight 5 when Go == Yes and Pick == Unknown then Pick = Yes; }}"
        )
    };
    let pick = |strategy: &str, seed: u64| {
        let mut h = Harness::new(&src(strategy), ScriptKind::Behaviour, "ai", IVec2::ZERO, IVec2::ONE, SIZE);
        *h.world.rng() = WorldRng::new(seed);
        let r = h.fire(Trigger::Think, None);
        (r.fired_rules, h.inst.fact(&h.script, "Pick").cloned())
    };
    assert_eq!(pick("first", 0), (vec!["a".to_owned()], Some(Value::from("Maybe"))));
    assert_eq!(pick("weight", 0), (vec!["b".to_owned()], Some(Value::from("No"))), "ties go to the first");
    let drawn: std::collections::BTreeSet<String> = (0..20).map(|s| pick("random", s).0[0].clone()).collect();
    assert_eq!(drawn.len(), 3, "random reaches every matching rule: {drawn:?}");
}

#[test]
fn an_always_true_action_rule_fires_once_per_change_of_what_it_reads() {
    let src = "rules Build { fact Gold = 0; rule barracks when Gold >= 100 then Build(kBarracks); }";
    let mut h = Harness::new(src, ScriptKind::Behaviour, "ai", IVec2::ZERO, IVec2::ONE, SIZE);
    h.fire(Trigger::Think, None);
    h.inst.set_fact(&h.script, "Gold", Value::Int(150));
    for _ in 0..3 {
        h.fire(Trigger::Think, None);
    }
    h.inst.set_fact(&h.script, "Gold", Value::Int(300));
    h.fire(Trigger::Think, None);
    assert_eq!(h.triggered(), ["build kBarracks", "build kBarracks"]);
}

#[test]
fn backward_chaining_proves_a_goal_through_rules() {
    let src = r#"
rules Tech {
  fact Woodcutter = Unknown; fact Barracks = Unknown; fact Blacksmith = Unknown; fact Cavalry = Unknown;
  rule cavalry when Blacksmith == Yes then Cavalry = Yes;
  rule smith when Barracks == Yes then Blacksmith = Yes;
  rule barracks when Woodcutter == Yes then Barracks = Yes;
}
on encounter { if prove(Cavalry == Yes) Say("They can have cavalry."); else Say("No cavalry yet."); }
"#;
    let mut h = Harness::new(src, ScriptKind::Dialogue, "ai", IVec2::ZERO, IVec2::ONE, SIZE);
    h.fire(Trigger::Encounter, None);
    h.inst.set_fact(&h.script, "Woodcutter", Value::from("Yes"));
    let chain = tactica_script::prove(&h.script, &h.inst, 3, &Value::from("Yes"), 32);
    // The rules that would fire, in firing order (the engine's proof: prerequisites first).
    assert_eq!(chain, Some(vec!["barracks".to_owned(), "smith".to_owned(), "cavalry".to_owned()]));
    h.fire(Trigger::Encounter, None);
    assert_eq!(h.said(), ["No cavalry yet.", "They can have cavalry."]);
    assert_eq!(h.inst.fact(&h.script, "Cavalry"), Some(&Value::from("Unknown")), "proving asserts nothing");
}

fn ghost_api() -> Api {
    let mut api = Api::standard();
    api.declare_global("imBlue", Type::Bool, "the player ate a power pill");
    api.declare_global("canSeePlayer", Type::Bool, "the ghost sees the player");
    api
}

const GHOST: &str = r#"
machine Ghost {
  initial Roam;
  state Roam   { when imBlue -> Evade; when canSeePlayer -> Chase; }
  state Chase  { entry { Say("Chase!"); } when imBlue -> Evade; when not canSeePlayer -> Roam; }
  state Evade  { exit { Say("Phew."); } when imBlue -> Evade; when canSeePlayer -> Chase; -> Roam; }
}
"#;

#[test]
fn the_ghost_machine_follows_reference_002c_we01() {
    let table = [
        ("Roam", true, false, "Evade"),
        ("Roam", true, true, "Evade"),
        ("Roam", false, true, "Chase"),
        ("Roam", false, false, "Roam"),
        ("Chase", true, false, "Evade"),
        ("Chase", false, false, "Roam"),
        ("Chase", false, true, "Chase"),
        ("Evade", true, true, "Evade"),
        ("Evade", false, true, "Chase"),
        ("Evade", false, false, "Roam"),
    ];
    let api = ghost_api();
    let script = compile_with(GHOST, &api);
    for (from, blue, sees, to) in table {
        let mut h = Harness::with_script(script.clone(), ScriptKind::Behaviour, "Ghost", IVec2::ZERO, IVec2::ONE, SIZE);
        // Drive the machine into `from` first.
        let (b0, s0) = match from {
            "Roam" => (false, false),
            "Chase" => (false, true),
            _ => (true, false),
        };
        h.global("imBlue", b0);
        h.global("canSeePlayer", s0);
        h.fire(Trigger::Think, None); // starts in Roam
        h.fire(Trigger::Think, None);
        assert_eq!(h.inst.state(&h.script, "ghost"), Some(from));
        h.global("imBlue", blue);
        h.global("canSeePlayer", sees);
        h.fire(Trigger::Think, None);
        assert_eq!(h.inst.state(&h.script, "Ghost"), Some(to), "{from} blue={blue} sees={sees}");
        assert_eq!(h.attr("state"), Value::from(to), "creature.state follows the machine");
    }
}

#[test]
fn entry_and_exit_actions_run_on_changes_only() {
    let api = ghost_api();
    let script = compile_with(GHOST, &api);
    let mut h = Harness::with_script(script, ScriptKind::Behaviour, "Ghost", IVec2::ZERO, IVec2::ONE, SIZE);
    h.global("imBlue", false);
    h.global("canSeePlayer", true);
    let r = h.fire(Trigger::Think, None);
    assert_eq!(r.state_changes, [("Ghost".to_owned(), String::new(), "Roam".to_owned())]);
    let r = h.fire(Trigger::Think, None);
    assert_eq!(r.state_changes, [("Ghost".to_owned(), "Roam".to_owned(), "Chase".to_owned())]);
    h.fire(Trigger::Think, None);
    h.global("imBlue", true);
    h.fire(Trigger::Think, None);
    h.fire(Trigger::Think, None);
    h.global("imBlue", false);
    h.global("canSeePlayer", false);
    h.fire(Trigger::Think, None);
    assert_eq!(h.said(), ["Chase!", "Phew."]);
}

const BREACH: &str = r#"
sequence Breach {
  role pointman { MoveTo(3, 1); signal ready; wait go; Trigger(kBreachCharge); MoveTo(6, 1); }
  role cover    { wait ready; Say("Go!"); signal go; }
}
"#;

#[test]
fn a_two_man_squad_breaches_with_signal_and_wait() {
    let script = compile(BREACH);
    let mut h =
        Harness::with_script(script, ScriptKind::Behaviour, "soldier", IVec2::new(0, 1), IVec2::new(15, 15), SIZE);
    let mut cover = tactica_engine::world::Entity::new("cover", "soldier", IVec2::new(0, 2));
    cover.speed = 10.0;
    let cover = h.world.spawn(cover).unwrap();
    let me = h.me;
    let mut rng = h.world.rng().clone();
    let script = h.script.clone();
    h.world.step(|w, commands| {
        script
            .start_sequence(
                "Breach",
                "squad-a",
                &[("pointman", me), ("cover", cover)],
                w,
                commands,
                &mut rng,
                ScriptLimits::new(),
            )
            .unwrap();
    });
    h.idle(10);
    let kinds: Vec<(String, String)> = h
        .world
        .log()
        .events()
        .iter()
        .filter_map(|e| {
            let who = e.entity.clone()?;
            let what = match &e.kind {
                tactica_engine::world::EventKind::Signal { id, .. } => format!("signal {id}"),
                tactica_engine::world::EventKind::Wait { id, .. } => format!("wait {id}"),
                tactica_engine::world::EventKind::Release { id, .. } => format!("release {id}"),
                tactica_engine::world::EventKind::Say { text } => format!("say {text}"),
                tactica_engine::world::EventKind::Trigger { name } => format!("trigger {name}"),
                _ => return None,
            };
            Some((who, what))
        })
        .collect();
    let want = [
        ("cover", "wait ready"),
        ("it", "wait go"),
        ("cover", "release ready"),
        ("cover", "say Go!"),
        ("cover", "signal go"),
        ("it", "release go"),
        ("it", "trigger kBreachCharge"),
    ];
    let pointman_signal = kinds.iter().position(|k| k == &("it".to_owned(), "signal ready".to_owned())).unwrap();
    let rest: Vec<(String, String)> =
        kinds.iter().enumerate().filter(|(i, _)| *i != pointman_signal).map(|(_, k)| k.clone()).collect();
    assert_eq!(rest, want.map(|(a, b)| (a.to_owned(), b.to_owned())));
    assert_eq!(h.cell(), IVec2::new(6, 1), "through the door");
}

#[test]
fn two_squads_running_the_same_sequence_do_not_release_each_other() {
    let script = compile(BREACH);
    let mut h =
        Harness::with_script(script, ScriptKind::Behaviour, "soldier", IVec2::new(0, 1), IVec2::new(15, 15), SIZE);
    let mut b = tactica_engine::world::Entity::new("b-point", "soldier", IVec2::new(0, 5));
    b.speed = 10.0;
    let b_point = h.world.spawn(b).unwrap();
    let a_cover = h.world.spawn(tactica_engine::world::Entity::new("a-cover", "soldier", IVec2::new(0, 2))).unwrap();
    let me = h.me;
    let mut rng = h.world.rng().clone();
    let script = h.script.clone();
    // Squad A has both roles; squad B only its pointman (its cover never comes).
    h.world.step(|w, c| {
        script
            .start_sequence(
                "breach",
                "squad-a",
                &[("pointman", me), ("cover", a_cover)],
                w,
                c,
                &mut rng,
                ScriptLimits::new(),
            )
            .unwrap();
        script
            .start_sequence("breach", "squad-b", &[("pointman", b_point)], w, c, &mut rng, ScriptLimits::new())
            .unwrap();
    });
    h.idle(20);
    assert!(h.triggered().contains(&"kBreachCharge".to_owned()));
    let b = h.world.entity(b_point).unwrap();
    assert!(matches!(b.actions.front(), Some(Action::Wait { id, .. }) if id == "go"), "squad B still waits");
}

#[test]
fn starting_a_sequence_again_clears_its_old_signals() {
    let script = compile(BREACH);
    let mut h =
        Harness::with_script(script, ScriptKind::Behaviour, "soldier", IVec2::new(0, 1), IVec2::new(15, 15), SIZE);
    let cover = h.world.spawn(tactica_engine::world::Entity::new("cover", "soldier", IVec2::new(0, 2))).unwrap();
    let me = h.me;
    let script = h.script.clone();
    let mut rng = h.world.rng().clone();
    h.world.step(|w, c| {
        script
            .start_sequence("Breach", "s", &[("pointman", me), ("cover", cover)], w, c, &mut rng, ScriptLimits::new())
            .unwrap();
    });
    h.idle(20);
    assert!(h.world.signals().is_sent("s", "go"));
    // Second run: only the pointman; without the clear, the old `go` would release it at once.
    h.world.step(|w, c| {
        script.start_sequence("Breach", "s", &[("pointman", me)], w, c, &mut rng, ScriptLimits::new()).unwrap();
    });
    h.idle(20);
    assert!(matches!(h.front(), Some(Action::Wait { id, .. }) if id == "go"));
}

#[test]
fn a_signal_sent_before_the_wait_releases_it() {
    // The cover signals `ready` before the pointman (stuck walking) gets to its wait.
    let src = "sequence S { role a { Sleep(5); wait go; Say(\"in\"); } role b { signal go; } }";
    let script = compile(src);
    let mut h =
        Harness::with_script(script, ScriptKind::Behaviour, "soldier", IVec2::new(0, 1), IVec2::new(15, 15), SIZE);
    let b = h.world.spawn(tactica_engine::world::Entity::new("b", "soldier", IVec2::new(0, 2))).unwrap();
    let me = h.me;
    let script = h.script.clone();
    let mut rng = h.world.rng().clone();
    h.world.step(|w, c| {
        script.start_sequence("S", "x", &[("a", me), ("b", b)], w, c, &mut rng, ScriptLimits::new()).unwrap();
    });
    h.idle(10);
    assert_eq!(h.said(), ["in"]);
    assert!(
        !h.world.log().events().iter().any(|e| matches!(e.kind, tactica_engine::world::EventKind::Wait { .. })),
        "never blocked"
    );
}

#[test]
fn unknown_sequences_and_roles_are_errors_not_panics() {
    let script = compile(BREACH);
    let h = Harness::with_script(script, ScriptKind::Behaviour, "soldier", IVec2::new(0, 1), IVec2::new(15, 15), SIZE);
    let mut rng = WorldRng::new(1);
    let mut c = CommandBuffer::default();
    let e = h.script.start_sequence("Nope", "s", &[], &h.world, &mut c, &mut rng, ScriptLimits::new()).unwrap_err();
    assert_eq!(e.code, Code::NoSuchSequence);
    let e = h
        .script
        .start_sequence("Breach", "s", &[("medic", h.me)], &h.world, &mut c, &mut rng, ScriptLimits::new())
        .unwrap_err();
    assert!(e.message.contains("medic"));
    assert!(c.is_empty());
}

#[test]
fn instance_state_survives_a_reload() {
    let old = compile_with(GHOST, &ghost_api());
    let mut h = Harness::with_script(old.clone(), ScriptKind::Behaviour, "Ghost", IVec2::ZERO, IVec2::ONE, SIZE);
    h.global("imBlue", true);
    h.global("canSeePlayer", false);
    h.fire(Trigger::Think, None);
    h.fire(Trigger::Think, None);
    assert_eq!(h.inst.state(&old, "Ghost"), Some("Evade"));
    let new = compile_with(&GHOST.replace("Phew.", "Safe."), &ghost_api());
    let migrated = h.inst.migrate(&old, &new);
    assert_eq!(migrated.state(&new, "Ghost"), Some("Evade"));
}

#[test]
fn an_unlimited_budget_lets_a_long_loop_finish() {
    // `ScriptLimits::unlimited()` has `max_ops == 0`, meaning no budget, not a budget of nothing.
    let api = tactica_stdlib::Api::standard();
    let (script, diags) =
        tactica_script::check("long.tac", "let n = 0;\nwhile (n < 100000) { n = n + 1; }\nNote(\"n\", n);\n", &api);
    assert!(diags.is_empty(), "{diags:?}");
    let script = script.unwrap();
    let mut world = tactica_engine::world::World::new(tactica_engine::grid::Map::open(4, 4), 10, 1);
    let me = world.spawn(tactica_engine::world::Entity::new("me", "tester", glam::IVec2::ZERO)).unwrap();
    let mut inst = script.instantiate();
    let mut commands = tactica_engine::world::CommandBuffer::default();
    let mut rng = tactica_engine::world::WorldRng::new(1);
    script
        .run_entity(
            &mut inst,
            tactica_script::ScriptKind::Behaviour,
            tactica_script::Trigger::Think,
            &world,
            me,
            &mut commands,
            &mut rng,
            None,
            &tactica_stdlib::ScriptLimits::unlimited(),
            &mut tactica_script::RunReport::default(),
        )
        .expect("no budget means the loop runs to its end");
    assert!(format!("{commands:?}").contains("100000"), "{commands:?}");
}

#[test]
fn lines_are_built_with_plus_and_what_has_no_plain_form_is_refused() {
    let (script, diags) = tactica_script::check("t.tac", "Say(\"Run \" + DoFlee());", &Api::standard());
    assert!(script.is_none());
    assert!(diags.iter().any(|d| d.code == Code::NoValue), "{diags:?}");
    let (_, diags) = tactica_script::check("t.tac", "Say(3 + 4);", &Api::standard());
    assert_eq!(diags[0].code, Code::ArgumentType, "numbers alone are not a line: {diags:?}");
    assert!(diags[0].message.contains("must be a string, not an int"), "{}", diags[0].message);
    let mut h = Harness::new(
        "let n = 3;\nSay(Creature + \" has \" + n + \" coins, \" + (n > 2));",
        ScriptKind::Behaviour,
        "Troll",
        IVec2::ZERO,
        IVec2::ONE,
        SIZE,
    );
    h.fire(Trigger::Think, None);
    assert_eq!(h.said(), ["Troll has 3 coins, true"]);
    // An entity has no plain form: refused when the script runs, at the `+`.
    let mut h =
        Harness::new("Say(\"Hello \" + Player());", ScriptKind::Behaviour, "troll", IVec2::ZERO, IVec2::ONE, SIZE);
    let mut rng = WorldRng::new(1);
    let mut commands = CommandBuffer::default();
    let err = h
        .script
        .run_entity(
            &mut h.inst,
            h.kind,
            Trigger::Think,
            &h.world,
            h.me,
            &mut commands,
            &mut rng,
            None,
            &ScriptLimits::new(),
            &mut tactica_script::RunReport::default(),
        )
        .unwrap_err();
    assert_eq!(err.code, Code::RuntimeType, "{err}");
    assert!(err.message.contains("cannot combine"), "{err}");
}
