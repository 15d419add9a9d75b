//! Movement with potential functions (002b ch. 5): one Lennard-Jones law for chase, evade,
//! obstacle avoidance and swarming.
//!
//! The book evaluates the *potential* `U(d) = −A/dⁿ + B/dᵐ` and uses it directly as the force
//! magnitude along the line joining the two units (L2459: "we use U, but we are computing a
//! force"); this module does the same. `d` is the distance in body lengths of the unit that feels
//! the force. Positive `U` pushes the unit away, negative pulls it in. The force is applied at the
//! nose, so its lateral part turns the unit and its forward part speeds it up or slows it down
//! (L2327): [`force_to_control`] makes that split.

use glam::Vec2;

use super::body::{Control, Vehicle, normalize_book};
use super::spatial_hash::SpatialHash;

/// The parameters of `U(d) = −A/dⁿ + B/dᵐ`: `A`, `B` the strengths of attraction and repulsion,
/// `n`, `m` their decay (L2390).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LennardJones {
    /// Attraction strength `A`.
    pub a: f32,
    /// Repulsion strength `B`.
    pub b: f32,
    /// Attraction decay `n`.
    pub n: f32,
    /// Repulsion decay `m`.
    pub m: f32,
}

impl LennardJones {
    /// Chase/evade of Ex. 5-2 (`DoAttractCraft2`): A 2000, B 4000, n 2, m 3.
    pub const CHASE: LennardJones = LennardJones { a: 2000.0, b: 4000.0, n: 2.0, m: 3.0 };
    /// Obstacle avoidance of Ex. 5-3 and 5-5: repulsion only, A 0, B 13000, n 1, m 2.5.
    pub const AVOID: LennardJones = LennardJones { a: 0.0, b: 13000.0, n: 1.0, m: 2.5 };
    /// Swarming of Ex. 5-4 and 5-5: A 2000, B 10000, n 1, m 2.
    pub const SWARM: LennardJones = LennardJones { a: 2000.0, b: 10000.0, n: 1.0, m: 2.0 };
    /// The chase term of the swarm in Ex. 5-5: A 10000, B 10000, n 1, m 2.
    pub const SWARM_CHASE: LennardJones = LennardJones { a: 10000.0, b: 10000.0, n: 1.0, m: 2.0 };

    /// `U(d)`. `d` is clamped to at least 10⁻³ so coincident units get a large finite push.
    pub fn potential(&self, d: f32) -> f32 {
        let d = if d.is_finite() { d.max(1e-3) } else { f32::MAX };
        -self.a / d.powf(self.n) + self.b / d.powf(self.m)
    }

    /// Where `U` crosses zero, `(B/A)^(1/(m−n))`; `None` when it never does.
    pub fn zero_crossing(&self) -> Option<f32> {
        (self.a > 0.0 && self.b > 0.0 && self.m != self.n).then(|| (self.b / self.a).powf(1.0 / (self.m - self.n)))
    }

    /// The force on a unit at `position` (body length `length`) from a source at `source`: `U·u`
    /// with `u` the unit vector from the source to the unit, in global coordinates.
    pub fn force(&self, position: Vec2, source: Vec2, length: f32) -> Vec2 {
        let r = position - source;
        let u = normalize_book(r);
        self.potential(r.length() / length.max(f32::MIN_POSITIVE)) * u
    }
}

/// Sums the forces of `sources` on `position` under `law`, skipping those beyond `cutoff` world
/// units (the book's distance cut-off, L2718); `f32::INFINITY` keeps them all.
pub fn sum_forces(law: &LennardJones, position: Vec2, length: f32, sources: &[Vec2], cutoff: f32) -> Vec2 {
    let c2 = cutoff * cutoff;
    sources.iter().filter(|s| s.distance_squared(position) <= c2).map(|&s| law.force(position, s, length)).sum()
}

/// The swarm force on every unit of `positions` from all others (Ex. 5-4) within `cutoff`,
/// through a spatial hash (L2724), written into `out` (one global force per unit). A unit never
/// pushes itself; coincident units push each other along the book's zero-safe normalisation,
/// which is no push at all.
pub fn swarm_forces(
    law: &LennardJones,
    positions: &[Vec2],
    length: f32,
    cutoff: f32,
    hash: &mut SpatialHash,
    out: &mut Vec<Vec2>,
) {
    hash.rebuild(positions);
    out.clear();
    for (i, &p) in positions.iter().enumerate() {
        let mut f = Vec2::ZERO;
        hash.for_each_within(p, cutoff, |j, q| {
            if j as usize != i {
                f += law.force(p, q, length);
            }
        });
        out.push(f);
    }
}

/// Turns a global force on `vehicle`'s nose into a [`Control`]: the lateral part over
/// `max_force` steers, and the forward part adds to (or takes from) a half throttle, so an
/// attracted unit speeds up toward its target and a repelled one slows down.
pub fn force_to_control(vehicle: &Vehicle, force: Vec2, max_force: f32) -> Control {
    let local = vehicle.frame().to_local(force);
    let scale = max_force.max(f32::MIN_POSITIVE);
    Control { steer: (local.x / scale).clamp(-1.0, 1.0), throttle: (0.5 + 0.5 * local.y / scale).clamp(0.0, 1.0) }
}

#[cfg(test)]
mod tests {
    use super::super::body::VehicleLimits;
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() <= 1e-3 * b.abs().max(1.0)
    }

    #[test]
    fn potentials_at_sample_distances_of_digest_1_7() {
        let table = [
            (LennardJones::CHASE, [2000.0, 0.0, -62.5, -16.0]),
            (LennardJones::AVOID, [13000.0, 2298.097, 406.25, 41.110]),
            (LennardJones::SWARM, [8000.0, 1500.0, 125.0, -100.0]),
            (LennardJones::SWARM_CHASE, [0.0, -2500.0, -1875.0, -900.0]),
        ];
        for (law, want) in table {
            for (d, w) in [1.0, 2.0, 4.0, 10.0].into_iter().zip(want) {
                assert!(close(law.potential(d), w), "{law:?} U({d}) = {} want {w}", law.potential(d));
            }
        }
        assert_eq!(LennardJones::CHASE.zero_crossing(), Some(2.0));
        assert_eq!(LennardJones::SWARM.zero_crossing(), Some(5.0));
        assert_eq!(LennardJones::AVOID.zero_crossing(), None);
        // Strongest attraction at (mB/nA)^(1/(m−n)): d = 3 (U = −74.074) and d = 10 (U = −100).
        assert!(close(LennardJones::CHASE.potential(3.0), -74.074));
        assert!(LennardJones::CHASE.potential(2.9) > -74.074 && LennardJones::CHASE.potential(3.1) > -74.074);
        assert!(LennardJones::SWARM.potential(0.0).is_finite());
    }

    #[test]
    fn force_direction_follows_the_sign_of_u() {
        // Ten lengths from the target the chase law attracts: the force points at the target.
        let f = LennardJones::CHASE.force(Vec2::new(10.0, 0.0), Vec2::ZERO, 1.0);
        assert!(close(f.x, -16.0) && f.y == 0.0, "{f}");
        let f = LennardJones::CHASE.force(Vec2::new(-10.0, 0.0), Vec2::ZERO, 1.0);
        assert!(close(f.x, 16.0), "pulled back toward the origin: {f}");
        // One length away it repels, away from the source.
        let f = LennardJones::CHASE.force(Vec2::new(0.0, 1.0), Vec2::ZERO, 1.0);
        assert!(close(f.y, 2000.0));
        assert_eq!(sum_forces(&LennardJones::AVOID, Vec2::ZERO, 1.0, &[Vec2::X * 100.0], 50.0), Vec2::ZERO);
    }

    #[test]
    fn swarm_through_the_hash_equals_all_pairs() {
        let pts: Vec<Vec2> = (0..60).map(|i| Vec2::new((i * 37 % 23) as f32, (i * 11 % 17) as f32) * 1.3).collect();
        let mut hash = SpatialHash::new(10.0);
        let mut got = Vec::new();
        swarm_forces(&LennardJones::SWARM, &pts, 1.0, f32::INFINITY, &mut hash, &mut got);
        for (i, &p) in pts.iter().enumerate() {
            let others: Vec<Vec2> = pts.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &q)| q).collect();
            let want = sum_forces(&LennardJones::SWARM, p, 1.0, &others, f32::INFINITY);
            assert!((got[i] - want).length() <= 1e-2 * want.length().max(1.0), "{i}: {} vs {want}", got[i]);
        }
    }

    #[test]
    fn potential_chase_closes_in_then_keeps_its_distance() {
        // Ex. 5-2: the chaser is drawn in from far away but the repulsion keeps it off the prey;
        // the prey flies a slow circle.
        let limits = VehicleLimits { max_speed: 12.0, max_turn_rate: 2.5, acceleration: 20.0 };
        let mut chaser = Vehicle::new(Vec2::new(-40.0, -40.0), Vec2::Y, 0.0, 2.0);
        let mut min_late = f32::MAX;
        for tick in 0..3000 {
            let t = tick as f32 * 0.02;
            let prey = Vec2::new(t.cos(), t.sin()) * 5.0;
            let f = LennardJones::CHASE.force(chaser.position, prey, chaser.length);
            chaser.step(force_to_control(&chaser, f, 20.0), &limits, 0.02);
            if tick > 1500 {
                min_late = min_late.min(chaser.position.distance(prey));
            }
        }
        let end = chaser.position.distance(Vec2::new(60.0f32.cos(), 60.0f32.sin()) * 5.0);
        assert!(end < 20.0, "drawn in: {end}");
        assert!(min_late > 2.0, "kept off by the repulsion: {min_late}");
    }
}
