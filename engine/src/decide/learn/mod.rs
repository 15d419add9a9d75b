//! Learning: a three-layer neural network with back-propagation and momentum (chapter 14) and
//! genetic algorithms (chapter 15), reproducible from a seed.

mod evolution;
mod genetic;
mod net_file;
mod neural;
#[cfg(test)]
mod tests;

pub use evolution::{GeneticRun, GeneticSpec};
pub use genetic::{Creature, Garden, Population, TRAITS, rnd};
pub use net_file::{MAX_EPOCHS, NamedNetwork, NetSpec, TrainSpec};
pub use neural::{CHASE_FLOCK_EVADE, NeuralNetwork, TrainReport};
