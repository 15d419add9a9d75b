//! Layers a scenario derives from the live ones: convolution filters (a smoothed threat map, an
//! edge map of a front) and cellular automata (safe areas grown from a layer's categories).
//!
//! Each is recomputed only when the layer it reads changed since the last update, so a filter
//! over a terrain layer costs nothing after the first tick, and one over influence only on ticks
//! where someone moved.

use super::automaton::{Life, Threshold, categorise, to_layer};
use super::convolve::{Boundary, convolve};
use super::kernel::Kernel;
use super::layer::Layer;

/// A layer filtered from another by a kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct FilterSpec {
    /// The new layer's name.
    pub name: String,
    /// The layer it reads.
    pub from: String,
    /// The kernel.
    pub kernel: Kernel,
    /// What the kernel reads beyond the map's edge.
    pub boundary: Boundary,
    /// How many times the filter is applied (at least 1).
    pub passes: usize,
}

/// The rules an automaton layer may use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AutomatonRule {
    /// Conway's Life over category 1.
    Life,
    /// A cell becomes `category` when enough of its neighbours are (`Threshold`).
    Threshold(Threshold),
}

/// A layer grown by a cellular automaton from another layer's categories.
#[derive(Debug, Clone, PartialEq)]
pub struct AutomatonSpec {
    /// The new layer's name.
    pub name: String,
    /// The layer it reads.
    pub from: String,
    /// Ascending thresholds: a value's category is how many it reaches.
    pub thresholds: Vec<f32>,
    /// The rule.
    pub rule: AutomatonRule,
    /// Generations run on each recomputation.
    pub steps: usize,
    /// The value each category stands for in the resulting layer (missing: the category number).
    pub values: Vec<f32>,
}

impl FilterSpec {
    /// The filtered layer.
    pub fn apply(&self, src: &Layer) -> Layer {
        let mut a = src.clone();
        let mut b = Layer::new(src.width(), src.height());
        for _ in 0..self.passes.max(1) {
            // Shapes always match here; an error would leave the source as it is.
            if convolve(&self.kernel, &a, &mut b, self.boundary).is_ok() {
                std::mem::swap(&mut a, &mut b);
            }
        }
        a
    }
}

impl AutomatonSpec {
    /// The layer after `steps` generations from `src`'s categories.
    pub fn apply(&self, src: &Layer) -> Layer {
        let mut cells = categorise(src, &self.thresholds);
        for _ in 0..self.steps {
            match self.rule {
                AutomatonRule::Life => cells.step(&Life),
                AutomatonRule::Threshold(t) => cells.step(&t),
            };
        }
        let top = self.thresholds.len() + 1;
        let values: Vec<f32> = (0..top).map(|c| self.values.get(c).copied().unwrap_or(c as f32)).collect();
        to_layer(&cells, &values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_filter_averages_the_neighbourhood() {
        let mut src = Layer::new(5, 5);
        src.set(glam::IVec2::new(2, 2), 9.0);
        let f = FilterSpec {
            name: "s".into(),
            from: "x".into(),
            kernel: Kernel::box_blur(1),
            boundary: Boundary::Constant(0.0),
            passes: 1,
        };
        let out = f.apply(&src);
        assert_eq!(out.at(glam::IVec2::new(1, 1)), 1.0);
        assert_eq!(out.at(glam::IVec2::new(2, 2)), 1.0);
        assert_eq!(out.at(glam::IVec2::new(0, 0)), 0.0);
        assert!((out.values().iter().sum::<f32>() - 9.0).abs() < 1e-5, "mass is kept away from the edge");
    }

    #[test]
    fn a_blinker_blinks() {
        let mut src = Layer::new(5, 5);
        for x in 1..=3 {
            src.set(glam::IVec2::new(x, 2), 1.0);
        }
        let life = |steps| AutomatonSpec {
            name: "a".into(),
            from: "x".into(),
            thresholds: vec![0.5],
            rule: AutomatonRule::Life,
            steps,
            values: vec![0.0, 10.0],
        };
        let one = life(1).apply(&src);
        let vertical: Vec<glam::IVec2> = (1..=3).map(|y| glam::IVec2::new(2, y)).collect();
        for y in 0..5 {
            for x in 0..5 {
                let c = glam::IVec2::new(x, y);
                assert_eq!(one.at(c), if vertical.contains(&c) { 10.0 } else { 0.0 }, "{c}");
            }
        }
        assert_eq!(life(2).apply(&src).values(), to_layer(&categorise(&src, &[0.5]), &[0.0, 10.0]).values());
    }
}
