//! The node semantics, one test per row of the conformance table in `docs/trees.md` (the test's
//! name is the row's), plus the built-in leaves and the invariant of event-driven evaluation.
//!
//! Script leaves here answer what the blackboard key `<function>_says` holds (`"running"` when it
//! holds nothing), so a test steers a leaf by writing the blackboard between ticks.

use std::sync::Arc;

use glam::IVec2;

use super::*;
use crate::grid::Map;
use crate::value::Value;
use crate::world::{CommandBuffer, Entity, EntityId, EventKind, World};

/// Records the calls and halts of script leaves; a leaf answers its `<name>_says` key.
#[derive(Default)]
struct Script {
    calls: Vec<(u64, String)>,
    halts: Vec<(u64, String)>,
}

impl LeafHost for Script {
    fn call(&mut self, call: &mut LeafCall<'_>) -> Status {
        let now = call.world.clock().tick();
        self.calls.push((now, call.function.to_owned()));
        let key = format!("{}_says", call.function);
        call.read(&key).and_then(Status::from_value).unwrap_or(Status::Running)
    }

    fn halt(&mut self, call: &mut LeafCall<'_>) {
        self.halts.push((call.world.clock().tick(), call.function.to_owned()));
    }
}

struct Rig {
    world: World,
    trees: Trees,
    me: EntityId,
    script: Script,
}

impl Rig {
    fn new(src: &str) -> Rig {
        Rig::with(src, Evaluation::EventDriven)
    }

    fn with(src: &str, evaluation: Evaluation) -> Rig {
        let (def, d) = parse(src, &Catalog::default());
        assert!(d.iter().all(|d| !d.is_error()), "{d:#?}");
        let mut world = World::new(Map::open(16, 16), 10, 7);
        world.add_place("post_a", glam::Vec2::new(6.5, 1.5));
        let mut guard = Entity::new("guard", "human", IVec2::new(1, 1));
        guard.speed = 10.0;
        let me = world.spawn(guard).unwrap();
        let mut trees = Trees::default();
        trees.set_evaluation(evaluation);
        trees.attach(me, "t", Arc::new(def.expect("the tree builds")));
        Rig { world, trees, me, script: Script::default() }
    }

    fn set(&mut self, key: &str, value: impl Into<Value>) {
        self.world.entity_mut(self.me).unwrap().blackboard.insert(key.to_owned(), value.into());
    }

    fn step(&mut self) {
        let Rig { world, trees, script, .. } = self;
        let mut rng = world.rng().clone();
        world.step(|w, commands: &mut CommandBuffer| trees.tick(w, &mut rng, commands, script, None));
    }

    fn steps(&mut self, n: usize) {
        for _ in 0..n {
            self.step();
        }
    }

    fn calls(&self, f: &str) -> Vec<u64> {
        self.script.calls.iter().filter(|(_, n)| n == f).map(|(t, _)| *t).collect()
    }

    fn halted(&self, f: &str) -> Vec<u64> {
        self.script.halts.iter().filter(|(_, n)| n == f).map(|(t, _)| *t).collect()
    }

    /// The `node` events of the trace: (tick, node name, status).
    fn events(&self) -> Vec<(u64, String, &'static str)> {
        self.world
            .log()
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Node { name, status, .. } => Some((e.tick, name.clone(), *status)),
                _ => None,
            })
            .collect()
    }

    fn status_of(&self, name: &str) -> Vec<(u64, &'static str)> {
        self.events().into_iter().filter(|(_, n, _)| n == name).map(|(t, _, s)| (t, s)).collect()
    }

    fn root(&self) -> Option<Status> {
        self.trees.get(self.me).and_then(TreeState::status)
    }
}

#[test]
fn sequence_resumes_its_running_child_without_ticking_the_ones_before() {
    let mut r = Rig::new("tree T { blackboard { a_says = \"success\"; } sequence { a(); b(); } }");
    r.steps(3);
    assert_eq!(r.calls("a"), [0], "`a` succeeded once; the running `b` is resumed alone");
    assert_eq!(r.calls("b"), [0, 1, 2]);
    r.set("b_says", "failure");
    r.steps(2);
    assert_eq!(r.calls("a"), [0, 4], "after the failure at tick 3 the sequence starts again from `a`");
    assert_eq!(r.calls("b"), [0, 1, 2, 3, 4]);
}

#[test]
fn memory_sequence_resumes_at_the_child_that_failed() {
    let mut r = Rig::new(
        "tree T { blackboard { a_says = \"success\"; b_says = \"failure\"; } sequence with memory { a(); b(); } }",
    );
    r.steps(3);
    assert_eq!(r.calls("a"), [0], "`a` is not run again: each run goes on at `b`, which failed");
    assert_eq!(r.calls("b"), [0, 1, 2]);
    r.set("b_says", "success");
    r.steps(2);
    assert_eq!(r.calls("a"), [0, 4], "once the whole sequence succeeded it starts from the first child");
}

#[test]
fn fallback_resumes_its_running_child_without_ticking_the_ones_before() {
    let mut r = Rig::new("tree T { blackboard { a_says = \"failure\"; } fallback { a(); b(); } }");
    r.steps(3);
    assert_eq!((r.calls("a"), r.calls("b")), (vec![0], vec![0, 1, 2]));
}

#[test]
fn reactive_sequence_halts_a_running_child_when_an_earlier_condition_fails() {
    let mut r = Rig::new("tree T { blackboard { ok = true; } reactive sequence { check ok; work(); } }");
    r.steps(3);
    assert_eq!(r.calls("work"), [0, 1, 2]);
    r.set("ok", false);
    r.step();
    assert_eq!(r.halted("work"), [3], "halted on the tick the condition failed");
    assert_eq!(r.status_of("work()"), [(0, "running"), (3, "halted")]);
    assert_eq!(r.root(), Some(Status::Failure));
    assert_eq!(r.calls("work"), [0, 1, 2], "and not ticked again");
}

#[test]
fn reactive_fallback_halts_a_running_child_when_an_earlier_one_succeeds() {
    let mut r = Rig::new("tree T { blackboard { alarm = false; } reactive fallback { check alarm; patrol(); } }");
    r.steps(2);
    r.set("alarm", true);
    r.step();
    assert_eq!(r.halted("patrol"), [2]);
    assert_eq!(r.root(), Some(Status::Success));
}

#[test]
fn parallel_threshold_reached_while_children_run_halts_them() {
    let mut r = Rig::new("tree T { parallel success 1 failure 2 { a(); b(); c(); } }");
    r.steps(2);
    r.set("b_says", "success");
    r.step();
    assert_eq!(r.root(), Some(Status::Success), "one success is enough");
    assert_eq!((r.halted("a"), r.halted("c")), (vec![2], vec![2]), "children still running are halted");
    assert_eq!(r.calls("c"), [0, 1], "`c` was not ticked on that tick: the threshold is checked after each child");
}

#[test]
fn parallel_does_not_tick_children_that_finished_and_fails_once_success_is_out_of_reach() {
    let mut r = Rig::new("tree T { blackboard { a_says = \"success\"; } parallel { a(); b(); c(); } }");
    r.steps(3);
    assert_eq!(r.calls("a"), [0], "a finished child waits for the others");
    r.set("b_says", "failure");
    r.step();
    assert_eq!(r.root(), Some(Status::Failure), "all three must succeed (the default); one failed");
    assert_eq!(r.halted("c"), [3]);
}

#[test]
fn guard_abort_self_halts_its_branch_when_the_condition_stops_holding() {
    let mut r = Rig::new("tree T { blackboard { noise = true; } guard noise abort self investigate(); }");
    r.steps(2);
    r.set("noise", false);
    r.step();
    assert_eq!(r.halted("investigate"), [2]);
    assert_eq!(r.root(), Some(Status::Failure));
}

#[test]
fn guard_abort_none_reads_its_condition_only_when_entered() {
    let mut r = Rig::new("tree T { blackboard { noise = true; } guard noise investigate(); }");
    r.steps(2);
    r.set("noise", false);
    r.steps(2);
    assert!(r.halted("investigate").is_empty(), "the running branch goes on");
    r.set("investigate_says", "success");
    r.step();
    assert_eq!(r.root(), Some(Status::Success));
    r.step();
    assert_eq!(r.root(), Some(Status::Failure), "entered again, the guard reads the condition");
}

#[test]
fn guard_abort_lower_priority_cuts_a_lower_branch_short_when_the_condition_comes_to_hold() {
    let mut r = Rig::new(
        "tree T { blackboard { shot = false; } fallback { guard shot abort lower_priority cover(); patrol(); } }",
    );
    r.steps(3);
    assert_eq!(r.calls("patrol"), [0, 1, 2]);
    r.set("shot", true);
    r.step();
    assert_eq!(r.halted("patrol"), [3], "the lower-priority branch is halted");
    assert_eq!(r.calls("cover"), [3], "and the guard's branch runs on the same tick");
    r.set("shot", false);
    r.steps(2);
    assert!(r.halted("cover").is_empty(), "lower_priority does not abort its own branch");
}

#[test]
fn guard_abort_lower_priority_fires_once_per_change_not_while_it_holds() {
    // The guard's branch fails at once while the condition holds: the fallback goes on to
    // `patrol`, and the held condition does not abort it again and again.
    let mut r = Rig::new(
        "tree T { blackboard { shot = false; cover_says = \"failure\"; } fallback { guard shot abort lower_priority \
         cover(); patrol(); } }",
    );
    r.steps(2);
    r.set("shot", true);
    r.steps(4);
    assert_eq!(r.calls("cover"), [2], "tried once when `shot` came to hold");
    assert_eq!(r.halted("patrol"), [2]);
    assert_eq!(r.calls("patrol"), [0, 1, 2, 3, 4, 5]);
}

#[test]
fn guard_abort_both_does_both() {
    let mut r =
        Rig::new("tree T { blackboard { shot = false; } fallback { guard shot abort both cover(); patrol(); } }");
    r.steps(2);
    r.set("shot", true);
    r.step();
    assert_eq!((r.halted("patrol"), r.calls("cover")), (vec![2], vec![2]));
    r.set("shot", false);
    r.step();
    assert_eq!(r.halted("cover"), [3], "and its own branch when it stops holding");
    assert_eq!(r.calls("patrol").last(), Some(&3), "the fallback moves on to patrol at once");
}

#[test]
fn inverter_and_forced_results() {
    let mut r = Rig::new(
        "tree T { blackboard { a_says = \"success\"; } sequence { invert invert a(); force success fail(); force \
         failure invert a(); } }",
    );
    r.step();
    assert_eq!(r.root(), Some(Status::Failure));
    assert_eq!(r.status_of("force failure"), [(0, "failure")]);
    assert_eq!(r.status_of("force success"), [(0, "success")]);
}

#[test]
fn repeat_runs_a_child_that_finishes_at_once_n_times_in_one_tick_and_stops_at_a_failure() {
    let mut r = Rig::new("tree T { blackboard { a_says = \"success\"; } repeat 3 a(); }");
    r.step();
    assert_eq!((r.calls("a"), r.root()), (vec![0, 0, 0], Some(Status::Success)));
    let mut r = Rig::new("tree T { blackboard { a_says = \"failure\"; } repeat 3 a(); }");
    r.step();
    assert_eq!((r.calls("a"), r.root()), (vec![0], Some(Status::Failure)));
}

#[test]
fn repeat_forever_runs_its_child_once_a_tick() {
    let mut r = Rig::new("tree T { blackboard { a_says = \"success\"; } repeat forever a(); }");
    r.steps(4);
    assert_eq!(r.calls("a"), [0, 1, 2, 3]);
    assert_eq!(r.root(), Some(Status::Running));
}

#[test]
fn retry_runs_a_failing_child_again_up_to_n_attempts() {
    let mut r = Rig::new("tree T { blackboard { a_says = \"failure\"; } retry 3 a(); }");
    r.step();
    assert_eq!((r.calls("a"), r.root()), (vec![0, 0, 0], Some(Status::Failure)));
}

#[test]
fn timeout_halts_a_child_that_runs_too_long() {
    let mut r = Rig::new("tree T { timeout 3 work(); }");
    r.steps(4);
    assert_eq!(r.calls("work"), [0, 1, 2], "three ticks to finish");
    assert_eq!(r.halted("work"), [3]);
    assert_eq!(r.status_of("timeout 3"), [(0, "running"), (3, "failure")]);
}

#[test]
fn delay_starts_its_child_after_n_ticks() {
    let mut r = Rig::new("tree T { delay 3 work(); }");
    r.steps(5);
    assert_eq!(r.calls("work"), [3, 4]);
}

#[test]
fn cooldown_fails_without_ticking_its_child_until_the_time_is_up() {
    let mut r = Rig::new("tree T { blackboard { a_says = \"success\"; } fallback { cooldown 3 a(); idle(); } }");
    r.steps(6);
    assert_eq!(r.calls("a"), [0], "the fallback succeeded at tick 0 and ran again from tick 1");
    // From tick 1 the fallback runs `idle`, resumed; `a` is not tried again while idle runs.
    let mut r = Rig::new("tree T { blackboard { a_says = \"success\"; } cooldown 3 a(); }");
    r.steps(7);
    assert_eq!(r.calls("a"), [0, 3, 6], "cooling ticks 1 and 2 (and 4, 5): the root fails without `a`");
}

#[test]
fn services_run_when_their_branch_starts_and_then_every_n_ticks_while_it_runs() {
    let mut r = Rig::new(
        "tree T { blackboard { go = true; } guard go abort self sequence { service listen() every 3; work(); } }",
    );
    r.steps(7);
    assert_eq!(r.calls("listen"), [0, 3, 6]);
    r.set("go", false);
    r.steps(4);
    assert_eq!(r.calls("listen"), [0, 3, 6], "not while the branch does not run");
}

#[test]
fn a_service_of_a_composite_that_starts_again_and_again_still_runs_every_n_ticks() {
    let mut r = Rig::new("tree T { sequence { service listen() every 3; fail(); } }");
    r.steps(7);
    assert_eq!(r.calls("listen"), [0, 3, 6], "the root fails and starts again every tick");
}

#[test]
fn a_reactive_node_that_starts_an_earlier_leaf_keeps_its_action_when_it_halts_the_later_one() {
    // Found in a designer's trial: `go` comes to hold while the second move runs; the reactive
    // fallback starts the first move, then halts the second. The halt takes back the second
    // move's action, not the one the tick just asked for.
    let mut r = Rig::new(
        "tree T { blackboard { go = false; } reactive fallback { sequence { check go; move_to(1, 10); } move_to(15, 15); } }",
    );
    r.steps(2);
    r.set("go", true);
    r.step();
    assert_eq!(r.status_of("move_to(15, 15)"), [(0, "running"), (2, "halted")]);
    let front = r.world.entity(r.me).unwrap().actions.front().cloned();
    assert_eq!(front, Some(crate::coord::Action::MoveTo { target: glam::Vec2::new(1.5, 10.5) }));
    r.steps(2);
    assert_eq!(r.status_of("move_to(1, 10)")[0], (2, "running"));
    assert_eq!(r.status_of("move_to(1, 10)").len(), 1, "still on its way, not failed");
}

#[test]
fn subtree_ports_are_remapped_onto_the_callers_keys() {
    let mut r = Rig::new(
        "tree Main { blackboard { target = 3; got = 0; } sequence { subtree Double(x = target, y = got); check got == 3; } }\n\
         tree Double(in x, out y) { blackboard { seen = true; } sequence { check seen; set y = x; } }",
    );
    r.step();
    assert_eq!(r.root(), Some(Status::Success), "the subtree's write is read by the caller in the same tick");
    r.step();
    let e = r.world.entity(r.me).unwrap();
    assert_eq!(e.blackboard.get("got"), Some(&Value::Int(3)));
    assert_eq!(e.blackboard.get("y"), None, "the port is the caller's key");
    assert_eq!(r.trees.get(r.me).unwrap().def().keys().get("Double.seen"), Some(&Value::Bool(true)));
}

#[test]
fn a_tree_whose_root_finished_starts_again_next_tick() {
    let mut r = Rig::new("tree T { blackboard { a_says = \"success\"; } sequence { a(); } }");
    r.steps(3);
    assert_eq!(r.calls("a"), [0, 1, 2]);
    assert_eq!(r.status_of("sequence"), [(0, "success")], "a status repeated is not traced again");
}

#[test]
fn built_in_moves_wait_say_and_halting_drop_the_action() {
    let mut r = Rig::new("tree T { sequence { say(\"On my way.\"); move_to(post_a); wait(2); say(\"Here.\"); } }");
    for _ in 0..30 {
        r.step();
        if r.root() == Some(Status::Success) {
            break;
        }
    }
    assert_eq!(r.root(), Some(Status::Success));
    assert_eq!(r.world.entity(r.me).unwrap().cell(), IVec2::new(6, 1));
    let said: Vec<String> = r
        .world
        .log()
        .events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Say { text } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(said, ["On my way.", "Here."]);
    // A move halted by an abort leaves the queue empty: the character stops.
    let mut r = Rig::new("tree T { blackboard { go = true; } guard go abort self move_to(15, 15); }");
    r.steps(3);
    assert!(!r.world.entity(r.me).unwrap().actions.is_idle());
    r.set("go", false);
    r.steps(2);
    assert!(r.world.entity(r.me).unwrap().actions.is_idle(), "halted: the move left the queue");
    assert_eq!(r.status_of("move_to(15, 15)"), [(0, "running"), (3, "halted")]);
}

#[test]
fn a_move_to_an_unreachable_cell_fails() {
    let mut r = Rig::new("tree T { move_to(40, 40); }");
    r.steps(3);
    assert_eq!(r.status_of("move_to(40, 40)"), [(0, "running"), (1, "failure"), (2, "running")], "and starts again");
}

#[test]
fn signals_and_waits_release_each_other() {
    let mut r = Rig::new("tree T { sequence { wait_signal(go); say(\"Going.\"); } }");
    r.steps(3);
    assert_eq!(r.root(), Some(Status::Running));
    // The guard stands alone (no team, no squad): its scope is its own name. An ally signals there.
    let ally = r.world.spawn(Entity::new("ally", "human", IVec2::new(3, 3))).unwrap();
    let mut c = CommandBuffer::default();
    let signal = crate::coord::Action::Signal { scope: "entity:guard".into(), id: "go".into() };
    c.push(crate::world::Command::Perform { entity: ally, action: signal });
    r.world.apply(c);
    r.steps(3);
    assert_eq!(r.root(), Some(Status::Success));
}

#[test]
fn a_runaway_repeat_is_stopped_by_the_node_budget() {
    let mut r = Rig::new("tree T { repeat 1000000 succeed(); }");
    r.step();
    assert_eq!(r.root(), Some(Status::Failure));
    let noted =
        r.world.log().events().iter().any(|e| matches!(&e.kind, EventKind::Note { name, .. } if name == "tree_budget"));
    assert!(noted);
}

/// A scenario of blackboard changes and leaf answers, played once with event-driven evaluation
/// and once ticking from the root every tick: the two traces must be the same, event for event.
fn both_ways(src: &str, script: &[(u64, &str, Value)], ticks: u64) -> (String, String, u64) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for evaluation in [Evaluation::EventDriven, Evaluation::Full] {
        let mut r = Rig::with(src, evaluation);
        let mut profile = TreeProfile::default();
        for t in 0..ticks {
            for (at, key, v) in script {
                if *at == t {
                    r.set(key, v.clone());
                }
            }
            let Rig { world, trees, script, .. } = &mut r;
            let mut rng = world.rng().clone();
            world.step(|w, c| trees.tick(w, &mut rng, c, script, Some(&mut profile)));
        }
        let trace: String = r.world.log().events().iter().map(|e| e.to_json_line() + "\n").collect();
        out.push((trace, format!("{:?}", r.script.calls)));
        if evaluation == Evaluation::EventDriven {
            skipped = profile.trees.values().map(|t| t.skipped).sum();
        }
    }
    assert_eq!(out[0].1, out[1].1, "the same script calls");
    (out[0].0.clone(), out[1].0.clone(), skipped)
}

#[test]
fn event_driven_evaluation_issues_what_ticking_from_the_root_issues() {
    let src = "tree Guard {\n  blackboard { noise = false; shot = false; calm = true; }\n  fallback {\n    guard shot abort \
               lower_priority sequence { say(\"Cover!\"); wait(4); set shot = false; }\n    guard noise abort \
               lower_priority reactive sequence { check calm; sequence { move_to(post_a); wait(3); set noise = false; } }\n    \
               sequence { move_to(2, 2); wait(5); move_to(1, 1); timeout 20 wait(2); }\n  }\n}\n";
    let script = [
        (7, "noise", Value::Bool(true)),
        (12, "calm", Value::Bool(false)),
        (14, "calm", Value::Bool(true)),
        (15, "noise", Value::Bool(true)),
        (30, "shot", Value::Bool(true)),
        (33, "noise", Value::Bool(true)),
        (60, "unrelated", Value::Int(3)),
    ];
    let (event, full, skipped) = both_ways(src, &script, 90);
    assert_eq!(event, full);
    assert!(event.contains("\"status\":\"halted\""), "aborts happened:\n{event}");
    assert!(skipped > 40, "most ticks are skipped ({skipped})\n{event}");
}

mod generated {
    //! Trees made up from the node kinds, with blackboard changes at random ticks: event-driven
    //! evaluation and ticking from the root give the same trace.

    use proptest::prelude::*;

    use super::*;

    fn node(depth: u32) -> BoxedStrategy<String> {
        let leaf = prop_oneof![
            Just("check a;".to_owned()),
            Just("check b or not a;".to_owned()),
            Just("wait(2);".to_owned()),
            Just("wait(5);".to_owned()),
            Just("say(\"x\");".to_owned()),
            Just("set b = true;".to_owned()),
            Just("set a = false;".to_owned()),
            Just("move_to(3, 4);".to_owned()),
            Just("leaf();".to_owned()),
            Just("fail();".to_owned()),
        ];
        if depth == 0 {
            return leaf.boxed();
        }
        let inner = node(depth - 1);
        let kids = prop::collection::vec(node(depth - 1), 1..4).prop_map(|v| v.join(" "));
        prop_oneof![
            leaf,
            kids.clone().prop_map(|k| format!("sequence {{ {k} }}")),
            kids.clone().prop_map(|k| format!("fallback {{ {k} }}")),
            kids.clone().prop_map(|k| format!("reactive sequence {{ {k} }}")),
            kids.clone().prop_map(|k| format!("reactive fallback {{ {k} }}")),
            kids.clone().prop_map(|k| format!("sequence with memory {{ {k} }}")),
            kids.clone().prop_map(|k| format!("parallel success 1 {{ {k} }}")),
            kids.prop_map(|k| format!("fallback {{ guard a abort lower_priority wait(3); {k} }}")),
            inner.clone().prop_map(|c| format!("invert {c}")),
            inner.clone().prop_map(|c| format!("repeat 2 {c}")),
            inner.clone().prop_map(|c| format!("retry 2 {c}")),
            inner.clone().prop_map(|c| format!("timeout 4 {c}")),
            inner.clone().prop_map(|c| format!("delay 2 {c}")),
            inner.clone().prop_map(|c| format!("cooldown 3 {c}")),
            inner.clone().prop_map(|c| format!("guard a abort self {c}")),
            inner.prop_map(|c| format!("guard b {c}")),
        ]
        .boxed()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn event_driven_equals_full(root in node(3), changes in prop::collection::vec((0u64..40, 0usize..4), 0..8)) {
            let src = format!("tree G {{ blackboard {{ a = true; b = false; leaf_says = \"running\"; }} {root} }}");
            let (def, d) = parse(&src, &Catalog::default());
            prop_assume!(def.is_some() && d.iter().all(|d| !d.is_error()));
            let values = [("a", Value::Bool(false)), ("a", Value::Bool(true)), ("b", Value::Bool(true)), ("leaf_says", Value::from("success"))];
            let script: Vec<(u64, &str, Value)> = changes.iter().map(|&(t, i)| (t, values[i].0, values[i].1.clone())).collect();
            let (event, full, _) = both_ways(&src, &script, 40);
            prop_assert_eq!(event, full);
        }
    }
}

mod hostile {
    //! Whatever a designer or a modder (`BuildTree`) writes, reading and building a tree never
    //! panics, and a tree that builds ticks without panicking.

    use proptest::prelude::*;

    use super::*;

    const WORDS: &[&str] = &[
        "tree",
        "T",
        "U",
        "{",
        "}",
        "(",
        ")",
        ";",
        ",",
        "=",
        "sequence",
        "fallback",
        "selector",
        "reactive",
        "parallel",
        "success",
        "failure",
        "1",
        "2",
        "0",
        "-1",
        "99999",
        "invert",
        "force",
        "repeat",
        "forever",
        "retry",
        "timeout",
        "delay",
        "cooldown",
        "guard",
        "abort",
        "self",
        "lower_priority",
        "both",
        "check",
        "set",
        "subtree",
        "service",
        "every",
        "a",
        "b",
        "k",
        "move_to",
        "wait",
        "say",
        "chase",
        "flee",
        "play_pattern",
        "signal",
        "wait_signal",
        "go_to_position",
        "follow_path",
        "succeed",
        "fail",
        "\"x\"",
        "blackboard",
        "leaves",
        "\"f.lua\"",
        "\"f.py\"",
        "in",
        "out",
        "true",
        "not",
        "and",
        "==",
        "<",
        "with",
        "memory",
        "p",
        "player",
    ];

    fn tick_a_few(src: &str) {
        let (def, _) = parse(src, &Catalog::default());
        let Some(def) = def else { return };
        let mut world = World::new(Map::open(8, 8), 10, 1);
        world.add_place("p", glam::Vec2::new(3.5, 3.5));
        let me = world.spawn(Entity::new("me", "x", IVec2::new(1, 1))).unwrap();
        world.trees_mut().attach(me, "t", Arc::new(def));
        for _ in 0..6 {
            let mut commands = CommandBuffer::default();
            world.tick_trees(&mut commands, &mut NoScripts, None);
            world.apply(commands);
            world.run_actions();
            world.end_tick();
        }
    }

    #[test]
    fn trees_nested_past_the_depth_limit_are_refused_not_overflowed() {
        for src in [
            format!("tree T {{ {}wait(1); }}", "invert ".repeat(100_000)),
            format!("tree T {{ blackboard {{ a = true; }} {}wait(1); }}", "guard a ".repeat(100_000)),
            format!("tree T {{ {}wait(1);{} }}", "sequence { ".repeat(20_000), " }".repeat(20_000)),
        ] {
            let (def, d) = parse(&src, &Catalog::default());
            assert!(def.is_none());
            assert!(
                d.iter().any(|d| d.code == tactica_syntax::Code::NestingTooDeep
                    && d.message == "nested more than 200 levels deep"),
                "{:?}",
                &d[..d.len().min(3)]
            );
        }
        // Just past the limit and far past it: the same code and message (the reader's).
        for n in [200, 256, 300] {
            let src = format!("tree T {{ {}wait(1); }}", "invert ".repeat(n));
            let (def, d) = parse(&src, &Catalog::default());
            assert!(def.is_none());
            assert_eq!(
                d.iter().map(|d| (d.code, d.message.as_str())).collect::<Vec<_>>(),
                [(tactica_syntax::Code::NestingTooDeep, "nested more than 200 levels deep")],
                "{n}"
            );
        }
        let ok = format!("tree T {{ {}wait(1); }}", "invert ".repeat(100));
        assert!(parse(&ok, &Catalog::default()).0.is_some());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn word_soup_never_panics(words in prop::collection::vec(prop::sample::select(WORDS), 0..48)) {
            let src = words.join(" ");
            let functions = ["a".to_owned(), "b".to_owned()];
            let places = ["p".to_owned()];
            let _ = parse(&src, &Catalog { functions: Some(&functions), places: Some(&places) });
            tick_a_few(&src);
        }

        #[test]
        fn trees_of_every_node_never_panic(body in prop::collection::vec(prop::sample::select(WORDS), 0..40)) {
            let src = format!("tree T {{ blackboard {{ a = 1; k = true; }} {} }} tree U(in a, out b) {{ set b = a; }}", body.join(" "));
            tick_a_few(&src);
        }

        #[test]
        fn any_text_never_panics(s in "\\PC{0,300}") {
            let _ = parse(&s, &Catalog::default());
        }
    }
}

#[test]
fn every_built_in_leaf_and_node_word_is_described() {
    for name in leaf_names().chain(node_words()) {
        let w = word(name).unwrap_or_else(|| panic!("`{name}` has no description"));
        assert!(!w.doc.is_empty() && w.form.contains(name.split('_').next().unwrap()), "{name}");
    }
    assert_eq!(word("MOVE_TO").map(|w| w.leaf), Some(true));
}
