//! Bayesian tests: the locker examples (WE-22, WE-23), air/land attack with what-if (WE-24),
//! the kung-fu predictor (WE-25), the chapter 12 helpers, enumeration vs elimination.

use super::*;
use crate::decide::DecideError;
use crate::world::WorldRng;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

const LOCKER: &str = r#"
[[nodes]]
name = "Trapped"
table = [[0.78, 0.22]]
[[nodes]]
name = "Locked"
parents = ["Trapped"]
table = [[0.78, 0.22], [0.29, 0.71]]
"#;

#[test]
fn trapped_locker_we22_from_counts() {
    // 100 lockers: 37 trapped (29 locked), 63 untrapped (18 locked) — learned by counting.
    let mut net = Network::from_toml(LOCKER).unwrap();
    let mut counters = net.counters();
    let mut add = |t: usize, l: usize, n: usize| {
        for _ in 0..n {
            net.count(&mut counters, &[t, l]).unwrap();
        }
    };
    add(0, 0, 29);
    add(0, 1, 8);
    add(1, 0, 18);
    add(1, 1, 45);
    net.learn(&counters);
    let (t, l) = (net.node("Trapped").unwrap(), net.node("Locked").unwrap());
    assert!(close(net.posterior(t, &[]).unwrap()[0], 0.37, 1e-12));
    let locked = net.posterior(t, &[(l, 0)]).unwrap()[0];
    assert!(close(locked, 0.61, 0.01), "{locked}");
    assert!(close(locked, 29.0 / 47.0, 1e-12));
    let unlocked = net.posterior(t, &[(l, 1)]).unwrap()[0];
    assert!(close(unlocked, 0.15, 0.01), "{unlocked}");
    assert!(close(unlocked, 8.0 / 53.0, 1e-12));
}

#[test]
fn trapped_locker_we22_with_the_books_rounded_inputs() {
    let net = Network::from_toml(&LOCKER.replacen("[[0.78, 0.22]]", "[[0.37, 0.63]]", 1)).unwrap();
    let (t, l) = (0, 1);
    assert!(close(net.posterior(t, &[(l, 0)]).unwrap()[0], 0.61235, 1e-4));
    assert!(close(net.probability(&[(l, 0)]).unwrap(), 0.4713, 1e-4));
    // The book divides by P(~L) rounded to 0.53 (giving 0.15358); unrounded it is 0.0814 / 0.5287.
    let unlocked = net.posterior(t, &[(l, 1)]).unwrap()[0];
    assert!(close(unlocked, 0.15, 0.01) && close(unlocked, 0.0814 / 0.5287, 1e-9), "{unlocked}");
}

#[test]
fn treasure_chain_we23() {
    let net = Network::from_toml(
        r#"
[[nodes]]
name = "Treasure"
table = [[0.5, 0.5]]
[[nodes]]
name = "Trapped"
parents = ["Treasure"]
table = [[0.8, 0.2], [0.4, 0.6]]
[[nodes]]
name = "Locked"
parents = ["Trapped"]
table = [[0.7, 0.3], [0.3, 0.7]]
"#,
    )
    .unwrap();
    let (tr, t, l) = (0, 1, 2);
    assert!(close(net.posterior(t, &[]).unwrap()[0], 0.6, 1e-12));
    assert!(close(net.probability(&[(l, 0)]).unwrap(), 0.54, 1e-12));
    assert!(close(net.posterior(t, &[(l, 0)]).unwrap()[0], 0.77778, 1e-5));
    assert!(close(net.posterior(l, &[(tr, 0)]).unwrap()[0], 0.62, 1e-12));
    assert!(close(net.posterior(tr, &[(l, 0)]).unwrap()[0], 0.57407, 1e-5));
    // Blocking: once Trapped is known, Locked says nothing more about Treasure.
    let a = net.posterior(tr, &[(t, 0)]).unwrap()[0];
    let b = net.posterior(tr, &[(t, 0), (l, 0)]).unwrap()[0];
    assert!(close(a, b, 1e-12));
}

const AIR_LAND: &str = r#"
[[nodes]]
name = "Air"
table = [[0.6, 0.4]]
[[nodes]]
name = "Land"
table = [[0.4, 0.6]]
[[nodes]]
name = "PlayerWins"
parents = ["Air", "Land"]
table = [[0.167, 0.833], [0.5, 0.5], [0.33, 0.67], [0.0, 1.0]]
"#;

#[test]
fn air_land_attack_we24_and_what_if() {
    let net = Network::from_toml(AIR_LAND).unwrap();
    let (a, l, w) = (0, 1, 2);
    // Table 13-8: the joint P(A, L, Pw) per row, their sum, and the normalised column.
    let joint = net.joint_table(&[a, l], &[(w, 0)]).unwrap();
    for (got, want) in joint.iter().zip([0.04008, 0.18, 0.0528, 0.0]) {
        assert!(close(*got, want, 1e-9), "{joint:?}");
    }
    let total: f64 = joint.iter().sum();
    assert!(close(total, 0.27288, 1e-9) && close(total, 0.27, 0.01));
    let norm = normalise(joint);
    for (got, printed) in norm.iter().zip([0.15, 0.66, 0.2, 0.0]) {
        assert!(close(*got, printed, 0.01), "{norm:?}");
    }
    // Table 13-9: what if the player attacks by air for sure.
    let air = net.clamped(a, &[1.0, 0.0]).unwrap();
    let joint = air.joint_table(&[a, l], &[(w, 0)]).unwrap();
    assert!(close(joint[0], 0.0668, 1e-9) && close(joint[1], 0.3, 1e-9));
    assert!(close(joint.iter().sum::<f64>(), 0.3668, 1e-9));
    let norm = normalise(joint);
    assert!(close(norm[0], 0.1821, 1e-4) && close(norm[1], 0.8179, 1e-4));
    assert!(matches!(net.clamped(a, &[0.5, 0.6]), Err(DecideError::Invalid { .. })));
}

#[test]
fn explaining_away_in_a_common_effect_network() {
    let net = Network::from_toml(
        r#"
[[nodes]]
name = "Rain"
table = [[0.2, 0.8]]
[[nodes]]
name = "Sprinkler"
table = [[0.3, 0.7]]
[[nodes]]
name = "WetLawn"
parents = ["Rain", "Sprinkler"]
table = [[0.99, 0.01], [0.9, 0.1], [0.8, 0.2], [0.05, 0.95]]
"#,
    )
    .unwrap();
    let rain_given_wet = net.posterior(0, &[(2, 0)]).unwrap()[0];
    let rain_given_wet_and_sprinkler = net.posterior(0, &[(2, 0), (1, 0)]).unwrap()[0];
    assert!(rain_given_wet > 0.2, "wet lawn raises belief in rain");
    assert!(rain_given_wet_and_sprinkler < rain_given_wet, "the sprinkler explains it away");
}

#[test]
fn elimination_matches_enumeration_on_random_networks() {
    let mut rng = WorldRng::new(2024);
    for _ in 0..20 {
        // Six nodes with up to two earlier parents and 2-3 states each.
        let mut text = String::new();
        let mut cards = Vec::new();
        for i in 0..6 {
            let k = 2 + rng.below(2);
            let parents: Vec<usize> = (0..i).filter(|_| rng.chance(0.4)).take(2).collect();
            let rows: usize = parents.iter().map(|&p| cards[p]).product();
            let states: Vec<String> = (0..k).map(|s| format!("\"s{s}\"")).collect();
            let names: Vec<String> = parents.iter().map(|p| format!("\"n{p}\"")).collect();
            let table: Vec<String> = (0..rows)
                .map(|_| {
                    let raw: Vec<f64> = (0..k).map(|_| rng.range(0.01, 1.0)).collect();
                    let s: f64 = raw.iter().sum();
                    format!("[{}]", raw.iter().map(|x| format!("{}", x / s)).collect::<Vec<_>>().join(", "))
                })
                .collect();
            text.push_str(&format!(
                "[[nodes]]\nname = \"n{i}\"\nstates = [{}]\nparents = [{}]\ntable = [{}]\n",
                states.join(", "),
                names.join(", "),
                table.join(", ")
            ));
            cards.push(k);
        }
        let net = Network::from_toml(&text).unwrap();
        let evidence = [(5, rng.below(cards[5])), (2, rng.below(cards[2]))];
        for q in [0, 1, 3, 4] {
            let ve = net.posterior(q, &evidence).unwrap();
            let en = net.posterior_enumeration(q, &evidence).unwrap();
            for (x, y) in ve.iter().zip(&en) {
                assert!(close(*x, *y, 1e-9), "{ve:?} vs {en:?}");
            }
        }
        let pair = net.joint_table(&[1, 3], &evidence[..1]).unwrap();
        let pair_en = net.joint_table_enumeration(&[1, 3], &evidence[..1]).unwrap();
        assert!(pair.iter().zip(&pair_en).all(|(x, y)| close(*x, *y, 1e-9)));
    }
}

#[test]
fn query_with_plain_values_and_bad_networks() {
    let net = Network::from_toml(AIR_LAND).unwrap();
    let ev = crate::value::Table::from([("PlayerWins".to_owned(), crate::Value::from("true"))]);
    let crate::Value::Map(m) = net.query_value("Air", &ev).unwrap() else { panic!("not a map") };
    assert!(close(m["true"].as_f64().unwrap(), 0.8065, 1e-3));
    assert!(matches!(net.query_value("Sea", &ev), Err(DecideError::Unknown { .. })));
    let bad_sum = "[[nodes]]\nname = \"a\"\ntable = [[0.5, 0.6]]\n";
    assert!(matches!(Network::from_toml(bad_sum), Err(DecideError::Invalid { .. })));
    let bad_shape = "[[nodes]]\nname = \"a\"\ntable = [[0.5, 0.5], [0.5, 0.5]]\n";
    assert!(matches!(Network::from_toml(bad_shape), Err(DecideError::Invalid { .. })));
    let bad_parent = "[[nodes]]\nname = \"a\"\nparents = [\"b\"]\ntable = [[0.5, 0.5]]\n";
    assert!(matches!(Network::from_toml(bad_parent), Err(DecideError::Unknown { .. })));
    // Counts rows with no data become uniform; impossible evidence never gives NaN.
    let counted = Network::from_toml("[[nodes]]\nname = \"a\"\ncounts = [[0, 0]]\n").unwrap();
    assert_eq!(counted.posterior(0, &[]).unwrap(), vec![0.5, 0.5]);
    let never = Network::from_toml(AIR_LAND).unwrap();
    let p = never.posterior(0, &[(2, 0), (0, 1), (1, 1)]).unwrap();
    assert!(p.iter().all(|x| x.is_finite()));
}

#[test]
fn kung_fu_predictor_we25() {
    let mut p = FrequencyPredictor::new(3, 2);
    let mut rng = WorldRng::new(5);
    let (pu, hk) = (0, 2);
    let moves = [pu, pu, hk, pu, pu, hk, pu, pu, hk, pu, pu, hk];
    // Deterministic predictions from the derived trace; `None` marks a random draw.
    let expected =
        [Some(pu), Some(pu), None, None, Some(pu), Some(pu), Some(pu), None, Some(pu), Some(pu), Some(hk), Some(pu)];
    for (i, (m, e)) in moves.into_iter().zip(expected).enumerate() {
        let got = p.process(m, &mut rng).unwrap();
        match e {
            Some(s) => assert_eq!((got.symbol, got.random), (s, false), "move {}", i + 1),
            None => assert!(got.random, "move {}", i + 1),
        }
    }
    assert_eq!(p.history_counts(), [6, 0, 3, 0, 0, 0, 3, 0, 0]);
    assert_eq!(p.follower_counts(0), [2, 0, 4]);
    assert_eq!(p.follower_counts(2), [3, 0, 0]);
    assert_eq!(p.follower_counts(6), [3, 0, 0]);
    assert_eq!(p.n, 12);
    assert!(p.successes >= 7);
    assert!(p.process(9, &mut rng).is_none());
}

#[test]
fn chapter_12_helpers() {
    // WE-12: 0-24 left, 25-74 back, 75-99 right.
    let w = [25.0, 50.0, 25.0];
    assert_eq!(pick_cumulative(&w, 24.0), Some(0));
    assert_eq!(pick_cumulative(&w, 25.0), Some(1));
    assert_eq!(pick_cumulative(&w, 74.0), Some(1));
    assert_eq!(pick_cumulative(&w, 75.0), Some(2));
    assert_eq!(pick_cumulative(&w, 100.0), None);
    // WE-15: a 10-slot lottery for attack 0.5, flee 0.2, hide 0.1.
    assert_eq!(lottery(&[0.5, 0.2, 0.1], 10), [0, 0, 0, 0, 0, 1, 1, 2]);
    // WE-16: two dice summing to 7.
    let sevens = (1..=6).flat_map(|a| (1..=6).map(move |b| a + b)).filter(|s| *s == 7).count();
    assert!(close(sevens as f64 / 36.0, 1.0 / 6.0, 1e-12));
    // WE-18: odds.
    assert!(close(odds_to_probability(9.0, 1.0), 0.9, 1e-12));
    assert!(close(probability_to_odds(0.6), 1.5, 1e-12));
    // WE-19: the inn, 7.12 (printed 7.1).
    let inn = [
        (0.0, 0.02),
        (2.0, 0.08),
        (4.0, 0.20),
        (6.0, 0.24),
        (8.0, 0.17),
        (10.0, 0.13),
        (12.0, 0.10),
        (14.0, 0.05),
        (16.0, 0.01),
    ];
    assert!(close(expectation(&inn), 7.12, 1e-9));
    assert!(close(expectation(&[(100.0, 0.12)]), 12.0, 1e-12));
    // WE-20: a 9:1 bet at belief 0.8 loses a dollar.
    assert!(close(expectation(&[(1.0, 0.8), (-9.0, 0.2)]), -1.0, 1e-12));
    // Rule 5 and the corrected three-event inclusion–exclusion (independent events, 0.5 each).
    assert!(close(union2(0.5, 0.5, 0.25), 0.75, 1e-12));
    assert!(close(union3(0.5, 0.5, 0.5, 0.25, 0.25, 0.25, 0.125), 0.875, 1e-12));
    assert!(close(bayes(0.37, 0.78, 0.4713), 0.61235, 1e-4));
    assert_eq!(bayes(0.5, 0.5, 0.0), 0.0);
    // Weighted picks follow the weights.
    let mut rng = WorldRng::new(8);
    let hits = (0..6000).filter(|_| pick_weighted(&[5.0, 1.0], &mut rng) == Some(0)).count();
    assert!(close(hits as f64 / 6000.0, 5.0 / 6.0, 0.02));
    assert_eq!(pick_weighted(&[0.0, 0.0], &mut rng), None);
    // Adaptation: avoid the class that kills.
    let mut stats = EncounterStats::default();
    for i in 0..10 {
        stats.record("mage", i < 7);
        stats.record("fighter", i < 2);
    }
    assert!(stats.avoid("mage", 0.5) && !stats.avoid("fighter", 0.5) && !stats.avoid("thief", 0.5));
    assert_eq!(stats.death_rate("fighter"), Some(0.2));
}

#[test]
fn posterior_feeds_a_fuzzy_open_or_not_decision() {
    // L6354–6373: is 0.61 high? Fuzzify P(trapped) and health; breakpoints are ours (the book
    // gives none): trap low ≤ 0.3 … high ≥ 0.7; health low ≤ 30 … high ≥ 70.
    let sys = crate::decide::fuzzy::FuzzySystem::from_toml(
        r#"
[inputs.trap]
low = { shape = "reverse_grade", x0 = 0.3, x1 = 0.5 }
medium = { shape = "triangle", x0 = 0.3, x1 = 0.5, x2 = 0.7 }
high = { shape = "grade", x0 = 0.5, x1 = 0.7 }
[inputs.health]
low = { shape = "reverse_grade", x0 = 30, x1 = 50 }
medium = { shape = "triangle", x0 = 30, x1 = 50, x2 = 70 }
high = { shape = "grade", x0 = 50, x1 = 70 }
[outputs.open]
no = { value = 0 }
yes = { value = 1 }
[[rules]]
when = "trap is high and health is low"
then = "open is no"
[[rules]]
when = "trap is low and health is high"
then = "open is yes"
[[rules]]
when = "trap is medium and health is high"
then = "open is yes"
[[rules]]
when = "trap is medium and health is medium"
then = "open is no"
[[rules]]
when = "trap is high"
then = "open is no"
"#,
    )
    .unwrap();
    let net = Network::from_toml(&LOCKER.replacen("[[0.78, 0.22]]", "[[0.37, 0.63]]", 1)).unwrap();
    let locked = net.posterior(0, &[(1, 0)]).unwrap()[0];
    let unlocked = net.posterior(0, &[(1, 1)]).unwrap()[0];
    let decide = |p: f64, health: f64| sys.evaluate_slice(&[health, p]).strongest("open").map(str::to_owned);
    // A locked locker (P ≈ 0.61) is left alone even in good health; an unlocked one is opened.
    assert_eq!(decide(locked, 90.0).as_deref(), Some("no"));
    assert_eq!(decide(unlocked, 90.0).as_deref(), Some("yes"));
    assert_eq!(decide(unlocked, 10.0), None, "no rule covers low trap risk at low health");
}

/// A node with 64 two-state parents would have 2⁶⁴ rows: the count overflowed (a panic in debug
/// builds). It is a clear error now, whatever the file's size.
#[test]
fn a_table_too_large_to_hold_is_refused_not_overflowed() {
    let mut text = String::new();
    for i in 0..64 {
        text += &format!("[[nodes]]\nname = \"p{i}\"\ntable = [[0.5, 0.5]]\n");
    }
    let parents: Vec<String> = (0..64).map(|i| format!("\"p{i}\"")).collect();
    text += &format!("[[nodes]]\nname = \"child\"\nparents = [{}]\ntable = [[0.5, 0.5]]\n", parents.join(", "));
    let err = Network::from_toml(&text).unwrap_err();
    assert!(
        matches!(&err, DecideError::Invalid { what, message }
        if what == "table of node `child`" && message.contains("too many parents")),
        "{err}"
    );
}
