//! A three-layer feed-forward network trained by back-propagation with momentum (chapter 14).
//!
//! Follows the book's `NeuralNetwork`: logistic activation (optionally a linear output layer),
//! a bias input of −1 per non-input neuron with a trained bias weight, initial weights uniform
//! over {−1.00, −0.99, …, 1.00} drawn from a seeded generator (the book reseeds from the clock on
//! every call), online updates, errors computed before any weight changes, momentum on weights
//! but not on bias weights. Where the book applies the logistic derivative to a linear output
//! layer too, the derivative of the identity (1) is used here.

use serde::{Deserialize, Serialize};

use crate::world::WorldRng;

/// The value of every bias input (S2:7314).
const BIAS: f64 = -1.0;

/// A 3-layer network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NeuralNetwork {
    n_in: usize,
    n_hid: usize,
    n_out: usize,
    /// Input→hidden weights, `[i * n_hid + j]`.
    w_ih: Vec<f64>,
    /// Hidden→output weights, `[j * n_out + k]`.
    w_ho: Vec<f64>,
    dw_ih: Vec<f64>,
    dw_ho: Vec<f64>,
    bias_h: Vec<f64>,
    bias_o: Vec<f64>,
    input: Vec<f64>,
    hidden: Vec<f64>,
    output: Vec<f64>,
    desired: Vec<f64>,
    err_h: Vec<f64>,
    err_o: Vec<f64>,
    /// The learning rate ρ (typical 0.25 or 0.5; the chapter's example uses 0.2).
    pub learning_rate: f64,
    /// The momentum factor α, or `None` for no momentum.
    pub momentum: Option<f64>,
    /// Whether the output layer is linear instead of logistic.
    pub linear_output: bool,
}

/// How a training run ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainReport {
    /// Epochs run.
    pub epochs: u32,
    /// The mean error of the last epoch.
    pub error: f64,
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl NeuralNetwork {
    /// A network with `inputs`, `hidden` and `outputs` neurons (each at least 1) and random weights.
    pub fn new(inputs: usize, hidden: usize, outputs: usize, rng: &mut WorldRng) -> Self {
        let (n_in, n_hid, n_out) = (inputs.max(1), hidden.max(1), outputs.max(1));
        let mut draw = |n: usize| (0..n).map(|_| rng.below(201) as f64 / 100.0 - 1.0).collect::<Vec<_>>();
        let w_ih = draw(n_in * n_hid);
        let bias_h = draw(n_hid);
        let w_ho = draw(n_hid * n_out);
        let bias_o = draw(n_out);
        NeuralNetwork {
            n_in,
            n_hid,
            n_out,
            dw_ih: vec![0.0; w_ih.len()],
            dw_ho: vec![0.0; w_ho.len()],
            w_ih,
            w_ho,
            bias_h,
            bias_o,
            input: vec![0.0; n_in],
            hidden: vec![0.0; n_hid],
            output: vec![0.0; n_out],
            desired: vec![0.0; n_out],
            err_h: vec![0.0; n_hid],
            err_o: vec![0.0; n_out],
            learning_rate: 0.25,
            momentum: None,
            linear_output: false,
        }
    }

    /// Sets every weight and bias weight to `w` (for worked examples).
    pub fn fill_weights(&mut self, w: f64) {
        for v in [&mut self.w_ih, &mut self.w_ho, &mut self.bias_h, &mut self.bias_o] {
            v.iter_mut().for_each(|x| *x = w);
        }
    }

    /// The layer sizes (inputs, hidden, outputs).
    pub fn shape(&self) -> (usize, usize, usize) {
        (self.n_in, self.n_hid, self.n_out)
    }

    /// Sets input `i`; out-of-range indices are ignored.
    pub fn set_input(&mut self, i: usize, v: f64) {
        if let Some(x) = self.input.get_mut(i) {
            *x = v;
        }
    }

    /// Sets every input from a slice (extra values ignored).
    pub fn set_inputs(&mut self, values: &[f64]) {
        for (x, v) in self.input.iter_mut().zip(values) {
            *x = *v;
        }
    }

    /// Output `i`; `None` when out of range (the book returns `INT_MAX`).
    pub fn output(&self, i: usize) -> Option<f64> {
        self.output.get(i).copied()
    }

    /// Every output.
    pub fn outputs(&self) -> &[f64] {
        &self.output
    }

    /// Sets desired output `i`; out-of-range indices are ignored.
    pub fn set_desired(&mut self, i: usize, v: f64) {
        if let Some(x) = self.desired.get_mut(i) {
            *x = v;
        }
    }

    /// Computes hidden then output values.
    pub fn feed_forward(&mut self) {
        for j in 0..self.n_hid {
            let mut x = BIAS * self.bias_h[j];
            for i in 0..self.n_in {
                x += self.input[i] * self.w_ih[i * self.n_hid + j];
            }
            self.hidden[j] = logistic(x);
        }
        for k in 0..self.n_out {
            let mut x = BIAS * self.bias_o[k];
            for j in 0..self.n_hid {
                x += self.hidden[j] * self.w_ho[j * self.n_out + k];
            }
            self.output[k] = if self.linear_output { x } else { logistic(x) };
        }
    }

    /// One back-propagation step for the current inputs and desired outputs: output errors,
    /// hidden errors (with the weights as they were), then hidden→output and input→hidden
    /// weights, in the book's mandatory order.
    pub fn back_propagate(&mut self) {
        for k in 0..self.n_out {
            let o = self.output[k];
            let slope = if self.linear_output { 1.0 } else { o * (1.0 - o) };
            self.err_o[k] = (self.desired[k] - o) * slope;
        }
        for j in 0..self.n_hid {
            let sum: f64 = (0..self.n_out).map(|k| self.err_o[k] * self.w_ho[j * self.n_out + k]).sum();
            self.err_h[j] = sum * self.hidden[j] * (1.0 - self.hidden[j]);
        }
        let (rate, momentum) = (self.learning_rate, self.momentum);
        let adjust = |w: &mut [f64], dw_prev: &mut [f64], from: &[f64], err: &[f64]| {
            let n_to = err.len();
            for (i, &v) in from.iter().enumerate() {
                for (k, &e) in err.iter().enumerate() {
                    let idx = i * n_to + k;
                    let dw = rate * e * v;
                    match momentum {
                        Some(a) => {
                            w[idx] += dw + a * dw_prev[idx];
                            dw_prev[idx] = dw;
                        }
                        None => w[idx] += dw,
                    }
                }
            }
        };
        adjust(&mut self.w_ho, &mut self.dw_ho, &self.hidden, &self.err_o);
        for (b, e) in self.bias_o.iter_mut().zip(&self.err_o) {
            *b += rate * e * BIAS;
        }
        adjust(&mut self.w_ih, &mut self.dw_ih, &self.input, &self.err_h);
        for (b, e) in self.bias_h.iter_mut().zip(&self.err_h) {
            *b += rate * e * BIAS;
        }
    }

    /// The weights: input→hidden (`[i * hidden + j]`) and hidden→output (`[j * outputs + k]`).
    pub fn weights(&self) -> (&[f64], &[f64]) {
        (&self.w_ih, &self.w_ho)
    }

    /// The bias weights of the hidden and the output neurons.
    pub fn bias_weights(&self) -> (&[f64], &[f64]) {
        (&self.bias_h, &self.bias_o)
    }

    /// The output error terms δ of the last back-propagation.
    pub fn output_errors(&self) -> &[f64] {
        &self.err_o
    }

    /// Mean square error of the outputs against the desired values.
    pub fn error(&self) -> f64 {
        self.output.iter().zip(&self.desired).map(|(o, d)| (o - d) * (o - d)).sum::<f64>() / self.n_out as f64
    }

    /// The index of the largest output (ties: the lowest index).
    pub fn max_output_id(&self) -> usize {
        let mut best = 0;
        for (i, &o) in self.output.iter().enumerate() {
            if o > self.output[best] {
                best = i;
            }
        }
        best
    }

    /// Runs the inputs through and returns the outputs.
    pub fn run(&mut self, inputs: &[f64]) -> &[f64] {
        self.set_inputs(inputs);
        self.feed_forward();
        &self.output
    }

    /// `TrainTheBrain`: online training over rows of `inputs ++ desired` until the mean epoch
    /// error is at most `target` or `max_epochs` have run.
    pub fn train(&mut self, rows: &[Vec<f64>], target: f64, max_epochs: u32) -> TrainReport {
        let mut report = TrainReport { epochs: 0, error: f64::INFINITY };
        if rows.is_empty() {
            return TrainReport { epochs: 0, error: 0.0 };
        }
        while report.error > target && report.epochs < max_epochs {
            report.epochs += 1;
            let mut sum = 0.0;
            for row in rows {
                self.set_inputs(row);
                for k in 0..self.n_out {
                    self.desired[k] = row.get(self.n_in + k).copied().unwrap_or(0.0);
                }
                self.feed_forward();
                sum += self.error();
                self.back_propagate();
            }
            report.error = sum / rows.len() as f64;
        }
        report
    }

    /// `ReTrainTheBrain`: repeats one pattern until its error is at most `target` or
    /// `max_iterations` have run (keep the cap low to avoid a hitch in play).
    pub fn retrain(&mut self, inputs: &[f64], desired: &[f64], target: f64, max_iterations: u32) -> TrainReport {
        let mut report = TrainReport { epochs: 0, error: f64::INFINITY };
        while report.error > target && report.epochs < max_iterations {
            report.epochs += 1;
            self.set_inputs(inputs);
            for (d, v) in self.desired.iter_mut().zip(desired) {
                *d = *v;
            }
            self.feed_forward();
            report.error = self.error();
            self.back_propagate();
        }
        report
    }

    /// `DumpData`: the book's text dump (node values, weights, bias weights per layer).
    pub fn dump(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let mut section = |title: &str, values: &[f64], weights: Option<(&[f64], usize, &[f64])>| {
            let _ = write!(s, "-----\n{title}\n-----\n");
            let _ = writeln!(s, "Node Values:");
            for (i, v) in values.iter().enumerate() {
                let _ = writeln!(s, "({i}) = {v:.6}");
            }
            if let Some((w, cols, b)) = weights {
                let _ = writeln!(s, "Weights:");
                for (idx, v) in w.iter().enumerate() {
                    let _ = writeln!(s, "({}, {}) = {v:.6}", idx / cols, idx % cols);
                }
                let _ = writeln!(s, "Bias Weights:");
                for (i, v) in b.iter().enumerate() {
                    let _ = writeln!(s, "({i}) = {v:.6}");
                }
            }
        };
        section("Input Layer", &self.input, Some((&self.w_ih, self.n_hid, &self.bias_h)));
        section("Hidden Layer", &self.hidden, Some((&self.w_ho, self.n_out, &self.bias_o)));
        section("Output Layer", &self.output, None);
        s
    }
}

/// The chapter's 14-row training set (S2:8013–8033): friends, hit points, enemy engaged,
/// distance → chase, flock, evade. Rows 1 and 9, and rows 5 and 13, share inputs with
/// conflicting targets, as printed.
pub const CHASE_FLOCK_EVADE: [[f64; 7]; 14] = [
    [0.0, 1.0, 0.0, 0.2, 0.9, 0.1, 0.1],
    [0.0, 1.0, 1.0, 0.2, 0.9, 0.1, 0.1],
    [0.0, 1.0, 0.0, 0.8, 0.1, 0.1, 0.1],
    [0.1, 0.5, 0.0, 0.2, 0.9, 0.1, 0.1],
    [0.0, 0.25, 1.0, 0.5, 0.1, 0.9, 0.1],
    [0.0, 0.2, 1.0, 0.2, 0.1, 0.1, 0.9],
    [0.3, 0.2, 0.0, 0.2, 0.9, 0.1, 0.1],
    [0.0, 0.2, 0.0, 0.3, 0.1, 0.9, 0.1],
    [0.0, 1.0, 0.0, 0.2, 0.1, 0.9, 0.1],
    [0.0, 1.0, 1.0, 0.6, 0.1, 0.1, 0.1],
    [0.0, 1.0, 0.0, 0.8, 0.1, 0.9, 0.1],
    [0.1, 0.2, 0.0, 0.2, 0.1, 0.1, 0.9],
    [0.0, 0.25, 1.0, 0.5, 0.1, 0.1, 0.9],
    [0.0, 0.6, 0.0, 0.2, 0.1, 0.1, 0.9],
];
