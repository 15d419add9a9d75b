//! Waypoint-graph navigation in play (`[navigation.graph]`): moves route over the declared nodes
//! — the nearest node a straight walk reaches from each end, the cheapest hops between them —
//! through the same per-tick budget, and a closed door takes its node out of the graph until it
//! opens. The expected routes come from the test's own Dijkstra over the declared edges.

use std::collections::BTreeMap;

use glam::Vec2;
use tactica::runtime::Runtime;
use tactica_engine::nav::PlanState;

/// 28 × 11: three rooms. The west wall (x = 9) has one gap at row 5; the east wall (x = 18)
/// has two, at rows 2 (a door, closed at first) and 8.
fn map_text() -> String {
    let mut rows = vec![vec![b'.'; 28]; 11];
    rows[0].fill(b'#');
    rows[10].fill(b'#');
    for (y, row) in rows.iter_mut().enumerate() {
        row[0] = b'#';
        row[27] = b'#';
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
    [("west", [4, 5]), ("gap", [9, 5]), ("mid", [13, 4]), ("north", [18, 2]), ("south", [18, 8]), ("east", [23, 5])];
const EDGES: [(&str, &str); 6] =
    [("west", "gap"), ("gap", "mid"), ("mid", "north"), ("mid", "south"), ("north", "east"), ("south", "east")];

fn centre(name: &str) -> Vec2 {
    let [x, y] = NODES.iter().find(|(n, _)| *n == name).unwrap().1;
    Vec2::new(x as f32 + 0.5, y as f32 + 0.5)
}

/// Dijkstra over the declared edges (each costing its length), leaving out `closed` nodes:
/// the cheapest node sequence and its cost.
fn dijkstra(from: &str, to: &str, closed: &[&str]) -> (Vec<String>, f64) {
    let mut dist: BTreeMap<&str, f64> = NODES.iter().map(|(n, _)| (*n, f64::INFINITY)).collect();
    let mut prev: BTreeMap<&str, &str> = BTreeMap::new();
    let mut done: Vec<&str> = Vec::new();
    dist.insert(from, 0.0);
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
            let nd = d + f64::from(centre(at).distance(centre(next)));
            if nd < dist[next] {
                dist.insert(next, nd);
                prev.insert(next, at);
            }
        }
    }
    let mut route = vec![to.to_string()];
    let mut at = to;
    while at != from {
        at = prev[at];
        route.push(at.to_string());
    }
    route.reverse();
    (route, dist[to])
}

const BUDGET: usize = 4;

fn scenario(name: &str) -> std::path::PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-graph-nav-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), map_text()).unwrap();
    let nodes: Vec<String> = NODES.iter().map(|(n, [x, y])| format!("{n} = [{x}, {y}]")).collect();
    let edges: Vec<String> = EDGES.iter().map(|(a, b)| format!("[\"{a}\", \"{b}\"]")).collect();
    let toml = format!(
        "map = \"map.txt\"\nticks = 200\n\n[navigation]\nbudget = {BUDGET}\n\n[navigation.graph]\nnodes = {{ {} }}\nedges = [{}]\n\n\
         [doors.north]\ncells = [[18, 2]]\n\n[[timeline]]\ntick = 30\nopen = [\"north\"]\n\n\
         [[entities]]\nname = \"early\"\nkind = \"walker\"\nat = [2, 8]\nspeed = 4\nactions = [{{ move_to = [25, 3] }}]\n\n\
         [[entities]]\nname = \"late\"\nkind = \"walker\"\nat = [2, 2]\nspeed = 4\nactions = [{{ sleep = 40 }}, {{ move_to = [25, 3] }}]\n",
        nodes.join(", "),
        edges.join(", ")
    );
    std::fs::write(dir.join("scenario.toml"), toml).unwrap();
    dir.join("scenario.toml")
}

#[test]
fn moves_route_over_the_declared_graph_and_a_closed_door_takes_its_node_out() {
    let path = scenario("play");
    let loaded = tactica::scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = Runtime::new(loaded, tactica::languages()).unwrap_or_else(|_| panic!("no scripts"));
    let names: Vec<String> = rt.world().nav().waypoint_graph().unwrap().1.to_vec();
    let early = rt.world().find("early").unwrap();
    let late = rt.world().find("late").unwrap();
    // The first route each walker follows, as node names, and the corners it walks.
    let mut seen: BTreeMap<&str, (Vec<String>, Vec<Vec2>)> = BTreeMap::new();
    for tick in 0..200 {
        rt.tick();
        let spent = rt.world().nav().spent_last_tick();
        assert!(spent <= BUDGET, "tick {tick} spent {spent}");
        for (who, id) in [("early", early), ("late", late)] {
            if let Some(plan) = rt.world().nav().plan(id)
                && let (PlanState::Following { points, .. }, Some(via)) = (&plan.state, &plan.via)
            {
                seen.entry(who).or_insert_with(|| (via.iter().map(|&n| names[n].clone()).collect(), points.clone()));
            }
        }
    }
    // Both start in the west room (west is the nearest node) and end next to east. The early
    // walker plans while the north door is closed, the late one after it opened at tick 30.
    let (closed_route, closed_cost) = dijkstra("west", "east", &["north"]);
    let (open_route, open_cost) = dijkstra("west", "east", &[]);
    assert_eq!(closed_route, ["west", "gap", "mid", "south", "east"]);
    assert_eq!(open_route, ["west", "gap", "mid", "north", "east"]);
    assert!(open_cost < closed_cost);
    assert_eq!(seen["early"].0, closed_route);
    assert_eq!(seen["late"].0, open_route);
    // Walked node to node, then straight to the target.
    let corners = |route: &[String]| {
        let mut c: Vec<Vec2> = route.iter().map(|n| centre(n)).collect();
        c.push(Vec2::new(25.5, 3.5));
        c
    };
    assert_eq!(seen["early"].1, corners(&closed_route));
    assert_eq!(seen["late"].1, corners(&open_route));
    // The `path` events' costs: the walk to the first node, the hops, the walk from the last.
    let trace = rt.trace();
    let costs: Vec<(String, f64)> = trace
        .lines()
        .filter(|l| l.contains("\"kind\":\"path\""))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            (v["entity"].as_str().unwrap().to_string(), v["cost"].as_f64().unwrap())
        })
        .collect();
    let goal = Vec2::new(25.5, 3.5);
    let expect = |from: Vec2, hops: f64| {
        f64::from(from.distance(centre("west"))) + hops + f64::from(centre("east").distance(goal))
    };
    // The early walker plans again from where it stands when the door opens.
    let who: Vec<&str> = costs.iter().map(|(w, _)| w.as_str()).collect();
    assert_eq!(who, ["early", "early", "late"]);
    assert!((costs[0].1 - expect(Vec2::new(2.5, 8.5), closed_cost)).abs() < 1e-4, "{costs:?}");
    assert!((costs[2].1 - expect(Vec2::new(2.5, 2.5), open_cost)).abs() < 1e-4, "{costs:?}");
    for id in [early, late] {
        assert_eq!(rt.world().entity(id).unwrap().cell(), glam::IVec2::new(25, 3));
    }
    assert_eq!(trace.matches("\"kind\":\"arrive\"").count(), 2);
}

#[test]
fn an_edge_across_a_wall_or_to_an_unknown_node_is_an_error_at_its_line() {
    let path = scenario("errors");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("[\"west\", \"gap\"]", "[\"west\", \"mid\"]")).unwrap();
    let Err(err) = tactica::scenario::load(&path) else { panic!("refused") };
    let err = err.to_string();
    assert!(err.contains("the edge `west`–`mid` crosses a wall"), "{err}");
    assert!(err.contains("scenario.toml:9:10:"), "{err}");
    std::fs::write(&path, text.replace("[\"west\", \"gap\"]", "[\"west\", \"gapp\"]")).unwrap();
    let Err(err) = tactica::scenario::load(&path) else { panic!("refused") };
    let err = err.to_string();
    assert!(err.contains("the edge names no node `gapp`"), "{err}");
    assert!(err.contains("gap"), "{err}");
}
