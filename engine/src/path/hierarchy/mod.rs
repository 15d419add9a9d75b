//! Hierarchical path-finding (HPA*, Botea, Müller & Schaeffer 2004) for maps too large to search
//! flat within a frame's budget.
//!
//! [`Hpa`] cuts the grid into square clusters; every maximal open segment of a border between two
//! clusters gets transitions (one in the middle of a short segment, one at each end of a long one,
//! as in the paper), whose two cells become abstract nodes. Nodes of one cluster are joined by
//! edges whose costs come from A* confined to the cluster, so the map's rules (8-connected, √2
//! diagonals, no corner cutting, terrain costs) hold on every level. A query links start and goal
//! into the abstract graph, searches it, and refines each abstract edge back into cells.
//! [`Hpa::set_cell`] rebuilds only the clusters a changed cell touches.
//!
//! ```
//! use tactica_engine::grid::Map;
//! use tactica_engine::path::{AStar, Hpa};
//! use glam::IVec2;
//!
//! let mut map = Map::open(40, 40);
//! for y in 0..39 { map.set(IVec2::new(20, y), b'#', f32::INFINITY); }
//! let hpa = Hpa::build(&map, 8);
//! let mut cells = Vec::new();
//! let found = hpa.find(&map, IVec2::new(2, 2), IVec2::new(37, 2), &mut cells).unwrap();
//! let best = AStar::new().find(&map, IVec2::new(2, 2), IVec2::new(37, 2), &mut Vec::new()).unwrap();
//! assert!(found.cost >= best.cost - 1e-9 && found.cost <= best.cost * 1.1);
//! assert_eq!(cells.last(), Some(&IVec2::new(37, 2)));
//! ```

mod abstract_graph;
mod confined;
mod query;
#[cfg(test)]
mod tests;

pub use abstract_graph::{Hpa, HpaFound};
pub use query::HpaQuery;
