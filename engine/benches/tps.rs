//! Tactical position selection: 1,000 queries of ~200 candidates each, lazy heap evaluation against
//! exhaustive evaluation of every test on every candidate (the peer), on the same input in the same
//! run. Prints how many expensive tests the lazy evaluation avoided and the time ratio.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{IVec2, Vec2};
use tactica_engine::grid::Map;
use tactica_engine::tactics::query::*;
use tactica_engine::world::EntityId;

/// Path distances by breadth-first search over 4-connected cells with reused buffers: the
/// expensive criterion (one search per question).
struct Bfs<'m> {
    map: &'m Map,
    dist: RefCell<Vec<u32>>,
    queue: RefCell<VecDeque<IVec2>>,
}

impl PathOracle for Bfs<'_> {
    fn path_distance(&self, from: Vec2, to: Vec2) -> Option<f32> {
        let (a, b) = (cell(from), cell(to));
        let (ia, ib) = (self.map.index(a)?, self.map.index(b)?);
        let mut dist = self.dist.borrow_mut();
        let mut q = self.queue.borrow_mut();
        dist.fill(u32::MAX);
        q.clear();
        dist[ia] = 0;
        q.push_back(a);
        while let Some(c) = q.pop_front() {
            let d = dist[self.map.index(c)?];
            if c == b {
                return Some(dist[ib] as f32);
            }
            for n in [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y].map(|s| c + s) {
                if let Some(i) = self.map.index(n)
                    && dist[i] == u32::MAX
                    && self.map.passable(n)
                {
                    dist[i] = d + 1;
                    q.push_back(n);
                }
            }
        }
        None
    }
}

fn setup() -> (Map, Arc<Query>, Vec<QueryRequest>) {
    let mut map = Map::open(48, 48);
    // Short wall segments every 6 cells.
    for y in (3..48).step_by(6) {
        for x in (0..48).step_by(8) {
            for k in 0..4 {
                map.set(IVec2::new(x + k + (y % 4), y), b'#', f32::INFINITY);
            }
        }
    }
    let src = "query advance {
        option {
            Generation { grid_around_puppet = 7 }
            Conditions { min_distance_from_puppet = 2, visible_from_target = false }
            Weights    { distance_from_referencePoint = -1.0, pathDistance_from_puppet = -0.3 }
        }
    }";
    let q = Arc::new(parse_queries("bench.tac", src, QueryConfig::default()).unwrap().remove(0));
    let mut reqs = Vec::new();
    for i in 0..1000u32 {
        let me = Vec2::new(8.5 + (i * 7 % 32) as f32, 8.5 + (i * 13 % 32) as f32);
        let target = Vec2::new(2.5 + (i * 11 % 44) as f32, 2.5 + (i * 5 % 44) as f32);
        let goal = Vec2::new(46.5 - (i * 3 % 40) as f32, 24.5);
        let objects = Objects::new()
            .with(ObjectKind::Puppet, ObjectState::at(me))
            .with(ObjectKind::Target, ObjectState::at(target))
            .with(ObjectKind::ReferencePoint, ObjectState::at(goal));
        reqs.push(QueryRequest::new(EntityId::default(), objects));
    }
    (map, q, reqs)
}

fn run_lazy(q: &Arc<Query>, reqs: &[QueryRequest], env: &QueryEnv<'_>) -> (u64, u64) {
    let (mut expensive, mut found) = (0, 0);
    for r in reqs {
        let (o, s) = Evaluation::run(Arc::clone(q), r.clone(), env);
        expensive += s.expensive_tests;
        found += u64::from(o.best().is_some());
    }
    (expensive, found)
}

fn run_exhaustive(q: &Arc<Query>, reqs: &[QueryRequest], env: &QueryEnv<'_>) -> (u64, u64) {
    let (mut expensive, mut found) = (0, 0);
    for r in reqs {
        let (o, s) = evaluate_exhaustive(q, r, env);
        expensive += s.expensive_tests;
        found += u64::from(o.best().is_some());
    }
    (expensive, found)
}

fn bench(c: &mut Criterion) {
    let (map, q, reqs) = setup();
    let res = Reservations::new();
    let bfs = Bfs { map: &map, dist: RefCell::new(vec![0; map.len()]), queue: RefCell::new(VecDeque::new()) };
    let env = QueryEnv { paths: &bfs, ..QueryEnv::new(&map, &res) };

    // Validate before timing: both evaluators agree on every query.
    let mut candidates = 0;
    for r in &reqs {
        let (a, s) = Evaluation::run(Arc::clone(&q), r.clone(), &env);
        assert_eq!(a, evaluate_exhaustive(&q, r, &env).0);
        candidates += s.candidates;
    }
    let t = Instant::now();
    let (lazy_tests, lazy_found) = run_lazy(&q, &reqs, &env);
    let lazy_time = t.elapsed();
    let t = Instant::now();
    let (full_tests, full_found) = run_exhaustive(&q, &reqs, &env);
    let full_time = t.elapsed();
    assert_eq!(lazy_found, full_found);
    eprintln!(
        "tps: 1000 queries, {:.0} candidates each; expensive tests lazy {lazy_tests} vs exhaustive {full_tests} \
         ({:.1}% avoided); time lazy {:.1} ms vs exhaustive {:.1} ms (ratio {:.1}x)",
        candidates as f64 / reqs.len() as f64,
        100.0 * (1.0 - lazy_tests as f64 / full_tests as f64),
        lazy_time.as_secs_f64() * 1e3,
        full_time.as_secs_f64() * 1e3,
        full_time.as_secs_f64() / lazy_time.as_secs_f64(),
    );

    let mut g = c.benchmark_group("tps_1000_queries");
    g.sample_size(10);
    g.bench_function("lazy_heap", |b| b.iter(|| black_box(run_lazy(&q, &reqs, &env))));
    g.bench_function("exhaustive", |b| b.iter(|| black_box(run_exhaustive(&q, &reqs, &env))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
