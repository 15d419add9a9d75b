//! Grid search against the book's worked examples and against a brute-force Dijkstra written
//! here, on random small grids.

use std::collections::BTreeSet;
use std::path::Path;

use glam::IVec2;
use proptest::prelude::*;
use tactica_engine::grid::{Map, TerrainCosts, parse_ascii};
use tactica_engine::path::{
    AStar, Connectivity, CostModel, Endpoint, Jps, PathError, SearchOptions, Status, TacticalCost, TacticalWeights,
};

const SQRT2: f64 = std::f64::consts::SQRT_2;

fn ascii(text: &str) -> Map {
    parse_ascii(text.as_bytes(), Path::new("t"), &TerrainCosts::ascii()).unwrap()
}

/// The book's (row, col), 1-based, as a cell.
fn rc(r: i32, c: i32) -> IVec2 {
    IVec2::new(c - 1, r - 1)
}

/// 002b §5.3: a 7 × 8 grid (rows × columns) with the wall (4,4)…(4,8) that the walkthrough
/// implies (its right end meets the border, so no route round the right is shorter).
fn walkthrough_map() -> Map {
    let mut m = Map::open(8, 7);
    for c in 4..=8 {
        m.set(rc(4, c), b'#', f32::INFINITY);
    }
    m
}

#[test]
fn the_books_astar_walkthrough() {
    let m = walkthrough_map();
    let (start, goal) = (rc(6, 5), rc(2, 7));
    let mut a = AStar::with_options(SearchOptions::book_walkthrough());
    a.begin(&m, start, goal).unwrap();
    // c = g + h with h = the number of steps ignoring walls.
    let h = |cell: IVec2| f64::from((cell - goal).abs().max_element());
    let c = |a: &AStar, cell: IVec2| a.cost_so_far(cell).unwrap() + h(cell);
    assert_eq!(a.step(&m, 1), Status::InProgress);
    // Iteration 1: all eight neighbours open with g = 1 and their printed scores.
    let ring: BTreeSet<(i32, i32)> = a.open_cells().map(|v| (v.x, v.y)).collect();
    assert_eq!(ring.len(), 8);
    for (r, col, score) in
        [(5, 4, 4.0), (5, 5, 4.0), (5, 6, 4.0), (6, 4, 5.0), (6, 6, 5.0), (7, 4, 6.0), (7, 5, 6.0), (7, 6, 6.0)]
    {
        assert_eq!(a.cost_so_far(rc(r, col)), Some(1.0));
        assert_eq!(c(&a, rc(r, col)), score, "({r},{col})");
    }
    assert_eq!(h(rc(5, 6)), 3.0, "the tile up-right of the start is three steps from the goal");
    // The three tiles with c = 4 are examined next: (5,6), (5,5), (5,4) in some order.
    let mut examined = BTreeSet::new();
    for _ in 0..3 {
        a.step(&m, 1);
        examined.insert(a.last_expanded().unwrap().to_array());
    }
    assert_eq!(examined, BTreeSet::from([rc(5, 4), rc(5, 5), rc(5, 6)].map(|c| c.to_array())));
    // (5,6) added its right and lower-right neighbours, (5,5) nothing, (5,4) three on its left.
    for (r, col, score) in [(5, 7, 5.0), (6, 7, 6.0), (4, 3, 6.0), (5, 3, 6.0), (6, 3, 6.0)] {
        assert_eq!(a.cost_so_far(rc(r, col)), Some(2.0));
        assert_eq!(c(&a, rc(r, col)), score, "({r},{col})");
    }
    assert_eq!(a.open_cells().count(), 5 + 5);
    // Then the three tiles with c = 5: (5,7), (6,6), (6,4).
    let mut examined = BTreeSet::new();
    for _ in 0..3 {
        a.step(&m, 1);
        examined.insert(a.last_expanded().unwrap().to_array());
    }
    assert_eq!(examined, BTreeSet::from([rc(5, 7), rc(6, 6), rc(6, 4)].map(|c| c.to_array())));
    // The search ends with a 6-move path of cost 6, and the tiles of the book's path carry the
    // book's g values (and c = 6 from (4,3) on).
    assert_eq!(a.step(&m, usize::MAX), Status::Found);
    let mut cells = Vec::new();
    assert_eq!(a.write_path(&mut cells), Some(6.0));
    assert_eq!(cells.len(), 7);
    let book = [rc(6, 5), rc(5, 4), rc(4, 3), rc(3, 4), rc(2, 5), rc(2, 6), rc(2, 7)];
    for (g, &cell) in book.iter().enumerate() {
        assert_eq!(a.cost_so_far(cell), Some(g as f64), "{cell}");
        if g >= 2 {
            assert_eq!(c(&a, cell), 6.0);
        }
    }
    assert_path_valid(&m, &cells, start, goal, SearchOptions::book_walkthrough());
    // Under the project's own rules (√2 diagonals, no corner cutting) the wall end at (4,4)
    // cannot be cut, so the way round is longer.
    let found = AStar::new().find(&m, start, goal, &mut cells).unwrap();
    assert!((found.cost - (6.0 + 2.0 * SQRT2)).abs() < 1e-9, "{}", found.cost);
    assert_eq!(dijkstra(&m, start, goal, true), Some(found.cost));
}

#[test]
fn terrain_costs_of_one_three_and_five() {
    // 002b §3.7: open 1, grassland 3, swamp 5. Straight across the middle band, or round it.
    let band = |t: char| ascii(&format!(".....\n.{t}{t}{t}.\n.{t}{t}{t}.\n.{t}{t}{t}.\n.....\n"));
    let (start, goal) = (IVec2::new(0, 2), IVec2::new(4, 2));
    let mut cells = Vec::new();
    // Open ground: straight through, 4 steps of 1.
    assert_eq!(AStar::new().find(&band('.'), start, goal, &mut cells).unwrap().cost, 4.0);
    assert!(cells.iter().all(|c| c.y == 2));
    // Grassland: 3 + 3 + 3 + 1 = 10 straight through; round the band costs 4 + 2√2 ≈ 6.83.
    for t in ['"', '~'] {
        let m = band(t);
        let found = AStar::new().find(&m, start, goal, &mut cells).unwrap();
        assert!((found.cost - (4.0 + 2.0 * SQRT2)).abs() < 1e-9, "{t}: {}", found.cost);
        assert!(cells.iter().all(|&c| m.cost(c) == Some(1.0)), "{t}: keeps to open ground");
        assert_eq!(cells.len(), 7, "longer than the 5-cell straight line, but faster");
    }
    // A swamp cell in the way with an open cell below it: two diagonals (2√2) beat the swamp
    // (5 + 1); with swamp all round, crossing one swamp cell (5 + 1) is the cheapest.
    let m = ascii(".~.\n\".\"\n~~~\n");
    let found = AStar::new().find(&m, IVec2::new(0, 0), IVec2::new(2, 0), &mut cells).unwrap();
    assert_eq!(found.cost, 2.0 * SQRT2, "down-right, up-right over the open middle cell");
    let m = ascii("~~~\n.~.\n");
    let found = AStar::new().find(&m, IVec2::new(0, 1), IVec2::new(2, 1), &mut cells).unwrap();
    assert_eq!(found.cost, 6.0, "one swamp cell (5) then open (1)");
}

#[test]
fn dead_ends_and_bad_endpoints() {
    let m = ascii("..#..\n..#..\n..#..\n");
    let mut cells = vec![IVec2::ONE];
    let e = AStar::new().find(&m, IVec2::new(0, 0), IVec2::new(4, 0), &mut cells).unwrap_err();
    assert_eq!(e, PathError::NoPath { expanded: 6 }, "every reachable cell searched, then the open list is empty");
    assert!(cells.is_empty());
    let e = Jps::new(&m).unwrap().find(IVec2::new(0, 0), IVec2::new(4, 0), &mut cells).unwrap_err();
    assert!(matches!(e, PathError::NoPath { .. }));
    for (a, b, which) in [
        (IVec2::new(-1, 0), IVec2::ZERO, Endpoint::Start),
        (IVec2::ZERO, IVec2::new(5, 0), Endpoint::Goal),
        (IVec2::ZERO, IVec2::new(0, 3), Endpoint::Goal),
    ] {
        let e = AStar::new().find(&m, a, b, &mut cells).unwrap_err();
        assert!(matches!(e, PathError::OffMap { which: w, .. } if w == which), "{e}");
        let e = Jps::new(&m).unwrap().find(a, b, &mut cells).unwrap_err();
        assert!(matches!(e, PathError::OffMap { which: w, .. } if w == which), "{e}");
    }
    let e = AStar::new().find(&m, IVec2::new(2, 1), IVec2::ZERO, &mut cells).unwrap_err();
    assert_eq!(e, PathError::Blocked { which: Endpoint::Start, cell: IVec2::new(2, 1) });
    assert_eq!(Jps::new(&ascii(".~\n")).unwrap_err(), PathError::NotUniform);
    let found = AStar::new().find(&m, IVec2::ONE, IVec2::ONE, &mut cells).unwrap();
    assert_eq!((found.cost, cells.as_slice()), (0.0, [IVec2::ONE].as_slice()));
}

#[test]
fn jps_follows_map_edits() {
    let m = Map::open(6, 3);
    let mut jps = Jps::new(&m).unwrap();
    let mut cells = Vec::new();
    assert_eq!(jps.find(IVec2::new(0, 1), IVec2::new(5, 1), &mut cells).unwrap().cost, 5.0);
    for y in 0..3 {
        jps.set_passable(IVec2::new(3, y), false);
    }
    assert!(matches!(jps.find(IVec2::new(0, 1), IVec2::new(5, 1), &mut cells), Err(PathError::NoPath { .. })));
    jps.set_passable(IVec2::new(3, 0), true);
    let found = jps.find(IVec2::new(0, 1), IVec2::new(5, 1), &mut cells).unwrap();
    assert!((found.cost - (3.0 + 2.0 * SQRT2)).abs() < 1e-9);
    assert!(!jps.set_passable(IVec2::new(6, 0), true));
}

/// Checks that `cells` is a legal path from `start` to `goal` under `rules`.
fn assert_path_valid(m: &Map, cells: &[IVec2], start: IVec2, goal: IVec2, rules: SearchOptions) {
    assert_eq!(cells.first(), Some(&start));
    assert_eq!(cells.last(), Some(&goal));
    for w in cells.windows(2) {
        let d = w[1] - w[0];
        assert!(d != IVec2::ZERO && d.abs().max_element() == 1, "not a single step: {w:?}");
        assert!(m.passable(w[1]), "into a wall: {w:?}");
        if d.x != 0 && d.y != 0 {
            assert_eq!(rules.connectivity, Connectivity::Eight, "diagonal in a 4-connected path");
            if !rules.corner_cutting {
                assert!(
                    m.passable(w[0] + IVec2::new(d.x, 0)) && m.passable(w[0] + IVec2::new(0, d.y)),
                    "cuts a corner: {w:?}"
                );
            }
        }
    }
}

/// The cost of `cells` stepped one by one under `model`.
fn path_cost(model: &impl CostModel, cells: &[IVec2], diagonal: f64) -> f64 {
    let w = model.width() as i32;
    cells
        .windows(2)
        .map(|s| {
            let d = s[1] - s[0];
            let len = if d.x != 0 && d.y != 0 { diagonal } else { 1.0 };
            model.step_cost((s[0].y * w + s[0].x) as usize, (s[1].y * w + s[1].x) as usize, len)
        })
        .sum()
}

/// Brute-force Dijkstra: repeatedly settle the cheapest unsettled cell by scanning them all.
/// `None` when the goal cannot be reached.
fn dijkstra(model: &impl CostModel, start: IVec2, goal: IVec2, eight: bool) -> Option<f64> {
    let (w, h) = (model.width() as i32, model.height() as i32);
    let n = (w * h) as usize;
    let idx = |c: IVec2| (c.y * w + c.x) as usize;
    let free = |c: IVec2| c.x >= 0 && c.y >= 0 && c.x < w && c.y < h && model.cell_cost(idx(c)).is_finite();
    if !free(start) || !free(goal) {
        return None;
    }
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[idx(start)] = 0.0;
    loop {
        let best = (0..n).filter(|&i| !done[i] && dist[i].is_finite()).min_by(|&a, &b| dist[a].total_cmp(&dist[b]))?;
        if best == idx(goal) {
            return Some(dist[best]);
        }
        done[best] = true;
        let c = IVec2::new(best as i32 % w, best as i32 / w);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let d = IVec2::new(dx, dy);
                let diagonal = dx != 0 && dy != 0;
                if d == IVec2::ZERO || (diagonal && !eight) || !free(c + d) {
                    continue;
                }
                if diagonal && !(free(c + IVec2::new(dx, 0)) && free(c + IVec2::new(0, dy))) {
                    continue;
                }
                let len = if diagonal { SQRT2 } else { 1.0 };
                let nd = dist[best] + model.step_cost(best, idx(c + d), len);
                if nd < dist[idx(c + d)] {
                    dist[idx(c + d)] = nd;
                }
            }
        }
    }
}

fn grid(uniform: bool) -> impl Strategy<Value = (Map, IVec2, IVec2)> {
    (2u32..9, 2u32..9).prop_flat_map(move |(w, h)| {
        let n = (w * h) as usize;
        let costs = if uniform {
            prop_oneof![3 => Just(1.0f32), 1 => Just(f32::INFINITY)].boxed()
        } else {
            prop_oneof![4 => Just(1.0f32), 1 => Just(3.0), 1 => Just(5.0), 2 => Just(f32::INFINITY)].boxed()
        };
        (prop::collection::vec(costs, n), 0..n, 0..n).prop_map(move |(costs, s, g)| {
            let mut m = Map::open(w, h);
            for (i, c) in costs.into_iter().enumerate() {
                m.set(m.cell_at(i), if c.is_finite() { b'.' } else { b'#' }, c);
            }
            (m.clone(), m.cell_at(s), m.cell_at(g))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn astar_paths_are_valid_and_as_cheap_as_dijkstra((m, s, g) in grid(false), four in any::<bool>()) {
        let rules = if four { SearchOptions::four_connected() } else { SearchOptions::default() };
        let mut cells = Vec::new();
        let result = AStar::with_options(rules).find(&m, s, g, &mut cells);
        match (dijkstra(&m, s, g, !four), result) {
            (Some(best), Ok(found)) => {
                assert_path_valid(&m, &cells, s, g, rules);
                prop_assert!((path_cost(&m, &cells, SQRT2) - found.cost).abs() < 1e-9, "length equals cost");
                prop_assert!((found.cost - best).abs() < 1e-9, "{} vs Dijkstra {}", found.cost, best);
            }
            (None, Err(e)) => prop_assert!(
                matches!(e, PathError::NoPath { .. } | PathError::Blocked { .. }), "{}", e
            ),
            (d, r) => prop_assert!(false, "Dijkstra {:?}, A* {:?}", d, r),
        }
    }

    #[test]
    fn jps_paths_are_valid_and_as_short_as_dijkstra((m, s, g) in grid(true)) {
        let mut cells = Vec::new();
        let result = Jps::new(&m).unwrap().find(s, g, &mut cells);
        match (dijkstra(&m, s, g, true), result) {
            (Some(best), Ok(found)) => {
                assert_path_valid(&m, &cells, s, g, SearchOptions::default());
                prop_assert!((path_cost(&m, &cells, SQRT2) - found.cost).abs() < 1e-9);
                prop_assert!((found.cost - best).abs() < 1e-9, "{} vs Dijkstra {}", found.cost, best);
            }
            (None, Err(_)) => {}
            (d, r) => prop_assert!(false, "Dijkstra {:?}, JPS {:?}", d, r),
        }
    }

    #[test]
    fn tactical_astar_is_as_cheap_as_dijkstra(
        (m, s, g) in grid(false),
        layer in prop::collection::vec(0.0f32..4.0, 64),
        weight in 0.0f32..2.0,
    ) {
        let layer = &layer[..m.len()];
        let weights = TacticalWeights::new([weight]);
        let cost = TacticalCost::new(&m, &[layer], &weights).unwrap();
        let mut cells = Vec::new();
        let result = AStar::new().find(&cost, s, g, &mut cells);
        match (dijkstra(&cost, s, g, true), result) {
            (Some(best), Ok(found)) => {
                assert_path_valid(&m, &cells, s, g, SearchOptions::default());
                prop_assert!((path_cost(&cost, &cells, SQRT2) - found.cost).abs() < 1e-6);
                prop_assert!((found.cost - best).abs() < 1e-6, "{} vs Dijkstra {}", found.cost, best);
            }
            (None, Err(_)) => {}
            (d, r) => prop_assert!(false, "Dijkstra {:?}, A* {:?}", d, r),
        }
    }
}
