//! Position queries as a service of the world: reservations that spread a squad over different
//! points, and a per-tick query budget that defers a query to later ticks behind a handle — in
//! Lua, Rhai and `.tac` alike.

mod common;

use glam::Vec2;
use serde_json::Value as Json;
use tactica_engine::tactics::query::{Objects, Reservations, compile_value, evaluate_in_world};

/// The query every scout asks: grid points near it, the nearest to the beacon best.
const QUERY_LUA: &str = "{Generation = {grid_around_puppet = 6}, Weights = {distance_from_referencePoint = -1.0}}";
const QUERY_RHAI: &str = "#{Generation: #{grid_around_puppet: 6}, Weights: #{distance_from_referencePoint: -1.0}}";

fn point(v: &Json) -> Vec2 {
    let a = v.as_array().unwrap_or_else(|| panic!("a point, got {v}"));
    Vec2::new(a[0].as_f64().unwrap() as f32, a[1].as_f64().unwrap() as f32)
}

/// Three scouts at one spot ask the same query, one tick each (Lua at tick 0, Rhai at 1, Lua
/// again at 2), with `reserve` as given; the first releases its point at tick 1. Returns each
/// one's answer, and the trace (with what `ReservedPosition` said the tick after asking).
fn squad(name: &str, reserve: bool) -> (Vec<Vec2>, String) {
    let r = if reserve { "true" } else { "false" };
    let lua = |turn: u32| {
        format!(
            "local n = 0\nfunction on_think()\n  if n == {turn} then\n    local p = FindPosition({QUERY_LUA}, {{referencePoint = FindEntity(\"beacon\"), reserve = {r}}})\n    Note(\"picked\", p)\n  elseif n == {turn} + 1 then\n    Note(\"held\", ReservedPosition())\n    if {turn} == 0 then ReleasePosition() end\n  end\n  n = n + 1\nend\n"
        )
    };
    let rhai = format!(
        "fn on_spawn() {{ this.n = 0; }}\nfn on_think() {{\n  if this.n == 1 {{\n    let p = find_position({QUERY_RHAI}, #{{referencePoint: find_entity(\"beacon\"), reserve: {r}}});\n    note(\"picked\", p);\n  }} else if this.n == 2 {{\n    note(\"held\", reserved_position());\n  }}\n  this.n += 1;\n}}\n"
    );
    let text = "map = \"map.txt\"\nticks = 4\n[[entities]]\nname = \"beacon\"\nkind = \"marker\"\nat = [9, 1]\n\
                [[entities]]\nname = \"a\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"a.lua\"]\n\
                [[entities]]\nname = \"b\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"b.rhai\"]\n\
                [[entities]]\nname = \"c\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"c.lua\"]\n";
    let (a, c) = (lua(0), lua(2));
    let path = common::folder(name, text, &[("a.lua", &a), ("b.rhai", &rhai), ("c.lua", &c)]);
    let trace = common::play(&path).trace();
    assert!(!trace.contains("script_error"), "{trace}");
    let picked: Vec<Vec2> = trace
        .lines()
        .filter(|l| l.contains("\"name\":\"picked\""))
        .map(|l| point(&serde_json::from_str::<Json>(l).unwrap()["value"]))
        .collect();
    (picked, trace)
}

#[test]
fn reserved_points_spread_a_squad_and_a_release_frees_them() {
    let (same, _) = squad("pos-free", false);
    assert_eq!(same.len(), 3);
    assert!(same.iter().all(|&p| p == same[0]), "without reservations all pick the best point: {same:?}");
    let (spread, trace) = squad("pos-reserve", true);
    assert_eq!(spread[0], same[0], "the first asker gets the best point");
    assert_ne!(spread[1], spread[0], "the second skips the held point");
    assert_eq!(spread[2], spread[0], "the first released its point at tick 1, so the third gets it");
    let beacon = Vec2::new(9.5, 1.5);
    let d: Vec<f32> = spread.iter().map(|p| p.distance(beacon)).collect();
    // The grid's nearest points to the beacon, computed here: the open cells of the square of
    // side 13 around (2.5, 3.5), nearest first; the answers are the first three, in order.
    let mut grid: Vec<Vec2> = (-6..=6)
        .flat_map(|dy| (-6..=6).map(move |dx| Vec2::new(2.5 + dx as f32, 3.5 + dy as f32)))
        .filter(|p| p.x > 0.0 && p.y > 0.0 && p.x < 12.0 && p.y < 6.0)
        .filter(|p| !(p.x == 5.5 && (p.y == 2.5 || p.y == 3.5)))
        .collect();
    grid.sort_by(|a, b| a.distance(beacon).total_cmp(&b.distance(beacon)));
    assert_eq!(d[0], grid[0].distance(beacon));
    assert_eq!(d[1], grid[1].distance(beacon), "the second best point of the grid");
    let held: Vec<Json> = trace
        .lines()
        .filter(|l| l.contains("\"name\":\"held\""))
        .map(|l| serde_json::from_str::<Json>(l).unwrap()["value"].clone())
        .collect();
    assert_eq!(held.iter().map(point).collect::<Vec<_>>(), spread, "ReservedPosition reads each one's point back");
}

#[test]
fn two_askers_in_one_tick_the_second_is_told_the_point_was_taken() {
    let lua = format!(
        "function on_think()\n  Note(\"picked\", FindPosition({QUERY_LUA}, {{referencePoint = FindEntity(\"beacon\"), reserve = true}}))\nend\n"
    );
    let text = "map = \"map.txt\"\nticks = 1\n[[entities]]\nname = \"beacon\"\nkind = \"marker\"\nat = [9, 1]\n\
                [[entities]]\nname = \"a\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"a.lua\"]\n\
                [[entities]]\nname = \"b\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"a.lua\"]\n";
    let trace = common::play(&common::folder("pos-same-tick", text, &[("a.lua", &lua)])).trace();
    let taken: Vec<&str> = trace.lines().filter(|l| l.contains("position_taken")).collect();
    assert_eq!(taken.len(), 1, "{trace}");
    assert!(taken[0].contains("\"entity\":\"b\"") && taken[0].contains("was taken by a this tick"), "{}", taken[0]);
}

/// The units of work the query takes when nothing limits it, measured with the engine's own
/// evaluator on the same map.
fn units_of() -> u64 {
    let map = tactica_engine::grid::parse_ascii(
        common::MAP.as_bytes(),
        std::path::Path::new("map.txt"),
        &tactica_engine::grid::TerrainCosts::ascii(),
    )
    .unwrap();
    let mut world = tactica_engine::world::World::new(map, 10, 0);
    let id = world
        .spawn(tactica_engine::world::Entity::new("a".to_owned(), "scout".to_owned(), glam::IVec2::new(2, 3)))
        .unwrap();
    let table = query_value();
    let q = std::sync::Arc::new(compile_value("q", &table, Default::default()).unwrap());
    let mut objects = Objects::from_world(&world, id);
    objects.set(
        tactica_engine::tactics::query::ObjectKind::ReferencePoint,
        tactica_engine::tactics::query::ObjectState::at(Vec2::new(9.5, 1.5)),
    );
    evaluate_in_world(&world, id, q, objects, &Reservations::new(), 0, false).stats().units
}

/// [`QUERY_LUA`] as the engine's value (what the Lua binding hands the host).
fn query_value() -> tactica_engine::Value {
    use tactica_engine::Value;
    let map = |kv: Vec<(&str, Value)>| Value::Map(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect());
    map(vec![
        ("Generation", map(vec![("grid_around_puppet", Value::Int(6))])),
        ("Weights", map(vec![("distance_from_referencePoint", Value::Float(-1.0))])),
    ])
}

#[test]
fn a_spent_budget_defers_the_query_behind_a_handle_in_every_language() {
    let units = units_of();
    assert!(units > 2 * 40, "the query is big enough to need several ticks: {units}");
    let budget = 40;
    let lua = format!(
        "local h\nfunction on_think()\n  if h == nil then\n    h = FindPosition({QUERY_LUA}, {{referencePoint = FindEntity(\"beacon\")}})\n    Note(\"handle\", h)\n  end\n  Note(\"status\", PositionStatus(h))\n  if PositionStatus(h) == \"found\" then Note(\"result\", PositionResult(h)) end\nend\n"
    );
    let rhai = format!(
        "fn on_think() {{\n  if !(\"h\" in this) {{ this.h = find_position({QUERY_RHAI}, #{{referencePoint: find_entity(\"beacon\")}}); note(\"handle\", this.h); }}\n  note(\"status\", position_status(this.h));\n}}\n"
    );
    let tac = "on think {\n  Note(\"got\", FindPosition(\"near\"));\n}\n";
    let text = format!(
        "map = \"map.txt\"\nticks = 12\n[queries]\nfiles = [\"q.tps\"]\nbudget = {budget}\n[[entities]]\nname = \"beacon\"\nkind = \"marker\"\nat = [9, 1]\n\
         [[entities]]\nname = \"a\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"a.lua\"]\n\
         [[entities]]\nname = \"b\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"b.rhai\"]\n\
         [[entities]]\nname = \"t\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"t.tac\"]\n"
    );
    let tps = "query near {\n  option { Generation { grid_around_puppet = 2 } }\n}\n";
    let path =
        common::folder("pos-budget", &text, &[("a.lua", &lua), ("b.rhai", &rhai), ("t.tac", tps), ("q.tps", tps)]);
    std::fs::write(path.with_file_name("t.tac"), tac).unwrap();
    let trace = common::play(&path).trace();
    assert!(!trace.contains("script_error"), "{trace}");
    let notes = |who: &str, name: &str| -> Vec<Json> {
        trace
            .lines()
            .filter(|l| l.contains(&format!("\"entity\":\"{who}\"")) && l.contains(&format!("\"name\":\"{name}\"")))
            .map(|l| serde_json::from_str::<Json>(l).unwrap()["value"].clone())
            .collect()
    };
    // Lua asked first and spent the first tick's budget: it got handle 1, pending, then found.
    assert_eq!(notes("a", "handle"), vec![Json::from(1)]);
    let status: Vec<String> = notes("a", "status").iter().map(|v| v.as_str().unwrap().to_owned()).collect();
    let first_found = status.iter().position(|s| s == "found").unwrap_or_else(|| panic!("{status:?}"));
    assert!(status[..first_found].iter().all(|s| s == "pending"), "{status:?}");
    // Three askers share 10 units a tick; Lua's query alone takes `units`.
    assert!(first_found as u64 * budget >= units / 3, "found after {first_found} ticks of {budget} for {units} units");
    let (found, _) = squad_free_answer();
    assert_eq!(point(&notes("a", "result")[0]), found, "the deferred answer is the immediate one");
    let ready: Vec<Json> = notes("a", "position_ready");
    assert_eq!(ready.len(), 1);
    assert_eq!(ready[0]["handle"], Json::from(1));
    // Rhai got the next handle and sees the same life cycle.
    assert_eq!(notes("b", "handle"), vec![Json::from(2)]);
    let rhai_status: Vec<Json> = notes("b", "status");
    assert_eq!(rhai_status[0], Json::from("pending"));
    assert!(rhai_status.contains(&Json::from("found")), "{rhai_status:?}");
    // .tac asks anew every tick: while others wait it gets a fresh handle each time (cancelling
    // its last), and once the queue is empty its query is answered at once, as a point.
    let got = notes("t", "got");
    assert_eq!(got.len(), 12);
    assert!(got[0].is_u64() && got[1].is_u64() && got[0] != got[1], "{got:?}");
    assert!(got.last().unwrap().is_array(), "the queue drained by the last tick: {got:?}");
    assert_eq!(notes("t", "position_ready").len(), 1, "only its last deferred query was answered");
}

/// What the query answers with no budget and no reservations.
fn squad_free_answer() -> (Vec2, String) {
    let (points, trace) = squad("pos-free-ref", false);
    (points[0], trace)
}

/// The per-tick budget example of `docs/tps.md`, run as written: the deferred query's point is
/// noted once it is found.
#[test]
fn the_budget_example_in_the_docs_runs() {
    let docs = std::fs::read_to_string("docs/tps.md").unwrap();
    let after = &docs[docs.find("**A per-tick budget.**").unwrap()..];
    let start = after.find("```lua\n").unwrap() + 7;
    let script = &after[start..start + after[start..].find("```").unwrap()];
    let text = "map = \"map.txt\"\nticks = 10\n[queries]\nfiles = [\"q.tps\"]\nbudget = 10\n\
                [[entities]]\nname = \"a\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"a.lua\"]\n";
    let tps = "query take_cover {\n  option { Generation { grid_around_puppet = 3 } Weights { distance_from_puppet = -1.0 } }\n}\n";
    let trace = common::play(&common::folder("pos-docs", text, &[("a.lua", script), ("q.tps", tps)])).trace();
    assert!(!trace.contains("script_error"), "{trace}");
    assert!(trace.contains("\"name\":\"position_ready\""), "{trace}");
    let spots: Vec<&str> = trace.lines().filter(|l| l.contains("\"name\":\"spot\"")).collect();
    assert!(!spots.is_empty(), "{trace}");
    // The nearest grid point to the asker is its own cell's centre.
    assert!(spots[0].contains("\"value\":[2.5,3.5]"), "{}", spots[0]);
}

/// A query library written as Lua tables (the reference's own form), reloaded while playing: a
/// new version is live on the next tick, a broken one leaves the old queries in use.
#[test]
fn lua_query_libraries_load_and_hot_reload() {
    let near = "-- the nearest open point\nradius = 3\nnear = { Generation = { grid_around_puppet = radius },\n         Weights = { distance_from_puppet = -1.0 } }\n";
    let text = "map = \"map.txt\"\nticks = 10\n[queries]\nfiles = [\"cover.lua\"]\n\
                [[entities]]\nname = \"a\"\nkind = \"scout\"\nat = [2, 3]\nscripts = [\"a.rhai\"]\n";
    let script = "fn on_think() { note(\"spot\", find_position(\"near\")); }\n";
    let path = common::folder("pos-lua-lib", text, &[("cover.lua", near), ("a.rhai", script)]);
    let library = path.with_file_name("cover.lua");
    let scenario = tactica::scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut rt = tactica::runtime::Runtime::new(scenario, tactica::languages()).unwrap();
    assert!(rt.script_files().iter().any(|f| f.ends_with("cover.lua")), "--watch watches the query library");
    rt.run(2);
    std::fs::write(&library, near.replace("-1.0", "1.0")).unwrap();
    assert!(rt.reload_file(&library).outcome.is_ok());
    rt.run(2);
    std::fs::write(
        &library,
        "near = { Generation = { grid_around_puppet = 3 }, Weights = { distance_from_pupet = 1 } }\n",
    )
    .unwrap();
    let refused = rt.reload_file(&library);
    let message = refused.message();
    assert!(message.contains("distance_from_pupet") && message.contains("old queries stay"), "{message}");
    rt.run(2);
    let spots: Vec<Vec2> = common::note_values(&rt.trace()).iter().map(point).collect();
    let nearest = Vec2::new(2.5, 3.5);
    // The farthest grid point within 3 of (2, 3) on the 12 × 6 map: a corner of the square.
    let farthest = spots[2];
    assert_eq!(&spots[..2], &[nearest, nearest]);
    assert_eq!(farthest.distance(nearest), Vec2::new(3.0, 3.0).length(), "{spots:?}");
    assert_eq!(&spots[2..], &[farthest; 4], "the broken file changed nothing: {spots:?}");
}

/// The Lua query library shown in `docs/tps.md` compiles as written: two queries, the second with
/// two options.
#[test]
fn the_lua_library_in_the_docs_compiles() {
    let docs = std::fs::read_to_string("docs/tps.md").unwrap();
    let after = &docs[docs.find("A query library may also be a Lua file").unwrap()..];
    let start = after.find("```lua\n").unwrap() + 7;
    let src = &after[start..start + after[start..].find("```").unwrap()];
    let mut library = tactica_engine::tactics::query::QueryLibrary::default();
    let names = tactica::scenario::load_query_file(&mut library, std::path::Path::new("cover.lua"), src).unwrap();
    assert_eq!(names, ["flank", "take_cover"]);
    assert_eq!(library.get("flank").unwrap().options.len(), 2);
    assert_eq!(library.get("take_cover").unwrap().options.len(), 1);
}
