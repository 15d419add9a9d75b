//! The replay viewer (`tactica view`): the pages of shipped examples, what a trace alone gives,
//! the command's messages — and the browser tests. `viewer_in_chromium` writes the viewers of
//! shipped examples and, beside them, what the runtime itself says about those runs
//! (`expectations.json`: positions, a line said, a query's answer, layer values), then runs
//! `viewer/test/browser.test.js` in Chromium, which seeks each viewer to its tick and compares
//! what is drawn and listed. Without Chromium, node or the viewer's npm packages it says so
//! loudly and checks the pages only; CI sets `TACTICA_REQUIRE_BROWSER=1`, which makes their
//! absence a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use tactica::runtime::Runtime;
use tactica::view::{self, Marker, MarkerKind, ViewOptions};

/// The largest the crowd's page may be (the README states it).
const CROWD_MAX_BYTES: usize = 20 * 1024 * 1024;

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("viewer");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn runtime(path: &str) -> Runtime {
    let scenario = tactica::scenario::load(Path::new(path)).unwrap();
    Runtime::new(scenario, tactica::languages()).unwrap()
}

/// Records `ticks` ticks of a scenario and writes its page; returns the runtime as the run ended.
fn write_view(path: &str, file: &Path, options: &ViewOptions) -> (Runtime, usize) {
    let mut rt = runtime(path);
    let rec = view::record_run(&mut rt, options);
    let html = view::page(&rec, options);
    std::fs::write(file, &html).unwrap();
    (rt, html.len())
}

fn position(rt: &Runtime, name: &str) -> [f32; 2] {
    let e = rt.world().entity(rt.world().find(name).unwrap()).unwrap();
    [e.position.x, e.position.y]
}

/// The viewer's team colours, in the order teams are first seen (viewer/viewer.js).
const TEAM_COLOURS: [&str; 10] =
    ["#4e9cff", "#ff6b5a", "#f2c14e", "#7bd389", "#c48bff", "#4fd1c5", "#ff9f43", "#f78fb3", "#a4b0be", "#e1e1e1"];

#[test]
fn viewer_in_chromium() {
    let dir = out_dir();
    let mut expect = serde_json::Map::new();

    // Harbour, to the tick the lookout gives the signal: every character where the runtime has it.
    let tick = 43;
    let (rt, _) = write_view(
        "examples/harbour/scenario.toml",
        &dir.join("harbour.html"),
        &ViewOptions { ticks: Some(tick + 1), ..ViewOptions::default() },
    );
    let said = rt
        .trace()
        .lines()
        .find(|l| l.contains("\"tick\":43,\"entity\":\"lookout\",\"kind\":\"say\""))
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["text"].as_str().unwrap().to_owned())
        .expect("the lookout speaks at tick 43");
    // The viewer numbers teams in the order it first saw their characters: the world's order.
    let mut order: Vec<String> = Vec::new();
    for (_, e) in rt.world().entities() {
        if !order.contains(&e.team) {
            order.push(e.team.clone());
        }
    }
    let mut characters = Vec::new();
    for (_, e) in rt.world().entities() {
        let colour = TEAM_COLOURS[order.iter().position(|t| *t == e.team).unwrap() % TEAM_COLOURS.len()];
        characters.push(json!({ "name": e.name, "position": [e.position.x, e.position.y], "colour": colour }));
    }
    expect.insert(
        "harbour".into(),
        json!({ "tick": tick, "speaker": "lookout", "said": said, "characters": characters }),
    );

    // Cover: the scout's query at tick 0; its answer as the script got it (the `cover` note).
    let (rt, _) = write_view("examples/cover/scenario.toml", &dir.join("cover.html"), &ViewOptions::default());
    let note = rt
        .trace()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["kind"] == "note" && v["name"] == "cover")
        .expect("the scout notes its cover");
    let query = rt.world().queries.get("take_cover").unwrap();
    let tests: Vec<String> = query.options[0].tests.iter().map(|t| t.key.clone()).collect();
    expect.insert(
        "cover".into(),
        json!({ "tick": note["tick"], "entity": "scout", "query": "take_cover", "chosen": note["value"], "tests": tests }),
    );

    // Tactics: influence.blue at tick 20, read from the runtime's own layer.
    let (rt, _) = write_view(
        "examples/tactics/scenario.toml",
        &dir.join("tactics.html"),
        &ViewOptions { ticks: Some(21), layer_every: Some(1), ..ViewOptions::default() },
    );
    let maps = rt.world().tactical().unwrap();
    let cells: Vec<Value> = [[2, 2], [5, 9], [12, 6], [20, 12], [30, 5], [40, 16]]
        .iter()
        .filter(|c| rt.world().map().passable(glam::IVec2::new(c[0], c[1])))
        .map(|c| json!({ "cell": c, "value": maps.value_at("influence.blue", glam::IVec2::new(c[0], c[1])).unwrap() }))
        .collect();
    assert!(cells.len() >= 4, "{cells:?}");
    expect.insert("tactics".into(), json!({ "tick": 20, "layer": "influence.blue", "cells": cells }));

    // Markers: a failed expectation given by a test runner, a script error of the run itself.
    let options = ViewOptions {
        markers: vec![Marker {
            tick: 3,
            label: "expected the dog at the gate".into(),
            kind: MarkerKind::Failure,
            entity: Some("dog".into()),
        }],
        start_tick: Some(7),
        ..ViewOptions::default()
    };
    write_view("tests/fixtures/view/scenario.toml", &dir.join("markers.html"), &options);
    expect.insert("markers".into(), json!({ "start": 7, "first": 3, "error": { "tick": 5, "at": "guard.lua:6:5" } }));

    // The crowd: 10,000 characters, 1,000 ticks.
    let ticks = 1000;
    let (rt, bytes) = write_view(
        "examples/crowd/scenario.toml",
        &dir.join("crowd.html"),
        &ViewOptions { ticks: Some(ticks), ..ViewOptions::default() },
    );
    assert_eq!(rt.world().entity_count(), 10_001, "ten thousand townsfolk and the stranger");
    assert!(bytes < CROWD_MAX_BYTES, "the crowd's page is {bytes} bytes, over the {CROWD_MAX_BYTES} the README states");
    let name = "docker-77";
    let mut order: Vec<String> = Vec::new();
    for (_, e) in rt.world().entities() {
        if !order.contains(&e.team) {
            order.push(e.team.clone());
        }
    }
    let team = &rt.world().entity(rt.world().find(name).unwrap()).unwrap().team;
    let colour = TEAM_COLOURS[order.iter().position(|t| t == team).unwrap() % TEAM_COLOURS.len()];
    expect.insert(
        "crowd".into(),
        json!({ "characters": 10_001, "ticks": ticks, "bytes": bytes, "tick": ticks - 1, "name": name, "position": position(&rt, name), "colour": colour }),
    );
    eprintln!("crowd viewer page: {bytes} bytes ({:.1} MiB)", bytes as f64 / 1_048_576.0);
    std::fs::write(dir.join("expectations.json"), serde_json::to_string_pretty(&Value::Object(expect)).unwrap())
        .unwrap();

    // The browser tests.
    let viewer = Path::new(env!("CARGO_MANIFEST_DIR")).join("viewer");
    let chromium = std::env::var("TACTICA_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let missing: Vec<&str> = [
        (!Path::new(&chromium).exists()).then_some("chromium (apt-get install chromium)"),
        (Command::new("node").arg("--version").output().is_err()).then_some("node"),
        (!viewer.join("node_modules/puppeteer-core").exists()).then_some("puppeteer-core (cd viewer && npm ci)"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !missing.is_empty() {
        let message = format!("the viewer's browser tests need {}", missing.join(", "));
        assert!(std::env::var_os("TACTICA_REQUIRE_BROWSER").is_none(), "{message}");
        eprintln!(
            "\n==== BROWSER TESTS NOT RUN: {message}. The pages were written and checked; .ci/run installs all three. ====\n"
        );
        return;
    }
    let out = Command::new("node")
        .args(["--test", "--test-concurrency=1", "test/browser.test.js"])
        .current_dir(&viewer)
        .env("TACTICA_VIEW_DIR", &dir)
        .env("TACTICA_CHROMIUM", &chromium)
        .output()
        .unwrap();
    let report = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the browser tests failed:\n{report}");
    let figures = std::fs::read_to_string(dir.join("figures.txt")).unwrap();
    eprintln!("{figures}screenshots in {}", dir.join("shots").display());
}

#[test]
fn a_trace_with_its_scenario_is_replayed_and_without_it_is_what_the_trace_holds() {
    let dir = out_dir();
    let mut rt = runtime("examples/harbour/scenario.toml");
    rt.run(120);
    let trace = dir.join("harbour-120.jsonl");
    std::fs::write(&trace, rt.trace()).unwrap();
    let load = || tactica::scenario::load(Path::new("examples/harbour/scenario.toml")).unwrap();

    let (html, source) = view::view_trace(&trace, Some(load()), &ViewOptions::default()).unwrap();
    assert_eq!(source, view::trace::Source::Replayed);
    assert!(html.contains(r#""missing":[]"#));

    let (html, source) = view::view_trace(&trace, None, &ViewOptions::default()).unwrap();
    assert!(matches!(source, view::trace::Source::TraceOnly(ref why) if why.contains("--scenario")), "{source:?}");
    assert!(html.contains("the map: the trace does not name its scenario"));
    assert!(html.contains(r#""layers":[]"#) && html.contains(r#""queries":[]"#));

    // A trace the scenario no longer makes (here a line said differently, as after an edit of
    // the scenario): not reproduced, and the view says so.
    let edited = dir.join("harbour-edited.jsonl");
    std::fs::write(&edited, rt.trace().replace("Lock's open. Go!", "Lock's open, go on!")).unwrap();
    let (html, source) = view::view_trace(&edited, Some(load()), &ViewOptions::default()).unwrap();
    assert!(
        matches!(source, view::trace::Source::TraceOnly(ref why) if why.contains("did not make the same trace")),
        "{source:?}"
    );
    assert!(html.contains("positions: the trace has cells"));
    assert!(html.contains("Lock's open, go on!"), "the view shows what the trace says");
}

#[test]
fn a_trace_alone_puts_characters_in_the_cells_it_names() {
    let dir = out_dir();
    let trace = dir.join("two.jsonl");
    std::fs::write(
        &trace,
        concat!(
            r#"{"tick":0,"entity":"a","kind":"spawn","of":"cat","team":"red","cell":[1,1]}"#,
            "\n",
            r#"{"tick":2,"entity":"a","kind":"move","from":[1,1],"to":[2,1]}"#,
            "\n",
            r#"{"tick":3,"entity":"a","kind":"say","text":"miaow"}"#,
            "\n",
            r#"{"tick":4,"entity":"a","kind":"bt_node","node":"Sequence","status":"running"}"#,
            "\n",
        ),
    )
    .unwrap();
    let (rec, _) =
        view::trace::recording(&trace, &std::fs::read_to_string(&trace).unwrap(), None, &ViewOptions::default())
            .unwrap();
    assert_eq!(rec.ticks, 5);
    assert_eq!((rec.map.width, rec.map.height), (4, 3));
    let keys = &rec.entities[0].keys;
    assert_eq!(view::trajectory::position_at(keys, 1), Some((48.0, 48.0)), "cell (1, 1)'s centre in 1/32 cells");
    assert_eq!(view::trajectory::position_at(keys, 2), Some((80.0, 48.0)));
    assert_eq!(view::trajectory::position_at(keys, 4), Some((80.0, 48.0)));
    // Every event but `move` is kept, kinds the viewer does not know among them.
    let kinds: Vec<&str> = rec.events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["spawn", "say", "bt_node"]);
    assert_eq!(rec.events[2].body, r#"{"node":"Sequence","status":"running"}"#);
}

#[test]
fn a_bad_trace_line_is_reported_at_its_line_and_column() {
    let dir = out_dir();
    let cases = [
        ("{\"tick\":0,\"kind\":\"say\"}\n{\"tick\":1,\"kind\":", 2, "EOF while parsing"),
        ("{\"kind\":\"say\"}\n", 1, "no `tick`"),
        ("{\"tick\":3,\"kind\":\"say\"}\n{\"tick\":1,\"kind\":\"say\"}\n", 2, "tick 1 comes after tick 3"),
        ("[1,2]\n", 1, "not a JSON object"),
        ("{\"tick\":0}\n", 1, "no `kind`"),
    ];
    for (i, (text, line, message)) in cases.into_iter().enumerate() {
        let file = dir.join(format!("bad-{i}.jsonl"));
        std::fs::write(&file, text).unwrap();
        let err = view::view_trace(&file, None, &ViewOptions::default()).unwrap_err().to_string();
        assert!(err.starts_with(&format!("{}:{line}:", file.display())), "{err}");
        assert!(
            err.contains(message) && err.contains("hint: a trace is what `tactica run --trace FILE` writes"),
            "{err}"
        );
    }
}

#[test]
fn tactica_view_writes_the_page_and_says_so() {
    let dir = out_dir();
    let out_file = dir.join("cli-harbour.html");
    let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["view", "examples/harbour", "--ticks", "50", "--at", "43", "-o"])
        .arg(&out_file)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.starts_with(&format!("wrote {} (", out_file.display())) && stdout.contains("recorded"), "{stdout}");
    let html = std::fs::read_to_string(&out_file).unwrap();
    assert!(html.contains(r#""startTick":43"#) && html.contains(r#""ticks":50"#));
    assert!(!html.contains("{{"), "every placeholder is filled");

    // A trace with its scenario, through the command.
    let trace = dir.join("cli-harbour.jsonl");
    let run = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", "examples/harbour", "--ticks", "60", "--quiet", "--trace"])
        .arg(&trace)
        .output()
        .unwrap();
    assert!(run.status.success());
    let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .arg("view")
        .arg(&trace)
        .args(["--scenario", "examples/harbour", "-o"])
        .arg(dir.join("cli-trace.html"))
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("the scenario played again made the same trace"), "{out:?}");

    // Mistakes: a scenario that does not exist, --scenario with a scenario.
    let out = Command::new(env!("CARGO_BIN_EXE_tactica")).args(["view", "examples/nowhere"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["view", "examples/harbour", "--scenario", "examples/harbour"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--scenario goes with a trace file"));
}

#[test]
fn the_scenario_chooses_how_often_layers_are_recorded() {
    let dir = out_dir().join("view-section");
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["map.txt", "scout.lua"] {
        std::fs::copy(Path::new("examples/tactics").join(f), dir.join(f)).unwrap();
    }
    let scenario = std::fs::read_to_string("examples/tactics/scenario.toml").unwrap();
    std::fs::write(dir.join("scenario.toml"), format!("{scenario}\n[view]\nlayer_every = 7\n")).unwrap();
    let load = || tactica::scenario::load(&dir.join("scenario.toml")).unwrap();
    let html = view::view_scenario(load(), &ViewOptions { ticks: Some(20), ..ViewOptions::default() }).unwrap();
    assert!(html.contains(r#""ticks":[0,7,14]"#), "every 7 ticks, as the scenario says");
    let html =
        view::view_scenario(load(), &ViewOptions { ticks: Some(20), layer_every: Some(10), ..ViewOptions::default() })
            .unwrap();
    assert!(html.contains(r#""ticks":[0,10]"#), "the command says last");
    // 0 is refused at its line.
    std::fs::write(dir.join("scenario.toml"), format!("{scenario}\n[view]\nlayer_every = 0\n")).unwrap();
    let err = tactica::scenario::load(&dir.join("scenario.toml")).unwrap_err().to_string();
    assert!(err.contains("`layer_every` is a number of ticks: 1 or more"), "{err}");
    assert!(err.contains("scenario.toml:"), "{err}");
}

#[test]
fn layers_are_recorded_as_often_as_keeps_the_page_small() {
    use tactica::view::record::default_layer_every;
    assert_eq!(default_layer_every(40, 1000, 6), 1);
    assert_eq!(default_layer_every(1000, 24_576, 3), 50, "the crowd's town: 20 snapshots of 3 layers");
    assert_eq!(default_layer_every(100, 24_576, 3), 5);
    assert_eq!(default_layer_every(10, 100_000_000, 1), 10, "never sparser than one snapshot");
    assert_eq!(default_layer_every(0, 10, 1), 1);
}

#[test]
fn recording_a_run_changes_nothing_it_does() {
    use tactica_engine::tactics::query::CandidateStatus;
    for path in ["examples/cover/scenario.toml", "examples/tactics/scenario.toml", "examples/harbour/scenario.toml"] {
        let mut plain = runtime(path);
        plain.run(40);
        let mut recorded = runtime(path);
        let rec = view::record_run(&mut recorded, &ViewOptions { ticks: Some(40), ..ViewOptions::default() });
        assert_eq!(recorded.trace(), plain.trace(), "{path}: recording changed the run");
        assert_eq!(rec.ticks, 40);
        // Every character's keypoints end at the last tick, where the runtime left it.
        for (_, e) in recorded.world().entities() {
            let track = rec.entities.iter().find(|t| t.name == e.name).unwrap();
            let (x, y) = view::trajectory::position_at(&track.keys, 39).unwrap();
            assert!((x / 32.0 - f64::from(e.position.x)).abs() < 0.05, "{path}: {} x", e.name);
            assert!((y / 32.0 - f64::from(e.position.y)).abs() < 0.05, "{path}: {} y", e.name);
        }
        if path.contains("cover") {
            // The one query of the run, with every candidate: its chosen point is the one the
            // script was given (its `cover` note).
            assert_eq!(rec.queries.len(), 1);
            let (tick, who, record) = &rec.queries[0];
            assert_eq!((*tick, rec.entities[*who].name.as_str(), record.query.as_str()), (0, "scout", "take_cover"));
            let chosen: Vec<_> = record
                .options
                .iter()
                .flat_map(|o| &o.candidates)
                .filter(|c| matches!(c.status, CandidateStatus::Chosen(0)))
                .collect();
            assert_eq!(chosen.len(), 1);
            let note = plain.trace().lines().find(|l| l.contains("\"name\":\"cover\"")).unwrap().to_owned();
            let at = format!("[{},{}]", chosen[0].position.x, chosen[0].position.y);
            assert!(note.contains(&at), "{note} holds {at}");
            assert!(chosen[0].tests.len() >= 2, "each test's result is kept");
        }
    }
}
