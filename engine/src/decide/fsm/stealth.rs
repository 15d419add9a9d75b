//! The stealth guard of the design article (003, L60–L84) as a hierarchical state machine.
//!
//! Idle → Aware → Curious → Alert → Attack, with Flee and Dead. The article's figure is missing,
//! so two edges are authored here: Idle reaches Alert when attacked or when it sees the player in
//! front of it (the "higher awareness level"), and Aware when it hears something. `alive` is a
//! composite state whose "health gone → dead" transition overrides everything inside it.

/// The guard machine in TOML. Facts it reads: `health`, `courage`, `attacked`, `sees_player`,
/// `heard_noise`, `clue` (an opened door, a body, casings), `in_range`, `enemy_down`,
/// `found_health`, `left_area`, `revived`.
pub const STEALTH_GUARD: &str = r#"
initial = "alive"

[[states]]
name = "alive"
initial = "idle"
transitions = [ { when = "health <= 0", to = "dead" } ]

[[states]]
name = "idle"
parent = "alive"
on_tick = ["patrol"]
transitions = [
  { when = "attacked or sees_player", to = "alert" },
  { when = "heard_noise", to = "aware" },
]

[[states]]
name = "aware"
parent = "alive"
on_tick = ["look_around"]
transitions = [
  { when = "attacked or sees_player", to = "alert" },
  { when = "clue", to = "curious" },
]

[[states]]
name = "curious"
parent = "alive"
on_enter = ["leave_post"]
on_tick = ["investigate"]
transitions = [ { when = "sees_player", to = "alert" } ]

[[states]]
name = "alert"
parent = "alive"
on_enter = ["alert_guards", "sound_alarm", "find_cover"]
on_tick = ["pursue"]
transitions = [ { when = "in_range", to = "attack" } ]

[[states]]
name = "attack"
parent = "alive"
on_tick = ["fight"]
transitions = [
  { when = "enemy_down", to = "idle" },
  { when = "health < 30 and courage < 0.5", to = "flee" },
  { when = "not in_range", to = "alert" },
]

[[states]]
name = "flee"
parent = "alive"
on_tick = ["run_away"]
transitions = [
  { when = "found_health", to = "alert" },
  { when = "left_area", to = "gone" },
]

[[states]]
name = "gone"
on_enter = ["despawn"]

[[states]]
name = "dead"
on_enter = ["call_out"]
transitions = [ { when = "revived", to = "alert" } ]
"#;
