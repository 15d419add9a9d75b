//! Decision-model benchmarks.
//!
//! * `crowd/10k_npcs_tick`: 9,000 villagers on daily schedules with open-loop action queues and
//!   1,000 stealth guards stepping their state machine — one tick of all 10,000.
//! * `rules/*`: 10,000 tech-tree working memories, each receiving one scout report per tick and
//!   forward-chaining to quiescence; the incremental chainer against the naive peer that
//!   re-matches every rule every cycle.
//! * `bayes/*`: a posterior on a 14-node network by variable elimination against enumeration.
//!
//! Each group also prints one line with medians from a quick timing loop and the ratio.

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use tactica_engine::Value;
use tactica_engine::decide::bayes::Network;
use tactica_engine::decide::crowd::{Crowd, OFFICE_SCHEDULE, OFFICE_SCRIPTS, Places, Schedule, ScriptLibrary};
use tactica_engine::decide::fsm::{FsmState, STEALTH_GUARD, StateMachine};
use tactica_engine::decide::rules::{ChainState, RuleSet, TECH_TREE, WorkingMemory};
use tactica_engine::value::Table;
use tactica_engine::world::WorldRng;

/// Median wall time of `f` in nanoseconds over `reps` runs.
fn median_ns(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..reps)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_nanos() as f64
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// 9,000 villagers and 1,000 guards.
struct Town {
    crowd: Crowd,
    fsm: StateMachine,
    guards: Vec<(FsmState, Table, Vec2)>,
    thief: Vec2,
    rng: WorldRng,
    hooks: usize,
}

impl Town {
    fn new() -> Town {
        let mut places = Places::default();
        let mut rng = WorldRng::new(7);
        for i in 0..50 {
            places.add(&format!("house{i}"), Vec2::new(rng.range(0.0, 200.0) as f32, rng.range(0.0, 200.0) as f32));
            places.add(&format!("office{i}"), Vec2::new(rng.range(0.0, 200.0) as f32, rng.range(0.0, 200.0) as f32));
        }
        for name in ["cafe", "restaurant", "shop", "tavern"] {
            places.add(name, Vec2::new(rng.range(0.0, 200.0) as f32, rng.range(0.0, 200.0) as f32));
        }
        let lib = ScriptLibrary::from_toml(OFFICE_SCRIPTS).unwrap();
        let schedule = Schedule::from_script(OFFICE_SCHEDULE).unwrap();
        let mut crowd = Crowd::new(lib, vec![schedule], places, 6.0).unwrap();
        for i in 0..9000 {
            let (home, work) = (format!("house{}", i % 50), format!("office{}", (i * 7) % 50));
            crowd.add(&format!("v{i}"), "schedule-office.7", &home, &[("home", &home), ("work", &work)], 0.8).unwrap();
        }
        let fsm = StateMachine::from_toml(STEALTH_GUARD).unwrap();
        let guards = (0..1000)
            .map(|i| {
                let facts: Table = [
                    "attacked",
                    "sees_player",
                    "heard_noise",
                    "clue",
                    "in_range",
                    "enemy_down",
                    "found_health",
                    "left_area",
                    "revived",
                ]
                .into_iter()
                .map(|k| (k.to_owned(), Value::Bool(false)))
                .chain([
                    ("health".to_owned(), Value::Int(100)),
                    ("courage".to_owned(), Value::Float(f64::from(i % 10) / 10.0)),
                ])
                .collect();
                (fsm.start(), facts, Vec2::new((i % 40) as f32 * 5.0, (i / 40) as f32 * 8.0))
            })
            .collect();
        Town { crowd, fsm, guards, thief: Vec2::new(100.0, 100.0), rng, hooks: 0 }
    }

    /// One tick: a minute of game time.
    fn tick(&mut self) {
        self.crowd.tick(1.0 / 60.0, &mut self.rng);
        let step = Vec2::new(self.rng.range(-1.0, 1.0) as f32, self.rng.range(-1.0, 1.0) as f32);
        self.thief = (self.thief + step).clamp(Vec2::ZERO, Vec2::splat(200.0));
        let mut hooks = Vec::new();
        for (st, facts, pos) in &mut self.guards {
            let d = pos.distance(self.thief);
            for (k, v) in
                [("sees_player", d < 12.0), ("heard_noise", d < 25.0), ("in_range", d < 3.0), ("clue", d < 18.0)]
            {
                if let Some(slot) = facts.get_mut(k) {
                    *slot = Value::Bool(v);
                }
            }
            hooks.clear();
            self.fsm.step(st, facts, &mut self.rng, &mut hooks);
            self.hooks += hooks.len();
        }
    }
}

fn crowd(c: &mut Criterion) {
    let mut town = Town::new();
    // A whole day of one-minute ticks: the morning rush, lunch, evening errands, the night.
    let mut day: Vec<f64> = (0..24 * 60)
        .map(|_| {
            let s = Instant::now();
            town.tick();
            s.elapsed().as_nanos() as f64
        })
        .collect();
    day.sort_by(f64::total_cmp);
    let mean = day.iter().sum::<f64>() / day.len() as f64;
    eprintln!(
        "crowd: 10,000 NPCs (9,000 villagers + 1,000 FSM guards), one simulated day: median {:.0} µs, mean {:.0} µs, max {:.0} µs per tick",
        day[day.len() / 2] / 1000.0,
        mean / 1000.0,
        day[day.len() - 1] / 1000.0
    );
    c.bench_function("crowd/10k_npcs_tick", |b| b.iter(|| town.tick()));
    black_box(town.hooks);
}

/// 10,000 working memories; one scout report each per tick, then chaining.
fn rules(c: &mut Criterion) {
    let rs = RuleSet::from_toml(TECH_TREE).unwrap();
    let facts: Vec<usize> = rs.facts().iter().map(|f| rs.fact(f).unwrap()).collect();
    let fresh = || -> Vec<(WorkingMemory, ChainState)> { (0..10_000).map(|_| rs.memory()).collect() };
    let round = |npcs: &mut Vec<(WorkingMemory, ChainState)>, rng: &mut WorldRng, naive: bool| -> usize {
        let mut fired = 0;
        for (wm, st) in npcs.iter_mut() {
            let f = facts[rng.below(facts.len())];
            let v = if rng.chance(0.8) { "Yes" } else { "No" };
            wm.set(f, Value::from(v));
            fired += if naive { rs.run_naive(wm, st, rng, 64).len() } else { rs.run(wm, st, rng, 64).len() };
        }
        fired
    };
    // The same inputs give the same firings.
    let (mut a, mut b) = (fresh(), fresh());
    let (mut ra, mut rb) = (WorldRng::new(1), WorldRng::new(1));
    for _ in 0..3 {
        assert_eq!(round(&mut a, &mut ra, false), round(&mut b, &mut rb, true));
    }
    let mut inc = fresh();
    let mut naive = fresh();
    let mut rng = WorldRng::new(2);
    let t_inc = median_ns(15, || {
        black_box(round(&mut inc, &mut rng, false));
    });
    let t_naive = median_ns(15, || {
        black_box(round(&mut naive, &mut rng, true));
    });
    eprintln!(
        "rules: 10,000 NPCs, one report + chaining each: incremental {:.0} µs, naive {:.0} µs per tick, naive/incremental = {:.2}",
        t_inc / 1000.0,
        t_naive / 1000.0,
        t_naive / t_inc
    );
    let mut g = c.benchmark_group("rules");
    g.sample_size(20);
    g.bench_function("incremental_10k", |b| b.iter(|| round(&mut inc, &mut rng, false)));
    g.bench_function("naive_10k", |b| b.iter(|| round(&mut naive, &mut rng, true)));
    g.finish();
}

/// A 14-node network: a chain of diamonds, three states per node.
fn network() -> Network {
    let mut text = String::new();
    let mut rng = WorldRng::new(3);
    for i in 0..14 {
        let parents: Vec<usize> = match i {
            0 => vec![],
            1 => vec![0],
            _ => vec![i - 2, i - 1],
        };
        let rows = 3usize.pow(parents.len() as u32);
        let table: Vec<String> = (0..rows)
            .map(|_| {
                let raw: Vec<f64> = (0..3).map(|_| rng.range(0.05, 1.0)).collect();
                let s: f64 = raw.iter().sum();
                format!("[{}]", raw.iter().map(|x| (x / s).to_string()).collect::<Vec<_>>().join(", "))
            })
            .collect();
        let names: Vec<String> = parents.iter().map(|p| format!("\"n{p}\"")).collect();
        text.push_str(&format!(
            "[[nodes]]\nname = \"n{i}\"\nstates = [\"a\", \"b\", \"c\"]\nparents = [{}]\ntable = [{}]\n",
            names.join(", "),
            table.join(", ")
        ));
    }
    Network::from_toml(&text).unwrap()
}

fn bayes(c: &mut Criterion) {
    let net = network();
    let evidence = [(13, 1), (6, 0)];
    let ve = net.posterior(0, &evidence).unwrap();
    let en = net.posterior_enumeration(0, &evidence).unwrap();
    assert!(ve.iter().zip(&en).all(|(x, y)| (x - y).abs() < 1e-9));
    let t_ve = median_ns(50, || {
        black_box(net.posterior(0, &evidence).unwrap());
    });
    let t_en = median_ns(5, || {
        black_box(net.posterior_enumeration(0, &evidence).unwrap());
    });
    eprintln!(
        "bayes: 14 nodes × 3 states: elimination {:.1} µs, enumeration {:.0} µs, enumeration/elimination = {:.0}",
        t_ve / 1000.0,
        t_en / 1000.0,
        t_en / t_ve
    );
    let mut g = c.benchmark_group("bayes");
    g.sample_size(10);
    g.bench_function("variable_elimination", |b| b.iter(|| net.posterior(0, &evidence).unwrap()));
    g.bench_function("enumeration", |b| b.iter(|| net.posterior_enumeration(0, &evidence).unwrap()));
    g.finish();
}

criterion_group!(benches, crowd, rules, bayes);
criterion_main!(benches);
