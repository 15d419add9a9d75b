//! Every query example of the reference (001 §1.3.2 table, with Listing 26.1 as far as the text
//! describes it) on built maps, against answers computed independently in the tests.

use glam::Vec2;
use tactica_engine::grid::{Map, line_of_sight};
use tactica_engine::tactics::query::*;
use tactica_engine::world::{Entity, World};

use super::common::*;

const ME: Vec2 = Vec2::new(15.5, 15.5);

fn open() -> TestWorld {
    TestWorld::new(Map::open(40, 40))
}

/// The grid points of `grid_around_puppet = r` (spacing 1), in generation order.
fn grid_points(centre: Vec2, r: i32) -> Vec<Vec2> {
    let mut v = Vec::new();
    for j in -r..=r {
        for i in -r..=r {
            v.push(centre + Vec2::new(i as f32, j as f32));
        }
    }
    v
}

/// My own directness: progress towards the goal per metre moved.
fn progress_ratio(from: Vec2, p: Vec2, goal: Vec2) -> f32 {
    (from.distance(goal) - p.distance(goal)) / from.distance(p)
}

#[test]
fn l47_min_distance_is_a_condition_on_the_raw_distance() {
    let w = open();
    let res = Reservations::new();
    let q = option("Generation { grid_around_puppet = 10 } Conditions { min_distance_from_puppet = 5 }");
    let (out, rec) = run(&q, &w.env(&res), objects(ME, None));
    let expected: Vec<Vec2> = grid_points(ME, 10).into_iter().filter(|p| p.distance(ME) >= 5.0).collect();
    assert_eq!(passed(&rec), expected);
    assert_eq!(expected.len(), 441 - 69, "69 grid points lie within 5 m (i² + j² < 25)");
    // No weights: every valid point scores 0 and the first one generated wins.
    assert_eq!(best(&out).candidate.position, v(5.5, 5.5));
    assert_eq!(best(&out).score, 0.0);
}

#[test]
fn l80_hidespots_from_target_around_puppet_gathers_valid_hidespots_within_the_radius() {
    let mut w = open();
    let target = v(15.5, 30.5); // south of us (y grows southwards)
    w.hidespots = vec![
        spot(1, v(15.5, 18.5), v(0.0, 1.0), true),  // faces the target: kept
        spot(2, v(20.5, 15.5), v(0.0, -1.0), true), // faces away from the target: rejected by the dot product
        spot(3, v(15.5, 33.5), v(0.0, 1.0), true),  // 18 m away: outside the radius
        Hidespot {
            id: 4,
            position: v(10.5, 20.5),
            shape: HidespotShape::AroundObstacle { obstacle: v(10.5, 20.5), standoff: 1.5 },
            cover: cover(None, false, true),
        },
    ];
    let res = Reservations::new();
    let q = option("Generation = { hidespots_from_target_around_puppet = 15 }");
    let (_, rec) = run(&q, &w.env(&res), objects(ME, Some(target)));
    let cands = &rec.options[0].candidates;
    assert_eq!(cands.len(), 2);
    assert_eq!(cands[0].source, PointSource::Hidespot(1));
    assert_eq!(cands[1].source, PointSource::Hidespot(4));
    // The tree's hidespot is generated on the side opposite the target, 1.5 m from its centre.
    let away = (v(10.5, 20.5) - target).normalize();
    assert!(cands[1].position.distance(v(10.5, 20.5) + away * 1.5) < 1e-5);
}

#[test]
fn l88_grid_around_puppet_is_a_square_of_points_around_the_agent() {
    let w = open();
    let res = Reservations::new();
    let q = option("Generation = { grid_around_puppet = 10 }");
    let (_, rec) = run(&q, &w.env(&res), objects(ME, None));
    let pts: Vec<Vec2> = rec.options[0].candidates.iter().map(|c| c.position).collect();
    assert_eq!(pts, grid_points(ME, 10));
}

#[test]
fn l92_circles_find_the_closest_point_that_blocks_the_targets_line_of_sight() {
    // A wall three cells wide south-west of the agent; the target further south.
    let mut rows = vec!["..............................".to_owned(); 30];
    rows[12].replace_range(7..10, "###");
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let w = TestWorld::new(map(&rows));
    let me = v(10.5, 10.5);
    let target = v(8.5, 20.5);
    let res = Reservations::new();
    let q = option(
        "Generation = {circles_around_puppet = 10}, Conditions = {visible_from_target = false},
         Weights = {distance_from_puppet = -1.0},",
    );
    let (out, rec) = run(&q, &w.env(&res), objects(me, Some(target)));
    let chosen = best(&out).candidate.position;
    // Independent answer: the first candidate among the nearest hidden ones.
    let hidden = |p: Vec2| !line_of_sight(&w.map, cell(target), cell(p));
    let cands: Vec<Vec2> =
        rec.options[0].candidates.iter().map(|c| c.position).filter(|&p| w.map.passable(cell(p))).collect();
    let nearest = cands.iter().filter(|&&p| hidden(p)).map(|p| p.distance(me)).fold(f32::INFINITY, f32::min);
    let expect = cands.iter().copied().find(|&p| hidden(p) && p.distance(me) == nearest).unwrap();
    assert_eq!(chosen, expect);
    assert!((chosen.distance(me) - 1.0).abs() < 1e-5, "the first ring already has a hidden point");
    assert!(hidden(chosen));
}

#[test]
fn l122_inverse_distance_approaches_the_goal() {
    let w = open();
    let res = Reservations::new();
    let q = option("Generation { grid_around_puppet = 5 } Weights = {distance_from_referencePoint = -1.0}");
    let o = objects(ME, None).with(ObjectKind::ReferencePoint, ObjectState::at(v(30.5, 15.5)));
    let (out, _) = run(&q, &w.env(&res), o);
    assert_eq!(best(&out).candidate.position, v(20.5, 15.5));
    // Normalised within the 30 m maximum range: 10 m away scores −10/30.
    assert!((best(&out).score + 10.0 / 30.0).abs() < 1e-9);
}

#[test]
fn l127_directness_weight_prefers_the_straight_line_regardless_of_distance() {
    let w = open();
    let res = Reservations::new();
    let q = option("Generation { grid_around_puppet = 5 } Weights = {directness_to_referencePoint = 1.0}");
    let goal = v(30.5, 15.5);
    let (out, rec) = run(&q, &w.env(&res), objects(ME, None).with(ObjectKind::ReferencePoint, ObjectState::at(goal)));
    let top: Vec<Vec2> = rec.options[0].candidates.iter().filter(|c| c.score == 1.0).map(|c| c.position).collect();
    // Every point on the straight line towards the goal scores the full 1.0, near or far.
    assert_eq!(top, (1..=5).map(|i| v(15.5 + i as f32, 15.5)).collect::<Vec<_>>());
    assert_eq!(best(&out).candidate.position, v(16.5, 15.5));
}

#[test]
fn l129_min_directness_keeps_points_that_gain_5_m_per_10_m() {
    let w = open();
    let res = Reservations::new();
    let q = option("Generation { grid_around_puppet = 5 } Conditions = {min_directness_to_referencePoint = 0.5}");
    let goal = v(30.5, 15.5);
    let (_, rec) = run(&q, &w.env(&res), objects(ME, None).with(ObjectKind::ReferencePoint, ObjectState::at(goal)));
    let expect: Vec<Vec2> =
        grid_points(ME, 5).into_iter().filter(|&p| p != ME && progress_ratio(ME, p, goal) >= 0.5 - 1e-6).collect();
    assert_eq!(passed(&rec), expect);
    assert!(expect.iter().all(|p| p.x > ME.x));
    assert_eq!(expect.len(), 35, "the forward cone of the 11 × 11 grid (counted by a separate script)");
}

#[test]
fn l131_max_directness_moves_away_from_the_goal() {
    let w = open();
    let res = Reservations::new();
    let q = option("Generation { grid_around_puppet = 5 } Conditions = {max_directness_to_referencePoint = -0.5}");
    let goal = v(30.5, 15.5);
    let (_, rec) = run(&q, &w.env(&res), objects(ME, None).with(ObjectKind::ReferencePoint, ObjectState::at(goal)));
    let got = passed(&rec);
    let expect: Vec<Vec2> =
        grid_points(ME, 5).into_iter().filter(|&p| p != ME && progress_ratio(ME, p, goal) <= -0.5 + 1e-6).collect();
    assert_eq!(got, expect);
    assert!(!got.is_empty() && got.iter().all(|p| p.x < ME.x && p.distance(goal) > ME.distance(goal)));
}

/// Hidespots around an agent at (10.5, 10.5) whose target is 15 m south at (10.5, 25.5).
fn skirmish() -> (TestWorld, Objects) {
    let mut w = TestWorld::new(Map::open(40, 40));
    let south = v(0.0, 1.0);
    w.hidespots = vec![
        spot(1, v(10.5, 13.5), south, true), // straight at the target: directness 1
        spot(2, v(16.5, 11.5), south, true), // sideways: directness −0.04
        spot(3, v(4.5, 10.5), south, true),  // sideways but losing ground: −0.19
        spot(4, v(10.5, 7.5), south, true),  // straight back: −1
        spot(5, v(18.5, 12.5), south, true), // sideways, further: −0.03
        spot(6, v(13.5, 14.5), south, true), // forward and across: 0.72
        spot(7, v(15.5, 15.5), south, true), // more across: 0.54
        spot(8, v(17.5, 13.5), south, true), // mostly across: 0.15
    ];
    (w, objects(v(10.5, 10.5), Some(v(10.5, 25.5))))
}

#[test]
fn l133_flanking_keeps_directness_near_zero_and_takes_the_nearest() {
    let (w, o) = skirmish();
    let res = Reservations::new();
    let q = option(
        "Generation = {hidespots_from_target_around_puppet = 15},
         Conditions = {min_directness_to_target = -0.1, max_directness_to_target = 0.1},
         Weights = {distance_from_puppet = -1.0}",
    );
    let (out, rec) = run(&q, &w.env(&res), o);
    let (me, t) = (v(10.5, 10.5), v(10.5, 25.5));
    let flanks: Vec<u32> =
        w.hidespots.iter().filter(|h| progress_ratio(me, h.position, t).abs() <= 0.1).map(|h| h.id).collect();
    assert_eq!(flanks, vec![2, 5]);
    assert_eq!(passed(&rec).len(), 2);
    assert_eq!(best(&out).candidate.source, PointSource::Hidespot(2), "the nearer flank");
}

#[test]
fn l137_zigzag_takes_the_most_indirect_point_that_still_gains_1_m_per_2_m() {
    let (w, o) = skirmish();
    let res = Reservations::new();
    let q = option(
        "Generation = {hidespots_from_target_around_puppet = 15},
         Conditions = {min_directness_to_target = 0.5}, Weights = {directness_to_target = -1.0}",
    );
    let (out, _) = run(&q, &w.env(&res), o);
    assert_eq!(best(&out).candidate.source, PointSource::Hidespot(7));
    let d = progress_ratio(v(10.5, 10.5), v(15.5, 15.5), v(10.5, 25.5));
    assert!((d - 0.5403).abs() < 1e-3);
}

#[test]
fn l137_zigzag_converges_on_the_player_without_running_straight_at_him() {
    // A forest: trees (omnidirectional hidespots) on a jittered lattice.
    let mut w = TestWorld::new(Map::open(60, 60));
    let mut id = 0;
    for gy in 0..12 {
        for gx in 0..12 {
            let jitter = v(((gx * 7 + gy * 3) % 5) as f32 * 0.4, ((gx * 5 + gy * 11) % 5) as f32 * 0.4);
            let p = v(4.5 + gx as f32 * 4.5, 4.5 + gy as f32 * 4.5) + jitter;
            w.hidespots.push(Hidespot {
                id,
                position: p,
                shape: HidespotShape::Directional,
                cover: cover(None, true, true),
            });
            id += 1;
        }
    }
    let player = v(30.0, 55.0);
    let q = option(
        "Generation = {hidespots_from_target_around_puppet = 15},
         Conditions = {min_directness_to_target = 0.5}, Weights = {directness_to_target = -1.0}",
    );
    let res = Reservations::new();
    let mut me = v(30.0, 4.0);
    let mut steps = Vec::new();
    while me.distance(player) > 8.0 && steps.len() < 30 {
        let (out, _) = run(&q, &w.env(&res), objects(me, Some(player)));
        let next = best(&out).candidate.position;
        let ratio = progress_ratio(me, next, player);
        assert!(ratio >= 0.5 - 1e-5, "each leg gains at least 1 m per 2 m travelled ({ratio})");
        steps.push((me, next, ratio));
        me = next;
    }
    assert!(me.distance(player) <= 8.0, "converged within {} legs", steps.len());
    let indirect = steps.iter().filter(|s| s.2 < 0.9).count();
    assert!(indirect * 2 >= steps.len(), "mostly indirect legs: {steps:?}");
    // Zig-zag: the sideways component of the legs changes sign.
    let sides: Vec<f32> = steps.iter().map(|(a, b, _)| (b - a).perp_dot(player - a).signum()).collect();
    assert!(sides.windows(2).any(|p| p[0] != p[1]), "legs alternate sides: {sides:?}");
}

#[test]
fn l143_can_reach_before_discards_points_the_target_reaches_first() {
    let w = open();
    let res = Reservations::new();
    let q = option("Generation { grid_around_puppet = 6 } Conditions = {canReachBefore_the_target = true}");
    let target = v(21.5, 15.5);
    let (_, rec) = run(&q, &w.env(&res), objects(ME, Some(target)));
    let expect: Vec<Vec2> = grid_points(ME, 6).into_iter().filter(|p| p.distance(ME) <= p.distance(target)).collect();
    assert_eq!(passed(&rec), expect);
    assert_eq!(expect.len(), 13 * 10, "columns x ≤ 18.5, the midline included");
}

fn squad_world() -> (World, tactica_engine::world::EntityId) {
    let mut world = World::new(Map::open(30, 30), 10, 1);
    let mut ids = Vec::new();
    for (name, x, y) in [("a", 10, 10), ("b", 14, 10), ("c", 12, 16)] {
        let mut e = Entity::new(name, "soldier", glam::IVec2::new(x, y));
        e.attributes.insert("squad".into(), tactica_engine::Value::Str("alpha".into()));
        ids.push(world.spawn(e).unwrap());
    }
    world.spawn(Entity::new("loner", "soldier", glam::IVec2::new(25, 25))).unwrap();
    (world, ids[0])
}

#[test]
fn l157_distance_to_squad_center_as_a_weight_converges() {
    let (world, a) = squad_world();
    let o = Objects::from_world(&world, a);
    assert_eq!(o.get(ObjectKind::SquadCenter).unwrap().position, v(12.5, 12.5));
    let res = Reservations::new();
    let w = TestWorld::new(world.map().clone());
    let q = option("Generation { grid_around_puppet = 4 } Weights = {distance_to_squadCenter = -1.0}");
    let (out, _) = run(&q, &w.env(&res), o);
    assert_eq!(best(&out).candidate.position, v(12.5, 12.5));
    assert_eq!(best(&out).score, 0.0);
}

#[test]
fn l160_generation_around_the_squad_center_bounds_cohesion_and_makes_the_front_man_wait() {
    let mut w = open();
    let goal = v(15.5, 38.5);
    for (i, y) in [12.0, 16.0, 20.0, 24.0, 28.0, 32.0].into_iter().enumerate() {
        w.hidespots.push(spot(i as u32, v(15.5, y + 0.5), v(0.0, 1.0), true));
    }
    let q = option(
        "Generation = {hidespots_from_target_around_squadCenter = 10}
         Conditions = {min_directness_to_referencePoint = 0.5}
         Weights = {distance_from_puppet = -1.0}",
    );
    let res = Reservations::new();
    let ask = |me: Vec2, centre: Vec2| {
        let o = objects(me, Some(goal))
            .with(ObjectKind::SquadCenter, ObjectState::at(centre))
            .with(ObjectKind::ReferencePoint, ObjectState::at(goal));
        run(&q, &w.env(&res), o)
    };
    // The squad stands around y = 14; the front man at y = 24.5 finds nothing ahead within 10 m of
    // the centre: he must wait.
    let (out, rec) = ask(v(15.5, 24.5), v(15.5, 14.5));
    assert!(rec.options[0].candidates.iter().all(|c| c.position.distance(v(15.5, 14.5)) <= 10.0));
    let Outcome::Failed(f) = out else { panic!("expected a failure") };
    assert!(
        matches!(&f.options[0].reason, FailureReason::AllRejected { failed, .. } if failed.contains_key("min_directness_to_referencePoint"))
    );
    // The others catch up; the centre moves forward and so does he (leap-frogging).
    let (out, _) = ask(v(15.5, 24.5), v(15.5, 22.5));
    assert_eq!(best(&out).candidate.position, v(15.5, 28.5));
}

#[test]
fn listing_26_1_grenade_escape_prefers_hard_cover_and_falls_back_to_a_hiding_grid_point() {
    // Reconstructed from the prose of 001:L39 (the listing itself is missing from the source).
    let src = "query grenade_escape {
        option {
            Generation { hidespots_from_target_around_puppet = 15 }
            Conditions { min_distance_from_puppet = 5, canReachBefore_the_target = true, coverFrom_target = true }
            Weights    { hardCover = 1.0, distance_from_puppet = -1.0 }
        }
        option {
            Generation { grid_around_puppet = 10 }
            Conditions { min_distance_from_puppet = 5, max_directness_to_target = 0.0 }
            Weights    { visible_from_target = -1.0, distance_from_puppet = -0.1 }
        }
        on_failure { signal = \"no_escape\", scope = \"squad\" }
    }";
    let q = query(src);
    let mut rows = vec!["........................................".to_owned(); 40];
    for row in &mut rows[12..=18] {
        row.replace_range(11..12, "#"); // a wall 4 m west of us, north to south
    }
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut w = TestWorld::new(map(&rows));
    let me = ME;
    let target = v(30.5, 15.5); // east
    let east = v(1.0, 0.0); // the cover faces the target
    w.hidespots = vec![
        spot(1, v(17.5, 15.5), east, true), // too close (2 m)
        spot(2, v(9.5, 15.5), east, false), // 6 m, soft
        spot(3, v(8.5, 19.5), east, true),  // 8.1 m, hard: wins on the hard-cover weight
        spot(4, v(26.5, 15.5), east, true), // 11 m, hard, but the target gets there first
    ];
    let res = Reservations::new();
    let (out, _) = run(&q, &w.env(&res), objects(me, Some(target)));
    assert_eq!(best(&out).candidate.source, PointSource::Hidespot(3));
    assert_eq!(best(&out).option, 0);
    // With no hidespots the fallback picks a grid point at least 5 m off, not towards the target,
    // hidden by the wall.
    w.hidespots.clear();
    let (out, _) = run(&q, &w.env(&res), objects(me, Some(target)));
    let r = best(&out);
    assert_eq!(r.option, 1);
    assert!(r.candidate.position.distance(me) >= 5.0);
    assert!(!line_of_sight(&w.map, cell(target), cell(r.candidate.position)));
    assert_eq!(r.candidate.position, v(10.5, 15.5), "the nearest hidden point, just behind the wall");
    // Surrounded by walls: both options fail and the failure action is reported.
    let boxed = TestWorld::new(map(&["###", "#.#", "###"]));
    let (out, _) = run(&q, &boxed.env(&res), objects(v(1.5, 1.5), Some(v(1.5, 1.5))));
    let Outcome::Failed(f) = out else { panic!("expected failure") };
    assert_eq!(f.options[0].reason, FailureReason::NoCandidates);
    assert_eq!(f.action.signal, Some(("squad".into(), "no_escape".into())));
    assert_eq!(f.options.len(), 2);
}
