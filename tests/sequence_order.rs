//! Sequences are programs: every call in a sequence takes effect at its place. Generated from the
//! one API table: each function that changes anything when called (found by calling it, not by
//! a list) is put after a `wait` in a sequence, in `.tac`, Lua and Rhai, and its effect must come
//! after the release — the world and the trace up to the release are those of the same sequence
//! without the call, and what the call asked for waits in the character's queue until then.
//! A function the generated arguments cannot run must be given arguments here, so a new function
//! with an effect is never left out; the scenario declares a model of every kind, a flock, a
//! formation and tile patterns, so that every function of the table is called (one, named in
//! `NOT_PROBED`, with the reason it is not).

use std::path::{Path, PathBuf};

use tactica::runtime::Runtime;
use tactica_engine::Value;
use tactica_engine::world::{CommandBuffer, EventKind, WorldRng};
use tactica_stdlib::{Api, HostFn, ScriptCtx, Table, Type};

const MAP: &str = "\
............
............
.....#......
.....#......
............
............
";

/// The scenario: an actor that waits for `go` and then makes the call, a caller that signals `go`
/// after a sleep, a door, a place, a region, a query and a model to name.
const SCENARIO: &str = r#"
map = "map.txt"
seed = 7
ticks = 20
player = "hero"
[places]
kSpot = [9, 1]
[regions.kYard]
min = [8, 4]
max = [10, 5]
[doors.back]
cells = [[5, 2], [5, 3]]
open = false
[queries]
files = ["cover.tps"]
[models]
idle = { tree = "idle.bt" }
guard = { fsm = "guard.fsm.toml" }
threat = { fuzzy = "threat.toml" }
tech = { rules = "tech.toml" }
locker = { bayes = "locker.toml" }
brain = { utility = "brain.toml" }
net = { nn = "net.toml" }
raiders = { genetic = "raiders.toml" }
duel = { adaptive = "duel.toml" }
office = { schedule = "office.sched" }
errands = { actions = "errands.toml" }
plans = { planner = "plans.toml" }
[steering.flocks.birds]
kind = "bird"
[steering.formations.squad]
captain = "sarge"
members = ["private"]
shape = "line"
path = [[10, 0]]
[steering.tile_routes]
round = [[0, 0], [2, 0], [2, 2], [0, 0]]
[steering.tile_steps]
square = [{ forward = 2 }, { turn_right = 2 }]
[steering.tile_grids]
lanes = [[[0, 0], [4, 0]], [[2, 0], [2, 4]]]
[field]
teams = ["t"]
layers = ["cover", "exposure", "territory"]
[[entities]]
name = "hero"
kind = "human"
at = [11, 5]
[[entities]]
name = "robin"
kind = "bird"
at = [6, 0]
[[entities]]
name = "sarge"
kind = "soldier"
at = [10, 5]
[[entities]]
name = "private"
kind = "soldier"
at = [9, 5]
[[entities]]
name = "actor"
kind = "soldier"
team = "t"
tags = ["actor"]
at = [1, 1]
speed = 2.0
scripts = ["actor.EXT"]
[[entities]]
name = "caller"
kind = "soldier"
team = "t"
tags = ["caller"]
at = [1, 4]
scripts = ["caller.EXT"]
"#;

const QUERY: &str = "\
query Spot {
    option {
        Generation { grid_around_puppet = 3 }
        Weights    { distance_from_puppet = -1.0 }
    }
}
";

/// The decision models the scenario declares, so that every model function has one to read.
const MODELS: &[(&str, &str)] = &[
    ("guard.fsm.toml", tactica_engine::decide::fsm::STEALTH_GUARD),
    ("threat.toml", include_str!("../engine/src/decide/fuzzy/threat.toml")),
    ("tech.toml", tactica_engine::decide::rules::TECH_TREE),
    (
        "locker.toml",
        "[[nodes]]\nname = \"Trapped\"\ntable = [[0.37, 0.63]]\n[[nodes]]\nname = \"Locked\"\nparents = [\"Trapped\"]\ntable = [[0.78, 0.22], [0.29, 0.71]]\n",
    ),
    (
        "brain.toml",
        "[reasoner]\ntype = \"dual_utility\"\n[[reasoner.options]]\nname = \"flee\"\nconsiderations = [ { type = \"boolean_variable\", variable = \"hurt\", weight_function = { type = \"boolean\", true_weights = { rank = 3 }, false_weights = { veto = true } } } ]\nactions = [ { type = \"emit\", name = \"flee\" } ]\n[[reasoner.options]]\nname = \"idle\"\nconsiderations = [ { type = \"tuning\", rank = 1, multiplier = 1 } ]\nactions = [ { type = \"emit\", name = \"idle\" } ]\n",
    ),
    (
        "net.toml",
        "inputs = [\"a\"]\noutputs = [\"x\", \"y\"]\nhidden = 2\nseed = 1\nlearning_rate = 0.2\nmomentum = 0.9\n[train]\ntarget = 0.5\nmax_epochs = 10\nrows = [[1, 1, 0], [0, 0, 1]]\n",
    ),
    ("raiders.toml", "genes = [[0, 1, 2], [0, 1]]\nsize = 4\nmutation_percent = 20\nseed = 11\n"),
    ("duel.toml", "tactics = [\"defensive\", \"berserk\"]\ndefault = \"defensive\"\n"),
    ("office.sched", tactica_engine::decide::crowd::OFFICE_SCHEDULE),
    (
        "errands.toml",
        // The errand's first step is instant: `.tac` notes what `QueueRun` returns, and that note
        // is queued behind the step the call issued (a walk would hold it past this test's wait).
        "[scripts.errand]\nsteps = [ { say = \"Bread, please.\" }, { move_to = \"kSpot\" } ]\nfallback = \"complain\"\n[scripts.complain]\nsteps = [ { say = \"Closed again!\" } ]\n",
    ),
    (
        "plans.toml",
        "[[rules]]\naction = \"go-out\"\npre = [\"at-home\"]\npost = [\"~at-home\", \"out\"]\n[[rules]]\naction = \"eat\"\npre = [\"out\", \"is-hungry\"]\npost = [\"~is-hungry\", \"has-eaten\"]\n",
    ),
];

/// Tables the generated calls pass (`FindPosition`'s options, a model's facts, inputs and
/// evidence), as Lua and Rhai write them. `.tac` has no map literal: a call that passes one is
/// Lua's and Rhai's.
const TABLES: &[(&str, &str, &str)] = &[
    ("OPTIONS", "{reserve = true}", "#{reserve: true}"),
    ("FACTS", "{health = 100, sees_player = true}", "#{health: 100, sees_player: true}"),
    ("INPUTS", "{distance = 25, size = 8}", "#{distance: 25, size: 8}"),
    ("EVIDENCE", "{Locked = \"true\"}", "#{Locked: \"true\"}"),
    ("SITUATION", "{hurt = true}", "#{hurt: true}"),
    ("NN_INPUTS", "{a = 1}", "#{a: 1}"),
];

/// A table token's value, as the scripts pass it.
fn table_value(token: &str) -> Option<Value> {
    let map = |pairs: &[(&str, Value)]| Value::Map(pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect());
    Some(match token {
        "OPTIONS" => map(&[("reserve", Value::Bool(true))]),
        "FACTS" => map(&[("health", Value::Int(100)), ("sees_player", Value::Bool(true))]),
        "INPUTS" => map(&[("distance", Value::Int(25)), ("size", Value::Int(8))]),
        "EVIDENCE" => map(&[("Locked", Value::from("true"))]),
        "SITUATION" => map(&[("hurt", Value::Bool(true))]),
        "NN_INPUTS" => map(&[("a", Value::Int(1))]),
        _ => return None,
    })
}

/// A token as `ext` writes it (tables, the path), or the text itself.
fn in_language<'a>(ext: &str, text: &'a str) -> &'a str {
    if text == "PATH" {
        return match ext {
            "lua" => "{{2, 1}, {3, 1}}",
            "rhai" => "[[2, 1], [3, 1]]",
            _ => "FindPath(3, 1)",
        };
    }
    match TABLES.iter().find(|(t, ..)| *t == text) {
        Some((_, lua, _)) if ext == "lua" => lua,
        Some((_, _, rhai)) if ext == "rhai" => rhai,
        _ => text,
    }
}

/// The hero's handle as an argument (Lua and Rhai read it into a local before the wait, so that
/// the call after the wait is the only one there).
const HERO: &str = "FindEntity(\"hero\")";

/// When the caller releases the actor: after its sleep.
const SLEEP: u32 = 5;

/// Arguments (script text, the same in the three languages) for functions the generated ones
/// cannot run. Every other function is called with arguments made from its parameter types.
fn recipe(name: &str, arity: usize) -> Option<Vec<&'static str>> {
    Some(match (name, arity) {
        ("Signal" | "Wait", 2) => vec!["\"go2\"", "\"team\""],
        ("SetGlobal" | "Note", 2) => vec!["\"g\"", "2"],
        ("FollowPath", 1) => vec!["PATH"],
        ("FindPosition", 1) => vec!["\"Spot\""],
        ("RunPattern", 1) => vec!["\"patrol\""],
        ("OpenDoor" | "CloseDoor", 1) => vec!["\"back\""],
        ("BestWaypoint", 4) => vec!["\"cover\"", "2", "2", "3"],
        ("BuildTree", 1) => vec!["\"tree Idle { wait(10); }\""],
        ("RunTree", 1) => vec!["\"idle\""],
        ("FindPosition", 2) => vec!["\"Spot\"", "OPTIONS"],
        ("InfluenceAt", 3) => vec!["\"t\"", "2", "2"],
        ("LayerAt", 3) => vec!["\"cover\"", "2", "2"],
        ("BestCell", 4) => vec!["\"cover\"", "2", "2", "3"],
        ("BestCellIn", 2) => vec!["\"cover\"", "\"kYard\""],
        ("ModelInput", 3) => vec!["\"guard\"", "\"health\"", "100"],
        ("ModelClear" | "FsmStep" | "FsmState" | "FsmHooks", 1) => vec!["\"guard\""],
        ("FsmStep", 2) => vec!["\"guard\"", "FACTS"],
        ("FuzzyEval" | "FuzzyCentroid", 2) => vec!["\"threat\"", "\"threat\""],
        ("FuzzyEval", 3) => vec!["\"threat\"", "\"threat\"", "INPUTS"],
        ("FuzzyDegree", 3) => vec!["\"threat\"", "\"threat\"", "\"low\""],
        ("RulesAssert", 3) => vec!["\"tech\"", "\"Priest\"", "\"Yes\""],
        ("RulesRun", 1) => vec!["\"tech\""],
        ("RulesFact", 2) => vec!["\"tech\"", "\"Priest\""],
        ("RulesProve", 3) => vec!["\"tech\"", "\"Barracks\"", "\"Yes\""],
        ("BayesQuery", 3) => vec!["\"locker\"", "\"Trapped\"", "\"true\""],
        ("BayesQuery", 4) => vec!["\"locker\"", "\"Trapped\"", "\"true\"", "EVIDENCE"],
        ("UtilityChoose", 1) => vec!["\"brain\""],
        ("UtilityChoose" | "UtilityDecide", 2) => vec!["\"brain\"", "SITUATION"],
        ("NnRun", 1) => vec!["\"net\""],
        ("NnRun", 2) => vec!["\"net\"", "NN_INPUTS"],
        ("NnOutput", 2) => vec!["\"net\"", "\"x\""],
        ("GeneticGenome", 2) => vec!["\"raiders\"", "0"],
        ("GeneticScore", 4) => vec!["\"raiders\"", "0", "2", "1"],
        ("GeneticEvolve" | "GeneticGeneration", 1) => vec!["\"raiders\""],
        ("AdaptiveChoose", 2) => vec!["\"duel\"", "\"open\""],
        ("AdaptiveRecord", 4) => vec!["\"duel\"", "\"open\"", "\"berserk\"", "1"],
        ("AdaptiveRate", 3) => vec!["\"duel\"", "\"open\"", "\"berserk\""],
        ("ScheduleTask", 2) => vec!["\"office\"", "9"],
        ("ScheduleDue", 3) => vec!["\"office\"", "8", "10"],
        ("QueueRun", 2) => vec!["\"errands\"", "\"errand\""],
        ("QueueFail" | "QueueCurrent", 1) => vec!["\"errands\""],
        ("Plan" | "PlanNext", 3) => vec!["\"plans\"", "\"has-eaten\"", "\"at-home, is-hungry\""],
        ("JoinFlock", 1) => vec!["\"birds\""],
        ("FormUp", 2) => vec!["SARGE", "0"],
        ("RunTileRoute", 1) => vec!["\"round\""],
        ("WanderTileGrid", 1) => vec!["\"lanes\""],
        ("RunTileSteps", 1) => vec!["\"square\""],
        _ => return None,
    })
}

/// Functions this test cannot call, each with why. A function listed here that runs with the
/// arguments above fails the test, so the list cannot hide one.
const NOT_PROBED: &[&str] = &[
    // Reads a team's influence over a declared waypoint graph, and changes nothing. Declaring a
    // graph here would route every move of this scenario over it, changing what every move
    // function this test probes does; tests/graph_influence.rs plays it in all three languages.
    "GraphInfluenceAt",
];

/// An argument of type `ty` as script text.
fn argument(ty: &Type) -> &'static str {
    match ty {
        Type::Int | Type::Number => "2",
        Type::Bool => "true",
        Type::Str => "\"go2\"",
        Type::Symbol(family) => match family.as_str() {
            "place" => "\"kSpot\"",
            "sound" => "\"kSnd\"",
            "trap" => "\"kTrap\"",
            "weapon" => "\"Dagger\"",
            "kind" => "\"human\"",
            "structure" => "\"kBarracks\"",
            "state" => "\"kPatrol\"",
            _ => "\"x\"",
        },
        Type::Any | Type::Nil => "FindEntity(\"hero\")",
    }
}

/// An argument's script text as the value the script passes.
fn value_of(text: &str, hero: Value, sarge: Value) -> Value {
    match text {
        "FindEntity(\"hero\")" => hero,
        "SARGE" => sarge,
        t if table_value(t).is_some() => table_value(t).unwrap_or(Value::Nil),
        "PATH" => Value::List(vec![
            Value::List(vec![Value::Int(2), Value::Int(1)]),
            Value::List(vec![Value::Int(3), Value::Int(1)]),
        ]),
        "true" => Value::Bool(true),
        t if t.starts_with('"') => Value::Str(t.trim_matches('"').to_owned()),
        t => t.parse::<i64>().map(Value::Int).unwrap_or_else(|_| panic!("no value for `{t}`")),
    }
}

/// One overload and the arguments it is called with.
struct Call {
    name: &'static str,
    args: Vec<&'static str>,
}

fn folder(tag: &str, files: &[(&str, String)]) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-sequence-order-{tag}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), MAP).unwrap();
    std::fs::write(dir.join("cover.tps"), QUERY).unwrap();
    std::fs::write(dir.join("idle.bt"), "tree Idle { wait(10); }\n").unwrap();
    for (file, text) in MODELS {
        std::fs::write(dir.join(file), text).unwrap();
    }
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    dir.join("scenario.toml")
}

fn load(path: &Path) -> Runtime {
    let scenario = tactica::scenario::load(path).unwrap_or_else(|e| panic!("{e}"));
    Runtime::new(scenario, tactica::languages())
        .unwrap_or_else(|e| panic!("{}", e.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")))
}

/// The functions of the table that change something when called, each with its arguments; panics
/// naming the functions the generated arguments cannot run.
fn calls_with_an_effect(ext: &str) -> Vec<Call> {
    let api = Api::standard();
    let path = folder(
        &format!("probe-{ext}"),
        &[(
            "scenario.toml",
            SCENARIO.replace("scripts = [\"actor.EXT\"]", "").replace("scripts = [\"caller.EXT\"]", ""),
        )],
    );
    let rt = load(&path);
    let world = rt.world();
    let me = world.entities().find(|(_, e)| e.name == "actor").unwrap().0;
    let hero = world.entities().find(|(_, e)| e.name == "hero").unwrap().0;
    let sarge = world.entities().find(|(_, e)| e.name == "sarge").unwrap().0;
    let mut found = Vec::new();
    let mut unrunnable = Vec::new();
    for f in api.all_functions() {
        let args: Vec<&'static str> =
            recipe(f.name, f.params.len()).unwrap_or_else(|| f.params.iter().map(|p| argument(&p.ty)).collect());
        let values: Vec<Value> = args.iter().map(|a| value_of(a, Value::Entity(hero), Value::Entity(sarge))).collect();
        let mut commands = CommandBuffer::default();
        let mut rng = WorldRng::new(1);
        let mut table = Table::new();
        let mut ctx = ScriptCtx::new(world, me, &mut commands, &mut rng, &mut table);
        // A fuzzy rule base's table-less forms read the inputs `ModelInput` gave it (kept in
        // the script's own state, no command).
        if f.name.starts_with("Fuzzy") {
            let input = api.functions("ModelInput").next().expect("ModelInput");
            for (name, v) in [("distance", 25), ("size", 8)] {
                HostFn::call(input, &mut ctx, &[Value::from("threat"), Value::from(name), Value::Int(v)]).unwrap();
            }
        }
        match HostFn::call(f, &mut ctx, &values) {
            Err(_) if NOT_PROBED.contains(&f.name) => {}
            Err(e) => unrunnable.push(format!("{}: {e}", f.signature())),
            Ok(_) if NOT_PROBED.contains(&f.name) => {
                unrunnable.push(format!("{}: runs now; take it out of NOT_PROBED", f.signature()))
            }
            Ok(_) => {
                ctx.finish();
                if !commands.is_empty() {
                    found.push(Call { name: f.name, args });
                }
            }
        }
    }
    assert!(
        unrunnable.is_empty(),
        "give these functions arguments in `recipe` (their effect in a sequence is not tested otherwise):\n{}",
        unrunnable.join("\n")
    );
    found
}

/// The scripts of one language: the actor waits for `go` then makes `call` (none: the baseline).
fn scripts(ext: &str, call: Option<&Call>) -> Vec<(&'static str, String)> {
    // Lists and tables are written in each language's own way (`.tac` has no list literal: the
    // path comes from `FindPath`); the sergeant's handle is read before the wait, as the hero's.
    let text = call.map(|c| {
        let args: Vec<&str> = c
            .args
            .iter()
            .map(|a| match (*a, ext) {
                ("SARGE", "tac") => "FindEntity(\"sarge\")",
                ("SARGE", _) => "sarge",
                (a, ext) => in_language(ext, a),
            })
            .collect();
        format!("{}({})", c.name, args.join(", "))
    });
    match ext {
        "lua" => vec![
            (
                "actor.lua",
                format!(
                    "function sequence()\n  local hero = FindEntity(\"hero\")\n  local sarge = FindEntity(\"sarge\")\n  Wait(\"go\")\n  {}\nend\n",
                    text.map(|t| t.replace(HERO, "hero")).unwrap_or_default()
                ),
            ),
            ("caller.lua", format!("function sequence()\n  Sleep({SLEEP})\n  Signal(\"go\")\nend\n")),
        ],
        "rhai" => vec![
            (
                "actor.rhai",
                format!(
                    "fn sequence() {{\n    let hero = FindEntity(\"hero\");\n    let sarge = FindEntity(\"sarge\");\n    Wait(\"go\");\n    {};\n}}\n",
                    text.map(|t| t.replace(HERO, "hero")).unwrap_or_else(|| "()".into())
                ),
            ),
            ("caller.rhai", format!("fn sequence() {{\n    Sleep({SLEEP});\n    Signal(\"go\");\n}}\n")),
        ],
        // `.tac` holds the sequence in one file, started by the caller; the actor has none.
        _ => {
            // `.tac` refuses a value thrown away (E0018): a call that returns one is noted.
            let returns = call.is_some_and(|c| {
                Api::standard().functions(c.name).any(|f| f.params.len() == c.args.len() && f.ret != Type::Nil)
            });
            let text = text.map(|t| if returns { format!("Note(\"r\", {t})") } else { t });
            vec![(
                "caller.tac",
                format!(
                    "sequence Order {{\n  role caller {{ Sleep({SLEEP}); signal go; }}\n  role actor {{ wait go; {} }}\n}}\nonce on spawn start Order;\n",
                    text.map(|t| format!("{t};")).unwrap_or_default()
                ),
            )]
        }
    }
}

/// What the world is, for comparing two runs: the trace, the globals, the doors and every
/// character's place, attributes and blackboard.
fn fingerprint(rt: &Runtime) -> String {
    let w = rt.world();
    let mut out: Vec<String> = w.log().events().iter().map(|e| e.to_json_line()).collect();
    out.push(format!("{:?}", w.globals.iter().collect::<std::collections::BTreeMap<_, _>>()));
    out.push(format!("{:?}", w.doors()));
    for (_, e) in w.entities() {
        out.push(format!("{} {:?} {:?} {:?}", e.name, e.position, e.attributes, e.blackboard));
    }
    out.join("\n")
}

fn play(ext: &str, tag: &str, call: Option<&Call>) -> (Runtime, PathBuf) {
    let mut files = scripts(ext, call);
    let scenario = if ext == "tac" {
        SCENARIO.replace("scripts = [\"actor.EXT\"]", "").replace("caller.EXT", "caller.tac")
    } else {
        SCENARIO.replace("EXT", ext)
    };
    files.push(("scenario.toml", scenario));
    let path = folder(&format!("{ext}-{tag}"), &files);
    (load(&path), path)
}

/// The tick the actor is released at (the same with or without the call).
fn release_tick(rt: &Runtime) -> u64 {
    rt.world()
        .log()
        .events()
        .iter()
        .find(|e| e.entity.as_deref() == Some("actor") && matches!(e.kind, EventKind::Release { .. }))
        .map(|e| e.tick)
        .expect("the actor is released")
}

fn every_effect_comes_after_the_release_in(ext: &str) {
    let calls = calls_with_an_effect(ext);
    assert!(calls.len() > 20, "the table's functions with an effect: {}", calls.len());
    // What the scenario's models, flock, formation and tile patterns let this test reach.
    for name in [
        "GeneticScore",
        "GeneticEvolve",
        "AdaptiveRecord",
        "QueueRun",
        "JoinFlock",
        "FormUp",
        "RunTileRoute",
        "WanderTileGrid",
        "RunTileSteps",
    ] {
        assert!(calls.iter().any(|c| c.name == name), "{name} is not found with an effect");
    }
    let (mut baseline, _) = play(ext, "baseline", None);
    baseline.run(12);
    let release = release_tick(&baseline);
    assert!(release >= u64::from(SLEEP), "released at {release}");
    let mut failures = Vec::new();
    for (n, call) in calls.iter().enumerate() {
        if ext == "tac" && call.args.iter().any(|a| table_value(a).is_some()) {
            // `.tac` has no map literal: a call that passes a table is Lua's and Rhai's.
            continue;
        }
        let (mut with, path) = play(ext, &n.to_string(), Some(call));
        let (mut without, _) = play(ext, "baseline", None);
        // Up to the tick before the release, nothing differs: the call's effect is not made yet.
        with.run(release);
        without.run(release);
        let what = format!("{}({})", call.name, call.args.join(", "));
        let api = Api::standard();
        // Lua's binding waits before a name any of whose overloads returns a value.
        let query = api.functions(call.name).any(|f| f.ret != Type::Nil);
        if fingerprint(&with) != fingerprint(&without) {
            failures.push(format!("{what}: took effect before the release (tick {release})"));
            continue;
        }
        let actor = with.world().entities().find(|(_, e)| e.name == "actor").unwrap().1;
        let names: Vec<&str> = actor.actions.iter().map(|a| a.name()).collect();
        // A Lua sequence's call that returns a value waits (the coroutine yields) until what was
        // queued before it is done, so the call itself comes after the release: nothing of it
        // is queued.
        let waits_itself = ext == "lua" && query;
        if !waits_itself && (names.len() < 2 || names[0] != "wait") {
            failures.push(format!("{what}: nothing waits behind the wait before the release: {names:?}"));
            continue;
        }
        // After the release, what the call changes directly has been made.
        with.run(3);
        let actor = with.world().entities().find(|(_, e)| e.name == "actor").unwrap().1;
        if actor.actions.iter().any(|a| a.name() == "effect") {
            failures.push(format!("{what}: still waiting after the release"));
        }
        if let Some(e) = with.world().log().events().iter().find(|e| matches!(e.kind, EventKind::ScriptError { .. })) {
            failures.push(format!("{what}: a script error in {}: {}", path.display(), e.to_json_line()));
        }
    }
    assert!(failures.is_empty(), "{ext}:\n{}", failures.join("\n"));
}

#[test]
fn every_effect_in_a_tac_sequence_comes_after_the_release() {
    every_effect_comes_after_the_release_in("tac");
}

#[test]
fn every_effect_in_a_lua_sequence_comes_after_the_release() {
    every_effect_comes_after_the_release_in("lua");
}

#[test]
fn every_effect_in_a_rhai_sequence_comes_after_the_release() {
    every_effect_comes_after_the_release_in("rhai");
}

/// The notes and script errors of a Lua sequence that calls `call` twice, after a queued action
/// when `wait`: each note's value, each error's message (tick and line left out).
fn twice_in_a_lua_sequence(call: &Call, wait: bool, tag: &str) -> Vec<String> {
    let args: Vec<&str> = call
        .args
        .iter()
        .map(|a| match *a {
            "SARGE" => "sarge",
            a if a == HERO => "hero",
            a => in_language("lua", a),
        })
        .collect();
    let text = format!("{}({})", call.name, args.join(", "));
    let actor = format!(
        "function sequence()\n  local hero = FindEntity(\"hero\")\n  local sarge = FindEntity(\"sarge\")\n  {}\n  local a = {text}\n  local b = {text}\n  \
         Note(\"a\", a)\n  Note(\"b\", b)\nend\n",
        if wait { "Sleep(1)" } else { "" }
    );
    let files = vec![
        ("actor.lua", actor),
        ("caller.lua", "-- stands by\n".to_owned()),
        ("scenario.toml", SCENARIO.replace("EXT", "lua")),
    ];
    let path = folder(&format!("resume-{tag}"), &files);
    let mut rt = load(&path);
    rt.run(6);
    let out = rt
        .world()
        .log()
        .events()
        .iter()
        .filter(|e| e.entity.as_deref() == Some("actor"))
        .filter_map(|e| match &e.kind {
            EventKind::Note { name, value } => Some(format!("{name} = {value:?}")),
            EventKind::ScriptError { message, .. } => {
                // `actor.lua:5: …` names the line of the call, which the wait moves.
                let message = message.split_once(": ").map_or(message.as_str(), |(_, m)| m);
                Some(format!("error: {message}"))
            }
            _ => None,
        })
        .collect();
    let _ = std::fs::remove_dir_all(path.parent().unwrap());
    out
}

/// In a Lua sequence, a call that returns a value waits (the coroutine yields inside the host
/// call) until what the sequence queued before it is done, and goes on when resumed: its
/// arguments must come through the wait. Generated from the API table: every function that
/// returns a value and takes arguments is called twice after a queued action — the first call
/// waits and is resumed, the second runs at once on the same tick — and, when two calls in a row
/// give the same answer with no wait, both answers are the same; a call that fails with no wait
/// fails with the same message after it.
#[test]
fn every_call_that_waits_in_a_lua_sequence_keeps_its_arguments() {
    let api = Api::standard();
    let hero_args = |f: &HostFn| -> Vec<&'static str> {
        recipe(f.name, f.params.len()).unwrap_or_else(|| f.params.iter().map(|p| argument(&p.ty)).collect())
    };
    let mut tried = 0;
    let mut failures = Vec::new();
    for (n, f) in api.all_functions().iter().filter(|f| f.ret != Type::Nil && !f.params.is_empty()).enumerate() {
        let call = Call { name: f.name, args: hero_args(f) };
        let at_once = twice_in_a_lua_sequence(&call, false, &format!("{n}-now"));
        let waited = twice_in_a_lua_sequence(&call, true, &format!("{n}-wait"));
        let what = format!("{}({})", call.name, call.args.join(", "));
        tried += 1;
        // `Random`'s answers are draws: two in a row agreeing is chance, not repeatability.
        let repeatable = call.name != "Random"
            && at_once.len() == 2
            && at_once[0].strip_prefix("a = ") == at_once[1].strip_prefix("b = ");
        let failed = |v: &[String]| v.iter().find(|l| l.starts_with("error: ")).cloned();
        match (failed(&at_once), failed(&waited)) {
            (None, Some(e)) => failures.push(format!("{what}: fails only after a wait: {e}")),
            (Some(now), Some(later)) if now != later => {
                failures.push(format!("{what}: fails otherwise after a wait:\n  at once: {now}\n  waited:  {later}"));
            }
            (Some(now), None) => failures.push(format!("{what}: fails at once ({now}) but not after a wait")),
            (None, None)
                if repeatable
                    && (waited.len() != 2 || waited[0].strip_prefix("a = ") != waited[1].strip_prefix("b = ")) =>
            {
                failures.push(format!("{what}: the resumed call answers otherwise than the next: {waited:?}"));
            }
            _ => {}
        }
    }
    assert!(tried > 40, "functions that return a value and take arguments: {tried}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
