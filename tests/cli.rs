//! The `tactica` binary as a user meets it: exit codes, help, the readable log, the hash.

use std::process::{Command, Output};

fn tactica(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().expect("the binary runs")
}

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn run_plays_the_example_and_prints_a_readable_log_and_the_hash() {
    let trace = tempfile::Builder::new().prefix("tactica-cli-").tempdir().unwrap().keep().join("trace.jsonl");
    let o = tactica(&["run", "examples/harbour", "--trace", trace.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("lookout says: \"Lock's open. Go!\""), "{out}");
    assert!(out.contains("runner is released by `breach`"), "{out}");
    assert!(out.contains("guard enters trapdoor"), "{out}");
    let written = std::fs::read_to_string(&trace).unwrap();
    let hash = tactica::runtime::trace_hash(&written);
    assert!(out.trim_end().ends_with(&format!("trace sha256 {hash}")), "{out}");
    // Fewer ticks, another seed: still fine, a shorter trace.
    let o = tactica(&["run", "examples/harbour/scenario.toml", "--ticks", "10", "--seed", "3", "-q"]);
    let (out, _) = text(&o);
    assert!(o.status.success());
    assert!(out.contains("Played 10 ticks (1.0 s of game time)"), "{out}");
    assert!(!out.contains("[    0]"), "quiet prints only the summary");
}

#[test]
fn exit_codes_are_0_ok_1_errors_2_usage() {
    assert_eq!(tactica(&["check", "examples/harbour"]).status.code(), Some(0));
    let bad = tempfile::Builder::new().prefix("tactica-cli-bad-").tempdir().unwrap().keep();
    std::fs::write(bad.join("scenario.toml"), "map = \"m.txt\"\nsed = 1\n").unwrap();
    std::fs::write(bad.join("m.txt"), "..\n.q\n").unwrap();
    let o = tactica(&["check", bad.to_str().unwrap(), bad.join("m.txt").to_str().unwrap()]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(err.contains("scenario.toml:2:1: unknown field `sed`"), "{err}");
    assert!(err.contains("hint: did you mean `seed`?"), "{err}");
    assert!(err.contains("m.txt:2:2: unknown tile 'q'"), "{err}");
    assert!(out.contains("2 files checked, 2 errors"), "{out}");
    assert_eq!(tactica(&["run", bad.join("scenario.toml").to_str().unwrap()]).status.code(), Some(1));
    assert_eq!(tactica(&["run"]).status.code(), Some(2));
    assert_eq!(tactica(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(tactica(&["run", "x", "--ticks", "many"]).status.code(), Some(2));
}

#[test]
fn every_command_has_help() {
    for args in [&["--help"][..], &["run", "--help"], &["check", "--help"]] {
        let o = tactica(args);
        let (out, _) = text(&o);
        assert!(o.status.success(), "{args:?}");
        assert!(out.contains("Usage: tactica"), "{args:?}: {out}");
    }
}

#[test]
fn query_prints_the_parsed_query_every_candidate_and_the_result() {
    let dir = tempfile::Builder::new().prefix("tactica-cli-query-").tempdir().unwrap().keep();
    std::fs::write(dir.join("m.txt"), ".......\n.......\n...#...\n.......\n.......\n").unwrap();
    let q = "query hide {\n option {\n  Generation { grid_around_puppet = 2 }\n  Conditions { visible_from_target = false }\n  Weights { distance_from_puppet = -1 }\n }\n}\n";
    std::fs::write(dir.join("q.tac"), q).unwrap();
    let (m, f) = (dir.join("m.txt"), dir.join("q.tac"));
    let o = tactica(&["query", m.to_str().unwrap(), f.to_str().unwrap(), "--puppet", "3.5,3.5", "--target", "3.5,0.5"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.starts_with("query hide\n  option 1\n    generate grid_around_puppet (radius 2, spacing 1)\n"),
        "{out}"
    );
    assert!(out.contains("option 1 (25 candidates)"), "{out}");
    // The wall at (3, 2) hides only the cells straight behind it from the target at (3, 0).
    assert!(out.contains("result 1: (3.50, 3.50) score 0.000 option 1"), "{out}");
    let bad = dir.join("bad.tac");
    std::fs::write(&bad, "query q { option { Generation { gird_around_puppet = 2 } } }").unwrap();
    let o = tactica(&["query", m.to_str().unwrap(), bad.to_str().unwrap(), "--puppet", "1,1"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o).1.contains("unknown keyword `gird`"), "{}", text(&o).1);
}

#[test]
fn render_lists_layers_suggests_names_and_draws_a_layer_with_its_legend() {
    let list = tactica(&["render", "examples/tactics", "--layer", "list"]);
    let (out, err) = text(&list);
    assert_eq!(list.status.code(), Some(0), "{err}");
    let names: Vec<&str> = out.lines().map(|l| l.split('\t').next().unwrap()).collect();
    for layer in ["influence.blue", "influence.red", "cover", "frontier", "tension", "exposure.red"] {
        assert!(names.contains(&layer), "{layer} missing from {names:?}");
    }

    let wrong = tactica(&["render", "examples/tactics", "--layer", "influense.blue", "-o", "x.png"]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(text(&wrong).1.contains("did you mean `influence.blue`?"), "{}", text(&wrong).1);

    // The same tick computed through the library, independently of the command.
    let scenario = tactica::scenario::load(std::path::Path::new("examples/tactics/scenario.toml")).unwrap();
    let mut rt = tactica::runtime::Runtime::new(scenario, tactica::languages()).unwrap();
    rt.run(20);
    let world = rt.world();
    let maps = world.tactical().expect("the example keeps layers");
    let map = world.map();
    let near_entity = |c: glam::IVec2| world.entities().any(|(_, e)| (e.cell() - c).abs().max_element() <= 1);
    let open: Vec<(glam::IVec2, f32)> = (0..map.len())
        .map(|i| map.cell_at(i))
        .filter(|&c| map.passable(c))
        .map(|c| (c, maps.value_at("influence.blue", c).unwrap()))
        .collect();
    let low = open.iter().map(|p| p.1).fold(f32::INFINITY, f32::min);
    let high = open.iter().map(|p| p.1).fold(f32::NEG_INFINITY, f32::max);
    assert!(high > low, "the influence varies over the field");

    let dir = tempfile::Builder::new().prefix("tactica-render-").tempdir().unwrap().keep();
    let file = dir.join("influence.png");
    let drawn = tactica(&[
        "render",
        "examples/tactics",
        "--layer",
        "influence.blue",
        "--tick",
        "20",
        "--cell-px",
        "4",
        "-o",
        file.to_str().unwrap(),
    ]);
    let (out, err) = text(&drawn);
    assert_eq!(drawn.status.code(), Some(0), "{err}");
    let range = format!("{}..{}", tactica::render::number_text(low), tactica::render::number_text(high));
    assert!(out.contains(&format!("(influence.blue at tick 20, {range})")), "{out}");

    let img = image::open(&file).unwrap().to_rgb8();
    let (w, h) = (map.width() * 4, map.height() * 4);
    assert_eq!(img.dimensions(), (w, h + tactica::render::LEGEND_PX));
    let at = |c: glam::IVec2| img.get_pixel(c.x as u32 * 4 + 2, c.y as u32 * 4 + 2).0;
    let wall = (0..map.len()).map(|i| map.cell_at(i)).find(|&c| !map.passable(c)).unwrap();
    assert_eq!(at(wall), [60, 60, 70], "walls keep the wall colour");
    // The legend ramp runs from the lowest value's colour (left) to the highest's (right); a plain
    // open cell far from any arrow holding the highest or lowest value has exactly that colour.
    let ramp_y = h + 8;
    let (ramp_low, ramp_high) = (img.get_pixel(0, ramp_y).0, img.get_pixel(w - 1, ramp_y).0);
    let plain =
        |v: f32| open.iter().find(|&&(c, x)| x == v && map.cost(c) == Some(1.0) && !near_entity(c)).map(|p| p.0);
    if let Some(c) = plain(high) {
        assert_eq!(at(c), ramp_high, "the strongest cell {c} is drawn in the ramp's top colour");
    }
    if let Some(c) = plain(low) {
        assert_eq!(at(c), ramp_low, "the weakest cell {c} is drawn in the ramp's bottom colour");
    }
    assert!(plain(high).is_some() || plain(low).is_some(), "some extreme cell is a plain open cell");
    // Blue's influence ramps from pale to blue: its strongest area is the deepest blue.
    assert!(ramp_high[2] > ramp_high[0] && ramp_low[0] > ramp_high[0], "high is blue, low is pale");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn render_draws_a_position_query_record_with_each_candidate_coloured_by_its_fate() {
    let dir = tempfile::Builder::new().prefix("tactica-render-query-").tempdir().unwrap().keep();
    let file = dir.join("query.png");
    let o = tactica(&[
        "render",
        "examples/cover",
        "--query",
        "hide_from_sniper",
        "--entity",
        "scout",
        "-o",
        file.to_str().unwrap(),
    ]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // The grid is 17 × 17 points; the cell beside the scout is shadowed by the wall's end.
    assert!(out.contains("chose (14.50, 8.50)"), "{out}");
    assert!(out.contains("1 chosen (blue)"), "{out}");
    let img = image::open(&file).unwrap().to_rgb8();
    assert_eq!((img.width(), img.height()), (32 * 16, 24 * 16));
    // The chosen point's rings are drawn in blue round the centre of cell (14, 8).
    let blue = (14 * 16..15 * 16)
        .flat_map(|x| (8 * 16..9 * 16).map(move |y| (x, y)))
        .filter(|&(x, y)| img.get_pixel(x, y).0 == [20, 90, 230])
        .count();
    assert!(blue > 10, "{blue} blue pixels in the chosen cell");
    // Points the sniper sees and a condition rejected are red, next to it.
    let red = (0..img.width())
        .flat_map(|x| (0..img.height()).map(move |y| (x, y)))
        .filter(|&(x, y)| img.get_pixel(x, y).0 == [210, 40, 40])
        .count();
    assert!(red > 10, "{red} red pixels");

    let unknown =
        tactica(&["render", "examples/cover", "--query", "hide_from_snipr", "--entity", "scout", "-o", "x.png"]);
    assert_eq!(unknown.status.code(), Some(1));
    assert!(text(&unknown).1.contains("did you mean `hide_from_sniper`?"), "{}", text(&unknown).1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_cover_example_scout_runs_to_the_hidespot_its_query_chose() {
    let o = tactica(&["run", "examples/cover"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // Hard cover first, then the nearest: the south-facing hidespot at (12, 13), 5.8 m away.
    assert!(out.contains("scout notes cover = (12.5, 13.5)"), "{out}");
    assert!(out.contains("scout arrives at (12, 13)"), "{out}");
}

#[test]
fn query_on_a_scenario_reads_its_hidespots_and_entities_as_a_running_script_does() {
    let o = tactica(&["query", "examples/cover", "--entity", "scout", "--name", "take_cover"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    // The same point the scout's FindPosition picks in `tactica run examples/cover`.
    assert!(out.contains("result 1: (12.50, 13.50)"), "{out}");
    assert!(out.contains("generate hidespots_from_target_around_puppet (radius 15, spacing 1)"), "{out}");
    assert!(!out.contains("=inf"), "{out}");
    let none = tactica(&["query", "examples/cover", "--entity", "scout", "--name", "take_covr"]);
    assert_eq!(none.status.code(), Some(1));
    assert!(text(&none).1.contains("no query named `take_covr`"), "{}", text(&none).1);
}
