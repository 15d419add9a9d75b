//! A run-time error repeated on every think is reported once, then summed up with its count
//! (docs/trace.md, "Repeated errors"): in the trace (`script_error` in full, then one
//! `script_error_repeated` when the run of repeats ends) and in what `tactica run` prints. The
//! rule is checked over generated runs of failing and passing thinks against a model of it.

mod common;

use std::process::Command;

use proptest::prelude::*;
use tactica::engine::world::EventKind;

/// A guard in Lua that fails the same way on ticks 0–4, gets through tick 5, then fails another
/// way until the end; a lookout in Rhai that fails the same way on every think (every other
/// tick) and is still failing when the run stops. (A failed call's state is rolled back, so the
/// guard reads the tick's phase from a global the timeline sets.)
fn scenario() -> std::path::PathBuf {
    let toml = "map = \"map.txt\"\nticks = 10\n\
        [[timeline]]\ntick = 5\nset = { phase = \"calm\" }\n\
        [[timeline]]\ntick = 6\nset = { phase = \"storm\" }\n\
        [[entities]]\nname = \"guard\"\nkind = \"soldier\"\nat = [1, 1]\nscripts = [\"guard.lua\"]\n\
        [[entities]]\nname = \"lookout\"\nkind = \"soldier\"\nat = [3, 1]\nscripts = [\"lookout.rhai\"]\n\
        think_every = 2\n";
    let guard = "-- Indexes a nil until the phase is set, then adds to a string in a storm.\n\
        function on_think()\n  local phase = GetGlobal(\"phase\")\n  if phase == nil then\n    local post = nil\n    \
        return post.x\n  elseif phase == \"storm\" then\n    return phase + 1\n  end\nend\n";
    let lookout = "// Rings the third of two bells, every think.\nfn on_think() {\n    let bells = [1, 2];\n    say(`bell ${bells[2]}`);\n}\n";
    common::folder("repeated-errors", toml, &[("guard.lua", guard), ("lookout.rhai", lookout)])
}

fn errors_of(trace: &str) -> String {
    trace.lines().filter(|l| l.contains("\"kind\":\"script_error")).map(|l| format!("{l}\n")).collect()
}

#[test]
fn a_repeated_error_is_reported_once_then_with_its_count() {
    let path = scenario();
    let trace_file = path.with_file_name("trace.jsonl");
    let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["run", path.to_str().unwrap(), "--trace", trace_file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "script errors fail the run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The first line names the scenario's temporary folder.
    let printed: String = stdout.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let trace = std::fs::read_to_string(&trace_file).unwrap();
    insta::assert_snapshot!("repeated_error_folded_with_its_count", format!("{printed}\n{}", errors_of(&trace)));
    // The same trace from the library, finished as `tactica run` finishes it.
    let mut rt = common::play(&path);
    rt.finish();
    assert_eq!(rt.trace(), trace);
}

/// What the rule says the trace holds for one script whose calls fail (`Some(error)`) or get
/// through (`None`), one call a tick: (tick, "error" line or "repeated" count with first and last).
fn model(calls: &[Option<u8>]) -> Vec<(u64, String)> {
    let mut out = Vec::new();
    let mut run: Option<(u8, u64, u64, u64)> = None; // error, first, last, repeats
    let close = |run: Option<(u8, u64, u64, u64)>, tick: u64, out: &mut Vec<(u64, String)>| {
        if let Some((e, first, last, n)) = run
            && n > 0
        {
            out.push((tick, format!("repeated e{e} x{n} {first}..{last}")));
        }
    };
    for (tick, call) in calls.iter().enumerate() {
        let tick = tick as u64;
        match (*call, run) {
            (Some(e), Some((r, first, _, n))) if e == r => run = Some((e, first, tick, n + 1)),
            (Some(e), _) => {
                close(run, tick, &mut out);
                out.push((tick, format!("error e{e}")));
                run = Some((e, tick, tick, 0));
            }
            (None, _) => {
                close(run, tick, &mut out);
                run = None;
            }
        }
    }
    close(run, calls.len().saturating_sub(1) as u64, &mut out);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Over generated runs of thinks (each fails with one of two errors or gets through), the
    /// trace holds exactly what the rule says, in Lua and in Rhai.
    #[test]
    fn the_trace_folds_every_run_of_repeats_as_the_rule_says(
        calls in prop::collection::vec(prop::option::of(0u8..2), 1..14),
        rhai in any::<bool>(),
    ) {
        // Each tick's plan comes from a global the timeline sets: a failed call's own state is
        // rolled back, so the script cannot count its calls.
        let plan: Vec<u8> = calls.iter().map(|c| c.map_or(0, |e| e + 1)).collect();
        let (file, text) = if rhai {
            let body = "fn on_think() {\n    let p = get_global(\"plan\");\n    if p == 1 { throw \"e0\"; }\n    \
                        if p == 2 { throw \"e1\"; }\n}\n";
            ("s.rhai", body)
        } else {
            let body = "function on_think()\n  local p = GetGlobal(\"plan\")\n  if p == 1 then error(\"e0\", 0) end\n  \
                        if p == 2 then error(\"e1\", 0) end\nend\n";
            ("s.lua", body)
        };
        let timeline: String =
            plan.iter().enumerate().map(|(t, p)| format!("[[timeline]]\ntick = {t}\nset = {{ plan = {p} }}\n")).collect();
        let toml = format!(
            "map = \"map.txt\"\nticks = {}\n{timeline}[[entities]]\nname = \"a\"\nkind = \"b\"\nat = [1, 1]\nscripts = [\"{file}\"]\n",
            calls.len()
        );
        let path = common::folder("repeats-generated", &toml, &[(file, text)]);
        let mut rt = common::play(&path);
        rt.finish();
        let got: Vec<(u64, String)> = rt
            .world()
            .log()
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::ScriptError { message, .. } => {
                    let which = if message.contains("e0") { 0 } else { 1 };
                    Some((e.tick, format!("error e{which}")))
                }
                EventKind::ScriptErrorRepeated { message, count, first, last, .. } => {
                    let which = if message.contains("e0") { 0 } else { 1 };
                    Some((e.tick, format!("repeated e{which} x{count} {first}..{last}")))
                }
                _ => None,
            })
            .collect();
        prop_assert_eq!(got, model(&calls), "{}", rt.trace());
        let _ = std::fs::remove_dir_all(path.parent().unwrap());
    }
}
