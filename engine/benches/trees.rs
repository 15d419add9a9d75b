//! Behaviour trees: 10,000 characters, each running a 30-node tree (`WORKER` below: guards with
//! observer aborts, moves, waits, writes, a reactive sequence and a timeout), one tick of their
//! decisions —
//!
//! * `trees/event_driven`: Tactica's evaluation, which ticks a tree from its root only when
//!   something it watches changed;
//! * `trees/full`: the same trees ticked from the root every tick (what BehaviorTree.CPP's
//!   `tickRoot` does);
//! * `trees/native`: the same decisions written as a plain Rust function per character.
//!
//! Before timing, the three are played side by side for 300 ticks on 2,000 characters and must
//! issue the same commands, tick for tick. Each tick the driver sets blackboard keys on a few
//! characters (an alarm, hunger, an enemy), the same ones for all three. Only the decisions are
//! timed: applying the commands and walking happen between samples. Node events are not traced
//! (the native peer has none). The group ends with one line of medians and ratios.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use glam::{IVec2, Vec2};
use tactica_engine::Value;
use tactica_engine::coord::Action;
use tactica_engine::decide::bt::{self, Catalog, Evaluation, NoScripts, TreeDef};
use tactica_engine::grid::{Map, cell_of};
use tactica_engine::world::{Command, CommandBuffer, Entity, EntityId, World};

/// The workers' tree: 30 nodes.
const WORKER: &str = "tree Worker {
  blackboard { enemy = false; alarm = false; hungry = false; tired = false; task = 0; }
  fallback {
    guard enemy abort lower_priority sequence { say(\"Enemy!\"); move_to(shelter); wait(5); }
    guard alarm abort lower_priority sequence { move_to(bell); wait(3); set alarm = false; }
    guard hungry abort lower_priority sequence { move_to(kitchen); wait(4); set hungry = false; }
    guard tired sequence { move_to(bed); wait(8); set tired = false; }
    reactive sequence {
      check not enemy;
      timeout 200 sequence { move_to(field_a); wait(6); move_to(field_b); wait(6); set task = 1; }
    }
  }
}";

const SIDE: i32 = 100;

/// A world of `n` workers on a 160 × 120 map with the tree's places, near their own cells.
fn world(n: usize) -> World {
    let mut w = World::new(Map::open(160, 120), 10, 3);
    for (name, x, y) in [
        ("shelter", 2, 2),
        ("bell", 150, 5),
        ("kitchen", 5, 110),
        ("bed", 150, 110),
        ("field_a", 80, 10),
        ("field_b", 80, 100),
    ] {
        w.add_place(name, Vec2::new(x as f32 + 0.5, y as f32 + 0.5));
    }
    for i in 0..n as i32 {
        let mut e = Entity::new(format!("w{i}"), "worker", IVec2::new(20 + i % SIDE, 5 + i / SIDE));
        e.speed = 30.0;
        w.spawn(e).unwrap();
    }
    w
}

/// What the driver changes before tick `t` for worker `i`: the same for every evaluation.
fn stir(w: &mut World, ids: &[EntityId], t: u64) {
    for (i, &id) in ids.iter().enumerate() {
        let h = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ t.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let h = h ^ (h >> 29);
        let roll = h % 1000;
        let key = match roll {
            0..=4 => Some(("alarm", Value::Bool(true))),
            5..=9 => Some(("hungry", Value::Bool(true))),
            10..=11 => Some(("tired", Value::Bool(true))),
            12 => Some(("enemy", Value::Bool(true))),
            13..=15 => Some(("enemy", Value::Bool(false))),
            _ => None,
        };
        if let (Some((k, v)), Some(e)) = (key, w.entity_mut(id)) {
            e.blackboard.insert(k.to_owned(), v);
        }
    }
}

/// The native peer: the tree's decisions as a plain function, one small state per worker.
#[derive(Clone, Default)]
struct Native {
    /// The fallback's running branch (0 enemy, 1 alarm, 2 hungry, 3 tired, 4 work); none when
    /// the root has finished (it starts again next tick).
    branch: Option<usize>,
    step: usize,
    /// The lower-priority guards' conditions as last read.
    held: [bool; 3],
    deadline: u64,
    /// The running leaf's action and, for a move, its goal cell.
    running: Option<(Action, Option<IVec2>)>,
    /// Whether the keys' defaults were written (on the first tick, as a tree does).
    seeded: bool,
}

#[derive(Clone, Copy)]
enum Step {
    Say(&'static str),
    Move(&'static str),
    Wait(u32),
    Set(&'static str, i64),
}

const BRANCHES: [&[Step]; 5] = [
    &[Step::Say("Enemy!"), Step::Move("shelter"), Step::Wait(5)],
    &[Step::Move("bell"), Step::Wait(3), Step::Set("alarm", 0)],
    &[Step::Move("kitchen"), Step::Wait(4), Step::Set("hungry", 0)],
    &[Step::Move("bed"), Step::Wait(8), Step::Set("tired", 0)],
    &[Step::Move("field_a"), Step::Wait(6), Step::Move("field_b"), Step::Wait(6), Step::Set("task", 1)],
];
const GUARDS: [&str; 4] = ["enemy", "alarm", "hungry", "tired"];

enum Outcome {
    Running,
    Done(bool),
}

impl Native {
    fn tick(&mut self, w: &World, me: EntityId, now: u64, out: &mut CommandBuffer) {
        let Some(e) = w.entity(me) else { return };
        if !self.seeded {
            self.seeded = true;
            for (key, value) in
                [("alarm", false), ("enemy", false), ("hungry", false), ("task", true), ("tired", false)]
            {
                if !e.blackboard.contains_key(key) {
                    let value = if key == "task" { Value::Int(0) } else { Value::Bool(value) };
                    out.push(Command::SetBlackboard { entity: me, key: key.to_owned(), value });
                }
            }
        }
        let cond = |k: &str| e.blackboard.get(k).is_some_and(Value::truthy);
        let Some(b) = self.branch else {
            self.start(w, me, 0, now, out, &cond);
            return;
        };
        for (j, key) in GUARDS.iter().enumerate().take(b.min(3)) {
            let held = cond(key);
            let was = std::mem::replace(&mut self.held[j], held);
            if held && !was {
                self.halt(me, out);
                self.start(w, me, j, now, out, &cond);
                return;
            }
        }
        if b == 4 {
            // The reactive sequence reads `not enemy` again; then the timeout.
            if cond("enemy") || now >= self.deadline {
                self.halt(me, out);
                self.start(w, me, 5, now, out, &cond);
                return;
            }
        }
        let outcome = match &self.running {
            Some((action, goal)) => {
                let front = e.actions.iter().find(|a| !a.is_instant());
                let same = match (front, action) {
                    (Some(Action::Sleep { .. }), Action::Sleep { .. }) => true,
                    (Some(a), b) => a == b,
                    (None, _) => false,
                };
                if same { Outcome::Running } else { Outcome::Done(goal.is_none_or(|g| e.cell() == g)) }
            }
            None => Outcome::Done(true),
        };
        match outcome {
            Outcome::Running => {}
            Outcome::Done(true) => {
                self.running = None;
                self.step += 1;
                self.run(w, me, now, out, &cond);
            }
            Outcome::Done(false) => {
                self.running = None;
                self.start(w, me, b + 1, now, out, &cond);
            }
        }
    }

    /// The fallback from child `from`: the first guard that holds, else the work.
    fn start(
        &mut self,
        w: &World,
        me: EntityId,
        from: usize,
        now: u64,
        out: &mut CommandBuffer,
        cond: &dyn Fn(&str) -> bool,
    ) {
        for (b, key) in GUARDS.iter().enumerate().skip(from) {
            let held = cond(key);
            if b < 3 {
                self.held[b] = held;
            }
            if held {
                (self.branch, self.step) = (Some(b), 0);
                self.run(w, me, now, out, cond);
                return;
            }
        }
        if from <= 4 && !cond("enemy") {
            (self.branch, self.step, self.deadline) = (Some(4), 0, now + 200);
            self.run(w, me, now, out, cond);
            return;
        }
        self.branch = None;
    }

    /// Runs the branch's steps from `self.step` until one runs; at the end the root is done.
    fn run(&mut self, w: &World, me: EntityId, now: u64, out: &mut CommandBuffer, cond: &dyn Fn(&str) -> bool) {
        let Some(b) = self.branch else { return };
        while let Some(&step) = BRANCHES[b].get(self.step) {
            match step {
                Step::Say(text) => {
                    out.push(Command::Perform { entity: me, action: Action::Say { text: text.to_owned() } })
                }
                Step::Move(place) => {
                    let Some(p) = w.place(place) else {
                        self.start(w, me, b + 1, now, out, cond);
                        return;
                    };
                    let action = Action::MoveTo { target: p };
                    out.push(Command::Request { entity: me, action: action.clone() });
                    self.running = Some((action, Some(cell_of(p))));
                    return;
                }
                Step::Wait(ticks) => {
                    let action = Action::Sleep { ticks };
                    out.push(Command::Request { entity: me, action: action.clone() });
                    self.running = Some((action, None));
                    return;
                }
                Step::Set(key, v) => {
                    let value = if key == "task" { Value::Int(v) } else { Value::Bool(v != 0) };
                    out.push(Command::SetBlackboard { entity: me, key: key.to_owned(), value });
                }
            }
            self.step += 1;
        }
        self.branch = None;
    }

    fn halt(&mut self, me: EntityId, out: &mut CommandBuffer) {
        if self.running.take().is_some() {
            out.push(Command::ClearActions { entity: me });
        }
    }
}

/// One way of deciding: trees (either evaluation) or the native peer.
enum Deciders {
    Trees,
    Native(Vec<Native>),
}

struct Run {
    world: World,
    ids: Vec<EntityId>,
    deciders: Deciders,
    tick: u64,
}

impl Run {
    fn new(n: usize, def: &Arc<TreeDef>, evaluation: Option<Evaluation>) -> Run {
        let mut world = world(n);
        let ids = world.entity_ids();
        let deciders = match evaluation {
            Some(ev) => {
                world.trees_mut().set_evaluation(ev);
                world.trees_mut().set_trace(false);
                for &id in &ids {
                    world.trees_mut().attach(id, "worker", Arc::clone(def));
                }
                Deciders::Trees
            }
            None => Deciders::Native(vec![Native::default(); ids.len()]),
        };
        Run { world, ids, deciders, tick: 0 }
    }

    /// The decisions of one tick (what is timed).
    fn decide(&mut self, commands: &mut CommandBuffer) {
        match &mut self.deciders {
            Deciders::Trees => self.world.tick_trees(commands, &mut NoScripts, None),
            Deciders::Native(states) => {
                let now = self.world.clock().tick();
                for (st, &id) in states.iter_mut().zip(&self.ids) {
                    st.tick(&self.world, id, now, commands);
                }
            }
        }
    }

    /// One whole tick; returns how long the decisions took and what they issued.
    fn step(&mut self) -> (Duration, CommandBuffer) {
        stir(&mut self.world, &self.ids, self.tick);
        self.world.update();
        let mut commands = CommandBuffer::default();
        let t0 = Instant::now();
        self.decide(&mut commands);
        let took = t0.elapsed();
        let issued = commands.clone();
        self.world.apply(commands);
        self.world.run_actions();
        self.world.detect_events();
        self.world.end_tick();
        self.tick += 1;
        (took, issued)
    }
}

fn def() -> Arc<TreeDef> {
    let (def, d) = bt::parse(WORKER, &Catalog::default());
    assert!(d.is_empty(), "{d:?}");
    let def = def.unwrap();
    assert_eq!(def.nodes().len(), 30, "a 30-node tree");
    Arc::new(def)
}

/// The three issue the same commands, tick for tick.
fn validate(def: &Arc<TreeDef>) {
    let mut runs = [
        Run::new(2000, def, Some(Evaluation::EventDriven)),
        Run::new(2000, def, Some(Evaluation::Full)),
        Run::new(2000, def, None),
    ];
    let mut issued = 0;
    for t in 0..300 {
        let out: Vec<String> = runs.iter_mut().map(|r| format!("{:?}", r.step().1.as_slice())).collect();
        assert_eq!(out[0], out[1], "event-driven and full differ at tick {t}");
        assert_eq!(out[0], out[2], "the trees and the native peer differ at tick {t}");
        issued += out[0].matches("entity").count();
    }
    assert!(issued > 10_000, "the workers decide things ({issued} commands)");
}

fn bench(c: &mut Criterion) {
    let def = def();
    validate(&def);
    let mut group = c.benchmark_group("trees");
    group.sample_size(30);
    let mut medians = Vec::new();
    for (name, evaluation) in
        [("event_driven", Some(Evaluation::EventDriven)), ("full", Some(Evaluation::Full)), ("native", None)]
    {
        let mut run = Run::new(10_000, &def, evaluation);
        for _ in 0..60 {
            run.step();
        }
        let mut samples = Vec::new();
        group.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (took, issued) = run.step();
                    black_box(issued.len());
                    samples.push(took);
                    total += took;
                }
                total
            })
        });
        samples.sort();
        medians.push((name, samples[samples.len() / 2]));
    }
    group.finish();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let (event, full, native) = (us(medians[0].1), us(medians[1].1), us(medians[2].1));
    println!(
        "trees, 10,000 characters × 30 nodes, one tick of decisions (medians): event-driven {event:.0} µs · full re-tick {full:.0} µs · native {native:.0} µs — full/event {:.1}×, event/native {:.2}×",
        full / event,
        event / native
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
