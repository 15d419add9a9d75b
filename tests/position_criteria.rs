//! The typed generators and criteria a position query may name beyond the reference's examples —
//! doorways, sniper spots, shooting from a stance, exposure to several opponents — asked from a
//! Lua script in a running scenario and checked against answers worked out here from the map.

mod common;

use glam::{IVec2, Vec2};
use serde_json::Value as Json;
use tactica_engine::grid::{Map, TerrainCosts, line_of_sight, parse_ascii};

/// A wall across row 4 with a one-cell gap (a doorway) at x 5 and a two-cell gap at x 12–13 (too
/// wide to be a doorway), a wall down column 16 with a doorway at y 7, and a stub of wall beside
/// the scout that hides the cells behind it from the south.
const MAP: &str = "\
....................
....................
....................
....................
#####.######..######
................#...
................#...
....................
................#...
................#...
....#...............
....#...............
";

const SCENARIO: &str = r#"map = "map.txt"
ticks = 1
player = "r3"
[[entities]]
name = "scout"
kind = "soldier"
team = "blue"
at = [2, 10]
scripts = ["scout.lua"]
[[entities]]
name = "ally"
kind = "soldier"
team = "blue"
at = [9, 2]
[[entities]]
name = "r1"
kind = "soldier"
team = "red"
at = [2, 1]
[[entities]]
name = "r2"
kind = "soldier"
team = "red"
at = [18, 6]
[[entities]]
name = "r3"
kind = "soldier"
team = "red"
at = [10, 11]
[[hidespots]]
at = [10, 7]
sides = ["south"]
low = true
"#;

const SCOUT: &str = r#"
local function ask(name, q) Note(name, FindPosition(q) or "none") end
function on_think()
  ask("standing", {Generation = {hidespots_from_target_around_puppet = 20}, Conditions = {canShoot_target = true}})
  ask("crouched", {Generation = {hidespots_from_target_around_puppet = 20}, Conditions = {canShootCrouched_target = true}})
  ask("door_near", {Generation = {doorways_around_puppet = 20}, Weights = {distance_from_puppet = -1.0}})
  ask("door_far", {Generation = {doorways_around_puppet = 20}, Weights = {distance_from_puppet = 1.0}})
  ask("unseen", {Generation = {grid_around_puppet = 4}, Conditions = {max_exposure = 0}, Weights = {distance_from_puppet = -1.0}})
  ask("watched", {Generation = {grid_around_puppet = 4}, Conditions = {min_exposure = 2}, Weights = {distance_from_puppet = -1.0}})
  ask("sniper", {Generation = {sniperSpots_from_target_around_puppet = 8}, Weights = {distance_from_target = 1.0}})
end
"#;

fn answers() -> Vec<(String, Json)> {
    let path = common::folder("criteria", SCENARIO, &[("scout.lua", SCOUT)]);
    std::fs::write(path.with_file_name("map.txt"), MAP).unwrap();
    let trace = common::play(&path).trace();
    assert!(!trace.contains("script_error"), "{trace}");
    trace
        .lines()
        .filter(|l| l.contains("\"entity\":\"scout\"") && l.contains("\"kind\":\"note\""))
        .filter(|l| !l.contains("position_query_failed"))
        .map(|l| {
            let v: Json = serde_json::from_str(l).unwrap();
            (v["name"].as_str().unwrap().to_owned(), v["value"].clone())
        })
        .collect()
}

fn map() -> Map {
    parse_ascii(MAP.as_bytes(), std::path::Path::new("map.txt"), &TerrainCosts::ascii()).unwrap()
}

fn centre(c: IVec2) -> Vec2 {
    c.as_vec2() + Vec2::splat(0.5)
}

fn point(v: &Json) -> Option<Vec2> {
    v.as_array().map(|a| Vec2::new(a[0].as_f64().unwrap() as f32, a[1].as_f64().unwrap() as f32))
}

const RANGE: f32 = 30.0;
const REDS: [IVec2; 3] = [IVec2::new(2, 1), IVec2::new(18, 6), IVec2::new(10, 11)];

/// How many reds see `cell`, within range.
fn exposure(map: &Map, cell: IVec2) -> usize {
    REDS.iter().filter(|&&r| centre(r).distance(centre(cell)) <= RANGE && line_of_sight(map, r, cell)).count()
}

/// The grid of half-width 4 around the scout in generation order (rows, then columns), open cells.
fn grid(map: &Map) -> Vec<IVec2> {
    let c = IVec2::new(2, 10);
    (-4..=4).flat_map(|j| (-4..=4).map(move |i| c + IVec2::new(i, j))).filter(|&p| map.passable(p)).collect()
}

/// The nearest cell of `cells` to the scout, first generated on ties.
fn nearest(cells: impl Iterator<Item = IVec2>) -> Option<Vec2> {
    let me = centre(IVec2::new(2, 10));
    let mut best: Option<(f32, Vec2)> = None;
    for c in cells {
        let d = centre(c).distance(me);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, centre(c)));
        }
    }
    best.map(|(_, p)| p)
}

#[test]
fn typed_generators_and_stance_and_exposure_criteria_pick_the_expected_points() {
    let map = map();
    let got: std::collections::BTreeMap<String, Json> = answers().into_iter().collect();
    let at = |name: &str| point(&got[name]);

    // Standing at the low-cover spot clears the cover; crouched behind it, the shot is blocked.
    assert_eq!(at("standing"), Some(Vec2::new(10.5, 7.5)));
    assert_eq!(got["crouched"], Json::from("none"));

    // The two one-cell gaps are the doorways; the two-cell gap is not.
    assert_eq!(at("door_near"), Some(Vec2::new(5.5, 4.5)));
    assert_eq!(at("door_far"), Some(Vec2::new(16.5, 7.5)));

    // Exposure counts red opponents only (the blue ally is no threat).
    let g = grid(&map);
    let unseen = nearest(g.iter().copied().filter(|&c| exposure(&map, c) == 0));
    let watched = nearest(g.iter().copied().filter(|&c| exposure(&map, c) >= 2));
    let counts: Vec<(IVec2, usize)> = g.iter().map(|&c| (c, exposure(&map, c))).collect();
    assert!(unseen.is_some() && watched.is_some(), "the map has both kinds of cell: {counts:?}");
    assert_ne!(unseen, watched);
    assert_eq!(at("unseen"), unseen);
    assert_eq!(at("watched"), watched);

    // Sniper spots: open cells within 8 of the scout, beside a wall (or the map's edge), 10 or more
    // from the target, seeing it; the farthest from the target wins, first generated on ties.
    let target = IVec2::new(10, 11);
    let me = centre(IVec2::new(2, 10));
    let beside_wall = |c: IVec2| {
        (-1..=1).flat_map(|y| (-1..=1).map(move |x| IVec2::new(x, y))).any(|d| d != IVec2::ZERO && !map.passable(c + d))
    };
    let mut best: Option<(f32, Vec2)> = None;
    for y in 0..12 {
        for x in 0..20 {
            let c = IVec2::new(x, y);
            let p = centre(c);
            let far = p.distance(centre(target));
            if map.passable(c)
                && p.distance(me) <= 8.0
                && beside_wall(c)
                && far >= 10.0
                && line_of_sight(&map, c, target)
            {
                let score = far.min(RANGE);
                if best.is_none_or(|(b, _)| score > b) {
                    best = Some((score, p));
                }
            }
        }
    }
    assert_eq!(at("sniper"), best.map(|(_, p)| p), "{best:?}");
}
