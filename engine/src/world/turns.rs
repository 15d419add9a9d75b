//! Turns: the order in which parallel script calls touch the world's ordered shared state.
//!
//! A tick's scripts run in a fixed order (instance order), and some of what they touch is shared
//! and order-sensitive: the world's one random generator (a script's draws depend on how many
//! every earlier script drew) and the position service's budget and handles. When the calls run
//! on several threads, [`TurnOrder`] keeps that order exact: each scheduled call has a position;
//! a call that reaches for ordered state (its first draw, [`WorldRng::wait_turn`]) waits until
//! every earlier position has finished, and takes the generator where the last of them that drew
//! left it. A call that never reaches for it waits for nothing. So the generator's stream, the
//! budget and the handles come out exactly as on one thread, whatever the number of threads and
//! whoever finishes first.
//!
//! Published states live in a `OnceLock` per position: set once, when that position finishes
//! (`None`: it never took its turn, look further back), which is also the happens-before edge
//! that makes the shared state the earlier calls wrote visible to the waiter.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use rand_pcg::Pcg64;

use super::WorldRng;

/// The turns of one scripts phase: one slot per scheduled call, in the order they would run on
/// one thread.
#[derive(Debug)]
pub struct TurnOrder {
    /// The generator as the phase found it.
    start: Pcg64,
    seed: u64,
    /// What each position left the generator at, set when it finished; `None`: it never took its
    /// turn.
    done: Vec<OnceLock<Option<Pcg64>>>,
    /// Nanoseconds each worker spent waiting for its turn.
    waited: Vec<AtomicU64>,
}

/// A position's claim on its turn, held by a [`WorldRng`] that has not drawn yet.
#[derive(Debug, Clone)]
pub(crate) struct Turn {
    order: Arc<TurnOrder>,
    position: usize,
    worker: usize,
}

impl TurnOrder {
    /// The turns of `positions` calls sharing `rng` (taken as it is now), run by `workers`
    /// threads.
    pub fn new(rng: &WorldRng, positions: usize, workers: usize) -> Arc<Self> {
        Arc::new(TurnOrder {
            start: rng.inner.clone(),
            seed: rng.seed,
            done: (0..positions).map(|_| OnceLock::new()).collect(),
            waited: (0..workers.max(1)).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// The generator position `position` gets: not drawn from until it is its turn.
    pub fn rng_for(self: &Arc<Self>, position: usize, worker: usize) -> WorldRng {
        let turn = Turn { order: Arc::clone(self), position, worker };
        WorldRng { inner: self.start.clone(), seed: self.seed, turn: Some(turn) }
    }

    /// Marks `position` finished, leaving the generator as `rng` has it (a call that never took
    /// its turn leaves it to the positions before). Each position is finished once.
    pub fn finish(&self, position: usize, rng: &WorldRng) {
        let left = rng.turn.is_none().then(|| rng.inner.clone());
        let _ = self.done[position].set(left);
    }

    /// The generator as the last position to take its turn left it: where the world's own goes
    /// on from. Waits for every position to finish.
    pub fn end(&self) -> WorldRng {
        let inner = self.before(self.done.len(), 0);
        WorldRng { inner, seed: self.seed, turn: None }
    }

    /// Nanoseconds each worker waited for its turn.
    pub fn waited(&self) -> Vec<u64> {
        self.waited.iter().map(|w| w.load(Ordering::Relaxed)).collect()
    }

    /// The generator as every position before `position` left it, waiting for each to finish.
    fn before(&self, position: usize, worker: usize) -> Pcg64 {
        let mut waited: Option<Instant> = None;
        let mut at = position;
        let found = loop {
            if at == 0 {
                break self.start.clone();
            }
            at -= 1;
            let mut spins = 0u32;
            let left = loop {
                if let Some(left) = self.done[at].get() {
                    break left;
                }
                waited.get_or_insert_with(Instant::now);
                // Spin briefly (the earlier call is usually nearly done), then let the other
                // threads of a busy machine run.
                spins += 1;
                if spins < 64 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            };
            if let Some(state) = left {
                break state.clone();
            }
        };
        if let (Some(t0), Some(w)) = (waited, self.waited.get(worker)) {
            w.fetch_add(u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX), Ordering::Relaxed);
        }
        found
    }
}

impl Turn {
    /// Waits for every earlier position and returns the generator as they left it.
    pub(crate) fn take(&self) -> Pcg64 {
        self.order.before(self.position, self.worker)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;

    /// The world is read by every worker of a parallel scripts phase at once.
    #[test]
    fn the_world_is_shared_between_threads() {
        fn shared<T: Sync + Send>() {}
        shared::<World>();
        shared::<TurnOrder>();
    }

    /// Positions drawing on three threads in any finishing order give the draws one thread gives.
    #[test]
    fn draws_come_out_in_position_order_on_any_threads() {
        // Position p draws p % 3 numbers (0, 1 or 2).
        let serial = {
            let mut rng = WorldRng::new(11);
            let mut out = Vec::new();
            for p in 0..60usize {
                out.push((0..p % 3).map(|_| rng.next_u64()).collect::<Vec<_>>());
            }
            (out, rng.next_u64())
        };
        for workers in [1usize, 2, 3, 8] {
            let order = TurnOrder::new(&WorldRng::new(11), 60, workers);
            let mut out: Vec<Vec<u64>> = vec![Vec::new(); 60];
            std::thread::scope(|s| {
                let handles: Vec<_> = (0..workers)
                    .map(|w| {
                        let order = Arc::clone(&order);
                        s.spawn(move || {
                            let mut mine = Vec::new();
                            // Later workers start late, so earlier positions finish in any order.
                            for p in (w..60).step_by(workers) {
                                let mut rng = order.rng_for(p, w);
                                mine.push((p, (0..p % 3).map(|_| rng.next_u64()).collect::<Vec<_>>()));
                                order.finish(p, &rng);
                            }
                            mine
                        })
                    })
                    .collect();
                for h in handles {
                    for (p, drawn) in h.join().unwrap() {
                        out[p] = drawn;
                    }
                }
            });
            let mut end = order.end();
            assert_eq!((out, end.next_u64()), serial, "{workers} workers");
        }
    }
}
