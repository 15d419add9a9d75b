//! The world's one random generator.

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

#[cfg(doc)]
use super::TurnOrder;
use super::turns::Turn;

/// The single source of randomness of a world: PCG-64 (`rand_pcg::Pcg64`), a named generator whose
/// output is specified and the same on every platform, seeded from the scenario's seed.
///
/// The world's own draws (genetic mutation, a behaviour tree's random choices) come from one
/// generator, in the fixed order the tick visits them, so the same seed gives the same run.
///
/// A script call draws from a stream of its own ([`WorldRng::for_call`]): the seed, the tick and
/// the script's instance decide it, not how many numbers the scripts before it drew. So the
/// calls of a tick can run on any number of threads with the same rolls, and one character's
/// rolls do not change when another's script draws more or less. In a parallel scripts phase
/// the generator also holds the call's turn at the world's ordered shared state
/// ([`TurnOrder::worker`], [`WorldRng::wait_turn`]).
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

    /// The stream a script call draws from: the calls of tick `tick` by the script whose key is
    /// `caller` ([`WorldRng::stream_key`]) in a world seeded with `seed`. Its state is the three
    /// mixed by SplitMix64's finaliser (so streams of neighbouring ticks and keys are unrelated)
    /// and expanded as [`WorldRng::new`] does.
    pub fn for_call(seed: u64, tick: u64, caller: u64) -> Self {
        let state = mix(mix(mix(seed) ^ tick) ^ caller);
        WorldRng { inner: Pcg64::seed_from_u64(state), seed, turn: None }
    }

    /// A script's stream key from what names it (its character's name, its place among that
    /// character's scripts as 4 little-endian bytes): FNV-1a
    /// over the parts, each followed by a 0xff byte (which no UTF-8 text holds), so the same
    /// names give the same key on every platform and run.
    pub fn stream_key(parts: &[&[u8]]) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for part in parts {
            for &b in part.iter().chain(&[0xff]) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        h
    }

    /// The seed it started from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Waits, in a parallel scripts phase, until every earlier call has finished, so that what
    /// this call does next to the world's ordered shared state (the position service's budget
    /// and handles, a game's own functions) comes after all of theirs. Free once taken, and on
    /// one thread. Drawing numbers never waits.
    pub fn wait_turn(&mut self) {
        if let Some(turn) = self.turn.take() {
            turn.take();
        }
    }

    /// Whether this generator still holds a turn it has not waited for.
    pub fn waiting(&self) -> bool {
        self.turn.is_some()
    }

    /// A uniform index in `0..n`; 0 when `n` is 0 so that callers never panic on empty lists.
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        self.inner.random_range(0..n)
    }

    /// A uniform real in `[lo, hi)`; `lo` when the range is empty.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        if hi <= lo || !(hi - lo).is_finite() {
            return lo;
        }
        self.inner.random_range(lo..hi)
    }

    /// `true` with probability `p` (clamped to `[0, 1]`).
    pub fn chance(&mut self, p: f64) -> bool {
        self.inner.random_bool(p.clamp(0.0, 1.0))
    }

    /// A raw 64-bit draw.
    pub fn next_u64(&mut self) -> u64 {
        rand::Rng::next_u64(&mut self.inner)
    }
}

/// SplitMix64's finaliser: a bijection of `u64` that spreads every input bit over the output.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
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

    /// A call's stream is its seed's, tick's and instance's alone; any of the three changes it.
    #[test]
    fn a_calls_stream_is_decided_by_seed_tick_and_instance() {
        let draws = |seed, tick, caller| {
            let mut r = WorldRng::for_call(seed, tick, caller);
            (0..4).map(|_| r.next_u64()).collect::<Vec<_>>()
        };
        let base = draws(7, 3, 11);
        assert_eq!(base, draws(7, 3, 11));
        for other in [draws(8, 3, 11), draws(7, 4, 11), draws(7, 3, 12), draws(7, 11, 3)] {
            assert_ne!(base, other);
        }
        assert_eq!(WorldRng::for_call(7, 3, 11).seed(), 7);
    }

    /// Keys: one empty part is FNV-1a's offset basis folded with the separator byte, and the
    /// parts' boundaries count ("ab", "c" is not "a", "bc").
    #[test]
    fn stream_keys_are_fnv1a_over_the_separated_parts() {
        // FNV-1a 64 of the single byte 0xff.
        assert_eq!(WorldRng::stream_key(&[b""]), (0xcbf2_9ce4_8422_2325u64 ^ 0xff).wrapping_mul(0x0000_0100_0000_01b3));
        assert_ne!(WorldRng::stream_key(&[b"ab", b"c"]), WorldRng::stream_key(&[b"a", b"bc"]));
        assert_ne!(
            WorldRng::stream_key(&[b"grub", &0u32.to_le_bytes()]),
            WorldRng::stream_key(&[b"grub", &1u32.to_le_bytes()])
        );
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
