//! Steering in a running world: which entities steer and how, the named flocks, formations and
//! patterns, and the tick phase that moves them.
//!
//! [`Steering`] is the world's steering state (`World::steering`). Scenarios declare groups and
//! first behaviours, scripts change behaviours with [`SteerOrder`]s (through a command, like every
//! script change), and [`Steering::tick`] runs at the end of the actions phase: every steered
//! entity decides from one snapshot of the world, then all move, walls stopping them
//! ([`slide`]). Entities are visited in key order and groups in name order, so a run is
//! deterministic. Steering drives position, velocity and heading; an entity that is also given a
//! move action is moved by both, so scripts stop steering (`StopSteering`) before walking.

mod groups;
mod walls;

use std::collections::BTreeMap;

use glam::{IVec2, Vec2};
use slotmap::SlotMap;

pub use groups::{FlockGroup, FlockSpec, FormationGroup, FormationSpec, PatternSpec, Shape, view_mode};
pub use walls::{slide, wall_circles};

use super::body::{Control, Vehicle, VehicleLimits};
use super::chase::intercept_point;
use super::flock_sim::{CONTACT_PASSES, Quarry};
use super::formation::follow_slot;
use super::los_chase::{LineVariant, TileLosChase};
use super::obstacle::Circle;
use super::pattern::{PathPattern, PatternError, PatternGrid, StepControl, StepPattern};
use super::physics_pattern::{PATROL_PATTERN, PhysicsPattern, ZIGZAG_PATTERN};
use super::potential::{LennardJones, force_to_control, sum_forces};
use crate::grid::Map;
use crate::path::{ObstacleTracer, TraceExit, Trail, WallTracer, follow_trail};
use crate::world::{Entity, EntityId, EventKind, EventLog, WorldRng};

/// Turn rate (radians/s) of a steered entity outside a flock.
pub const DEFAULT_TURN_RATE: f32 = 3.0;
/// A chaser or interceptor within this distance (map units) of its target has caught it: it logs
/// a `caught` action and stops steering.
pub const CATCH_DISTANCE: f32 = 0.5;

/// What a steered entity does.
#[derive(Debug, Clone, PartialEq)]
pub enum Behaviour {
    /// Line-of-sight chase of an entity (002a Ex. 2-8).
    Chase(EntityId),
    /// Line-of-sight evasion: the chase with the steering flipped.
    Evade(EntityId),
    /// Intercept: aim at the predicted meeting point, or chase when the prey is behind (Ex. 2-9).
    Intercept(EntityId),
    /// Member of the named flock.
    Flock(String),
    /// Captain or member of the named formation (which one is in the [`FormationGroup`]).
    Formation(String),
    /// Flying the named pattern over and over.
    Pattern(String),
    /// Drawn to an entity by the book's Lennard-Jones chase potential and pushed off walls by
    /// its avoidance potential (002b ch. 5): the forces, not a steering rule, decide the turn.
    /// The chase law repels inside its zero crossing (two body lengths), so the mover closes in
    /// and then keeps that distance, as the book's swarming units do; it never "catches".
    Potential(EntityId),
    /// The book's tile chase (002a Ex. 2-4…2-7): one cell at a time along its Bresenham line to
    /// the target, as fast as the entity's speed allows; a wall on the line stops it.
    TileChase(EntityId),
    /// Explores by following walls with the left hand (002b Ex. 6-12), a cell at a time.
    TraceWalls,
    /// Heads for an entity along the book's line and, when a wall blocks it, traces round the
    /// obstacle until it sees the target again (002b §2.3), a cell at a time.
    TraceToward(EntityId),
    /// Follows the breadcrumbs an entity drops as it moves (002b §2.4): onto the newest crumb
    /// within a step, else a random step; a cell at a time.
    FollowTrail(EntityId),
    /// Walks the named tile route (002a Ex. 3-5 … 3-9) from the cell it started in, a cell at a
    /// time: a closed route loops, an open one ends; a wall on the next cell holds it.
    TileRoute(String),
    /// Wanders the named 0/1 pattern grid (002a Ex. 3-10 … 3-12): each step to a marked
    /// neighbour other than the cell just left, chosen by the world's generator; a cell at a time.
    TileWander(String),
    /// Runs the named control-data array on tiles (002a Ex. 3-1 … 3-3): each entry turns in 45°
    /// steps or walks whole cells along the heading, one cell at a time; a wall holds it.
    TileSteps(String),
}

impl Behaviour {
    /// The entity the behaviour aims at, if it aims at one (it stops when that entity is gone).
    pub fn target(&self) -> Option<EntityId> {
        match *self {
            Behaviour::Chase(t)
            | Behaviour::Evade(t)
            | Behaviour::Intercept(t)
            | Behaviour::Potential(t)
            | Behaviour::TileChase(t)
            | Behaviour::TraceToward(t)
            | Behaviour::FollowTrail(t) => Some(t),
            Behaviour::Flock(_)
            | Behaviour::Formation(_)
            | Behaviour::Pattern(_)
            | Behaviour::TraceWalls
            | Behaviour::TileRoute(_)
            | Behaviour::TileWander(_)
            | Behaviour::TileSteps(_) => None,
        }
    }

    /// The name scripts and the trace use: `chase`, `evade`, `intercept`, `flock`, `formation`,
    /// `pattern`.
    pub fn name(&self) -> &'static str {
        match self {
            Behaviour::Chase(_) => "chase",
            Behaviour::Evade(_) => "evade",
            Behaviour::Intercept(_) => "intercept",
            Behaviour::Flock(_) => "flock",
            Behaviour::Formation(_) => "formation",
            Behaviour::Pattern(_) => "pattern",
            Behaviour::Potential(_) => "potential",
            Behaviour::TileChase(_) => "tile_chase",
            Behaviour::TraceWalls => "trace_walls",
            Behaviour::TraceToward(_) => "trace_toward",
            Behaviour::FollowTrail(_) => "follow_trail",
            Behaviour::TileRoute(_) => "tile_route",
            Behaviour::TileWander(_) => "tile_wander",
            Behaviour::TileSteps(_) => "tile_steps",
        }
    }
}

/// A change of an entity's steering, as scripts and scenarios ask for it.
#[derive(Debug, Clone, PartialEq)]
pub enum SteerOrder {
    /// Chase this entity.
    Chase(EntityId),
    /// Evade this entity.
    Evade(EntityId),
    /// Intercept this entity.
    Intercept(EntityId),
    /// Join the named flock.
    JoinFlock(String),
    /// Take slot `slot` (0-based; clamped to the end) in the formation this captain leads; the
    /// members from that slot on move back one.
    FormUp {
        /// The formation's captain.
        captain: EntityId,
        /// The slot.
        slot: usize,
    },
    /// Fly the named pattern.
    RunPattern(String),
    /// Move under the Lennard-Jones potentials toward this entity.
    Potential(EntityId),
    /// Chase this entity tile by tile along the book's line.
    TileChase(EntityId),
    /// Explore by following walls.
    TraceWalls,
    /// Head for this entity, tracing round obstacles.
    TraceToward(EntityId),
    /// Follow this entity's breadcrumbs.
    FollowTrail(EntityId),
    /// Walk the named tile route from where the entity stands.
    RunTileRoute(String),
    /// Wander the named pattern grid.
    WanderTileGrid(String),
    /// Run the named control-data array on tiles.
    RunTileSteps(String),
    /// Stop steering (and leave any flock or formation).
    Stop,
}

/// Why an order was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SteerError {
    /// No flock has this name.
    #[error("no flock is named `{0}`")]
    NoSuchFlock(String),
    /// No formation has this name.
    #[error("no formation is named `{0}`")]
    NoSuchFormation(String),
    /// No pattern has this name.
    #[error("no pattern is named `{0}`")]
    NoSuchPattern(String),
    /// No tile route has this name.
    #[error("no tile route is named `{0}`")]
    NoSuchTileRoute(String),
    /// No pattern grid has this name.
    #[error("no tile grid is named `{0}`")]
    NoSuchTileGrid(String),
    /// No tile step array has this name.
    #[error("no tile steps are named `{0}`")]
    NoSuchTileSteps(String),
    /// The entity leads no formation.
    #[error("that entity leads no formation")]
    NotACaptain,
    /// The entity (or the target) does not exist.
    #[error("no such entity")]
    NoSuchEntity,
    /// An entity cannot chase, evade, intercept or follow itself.
    #[error("an entity cannot steer relative to itself")]
    ItSelf,
}

/// The tile direction (0 = `+y`, counting toward `+x`, as [`StepPattern::apply_tile`]) nearest
/// a heading (radians counter-clockwise from `+x`).
fn tile_direction(heading: f32) -> u8 {
    let h = Vec2::from_angle(heading);
    (0u8..8)
        .max_by(|&a, &b| {
            let dir = |d: u8| {
                let v = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)][d as usize];
                Vec2::new(v.0 as f32, v.1 as f32).normalize().dot(h)
            };
            dir(a).total_cmp(&dir(b)).then(b.cmp(&a))
        })
        .unwrap_or(0)
}

/// The Chebyshev distance between two cells, without overflow for any coordinates.
fn chebyshev(a: IVec2, b: IVec2) -> i64 {
    (i64::from(b.x) - i64::from(a.x)).abs().max((i64::from(b.y) - i64::from(a.y)).abs())
}

/// The most cells a tile route may have (the book's `kMaxPathLength` is 100; a scenario's
/// patrol round a large map needs more).
pub const MAX_TILE_ROUTE: usize = 4096;

/// One steered entity.
#[derive(Debug, Clone)]
struct Agent {
    behaviour: Behaviour,
    /// Speed, nose and length persist between ticks here; the position is re-read from the
    /// entity every tick (actions or the game may have moved it).
    vehicle: Option<Vehicle>,
    limits: VehicleLimits,
    pattern: Option<PhysicsPattern>,
    /// A tile mover's state and the part of a cell it has covered.
    tile: Option<(TileMover, f32)>,
}

/// What a tile mover remembers between steps.
#[derive(Debug, Clone)]
enum TileMover {
    Chase(TileLosChase),
    Walls(WallTracer),
    Around(ObstacleTracer),
    Trail,
    /// A tile route placed at `origin` (the cell the walker started in), at its `step`th cell.
    Route {
        origin: IVec2,
        step: usize,
    },
    /// A pattern grid's wanderer and the cell it came from (its own start at first).
    Wander {
        previous: IVec2,
    },
    /// A control-data array being run: its entries, the direction (0 = `+y`, counting toward
    /// `+x`), and the cells of the current entry still to walk, one `unit` each.
    Steps {
        pattern: StepPattern,
        direction: u8,
        left: i32,
        unit: IVec2,
    },
}

/// The world's steering state: behaviours by entity, and the named groups.
#[derive(Debug, Clone)]
pub struct Steering {
    agents: BTreeMap<EntityId, Agent>,
    flocks: BTreeMap<String, FlockGroup>,
    formations: BTreeMap<String, FormationGroup>,
    patterns: BTreeMap<String, PatternSpec>,
    /// Tile routes by name, relative to their first cell.
    tile_routes: BTreeMap<String, PathPattern>,
    /// Pattern grids by name, in map cells.
    tile_grids: BTreeMap<String, PatternGrid>,
    /// Control-data arrays on tiles by name.
    tile_steps: BTreeMap<String, Vec<StepControl>>,
    /// The breadcrumbs of every entity someone follows, and the cell each last stood in.
    trails: BTreeMap<EntityId, (Trail, IVec2)>,
    /// This tick's decisions, reused.
    controls: Vec<(EntityId, Control)>,
}

impl Default for Steering {
    /// No steered entities; the book's `patrol` and `zigzag` patterns (Ex. 3-16, 3-17) at book
    /// scale.
    fn default() -> Self {
        let mut patterns = BTreeMap::new();
        patterns.insert("patrol".to_owned(), PatternSpec { steps: PATROL_PATTERN.to_vec() });
        patterns.insert("zigzag".to_owned(), PatternSpec { steps: ZIGZAG_PATTERN.to_vec() });
        Steering {
            agents: BTreeMap::new(),
            flocks: BTreeMap::new(),
            formations: BTreeMap::new(),
            patterns,
            tile_routes: BTreeMap::new(),
            tile_grids: BTreeMap::new(),
            tile_steps: BTreeMap::new(),
            trails: BTreeMap::new(),
            controls: Vec::new(),
        }
    }
}

impl Steering {
    /// Adds (or replaces) a flock.
    pub fn add_flock(&mut self, name: impl Into<String>, spec: FlockSpec) {
        self.flocks.insert(name.into(), FlockGroup::new(spec));
    }

    /// Adds (or replaces) a formation led by `captain`, who starts steering as its captain.
    pub fn add_formation(&mut self, name: impl Into<String>, spec: FormationSpec, captain: EntityId) {
        let name = name.into();
        self.leave(captain);
        let mut group = FormationGroup::new(spec);
        group.captain = Some(captain);
        self.formations.insert(name.clone(), group);
        self.agents.insert(captain, Agent::new(Behaviour::Formation(name)));
    }

    /// Adds (or replaces) a pattern.
    pub fn add_pattern(&mut self, name: impl Into<String>, spec: PatternSpec) {
        self.patterns.insert(name.into(), spec);
    }

    /// A flock by name.
    pub fn flock(&self, name: &str) -> Option<&FlockGroup> {
        self.flocks.get(name)
    }

    /// Every flock, by name.
    pub fn flocks(&self) -> &BTreeMap<String, FlockGroup> {
        &self.flocks
    }

    /// A formation by name.
    pub fn formation(&self, name: &str) -> Option<&FormationGroup> {
        self.formations.get(name)
    }

    /// Every formation, by name.
    pub fn formations(&self) -> &BTreeMap<String, FormationGroup> {
        &self.formations
    }

    /// Whether a pattern of this name exists.
    pub fn has_pattern(&self, name: &str) -> bool {
        self.patterns.contains_key(name)
    }

    /// Declares a tile route through `corners` (the book's lines from each to the next; a last
    /// corner equal to the first closes it into a loop), made relative to its first corner, so
    /// it is walked from wherever its walker stands. At most `MAX_TILE_ROUTE` cells.
    pub fn add_tile_route(&mut self, name: impl Into<String>, corners: &[IVec2]) -> Result<(), PatternError> {
        // A line has one cell per step along its longer axis: refuse a route too long before
        // drawing it, so absurd corners cost nothing.
        let cells: i64 = corners.windows(2).map(|w| chebyshev(w[0], w[1]) + 1).sum::<i64>().max(1);
        if cells > MAX_TILE_ROUTE as i64 {
            return Err(PatternError::TooLong { capacity: MAX_TILE_ROUTE });
        }
        let mut route = PathPattern::new(MAX_TILE_ROUTE);
        match corners {
            [only] => route.add_segment(*only, *only)?,
            _ => {
                for pair in corners.windows(2) {
                    route.add_segment(pair[0], pair[1])?;
                }
            }
        }
        route.normalize();
        self.tile_routes.insert(name.into(), route);
        Ok(())
    }

    /// Declares a pattern grid over a `width × height` map: the cells of the book's lines
    /// between each pair of `segments` are marked (cells off the map are skipped).
    pub fn add_tile_grid(&mut self, name: impl Into<String>, width: u32, height: u32, segments: &[(IVec2, IVec2)]) {
        let mut grid = PatternGrid::new(width, height);
        for &(a, b) in segments {
            grid.add_segment(a, b);
        }
        self.tile_grids.insert(name.into(), grid);
    }

    /// Declares a control-data array run on tiles: turns are 45° steps, moves whole cells.
    pub fn add_tile_steps(&mut self, name: impl Into<String>, controls: Vec<StepControl>) {
        self.tile_steps.insert(name.into(), controls);
    }

    /// Whether a tile step array has this name.
    pub fn has_tile_steps(&self, name: &str) -> bool {
        self.tile_steps.contains_key(name)
    }

    /// Whether a pattern grid has this name.
    pub fn has_tile_grid(&self, name: &str) -> bool {
        self.tile_grids.contains_key(name)
    }

    /// Whether a tile route has this name.
    pub fn has_tile_route(&self, name: &str) -> bool {
        self.tile_routes.contains_key(name)
    }

    /// A tile route by name: its cells relative to the first, and whether it loops.
    pub fn tile_route(&self, name: &str) -> Option<(&[IVec2], bool)> {
        self.tile_routes.get(name).map(|r| (r.cells(), r.is_closed()))
    }

    /// The name of the formation `captain` leads.
    pub fn formation_led_by(&self, captain: EntityId) -> Option<&str> {
        self.formations.iter().find(|(_, f)| f.captain == Some(captain)).map(|(n, _)| n.as_str())
    }

    /// What an entity is steering by, if anything.
    pub fn behaviour(&self, id: EntityId) -> Option<&Behaviour> {
        self.agents.get(&id).map(|a| &a.behaviour)
    }

    /// The members of a flock, in key order.
    pub fn flock_members(&self, name: &str) -> Vec<EntityId> {
        self.agents
            .iter()
            .filter(|(_, a)| matches!(&a.behaviour, Behaviour::Flock(f) if f == name))
            .map(|(id, _)| *id)
            .collect()
    }

    /// Carries out an order for `entity`, returning a short description for the trace. The entity
    /// first leaves whatever it was doing (a captain who leaves hands command to its first member).
    pub fn order(&mut self, entity: EntityId, order: SteerOrder) -> Result<String, SteerError> {
        let target_ok = |t: EntityId| if t == entity { Err(SteerError::ItSelf) } else { Ok(()) };
        let (behaviour, detail) = match order {
            SteerOrder::Stop => {
                self.leave(entity);
                return Ok("stop".to_owned());
            }
            SteerOrder::Chase(t) => (target_ok(t).map(|_| Behaviour::Chase(t))?, String::new()),
            SteerOrder::Evade(t) => (target_ok(t).map(|_| Behaviour::Evade(t))?, String::new()),
            SteerOrder::Intercept(t) => (target_ok(t).map(|_| Behaviour::Intercept(t))?, String::new()),
            SteerOrder::Potential(t) => (target_ok(t).map(|_| Behaviour::Potential(t))?, String::new()),
            SteerOrder::TileChase(t) => (target_ok(t).map(|_| Behaviour::TileChase(t))?, String::new()),
            SteerOrder::TraceWalls => (Behaviour::TraceWalls, String::new()),
            SteerOrder::TraceToward(t) => (target_ok(t).map(|_| Behaviour::TraceToward(t))?, String::new()),
            SteerOrder::FollowTrail(t) => (target_ok(t).map(|_| Behaviour::FollowTrail(t))?, String::new()),
            SteerOrder::JoinFlock(name) => {
                if !self.flocks.contains_key(&name) {
                    return Err(SteerError::NoSuchFlock(name));
                }
                (Behaviour::Flock(name.clone()), name)
            }
            SteerOrder::RunTileRoute(name) => {
                if !self.tile_routes.contains_key(&name) {
                    return Err(SteerError::NoSuchTileRoute(name));
                }
                (Behaviour::TileRoute(name.clone()), name)
            }
            SteerOrder::WanderTileGrid(name) => {
                if !self.tile_grids.contains_key(&name) {
                    return Err(SteerError::NoSuchTileGrid(name));
                }
                (Behaviour::TileWander(name.clone()), name)
            }
            SteerOrder::RunTileSteps(name) => {
                if !self.tile_steps.contains_key(&name) {
                    return Err(SteerError::NoSuchTileSteps(name));
                }
                (Behaviour::TileSteps(name.clone()), name)
            }
            SteerOrder::RunPattern(name) => {
                if !self.patterns.contains_key(&name) {
                    return Err(SteerError::NoSuchPattern(name));
                }
                (Behaviour::Pattern(name.clone()), name)
            }
            SteerOrder::FormUp { captain, slot } => {
                target_ok(captain)?;
                let name = self.formation_led_by(captain).ok_or(SteerError::NotACaptain)?.to_owned();
                self.leave(entity);
                let group = self.formations.get_mut(&name).ok_or(SteerError::NotACaptain)?;
                let slot = slot.min(group.members.len());
                group.members.insert(slot, entity);
                group.reshape();
                self.agents.insert(entity, Agent::new(Behaviour::Formation(name.clone())));
                return Ok(format!("{name} slot {slot}"));
            }
        };
        self.leave(entity);
        self.agents.insert(entity, Agent::new(behaviour));
        Ok(detail)
    }

    /// `entity` stops steering and leaves its formation (its slot closes up; a captain hands
    /// command to the first member).
    fn leave(&mut self, entity: EntityId) {
        if self.agents.remove(&entity).is_none() {
            return;
        }
        for group in self.formations.values_mut() {
            if let Some(k) = group.members.iter().position(|&m| m == entity) {
                group.members.remove(k);
                group.reshape();
            }
            if group.captain == Some(entity) {
                group.captain = if group.members.is_empty() { None } else { Some(group.members.remove(0)) };
                group.reshape();
            }
        }
    }

    /// The steering phase: forget entities that are gone (formations re-form), decide every
    /// steered entity from the same snapshot, then move them all by `dt`, walls stopping them.
    pub fn tick(
        &mut self,
        entities: &mut SlotMap<EntityId, Entity>,
        map: &Map,
        log: &mut EventLog,
        rng: &mut WorldRng,
        tick: u64,
        dt: f32,
    ) {
        if self.agents.is_empty() {
            return;
        }
        // Entities that are gone stop (their formations re-form), and so do pursuers whose target
        // is gone.
        let gone: Vec<EntityId> = self
            .agents
            .iter()
            .filter(|(id, a)| {
                let target = a.behaviour.target();
                !entities.contains_key(**id) || target.is_some_and(|t| !entities.contains_key(t))
            })
            .map(|(id, _)| *id)
            .collect();
        for id in gone {
            self.leave(id);
        }
        self.sync(entities);
        self.tile_movers(entities, map, log, rng, tick, dt);
        let mut controls = std::mem::take(&mut self.controls);
        controls.clear();
        self.decide(entities, map, dt, &mut controls);
        for &(id, control) in &controls {
            let (Some(agent), Some(e)) = (self.agents.get_mut(&id), entities.get_mut(id)) else { continue };
            let Some(v) = agent.vehicle.as_mut() else { continue };
            let from = v.position;
            v.step(control, &agent.limits, dt);
            let to = slide(map, from, v.position);
            v.position = to;
            if to != from + v.velocity * dt {
                // Blocked by a wall: the collision response the book says steering still needs
                // (002a L2190). What is left of the velocity is what it moved, and the nose turns
                // along the wall it slid on — or a quarter turn when it could not move at all —
                // so a body pressed into a wall or a corner is not pinned there by forces that
                // cancel.
                let moved = to - from;
                v.velocity = moved / dt;
                v.heading = moved.try_normalize().unwrap_or_else(|| v.heading.perp());
            }
            e.position = to;
            e.velocity = v.velocity;
            e.heading = v.heading.y.atan2(v.heading.x);
            log_move(log, tick, &e.name, from, to);
        }
        self.controls = controls;
        self.separate_flocks(entities, map, log, tick);
        self.catches(entities, log, tick);
    }

    /// The flocks' contact pass ([`FlockParams::contact`](super::FlockParams::contact)):
    /// members that ended the move nearer than their bodies' width are pushed apart, and a push
    /// into a wall slides along it.
    fn separate_flocks(&mut self, entities: &mut SlotMap<EntityId, Entity>, map: &Map, log: &mut EventLog, tick: u64) {
        let names: Vec<String> = self.flocks.keys().cloned().collect();
        for name in names {
            let members: Vec<EntityId> =
                self.flock_members(&name).into_iter().filter(|id| self.agents[id].vehicle.is_some()).collect();
            let group = self.flocks.get_mut(&name).expect("listed above");
            // The flock's units are this tick's decision snapshot, one per member in this order.
            if group.flock.units.len() != members.len() {
                continue;
            }
            for (unit, id) in group.flock.units.iter_mut().zip(&members) {
                unit.position = self.agents[id].vehicle.expect("filtered above").position;
            }
            // Walls stop pushes as they stop moves: each push slides along them, and what a wall
            // takes of a push the partner takes.
            if !group.flock.start_contacts() {
                continue;
            }
            for _ in 0..CONTACT_PASSES {
                if !group.flock.contact_pass(|_, _, from, to| slide(map, from, to)) {
                    break;
                }
            }
            for (unit, id) in group.flock.units.iter().zip(&members) {
                let (Some(v), Some(e)) =
                    (self.agents.get_mut(id).and_then(|a| a.vehicle.as_mut()), entities.get_mut(*id))
                else {
                    continue;
                };
                if unit.position != v.position {
                    let from = v.position;
                    (v.position, e.position) = (unit.position, unit.position);
                    log_move(log, tick, &e.name, from, unit.position);
                }
            }
        }
    }

    /// Reads every agent's position from its entity and its limits from the entity's speed.
    fn sync(&mut self, entities: &SlotMap<EntityId, Entity>) {
        for (&id, agent) in &mut self.agents {
            let Some(e) = entities.get(id) else { continue };
            let (length, turn_rate) = match &agent.behaviour {
                Behaviour::Flock(name) => {
                    self.flocks.get(name).map_or((1.0, DEFAULT_TURN_RATE), |f| (f.spec.length, f.spec.turn_rate))
                }
                _ => (1.0, DEFAULT_TURN_RATE),
            };
            let speed = e.speed.max(0.0);
            agent.limits = VehicleLimits { max_speed: speed, max_turn_rate: turn_rate, acceleration: 2.0 * speed };
            let v = agent.vehicle.get_or_insert_with(|| {
                Vehicle::new(e.position, Vec2::from_angle(e.heading), e.velocity.length().min(speed), length)
            });
            v.position = e.position;
            v.length = length;
        }
    }

    /// Position and velocity of an entity as steering sees it: a steered one's own vehicle (its
    /// entity velocity was reset by this tick's actions phase), else the entity's.
    fn motion(&self, id: EntityId, entities: &SlotMap<EntityId, Entity>) -> Option<(Vec2, Vec2)> {
        match self.agents.get(&id).and_then(|a| a.vehicle) {
            Some(v) => Some((v.position, v.velocity)),
            None => entities.get(id).map(|e| (e.position, e.velocity)),
        }
    }

    fn decide(&mut self, entities: &SlotMap<EntityId, Entity>, map: &Map, dt: f32, out: &mut Vec<(EntityId, Control)>) {
        // Single agents: chase, evade, intercept, patterns.
        let ids: Vec<EntityId> = self.agents.keys().copied().collect();
        for id in ids {
            let agent = &self.agents[&id];
            let Some(v) = agent.vehicle else { continue };
            let limits = agent.limits;
            let control = match agent.behaviour.clone() {
                Behaviour::Chase(t) | Behaviour::Intercept(t) | Behaviour::Evade(t) => {
                    let Some((pos, vel)) = self.motion(t, entities) else { continue };
                    let aim = match agent.behaviour {
                        Behaviour::Intercept(_) => intercept_aim(&v, pos, vel),
                        Behaviour::Evade(_) => v.position * 2.0 - pos,
                        _ => pos,
                    };
                    Control::steer(steer_toward(&v, aim, &limits, dt))
                }
                Behaviour::Pattern(name) => {
                    let Some(spec) = self.patterns.get(&name) else { continue };
                    let agent = self.agents.get_mut(&id).expect("listed above");
                    let run = agent.pattern.get_or_insert_with(|| PhysicsPattern::new(&spec.steps, &v));
                    run.control(&v)
                }
                Behaviour::Potential(t) => {
                    let Some((pos, _)) = self.motion(t, entities) else { continue };
                    let pull = LennardJones::CHASE.force(v.position, pos, v.length);
                    // Walls push within three body lengths, as the book's obstacles do.
                    let walls = self.wall_points(map, v.position, 3.0 * v.length.max(1.0));
                    let push = sum_forces(&LennardJones::AVOID, v.position, v.length, &walls, 3.0 * v.length.max(1.0));
                    // Forces are measured against the pull: far from the target the pull is weak
                    // in the book's units, yet it alone should turn the unit fully toward it.
                    force_to_control(&v, pull + push, pull.length().max(1e-3))
                }
                Behaviour::Flock(_)
                | Behaviour::Formation(_)
                | Behaviour::TileChase(_)
                | Behaviour::TraceWalls
                | Behaviour::TraceToward(_)
                | Behaviour::FollowTrail(_)
                | Behaviour::TileRoute(_)
                | Behaviour::TileWander(_)
                | Behaviour::TileSteps(_) => continue,
            };
            out.push((id, control));
        }
        self.decide_flocks(entities, map, out);
        self.decide_formations(dt, out);
    }

    fn decide_flocks(&mut self, entities: &SlotMap<EntityId, Entity>, map: &Map, out: &mut Vec<(EntityId, Control)>) {
        let names: Vec<String> = self.flocks.keys().cloned().collect();
        for name in names {
            let members = self.flock_members(&name);
            let quarry = self.flocks[&name].spec.quarry.and_then(|q| self.motion(q, entities));
            let units: Vec<Vehicle> = members.iter().filter_map(|id| self.agents[id].vehicle).collect();
            let group = self.flocks.get_mut(&name).expect("listed above");
            if !group.walls_ready {
                let walls: Vec<Circle> = if group.spec.avoid_walls { wall_circles(map) } else { Vec::new() };
                group.flock.set_obstacles(walls);
                group.walls_ready = true;
            }
            group.flock.units = units;
            group.flock.decide(quarry.map(|(position, velocity)| Quarry { position, velocity }));
            out.extend(members.iter().copied().zip(group.flock.controls().iter().copied()));
        }
    }

    fn decide_formations(&mut self, dt: f32, out: &mut Vec<(EntityId, Control)>) {
        for group in self.formations.values_mut() {
            let Some(captain) = group.captain else { continue };
            let Some(agent) = self.agents.get(&captain) else { continue };
            let Some(cv) = agent.vehicle else { continue };
            let member_speed = group
                .members
                .iter()
                .filter_map(|m| self.agents.get(m).map(|a| a.limits.max_speed))
                .fold(f32::INFINITY, f32::min);
            let member_speed = if member_speed.is_finite() { member_speed } else { agent.limits.max_speed };
            let captain_speed = agent.limits.max_speed * group.spec.captain_throttle;
            // The captain turns no faster than its outermost slot can follow (with 10% to spare).
            let max_turn = group.formation.max_turn_rate(captain_speed, member_speed * 0.9);
            let max_steer = (max_turn / agent.limits.max_turn_rate.max(1e-3)).min(1.0);
            out.push((captain, group.follower.control(&cv, group.spec.captain_throttle, max_steer)));
            group.slots.update(&group.formation, &cv, dt);
            for (k, m) in group.members.iter().enumerate() {
                let Some(a) = self.agents.get(m) else { continue };
                let (Some(v), Some(&slot), Some(&slot_vel)) =
                    (a.vehicle, group.slots.positions.get(k), group.slots.velocities.get(k))
                else {
                    continue;
                };
                out.push((*m, follow_slot(&v, slot, slot_vel, a.limits.max_speed)));
            }
        }
    }

    /// Wall cells' centres within `reach` of `p`, the obstacles a potential-field mover feels.
    fn wall_points(&self, map: &Map, p: Vec2, reach: f32) -> Vec<Vec2> {
        let (lo, hi) = ((p - Vec2::splat(reach)).floor().as_ivec2(), (p + Vec2::splat(reach)).floor().as_ivec2());
        let mut out = Vec::new();
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let c = glam::IVec2::new(x, y);
                let centre = c.as_vec2() + Vec2::splat(0.5);
                if map.contains(c) && !map.passable(c) && centre.distance(p) <= reach {
                    out.push(centre);
                }
            }
        }
        out
    }

    /// Tile movers step cell by cell: each tick adds `speed × dt` cells of progress, and every
    /// whole cell is one step of the mover's rule — the chase along the book's line to the
    /// target's cell (a wall on the line stops it, as the book's chase does), the left-hand wall
    /// follower, the obstacle tracer, the breadcrumb follower. Followed entities drop a crumb
    /// whenever they enter a new cell.
    fn tile_movers(
        &mut self,
        entities: &mut SlotMap<EntityId, Entity>,
        map: &Map,
        log: &mut EventLog,
        rng: &mut WorldRng,
        tick: u64,
        dt: f32,
    ) {
        let followed: Vec<EntityId> = self
            .agents
            .values()
            .filter_map(|a| if let Behaviour::FollowTrail(t) = a.behaviour { Some(t) } else { None })
            .collect();
        self.trails.retain(|id, _| followed.contains(id));
        for t in followed {
            let Some(cell) = entities.get(t).map(Entity::cell) else { continue };
            let (trail, last) = self.trails.entry(t).or_insert_with(|| (Trail::new(), cell));
            if *last != cell {
                trail.drop_crumb(cell);
                *last = cell;
            }
        }
        let ids: Vec<EntityId> = self.agents.keys().copied().collect();
        for id in ids {
            let behaviour = self.agents[&id].behaviour.clone();
            if !matches!(
                behaviour,
                Behaviour::TileChase(_)
                    | Behaviour::TraceToward(_)
                    | Behaviour::FollowTrail(_)
                    | Behaviour::TraceWalls
                    | Behaviour::TileRoute(_)
                    | Behaviour::TileWander(_)
                    | Behaviour::TileSteps(_)
            ) {
                continue;
            }
            let target = match behaviour.target() {
                Some(t) => match entities.get(t).map(Entity::cell) {
                    Some(c) => Some((t, c)),
                    None => continue,
                },
                None => None,
            };
            let Some(e) = entities.get_mut(id) else { continue };
            let agent = self.agents.get_mut(&id).expect("listed above");
            let (mover, progress) = agent.tile.get_or_insert_with(|| {
                let m = match behaviour {
                    Behaviour::TileChase(_) => TileMover::Chase(TileLosChase::new(LineVariant::Book)),
                    Behaviour::TraceWalls => TileMover::Walls(WallTracer::new(e.cell())),
                    Behaviour::TraceToward(_) => TileMover::Around(ObstacleTracer::new(TraceExit::LineOfSight)),
                    Behaviour::TileRoute(_) => TileMover::Route { origin: e.cell(), step: 0 },
                    Behaviour::TileWander(_) => TileMover::Wander { previous: e.cell() },
                    Behaviour::TileSteps(ref name) => TileMover::Steps {
                        pattern: StepPattern::new(self.tile_steps.get(name).map_or(&[][..], Vec::as_slice)),
                        direction: tile_direction(e.heading),
                        left: 0,
                        unit: IVec2::ZERO,
                    },
                    _ => TileMover::Trail,
                };
                (m, 0.0)
            });
            *progress += e.speed.max(0.0) * dt;
            let from = e.position;
            while *progress >= 1.0 {
                *progress -= 1.0;
                let here = e.cell();
                let next = match (&mut *mover, target) {
                    (TileMover::Chase(c), Some((_, prey))) => c.step(here, prey, Some(map)),
                    (TileMover::Walls(w), _) => {
                        w.cell = here;
                        w.step(map).unwrap_or(here)
                    }
                    (TileMover::Around(o), Some((_, goal))) => o.step(map, here, goal),
                    (TileMover::Route { origin, step }, _) => {
                        let route = match &behaviour {
                            Behaviour::TileRoute(name) => self.tile_routes.get(name),
                            _ => None,
                        };
                        // A wall (a closed door, another map edit) on the next cell holds the
                        // walker where it is; it goes on when the cell opens.
                        match route.and_then(|r| r.cell_at(*step + 1, *origin)) {
                            Some(c) if c != here && map.passable(c) => {
                                *step += 1;
                                c
                            }
                            Some(c) if c == here => {
                                *step += 1;
                                here
                            }
                            _ => here,
                        }
                    }
                    (TileMover::Wander { previous }, _) => {
                        let grid = match &behaviour {
                            Behaviour::TileWander(name) => self.tile_grids.get(name),
                            _ => None,
                        };
                        match grid.map(|g| g.follow(here, *previous, rng)) {
                            // Marked cells are the designer's; a wall (a closed door) still holds.
                            Some(c) if c != here && map.passable(c) => {
                                *previous = here;
                                c
                            }
                            _ => here,
                        }
                    }
                    (TileMover::Steps { pattern, direction, left, unit }, _) => {
                        // Entries that move nothing (zero steps) are skipped, at most one lap's worth.
                        let mut next = here;
                        for _ in 0..=pattern.controls.len() {
                            if *left > 0 {
                                let c = here + *unit;
                                if map.passable(c) {
                                    *left -= 1;
                                    next = c;
                                }
                                break;
                            }
                            let mut moved = IVec2::ZERO;
                            let before = *direction;
                            pattern.apply_tile(&mut moved, direction);
                            if moved != IVec2::ZERO {
                                *unit = moved.signum();
                                *left = moved.abs().max_element();
                            } else if *direction != before {
                                // A turn takes the rest of the tick.
                                break;
                            }
                        }
                        next
                    }
                    (TileMover::Trail, Some((t, _))) => match self.trails.get(&t) {
                        Some((trail, _)) => follow_trail(trail, map, here, rng),
                        None => here,
                    },
                    _ => here,
                };
                if next == here {
                    *progress = 0.0;
                    break;
                }
                e.position = next.as_vec2() + Vec2::splat(0.5);
                let d = (next - here).as_vec2();
                e.heading = d.y.atan2(d.x);
            }
            e.velocity = (e.position - from) / dt.max(1e-6);
            if let Some(v) = agent.vehicle.as_mut() {
                v.position = e.position;
            }
            log_move(log, tick, &e.name, from, e.position);
        }
    }

    /// Chasers and interceptors that reached their target log `caught` and stop.
    fn catches(&mut self, entities: &mut SlotMap<EntityId, Entity>, log: &mut EventLog, tick: u64) {
        let caught: Vec<(EntityId, EntityId)> = self
            .agents
            .iter()
            .filter_map(|(&id, a)| match a.behaviour {
                Behaviour::Chase(t)
                | Behaviour::Intercept(t)
                | Behaviour::TileChase(t)
                | Behaviour::TraceToward(t)
                | Behaviour::FollowTrail(t) => {
                    let (p, q) = (entities.get(id)?.position, entities.get(t)?.position);
                    (p.distance(q) <= CATCH_DISTANCE).then_some((id, t))
                }
                _ => None,
            })
            .collect();
        for (id, t) in caught {
            self.leave(id);
            let target = entities.get(t).map_or_else(String::new, |e| e.name.clone());
            if let Some(e) = entities.get_mut(id) {
                e.velocity = Vec2::ZERO;
                log.push(tick, Some(&e.name), EventKind::Action { action: "caught".into(), detail: target });
            }
        }
    }
}

impl Agent {
    fn new(behaviour: Behaviour) -> Self {
        Agent { behaviour, vehicle: None, limits: VehicleLimits::default(), pattern: None, tile: None }
    }
}

/// The lateral steer toward `aim`: the book's line-of-sight decision (full force toward the side
/// the target is on, Ex. 2-8), scaled down when a full-force turn would overshoot the line within
/// this tick, so the nose settles on the target instead of swinging across it every tick.
fn steer_toward(v: &Vehicle, aim: Vec2, limits: &VehicleLimits, dt: f32) -> f32 {
    let local = v.frame().to_local(aim - v.position);
    if local == Vec2::ZERO {
        return 0.0;
    }
    let angle = local.x.atan2(local.y);
    let full = (limits.max_turn_rate * dt).max(1e-6);
    (angle / full).clamp(-1.0, 1.0)
}

/// Where an interceptor aims: the predicted meeting point, or the prey itself when it is behind
/// or there is no closing speed (the book's fallback, L832).
fn intercept_aim(v: &Vehicle, prey: Vec2, prey_vel: Vec2) -> Vec2 {
    let behind = v.frame().to_local(prey - v.position).y < 0.0;
    match intercept_point(v.position, v.velocity, prey, prey_vel) {
        Some(hit) if !behind => hit.point,
        _ => prey,
    }
}

/// Logs a `Move` when a steered entity changed cells.
fn log_move(log: &mut EventLog, tick: u64, name: &str, from: Vec2, to: Vec2) {
    let (a, b) = (from.floor().as_ivec2(), to.floor().as_ivec2());
    if a != b {
        log.push(tick, Some(name), EventKind::Move { from: a.to_array(), to: b.to_array() });
    }
}

#[cfg(test)]
mod tests;
