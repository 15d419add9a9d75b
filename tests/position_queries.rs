//! Tactical position queries in play. Every query example of the TPS reference — written as Lua
//! tables verbatim (fragments wrapped into one option), as Rhai maps, and as `.tps` query blocks a
//! `.tac` script runs by name — is asked by a scripted character of a running scenario with
//! walls, hidespots, a target, a goal and a squad. The point each language returns must be the one
//! a brute-force evaluation written here picks: every candidate generated, every condition and
//! weight computed from the map and the entities' positions, the best score winning and ties going
//! to the first point generated.

use std::path::PathBuf;

use glam::{IVec2, Vec2};
use tactica::runtime::Runtime;
use tactica_engine::grid::{Map, line_of_sight};

const MAP_W: usize = 32;

fn map_text() -> String {
    let mut rows = vec![vec![b'.'; MAP_W]; MAP_W];
    rows[18][9..=14].fill(b'#');
    for row in rows.iter_mut().take(17).skip(12) {
        row[20] = b'#';
    }
    rows[20][17] = b'#';
    rows[20][18] = b'#';
    rows.iter().map(|r| format!("{}\n", String::from_utf8_lossy(r))).collect()
}

/// (at, covered sides) of the scenario's hidespots.
const HIDESPOTS: [([i32; 2], &[&str]); 8] = [
    ([12, 17], &["south"]),
    ([16, 17], &["south"]),
    ([19, 14], &["east"]),
    ([10, 12], &[]),
    ([22, 20], &["north"]),
    ([13, 21], &["south", "west"]),
    ([8, 6], &["south"]),
    ([23, 12], &["south"]), // beside the target's line: a flanking spot
];

/// The reference's examples: (name, Lua table verbatim, Rhai map, query block).
const QUERIES: [(&str, &str, &str, &str); 14] = [
    (
        "min_distance",
        "{Generation = {grid_around_puppet = 10}, Conditions = {min_distance_from_puppet = 5}}",
        "#{Generation: #{grid_around_puppet: 10}, Conditions: #{min_distance_from_puppet: 5}}",
        "Generation { grid_around_puppet = 10 } Conditions { min_distance_from_puppet = 5 }",
    ),
    (
        "hidespots",
        "{Generation = {hidespots_from_target_around_puppet = 15}}",
        "#{Generation: #{hidespots_from_target_around_puppet: 15}}",
        "Generation = {hidespots_from_target_around_puppet = 15}",
    ),
    (
        "grid",
        "{Generation = {grid_around_puppet = 10}}",
        "#{Generation: #{grid_around_puppet: 10}}",
        "Generation = {grid_around_puppet = 10}",
    ),
    (
        "brink_cover",
        "{Generation = {circles_around_puppet = 10}, Conditions = {visible_from_target = false}, Weights = {distance_from_puppet = -1.0}}",
        "#{Generation: #{circles_around_puppet: 10}, Conditions: #{visible_from_target: false}, Weights: #{distance_from_puppet: -1.0}}",
        "Generation = {circles_around_puppet = 10}, Conditions = {visible_from_target = false},\nWeights = {distance_from_puppet = -1.0},",
    ),
    (
        "approach",
        "{Generation = {grid_around_puppet = 10}, Weights = {distance_from_referencePoint = -1.0}}",
        "#{Generation: #{grid_around_puppet: 10}, Weights: #{distance_from_referencePoint: -1.0}}",
        "Generation = {grid_around_puppet = 10} Weights = {distance_from_referencePoint = -1.0}",
    ),
    (
        "direct",
        "{Generation = {grid_around_puppet = 10}, Weights = {directness_to_referencePoint = 1.0}}",
        "#{Generation: #{grid_around_puppet: 10}, Weights: #{directness_to_referencePoint: 1.0}}",
        "Generation = {grid_around_puppet = 10} Weights = {directness_to_referencePoint = 1.0}",
    ),
    (
        "progress",
        "{Generation = {grid_around_puppet = 10}, Conditions = {min_directness_to_referencePoint = 0.5}}",
        "#{Generation: #{grid_around_puppet: 10}, Conditions: #{min_directness_to_referencePoint: 0.5}}",
        "Generation = {grid_around_puppet = 10} Conditions = {min_directness_to_referencePoint = 0.5}",
    ),
    (
        "retreat",
        "{Generation = {grid_around_puppet = 10}, Conditions = {max_directness_to_referencePoint = -0.5}}",
        "#{Generation: #{grid_around_puppet: 10}, Conditions: #{max_directness_to_referencePoint: -0.5}}",
        "Generation = {grid_around_puppet = 10} Conditions = {max_directness_to_referencePoint = -0.5}",
    ),
    (
        "flank",
        "{Generation = {hidespots_from_target_around_puppet = 15}, Conditions = {min_directness_to_target = -0.1, max_directness_to_target = 0.1}, Weights = {distance_from_puppet = -1.0}}",
        "#{Generation: #{hidespots_from_target_around_puppet: 15}, Conditions: #{min_directness_to_target: -0.1, max_directness_to_target: 0.1}, Weights: #{distance_from_puppet: -1.0}}",
        "Generation = {hidespots_from_target_around_puppet = 15},\nConditions = {min_directness_to_target = -0.1, max_directness_to_target = 0.1},\nWeights = {distance_from_puppet = -1.0}",
    ),
    (
        "zigzag",
        "{Generation = {hidespots_from_target_around_puppet = 15}, Conditions = {min_directness_to_target = 0.5}, Weights = {directness_to_target = -1.0}}",
        "#{Generation: #{hidespots_from_target_around_puppet: 15}, Conditions: #{min_directness_to_target: 0.5}, Weights: #{directness_to_target: -1.0}}",
        "Generation = {hidespots_from_target_around_puppet = 15},\nConditions = {min_directness_to_target = 0.5}, Weights = {directness_to_target = -1.0}",
    ),
    (
        "reach_first",
        "{Generation = {grid_around_puppet = 10}, Conditions = {canReachBefore_the_target = true}, Weights = {distance_from_target = -1.0}}",
        "#{Generation: #{grid_around_puppet: 10}, Conditions: #{canReachBefore_the_target: true}, Weights: #{distance_from_target: -1.0}}",
        "Generation = {grid_around_puppet = 10} Conditions = {canReachBefore_the_target = true} Weights = {distance_from_target = -1.0}",
    ),
    (
        "cohesion",
        "{Generation = {grid_around_puppet = 10}, Weights = {distance_to_squadCenter = -1.0}}",
        "#{Generation: #{grid_around_puppet: 10}, Weights: #{distance_to_squadCenter: -1.0}}",
        "Generation = {grid_around_puppet = 10} Weights = {distance_to_squadCenter = -1.0}",
    ),
    (
        "squad_hidespots",
        "{Generation = {hidespots_from_target_around_squadCenter = 10}}",
        "#{Generation: #{hidespots_from_target_around_squadCenter: 10}}",
        "Generation = {hidespots_from_target_around_squadCenter = 10}",
    ),
    (
        // Listing 26.1's shape: the preferred option finds nothing within 1 m, the fallback runs.
        "fallback",
        "{ {Generation = {hidespots_from_target_around_puppet = 1}}, {Generation = {grid_around_puppet = 10}, Conditions = {min_distance_from_puppet = 5, visible_from_target = false}} }",
        "[#{Generation: #{hidespots_from_target_around_puppet: 1}}, #{Generation: #{grid_around_puppet: 10}, Conditions: #{min_distance_from_puppet: 5, visible_from_target: false}}]",
        "",
    ),
];

fn scenario(ext: &str) -> PathBuf {
    scenario_in(ext, ext)
}

fn scenario_in(ext: &str, folder: &str) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-tps-{folder}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), map_text()).unwrap();
    let mut toml = String::from(
        "map = \"map.txt\"\nticks = 1\nplayer = \"enemy\"\n\n[queries]\nfiles = [\"reference.tps\"]\n\n\
         [[entities]]\nname = \"scout\"\nkind = \"soldier\"\nat = [15, 10]\nspeed = 2.0\n\
         attributes = { squad = \"alpha\", referencePoint = \"goal\" }\nscripts = [\"asker.EXT\"]\n\n\
         [[entities]]\nname = \"m1\"\nkind = \"soldier\"\nat = [12, 8]\nattributes = { squad = \"alpha\" }\n\n\
         [[entities]]\nname = \"m2\"\nkind = \"soldier\"\nat = [18, 7]\nattributes = { squad = \"alpha\" }\n\n\
         [[entities]]\nname = \"enemy\"\nkind = \"soldier\"\nat = [15, 24]\nspeed = 1.0\n\n\
         [[entities]]\nname = \"goal\"\nkind = \"marker\"\nat = [26, 10]\n",
    )
    .replace("EXT", ext);
    for (at, sides) in HIDESPOTS {
        let sides: Vec<String> = sides.iter().map(|s| format!("\"{s}\"")).collect();
        toml.push_str(&format!("\n[[hidespots]]\nat = [{}, {}]\nsides = [{}]\n", at[0], at[1], sides.join(", ")));
    }
    std::fs::write(dir.join("scenario.toml"), toml).unwrap();
    let mut blocks = String::new();
    let mut script = String::new();
    for (name, lua, rhai, block) in QUERIES {
        if block.is_empty() {
            blocks.push_str(&format!(
                "query {name} {{\n  option {{ Generation {{ hidespots_from_target_around_puppet = 1 }} }}\n  \
                 option {{ Generation {{ grid_around_puppet = 10 }} Conditions {{ min_distance_from_puppet = 5, visible_from_target = false }} }}\n}}\n"
            ));
        } else {
            blocks.push_str(&format!("query {name} {{\n  option {{\n    {block}\n  }}\n}}\n"));
        }
        script.push_str(&match ext {
            "lua" => format!("  Note(\"{name}\", FindPosition({lua}))\n"),
            "rhai" => format!("    note(\"{name}\", find_position({rhai}));\n"),
            _ => format!("  Note(\"{name}\", FindPosition(\"{name}\"));\n"),
        });
    }
    std::fs::write(dir.join("reference.tps"), blocks).unwrap();
    let script = match ext {
        "lua" => format!("function on_think()\n{script}end\n"),
        "rhai" => format!("fn on_think() {{\n{script}}}\n"),
        _ => format!("on think {{\n{script}}}\n"),
    };
    std::fs::write(dir.join(format!("asker.{ext}")), script).unwrap();
    dir.join("scenario.toml")
}

/// The points each query returned, by query name, from one language's trace.
fn play(ext: &str) -> Vec<(String, Option<Vec2>)> {
    let path = scenario(ext);
    let loaded = tactica::scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(loaded, tactica::languages())
        .unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")));
    rt.run(1);
    let trace = rt.trace();
    assert!(!trace.contains("script_error"), "{ext}: {trace}");
    let mut out = Vec::new();
    let notes = trace.lines().filter(|l| l.contains("\"kind\":\"note\"") && l.contains("\"entity\":\"scout\""));
    for line in notes.filter(|l| !l.contains("position_query_failed")) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let point =
            v["value"].as_array().map(|a| Vec2::new(a[0].as_f64().unwrap() as f32, a[1].as_f64().unwrap() as f32));
        out.push((v["name"].as_str().unwrap().to_owned(), point));
    }
    assert_eq!(
        out.len(),
        QUERIES.len(),
        "{ext}: {trace}\n{}",
        std::fs::read_to_string(path.with_file_name(format!("asker.{ext}"))).unwrap()
    );
    out
}

// ---- The brute force: the reference's rules, written out here. ----

struct Objects {
    puppet: Vec2,
    puppet_speed: f32,
    target: Vec2,
    target_speed: f32,
    reference: Vec2,
    squad_center: Vec2,
}

fn centre(c: [i32; 2]) -> Vec2 {
    IVec2::from_array(c).as_vec2() + Vec2::splat(0.5)
}

fn objects() -> Objects {
    Objects {
        puppet: centre([15, 10]),
        puppet_speed: 2.0,
        target: centre([15, 24]),
        target_speed: 1.0,
        reference: centre([26, 10]),
        squad_center: (centre([15, 10]) + centre([12, 8]) + centre([18, 7])) / 3.0,
    }
}

fn side(s: &str) -> Vec2 {
    match s {
        "north" => Vec2::NEG_Y,
        "east" => Vec2::X,
        "south" => Vec2::Y,
        _ => Vec2::NEG_X,
    }
}

#[derive(Clone, Copy)]
struct Point {
    p: Vec2,
    key: (i32, i32, i32), // (hidespot index or -1, cell x, cell y)
}

/// Hidespots within `radius` of `around` whose cover cone faces the target.
fn hidespots(o: &Objects, around: Vec2, radius: f32) -> Vec<Point> {
    let mut out = Vec::new();
    for (i, (at, sides)) in HIDESPOTS.iter().enumerate() {
        let p = centre(*at);
        if p.distance(around) > radius {
            continue;
        }
        // One covered side: a cone of ±45° about it; two adjacent sides: ±90° about their middle.
        let keep = match sides.len() {
            0 => true,
            1 => (o.target - p).normalize_or_zero().dot(side(sides[0])) >= std::f32::consts::FRAC_1_SQRT_2,
            _ => (o.target - p).normalize_or_zero().dot((side(sides[0]) + side(sides[1])).normalize()) >= 0.0,
        };
        if keep {
            out.push(Point { p, key: (i as i32, 0, 0) });
        }
    }
    out
}

fn grid(around: Vec2, r: i32) -> Vec<Point> {
    let o = around.floor() + Vec2::splat(0.5);
    let mut out = Vec::new();
    for j in -r..=r {
        for i in -r..=r {
            let p = o + Vec2::new(i as f32, j as f32);
            out.push(Point { p, key: (-1, p.x.floor() as i32, p.y.floor() as i32) });
        }
    }
    out
}

fn circles(around: Vec2, r: u32) -> Vec<Point> {
    let mut out = Vec::new();
    for ring in 1..=r {
        let radius = ring as f32;
        let count = ((std::f32::consts::TAU * radius).ceil() as u32).max(8);
        for k in 0..count {
            let a = std::f32::consts::TAU * k as f32 / count as f32;
            let p = around + Vec2::from_angle(a) * radius;
            out.push(Point { p, key: (-1, p.x.floor() as i32, p.y.floor() as i32) });
        }
    }
    out
}

fn directness(from: Vec2, p: Vec2, goal: Vec2) -> f64 {
    let moved = f64::from(from.distance(p));
    if moved <= 1e-6 {
        0.0
    } else {
        ((f64::from(from.distance(goal)) - f64::from(p.distance(goal))) / moved).clamp(-1.0, 1.0)
    }
}

fn norm(v: f64, lo: f64, hi: f64) -> f64 {
    ((v - lo) / (hi - lo)).clamp(0.0, 1.0)
}

/// The best point of one option, or `None` when no point is valid.
fn best(map: &Map, points: Vec<Point>, valid: impl Fn(Vec2) -> bool, score: impl Fn(Vec2) -> f64) -> Option<Vec2> {
    let mut seen = std::collections::BTreeSet::new();
    let mut winner: Option<(Vec2, f64)> = None;
    for pt in points {
        let cell = pt.p.floor().as_ivec2();
        if !map.passable(cell) || !seen.insert(if pt.key.0 >= 0 { pt.key } else { (-1, cell.x, cell.y) }) {
            continue;
        }
        if !valid(pt.p) {
            continue;
        }
        let s = score(pt.p);
        if winner.is_none_or(|(_, b)| s > b) {
            winner = Some((pt.p, s));
        }
    }
    winner.map(|(p, _)| p)
}

fn brute_force(map: &Map, name: &str) -> Option<Vec2> {
    let o = objects();
    let visible = |from: Vec2, p: Vec2| line_of_sight(map, from.floor().as_ivec2(), p.floor().as_ivec2());
    let none = |_: Vec2| 0.0;
    match name {
        "min_distance" => best(map, grid(o.puppet, 10), |p| p.distance(o.puppet) >= 5.0, none),
        "hidespots" => best(map, hidespots(&o, o.puppet, 15.0), |_| true, none),
        "grid" => best(map, grid(o.puppet, 10), |_| true, none),
        "brink_cover" => best(
            map,
            circles(o.puppet, 10),
            |p| !visible(o.target, p),
            |p| -norm(f64::from(p.distance(o.puppet)), 0.0, 30.0),
        ),
        "approach" => best(map, grid(o.puppet, 10), |_| true, |p| -norm(f64::from(p.distance(o.reference)), 0.0, 30.0)),
        "direct" => best(map, grid(o.puppet, 10), |_| true, |p| norm(directness(o.puppet, p, o.reference), -1.0, 1.0)),
        "progress" => best(map, grid(o.puppet, 10), |p| directness(o.puppet, p, o.reference) >= 0.5, none),
        "retreat" => best(map, grid(o.puppet, 10), |p| directness(o.puppet, p, o.reference) <= -0.5, none),
        "flank" => best(
            map,
            hidespots(&o, o.puppet, 15.0),
            |p| (-0.1..=0.1).contains(&directness(o.puppet, p, o.target)),
            |p| -norm(f64::from(p.distance(o.puppet)), 0.0, 30.0),
        ),
        "zigzag" => best(
            map,
            hidespots(&o, o.puppet, 15.0),
            |p| directness(o.puppet, p, o.target) >= 0.5,
            |p| -norm(directness(o.puppet, p, o.target), -1.0, 1.0),
        ),
        "reach_first" => best(
            map,
            grid(o.puppet, 10),
            |p| p.distance(o.puppet) / o.puppet_speed <= p.distance(o.target) / o.target_speed,
            |p| -norm(f64::from(p.distance(o.target)), 0.0, 30.0),
        ),
        "cohesion" => {
            best(map, grid(o.puppet, 10), |_| true, |p| -norm(f64::from(p.distance(o.squad_center)), 0.0, 30.0))
        }
        "squad_hidespots" => best(map, hidespots(&o, o.squad_center, 10.0), |_| true, none),
        "fallback" => best(map, hidespots(&o, o.puppet, 1.0), |_| true, none)
            .or_else(|| best(map, grid(o.puppet, 10), |p| p.distance(o.puppet) >= 5.0 && !visible(o.target, p), none)),
        other => panic!("no brute force for {other}"),
    }
}

#[test]
fn every_reference_query_picks_the_brute_force_point_in_all_three_languages() {
    let map = tactica_engine::grid::parse_ascii(
        map_text().as_bytes(),
        std::path::Path::new("map.txt"),
        &tactica_engine::grid::TerrainCosts::ascii(),
    )
    .unwrap();
    let lua = play("lua");
    let rhai = play("rhai");
    let tac = play("tac");
    let mut distinct = std::collections::BTreeSet::new();
    for (k, (name, _, _, _)) in QUERIES.iter().enumerate() {
        let expected = brute_force(&map, name);
        assert_eq!(lua[k].0, *name);
        assert_eq!(lua[k].1, expected, "{name} from Lua: the brute force picks {expected:?}");
        assert_eq!(rhai[k], lua[k], "{name}: Rhai and Lua disagree");
        assert_eq!(tac[k], lua[k], "{name}: the .tps block (run from .tac) and Lua disagree");
        if let Some(p) = expected {
            distinct.insert((p.x.to_bits(), p.y.to_bits()));
        }
    }
    eprintln!("{} distinct answers; flank {:?}", distinct.len(), lua.iter().find(|(n, _)| n == "flank"));
    // The answers are not all the same point: the queries discriminate.
    assert!(distinct.len() >= 8, "only {} distinct answers", distinct.len());
}

#[test]
fn misspelled_keys_and_numbers_for_booleans_are_errors_that_say_what_to_write() {
    let dir = scenario_in("lua", "misspelled").parent().unwrap().to_path_buf();
    std::fs::write(
        dir.join("asker.lua"),
        "function on_think()\n  FindPosition({Generation = {grid_around_puppet = 10}, Conditions = {min_distanse_from_puppet = 5}})\nend\n",
    )
    .unwrap();
    let loaded = tactica::scenario::load(&dir.join("scenario.toml")).unwrap();
    let mut rt = Runtime::new(loaded, tactica::languages()).unwrap_or_else(|_| panic!("loads"));
    rt.run(1);
    let trace = rt.trace();
    assert!(trace.contains("script_error") && trace.contains("min_distanse_from_puppet"), "{trace}");
    assert!(trace.contains("distance"), "the error suggests the right keyword: {trace}");
}
