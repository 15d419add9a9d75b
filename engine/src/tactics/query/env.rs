//! What the evaluator reads from the world: the objects of a request, candidate points, and the
//! small traits that tactical data sources implement (the hidespot database, cover rails, a path
//! distance oracle, influence layers, entities and regions).
//!
//! The traits are deliberately narrow so that any waypoint database, path planner or influence map
//! can answer a query: [`QueryEnv`] bundles borrowed implementations for one evaluation step.

use glam::{IVec2, Vec2};

use super::keyword::ObjectKind;
use super::reserve::Reservations;
use crate::grid::{Map, line_of_sight};
use crate::world::{EntityId, Region, World};

/// Where an object is, which way it faces and how fast it moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObjectState {
    /// Position in map units.
    pub position: Vec2,
    /// Unit facing (line of fire, view direction); zero when unknown.
    pub forward: Vec2,
    /// Top speed in map units per second (for `canReachBefore`); 0 means "same as the puppet".
    pub speed: f32,
}

impl ObjectState {
    /// An object at `position` facing nowhere in particular.
    pub fn at(position: Vec2) -> Self {
        ObjectState { position, forward: Vec2::ZERO, speed: 0.0 }
    }

    /// An entity as a query object: where it stands, the way it faces and its speed.
    pub fn of(e: &crate::world::Entity) -> Self {
        ObjectState { position: e.position, forward: Vec2::from_angle(e.heading), speed: e.speed }
    }
}

/// The objects of one request, one slot per [`ObjectKind`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Objects {
    slots: [Option<ObjectState>; 6],
}

impl Objects {
    /// No objects set.
    pub fn new() -> Self {
        Objects::default()
    }

    /// Sets an object (builder style).
    pub fn with(mut self, kind: ObjectKind, state: ObjectState) -> Self {
        self.set(kind, state);
        self
    }

    /// Sets an object.
    pub fn set(&mut self, kind: ObjectKind, state: ObjectState) {
        self.slots[kind.slot()] = Some(state);
    }

    /// An object, if set.
    pub fn get(&self, kind: ObjectKind) -> Option<&ObjectState> {
        self.slots[kind.slot()].as_ref()
    }

    /// The objects of `puppet` as the world knows them: the puppet itself; `target`,
    /// `referencePoint` and `leader` from its blackboard (an entity handle or a position under
    /// those keys, else an attribute of that name holding an entity's name); `player` as the scenario's player (else the first entity of kind `player`),
    /// which is also the `target` when the blackboard names none; `squadCenter` as the mean
    /// position of the entities sharing its `squad` attribute (itself included).
    pub fn from_world(world: &World, puppet: EntityId) -> Objects {
        let mut objects = Objects::new();
        let Some(me) = world.entity(puppet) else { return objects };
        let state = ObjectState::of;
        objects.set(ObjectKind::Puppet, state(me));
        for (key, kind) in [
            ("target", ObjectKind::Target),
            ("referencePoint", ObjectKind::ReferencePoint),
            ("leader", ObjectKind::Leader),
        ] {
            match me.blackboard.get(key) {
                Some(crate::Value::Entity(id)) => {
                    if let Some(e) = world.entity(*id) {
                        objects.set(kind, state(e));
                    }
                }
                Some(crate::Value::Vec2(p)) => objects.set(kind, ObjectState::at(*p)),
                // A scenario names the object by an attribute (`referencePoint = "goal"`).
                _ => {
                    if let Some(e) =
                        me.attribute(key).as_str().and_then(|n| world.find(n)).and_then(|id| world.entity(id))
                    {
                        objects.set(kind, state(e));
                    }
                }
            }
        }
        let player = world.player().or_else(|| world.entities().find(|(_, e)| e.kind == "player").map(|(id, _)| id));
        if let Some(p) = player.and_then(|id| world.entity(id)) {
            objects.set(ObjectKind::Player, state(p));
            // The attention target, when the blackboard names none, is the player — unless the
            // puppet is the player itself.
            if objects.get(ObjectKind::Target).is_none() && player != Some(puppet) {
                objects.set(ObjectKind::Target, state(p));
            }
        }
        let squad = me.attribute("squad");
        if !squad.truthy() {
            objects.set(ObjectKind::SquadCenter, ObjectState::at(me.position));
        } else {
            let members: Vec<Vec2> =
                world.entities().filter(|(_, e)| e.attribute("squad") == squad).map(|(_, e)| e.position).collect();
            let centre = members.iter().copied().sum::<Vec2>() / members.len().max(1) as f32;
            objects.set(ObjectKind::SquadCenter, ObjectState::at(centre));
        }
        objects
    }
}

/// Cover a point offers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cover {
    /// Hard (stops bullets) rather than soft (hides only).
    pub hard: bool,
    /// High (standing) rather than low (crouching).
    pub high: bool,
    /// Quality in [0, 1].
    pub quality: f32,
    /// The unit direction the cover faces (towards the threat it protects from); `None` for cover
    /// that protects from every side (a point generated opposite the threat).
    pub facing: Option<Vec2>,
    /// Cosine of the cover cone's half-angle: a threat in direction `d` is covered when
    /// `d · facing ≥ cos_half_angle`.
    pub cos_half_angle: f32,
}

/// How a hidespot gives cover.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HidespotShape {
    /// A fixed point with a cover cone (a designer's "hide anchor", 001:L74).
    Directional,
    /// A point around an obstacle (a tree) at `standoff` from its centre, generated on the side
    /// opposite the threat at every request (001:L85).
    AroundObstacle {
        /// The obstacle's centre.
        obstacle: Vec2,
        /// Distance from the obstacle's centre to the hiding position.
        standoff: f32,
    },
}

/// A hidespot in a tactical waypoint database.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hidespot {
    /// Unique id (reservations mark it occupied, 001:L112).
    pub id: u32,
    /// Its position (for [`HidespotShape::AroundObstacle`], the obstacle's centre is used for the
    /// radius test and the position is generated).
    pub position: Vec2,
    /// Directional or around an obstacle.
    pub shape: HidespotShape,
    /// The cover it offers.
    pub cover: Cover,
}

/// A source of hidespots (the tactical waypoint database).
pub trait HidespotSource {
    /// Appends every hidespot whose position lies within `radius` of `centre`.
    fn hidespots_within(&self, centre: Vec2, radius: f32, out: &mut Vec<Hidespot>);
}

/// A cover rail: a polyline along which an agent can take cover anywhere (001:L94).
#[derive(Debug, Clone, PartialEq)]
pub struct CoverRail {
    /// Unique id.
    pub id: u32,
    /// The rail's vertices (at least two).
    pub points: Vec<Vec2>,
    /// The cover it offers (its facing is the rail's protected side).
    pub cover: Cover,
}

/// A source of cover rails.
pub trait CoverRailSource {
    /// Appends every rail that passes within `radius` of `centre`.
    fn rails_within(&self, centre: Vec2, radius: f32, out: &mut Vec<CoverRail>);
}

/// Path distances (an expensive criterion: a path search per question).
pub trait PathOracle {
    /// The length of the shortest path from `from` to `to`, or `None` when unreachable.
    fn path_distance(&self, from: Vec2, to: Vec2) -> Option<f32>;
}

/// Influence layers by name.
pub trait InfluenceLookup {
    /// The layer's value at `at`, or `None` when no layer has that name.
    fn influence(&self, layer: &str, at: Vec2) -> Option<f32>;
    /// The layer's declared limits (for normalising it as a weight), `None` for an unknown layer.
    fn influence_limits(&self, layer: &str) -> Option<(f32, f32)>;
}

/// Entities by kind, and named regions.
pub trait EntitySource {
    /// Appends `(id, position)` of every entity of `kind`, in a stable order.
    fn entities_of_kind(&self, kind: &str, out: &mut Vec<(EntityId, Vec2)>);
    /// A named region.
    fn region(&self, name: &str) -> Option<Region>;
    /// Calls `each` with the position of every opponent of `owner`, in a stable order: entities
    /// with a team other than the owner's (entities without a team are nobody's opponents).
    fn opponents_of(&self, _owner: EntityId, _each: &mut dyn FnMut(Vec2)) {}
}

impl EntitySource for World {
    fn entities_of_kind(&self, kind: &str, out: &mut Vec<(EntityId, Vec2)>) {
        out.extend(self.entities().filter(|(_, e)| e.kind == kind).map(|(id, e)| (id, e.position)));
    }

    fn region(&self, name: &str) -> Option<Region> {
        World::region(self, name)
    }

    fn opponents_of(&self, owner: EntityId, each: &mut dyn FnMut(Vec2)) {
        let team = self.entity(owner).map_or("", |e| e.team.as_str());
        for (id, e) in self.entities() {
            if id != owner && !e.team.is_empty() && e.team != team {
                each(e.position);
            }
        }
    }
}

/// A source with no data: no hidespots, rails, paths, layers, entities or regions.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoData;

impl HidespotSource for NoData {
    fn hidespots_within(&self, _: Vec2, _: f32, _: &mut Vec<Hidespot>) {}
}
impl CoverRailSource for NoData {
    fn rails_within(&self, _: Vec2, _: f32, _: &mut Vec<CoverRail>) {}
}
impl PathOracle for NoData {
    fn path_distance(&self, _: Vec2, _: Vec2) -> Option<f32> {
        None
    }
}
impl InfluenceLookup for NoData {
    fn influence(&self, _: &str, _: Vec2) -> Option<f32> {
        None
    }
    fn influence_limits(&self, _: &str) -> Option<(f32, f32)> {
        None
    }
}
impl EntitySource for NoData {
    fn entities_of_kind(&self, _: &str, _: &mut Vec<(EntityId, Vec2)>) {}
    fn region(&self, _: &str) -> Option<Region> {
        None
    }
}

/// Borrowed data sources for evaluating queries.
#[derive(Clone, Copy)]
pub struct QueryEnv<'a> {
    /// The map: passability of candidates and line of sight.
    pub map: &'a Map,
    /// The hidespot database.
    pub hidespots: &'a dyn HidespotSource,
    /// Cover rails.
    pub rails: &'a dyn CoverRailSource,
    /// Path distances.
    pub paths: &'a dyn PathOracle,
    /// Influence layers.
    pub influence: &'a dyn InfluenceLookup,
    /// Entities and regions.
    pub entities: &'a dyn EntitySource,
    /// Points held by agents.
    pub reservations: &'a Reservations,
}

impl<'a> QueryEnv<'a> {
    /// An environment over `map` with no other data; set the fields you have.
    pub fn new(map: &'a Map, reservations: &'a Reservations) -> Self {
        QueryEnv {
            map,
            hidespots: &NoData,
            rails: &NoData,
            paths: &NoData,
            influence: &NoData,
            entities: &NoData,
            reservations,
        }
    }

    /// Whether `b` is visible from `a` on the map (cell line of sight).
    pub fn line_of_sight(&self, a: Vec2, b: Vec2) -> bool {
        line_of_sight(self.map, cell(a), cell(b))
    }
}

/// The cell a position lies in.
pub fn cell(p: Vec2) -> IVec2 {
    p.floor().as_ivec2()
}

/// Where a candidate came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PointSource {
    /// A hidespot of the database.
    Hidespot(u32),
    /// A grid point.
    Grid,
    /// A point on a circle.
    Circle,
    /// An entity's position.
    Entity(EntityId),
    /// A point in a region.
    Region,
    /// A point on a cover rail.
    Rail(u32),
    /// A doorway.
    Doorway,
    /// A sniper spot.
    SniperSpot,
}

/// A candidate point, presented uniformly whatever its source (001:L96).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// Position in map units.
    pub position: Vec2,
    /// Its source (and the hidespot or entity id).
    pub source: PointSource,
    /// The cover it offers, if any.
    pub cover: Option<Cover>,
}

/// What identifies a point for reservations and de-duplication.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PointKey {
    /// A database hidespot.
    Hidespot(u32),
    /// An entity.
    Entity(EntityId),
    /// Any other point, by cell.
    Cell(i32, i32),
}

impl Candidate {
    /// The key reservations use.
    pub fn key(&self) -> PointKey {
        match self.source {
            PointSource::Hidespot(id) => PointKey::Hidespot(id),
            PointSource::Entity(id) => PointKey::Entity(id),
            _ => {
                let c = cell(self.position);
                PointKey::Cell(c.x, c.y)
            }
        }
    }
}
