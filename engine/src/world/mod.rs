//! The world: entities, globals, places and regions, the clock, the random generator, the event
//! log, and the fixed phases of a tick.

mod blackboard;
mod build;
mod clock;
mod command;
mod entity;
mod events;
mod places;
pub(crate) mod prefetch;
mod rng;
mod standing;
mod tick;
mod turns;

use std::collections::BTreeMap;

use glam::{IVec2, Vec2};
use slotmap::SlotMap;

pub use blackboard::{Blackboard, MAX_BLACKBOARD_KEYS};
pub use build::{BuildError, Tile, WorldBuilder};
pub use clock::Clock;
pub use command::{Command, CommandBuffer, MAX_GLOBALS, MAX_QUEUED_ACTIONS, MAX_QUEUED_BYTES, queue_weight};
pub use entity::{Entity, EntityId};
pub use events::{Event, EventKind, EventLog};
pub use places::Region;
pub use rng::WorldRng;
pub use tick::{PLANS_FROM_INTELLIGENCE, is_dull, speed_of_attribute};
pub use turns::{TurnOrder, WorkerTurns};

use crate::coord::Signals;
use crate::grid::Map;
use crate::steer::{SteerError, SteerOrder, Steering};
use crate::value::{Table, Value};

/// Why the world refused a change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WorldError {
    /// Two entities may not share a name: the trace names entities by it.
    #[error("an entity named `{0}` already exists")]
    DuplicateName(String),
    /// The entity would stand off the map or in a wall.
    #[error("`{name}` cannot stand at ({x}, {y}): {why}")]
    BadPosition {
        /// The entity's name.
        name: String,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Off the map, or blocked.
        why: &'static str,
    },
    /// The handle is stale or was never valid.
    #[error("no such entity (stale or invalid handle)")]
    NoSuchEntity,
}

/// A named door: cells that are blocked while it is closed and open ground while it is open.
#[derive(Debug, Clone, PartialEq)]
pub struct Door {
    /// The cells it covers.
    pub cells: Vec<IVec2>,
    /// Whether it is open.
    pub open: bool,
}

/// Everything that exists in one simulation.
///
/// Scripts never get `&mut World`: the script host lends them `&World` to read and a
/// [`CommandBuffer`] to write, and [`World::apply`] carries the commands out afterwards.
#[derive(Debug, Clone)]
pub struct World {
    map: Map,
    entities: SlotMap<EntityId, Entity>,
    names: BTreeMap<String, EntityId>,
    /// The key/value table the game sets and scripts read (`PlayerArmed`, `GameTime` …).
    pub globals: Table,
    places: BTreeMap<String, Vec2>,
    regions: BTreeMap<String, Region>,
    schedule: BTreeMap<u64, Vec<(String, Value)>>,
    clock: Clock,
    rng: WorldRng,
    log: EventLog,
    signals: Signals,
    /// The named decision models scripts drive (`FsmStep("guard")`), loaded from the scenario.
    pub models: crate::decide::Models,
    steering: Steering,
    /// The navigation service every move plans through.
    nav: crate::nav::Navigator,
    /// Named doors: the cells each one opens or blocks, and whether it is open now.
    doors: BTreeMap<String, Door>,
    /// Doors the timeline opens (`true`) or closes, by tick.
    door_schedule: BTreeMap<u64, Vec<(String, bool)>>,
    /// The tactical maps and senses the scenario declares (`None`: it declares none).
    tactical: Option<Box<crate::field::TacticalMaps>>,
    /// The entity the scenario names as the player, if it names one.
    player: Option<EntityId>,
    /// The tactical waypoint database: hidespots for position queries.
    waypoints: crate::tactics::WaypointDb,
    /// The named position queries scripts run with `FindPosition("name")`.
    pub queries: crate::tactics::query::QueryLibrary,
    /// The position-query budget, the queries waiting for it, and the points agents hold.
    positions: crate::tactics::query::PositionService,
    /// The population each genetic model evolves, by model name.
    genetics: BTreeMap<String, crate::decide::learn::GeneticRun>,
    /// What each adaptive model has learnt, by model name.
    adaptive: BTreeMap<String, crate::decide::adaptive::TacticHistory>,
    /// Who stands still where: rebuilt by the walk phase each tick, kept to reuse its grid.
    standing: standing::Standing,
    /// Every character's behaviour tree, ticked by the host in the scripts phase.
    trees: crate::decide::bt::Trees,
}

impl World {
    /// An empty world on `map`, ticking `rate` times a second, its randomness seeded with `seed`.
    pub fn new(map: Map, rate: u32, seed: u64) -> Self {
        Self::with_nav(map, rate, seed, crate::nav::NavConfig::default())
    }

    /// [`World::new`] with the navigation service's limits set from the start: the map's search
    /// structures (the hierarchy `config` asks for) are built once, for these limits.
    pub fn with_nav(map: Map, rate: u32, seed: u64, config: crate::nav::NavConfig) -> Self {
        let mut nav = crate::nav::Navigator::new(config);
        nav.map_changed(&map);
        World {
            map,
            entities: SlotMap::with_key(),
            names: BTreeMap::new(),
            globals: Table::new(),
            places: BTreeMap::new(),
            regions: BTreeMap::new(),
            schedule: BTreeMap::new(),
            clock: Clock::new(rate),
            rng: WorldRng::new(seed),
            log: EventLog::default(),
            signals: Signals::default(),
            models: crate::decide::Models::default(),
            steering: Steering::default(),
            nav,
            doors: BTreeMap::new(),
            door_schedule: BTreeMap::new(),
            tactical: None,
            player: None,
            waypoints: crate::tactics::WaypointDb::new(),
            queries: crate::tactics::query::QueryLibrary::new(crate::tactics::query::QueryConfig::default()),
            positions: crate::tactics::query::PositionService::default(),
            genetics: BTreeMap::new(),
            adaptive: BTreeMap::new(),
            standing: standing::Standing::default(),
            trees: crate::decide::bt::Trees::default(),
        }
    }

    /// Every character's behaviour tree.
    pub fn trees(&self) -> &crate::decide::bt::Trees {
        &self.trees
    }

    /// Every character's behaviour tree, to attach one or change how they are evaluated.
    pub fn trees_mut(&mut self) -> &mut crate::decide::bt::Trees {
        &mut self.trees
    }

    /// Ticks every character's tree with the world's own generator (what a host without other
    /// scripts does in its scripts phase; see [`crate::decide::bt::Trees::tick`]): the trees
    /// read the world as it stands and issue commands, like scripts.
    pub fn tick_trees(
        &mut self,
        commands: &mut CommandBuffer,
        host: &mut dyn crate::decide::bt::LeafHost,
        profile: Option<&mut crate::decide::bt::TreeProfile>,
    ) {
        if self.trees.is_empty() {
            return;
        }
        let mut trees = std::mem::take(&mut self.trees);
        self.lend(|world, rng| trees.tick(world, rng, commands, host, profile));
        self.trees = trees;
    }

    /// The position-query service: its budget, pending queries and reservations.
    pub fn positions(&self) -> &crate::tactics::query::PositionService {
        &self.positions
    }

    /// The position-query service, to set its budget or reserve points from the host.
    pub fn positions_mut(&mut self) -> &mut crate::tactics::query::PositionService {
        &mut self.positions
    }

    /// Finishes what it can of the pending position queries with what is left of the tick's
    /// budget, and notes each answer on its asker (`position_ready` with the handle and point, or
    /// `position_failed` with the handle).
    pub fn run_position_queries(&mut self) {
        let tick = self.clock.tick();
        let entities = &self.entities;
        self.positions.retain(|id| entities.contains_key(id), tick);
        if self.positions.pending() == 0 {
            return;
        }
        let mut service = std::mem::take(&mut self.positions);
        let finished = service.run_pending(self);
        self.positions = service;
        for (owner, ticket, answer) in finished {
            let (name, value) = match answer {
                crate::tactics::query::PositionAnswer::Found(p) => {
                    let fields = [
                        ("handle", Value::Int(ticket as i64)),
                        ("x", Value::Float(f64::from(p.x))),
                        ("y", Value::Float(f64::from(p.y))),
                    ];
                    ("position_ready", Value::Map(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()))
                }
                _ => ("position_failed", Value::Int(ticket as i64)),
            };
            self.record(Some(owner), EventKind::Note { name: name.to_owned(), value });
        }
    }

    /// Names the entity that stands for the player (`DistanceToPlayer`, `DoFlee`, `Player()` read it).
    pub fn set_player(&mut self, id: Option<EntityId>) {
        self.player = id;
    }

    /// The player: the entity named by [`World::set_player`] while it lives, else the first entity
    /// tagged `player`, else the one named `player`.
    ///
    /// Scripts ask this on every think tick of every entity, so the named player is kept as a
    /// handle: the tag search walks every entity, which at a thousand scripted entities made the
    /// question cost more than the scripts.
    pub fn player(&self) -> Option<EntityId> {
        if let Some(id) = self.player.filter(|&id| self.entities.contains_key(id)) {
            return Some(id);
        }
        self.entities.iter().find(|(_, e)| e.has_tag("player")).map(|(id, _)| id).or_else(|| self.find("player"))
    }

    /// Adds an entity and logs its spawn.
    pub fn spawn(&mut self, mut entity: Entity) -> Result<EntityId, WorldError> {
        if self.names.contains_key(&entity.name) {
            return Err(WorldError::DuplicateName(entity.name));
        }
        let cell = entity.cell();
        if !self.map.passable(cell) {
            let why = if self.map.contains(cell) { "the cell is blocked" } else { "it is off the map" };
            return Err(WorldError::BadPosition { name: entity.name, x: cell.x, y: cell.y, why });
        }
        // Regions it starts in do not count as entered: a trap under a spawn point stays quiet.
        entity.regions_inside = self.regions_at(cell).map(str::to_owned).collect();
        let kind = EventKind::Spawn { of: entity.kind.clone(), team: entity.team.clone(), cell: cell.to_array() };
        self.log.push(self.clock.tick(), Some(&entity.name), kind);
        let name = entity.name.clone();
        let id = self.entities.insert(entity);
        self.names.insert(name, id);
        Ok(id)
    }

    /// Removes an entity and logs it; its handle goes stale.
    pub fn despawn(&mut self, id: EntityId) -> Result<Entity, WorldError> {
        let e = self.entities.remove(id).ok_or(WorldError::NoSuchEntity)?;
        self.names.remove(&e.name);
        self.log.push(self.clock.tick(), Some(&e.name), EventKind::Despawn);
        Ok(e)
    }

    /// The entity behind a handle.
    pub fn entity(&self, id: EntityId) -> Option<&Entity> {
        self.entities.get(id)
    }

    /// The entity behind a handle, mutably (for the host and engine systems, not scripts).
    pub fn entity_mut(&mut self, id: EntityId) -> Option<&mut Entity> {
        self.entities.get_mut(id)
    }

    /// The entity with this scenario name.
    pub fn find(&self, name: &str) -> Option<EntityId> {
        self.names.get(name).copied()
    }

    /// Every entity, in key order — the one order every phase of a tick visits them in.
    pub fn entities(&self) -> impl Iterator<Item = (EntityId, &Entity)> {
        self.entities.iter()
    }

    /// The handles of every entity, in key order.
    pub fn entity_ids(&self) -> Vec<EntityId> {
        self.entities.keys().collect()
    }

    /// How many entities there are.
    pub fn entity_count(&self) -> usize {
        self.entities.len()
    }

    /// The map.
    pub fn map(&self) -> &Map {
        &self.map
    }

    /// The map, mutably. Edits made here bypass the trace and the navigation service: call
    /// [`World::map_edited`] after them, or use [`World::set_blocked`] and [`World::set_door`],
    /// which do both.
    pub fn map_mut(&mut self) -> &mut Map {
        &mut self.map
    }

    /// Tells the navigation service the map was changed through [`World::map_mut`]: every route
    /// planned before is searched again.
    pub fn map_edited(&mut self) {
        self.nav.map_changed(&self.map);
    }

    /// Whether a walker standing in `from` can reach `to` on the map as it is now.
    pub fn reachable(&self, from: IVec2, to: IVec2) -> bool {
        self.nav.components().connected(from, to)
    }

    /// Opens a cell (open ground, cost 1) or blocks it, logs a `cell` event and makes every
    /// mover plan again. Returns `false` (and changes nothing) for a cell off the map; a cell
    /// already so is left alone and logs nothing.
    pub fn set_blocked(&mut self, cell: IVec2, blocked: bool) -> bool {
        if !self.map.contains(cell) {
            return false;
        }
        if self.set_cell_quietly(cell, blocked) {
            self.nav.cells_changed(&self.map, &[cell]);
            self.log.push(self.clock.tick(), None, EventKind::Cell { cell: cell.to_array(), blocked });
        }
        true
    }

    /// [`World::set_blocked`] for many cells at once (a reloaded map): each cell that changes
    /// logs its `cell` event, in the order given, and the navigation service takes in every change
    /// together — one relabelling of the map's areas, one rebuild of the hierarchy where the cells
    /// lie — where one call per cell relabelled the whole map per cell. Cells off the map are
    /// skipped. Returns how many cells changed.
    pub fn set_blocked_cells(&mut self, edits: &[(IVec2, bool)]) -> usize {
        let mut changed = Vec::new();
        for &(cell, blocked) in edits {
            if self.map.contains(cell) && self.set_cell_quietly(cell, blocked) {
                changed.push(cell);
                self.log.push(self.clock.tick(), None, EventKind::Cell { cell: cell.to_array(), blocked });
            }
        }
        if !changed.is_empty() {
            self.nav.cells_changed(&self.map, &changed);
        }
        changed.len()
    }

    fn set_cell_quietly(&mut self, cell: IVec2, blocked: bool) -> bool {
        if self.map.passable(cell) != blocked {
            return false;
        }
        let (tile, cost) = if blocked { (b'#', f32::INFINITY) } else { (b'.', 1.0) };
        self.map.set(cell, tile, cost);
        true
    }

    /// Declares a door over `cells` (all on the map), open or closed now.
    pub fn add_door(&mut self, name: impl Into<String>, cells: Vec<IVec2>, open: bool) -> Result<(), WorldError> {
        let name = name.into();
        if let Some(&c) = cells.iter().find(|&&c| !self.map.contains(c)) {
            return Err(WorldError::BadPosition { name, x: c.x, y: c.y, why: "it is off the map" });
        }
        for &c in &cells {
            self.set_cell_quietly(c, !open);
        }
        self.nav.cells_changed(&self.map, &cells);
        self.doors.insert(name, Door { cells, open });
        Ok(())
    }

    /// Opens or closes a door: its cells become open ground or blocked, a `door` event is
    /// logged, and every mover plans again. `false` when there is no such door.
    pub fn set_door(&mut self, name: &str, open: bool) -> bool {
        let Some(door) = self.doors.get_mut(name) else { return false };
        if door.open == open {
            return true;
        }
        door.open = open;
        let cells = door.cells.clone();
        for &c in &cells {
            self.set_cell_quietly(c, !open);
        }
        self.nav.cells_changed(&self.map, &cells);
        self.log.push(self.clock.tick(), None, EventKind::Door { name: name.to_owned(), open });
        true
    }

    /// The named doors.
    pub fn doors(&self) -> &BTreeMap<String, Door> {
        &self.doors
    }

    /// Makes the timeline open (`open = true`) or close a door at `tick`.
    pub fn schedule_door(&mut self, tick: u64, name: impl Into<String>, open: bool) {
        self.door_schedule.entry(tick).or_default().push((name.into(), open));
    }

    /// Starts a population for every genetic model, and an empty history for every adaptive one,
    /// that has none yet (the scenario loader calls this once the models are loaded; a reload
    /// too). What is already running keeps running: a reload does not forget what was learnt.
    pub fn start_genetics(&mut self) {
        for name in self.models.names().map(str::to_owned).collect::<Vec<_>>() {
            match self.models.get(&name) {
                Some(crate::decide::Model::Genetic(spec)) if !self.genetics.contains_key(&name) => {
                    let run = crate::decide::learn::GeneticRun::new(spec);
                    self.genetics.insert(name, run);
                }
                Some(crate::decide::Model::Adaptive(spec)) if !self.adaptive.contains_key(&name) => {
                    self.adaptive.insert(name, spec.history());
                }
                _ => {}
            }
        }
    }

    /// What an adaptive model has learnt.
    pub fn adaptive(&self, model: &str) -> Option<&crate::decide::adaptive::TacticHistory> {
        self.adaptive.get(model)
    }

    /// The population a genetic model evolves.
    pub fn genetics(&self, model: &str) -> Option<&crate::decide::learn::GeneticRun> {
        self.genetics.get(model)
    }

    /// The tactical waypoint database (hidespots for position queries).
    pub fn waypoints(&self) -> &crate::tactics::WaypointDb {
        &self.waypoints
    }

    /// Replaces the tactical waypoint database.
    pub fn set_waypoints(&mut self, db: crate::tactics::WaypointDb) {
        self.waypoints = db;
    }

    /// Routes every move over `graph` (its nodes named by `names`, in id order), or over the
    /// grid again with `None`; moves under way plan again.
    pub fn set_waypoint_graph(&mut self, graph: Option<(crate::path::WaypointGraph, Vec<String>)>) {
        self.nav.set_graph(graph);
    }

    /// The navigation service.
    pub fn nav(&self) -> &crate::nav::Navigator {
        &self.nav
    }

    /// Replaces the navigation service's limits (plans under way are dropped and searched again).
    pub fn set_nav_config(&mut self, config: crate::nav::NavConfig) {
        let old = std::mem::replace(&mut self.nav, crate::nav::Navigator::new(config));
        self.nav.resume(old, &self.map);
    }

    /// Names a point.
    pub fn add_place(&mut self, name: impl Into<String>, at: Vec2) {
        self.places.insert(name.into(), at);
    }

    /// A named point.
    pub fn place(&self, name: &str) -> Option<Vec2> {
        self.places.get(name).copied()
    }

    /// Every named point, by name.
    pub fn places(&self) -> &BTreeMap<String, Vec2> {
        &self.places
    }

    /// Names a rectangle of cells.
    pub fn add_region(&mut self, name: impl Into<String>, region: Region) {
        self.regions.insert(name.into(), region);
    }

    /// A named rectangle.
    pub fn region(&self, name: &str) -> Option<Region> {
        self.regions.get(name).copied()
    }

    /// Every named rectangle, by name.
    pub fn regions(&self) -> &BTreeMap<String, Region> {
        &self.regions
    }

    /// The names of the regions that contain `cell`, in name order.
    pub fn regions_at(&self, cell: IVec2) -> impl Iterator<Item = &str> {
        self.regions.iter().filter(move |(_, r)| r.contains(cell)).map(|(n, _)| n.as_str())
    }

    /// Sets global `key` to `value` when tick `tick` begins (a scenario's timeline: nightfall,
    /// the player drawing a weapon).
    pub fn schedule_global(&mut self, tick: u64, key: impl Into<String>, value: Value) {
        self.schedule.entry(tick).or_default().push((key.into(), value));
    }

    /// A global's value, or [`Value::Nil`].
    pub fn global(&self, key: &str) -> &Value {
        self.globals.get(key).unwrap_or(&Value::Nil)
    }

    /// The clock.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The world's random generator.
    pub fn rng(&mut self) -> &mut WorldRng {
        &mut self.rng
    }

    /// Restarts the random generator from `seed` (a run's `--seed`; call it before the first tick).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = WorldRng::new(seed);
    }

    /// Lends the world read-only together with its random generator, for the script phase:
    /// scripts read `&World` but still draw taunts and choices from the one seeded generator.
    pub fn lend<R>(&mut self, f: impl FnOnce(&World, &mut WorldRng) -> R) -> R {
        let mut rng = std::mem::replace(&mut self.rng, WorldRng::new(0));
        let out = f(self, &mut rng);
        self.rng = rng;
        out
    }

    /// Keeps `maps` up to date from now on (brought up to date with the world at once).
    pub fn set_tactical(&mut self, mut maps: crate::field::TacticalMaps) {
        maps.update(self);
        self.tactical = Some(Box::new(maps));
    }

    /// The tactical maps and senses, if the world keeps any.
    pub fn tactical(&self) -> Option<&crate::field::TacticalMaps> {
        self.tactical.as_deref()
    }

    /// Brings the tactical maps up to date with where everyone stands and what happened (the tick
    /// calls it after the events phase).
    pub fn update_tactical(&mut self) {
        if let Some(mut maps) = self.tactical.take() {
            maps.update(self);
            self.tactical = Some(maps);
        }
    }

    /// The signals sent so far.
    pub fn signals(&self) -> &Signals {
        &self.signals
    }

    /// What has happened so far.
    pub fn log(&self) -> &EventLog {
        &self.log
    }

    /// Forgets logged events with an index below `index` (see [`EventLog::forget_before`]), for
    /// a game that takes the events out as they happen and runs for hours.
    pub fn forget_events_before(&mut self, index: usize) {
        self.log.forget_before(index);
    }

    /// Records an event on the current tick (for the host: script errors, reloads, state changes).
    pub fn record(&mut self, entity: Option<EntityId>, kind: EventKind) {
        let name = entity.and_then(|id| self.entities.get(id)).map(|e| e.name.clone());
        self.log.push(self.clock.tick(), name.as_deref(), kind);
    }

    /// Records an event of tick `tick` (one already played) under an entity's name, which may
    /// be gone by now: what the runtime sums up when the game stops.
    pub fn record_named(&mut self, tick: u64, name: Option<&str>, kind: EventKind) {
        self.log.push(tick, name, kind);
    }

    /// The steering state: who steers how, the flocks, formations and patterns.
    pub fn steering(&self) -> &Steering {
        &self.steering
    }

    /// The steering state, mutably (scenario loading declares groups here).
    pub fn steering_mut(&mut self) -> &mut Steering {
        &mut self.steering
    }

    /// Changes an entity's steering and logs it as a `steer` action (`detail`: the behaviour and
    /// its argument).
    pub fn steer(&mut self, id: EntityId, order: SteerOrder) -> Result<(), SteerError> {
        if !self.entities.contains_key(id) {
            return Err(SteerError::NoSuchEntity);
        }
        let name = |w: &World, t: EntityId| w.entities.get(t).map(|e| e.name.clone()).ok_or(SteerError::NoSuchEntity);
        let detail = match &order {
            SteerOrder::Chase(t) => format!("chase {}", name(self, *t)?),
            SteerOrder::Evade(t) => format!("evade {}", name(self, *t)?),
            SteerOrder::Intercept(t) => format!("intercept {}", name(self, *t)?),
            SteerOrder::FormUp { captain, .. } => format!("form up on {}", name(self, *captain)?),
            _ => String::new(),
        };
        let more = self.steering.order(id, order)?;
        let detail = [detail, more].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(": ");
        self.record(Some(id), EventKind::Action { action: "steer".into(), detail });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_player_is_the_named_one_while_it_lives_then_the_tagged_one_then_the_one_called_player() {
        let mut world = World::new(Map::open(8, 8), 10, 0);
        let called = world.spawn(Entity::new("player", "human", IVec2::new(0, 0))).unwrap();
        assert_eq!(world.player(), Some(called), "nothing named or tagged: the entity called `player`");
        let mut scout = Entity::new("scout", "human", IVec2::new(1, 0));
        scout.tags.insert("player".into());
        let tagged = world.spawn(scout).unwrap();
        assert_eq!(world.player(), Some(tagged), "a `player` tag wins over the name");
        let hero = world.spawn(Entity::new("hero", "human", IVec2::new(2, 0))).unwrap();
        world.set_player(Some(hero));
        assert_eq!(world.player(), Some(hero), "the scenario's `player = \"hero\"` wins over both");
        world.despawn(hero).unwrap();
        assert_eq!(world.player(), Some(tagged), "a dead player hands over to the fallbacks");
    }
}
