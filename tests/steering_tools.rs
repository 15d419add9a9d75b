//! The book's tile chase and potential-field movement in play, started from a scenario's
//! `[[steering.agents]]` and from scripts in `.tac`, Lua and Rhai.

use glam::IVec2;
use tactica::runtime::Runtime;

mod common;

/// The book's line (Ex. 2-4…2-7) written out from its listing: deltas doubled before the error
/// term, the column axis major only when strictly longer.
fn book_line(start: IVec2, end: IVec2) -> Vec<IVec2> {
    let (mut col, mut row) = (start.x, start.y);
    let (step_col, step_row) = (if end.x < col { -1 } else { 1 }, if end.y < row { -1 } else { 1 });
    let (delta_col, delta_row) = (((end.x - col) * 2).abs(), ((end.y - row) * 2).abs());
    let mut out = vec![start];
    if delta_col > delta_row {
        let mut fraction = delta_row * 2 - delta_col;
        while col != end.x {
            if fraction >= 0 {
                row += step_row;
                fraction -= delta_col;
            }
            col += step_col;
            fraction += delta_row;
            out.push(IVec2::new(col, row));
        }
    } else {
        let mut fraction = delta_col * 2 - delta_row;
        while row != end.y {
            if fraction >= 0 {
                col += step_col;
                fraction -= delta_row;
            }
            row += step_row;
            fraction += delta_col;
            out.push(IVec2::new(col, row));
        }
    }
    out
}

fn folder(name: &str, map: &str, scenario: &str, scripts: &[(&str, &str)]) -> std::path::PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-steer-tools-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), map).unwrap();
    std::fs::write(dir.join("scenario.toml"), scenario).unwrap();
    for (f, t) in scripts {
        std::fs::write(dir.join(f), t).unwrap();
    }
    dir.join("scenario.toml")
}

fn run(path: &std::path::Path, ticks: u64) -> Runtime {
    common::run_ticks(path, ticks)
}

fn cells_entered(trace: &str, who: &str) -> Vec<IVec2> {
    trace
        .lines()
        .filter(|l| l.contains(&format!("\"entity\":\"{who}\"")) && l.contains("\"kind\":\"move\""))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            IVec2::new(v["to"][0].as_i64().unwrap() as i32, v["to"][1].as_i64().unwrap() as i32)
        })
        .collect()
}

const OPEN: &str = "....................\n....................\n....................\n....................\n....................\n....................\n....................\n....................\n";

#[test]
fn the_tile_chase_walks_the_books_line_in_every_language_and_catches() {
    let expected = book_line(IVec2::new(1, 1), IVec2::new(17, 6));
    let mut traces = Vec::new();
    for (ext, script) in [
        ("lua", "function on_spawn() TileChase(FindEntity(\"prey\")) end\n"),
        ("rhai", "fn on_spawn() { tile_chase(find_entity(\"prey\")); }\n"),
        ("tac", "on spawn { TileChase(FindEntity(\"prey\")); }\n"),
    ] {
        let scenario = format!(
            "map = \"map.txt\"\n[[entities]]\nname = \"hunter\"\nkind = \"troll\"\nat = [1, 1]\nspeed = 5.0\nscripts = [\"h.{ext}\"]\n\n\
             [[entities]]\nname = \"prey\"\nkind = \"elf\"\nat = [17, 6]\n"
        );
        let rt = run(&folder(ext, OPEN, &scenario, &[(&format!("h.{ext}"), script)]), 60);
        let trace = rt.trace();
        assert!(!trace.contains("script_error"), "{trace}");
        assert_eq!(cells_entered(&trace, "hunter"), expected[1..], "{ext}: the book's cells, one by one");
        assert!(trace.contains("\"entity\":\"hunter\",\"kind\":\"action\",\"action\":\"caught\",\"detail\":\"prey\""));
        // Five cells a second at ten ticks a second: a cell every second tick.
        let first = trace.lines().find(|l| l.contains("\"entity\":\"hunter\",\"kind\":\"move\"")).unwrap();
        assert!(first.starts_with("{\"tick\":1,"), "{first}");
        traces.push(trace);
    }
    assert_eq!(traces[0], traces[1]);
    assert_eq!(traces[0], traces[2]);
}

#[test]
fn a_wall_on_the_line_stops_the_tile_chase_as_the_book_has_it() {
    let map = "..........\n.....#....\n..........\n";
    let scenario = "map = \"map.txt\"\n[[entities]]\nname = \"hunter\"\nkind = \"troll\"\nat = [1, 1]\nspeed = 10.0\n\n\
                    [[entities]]\nname = \"prey\"\nkind = \"elf\"\nat = [8, 1]\n\n\
                    [[steering.agents]]\nentity = \"hunter\"\ntile_chase = \"prey\"\n";
    let rt = run(&folder("wall", map, scenario, &[]), 30);
    let w = rt.world();
    assert_eq!(w.entity(w.find("hunter").unwrap()).unwrap().cell(), IVec2::new(4, 1), "stopped before the wall");
}

#[test]
fn a_potential_field_mover_closes_on_its_target_past_a_pillar_and_keeps_its_distance() {
    // One pillar beside the straight line: the avoidance law pushes the drone past it. (A wall
    // square across the line would hold it in the potentials' well — the method's known local
    // minimum, which the navigation service's planned paths do not have.)
    let map = "\
....................
....................
....................
....................
.........#..........
....................
....................
....................
....................
";
    let scenario = "map = \"map.txt\"\n[[entities]]\nname = \"drone\"\nkind = \"bot\"\nat = [2, 5]\nspeed = 4.0\n\n\
                    [[entities]]\nname = \"beacon\"\nkind = \"marker\"\nat = [16, 5]\n\n\
                    [[steering.agents]]\nentity = \"drone\"\npotential = \"beacon\"\n";
    let path = folder("potential", map, scenario, &[]);
    let loaded = tactica::scenario::load(&path).unwrap();
    let mut rt = Runtime::new(loaded, tactica::languages()).unwrap_or_else(|_| panic!("loads"));
    let beacon = glam::Vec2::new(16.5, 5.5);
    let mut nearest_pillar = f32::INFINITY;
    let mut closest = f32::INFINITY;
    for _ in 0..300 {
        rt.tick();
        let w = rt.world();
        let drone = w.entity(w.find("drone").unwrap()).unwrap();
        assert!(w.map().passable(drone.cell()), "the drone is never inside the wall");
        closest = closest.min(drone.position.distance(beacon));
        nearest_pillar = nearest_pillar.min(drone.position.distance(glam::Vec2::new(9.5, 4.5)));
    }
    assert!(nearest_pillar > 0.5, "the pillar pushed it off ({nearest_pillar})");
    // The chase law pulls from afar and pushes inside two body lengths: the drone gets past the
    // pillar and settles near the beacon without running into it.
    assert!(closest < 3.0, "closest approach {closest}");
    assert!(closest > 0.5, "the potential keeps its distance ({closest})");
    let w = rt.world();
    assert_eq!(w.steering().behaviour(w.find("drone").unwrap()).map(|b| b.name()), Some("potential"));
}

/// The left-hand rule written out: facing right at first; each move tries the facing's left,
/// then straight on, then its right, then back (y grows downwards, so up is −y).
fn left_hand(map: &str, start: IVec2, steps: usize) -> Vec<IVec2> {
    let open = |c: IVec2| {
        c.x >= 0
            && c.y >= 0
            && map.lines().nth(c.y as usize).is_some_and(|r| r.as_bytes().get(c.x as usize) == Some(&b'.'))
    };
    let clockwise = [IVec2::new(0, -1), IVec2::new(1, 0), IVec2::new(0, 1), IVec2::new(-1, 0)];
    let (mut at, mut facing) = (start, 1usize);
    let mut out = Vec::new();
    for _ in 0..steps {
        let Some(d) = [3, 0, 1, 2].into_iter().map(|k| (facing + k) % 4).find(|&d| open(at + clockwise[d])) else {
            break;
        };
        at += clockwise[d];
        facing = d;
        out.push(at);
    }
    out
}

#[test]
fn a_wall_tracer_follows_the_left_hand_rule_in_every_language() {
    let map = "\
##########
#....#...#
#....#...#
#........#
##########
";
    let expected = left_hand(map, IVec2::new(2, 2), 20);
    let mut traces = Vec::new();
    for (ext, script) in [
        ("lua", "function on_spawn() TraceWalls() end\n"),
        ("rhai", "fn on_spawn() { trace_walls(); }\n"),
        ("tac", "on spawn { TraceWalls(); }\n"),
    ] {
        let scenario = format!(
            "map = \"map.txt\"\n[[entities]]\nname = \"troll\"\nkind = \"troll\"\nat = [2, 2]\nspeed = 10.0\nscripts = [\"t.{ext}\"]\n"
        );
        let rt = run(&folder(&format!("walls-{ext}"), map, &scenario, &[(&format!("t.{ext}"), script)]), 20);
        let trace = rt.trace();
        assert_eq!(cells_entered(&trace, "troll"), expected[..cells_entered(&trace, "troll").len()], "{ext}");
        assert!(cells_entered(&trace, "troll").len() >= 15, "{ext}: one cell a tick");
        traces.push(trace);
    }
    assert_eq!(traces[0], traces[1]);
    assert_eq!(traces[0], traces[2]);
}

#[test]
fn an_obstacle_tracer_goes_round_a_wall_and_catches_its_target() {
    let map = "\
............
.....#......
.....#......
.....#......
............
";
    let scenario = "map = \"map.txt\"\n[[entities]]\nname = \"hunter\"\nkind = \"troll\"\nat = [1, 2]\nspeed = 10.0\n\n\
                    [[entities]]\nname = \"prey\"\nkind = \"elf\"\nat = [10, 2]\n\n\
                    [[steering.agents]]\nentity = \"hunter\"\ntrace_toward = \"prey\"\n";
    let rt = run(&folder("around", map, scenario, &[]), 60);
    let trace = rt.trace();
    assert!(
        trace.contains("\"entity\":\"hunter\",\"kind\":\"action\",\"action\":\"caught\",\"detail\":\"prey\""),
        "{trace}"
    );
    let cells = cells_entered(&trace, "hunter");
    assert!(cells.iter().all(|c| c.x != 5 || !(1..=3).contains(&c.y)), "never in the wall: {cells:?}");
    assert!(cells.iter().any(|c| c.x == 5), "it went round the wall's end");
}

#[test]
fn a_follower_walks_the_trail_its_target_leaves() {
    let map = "....................\n....................\n....................\n";
    let scenario = "map = \"map.txt\"\n[[entities]]\nname = \"hound\"\nkind = \"dog\"\nat = [0, 1]\nspeed = 1.5\n\n\
                    [[entities]]\nname = \"fox\"\nkind = \"fox\"\nat = [1, 1]\nspeed = 2.0\n\
                    actions = [{ follow_path = [[6, 1], [6, 0], [12, 0], [12, 2], [18, 2]] }]\n\n\
                    [[steering.agents]]\nentity = \"hound\"\nfollow_trail = \"fox\"\n";
    let rt = run(&folder("trail", map, scenario, &[]), 200);
    let trace = rt.trace();
    let fox: Vec<IVec2> = cells_entered(&trace, "fox");
    let hound = cells_entered(&trace, "hound");
    // Until the fox has dropped a crumb within its reach the hound wanders; from the first crumb
    // it steps on, every cell it enters is a cell the fox entered, in the fox's order.
    let first = hound.iter().position(|c| fox.contains(c)).expect("the hound finds the trail");
    let on_trail = &hound[first..];
    assert!(on_trail.len() >= 15, "the hound follows the trail a long way: {hound:?}");
    let mut k = 0;
    for c in on_trail {
        let at = fox[k..].iter().position(|f| f == c).unwrap_or_else(|| panic!("{c} is off the trail {fox:?}"));
        k += at;
    }
    // It takes the newest crumb in reach, so it cuts the fox's corners, but it goes round them.
    assert!(on_trail.iter().any(|c| c.y == 0) && on_trail.iter().any(|c| c.y == 2 && c.x > 12), "{on_trail:?}");
    assert!(
        trace.contains("\"entity\":\"hound\",\"kind\":\"action\",\"action\":\"caught\",\"detail\":\"fox\""),
        "{trace}"
    );
}
