//! Tests of the waypoint database, fuzzy tactics, property generation and condensation.

use std::collections::BTreeMap;

use glam::{IVec2, Vec2};
use proptest::prelude::*;

use super::*;
use crate::field::{CoverParams, Light, test_map};
use crate::world::WorldRng;

fn v(x: i32, y: i32) -> IVec2 {
    IVec2::new(x, y)
}

fn waypoint(cell: IVec2, values: &[(Property, f32)]) -> Waypoint {
    let mut w = Waypoint::new(cell, Origin::Placed);
    for &(p, x) in values {
        w.properties.set(p, x);
    }
    w
}

#[test]
fn we1_the_better_of_two_equally_near_cover_points() {
    let mut db = WaypointDb::new();
    db.add(waypoint(v(0, 3), &[(Property::Cover, 0.6)]));
    let good = db.add(waypoint(v(3, 0), &[(Property::Cover, 0.9)]));
    assert_eq!(db.best(v(0, 0), 10.0, 0.0, |w| w.properties.get(Property::Cover)), Some(good));
}

#[test]
fn we2_sniper_is_min_of_cover_and_visibility() {
    let mut db = WaypointDb::new();
    let id = db.add(waypoint(v(0, 0), &[(Property::Cover, 0.9), (Property::Visibility, 0.7)]));
    assert_eq!(db.evaluate(id, &Fuzzy::sniper(), &BTreeMap::new()), Some(0.7));
    let or = Fuzzy::or([Fuzzy::prop(Property::Cover), Fuzzy::prop(Property::Visibility)]);
    assert_eq!(db.evaluate(id, &or, &BTreeMap::new()), Some(0.9));
    let not = !Fuzzy::prop(Property::Visibility);
    assert!((db.evaluate(id, &not, &BTreeMap::new()).unwrap() - 0.3).abs() < 1e-6);
}

#[test]
fn we4_we5_fuzzy_decisions_from_tactical_values() {
    let mut db = WaypointDb::new();
    let id = db.add(waypoint(v(0, 0), &[(Property::Cover, 0.7), (Property::Shadow, 0.9)]));
    let none = BTreeMap::new();
    // WE-4: IF cover THEN suppressing fire; IF shadow THEN ambush → 0.7 vs 0.9: ambush.
    let suppress = db.evaluate(id, &Fuzzy::prop(Property::Cover), &none).unwrap();
    let ambush = db.evaluate(id, &Fuzzy::prop(Property::Shadow), &none).unwrap();
    assert_eq!((suppress, ambush), (0.7, 0.9));
    assert!(ambush > suppress);
    // WE-5: IF cover AND friends-arriving THEN suppress; IF shadow AND cannot-see-enemy THEN
    // ambush, with friends-arriving 0.9 and cannot-see-enemy 0.5 → 0.7 vs 0.5: suppress.
    let facts = BTreeMap::from([("friends_arriving".to_owned(), 0.9), ("cannot_see_enemy".to_owned(), 0.5)]);
    let suppress = Fuzzy::and([Fuzzy::prop(Property::Cover), Fuzzy::input("friends_arriving")]);
    let ambush = Fuzzy::and([Fuzzy::prop(Property::Shadow), Fuzzy::input("cannot_see_enemy")]);
    let (s, a) = (db.evaluate(id, &suppress, &facts).unwrap(), db.evaluate(id, &ambush, &facts).unwrap());
    assert_eq!((s, a), (0.7, 0.5));
    assert!(s > a);
    assert_eq!(db.evaluate(id, &Fuzzy::input("unknown"), &facts), Some(0.0));
}

#[test]
fn we3_context_sensitive_cover_states_and_post_processing() {
    // States: A covers north and east, B south and east; the character needs south and east.
    let mut db = WaypointDb::new();
    let a = db.add(Waypoint { cover_by_direction: [1.0, 1.0, 0.0, 0.0], ..Waypoint::new(v(2, 0), Origin::Placed) });
    let b = db.add(Waypoint { cover_by_direction: [0.0, 1.0, 1.0, 0.0], ..Waypoint::new(v(3, 2), Origin::Placed) });
    let need = [Direction::South, Direction::East];
    assert!(!db.covers_directions(a, &need, 0.5));
    assert!(db.covers_directions(b, &need, 0.5));
    // Post-processing: line of sight from both points to both enemies. A is seen by both, B by
    // only one (the pillar hides it from the other), so B is better.
    let map = test_map("........\n........\n.....#..\n........\n");
    let enemies = [v(0, 0), v(7, 2)];
    assert_eq!(db.cover_against(&map, a, &enemies), Some(0.0));
    assert_eq!(db.cover_against(&map, b, &enemies), Some(0.5));
}

#[test]
fn nearest_first_balancing_and_secrecy() {
    let mut db = WaypointDb::new();
    let near = db.add(waypoint(v(1, 0), &[(Property::Cover, 0.5), (Property::Sniping, 0.8)]));
    let far = db.add(waypoint(v(9, 0), &[(Property::Cover, 0.9)]));
    db.add(waypoint(v(50, 0), &[(Property::Cover, 1.0)]));
    let order: Vec<WaypointId> = db.nearest(v(0, 0), 20.0, |_| true).into_iter().map(|(id, _)| id).collect();
    assert_eq!(order, vec![near, far]);
    let cover = |w: &Waypoint| w.properties.get(Property::Cover);
    assert_eq!(db.best(v(0, 0), 100.0, 0.0, cover), Some(WaypointId(2)), "no distance weight: the global best");
    assert_eq!(db.best(v(0, 0), 100.0, 0.1, cover), Some(near), "0.5 − 0.1 beats 0.9 − 0.9");
    assert_eq!(db.sniping_now(near), Some(0.8));
    db.get_mut(near).unwrap().compromised = true;
    assert_eq!(db.sniping_now(near), Some(0.0));
    assert_eq!(Property::from_name("shadow"), Some(Property::Shadow));
}

#[test]
fn cover_generation_sees_the_wall() {
    // A wall segment: the cell just west of it is covered from the east, not from the west.
    let map = test_map("...........\n...........\n.....#.....\n.....#.....\n.....#.....\n...........\n...........\n");
    let params = GenerateParams {
        cover: CoverParams { radius: 3.0, jitter: 0.5, directions: 16, repeats: 4, room_reach: 3.0 },
        ..Default::default()
    };
    let mut rng = WorldRng::new(7);
    let (behind, dirs) = evaluate_cell(&map, v(4, 3), &params, &mut rng).unwrap();
    let (open, _) = evaluate_cell(&map, v(1, 6), &params, &mut rng).unwrap();
    assert!(behind.get(Property::Cover) > 0.15, "{behind:?}");
    assert_eq!(open.get(Property::Cover), 0.0, "nothing blocks in the open");
    assert!(dirs[Direction::East as usize] > 0.5 && dirs[Direction::West as usize] == 0.0, "{dirs:?}");
    // Deterministic for a seed.
    let again = evaluate_cell(&map, v(4, 3), &params, &mut WorldRng::new(7)).unwrap();
    assert_eq!(again.0, behind);
    assert!(evaluate_cell(&map, v(5, 3), &params, &mut rng).is_none(), "inside the wall");
    // Visibility is larger in the open than against the wall; exposure too.
    assert!(open.get(Property::Visibility) > behind.get(Property::Visibility));
    assert!(open.get(Property::Exposure) > behind.get(Property::Exposure));
    assert_eq!(behind.get(Property::Sniping), behind.get(Property::Cover).min(behind.get(Property::Visibility)));
}

#[test]
fn shadow_uses_the_brightest_part_of_the_body() {
    let map = test_map(".....\n.....\n.....\n");
    let lamp = [Light { cell: v(4, 1), intensity: 1.0, radius: 4.0 }];
    // A one-cell body at (0,1) is 4 away: dark. A body one cell wider reaches (1,1), 3 away: lit
    // at 0.25, so its shadow is 0.75 (the maximum, not the average of the nine cells).
    assert_eq!(crate::field::shadow_at(&map, &lamp, 0.0, v(0, 1), 0), 1.0);
    assert_eq!(crate::field::shadow_at(&map, &lamp, 0.0, v(0, 1), 1), 0.75);
}

#[test]
fn we8_the_decision_rule_and_the_weight() {
    let c = |x: f32, value: f32| Candidate { position: Vec2::new(x, 0.0), value };
    // |Δv| = 0.5, distance 2: removed iff w·2 < 0.5, i.e. w < 0.25.
    assert_eq!(condense(&[c(0.0, 1.0), c(2.0, 0.5)], 0.24, 10.0, |_, _| true), vec![0]);
    assert_eq!(condense(&[c(0.0, 1.0), c(2.0, 0.5)], 0.25, 10.0, |_, _| true), vec![0, 1]);
    // No competition when a character cannot move between them (a wall) or they are too far.
    assert_eq!(condense(&[c(0.0, 1.0), c(2.0, 0.5)], 0.0, 10.0, |_, _| false), vec![0, 1]);
    assert_eq!(condense(&[c(0.0, 1.0), c(2.0, 0.5)], 0.0, 1.5, |_, _| true), vec![0, 1]);
    // Lower weight → fewer waypoints.
    let row: Vec<Candidate> = (0..20).map(|i| c(i as f32, ((i * 7) % 11) as f32 / 10.0)).collect();
    let counts: Vec<usize> =
        [0.01, 0.05, 0.1, 0.3, 1.0].iter().map(|&w| condense(&row, w, 4.0, |_, _| true).len()).collect();
    assert!(counts.windows(2).all(|p| p[0] <= p[1]), "{counts:?}");
    assert!(counts[0] < counts[4]);
}

#[test]
fn we7_strongest_first_avoids_the_chain_of_fig_6_9() {
    // A, B, C on a line one apart, values rising; A and C are outside each other's neighbourhood.
    let cands = [
        Candidate { position: Vec2::new(0.0, 0.0), value: 1.0 },
        Candidate { position: Vec2::new(1.0, 0.0), value: 2.0 },
        Candidate { position: Vec2::new(2.0, 0.0), value: 3.0 },
    ];
    // Pairwise in the order A-B then B-C (the naive order of the figure): B removes A, C removes
    // B — only C is left, although nothing near A beat it in the end.
    let naive = |pairs: &[(usize, usize)]| {
        let mut alive = [true; 3];
        for &(a, b) in pairs {
            if alive[a] && alive[b] {
                let (hi, lo) = if cands[a].value >= cands[b].value { (a, b) } else { (b, a) };
                let dv = cands[hi].value - cands[lo].value;
                if 0.25 * cands[hi].position.distance_squared(cands[lo].position) < dv * dv {
                    alive[lo] = false;
                }
            }
        }
        (0..3).filter(|&i| alive[i]).collect::<Vec<_>>()
    };
    assert_eq!(naive(&[(0, 1), (1, 2)]), vec![2]);
    assert_eq!(naive(&[(1, 2), (0, 1)]), vec![0, 2]);
    // Strongest first: C removes B, then A has nobody left to lose to — whatever the input order.
    assert_eq!(condense(&cands, 0.5, 1.5, |_, _| true), vec![0, 2]);
    let rev = [cands[2], cands[1], cands[0]];
    assert_eq!(condense(&rev, 0.5, 1.5, |_, _| true), vec![0, 2]);
}

#[test]
fn generation_condenses_a_dense_grid_per_property() {
    let map =
        test_map("............\n............\n...#####....\n............\n............\n.........#..\n.........#..\n");
    let params = GenerateParams {
        cover: CoverParams { radius: 3.0, jitter: 0.5, directions: 12, repeats: 2, room_reach: 3.0 },
        visibility_rays: 8,
        range: 6.0,
        exposure_samples: 8,
        lights: vec![Light { cell: v(0, 0), intensity: 1.5, radius: 8.0 }],
        weight: 0.02,
        ..Default::default()
    };
    let db = generate(&map, &params, &mut WorldRng::new(3)).unwrap();
    let again = generate(&map, &params, &mut WorldRng::new(3)).unwrap();
    assert_eq!(db, again, "deterministic");
    let candidates = dense_grid(&map, 1).len();
    assert_eq!(candidates, 84 - 7);
    assert!(!db.is_empty() && db.len() < candidates, "{} of {candidates}", db.len());
    // Cells of equal value never beat each other, so plateaus survive; a higher weight keeps more.
    let count =
        |weight| generate(&map, &GenerateParams { weight, ..params.clone() }, &mut WorldRng::new(3)).unwrap().len();
    let (few, many) = (count(0.0), count(1.0));
    assert!(few <= db.len() && db.len() < many, "{few} ≤ {} < {many}", db.len());
    assert!(db.iter().all(|(_, w)| w.origin == Origin::Generated && map.passable(w.cell)));
    let best_cover = db.iter().map(|(_, w)| w.properties.get(Property::Cover)).fold(0.0, f32::max);
    assert!(best_cover > 0.2, "some generated point is real cover: {best_cover}");
    // Designer-placed points get their values computed on request.
    let mut db = db;
    let placed = db.add(Waypoint::new(v(4, 3), Origin::Placed));
    compute_properties(&mut db, &map, &params, &mut WorldRng::new(1), false);
    assert_eq!(db.get(placed).unwrap().properties, Properties::default());
    compute_properties(&mut db, &map, &params, &mut WorldRng::new(1), true);
    assert!(db.get(placed).unwrap().properties.get(Property::Cover) > 0.0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// The survivors do not depend on the input order, and no two survivors that compete (close
    /// enough, can move) still violate the rule.
    #[test]
    fn condensation_is_order_free_and_leaves_no_violating_pair(
        pts in proptest::collection::vec((0.0f32..20.0, 0.0f32..20.0, 0.0f32..1.0), 1..40),
        weight in 0.0f32..0.3,
        radius in 1.0f32..8.0,
        shift in 0usize..40,
    ) {
        let cands: Vec<Candidate> = pts.iter().enumerate()
            // Distinct values, so no ties decide anything.
            .map(|(i, &(x, y, val))| Candidate { position: Vec2::new(x, y), value: val + i as f32 * 1e-3 })
            .collect();
        let wall = |a: Vec2, b: Vec2| (a.x < 10.0) != (b.x < 10.0); // a "wall" at x = 10
        let keep = condense(&cands, weight, radius, |a, b| !wall(cands[a].position, cands[b].position));
        let n = cands.len();
        let rotated: Vec<Candidate> = (0..n).map(|i| cands[(i + shift) % n]).collect();
        let keep2 = condense(&rotated, weight, radius, |a, b| !wall(rotated[a].position, rotated[b].position));
        let mut back: Vec<usize> = keep2.iter().map(|&i| (i + shift) % n).collect();
        back.sort_unstable();
        prop_assert_eq!(&keep, &back);
        for (ai, &a) in keep.iter().enumerate() {
            for &b in &keep[ai + 1..] {
                let (p, q) = (cands[a], cands[b]);
                if p.position.distance(q.position) <= radius && !wall(p.position, q.position) {
                    let dv = p.value - q.value;
                    prop_assert!(weight * weight * p.position.distance_squared(q.position) >= dv * dv);
                }
            }
        }
    }
}
