//! A character's positions over a run as keypoints: the ticks where its motion changes, with
//! straight lines between them.
//!
//! A walk along a straight street, or a wait, is one segment however many ticks it lasts, so ten
//! thousand characters over a thousand ticks cost what their turns cost, not what their ticks
//! cost. Positions are quantised to 1/[`UNITS_PER_CELL`] of a cell, and the line between two
//! keypoints passes within [`MAX_ERROR_UNITS`] unit of every quantised position of the ticks it
//! covers — with the rounding, the viewer draws each character within 1.5/32 (under 0.05) of a
//! cell of where it stood.
//!
//! Each segment is found in one pass (no look-back): for every axis, the velocities that keep the
//! line within bounds of each new position form an interval, and the running intersection of
//! those intervals stays non-empty while one straight line still fits. When it empties, the
//! segment ends at the previous tick, on the line through the middle of the interval.

/// Quantisation: one cell is this many units.
pub const UNITS_PER_CELL: f32 = 32.0;

/// How far (in units) a drawn position may be from the true one: the line's own slack plus the
/// rounding of its end to a whole unit.
pub const MAX_ERROR_UNITS: f64 = 1.0;

/// The slack each segment's line keeps from the true positions; rounding its end point adds at
/// most half a unit more.
const SLACK: f64 = MAX_ERROR_UNITS - 0.5;

/// One keypoint: a tick and the position then, in units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    /// The tick.
    pub tick: u64,
    /// Column, in units (`x * UNITS_PER_CELL`, rounded).
    pub x: i32,
    /// Row, in units.
    pub y: i32,
}

/// Builds one character's keypoints as its positions arrive, one tick after another.
#[derive(Debug, Clone, Default)]
pub struct Trajectory {
    keys: Vec<Key>,
    /// The open segment: its start (the last key), the range of velocities per axis that still
    /// fit, and the last tick pushed.
    lo: [f64; 2],
    hi: [f64; 2],
    last: Option<u64>,
}

impl Trajectory {
    /// Adds the position at `tick` (cell units). Ticks must increase; a gap of more than one
    /// tick (the character was away) starts a new segment after it.
    pub fn push(&mut self, tick: u64, x: f32, y: f32) {
        let q = [quantise(x), quantise(y)];
        let Some(last_tick) = self.last else {
            self.start_at(Key { tick, x: q[0] as i32, y: q[1] as i32 });
            self.last = Some(tick);
            return;
        };
        if tick != last_tick + 1 {
            self.close();
            self.start_at(Key { tick, x: q[0] as i32, y: q[1] as i32 });
            self.last = Some(tick);
            return;
        }
        if !self.narrow(tick, q) {
            self.close();
            let fits = self.narrow(tick, q);
            debug_assert!(fits, "one tick from a key always fits");
        }
        self.last = Some(tick);
    }

    /// Ends the open segment and returns the keypoints.
    pub fn finish(mut self) -> Vec<Key> {
        self.close();
        self.keys
    }

    /// The last tick pushed.
    pub fn last_tick(&self) -> Option<u64> {
        self.last
    }

    fn start_at(&mut self, key: Key) {
        self.keys.push(key);
        self.lo = [f64::NEG_INFINITY; 2];
        self.hi = [f64::INFINITY; 2];
    }

    /// Narrows the velocity intervals by the position `q` at `tick`; false (and unchanged) when
    /// no straight line from the segment's start fits it any more.
    fn narrow(&mut self, tick: u64, q: [f64; 2]) -> bool {
        let start = *self.keys.last().expect("a segment is open");
        let dt = (tick - start.tick) as f64;
        let a = [f64::from(start.x), f64::from(start.y)];
        let mut lo = self.lo;
        let mut hi = self.hi;
        for axis in 0..2 {
            lo[axis] = lo[axis].max((q[axis] - SLACK - a[axis]) / dt);
            hi[axis] = hi[axis].min((q[axis] + SLACK - a[axis]) / dt);
            if lo[axis] > hi[axis] {
                return false;
            }
        }
        self.lo = lo;
        self.hi = hi;
        true
    }

    /// Ends the open segment at the last tick pushed (nothing to do when that is its start).
    fn close(&mut self) {
        let Some(end) = self.last else { return };
        let start = *self.keys.last().expect("a segment is open");
        if end == start.tick {
            return;
        }
        let dt = (end - start.tick) as f64;
        let x = f64::from(start.x) + (self.lo[0] + self.hi[0]) / 2.0 * dt;
        let y = f64::from(start.y) + (self.lo[1] + self.hi[1]) / 2.0 * dt;
        self.start_at(Key { tick: end, x: x.round() as i32, y: y.round() as i32 });
    }
}

fn quantise(v: f32) -> f64 {
    (f64::from(v) * f64::from(UNITS_PER_CELL)).round()
}

/// The position the keypoints give at `tick` (units): on the line between the keys around it.
/// `None` outside the keys' span. The viewer's decoder does the same.
pub fn position_at(keys: &[Key], tick: u64) -> Option<(f64, f64)> {
    let first = keys.first()?;
    if tick < first.tick || tick > keys.last()?.tick {
        return None;
    }
    let i = keys.partition_point(|k| k.tick <= tick) - 1;
    let a = keys[i];
    let Some(b) = keys.get(i + 1) else { return Some((f64::from(a.x), f64::from(a.y))) };
    let f = (tick - a.tick) as f64 / (b.tick - a.tick) as f64;
    Some((
        f64::from(a.x) + (f64::from(b.x) - f64::from(a.x)) * f,
        f64::from(a.y) + (f64::from(b.y) - f64::from(a.y)) * f,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn keys_of(points: &[(f32, f32)]) -> Vec<Key> {
        let mut t = Trajectory::default();
        for (i, &(x, y)) in points.iter().enumerate() {
            t.push(i as u64, x, y);
        }
        t.finish()
    }

    #[test]
    fn a_straight_walk_is_one_segment() {
        let walk: Vec<(f32, f32)> = (0..500).map(|i| (2.5 + i as f32 * 0.13, 7.5 + i as f32 * 0.05)).collect();
        let keys = keys_of(&walk);
        assert_eq!(keys.len(), 2, "{keys:?}");
        assert_eq!(keys[0], Key { tick: 0, x: 80, y: 240 });
        assert_eq!(keys[1].tick, 499);
    }

    #[test]
    fn standing_still_is_one_segment_and_a_turn_is_two() {
        let mut points = vec![(4.5, 4.5); 100];
        assert_eq!(keys_of(&points).len(), 2);
        // East for 50 ticks, then south for 50.
        points = (0..50).map(|i| (4.5 + i as f32 * 0.2, 4.5)).collect();
        points.extend((1..=50).map(|i| (4.5 + 49.0 * 0.2, 4.5 + i as f32 * 0.2)));
        let keys = keys_of(&points);
        assert_eq!(keys.len(), 3, "{keys:?}");
        assert_eq!(keys[1].tick, 49);
    }

    #[test]
    fn one_tick_alone_is_one_key_and_a_gap_starts_afresh() {
        assert_eq!(keys_of(&[(1.0, 2.0)]), vec![Key { tick: 0, x: 32, y: 64 }]);
        let mut t = Trajectory::default();
        t.push(0, 1.0, 1.0);
        t.push(1, 1.0, 1.0);
        t.push(5, 3.0, 3.0);
        let keys = t.finish();
        assert_eq!(
            keys,
            vec![Key { tick: 0, x: 32, y: 32 }, Key { tick: 1, x: 32, y: 32 }, Key { tick: 5, x: 96, y: 96 }]
        );
    }

    proptest! {
        /// Every position of every tick is within the bound of the line the keys draw, whatever
        /// the walk: steps of any size, turns, stops and jumps.
        #[test]
        fn every_tick_is_within_the_bound(
            start in (0.0f32..100.0, 0.0f32..100.0),
            steps in proptest::collection::vec((-2.0f32..2.0, -2.0f32..2.0, 0u8..4), 1..300),
        ) {
            let mut p = start;
            let mut points = vec![p];
            for (dx, dy, how) in steps {
                p = match how {
                    0 => p,
                    3 => (p.0 + dx * 20.0, p.1 + dy * 20.0),
                    _ => (p.0 + dx, p.1 + dy),
                };
                points.push(p);
            }
            let keys = keys_of(&points);
            prop_assert!(keys.len() <= points.len());
            for (i, &(x, y)) in points.iter().enumerate() {
                let (kx, ky) = position_at(&keys, i as u64).expect("within the span");
                let (tx, ty) = (quantise(x), quantise(y));
                prop_assert!((kx - tx).abs() <= MAX_ERROR_UNITS + 1e-9, "tick {i}: x {kx} for {tx}");
                prop_assert!((ky - ty).abs() <= MAX_ERROR_UNITS + 1e-9, "tick {i}: y {ky} for {ty}");
            }
        }
    }
}
