//! `.tac` rule systems run on the engine's rule engine: the book's tech tree written as a `.tac`
//! rule system fires the same rules, in the same order, to the same facts as the tech tree's rule
//! file run by `decide::rules::RuleSet`, from every starting observation; and `prove` gives the
//! engine's proof.

mod common;

use common::Harness;
use glam::IVec2;
use tactica_engine::Value;
use tactica_engine::decide::rules::{CAVALRY_RULE, RuleSet, RuleSpec, Strategy, TECH_TREE};
use tactica_engine::world::WorldRng;
use tactica_script::{ScriptKind, Trigger};

/// The rule file as a `.tac` rule system: the same rules, conditions and assignments.
fn as_tac(spec: &RuleSpec) -> String {
    let mut facts: Vec<String> = Vec::new();
    for r in &spec.rules {
        for word in r.when.split_whitespace().chain(r.then.keys().map(String::as_str)) {
            if word.chars().next().is_some_and(char::is_uppercase)
                && !["Yes", "Unknown", "Maybe", "No"].contains(&word)
                && !facts.iter().any(|f| f == word)
            {
                facts.push(word.to_owned());
            }
        }
    }
    assert_eq!(spec.strategy, Strategy::First);
    let mut src = String::from("rules Tech {\n  strategy first;\n");
    for f in &facts {
        src.push_str(&format!("  fact {f} = Unknown;\n"));
    }
    for r in &spec.rules {
        let then: Vec<String> = r.then.iter().map(|(k, v)| format!("{k} = {};", v.as_str().unwrap())).collect();
        src.push_str(&format!("  rule {} when {} then begin {} end\n", r.name, r.when, then.join(" ")));
    }
    src.push_str("}\n");
    src
}

#[test]
fn the_tech_tree_fires_alike_in_tac_and_in_a_rule_file() {
    let spec: RuleSpec = toml::from_str(TECH_TREE).unwrap();
    let tac = as_tac(&spec);
    let observations: [&[&str]; 6] =
        [&["Peasants"], &["Priest"], &["Longbowman"], &["Cavalry"], &["StoneWalls", "Peasants"], &[]];
    for seen in observations {
        let rs = RuleSet::new(&spec).unwrap();
        let (mut wm, mut st) = rs.memory();
        for f in seen {
            rs.assert(&mut wm, f, "Yes").unwrap();
        }
        let firings: Vec<String> =
            rs.run(&mut wm, &mut st, &mut WorldRng::new(1), 100).iter().map(|f| f.rule.to_owned()).collect();

        let mut h = Harness::new(&tac, ScriptKind::Behaviour, "steward", IVec2::ZERO, IVec2::ONE, IVec2::splat(8));
        h.fire(Trigger::Encounter, None); // the facts take their initial values
        for f in seen {
            assert!(h.inst.set_fact(&h.script, f, Value::from("Yes")));
        }
        let report = h.fire(Trigger::Think, None);
        assert_eq!(report.fired_rules, firings, "after seeing {seen:?}");
        for (fact, value) in rs.to_table(&wm) {
            assert_eq!(h.inst.fact(&h.script, &fact), Some(&value), "{fact} after seeing {seen:?}");
        }
    }
}

#[test]
fn prove_is_the_engine_proof() {
    let spec: RuleSpec = toml::from_str(&format!("{TECH_TREE}{CAVALRY_RULE}")).unwrap();
    let rs = RuleSet::new(&spec).unwrap();
    let (mut wm, _) = rs.memory();
    rs.assert(&mut wm, "Woodcutter", "Yes").unwrap();
    rs.assert(&mut wm, "Barracks", "Yes").unwrap();
    rs.assert(&mut wm, "Blacksmith", "Yes").unwrap();
    let proof = rs.prove(&wm, "Cavalry", "Yes").unwrap();

    let tac = as_tac(&spec);
    let mut h = Harness::new(&tac, ScriptKind::Behaviour, "steward", IVec2::ZERO, IVec2::ONE, IVec2::splat(8));
    h.fire(Trigger::Encounter, None);
    for f in ["Woodcutter", "Barracks", "Blacksmith"] {
        h.inst.set_fact(&h.script, f, Value::from("Yes"));
    }
    let fact = h.script.fact_id("Cavalry").unwrap();
    let chain = tactica_script::prove(&h.script, &h.inst, fact, &Value::from("yes"), 32);
    assert!(proof.proven);
    assert_eq!(chain, Some(proof.rules), "the same rules, in firing order; `yes` is `Yes`");
}
