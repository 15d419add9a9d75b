//! The crowd example (`examples/crowd`): 10,000 characters from three `[[crowd]]` blocks, a
//! third each in `.tac`, Lua and Rhai, play deterministically; squads signal and wait; walks plan
//! through the navigation service within its budget. And `[[crowd]]` mistakes are reported at
//! their line and column with a hint.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use tactica::runtime::Runtime;
use tactica::scenario;

const CROWD: &str = "examples/crowd/scenario.toml";
const TICKS: u64 = 25;

fn start() -> Runtime {
    let s = scenario::load(Path::new(CROWD)).unwrap_or_else(|e| panic!("{e}"));
    Runtime::new(s, tactica::languages()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn kinds(trace: &str) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for line in trace.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("trace lines are JSON");
        *counts.entry(v["kind"].as_str().unwrap_or_default().to_owned()).or_default() += 1;
    }
    counts
}

#[test]
fn ten_thousand_characters_a_third_in_each_language_play_deterministically_within_the_path_budget() {
    let mut rt = start();
    let world = rt.world();
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, e) in world.entities() {
        *by_kind.entry(e.kind.as_str()).or_default() += 1;
    }
    assert_eq!(by_kind.get("watchman"), Some(&3334));
    assert_eq!(by_kind.get("townsperson"), Some(&3333));
    assert_eq!(by_kind.get("docker"), Some(&3333));
    assert_eq!(world.entity_count(), 10_001, "the crowd and the stranger");
    assert_eq!(world.player().and_then(|p| world.entity(p)).map(|e| e.name.as_str()), Some("stranger"));
    // Every member on an open cell of its own.
    let cells: std::collections::BTreeSet<_> = world.entities().map(|(_, e)| (e.cell().x, e.cell().y)).collect();
    assert_eq!(cells.len(), 10_001);
    assert!(world.entities().all(|(_, e)| world.map().passable(e.cell())));

    let host = rt.host_mut();
    let mut by_language: BTreeMap<&str, usize> = BTreeMap::new();
    for i in 0..host.instances().len() {
        *by_language.entry(host.language_of(i)).or_default() += 1;
    }
    assert_eq!(by_language.get("lua"), Some(&3333));
    assert_eq!(by_language.get("rhai"), Some(&3333));
    assert_eq!(by_language.get("tac"), Some(&(3334 + 1)), "the watch and the stranger");
    // Staggered: a tenth of each crowd thinks on any one tick.
    for tick in 0..10 {
        let thinking = (0..host.instances().len()).filter(|&i| host.thinks_on(i, tick)).count();
        assert!((999..=1003).contains(&thinking), "tick {tick}: {thinking} think");
    }

    let budget = rt.world().nav().config().budget;
    let mut served = 0;
    for tick in 0..TICKS {
        rt.tick();
        let spent = rt.world().nav().spent_last_tick();
        assert!(spent <= budget, "tick {tick} spent {spent} expansions, over the budget of {budget}");
        served += spent;
    }
    assert!(served > 0, "searches ran");
    let trace = rt.trace();
    let counts = kinds(&trace);
    assert_eq!(counts.get("script_error"), None, "no script failed: {counts:?}");
    for kind in ["path", "move", "say", "signal", "wait", "release", "action"] {
        assert!(counts.get(kind).copied().unwrap_or(0) > 0, "the crowd's trace has `{kind}` events: {counts:?}");
    }
    // Squads keep step: signals are sent in squad scopes, and waits in them are released.
    let squad_signals = trace.lines().filter(|l| l.contains("\"kind\":\"signal\"") && l.contains("squad:")).count();
    let squad_releases = trace.lines().filter(|l| l.contains("\"kind\":\"release\"") && l.contains("squad:")).count();
    assert!(squad_signals > 100 && squad_releases > 100, "{squad_signals} signals, {squad_releases} releases");
    // Every language walks and taunts.
    for who in ["watch-", "townsfolk-", "docker-"] {
        let walks =
            trace.lines().filter(|l| l.contains(&format!("\"entity\":\"{who}")) && l.contains("\"move\"")).count();
        assert!(walks > 0, "{who}* walk");
    }

    let mut again = start();
    again.run(TICKS);
    assert_eq!(tactica::runtime::trace_hash(&trace), again.trace_hash(), "the same crowd plays the same trace");
}

#[test]
fn the_crowd_loads_on_another_map() {
    let map = tactica_engine::grid::Map::open(128, 128);
    let s = scenario::load_with_map(Path::new(CROWD), map).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.world.map().width(), 128);
    assert_eq!(s.world.entity_count(), 10_001);
    assert!(s.map_file.is_none());
}

fn temp(name: &str, text: &str) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-crowd-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), "..........\n..........\n..........\n....##....\n..........\n").unwrap();
    std::fs::write(dir.join("b.tac"), "if (IsIdle()) move(1, 0);\n").unwrap();
    let path = dir.join("scenario.toml");
    std::fs::write(&path, text).unwrap();
    path
}

fn error(name: &str, body: &str) -> (String, Option<String>, usize, usize) {
    let path = temp(name, &format!("map = \"map.txt\"\n[regions.yard]\nmin = [0, 0]\nmax = [2, 1]\n{body}"));
    let e = scenario::load(&path).expect_err("the crowd is refused");
    (e.message.clone(), e.hint.clone(), e.pos.line, e.pos.column)
}

#[test]
fn crowd_mistakes_are_reported_at_their_line_with_a_hint() {
    let (m, h, line, col) = error("zero", "[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 0\n");
    assert!(m.contains("count must be 1"), "{m}");
    assert!(h.is_some());
    assert_eq!((line, col), (8, 9));

    let (m, h, line, _) = error("fit", "[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 7\nregion = \"yard\"\n");
    assert!(m.contains("7 characters do not fit") && m.contains("6 free"), "{m}");
    assert!(h.unwrap().contains("lower count"));
    assert_eq!(line, 8);

    let (m, h, line, col) =
        error("region", "[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 2\nregion = \"yrad\"\n");
    assert!(m.contains("no region is named `yrad`"), "{m}");
    assert_eq!(h.as_deref(), Some("did you mean `yard`?"));
    assert_eq!((line, col), (9, 10));

    let (m, h, _, _) = error("key", "[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 2\nsquad_sise = 3\n");
    assert!(m.contains("unknown field `squad_sise`"), "{m}");
    assert_eq!(h.as_deref(), Some("did you mean `squad_size`?"));

    let (m, h, line, _) = error("think", "[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 2\nthink_every = 0\n");
    assert!(m.contains("think_every = 0"), "{m}");
    assert!(h.is_some());
    assert_eq!(line, 9);

    let (m, _, _, _) = error("squad", "[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 2\nsquad_size = 0\n");
    assert!(m.contains("squad_size = 0"), "{m}");

    let (m, _, _, _) =
        error("script", "[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 2\nscripts = [\"nope.tac\"]\n");
    assert!(m.contains("does not exist"), "{m}");

    let (m, _, _, _) = error(
        "name",
        "[[entities]]\nname = \"g-1\"\nkind = \"x\"\nat = [9, 4]\n[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 2\n",
    );
    assert!(m.contains("g-1"), "a name taken twice is refused: {m}");

    let (m, _, _, _) = error("huge", "[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 4000000000\n");
    assert!(m.contains("count must be 1 to 100000"), "{m}");
}

#[test]
fn placement_squads_and_stagger_follow_the_block() {
    let path = temp(
        "ok",
        "map = \"map.txt\"\nseed = 5\n[[crowd]]\nname = \"g\"\nkind = \"goblin\"\ncount = 12\nsquad_size = 5\nthink_every = 4\nscripts = [\"b.tac\"]\n",
    );
    let a = scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let b = scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let cells =
        |s: &scenario::Scenario| s.world.entities().map(|(_, e)| (e.name.clone(), e.cell())).collect::<Vec<_>>();
    assert_eq!(cells(&a), cells(&b), "placement follows the seed");
    let w = &a.world;
    let squad = |n: &str| w.entity(w.find(n).unwrap()).unwrap().squad.clone();
    assert_eq!(squad("g-1"), "g-squad-1");
    assert_eq!(squad("g-5"), "g-squad-1");
    assert_eq!(squad("g-6"), "g-squad-2");
    assert_eq!(squad("g-12"), "g-squad-3");
    let leaders: Vec<_> = w.entities().filter(|(_, e)| e.has_tag("leader")).map(|(_, e)| e.name.clone()).collect();
    assert_eq!(leaders, ["g-1", "g-6", "g-11"]);
    let phases: Vec<u32> = a.entity_scripts.iter().map(|s| s.think_phase).collect();
    assert_eq!(phases, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
}
