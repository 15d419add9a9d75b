//! The hostile-script suite: scripts in `tests/hostile/` that try to escape the sandbox or hurt
//! the host. Each is stopped with a clear error naming its file and line, and every other entity
//! finishes the scenario with exactly the trace it has when the hostile entity is not there.

mod common;

// As the `tactica` binary does: Rhai calls are then held to the memory limit (live bytes) and pay
// for what they allocate.
#[global_allocator]
static ALLOCATOR: tactica::memory::CountingAllocator = tactica::memory::CountingAllocator;

use std::path::Path;

use tactica::host::ScriptHost;
use tactica_engine::world::{Event, EventKind};

use common::bystanders::{self, TALKER, WALKER};

/// Three well-behaved entities: a Lua walker with a sequence, a Rhai talker counting in its state,
/// and a guard on scenario actions. `{hostile}` adds the entity under test, last.
fn scenario(hostile: Option<&str>) -> String {
    let mut s = String::from(
        r#"
map = "map.txt"
ticks = 8
"#,
    );
    s.push_str(bystanders::ENTITIES);
    if let Some(file) = hostile {
        s.push_str(&format!("[[entities]]\nname = \"hostile\"\nkind = \"imp\"\nat = [8, 3]\nscripts = [\"{file}\"]\n"));
    }
    s
}

/// Plays the scenario with `hostile` (a file in `tests/hostile/`) or without any hostile entity.
fn play(name: &str, hostile: Option<&str>) -> Vec<Event> {
    let mut scripts = vec![("walker.lua", WALKER.to_owned()), ("talker.rhai", TALKER.to_owned())];
    if let Some(file) = hostile {
        let text = std::fs::read_to_string(Path::new("tests/hostile").join(file)).unwrap();
        scripts.push((file, text));
    }
    let refs: Vec<(&str, &str)> = scripts.iter().map(|(f, t)| (*f, t.as_str())).collect();
    let rt = common::play(&common::folder(name, &scenario(hostile), &refs));
    rt.world().log().events().to_vec()
}

fn lines(events: &[Event]) -> Vec<String> {
    events.iter().map(Event::to_json_line).collect()
}

/// Each hostile script, the line its error names, and words the error must contain: in every
/// language a stop names the line that was running when a limit was met (inside a function
/// the script called, that function's line). In debug builds (these tests) the allocation charge
/// (1.6 MB for 100,000 operations) stops a Rhai note flood before the output cap (2 MiB) does,
/// and the charge for the text handed to `Note` stops the Lua flood.
const CASES: &[(&str, u32, &str)] = &[
    ("read_file.lua", 3, "global 'io'"),
    ("run_command.lua", 3, "global 'os'"),
    ("require_module.lua", 3, "global 'require'"),
    ("load_bytecode.lua", 3, "field 'dump'"),
    ("load_text.lua", 3, "global 'load'"),
    ("dofile.lua", 3, "global 'dofile'"),
    ("debug_library.lua", 3, "global 'debug'"),
    ("collectgarbage.lua", 3, "global 'collectgarbage'"),
    ("infinite_loop.lua", 5, "instruction budget"),
    ("deep_recursion.lua", 3, "call depth limit"),
    ("allocate_gigabytes.lua", 3, "exceeded inside `rep`"), // `string.rep` charges its copying first
    ("huge_string.lua", 4, "instruction budget of 100000 exceeded"), // `..` charges what it copies
    ("forge_handle.lua", 3, "`NameOf` argument 1: expected entity, got map"),
    ("wrong_types.lua", 3, "`Say` argument 1: expected string, got list"),
    ("wrong_arity.lua", 3, "`MoveTo` takes 1 or 2 argument(s), got 3"),
    ("coroutine_escape.lua", 4, "instruction budget"),
    ("function_to_host.lua", 3, "a function cannot cross into the host"),
    ("cyclic_table.lua", 5, "nested deeper than 32"),
    ("poison_state.lua", 2, "`state` must stay a table"),
    ("handle_in_global.lua", 3, "no entity handles"),
    ("read_file.rhai", 3, "Function not found: open_file"),
    ("run_command.rhai", 3, "Function not found: system"),
    ("import_module.rhai", 3, "Module not found"),
    ("infinite_loop.rhai", 5, "instruction budget of 100000 exceeded"),
    ("deep_recursion.rhai", 3, "Stack overflow"),
    ("allocate_gigabytes.rhai", 4, "Size of array"),
    ("huge_string.rhai", 4, "bytes allocated at 16 bytes an operation"),
    ("forge_handle.rhai", 3, "`NameOf` argument 1: expected entity, got map"),
    ("wrong_types.rhai", 3, "`Say` argument 1: expected string, got float"),
    ("wrong_arity.rhai", 3, "Function not found: move_to"),
    ("wall_clock.rhai", 3, "Function not found: timestamp"),
    ("function_to_host.rhai", 3, "cannot cross into the host"),
    ("poison_state.rhai", 2, "`this` must stay a map"),
    ("handle_in_global.rhai", 3, "no entity handles"),
    ("print_flood.rhai", 4, "instruction budget of 100000 exceeded"),
    ("pcall_swallows_budget.lua", 4, "instruction budget"),
    ("pcall_then_say.lua", 3, "instruction budget"),
    ("xpcall_handler_loops.lua", 4, "instruction budget"),
    ("coroutine_resume_catches.lua", 4, "instruction budget"),
    ("close_handler_loops.lua", 4, "instruction budget"),
    ("finalizer_loops.lua", 3, "__gc is not available"),
    ("pattern_backtracks.lua", 4, "instruction budget of 100000 exceeded inside `find`"),
    ("insert_at_front.lua", 4, "instruction budget of 100000 exceeded inside `insert`"),
    ("sort_huge.lua", 5, "instruction budget of 100000 exceeded inside `sort`"),
    ("array_push_loop.rhai", 4, "instruction budget of 100000 exceeded"),
    ("arrays_down_recursion.rhai", 5, "bytes allocated at 16 bytes an operation"),
    ("string_padding.rhai", 6, "bytes allocated at 16 bytes an operation"),
    ("note_flood.lua", 4, "instruction budget of 100000 exceeded inside `Note`"), // a string handed in is charged per 16 bytes
    ("note_flood.rhai", 5, "bytes allocated at 16 bytes an operation"),
    ("budget_in_host_call.lua", 3, "exceeded inside `Random`"),
    ("linear_search_loop.rhai", 5, "operations of library work"),
    ("sort_again_and_again.rhai", 5, "operations of library work"),
    ("concat_huge.lua", 5, "instruction budget of 100000 exceeded inside `concat`"),
    ("out_of_memory.lua", 5, "memory limit exceeded"),
];

#[test]
fn every_hostile_script_is_stopped_and_the_others_play_on_unchanged() {
    assert!(CASES.len() >= 54);
    let baseline = lines(&play("baseline", None));
    assert!(baseline.iter().any(|l| l.contains("Guard is far.")), "the walker's sequence ran");
    assert!(baseline.iter().any(|l| l.contains("Tick 6")), "the talker ran");
    let mut failures = Vec::new();
    for (i, &(file, line, words)) in CASES.iter().enumerate() {
        let events = play(&format!("hostile{i}"), Some(file));
        let errors: Vec<&Event> = events
            .iter()
            .filter(|e| e.entity.as_deref() == Some("hostile") && matches!(e.kind, EventKind::ScriptError { .. }))
            .collect();
        let Some(first) = errors.first() else {
            failures.push(format!("{file}: was not stopped"));
            continue;
        };
        let EventKind::ScriptError { file: f, line: l, column, message } = &first.kind else { unreachable!() };
        // Lua reports lines only; the column is found from what the message names.
        if file.ends_with(".lua") && *column == 0 {
            failures.push(format!("{file}: no column in {f}:{l}: {message}"));
        }
        if !f.ends_with(file) || *l != line || !message.contains(words) {
            failures.push(format!("{file}: got {f}:{l}: {message}; expected line {line} and {words:?}"));
        }
        // Stopped on every tick, the repeats counted on one line (docs/trace.md).
        let times: u64 = common::error_runs_in(&events).iter().filter(|r| r.1 == "hostile").map(|r| r.3).sum();
        if times != 8 {
            failures.push(format!("{file}: stopped {times} times in 8 ticks"));
        }
        let others: Vec<String> =
            lines(&events.into_iter().filter(|e| e.entity.as_deref() != Some("hostile")).collect::<Vec<_>>());
        if others != baseline {
            failures.push(format!("{file}: the other entities' trace changed"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Every attack together, in this process: the peak stays far from what a game can spare.
    let peak = peak_resident_bytes();
    assert!(peak < 512 << 20, "peak resident memory {} MB", peak >> 20);
}

/// The process's peak resident set so far.
fn peak_resident_bytes() -> u64 {
    // SAFETY: `getrusage` only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &raw mut usage) }, 0);
    u64::try_from(usage.ru_maxrss).unwrap() * 1024 // kilobytes on Linux
}

#[test]
fn code_that_cannot_be_compiled_safely_is_refused_at_load() {
    let mut host = ScriptHost::new();
    for b in tactica::languages() {
        host.add_backend(b);
    }
    let binary = "\x1bLua\x54\x00\x19\u{93}\r\n\x1a\n";
    let e = host.check_source(Path::new("bytecode.lua"), binary).unwrap_err();
    assert!(e[0].message.contains("binary"), "{}", e[0].message);
    let e = host.check_source(Path::new("eval.rhai"), "fn on_think() {\n  eval(\"1\");\n}").unwrap_err();
    assert_eq!(e[0].line, 2, "{}", e[0]);
    assert!(e[0].message.to_lowercase().contains("eval"), "{}", e[0].message);
}

/// Each script error of the run: its tick, line, column and message.
fn script_errors(rt: &tactica::runtime::Runtime) -> Vec<(u64, u32, u32, String)> {
    rt.world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ScriptError { line, column, message, .. } => Some((e.tick, *line, *column, message.clone())),
            _ => None,
        })
        .collect()
}

/// Plays `flood` (a Lua script) on one character, "flooder", for `ticks`: the runtime, and the
/// tick, line and message of each script error.
fn play_flood(name: &str, flood: &str, ticks: u64) -> (tactica::runtime::Runtime, Vec<(u64, u32, String)>) {
    let scenario = format!(
        "map = \"map.txt\"\nticks = {ticks}\n[[entities]]\nname = \"flooder\"\nkind = \"imp\"\nat = [8, 3]\nscripts = [\"flood.lua\"]\n"
    );
    let rt = common::play(&common::folder(name, &scenario, &[("flood.lua", flood)]));
    let errors = script_errors(&rt).into_iter().map(|(tick, line, _, message)| (tick, line, message)).collect();
    (rt, errors)
}

/// A script that makes up a new signal id every call would grow its scope's set for the whole
/// game (a signal stays sent until its sequence restarts). The scope keeps 4,096 ids: after that,
/// `Signal` with a new id is an error the script sees, and the world goes on.
#[test]
fn a_signal_flood_meets_its_scopes_cap() {
    // 60 a call: under the 64 instant actions a character does a tick, so the queue stays short.
    let flood = "function on_think()\n  for i = 1, 60 do\n    state.n = (state.n or 0) + 1\n    Signal(\"flood\" .. state.n)\n  end\nend\n";
    let (rt, errors) = play_flood("signal-flood", flood, 72);
    // Tick t's call finds 60·t ids sent. Tick 68 starts under the cap (4,080) and sends 60 more
    // (the check sees the ids sent before the call, so the scope stops at 4,096 and the rest are
    // not kept); from tick 69 every call is refused.
    // Recorded once, on tick 69, and counted on ticks 70 and 71 (docs/trace.md, "Repeated errors").
    assert_eq!(errors.iter().map(|e| e.0).collect::<Vec<_>>(), vec![69], "{errors:?}");
    assert_eq!(common::error_runs(&rt).iter().map(|r| (r.0, r.3)).collect::<Vec<_>>(), [(69, 3)]);
    assert_eq!(errors[0].1, 4, "{errors:?}");
    assert!(errors[0].2.contains("holds 4096 different signals already"), "{errors:?}");
    let events = rt.world().log().events();
    let sent =
        events.iter().filter(|e| matches!(&e.kind, EventKind::Signal { id, .. } if id.starts_with("flood"))).count();
    assert_eq!(sent, 69 * 60, "no id is sent once the scope is full");
}

/// A character does at most 64 instant actions a tick; a script that says 200 lines a call would
/// grow its queue for the whole game. The queue holds 1,024: the `Say` that would pass that is an
/// error, and the character goes on saying what is queued.
#[test]
fn a_queue_flood_meets_the_queues_cap() {
    let flood = "function on_think()\n  state.n = (state.n or 0) + 1\n  for i = 1, 200 do\n    Say(\"line \" .. state.n .. \".\" .. i)\n  end\nend\n";
    let (rt, errors) = play_flood("queue-flood", flood, 12);
    // Tick t's call finds 136·t queued (200 added, 64 said a tick): tick 6 ends at 1,016, and
    // tick 7's call reaches 1,024 at its 73rd line. A failed call's lines are not queued.
    assert_eq!(errors.first().map(|e| e.0), Some(7), "{errors:?}");
    assert_eq!(errors[0].1, 4, "{errors:?}");
    assert!(errors[0].2.contains("action queue holds 1024 actions already"), "{errors:?}");
    let id = rt.world().find("flooder").unwrap();
    assert!(rt.world().entity(id).unwrap().actions.len() <= 1_024);
    let events = rt.world().log().events();
    let said_last_tick = events.iter().filter(|e| e.tick == 11 && matches!(e.kind, EventKind::Say { .. })).count();
    assert_eq!(said_last_tick, 64, "the character goes on saying what is queued");
}

/// A script that makes up a new global every call would grow the world for the whole game. The
/// world holds 4,096 globals: after that, `SetGlobal` with a new name is an error the script sees,
/// while the globals that exist can still be set.
#[test]
fn a_globals_flood_meets_the_worlds_cap() {
    let flood = "function on_think()\n  SetGlobal(\"g1\", true)\n  for i = 1, 500 do\n    state.n = (state.n or 0) + 1\n    SetGlobal(\"g\" .. state.n, true)\n  end\nend\n";
    let (rt, errors) = play_flood("globals-flood", flood, 12);
    // Tick t's call finds 500·t globals. Tick 8 starts under the cap (4,000) and sets 500 more:
    // the world creates 96 and notes the drop; from tick 9 every call is refused.
    // Recorded once, on tick 9, and counted on ticks 10 and 11 (docs/trace.md, "Repeated errors").
    assert_eq!(errors.iter().map(|e| e.0).collect::<Vec<_>>(), vec![9], "{errors:?}");
    assert_eq!(common::error_runs(&rt).iter().map(|r| (r.0, r.3)).collect::<Vec<_>>(), [(9, 3)]);
    assert_eq!(errors[0].1, 5, "{errors:?}");
    assert!(errors[0].2.contains("holds 4096 globals already"), "{errors:?}");
    assert_eq!(rt.world().globals.len(), 4_096);
    let notes: Vec<u64> = rt
        .world()
        .log()
        .events()
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::Note { name, .. } if name == "global_dropped"))
        .map(|e| e.tick)
        .collect();
    assert_eq!(notes, vec![8]);
}

/// A `.tac` sequence role queues everything up to its first wait as `start` runs it, so a role
/// that loops over `Say` meets the queue's cap inside `start`: the error names the role's line,
/// and which `start` ran it.
#[test]
fn a_sequence_role_that_floods_the_queue_is_placed_at_its_own_line() {
    let seq = "sequence Patrol {\n  role walker {\n    let i = 0;\n    while (i < 1500) { Say(\"step \" + i); i = i + 1; }\n  }\n}\non spawn { start Patrol; }\n";
    let scenario = "map = \"map.txt\"\nticks = 3\n[[entities]]\nname = \"a\"\nkind = \"imp\"\nat = [8, 3]\ntags = [\"walker\"]\nscripts = [\"seq.tac\"]\n";
    let rt = common::play(&common::folder("role-flood", scenario, &[("seq.tac", seq)]));
    let errors = script_errors(&rt);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let (_, line, column, message) = &errors[0];
    assert_eq!((*line, *column), (4, 24), "{message}");
    assert!(message.contains("action queue holds 1024 actions already"), "{message}");
    assert!(message.ends_with("(in sequence `Patrol`, started at line 7:12)"), "{message}");
}

/// A failed call's message goes into the trace, so it is capped (1 KiB, saying how much was cut)
/// and paid from the tick's output allowance: once the tick's allowance is nearly spent, the
/// message is cut to what is left (never below 160 bytes). Both languages' errors go the same way.
#[test]
fn error_messages_are_capped_and_paid_from_the_output_allowance() {
    let lua = "function on_spawn()\n  Note(\"n\", string.rep(\"x\", 800))\nend\nfunction on_think()\n  error(string.rep(\"e\", 5000))\nend\n";
    let rhai = "fn on_think() {\n    let s = \"eeeeeeeeeeeeeeee\";\n    for i in 0..14 { s += s; }\n    throw s;\n}\n";
    let scenario = "map = \"map.txt\"\nticks = 3\n[[entities]]\nname = \"lua\"\nkind = \"imp\"\nat = [1, 1]\nscripts = [\"e.lua\"]\n[[entities]]\nname = \"rhai\"\nkind = \"imp\"\nat = [2, 1]\nscripts = [\"e.rhai\"]\n";
    let path = common::folder("error-cap", scenario, &[("e.lua", lua), ("e.rhai", rhai)]);
    let mut rt = tactica::runtime::Runtime::new(tactica::scenario::load(&path).unwrap(), tactica::languages())
        .unwrap_or_else(|e| panic!("{e:?}"));
    // A call may hand over 1,000 bytes, a tick 1,200.
    let limits = *rt.host_mut().limits();
    rt.host_mut().set_limits(limits.set_max_output(1_000, 1_200));
    rt.run(3);
    rt.finish();
    let messages: Vec<(u64, String, String)> = rt
        .world()
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ScriptError { message, .. } => Some((e.tick, e.entity.clone().unwrap(), message.clone())),
            _ => None,
        })
        .collect();
    // Each character failed on every tick. Lua's tick-0 message was cut shorter than its later
    // ones, so it is another error: recorded on ticks 0 and 1, tick 2 counted; Rhai's recorded on
    // tick 0, ticks 1 and 2 counted.
    let seen: Vec<(u64, String)> = messages.iter().map(|(t, who, _)| (*t, who.clone())).collect();
    assert_eq!(seen, [(0, "lua".to_owned()), (0, "rhai".to_owned()), (1, "lua".to_owned())], "{messages:?}");
    let times: Vec<(u64, String, u64)> =
        common::error_runs(&rt).into_iter().map(|(t, who, _, n)| (t, who, n)).collect();
    assert_eq!(times, [(0, "lua".to_owned(), 1), (0, "rhai".to_owned(), 3), (1, "lua".to_owned(), 2)]);
    for (tick, who, m) in &messages {
        assert!(m.ends_with("bytes cut)"), "{who} at {tick}: {m}");
        // The Lua character's spawn note (about 830 bytes) left under 400 of tick 0's 1,200.
        let cap = if who == "lua" && *tick == 0 { 400 } else { tactica::host::MAX_ERROR_MESSAGE };
        assert!(m.len() <= cap, "{who} at {tick}: {} bytes", m.len());
        assert!(m.len() >= tactica::host::MIN_ERROR_MESSAGE, "{who} at {tick}: {} bytes", m.len());
    }
    let full = messages.iter().filter(|(t, w, _)| *t == 1 && w == "lua").map(|(_, _, m)| m.len()).next().unwrap();
    assert!(full > 900, "a fresh tick allows the whole cap: {full}");
}
