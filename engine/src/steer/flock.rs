//! The flocking rules of 002a ch. 4: fields of view, cohesion, alignment, separation, and the
//! front-cone count that elects leaders.
//!
//! Each rule is a pure function returning a lateral force in units of the steering force; a unit's
//! net steering is their sum (L1596). [`super::Flock`] applies them to a whole population.

use glam::{Vec2, Vec4};

use super::body::{Frame, TOL, normalize_book};

/// A unit's field of view (Fig. 4-1 … 4-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ViewMode {
    /// About 270°: everything but a blind wedge behind (`_BACK_VIEW_ANGLE_FACTOR`).
    #[default]
    Wide,
    /// The front half-plane (local `y > 0`).
    Limited,
    /// A cone ahead (`_FRONT_VIEW_ANGLE_FACTOR`): ant-like single file.
    Narrow,
}

/// View angles and radii. Radii are in body lengths, so they scale with the world (L1892). The
/// book leaves the factor values to its demo (digest §0.4); the defaults here are ours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewParams {
    /// `_BACK_VIEW_ANGLE_FACTOR`: 1 puts the blind wedge's edges at 45° (a 270° view); larger
    /// widens the blind wedge.
    pub back_angle_factor: f32,
    /// `_FRONT_VIEW_ANGLE_FACTOR`: 1 puts the narrow cone's edges at 45°; larger widens the cone.
    pub front_angle_factor: f32,
    /// `_WIDEVIEW_RADIUS_FACTOR`.
    pub wide_radius: f32,
    /// `_LIMITEDVIEW_RADIUS_FACTOR`.
    pub limited_radius: f32,
    /// `_NARROWVIEW_RADIUS_FACTOR`.
    pub narrow_radius: f32,
}

impl Default for ViewParams {
    fn default() -> Self {
        ViewParams {
            back_angle_factor: 1.0,
            front_angle_factor: 1.0,
            wide_radius: 8.0,
            limited_radius: 8.0,
            narrow_radius: 6.0,
        }
    }
}

impl ViewParams {
    /// The view radius of `mode`, in body lengths.
    pub fn radius(&self, mode: ViewMode) -> f32 {
        match mode {
            ViewMode::Wide => self.wide_radius,
            ViewMode::Limited => self.limited_radius,
            ViewMode::Narrow => self.narrow_radius,
        }
    }
}

/// The angle test of Ex. 4-3 for an offset `w` in the viewer's body frame. Points exactly abeam
/// (`w.y == 0`) are in no view, as in the book.
pub fn in_view(mode: ViewMode, w: Vec2, view: &ViewParams) -> bool {
    match mode {
        ViewMode::Wide => w.y > 0.0 || (w.y < 0.0 && w.x.abs() > w.y.abs() * view.back_angle_factor),
        ViewMode::Limited => w.y > 0.0,
        ViewMode::Narrow => in_front_cone(w, view.front_angle_factor),
    }
}

/// The narrow front cone of Ex. 4-13 (`w.y > 0 && |w.x| < |w.y|·F`) that counts the units ahead
/// for leader election.
pub fn in_front_cone(w: Vec2, front_angle_factor: f32) -> bool {
    w.y > 0.0 && w.x.abs() < w.y.abs() * front_angle_factor
}

/// Cohesion and alignment (Ex. 4-8, 4-9): turn toward the unit direction `desired` with a force
/// `S · acos(v·u) / π`, linear in the heading error, on the side of `desired`'s local `x`.
/// `heading` is the unit's current direction of travel.
pub fn heading_force(frame: &Frame, heading: Vec2, desired: Vec2, force: f32) -> f32 {
    let u = normalize_book(desired);
    let v = normalize_book(heading);
    let w = frame.to_local(u);
    let m = if w.x < 0.0 {
        -1.0
    } else if w.x > 0.0 {
        1.0
    } else {
        0.0
    };
    let dot = v.dot(u);
    if dot.abs() < 1.0 { m * force * acos(dot) * std::f32::consts::FRAC_1_PI } else { 0.0 }
}

/// [`heading_force`] for two desired directions at once (a flock's cohesion and alignment),
/// bit for bit the same as two calls: the same operations in the same order, in the lanes of
/// one `Vec4`. Lanes 0 and 1 carry the two desired directions and lane 2 the heading, so the
/// three normalisations, two square roots of `acos` and its two polynomial chains each run once;
/// one by one, a flock of 50,000 spent about 2 ms a tick waiting on their latency.
#[inline(always)]
pub(super) fn heading_forces(frame: &Frame, heading: Vec2, desired: [Vec2; 2], force: [f32; 2]) -> [f32; 2] {
    let xs = Vec4::new(desired[0].x, desired[1].x, heading.x, heading.x);
    let ys = Vec4::new(desired[0].y, desired[1].y, heading.y, heading.y);
    // `normalize_book`, lane by lane.
    let m = (xs * xs + ys * ys).sqrt();
    let m = Vec4::select(m.cmple(Vec4::splat(TOL)), Vec4::ONE, m);
    let (ux, uy) = (xs / m, ys / m);
    let snap = |u: Vec4| Vec4::select(u.abs().cmplt(Vec4::splat(TOL)), Vec4::ZERO, u);
    let (ux, uy) = (snap(ux), snap(uy));
    let (vx, vy) = (Vec4::splat(ux.z), Vec4::splat(uy.z));
    // `frame.to_local(u).x` and its sign.
    let wx = ux * frame.right.x + uy * frame.right.y;
    let sign =
        Vec4::select(wx.cmplt(Vec4::ZERO), Vec4::NEG_ONE, Vec4::select(wx.cmpgt(Vec4::ZERO), Vec4::ONE, Vec4::ZERO));
    let dot = vx * ux + vy * uy;
    let turn = sign * Vec4::new(force[0], force[1], 0.0, 0.0) * acos4(dot) * std::f32::consts::FRAC_1_PI;
    let turn = Vec4::select(dot.abs().cmplt(Vec4::ONE), turn, Vec4::ZERO);
    [turn.x, turn.y]
}

/// [`acos`] in four lanes.
#[inline(always)]
fn acos4(x: Vec4) -> Vec4 {
    let a = x.abs().min(Vec4::ONE);
    let mut p = Vec4::splat(ACOS_P[7]);
    for &c in ACOS_P[..7].iter().rev() {
        p = p * a + Vec4::splat(c);
    }
    let r = (Vec4::ONE - a).sqrt() * p;
    Vec4::select(x.cmplt(Vec4::ZERO), Vec4::splat(std::f32::consts::PI) - r, r)
}

/// A&S 4.4.46's coefficients as published; f32 keeps what it can of them.
#[allow(clippy::excessive_precision)]
const ACOS_P: [f32; 8] = [
    1.570_796_305,
    -0.214_598_801_6,
    0.088_978_987_4,
    -0.050_174_304_6,
    0.030_891_881_0,
    -0.017_088_125_6,
    0.006_670_090_1,
    -0.001_262_491_1,
];

/// `acos(x)` for `x` in `[−1, 1]`, within 3 ulps of the exact value (libm: 1), without a
/// branch: Abramowitz & Stegun 4.4.46, `acos(x) = √(1 − x) · P(x)` on `[0, 1]` with a
/// degree-7 `P` (error ≤ 2·10⁻⁸), and `π − acos(−x)` below 0. Cohesion and alignment take two
/// `acos` a unit a tick; libm's `acosf` branches on the argument's range, which a flock's
/// headings make unpredictable, and cost a flock of 50,000 about 2 ms a tick.
/// One polynomial for both: this is [`acos4`]'s first lane, the same operations on one value.
#[inline]
pub(super) fn acos(x: f32) -> f32 {
    acos4(Vec4::splat(x)).x
}

/// Separation (Ex. 4-10): a neighbour at local offset `w`, `distance` away, within `threshold`
/// (`length × _SEPARATION_FACTOR`) pushes the unit away from its side with
/// `S · threshold / distance` — `S` at the threshold, growing as they close. Zero beyond the
/// threshold; coincident units (distance 0, where the book divides by zero) get the force of a
/// hundredth of the threshold toward local `+x`. NaN distances give no force.
pub fn separation_force(w: Vec2, distance: f32, threshold: f32, force: f32) -> f32 {
    if distance.is_nan() || distance > threshold {
        return 0.0;
    }
    let m = if w.x > 0.0 { -1.0 } else { 1.0 };
    // The floor keeps a zero threshold (and distance) at no force rather than 0/0.
    m * force * threshold / distance.max(threshold * 0.01).max(f32::MIN_POSITIVE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_decisions_of_digest_6_9() {
        let v = ViewParams::default();
        let all = |w: Vec2| [ViewMode::Wide, ViewMode::Limited, ViewMode::Narrow].map(|m| in_view(m, w, &v));
        assert_eq!(all(Vec2::new(0.5, 1.0)), [true, true, true]);
        assert_eq!(all(Vec2::new(1.0, 1.0)), [true, true, false], "narrow edge is strict");
        assert_eq!(all(Vec2::new(1.0, -0.5)), [true, false, false]);
        assert_eq!(all(Vec2::new(0.2, -1.0)), [false, false, false], "the blind wedge");
        assert_eq!(all(Vec2::new(1.0, 0.0)), [false, false, false], "abeam is in no view");
        // Wider factors move the edges: B = 2 blinds (1, −0.6); F = 2 sees (1.5, 1).
        let wide = ViewParams { back_angle_factor: 2.0, front_angle_factor: 2.0, ..v };
        assert!(!in_view(ViewMode::Wide, Vec2::new(1.0, -0.6), &wide));
        assert!(in_view(ViewMode::Narrow, Vec2::new(1.5, 1.0), &wide));
    }

    #[test]
    fn cohesion_is_linear_in_the_heading_error() {
        let f = Frame::from_forward(Vec2::Y);
        // Neighbours' centre straight to local +x: 90° error gives S/2 toward +x.
        assert!((heading_force(&f, Vec2::Y, Vec2::X, 1.0) - 0.5).abs() < 1e-6);
        // 45° to local −x gives −S/4.
        assert!((heading_force(&f, Vec2::Y, Vec2::new(-1.0, 1.0), 2.0) + 0.5).abs() < 1e-6);
        // Already aligned (and the acos guard at |v·u| = 1): nothing.
        assert_eq!(heading_force(&f, Vec2::Y, Vec2::Y, 1.0), 0.0);
        assert_eq!(heading_force(&f, Vec2::Y, Vec2::NEG_Y, 1.0), 0.0);
    }

    proptest::proptest! {
        #[test]
        fn two_heading_forces_at_once_are_two_calls_bit_for_bit(
            (hx, hy, ax, ay, bx, by) in (-2.0f32..2.0, -2.0f32..2.0, -9.0f32..9.0, -9.0f32..9.0, -3.0f32..3.0, -3.0f32..3.0),
            (fa, fb, tiny) in (-2.0f32..2.0, -2.0f32..2.0, proptest::prelude::any::<bool>()),
        ) {
            // Short vectors too: `normalize_book` leaves those below its tolerance alone.
            let scale = if tiny { 1e-5 } else { 1.0 };
            let (h, a, b) = (Vec2::new(hx, hy), Vec2::new(ax, ay) * scale, Vec2::new(bx, by));
            let f = Frame::from_forward(h.normalize_or(Vec2::Y));
            let two = heading_forces(&f, h, [a, b], [fa, fb]);
            let one = [heading_force(&f, h, a, fa), heading_force(&f, h, b, fb)];
            proptest::prop_assert_eq!(two.map(f32::to_bits), one.map(f32::to_bits));
        }
    }

    #[test]
    fn the_polynomial_acos_stays_within_a_few_ulps_of_libms() {
        // Every 1/2¹⁶ of the domain, and the ends, against acos in f64, in ulps of the result.
        let ulp = |v: f64| f64::from((v as f32).abs().next_up() - (v as f32).abs());
        let (mut worst, mut libm) = (0.0f64, 0.0f64);
        for i in -65_536..=65_536 {
            let x = i as f32 / 65_536.0;
            let exact = f64::from(x).acos();
            worst = worst.max((f64::from(acos(x)) - exact).abs() / ulp(exact));
            libm = libm.max((f64::from(x.acos()) - exact).abs() / ulp(exact));
        }
        assert!(worst <= 3.0 && libm <= 1.0, "worst error {worst} ulps (libm {libm})");
        assert_eq!(acos(1.0), 0.0);
        assert!((acos(-1.0) - std::f32::consts::PI).abs() < 1e-6);
        assert!((acos(0.5) - std::f32::consts::FRAC_PI_3).abs() < 2e-7);
    }

    #[test]
    fn separation_is_inverse_in_distance_and_turns_away() {
        // d = threshold ⇒ S; d = threshold / 2 ⇒ 2S (digest §6.9); neighbour on +x ⇒ force −x.
        assert_eq!(separation_force(Vec2::new(1.0, 1.0), 2.0, 2.0, 1.5), -1.5);
        assert_eq!(separation_force(Vec2::new(1.0, 1.0), 1.0, 2.0, 1.5), -3.0);
        assert_eq!(separation_force(Vec2::new(-1.0, 1.0), 1.0, 2.0, 1.5), 3.0);
        assert_eq!(separation_force(Vec2::new(-1.0, 1.0), 2.5, 2.0, 1.5), 0.0);
        assert!(separation_force(Vec2::ZERO, 0.0, 2.0, 1.0).is_finite());
    }
}
