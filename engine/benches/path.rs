//! Grid pathfinding against its peers on real game maps.
//!
//! The same queries (from the shared MovingAI scenarios of den520d, brc202d and AcrosstheCape) run
//! through this crate's [`Jps`] and [`AStar`], the `pathfinding` crate's `astar` (with an exact
//! `f64` cost and the same no-corner-cutting neighbours) and `grid_pathfinding`'s JPS. Every
//! result is checked against the file's optimal length before anything is timed.
//!
//! Besides criterion's per-set timings, a quick loop times every query on its own (best of three
//! runs) and prints the median time per query of each method and the ratios.

use std::hint::black_box;
use std::ops::Add;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::IVec2;
use grid_pathfinding::PathingGrid;
use grid_util::grid::ValueGrid;
use grid_util::point::Point;
use pathfinding::num_traits::Zero;
use tactica_engine::grid::{Map, load_movingai, shared_data_dir};
use tactica_engine::path::scen::{Query, load_scen};
use tactica_engine::path::{AStar, Jps, octile};

/// At most this many queries per map (the longest buckets are kept: they are the hard ones).
const MAX_QUERIES: usize = 120;

/// An exact `f64` cost the `pathfinding` crate accepts (it needs `Ord`).
#[derive(Debug, Clone, Copy)]
struct Cost(f64);
impl PartialEq for Cost {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Cost {}
impl PartialOrd for Cost {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Cost {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
impl Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost(self.0 + o.0)
    }
}
impl Zero for Cost {
    fn zero() -> Self {
        Cost(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

const STEPS: [(i32, i32, f64); 8] = [
    (1, 0, 1.0),
    (-1, 0, 1.0),
    (0, 1, 1.0),
    (0, -1, 1.0),
    (1, 1, std::f64::consts::SQRT_2),
    (-1, 1, std::f64::consts::SQRT_2),
    (1, -1, std::f64::consts::SQRT_2),
    (-1, -1, std::f64::consts::SQRT_2),
];

fn peer_astar(map: &Map, q: &Query) -> Option<f64> {
    let goal = (q.goal.x, q.goal.y);
    let free = |x: i32, y: i32| map.passable(IVec2::new(x, y));
    pathfinding::directed::astar::astar(
        &(q.start.x, q.start.y),
        |&(x, y)| {
            STEPS.iter().filter_map(move |&(dx, dy, len)| {
                let ok = free(x + dx, y + dy) && (dx == 0 || dy == 0 || (free(x + dx, y) && free(x, y + dy)));
                ok.then_some(((x + dx, y + dy), Cost(len)))
            })
        },
        |&(x, y)| Cost(octile(IVec2::new(x, y), q.goal)),
        |p| *p == goal,
    )
    .map(|(_, c)| c.0)
}

fn peer_grid(map: &Map) -> PathingGrid {
    let mut g = PathingGrid::new(map.width() as usize, map.height() as usize, false);
    for (i, c) in map.costs().iter().enumerate() {
        if !c.is_finite() {
            let cell = map.cell_at(i);
            g.set(cell.x, cell.y, true);
        }
    }
    g.generate_components();
    g
}

fn peer_jps(grid: &PathingGrid, q: &Query) -> Option<f64> {
    let path = grid.get_path_single_goal(Point::new(q.start.x, q.start.y), Point::new(q.goal.x, q.goal.y), false)?;
    Some(path.windows(2).map(|w| octile(IVec2::new(w[0].x, w[0].y), IVec2::new(w[1].x, w[1].y))).sum())
}

struct Case {
    name: &'static str,
    map: Map,
    queries: Vec<Query>,
}

fn cases() -> Vec<Case> {
    let Some(dir) = shared_data_dir() else {
        eprintln!("shared benchmark data not found (set TACTICA_DATA); nothing to benchmark");
        return Vec::new();
    };
    let files = [
        ("den520d", "den520d.map", "den520d.map.scen"),
        ("brc202d", "brc202d.map", "brc202d.map.scen"),
        ("AcrosstheCape", "AcrosstheCape.map", "AcrosstheCape.map.official.scen"),
    ];
    files
        .iter()
        .map(|&(name, m, s)| {
            let map = load_movingai(&dir.join("maps").join(m)).expect("map");
            let mut queries = load_scen(&dir.join("scen").join(s)).expect("scen").queries;
            queries.sort_by(|a, b| b.optimal.total_cmp(&a.optimal).then(a.line.cmp(&b.line)));
            let step = queries.len().div_ceil(MAX_QUERIES);
            let queries = queries.into_iter().step_by(step).collect();
            Case { name, map, queries }
        })
        .collect()
}

fn best_of_3(mut f: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Checks every method's lengths, then prints per-query medians and ratios.
fn validate_and_compare(case: &Case) {
    let mut jps = Jps::new(&case.map).expect("uniform map");
    let mut astar = AStar::new();
    let grid = peer_grid(&case.map);
    let mut cells = Vec::new();
    let tol = if case.name == "AcrosstheCape" { 1e-2 } else { 1e-6 };
    let mut peer_off = 0;
    let mut times: [Vec<f64>; 4] = Default::default();
    for q in &case.queries {
        let j = jps.find(q.start, q.goal, &mut cells).expect("jps path").cost;
        let a = astar.find(&case.map, q.start, q.goal, &mut cells).expect("astar path").cost;
        let p = peer_astar(&case.map, q).expect("pathfinding path");
        assert!((j - q.optimal).abs() <= tol && (a - q.optimal).abs() <= tol, "{} line {}", case.name, q.line);
        assert!(
            (p - q.optimal).abs() <= tol,
            "pathfinding::astar on {} line {}: {p} vs {}",
            case.name,
            q.line,
            q.optimal
        );
        let g = peer_jps(&grid, q).expect("grid_pathfinding path");
        peer_off += usize::from((g - q.optimal).abs() > tol);
        times[0].push(best_of_3(|| {
            black_box(jps.find(q.start, q.goal, &mut cells).ok());
        }));
        times[1].push(best_of_3(|| {
            black_box(astar.find(&case.map, q.start, q.goal, &mut cells).ok());
        }));
        times[2].push(best_of_3(|| {
            black_box(peer_astar(&case.map, q));
        }));
        times[3].push(best_of_3(|| {
            black_box(peer_jps(&grid, q));
        }));
    }
    let ratios = |k: usize| median(times[k].iter().zip(&times[0]).map(|(p, o)| p / o).collect());
    let med: Vec<f64> = times.iter().map(|t| median(t.clone()) * 1e6).collect();
    eprintln!(
        "path/{:<14} {} queries: median µs per query: tactica jps {:.1}, tactica astar {:.1}, pathfinding::astar {:.1}, grid_pathfinding jps {:.1}",
        case.name,
        case.queries.len(),
        med[0],
        med[1],
        med[2],
        med[3]
    );
    eprintln!(
        "path/{:<14} ratio of medians vs tactica jps: astar {:.1}×, pathfinding::astar {:.1}×, grid_pathfinding {:.1}× (median of per-query ratios: {:.1}×, {:.1}×, {:.1}×); grid_pathfinding lengths off the optimum: {peer_off}",
        case.name,
        med[1] / med[0],
        med[2] / med[0],
        med[3] / med[0],
        ratios(1),
        ratios(2),
        ratios(3)
    );
}

fn bench(c: &mut Criterion) {
    for case in cases() {
        validate_and_compare(&case);
        let mut group = c.benchmark_group(format!("path/{}", case.name));
        group.sample_size(10);
        let mut jps = Jps::new(&case.map).expect("uniform map");
        let mut astar = AStar::new();
        let grid = peer_grid(&case.map);
        let mut cells = Vec::new();
        group.bench_function("tactica_jps", |b| {
            b.iter(|| {
                for q in &case.queries {
                    black_box(jps.find(q.start, q.goal, &mut cells).ok());
                }
            })
        });
        group.bench_function("tactica_astar", |b| {
            b.iter(|| {
                for q in &case.queries {
                    black_box(astar.find(&case.map, q.start, q.goal, &mut cells).ok());
                }
            })
        });
        group.bench_function("pathfinding_astar", |b| {
            b.iter(|| {
                for q in &case.queries {
                    black_box(peer_astar(&case.map, q));
                }
            })
        });
        group.bench_function("grid_pathfinding_jps", |b| {
            b.iter(|| {
                for q in &case.queries {
                    black_box(peer_jps(&grid, q));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
