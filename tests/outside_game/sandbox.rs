//! The sandbox's determinism and budget cases, played as a game would play them: a Lua mod that
//! walks a table keyed by tables with `pairs`, prints a table with `tostring`, and then runs a
//! backtracking pattern that the instruction budget stops. Copied into the game crate that
//! `tests/outside_game.rs` builds outside the workspace; included by that test too, so both
//! sides run the same code.

use tactica::prelude::*;

/// The mod: what it says depends on the run unless the Lua is Tactica's patched one (table keys
/// hash by address and `tostring` prints one in a stock Lua).
const MOD: &str = r#"
function on_think()
  state.turn = (state.turn or 0) + 1
  if state.turn == 1 then
    local t = {}
    for i = 1, 12 do t[{}] = i end
    local order = {}
    for _, v in pairs(t) do order[#order + 1] = v end
    say("pairs " .. table.concat(order, " "))
  elseif state.turn == 2 then
    say("tostring " .. tostring({}) .. " " .. tostring(state))
  else
    local s = string.rep("a", 2000)
    say(tostring(string.find(s, ".-.-.-.-.-b")))
  end
end
"#;

/// What the mod said and the errors it met, one line each, and the run's trace hash.
pub struct Played {
    /// `say` lines and script errors, in order: `say <text>`, `error <line>: <message>`, or
    /// `error <line> repeated <n> more times` (the same error again on the next ticks).
    pub lines: Vec<String>,
    /// [`Runtime::trace_hash`] after the run.
    pub trace_hash: String,
}

/// Plays five ticks of a one-character world with the mod attached: from the third on, the
/// pattern is stopped by the budget every tick (a stopped tick's `state` changes are rolled
/// back, so the mod is on its third turn again); the stop is recorded once, then its repeats
/// with their count.
pub fn play() -> Played {
    let mut world = WorldBuilder::from_rows(["#######", "#.....#", "#######"]).seed(7).build().expect("a valid map");
    let modder = world.spawn(Entity::new("modder", "Npc", IVec2::new(1, 1))).expect("a unique name");
    let mut rt = Runtime::from_world("sandbox", world, languages());
    rt.attach_source(Some(modder), "mods/sandbox.lua", MOD, 1).expect("the mod loads");
    let mut lines = Vec::new();
    let mut note = |events: Vec<Event>| {
        for event in events {
            match &event.kind {
                EventKind::Say { text } => lines.push(format!("say {text}")),
                EventKind::ScriptError { line, message, .. } => lines.push(format!("error {line}: {message}")),
                EventKind::ScriptErrorRepeated { line, count, .. } => {
                    lines.push(format!("error {line} repeated {count} more times"));
                }
                _ => {}
            }
        }
    };
    for _ in 0..5 {
        rt.tick();
        note(rt.drain_events());
    }
    // As a game ends its run: an error still repeating is summed up with its count.
    rt.finish();
    note(rt.drain_events());
    Played { lines, trace_hash: rt.trace_hash() }
}
