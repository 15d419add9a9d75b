//! The well-behaved characters the hostile tests play beside a hostile one (`tests/hostile.rs`,
//! `tests/sandbox_families.rs`): their trace lines must come out the same with it as without it.

/// Three well-behaved entities, as scenario TOML: a Lua walker with a sequence, a Rhai talker
/// counting in its state, and a guard on scenario actions.
pub const ENTITIES: &str = r#"[[entities]]
name = "walker"
kind = "human"
at = [0, 0]
speed = 10.0
scripts = ["walker.lua"]
[[entities]]
name = "talker"
kind = "human"
at = [0, 5]
scripts = ["talker.rhai"]
[[entities]]
name = "guard"
kind = "human"
at = [11, 0]
speed = 10.0
actions = [{ move_to = [11, 5] }, { say = "All quiet." }]
"#;

/// The walker's script (`walker.lua`).
pub const WALKER: &str = r#"
function sequence()
  move_to(3, 0)
  say("Made it.")
  if Distance(Me(), FindEntity("guard")) > 1 then say("Guard is far.") end
end
"#;

/// The talker's script (`talker.rhai`).
pub const TALKER: &str = r#"
fn on_spawn() { this.n = 0; }
fn on_think() {
    this.n += 1;
    if this.n % 3 == 0 { say("Tick " + this.n); }
}
"#;
