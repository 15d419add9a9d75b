//! Lua cannot make a trace depend on the run: string keys, table keys and function keys iterate
//! in one order, `tostring` of a table and `%p` print a creation number, and `table.sort` with
//! equal keys ends in one order — checked in twenty separate processes, since within one process
//! the address layout (what Lua would hash and print) repeats.

mod common;

use std::process::Command;

const SCRIPT: &str = r#"
function on_think()
  local t = { alpha = 1, beta = 2, gamma = 3, delta = 4, epsilon = 5 }
  t[{}] = "a table"; t[{}] = "another"; t[function() end] = "a function"
  t[coroutine.create(function() end)] = "a thread"
  local keys = {}
  for k, v in pairs(t) do keys[#keys + 1] = tostring(k) .. "=" .. tostring(v) end
  local seen = {}
  local k = next(t)
  while k ~= nil do seen[#seen + 1] = type(k); k = next(t, k) end
  local pairs_of = {}
  for i = 1, 12 do pairs_of[i] = { key = i % 3, id = i } end
  table.sort(pairs_of, function(a, b) return a.key < b.key end)
  local order = {}
  for i, p in ipairs(pairs_of) do order[i] = p.id end
  Note("keys", table.concat(keys, " "))
  Note("next", table.concat(seen, " "))
  Note("printed", tostring({}) .. " " .. string.format("%p", t) .. " " .. tostring(print or Say))
  Note("sorted", table.concat(order, ","))
  state.n = (state.n or 0) + 1
  state[tostring(state.n)] = { x = state.n }
  local s = ""
  for k in pairs(state) do s = s .. k .. ";" end
  Note("state", s)
end
"#;

const SCENARIO: &str = r#"
map = "map.txt"
ticks = 5
[[entities]]
name = "counter"
kind = "imp"
at = [1, 1]
scripts = ["iterate.lua"]
"#;

#[test]
fn twenty_processes_give_one_trace_hash() {
    let path = common::folder("lua-determinism", SCENARIO, &[("iterate.lua", SCRIPT)]);
    let mut hashes = std::collections::BTreeSet::new();
    let mut first_trace = String::new();
    for run in 0..20 {
        let out = Command::new(env!("CARGO_BIN_EXE_tactica"))
            .args(["run", path.to_str().unwrap(), "-q", "--trace", "-"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let trace = String::from_utf8(out.stdout).unwrap();
        if run == 0 {
            first_trace = trace.clone();
        }
        hashes.insert(trace);
    }
    assert_eq!(hashes.len(), 1, "twenty runs gave {} different traces", hashes.len());
    // What the script saw is in the trace, and it holds no address.
    for word in ["alpha=1", "table: #", "a function", "function", "thread", "sorted"] {
        assert!(first_trace.contains(word), "{word} missing from\n{first_trace}");
    }
    assert!(!first_trace.contains("0x"), "an address reached the trace:\n{first_trace}");
    // Equal keys keep one order; the sort itself is still right.
    let sorted = first_trace.lines().find(|l| l.contains("\"sorted\"")).unwrap();
    let ids: Vec<u32> = sorted.split('"').rev().nth(1).unwrap().split(',').map(|n| n.parse().unwrap()).collect();
    let keys: Vec<u32> = ids.iter().map(|i| i % 3).collect();
    assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{ids:?}");
}

#[test]
fn a_file_that_loops_when_loaded_is_refused_within_the_budget() {
    let looping = "while true do\n  pcall(function() while true do end end)\nend\nfunction on_think() end\n";
    let path =
        common::folder("lua-load-loop", SCENARIO.replace("iterate.lua", "loop.lua").as_str(), &[("loop.lua", looping)]);
    let scenario = tactica::scenario::load(&path).unwrap();
    let started = std::time::Instant::now();
    let errors = match tactica::runtime::Runtime::new(scenario, tactica::languages()) {
        Ok(_) => panic!("a file that never finishes loading was accepted"),
        Err(errors) => errors,
    };
    assert!(started.elapsed().as_secs() < 10);
    let text = errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
    assert!(text.contains("loop.lua") && text.contains("instruction budget"), "{text}");
}
