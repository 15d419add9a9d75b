//! The fixed phases of a tick, in the order the runtime calls them:
//!
//! 1. [`World::update`] — the world's own changes (the scenario's timeline);
//! 2. scripts run against `&World` and fill a [`CommandBuffer`] (the host does this);
//! 3. [`World::apply`] — the commands, in a fixed order;
//! 4. [`World::run_actions`] — every entity's action queue, movement included;
//! 5. [`World::detect_events`] — edge-triggered region enter/exit;
//! 6. [`World::end_tick`] — the clock moves on.
//!
//! [`World::step`] runs all six with a closure for phase 2.

use glam::{IVec2, Vec2};

use super::prefetch::{AHEAD, AHEAD_SECOND, address_of, prefetch, prefetch_span};
use super::standing::Standing;
use super::{Command, CommandBuffer, Entity, EntityId, EventKind, EventLog, MAX_GLOBALS, MAX_QUEUED_ACTIONS, World};
use crate::coord::{Action, Signals};
use crate::grid::{Map, cell_of, walk_segment, walk_supercover};
use crate::nav::{Navigator, Plan, PlanState};
use crate::path::{RequestState, smooth_path};
use crate::value::Value;

/// How many actions one entity may finish in one tick. Instant actions chain within a tick; the
/// cap keeps a queue of a million `say`s from stalling the frame (the rest go on next tick).
pub const MAX_ACTIONS_PER_TICK: usize = 64;

impl World {
    /// Runs one whole tick, with `scripts` as phase 2.
    pub fn step(&mut self, scripts: impl FnOnce(&World, &mut CommandBuffer)) {
        self.update();
        let mut commands = CommandBuffer::default();
        scripts(self, &mut commands);
        self.apply(commands);
        self.run_actions();
        self.detect_events();
        self.end_tick();
    }

    /// Phase 1: globals scheduled for this tick take their values.
    pub fn update(&mut self) {
        let tick = self.clock.tick();
        if let Some(changes) = self.schedule.remove(&tick) {
            for (key, value) in changes {
                self.set_global(key, value);
            }
        }
        if let Some(doors) = self.door_schedule.remove(&tick) {
            for (name, open) in doors {
                self.set_door(&name, open);
            }
        }
    }

    /// Phase 3: carries out the scripts' commands in the fixed order of [`CommandBuffer::sorted`].
    /// Commands naming a stale entity are dropped: the entity is gone, there is nothing to change.
    pub fn apply(&mut self, commands: CommandBuffer) {
        // Characters noted this tick for actions dropped at the queue's cap (one note each).
        let mut dropped: Vec<EntityId> = Vec::new();
        let mut dropped_keys: Vec<EntityId> = Vec::new();
        let mut globals_noted = false;
        for command in commands.sorted() {
            match command {
                Command::ClearSignals { scope } => self.signals.clear_scope(&scope),
                Command::SetGlobal { key, .. }
                    if self.globals.len() >= MAX_GLOBALS && !self.globals.contains_key(&key) =>
                {
                    // Only globals set in the tick the cap is reached get here: the host function
                    // refuses the others first.
                    if !globals_noted {
                        globals_noted = true;
                        let value = Value::from(format!(
                            "the global `{key}` was not created: the world holds {MAX_GLOBALS} globals already"
                        ));
                        self.record(None, EventKind::Note { name: "global_dropped".to_owned(), value });
                    }
                }
                Command::SetGlobal { key, value } => self.set_global(key, value),
                Command::SetAttribute { entity, key, value } => {
                    let tick = self.clock.tick();
                    if let Some(e) = self.entities.get_mut(entity)
                        && e.attributes.get(&key) != Some(&value)
                    {
                        // The classic SPEED attribute is the walking speed (see `speed_of_attribute`).
                        if key.eq_ignore_ascii_case("SPEED")
                            && let Value::Int(v) = value
                        {
                            e.speed = speed_of_attribute(v);
                        }
                        e.attributes.insert(key.clone(), value.clone());
                        self.log.push(tick, Some(&e.name), EventKind::Attribute { key, value });
                    }
                }
                Command::SetBlackboard { entity, key, value } => {
                    let Some(e) = self.entities.get_mut(entity) else { continue };
                    if e.blackboard.len() < super::MAX_BLACKBOARD_KEYS || e.blackboard.contains_key(&key) {
                        e.blackboard.insert(key, value);
                    } else if !dropped_keys.contains(&entity) {
                        // Only keys set in the tick the cap is reached get here: the host
                        // function refuses the others first.
                        dropped_keys.push(entity);
                        let value = Value::from(format!(
                            "the blackboard key `{key}` was not created: the blackboard holds {} keys already",
                            super::MAX_BLACKBOARD_KEYS
                        ));
                        self.record(Some(entity), EventKind::Note { name: "blackboard_dropped".to_owned(), value });
                    }
                }
                Command::ClearActions { entity } => {
                    if let Some(e) = self.entities.get_mut(entity) {
                        e.actions.clear();
                    }
                }
                Command::Request { entity, action } => {
                    if let Some(e) = self.entities.get_mut(entity) {
                        e.actions.request(action);
                    }
                }
                Command::Perform { entity, action } => self.queue_action(entity, action, true, &mut dropped),
                Command::Enqueue { entity, action } => self.queue_action(entity, action, false, &mut dropped),
                Command::Emit { entity, event } => self.record(entity, event),
                Command::SetBlocked { cell, blocked } => {
                    self.set_blocked(cell, blocked);
                }
                Command::SetDoor { name, open } => {
                    self.set_door(&name, open);
                }
                Command::SubmitPosition { ticket, query, request, reserve } => {
                    self.positions.submit(ticket, query, *request, reserve, self.clock.tick());
                }
                Command::ReservePosition { entity, point } => {
                    if let Err(holder) = self.positions.reserve(entity, point) {
                        let by = self.entities.get(holder).map(|e| e.name.clone()).unwrap_or_default();
                        let value = Value::from(format!(
                            "({:.1}, {:.1}) was taken by {by} this tick",
                            point.position.x, point.position.y
                        ));
                        self.record(Some(entity), EventKind::Note { name: "position_taken".to_owned(), value });
                    }
                }
                Command::ReleasePosition { entity } => self.positions.release(entity),
                Command::GeneticScore { model, slot, done, received } => {
                    if let Some(run) = self.genetics.get_mut(&model) {
                        run.score(slot, done, received);
                    }
                }
                Command::AdaptiveRecord { model, context, tactic, success } => {
                    if let Some(h) = self.adaptive.get_mut(&model) {
                        h.record(&context, tactic, success);
                    }
                }
                Command::GeneticEvolve { model } => {
                    if let Some(run) = self.genetics.get_mut(&model) {
                        let best = run.evolve();
                        let value = Value::Map(
                            [
                                ("model".to_owned(), Value::from(model.as_str())),
                                ("generation".to_owned(), Value::Int(i64::from(run.generation))),
                                ("best".to_owned(), Value::Float(best)),
                            ]
                            .into_iter()
                            .collect(),
                        );
                        self.log.push(self.clock.tick(), None, EventKind::Note { name: "generation".into(), value });
                    }
                }
                Command::DefineTree { name, def } => {
                    self.models.insert(name, crate::decide::Model::Tree(def), "");
                }
                Command::RunTree { entity, model } => match self.models.tree(&model).cloned() {
                    Some(def) if self.entities.contains_key(entity) => self.trees.attach(entity, model, def),
                    Some(_) => {}
                    None => {
                        let value = Value::from(format!("no tree model `{model}`"));
                        self.record(Some(entity), EventKind::Note { name: "tree_refused".to_owned(), value });
                    }
                },
                Command::StopTree { entity } => {
                    self.trees.stop(entity);
                }
                Command::Steer { entity, order } => {
                    if let Err(e) = self.steer(entity, order) {
                        self.record(
                            Some(entity),
                            EventKind::Note { name: "steer_refused".into(), value: e.to_string().as_str().into() },
                        );
                    }
                }
            }
        }
    }

    /// Sets a global now and logs the change (nothing is logged when the value is the same).
    pub fn set_global(&mut self, key: String, value: Value) {
        if self.globals.get(&key) != Some(&value) {
            self.globals.insert(key.clone(), value.clone());
            self.log.push(self.clock.tick(), None, EventKind::Global { key, value });
        }
    }

    /// Puts a script's action in `entity`'s queue (in front of the running one when `front`),
    /// unless the queue is at [`MAX_QUEUED_ACTIONS`]: then the action is dropped, with one note
    /// per character and tick (`dropped` lists those noted). Only what several calls of one tick
    /// queue gets here; a call is refused first ([`CommandBuffer::push_queued`]).
    fn queue_action(&mut self, entity: EntityId, action: Action, front: bool, dropped: &mut Vec<EntityId>) {
        let Some(e) = self.entities.get_mut(entity) else { return };
        if e.actions.len() < MAX_QUEUED_ACTIONS {
            if front {
                e.actions.push_front(action)
            } else {
                e.actions.push(action)
            }
            return;
        }
        if !dropped.contains(&entity) {
            dropped.push(entity);
            let value = Value::from(format!(
                "a `{}` was dropped: the action queue holds {MAX_QUEUED_ACTIONS} actions already",
                action.name()
            ));
            self.record(Some(entity), EventKind::Note { name: "actions_dropped".to_owned(), value });
        }
    }

    /// Phase 4: every entity, in key order, works through its action queue. Moves plan through
    /// the navigation service: first every character whose running move lacks an up-to-date plan
    /// asks for one, then the tick's search budget is spent, then everyone walks.
    ///
    /// It is [`World::plan_paths`], [`World::walk_actions`] and [`World::steer_agents`] in that
    /// order; a runtime that times the phases calls the three itself.
    pub fn run_actions(&mut self) {
        self.plan_paths();
        self.walk_actions();
        self.steer_agents();
    }

    /// Phase 4a: position queries are served, every character whose running move lacks an
    /// up-to-date plan asks for one, and the navigation service spends the tick's search budget.
    pub fn plan_paths(&mut self) {
        self.run_position_queries();
        let World { entities, map, nav, tactical, .. } = self;
        nav.retain(|id| entities.contains_key(id));
        let (mut ahead, mut soon) = (entities.iter().skip(AHEAD), entities.iter().skip(AHEAD_SECOND));
        for (id, e) in entities.iter() {
            if let Some((later_id, later)) = ahead.next() {
                prefetch(address_of(later.actions.front()) as *const Action);
                prefetch_span(address_of(nav.plan(later_id)), Plan::HOT);
            }
            // A path given point by point keeps its points in a block of their own, reached
            // through the queue front named above.
            if let Some((_, soon)) = soon.next() {
                prefetch_follow_point(soon.actions.front());
            }
            match move_goal(e) {
                Some(goal) if wants_search(nav, map, id, e, goal) => nav.request(id, e.cell(), goal, &e.avoid),
                Some(_) => {}
                None => nav.forget(id),
            }
        }
        nav.update(map, tactical.as_deref());
    }

    /// Phase 4b: every entity, in key order, works through its action queue (instants, waits,
    /// sleeps, walking its plans).
    pub fn walk_actions(&mut self) {
        let tick = self.clock.tick();
        let dt = self.clock.dt();
        let World { entities, map, steering, nav, standing, .. } = &mut *self;
        standing.refill(entities, steering, map, nav.config().blocked_ticks, |e| move_goal(e).is_some());
        // Every character in key order, with where its queue front and plan are, to be
        // prefetched a few characters ahead of the walk.
        let mut order: Vec<(EntityId, usize, usize)> = Vec::with_capacity(entities.len());
        order.extend(entities.iter().map(|(id, e)| (id, address_of(e.actions.front()), address_of(nav.plan(id)))));
        for (n, &(id, _, _)) in order.iter().enumerate() {
            let World { entities, nav, .. } = &*self;
            if let Some(&(_, front, plan)) = order.get(n + AHEAD) {
                prefetch(front as *const Action);
                prefetch_span(plan, Plan::HOT);
            }
            // This character's queue front and plan were named to the CPU a few characters ago
            // and have landed; what they point at is a second miss only they can name: the
            // signal a waiter asks after, or the corner a walker heads for.
            if let Some(&(soon, _, _)) = order.get(n + AHEAD_SECOND) {
                match entities.get(soon).and_then(|e| e.actions.front()) {
                    Some(Action::Wait { scope, id, .. }) => {
                        prefetch(scope.as_ptr());
                        prefetch(id.as_ptr());
                    }
                    _ => {
                        if let Some(Plan { state: PlanState::Following { points, next, .. }, .. }) = nav.plan(soon) {
                            prefetch(address_of(points.get(*next)) as *const Vec2);
                        }
                    }
                }
            }
            let Some(mut turn) = entities.get(id).map(|e| Turn::new(e, dt)) else { continue };
            // A sequence's change to the world (an `Effect` at the queue's front) is made here,
            // between what the character did before it and what it does after, all in this tick.
            loop {
                let World { entities, map, log, signals, nav, standing, .. } = &mut *self;
                let Some(e) = entities.get_mut(id) else { break };
                match run_queue(id, e, map, log, signals, nav, standing, tick, &mut turn) {
                    Some(effect) => self.apply_effect(effect),
                    None => {
                        turn.finish(e, log, tick, dt);
                        break;
                    }
                }
            }
        }
    }

    /// Makes one change a sequence queued ([`Action::Effect`]) as a script's command is made.
    fn apply_effect(&mut self, command: Command) {
        let mut one = CommandBuffer::default();
        one.push(command);
        self.apply(one);
    }

    /// Phase 4c: every steered entity decides from one snapshot, then all move.
    pub fn steer_agents(&mut self) {
        let tick = self.clock.tick();
        let dt = self.clock.dt();
        let World { entities, map, log, steering, rng, .. } = self;
        steering.tick(entities, map, log, rng, tick, dt);
    }

    /// Phase 5: entities that crossed a region border this tick get `enter`/`exit` events — once,
    /// on the tick they cross, not on every tick they stay (edge-triggered). Then the tactical maps
    /// and senses take in where everyone now stands and what happened this tick.
    ///
    /// It is [`World::detect_region_events`] then [`World::update_tactical`].
    pub fn detect_events(&mut self) {
        self.detect_region_events();
        self.update_tactical();
    }

    /// Phase 5a: edge-triggered region `enter`/`exit` events.
    pub fn detect_region_events(&mut self) {
        let tick = self.clock.tick();
        let World { entities, regions, log, .. } = self;
        if regions.is_empty() {
            return;
        }
        for (_, e) in entities.iter_mut() {
            let cell = e.cell();
            for (name, region) in regions.iter() {
                let inside = region.contains(cell);
                let was = e.regions_inside.contains(name);
                if inside && !was {
                    e.regions_inside.insert(name.clone());
                    log.push(tick, Some(&e.name), EventKind::Enter { region: name.clone() });
                } else if was && !inside {
                    e.regions_inside.remove(name);
                    log.push(tick, Some(&e.name), EventKind::Exit { region: name.clone() });
                }
            }
        }
    }

    /// Phase 6: the clock moves to the next tick.
    pub fn end_tick(&mut self) {
        self.clock.advance();
    }
}

#[allow(clippy::too_many_arguments)] // the phase's split borrows of the world, passed one by one
fn run_queue(
    id: EntityId,
    e: &mut Entity,
    map: &Map,
    log: &mut EventLog,
    signals: &mut Signals,
    nav: &mut Navigator,
    standing: &Standing,
    tick: u64,
    turn: &mut Turn,
) -> Option<Command> {
    let budget = &mut turn.budget;
    while turn.actions < MAX_ACTIONS_PER_TICK {
        turn.actions += 1;
        let started = e.actions.started;
        e.actions.started = true;
        let Some(action) = e.actions.front_mut() else { break };
        let done = match action {
            Action::Effect { .. } => match e.actions.pop() {
                Some(Action::Effect { command }) => return Some(*command),
                _ => unreachable!("the front was an effect"),
            },
            Action::Say { text } => {
                log.push(tick, Some(&e.name), EventKind::Say { text: std::mem::take(text) });
                true
            }
            Action::PlaySound { name } => {
                log.push(tick, Some(&e.name), EventKind::Sound { name: std::mem::take(name) });
                true
            }
            Action::Trigger { name } => {
                log.push(tick, Some(&e.name), EventKind::Trigger { name: std::mem::take(name) });
                true
            }
            Action::Signal { scope, id } => {
                signals.send(scope, id);
                log.push(tick, Some(&e.name), EventKind::Signal { scope: scope.clone(), id: id.clone() });
                true
            }
            Action::Wait { scope, id, logged } => {
                if signals.is_sent(scope, id) {
                    log.push(tick, Some(&e.name), EventKind::Release { scope: scope.clone(), id: id.clone() });
                    true
                } else {
                    if !*logged {
                        *logged = true;
                        log.push(tick, Some(&e.name), EventKind::Wait { scope: scope.clone(), id: id.clone() });
                    }
                    break;
                }
            }
            Action::Sleep { ticks } => {
                if !started {
                    log.push(
                        tick,
                        Some(&e.name),
                        EventKind::Action { action: "sleep".into(), detail: format!("{ticks} ticks") },
                    );
                }
                if *ticks == 0 {
                    true
                } else {
                    *ticks -= 1;
                    break;
                }
            }
            Action::MoveTo { target } => {
                let target = *target;
                if !started {
                    let c = target.floor().as_ivec2();
                    log.push(
                        tick,
                        Some(&e.name),
                        EventKind::Action { action: "move_to".into(), detail: format!("({}, {})", c.x, c.y) },
                    );
                }
                match navigate(id, e, target, map, nav, standing, budget, log, tick) {
                    Leg::Arrived => {
                        log.push(tick, Some(&e.name), EventKind::Arrive { cell: target.floor().as_ivec2().to_array() });
                        true
                    }
                    Leg::Walking => break,
                    Leg::Failed(reason) => {
                        log.push(tick, Some(&e.name), EventKind::Blocked { cell: e.cell().to_array(), reason });
                        true
                    }
                    Leg::Silent => true,
                }
            }
            Action::FollowPath { points, next } => {
                if !started {
                    let c = points.last().copied().unwrap_or(e.position).floor().as_ivec2();
                    log.push(
                        tick,
                        Some(&e.name),
                        EventKind::Action {
                            action: "follow_path".into(),
                            detail: format!("{} points to ({}, {})", points.len(), c.x, c.y),
                        },
                    );
                }
                // The walk needs the whole entity, so the queue is read one point at a time.
                let mut at = *next;
                let point = |e: &Entity, at: usize| match e.actions.front() {
                    Some(Action::FollowPath { points, .. }) => points.get(at).copied(),
                    _ => None,
                };
                let mut outcome = None;
                while let Some(p) = point(e, at) {
                    match navigate(id, e, p, map, nav, standing, budget, log, tick) {
                        Leg::Arrived => {
                            at += 1;
                            if let Some(Action::FollowPath { next, .. }) = e.actions.front_mut() {
                                *next = at;
                            }
                        }
                        Leg::Walking => {
                            outcome = Some(false);
                            break;
                        }
                        Leg::Failed(reason) => {
                            log.push(tick, Some(&e.name), EventKind::Blocked { cell: e.cell().to_array(), reason });
                            outcome = Some(true);
                            break;
                        }
                        Leg::Silent => {
                            outcome = Some(true);
                            break;
                        }
                    }
                }
                match outcome {
                    Some(false) => break,
                    Some(true) => true,
                    None => {
                        log.push(
                            tick,
                            Some(&e.name),
                            EventKind::Arrive { cell: e.position.floor().as_ivec2().to_array() },
                        );
                        true
                    }
                }
            }
        };
        // An instant that finishes hands the move behind it its plan as it was: the plan belongs
        // to the move, and a line said on the way is no reason to search the way again.
        if done && e.actions.pop().is_some_and(|a| !a.is_instant()) {
            nav.forget(id);
        }
    }
    None
}

/// What one character has left of its turn in a tick: the walk a sequence's effects interrupt
/// goes on with the same budget and the same count of actions.
struct Turn {
    /// The distance it may still walk.
    budget: f32,
    /// Where it stood when the turn began.
    start: Vec2,
    /// The actions it has finished or worked on.
    actions: usize,
}

impl Turn {
    fn new(e: &Entity, dt: f32) -> Self {
        Turn { budget: e.speed.max(0.0) * dt, start: e.position, actions: 0 }
    }

    /// The turn's velocity, heading and cell change.
    fn finish(self, e: &mut Entity, log: &mut EventLog, tick: u64, dt: f32) {
        let moved = e.position - self.start;
        e.velocity = moved / dt;
        if moved != Vec2::ZERO {
            e.heading = moved.y.atan2(moved.x);
            let (from, to) = (cell_of(self.start), cell_of(e.position));
            if from != to {
                log.push(tick, Some(&e.name), EventKind::Move { from: from.to_array(), to: to.to_array() });
            }
        }
    }
}

/// The cell the entity's running move aims at now (the target of a `move_to`, the next point of
/// a `follow_path`), looking past instants waiting in front of it.
fn move_goal(e: &Entity) -> Option<IVec2> {
    match e.actions.iter().find(|a| !a.is_instant())? {
        Action::MoveTo { target } => Some(cell_of(*target)),
        Action::FollowPath { points, next } => points.get(*next).map(|p| cell_of(*p)),
        _ => None,
    }
}

/// Names to the CPU the point a [`Action::FollowPath`] at the queue's front walks to next.
#[inline(always)]
fn prefetch_follow_point(front: Option<&Action>) {
    if let Some(Action::FollowPath { points, next }) = front {
        prefetch(address_of(points.get(*next)) as *const Vec2);
    }
}

/// Whether the entity must search for a way to `goal`: it has no plan for it made on the map as
/// it is, cannot walk there in a straight line, has not already been told there is no way, and
/// is clever enough to look (see [`is_dull`]).
fn wants_search(nav: &Navigator, map: &Map, id: EntityId, e: &Entity, goal: IVec2) -> bool {
    let here = e.cell();
    let current = nav.plan(id).is_some_and(|p| p.goal == goal && p.version == nav.map_version());
    // Pure tests, cheapest first: the slot lookups and the component table before the
    // attribute table's string search and the walk along the line.
    !current
        && !nav.refused(id, goal)
        && nav.components().connected(here, goal)
        && !is_dull(e)
        && !straight_is_best(map, here, goal)
}

/// Below this INTELLIGENCE a creature does not plan paths.
pub const PLANS_FROM_INTELLIGENCE: i64 = 50;

/// The classic attribute scripts' INTELLIGENCE (0–255) decides whether a creature finds its way:
/// below [`PLANS_FROM_INTELLIGENCE`] it walks straight at its goal and stops at the first wall;
/// from there on (and without the attribute) it plans round walls.
pub fn is_dull(e: &Entity) -> bool {
    matches!(e.attributes.get("INTELLIGENCE"), Some(Value::Int(n)) if *n < PLANS_FROM_INTELLIGENCE)
}

/// The walking speed, in cells per second, of the classic attribute SPEED (0–255): SPEED / 32,
/// so the book's SPEED=130 walks about 4 cells a second and 255 about 8.
pub fn speed_of_attribute(speed: i64) -> f32 {
    #[allow(clippy::cast_precision_loss, reason = "0..=255")]
    let s = speed.clamp(0, 255) as f32;
    s / 32.0
}

/// Whether the straight line is the best way: every cell it crosses is open ground of the
/// cheapest cost. Nothing is shorter than a straight line, and on cheapest ground nothing is
/// cheaper, so no search is needed (Detour's raycast shortcut). Dearer ground on the line
/// (swamp, grass) leaves the choice to the search, which may go round it.
fn straight_is_best(map: &Map, from: IVec2, to: IVec2) -> bool {
    walk_supercover(from, to, |c| map.cost(c).is_some_and(|k| k <= 1.0))
}

/// How one leg of a move went this tick.
enum Leg {
    /// At the leg's target.
    Arrived,
    /// Still walking, or waiting for its search: go on next tick.
    Walking,
    /// There is no way; the reason goes in the trace.
    Failed(String),
    /// There is no way, and the trace already says so for this goal on this map.
    Silent,
}

/// Walks `e` toward `target` along its plan, asking the service for one when it has none that is
/// current; spends at most `budget` map units of movement.
#[allow(clippy::too_many_arguments)] // the phase's split borrows of the world, passed one by one
fn navigate(
    id: EntityId,
    e: &mut Entity,
    target: Vec2,
    map: &Map,
    nav: &mut Navigator,
    standing: &Standing,
    budget: &mut f32,
    log: &mut EventLog,
    tick: u64,
) -> Leg {
    let goal = cell_of(target);
    if !map.passable(goal) {
        let why = if map.contains(goal) { "is blocked" } else { "is off the map" };
        return Leg::Failed(format!("the target cell ({}, {}) {why}", goal.x, goal.y));
    }
    // A route walked into a wall (the map changed under it, or something pushed the walker off
    // it) is searched again, once; a second failure in the same tick waits for the next.
    for _ in 0..2 {
        let here = e.cell();
        let current = nav.plan(id).is_some_and(|p| p.goal == goal && p.version == nav.map_version());
        if !current {
            if nav.refused(id, goal) {
                return Leg::Silent;
            }
            if !nav.components().connected(here, goal) {
                nav.refuse(id, goal);
                return Leg::Failed(format!(
                    "no way to ({}, {}): walls cut it off from ({}, {})",
                    goal.x, goal.y, here.x, here.y
                ));
            }
            // A character that avoids layers may prefer a detour to the straight line; a dull
            // creature walks straight at its goal whatever is in the way, and gives up at the wall.
            let dull = is_dull(e);
            if dull || here == goal || (e.avoid.is_empty() && straight_is_best(map, here, goal)) {
                return match walk(&mut e.position, target, budget, map, |c| standing.holds(map, c, id)) {
                    Walk::Arrived => {
                        nav.not_held(id);
                        Leg::Arrived
                    }
                    Walk::OutOfTime => {
                        nav.not_held(id);
                        Leg::Walking
                    }
                    Walk::Blocked if dull => {
                        nav.refuse(id, goal);
                        let at = e.cell();
                        Leg::Failed(format!(
                            "a wall is in the way at ({}, {}): with INTELLIGENCE below {PLANS_FROM_INTELLIGENCE} it does \
                             not look for a way round",
                            at.x, at.y
                        ))
                    }
                    Walk::Blocked => {
                        nav.request(id, here, goal, &e.avoid);
                        Leg::Walking
                    }
                    Walk::Held => {
                        hold(id, e, goal, map, nav, standing);
                        Leg::Walking
                    }
                };
            }
            nav.request(id, here, goal, &e.avoid);
            return Leg::Walking;
        }
        let Some(plan) = nav.plan_mut(id) else { return Leg::Walking };
        if let PlanState::Pending(request) = plan.state {
            let start = plan.start;
            let around = plan.around.clone();
            match nav.take(id, request) {
                None => return Leg::Walking,
                Some(RequestState::Found { cells, cost }) => {
                    log.push(
                        tick,
                        Some(&e.name),
                        EventKind::Path { from: start.to_array(), to: goal.to_array(), cost },
                    );
                    // Smoothing cuts corners by line of sight alone; a character that weighs
                    // tactical layers walks its cells, or the shortcut would cross what it avoids.
                    let mut corners = Vec::with_capacity(cells.len());
                    // A waypoint route is walked node to node: its nodes are where the designer
                    // wants characters to go (doorways, the middle of a bridge).
                    let over_graph = nav.plan(id).is_some_and(|p| p.via.is_some());
                    if e.avoid.is_empty() && !over_graph {
                        smooth_path(map, &cells, &mut corners);
                    } else {
                        corners.clone_from(&cells);
                    }
                    let mut points: Vec<Vec2> =
                        corners.iter().skip(1).map(|c| c.as_vec2() + Vec2::splat(0.5)).collect();
                    match points.last_mut() {
                        Some(last) => *last = target,
                        None => points.push(target),
                    }
                    // The corners are clear between cell centres; a walker standing off its
                    // cell's centre (stopped half-way by a map change) goes back to it first
                    // when the straight line from where it stands would touch another cell.
                    if !walk_segment(e.position, points[0], |c| map.passable(c)) {
                        points.insert(0, start.as_vec2() + Vec2::splat(0.5));
                    }
                    if let Some(plan) = nav.plan_mut(id) {
                        plan.state = PlanState::Following { points, next: 0, cost };
                    }
                }
                Some(RequestState::Failed(err)) => {
                    nav.refuse(id, goal);
                    return Leg::Failed(match around {
                        Some(who) => format!(
                            "no way to ({}, {}) round the characters standing in it ({who}): walls close every other way",
                            goal.x, goal.y
                        ),
                        None => format!("no way to ({}, {}): {err}", goal.x, goal.y),
                    });
                }
                Some(RequestState::Queued | RequestState::Searching { .. }) => return Leg::Walking,
            }
        }
        let Some(Plan { state: PlanState::Following { points, next, .. }, .. }) = nav.plan_mut(id) else {
            return Leg::Walking;
        };
        let mut blocked = false;
        let mut held = false;
        while let Some(&p) = points.get(*next) {
            match walk(&mut e.position, p, budget, map, |c| standing.holds(map, c, id)) {
                Walk::Arrived => *next += 1,
                Walk::OutOfTime => {
                    nav.not_held(id);
                    return Leg::Walking;
                }
                Walk::Blocked => {
                    blocked = true;
                    break;
                }
                Walk::Held => {
                    held = true;
                    break;
                }
            }
        }
        if held {
            hold(id, e, goal, map, nav, standing);
            return Leg::Walking;
        }
        nav.not_held(id);
        if !blocked {
            nav.forget(id);
            return Leg::Arrived;
        }
        nav.forget(id);
    }
    Leg::Walking
}

/// A standing character holds the walker's way: it waits, and after
/// [`crate::nav::NavConfig::blocked_ticks`] such ticks plans round every standing character.
fn hold(id: EntityId, e: &Entity, goal: IVec2, map: &Map, nav: &mut Navigator, standing: &Standing) {
    if nav.held_once_more(id) {
        let (cells, who) = standing.held_cells(map, id);
        nav.request_around(id, e.cell(), goal, &e.avoid, cells, who);
    }
}

enum Walk {
    Arrived,
    OutOfTime,
    Blocked,
    /// A standing character is in the way.
    Held,
}

/// Moves `pos` straight toward `target`, spending at most `budget` map units of it. Every cell
/// the step crosses must be passable (and a diagonal crossing may not cut a wall's corner).
fn walk(pos: &mut Vec2, target: Vec2, budget: &mut f32, map: &Map, taken: impl Fn(IVec2) -> bool) -> Walk {
    if !map.passable(cell_of(target)) {
        return Walk::Blocked;
    }
    let to = target - *pos;
    let dist = to.length();
    let (next, arrived) = if dist <= *budget { (target, true) } else { (*pos + to * (*budget / dist), false) };
    // The walker's own cell never holds it (it may share it with someone who stands there).
    let own = cell_of(*pos);
    let mut held = false;
    let clear = walk_segment(*pos, next, |c| {
        if !map.passable(c) {
            return false;
        }
        if c != own && taken(c) {
            held = true;
            return false;
        }
        true
    });
    if !clear {
        return if held { Walk::Held } else { Walk::Blocked };
    }
    *budget = if arrived { *budget - dist } else { 0.0 };
    *pos = next;
    if arrived { Walk::Arrived } else { Walk::OutOfTime }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Region;

    fn world() -> World {
        let mut map = Map::open(10, 5);
        for y in 0..4 {
            map.set(IVec2::new(5, y), b'#', f32::INFINITY);
        }
        World::new(map, 10, 1)
    }

    fn kinds(w: &World) -> Vec<String> {
        w.log().events().iter().map(|e| serde_json::to_value(e).unwrap()["kind"].as_str().unwrap().to_owned()).collect()
    }

    #[test]
    fn a_walker_moves_at_its_speed_and_arrives() {
        let mut w = world();
        let mut e = Entity::new("a", "peasant", IVec2::new(0, 4));
        e.speed = 10.0; // one cell a tick at 10 Hz
        let id = w.spawn(e).unwrap();
        w.entity_mut(id).unwrap().actions.push(Action::MoveTo { target: Vec2::new(3.5, 4.5) });
        for _ in 0..3 {
            w.step(|_, _| {});
        }
        assert_eq!(w.entity(id).unwrap().cell(), IVec2::new(3, 4));
        assert!(w.entity(id).unwrap().actions.is_idle());
        assert_eq!(kinds(&w), ["spawn", "action", "move", "move", "arrive", "move"]);
    }

    #[test]
    fn a_walker_goes_round_a_wall_by_the_shortest_way() {
        let mut w = world();
        let mut e = Entity::new("a", "peasant", IVec2::new(3, 1));
        e.speed = 10.0;
        let id = w.spawn(e).unwrap();
        w.entity_mut(id).unwrap().actions.push(Action::MoveTo { target: Vec2::new(7.5, 1.5) });
        let mut walked = 0.0;
        for _ in 0..20 {
            let before = w.entity(id).unwrap().position;
            w.step(|_, _| {});
            let after = w.entity(id).unwrap().position;
            walked += before.distance(after);
            assert!(w.map().passable(after.floor().as_ivec2()), "never inside the wall");
        }
        assert_eq!(w.entity(id).unwrap().cell(), IVec2::new(7, 1));
        let k = kinds(&w);
        assert!(!k.contains(&"blocked".to_owned()), "{k:?}");
        // The wall fills column 5 from row 0 to 3: the way is down to row 4 and back up, and no
        // diagonal may cut the wall's foot at (5, 3): (3,1)→(4,2)→(4,3)→(4,4)→(5,4)→(6,4)→(6,3)
        // →(6,2)→(7,1), two diagonals and six straight steps.
        let path = w.log().events().iter().find(|e| matches!(e.kind, EventKind::Path { .. })).unwrap();
        let EventKind::Path { from, to, cost } = &path.kind else { unreachable!() };
        assert_eq!((*from, *to), ([3, 1], [7, 1]));
        assert!((cost - (2.0 * std::f64::consts::SQRT_2 + 6.0)).abs() < 1e-9, "{cost}");
        // Smoothed, the walk is shorter than the grid path and longer than the wall allows a
        // straight line to be.
        assert!(walked < *cost as f32 - 0.5 && walked > 4.0 + 2.0, "walked {walked}");
    }

    #[test]
    fn a_door_that_opens_shortens_the_way_and_one_that_closes_is_walked_round() {
        let mut w = world();
        w.add_door("gate", vec![IVec2::new(5, 1)], false).unwrap();
        let mut e = Entity::new("a", "peasant", IVec2::new(1, 1));
        e.speed = 5.0; // half a cell a tick
        let id = w.spawn(e).unwrap();
        w.entity_mut(id).unwrap().actions.push(Action::MoveTo { target: Vec2::new(8.5, 1.5) });
        w.schedule_door(2, "gate", true);
        for _ in 0..40 {
            w.step(|_, _| {});
            assert!(w.map().passable(w.entity(id).unwrap().cell()));
        }
        assert_eq!(w.entity(id).unwrap().cell(), IVec2::new(8, 1));
        let paths: Vec<(u64, [i32; 2], f64)> = w
            .log()
            .events()
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Path { from, cost, .. } => Some((e.tick, from, cost)),
                _ => None,
            })
            .collect();
        // First round the wall's foot (1,1)→(4,4)→(5,4)→(6,4)→(8,2)→(8,1): 5√2 + 3. At tick 2
        // the gate opens and the way is searched again from where the walker stands, (2,2):
        // one diagonal up and five cells east through the gate, √2 + 5.
        let sqrt2 = std::f64::consts::SQRT_2;
        assert_eq!(paths.len(), 2, "{paths:?}");
        assert_eq!((paths[0].0, paths[0].1), (0, [1, 1]));
        assert!((paths[0].2 - (5.0 * sqrt2 + 3.0)).abs() < 1e-9);
        assert_eq!((paths[1].0, paths[1].1), (2, [2, 2]));
        assert!((paths[1].2 - (sqrt2 + 5.0)).abs() < 1e-9);
        let door = w.log().events().iter().find(|e| matches!(e.kind, EventKind::Door { .. })).unwrap();
        assert_eq!(door.tick, 2);
        assert!(w.entity(id).unwrap().actions.is_idle());
    }

    #[test]
    fn an_unreachable_goal_is_reported_once() {
        let mut w = world();
        w.set_blocked(IVec2::new(5, 4), true); // the wall now cuts the map in two
        let mut e = Entity::new("a", "peasant", IVec2::new(1, 1));
        e.speed = 10.0;
        let id = w.spawn(e).unwrap();
        for _ in 0..3 {
            w.step(|_, cmds| {
                cmds.push(Command::Request { entity: id, action: Action::MoveTo { target: Vec2::new(8.5, 1.5) } });
            });
        }
        let blocked: Vec<String> = w
            .log()
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Blocked { reason, .. } => Some(reason.clone()),
                _ => None,
            })
            .collect();
        assert_eq!(blocked.len(), 1, "{blocked:?}");
        assert_eq!(blocked[0], "no way to (8, 1): walls cut it off from (1, 1)");
        assert_eq!(w.entity(id).unwrap().cell(), IVec2::new(1, 1));
        // Opening the wall again is a new map: the same goal is searched and reached.
        w.set_blocked(IVec2::new(5, 4), false);
        for _ in 0..60 {
            w.step(|_, cmds| {
                cmds.push(Command::Request { entity: id, action: Action::MoveTo { target: Vec2::new(8.5, 1.5) } });
            });
        }
        assert_eq!(w.entity(id).unwrap().cell(), IVec2::new(8, 1));
    }

    #[test]
    fn a_crowd_of_searches_never_spends_more_than_the_budget() {
        let mut w = world();
        w.set_nav_config(crate::nav::NavConfig { budget: 40, max_active: 4, quantum: 8, ..Default::default() });
        let ids: Vec<EntityId> = (0..12)
            .map(|i| {
                let mut e = Entity::new(format!("e{i}"), "peasant", IVec2::new(i % 4, 1 + i / 4));
                e.speed = 10.0;
                w.spawn(e).unwrap()
            })
            .collect();
        for &id in &ids {
            w.entity_mut(id).unwrap().actions.push(Action::MoveTo { target: Vec2::new(8.5, 2.5) });
        }
        let mut ticks_searching = 0;
        for _ in 0..80 {
            w.step(|_, _| {});
            assert!(w.nav().spent_last_tick() <= 40);
            if w.nav().spent_last_tick() > 0 {
                ticks_searching += 1;
            }
        }
        for &id in &ids {
            let e = w.entity(id).unwrap();
            let mine: Vec<String> = w
                .log()
                .events()
                .iter()
                .filter(|ev| ev.entity.as_deref() == Some(e.name.as_str()))
                .map(|ev| ev.to_json_line())
                .collect();
            assert_eq!(e.cell(), IVec2::new(8, 2), "{} {:?} {:#?}", e.name, e.actions, mine);
        }
        assert_eq!(w.nav().most_spent(), 40, "the budget was used in full while many waited");
        assert!(ticks_searching > 3, "the searches were spread over ticks ({ticks_searching})");
    }

    #[test]
    fn a_signal_sent_before_the_wait_releases_it_and_scopes_are_separate() {
        let mut w = world();
        let a = w.spawn(Entity::new("a", "s", IVec2::new(0, 0))).unwrap();
        let b = w.spawn(Entity::new("b", "s", IVec2::new(1, 0))).unwrap();
        let c = w.spawn(Entity::new("c", "s", IVec2::new(2, 0))).unwrap();
        w.step(|_, cmds| {
            cmds.push(Command::Enqueue { entity: a, action: Action::Signal { scope: "one".into(), id: "go".into() } });
        });
        w.step(|_, cmds| {
            let wait = |scope: &str| Action::Wait { scope: scope.into(), id: "go".into(), logged: false };
            cmds.push(Command::Enqueue { entity: b, action: wait("one") });
            cmds.push(Command::Enqueue { entity: b, action: Action::Say { text: "in".into() } });
            cmds.push(Command::Enqueue { entity: c, action: wait("two") });
        });
        assert!(w.entity(b).unwrap().actions.is_idle(), "released at once by the earlier signal");
        assert!(!w.entity(c).unwrap().actions.is_idle(), "another scope's signal does not release it");
        assert_eq!(kinds(&w)[3..], ["signal", "release", "say", "wait"]);
    }

    #[test]
    fn a_line_said_before_a_request_in_the_same_call_is_said() {
        // A script's `Say("Eek!"); DoFlee();` becomes Perform then Request; the request used to
        // clear the queue, the line with it.
        let mut w = world();
        let id = w.spawn(Entity::new("a", "goblin", IVec2::new(0, 4))).unwrap();
        w.entity_mut(id).unwrap().actions.push(Action::Sleep { ticks: 50 });
        w.step(|_, _| {});
        w.step(|_, cmds| {
            cmds.push(Command::Perform { entity: id, action: Action::Say { text: "Eek!".into() } });
            cmds.push(Command::Request { entity: id, action: Action::MoveTo { target: Vec2::new(0.5, 0.5) } });
        });
        assert_eq!(kinds(&w), ["spawn", "action", "say", "action"]);
        let said = &w.log().events()[2];
        assert_eq!(said.tick, 1);
        assert_eq!(serde_json::to_value(said).unwrap()["text"], "Eek!");
        assert_eq!(w.entity(id).unwrap().actions.front().map(Action::name), Some("move_to"), "the sleep was replaced");
    }

    #[test]
    fn region_events_are_edge_triggered() {
        let mut w = world();
        w.add_region("trap", Region::new(IVec2::new(2, 4), IVec2::new(3, 4)));
        let mut e = Entity::new("a", "peasant", IVec2::new(0, 4));
        e.speed = 10.0;
        let id = w.spawn(e).unwrap();
        w.entity_mut(id).unwrap().actions.push(Action::MoveTo { target: Vec2::new(6.5, 4.5) });
        for _ in 0..10 {
            w.step(|_, _| {});
        }
        let k = kinds(&w);
        assert_eq!(k.iter().filter(|k| *k == "enter").count(), 1);
        assert_eq!(k.iter().filter(|k| *k == "exit").count(), 1);
    }

    #[test]
    fn scheduled_globals_and_commands_log_only_changes() {
        let mut w = world();
        let id = w.spawn(Entity::new("a", "s", IVec2::new(0, 0))).unwrap();
        w.schedule_global(1, "GameTime", Value::from("kNight"));
        for _ in 0..3 {
            w.step(|_, cmds| {
                cmds.push(Command::SetAttribute { entity: id, key: "LEVEL".into(), value: Value::Int(3) });
            });
        }
        assert_eq!(w.global("GameTime"), &Value::from("kNight"));
        assert_eq!(kinds(&w), ["spawn", "attribute", "global"]);
        assert_eq!(w.clock().tick(), 3);
    }

    #[test]
    fn an_endless_queue_of_instants_is_spread_over_ticks() {
        let mut w = world();
        let id = w.spawn(Entity::new("a", "s", IVec2::new(0, 0))).unwrap();
        for i in 0..100 {
            w.entity_mut(id).unwrap().actions.push(Action::Say { text: i.to_string() });
        }
        w.step(|_, _| {});
        assert_eq!(w.entity(id).unwrap().actions.len(), 100 - MAX_ACTIONS_PER_TICK);
    }

    #[test]
    fn scripts_cannot_grow_a_queue_past_its_cap() {
        let mut w = world();
        let id = w.spawn(Entity::new("a", "s", IVec2::new(0, 0))).unwrap();
        // Commands issued with no per-call check (several scripts of one character in a tick):
        // the world keeps the cap and notes the drop once.
        let mut cmds = CommandBuffer::default();
        for i in 0..MAX_QUEUED_ACTIONS + 10 {
            cmds.push(Command::Enqueue { entity: id, action: Action::Sleep { ticks: 1 + i as u32 } });
        }
        cmds.push(Command::Perform { entity: id, action: Action::Say { text: "late".into() } });
        w.apply(cmds);
        assert_eq!(w.entity(id).unwrap().actions.len(), MAX_QUEUED_ACTIONS);
        let notes: Vec<_> = w
            .log()
            .events()
            .iter()
            .filter(|e| matches!(&e.kind, EventKind::Note { name, .. } if name == "actions_dropped"))
            .collect();
        assert_eq!(notes.len(), 1, "{notes:?}");
        // A request replaces the queue, so it is never refused.
        let mut cmds = CommandBuffer::default();
        cmds.push(Command::Request { entity: id, action: Action::Sleep { ticks: 3 } });
        w.apply(cmds);
        assert_eq!(w.entity(id).unwrap().actions.len(), 1);
    }

    #[test]
    fn lending_keeps_the_random_stream() {
        let mut a = world();
        let mut b = world();
        let x = a.lend(|_, rng| rng.next_u64());
        let y = b.rng().next_u64();
        assert_eq!(x, y);
        assert_eq!(a.rng().next_u64(), b.rng().next_u64(), "the stream goes on where the lender left it");
    }

    #[test]
    fn spawning_checks_names_and_cells() {
        let mut w = world();
        w.spawn(Entity::new("a", "s", IVec2::new(0, 0))).unwrap();
        assert!(matches!(
            w.spawn(Entity::new("a", "s", IVec2::new(1, 0))),
            Err(crate::world::WorldError::DuplicateName(_))
        ));
        assert!(w.spawn(Entity::new("b", "s", IVec2::new(5, 0))).is_err());
        assert!(w.spawn(Entity::new("c", "s", IVec2::new(50, 0))).is_err());
        let id = w.find("a").unwrap();
        w.despawn(id).unwrap();
        assert!(w.entity(id).is_none(), "stale handles find nothing");
        assert!(w.despawn(id).is_err());
    }
}
