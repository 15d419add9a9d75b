//! Flocking at scale: one tick (cohesion, alignment, separation, obstacle feelers, leader
//! election) for 1k, 10k and 50k units through the spatial hash, and the book's all-pairs loop at
//! 1k for contrast. Target: 50,000 units per tick in ≤ 16 ms on one core.
//!
//! Units are spread at a constant density (about 10 in each wide view), so the hashed tick should
//! grow linearly with the population while the all-pairs one grows with its square. Every timed
//! tick starts from a fresh copy of the same random flock, ticked once already: ticking one flock
//! over and over would let cohesion and the leaders' chase pack it ever tighter and time a
//! different workload at every sample, and a flock never ticked would time the first tick's
//! allocation of its scratch buffers (about 1 ms at 50k), which a flock in play pays once.
//! Before timing, the two versions are checked to decide alike on the same flock.
//!
//! Instruction counts (repeatable on a loaded machine): `STEER_ONE_TICK=50000` makes the bench
//! binary tick one flock of that size once to warm its buffers, then once more through
//! `measured_tick`, and exit, so
//! `STEER_ONE_TICK=50000 valgrind --tool=callgrind --toggle-collect='*measured_tick*' <bench binary>`
//! counts exactly one warm tick (`STEER_ONE_TICK_PEER=1` does the same for the all-pairs peer).
//! `STEER_REPS=N` times N warm ticks instead, each from the same state, for `perf record`;
//! with `STEER_PHASES=1` as well it prints the fastest decision pass and move of the N.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::Instant;

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec2;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use tactica_engine::steer::{Circle, Flock, FlockParams, Quarry, UnitType, Vehicle, VehicleLimits};

const DT: f32 = 0.05;
/// Units per square unit: about 10 units in a view of radius 8.
const DENSITY: f32 = 0.05;

fn flock(n: usize, seed: u64) -> Flock {
    let mut rng = Pcg64::seed_from_u64(seed);
    let side = (n as f32 / DENSITY).sqrt();
    // Random places, but no two bodies inside each other (bodies are 0.4 wide): a flock that
    // starts overlapped would time the contact pass prising thousands of pairs apart, which a
    // flock in play never needs.
    let mut taken: HashMap<(i32, i32), Vec<Vec2>> = HashMap::new();
    let mut units = Vec::with_capacity(n);
    while units.len() < n {
        let p = Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side));
        let cell = (p.x.floor() as i32, p.y.floor() as i32);
        let near = (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (cell.0 + dx, cell.1 + dy)));
        if near.filter_map(|c| taken.get(&c)).flatten().any(|q| q.distance(p) < 0.4) {
            continue;
        }
        taken.entry(cell).or_default().push(p);
        let a: f32 = rng.random_range(0.0..std::f32::consts::TAU);
        units.push(Vehicle::new(p, Vec2::from_angle(a), 5.0, 1.0));
    }
    let ty = UnitType {
        limits: VehicleLimits { max_speed: 6.0, max_turn_rate: 3.0, acceleration: 10.0 },
        interceptor: false,
    };
    let mut f = Flock::new(units, vec![ty], FlockParams { leader_force: 1.0, ..Default::default() });
    let obstacles = (0..n / 50)
        .map(|_| Circle { center: Vec2::new(rng.random_range(0.0..side), rng.random_range(0.0..side)), radius: 2.5 })
        .collect();
    f.set_obstacles(obstacles);
    f
}

fn quarry(n: usize) -> Option<Quarry> {
    let side = (n as f32 / DENSITY).sqrt();
    Some(Quarry { position: Vec2::splat(side / 2.0), velocity: Vec2::new(3.0, 1.0) })
}

fn validate() {
    let mut a = flock(1000, 1);
    let q = quarry(1000);
    a.decide(q);
    let hashed = a.controls().to_vec();
    a.decide_all_pairs(q);
    // Bit for bit: the neighbour sums do not depend on the order candidates come in.
    assert_eq!(hashed, a.controls(), "the hash and all-pairs ticks decided differently");
}

/// `flock` after one tick through `tick`: its scratch buffers grown, as in play.
fn warmed(mut flock: Flock, mut tick: impl FnMut(&mut Flock)) -> Flock {
    tick(&mut flock);
    flock
}

/// The all-pairs peer's tick.
fn all_pairs_tick(f: &mut Flock, q: Option<Quarry>) {
    f.decide_all_pairs(q);
    f.apply(black_box(DT));
}

/// Median of `runs` timings of `f` on a fresh copy of `flock`, in milliseconds.
fn median_ms(runs: usize, flock: &Flock, mut f: impl FnMut(&mut Flock)) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let mut copy = flock.clone();
            let s = Instant::now();
            f(&mut copy);
            s.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

/// One warm tick, kept out of line so callgrind can count it alone.
#[inline(never)]
fn measured_tick(f: &mut Flock, q: Option<Quarry>, peer: bool) {
    if peer {
        f.decide_all_pairs(q);
        f.apply(DT);
    } else {
        f.tick(DT, q);
    }
}

fn bench(c: &mut Criterion) {
    if let Some(n) = std::env::var("STEER_ONE_TICK").ok().and_then(|v| v.parse::<usize>().ok()) {
        let peer = std::env::var_os("STEER_ONE_TICK_PEER").is_some();
        let (mut f, q) = (flock(n, 9), quarry(n));
        f.tick(DT, q);
        let reps = std::env::var("STEER_REPS").ok().and_then(|v| v.parse::<usize>().ok()).unwrap_or(1);
        let copy = f.clone();
        if std::env::var_os("STEER_PHASES").is_some() {
            let (mut td, mut ta) = (f64::MAX, f64::MAX);
            for _ in 0..reps {
                f.clone_from(&copy);
                let t0 = Instant::now();
                f.decide(q);
                let t1 = Instant::now();
                f.apply(DT);
                let t2 = Instant::now();
                td = td.min((t1 - t0).as_secs_f64() * 1e3);
                ta = ta.min((t2 - t1).as_secs_f64() * 1e3);
            }
            eprintln!("phases: decide {td:.3} ms apply {ta:.3} ms");
            std::process::exit(0);
        }
        for _ in 0..reps {
            f.clone_from(&copy);
            measured_tick(&mut f, q, peer);
        }
        eprintln!("steer: one tick of {n} units done ({})", if peer { "all pairs" } else { "spatial hash" });
        std::process::exit(0);
    }
    validate();
    let mut group = c.benchmark_group("flock_tick");
    group.sample_size(20);
    for n in [1_000usize, 10_000, 50_000] {
        let q = quarry(n);
        let f = warmed(flock(n, 7), |f| f.tick(DT, q));
        group.bench_with_input(BenchmarkId::new("spatial_hash", n), &n, |b, _| {
            b.iter_batched_ref(|| f.clone(), |f| f.tick(black_box(DT), q), BatchSize::LargeInput)
        });
    }
    let q = quarry(1000);
    let f = warmed(flock(1000, 7), |f| all_pairs_tick(f, q));
    group.bench_function(BenchmarkId::new("all_pairs", 1000), |b| {
        b.iter_batched_ref(|| f.clone(), |f| all_pairs_tick(f, q), BatchSize::LargeInput)
    });
    group.finish();

    // One summary line per size with the peer ratio, from a quick timing loop.
    // Ticked once by each version, the two copies hold the same units (they decide alike).
    let q = quarry(1000);
    let h1 = median_ms(31, &warmed(flock(1000, 9), |f| f.tick(DT, q)), |f| f.tick(DT, q));
    let p1 = median_ms(31, &warmed(flock(1000, 9), |f| all_pairs_tick(f, q)), |f| all_pairs_tick(f, q));
    eprintln!("steer: flock tick 1k: spatial hash {h1:.3} ms, all pairs {p1:.3} ms, ratio {:.1}×", p1 / h1);
    for n in [10_000usize, 50_000] {
        let q = quarry(n);
        let ms = median_ms(11, &warmed(flock(n, 9), |f| f.tick(DT, q)), |f| f.tick(DT, q));
        eprintln!(
            "steer: flock tick {n}: spatial hash {ms:.3} ms ({:.1} ns/unit; target 50k ≤ 16 ms)",
            ms * 1e6 / n as f64
        );
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
