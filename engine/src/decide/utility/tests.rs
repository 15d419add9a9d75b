//! GAIA tests: dual-utility arithmetic and selection (S4 examples), the sniper of Listing 8.11
//! with its cooldown, officers preferred ten to one, regions, plain-value driving.

use glam::Vec2;

use super::*;
use crate::decide::DecideError;
use crate::value::{Table, Value};
use crate::world::WorldRng;

fn w(addend: f32, multiplier: f32, rank: f32) -> WeightValues {
    WeightValues { addend, multiplier, rank }
}

#[test]
fn dual_utility_arithmetic() {
    let tuning = Consideration::Tuning(WeightSpec::default()).calculate(&mut ctx_stub());
    assert_eq!((tuning.addend, tuning.multiplier, tuning.rank), (1.0, 1.0, f32::MIN));
    let officer = combine_values(&[tuning, w(0.0, 10.0, f32::MIN)], Combine::And, RankRule::Max);
    assert_eq!(officer.addend * officer.multiplier, 10.0);
    let mixed = combine_values(&[tuning, w(2.0, 1.0, f32::MIN), w(0.0, 0.5, f32::MIN)], Combine::And, RankRule::Max);
    assert_eq!(mixed.addend * mixed.multiplier, 1.5);
    let vetoed = combine_values(&[tuning, WeightSpec::VETO.values()], Combine::And, RankRule::Max);
    assert_eq!(vetoed.addend * vetoed.multiplier, 0.0);
    let ranks = [w(0.0, 1.0, 2.0), w(0.0, 1.0, f32::MIN), w(0.0, 1.0, 5.0)];
    assert_eq!(combine_values(&ranks, Combine::And, RankRule::Max).rank, 5.0);
    assert_eq!(combine_values(&ranks, Combine::And, RankRule::Min).rank, f32::MIN);
    assert_eq!(combine_values(&ranks, Combine::And, RankRule::Sum).rank, f32::MIN);
    // OR ignores non-positive multipliers unless all are; NOT flips them.
    assert_eq!(combine_values(&[w(1.0, 0.0, 0.0), w(0.0, 3.0, 0.0)], Combine::Or, RankRule::Max).multiplier, 3.0);
    assert_eq!(combine_values(&[w(1.0, 0.0, 0.0), w(0.0, 0.0, 0.0)], Combine::Or, RankRule::Max).multiplier, 0.0);
    assert_eq!(combine_values(&[w(1.0, 0.0, 0.0)], Combine::Not, RankRule::Max).multiplier, 1.0);
    assert_eq!(combine_values(&[w(1.0, 3.0, 0.0)], Combine::Not, RankRule::Max).multiplier, 0.0);
}

fn ctx_stub() -> Ctx<'static> {
    let sit: &'static Situation = Box::leak(Box::default());
    Ctx {
        sit,
        blackboard: Box::leak(Box::default()),
        rng: Box::leak(Box::new(WorldRng::new(1))),
        picker: None,
        history: History::default(),
    }
}

#[test]
fn dual_utility_selection_example() {
    // X (R1, W5), Y (R1, W1), Z (R0, W100), V (R2, W0): V invalid, Z out-ranked, X 5/6, Y 1/6.
    let scores = [(1.0, 5.0), (1.0, 1.0), (0.0, 100.0), (2.0, 0.0)];
    let c = dual_utility_candidates(&scores, None);
    assert_eq!(c.len(), 2);
    assert!((c[0].1 - 5.0 / 6.0).abs() < 1e-9 && c[0].0 == 0);
    assert!((c[1].1 - 1.0 / 6.0).abs() < 1e-9 && c[1].0 == 1);
    assert_eq!(dual_utility_candidates(&scores, Some(30.0)), [(0, 1.0)]);
    let mut rng = WorldRng::new(42);
    let xs = (0..6000).filter(|_| select(ReasonerKind::DualUtility, &scores, None, None, &mut rng) == Some(0)).count();
    assert!((xs as f64 / 6000.0 - 5.0 / 6.0).abs() < 0.02, "{xs}");
    // The running option stays while it is a candidate.
    assert_eq!(select(ReasonerKind::DualUtility, &scores, None, Some(1), &mut rng), Some(1));
    assert_eq!(select(ReasonerKind::RuleBased, &scores, None, None, &mut rng), Some(0));
    assert_eq!(dual_utility_candidates(&[(0.0, 0.0)], None), []);
}

/// Listing 8.11 and the surrounding sniper (S4:85–99) in TOML.
const SNIPER: &str = r#"
[reasoner]
type = "rule_based"

[[reasoner.options]]
name = "retreat"
considerations = [
  { type = "boolean_variable", variable = "under_attack" },
  { type = "entity_exists", weight_function = { type = "boolean", true_weights = { veto = true }, false_weights = {} },
    picker = { reasoner = "rule_based", considerations = [
      { type = "string_variable", variable = "Side", store = "target", weight_function = { type = "string", entries = [ { value = "Enemy" } ], default = { veto = true } } },
      { type = "in_region", target = { type = "picker_entity" }, region = { type = "parallelogram", origin = [-10, -5], a = [-200, 0], b = [0, 10] } },
    ] } },
]
actions = [ { type = "emit", name = "retreat" } ]

[[reasoner.options]]
name = "counter_attack"
considerations = [ { type = "boolean_variable", variable = "under_attack" } ]
actions = [ { type = "emit", name = "counter_attack" } ]

[[reasoner.options]]
name = "snipe"
considerations = [
  # Line of retreat clear: veto if an enemy stands in the escape corridor.
  { type = "entity_exists", weight_function = { type = "boolean", true_weights = { veto = true }, false_weights = {} },
    picker = { reasoner = "rule_based", considerations = [
      { type = "string_variable", variable = "Side", store = "target", weight_function = { type = "string", entries = [ { value = "Enemy" } ], default = { veto = true } } },
      { type = "in_region", target = { type = "picker_entity" }, region = { type = "parallelogram", origin = [-10, -5], a = [-200, 0], b = [0, 10] } },
    ] } },
  # Pick a target between 50 m and 300 m, enemies only; store it as SnipeTarget.
  { type = "entity_exists", variable = "SnipeTarget", picker = { reasoner = "dual_utility", considerations = [
      { type = "distance", from = { type = "self" }, to = { type = "picker_entity" },
        weight_function = { type = "float_sequence", entries = [ { exact = 50, veto = true }, { exact = 300, veto = false } ], default = { veto = true } } },
      { type = "string_variable", variable = "Side", store = "target", target = { type = "picker_entity" },
        weight_function = { type = "string", entries = [ { value = "Enemy", veto = false } ], default = { veto = true } } },
      { type = "boolean_variable", variable = "IsOfficer", store = "target",
        weight_function = { type = "boolean", true_weights = { multiplier = 10 }, false_weights = {} } },
  ] } },
  # One shot every one or two minutes; the first as soon as there is a target.
  { type = "execution_history", since_stopped = { type = "cooldown", min = 60, max = 120 } },
]
[[reasoner.options.actions]]
type = "subreasoner"
reasoner = { type = "sequence", options = [
  { name = "get_prone", actions = [ { type = "emit", name = "posture", args = { pose = "prone" }, duration = 0 } ] },
  { name = "raise_weapon", actions = [ { type = "emit", name = "raise_weapon", duration = 0 } ] },
  { name = "aim", actions = [ { type = "pause", seconds = 2 } ] },
  { name = "fire", actions = [ { type = "emit", name = "fire", target = { type = "variable", variable = "SnipeTarget" }, duration = 0 } ] },
] }

[[reasoner.options]]
name = "hide"
actions = [ { type = "emit", name = "hide" } ]
"#;

fn enemy(name: &str, x: f32, officer: bool) -> Actor {
    let mut data = Table::new();
    data.insert("Side".into(), Value::from("enemy")); // AIString comparison is case-insensitive.
    data.insert("IsOfficer".into(), Value::Bool(officer));
    Actor { name: name.into(), position: Vec2::new(x, 0.0), data }
}

fn friend(name: &str, x: f32) -> Actor {
    Actor {
        name: name.into(),
        position: Vec2::new(x, 0.0),
        data: Table::from([("Side".to_owned(), Value::from("Friendly"))]),
    }
}

#[test]
fn sniper_picks_only_enemies_in_range_and_fires_on_cooldown() {
    let brain = Brain::from_toml(SNIPER).unwrap();
    let mut st = BrainState::default();
    let mut rng = WorldRng::new(7);
    let mut sit = Situation {
        me: Actor { name: "sniper".into(), ..Actor::default() },
        actors: vec![
            enemy("close", 30.0, false),
            enemy("mark", 120.0, false),
            enemy("far", 400.0, true),
            friend("ally", 100.0),
        ],
        ..Situation::default()
    };
    let mut shots = Vec::new();
    let mut first = None;
    for t in 0..400 {
        sit.time = f64::from(t);
        let d = brain.update(&mut st, &sit, &mut rng);
        if t == 0 {
            first = Some(d.clone());
        }
        for c in d.commands.iter().filter(|c| c.name == "fire") {
            assert_eq!(c.target.as_deref(), Some("mark"));
            assert_eq!(c.position, Some(Vec2::new(120.0, 0.0)));
            shots.push(t);
        }
    }
    let first = first.unwrap();
    // Getting prone is instant, so raising the weapon starts in the same update.
    assert_eq!(first.path, ["snipe", "raise_weapon"]);
    assert_eq!(first.commands.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["posture", "raise_weapon"]);
    assert_eq!(first.commands[0].args["pose"], Value::from("prone"));
    assert_eq!(st.blackboard["SnipeTarget"], Value::from("mark"));
    // First shot right away (prone and raise at 0, aim from 1 to 3, fire), then every 60–120 s.
    assert_eq!(shots[0], 3);
    assert!(shots.len() >= 3, "{shots:?}");
    for pair in shots.windows(2) {
        let gap = pair[1] - pair[0];
        assert!((60..=126).contains(&gap), "{shots:?}");
    }
    // Under attack with an enemy in the escape corridor: counter-attack, not retreat.
    st.blackboard.insert("under_attack".into(), Value::Bool(true));
    sit.actors.push(enemy("flanker", -50.0, false));
    sit.time = 500.0;
    assert_eq!(brain.update(&mut st, &sit, &mut rng).path, ["counter_attack"]);
    sit.actors.pop();
    sit.time = 501.0;
    let d = brain.update(&mut st, &sit, &mut rng);
    assert_eq!((d.path.as_slice(), d.commands[0].name.as_str()), (["retreat".to_owned()].as_slice(), "retreat"));
}

#[test]
fn officers_are_shot_about_half_the_time() {
    // Ten enlisted (weight 1) and one officer (weight 10): P(officer) = 10 / 20 (S4:508).
    let brain = Brain::from_toml(SNIPER).unwrap();
    let ReasonerSpec { options, .. } = &brain.reasoner;
    let Consideration::EntityExists { picker, .. } = &options[2].considerations[1] else { panic!("picker") };
    let mut actors: Vec<Actor> = (0..10).map(|i| enemy(&format!("e{i}"), 100.0 + i as f32, false)).collect();
    actors.push(enemy("officer", 150.0, true));
    let sit = Situation { actors, ..Situation::default() };
    let (mut bb, mut rng) = (Table::new(), WorldRng::new(3));
    let mut scores = Vec::new();
    for i in 0..sit.actors.len() {
        let mut ctx =
            Ctx { sit: &sit, blackboard: &mut bb, rng: &mut rng, picker: Some(i), history: History::default() };
        scores.push(option_weight(&picker.considerations, Combine::And, RankRule::Max, &mut ctx));
    }
    let c = dual_utility_candidates(&scores, None);
    assert_eq!(c.len(), 11);
    assert!((c[10].1 - 0.5).abs() < 1e-9);
    let mut officer = 0;
    for seed in 0..1000 {
        let mut st = BrainState::default();
        brain.update(&mut st, &sit, &mut WorldRng::new(seed));
        officer += usize::from(st.blackboard["SnipeTarget"] == Value::from("officer"));
    }
    assert!((430..570).contains(&officer), "{officer}");
}

#[test]
fn weight_functions() {
    let seq = WeightFunction::FloatSequence {
        entries: vec![
            SequenceEntry { exact: 50.0, weights: WeightSpec::VETO },
            SequenceEntry { exact: 300.0, weights: WeightSpec::default() },
        ],
        default: WeightSpec::VETO,
    };
    assert_eq!(seq.calc_float(50.0, 0.0).multiplier, 0.0);
    assert_eq!(seq.calc_float(50.5, 0.0).multiplier, 1.0);
    assert_eq!(seq.calc_float(300.0, 0.0).multiplier, 1.0);
    assert_eq!(seq.calc_float(301.0, 0.0).multiplier, 0.0);
    let curve = WeightFunction::Curve {
        curve: Curve {
            kind: CurveKind::Linear,
            m: -1.0,
            k: 1.0,
            c: 0.0,
            b: 1.0,
            min: 0.0,
            max: 100.0,
            output: CurveOutput::Multiplier,
        },
    };
    assert!((curve.calc_float(25.0, 0.0).multiplier - 0.75).abs() < 1e-6);
    let constant = WeightFunction::Constant {
        weights: WeightSpec { addend: Some(2.0), rank: Some(3.0), ..WeightSpec::default() },
    };
    assert_eq!(constant.calc_bool(false), w(2.0, 1.0, 3.0));
    assert_eq!(WeightFunction::default().calc_bool(false), WeightValues::VETO);
    let cooldown = WeightFunction::Cooldown { min: 60.0, max: 120.0 };
    let drawn = cooldown.draw_cooldown(&mut WorldRng::new(1)).unwrap();
    assert!((60.0..120.0).contains(&drawn));
    assert_eq!(cooldown.calc_float(drawn - 1.0, drawn), WeightValues::VETO);
    assert_eq!(cooldown.calc_float(drawn, drawn), WeightValues::default());
}

#[test]
fn regions_contain_and_sample() {
    let mut rng = WorldRng::new(5);
    let regions = [
        Region::Circle { center: [1.0, 1.0], radius: 2.0 },
        Region::Parallelogram { origin: [0.0, 0.0], a: [4.0, 0.0], b: [1.0, 2.0] },
        Region::Polygon { points: vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [2.0, 1.0], [0.0, 4.0]] },
    ];
    assert!(regions[0].contains(Vec2::new(2.0, 2.0)) && !regions[0].contains(Vec2::new(3.0, 3.0)));
    assert!(regions[1].contains(Vec2::new(4.5, 1.5)) && !regions[1].contains(Vec2::new(0.2, 1.5)));
    assert!(regions[2].contains(Vec2::new(0.5, 3.0)) && !regions[2].contains(Vec2::new(2.0, 3.0)));
    for r in &regions {
        for _ in 0..50 {
            let p = r.random_position(&mut rng).unwrap();
            assert!(r.contains(p), "{r:?} {p}");
        }
    }
    assert_eq!(Region::Polygon { points: vec![[0.0, 0.0], [1.0, 0.0]] }.random_position(&mut rng), None);
}

#[test]
fn brains_are_driven_with_plain_values() {
    let brain = Brain::from_toml(SNIPER).unwrap();
    let mut st = BrainState::default();
    let enemy = Value::Map(Table::from([
        ("name".to_owned(), Value::from("target")),
        ("position".to_owned(), Value::List(vec![Value::Int(200), Value::Int(0)])),
        ("data".to_owned(), Value::Map(Table::from([("Side".to_owned(), Value::from("Enemy"))]))),
    ]));
    let sit = Value::Map(Table::from([
        ("time".to_owned(), Value::Float(0.0)),
        ("me".to_owned(), Value::Map(Table::from([("name".to_owned(), Value::from("sniper"))]))),
        ("actors".to_owned(), Value::List(vec![enemy])),
    ]));
    let Value::Map(out) = brain.update_value(&mut st, &sit, &mut WorldRng::new(1)) else { panic!("map") };
    assert_eq!(out["path"], Value::List(vec![Value::from("snipe"), Value::from("raise_weapon")]));
    let Value::List(cmds) = &out["commands"] else { panic!("list") };
    assert_eq!(cmds.len(), 2);
    // No enemy at all: hide.
    let empty = Value::Map(Table::from([("time".to_owned(), Value::Float(1.0))]));
    let mut st = BrainState::default();
    let Value::Map(out) = brain.update_value(&mut st, &empty, &mut WorldRng::new(1)) else { panic!("map") };
    assert_eq!(out["path"], Value::List(vec![Value::from("hide")]));
}

#[test]
fn bad_brains_are_typed_errors() {
    assert!(matches!(
        Brain::from_toml("[reasoner]\ntype = \"rule_based\"\noptions = []\n"),
        Err(DecideError::Invalid { .. })
    ));
    let far = "[reasoner]\ntype = \"dual_utility\"\nfar_below = 150\n[[reasoner.options]]\nname = \"a\"\n";
    assert!(matches!(Brain::from_toml(far), Err(DecideError::Invalid { .. })));
    let bad = "[reasoner]\ntype = \"dual_utility\"\n[[reasoner.options]]\nname = \"a\"\nconsiderations = [ { type = \"telepathy\" } ]\n";
    assert!(matches!(Brain::from_toml(bad), Err(DecideError::Parse { line: 5, .. })));
}
