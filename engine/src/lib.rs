//! # tactica-engine
//!
//! The Rust core of Tactica: everything that must be fast and knows no script language.
//!
//! - [`world`]: entities in a slotmap ([`world::Entity`], [`world::EntityId`]), globals, named
//!   places and regions, the fixed-step [`world::Clock`], one seeded [`world::WorldRng`], the
//!   [`world::EventLog`] that becomes the trace, and the phases of a tick.
//! - [`grid`]: tile [`grid::Map`]s, the MovingAI and ASCII loaders, terrain costs, line of sight.
//! - [`field`]: tactical analysis on [`field::Layer`]s — influence maps (grid and waypoint graph),
//!   derived maps (security, frontier, tension, vulnerability), map flooding, convolution filters,
//!   cellular automata, terrain analysis (cover, visibility, shadow, difficulty), frag maps and
//!   decision maps.
//! - [`sense`]: perception — vision cones with line of sight, hearing with sound levels, walls
//!   and thresholds, scent trails that fade.
//! - [`tactics`]: the tactical waypoint database ([`tactics::WaypointDb`]) — designer-placed and
//!   generated waypoints, properties by ray sampling, fuzzy compound tactics, condensation — and
//!   tactical position selection ([`tactics::query`]): the query language designers write (Lua
//!   tables, Rhai maps, `.tac` blocks) and the lazy, time-sliced evaluator.
//! - [`path`]: grid A*, jump point search, waypoint graphs and next-hop tables, tactical costs,
//!   smoothing and path following, breadcrumbs, wall tracing, Bresenham lines, time-sliced
//!   requests, and the MovingAI scenario solver.
//! - [`nav`]: the world's navigation service — every move plans through one per-tick path
//!   queue under an expansion budget, follows its path smoothed, and plans again when the map
//!   changes (doors, walls).
//! - [`coord`]: the per-entity [`coord::ActionQueue`] every script language drives, and scoped
//!   [`coord::Signals`].
//! - [`steer`]: chase, evade and intercept, movement patterns, flocking with obstacle avoidance
//!   and leaders, Lennard-Jones potential movement, formations with a group captain, and the
//!   [`steer::SpatialHash`] for neighbour queries.
//! - [`decide`]: decision models — state machines, fuzzy logic, rule engines, Bayesian networks,
//!   modular utility reasoners, neural nets, genetic algorithms, schedules, action queues, planner.
//! - [`value`]: the dynamic [`Value`] that attributes, globals and script calls carry.
//!
//! ```
//! use tactica_engine::{coord::Action, grid::Map, world::{Entity, World}};
//! use glam::{IVec2, Vec2};
//!
//! let mut world = World::new(Map::open(8, 8), 10, 42);
//! let mut guard = Entity::new("guard", "human", IVec2::new(1, 1));
//! guard.speed = 10.0;
//! let id = world.spawn(guard).unwrap();
//! world.entity_mut(id).unwrap().actions.push(Action::MoveTo { target: Vec2::new(4.5, 1.5) });
//! for _ in 0..5 {
//!     world.step(|_world, _commands| { /* scripts would run here */ });
//! }
//! assert_eq!(world.entity(id).unwrap().cell(), IVec2::new(4, 1));
//! ```
//!
//! **Architecture invariant:** nothing here names Lua, Rhai or Tactica Script; the script host
//! lends scripts `&World` and applies the [`world::Command`]s they return.

#![deny(missing_docs)]

pub mod coord;
pub mod decide;
pub mod field;
pub mod grid;
pub mod nav;
pub mod path;
pub mod sense;
pub mod steer;
pub mod tactics;
pub mod value;
pub mod world;

pub use value::{Table, Value, ValueType};
