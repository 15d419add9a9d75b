//! Map flooding, convolution filters and cellular automata as live layers a scenario declares,
//! read from `.tac`, Lua and Rhai; every value checked against a computation written here.

use std::path::PathBuf;

use glam::IVec2;
use tactica::runtime::Runtime;

mod common;

const MAP: &str = "\
..............
..............
......#.......
......#.......
......#.......
..............
..............
";
const W: i32 = 14;
const H: i32 = 7;

/// Cells the scripts ask about: west, east, behind the wall's ends, the middle column.
const PROBES: [[i32; 2]; 6] = [[1, 3], [12, 3], [6, 0], [6, 6], [5, 3], [7, 3]];

fn scenario(ext: &str) -> PathBuf {
    scenario_in(ext, ext)
}

fn scenario_in(ext: &str, folder: &str) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-field-tools-{folder}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), MAP).unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        format!(
            "map = \"map.txt\"\nticks = 1\n\n[field]\nteams = [\"blue\", \"red\"]\nlayers = [\"territory\"]\nradius = 12.0\nstrength = 6.0\n\n\
             [[field.filter]]\nname = \"smooth_red\"\nfrom = \"influence.red\"\nkernel = \"box\"\nboundary = 0.0\n\n\
             [[field.automaton]]\nname = \"blue_core\"\nfrom = \"influence.blue\"\nthresholds = [3.5]\nrule = \"life\"\nvalues = [0.0, 1.0]\n\n\
             [[entities]]\nname = \"b\"\nkind = \"k\"\nteam = \"blue\"\nat = [2, 3]\nscripts = [\"probe.{ext}\"]\n\n\
             [[entities]]\nname = \"r\"\nkind = \"k\"\nteam = \"red\"\nat = [9, 2]\n"
        ),
    )
    .unwrap();
    let mut body = String::new();
    for (i, [x, y]) in PROBES.iter().enumerate() {
        let (t, l) = (format!("TerritoryAt({x}, {y})"), format!("LayerAt(\"smooth_red\", {x}, {y})"));
        body.push_str(&match ext {
            "lua" => format!("  Note(\"t{i}\", {t}); Note(\"s{i}\", {l}); Note(\"a{i}\", LayerAt(\"blue_core\", {x}, {y}))\n"),
            "rhai" => format!("  note(\"t{i}\", territory_at({x}, {y})); note(\"s{i}\", layer_at(\"smooth_red\", {x}, {y})); note(\"a{i}\", layer_at(\"blue_core\", {x}, {y}));\n"),
            _ => format!("  Note(\"t{i}\", {t}); Note(\"s{i}\", {l}); Note(\"a{i}\", LayerAt(\"blue_core\", {x}, {y}));\n"),
        });
    }
    let script = match ext {
        "lua" => format!("function on_think()\n{body}end\n"),
        "rhai" => format!("fn on_think() {{\n{body}}}\n"),
        _ => format!("on think {{\n{body}}}\n"),
    };
    std::fs::write(dir.join(format!("probe.{ext}")), script).unwrap();
    dir.join("scenario.toml")
}

fn play(ext: &str) -> (Runtime, Vec<serde_json::Value>) {
    let rt = common::run_ticks(&scenario(ext), 1);
    let notes = common::note_values(&rt.trace());
    (rt, notes)
}

fn open(c: IVec2) -> bool {
    c.x >= 0
        && c.y >= 0
        && c.x < W
        && c.y < H
        && MAP.lines().nth(c.y as usize).unwrap().as_bytes()[c.x as usize] == b'.'
}

/// Walking distances from `from` (8-connected, diagonals √2, no corner cutting), by Dijkstra.
fn walking(from: IVec2) -> Vec<f64> {
    let (dist, _) = pathfinding::prelude::dijkstra_partial(
        &(from.x, from.y),
        |&(x, y)| {
            let c = IVec2::new(x, y);
            let mut v = Vec::new();
            for d in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let n = c + IVec2::new(d.0, d.1);
                let diag = d.0 != 0 && d.1 != 0;
                if open(n) && (!diag || (open(c + IVec2::new(d.0, 0)) && open(c + IVec2::new(0, d.1)))) {
                    v.push(((n.x, n.y), if diag { 1_414_214u64 } else { 1_000_000 }));
                }
            }
            v
        },
        |_| false,
    );
    let mut out = vec![f64::INFINITY; (W * H) as usize];
    out[(from.y * W + from.x) as usize] = 0.0;
    for ((x, y), (_, d)) in dist {
        out[(y * W + x) as usize] = d as f64 / 1e6;
    }
    out
}

#[test]
fn territory_filters_and_automata_are_live_layers_every_language_reads() {
    let (rt, lua) = play("lua");
    let (_, rhai) = play("rhai");
    let (_, tac) = play("tac");
    assert_eq!(lua, rhai, "Rhai reads what Lua reads");
    assert_eq!(lua, tac, ".tac reads what Lua reads");
    let world = rt.world();
    let maps = world.tactical().unwrap();

    // Territory: with equal strength and falloff, each cell goes to the member nearer by walking
    // (ties to the first team listed), as far as the influence reaches.
    let (blue, red) = (walking(IVec2::new(2, 3)), walking(IVec2::new(9, 2)));
    for (i, [x, y]) in PROBES.iter().enumerate() {
        let k = (y * W + x) as usize;
        let expected = if blue[k] <= red[k] && blue[k] < 12.0 {
            serde_json::json!("blue")
        } else if red[k] < 12.0 {
            serde_json::json!("red")
        } else {
            serde_json::Value::Null
        };
        assert_eq!(lua[3 * i], expected, "territory at ({x}, {y}): blue walks {}, red {}", blue[k], red[k]);
    }
    let owned: Vec<&serde_json::Value> = (0..PROBES.len()).map(|i| &lua[3 * i]).collect();
    assert!(owned.contains(&&serde_json::json!("blue")) && owned.contains(&&serde_json::json!("red")));

    // The filter: a 3 × 3 box average of red influence, zero beyond the edge.
    let red_layer = maps.layer("influence.red").unwrap();
    for (i, [x, y]) in PROBES.iter().enumerate() {
        let mut sum = 0.0f64;
        for dy in -1..=1 {
            for dx in -1..=1 {
                sum += f64::from(red_layer.get(IVec2::new(x + dx, y + dy)).unwrap_or(0.0));
            }
        }
        let got = lua[3 * i + 1].as_f64().unwrap();
        assert!((got - sum / 9.0).abs() < 1e-4, "smooth_red at ({x}, {y}) is {got}, the box average {}", sum / 9.0);
    }

    // The automaton: blue influence ≥ 3.5 is alive; one generation of Conway's Life.
    let blue_layer = maps.layer("influence.blue").unwrap();
    let alive = |c: IVec2| blue_layer.get(c).is_some_and(|v| v >= 3.5);
    let mut changed = 0;
    for y in 0..H {
        for x in 0..W {
            let c = IVec2::new(x, y);
            let n = (-1..=1)
                .flat_map(|dy| (-1..=1).map(move |dx| IVec2::new(dx, dy)))
                .filter(|&d| d != IVec2::ZERO && alive(c + d))
                .count();
            let next = if alive(c) { n == 2 || n == 3 } else { n == 3 };
            changed += usize::from(next != alive(c));
            assert_eq!(maps.value_at("blue_core", c), Some(if next { 1.0 } else { 0.0 }), "blue_core at {c}");
        }
    }
    assert!(changed > 0, "the generation changed something");
}

#[test]
fn a_filter_over_a_layer_that_is_not_kept_is_an_error_with_a_suggestion() {
    let path = scenario_in("lua", "misspelled");
    let text = std::fs::read_to_string(&path).unwrap().replace("from = \"influence.red\"", "from = \"influence.redd\"");
    std::fs::write(&path, text).unwrap();
    let err = tactica::scenario::load(&path).unwrap_err().to_string();
    assert!(
        err.contains("no per-cell layer is named `influence.redd`") && err.contains("did you mean `influence.red`?"),
        "{err}"
    );
}
