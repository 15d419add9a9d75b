//! The world's one random generator.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

#[cfg(doc)]
use super::TurnOrder;
use super::turns::Turn;

/// The single source of randomness of a world: PCG-64 (`rand_pcg::Pcg64`), a named generator whose
/// output is specified and the same on every platform, seeded from the scenario's seed.
///
/// Everything random — taunt choice, wander, genetic mutation — draws from here, in the fixed order
/// the tick loop visits entities, so the same seed gives the same run.
///
/// In a parallel scripts phase each call gets a generator that has not been handed its place in
/// the stream yet ([`TurnOrder::rng_for`]): its first draw waits until every earlier call has
/// finished (see `turns.rs`), so the draws come out in instance order on any number of threads.
#[derive(Debug, Clone)]
pub struct WorldRng {
    pub(super) inner: Pcg64,
    pub(super) seed: u64,
    /// Set while this generator waits for its turn: the first draw takes it.
    pub(super) turn: Option<Turn>,
}

impl WorldRng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        WorldRng { inner: Pcg64::seed_from_u64(seed), seed, turn: None }
    }

    /// The seed it started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Waits, in a parallel scripts phase, until every earlier call has finished, so that what
    /// this call does next to the world's ordered shared state (the generator, the position
    /// service's budget and handles) comes after all of theirs. Free once taken, and on one
    /// thread.
    pub fn wait_turn(&mut self) {
        if let Some(turn) = self.turn.take() {
            self.inner = turn.take();
        }
    }

    /// Whether this generator still waits for its turn (it has not drawn, nor waited).
    pub fn waiting(&self) -> bool {
        self.turn.is_some()
    }

    /// A uniform index in `0..n`; 0 when `n` is 0 so that callers never panic on empty lists.
    pub fn below(&mut self, n: usize) -> usize {
        self.wait_turn();
        if n == 0 {
            return 0;
        }
        self.inner.random_range(0..n)
    }

    /// A uniform real in `[lo, hi)`; `lo` when the range is empty.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        self.wait_turn();
        if hi <= lo || !(hi - lo).is_finite() {
            return lo;
        }
        self.inner.random_range(lo..hi)
    }

    /// `true` with probability `p` (clamped to `[0, 1]`).
    pub fn chance(&mut self, p: f64) -> bool {
        self.wait_turn();
        self.inner.random_bool(p.clamp(0.0, 1.0))
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        self.wait_turn();
        rand::Rng::next_u64(&mut self.inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_other_seed_other_stream() {
        let a: Vec<u64> = (0..8).scan(WorldRng::new(7), |r, _| Some(r.next_u64())).collect();
        let b: Vec<u64> = (0..8).scan(WorldRng::new(7), |r, _| Some(r.next_u64())).collect();
        let c: Vec<u64> = (0..8).scan(WorldRng::new(8), |r, _| Some(r.next_u64())).collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn degenerate_ranges_do_not_panic() {
        let mut r = WorldRng::new(1);
        assert_eq!(r.below(0), 0);
        assert_eq!(r.range(3.0, 3.0), 3.0);
        assert_eq!(r.range(3.0, f64::INFINITY), 3.0);
        assert!(!r.chance(-1.0));
        assert!(r.chance(2.0));
        for _ in 0..100 {
            assert!(r.below(3) < 3);
        }
    }
}
