//! Tactical pathfinding (000 §6.3): the same A*, with a step cost that adds weighted tactical
//! qualities read from cost layers (danger, visibility, cover, an influence map …).
//!
//! Cost of a step = `base × length × terrain(to) + Σᵢ wᵢ · (Tᵢ(from) + Tᵢ(to)) / 2`: the quality of
//! a connection is the average of its two ends (the book's "half the time in each region").
//! Weights belong to the agent, so a scout and an artillery piece plan different routes over the
//! same layers. Positive weights avoid, negative weights seek.
//!
//! A* cannot handle negative step costs. As the book recommends, they are not silently hidden:
//! a negative step is clamped to 0 *and counted* ([`TacticalCost::clamped_steps`]), so a caller
//! can report the weight set. With any negative weight the heuristic is halved (the book's fix,
//! §6.3.3): the result is then near-optimal rather than guaranteed optimal.

use std::cell::Cell;

use super::cost::{CostModel, PathError};
use super::graph::{NodeId, WaypointGraph};
use crate::grid::Map;

/// One agent's tactical personality: a weight per cost layer, and a weight on the base cost.
#[derive(Debug, Clone, PartialEq)]
pub struct TacticalWeights {
    /// One weight per layer, in layer order.
    pub layers: Vec<f32>,
    /// The weight on distance × terrain (1 unless the agent cares less about distance).
    pub base: f32,
}

impl TacticalWeights {
    /// Weights for the layers, with base weight 1.
    pub fn new(layers: impl Into<Vec<f32>>) -> Self {
        TacticalWeights { layers: layers.into(), base: 1.0 }
    }

    /// The factor the octile heuristic is scaled by: `base` when every weight is ≥ 0 (steps then
    /// cost at least `base × length`, so the heuristic stays admissible), half that otherwise.
    pub fn heuristic_scale(&self) -> f64 {
        let base = f64::from(self.base.max(0.0));
        if self.layers.iter().all(|&w| w >= 0.0) { base } else { base * 0.5 }
    }
}

/// A [`CostModel`] over a map plus tactical layers, for [`super::AStar`].
#[derive(Debug)]
pub struct TacticalCost<'a> {
    map: &'a Map,
    layers: Vec<&'a [f32]>,
    weights: &'a TacticalWeights,
    clamped: Cell<u32>,
}

impl<'a> TacticalCost<'a> {
    /// Combines a map with per-cell layers (each `map.len()` long, row-major) and an agent's
    /// weights (one per layer).
    pub fn new(map: &'a Map, layers: &[&'a [f32]], weights: &'a TacticalWeights) -> Result<Self, PathError> {
        check_layers(layers, weights, map.len())?;
        Ok(TacticalCost { map, layers: layers.to_vec(), weights, clamped: Cell::new(0) })
    }

    /// How many steps came out negative and were clamped to 0 since this was made.
    pub fn clamped_steps(&self) -> u32 {
        self.clamped.get()
    }

    /// The tactical part of a step's cost: `Σ wᵢ · (Tᵢ(from) + Tᵢ(to)) / 2`.
    pub fn tactical(&self, from: usize, to: usize) -> f64 {
        weighted(&self.layers, &self.weights.layers, from, to)
    }
}

impl CostModel for TacticalCost<'_> {
    fn width(&self) -> u32 {
        self.map.width()
    }
    fn height(&self) -> u32 {
        self.map.height()
    }
    fn cell_cost(&self, i: usize) -> f32 {
        self.map.costs()[i]
    }
    fn step_cost(&self, from: usize, to: usize, length: f64) -> f64 {
        let base = f64::from(self.weights.base) * length * f64::from(self.map.costs()[to]);
        let cost = base + self.tactical(from, to);
        if cost < 0.0 {
            self.clamped.set(self.clamped.get() + 1);
            return 0.0;
        }
        cost
    }
    fn heuristic_scale(&self) -> f64 {
        self.weights.heuristic_scale()
    }
}

/// Tactical A* over a waypoint graph: `layers` hold one value per node; an edge costs
/// `base × edge cost + Σᵢ wᵢ · (Tᵢ(a) + Tᵢ(b)) / 2` (negative costs count as 0). Returns the route
/// and its cost.
pub fn tactical_graph_path(
    graph: &WaypointGraph,
    layers: &[&[f32]],
    weights: &TacticalWeights,
    from: NodeId,
    to: NodeId,
) -> Result<Option<(Vec<NodeId>, f64)>, PathError> {
    check_layers(layers, weights, graph.len())?;
    let base = f64::from(weights.base);
    Ok(graph.find_path_with(from, to, weights.heuristic_scale(), |a, b, w| {
        base * w + weighted(layers, &weights.layers, a, b)
    }))
}

fn weighted(layers: &[&[f32]], weights: &[f32], from: usize, to: usize) -> f64 {
    layers.iter().zip(weights).map(|(l, &w)| f64::from(w) * (f64::from(l[from]) + f64::from(l[to])) * 0.5).sum()
}

fn check_layers(layers: &[&[f32]], weights: &TacticalWeights, len: usize) -> Result<(), PathError> {
    if layers.len() != weights.layers.len() {
        return Err(PathError::WeightCount { layers: layers.len(), weights: weights.layers.len() });
    }
    if let Some((layer, l)) = layers.iter().enumerate().find(|(_, l)| l.len() != len) {
        return Err(PathError::LayerSize { layer, expected: len, found: l.len() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use glam::IVec2;

    use super::*;
    use crate::path::AStar;

    /// An open 9×5 field with an enemy at (4, 0): danger falls off with distance; the middle
    /// row is a hedge that hides whoever walks along it (visibility 0) while the rest is seen (1).
    fn field() -> (Map, Vec<f32>, Vec<f32>) {
        let map = Map::open(9, 5);
        let mut danger = vec![0.0; map.len()];
        let mut seen = vec![1.0; map.len()];
        for i in 0..map.len() {
            let c = map.cell_at(i);
            danger[i] = (6.0 - (c - IVec2::new(4, 0)).as_vec2().length()).max(0.0);
            if c.y == 2 {
                seen[i] = 0.0;
            }
        }
        (map, danger, seen)
    }

    fn route(map: &Map, layers: &[&[f32]], w: &TacticalWeights) -> (Vec<IVec2>, f64, u32) {
        let cost = TacticalCost::new(map, layers, w).unwrap();
        let mut cells = Vec::new();
        let found = AStar::new().find(&cost, IVec2::new(0, 2), IVec2::new(8, 2), &mut cells).unwrap();
        (cells, found.cost, cost.clamped_steps())
    }

    #[test]
    fn zero_weights_are_plain_astar() {
        let (map, danger, seen) = field();
        let (cells, cost, _) = route(&map, &[&danger, &seen], &TacticalWeights::new([0.0, 0.0]));
        assert_eq!(cost, 8.0);
        assert!(cells.iter().all(|c| c.y == 2));
    }

    #[test]
    fn personalities_plan_different_routes() {
        let (map, danger, seen) = field();
        let layers: [&[f32]; 2] = [&danger, &seen];
        // Artillery avoids danger strongly and being seen a little: the hedge row passes within
        // reach of the enemy, so it swings south, away from it.
        let artillery = TacticalWeights::new([5.0, 1.0]);
        let (a, a_cost, _) = route(&map, &layers, &artillery);
        assert!(a.iter().any(|c| c.y == 4), "artillery keeps away from the enemy: {a:?}");
        // A scout seeks being seen (large negative visibility weight) and ignores danger.
        let scout = TacticalWeights::new([0.0, -0.4]);
        let (s, _, clamped) = route(&map, &layers, &scout);
        assert_ne!(a, s);
        assert!(s[1..s.len() - 1].iter().any(|c| c.y != 2), "the scout leaves the hedge: {s:?}");
        assert_eq!(clamped, 0, "−0.4 never outweighs a step of length ≥ 1");
        // The artillery's route costs what the cost model says it costs.
        let cost = TacticalCost::new(&map, &layers, &artillery).unwrap();
        let summed: f64 = a
            .windows(2)
            .map(|w| {
                let (i, j) = (map.index(w[0]).unwrap(), map.index(w[1]).unwrap());
                let len = if (w[1] - w[0]).abs().min_element() == 1 { 2f64.sqrt() } else { 1.0 };
                cost.step_cost(i, j, len)
            })
            .sum();
        assert!((summed - a_cost).abs() < 1e-9);
    }

    #[test]
    fn negative_steps_are_counted_not_hidden() {
        let (map, _, seen) = field();
        let (_, _, clamped) = route(&map, &[&seen], &TacticalWeights::new([-3.0]));
        assert!(clamped > 0);
        assert_eq!(TacticalWeights::new([-3.0]).heuristic_scale(), 0.5);
    }

    #[test]
    fn layers_must_fit() {
        let map = Map::open(3, 3);
        let short = vec![0.0; 4];
        let e = TacticalCost::new(&map, &[&short], &TacticalWeights::new([1.0])).unwrap_err();
        assert_eq!(e, PathError::LayerSize { layer: 0, expected: 9, found: 4 });
        let e = TacticalCost::new(&map, &[], &TacticalWeights::new([1.0])).unwrap_err();
        assert_eq!(e, PathError::WeightCount { layers: 0, weights: 1 });
    }

    #[test]
    fn tactical_routes_over_a_graph() {
        use glam::Vec2;
        // A diamond: 0 → 1 → 3 (exposed) or 0 → 2 → 3 (covered), equally long.
        let mut g = WaypointGraph::new();
        for p in [(0.0, 0.0), (1.0, 1.0), (1.0, -1.0), (2.0, 0.0)] {
            g.add_node(Vec2::new(p.0, p.1));
        }
        for (a, b) in [(0, 1), (1, 3), (0, 2), (2, 3)] {
            g.connect(a, b);
        }
        let exposure = [0.0, 4.0, 0.0, 0.0];
        let (r, cost) = tactical_graph_path(&g, &[&exposure], &TacticalWeights::new([1.0]), 0, 3).unwrap().unwrap();
        assert_eq!(r, [0, 2, 3]);
        assert!((cost - 2.0 * 2f64.sqrt()).abs() < 1e-6);
        let seek = TacticalWeights::new([-0.1]);
        assert_eq!(tactical_graph_path(&g, &[&exposure], &seek, 0, 3).unwrap().unwrap().0, [0, 1, 3]);
    }
}
