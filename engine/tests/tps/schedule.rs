//! The per-tick budget holds within 10 % on a simulated clock, and time is shared fairly.

use std::sync::Arc;

use glam::Vec2;
use tactica_engine::grid::Map;
use tactica_engine::tactics::query::*;

use super::common::*;

#[test]
fn the_tick_budget_holds_within_ten_percent_and_every_query_gets_turns() {
    let clock = std::rc::Rc::new(SimClock::default());
    let mut w = TestWorld::new(Map::open(48, 48));
    w.clock = Some(std::rc::Rc::clone(&clock));
    for i in 0..60u32 {
        let p = v(4.5 + (i % 10) as f32 * 4.0, 4.5 + (i / 10) as f32 * 6.0);
        w.hidespots.push(spot(i, p, Vec2::X, i % 2 == 0));
    }
    let q = option(
        "Generation { hidespots_from_target_around_puppet = 20 }
         Conditions { max_pathDistance_from_puppet = 40 }
         Weights { pathDistance_from_puppet = -1, hardCover = 0.5 }",
    );
    let res = Reservations::new();
    let env = w.env(&res);
    let mut sched = QueryScheduler::new();
    let mut expected = Vec::new();
    for i in 0..40 {
        let me = v(4.5 + (i % 8) as f32 * 5.0, 6.5 + (i / 8) as f32 * 7.0);
        let req = QueryRequest::new(owner(), objects(me, Some(v(46.5, 24.5))));
        expected.push(evaluate_exhaustive(&q, &req, &env).0);
        sched.submit(Arc::clone(&q), req);
    }
    clock.0.set(0);
    let budget = 200_000; // 0.2 ms of simulated time per tick
    let mut done = Vec::new();
    let mut ticks = 0;
    while sched.pending() > 0 {
        let start = clock.now();
        let finished = sched.tick(&env, clock.as_ref(), budget);
        let used = clock.now() - start;
        ticks += 1;
        assert!(used <= budget * 11 / 10, "tick {ticks} used {used} ns of {budget}");
        if sched.pending() > 0 {
            assert!(used >= budget * 9 / 10, "tick {ticks} left time unused: {used} ns");
        }
        done.extend(finished);
        assert!(ticks < 1000);
    }
    assert!(ticks > 10, "the work spans many ticks ({ticks})");
    done.sort_by_key(|f| f.ticket);
    for (f, e) in done.iter().zip(&expected) {
        assert_eq!(&f.outcome, e, "time slicing changes no answer");
    }
    // Fair sharing: no query waits for all the others to finish first (as first come, first served
    // would make the last one wait the whole run).
    let max_ticks = done.iter().map(|f| f.ticks).max().unwrap();
    let first_finish = done.iter().map(|f| f.ticks).min().unwrap();
    assert_eq!(max_ticks, ticks);
    assert!(first_finish * 2 > ticks, "round robin: even the first finisher took {first_finish} of {ticks} ticks");
}

#[test]
fn cancelled_queries_stop_and_wall_clock_runs() {
    let w = TestWorld::new(Map::open(16, 16));
    let res = Reservations::new();
    let q = option("Generation { grid_around_puppet = 3 } Weights { distance_from_puppet = 1 }");
    let mut s = QueryScheduler::new();
    let a = s.submit(Arc::clone(&q), QueryRequest::new(owner(), objects(v(8.5, 8.5), None)));
    let b = s.submit(Arc::clone(&q), QueryRequest::new(owner(), objects(v(4.5, 4.5), None)));
    assert!(s.cancel(a));
    assert!(!s.cancel(a));
    let f = s.tick(&w.env(&res), &WallClock::new(), 1_000_000_000);
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].ticket, b);
    assert_eq!(f[0].ticks, 1);
    assert_eq!(s.pending(), 0);
}
