//! The profiler: its counts add up to the calls made (counted independently, through the trace),
//! every phase is timed, overrunning ticks are listed, it changes no trace, and `tactica run
//! --profile` prints its tables.

use std::path::Path;
use std::time::Duration;

use glam::IVec2;
use tactica::runtime::{Phase, Runtime};
use tactica_engine::grid::Map;
use tactica_engine::world::{Entity, World};

// As in the `tactica` binary: Rhai calls are charged for what they allocate, so the test sees
// what a player's game sees when the profiler records inside a call.
#[global_allocator]
static ALLOCATOR: tactica_stdlib::memory::CountingAllocator = tactica_stdlib::memory::CountingAllocator;

/// Each think calls `DistanceToPlayer` exactly three times and records one note.
const LUA: &str = "
function on_think()
  local d = DistanceToPlayer() + DistanceToPlayer() + DistanceToPlayer()
  Note('think', d)
end
";
const RHAI: &str = "
fn on_think() {
    let d = distance_to_player() + distance_to_player() + distance_to_player();
    note(\"think\", d);
}
";
const TAC: &str = "kind behaviour;\nNote(\"think\", DistanceToPlayer() + DistanceToPlayer() + DistanceToPlayer());\n";

const PER_LANGUAGE: usize = 4;
const TICKS: u64 = 12;
const THINK_EVERY: u32 = 2;

fn runtime(profiled: bool) -> Runtime {
    let mut world = World::new(Map::open(32, 32), 10, 3);
    let mut player = Entity::new("player", "human", IVec2::new(16, 16));
    player.tags.insert("player".into());
    world.spawn(player).unwrap();
    let mut ids = Vec::new();
    for lang in ["lua", "rhai", "tac"] {
        for k in 0..PER_LANGUAGE {
            let id = world.spawn(Entity::new(format!("{lang}{k}"), lang, IVec2::new(k as i32 * 3, 2))).unwrap();
            ids.push((lang, id));
        }
    }
    let mut rt = Runtime::from_world("profiled", world, tactica::languages());
    if profiled {
        rt.enable_profile();
    }
    for (lang, id) in ids {
        let source = match lang {
            "lua" => LUA,
            "rhai" => RHAI,
            _ => TAC,
        };
        rt.attach_source(Some(id), format!("b.{lang}"), source, THINK_EVERY).unwrap();
    }
    rt
}

fn notes_by(trace: &str, prefix: &str) -> u64 {
    trace.lines().filter(|l| l.contains("\"kind\":\"note\"") && l.contains(&format!("\"entity\":\"{prefix}"))).count()
        as u64
}

#[test]
fn counts_add_up_to_the_calls_made() {
    let mut rt = runtime(true);
    rt.run(TICKS);
    let trace = rt.trace();
    let p = rt.profile().expect("the profiler is on");
    assert_eq!(p.ticks(), TICKS);
    let thinks_each = TICKS / u64::from(THINK_EVERY);
    let mut think_calls = 0;
    for lang in ["lua", "rhai", "tac"] {
        let file = format!("b.{lang}");
        let thinks = p.handler(&file, "think").map_or(0, |s| s.calls());
        // Counted independently: each think records one note.
        assert_eq!(thinks, notes_by(&trace, lang), "{file}");
        assert_eq!(thinks, thinks_each * PER_LANGUAGE as u64, "{file}");
        assert_eq!(p.handler(&file, "spawn").map(|s| s.calls()), Some(PER_LANGUAGE as u64), "{file}");
        let file_row = p.files().into_iter().find(|r| r.name == file).expect("a row per file");
        assert_eq!(file_row.calls, thinks + PER_LANGUAGE as u64, "a file's calls are its handlers'");
        let language = p.language(lang).expect("a row per language");
        assert_eq!(language.calls(), thinks + PER_LANGUAGE as u64);
        think_calls += thinks;
    }
    let distance = p.host_function("DistanceToPlayer").expect("DistanceToPlayer was timed");
    assert_eq!(distance.calls(), 3 * think_calls, "three calls per think, in every language");
    assert_eq!(p.host_function("Note").map(|s| s.calls()), Some(think_calls));
    assert!(distance.total() >= distance.max() && distance.max() >= distance.median());
    for phase in Phase::ALL {
        assert_eq!(p.phase(phase).map(|s| s.calls()), Some(TICKS), "{phase:?} timed once a tick");
    }
    assert_eq!(p.phases().len(), Phase::ALL.len());
    // Tables are sorted by total time, longest first.
    let rows = p.host_functions();
    assert!(rows.windows(2).all(|w| w[0].total >= w[1].total));
    assert_eq!(p.overrun_count(), 0, "a dozen small ticks fit in 16.6 ms");
}

#[test]
fn the_profiler_changes_no_trace_and_costs_nothing_when_off() {
    let mut on = runtime(true);
    let mut off = runtime(false);
    on.run(TICKS);
    off.run(TICKS);
    assert_eq!(on.trace_hash(), off.trace_hash());
    assert!(off.profile().is_none());
    let recorded = on.disable_profile().expect("it was on");
    assert_eq!(recorded.ticks(), TICKS);
    assert!(on.profile().is_none());
    // Host calls outside a profiled tick are not recorded anywhere.
    assert!(!tactica_stdlib::profile::recording());
}

/// The crowd where everyone thinks: 10,000 calls a tick fill the profiler's list of host calls
/// while scripts run. Growing that list is the host's bookkeeping; charged to the script that
/// happened to be running, it stopped a Rhai docker on tick 1 (a 6 MiB list at 16 bytes an
/// operation), on profiled runs only.
#[test]
fn the_profilers_own_records_are_never_charged_to_a_script() {
    for threads in [1, 2] {
        let traces = [false, true].map(|profiled| {
            let scenario = tactica::scenario::load(Path::new("examples/crowd/everyone.toml")).unwrap();
            let mut rt = Runtime::new(scenario, tactica::languages()).unwrap_or_else(|_| panic!("the crowd compiles"));
            rt.set_threads(threads);
            if profiled {
                rt.enable_profile();
            }
            rt.run(3);
            rt.trace().to_string()
        });
        assert!(!traces[1].contains("script_error"), "{threads} threads: a script was stopped while profiled");
        assert!(traces[0] == traces[1], "{threads} threads: the profiler changed the trace");
    }
}

#[test]
fn ticks_over_budget_are_listed() {
    let mut rt = runtime(false);
    rt.set_frame_budget(Duration::from_nanos(1));
    rt.enable_profile();
    rt.run(5);
    let p = rt.profile().unwrap();
    assert_eq!(p.overrun_count(), 5, "every tick takes more than a nanosecond");
    let ticks: Vec<u64> = p.overruns().map(|o| o.tick).collect();
    assert_eq!(ticks, [0, 1, 2, 3, 4]);
    assert!(p.overruns().all(|o| o.over_frame && !o.over_scripts));
    let report = p.report();
    assert!(report.contains("tick 3:") && report.contains("over the frame budget of 1 ns"), "{report}");

    let mut rt = runtime(true);
    rt.set_script_budget(Some(Duration::from_nanos(1)));
    rt.run(4);
    let p = rt.profile().unwrap();
    assert!(p.overrun_count() >= 3, "scripts go over a 1 ns budget");
    assert!(p.overruns().any(|o| o.over_scripts && o.put_off > 0), "and thinks were put off");
}

#[test]
fn run_profile_prints_the_tables_for_the_crowd() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", "examples/crowd", "--ticks", "3", "--quiet", "--profile"])
        .output()
        .expect("tactica runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    for section in [
        "profile: 3 ticks, frame budget 16.60 ms",
        "tick phases (per tick)",
        "languages (per tick; calls = handler calls)",
        "script files",
        "handlers",
        "host functions",
        "ticks over budget",
    ] {
        assert!(text.contains(section), "`{section}` in:\n{text}");
    }
    for row in [
        "scripts/watch.tac think",
        "scripts/townsfolk.lua think",
        "scripts/dockers.rhai think",
        "DistanceToPlayer",
        "CanSee",
    ] {
        assert!(text.contains(row), "`{row}` in:\n{text}");
    }
    assert!(Path::new("examples/crowd/scenario.toml").is_file());
}
