//! HPA* against flat A*: transitions, validity, completeness, incremental updates, benchmark maps.

use glam::IVec2;
use proptest::prelude::*;

use super::abstract_graph::transitions;
use super::*;
use crate::grid::{Map, load_movingai, shared_data_dir};
use crate::path::scen::load_scen;
use crate::path::{AStar, PathError};

/// Checks a returned path cell by cell under the map's rules and returns its cost, computed
/// here independently of the search.
fn check_path(map: &Map, path: &[IVec2], start: IVec2, goal: IVec2) -> f64 {
    assert_eq!(path.first(), Some(&start));
    assert_eq!(path.last(), Some(&goal));
    let mut cost = 0.0;
    for w in path.windows(2) {
        let d = w[1] - w[0];
        assert!(d.x.abs() <= 1 && d.y.abs() <= 1 && d != IVec2::ZERO, "{:?} -> {:?} is not a step", w[0], w[1]);
        assert!(map.passable(w[1]), "{:?} is blocked", w[1]);
        let length = if d.x != 0 && d.y != 0 {
            assert!(
                map.passable(w[0] + IVec2::new(d.x, 0)) && map.passable(w[0] + IVec2::new(0, d.y)),
                "{:?} -> {:?} cuts a corner",
                w[0],
                w[1]
            );
            std::f64::consts::SQRT_2
        } else {
            1.0
        };
        cost += length * f64::from(map.cost(w[1]).unwrap());
    }
    cost
}

#[test]
fn short_segments_get_a_middle_transition_long_ones_two_ends() {
    assert_eq!(transitions(&[true, true, true]), vec![1]);
    assert_eq!(transitions(&[false, true, true, true, true, false]), vec![3]);
    assert_eq!(transitions(&[true; 6]), vec![0, 5]);
    // Two runs: cells 0–1 (short: its middle, 1) and 3–7 (five cells, still short: its middle, 5).
    let mut mixed = vec![true; 8];
    mixed[2] = false;
    assert_eq!(transitions(&mixed), vec![1, 5]);
    assert_eq!(transitions(&[false; 4]), Vec::<usize>::new());
}

#[test]
fn a_wall_with_one_gap_is_crossed_through_the_gap_at_the_exact_cost() {
    // A wall on x = 8 (a cluster border) with a gap at y = 12; clusters of 8.
    let mut map = Map::open(16, 16);
    for y in 0..16 {
        if y != 12 {
            map.set(IVec2::new(8, y), b'#', f32::INFINITY);
        }
    }
    let hpa = Hpa::build(&map, 8);
    let mut cells = Vec::new();
    let (s, g) = (IVec2::new(7, 12), IVec2::new(9, 12));
    let found = hpa.find(&map, s, g, &mut cells).unwrap();
    assert_eq!(cells, vec![s, IVec2::new(8, 12), g]);
    assert_eq!(found.cost, 2.0);
    // Start and goal in the same cluster on a straight line: cost is the plain distance.
    let found = hpa.find(&map, IVec2::new(0, 0), IVec2::new(5, 0), &mut cells).unwrap();
    assert_eq!(found.cost, 5.0);
    assert_eq!(cells.len(), 6);
    // Closing the gap cuts the map in two.
    map.set(IVec2::new(8, 12), b'#', f32::INFINITY);
    let mut hpa = hpa;
    hpa.set_cell(&map, IVec2::new(8, 12));
    assert!(matches!(hpa.find(&map, IVec2::new(0, 0), IVec2::new(15, 0), &mut cells), Err(PathError::NoPath { .. })));
}

fn random_map(w: u32, h: u32, walls: &[bool]) -> Map {
    let mut map = Map::open(w, h);
    for (i, &wall) in walls.iter().enumerate() {
        if wall {
            map.set(map.cell_at(i), b'#', f32::INFINITY);
        }
    }
    map
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn hpa_finds_a_valid_path_exactly_when_astar_does(
        walls in proptest::collection::vec(proptest::bool::weighted(0.3), 20 * 18),
        size in 3u32..7,
        sx in 0i32..20, sy in 0i32..18, gx in 0i32..20, gy in 0i32..18,
    ) {
        let mut map = random_map(20, 18, &walls);
        let (s, g) = (IVec2::new(sx, sy), IVec2::new(gx, gy));
        map.set(s, b'.', 1.0);
        map.set(g, b'.', 1.0);
        let hpa = Hpa::build(&map, size);
        let mut cells = Vec::new();
        let flat = AStar::new().find(&map, s, g, &mut Vec::new());
        let hier = hpa.find(&map, s, g, &mut cells);
        match (flat, hier) {
            (Ok(best), Ok(found)) => {
                let cost = check_path(&map, &cells, s, g);
                prop_assert!((cost - found.cost).abs() < 1e-9);
                prop_assert!(found.cost >= best.cost - 1e-9);
            }
            (Err(_), Err(PathError::NoPath { .. })) => {}
            (flat, hier) => prop_assert!(false, "A* {:?} but HPA* {:?}", flat, hier),
        }
    }

    #[test]
    fn set_cell_matches_a_full_rebuild(
        walls in proptest::collection::vec(proptest::bool::weighted(0.25), 24 * 20),
        toggles in proptest::collection::vec((0i32..24, 0i32..20), 1..6),
        size in 3u32..9,
    ) {
        let mut map = random_map(24, 20, &walls);
        let mut hpa = Hpa::build(&map, size);
        for (x, y) in toggles {
            let cell = IVec2::new(x, y);
            if map.passable(cell) {
                map.set(cell, b'#', f32::INFINITY);
            } else {
                map.set(cell, b'.', 1.0);
            }
            hpa.set_cell(&map, cell);
            prop_assert_eq!(&hpa, &Hpa::build(&map, size));
        }
    }
}

/// Every query of a benchmark scenario: a path whenever one exists, never shorter than the
/// optimum, mean and worst excess bounded.
fn benchmark(name: &str, size: u32, every: usize, mean_bound: f64, max_bound: f64) {
    let Some(dir) = shared_data_dir() else {
        println!("benchmark maps absent (set TACTICA_DATA); skipping {name}");
        return;
    };
    let map = load_movingai(&dir.join("maps").join(name)).unwrap();
    let scen = load_scen(&dir.join("scen").join(format!("{name}.scen"))).unwrap();
    let hpa = Hpa::build(&map, size);
    let mut cells = Vec::new();
    let (mut sum, mut worst, mut n) = (0.0, 0.0f64, 0usize);
    for q in scen.queries.iter().step_by(every) {
        let found = hpa.find(&map, q.start, q.goal, &mut cells).unwrap_or_else(|e| panic!("line {}: {e}", q.line));
        let cost = check_path(&map, &cells, q.start, q.goal);
        assert!((cost - found.cost).abs() < 1e-6);
        assert!(cost >= q.optimal - 1e-6, "line {}: {cost} < optimal {}", q.line, q.optimal);
        if q.optimal > 0.0 {
            let excess = cost / q.optimal - 1.0;
            sum += excess;
            worst = worst.max(excess);
            n += 1;
        }
    }
    let mean = sum / n as f64;
    println!(
        "{name}: {n} queries, clusters {size}, {} nodes, {} edges, mean excess {:.2}%, max {:.2}%",
        hpa.node_count(),
        hpa.edge_count(),
        100.0 * mean,
        100.0 * worst
    );
    assert!(mean <= mean_bound, "mean excess {mean}");
    assert!(worst <= max_bound, "max excess {worst}");
}

#[test]
fn den520d_queries_are_near_optimal() {
    benchmark("den520d.map", 16, 7, 0.10, 0.60);
}

#[test]
fn brc202d_queries_are_near_optimal() {
    benchmark("brc202d.map", 16, 13, 0.10, 0.60);
}

#[test]
fn a_query_run_in_slices_finds_what_one_run_finds_and_spends_exactly_its_slices() {
    // Walls with gaps across a 64 × 64 map, clusters of 8: the route crosses many clusters.
    let mut map = Map::open(64, 64);
    for x in (6..64).step_by(10) {
        for y in 0..64 {
            if y != (x * 7) % 60 + 2 {
                map.set(IVec2::new(x, y), b'#', f32::INFINITY);
            }
        }
    }
    let hpa = Hpa::build(&map, 8);
    let (start, goal) = (IVec2::new(1, 1), IVec2::new(62, 60));
    let mut whole = Vec::new();
    let found = hpa.find(&map, start, goal, &mut whole).unwrap();
    let mut query = HpaQuery::begin(&hpa, &map, start, goal).unwrap();
    let mut astar = AStar::new();
    let mut slices = 0;
    while query.step(&hpa, &map, &mut astar, 7) == crate::path::Status::InProgress {
        slices += 1;
        assert_eq!(query.expanded(), slices * 7, "every slice but the last spends all 7");
    }
    assert_eq!(query.status(), crate::path::Status::Found);
    assert!(query.expanded() <= (slices + 1) * 7 && query.expanded() > slices * 7);
    assert_eq!(query.cells(), &whole[..]);
    assert_eq!(query.found(), found);
    assert!(found.abstract_expanded > 0 && found.refine_expanded > 0 && found.link_expanded > 0);
    assert!((check_path(&map, &whole, start, goal) - found.cost).abs() < 1e-9);
}

#[test]
fn the_build_work_bound_counts_transitions_per_cluster() {
    // Four open 16 × 16 clusters: every border one long opening, two transitions at its ends;
    // each cluster meets two borders whose ends share the corner cell, so k = 3 nodes and 3·2
    // searches of at most 256 cells, plus the scan.
    assert_eq!(Hpa::build_work(&Map::open(32, 32), 16), 4 * (3 * 2 * 256 + 256));
    // A wall along the only vertical border, one gap of one cell: clusters 0 and 1 gain one
    // transition between them, the south borders stay long openings.
    let mut map = Map::open(32, 16);
    for y in 0..16 {
        if y != 5 {
            map.set(IVec2::new(16, y), b'#', f32::INFINITY);
        }
    }
    assert_eq!(Hpa::build_work(&map, 16), 2 * 256, "one transition each: no search pairs");
    // A comb of one-cell openings along a cluster border: the bound grows with the square of
    // the openings, which is what makes such maps slow to build.
    let mut comb = Map::open(64, 32);
    for y in (0..32).step_by(2) {
        comb.set(IVec2::new(32, y), b'#', f32::INFINITY);
    }
    assert_eq!(Hpa::build_work(&Map::open(64, 32), 32), 2 * (2 * 1024 + 1024));
    // 16 one-cell openings: each side searches from all 16; the east cluster lost 16 cells.
    assert_eq!(Hpa::build_work(&comb, 32), (1024 + 16 * 15 * 1024) + (1024 + 16 * 15 * 1008));
    // Corridors one row apart that never meet inside a cluster: each search can only run along
    // its own row, so the bound is the row, not the cluster.
    let mut rows = Map::open(32, 16);
    for y in (1..16).step_by(2) {
        for x in 0..32 {
            rows.set(IVec2::new(x, y), b'#', f32::INFINITY);
        }
    }
    assert_eq!(Hpa::build_work(&rows, 16), 2 * (256 + 8 * 7 * 16));
}
