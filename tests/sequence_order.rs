//! Sequences are programs: every call in a sequence takes effect at its place. Generated from the
//! one API table: each function that changes anything when called (found by calling it, not by
//! a list) is put after a `wait` in a sequence, in `.tac`, Lua and Rhai, and its effect must come
//! after the release — the world and the trace up to the release are those of the same sequence
//! without the call, and what the call asked for waits in the character's queue until then.
//! A function the generated arguments cannot run must be given arguments here, so a new function
//! with an effect is never left out.

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
[field]
teams = ["t"]
layers = ["cover", "exposure", "territory"]
[[entities]]
name = "hero"
kind = "human"
at = [11, 5]
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
        _ => return None,
    })
}

/// Functions that refuse any argument this scenario can give: they read a decision model, a
/// flock, a formation, a tile route or a waypoint graph it does not declare. Their changes go
/// through the same `HostFn::call` as every other function's, so they are kept in order too,
/// but this test does not call them in a sequence. A function listed here that runs with the
/// generated arguments fails the test, so the list cannot hide one.
const NOT_PROBED: &[&str] = &[
    "ModelInput",
    "ModelClear",
    "FsmStep",
    "FsmState",
    "FsmHooks",
    "FuzzyEval",
    "FuzzyCentroid",
    "FuzzyDegree",
    "RulesAssert",
    "RulesRun",
    "RulesFact",
    "RulesProve",
    "BayesQuery",
    "UtilityChoose",
    "UtilityDecide",
    "NnRun",
    "NnOutput",
    "GeneticGenome",
    "GeneticScore",
    "GeneticEvolve",
    "GeneticGeneration",
    "AdaptiveChoose",
    "AdaptiveRecord",
    "AdaptiveRate",
    "ScheduleTask",
    "ScheduleDue",
    "QueueRun",
    "QueueFail",
    "QueueCurrent",
    "Plan",
    "PlanNext",
    "JoinFlock",
    "FormUp",
    "RunTileRoute",
    "WanderTileGrid",
    "RunTileSteps",
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
fn value_of(text: &str, hero: Value) -> Value {
    match text {
        "FindEntity(\"hero\")" => hero,
        "OPTIONS" => Value::Map([("reserve".to_owned(), Value::Bool(true))].into_iter().collect()),
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
    let mut found = Vec::new();
    let mut unrunnable = Vec::new();
    for f in api.all_functions() {
        let args: Vec<&'static str> =
            recipe(f.name, f.params.len()).unwrap_or_else(|| f.params.iter().map(|p| argument(&p.ty)).collect());
        let values: Vec<Value> = args.iter().map(|a| value_of(a, Value::Entity(hero))).collect();
        let mut commands = CommandBuffer::default();
        let mut rng = WorldRng::new(1);
        let mut table = Table::new();
        let mut ctx = ScriptCtx::new(world, me, &mut commands, &mut rng, &mut table);
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
    // A list of cells is written in each language's own way (`.tac` has no list literal: the
    // path comes from `FindPath`).
    let path = match ext {
        "lua" => "{{2, 1}, {3, 1}}",
        "rhai" => "[[2, 1], [3, 1]]",
        _ => "FindPath(3, 1)",
    };
    let options = match ext {
        "lua" => "{reserve = true}",
        "rhai" => "#{reserve: true}",
        _ => "OPTIONS",
    };
    let text = call.map(|c| {
        let args: Vec<&str> = c
            .args
            .iter()
            .map(|a| match *a {
                "PATH" => path,
                "OPTIONS" => options,
                a => a,
            })
            .collect();
        format!("{}({})", c.name, args.join(", "))
    });
    match ext {
        "lua" => vec![
            (
                "actor.lua",
                format!(
                    "function sequence()\n  local hero = FindEntity(\"hero\")\n  Wait(\"go\")\n  {}\nend\n",
                    text.map(|t| t.replace(HERO, "hero")).unwrap_or_default()
                ),
            ),
            ("caller.lua", format!("function sequence()\n  Sleep({SLEEP})\n  Signal(\"go\")\nend\n")),
        ],
        "rhai" => vec![
            (
                "actor.rhai",
                format!(
                    "fn sequence() {{\n    let hero = FindEntity(\"hero\");\n    Wait(\"go\");\n    {};\n}}\n",
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
    let (mut baseline, _) = play(ext, "baseline", None);
    baseline.run(12);
    let release = release_tick(&baseline);
    assert!(release >= u64::from(SLEEP), "released at {release}");
    let mut failures = Vec::new();
    for (n, call) in calls.iter().enumerate() {
        if ext == "tac" && call.args.contains(&"OPTIONS") {
            // `.tac` has no map literal: `FindPosition` with options is Lua's and Rhai's.
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
            "PATH" => "{{2, 1}, {3, 1}}",
            "OPTIONS" => "{reserve = true}",
            a if a == HERO => "hero",
            a => a,
        })
        .collect();
    let text = format!("{}({})", call.name, args.join(", "));
    let actor = format!(
        "function sequence()\n  local hero = FindEntity(\"hero\")\n  {}\n  local a = {text}\n  local b = {text}\n  \
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
        let repeatable = at_once.len() == 2 && at_once[0].strip_prefix("a = ") == at_once[1].strip_prefix("b = ");
        let failed = |v: &[String]| v.iter().find(|l| l.starts_with("error: ")).cloned();
        match (failed(&at_once), failed(&waited)) {
            (None, Some(e)) => failures.push(format!("{what}: fails only after a wait: {e}")),
            (Some(now), Some(later)) if now != later => {
                failures.push(format!("{what}: fails otherwise after a wait:\n  at once: {now}\n  waited:  {later}"));
            }
            (Some(now), None) => failures.push(format!("{what}: fails at once ({now}) but not after a wait")),
            (None, None) if repeatable => {
                if waited.len() != 2 || waited[0].strip_prefix("a = ") != waited[1].strip_prefix("b = ") {
                    failures.push(format!("{what}: the resumed call answers otherwise than the next: {waited:?}"));
                }
            }
            _ => {}
        }
    }
    assert!(tried > 40, "functions that return a value and take arguments: {tried}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
