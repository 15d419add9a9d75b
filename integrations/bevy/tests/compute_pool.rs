//! The scripts phase of a runtime in a Bevy app runs its workers on Bevy's `ComputeTaskPool`,
//! with the trace the CLI gets on one thread. (A test binary of its own: Bevy's pools are made
//! once a process, and this one makes the compute pool with two threads before anything else.)

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use bevy::MinimalPlugins;
use bevy::app::{App, FixedUpdate};
use bevy::tasks::{ComputeTaskPool, TaskPoolBuilder};
use tactica::host::WorkerPool;
use tactica::runtime::Runtime;
use tactica_bevy::{ComputePool, TacticaPlugin, TacticaRuntime};

const KEEP: &str = "assets/keep/scenario.toml";
const TICKS: u64 = 120;

#[test]
fn the_scripts_phase_runs_on_bevys_compute_pool_with_the_clis_trace() {
    let pool = ComputeTaskPool::get_or_init(|| {
        TaskPoolBuilder::new().num_threads(2).thread_name("Compute Task Pool".into()).build()
    });
    assert_eq!(pool.thread_num(), 2);

    // The pool runs each worker once, side by side: worker 0 on the calling thread, worker 1 on
    // one of Bevy's (each waits until both have started, so neither runs after the other on
    // one thread).
    assert_eq!(ComputePool.workers(), 2);
    let started = AtomicUsize::new(0);
    let ran = Mutex::new(Vec::new());
    ComputePool.run(2, &|i| {
        started.fetch_add(1, Ordering::SeqCst);
        while started.load(Ordering::SeqCst) < 2 {
            std::thread::yield_now();
        }
        let name = std::thread::current().name().unwrap_or_default().to_owned();
        ran.lock().unwrap().push((i, name));
    });
    let mut ran = ran.into_inner().unwrap();
    ran.sort();
    let me = std::thread::current().name().unwrap_or_default().to_owned();
    assert_eq!(ran[0], (0, me), "{ran:?}");
    assert!(ran[1].0 == 1 && ran[1].1.starts_with("Compute Task Pool"), "{ran:?}");

    // A runtime in an app asks for two workers; the plugin gave it Bevy's pool.
    let mut runtime = TacticaRuntime::from_scenario(KEEP).unwrap();
    runtime.get_mut().set_threads(2);
    runtime.get_mut().enable_profile();
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, TacticaPlugin::default()));
    app.insert_resource(runtime);
    for _ in 0..TICKS {
        app.world_mut().run_schedule(FixedUpdate);
    }
    let mut runtime = app.world_mut().remove_resource::<TacticaRuntime>().unwrap();
    let rt = runtime.get_mut();
    assert_eq!(rt.threads(), 2);
    let workers = rt.profile().expect("profiling").workers();
    let ran: Vec<&str> = workers.iter().filter(|r| !r.name.ends_with("waiting")).map(|r| r.name.as_str()).collect();
    assert_eq!(ran, ["worker 0", "worker 1"], "two workers ran the phase");
    assert!(workers.iter().all(|r| r.calls == TICKS), "{workers:?}");

    // What `tactica run assets/keep --ticks 120 --threads 1` gets.
    let mut one = Runtime::new(tactica::scenario::load(Path::new(KEEP)).unwrap(), tactica::languages()).unwrap();
    one.set_threads(1);
    one.run(TICKS);
    assert_eq!(rt.trace_hash(), one.trace_hash(), "the same trace as the CLI on one thread");
}
