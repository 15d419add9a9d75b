//! Tile routes in play (`[steering.tile_routes]`, `tile_route` agents, `RunTileRoute`): the walker
//! takes the cells of the book's lines between the corners, one per `1/speed` seconds, placed at
//! the cell it started in; a closed route loops, a wall on the next cell holds it. The same
//! route from the scenario key and from `.tac`, Lua and Rhai walks the same cells.

use glam::IVec2;

mod common;

/// The cells the walker entered, in order, from the trace's `move` events.
fn cells_entered(trace: &str, who: &str) -> Vec<IVec2> {
    assert!(!trace.contains("script_error"), "{trace}");
    trace
        .lines()
        .filter(|l| l.contains("\"kind\":\"move\"") && l.contains(&format!("\"entity\":\"{who}\"")))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            IVec2::new(v["to"][0].as_i64().unwrap() as i32, v["to"][1].as_i64().unwrap() as i32)
        })
        .collect()
}

/// The route `box` from (1, 1): east three cells, south three, back along the diagonal, and
/// round again (the diagonal's cells are unambiguous on any line algorithm).
fn expected_box(laps: usize) -> Vec<IVec2> {
    let lap = [(2, 1), (3, 1), (4, 1), (4, 2), (4, 3), (4, 4), (3, 3), (2, 2), (1, 1)];
    lap.iter().cycle().take(lap.len() * laps).map(|&(x, y)| IVec2::new(x, y)).collect()
}

const ROUTES: &str = "[steering.tile_routes]\nbox = [[0, 0], [3, 0], [3, 3], [0, 0]]\nline = [[0, 0], [6, 0]]\n";

#[test]
fn a_closed_route_loops_from_the_scenario_key_and_from_every_language() {
    let toml = format!(
        "map = \"map.txt\"\nticks = 18\n\n{ROUTES}\n[[steering.agents]]\nentity = \"walker\"\ntile_route = \"box\"\n\n\
         [[entities]]\nname = \"walker\"\nkind = \"k\"\nat = [1, 1]\nspeed = 10\n"
    );
    let rt = common::play(&common::folder("tile-route-key", &toml, &[]));
    assert_eq!(cells_entered(&rt.trace(), "walker"), expected_box(2));
    for (ext, script) in [
        ("tac", "on spawn {\n  RunTileRoute(\"box\");\n}\n"),
        ("lua", "function on_spawn()\n  RunTileRoute(\"box\")\nend\n"),
        ("rhai", "fn on_spawn() {\n    run_tile_route(\"box\");\n}\n"),
    ] {
        let toml = format!(
            "map = \"map.txt\"\nticks = 18\n\n{ROUTES}\n[[entities]]\nname = \"walker\"\nkind = \"k\"\nat = [1, 1]\nspeed = 10\nscripts = [\"walk.{ext}\"]\n"
        );
        let file = format!("walk.{ext}");
        let rt = common::play(&common::folder(&format!("tile-route-{ext}"), &toml, &[(&file, script)]));
        assert_eq!(cells_entered(&rt.trace(), "walker"), expected_box(2), "{ext}");
    }
}

#[test]
fn a_wall_on_the_next_cell_holds_the_walker_and_an_open_route_ends() {
    // The map's wall is at x = 5, rows 2–3: the line from (2, 2) east stops at (4, 2); from
    // (2, 0) it runs its six cells and stops at its end.
    let toml = format!(
        "map = \"map.txt\"\nticks = 12\n\n{ROUTES}\n[[steering.agents]]\nentity = \"held\"\ntile_route = \"line\"\n\n\
         [[steering.agents]]\nentity = \"free\"\ntile_route = \"line\"\n\n\
         [[entities]]\nname = \"held\"\nkind = \"k\"\nat = [2, 2]\nspeed = 10\n\n\
         [[entities]]\nname = \"free\"\nkind = \"k\"\nat = [2, 0]\nspeed = 10\n"
    );
    let rt = common::play(&common::folder("tile-route-wall", &toml, &[]));
    let trace = rt.trace();
    assert_eq!(cells_entered(&trace, "held"), [IVec2::new(3, 2), IVec2::new(4, 2)]);
    let free: Vec<IVec2> = (3..=8).map(|x| IVec2::new(x, 0)).collect();
    assert_eq!(cells_entered(&trace, "free"), free);
    let w = rt.world();
    assert_eq!(w.entity(w.find("held").unwrap()).unwrap().cell(), IVec2::new(4, 2));
}

#[test]
fn an_unknown_route_is_an_error_with_a_suggestion() {
    let toml = format!(
        "map = \"map.txt\"\n\n{ROUTES}\n[[steering.agents]]\nentity = \"walker\"\ntile_route = \"bx\"\n\n\
         [[entities]]\nname = \"walker\"\nkind = \"k\"\nat = [1, 1]\n"
    );
    let err = tactica::scenario::load(&common::folder("tile-route-bad", &toml, &[])).err().unwrap().to_string();
    assert!(err.contains("scenario.toml:9:14: no tile route is named `bx`"), "{err}");
    assert!(err.contains("did you mean `box`?"), "{err}");
}

/// The marked cells of `lanes`: row 1 from x = 1 to 10 and column 6 from y = 0 to 5.
fn lanes() -> Vec<IVec2> {
    let mut cells: Vec<IVec2> = (1..=10).map(|x| IVec2::new(x, 1)).collect();
    cells.extend((0..=5).filter(|&y| y != 1).map(|y| IVec2::new(6, y)));
    cells
}

/// The book's wanderer on `lanes`, written here: from `start`, each step a marked neighbour other
/// than the cell just left, in the book's neighbour order, drawn with the world's generator as
/// seeded by the scenario; at a dead end, back.
fn wander(start: IVec2, steps: usize, seed: u64) -> Vec<IVec2> {
    let marked = lanes();
    let order = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];
    let mut rng = tactica_engine::world::WorldRng::new(seed);
    let (mut here, mut previous) = (start, start);
    let mut out = Vec::new();
    for _ in 0..steps {
        let choices: Vec<IVec2> = order
            .iter()
            .map(|&(dx, dy)| here + IVec2::new(dx, dy))
            .filter(|c| *c != previous && marked.contains(c))
            .collect();
        let next = if choices.is_empty() { previous } else { choices[rng.below(choices.len())] };
        previous = here;
        here = next;
        out.push(here);
    }
    out
}

const GRIDS: &str = "[steering.tile_grids]\nlanes = [[[1, 1], [10, 1]], [[6, 0], [6, 5]]]\n";

#[test]
fn a_wanderer_keeps_to_the_pattern_grid_from_the_key_and_every_language() {
    let expected = wander(IVec2::new(1, 1), 30, 7);
    assert!(expected.iter().any(|c| c.x == 6 && c.y != 1), "the walk turns into the column: {expected:?}");
    let toml = format!(
        "map = \"map.txt\"\nticks = 30\nseed = 7\n\n{GRIDS}\n[[steering.agents]]\nentity = \"walker\"\ntile_wander = \"lanes\"\n\n\
         [[entities]]\nname = \"walker\"\nkind = \"k\"\nat = [1, 1]\nspeed = 10\n"
    );
    let rt = common::play(&common::folder("tile-wander-key", &toml, &[]));
    assert_eq!(cells_entered(&rt.trace(), "walker"), expected);
    for (ext, script) in [
        ("tac", "on spawn {\n  WanderTileGrid(\"lanes\");\n}\n"),
        ("lua", "function on_spawn()\n  WanderTileGrid(\"lanes\")\nend\n"),
        ("rhai", "fn on_spawn() {\n    wander_tile_grid(\"lanes\");\n}\n"),
    ] {
        let toml = format!(
            "map = \"map.txt\"\nticks = 30\nseed = 7\n\n{GRIDS}\n[[entities]]\nname = \"walker\"\nkind = \"k\"\nat = [1, 1]\nspeed = 10\nscripts = [\"walk.{ext}\"]\n"
        );
        let file = format!("walk.{ext}");
        let rt = common::play(&common::folder(&format!("tile-wander-{ext}"), &toml, &[(&file, script)]));
        assert_eq!(cells_entered(&rt.trace(), "walker"), expected, "{ext}");
    }
}

#[test]
fn absurd_routes_and_grids_are_errors_not_allocations() {
    let route = "map = \"map.txt\"\n\n[steering.tile_routes]\nfar = [[-2000000000, 0], [2000000000, 0]]\n";
    let Err(err) = tactica::scenario::load(&common::folder("tile-route-far", route, &[])) else { panic!("refused") };
    assert!(err.to_string().contains("tile route `far`: pattern longer than its capacity of 4096 cells"), "{err}");
    let grid = "map = \"map.txt\"\n\n[steering.tile_grids]\nfar = [[[0, 0], [-2000000000, 0]]]\n";
    let Err(err) = tactica::scenario::load(&common::folder("tile-grid-far", grid, &[])) else { panic!("refused") };
    assert!(err.to_string().contains("scenario.toml:4:7: tile grid `far`: (-2000000000, 0) is off the map"), "{err}");
}

const STEPS: &str = "[steering.tile_steps]\nsquare = [{ forward = 3 }, { turn_right = 2 }, { forward = 2 }, { turn_right = 2 }, { forward = 3 }, { turn_right = 2 }, { forward = 2 }, { turn_right = 2 }]\n";

/// The control array `square` run on tiles, written here: directions in 45° steps, 0 = +y,
/// turning right counts up (+x is 2, −y is 4); the walker starts facing +x (heading 0).
fn run_square(start: IVec2, cells: usize) -> Vec<IVec2> {
    let dirs = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];
    let entries = [(3, 0), (0, 2), (2, 0), (0, 2), (3, 0), (0, 2), (2, 0), (0, 2)];
    let (mut here, mut dir, mut out) = (start, 2usize, Vec::new());
    for &(forward, turn) in entries.iter().cycle() {
        dir = (dir + turn) % 8;
        for _ in 0..forward {
            here += IVec2::new(dirs[dir].0, dirs[dir].1);
            out.push(here);
        }
        if out.len() >= cells {
            break;
        }
    }
    out.truncate(cells);
    out
}

#[test]
fn a_control_array_runs_on_tiles_from_the_scenario_key_and_every_language() {
    // Ten cells a lap and a tick for each of its four turns (14 ticks): 40 ticks are two laps
    // and 12 ticks of the third, whose 3 + 2 + 3 + 1 cells and 3 turns fill them: 29 cells.
    let expected = run_square(IVec2::new(1, 4), 29);
    assert_eq!(
        &expected[..10],
        &[(2, 4), (3, 4), (4, 4), (4, 3), (4, 2), (3, 2), (2, 2), (1, 2), (1, 3), (1, 4)]
            .map(|(x, y)| IVec2::new(x, y))
    );
    let toml = format!(
        "map = \"map.txt\"\nticks = 40\n\n{STEPS}\n[[steering.agents]]\nentity = \"walker\"\ntile_steps = \"square\"\n\n\
         [[entities]]\nname = \"walker\"\nkind = \"k\"\nat = [1, 4]\nspeed = 10\n"
    );
    let rt = common::play(&common::folder("tile-steps-key", &toml, &[]));
    assert_eq!(cells_entered(&rt.trace(), "walker"), expected);
    for (ext, script) in [
        ("tac", "on spawn {\n  RunTileSteps(\"square\");\n}\n"),
        ("lua", "function on_spawn()\n  RunTileSteps(\"square\")\nend\n"),
        ("rhai", "fn on_spawn() {\n    run_tile_steps(\"square\");\n}\n"),
    ] {
        let toml = format!(
            "map = \"map.txt\"\nticks = 40\n\n{STEPS}\n[[entities]]\nname = \"walker\"\nkind = \"k\"\nat = [1, 4]\nspeed = 10\nscripts = [\"walk.{ext}\"]\n"
        );
        let file = format!("walk.{ext}");
        let rt = common::play(&common::folder(&format!("tile-steps-{ext}"), &toml, &[(&file, script)]));
        assert_eq!(cells_entered(&rt.trace(), "walker"), expected, "{ext}");
    }
    let bad = STEPS.replace("{ turn_right = 2 }", "{ turn_right = 1.5 }");
    let toml = format!("map = \"map.txt\"\n\n{bad}");
    let Err(err) = tactica::scenario::load(&common::folder("tile-steps-bad", &toml, &[])) else { panic!("refused") };
    assert!(err.to_string().contains("tile steps `square`: 1.5 is not a whole number from 0 to 1000"), "{err}");
}
