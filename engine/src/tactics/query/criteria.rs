//! Evaluating one criterion on one candidate: the raw value, its declared limits, and what a
//! condition or weight makes of it.

use glam::Vec2;

use super::env::{Candidate, Objects, QueryEnv};
use super::keyword::{Criterion, ObjectKind, OutputKind};
use super::spec::{QueryConfig, Role, Test};

/// What a criterion needs besides the candidate.
pub(crate) struct Ctx<'e, 'a> {
    pub env: &'e QueryEnv<'a>,
    /// The asker (whose opponents `exposure` counts).
    pub owner: crate::world::EntityId,
    pub objects: &'e Objects,
    pub config: QueryConfig,
    pub seed: u64,
}

fn b(x: bool) -> f64 {
    if x { 1.0 } else { 0.0 }
}

/// A shot from `from` reaches `to`: within the query's range and with grid line of sight.
fn clear_shot(ctx: &Ctx<'_, '_>, from: Vec2, to: Vec2) -> bool {
    from.distance(to) <= ctx.config.max_range && ctx.env.line_of_sight(from, to)
}

/// The criterion's raw value (bools as 0/1). Objects were checked to be present beforehand; a
/// missing one reads as the origin.
pub(crate) fn raw_value(test: &Test, c: &Candidate, ctx: &Ctx<'_, '_>) -> f64 {
    let obj = test.object.and_then(|o| ctx.objects.get(o)).copied().unwrap_or(super::env::ObjectState::at(Vec2::ZERO));
    let puppet = ctx.objects.get(ObjectKind::Puppet).map_or(Vec2::ZERO, |s| s.position);
    let p = c.position;
    match test.criterion {
        Criterion::Distance => f64::from(p.distance(obj.position)),
        Criterion::Directness => directness(puppet, p, obj.position),
        Criterion::Visible => b(ctx.env.line_of_sight(obj.position, p)),
        Criterion::HardCover => b(c.cover.is_some_and(|k| k.hard)),
        Criterion::SoftCover => b(c.cover.is_some_and(|k| !k.hard)),
        Criterion::HighCover => b(c.cover.is_some_and(|k| k.high)),
        Criterion::LowCover => b(c.cover.is_some_and(|k| !k.high)),
        Criterion::CoverFrom => b(c.cover.is_some_and(|k| match k.facing {
            None => true,
            Some(f) => (obj.position - p).normalize_or_zero().dot(f) >= k.cos_half_angle,
        })),
        Criterion::CoverQuality => c.cover.map_or(0.0, |k| f64::from(k.quality)),
        Criterion::CanReachBefore => {
            let me = ctx.objects.get(ObjectKind::Puppet).map_or(0.0, |s| s.speed);
            b(can_reach_before(puppet, me, obj.position, obj.speed, p))
        }
        Criterion::PathDistance => ctx.env.paths.path_distance(obj.position, p).map_or(f64::INFINITY, f64::from),
        Criterion::Influence => {
            let layer = test.param.as_deref().unwrap_or("");
            ctx.env.influence.influence(layer, p).map_or(0.0, f64::from)
        }
        Criterion::CrossesLineOfFire => {
            let fire_end = obj.position + obj.forward.normalize_or_zero() * ctx.config.max_range;
            b(segments_intersect(puppet, p, obj.position, fire_end))
        }
        Criterion::CameraCenter => camera_center(obj.position, obj.forward, p, ctx.config.half_fov_degrees),
        Criterion::Random => random01(ctx.seed, p),
        Criterion::Leftness => leftness(obj.position, obj.forward, p),
        Criterion::CanShoot => b(clear_shot(ctx, p, obj.position)),
        Criterion::CanShootCrouched => {
            let ducked = c.cover.is_some_and(|k| {
                !k.high && k.facing.is_none_or(|f| (obj.position - p).normalize_or_zero().dot(f) >= k.cos_half_angle)
            });
            b(!ducked && clear_shot(ctx, p, obj.position))
        }
        Criterion::Exposure => {
            let mut seen_by = 0u32;
            ctx.env.entities.opponents_of(ctx.owner, &mut |at| {
                if clear_shot(ctx, at, p) {
                    seen_by += 1;
                }
            });
            f64::from(seen_by)
        }
    }
}

/// The criterion's declared output limits, which weights normalise within (001:L108).
pub(crate) fn limits(test: &Test, ctx: &Ctx<'_, '_>) -> (f64, f64) {
    let range = f64::from(ctx.config.max_range);
    match test.criterion {
        _ if test.output == OutputKind::Bool => (0.0, 1.0),
        Criterion::Distance | Criterion::PathDistance => (0.0, range),
        Criterion::Directness | Criterion::Leftness => (-1.0, 1.0),
        Criterion::Exposure => {
            let mut opponents = 0u32;
            ctx.env.entities.opponents_of(ctx.owner, &mut |_| opponents += 1);
            (0.0, f64::from(opponents.max(1)))
        }
        Criterion::CameraCenter => (1.0 - 180.0 / f64::from(ctx.config.half_fov_degrees.max(1.0)), 1.0),
        Criterion::Influence => ctx
            .env
            .influence
            .influence_limits(test.param.as_deref().unwrap_or(""))
            .map_or((0.0, 1.0), |(lo, hi)| (f64::from(lo), f64::from(hi))),
        _ => (0.0, 1.0),
    }
}

/// What a test does with a raw value: `Ok(contribution)` for a weight or a passed condition (0),
/// `Err(())` for a failed condition. Conditions compare the raw value, unnormalised (001:L108).
pub(crate) fn apply(test: &Test, raw: f64, lim: (f64, f64)) -> Result<f64, ()> {
    match test.role {
        Role::Require(want) => ((raw != 0.0) == want).then_some(0.0).ok_or(()),
        Role::Min(x) => (raw >= x).then_some(0.0).ok_or(()),
        Role::Max(x) => (raw <= x).then_some(0.0).ok_or(()),
        Role::Weight(w) => {
            let (lo, hi) = lim;
            let n = if hi > lo { ((raw - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.0 };
            Ok(w * n)
        }
    }
}

/// How much closer `point` brings us to `goal` per unit travelled from `from`:
/// `(d(from, goal) − d(point, goal)) / d(from, point)`, in [−1, 1] by the triangle inequality.
///
/// Equation 26.1 is missing from the source; this form reproduces its worked example (50 m away,
/// a point 10 m off and 45 m from the goal scores 0.5, 001:L126). A point where we stand makes no
/// progress and scores 0.
pub fn directness(from: Vec2, point: Vec2, goal: Vec2) -> f64 {
    let moved = f64::from(from.distance(point));
    if moved <= 1e-6 {
        return 0.0;
    }
    ((f64::from(from.distance(goal)) - f64::from(point.distance(goal))) / moved).clamp(-1.0, 1.0)
}

/// Whether we (at `me`, speed `my_speed`) reach `point` no later than the object (at `them`, speed
/// `their_speed`). Unknown speeds (≤ 0) count as equal, which is the text's rule of thumb: discard
/// a point closer to the enemy than to us (001:L142).
pub fn can_reach_before(me: Vec2, my_speed: f32, them: Vec2, their_speed: f32, point: Vec2) -> bool {
    let (dm, dt) = (point.distance(me), point.distance(them));
    if my_speed > 0.0 && their_speed > 0.0 { dm / my_speed <= dt / their_speed } else { dm <= dt }
}

/// Whether segments `a`–`b` and `c`–`d` meet (touching counts).
///
/// `crossesLineOfFire` tests the move from the puppet to the candidate against the object's line of
/// fire (its position along its forward vector, up to the maximum range). The source's wording
/// ("the line from the specified object to the candidate", 001:L173) cannot mean the object's own
/// position, which always lies on its own line of fire; the mover is the puppet.
pub fn segments_intersect(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let orient = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let on = |p: Vec2, q: Vec2, r: Vec2| r.cmpge(p.min(q)).all() && r.cmple(p.max(q)).all();
    let (d1, d2, d3, d4) = (orient(c, d, a), orient(c, d, b), orient(a, b, c), orient(a, b, d));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0)) && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0)) {
        return true;
    }
    (d1 == 0.0 && on(c, d, a)) || (d2 == 0.0 && on(c, d, b)) || (d3 == 0.0 && on(a, b, c)) || (d4 == 0.0 && on(a, b, d))
}

/// 1 when `point` is straight ahead of the viewer, 0 at the edge of the view (`half_fov_degrees`
/// off centre), negative beyond (down to `1 − 180/half_fov` straight behind).
pub fn camera_center(eye: Vec2, forward: Vec2, point: Vec2, half_fov_degrees: f32) -> f64 {
    let to = (point - eye).normalize_or_zero();
    let f = forward.normalize_or_zero();
    if to == Vec2::ZERO || f == Vec2::ZERO {
        return 1.0;
    }
    let angle = f64::from(f.dot(to).clamp(-1.0, 1.0)).acos().to_degrees();
    1.0 - angle / f64::from(half_fov_degrees.max(1.0))
}

/// How far `point` lies to the left of a viewer at `eye` facing `forward`: the sine of the angle
/// turning from the facing to the point, +1 straight to the left, −1 straight to the right, 0 dead
/// ahead or behind (the sine, not the angle, so a weight prefers points well off to one side and
/// a `min_leftness = 0.5` condition keeps a 60° wedge on the left, 30°..150°).
///
/// "Left" is counter-clockwise in map coordinates, the turn a positive heading makes
/// (`Vec2::from_angle`). A viewer without a facing, or a point on the viewer, scores 0.
pub fn leftness(eye: Vec2, forward: Vec2, point: Vec2) -> f64 {
    let to = (point - eye).normalize_or_zero();
    let f = forward.normalize_or_zero();
    f64::from(f.perp_dot(to)).clamp(-1.0, 1.0)
}

/// A random number in [0, 1) fixed by the seed and the point (SplitMix64 of both), so every
/// evaluation order sees the same value for the same point.
pub fn random01(seed: u64, p: Vec2) -> f64 {
    let mut z = seed ^ (u64::from(p.x.to_bits()) << 32 | u64::from(p.y.to_bits()));
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directness_reproduces_the_worked_example() {
        // 001:L126: the agent is 50 m from the goal; a point 10 m away and 45 m from the goal
        // scores 0.5. Agent at the origin, goal at (50, 0); the point solves |p| = 10, |p − g| = 45.
        let x = (100.0f32 + 2500.0 - 2025.0) / 100.0; // 5.75
        let point = Vec2::new(x, (100.0 - x * x).sqrt());
        assert!((directness(Vec2::ZERO, point, Vec2::new(50.0, 0.0)) - 0.5).abs() < 1e-5);
        assert_eq!(directness(Vec2::ZERO, Vec2::new(10.0, 0.0), Vec2::new(50.0, 0.0)), 1.0);
        assert_eq!(directness(Vec2::ZERO, Vec2::new(-10.0, 0.0), Vec2::new(50.0, 0.0)), -1.0);
        assert_eq!(directness(Vec2::ZERO, Vec2::ZERO, Vec2::new(50.0, 0.0)), 0.0);
    }

    #[test]
    fn leftness_is_the_sine_of_the_turn_to_the_point() {
        let v = Vec2::new;
        let east = v(1.0, 0.0);
        assert_eq!(leftness(Vec2::ZERO, east, v(0.0, 5.0)), 1.0, "north of an east-facing viewer is left");
        assert_eq!(leftness(Vec2::ZERO, east, v(0.0, -5.0)), -1.0);
        assert_eq!(leftness(Vec2::ZERO, east, v(5.0, 0.0)), 0.0);
        assert_eq!(leftness(Vec2::ZERO, east, v(-5.0, 0.0)), 0.0, "behind is neither side");
        assert!((leftness(Vec2::ZERO, east, v(3.0, 3.0)) - 0.5f64.sqrt()).abs() < 1e-6, "45° left");
        assert!((leftness(v(2.0, 2.0), v(0.0, 2.0), v(2.0 - 3.0, 2.0 + 3.0f32.sqrt() * 3.0)) - 0.5).abs() < 1e-6);
        assert_eq!(leftness(Vec2::ZERO, Vec2::ZERO, v(0.0, 5.0)), 0.0, "no facing");
        assert_eq!(leftness(Vec2::ZERO, east, Vec2::ZERO), 0.0, "on the viewer");
    }

    #[test]
    fn geometry_helpers() {
        let v = Vec2::new;
        assert!(segments_intersect(v(0.0, 0.0), v(4.0, 4.0), v(0.0, 4.0), v(4.0, 0.0)));
        assert!(!segments_intersect(v(0.0, 0.0), v(1.0, 1.0), v(3.0, 0.0), v(3.0, 5.0)));
        assert!(segments_intersect(v(0.0, 0.0), v(2.0, 0.0), v(2.0, 0.0), v(2.0, 5.0)), "touching counts");
        assert!(can_reach_before(v(0.0, 0.0), 0.0, v(10.0, 0.0), 0.0, v(5.0, 0.0)), "a tie is ours");
        assert!(!can_reach_before(v(0.0, 0.0), 0.0, v(10.0, 0.0), 0.0, v(6.0, 0.0)));
        assert!(can_reach_before(v(0.0, 0.0), 2.0, v(10.0, 0.0), 1.0, v(6.0, 0.0)), "twice as fast");
        let f = v(1.0, 0.0);
        assert!((camera_center(Vec2::ZERO, f, v(5.0, 0.0), 45.0) - 1.0).abs() < 1e-9);
        assert!(camera_center(Vec2::ZERO, f, v(5.0, 5.0), 45.0).abs() < 1e-6);
        assert!((camera_center(Vec2::ZERO, f, v(-5.0, 0.0), 45.0) + 3.0).abs() < 1e-6);
        let r = random01(7, v(1.5, 2.5));
        assert!((0.0..1.0).contains(&r));
        assert_eq!(r, random01(7, v(1.5, 2.5)));
        assert_ne!(r, random01(8, v(1.5, 2.5)));
    }
}
