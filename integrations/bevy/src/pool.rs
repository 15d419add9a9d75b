//! The runtime's workers on Bevy's own threads.
//!
//! A game already has a pool of threads for its systems, Bevy's `ComputeTaskPool`. The runtime's
//! scripts phase runs its workers there ([`ComputePool`]) instead of on threads of its own, so the
//! game's cores are shared out by one scheduler, not fought over by two. The trace is the same on
//! any number of workers, so this changes only how fast a tick is.

use bevy::tasks::{ComputeTaskPool, TaskPool};
use tactica::host::WorkerPool;

/// Bevy's `ComputeTaskPool` as the runtime's [`WorkerPool`] (made with Bevy's defaults if the
/// game has not made it yet, as Bevy's `TaskPoolPlugin` would).
#[derive(Debug, Default, Clone, Copy)]
pub struct ComputePool;

fn pool() -> &'static ComputeTaskPool {
    ComputeTaskPool::get_or_init(TaskPool::default)
}

impl WorkerPool for ComputePool {
    /// The pool's threads: a worker may wait for another's earlier calls (a position query's
    /// turn), so no more workers are asked for than can run at once (the calling thread runs
    /// one, the pool's threads the others).
    fn workers(&self) -> usize {
        pool().thread_num().max(1)
    }

    /// Worker 0 runs on the calling thread while the pool's threads take the others: a worker
    /// that waits for another's turn must never be queued behind it on one thread (Bevy's scope
    /// may run queued tasks on the thread that waits for them).
    fn run(&self, n: usize, work: &(dyn Fn(usize) + Sync)) {
        pool().scope(|scope| {
            for i in 1..n {
                scope.spawn(async move { work(i) });
            }
            if n > 0 {
                work(0);
            }
        });
    }
}
