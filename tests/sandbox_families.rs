//! Generated families of hostile scripts, one family per class of work a script can make the
//! host do: every function of Lua's `string`, `table`, `utf8` and `math` tables and the work Lua
//! does inside one instruction (concatenation, metamethod chains …); every Rhai function that takes
//! an array, a map or a string, and Rhai's operators on them; memory kept across 1,000 calls; every
//! random function a script can reach.
//!
//! A family plays in child processes of the `tactica` binary, beside the well-behaved characters
//! of `tests/hostile.rs`, with one hostile character per case whose inputs grow from small to the
//! caps tick by tick (strings to the 1 MiB string cap, tables and arrays to the collection cap)
//! and whose calls loop on the function under test until something stops them. For every family:
//!
//! - the process ends normally, its peak resident set under 512 MB;
//! - every hostile call is stopped by a deterministic limit (the instruction budget, the memory
//!   limit, a size cap) — no `watchdog` event appears in the trace;
//! - every budget stop says the work the call was charged, and it is at most
//!   [`MAX_CHARGED_BUDGETS`] budgets: no single charge takes a call far past its budget;
//! - the other characters' trace lines are the ones they give alone;
//! - two runs of the same seed give the same trace, byte for byte.
//!
//! The cases are checked against what scripts really get: a Lua script lists its library tables
//! and the Rhai backend lists its functions, and a function without a generated case fails the
//! test, so a new library function cannot slip through.

mod common;

use common::bystanders::{self, TALKER, WALKER};
use common::families::{LuaCase, RhaiCase, lua_library_cases, lua_vm_cases, rhai_cases};

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

use tactica_engine::world::EventKind;

/// A scenario of `ticks` ticks with the well-behaved characters ([`bystanders`]) and one hostile character per
/// file of `hostile`, and the world's `seed`.
fn scenario(ticks: u64, seed: u64, hostile: &[String]) -> String {
    let mut s = format!(
        r#"
map = "map.txt"
ticks = {ticks}
seed = {seed}
{entities}"#,
        entities = bystanders::ENTITIES
    );
    for (i, file) in hostile.iter().enumerate() {
        s.push_str(&format!(
            "[[entities]]\nname = \"hostile{i}\"\nkind = \"imp\"\nat = [{}, 3]\nscripts = [\"{file}\"]\n",
            6 + i % 4
        ));
    }
    s
}

/// One play of a scenario in a child process.
struct Run {
    trace: String,
    /// The child's peak resident set, in bytes.
    peak: u64,
}

/// Writes a scenario folder (the map, the well-behaved scripts and `cases`) and plays it in a
/// child `tactica` process.
fn play(name: &str, ticks: u64, seed: u64, cases: &[(String, String)]) -> Run {
    let files: Vec<String> = cases.iter().map(|(f, _)| f.clone()).collect();
    let mut scripts: Vec<(&str, &str)> = vec![("walker.lua", WALKER), ("talker.rhai", TALKER)];
    scripts.extend(cases.iter().map(|(f, s)| (f.as_str(), s.as_str())));
    let path = common::folder(name, &scenario(ticks, seed, &files), &scripts);
    let trace = path.with_file_name("trace.jsonl");
    run_child(&path, &trace)
}

/// Plays `scenario` with the `tactica` binary, the trace written to `trace`; the child's peak
/// resident set comes from `wait4`.
#[expect(clippy::zombie_processes, reason = "the child is reaped by `wait4`, which also reads its peak memory")]
fn run_child(scenario: &Path, trace: &Path) -> Run {
    let child = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", &scenario.to_string_lossy(), "-q", "--keep-going", "--trace", &trace.to_string_lossy()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the tactica binary starts");
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: `wait4` writes only the status and the usage it is given; the child is ours and not
    // waited for anywhere else.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    assert!(libc::WIFEXITED(status), "{}: the process did not exit normally (status {status})", scenario.display());
    assert_eq!(libc::WEXITSTATUS(status), 0, "{}: tactica failed", scenario.display());
    let peak = u64::try_from(usage.ru_maxrss).unwrap() * 1024; // kilobytes on Linux
    Run { trace: std::fs::read_to_string(trace).unwrap(), peak }
}

/// The trace lines of the characters that are not hostile.
fn others(trace: &str) -> Vec<&str> {
    trace.lines().filter(|l| !l.contains("\"entity\":\"hostile")).collect()
}

/// What stopped the hostile characters: per character, the message of each failed call — a
/// stop the trace counted as a repeat of the one before (docs/trace.md, "Repeated errors") as
/// many times as it was counted.
fn stops(trace: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in trace.lines().filter(|l| l.contains("\"entity\":\"hostile") && l.contains("\"kind\":\"script_error")) {
        let event: serde_json::Value = serde_json::from_str(line).unwrap();
        let who = event["entity"].as_str().unwrap_or_default().to_owned();
        let message = event["message"].as_str().unwrap_or_default().to_owned();
        let times = if event["kind"] == "script_error_repeated" { event["count"].as_u64().unwrap_or(0) } else { 1 };
        for _ in 0..times {
            out.entry(who.clone()).or_default().push(message.clone());
        }
    }
    out
}

/// The stops a deterministic limit makes: the instruction budget (`.tac`'s step budget), the
/// memory limit, a size cap of a string, array, map, stack or value, the state an instance keeps,
/// the action queue.
const DETERMINISTIC: &[&str] = &[
    "instruction budget",
    "steps (the budget of one call)",
    "memory limit",
    "not enough memory",
    "too large",
    "too long",
    "over the limit",
    "cannot cross into the host",
    "string length overflow",
    "stack overflow",
    "too many results",
    "too many captures",
    "string slice too long",
    "pattern too complex",
    "Size of",
    "Length of string",
    "the state kept between calls",
    "action queue holds",
    "this call handed the world more than",
];

/// How many budgets' worth of work a call may be charged before it stops. The budget is checked
/// as work is charged, but a library function charges its work in one piece (before doing it
/// where it can), so a stop can come one piece past the budget; no piece may be larger than
/// the budget itself. A call charged more did work the budget did not hold back: work charged
/// after it was done, in a piece larger than the budget.
const MAX_CHARGED_BUDGETS: u64 = 2;

/// Cases whose stops still come more than [`MAX_CHARGED_BUDGETS`] budgets past: work done first
/// and charged after, in one piece larger than the budget (open in issue 33). Named here so the
/// rest of every family is held to the bound and these are not forgotten.
const OVERSHOOTS: &[(&str, &str)] = &[
    (
        "vm_op_error_name.lua",
        "an error message naming a 1 MiB `__name` is copied three times, each copy charged after it is made",
    ),
    ("vm_op_tostring_name.lua", "the same for `tostring` of a value whose `__name` is 1 MiB"),
    (
        "vm_op_next_emptied.lua",
        "`next` over a table emptied of 65,536 entries charges the slots it skipped after skipping them",
    ),
    (
        "vm_op_memory_churn.lua",
        "a failed allocation's emergency collection is charged (one unit per 16 bytes of heap) after it ran",
    ),
    ("table_move_copy.lua", "growing the destination table is charged when the rehash is done"),
    (
        "string_sub_long.lua",
        "stopped at 2.006 budgets (200,573 units against 100,000): a long substring's copy is charged in one piece; not yet isolated",
    ),
    (
        "string_unpack_items.lua",
        "stopped at 2.17 budgets (217,026 units against 100,000) inside `pcall`; not yet isolated",
    ),
];

/// The budget and the work charged to a call, from its budget stop's message: Lua reports
/// `instruction budget of 1000000 exceeded … (1000100 units of work charged)` (what the count
/// reached, plus work done and charged that it had not reached yet; work charged before it is
/// done and refused by the stop is not in it), Rhai
/// `instruction budget of 1000000 exceeded (998340 operations, 25820 bytes allocated at 16 bytes an
/// operation, 48 operations of library work)`. `None` for a message that is not a budget stop;
/// `Some((budget, None))` for one that does not say what it charged.
fn charged_work(message: &str) -> Option<(u64, Option<u64>)> {
    let number = |s: &str| s.trim().parse::<u64>().ok();
    let rest = message.split_once("instruction budget of ")?.1;
    let budget = number(rest.split_once(' ')?.0)?;
    let charged = if let Some((_, tail)) = rest.split_once(" (") {
        if let Some(units) = tail.strip_suffix(" units of work charged)") {
            number(units)
        } else {
            // Rhai: operations, bytes allocated (16 a unit), library work.
            let parts: Vec<&str> = tail.trim_end_matches(')').split(", ").collect();
            match parts.as_slice() {
                [ops, bytes, work] => {
                    let ops = number(ops.strip_suffix(" operations")?)?;
                    let bytes = number(bytes.split_once(" bytes allocated")?.0)?;
                    let work = number(work.strip_suffix(" operations of library work")?)?;
                    Some(ops + bytes / 16 + work)
                }
                _ => None,
            }
        }
    } else {
        None
    };
    Some((budget, charged))
}

#[test]
fn budget_stops_say_what_they_charged() {
    assert_eq!(
        charged_work("line 10: instruction budget of 1000000 exceeded inside `pcall` (1000164 units of work charged)"),
        Some((1_000_000, Some(1_000_164)))
    );
    assert_eq!(
        charged_work(
            "instruction budget of 1000000 exceeded (998340 operations, 25820 bytes allocated at 16 bytes an operation, 48 operations of library work)"
        ),
        Some((1_000_000, Some(998_340 + 25_820 / 16 + 48)))
    );
    assert_eq!(charged_work("line 9: instruction budget of 100 exceeded"), Some((100, None)));
    assert_eq!(charged_work("memory limit of 64 bytes exceeded"), None);
}

/// Plays `cases` twice and checks the family's promises (see the module documentation). Every
/// case must be stopped on at least half of the `ticks` ticks, and every stop must be a
/// deterministic one, unless it is listed in `may_finish` (cases whose calls are allowed to end
/// by themselves).
fn check_family(family: &str, ticks: u64, cases: &[(String, String)], may_finish: &BTreeSet<String>) {
    let baseline = play(&format!("{family}-alone"), ticks, 7, &[]);
    let first = play(&format!("{family}-1"), ticks, 7, cases);
    let second = play(&format!("{family}-2"), ticks, 7, cases);
    eprintln!(
        "{family}: {} cases, peak resident memory {} MB and {} MB",
        cases.len(),
        first.peak >> 20,
        second.peak >> 20
    );
    let mut failures = Vec::new();
    for run in [&first, &second] {
        if run.peak >= 512 << 20 {
            failures.push(format!("peak resident memory {} MB", run.peak >> 20));
        }
    }
    if first.trace != second.trace {
        failures.push("two runs of the same seed gave different traces".to_owned());
    }
    if first.trace.contains("\"kind\":\"watchdog\"") {
        let culprits: Vec<&str> = first.trace.lines().filter(|l| l.contains("\"kind\":\"watchdog\"")).collect();
        failures.push(format!("the watchdog stopped a call: {culprits:?}"));
    }
    if others(&first.trace) != others(&baseline.trace) {
        failures.push("the other characters' trace changed".to_owned());
    }
    let stops = stops(&first.trace);
    for (i, (file, _)) in cases.iter().enumerate() {
        let who = format!("hostile{i}");
        let messages = stops.get(&who).cloned().unwrap_or_default();
        if !may_finish.contains(file) && messages.len() < usize::try_from(ticks).unwrap() / 2 {
            failures.push(format!("{file}: stopped {} times in {ticks} ticks", messages.len()));
        }
        for m in &messages {
            if !DETERMINISTIC.iter().any(|d| m.contains(d)) && !may_finish.contains(file) {
                failures.push(format!("{file}: stopped by {m:?}"));
                break;
            }
        }
        // The work of every budget stop, against the budget: a call cannot be charged (so
        // cannot have done) more than a few budgets' worth.
        for m in &messages {
            match charged_work(m) {
                Some((_, None)) => {
                    failures.push(format!("{file}: a budget stop that does not say what it charged: {m:?}"))
                }
                Some((budget, Some(charged)))
                    if charged > MAX_CHARGED_BUDGETS * budget && !OVERSHOOTS.iter().any(|(f, _)| f == file) =>
                {
                    failures.push(format!("{file}: charged {charged} units against a budget of {budget}: {m:?}"));
                }
                _ => {}
            }
        }
    }
    assert!(failures.is_empty(), "{family}:\n{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Lua
// ---------------------------------------------------------------------------------------------

/// The functions of Lua's `string`, `table`, `utf8` and `math` tables as a script sees them.
fn lua_library() -> BTreeMap<String, BTreeSet<String>> {
    let lister = r#"
function on_spawn()
  for _, lib in ipairs({ "string", "table", "utf8", "math" }) do
    local names = {}
    for k, v in pairs(_G[lib]) do
      if type(v) == "function" then names[#names + 1] = k end
    end
    table.sort(names)
    Note(lib, table.concat(names, " "))
  end
end
"#;
    let s = "map = \"map.txt\"\nticks = 1\n[[entities]]\nname = \"lister\"\nkind = \"imp\"\nat = [1, 1]\nscripts = [\"list.lua\"]\n";
    let rt = common::play(&common::folder("lua-library", s, &[("list.lua", lister)]));
    rt.world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { name, value } => {
                Some((name.clone(), value.to_string().split(' ').map(str::to_owned).collect()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn every_lua_library_function_has_a_generated_case() {
    let library = lua_library();
    assert_eq!(library.len(), 4, "{library:?}");
    let covered: BTreeSet<(String, String)> =
        lua_library_cases().iter().map(|c| (c.lib.to_owned(), c.func.to_owned())).collect();
    let mut missing = Vec::new();
    for (lib, names) in &library {
        for name in names {
            if !covered.contains(&(lib.clone(), name.clone())) {
                missing.push(format!("{lib}.{name}"));
            }
        }
    }
    assert!(missing.is_empty(), "no generated case for {missing:?}");
    // And no case for a function scripts do not have.
    for (lib, func) in &covered {
        assert!(library.get(lib).is_some_and(|n| n.contains(func)), "{lib}.{func} is not in the library");
    }
}

fn lua_family(name: &str, cases: &[LuaCase]) {
    let files: Vec<(String, String)> = cases.iter().map(|c| (c.file(), c.source())).collect();
    // Scalar functions (`math.sin`) never stop by themselves: the budget stops every call.
    check_family(name, 12, &files, &BTreeSet::new());
}

#[test]
fn lua_string_functions_are_stopped_by_their_budget_at_every_size() {
    let cases: Vec<LuaCase> = lua_library_cases().into_iter().filter(|c| c.lib == "string").collect();
    lua_family("lua-string", &cases);
}

#[test]
fn lua_table_utf8_and_math_functions_are_stopped_by_their_budget_at_every_size() {
    let cases: Vec<LuaCase> = lua_library_cases().into_iter().filter(|c| c.lib != "string").collect();
    lua_family("lua-table-utf8-math", &cases);
}

#[test]
fn work_inside_one_lua_instruction_is_stopped_by_the_budget() {
    lua_family("lua-vm", &lua_vm_cases());
}

// ---------------------------------------------------------------------------------------------
// Rhai
// ---------------------------------------------------------------------------------------------

#[test]
fn every_rhai_function_on_arrays_maps_and_strings_has_a_generated_case() {
    let backend = tactica_rhai::RhaiBackend::standard();
    let mut listed: BTreeSet<(String, String)> = BTreeSet::new();
    for sig in backend.function_signatures() {
        let Some((name, rest)) = sig.split_once('(') else { continue };
        let first = rest.split([',', ')']).next().unwrap_or("");
        let ty = first.rsplit(':').next().unwrap_or("").trim().trim_start_matches("&mut ").trim_start_matches("mut ");
        if ["array", "map", "string"].contains(&ty) {
            listed.insert((ty.to_owned(), name.to_owned()));
        }
    }
    assert!(listed.len() > 100, "{listed:?}");
    let covered: BTreeSet<(String, String)> =
        rhai_cases().iter().map(|c| (c.ty.to_owned(), c.func.to_owned())).collect();
    let missing: Vec<String> =
        listed.iter().filter(|k| !covered.contains(*k)).map(|(t, n)| format!("{n}({t}, …)")).collect();
    assert!(missing.is_empty(), "no generated case for {missing:?}");
    for (ty, func) in covered.iter().filter(|(t, _)| t != "op") {
        assert!(listed.contains(&(ty.clone(), func.clone())), "{func}({ty}, …) is not a function scripts have");
    }
}

fn rhai_family(name: &str, ty: &[&str]) {
    let cases: Vec<(String, String)> =
        rhai_cases().iter().filter(|c| ty.contains(&c.ty)).map(|c| (c.file(), c.source())).collect();
    // `sleep` is the API's action here (a character's sleep, not the thread's); `throw` ends
    // each call with the thrown value; the parsers fail on the input.
    let may_finish: BTreeSet<String> = rhai_cases()
        .iter()
        .filter(|c| c.func == "sleep" || c.func == "throw" || c.func.starts_with("parse"))
        .map(RhaiCase::file)
        .collect();
    check_family(name, 8, &cases, &may_finish);
}

#[test]
fn rhai_array_functions_are_stopped_by_their_budget_at_every_size() {
    rhai_family("rhai-array", &["array"]);
}

#[test]
fn rhai_map_and_string_functions_are_stopped_by_their_budget_at_every_size() {
    rhai_family("rhai-map-string", &["map", "string"]);
}

#[test]
fn rhai_operators_and_statements_are_stopped_by_their_budget_at_every_size() {
    rhai_family("rhai-op", &["op"]);
}

// ---------------------------------------------------------------------------------------------
// .tac
// ---------------------------------------------------------------------------------------------

/// `.tac` has no library of its own to go through; what reads a value whole — joining and
/// comparing text and lists, handing text to the host — costs one step per 16 bytes, so a loop
/// that copies a growing string meets the step budget (each call doubles its string from 16 bytes
/// to the string cap, doing the operation at every size).
#[test]
fn tac_work_on_long_values_is_stopped_by_the_step_budget() {
    let op = |op: &str| {
        format!(
            "on think {{\n  let s = \"xxxxxxxxxxxxxxxx\";\n  while (true) {{\n    let i = 0;\n    while (i < 50) {{ {op} i = i + 1; }}\n    s = s + s;\n  }}\n}}\n"
        )
    };
    let cases: Vec<(String, String)> = [
        ("tac_join.tac", op("let t = s + \"y\";")),
        ("tac_equal.tac", op("let e = (s == s + \"\");")),
        ("tac_say.tac", op("Say(s);")),
        ("tac_ask.tac", op("let k = Ask(s);")),
    ]
    .into_iter()
    .map(|(f, s)| (f.to_owned(), s))
    .collect();
    check_family("tac", 4, &cases, &BTreeSet::new());
}

// ---------------------------------------------------------------------------------------------
// Memory kept across calls
// ---------------------------------------------------------------------------------------------

/// Scripts that try to keep more every call, for 1,000 calls: what they keep is refused once it
/// passes the per-script caps, what they throw away (cycles included) is freed, and the process
/// stays small.
#[test]
fn memory_kept_across_a_thousand_calls_stays_under_the_caps() {
    let cases: Vec<(String, String)> = [
        ("kept_globals.lua", "function on_think()\n  g = g or {}\n  for i = 1, 500 do g[#g + 1] = \"item\" .. #g end\nend\n"),
        ("kept_state.lua", "function on_think()\n  state.list = state.list or {}\n  for i = 1, 200 do state.list[#state.list + 1] = \"item\" .. i end\nend\n"),
        ("kept_closures.lua", "function on_think()\n  local big = string.rep(\"x\", 4000)\n  local prev = keep\n  keep = function() return big, prev end\nend\n"),
        ("kept_cycles.lua", "function on_think()\n  for i = 1, 100 do\n    local a = { pad = string.rep(\"y\", 1000) }\n    a.self = a\n    local co = coroutine.create(function() return a end)\n    a.co = co\n  end\nend\n"),
        ("kept_coroutines.lua", "function on_think()\n  cos = cos or {}\n  cos[#cos + 1] = coroutine.create(function() coroutine.yield(string.rep(\"z\", 4000)) end)\n  coroutine.resume(cos[#cos])\nend\n"),
        ("kept_this.rhai", "fn on_think() {\n    if this.list == () { this.list = []; }\n    for i in 0..200 { this.list.push(\"item\" + i); }\n}\n"),
        ("kept_cycles.rhai", "fn on_think() {\n    let big = [];\n    big.pad(2000, \"x\");\n    let f = 0;\n    let g = || [f, big];\n    f = g;\n}\n"),
        ("kept_strings.rhai", "fn on_think() {\n    if this.s == () { this.s = \"0123456789abcdef\"; }\n    this.s += this.s;\n}\n"),
    ]
    .iter()
    .map(|(f, s)| ((*f).to_owned(), (*s).to_owned()))
    .collect();
    // The cycle scripts keep nothing: they are never stopped. The others are refused once full,
    // and from then on every call that would keep more.
    let may_finish: BTreeSet<String> =
        ["kept_closures.lua", "kept_cycles.lua", "kept_cycles.rhai", "kept_coroutines.lua"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
    let ticks = 1_000;
    let baseline = play("kept-alone", ticks, 7, &[]);
    let first = play("kept-1", ticks, 7, &cases);
    let second = play("kept-2", ticks, 7, &cases);
    assert_eq!(first.trace, second.trace, "two runs of the same seed gave different traces");
    assert!(!first.trace.contains("\"kind\":\"watchdog\""), "the watchdog stopped a call");
    assert_eq!(others(&first.trace), others(&baseline.trace), "the other characters' trace changed");
    eprintln!("kept: peak resident memory {} MB and {} MB", first.peak >> 20, second.peak >> 20);
    for run in [&first, &second] {
        assert!(run.peak < 512 << 20, "peak resident memory {} MB", run.peak >> 20);
    }
    let stops = stops(&first.trace);
    for (i, (file, _)) in cases.iter().enumerate() {
        let messages = stops.get(&format!("hostile{i}")).cloned().unwrap_or_default();
        for m in &messages {
            assert!(DETERMINISTIC.iter().any(|d| m.contains(d)), "{file}: stopped by {m:?}");
        }
        if !may_finish.contains(file) {
            assert!(messages.len() > 500, "{file}: refused only {} times in 1,000 calls", messages.len());
        }
    }
    // The cycles and closures are freed (Lua's collector, Rhai's release of captured values):
    // neither is ever stopped.
    for file in ["kept_cycles.lua", "kept_cycles.rhai"] {
        let i = cases.iter().position(|(f, _)| f == file).unwrap();
        assert!(!stops.contains_key(&format!("hostile{i}")), "{file}: {:?}", stops.get(&format!("hostile{i}")));
    }
}

/// What a character's queue holds is capped in bytes as well as in actions: a sequence that parks
/// a megabyte of distinct lines behind a wait that never ends is refused at the cap, with an
/// error the script sees. (Under the debug builds' budget a call cannot make a megabyte of
/// distinct text, so this plays in process with a budget of two million instructions.)
#[test]
fn a_sequence_that_queues_a_megabyte_meets_the_queues_byte_cap() {
    let queue = "function sequence()\n  Wait(\"never\")\n  local line = string.rep(\"q\", 30000)\n  for i = 1, 100 do\n    say(line .. i)\n  end\nend\n";
    let scenario = "map = \"map.txt\"\nticks = 3\n[[entities]]\nname = \"queuer\"\nkind = \"imp\"\nat = [8, 3]\nscripts = [\"queue.lua\"]\n";
    let path = common::folder("queue-bytes", scenario, &[("queue.lua", queue)]);
    let limits = tactica::host::ScriptLimits::new().set_max_ops(2_000_000);
    let mut rt =
        tactica::runtime::Runtime::new(tactica::scenario::load(&path).unwrap(), tactica::languages_with(limits))
            .unwrap_or_else(|e| panic!("{e:?}"));
    rt.run(3);
    let errors: Vec<(u32, String)> = rt
        .world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ScriptError { line, message, .. } => Some((*line, message.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].0, 5, "{errors:?}");
    assert!(errors[0].1.contains("bytes of actions already (at most 1048576"), "{errors:?}");
    let id = rt.world().find("queuer").unwrap();
    let queued = tactica_engine::world::queue_weight(&rt.world().entity(id).unwrap().actions);
    assert!(queued <= tactica_engine::world::MAX_QUEUED_BYTES, "{queued}");
    // A failed call's commands are dropped: the wait and the lines before the refusal too.
    assert_eq!(rt.world().entity(id).unwrap().actions.len(), 0);
}

// ---------------------------------------------------------------------------------------------
// Randomness
// ---------------------------------------------------------------------------------------------

/// Every random function a script can reach, in a scenario played with two seeds: the world's
/// generator gives the same draws for the same seed and other draws for another, and a script's
/// own seeded stream gives the same draws whatever the world's seed.
#[test]
fn every_random_function_draws_from_the_worlds_generator() {
    let cases: Vec<(String, String)> = [
        ("random.lua", "function on_think()\n  Note(\"lua\", Random(1000000))\nend\n"),
        ("math_random.lua", "function on_think()\n  Note(\"lua\", math.random(1000000) + math.random(-5, 5) + math.floor(math.random() * 1000) + math.random(0) % 7)\nend\n"),
        ("randomseed_world.lua", "function on_think()\n  math.randomseed()\n  Note(\"lua\", math.random(1000000))\nend\n"),
        ("random.rhai", "fn on_think() {\n    note(\"rhai\", random(1000000));\n}\n"),
        ("random.tac", "on think {\n  Note(\"tac\", Random(1000000));\n}\n"),
        ("randomseed_own.lua", "function on_think()\n  if not seeded then math.randomseed(42); seeded = true end\n  Note(\"own\", math.random(1000000))\nend\n"),
    ]
    .iter()
    .map(|(f, s)| ((*f).to_owned(), (*s).to_owned()))
    .collect();
    let notes = |run: &Run| -> Vec<(String, String)> {
        run.trace
            .lines()
            .filter(|l| l.contains("\"kind\":\"note\""))
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).unwrap();
                (format!("{}/{}", v["entity"], v["name"]), v["value"].to_string())
            })
            .collect()
    };
    let a = play("random-a", 20, 11, &cases);
    let again = play("random-a2", 20, 11, &cases);
    let b = play("random-b", 20, 12, &cases);
    assert_eq!(a.trace, again.trace, "the same seed gave another trace");
    assert!(!a.trace.contains("script_error"), "{}", a.trace);
    let (na, nb) = (notes(&a), notes(&b));
    assert_eq!(na.len(), 6 * 20, "{na:?}");
    for (i, (file, _)) in cases.iter().enumerate() {
        let who = format!("\"hostile{i}\"");
        let draws = |n: &[(String, String)]| -> Vec<String> {
            n.iter().filter(|(k, _)| k.starts_with(&who)).map(|(_, v)| v.clone()).collect()
        };
        let (da, db) = (draws(&na), draws(&nb));
        assert_eq!(da.len(), 20, "{file}: {da:?}");
        if file == "randomseed_own.lua" {
            assert_eq!(da, db, "{file}: a script's own stream depends only on its seed");
        } else {
            assert_ne!(da, db, "{file}: draws do not follow the world's seed");
            let distinct: BTreeSet<&String> = da.iter().collect();
            assert!(distinct.len() > 15, "{file}: {da:?}");
        }
    }
    // Rhai has no random function of its own: the API's `Random` is the only one.
    let backend = tactica_rhai::RhaiBackend::standard();
    let random: BTreeSet<String> = backend
        .function_signatures()
        .iter()
        .filter_map(|s| s.split_once('(').map(|(n, _)| n.to_owned()))
        .filter(|n| n.to_lowercase().contains("rand") || n.to_lowercase().contains("seed"))
        .collect();
    assert_eq!(random, ["Random", "random"].iter().map(|s| (*s).to_owned()).collect(), "{random:?}");
}
