//! Steering inside a ticking world: outcomes (catches, distance kept, flocks connected and out of
//! walls, formations in shape round a corner) and refused orders.

use glam::{IVec2, Vec2};

use super::*;
use crate::world::{World, WorldError};

fn spawn(w: &mut World, name: &str, cell: [i32; 2], speed: f32) -> Result<EntityId, WorldError> {
    let mut e = Entity::new(name, "unit", IVec2::from_array(cell));
    e.speed = speed;
    w.spawn(e)
}

fn run(w: &mut World, ticks: usize, mut each: impl FnMut(&World)) {
    for _ in 0..ticks {
        w.step(|_, _| {});
        each(w);
    }
}

fn caught_at(w: &World, who: &str) -> Option<u64> {
    w.log()
        .events()
        .iter()
        .find(|e| {
            e.entity.as_deref() == Some(who)
                && matches!(&e.kind, EventKind::Action { action, .. } if action == "caught")
        })
        .map(|e| e.tick)
}

#[test]
fn a_chaser_catches_a_slower_evading_prey_and_stops() {
    let mut w = World::new(Map::open(60, 60), 10, 1);
    let wolf = spawn(&mut w, "wolf", [5, 5], 4.0).unwrap();
    let deer = spawn(&mut w, "deer", [30, 30], 2.5).unwrap();
    w.steer(wolf, SteerOrder::Chase(deer)).unwrap();
    w.steer(deer, SteerOrder::Evade(wolf)).unwrap();
    for _ in 0..400 {
        w.step(|_, _| {});
        if caught_at(&w, "wolf").is_some() {
            break;
        }
    }
    let at = caught_at(&w, "wolf").expect("the wolf caught the deer");
    // Straight-line bound: 35.4 apart, closing at most 1.5 + turning losses; well within 40 s.
    assert!(at > 20 && at < 400, "caught at tick {at}");
    assert_eq!(w.steering().behaviour(wolf), None, "a chaser stops once it caught its prey");
    // Caught on the tick it came within the catch distance.
    assert!(w.entity(wolf).unwrap().position.distance(w.entity(deer).unwrap().position) <= CATCH_DISTANCE);
}

#[test]
fn an_interceptor_catches_a_crossing_prey_sooner_than_a_chaser() {
    // The prey runs a straight line across the pursuer's front (a move action, not steering).
    let time = |order: fn(EntityId) -> SteerOrder| {
        let mut w = World::new(Map::open(80, 80), 10, 1);
        let hunter = spawn(&mut w, "hunter", [5, 40], 3.0).unwrap();
        let prey = spawn(&mut w, "prey", [30, 10], 2.0).unwrap();
        w.entity_mut(prey).unwrap().actions.push(crate::coord::Action::MoveTo { target: Vec2::new(30.5, 78.5) });
        w.steer(hunter, order(prey)).unwrap();
        run(&mut w, 600, |_| {});
        caught_at(&w, "hunter").expect("caught")
    };
    let (chase, intercept) = (time(SteerOrder::Chase), time(SteerOrder::Intercept));
    assert!(intercept < chase, "intercept {intercept} vs chase {chase}");
}

#[test]
fn a_faster_evader_keeps_its_distance() {
    let mut w = World::new(Map::open(200, 200), 10, 1);
    let hound = spawn(&mut w, "hound", [90, 100], 3.0).unwrap();
    let hare = spawn(&mut w, "hare", [100, 100], 3.5).unwrap();
    w.steer(hound, SteerOrder::Chase(hare)).unwrap();
    w.steer(hare, SteerOrder::Evade(hound)).unwrap();
    let mut closest = f32::MAX;
    run(&mut w, 300, |w| {
        closest = closest.min(w.entity(hound).unwrap().position.distance(w.entity(hare).unwrap().position));
    });
    // It starts 10 apart and, being faster, never lets the hound closer than 9.5 (the hound
    // gains a little while both accelerate from rest).
    assert!(closest > 9.5, "closest {closest}");
    assert!(caught_at(&w, "hound").is_none());
}

/// A 40×30 room with a block of wall in the middle.
fn walled_room() -> Map {
    let mut m = Map::open(40, 30);
    for y in 12..18 {
        for x in 18..23 {
            m.set(IVec2::new(x, y), b'#', f32::INFINITY);
        }
    }
    m
}

use super::super::connected;

/// What one flock did on its laps of the walled room.
#[derive(Debug)]
struct Laps {
    /// Bird-ticks spent inside a wall.
    in_wall: usize,
    /// The closest two birds came.
    closest: f32,
    /// Ticks on which the flock was not linked within its wide view (8 lengths = 4 units).
    split: usize,
    /// How far its centre got from where it started.
    farthest: f32,
    /// Its centre's distance to the guide at the end.
    behind: f32,
}

/// `n` birds starting in a block `shift` cells east of the west wall chase a guide round the
/// room's central block for 1,000 ticks.
fn walled_room_laps(n: i32, shift: i32) -> Laps {
    let mut w = World::new(walled_room(), 20, 3);
    let guide = spawn(&mut w, "guide", [4, 4], 2.0).unwrap();
    // The guide walks round the central block; the flock's leaders chase it.
    let lap = [[34, 4], [34, 25], [4, 25], [4, 4]].map(|c| Vec2::new(c[0] as f32 + 0.5, c[1] as f32 + 0.5));
    w.entity_mut(guide).unwrap().actions.push(crate::coord::Action::FollowPath { points: [lap; 3].concat(), next: 0 });
    let params = FlockParams { leader_force: 1.0, regroup: 3.0, ..FlockParams::default() };
    let spec = FlockSpec { params, length: 0.5, quarry: Some(guide), ..FlockSpec::default() };
    w.steering_mut().add_flock("birds", spec);
    let mut birds = Vec::new();
    for i in 0..n {
        let id = spawn(&mut w, &format!("b{i}"), [2 + shift + (i % 4) * 2, 8 + (i / 4) * 2], 2.6).unwrap();
        w.steer(id, SteerOrder::JoinFlock("birds".into())).unwrap();
        birds.push(id);
    }
    assert_eq!(w.steering().flock_members("birds"), birds);
    let mut laps = Laps { in_wall: 0, closest: f32::MAX, split: 0, farthest: 0.0, behind: 0.0 };
    let start = birds.iter().map(|&b| w.entity(b).unwrap().position).sum::<Vec2>() / n as f32;
    run(&mut w, 1000, |w| {
        let pts: Vec<Vec2> = birds.iter().map(|&b| w.entity(b).unwrap().position).collect();
        laps.in_wall += pts.iter().filter(|p| !w.map().passable(p.floor().as_ivec2())).count();
        for i in 0..pts.len() {
            for j in i + 1..pts.len() {
                laps.closest = laps.closest.min(pts[i].distance(pts[j]));
            }
        }
        laps.split += usize::from(!connected(&pts, 4.0));
        let centre = pts.iter().sum::<Vec2>() / pts.len() as f32;
        laps.farthest = laps.farthest.max(centre.distance(start));
    });
    let centre = birds.iter().map(|&b| w.entity(b).unwrap().position).sum::<Vec2>() / n as f32;
    laps.behind = centre.distance(w.entity(guide).unwrap().position);
    laps
}

/// Six flocks (10, 12 and 14 birds, starting in two places), regrouping on, each fly three laps
/// of a walled room behind a guide. Every flock stays out of the walls, keeps its bodies apart,
/// goes round and keeps up. Staying linked is only a tendency here: the room's corridors are 6
/// to 8 body lengths wide, and squeezing round the corners splits a flock for a while (measured
/// with regrouping: 0 to 136 of 1,000 ticks per flock, 264 of 6,000 in all, three flocks never;
/// before the flock waited for its stragglers, 286; without regrouping, 1,571, and one flock
/// fell 9.7 behind its guide; a flock is chaotic, and builds whose arithmetic differed in the
/// last bit measured 26 and 210 for one flock).
#[test]
fn flocks_circle_a_walled_room_out_of_the_walls_and_mostly_linked() {
    let mut split = 0;
    for n in [10, 12, 14] {
        for shift in [1, 2] {
            let laps = walled_room_laps(n, shift);
            assert_eq!(laps.in_wall, 0, "{n}/{shift}: no bird ever stood in a wall: {laps:?}");
            // Bodies are 0.5 long and 0.2 wide. The contact pass holds them at a touch; a crowd
            // pressed into a corner can squeeze a body a little before the passes run out
            // (measured 0.1950 at worst).
            assert!(laps.closest > 0.2 * 0.9, "{n}/{shift}: bodies overlapped: {laps:?}");
            // It followed the guide round the block: out to the far corners and back with it.
            assert!(laps.farthest > 20.0, "{n}/{shift}: the flock went round: {laps:?}");
            // Within 12 (at most 9.2 measured, the flock waiting for a straggler; the guide is 2
            // from the corner it turns at).
            assert!(laps.behind < 12.0, "{n}/{shift}: the flock kept up with the guide: {laps:?}");
            split += laps.split;
        }
    }
    assert!(split <= 900, "split on {split} of 6,000 flock-ticks (264 measured)");
}

/// An L-shaped corridor 12 wide: up the west side to y = 6, then east along the north side.
fn corner_map() -> Map {
    let mut m = Map::open(80, 80);
    for y in 0..80 {
        for x in 0..80 {
            let vertical = (1..13).contains(&x) && (1..79).contains(&y);
            let horizontal = (1..79).contains(&x) && (1..13).contains(&y);
            if !(vertical || horizontal) {
                m.set(IVec2::new(x, y), b'#', f32::INFINITY);
            }
        }
    }
    m
}

fn formation_run(kill_at: Option<usize>) -> (f32, usize, f32) {
    let mut w = World::new(corner_map(), 20, 5);
    let captain = spawn(&mut w, "captain", [6, 40], 3.0).unwrap();
    w.entity_mut(captain).unwrap().heading = -std::f32::consts::FRAC_PI_2;
    let spec = FormationSpec {
        shape: Shape::Pyramid,
        spacing: 1.5,
        captain_throttle: 0.6,
        path: vec![Vec2::new(6.5, 6.5), Vec2::new(40.5, 6.5)],
        waypoint_radius: 4.0,
    };
    w.steering_mut().add_formation("squad", spec, captain);
    let mut members = Vec::new();
    for (i, cell) in [[5, 42], [8, 42], [3, 44], [6, 44], [9, 44]].into_iter().enumerate() {
        let id = spawn(&mut w, &format!("m{i}"), cell, 4.0).unwrap();
        w.entity_mut(id).unwrap().heading = -std::f32::consts::FRAC_PI_2;
        w.steer(id, SteerOrder::FormUp { captain, slot: i }).unwrap();
        members.push(id);
    }
    assert_eq!(w.steering().formation("squad").unwrap().members, members);
    let (settle, mut worst) = (80, 0.0f32);
    for tick in 0..900 {
        if Some(tick) == kill_at {
            w.despawn(members[0]).unwrap();
        }
        w.step(|_, _| {});
        let group = w.steering().formation("squad").unwrap();
        let formed = tick >= settle && kill_at.is_none_or(|k| tick >= k + settle);
        if formed {
            for (k, m) in group.members.iter().enumerate() {
                let p = w.entity(*m).unwrap().position;
                worst = worst.max(p.distance(group.slot_positions()[k]));
            }
        }
    }
    let group = w.steering().formation("squad").unwrap();
    let end = w.entity(group.captain.unwrap()).unwrap().position.distance(Vec2::new(40.5, 6.5));
    (worst, group.members.len(), end)
}

#[test]
fn a_formation_keeps_its_shape_round_a_corner_between_walls() {
    let (worst, members, end) = formation_run(None);
    assert_eq!(members, 5);
    // Tolerance: once formed (4 s), every member holds within half the spacing (0.75) of its slot,
    // the 90° corner included.
    assert!(worst < 0.75, "worst slot error {worst}");
    assert!(end < 4.5, "the captain reached the end of its path: {end}");
}

#[test]
fn a_formation_re_forms_when_a_member_dies() {
    let (worst, members, _) = formation_run(Some(150));
    assert_eq!(members, 4, "the dead member's slot closed up");
    assert!(worst < 0.75, "re-formed within 4 s and held the shape: worst {worst}");
}

#[test]
fn a_pattern_flies_laps_and_orders_are_checked() {
    let mut w = World::new(Map::open(50, 50), 10, 1);
    let a = spawn(&mut w, "a", [25, 25], 2.0).unwrap();
    let b = spawn(&mut w, "b", [5, 5], 2.0).unwrap();
    let square = PatternSpec {
        steps: PATROL_PATTERN.iter().map(|s| PatternStep { position_limit: s.position_limit / 40.0, ..*s }).collect(),
    };
    w.steering_mut().add_pattern("square", square);
    w.steer(a, SteerOrder::RunPattern("square".into())).unwrap();
    let mut far = 0.0f32;
    run(&mut w, 400, |w| far = far.max(w.entity(a).unwrap().position.distance(Vec2::splat(25.5))));
    // Four 5-unit legs with rounded 90° turns: it goes out along its square and comes back round.
    // Each lap re-anchors on where the last one ended (the book's tracker), so small overshoots
    // drift the square a little lap by lap.
    assert!(far > 4.0 && far < 15.0, "farthest {far}");
    let turned = w.log().events().iter().filter(|e| matches!(e.kind, EventKind::Move { .. })).count();
    assert!(turned > 10);

    assert_eq!(w.steer(a, SteerOrder::JoinFlock("nope".into())), Err(SteerError::NoSuchFlock("nope".into())));
    assert_eq!(w.steer(a, SteerOrder::RunPattern("x".into())), Err(SteerError::NoSuchPattern("x".into())));
    assert_eq!(w.steer(a, SteerOrder::Chase(a)), Err(SteerError::ItSelf));
    assert_eq!(w.steer(a, SteerOrder::FormUp { captain: b, slot: 0 }), Err(SteerError::NotACaptain));
    w.despawn(b).unwrap();
    assert_eq!(w.steer(a, SteerOrder::Chase(b)), Err(SteerError::NoSuchEntity));
    assert_eq!(w.steering().behaviour(a).map(Behaviour::name), Some("pattern"), "refused orders change nothing");
    w.steer(a, SteerOrder::Stop).unwrap();
    assert_eq!(w.steering().behaviour(a), None);
}

#[test]
fn steering_is_deterministic_and_a_gone_target_stops_the_chase() {
    let play = || {
        let mut w = World::new(walled_room(), 10, 9);
        let fox = spawn(&mut w, "fox", [2, 2], 3.0).unwrap();
        let hen = spawn(&mut w, "hen", [35, 25], 2.0).unwrap();
        w.steer(fox, SteerOrder::Intercept(hen)).unwrap();
        w.steer(hen, SteerOrder::Evade(fox)).unwrap();
        run(&mut w, 50, |_| {});
        w.despawn(hen).unwrap();
        run(&mut w, 5, |_| {});
        assert_eq!(w.steering().behaviour(fox), None);
        w.log().events().iter().map(|e| format!("{e:?}")).collect::<Vec<_>>()
    };
    assert_eq!(play(), play());
}

use super::super::flock_sim::FlockParams;
use super::super::physics_pattern::PatternStep;
