//! A seed sweep of `examples/crowd` — 10,000 characters, 100 ticks, 100 seeds — on one thread
//! and on every core, in one run: seconds per 1,000 seed-ticks for each, and the speed-up.
//!
//! `cargo bench --bench sweep` (`SWEEP_SEEDS=20` for a quicker look). Each run of the sweep
//! copies the crowd's world loaded once, reseeds it and compiles its scripts into a runtime of
//! its own; the figures include that. The two sweeps must give the same report, which is
//! checked before the figures are printed.

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
}
