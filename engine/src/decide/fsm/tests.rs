//! State machine tests: the ghost (WE-01), the health/range chain (WE-02), the stealth guard,
//! probabilistic transitions.

use super::*;
use crate::decide::DecideError;
use crate::value::{Table, Value};
use crate::world::WorldRng;

fn facts(pairs: &[(&str, Value)]) -> Table {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect()
}

const GHOST: &str = r#"
initial = "roam"
[[states]]
name = "roam"
transitions = [ { when = "imBlue", to = "evade" }, { when = "canSeePlayer", to = "chase" } ]
[[states]]
name = "chase"
transitions = [ { when = "imBlue", to = "evade" }, { when = "not canSeePlayer", to = "roam" } ]
[[states]]
name = "evade"
transitions = [
  { when = "not imBlue and canSeePlayer", to = "chase" },
  { when = "not imBlue and not canSeePlayer", to = "roam" },
]
"#;

#[test]
fn ghost_table_we01() {
    let m = StateMachine::from_toml(GHOST).unwrap();
    let mut rng = WorldRng::new(1);
    let rows = [
        ("roam", true, false, "evade"),
        ("roam", true, true, "evade"),
        ("roam", false, true, "chase"),
        ("roam", false, false, "roam"),
        ("chase", true, false, "evade"),
        ("chase", true, true, "evade"),
        ("chase", false, false, "roam"),
        ("chase", false, true, "chase"),
        ("evade", true, false, "evade"),
        ("evade", true, true, "evade"),
        ("evade", false, true, "chase"),
        ("evade", false, false, "roam"),
    ];
    for (from, blue, see, to) in rows {
        let mut inst = FsmState { current: m.state(from).unwrap(), ticks_in_state: 0 };
        let f = facts(&[("imBlue", blue.into()), ("canSeePlayer", see.into())]);
        m.step(&mut inst, &f, &mut rng, &mut Vec::new());
        assert_eq!(m.name(inst.current), to, "{from} blue={blue} see={see}");
        // Ex. 9-1 is state-independent: blue → evade, else see → chase, else roam.
        let expected = if blue {
            "evade"
        } else if see {
            "chase"
        } else {
            "roam"
        };
        assert_eq!(to, expected);
    }
    assert_eq!(m.name(m.start().current), "roam");
}

#[test]
fn health_range_chain_we02_is_ordered() {
    let m = StateMachine::from_toml(
        r#"
initial = "roam"
[[states]]
name = "any"
initial = "roam"
transitions = [
  { when = "health < 25 and not inRange", to = "hide" },
  { when = "health < 25", to = "evade" },
  { when = "inRange", to = "attack" },
  { to = "roam" },
]
[[states]]
name = "roam"
parent = "any"
[[states]]
name = "evade"
parent = "any"
[[states]]
name = "attack"
parent = "any"
[[states]]
name = "hide"
parent = "any"
"#,
    );
    // kPoorHealth = 25 here: the book leaves it unspecified.
    let m = m.unwrap();
    let mut rng = WorldRng::new(3);
    for (low, range, to) in
        [(true, false, "hide"), (true, true, "evade"), (false, true, "attack"), (false, false, "roam")]
    {
        let mut inst = m.start();
        let f = facts(&[("health", Value::Int(if low { 10 } else { 90 })), ("inRange", range.into())]);
        m.step(&mut inst, &f, &mut rng, &mut Vec::new());
        assert_eq!(m.name(inst.current), to);
    }
}

#[test]
fn stealth_guard_hooks_and_hierarchy() {
    let m = StateMachine::from_toml(STEALTH_GUARD).unwrap();
    let mut rng = WorldRng::new(9);
    let mut g = m.start();
    assert_eq!(m.name(g.current), "idle");
    let names = |hooks: &[Hook<'_>]| hooks.iter().map(|h| format!("{:?}:{}", h.kind, h.name)).collect::<Vec<_>>();
    assert_eq!(names(&m.start_hooks()), Vec::<String>::new());

    let mut hooks = Vec::new();
    m.step(&mut g, &facts(&[("health", 100.into()), ("heard_noise", true.into())]), &mut rng, &mut hooks);
    assert_eq!(m.name(g.current), "aware");
    assert_eq!(names(&hooks), ["Tick:look_around"]);

    hooks.clear();
    m.step(&mut g, &facts(&[("health", 100.into()), ("clue", true.into())]), &mut rng, &mut hooks);
    assert_eq!(names(&hooks), ["Enter:leave_post", "Tick:investigate"]);

    hooks.clear();
    m.step(&mut g, &facts(&[("health", 100.into()), ("sees_player", true.into())]), &mut rng, &mut hooks);
    assert_eq!(names(&hooks), ["Enter:alert_guards", "Enter:sound_alarm", "Enter:find_cover", "Tick:pursue"]);

    let fight = facts(&[("health", 100.into()), ("in_range", true.into()), ("courage", Value::Float(0.2))]);
    m.step(&mut g, &fight, &mut rng, &mut Vec::new());
    assert_eq!(m.name(g.current), "attack");
    m.step(&mut g, &fight, &mut rng, &mut Vec::new());
    assert_eq!((m.name(g.current), g.ticks_in_state), ("attack", 1));
    // Low health and little courage: flee. A brave guard would fight on.
    let hurt = facts(&[("health", 20.into()), ("in_range", true.into()), ("courage", Value::Float(0.2))]);
    let mut brave = g;
    m.step(&mut g, &hurt, &mut rng, &mut Vec::new());
    assert_eq!(m.name(g.current), "flee");
    let brave_hurt = facts(&[("health", 20.into()), ("in_range", true.into()), ("courage", Value::Float(0.9))]);
    m.step(&mut brave, &brave_hurt, &mut rng, &mut Vec::new());
    assert_eq!(m.name(brave.current), "attack");

    // The outer alive → dead transition wins over the inner ones; leaving `alive` exits both.
    hooks.clear();
    let step = m.step(&mut g, &facts(&[("health", 0.into()), ("found_health", true.into())]), &mut rng, &mut hooks);
    assert!(step.fired);
    assert_eq!(m.name(g.current), "dead");
    assert_eq!(names(&hooks), ["Enter:call_out"]);
    assert!(!m.is_in(g.current, m.state("alive").unwrap()));
    m.step(&mut g, &facts(&[("revived", true.into())]), &mut rng, &mut Vec::new());
    assert_eq!(m.name(g.current), "alert");
    assert!(m.is_in(g.current, m.state("alive").unwrap()));
}

#[test]
fn step_value_reports_hooks_as_plain_values() {
    let m = StateMachine::from_toml(STEALTH_GUARD).unwrap();
    let mut g = m.start();
    let v = m.step_value(&mut g, &facts(&[("health", 50.into()), ("attacked", true.into())]), &mut WorldRng::new(1));
    let Value::Map(map) = v else { panic!("not a map") };
    assert_eq!(map["from"], Value::from("idle"));
    assert_eq!(map["to"], Value::from("alert"));
    assert_eq!(map["fired"], Value::Bool(true));
    let Value::List(hooks) = &map["hooks"] else { panic!("no hooks") };
    assert_eq!(hooks.len(), 4);
}

#[test]
fn probabilistic_transition_follows_weights() {
    // Chapter 12: attack 0.5, flee 0.2, hide 0.1 (the rest unspecified, so normalised over 0.8).
    let m = StateMachine::from_toml(
        r#"
initial = "decide"
[[states]]
name = "decide"
transitions = [ { when = "armed_player", weighted = [["attack", 0.5], ["flee", 0.2], ["hide", 0.1]] } ]
[[states]]
name = "attack"
[[states]]
name = "flee"
[[states]]
name = "hide"
"#,
    )
    .unwrap();
    let mut rng = WorldRng::new(12);
    let f = facts(&[("armed_player", true.into())]);
    let mut counts = [0u32; 4];
    let n = 8000;
    for _ in 0..n {
        let mut inst = m.start();
        m.step(&mut inst, &f, &mut rng, &mut Vec::new());
        counts[usize::from(inst.current)] += 1;
    }
    let share = |i: usize| f64::from(counts[i]) / f64::from(n);
    assert!((share(1) - 0.625).abs() < 0.02, "{counts:?}");
    assert!((share(2) - 0.25).abs() < 0.02, "{counts:?}");
    assert!((share(3) - 0.125).abs() < 0.02, "{counts:?}");
}

#[test]
fn bad_machines_are_typed_errors() {
    let dup = "initial = \"a\"\n[[states]]\nname = \"a\"\n[[states]]\nname = \"a\"\n";
    assert!(matches!(StateMachine::from_toml(dup), Err(DecideError::Duplicate { .. })));
    let unknown = "initial = \"a\"\n[[states]]\nname = \"a\"\ntransitions = [ { to = \"b\" } ]\n";
    assert!(matches!(StateMachine::from_toml(unknown), Err(DecideError::Unknown { kind: "state", .. })));
    let cycle = "initial = \"a\"\n[[states]]\nname = \"a\"\nparent = \"b\"\n[[states]]\nname = \"b\"\nparent = \"a\"\n";
    assert!(matches!(StateMachine::from_toml(cycle), Err(DecideError::Invalid { .. })));
    let guard = "initial = \"a\"\n[[states]]\nname = \"a\"\ntransitions = [ { when = \"x <\", to = \"a\" } ]\n";
    assert!(matches!(StateMachine::from_toml(guard), Err(DecideError::Expression { .. })));
    let no_target = "initial = \"a\"\n[[states]]\nname = \"a\"\ntransitions = [ { when = \"x\" } ]\n";
    assert!(matches!(StateMachine::from_toml(no_target), Err(DecideError::Invalid { .. })));
    assert!(matches!(StateMachine::from_toml("initial = \"a\"\nstates = []\n"), Err(DecideError::Invalid { .. })));
}

/// A machine built in code with guards of the host's own type: here a guard is a number the host
/// compares with its input, and a negative number is a guard that fails to evaluate.
fn coded(self_transition: SelfTransition) -> StateMachine<i32> {
    let state = |name: &str, transitions: Vec<(i32, &str)>| StateDef {
        name: name.to_owned(),
        parent: None,
        initial: None,
        on_enter: vec![format!("enter_{name}")],
        on_exit: vec![format!("exit_{name}")],
        on_tick: vec![format!("tick_{name}")],
        transitions: transitions.into_iter().map(|(g, to)| (g, vec![(to.to_owned(), 1.0)])).collect(),
    };
    let states = vec![state("idle", vec![(1, "idle"), (2, "alert")]), state("alert", vec![(-1, "idle")])];
    StateMachine::from_states("idle", states, self_transition).unwrap()
}

fn kinds(hooks: &[Hook<'_>]) -> Vec<String> {
    hooks.iter().map(|h| format!("{} {}", h.name, h.id)).collect()
}

#[test]
fn a_self_transition_reenters_or_stays() {
    let rng = &mut WorldRng::new(1);
    let guard_is = |input: i32| move |g: &i32| Ok::<bool, String>(*g == input);
    // Re-enter (the default for data files): exit and enter hooks run, the count restarts.
    let m = coded(SelfTransition::Reenter);
    let mut st = m.start();
    st.ticks_in_state = 5;
    let mut hooks = Vec::new();
    let step = m.try_step_with(&mut st, &mut guard_is(1), rng, &mut hooks).unwrap();
    assert_eq!((step.fired, step.to, st.ticks_in_state), (true, 0, 0));
    assert_eq!(kinds(&hooks), ["exit_idle 0", "enter_idle 0", "tick_idle 0"]);
    // Stay (`.tac`): the transition is taken — the later one to `alert` is not tried — and
    // nothing is left or entered.
    let m = coded(SelfTransition::Stay);
    let mut st = m.start();
    st.ticks_in_state = 5;
    let mut hooks = Vec::new();
    let step = m.try_step_with(&mut st, &mut guard_is(1), rng, &mut hooks).unwrap();
    assert_eq!((step.fired, step.to, st.ticks_in_state), (true, 0, 6));
    assert_eq!(kinds(&hooks), ["tick_idle 0"]);
    let mut hooks = Vec::new();
    m.try_step_with(&mut st, &mut guard_is(2), rng, &mut hooks).unwrap();
    assert_eq!(kinds(&hooks), ["exit_idle 0", "enter_alert 1", "tick_alert 1"]);
    // The first step of a host: enter hooks, then the tick hooks, without stepping.
    let fresh = m.start();
    let mut hooks = m.start_hooks();
    m.tick_hooks(&fresh, &mut hooks);
    assert_eq!(kinds(&hooks), ["enter_idle 0", "tick_idle 0"]);
}

#[test]
fn a_failing_guard_changes_nothing() {
    let m = coded(SelfTransition::Stay);
    let mut st = FsmState { current: 1, ticks_in_state: 3 };
    let mut hooks = Vec::new();
    let mut guard = |g: &i32| if *g < 0 { Err(format!("guard {g} failed")) } else { Ok(false) };
    let err = m.try_step_with(&mut st, &mut guard, &mut WorldRng::new(1), &mut hooks).unwrap_err();
    assert_eq!(err, "guard -1 failed");
    assert_eq!(st, FsmState { current: 1, ticks_in_state: 3 });
    assert!(hooks.is_empty());
}

#[test]
fn machines_built_in_code_are_checked_like_files() {
    let state = |name: &str, to: &str| StateDef {
        name: name.to_owned(),
        parent: None,
        initial: None,
        on_enter: vec![],
        on_exit: vec![],
        on_tick: vec![],
        transitions: vec![((), vec![(to.to_owned(), 1.0)])],
    };
    let unknown = StateMachine::from_states("a", vec![state("a", "b")], SelfTransition::Stay);
    assert!(matches!(unknown, Err(DecideError::Unknown { kind: "state", .. })));
    let dup = StateMachine::from_states("a", vec![state("a", "a"), state("a", "a")], SelfTransition::Stay);
    assert!(matches!(dup, Err(DecideError::Duplicate { .. })));
    let spec: FsmSpec =
        toml::from_str("initial = \"a\"\nself_transition = \"stay\"\n[[states]]\nname = \"a\"\n").unwrap();
    assert_eq!(spec.self_transition, SelfTransition::Stay, "data files may ask for `stay` too");
}

#[test]
fn a_hook_written_alone_is_a_list_of_one_and_a_wrong_type_says_what_is_expected() {
    let text = |hook: &str| {
        format!(
            "initial = \"idle\"\n[[states]]\nname = \"idle\"\non_enter = {hook}\non_tick = [\"look\", \"listen\"]\n"
        )
    };
    let alone = StateMachine::from_toml(&text("\"wake\"")).unwrap();
    let listed = StateMachine::from_toml(&text("[\"wake\"]")).unwrap();
    let hooks = |m: &StateMachine| m.start_hooks().iter().map(|h| h.name.to_owned()).collect::<Vec<_>>();
    assert_eq!(hooks(&alone), ["wake"]);
    assert_eq!(hooks(&alone), hooks(&listed));
    let e = StateMachine::from_toml(&text("3")).unwrap_err().to_string();
    assert!(e.contains("a hook name or a list of hook names"), "{e}");
}
