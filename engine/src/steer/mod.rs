//! Steering and group movement: chase, evade, intercept, movement patterns, flocking, potential
//! fields, obstacle avoidance, formations and the spatial hash that keeps neighbour queries cheap.
//!
//! Every behaviour is a plain function or small struct over `glam` vectors that returns a steering
//! value; none of them knows about scripts or the world's entity store, so the stdlib can wrap them
//! and tests can drive them directly. They steer a [`Vehicle`] in the book's body frame
//! ([`Frame`]): local `+y` forward, a lateral force at the nose.
//!
//! | concern | items | source |
//! | --- | --- | --- |
//! | body frame, vehicle | [`Frame`], [`Vehicle`], [`Control`] | 002a §2 |
//! | chase, evade, intercept | [`basic_chase_tile`], [`los_steer`], [`intercept_steer`] | 002a ch. 2 |
//! | tile line-of-sight chase | [`book_line`], [`TileLosChase`] | 002a §3.3 |
//! | movement patterns | [`StepPattern`], [`PathPattern`], [`PatternGrid`], [`PhysicsPattern`] | 002a ch. 3 |
//! | flocking | [`FlockParams`], [`Flock`], [`ViewMode`] (regrouping and contact: ours) | 002a ch. 4 |
//! | potential functions | [`LennardJones`] | 002b ch. 5 |
//! | formations, group captain | [`Formation`], [`Squad`] | 001_003 §2.9 |
//! | neighbour queries | [`SpatialHash`] | 002b §1.6 |
//! | steering in a running world | [`Steering`], [`SteerOrder`], [`Behaviour`] | — |

mod agents;
mod body;
mod chase;
mod flock;
mod flock_scan;
mod flock_sim;
mod formation;
mod los_chase;
mod obstacle;
mod obstacle_cells;
mod pattern;
mod physics_pattern;
mod potential;
mod regroup;
mod spatial_hash;

pub use agents::{
    Behaviour, CATCH_DISTANCE, DEFAULT_TURN_RATE, FlockGroup, FlockSpec, FormationGroup, FormationSpec, PatternSpec,
    Shape, SteerError, SteerOrder, Steering, slide, view_mode, wall_circles,
};
pub use body::{Control, Frame, TOL, Vehicle, VehicleLimits, normalize_book};
pub use chase::{
    Intercept, InterceptAim, Pursuit, basic_chase, basic_chase_tile, basic_evade, basic_evade_tile, intercept_point,
    intercept_steer, los_steer,
};
pub use flock::{ViewMode, ViewParams, heading_force, in_front_cone, in_view, separation_force};
pub use flock_sim::{Flock, FlockParams, Quarry, UnitType};
pub use formation::{Formation, PathFollower, Slot, SlotRef, SlotTracker, Squad, follow_slot};
pub use los_chase::{LineVariant, TileLosChase, book_line, tile_line_into};
pub use obstacle::{Circle, Feeler, feeler_force};
pub use pattern::{BOOK_ZIGZAG, NEIGHBOUR_OFFSETS, PathPattern, PatternError, PatternGrid, StepControl, StepPattern};
pub use physics_pattern::{
    MIN_STEER_FRACTION, PATROL_PATTERN, PatternStep, PatternTracker, PhysicsPattern, ZIGZAG_PATTERN,
};
pub use potential::{LennardJones, force_to_control, sum_forces, swarm_forces};
pub use spatial_hash::{RunsWithin, SpatialHash};

/// Whether the graph "within `r` of each other" over `pts` is connected (depth-first, so
/// quadratic: for checking flocks of tens to hundreds): the measure of a flock holding together
/// in the flock tests and in `examples/flock_connectivity.rs`.
pub fn connected(pts: &[glam::Vec2], r: f32) -> bool {
    let mut seen = vec![false; pts.len()];
    let mut stack = vec![0];
    if let Some(first) = seen.first_mut() {
        *first = true;
    }
    while let Some(i) = stack.pop() {
        for j in 0..pts.len() {
            if !seen[j] && pts[i].distance(pts[j]) <= r {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.iter().all(|&s| s)
}
