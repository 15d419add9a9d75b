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

use super::{Command, CommandBuffer, Entity, EventKind, EventLog, World};
use crate::coord::{Action, Signals};
use crate::grid::{Map, walk_supercover};
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
    }

    /// Phase 3: carries out the scripts' commands in the fixed order of [`CommandBuffer::sorted`].
    /// Commands naming a stale entity are dropped: the entity is gone, there is nothing to change.
    pub fn apply(&mut self, commands: CommandBuffer) {
        for command in commands.sorted() {
            match command {
                Command::ClearSignals { scope } => self.signals.clear_scope(&scope),
                Command::SetGlobal { key, value } => self.set_global(key, value),
                Command::SetAttribute { entity, key, value } => {
                    let tick = self.clock.tick();
                    if let Some(e) = self.entities.get_mut(entity)
                        && e.attributes.get(&key) != Some(&value)
                    {
                        e.attributes.insert(key.clone(), value.clone());
                        self.log.push(tick, Some(&e.name), EventKind::Attribute { key, value });
                    }
                }
                Command::SetBlackboard { entity, key, value } => {
                    if let Some(e) = self.entities.get_mut(entity) {
                        e.blackboard.insert(key, value);
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
                Command::Perform { entity, action } => {
                    if let Some(e) = self.entities.get_mut(entity) {
                        e.actions.push_front(action);
                    }
                }
                Command::Enqueue { entity, action } => {
                    if let Some(e) = self.entities.get_mut(entity) {
                        e.actions.push(action);
                    }
                }
                Command::Emit { entity, event } => self.record(entity, event),
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

    /// Phase 4: every entity, in key order, works through its action queue.
    pub fn run_actions(&mut self) {
        let tick = self.clock.tick();
        let dt = self.clock.dt();
        let World { entities, map, log, signals, steering, .. } = self;
        for (_, e) in entities.iter_mut() {
            run_queue(e, map, log, signals, tick, dt);
        }
        steering.tick(entities, map, log, tick, dt);
    }

    /// Phase 5: entities that crossed a region border this tick get `enter`/`exit` events — once,
    /// on the tick they cross, not on every tick they stay (edge-triggered). Then the tactical maps
    /// and senses take in where everyone now stands and what happened this tick.
    pub fn detect_events(&mut self) {
        let tick = self.clock.tick();
        let World { entities, regions, log, .. } = self;
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
        self.update_tactical();
    }

    /// Phase 6: the clock moves to the next tick.
    pub fn end_tick(&mut self) {
        self.clock.advance();
    }
}

fn run_queue(e: &mut Entity, map: &Map, log: &mut EventLog, signals: &mut Signals, tick: u64, dt: f32) {
    let mut budget = e.speed.max(0.0) * dt;
    let start = e.position;
    for _ in 0..MAX_ACTIONS_PER_TICK {
        let started = e.actions.started;
        e.actions.started = true;
        let Some(action) = e.actions.front_mut() else { break };
        let done = match action {
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
                match walk(&mut e.position, target, &mut budget, map) {
                    Walk::Arrived => {
                        log.push(tick, Some(&e.name), EventKind::Arrive { cell: target.floor().as_ivec2().to_array() });
                        true
                    }
                    Walk::OutOfTime => break,
                    Walk::Blocked(reason) => {
                        log.push(
                            tick,
                            Some(&e.name),
                            EventKind::Blocked {
                                cell: e.position.floor().as_ivec2().to_array(),
                                reason: reason.into(),
                            },
                        );
                        true
                    }
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
                let mut outcome = None;
                while let Some(&p) = points.get(*next) {
                    match walk(&mut e.position, p, &mut budget, map) {
                        Walk::Arrived => *next += 1,
                        Walk::OutOfTime => {
                            outcome = Some(false);
                            break;
                        }
                        Walk::Blocked(reason) => {
                            log.push(
                                tick,
                                Some(&e.name),
                                EventKind::Blocked {
                                    cell: e.position.floor().as_ivec2().to_array(),
                                    reason: reason.into(),
                                },
                            );
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
        if done {
            e.actions.pop();
        }
    }
    let moved = e.position - start;
    e.velocity = moved / dt;
    if moved != Vec2::ZERO {
        e.heading = moved.y.atan2(moved.x);
        let (from, to) = (start.floor().as_ivec2(), e.position.floor().as_ivec2());
        if from != to {
            log.push(tick, Some(&e.name), EventKind::Move { from: from.to_array(), to: to.to_array() });
        }
    }
}

enum Walk {
    Arrived,
    OutOfTime,
    Blocked(&'static str),
}

/// Moves `pos` straight toward `target`, spending at most `budget` map units of it. Every cell
/// the step crosses must be passable (and a diagonal crossing may not cut a wall's corner).
fn walk(pos: &mut Vec2, target: Vec2, budget: &mut f32, map: &Map) -> Walk {
    if !map.passable(target.floor().as_ivec2()) {
        return Walk::Blocked("the target cell is blocked or off the map");
    }
    let to = target - *pos;
    let dist = to.length();
    let (next, arrived) = if dist <= *budget { (target, true) } else { (*pos + to * (*budget / dist), false) };
    let (a, b): (IVec2, IVec2) = (pos.floor().as_ivec2(), next.floor().as_ivec2());
    if a != b && !walk_supercover(a, b, |c| map.passable(c)) {
        return Walk::Blocked("a wall is in the way");
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
    fn walls_stop_a_straight_walk() {
        let mut w = world();
        let mut e = Entity::new("a", "peasant", IVec2::new(3, 1));
        e.speed = 10.0;
        let id = w.spawn(e).unwrap();
        w.entity_mut(id).unwrap().actions.push(Action::MoveTo { target: Vec2::new(7.5, 1.5) });
        for _ in 0..5 {
            w.step(|_, _| {});
        }
        assert_eq!(w.entity(id).unwrap().cell(), IVec2::new(4, 1));
        assert!(kinds(&w).contains(&"blocked".to_owned()));
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
