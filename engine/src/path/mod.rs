//! Pathfinding: optimal grid search, waypoint graphs, tactical costs and the classic movers.
//!
//! The principal types:
//!
//! - [`AStar`]: grid A* (4- or 8-connected, octile heuristic, no corner cutting, per-cell terrain
//!   costs), resumable a slice at a time, reusing its buffers across queries.
//! - [`Jps`]: jump point search for uniform-cost grids — the same optimal lengths as A*, an order
//!   of magnitude fewer expansions (see `engine/benches/path.rs`).
//! - [`WaypointGraph`] and [`NextHopTable`]: the book's waypoint navigation (002b §2.7).
//! - [`TacticalCost`]: A* whose step cost adds weighted cost layers (000 §6.3).
//! - [`smooth_path`] and [`PathFollower`]: string pulling and steering along a path.
//! - [`Trail`], [`WallTracer`], [`collide_and_turn`], [`ObstacleTracer`]: the simple movers of
//!   002b chapter 6 and the design article (001_003 §2.8).
//! - [`bresenham_line`]: the book-exact tile line of 002a chapter 2.
//! - [`Hpa`]: hierarchical path-finding (HPA*) for maps too large to search flat.
//! - [`PathQueue`]: many requests served fairly under a per-tick expansion budget.
//! - [`scen`]: MovingAI `.scen` files, solved and checked against their optimal lengths.
//!
//! Movement rules, the same everywhere: a straight step has length 1, a diagonal √2; a diagonal
//! step is allowed only when both cells it passes between are passable (no corner cutting); a step
//! costs its length times the [`Map::cost`](crate::grid::Map::cost) of the cell it enters (≥ 1,
//! `INFINITY` = blocked), so the octile distance never overestimates and A* stays optimal.
//!
//! ```
//! use tactica_engine::grid::Map;
//! use tactica_engine::path::{AStar, Jps};
//! use glam::IVec2;
//!
//! let mut map = Map::open(5, 3);
//! map.set(IVec2::new(2, 0), b'#', f32::INFINITY);
//! map.set(IVec2::new(2, 1), b'#', f32::INFINITY);
//! let mut cells = Vec::new();
//! let found = AStar::new().find(&map, IVec2::new(0, 0), IVec2::new(4, 0), &mut cells).unwrap();
//! assert!((found.cost - (4.0 + 2.0 * 2f64.sqrt())).abs() < 1e-9); // round the wall's lower end
//! assert_eq!(cells.first(), Some(&IVec2::new(0, 0)));
//! let jps = Jps::new(&map).unwrap().find(IVec2::new(0, 0), IVec2::new(4, 0), &mut cells).unwrap();
//! assert!((jps.cost - found.cost).abs() < 1e-9);
//! ```

mod astar;
mod breadcrumbs;
mod bresenham;
mod cost;
mod follow;
mod graph;
mod graph_query;
mod hierarchy;
mod jps;
mod movement;
pub mod scen;
mod sliced;
mod smooth;
mod tactical;
mod wall_trace;

pub use astar::{AStar, Found, SearchOptions};
pub use breadcrumbs::{MAX_TRAIL_LENGTH, Trail, follow_trail};
pub use bresenham::{BresenhamVariant, bresenham_line, bresenham_line_into};
pub use cost::{Connectivity, CostModel, Endpoint, PathError, Status, octile};
pub use follow::{FollowStatus, PathFollower, move_to_as_follow_path, plan_follow_path};
pub use graph::{NextHopTable, NodeId, WaypointGraph};
pub use graph_query::GraphQuery;
pub use hierarchy::{Hpa, HpaFound, HpaQuery};
pub use jps::Jps;
pub use movement::{ObstacleTracer, TraceExit, collide_and_turn, step_toward};
pub use sliced::{DEFAULT_TICK_BUDGET, PathQueue, RequestId, RequestState, Routes};
pub use smooth::smooth_path;
pub use tactical::{TacticalCost, TacticalWeights, tactical_graph_path};
pub use wall_trace::{Facing, WallTracer};
