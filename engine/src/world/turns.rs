//! Turns: the order in which parallel script calls touch the world's ordered shared state.
//!
//! A tick's scripts run in a fixed order (instance order). Most of what they touch needs no
//! order: they read the world, write commands into buffers merged in that order, and each call
//! draws from a random stream of its own ([`WorldRng::for_call`]). A little shared state is
//! order-sensitive: the position service's budget and handles (a query runs at once while the
//! tick's budget lasts, and handles are numbered as they are issued), and a game's own host
//! functions and native behaviours (closures over the game's state, which the world does not
//! order). When the calls run on several threads, [`TurnOrder`] keeps that order exact: each
//! scheduled call has a position, and a call that reaches for ordered state
//! ([`WorldRng::wait_turn`]) waits until every earlier position has finished. A call that never
//! reaches for it waits for nothing, so a crowd that draws, walks and talks runs without ever
//! waiting.
//!
//! Each worker runs its positions in increasing order and publishes, after each, the position
//! of the next one it has not finished (its *front*), on a cache line of its own. A call at
//! position `p` may take its turn once every other worker's front is past `p`. Publishing is one
//! store a call to a line no other worker writes, so calls that never wait cost the others
//! nothing; the release store and the waiter's acquire load are also the happens-before edge
//! that makes what the earlier calls wrote visible to the waiter.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use super::WorldRng;

/// The turns of one scripts phase. Positions are the calls' places in the order one thread
/// would run them; each worker runs its own positions in increasing order.
#[derive(Debug)]
pub struct TurnOrder {
    /// Per worker: the position of the next call it has not finished (`usize::MAX` when it has
    /// none left).
    fronts: Vec<Front>,
    /// Nanoseconds each worker spent waiting for its turn.
    waited: Vec<AtomicU64>,
}

/// A worker's front, alone on its cache line (two workers writing neighbouring fronts would
/// take the line from each other on every call).
#[derive(Debug)]
#[repr(align(128))]
struct Front(AtomicUsize);

/// A position's claim on its turn, held by a [`WorldRng`] that has not waited yet.
#[derive(Debug, Clone)]
pub(crate) struct Turn {
    order: Arc<TurnOrder>,
    position: usize,
    worker: usize,
}

impl TurnOrder {
    /// The turns of a phase whose workers start at `first` (per worker: the position of its
    /// first call, `usize::MAX` for a worker with none).
    pub fn new(first: &[usize]) -> Arc<Self> {
        Arc::new(TurnOrder {
            fronts: first.iter().map(|&p| Front(AtomicUsize::new(p))).collect(),
            waited: first.iter().map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// The turns of `worker`'s calls, handed out one call after another.
    pub fn worker(self: &Arc<Self>, worker: usize) -> WorkerTurns {
        WorkerTurns { order: Arc::clone(self), worker, spare: None }
    }

    /// `worker` finished its calls before position `next` (`usize::MAX`: all of them). Fronts
    /// only move forward.
    fn advance(&self, worker: usize, next: usize) {
        if let Some(front) = self.fronts.get(worker) {
            front.0.fetch_max(next, Ordering::Release);
        }
    }

    /// Nanoseconds each worker waited for its turn.
    pub fn waited(&self) -> Vec<u64> {
        self.waited.iter().map(|w| w.load(Ordering::Relaxed)).collect()
    }

    /// Waits until every other worker's front is past `position`.
    fn wait_before(&self, position: usize, worker: usize) {
        let mut waited: Option<Instant> = None;
        for (w, front) in self.fronts.iter().enumerate() {
            if w == worker {
                continue;
            }
            let mut spins = 0u32;
            while front.0.load(Ordering::Acquire) <= position {
                waited.get_or_insert_with(Instant::now);
                // Spin briefly (the earlier call is usually nearly done), then let the other
                // threads of a busy machine run.
                spins += 1;
                if spins < 64 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
        }
        if let (Some(t0), Some(w)) = (waited, self.waited.get(worker)) {
            w.fetch_add(u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX), Ordering::Relaxed);
        }
    }
}

/// One worker's turns, handed to its calls one after another. A turn a call never took is kept for the next call, so a worker touches
/// the order's shared reference count only when a call waited, not on every call (two workers
/// counting on one line would take it from each other thousands of times a tick). Dropped — also
/// when the worker panics — it moves the worker's front past all its calls, so no other worker
/// waits for ever.
#[derive(Debug)]
pub struct WorkerTurns {
    order: Arc<TurnOrder>,
    worker: usize,
    spare: Option<Turn>,
}

impl WorkerTurns {
    /// `stream`, the generator of the call at `position`, holding that call's turn.
    pub fn rng_for(&mut self, position: usize, mut stream: WorldRng) -> WorldRng {
        let turn = match self.spare.take() {
            Some(mut turn) => {
                turn.position = position;
                turn
            }
            None => Turn { order: Arc::clone(&self.order), position, worker: self.worker },
        };
        stream.turn = Some(turn);
        stream
    }

    /// The call that ran with `rng` finished; the worker's next call is at `next`
    /// (`usize::MAX`: none).
    pub fn finish(&mut self, rng: WorldRng, next: usize) {
        if let Some(turn) = rng.turn {
            self.spare = Some(turn);
        }
        self.order.advance(self.worker, next);
    }
}

impl Drop for WorkerTurns {
    fn drop(&mut self) {
        self.order.advance(self.worker, usize::MAX);
    }
}

impl Turn {
    /// Waits for every earlier position.
    pub(crate) fn take(&self) {
        self.order.wait_before(self.position, self.worker);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;
    use std::sync::atomic::AtomicBool;

    /// The world is read by every worker of a parallel scripts phase at once.
    #[test]
    fn the_world_is_shared_between_threads() {
        fn shared<T: Sync + Send>() {}
        shared::<World>();
        shared::<TurnOrder>();
    }

    /// A position that takes its turn finds every earlier position finished, on any threads and
    /// whoever finishes first; positions that never take it wait for nothing.
    #[test]
    fn a_turn_comes_after_every_earlier_position() {
        for workers in [1usize, 2, 3, 8] {
            let first: Vec<usize> = (0..workers).collect();
            let order = TurnOrder::new(&first);
            let finished: Vec<AtomicBool> = (0..60).map(|_| AtomicBool::new(false)).collect();
            let turns_seen = AtomicU64::new(0);
            std::thread::scope(|s| {
                for w in 0..workers {
                    let (order, finished, turns_seen) = (Arc::clone(&order), &finished, &turns_seen);
                    s.spawn(move || {
                        let mut turns = order.worker(w);
                        for p in (w..60).step_by(workers) {
                            let mut rng = turns.rng_for(p, WorldRng::for_call(1, 0, p as u64));
                            // Every third position reaches for ordered state.
                            if p % 3 == 0 {
                                rng.wait_turn();
                                let all = finished[..p].iter().all(|f| f.load(Ordering::SeqCst));
                                assert!(all, "position {p} took its turn before an earlier one finished");
                                turns_seen.fetch_add(1, Ordering::SeqCst);
                            }
                            finished[p].store(true, Ordering::SeqCst);
                            let next = p + workers;
                            turns.finish(rng, if next < 60 { next } else { usize::MAX });
                        }
                    });
                }
            });
            assert_eq!(turns_seen.load(Ordering::SeqCst), 20, "{workers} workers");
        }
    }
}
