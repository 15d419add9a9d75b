//! Learning tests: the chase/flock/evade network converging from a seed, the worked NN numbers,
//! the flower garden and the creature population.

use super::*;
use crate::world::WorldRng;

fn training_rows() -> Vec<Vec<f64>> {
    CHASE_FLOCK_EVADE.iter().map(|r| r.to_vec()).collect()
}

#[test]
fn chapter_network_trains_to_005_within_50000_epochs() {
    // 4-3-3, ρ = 0.2, momentum 0.9 (S2:7928–7931), seeded.
    let mut net = NeuralNetwork::new(4, 3, 3, &mut WorldRng::new(14));
    net.learning_rate = 0.2;
    net.momentum = Some(0.9);
    let report = net.train(&training_rows(), 0.05, 50_000);
    assert!(report.error <= 0.05, "{report:?}");
    assert!(report.epochs < 50_000);
    eprintln!("chase/flock/evade network: error {:.4} after {} epochs", report.error, report.epochs);
    // Trained, it picks the intended behaviour for every row with one. Left out: rows 1 and 9
    // and rows 5 and 13 share inputs but disagree (as printed), rows 3 and 10 activate nothing.
    for (r, row) in CHASE_FLOCK_EVADE.iter().enumerate() {
        if [0, 8, 4, 12, 2, 9].contains(&r) {
            continue;
        }
        net.run(&row[..4]);
        let wanted = (0..3).find(|&k| row[4 + k] > 0.5).unwrap();
        assert_eq!(net.max_output_id(), wanted, "row {}", r + 1);
    }
    // The same seed gives the same network.
    let mut again = NeuralNetwork::new(4, 3, 3, &mut WorldRng::new(14));
    again.learning_rate = 0.2;
    again.momentum = Some(0.9);
    assert_eq!(again.train(&training_rows(), 0.05, 50_000), report);
}

#[test]
fn worked_numbers_with_zero_weights() {
    let mut net = NeuralNetwork::new(4, 3, 3, &mut WorldRng::new(1));
    net.fill_weights(0.0);
    net.set_inputs(&[0.0, 1.0, 0.0, 0.2]);
    for (k, d) in [0.9, 0.1, 0.1].into_iter().enumerate() {
        net.set_desired(k, d);
    }
    net.feed_forward();
    assert_eq!(net.outputs(), [0.5, 0.5, 0.5]);
    assert!((net.error() - 0.16).abs() < 1e-12);
    net.back_propagate();
    let e = net.output_errors();
    assert!((e[0] - 0.1).abs() < 1e-12 && (e[1] + 0.1).abs() < 1e-12);
    assert_eq!(net.output(3), None);
    net.set_input(99, 1.0); // ignored, as in the book
    assert_eq!(net.max_output_id(), 0);
}

#[test]
fn momentum_adds_the_previous_plain_change() {
    // A 1-1-1 network from zero weights, input 1, target 0.9, ρ = 0.5, twice.
    let mut with = NeuralNetwork::new(1, 1, 1, &mut WorldRng::new(3));
    with.fill_weights(0.0);
    with.learning_rate = 0.5;
    let mut without = with.clone();
    with.momentum = Some(0.9);
    let step = |n: &mut NeuralNetwork| {
        n.set_inputs(&[1.0]);
        n.set_desired(0, 0.9);
        n.feed_forward();
        n.back_propagate();
    };
    step(&mut with);
    step(&mut without);
    // Step 1: h = o = 0.5, δo = 0.1, Δw = 0.5·0.1·0.5 = 0.025; the bias weight moves by 0.5·0.1·(−1).
    assert!((with.weights().1[0] - 0.025).abs() < 1e-12);
    assert!((with.bias_weights().1[0] + 0.05).abs() < 1e-12);
    assert_eq!(with.weights(), without.weights(), "no history yet on the first step");
    step(&mut with);
    step(&mut without);
    // Step 2: the same plain change in both, plus 0.9 × 0.025 with momentum; bias weights alike.
    assert!((with.weights().1[0] - without.weights().1[0] - 0.9 * 0.025).abs() < 1e-12);
    assert!((with.bias_weights().1[0] - without.bias_weights().1[0]).abs() < 1e-12);
    let o = 1.0 / (1.0 + (-0.0625f64).exp());
    let dw = 0.5 * (0.9 - o) * o * (1.0 - o) * 0.5;
    assert!((without.weights().1[0] - (0.025 + dw)).abs() < 1e-12);
    assert!(with.dump().starts_with("-----\nInput Layer\n-----\nNode Values:\n(0) = 1.000000\n"));
}

#[test]
fn garden_fitness_and_evolution() {
    let mut g = Garden {
        flowers: vec![[10, 20, 30, 40, 50, 60], [15, 20, 25, 40, 55, 60]],
        current: [15, 20, 25, 40, 55, 60],
        mutation_percent: 1,
    };
    assert_eq!(g.fitness(0), 15);
    assert_eq!(g.fitness(1), 0);
    let mut rng = WorldRng::new(99);
    g = Garden::new(10, &mut rng);
    assert!(g.flowers.iter().flatten().all(|v| (1..=75).contains(v)));
    let start = g.mean_fitness();
    let mut replay = g.clone();
    let mut rng2 = rng.clone();
    for _ in 0..300 {
        g.evolve(&mut rng);
        replay.evolve(&mut rng2);
    }
    assert_eq!(g, replay, "same seed, same garden");
    assert!(g.mean_fitness() < start * 0.6, "{start} → {}", g.mean_fitness());
}

/// The creature example's legal responses: retreat 0, hide 1, metal 2, magic armour 3,
/// leather 4, blade 5, blunt 6, magic attack 7 (S2:8585–8592).
fn creature_domains() -> Vec<Vec<u8>> {
    let attack = vec![0, 1, 5, 6, 7];
    let armour = vec![0, 1, 2, 3, 4];
    vec![
        vec![],
        vec![],
        attack.clone(),
        attack.clone(),
        armour.clone(),
        armour.clone(),
        armour.clone(),
        armour,
        attack.clone(),
        attack.clone(),
        attack,
        vec![],
    ]
}

#[test]
fn creature_crossover_and_mutation_stay_legal() {
    let mut p = Population::new(creature_domains(), 4, &mut WorldRng::new(1));
    p.individuals[1].genes = vec![5; 12];
    p.individuals[2].genes = vec![0; 12];
    p.individuals[0].damage_done = 7.0;
    p.crossover(0, 1, 2);
    assert_eq!(p.individuals[0].genes, [5, 0, 5, 0, 5, 0, 5, 0, 5, 0, 5, 0]);
    assert_eq!(p.individuals[0].damage_done, 0.0);
    p.crossover(9, 0, 1); // ignored
    let mut rng = WorldRng::new(2);
    let mut fresh = Population::new(creature_domains(), 50, &mut rng);
    fresh.mutation_percent = 100;
    for i in 0..50 {
        fresh.mutate(i, &mut rng);
        for (g, d) in fresh.individuals[i].genes.iter().zip(&fresh.domains) {
            assert!(d.is_empty() && *g == 0 || d.contains(g));
        }
    }
    let c = Creature { genes: vec![], damage_done: 30.0, damage_received: 10.0 };
    assert_eq!(c.fitness(), 3.0);
}

#[test]
fn creatures_learn_to_retreat_from_magic() {
    // A player who wields magic: creatures answering magic attacks (gene 7) by retreating take
    // little damage; wearing the wrong armour hurts. Fitness = done / received.
    let mut rng = WorldRng::new(31);
    let mut p = Population::new(creature_domains(), 100, &mut rng);
    for _ in 0..40 {
        for c in &mut p.individuals {
            c.damage_done = 5.0 + f64::from(rnd(&mut rng, 0, 2));
            c.damage_received = match c.genes[7] {
                0 => 2.0,
                3 => 4.0,
                _ => 12.0,
            };
        }
        p.evolve(&mut rng);
    }
    let retreating = p.individuals.iter().filter(|c| c.genes[7] == 0).count();
    assert!(retreating > 60, "{retreating}");
}
