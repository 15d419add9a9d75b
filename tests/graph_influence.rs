//! Influence over a waypoint graph in play: `GraphInfluenceAt(team, node)` in `.tac`, Lua and
//! Rhai, every value checked against the test's own Dijkstra along the declared edges and the
//! linear falloff; a closed door's node carries no influence until the door opens.

use std::collections::BTreeMap;

mod common;

/// 28 × 11: two walls; the east one (x = 18) has a gap at row 8 and a door at row 2.
fn map_text() -> String {
    let mut rows = vec![vec![b'.'; 28]; 11];
    for (y, row) in rows.iter_mut().enumerate() {
        if y != 5 {
            row[9] = b'#';
        }
        if y != 2 && y != 8 {
            row[18] = b'#';
        }
    }
    rows.iter().map(|r| format!("{}\n", String::from_utf8_lossy(r))).collect()
}

const NODES: [(&str, [i32; 2]); 6] =
    [("east", [23, 5]), ("gap", [9, 5]), ("mid", [13, 4]), ("north", [18, 2]), ("south", [18, 8]), ("west", [4, 5])];
const EDGES: [(&str, &str); 6] =
    [("west", "gap"), ("gap", "mid"), ("mid", "north"), ("mid", "south"), ("north", "east"), ("south", "east")];
const RADIUS: f64 = 16.0;

fn centre(name: &str) -> (f64, f64) {
    let [x, y] = NODES.iter().find(|(n, _)| *n == name).unwrap().1;
    (f64::from(x) + 0.5, f64::from(y) + 0.5)
}

/// Walking distances along the edges from `from`, leaving out `closed` nodes (Dijkstra).
fn along_edges(from: &str, closed: &[&str]) -> BTreeMap<&'static str, f64> {
    let mut dist: BTreeMap<&str, f64> = NODES.iter().map(|(n, _)| (*n, f64::INFINITY)).collect();
    let start = NODES.iter().find(|(n, _)| *n == from).unwrap().0;
    dist.insert(start, 0.0);
    let mut done: Vec<&str> = Vec::new();
    while let Some((&at, &d)) =
        dist.iter().filter(|(n, d)| !done.contains(n) && d.is_finite()).min_by(|a, b| a.1.total_cmp(b.1))
    {
        done.push(at);
        for &(a, b) in &EDGES {
            let next = if a == at {
                b
            } else if b == at {
                a
            } else {
                continue;
            };
            if closed.contains(&next) {
                continue;
            }
            let ((x0, y0), (x1, y1)) = (centre(at), centre(next));
            // The graph stores edge lengths as f32, as the engine computes them.
            let len = f64::from((((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt()) as f32);
            if d + len < dist[next] {
                dist.insert(next, d + len);
            }
        }
    }
    dist
}

/// Team influence per node: each source `(team, node, strength)` projects
/// `strength × (1 − d / radius)` up to the radius.
fn expected(sources: &[(&str, &str, f64)], closed: &[&str]) -> BTreeMap<(String, String), f64> {
    let mut out = BTreeMap::new();
    for team in ["blue", "red"] {
        for (node, _) in NODES {
            out.insert((team.to_string(), node.to_string()), 0.0);
        }
    }
    for &(team, at, strength) in sources {
        for (node, d) in along_edges(at, closed) {
            if d <= RADIUS && !closed.contains(&node) {
                *out.get_mut(&(team.to_string(), node.to_string())).unwrap() += strength * (1.0 - d / RADIUS);
            }
        }
    }
    out
}

/// The scenario with a probe script in `ext`, in a folder of its own named after `test`
/// (tests run in parallel and must not share one).
fn scenario(test: &str, ext: &str) -> std::path::PathBuf {
    let nodes: Vec<String> = NODES.iter().map(|(n, [x, y])| format!("{n} = [{x}, {y}]")).collect();
    let edges: Vec<String> = EDGES.iter().map(|(a, b)| format!("[\"{a}\", \"{b}\"]")).collect();
    let toml = format!(
        "map = \"map.txt\"\nticks = 3\n\n[navigation.graph]\nnodes = {{ {} }}\nedges = [{}]\n\n\
         [field]\nteams = [\"blue\", \"red\"]\nradius = {RADIUS}\nstrength = 6.0\nfalloff = \"linear\"\n\n\
         [doors.north]\ncells = [[18, 2]]\n\n[[timeline]]\ntick = 1\nopen = [\"north\"]\n\n\
         [[entities]]\nname = \"scout\"\nkind = \"k\"\nteam = \"blue\"\nat = [2, 6]\nscripts = [\"probe.{ext}\"]\n\n\
         [[entities]]\nname = \"guard\"\nkind = \"k\"\nteam = \"red\"\nat = [25, 4]\n\n\
         [[entities]]\nname = \"sniper\"\nkind = \"k\"\nteam = \"red\"\nat = [14, 3]\nattributes = {{ influence = 3.0 }}\n",
        nodes.join(", "),
        edges.join(", ")
    );
    let mut body = String::new();
    for team in ["blue", "red"] {
        for (node, _) in NODES {
            let key = format!("{team}.{node}");
            body.push_str(&match ext {
                "rhai" => format!("  note(\"{key}\", graph_influence_at(\"{team}\", \"{node}\"));\n"),
                _ => format!("  Note(\"{key}\", GraphInfluenceAt(\"{team}\", \"{node}\"))\n"),
            });
        }
    }
    let script = match ext {
        "lua" => format!("function on_think()\n{body}end\n"),
        "rhai" => format!("fn on_think() {{\n{body}}}\n"),
        _ => format!("on think {{\n{}}}\n", body.replace(")\n", ");\n")),
    };
    let map = map_text();
    let path = common::folder(&format!("graph-influence-{test}-{ext}"), &toml, &[(&format!("probe.{ext}"), &script)]);
    std::fs::write(path.with_file_name("map.txt"), map).unwrap();
    path
}

#[test]
fn graph_influence_matches_an_independent_dijkstra_in_every_language() {
    // The scout links to `west`, the guard to `east`, the sniper (strength 3) to `mid`.
    let sources = [("blue", "west", 6.0), ("red", "east", 6.0), ("red", "mid", 3.0)];
    let closed = expected(&sources, &["north"]);
    let open = expected(&sources, &[]);
    assert_ne!(closed, open, "the door changes what reaches north");
    let mut per_language = Vec::new();
    for ext in ["tac", "lua", "rhai"] {
        let rt = common::run_ticks(&scenario("values", ext), 3);
        let notes = common::note_values(&rt.trace());
        assert_eq!(notes.len(), 36, "{ext}: three ticks of 12 values");
        // The door opens at the start of tick 1; the layers take it in at the end of that tick,
        // so scripts see it from tick 2.
        for (tick, want) in [(0, &closed), (1, &closed), (2, &open)] {
            for (k, ((team, node), v)) in want.iter().enumerate() {
                let got = notes[tick * 12 + k].as_f64().unwrap_or_else(|| panic!("{ext}: {:?}", notes[tick * 12 + k]));
                assert!((got - v).abs() < 1e-4, "{ext} tick {tick}: {team} at {node} is {got}, expected {v}");
            }
        }
        per_language.push(notes);
    }
    assert_eq!(per_language[0], per_language[1]);
    assert_eq!(per_language[1], per_language[2]);
    // Spot values, to see the numbers: blue at `gap` is 6 × (1 − 5/16) with the door either way.
    assert!((closed[&("blue".to_string(), "gap".to_string())] - 6.0 * (1.0 - 5.0 / 16.0)).abs() < 1e-6);
    assert_eq!(closed[&("red".to_string(), "north".to_string())], 0.0);
}

#[test]
fn an_unknown_node_is_a_script_error_with_a_suggestion() {
    let path = scenario("unknown", "lua");
    std::fs::write(
        path.with_file_name("probe.lua"),
        "function on_think()\n  Note(\"x\", GraphInfluenceAt(\"red\", \"nort\"))\nend\n",
    )
    .unwrap();
    let rt = common::run_ticks(&path, 1);
    let trace = rt.trace();
    assert!(trace.contains("script_error"), "{trace}");
    assert!(trace.contains("did you mean `north`?"), "{trace}");
}
