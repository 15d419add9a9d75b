//! Every decision model driven from `.tac`, Lua and Rhai: the same small scenario played once per
//! language, each asserting the exact outcome against the chapters' numbers and an independent
//! computation with the engine model called directly.

mod common;

use tactica::runtime::Runtime;
use tactica_engine::Value;
use tactica_engine::decide::bayes::Network;
use tactica_engine::decide::crowd::{Planner, Schedule};
use tactica_engine::decide::fsm::{STEALTH_GUARD, StateMachine};
use tactica_engine::decide::learn::{CHASE_FLOCK_EVADE, NeuralNetwork};
use tactica_engine::decide::rules::{ChainState, RuleSet, TECH_TREE, WorkingMemory};
use tactica_engine::decide::utility::dual_utility_candidates;
use tactica_engine::world::{EventKind, WorldRng};
use tactica_engine::{Table, decide::crowd::OFFICE_SCHEDULE};

/// The three languages' versions of one behaviour.
struct Scripts<'a> {
    tac: &'a str,
    lua: &'a str,
    rhai: &'a str,
}

/// Plays `scenario` (with `EXT` in its script name) once per language, model files alongside;
/// returns each run's `(tick, name, value)` notes.
fn play_all(name: &str, scenario: &str, models: &[(&str, &str)], s: &Scripts<'_>) -> Vec<(String, Runtime)> {
    [("tac", s.tac), ("lua", s.lua), ("rhai", s.rhai)]
        .into_iter()
        .map(|(ext, text)| {
            let script = format!("npc.{ext}");
            let mut files = models.to_vec();
            files.push((script.as_str(), text));
            let path = common::folder(&format!("decide-{name}-{ext}"), &scenario.replace("EXT", ext), &files);
            (ext.to_owned(), common::play(&path))
        })
        .collect()
}

/// The notes called `name`, with their ticks, in order; fails on any script error.
fn notes(rt: &Runtime, name: &str) -> Vec<(u64, Value)> {
    for e in rt.world().log().events() {
        if let EventKind::ScriptError { .. } = &e.kind {
            panic!("script error: {e:?}");
        }
    }
    rt.world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { name: n, value } if n == name => Some((e.tick, value.clone())),
            _ => None,
        })
        .collect()
}

fn values(rt: &Runtime, name: &str) -> Vec<Value> {
    notes(rt, name).into_iter().map(|(_, v)| v).collect()
}

fn strs(items: &[&str]) -> Value {
    Value::List(items.iter().map(|s| Value::from(*s)).collect())
}

fn float(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v:?}"))
}

const SCENARIO: &str = r#"
map = "map.txt"
ticks = TICKS
[models]
MODELS
[globals]
GLOBALS
[[entities]]
name = "npc"
kind = "villager"
at = [1, 1]
think_every = 1
scripts = ["npc.EXT"]
"#;

fn scenario(ticks: u64, models: &str, globals: &str, timeline: &str) -> String {
    SCENARIO.replace("TICKS", &ticks.to_string()).replace("MODELS", models).replace("GLOBALS", globals) + timeline
}

#[test]
fn fsm_stealth_guard_turns_alert_when_it_sees_the_player() {
    let sc = scenario(
        6,
        r#"guard = { fsm = "guard.fsm.toml" }"#,
        "Spotted = false",
        "[[timeline]]\ntick = 3\nset = { Spotted = true }\n",
    );
    let s = Scripts {
        tac: r#"ModelInput("guard", "health", 100);
ModelInput("guard", "sees_player", GetGlobal("Spotted"));
Note("state", FsmStep("guard"));
Note("hooks", FsmHooks("guard"));
"#,
        lua: r#"function on_think()
  Note("state", FsmStep("guard", {health = 100, sees_player = GetGlobal("Spotted")}))
  Note("hooks", FsmHooks("guard"))
end
"#,
        rhai: r#"fn on_think() {
    note("state", fsm_step("guard", #{health: 100, sees_player: get_global("Spotted")}));
    note("hooks", fsm_hooks("guard"));
}
"#,
    };
    for (lang, rt) in play_all("fsm", &sc, &[("guard.fsm.toml", STEALTH_GUARD)], &s) {
        let states = notes(&rt, "state");
        assert!(states.len() >= 5, "{lang}: {states:?}");
        // Independently: the engine machine stepped with the same facts.
        let m = StateMachine::from_toml(STEALTH_GUARD).unwrap();
        let mut inst = m.start();
        let mut rng = WorldRng::new(0);
        for (tick, got) in &states {
            let facts = Table::from([
                ("health".to_owned(), Value::Int(100)),
                ("sees_player".to_owned(), Value::Bool(*tick >= 3)),
            ]);
            m.step(&mut inst, &facts, &mut rng, &mut Vec::new());
            assert_eq!(got, &Value::from(m.name(inst.current)), "{lang} at tick {tick}");
            assert_eq!(got, &Value::from(if *tick >= 3 { "alert" } else { "idle" }), "{lang} at tick {tick}");
        }
        let hooks = notes(&rt, "hooks");
        let at3 = hooks.iter().find(|(t, _)| *t == 3).map(|(_, v)| v.clone()).unwrap();
        let expected =
            ["enter:alert:alert_guards", "enter:alert:sound_alarm", "enter:alert:find_cover", "tick:alert:pursue"];
        assert_eq!(at3, strs(&expected), "{lang}");
        assert_eq!(hooks[0].1, strs(&["tick:idle:patrol"]), "{lang}");
    }
}

/// The threat rule base of chapter 10 (Ex. 10-6, Table 10-3), the engine's own test data.
const THREAT: &str = include_str!("../engine/src/decide/fuzzy/threat.toml");

#[test]
fn fuzzy_threat_assessment_defuzzifies_to_the_chapters_number() {
    let sc = scenario(2, r#"threat = { fuzzy = "threat.toml" }"#, "", "");
    let s = Scripts {
        tac: r#"ModelInput("threat", "distance", 25);
ModelInput("threat", "size", 8);
Note("deploy", FuzzyEval("threat", "threat"));
Note("low", FuzzyDegree("threat", "threat", "low"));
"#,
        lua: r#"function on_think()
  Note("deploy", FuzzyEval("threat", "threat", {distance = 25, size = 8}))
  ModelInput("threat", "distance", 25)
  ModelInput("threat", "size", 8)
  Note("low", FuzzyDegree("threat", "threat", "low"))
end
"#,
        rhai: r#"fn on_think() {
    note("deploy", fuzzy_eval("threat", "threat", #{distance: 25, size: 8}));
    model_input("threat", "distance", 25);
    model_input("threat", "size", 8);
    note("low", fuzzy_degree("threat", "threat", "low"));
}
"#,
    };
    // By hand (Ex. 10-7): distance 25 is close 1/6, medium 0.75; size 8 is tiny 0.2, small 0.7333.
    let (close, medium, tiny, small) = (5.0 / 30.0, 0.75, 0.2, (8.0 - 2.5) / 7.5);
    let low = f64::max(f64::min(tiny, medium), f64::min(small, medium));
    let (med, high) = (f64::min(tiny, close), f64::min(small, close));
    let deploy = (low * 10.0 + med * 30.0 + high * 50.0) / (low + med + high);
    assert!((deploy - 19.375).abs() < 1e-9, "{deploy}");
    for (lang, rt) in play_all("fuzzy", &sc, &[("threat.toml", THREAT)], &s) {
        let d = values(&rt, "deploy");
        assert!(!d.is_empty(), "{lang}");
        assert!((float(&d[0]) - deploy).abs() < 1e-9, "{lang}: {d:?}");
        assert!((float(&values(&rt, "low")[0]) - low).abs() < 1e-9, "{lang}");
    }
}

#[test]
fn rules_tech_tree_chains_forward_once_and_proves_backward() {
    let sc = scenario(
        3,
        r#"tech = { rules = "tech.toml" }"#,
        "Phase = 0",
        "[[timeline]]\ntick = 1\nset = { Phase = 1 }\n[[timeline]]\ntick = 2\nset = { Phase = 2 }\n",
    );
    let s = Scripts {
        tac: r#"if (GetGlobal("Phase") == 0) {
  RulesAssert("tech", "Priest", "Yes");
  Note("prove", RulesProve("tech", "Barracks", "Yes"));
  Note("fired", RulesRun("tech"));
} else if (GetGlobal("Phase") == 1) {
  Note("fired", RulesRun("tech"));
} else {
  RulesAssert("tech", "StoneWalls", "Yes");
  Note("fired", RulesRun("tech"));
  Note("stonemason", RulesFact("tech", "Stonemason"));
}
"#,
        lua: r#"function on_think()
  local phase = GetGlobal("Phase")
  if phase == 0 then
    RulesAssert("tech", "Priest", "Yes")
    Note("prove", RulesProve("tech", "Barracks", "Yes"))
  elseif phase == 2 then
    RulesAssert("tech", "StoneWalls", "Yes")
  end
  Note("fired", RulesRun("tech"))
  if phase == 2 then Note("stonemason", RulesFact("tech", "Stonemason")) end
end
"#,
        rhai: r#"fn on_think() {
    let phase = get_global("Phase");
    if phase == 0 {
        rules_assert("tech", "Priest", "Yes");
        note("prove", rules_prove("tech", "Barracks", "Yes"));
    } else if phase == 2 {
        rules_assert("tech", "StoneWalls", "Yes");
    }
    note("fired", rules_run("tech"));
    if phase == 2 { note("stonemason", rules_fact("tech", "Stonemason")); }
}
"#,
    };
    // Independently, with the engine rule base.
    let rs = RuleSet::from_toml(TECH_TREE).unwrap();
    let (mut wm, mut st) = rs.memory();
    let mut rng = WorldRng::new(1);
    rs.assert(&mut wm, "Priest", "Yes").unwrap();
    assert!(rs.prove(&wm, "Barracks", "Yes").unwrap().proven);
    let mut expected = Vec::new();
    let mut run = |wm: &mut WorkingMemory, st: &mut ChainState| {
        let fired: Vec<&str> = rs.run(wm, st, &mut rng, 100).iter().map(|f| f.rule).collect();
        strs(&fired)
    };
    expected.push(run(&mut wm, &mut st));
    expected.push(run(&mut wm, &mut st));
    rs.assert(&mut wm, "StoneWalls", "Yes").unwrap();
    expected.push(run(&mut wm, &mut st));
    // The chapter's order (WE-10), and refraction: nothing new fires on unchanged facts.
    assert_eq!(expected[0], strs(&["priest", "blacksmith_maybe", "woodwalls_maybe", "stonewalls_maybe"]));
    assert_eq!(expected[1], strs(&[]));
    assert_eq!(expected[2], strs(&["stonewalls"]));
    for (lang, rt) in play_all("rules", &sc, &[("tech.toml", TECH_TREE)], &s) {
        assert_eq!(values(&rt, "prove"), [Value::Bool(true)], "{lang}");
        // Lua cannot tell an empty list from an empty table: its `Note` records `{}` as a map.
        let fired: Vec<Value> = values(&rt, "fired")
            .into_iter()
            .map(|v| if v == Value::Map(Table::new()) { Value::List(Vec::new()) } else { v })
            .collect();
        assert_eq!(fired, expected, "{lang}");
        assert_eq!(values(&rt, "stonemason"), [Value::from("Yes")], "{lang}");
    }
}

const LOCKER: &str = r#"
[[nodes]]
name = "Trapped"
table = [[0.37, 0.63]]
[[nodes]]
name = "Locked"
parents = ["Trapped"]
table = [[0.78, 0.22], [0.29, 0.71]]
"#;

#[test]
fn bayes_locked_locker_is_trapped_with_p_061() {
    let sc = scenario(1, r#"locker = { bayes = "locker.toml" }"#, "", "");
    let s = Scripts {
        tac: r#"ModelInput("locker", "Locked", "true");
Note("p", BayesQuery("locker", "Trapped", "true"));
ModelClear("locker");
Note("prior", BayesQuery("locker", "Trapped", "true"));
"#,
        lua: r#"function on_think()
  Note("p", BayesQuery("locker", "Trapped", "true", {Locked = "true"}))
  Note("prior", BayesQuery("locker", "Trapped", "true"))
end
"#,
        rhai: r#"fn on_think() {
    note("p", bayes_query("locker", "Trapped", "true", #{Locked: "true"}));
    note("prior", bayes_query("locker", "Trapped", "true"));
}
"#,
    };
    // Bayes' rule by hand (WE-22): P(T|L) = P(L|T) P(T) / P(L).
    let by_hand: f64 = 0.78 * 0.37 / (0.78 * 0.37 + 0.29 * 0.63);
    assert!((by_hand - 0.61).abs() < 0.01);
    let net = Network::from_toml(LOCKER).unwrap();
    assert!((net.posterior(0, &[(1, 0)]).unwrap()[0] - by_hand).abs() < 1e-12);
    for (lang, rt) in play_all("bayes", &sc, &[("locker.toml", LOCKER)], &s) {
        let p = values(&rt, "p");
        assert!((float(&p[0]) - by_hand).abs() < 1e-12, "{lang}: {p:?}");
        assert!((float(&values(&rt, "prior")[0]) - 0.37).abs() < 1e-12, "{lang}");
    }
}

/// The dual-utility selection example (S4): X (rank 1, weight 5), Y (1, 1), Z (0, 100), V (2, 0),
/// with options dropped below 30 % of the best; and `flee`, ranked above all when hurt.
const BRAIN: &str = r#"
[reasoner]
type = "dual_utility"
far_below = 30

[[reasoner.options]]
name = "flee"
considerations = [ { type = "boolean_variable", variable = "hurt", weight_function = { type = "boolean", true_weights = { rank = 3 }, false_weights = { veto = true } } } ]
actions = [ { type = "emit", name = "flee" } ]

[[reasoner.options]]
name = "x"
considerations = [ { type = "tuning", rank = 1, multiplier = 5 } ]
actions = [ { type = "emit", name = "x" } ]

[[reasoner.options]]
name = "y"
considerations = [ { type = "tuning", rank = 1, multiplier = 1 } ]
actions = [ { type = "emit", name = "y" } ]

[[reasoner.options]]
name = "z"
considerations = [ { type = "tuning", rank = 0, multiplier = 100 } ]
actions = [ { type = "emit", name = "z" } ]

[[reasoner.options]]
name = "v"
considerations = [ { type = "tuning", rank = 2, multiplier = 0 } ]
actions = [ { type = "emit", name = "v" } ]
"#;

#[test]
fn utility_dual_utility_picks_the_examples_option() {
    let sc = scenario(
        4,
        r#"brain = { utility = "brain.toml" }"#,
        "Hurt = false",
        "[[timeline]]\ntick = 2\nset = { Hurt = true }\n",
    );
    let s = Scripts {
        tac: r#"ModelInput("brain", "hurt", GetGlobal("Hurt"));
Note("choice", UtilityChoose("brain"));
"#,
        lua: r#"function on_think()
  Note("choice", UtilityChoose("brain", {hurt = GetGlobal("Hurt")}))
end
"#,
        rhai: r#"fn on_think() {
    note("choice", utility_choose("brain", #{hurt: get_global("Hurt")}));
}
"#,
    };
    // Independently: the example's candidates with far_below 30 % are X alone, with certainty.
    assert_eq!(dual_utility_candidates(&[(1.0, 5.0), (1.0, 1.0), (0.0, 100.0), (2.0, 0.0)], Some(30.0)), [(0, 1.0)]);
    for (lang, rt) in play_all("utility", &sc, &[("brain.toml", BRAIN)], &s) {
        let choices = notes(&rt, "choice");
        assert_eq!(choices.len(), 4, "{lang}");
        for (tick, c) in choices {
            assert_eq!(c, Value::from(if tick >= 2 { "flee" } else { "x" }), "{lang} at tick {tick}");
        }
    }
}

fn net_file() -> String {
    let rows: Vec<String> =
        CHASE_FLOCK_EVADE.iter().map(|r| format!("  [{}],", r.map(|x| x.to_string()).join(", "))).collect();
    format!(
        "inputs = [\"friends\", \"hit_points\", \"enemy_engaged\", \"distance\"]\noutputs = [\"chase\", \"flock\", \"evade\"]\nhidden = 3\nseed = 14\nlearning_rate = 0.2\nmomentum = 0.9\n[train]\ntarget = 0.05\nmax_epochs = 50000\nrows = [\n{}\n]\n",
        rows.join("\n")
    )
}

#[test]
fn nn_trained_from_a_seed_chooses_the_chapters_behaviours() {
    let sc = scenario(1, r#"net = { nn = "net.toml" }"#, "", "");
    let s = Scripts {
        tac: r#"ModelInput("net", "friends", 0.1);
ModelInput("net", "hit_points", 0.5);
ModelInput("net", "distance", 0.2);
Note("row4", NnRun("net"));
Note("chase", NnOutput("net", "chase"));
ModelInput("net", "friends", 0);
ModelInput("net", "hit_points", 0.2);
ModelInput("net", "enemy_engaged", 1);
Note("row6", NnRun("net"));
"#,
        lua: r#"function on_think()
  Note("row4", NnRun("net", {friends = 0.1, hit_points = 0.5, enemy_engaged = 0, distance = 0.2}))
  ModelInput("net", "friends", 0.1)
  ModelInput("net", "hit_points", 0.5)
  ModelInput("net", "distance", 0.2)
  Note("chase", NnOutput("net", "chase"))
  Note("row6", NnRun("net", {hit_points = 0.2, enemy_engaged = 1, distance = 0.2}))
end
"#,
        rhai: r#"fn on_think() {
    note("row4", nn_run("net", #{friends: 0.1, hit_points: 0.5, enemy_engaged: 0, distance: 0.2}));
    model_input("net", "friends", 0.1);
    model_input("net", "hit_points", 0.5);
    model_input("net", "distance", 0.2);
    note("chase", nn_output("net", "chase"));
    note("row6", nn_run("net", #{hit_points: 0.2, enemy_engaged: 1, distance: 0.2}));
}
"#,
    };
    // Independently: the same seed and training set give the same network (error ≤ 0.05).
    let mut net = NeuralNetwork::new(4, 3, 3, &mut WorldRng::new(14));
    net.learning_rate = 0.2;
    net.momentum = Some(0.9);
    let rows: Vec<Vec<f64>> = CHASE_FLOCK_EVADE.iter().map(|r| r.to_vec()).collect();
    let report = net.train(&rows, 0.05, 50_000);
    assert!(report.error <= 0.05 && report.epochs < 50_000, "{report:?}");
    let chase = net.run(&[0.1, 0.5, 0.0, 0.2])[0];
    assert_eq!(net.max_output_id(), 0, "row 4 is a chase row");
    net.run(&[0.0, 0.2, 1.0, 0.2]);
    assert_eq!(net.max_output_id(), 2, "row 6 is an evade row");
    let text = net_file();
    for (lang, rt) in play_all("nn", &sc, &[("net.toml", &text)], &s) {
        assert_eq!(values(&rt, "row4"), [Value::from("chase")], "{lang}");
        assert_eq!(values(&rt, "row6"), [Value::from("evade")], "{lang}");
        assert_eq!(float(&values(&rt, "chase")[0]), chase, "{lang}");
    }
}

const DOMAIN: &str = r#"
[[rules]]
action = "go-to-restaurant"
pre = ["at-home", "is-hungry"]
post = ["~at-home", "at-restaurant"]
[[rules]]
action = "eat"
pre = ["at-restaurant", "is-hungry"]
post = ["~is-hungry", "has-eaten"]
[[rules]]
action = "go-home"
pre = ["at-restaurant"]
post = ["~at-restaurant", "at-home"]
"#;

const ERRANDS: &str = r#"
[scripts.errand]
steps = [ { move_to = "shop" }, { say = "Bread, please." } ]
fallback = "complain"

[scripts.complain]
steps = [ { say = "Closed again!" }, { wait = 2 } ]
"#;

#[test]
fn crowd_schedule_queue_and_planner() {
    let sc = scenario(
        4,
        "office = { schedule = \"office.sched\" }\nerrands = { actions = \"errands.toml\" }\nplans = { planner = \"plans.toml\" }",
        "\"closed:shop\" = true\nDayStartHour = 9\nSecondsPerHour = 0.1",
        "[places]\nshop = [8, 1]\n",
    );
    let s = Scripts {
        tac: r#"Note("hour", HourOfDay());
Note("task", ScheduleTask("office", HourOfDay()));
Note("night", ScheduleTask("office", 21));
Note("plan", Plan("plans", "has-eaten, at-home", "at-home, is-hungry"));
Note("next", PlanNext("plans", "has-eaten", "at-home, is-hungry"));
Note("queue", QueueRun("errands", "errand"));
"#,
        lua: r#"function on_think()
  Note("hour", HourOfDay())
  Note("task", ScheduleTask("office", HourOfDay()))
  Note("night", ScheduleTask("office", 21))
  Note("plan", Plan("plans", {"has-eaten", "at-home"}, {"at-home", "is-hungry"}))
  Note("next", PlanNext("plans", {"has-eaten"}, {"at-home", "is-hungry"}))
  Note("queue", QueueRun("errands", "errand"))
end
"#,
        rhai: r#"fn on_think() {
    note("hour", hour_of_day());
    note("task", schedule_task("office", hour_of_day()));
    note("night", schedule_task("office", 21));
    note("plan", plan("plans", ["has-eaten", "at-home"], ["at-home", "is-hungry"]));
    note("next", plan_next("plans", ["has-eaten"], ["at-home", "is-hungry"]));
    note("queue", queue_run("errands", "errand"));
}
"#,
    };
    // Independently: the book's schedule and a breadth-first plan.
    let sched = Schedule::from_script(OFFICE_SCHEDULE).unwrap();
    assert_eq!(sched.block_at(9.0).unwrap().tasks[0], "go-work-at-workstation");
    let p = Planner::from_toml(DOMAIN).unwrap();
    let plan = p.search(p.state(&["at-home", "is-hungry"]).unwrap(), p.literals(&["has-eaten", "at-home"]).unwrap(), 8);
    let plan: Vec<&str> = plan.unwrap().iter().map(|&a| p.action(a)).collect();
    assert_eq!(plan, ["go-to-restaurant", "eat", "go-home"]);
    let files = [("office.sched", OFFICE_SCHEDULE), ("errands.toml", ERRANDS), ("plans.toml", DOMAIN)];
    for (lang, rt) in play_all("crowd", &sc, &files, &s) {
        // Tick t at 10 ticks a second is 0.1 t seconds = t hours after 9 o'clock.
        for (tick, h) in notes(&rt, "hour") {
            assert!((float(&h) - (9.0 + tick as f64)).abs() < 1e-9, "{lang}");
        }
        assert_eq!(values(&rt, "task")[0], Value::from("go-work-at-workstation"), "{lang}");
        assert_eq!(values(&rt, "night")[0], Value::from("go-stay-offsite"), "{lang}");
        assert_eq!(values(&rt, "plan")[0], strs(&plan), "{lang}");
        assert_eq!(values(&rt, "next")[0], Value::from("go-to-restaurant"), "{lang}");
        // The shop is closed: the errand fails at once, is flushed, and the fallback complains.
        assert_eq!(values(&rt, "queue_fail"), [Value::from("errand: `shop` is closed")], "{lang}");
        assert_eq!(values(&rt, "queue")[0], Value::from("complain"), "{lang}");
        let said: Vec<&str> = rt
            .world()
            .log()
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Say { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(said.first(), Some(&"Closed again!"), "{lang}");
    }
}

#[test]
fn model_errors_carry_file_line_column_and_a_hint() {
    let load = |name: &str, models: &str, files: &[(&str, &str)]| {
        let sc = scenario(1, models, "", "").replace("scripts = [\"npc.EXT\"]", "");
        let path = common::folder(name, &sc, files);
        tactica::scenario::load(&path).unwrap_err()
    };
    // A misspelt kind: did-you-mean, at the scenario's line.
    let e = load("decide-err-kind", r#"guard = { fms = "g.toml" }"#, &[("g.toml", STEALTH_GUARD)]);
    assert_eq!(e.hint.as_deref(), Some("did you mean `fsm`?"), "{e}");
    assert_eq!(e.pos.line, 5, "{e}");
    // A type error inside the model file: that file's line and column.
    let e = load(
        "decide-err-parse",
        r#"guard = { fsm = "g.toml" }"#,
        &[("g.toml", "initial = \"a\"\n[[states]]\nname = 3\n")],
    );
    assert!(e.file.ends_with("g.toml"), "{e}");
    assert_eq!((e.pos.line, e.pos.column), (3, 8), "{e}");
    // An unknown state named in a transition: found where it is written.
    let bad = "initial = \"a\"\n[[states]]\nname = \"a\"\ntransitions = [ { to = \"nowhere\" } ]\n";
    let e = load("decide-err-name", r#"guard = { fsm = "g.toml" }"#, &[("g.toml", bad)]);
    assert!(e.message.contains("nowhere"), "{e}");
    assert_eq!(e.pos.line, 4, "{e}");
    // A missing file.
    let e = load("decide-err-missing", r#"guard = { fsm = "absent.toml" }"#, &[]);
    assert!(e.message.contains("model `guard`: the file") && e.message.contains("absent.toml` cannot be read"), "{e}");
}

#[test]
fn model_files_reload_all_or_nothing_and_keep_each_characters_state() {
    let sc = scenario(2, r#"guard = { fsm = "guard.fsm.toml" }"#, "", "").replace("EXT", "lua");
    let lua = "function on_think() Note(\"state\", FsmStep(\"guard\", {health = 100, sees_player = true})) end\n";
    let path = common::folder("decide-reload", &sc, &[("guard.fsm.toml", STEALTH_GUARD), ("npc.lua", lua)]);
    let mut rt = common::play(&path);
    assert_eq!(values(&rt, "state").last(), Some(&Value::from("alert")));
    let model = path.parent().unwrap().join("guard.fsm.toml");
    // A broken file is refused; the old machine keeps running.
    std::fs::write(&model, "initial = 3\n").unwrap();
    assert!(rt.reload_file(&model).outcome.is_err());
    // A new machine where `alert` leads on to `attack` at once: the guard, still in `alert`, moves on.
    let changed = STEALTH_GUARD
        .replace(r#"transitions = [ { when = "in_range", to = "attack" } ]"#, r#"transitions = [ { to = "attack" } ]"#);
    assert_ne!(changed, STEALTH_GUARD);
    std::fs::write(&model, changed).unwrap();
    assert!(rt.reload_file(&model).outcome.is_ok());
    rt.run(1);
    assert_eq!(values(&rt, "state").last(), Some(&Value::from("attack")));
}
