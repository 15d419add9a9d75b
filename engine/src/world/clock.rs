//! The fixed-step clock.

use serde::{Deserialize, Serialize};

/// A fixed-step clock: the world advances in whole ticks of `1 / rate` seconds.
///
/// Time is derived from the tick count rather than accumulated, so it never drifts and two runs
/// agree on it to the bit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    tick: u64,
    rate: u32,
}

impl Clock {
    /// A clock at tick 0 running `rate` ticks a second (at least 1).
    pub fn new(rate: u32) -> Self {
        Clock { tick: 0, rate: rate.max(1) }
    }

    /// The current tick, from 0.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Ticks per second.
    pub fn rate(&self) -> u32 {
        self.rate
    }

    /// The length of one tick in seconds.
    pub fn dt(&self) -> f32 {
        1.0 / self.rate as f32
    }

    /// Seconds since tick 0.
    pub fn seconds(&self) -> f64 {
        self.tick as f64 / f64::from(self.rate)
    }

    /// Moves to the next tick.
    pub fn advance(&mut self) {
        self.tick += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_is_ticks_over_rate() {
        let mut c = Clock::new(20);
        for _ in 0..30 {
            c.advance();
        }
        assert_eq!(c.tick(), 30);
        assert_eq!(c.seconds(), 1.5);
        assert_eq!(c.dt(), 0.05);
        assert_eq!(Clock::new(0).rate(), 1, "a zero rate is clamped, never a division by zero");
    }
}
