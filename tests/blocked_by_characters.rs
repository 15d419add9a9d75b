//! Characters in the way (`[navigation] blocked_ticks`): a walker whose next cell a standing
//! character holds waits `blocked_ticks` ticks, then plans round every standing character; when
//! there is no way round it says why, once. Off by default: walkers pass through one another.

use glam::IVec2;
use tactica::runtime::Runtime;

mod common;

/// A corridor (row 1) with a detour below it: down at x = 4, along row 3, up at x = 9.
const CORRIDOR: &str = "\
############
#..........#
####.####.##
#..........#
############
";

/// A dead-end corridor: no way round.
const DEAD_END: &str = "\
############
#..........#
############
";

fn scenario(name: &str, map: &str, navigation: &str, goal: [i32; 2]) -> std::path::PathBuf {
    let toml = format!(
        "map = \"map.txt\"\nticks = 40\n\n[navigation]\n{navigation}\n\n\
         [[entities]]\nname = \"guard\"\nkind = \"k\"\nat = [6, 1]\n\n\
         [[entities]]\nname = \"walker\"\nkind = \"k\"\nat = [1, 1]\nspeed = 10\nactions = [{{ move_to = [{}, {}] }}]\n",
        goal[0], goal[1]
    );
    let path = common::folder(name, &toml, &[]);
    std::fs::write(path.with_file_name("map.txt"), map).unwrap();
    path
}

/// Plays `ticks` ticks and returns the walker's cell after each.
fn cells(path: &std::path::Path, ticks: u64) -> (Runtime, Vec<IVec2>) {
    let loaded = tactica::scenario::load(path).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(loaded, tactica::languages()).unwrap_or_else(|_| panic!("no scripts"));
    let id = rt.world().find("walker").unwrap();
    let mut out = Vec::new();
    for _ in 0..ticks {
        rt.tick();
        out.push(rt.world().entity(id).unwrap().cell());
    }
    (rt, out)
}

/// The cheapest cost from `from` to `to` on `map` with `taken` cells walled off: Dijkstra from
/// the `pathfinding` crate, 8-connected, √2 diagonals, no corner cutting, micro-units.
fn cheapest(map: &str, taken: IVec2, from: IVec2, to: IVec2) -> f64 {
    let open = |c: IVec2| {
        c != taken && map.lines().nth(c.y as usize).and_then(|r| r.as_bytes().get(c.x as usize)) == Some(&b'.')
    };
    let (_, cost) = pathfinding::prelude::dijkstra(
        &from,
        |&c| {
            let mut next = Vec::new();
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let n = c + IVec2::new(dx, dy);
                let diagonal = dx != 0 && dy != 0;
                if open(n) && (!diagonal || (open(c + IVec2::new(dx, 0)) && open(c + IVec2::new(0, dy)))) {
                    next.push((n, if diagonal { 1_414_214u64 } else { 1_000_000 }));
                }
            }
            next
        },
        |&c| c == to,
    )
    .unwrap();
    cost as f64 / 1e6
}

#[test]
fn a_walker_waits_for_a_guard_then_takes_the_detour() {
    let path = scenario("blocked-detour", CORRIDOR, "blocked_ticks = 3", [10, 1]);
    let (rt, cells) = cells(&path, 40);
    let guard = IVec2::new(6, 1);
    assert!(!cells.contains(&guard), "the walker never enters the guard's cell: {cells:?}");
    assert_eq!(cells.last(), Some(&IVec2::new(10, 1)));
    // Ticks 0–3 east to (5, 1), held there on ticks 4, 5 and 6, then off down the detour.
    assert_eq!(
        &cells[..7],
        &[
            IVec2::new(2, 1),
            IVec2::new(3, 1),
            IVec2::new(4, 1),
            IVec2::new(5, 1),
            IVec2::new(5, 1),
            IVec2::new(5, 1),
            IVec2::new(5, 1)
        ]
    );
    assert_ne!(cells[7], IVec2::new(5, 1));
    let trace = rt.trace();
    assert!(!trace.contains("\"blocked\""), "{trace}");
    // The one plan, made round the guard from where the walker was held, is the cheapest there.
    let plans: Vec<serde_json::Value> =
        trace.lines().filter(|l| l.contains("\"kind\":\"path\"")).map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(plans.len(), 1, "{trace}");
    assert_eq!(plans[0]["from"], serde_json::json!([5, 1]));
    assert_eq!(plans[0]["tick"], 7, "held on ticks 4, 5 and 6; searched and on its way on tick 7");
    let best = cheapest(CORRIDOR, guard, IVec2::new(5, 1), IVec2::new(10, 1));
    assert!((plans[0]["cost"].as_f64().unwrap() - best).abs() < 1e-4, "{} vs {best}", plans[0]["cost"]);
    assert_eq!(trace.matches("\"kind\":\"arrive\"").count(), 1);
}

#[test]
fn with_no_way_round_the_walker_says_why_once() {
    let path = scenario("blocked-dead-end", DEAD_END, "blocked_ticks = 2", [10, 1]);
    let (rt, cells) = cells(&path, 40);
    assert_eq!(cells.last(), Some(&IVec2::new(5, 1)));
    let trace = rt.trace();
    let blocked: Vec<serde_json::Value> = trace
        .lines()
        .filter(|l| l.contains("\"kind\":\"blocked\""))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(blocked.len(), 1, "{trace}");
    assert_eq!(
        blocked[0]["reason"],
        "no way to (10, 1) round the characters standing in it (guard at (6, 1)): walls close every other way"
    );
    let w = rt.world();
    assert!(w.entity(w.find("walker").unwrap()).unwrap().actions.is_idle(), "the move ended");
}

#[test]
fn by_default_walkers_pass_through_standing_characters() {
    let path = scenario("blocked-off", DEAD_END, "", [10, 1]);
    let (rt, cells) = cells(&path, 12);
    assert!(cells.contains(&IVec2::new(6, 1)));
    assert_eq!(cells.last(), Some(&IVec2::new(10, 1)));
    assert!(!rt.trace().contains("\"blocked\""));
}
