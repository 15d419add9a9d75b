//! A neural network as a data file: named inputs and outputs, layer size, and either a seeded
//! training run (the chapter's way: same seed, same network) or explicit weights.

use serde::{Deserialize, Serialize};

use super::NeuralNetwork;
use crate::decide::{DecideError, error::from_toml};
use crate::world::WorldRng;

/// A network as written in a data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetSpec {
    /// Input names, in order (`["friends", "hit_points", "enemy_engaged", "distance"]`).
    pub inputs: Vec<String>,
    /// Output names, in order (`["chase", "flock", "evade"]`).
    pub outputs: Vec<String>,
    /// Hidden neurons.
    pub hidden: usize,
    /// The seed of the initial random weights.
    #[serde(default)]
    pub seed: u64,
    /// Learning rate ρ.
    #[serde(default = "default_rate")]
    pub learning_rate: f64,
    /// Momentum α (none when absent).
    #[serde(default)]
    pub momentum: Option<f64>,
    /// Trains the network at load time.
    #[serde(default)]
    pub train: Option<TrainSpec>,
}

fn default_rate() -> f64 {
    0.25
}

/// A training run done when the file loads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainSpec {
    /// Rows of `inputs ++ desired outputs`.
    pub rows: Vec<Vec<f64>>,
    /// Stop when the mean epoch error is at most this.
    pub target: f64,
    /// Stop after this many epochs at the latest.
    pub max_epochs: u32,
}

/// A network loaded from a data file, with its names.
#[derive(Debug, Clone)]
pub struct NamedNetwork {
    /// The network, trained.
    pub net: NeuralNetwork,
    /// Input names.
    pub inputs: Vec<String>,
    /// Output names.
    pub outputs: Vec<String>,
    /// The mean error of the last training epoch (0 when untrained).
    pub error: f64,
}

/// The most epochs a data file may ask for: loading must stay quick.
pub const MAX_EPOCHS: u32 = 200_000;

impl NamedNetwork {
    /// Parses the TOML, builds the network from its seed and trains it.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        let spec: NetSpec = from_toml(text)?;
        if spec.inputs.is_empty() || spec.outputs.is_empty() || spec.hidden == 0 || spec.hidden > 1024 {
            return Err(DecideError::invalid("network", "needs inputs, outputs and 1 to 1024 hidden neurons"));
        }
        let mut net =
            NeuralNetwork::new(spec.inputs.len(), spec.hidden, spec.outputs.len(), &mut WorldRng::new(spec.seed));
        net.learning_rate = spec.learning_rate;
        net.momentum = spec.momentum;
        let mut error = 0.0;
        if let Some(t) = &spec.train {
            let width = spec.inputs.len() + spec.outputs.len();
            if let Some(i) = t.rows.iter().position(|r| r.len() != width) {
                return Err(DecideError::invalid(format!("training row {}", i + 1), format!("needs {width} numbers")));
            }
            if t.max_epochs > MAX_EPOCHS {
                return Err(DecideError::invalid("training", format!("max_epochs is at most {MAX_EPOCHS}")));
            }
            error = net.train(&t.rows, t.target, t.max_epochs).error;
        }
        Ok(NamedNetwork { net, inputs: spec.inputs, outputs: spec.outputs, error })
    }

    /// Runs named inputs (missing ones are 0) through a copy of the network; the outputs by index.
    pub fn run(&self, input: impl Fn(&str) -> f64) -> Vec<f64> {
        let xs: Vec<f64> = self.inputs.iter().map(|n| input(n)).collect();
        let mut net = self.net.clone();
        net.run(&xs).to_vec()
    }
}
