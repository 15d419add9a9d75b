//! Tactical waypoints in play: generated from a scenario's map (`[waypoints]`) next to authored
//! hidespots, listed and ranked by scripts in `.tac`, Lua and Rhai.

use glam::{IVec2, Vec2};
use tactica::runtime::Runtime;

mod common;
use tactica_engine::tactics::{GenerateParams, Property, generate};
use tactica_engine::world::WorldRng;

const MAP: &str = "\
......................
......................
....####......####....
....#..........#......
....#..........#......
..........##..........
..........##..........
......................
";

fn play(ext: &str) -> (Runtime, Vec<serde_json::Value>) {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-waypoints-{ext}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), MAP).unwrap();
    let script = match ext {
        "lua" => {
            "function on_think()\n  Note(\"count\", #Waypoints(10, 4, 100))\n  Note(\"sniper\", BestWaypoint(\"sniping\", 10, 4, 100))\n  Note(\"cover\", BestWaypoint(\"cover\", 2, 2, 6))\nend\n"
        }
        "rhai" => {
            "fn on_think() {\n  note(\"count\", waypoints(10, 4, 100).len());\n  note(\"sniper\", best_waypoint(\"sniping\", 10, 4, 100));\n  note(\"cover\", best_waypoint(\"cover\", 2, 2, 6));\n}\n"
        }
        _ => {
            "on think {\n  Note(\"sniper\", BestWaypoint(\"sniping\", 10, 4, 100));\n  Note(\"cover\", BestWaypoint(\"cover\", 2, 2, 6));\n}\n"
        }
    };
    std::fs::write(dir.join(format!("s.{ext}")), script).unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        format!(
            "map = \"map.txt\"\n\n[waypoints]\ngenerate = true\nspacing = 2\nseed = 5\n\n\
             [[hidespots]]\nat = [1, 1]\nsides = [\"south\"]\nquality = 0.25\n\n\
             [[entities]]\nname = \"scout\"\nkind = \"k\"\nat = [10, 7]\nscripts = [\"s.{ext}\"]\n"
        ),
    )
    .unwrap();
    let rt = common::run_ticks(&dir.join("scenario.toml"), 1);
    let notes = common::note_values(&rt.trace());
    (rt, notes)
}

#[test]
fn generated_waypoints_are_listed_and_ranked_as_the_engine_generates_them() {
    let (rt, lua) = play("lua");
    let (_, rhai) = play("rhai");
    let (_, tac) = play("tac");
    assert_eq!(lua, rhai);
    assert_eq!(lua[1..], tac[..], ".tac ranks as Lua does");

    // The same database through the engine's Rust API: the authored hidespot, then generation
    // with spacing 2 and seed 5.
    let map = rt.world().map().clone();
    let params = GenerateParams { spacing: 2, ..GenerateParams::default() };
    let made = generate(&map, &params, &mut WorldRng::new(5)).unwrap();
    assert!(made.len() >= 3, "generation keeps several waypoints ({})", made.len());
    assert_eq!(lua[0], serde_json::json!(made.len() + 1), "every waypoint is within 100 cells");
    assert_eq!(rt.world().waypoints().len(), made.len() + 1);

    let centre = |c: IVec2| c.as_vec2() + Vec2::splat(0.5);
    let best = |prop: Property, at: Vec2, r: f32, authored: Option<(IVec2, f32)>| {
        let mut all: Vec<(IVec2, f32)> = authored.into_iter().collect();
        all.extend(made.iter().map(|(_, w)| (w.cell, w.properties.get(prop))));
        let mut top: Option<(IVec2, f32)> = None;
        for (c, v) in all {
            if centre(c).distance(at) <= r && top.is_none_or(|(_, b)| v > b) {
                top = Some((c, v));
            }
        }
        top.map(|(c, _)| serde_json::json!([centre(c).x, centre(c).y]))
    };
    let sniper = best(Property::Sniping, Vec2::new(10.0, 4.0), 100.0, Some((IVec2::new(1, 1), 0.0)));
    assert_eq!(Some(&lua[1]), sniper.as_ref(), "the best sniping waypoint");
    let cover = best(Property::Cover, Vec2::new(2.0, 2.0), 6.0, Some((IVec2::new(1, 1), 0.25)));
    assert_eq!(Some(&lua[2]), cover.as_ref(), "the best cover near the corner");
}

#[test]
fn a_misspelled_waypoint_value_is_an_error_with_a_suggestion() {
    let dir = tempfile::Builder::new().prefix("tactica-waypoints-bad-").tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "....\n").unwrap();
    std::fs::write(dir.join("s.lua"), "function on_think() BestWaypoint(\"snipping\", 1, 1, 5) end\n").unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        "map = \"map.txt\"\n[[entities]]\nname = \"a\"\nkind = \"k\"\nat = [0, 0]\nscripts = [\"s.lua\"]\n",
    )
    .unwrap();
    let loaded = tactica::scenario::load(&dir.join("scenario.toml")).unwrap();
    let mut rt = Runtime::new(loaded, tactica::languages()).unwrap_or_else(|_| panic!("loads"));
    rt.run(1);
    assert!(rt.trace().contains("did you mean `sniping`?"), "{}", rt.trace());
}
