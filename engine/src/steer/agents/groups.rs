//! The named groups a running world steers: flocks, formations under a captain, and patterns.

use glam::Vec2;

use super::super::body::VehicleLimits;
use super::super::flock::ViewMode;
use super::super::flock_sim::{Flock, FlockParams, UnitType};
use super::super::formation::{Formation, PathFollower, SlotTracker};
use super::super::physics_pattern::PatternStep;
use crate::world::EntityId;

/// How a flock is set up: the rules and what its members are.
#[derive(Debug, Clone, PartialEq)]
pub struct FlockSpec {
    /// The rules and weights ([`FlockParams::view`] is the field of view).
    pub params: FlockParams,
    /// Body length of every member in map units; view radii and separation are multiples of it.
    pub length: f32,
    /// Turn rate at full steering force (radians/s).
    pub turn_rate: f32,
    /// Whether the map's walls are obstacles the feelers see (walls always stop movement).
    pub avoid_walls: bool,
    /// The entity the flock's leaders go after (leader election is on when this is set and
    /// `params.leader_force > 0`).
    pub quarry: Option<EntityId>,
    /// Whether leaders intercept the quarry rather than chase it along the line of sight.
    pub intercept: bool,
}

impl Default for FlockSpec {
    fn default() -> Self {
        FlockSpec {
            params: FlockParams::default(),
            length: 1.0,
            turn_rate: 3.0,
            avoid_walls: true,
            quarry: None,
            intercept: false,
        }
    }
}

/// A flock in a running world: its setup and the [`Flock`] it ticks (rebuilt from the members'
/// current state every tick, so members can join and leave between ticks).
#[derive(Debug, Clone)]
pub struct FlockGroup {
    /// The setup.
    pub spec: FlockSpec,
    pub(super) flock: Flock,
    pub(super) walls_ready: bool,
}

impl FlockGroup {
    /// A flock with no members yet.
    pub fn new(spec: FlockSpec) -> Self {
        let ty = UnitType {
            limits: VehicleLimits { max_speed: 1.0, max_turn_rate: spec.turn_rate, acceleration: 1.0 },
            interceptor: spec.intercept,
        };
        FlockGroup { flock: Flock::new(Vec::new(), vec![ty], spec.params), spec, walls_ready: false }
    }

    /// Which members led on the last tick, in member (entity key) order.
    pub fn leaders(&self) -> &[bool] {
        self.flock.leaders()
    }
}

/// The shape of a formation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Line abreast ([`Formation::line`]).
    Line,
    /// Overlord's filled triangle behind the captain ([`Formation::pyramid`]).
    Pyramid,
}

impl Shape {
    /// The formation of `members` (captain excluded) `spacing` apart.
    pub fn formation(self, members: usize, spacing: f32) -> Formation {
        match self {
            Shape::Line => Formation::line(members, spacing),
            Shape::Pyramid => Formation::pyramid(members, spacing),
        }
    }
}

/// How a formation is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct FormationSpec {
    /// Its shape.
    pub shape: Shape,
    /// Distance between neighbouring slots in map units.
    pub spacing: f32,
    /// The captain's throttle (fraction of its top speed): below 1 so members have speed to spare
    /// on the outside of a turn.
    pub captain_throttle: f32,
    /// The waypoints the captain follows (map units); it stops after the last.
    pub path: Vec<Vec2>,
    /// How near a waypoint counts as reached. The captain turns no faster than the formation
    /// allows ([`Formation::max_turn_rate`]), so a wider radius starts the turn earlier.
    pub waypoint_radius: f32,
}

/// A formation in a running world: who leads, who stands in which slot, and where the slots are.
#[derive(Debug, Clone)]
pub struct FormationGroup {
    /// The setup.
    pub spec: FormationSpec,
    /// The captain; when it dies the first member takes command.
    pub captain: Option<EntityId>,
    /// Members in slot order: `members[k]` stands in slot `k`. When one dies the others move up.
    pub members: Vec<EntityId>,
    pub(super) follower: PathFollower,
    pub(super) slots: SlotTracker,
    pub(super) formation: Formation,
}

impl FormationGroup {
    /// A formation with no captain or members yet.
    pub fn new(spec: FormationSpec) -> Self {
        let follower = PathFollower::new(spec.path.clone(), spec.waypoint_radius);
        FormationGroup {
            formation: spec.shape.formation(0, spec.spacing),
            spec,
            captain: None,
            members: Vec::new(),
            follower,
            slots: SlotTracker::default(),
        }
    }

    /// The slot positions of the last tick, in member order (empty before the first tick).
    pub fn slot_positions(&self) -> &[Vec2] {
        &self.slots.positions
    }

    /// The waypoints still ahead of the captain.
    pub fn remaining_path(&self) -> &[Vec2] {
        self.follower.waypoints.get(self.follower.index..).unwrap_or(&[])
    }

    /// Rebuilds the shape after members joined, left or died.
    pub(super) fn reshape(&mut self) {
        self.formation = self.spec.shape.formation(self.members.len(), self.spec.spacing);
    }
}

/// A named movement pattern: the steps of 002a §4.4 (`PatrolPattern`, `ZigZagPattern` or one of
/// the scenario's own).
#[derive(Debug, Clone, PartialEq)]
pub struct PatternSpec {
    /// The instructions, run over and over.
    pub steps: Vec<PatternStep>,
}

/// A flock's field of view by name (`wide`, `limited`, `narrow`), for scenarios and scripts.
pub fn view_mode(name: &str) -> Option<ViewMode> {
    match name {
        "wide" => Some(ViewMode::Wide),
        "limited" => Some(ViewMode::Limited),
        "narrow" => Some(ViewMode::Narrow),
        _ => None,
    }
}
