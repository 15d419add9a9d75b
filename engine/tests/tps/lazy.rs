//! The lazy heap evaluation returns exactly what exhaustive evaluation returns, and skips expensive
//! tests on points that cannot win.

use std::sync::Arc;

use glam::{IVec2, Vec2};
use proptest::prelude::*;
use tactica_engine::grid::Map;
use tactica_engine::tactics::query::*;

use super::common::*;

const CRITERIA: [&str; 7] = [
    "distance_from_puppet",
    "distance_from_target",
    "directness_to_target",
    "pathDistance_from_puppet",
    "visible_from_target",
    "random",
    "leftness_of_target",
];

fn build_query(weights: &[(usize, i32)], conditions: &[(usize, i32)], want_hidden: Option<bool>) -> String {
    let mut w = String::new();
    for &(c, m) in weights {
        w.push_str(&format!("{} = {}, ", CRITERIA[c], f64::from(m) / 4.0));
    }
    let mut c = String::new();
    for &(k, lim) in conditions {
        let (name, value) = match k % 4 {
            0 => ("min_distance_from_puppet", f64::from(lim % 4)),
            1 => ("max_pathDistance_from_puppet", f64::from(4 + lim % 8)),
            2 => ("min_directness_to_target", f64::from(lim % 5) / 5.0 - 0.5),
            _ => ("max_leftness_of_target", f64::from(lim % 5) / 5.0 - 0.2),
        };
        c.push_str(&format!("{name} = {value}, "));
    }
    if let Some(h) = want_hidden {
        c.push_str(&format!("visible_from_target = {h}, "));
    }
    format!("query p {{ option {{ Generation {{ grid_around_puppet = 4 }} Conditions {{ {c} }} Weights {{ {w} }} }} }}")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn lazy_equals_exhaustive(
        walls in proptest::collection::vec((0i32..14, 0i32..14), 0..30),
        weights in proptest::collection::btree_map(0usize..7, -8i32..=8, 0..5),
        conditions in proptest::collection::btree_map(0usize..4, 0i32..40, 0..3),
        hidden in proptest::option::of(any::<bool>()),
        results in 1usize..4,
        seed in any::<u64>(),
        me in (2i32..12, 2i32..12),
        target in (0i32..14, 0i32..14),
        target_heading in 0u8..8,
    ) {
        let mut map = Map::open(14, 14);
        for (x, y) in walls {
            map.set(IVec2::new(x, y), b'#', f32::INFINITY);
        }
        let w = TestWorld::new(map);
        let weights: Vec<_> = weights.into_iter().collect();
        let conditions: Vec<_> = conditions.into_iter().collect();
        let q = query(&build_query(&weights, &conditions, hidden));
        let res = Reservations::new();
        let env = w.env(&res);
        let mut o = objects(Vec2::new(me.0 as f32 + 0.5, me.1 as f32 + 0.5), Some(Vec2::new(target.0 as f32 + 0.5, target.1 as f32 + 0.5)));
        // The target faces one of eight headings so `leftness_of_target` varies over the grid.
        let t = *o.get(ObjectKind::Target).unwrap();
        o.set(ObjectKind::Target, ObjectState { forward: Vec2::from_angle(f32::from(target_heading) * std::f32::consts::FRAC_PI_4), ..t });
        let mut req = QueryRequest::new(owner(), o);
        req.results = results;
        req.seed = seed;
        let (lazy, lazy_stats) = Evaluation::run(Arc::clone(&q), req.clone(), &env);
        let (full, full_stats) = evaluate_exhaustive(&q, &req, &env);
        prop_assert_eq!(lazy, full);
        prop_assert!(lazy_stats.expensive_tests <= full_stats.expensive_tests);
        prop_assert_eq!(lazy_stats.cheap_tests, full_stats.cheap_tests);
    }
}

#[test]
fn lazy_evaluation_skips_most_expensive_tests_when_a_cheap_weight_dominates() {
    // 441 grid points; the path-distance weight can move a score by at most 0.25, the distance
    // weight spreads scores over 0.47: only the points near the top need their path distance.
    let w = TestWorld::new(Map::open(40, 40));
    let res = Reservations::new();
    let q = option(
        "Generation { grid_around_puppet = 10 } Weights { distance_from_referencePoint = -1, pathDistance_from_puppet = -0.25 }",
    );
    let o = objects(v(20.5, 20.5), None).with(ObjectKind::ReferencePoint, ObjectState::at(v(35.5, 20.5)));
    let req = QueryRequest::new(owner(), o);
    let (lazy, ls) = Evaluation::run(Arc::clone(&q), req.clone(), &w.env(&res));
    let lazy_calls = w.path_calls.get();
    let (full, fs) = evaluate_exhaustive(&q, &req, &w.env(&res));
    assert_eq!(lazy, full);
    assert_eq!(fs.expensive_tests, 441);
    assert_eq!(w.path_calls.get() - lazy_calls, 441);
    assert_eq!(ls.expensive_tests, lazy_calls);
    assert!(ls.expensive_tests < 441 / 10, "lazy ran {} path searches", ls.expensive_tests);
    assert_eq!(best(&lazy).candidate.position, v(30.5, 20.5));
}
