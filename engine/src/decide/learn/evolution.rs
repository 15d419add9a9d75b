//! Genetic algorithms in play: a model kind whose definition is the genome (one set of legal
//! responses per situation), the population size and the mutation rate, and a [`GeneticRun`] —
//! the population the world evolves between rounds.
//!
//! The population is one for the whole world (every character of a round plays one individual),
//! so it is world state, not per-character state: `World::genetics` keeps one run per genetic
//! model, created at load from the model's own seed, and scripts change it only through commands
//! (scores, then evolution), applied in the tick's fixed order. Its own generator makes the
//! evolution independent of every other random draw: editing a taunt does not change which
//! creatures are bred.

use serde::Deserialize;

use super::genetic::Population;
use crate::decide::{DecideError, error::from_toml};
use crate::world::WorldRng;

/// A genetic model's definition.
///
/// ```toml
/// genes = [[0, 1, 2], [0, 1], [1, 2, 3]]   # per situation, the responses a creature may have
/// size = 8                                  # individuals in the population
/// mutation_percent = 5                      # chance per gene that a child's gene is redrawn
/// seed = 1                                  # the population's own generator
/// ```
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneticSpec {
    /// Per gene, its legal values.
    pub genes: Vec<Vec<u8>>,
    /// How many individuals.
    pub size: usize,
    /// Mutation chance per gene, percent.
    #[serde(default = "default_mutation")]
    pub mutation_percent: i32,
    /// Seed of the population's generator.
    #[serde(default)]
    pub seed: u64,
}

fn default_mutation() -> i32 {
    5
}

impl GeneticSpec {
    /// Parses and checks a definition.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        let spec: GeneticSpec = from_toml(text)?;
        if spec.genes.is_empty() || spec.genes.len() > 1024 {
            return Err(DecideError::invalid("genes", "a genome needs 1 to 1024 genes"));
        }
        if !(2..=10_000).contains(&spec.size) {
            return Err(DecideError::invalid("size", "a population needs 2 to 10,000 individuals"));
        }
        if !(0..=100).contains(&spec.mutation_percent) {
            return Err(DecideError::invalid("mutation_percent", "a percentage, 0 to 100"));
        }
        Ok(spec)
    }
}

/// A population being evolved, round after round.
#[derive(Debug, Clone)]
pub struct GeneticRun {
    /// The individuals of this generation, with their tallies so far.
    pub population: Population,
    /// How many generations have been bred (0: the first, random one).
    pub generation: u32,
    rng: WorldRng,
}

impl GeneticRun {
    /// The first generation: every gene drawn from its legal set with the spec's seed.
    pub fn new(spec: &GeneticSpec) -> Self {
        let mut rng = WorldRng::new(spec.seed);
        let mut population = Population::new(spec.genes.clone(), spec.size, &mut rng);
        population.mutation_percent = spec.mutation_percent;
        GeneticRun { population, generation: 0, rng }
    }

    /// Adds a round's damage tallies to individual `slot` (ignored for a slot out of range).
    pub fn score(&mut self, slot: usize, done: f64, received: f64) {
        if let Some(c) = self.population.individuals.get_mut(slot) {
            c.damage_done += done.max(0.0);
            c.damage_received += received.max(0.0);
        }
    }

    /// Breeds the next generation and returns the best fitness of the one that ended.
    pub fn evolve(&mut self) -> f64 {
        let best = self.population.individuals.iter().map(|c| c.fitness()).fold(f64::NEG_INFINITY, f64::max);
        self.population.evolve(&mut self.rng);
        self.generation += 1;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_breeds_from_its_own_seed() {
        let spec = GeneticSpec::from_toml("genes = [[0, 1], [0, 1, 2]]\nsize = 4\nseed = 3\n").unwrap();
        let mut a = GeneticRun::new(&spec);
        let mut b = GeneticRun::new(&spec);
        assert_eq!(a.population, b.population);
        a.score(0, 10.0, 1.0);
        b.score(0, 10.0, 1.0);
        assert_eq!(a.evolve(), 10.0);
        b.evolve();
        assert_eq!(a.population, b.population, "same seed, same scores: same children");
        assert_eq!(a.generation, 1);
        assert!(a.population.individuals.iter().all(|c| c.damage_done == 0.0), "tallies restart");
    }

    #[test]
    fn bad_definitions_say_what_is_wrong() {
        assert!(GeneticSpec::from_toml("genes = []\nsize = 4\n").is_err());
        assert!(GeneticSpec::from_toml("genes = [[1]]\nsize = 1\n").is_err());
        assert!(GeneticSpec::from_toml("genes = [[1]]\nsize = 4\nmutation_percent = 120\n").is_err());
        assert!(GeneticSpec::from_toml("genes = [[1]]\nsize = 4\nsede = 1\n").is_err());
    }
}
