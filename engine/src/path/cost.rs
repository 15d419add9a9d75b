//! What every grid search shares: the cost model, the errors, the search status.

use glam::IVec2;

use crate::grid::Map;

/// √2, the length of a diagonal step.
pub(crate) const SQRT2: f64 = std::f64::consts::SQRT_2;

/// Which neighbours a cell has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Connectivity {
    /// Up, down, left, right.
    Four,
    /// The four straight neighbours and the four diagonal ones.
    #[default]
    Eight,
}

/// Where the cost of a step comes from.
///
/// A search reads the grid through this trait, so terrain costs, tactical layers or anything
/// else can be plugged in without touching the search code (Detour's `dtQueryFilter`).
///
/// Preconditions, relied on for optimality: `cell_cost` is ≥ 1 for passable cells and
/// `f32::INFINITY` for blocked ones; `step_cost` is ≥ 0 and at least `heuristic_scale() ×` the
/// step's length, so that the octile distance times `heuristic_scale` never overestimates.
pub trait CostModel {
    /// Width of the grid in cells.
    fn width(&self) -> u32;
    /// Height of the grid in cells.
    fn height(&self) -> u32;
    /// The cost of entering cell `i` (row-major index); `INFINITY` when blocked.
    fn cell_cost(&self, i: usize) -> f32;
    /// The cost of a step of `length` (1 or √2) from cell `from` into cell `to`, both passable.
    fn step_cost(&self, from: usize, to: usize, length: f64) -> f64 {
        let _ = from;
        length * f64::from(self.cell_cost(to))
    }
    /// The factor the octile heuristic is multiplied by (1 when every step costs at least its
    /// length).
    fn heuristic_scale(&self) -> f64 {
        1.0
    }
}

/// A borrowed cost model is one: a caller may hand out `&Map` or `&TacticalCost` per request.
impl<T: CostModel + ?Sized> CostModel for &T {
    fn width(&self) -> u32 {
        (**self).width()
    }
    fn height(&self) -> u32 {
        (**self).height()
    }
    #[inline]
    fn cell_cost(&self, i: usize) -> f32 {
        (**self).cell_cost(i)
    }
    #[inline]
    fn step_cost(&self, from: usize, to: usize, length: f64) -> f64 {
        (**self).step_cost(from, to, length)
    }
    fn heuristic_scale(&self) -> f64 {
        (**self).heuristic_scale()
    }
}

impl CostModel for Map {
    fn width(&self) -> u32 {
        Map::width(self)
    }
    fn height(&self) -> u32 {
        Map::height(self)
    }
    #[inline]
    fn cell_cost(&self, i: usize) -> f32 {
        self.costs()[i]
    }
}

/// Which end of a query a problem is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// The start cell.
    Start,
    /// The goal cell.
    Goal,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Endpoint::Start => "start",
            Endpoint::Goal => "goal",
        })
    }
}

/// Why a search found no path.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    /// The start or goal is not on the map.
    #[error("the {which} ({}, {}) is off the map", cell.x, cell.y)]
    OffMap {
        /// Which end.
        which: Endpoint,
        /// The cell asked for.
        cell: IVec2,
    },
    /// The start or goal is a blocked cell.
    #[error("the {which} ({}, {}) is blocked", cell.x, cell.y)]
    Blocked {
        /// Which end.
        which: Endpoint,
        /// The cell asked for.
        cell: IVec2,
    },
    /// Every cell reachable from the start was searched and the goal was not among them (the
    /// book's dead end: the open list ran empty, 002b §3.6).
    #[error("no path: the goal cannot be reached from the start ({expanded} cells searched)")]
    NoPath {
        /// How many nodes were expanded before giving up.
        expanded: usize,
    },
    /// Jump point search needs every passable cell to cost the same.
    #[error("jump point search needs a uniform-cost map; this one has terrain costs (use A*)")]
    NotUniform,
    /// A tactical cost layer is not one value per cell (or node).
    #[error("cost layer {layer} has {found} values; it needs one per cell ({expected})")]
    LayerSize {
        /// The layer's position.
        layer: usize,
        /// Cells (or nodes).
        expected: usize,
        /// Values in the layer.
        found: usize,
    },
    /// Tactical weights and layers do not pair up.
    #[error("{layers} cost layers but {weights} weights; each layer needs one weight")]
    WeightCount {
        /// Layers given.
        layers: usize,
        /// Weights given.
        weights: usize,
    },
    /// The map has more cells than a search can index (2³² − 1).
    #[error("the map is too large to search")]
    TooLarge,
}

/// Where a time-sliced search stands (Detour's `dtStatus`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Not finished: call `step` again (next tick).
    InProgress,
    /// A path was found.
    Found,
    /// The goal cannot be reached.
    NotFound,
}

/// The octile distance between two cells: the length of the shortest 8-connected path on an
/// open grid, `max − min + √2 · min` of the axis distances.
pub fn octile(a: IVec2, b: IVec2) -> f64 {
    let d = (a - b).abs();
    let (lo, hi) = (d.x.min(d.y), d.x.max(d.y));
    f64::from(hi - lo) + SQRT2 * f64::from(lo)
}

/// Checks a query's endpoints against the grid and returns their flat indices.
pub(crate) fn endpoints(grid: &impl CostModel, start: IVec2, goal: IVec2) -> Result<(usize, usize), PathError> {
    let (w, h) = (grid.width(), grid.height());
    if u64::from(w) * u64::from(h) >= u64::from(u32::MAX) {
        return Err(PathError::TooLarge);
    }
    let index = |cell: IVec2, which: Endpoint| {
        if cell.x < 0 || cell.y < 0 || cell.x as u32 >= w || cell.y as u32 >= h {
            return Err(PathError::OffMap { which, cell });
        }
        let i = cell.y as usize * w as usize + cell.x as usize;
        if !grid.cell_cost(i).is_finite() {
            return Err(PathError::Blocked { which, cell });
        }
        Ok(i)
    };
    Ok((index(start, Endpoint::Start)?, index(goal, Endpoint::Goal)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octile_is_the_open_grid_distance() {
        assert_eq!(octile(IVec2::new(0, 0), IVec2::new(3, 0)), 3.0);
        assert!((octile(IVec2::new(0, 0), IVec2::new(-2, 5)) - (3.0 + 2.0 * SQRT2)).abs() < 1e-12);
    }

    #[test]
    fn endpoints_are_checked() {
        let mut m = Map::open(3, 3);
        m.set(IVec2::new(1, 1), b'#', f32::INFINITY);
        assert_eq!(endpoints(&m, IVec2::new(0, 0), IVec2::new(2, 2)), Ok((0, 8)));
        assert_eq!(
            endpoints(&m, IVec2::new(-1, 0), IVec2::new(2, 2)),
            Err(PathError::OffMap { which: Endpoint::Start, cell: IVec2::new(-1, 0) })
        );
        let e = endpoints(&m, IVec2::new(0, 0), IVec2::new(1, 1)).unwrap_err();
        assert_eq!(e, PathError::Blocked { which: Endpoint::Goal, cell: IVec2::new(1, 1) });
        assert_eq!(e.to_string(), "the goal (1, 1) is blocked");
    }
}
