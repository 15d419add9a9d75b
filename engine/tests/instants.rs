//! Instant actions (a line said, a sound, a trigger, a signal) run ahead of a move in progress
//! and leave it as it was: no second search of its way, no later arrival. A walker goes round a
//! wall to a cell 18 steps away while every third tick one instant is put in front of its move
//! (as a behaviour script's `Say` is), and the searches, the arrival tick and the cells walked are
//! those of the walk with nothing said. Every instant of the action vocabulary is tried.

mod walk;

use glam::{IVec2, Vec2};
use tactica_engine::coord::Action;
use tactica_engine::grid::Map;
use tactica_engine::world::{Command, Entity, EntityId, EventKind, World};
use walk::Walk;

/// One action of each kind. The match names every variant, so a new kind of action cannot be
/// added without being listed here (and so tried below if it is instant).
fn one_of_each() -> Vec<Action> {
    let all = vec![
        Action::MoveTo { target: Vec2::new(1.5, 1.5) },
        Action::FollowPath { points: vec![Vec2::new(1.5, 1.5)], next: 0 },
        Action::Say { text: "On my way.".into() },
        Action::PlaySound { name: "footsteps".into() },
        Action::Trigger { name: "alarm".into() },
        Action::Sleep { ticks: 1 },
        Action::Signal { scope: "squad".into(), id: "moving".into() },
        Action::Wait { scope: "squad".into(), id: "never".into(), logged: false },
    ];
    for a in &all {
        match a {
            Action::MoveTo { .. }
            | Action::FollowPath { .. }
            | Action::Say { .. }
            | Action::PlaySound { .. }
            | Action::Trigger { .. }
            | Action::Sleep { .. }
            | Action::Signal { .. }
            | Action::Wait { .. } => {}
            _ => unreachable!("listed above"),
        }
    }
    all
}

/// A 12 × 10 room with a wall down column 6 from the top to row 7: from (3, 1) to (10, 1) the way
/// goes down round the wall's foot and back up, 18 cells.
fn world() -> (World, EntityId) {
    let mut map = Map::open(12, 10);
    for y in 0..8 {
        map.set(IVec2::new(6, y), b'#', f32::INFINITY);
    }
    let mut world = World::new(map, 10, 1);
    let mut walker = Entity::new("walker", "scout", IVec2::new(3, 1));
    walker.speed = 5.0; // half a cell a tick
    let id = world.spawn(walker).unwrap();
    (world, id)
}

/// Walks to (10, 1). Every `every` ticks the commands `each(tick)` gives are applied as a
/// script's would be; `request` asks for the move again every tick (a behaviour script that
/// says `MoveTo` on each think).
fn walk(each: impl Fn(u64, EntityId) -> Vec<Command>, request: bool) -> Walk {
    let (mut world, id) = world();
    let target = Vec2::new(10.5, 1.5);
    world.entity_mut(id).unwrap().actions.push(Action::MoveTo { target });
    for tick in 0..80 {
        world.step(|_, commands| {
            if request {
                commands.push(Command::Request { entity: id, action: Action::MoveTo { target } });
            }
            for c in each(tick, id) {
                commands.push(c);
            }
        });
    }
    Walk::from_events(world.log().events())
}

fn instants() -> Vec<Action> {
    one_of_each().into_iter().filter(Action::is_instant).collect()
}

#[test]
fn the_vocabulary_has_four_instants() {
    let names: Vec<&str> = instants().iter().map(Action::name).collect();
    assert_eq!(names, ["say", "play_sound", "trigger", "signal"]);
}

#[test]
fn the_plain_walk_searches_once_and_walks_18_cells() {
    let plain = walk(|_, _| Vec::new(), false);
    assert_eq!(plain.searches, [0], "one search, on the first tick");
    assert_eq!(plain.cells.len(), 18, "{:?}", plain.cells);
    assert_eq!(plain.cells.last(), Some(&[10, 1]));
    assert_eq!(plain.arrived, Some(33));
    assert_eq!(plain.instants, 0);
}

#[test]
fn every_instant_in_front_of_a_move_leaves_it_as_it_was() {
    for request in [false, true] {
        let plain = walk(|_, _| Vec::new(), request);
        for instant in instants() {
            let said = walk(
                |tick, id| {
                    if tick % 3 == 1 { vec![Command::Perform { entity: id, action: instant.clone() }] } else { vec![] }
                },
                request,
            );
            let name = instant.name();
            assert_eq!(said.searches, plain.searches, "{name} (request every tick: {request})");
            assert_eq!(said.arrived, plain.arrived, "{name} (request every tick: {request})");
            assert_eq!(said.cells, plain.cells, "{name} (request every tick: {request})");
            // Ticks 1, 4, … 79: 27 instants, every one carried out.
            assert_eq!(said.instants, 27, "{name} (request every tick: {request})");
        }
    }
}

#[test]
fn all_instants_at_once_leave_it_as_it_was_too() {
    let plain = walk(|_, _| Vec::new(), true);
    let all = walk(
        |tick, id| {
            let mut out = Vec::new();
            if tick % 2 == 0 {
                for a in instants() {
                    out.push(Command::Perform { entity: id, action: a });
                }
                // The move asked for again between them, as `Say(…); MoveTo(…); PlaySound(…)` does.
                out.insert(2, Command::Request { entity: id, action: Action::MoveTo { target: Vec2::new(10.5, 1.5) } });
            }
            out
        },
        true,
    );
    assert_eq!((all.searches, all.arrived, all.cells), (plain.searches, plain.arrived, plain.cells));
    assert_eq!(all.instants, 4 * 40);
}

#[test]
fn the_move_is_logged_as_started_once() {
    let (mut world, id) = world();
    world.entity_mut(id).unwrap().actions.push(Action::MoveTo { target: Vec2::new(10.5, 1.5) });
    for tick in 0..50 {
        world.step(|_, commands| {
            if tick % 3 == 1 {
                commands.push(Command::Perform { entity: id, action: Action::Say { text: "Hm.".into() } });
            }
        });
    }
    let started = world
        .log()
        .events()
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Action { action, .. } if action == "move_to"))
        .count();
    assert_eq!(started, 1);
}
