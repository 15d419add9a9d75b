//! A seed sweep of `examples/crowd` — 10,000 characters, 100 ticks, 100 seeds — on one thread
//! and on every core, in one run: seconds per 1,000 seed-ticks for each, and the speed-up.
//!
//! `cargo bench --bench sweep` (`SWEEP_SEEDS=20` for a quicker look). Each run of the sweep
//! copies the crowd's world loaded once, reseeds it and compiles its scripts into a runtime of
//! its own; the figures include that. The two sweeps must give the same report, which is
//! checked before the figures are printed. It also prints what starting a run costs — the copy
//! of the world, and compiling the scripts on top — which is the most that sharing compiled
//! programs between runs could save.

use std::time::Instant;

use tactica::testing::{Options, Seeds, Suite};

#[global_allocator]
static ALLOCATOR: tactica::memory::CountingAllocator = tactica::memory::CountingAllocator;

fn main() {
    // `cargo bench` passes `--bench`; this harness takes no other arguments.
    let seeds: u64 = std::env::var("SWEEP_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    let suite = Suite::load(&["benches/sweep/crowd.tactest"]).expect("the crowd's test loads");
    let ticks = suite.tests[0].ticks;
    let range = Some(Seeds { from: 1, to: seeds });
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let time = |threads: usize| {
        let started = Instant::now();
        let report = suite.run(&Options { seeds: range, threads, bless: false }, &|| {});
        (started.elapsed().as_secs_f64(), report)
    };
    // What starting a run costs, of the run: the copy of the world loaded once, and the copy plus
    // compiling the scripts into a runtime of its own (what sharing compiled programs between
    // runs could save at most). The mean of a few starts, after one to warm up.
    let test = &suite.tests[0];
    let starts = 5u32;
    drop(tactica::testing::sweep::start(test, 1));
    let started = Instant::now();
    for _ in 0..starts {
        drop(test.scenario());
    }
    let copy = started.elapsed().as_secs_f64() / f64::from(starts);
    let started = Instant::now();
    for s in 0..starts {
        drop(tactica::testing::sweep::start(test, u64::from(s) + 1).expect("the crowd's scripts compile"));
    }
    let start = started.elapsed().as_secs_f64() / f64::from(starts);
    let (one, report_one) = time(1);
    let (all, report_all) = time(cores);
    assert!(report_one.passed(), "{}", report_one.text(false));
    assert_eq!(report_one, report_all, "the report does not depend on the threads");
    let seed_ticks = (seeds * ticks) as f64;
    let per_k = |secs: f64| secs / seed_ticks * 1000.0;
    println!(
        "sweep examples/crowd, {seeds} seeds x {ticks} ticks: 1 thread {one:.1} s ({:.2} s per 1,000 seed-ticks); \
         {cores} threads {all:.1} s ({:.2} s per 1,000 seed-ticks); speed-up {:.2}x",
        per_k(one),
        per_k(all),
        one / all
    );
    println!(
        "starting a run: copying the world {:.1} ms, and compiling its scripts {:.1} ms more, of {:.2} s per run on 1 thread ({:.1}%)",
        copy * 1000.0,
        (start - copy) * 1000.0,
        one / seeds as f64,
        (start - copy) / (one / seeds as f64) * 100.0
    );
}
