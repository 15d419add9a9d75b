//! Every use of Lua's pattern matcher pays for its steps, however short the subject.
//!
//! The patched matcher counts its steps and charges them to the budget in batches of 64. A call
//! that took fewer steps than a batch — a pattern over a short string, called in a loop — was
//! never charged for them: only the loop's own instructions were, so a script could spend some
//! thirty times the budget's worth of time in the matcher before the budget stopped it (the
//! hostile benchmark's worst cases). The steps left over when a call is done are now charged too.
//!
//! The same held for the scans inside one item (`%b()`, a greedy repetition), charged a unit per
//! 4 bytes every 256 bytes: a scan shorter than 256 bytes, at every start of a short subject, was
//! never charged. What remains when a scan ends is now charged too.
//!
//! The class is every pattern function (`find`, `match`, `gmatch`, `gsub`) on every subject
//! shorter than a batch, and every scanning item on subjects shorter than 256 bytes: generated
//! here, each case loops on one call until the budget stops it, and the number of calls it made
//! is held to what the budget can pay for.

mod common;

use proptest::prelude::*;
use tactica::engine::Value;
use tactica::engine::world::EventKind;

const CALLS: [&str; 4] =
    ["string.find(s, P)", "string.match(s, P)", "string.gsub(s, P, \"x\")", "for w in string.gmatch(s, P) do end"];
/// Patterns that never match a run of `b`s, each failing at its first item at every position.
const PATTERNS: [&str; 4] = ["a.*z", "%d+", "[xyz]", "(c)%1"];

/// How many calls the budget let the first tick make (the last one stopped inside), and the
/// budget.
fn calls_in_one_budget(call: &str, pattern: &str, subject: char, len: usize) -> (u64, u64) {
    let call = call.replace('P', &format!("{pattern:?}"));
    let script = format!(
        "local s = string.rep(\"{subject}\", {len})\n\
         function on_think()\n  if n then Note(\"calls\", n) return end\n  n = 0\n  \
         while true do\n    n = n + 1\n    {call}\n  end\nend\n"
    );
    let scenario = "map = \"map.txt\"\nticks = 2\n[[entities]]\nname = \"imp\"\nkind = \"imp\"\nat = [1, 1]\nscripts = [\"p.lua\"]\n";
    let path = common::folder("pattern-budget", scenario, &[("p.lua", &script)]);
    let rt = common::run_ticks(&path, 2);
    let events = rt.world().log().events();
    let budget = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::ScriptError { message, .. } => {
                let after = message.split("budget of ").nth(1)?;
                after.split(' ').next()?.parse::<u64>().ok()
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("the budget did not stop `{call}`: {events:?}"));
    let calls = events
        .iter()
        .find_map(|e| match &e.kind {
            EventKind::Note { value: Value::Int(n), .. } => u64::try_from(*n).ok(),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no note of the calls made: {events:?}"));
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    (calls, budget)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A subject of `len` bytes without a match costs at least `len + 1` steps: the matcher
    /// starts at every position.
    #[test]
    fn every_pattern_call_pays_for_its_steps(call in 0..CALLS.len(), pattern in 0..PATTERNS.len(), len in 8usize..64) {
        let (calls, budget) = calls_in_one_budget(CALLS[call], PATTERNS[pattern], 'b', len);
        prop_assert!(calls > 0);
        prop_assert!(
            (calls - 1) * (len as u64 + 1) <= budget,
            "`{}` with {:?} on {len} bytes: {calls} calls within a budget of {budget}, \
             so some calls were not charged their {} steps",
            CALLS[call], PATTERNS[pattern], len + 1
        );
    }

    /// `%b()` over a run of `(` never closes: from each start it scans to the end, so a call
    /// scans `len (len - 1) / 2` bytes, a unit per 4 of them, less under a unit lost at each
    /// start: at least `len (len - 1) / 8 - len` units besides its steps.
    #[test]
    fn every_scan_inside_a_pattern_item_pays_for_its_bytes(call in 0..CALLS.len(), len in 16usize..256) {
        let (calls, budget) = calls_in_one_budget(CALLS[call], "%b()", '(', len);
        let len = len as u64;
        let floor = len * (len - 1) / 8 - len + len;
        prop_assert!(calls > 0);
        prop_assert!(
            (calls - 1) * floor <= budget,
            "`{}` with %b() on {len} bytes: {calls} calls within a budget of {budget}, \
             so the scans were not charged their {floor} units",
            CALLS[call]
        );
    }
}
