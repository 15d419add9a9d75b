//! Behaviour trees in play (`docs/trees.md`): the guard example's trace, event-driven evaluation
//! against ticking from the root in a whole runtime, hot reload of a tree while a leaf runs, trees
//! built and run from `.tac`, Lua and Rhai with the same calls, the blackboard calls, the
//! profiler's rows, and `tactica check`'s reports of a misspelt leaf, an unknown key and a child
//! that can never run (snapshots).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use tactica::runtime::Runtime;
use tactica_engine::Value;
use tactica_engine::decide::bt::Evaluation;

const EXAMPLE: &str = "examples/guard";

fn load(path: &Path) -> Runtime {
    let scenario = tactica::scenario::load(path).unwrap_or_else(|e| panic!("{e}"));
    Runtime::new(scenario, tactica::languages())
        .unwrap_or_else(|e| panic!("{}", e.iter().map(|e| e.report()).collect::<Vec<_>>().join("\n")))
}

/// The trace's events as JSON values.
fn events(rt: &Runtime) -> Vec<serde_json::Value> {
    rt.trace().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

/// The `(tick, entity, text)` of every event of `kind` whose field `field` is `text`'s source.
fn of_kind(events: &[serde_json::Value], kind: &str, field: &str) -> Vec<(u64, String, String)> {
    events
        .iter()
        .filter(|e| e["kind"] == kind)
        .map(|e| {
            let text = match &e[field] {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (e["tick"].as_u64().unwrap(), e["entity"].as_str().unwrap_or("").to_owned(), text)
        })
        .collect()
}

/// The `(tick, status)` of the guard's node named `name`.
fn node(events: &[serde_json::Value], entity: &str, name: &str) -> Vec<(u64, String)> {
    events
        .iter()
        .filter(|e| e["kind"] == "node" && e["entity"] == entity && e["name"] == name)
        .map(|e| (e["tick"].as_u64().unwrap(), e["status"].as_str().unwrap().to_owned()))
        .collect()
}

fn owned(items: &[(u64, &str)]) -> Vec<(u64, String)> {
    items.iter().map(|&(t, s)| (t, s.to_owned())).collect()
}

#[test]
fn the_guard_patrols_investigates_a_noise_takes_cover_when_shot_at_and_calls_its_squad() {
    let mut rt = load(&Path::new(EXAMPLE).join("scenario.toml"));
    rt.run(rt.scenario_ticks());
    let ev = events(&rt);
    assert!(!rt.trace().contains("script_error"), "{}", rt.trace());

    // Patrol: the `Patrol` subtree walks to the first post (where the guard starts), waits, and
    // is on its way to the second when the noise comes.
    assert_eq!(node(&ev, "guard", "move_to(from)")[..2], owned(&[(0, "running"), (1, "success")]));
    assert_eq!(node(&ev, "guard", "move_to(to)")[..2], owned(&[(17, "running"), (60, "halted")]));

    // A noise at tick 60: the Lua service `listen` sets `noise`, the guard on it aborts the patrol
    // (lower priority) on the same tick, and the guard walks to the noise, looks, and reports
    // (the `.tac` leaf), then goes back to the patrol.
    let says = of_kind(&ev, "say", "text");
    let said = |who: &str, text: &str| {
        says.iter().filter(|(_, e, t)| e == who && t == text).map(|(t, ..)| *t).collect::<Vec<_>>()
    };
    assert_eq!(said("guard", "What was that?"), [60]);
    // The line said on the tick the walk starts does not hold the walk up (an instant action
    // never disturbs a move): it arrives on the tick a silent walk would.
    assert_eq!(node(&ev, "guard", "move_to(noise_x, noise_y)"), owned(&[(60, "running"), (87, "success")]));
    assert!(
        ev.iter().any(|e| e["kind"] == "arrive" && e["entity"] == "guard" && e["cell"] == serde_json::json!([20, 12]))
    );
    assert_eq!(node(&ev, "guard", "report()"), owned(&[(98, "success")]));
    assert_eq!(said("guard", "Nothing here. Back to my post."), [98]);
    assert_eq!(of_kind(&ev, "note", "name"), [(98, "guard".to_owned(), "searched".to_owned())]);
    assert_eq!(
        node(&ev, "guard", "subtree Patrol"),
        owned(&[(0, "running"), (60, "halted"), (99, "running"), (200, "halted"), (246, "running")])
    );

    // Shots at tick 200: the guard calls its squad (the Rhai leaf shouts and signals), takes
    // cover where the sniper cannot see it (a position query), and waits there.
    assert_eq!(node(&ev, "guard", "call_squad()"), owned(&[(200, "success")]));
    assert_eq!(said("guard", "Shots! To me!"), [200]);
    assert_eq!(of_kind(&ev, "signal", "id"), [(200, "guard".to_owned(), "help".to_owned())]);
    assert_eq!(node(&ev, "guard", "go_to_position(hide_from_player)"), owned(&[(200, "running"), (204, "success")]));
    let cover = ev.iter().filter(|e| e["kind"] == "arrive" && e["entity"] == "guard" && e["tick"] == 203).count();
    assert_eq!(cover, 1, "in cover at tick 203");

    // The squad waited for the call from tick 0 and comes to the guard.
    for mate in ["rook", "finch"] {
        assert_eq!(node(&ev, mate, "wait_signal(help)"), owned(&[(0, "running"), (201, "success")]));
        assert_eq!(said(mate, "Coming!"), [201]);
        assert_eq!(node(&ev, mate, "move_to(guard)")[0], (201, "running".to_owned()));
        assert_eq!(node(&ev, mate, "move_to(guard)")[1].1, "success");
    }

    // The whole trace, byte for byte (node events included).
    assert_eq!(
        tactica::runtime::trace_hash(&rt.trace()),
        "c2ce1392494e3ea405f70787d593ba569be2e16db8f39bb5f23ed1017c3da462"
    );
}

#[test]
fn event_driven_evaluation_traces_what_ticking_from_the_root_traces() {
    let path = Path::new(EXAMPLE).join("scenario.toml");
    let mut traces = Vec::new();
    for evaluation in [Evaluation::EventDriven, Evaluation::Full] {
        let mut rt = load(&path);
        rt.world_mut().trees_mut().set_evaluation(evaluation);
        rt.enable_profile();
        rt.run(rt.scenario_ticks());
        let profile = rt.profile().unwrap();
        let guard = profile.trees().into_iter().find(|r| r.name == "Guard").unwrap();
        assert_eq!(guard.calls, 320, "every character-tick of the guard counted, evaluated or skipped");
        traces.push(rt.trace());
    }
    assert_eq!(traces[0], traces[1]);
}

#[test]
fn the_profiler_lists_time_per_tree_and_per_node() {
    let mut rt = load(&Path::new(EXAMPLE).join("scenario.toml"));
    rt.enable_profile();
    rt.run(50);
    let profile = rt.profile().unwrap();
    let trees: Vec<String> = profile.trees().into_iter().map(|r| r.name).collect();
    assert_eq!(trees.len(), 2, "{trees:?}");
    assert!(trees.contains(&"Guard".to_owned()) && trees.contains(&"Squadmate".to_owned()));
    let squad = profile.trees().into_iter().find(|r| r.name == "Squadmate").unwrap();
    assert_eq!(squad.calls, 100, "two squad members, 50 ticks");
    let nodes = profile.tree_nodes();
    let root = nodes.iter().find(|r| r.name == "Guard #0 fallback").expect("the guard's root");
    // Event-driven: the root is ticked on the ticks something changed, not on all 50.
    assert!(root.calls > 0 && root.calls < 50, "{}", root.calls);
    assert!(
        nodes.iter().any(|r| r.name == "Guard #18 wait(15)"),
        "{:?}",
        nodes.iter().map(|r| &r.name).collect::<Vec<_>>()
    );
    let report = profile.report();
    assert!(report.contains("behaviour trees (per tick; calls = character-ticks)"), "{report}");
    assert!(report.contains("Guard #0 fallback"), "{report}");
}

/// A copy of the guard example in a fresh folder.
fn copy_example(name: &str) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-trees-{name}-")).tempdir().unwrap().keep();
    for sub in ["", "trees", "leaves"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        for entry in std::fs::read_dir(Path::new(EXAMPLE).join(sub)).unwrap().flatten() {
            if entry.path().is_file() {
                std::fs::copy(entry.path(), dir.join(sub).join(entry.file_name())).unwrap();
            }
        }
    }
    dir
}

#[test]
fn a_tree_reloaded_while_a_leaf_runs_halts_it_starts_the_new_tree_and_keeps_the_blackboard() {
    let dir = copy_example("reload");
    let mut rt = load(&dir.join("scenario.toml"));
    rt.run(70);
    // Tick 70: the guard walks to the noise; its blackboard holds what the Lua service heard.
    let guard = rt.world().find("guard").unwrap();
    let running = rt.world().trees().get(guard).unwrap().running();
    let def = rt.world().trees().get(guard).unwrap().def().clone();
    let labels: Vec<&str> = running.iter().map(|&id| def.node(id).label.as_str()).collect();
    assert!(labels.contains(&"move_to(noise_x, noise_y)"), "{labels:?}");
    let board = |rt: &Runtime| rt.world().entity(guard).unwrap().blackboard.clone();
    let before = board(&rt);
    assert_eq!(before.get("heard_id"), Some(&Value::Int(1)));
    assert_eq!(before.get("noise"), Some(&Value::Bool(true)));

    // The designer saves a new tree: the guard now stands its ground and calls out.
    let tree = dir.join("trees/guard.bt");
    let new = "tree Guard {\n  blackboard { noise = false; noise_x = 0; noise_y = 0; shot = false; }\n  \
               sequence {\n    say(\"Reloaded: holding the line.\");\n    wait(30);\n  }\n}\n";
    std::fs::write(&tree, new).unwrap();
    let report = rt.reload_file(&tree);
    assert!(report.outcome.is_ok(), "{}", report.message());
    assert_eq!(report.entities, ["guard"]);
    rt.run(3);

    let ev = events(&rt);
    let at_71: Vec<(String, String)> = ev
        .iter()
        .filter(|e| e["tick"] == 70 && e["entity"] == "guard" && e["kind"] == "node")
        .map(|e| (e["name"].as_str().unwrap().to_owned(), e["status"].as_str().unwrap().to_owned()))
        .collect();
    assert_eq!(
        at_71,
        [
            ("move_to(noise_x, noise_y)", "halted"),
            ("timeout 60", "halted"),
            ("sequence", "halted"),
            ("guard noise abort lower_priority", "halted"),
            ("fallback", "halted"),
            ("say(\"Reloaded: holding the line.\")", "success"),
            ("wait(30)", "running"),
            ("sequence", "running"),
        ]
        .map(|(a, b)| (a.to_owned(), b.to_owned())),
        "the running leaf and its branch are halted and the new tree starts, on the first tick after the reload"
    );
    assert!(ev.iter().any(|e| e["kind"] == "reload" && e["ok"] == true && e["file"] == "trees/guard.bt"));
    let says: Vec<&str> =
        ev.iter().filter(|e| e["kind"] == "say" && e["tick"] == 70).filter_map(|e| e["text"].as_str()).collect();
    assert_eq!(says, ["Reloaded: holding the line."]);
    // The walk to the noise was dropped from the queue: the guard sleeps where it stood.
    let e = rt.world().entity(guard).unwrap();
    assert!(matches!(e.actions.front(), Some(tactica_engine::coord::Action::Sleep { .. })), "{:?}", e.actions.front());
    assert_eq!(board(&rt), before, "the blackboard is kept");

    // A broken save leaves the running tree alone.
    std::fs::write(&tree, "tree Guard { sequnce { wait(3); } }\n").unwrap();
    let report = rt.reload_file(&tree);
    assert!(report.message().contains("E0120"), "{}", report.message());
    assert!(report.message().contains("did you mean `sequence`?"), "{}", report.message());
    rt.run(2);
    assert!(
        rt.world().trees().get(guard).unwrap().running().iter().any(|&id| rt
            .world()
            .trees()
            .get(guard)
            .unwrap()
            .def()
            .node(id)
            .label
            == "wait(30)")
    );
}

/// A scenario (its folder named `name`) whose one character runs a script of `language`.
fn builder(name: &str, language: &str, script: &str) -> Runtime {
    let scenario = format!(
        "map = \"map.txt\"\nticks = 12\n[[entities]]\nname = \"scout\"\nkind = \"human\"\nat = [1, 1]\nscripts = [\"scout.{language}\"]\n"
    );
    let path =
        common::folder(&format!("trees-{name}-{language}"), &scenario, &[(&format!("scout.{language}"), script)]);
    common::play(&path)
}

/// The tree every language builds: a script leaf of the builder's own file, a wait, a line.
const GREETER: &str =
    "tree Greeter { blackboard { greeted = 0; } sequence { greet(); check greeted == 1; wait(3); say('Done.'); } }";

#[test]
fn trees_built_and_run_from_tac_lua_and_rhai_trace_alike() {
    let tac = format!(
        "kind behaviour;\non spawn {{\n  RunTree(BuildTree(\"{GREETER}\"));\n}}\nleaf greet {{\n  Say(\"Hello.\");\n  \
         SetBlackboard(\"greeted\", 1);\n  return success;\n}}\n"
    );
    let lua = format!(
        "function on_spawn()\n  RunTree(BuildTree(\"{GREETER}\"))\nend\nfunction greet()\n  Say(\"Hello.\")\n  \
         SetBlackboard(\"greeted\", 1)\n  return \"success\"\nend\n"
    );
    let rhai = format!(
        "fn on_spawn() {{\n    run_tree(build_tree(\"{GREETER}\"));\n}}\nfn greet() {{\n    say(\"Hello.\");\n    \
         set_blackboard(\"greeted\", 1);\n    \"success\"\n}}\n"
    );
    let traces: Vec<String> =
        [("tac", tac), ("lua", lua), ("rhai", rhai)].iter().map(|(l, s)| builder("greeter", l, s).trace()).collect();
    assert!(!traces[0].contains("script_error"), "{}", traces[0]);
    assert_eq!(traces[0], traces[1], "Lua");
    assert_eq!(traces[0], traces[2], "Rhai");
    let ev: Vec<serde_json::Value> = traces[0].lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let says: Vec<(u64, &str)> = ev
        .iter()
        .filter(|e| e["kind"] == "say")
        .map(|e| (e["tick"].as_u64().unwrap(), e["text"].as_str().unwrap()))
        .collect();
    // Built and run on tick 0, the tree starts on tick 1; the leaf's write is read back by the
    // `check` in the same tick; the wait of 3 ticks ends on tick 5; it runs again from tick 6
    // (the leaf's `Say` keeps the say cooldown, so its line is not repeated).
    assert_eq!(says, [(1, "Hello."), (5, "Done."), (10, "Done.")]);
    let greets = ev.iter().filter(|e| e["kind"] == "node" && e["name"] == "greet()").count();
    assert_eq!(greets, 1, "the leaf succeeds each run; the status is traced once");
}

#[test]
fn a_failing_script_leaf_is_reported_and_the_tree_goes_on() {
    let tree = "tree T { fallback { boom(); say('Fallback.'); } }";
    let lua = format!(
        "function on_spawn()\n  RunTree(BuildTree(\"{tree}\"))\nend\nfunction boom()\n  error('kaboom')\nend\n"
    );
    let rt = builder("kaboom", "lua", &lua);
    let ev = events(&rt);
    let errors = of_kind(&ev, "script_error", "message");
    assert!(errors.iter().all(|(_, who, m)| who == "scout" && m.contains("kaboom")), "{errors:?}");
    // Once a tick from the tree's start, the repeats counted on one line (docs/trace.md).
    let times: Vec<(u64, u64)> = common::error_runs(&rt).iter().map(|r| (r.0, r.3)).collect();
    assert_eq!(times, [(1, 11)], "once a tick: {errors:?}");
    assert_eq!(of_kind(&ev, "say", "text").len(), 11, "the fallback goes on every tick");
    // A leaf that returns no status is an error of its own.
    let lua =
        format!("function on_spawn()\n  RunTree(BuildTree(\"{tree}\"))\nend\nfunction boom()\n  return 42\nend\n");
    let rt = builder("forty-two", "lua", &lua);
    let errors = of_kind(&events(&rt), "script_error", "message");
    assert!(errors[0].2.contains("returned 42; a leaf returns"), "{errors:?}");
}

#[test]
fn build_tree_refuses_a_broken_tree_with_its_line_column_and_code() {
    let lua = "function on_spawn()\n  BuildTree(\"tree T {\\n  sequence { mvoe_to(1, 1); }\\n}\")\nend\n";
    let rt = builder("broken", "lua", lua);
    let errors = of_kind(&events(&rt), "script_error", "message");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].2.contains("line 2, column 14: [E0120] unknown leaf `mvoe_to`")
            && errors[0].2.contains("did you mean `move_to`?"),
        "{errors:?}"
    );
    let rhai = "fn on_spawn() { run_tree(\"nothing\"); }\n";
    let rt = builder("nothing", "rhai", rhai);
    let errors = of_kind(&events(&rt), "script_error", "message");
    assert!(errors[0].2.contains("a tree model (the scenario declares none; `BuildTree` builds one)"), "{errors:?}");
}

#[test]
fn the_blackboard_is_shared_by_scripts_and_trees_and_holds_at_most_1024_keys() {
    // A write is on the blackboard after the tick's scripts: each think reads the last tick's.
    let lua = "function on_think()\n  SetBlackboard('n', (GetBlackboard('n') or 0) + 1)\nend\n";
    let rt = builder("count", "lua", lua);
    let scout = rt.world().find("scout").unwrap();
    assert_eq!(rt.world().entity(scout).unwrap().blackboard.get("n"), Some(&Value::Int(12)), "written after each tick");
    // 1,100 new keys in one call: the first 1,024 are kept, the rest dropped with a note; a new
    // key after that is an error the script sees, setting a kept one is not.
    let lua = "function on_spawn()\n  for i = 1, 1100 do SetBlackboard('k' .. i, i) end\nend\n\
               function on_think()\n  SetBlackboard('k1', 0)\n  SetBlackboard('late', 1)\nend\n";
    let rt = builder("cap", "lua", lua);
    let ev = events(&rt);
    let notes = of_kind(&ev, "note", "name");
    assert_eq!(notes, [(0, "scout".to_owned(), "blackboard_dropped".to_owned())]);
    // Tick 0's think ran before the spawn's keys were applied: its `late` was the 1,101st new key
    // and went with the dropped ones. From tick 1 the script hears of the cap.
    let errors = of_kind(&ev, "script_error", "message");
    let times: Vec<(u64, u64)> = common::error_runs(&rt).iter().map(|r| (r.0, r.3)).collect();
    assert_eq!(times, [(1, 11)], "every think from tick 1: {errors:?}");
    assert!(
        errors[0].2.contains(
            "`SetBlackboard` argument 1: expected a key the blackboard has (it holds 1024 keys already), got `late`"
        ),
        "{errors:?}"
    );
    let board = &rt.world().entity(rt.world().find("scout").unwrap()).unwrap().blackboard;
    // `k1 = 0` is tick 0's think's (the call did not fail); the failing calls after changed nothing.
    assert_eq!(
        (board.len(), board.get("k1"), board.get("k1024"), board.get("k1025")),
        (1024, Some(&Value::Int(0)), Some(&Value::Int(1024)), None)
    );
}

/// `tactica check FILE` run in `dir`, without colour: the report.
fn check_in(dir: &Path, file: &str) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["check", file])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stderr), String::from_utf8_lossy(&out.stdout)))
}

/// The example's tree with one mistake made (`from` → `to`), checked: its report.
fn mistake(name: &str, from: &str, to: &str) -> (Option<i32>, String) {
    let dir = copy_example(name);
    let tree = dir.join("trees/guard.bt");
    let text = std::fs::read_to_string(&tree).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(&tree, text.replacen(from, to, 1)).unwrap();
    check_in(&dir, "trees/guard.bt")
}

#[test]
fn the_example_tree_checks_clean() {
    let (code, text) = check_in(Path::new(EXAMPLE), "trees/guard.bt");
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("1 file checked, 0 errors, 0 warnings"), "{text}");
}

#[test]
fn check_reports_a_misspelt_leaf() {
    let (code, text) = mistake("misspelt", "call_squad();", "cal_squad();");
    assert_eq!(code, Some(1));
    insta::assert_snapshot!(text);
}

#[test]
fn check_reports_an_unknown_blackboard_key() {
    let (code, text) = mistake("key", "guard noise abort", "guard noize abort");
    assert_eq!(code, Some(1));
    insta::assert_snapshot!(text);
}

#[test]
fn check_warns_of_a_child_that_can_never_run() {
    let (code, text) = mistake(
        "unreachable",
        "    subtree Patrol(from = post_a, to = post_b);",
        "    say(\"All quiet.\");\n    subtree Patrol(from = post_a, to = post_b);",
    );
    assert_eq!(code, Some(0), "a warning: the tree still loads");
    insta::assert_snapshot!(text);
}

#[test]
fn every_row_of_the_conformance_table_is_a_test() {
    let doc = std::fs::read_to_string("docs/trees.md").unwrap();
    let tests = std::fs::read_to_string("engine/src/decide/bt/tests.rs").unwrap();
    let table = &doc[doc.find("## Conformance").expect("the section")..];
    let table = &table[..table[3..].find("\n## ").map_or(table.len(), |i| i + 3)];
    let rows: Vec<&str> =
        table.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| node") && !l.starts_with("| ---")).collect();
    assert!(rows.len() >= 20, "{rows:?}");
    for row in rows {
        let cell = row.trim_end_matches('|').rsplit('|').next().unwrap().trim();
        let name = cell.trim_matches('`');
        assert!(tests.contains(&format!("fn {name}(")), "the row `{row}` names `{name}`, which is no test");
    }
}
