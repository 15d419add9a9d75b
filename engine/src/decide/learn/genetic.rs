//! Genetic algorithms (chapter 15): the flower garden that evolves toward the weather, and a
//! creature population whose chromosomes map situations to legal responses.
//!
//! `Rnd(a, b)` is inclusive in the book (1% is `Rnd(1,100)==1`); [`rnd`] is the same. The book's
//! `Encode` writes one element past its arrays and indexes flowers from 1; here flowers are
//! indexed from 0 and the population is the 10 flowers the rest of its code uses.

use serde::{Deserialize, Serialize};

use crate::world::WorldRng;

/// The book's `Rnd(a, b)`: a uniform integer in `a..=b` (`a` when the range is empty).
pub fn rnd(rng: &mut WorldRng, a: i32, b: i32) -> i32 {
    if b <= a {
        return a;
    }
    a + rng.below((b - a + 1) as usize) as i32
}

/// The six flower traits, in order: temperature, water, sunlight, nutrient, beneficial insect,
/// harmful insect.
pub const TRAITS: usize = 6;

/// The flower garden: each flower's genes are its ideal conditions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Garden {
    /// One gene vector per flower, values 1–75.
    pub flowers: Vec<[i32; TRAITS]>,
    /// The current conditions.
    pub current: [i32; TRAITS],
    /// Mutation chance per trait per generation, in percent (the book: 1).
    pub mutation_percent: i32,
}

impl Garden {
    /// `Encode`: `flowers` random flowers and random conditions, all in 1–75.
    pub fn new(flowers: usize, rng: &mut WorldRng) -> Self {
        let mut gene = || rnd(rng, 1, 75);
        let flowers = (0..flowers.max(2)).map(|_| std::array::from_fn(|_| gene())).collect();
        let current = std::array::from_fn(|_| gene());
        Garden { flowers, current, mutation_percent: 1 }
    }

    /// `Fitness`: the total absolute difference between a flower's ideal and the current
    /// conditions — lower is fitter (taller).
    pub fn fitness(&self, flower: usize) -> i32 {
        self.flowers.get(flower).map_or(i32::MAX, |f| f.iter().zip(&self.current).map(|(g, c)| (g - c).abs()).sum())
    }

    /// The mean fitness of the garden.
    pub fn mean_fitness(&self) -> f64 {
        (0..self.flowers.len()).map(|i| f64::from(self.fitness(i))).sum::<f64>() / self.flowers.len() as f64
    }

    /// `Evolve`: the least fit flower takes each trait from a random flower; every flower's
    /// traits are then redrawn from random flowers; each trait mutates with the mutation chance.
    pub fn evolve(&mut self, rng: &mut WorldRng) {
        let n = self.flowers.len();
        let least_fit = (0..n).fold(0, |worst, i| if self.fitness(i) > self.fitness(worst) { i } else { worst });
        for t in 0..TRAITS {
            let donor = rng.below(n);
            self.flowers[least_fit][t] = self.flowers[donor][t];
        }
        let mixed: Vec<[i32; TRAITS]> =
            (0..n).map(|_| std::array::from_fn(|t| self.flowers[rng.below(n)][t])).collect();
        self.flowers = mixed;
        for f in &mut self.flowers {
            for g in f.iter_mut() {
                if rnd(rng, 1, 100) <= self.mutation_percent {
                    *g = rnd(rng, 1, 75);
                }
            }
        }
    }
}

/// A creature population whose genes pick a response per situation from a legal set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Population {
    /// Per gene (situation): the legal values (responses); an empty set leaves the gene fixed at 0.
    pub domains: Vec<Vec<u8>>,
    /// The individuals.
    pub individuals: Vec<Creature>,
    /// Mutation chance per gene, in percent (the book: 5, `Rnd(1,20)==1`).
    pub mutation_percent: i32,
}

/// One creature: its chromosome and the damage tallies its fitness comes from.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Creature {
    /// One response per situation.
    pub genes: Vec<u8>,
    /// Damage it dealt.
    pub damage_done: f64,
    /// Damage it took.
    pub damage_received: f64,
}

impl Creature {
    /// `totalDamageDone / totalDamageReceived`; damage dealt unharmed counts as received 1, so
    /// the ratio stays finite.
    pub fn fitness(&self) -> f64 {
        self.damage_done / self.damage_received.max(1.0)
    }
}

impl Population {
    /// `createIndividual` for `size` creatures: each gene drawn uniformly from its legal set.
    pub fn new(domains: Vec<Vec<u8>>, size: usize, rng: &mut WorldRng) -> Self {
        let mut p = Population { domains, individuals: Vec::new(), mutation_percent: 5 };
        p.individuals = (0..size).map(|_| Creature { genes: p.random_genes(rng), ..Creature::default() }).collect();
        p
    }

    fn random_gene(&self, locus: usize, rng: &mut WorldRng) -> u8 {
        let d = &self.domains[locus];
        if d.is_empty() { 0 } else { d[rng.below(d.len())] }
    }

    fn random_genes(&self, rng: &mut WorldRng) -> Vec<u8> {
        (0..self.domains.len()).map(|l| self.random_gene(l, rng)).collect()
    }

    /// `sortFitness`: fittest first (stable, so equal creatures keep their order).
    pub fn sort_by_fitness(&mut self) {
        self.individuals.sort_by(|a, b| b.fitness().total_cmp(&a.fitness()));
    }

    /// `crossover(i, j, k)`: child `i` takes even genes from `j`, odd genes from `k`, and starts
    /// with zero tallies. Out-of-range indices do nothing.
    pub fn crossover(&mut self, i: usize, j: usize, k: usize) {
        let n = self.individuals.len();
        if i >= n || j >= n || k >= n {
            return;
        }
        let genes = (0..self.domains.len())
            .map(|g| if g % 2 == 0 { self.individuals[j].genes[g] } else { self.individuals[k].genes[g] })
            .collect();
        self.individuals[i] = Creature { genes, ..Creature::default() };
    }

    /// `randomMutation(i)`: each gene redrawn from its legal set with the mutation chance.
    pub fn mutate(&mut self, i: usize, rng: &mut WorldRng) {
        for g in 0..self.domains.len() {
            if rnd(rng, 1, 100) <= self.mutation_percent {
                let v = self.random_gene(g, rng);
                if let Some(c) = self.individuals.get_mut(i) {
                    c.genes[g] = v;
                }
            }
        }
    }

    /// One generation: rank, then replace the less fit half by crossovers of random parents from
    /// the fitter half, mutating the children; every tally restarts. (The book leaves the
    /// replacement schedule open.)
    pub fn evolve(&mut self, rng: &mut WorldRng) {
        self.sort_by_fitness();
        let n = self.individuals.len();
        let half = n.div_ceil(2).max(1);
        for i in half..n {
            let (j, k) = (rng.below(half), rng.below(half));
            self.crossover(i, j, k);
            self.mutate(i, rng);
        }
        for c in &mut self.individuals {
            c.damage_done = 0.0;
            c.damage_received = 0.0;
        }
    }
}
