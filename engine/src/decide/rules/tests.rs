//! Rule engine tests: the tech tree's fixed points (WE-10), backward chaining, the strike
//! predictor trace (WE-11), incremental vs naive chaining.

use super::*;
use crate::decide::DecideError;
use crate::value::Value;
use crate::world::WorldRng;

fn run_tree(initial: &[&str]) -> Vec<(String, String)> {
    let rs = RuleSet::from_toml(TECH_TREE).unwrap();
    let (mut wm, mut st) = rs.memory();
    for f in initial {
        rs.assert(&mut wm, f, "Yes").unwrap();
    }
    let firings = rs.run(&mut wm, &mut st, &mut WorldRng::new(1), 1000);
    assert!(firings.len() < 30, "terminates");
    rs.to_table(&wm).into_iter().map(|(k, v)| (k, v.to_string())).collect()
}

fn expect(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<_> = pairs.iter().map(|(a, b)| ((*a).to_owned(), (*b).to_owned())).collect();
    v.sort();
    v
}

#[test]
fn tech_tree_fixed_points_we10() {
    assert_eq!(
        run_tree(&["Peasants"]),
        expect(&[("Peasants", "Yes"), ("Woodcutter", "Maybe"), ("Stonemason", "Maybe")])
    );
    assert_eq!(
        run_tree(&["Priest"]),
        expect(&[
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
        run_tree(&["Longbowman"]),
        expect(&[
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
        run_tree(&["Woodcutter", "Stonemason"]),
        expect(&[
            ("Woodcutter", "Yes"),
            ("Stonemason", "Yes"),
            ("Barracks", "Maybe"),
            ("WoodWalls", "Maybe"),
            ("StoneWalls", "Maybe"),
            ("Temple", "Maybe"),
        ])
    );
    assert_eq!(
        run_tree(&["Cavalry"]),
        expect(&[
            ("Cavalry", "Yes"),
            ("Blacksmith", "Yes"),
            ("FootSoldier", "Yes"),
            ("Barracks", "Yes"),
            ("Woodcutter", "Yes"),
            ("WoodWalls", "Maybe"),
        ])
    );
    assert_eq!(
        run_tree(&["Fletcher", "FootSoldier"]),
        expect(&[("Fletcher", "Yes"), ("FootSoldier", "Yes"), ("Archer", "Maybe"), ("Longbowman", "Maybe")])
    );
    assert_eq!(run_tree(&["StoneWalls"]), expect(&[("StoneWalls", "Yes"), ("Stonemason", "Yes")]));
}

#[test]
fn no_rule_fires_twice_on_the_same_facts() {
    let rs = RuleSet::from_toml(TECH_TREE).unwrap();
    let (mut wm, mut st) = rs.memory();
    let mut rng = WorldRng::new(1);
    rs.assert(&mut wm, "Priest", "Yes").unwrap();
    let first: Vec<_> = rs.run(&mut wm, &mut st, &mut rng, 100).iter().map(|f| f.rule.to_owned()).collect();
    assert_eq!(first, ["priest", "blacksmith_maybe", "woodwalls_maybe", "stonewalls_maybe"]);
    // Running again with nothing new fires nothing; a scout's new report fires only what it enables.
    assert!(rs.run(&mut wm, &mut st, &mut rng, 100).is_empty());
    rs.assert(&mut wm, "StoneWalls", "Yes").unwrap();
    let second: Vec<_> = rs.run(&mut wm, &mut st, &mut rng, 100).iter().map(|f| f.rule.to_owned()).collect();
    assert_eq!(second, ["stonewalls"]);
    assert_eq!(rs.value(&wm, "Stonemason"), Some(&Value::from("Yes")));
}

#[test]
fn incremental_and_naive_chaining_agree() {
    let rs = RuleSet::from_toml(TECH_TREE).unwrap();
    let all = ["Peasants", "Priest", "Longbowman", "Cavalry", "Fletcher", "FootSoldier", "StoneWalls", "Woodcutter"];
    // Every subset of up to three observations, both orders of strategy-first chaining.
    for i in 0..all.len() {
        for j in i..all.len() {
            for k in j..all.len() {
                let (mut w1, mut s1) = rs.memory();
                let (mut w2, mut s2) = rs.memory();
                for f in [all[i], all[j], all[k]] {
                    rs.assert(&mut w1, f, "Yes").unwrap();
                    rs.assert(&mut w2, f, "Yes").unwrap();
                }
                let a: Vec<_> = rs.run(&mut w1, &mut s1, &mut WorldRng::new(1), 100).iter().map(|f| f.rule).collect();
                let b: Vec<_> =
                    rs.run_naive(&mut w2, &mut s2, &mut WorldRng::new(1), 100).iter().map(|f| f.rule).collect();
                assert_eq!(a, b);
                assert_eq!(w1.values(), w2.values());
            }
        }
    }
}

#[test]
fn weight_and_random_strategies() {
    let text = r#"
strategy = "weight"
[[rules]]
name = "light"
when = "seen"
then = { guess = "light" }
weight = 1
[[rules]]
name = "heavy"
when = "seen"
then = { guess = "heavy" }
weight = 5
emit = ["alarm"]
"#;
    let rs = RuleSet::from_toml(text).unwrap();
    let (mut wm, mut st) = rs.memory();
    rs.assert(&mut wm, "seen", true).unwrap();
    let fired = rs.run(&mut wm, &mut st, &mut WorldRng::new(1), 1);
    assert_eq!(fired[0].rule, "heavy");
    assert_eq!(fired[0].emit, ["alarm"]);
    let random = RuleSet::from_toml(&text.replace("\"weight\"", "\"random\"")).unwrap();
    let mut heavy_first = 0;
    for seed in 0..200 {
        let (mut wm, mut st) = random.memory();
        random.assert(&mut wm, "seen", true).unwrap();
        heavy_first += usize::from(random.run(&mut wm, &mut st, &mut WorldRng::new(seed), 1)[0].rule == "heavy");
    }
    assert!((70..130).contains(&heavy_first), "{heavy_first}");
}

#[test]
fn backward_chaining_explains_goals() {
    let rs = RuleSet::from_toml(&format!("{TECH_TREE}{CAVALRY_RULE}")).unwrap();
    let (mut wm, _) = rs.memory();
    // Cavalry = Yes needs a blacksmith (Ex. 11-5); with none seen, the blacksmith is what is missing.
    let p = rs.prove(&wm, "Cavalry", "Yes").unwrap();
    assert!(!p.proven);
    assert_eq!(p.missing, [("Blacksmith".to_owned(), Value::from("Yes"))]);
    rs.assert(&mut wm, "Blacksmith", "Yes").unwrap();
    let p = rs.prove(&wm, "Cavalry", "Yes").unwrap();
    assert!(p.proven);
    assert_eq!(p.rules, ["blacksmith_cavalry"]);
    // A chain: Blacksmith = Maybe follows from Barracks = Yes, which follows from a seen priest.
    let (mut wm, _) = rs.memory();
    rs.assert(&mut wm, "Priest", "Yes").unwrap();
    let p = rs.prove(&wm, "Blacksmith", "Maybe").unwrap();
    assert!(p.proven);
    assert_eq!(p.rules, ["priest", "blacksmith_maybe"]);
    assert!(p.known.contains(&("Priest".to_owned(), Value::from("Yes"))));
    assert!(matches!(rs.prove(&wm, "Dragon", "Yes"), Err(DecideError::Unknown { .. })));
}

#[test]
fn strike_predictor_trace_we11() {
    let mut p = StrikePredictor::new();
    let mut rng = WorldRng::new(4);
    use Strike::{HighKick as H, Punch as P};
    let moves = [P, P, H, P, P, H, P, P, H, P, P, H];
    let expected =
        [None, None, Some(P), Some(P), Some(P), Some(P), Some(P), Some(H), Some(P), Some(P), Some(H), Some(P)];
    for (m, e) in moves.into_iter().zip(expected) {
        assert_eq!(p.process(m, &mut rng), e, "after {m:?}");
    }
    assert_eq!((p.n, p.successes), (10, 8));
    let weights: Vec<(usize, i32)> =
        p.rules.iter().enumerate().filter(|(_, r)| r.weight != 0).map(|(i, r)| (i, r.weight)).collect();
    assert_eq!(weights, [(0, -1), (2, 3), (6, 3), (18, 3)]);
    assert_eq!(Strike::parse("H"), Some(H));
}

#[test]
fn strike_predictor_beats_guessing_on_a_combo_player() {
    // A player who favours one combo 80% of the time and strikes at random otherwise.
    let mut p = StrikePredictor::new();
    let mut rng = WorldRng::new(77);
    let combo = [Strike::LowKick, Strike::LowKick, Strike::HighKick];
    for i in 0..3000 {
        let s = if rng.chance(0.8) { combo[i % 3] } else { Strike::ALL[rng.below(3)] };
        p.process(s, &mut rng);
    }
    let (rules, random) = p.success_rates();
    assert!(rules > 0.6 && random < 0.4, "rules {rules} random {random}");
}

#[test]
fn bad_rule_bases_are_typed_errors() {
    let dup = "[[rules]]\nname = \"a\"\nwhen = \"x\"\n[[rules]]\nname = \"a\"\nwhen = \"y\"\n";
    assert!(matches!(RuleSet::from_toml(dup), Err(DecideError::Duplicate { .. })));
    assert!(matches!(
        RuleSet::from_toml("[[rules]]\nname = \"a\"\nwhen = \"x ==\"\n"),
        Err(DecideError::Expression { .. })
    ));
    assert!(matches!(RuleSet::from_toml("strategy = \"best\"\nrules = []\n"), Err(DecideError::Parse { line: 1, .. })));
}

#[test]
fn rules_are_driven_with_plain_values() {
    let rs = RuleSet::from_toml(TECH_TREE).unwrap();
    let (mut wm, mut st) = rs.memory();
    let facts = crate::value::Table::from([("Peasants".to_owned(), Value::from("Yes"))]);
    let Value::Map(out) = rs.run_value(&mut wm, &mut st, &facts, &mut WorldRng::new(1)).unwrap() else { panic!("map") };
    assert_eq!(out["fired"], Value::List(vec![Value::from("woodcutter_maybe"), Value::from("stonemason_maybe")]));
    let Value::Map(f) = &out["facts"] else { panic!("facts") };
    assert_eq!(f["Woodcutter"], Value::from("Maybe"));
    let bad = crate::value::Table::from([("Dragons".to_owned(), Value::from("Yes"))]);
    assert!(matches!(rs.run_value(&mut wm, &mut st, &bad, &mut WorldRng::new(1)), Err(DecideError::Unknown { .. })));
}

mod agree {
    use proptest::prelude::{Just, prop, prop_assert_eq, prop_oneof, proptest};

    use super::*;

    const OBSERVED: [&str; 8] =
        ["Peasants", "Priest", "Longbowman", "Cavalry", "Fletcher", "FootSoldier", "StoneWalls", "Woodcutter"];
    const ANSWERS: [&str; 3] = ["Yes", "No", "Maybe"];

    proptest! {
        /// Incremental matching is an optimisation of the one cycle (`agenda::forward_chain`,
        /// which `run_naive` drives): for any strategy and any series of scout reports, with
        /// chaining between them, both give the same firings and the same memory.
        #[test]
        fn incremental_and_shared_cycle_agree(
            strategy in prop_oneof![Just(Strategy::First), Just(Strategy::Weight), Just(Strategy::Random)],
            seed in 0u64..1000,
            batches in prop::collection::vec(prop::collection::vec((0..OBSERVED.len(), 0..ANSWERS.len()), 0..4), 1..4),
        ) {
            let mut spec: RuleSpec = toml::from_str(TECH_TREE).unwrap();
            spec.strategy = strategy;
            for (i, r) in spec.rules.iter_mut().enumerate() {
                r.weight = (i * 7 % 5) as f64;
            }
            let rs = RuleSet::new(&spec).unwrap();
            let (mut w1, mut s1) = rs.memory();
            let (mut w2, mut s2) = rs.memory();
            let (mut r1, mut r2) = (WorldRng::new(seed), WorldRng::new(seed));
            for batch in batches {
                for (f, a) in batch {
                    rs.assert(&mut w1, OBSERVED[f], ANSWERS[a]).unwrap();
                    rs.assert(&mut w2, OBSERVED[f], ANSWERS[a]).unwrap();
                }
                let a: Vec<_> = rs.run(&mut w1, &mut s1, &mut r1, 1000).iter().map(|f| f.rule).collect();
                let b: Vec<_> = rs.run_naive(&mut w2, &mut s2, &mut r2, 1000).iter().map(|f| f.rule).collect();
                prop_assert_eq!(a, b);
                prop_assert_eq!(w1.values(), w2.values());
            }
        }
    }
}

/// A chain f0 ← f1 ← … ← f(n), each link `f(i+1) == Yes` concluding `f(i) = Yes`.
fn chain(n: usize) -> RuleSet {
    use crate::decide::expr::Expr;
    let rules = (0..n)
        .map(|i| ParsedRule {
            name: format!("link{i}"),
            when: Expr::parse(&format!("f{} == Yes", i + 1)).unwrap(),
            then: vec![(format!("f{i}"), Value::from("Yes"))],
            emit: Vec::new(),
            weight: 0.0,
        })
        .collect();
    RuleSet::from_parsed(Value::Nil, Strategy::First, rules).unwrap()
}

#[test]
fn prove_within_cuts_deep_chains() {
    let rs = chain(9);
    let (mut wm, _) = rs.memory();
    rs.assert(&mut wm, "f9", "yes").unwrap();
    // Nine levels of rules are needed: eight is too few, and the cut-off is not "missing".
    let p = rs.prove_within(&wm, "f0", "Yes", 8).unwrap();
    assert!(!p.proven && p.rules.is_empty());
    let p = rs.prove_within(&wm, "f0", "Yes", 9).unwrap();
    assert!(p.proven, "`yes` equals `Yes`: designer equality");
    assert_eq!(p.rules.first().map(String::as_str), Some("link8"), "prerequisites first");
    assert_eq!(p.rules.last().map(String::as_str), Some("link0"));
}

#[test]
fn prove_has_a_default_depth_so_a_long_chain_does_not_overflow() {
    let n = PROVE_DEPTH as usize + 50;
    let rs = chain(n);
    let (mut wm, _) = rs.memory();
    rs.assert(&mut wm, &format!("f{n}"), "Yes").unwrap();
    assert!(!rs.prove(&wm, "f0", "Yes").unwrap().proven, "deeper than the cap");
    assert!(rs.prove(&wm, &format!("f{}", n - 10), "Yes").unwrap().proven);
}
