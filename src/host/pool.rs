//! Where the workers of a parallel phase run: threads the runtime keeps, or a game's own pool.
//!
//! A tick hands its workers to a [`WorkerPool`] and waits for them. The runtime's own,
//! [`Threads`], keeps its threads between ticks (a thread started each tick would start each
//! tick with cold caches and an empty allocator heap); a game with a task pool of its own (Bevy's
//! `ComputeTaskPool`) implements the trait over it, so the scripts share the game's threads
//! instead of competing with a second set.
//!
//! A pool must run the workers of one call side by side: a worker may wait for another's
//! earlier calls to finish (a position query's turn, `world/turns`). So a phase never asks for
//! more workers than [`WorkerPool::workers`] says can run at once.

use std::fmt;

/// Runs the workers of a parallel phase. See the module documentation.
pub trait WorkerPool: Send + Sync {
    /// How many workers can run side by side (the calling thread included, when the pool uses
    /// it).
    fn workers(&self) -> usize;

    /// Runs `work(0)`, …, `work(n - 1)` side by side (`n` is at most [`WorkerPool::workers`])
    /// and returns when every one has returned. A worker's panic reaches the caller.
    fn run(&self, n: usize, work: &(dyn Fn(usize) + Sync));
}

/// The runtime's own pool: `workers - 1` threads kept for the runtime's life, and the thread
/// that plays the tick (rayon's pool, run "in place").
pub struct Threads {
    pool: rayon::ThreadPool,
}

impl Threads {
    /// A pool for `workers` workers (at least 1; the calling thread is one of them).
    ///
    /// # Errors
    /// When the system cannot start a thread.
    pub fn new(workers: usize) -> Result<Self, rayon::ThreadPoolBuildError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(workers.max(2) - 1)
            .thread_name(|i| format!("tactica-worker-{}", i + 1))
            .build()?;
        Ok(Threads { pool })
    }
}

impl fmt::Debug for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Threads").field("workers", &self.workers()).finish()
    }
}

impl WorkerPool for Threads {
    fn workers(&self) -> usize {
        self.pool.current_num_threads() + 1
    }

    fn run(&self, n: usize, work: &(dyn Fn(usize) + Sync)) {
        // Each spawned worker gets a thread of its own: the pool has a thread per worker beyond
        // the first, and a worker never yields its thread to another job.
        self.pool.in_place_scope(|scope| {
            for i in 1..n {
                scope.spawn(move |_| work(i));
            }
            if n > 0 {
                work(0);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Every worker runs once, side by side: each waits until all have started.
    #[test]
    fn the_workers_run_side_by_side() {
        let pool = Threads::new(4).unwrap();
        assert_eq!(pool.workers(), 4);
        let started = AtomicUsize::new(0);
        let ran: Vec<AtomicUsize> = (0..4).map(|_| AtomicUsize::new(0)).collect();
        pool.run(4, &|i| {
            started.fetch_add(1, Ordering::SeqCst);
            while started.load(Ordering::SeqCst) < 4 {
                std::thread::yield_now();
            }
            ran[i].fetch_add(1, Ordering::SeqCst);
        });
        assert!(ran.iter().all(|r| r.load(Ordering::SeqCst) == 1));
    }
}
