//! The inner loop of a flock's decision pass: one unit against a run of candidate neighbours,
//! four candidates at a time (eight on x86-64 machines with AVX2: the `avx2` module).
//!
//! The candidates' data sits in [`Keyed`], one array per field in the neighbour source's order,
//! so a run of candidates (one row of hash cells) is a contiguous slice of each array. [`Viewer`]
//! holds everything about the deciding unit that the loop needs, hoisted out of it, and the loop
//! body has no branches: every candidate computes every rule, and masks choose what is added.
//! Each step is one `glam::Vec4` operation over four lanes (SIMD where the target has it);
//! the candidate-by-candidate version with early exits spent 12 ns on each candidate, most of it
//! mispredicted branches (a candidate is in reach, in view, in the separation radius about as
//! often as not).
//!
//! **The sums are fixed-point, so their order does not matter.** Each neighbour's offset,
//! velocity and separation push is rounded once to a whole number of steps (a step is a 2¹⁶th of
//! the largest value the term can take) and the whole numbers are added. Those additions are
//! exact: they are done in `f32` lanes only while every partial sum stays below 2²⁴ steps, and
//! then flushed into `f64` totals. Exact sums are the same whichever order the neighbours come
//! in: lane by lane, four or eight lanes wide, from a hash of any cell size, or from the
//! all-pairs loop. Float sums are not: their last bit depends on the order, and a flock is
//! chaotic, so a different neighbour structure used to send the same flock on a different
//! trajectory within a few hundred ticks. Now the neighbour source is free to change for speed
//! without changing a single decision.

use std::ops::Range;

use glam::{BVec4A, Vec2, Vec4};

use super::body::Vehicle;
use super::flock::{ViewMode, ViewParams};

#[cfg(target_arch = "x86_64")]
mod avx2;

/// Candidates processed together: one `Vec4` (SSE2 on x86-64, NEON on ARM, plain floats elsewhere).
pub(super) const LANES: usize = 4;
/// Unreachable entries after the last key, so that any run can be read in whole chunks of
/// [`LANES`], or of the eight lanes of the AVX2 scan.
const PADDING: usize = 8;
/// Per-unit data in the neighbour source's key order, padded with [`PADDING`] unreachable
/// entries.
#[derive(Debug, Clone, Default)]
pub(super) struct Keyed {
    x: Vec<f32>,
    y: Vec<f32>,
    vx: Vec<f32>,
    vy: Vec<f32>,
    kind: Vec<f32>,
    /// Heading and length: the deciding unit reads itself from here too, in key order, rather
    /// than from the units array in an order that jumps all over it.
    hx: Vec<f32>,
    hy: Vec<f32>,
    length: Vec<f32>,
    /// The largest velocity component: the range of the fixed-point velocity sums.
    velocity_bound: f32,
    /// The velocities in whole steps of [`fixed_scale`]`(velocity_bound)`, rounded once here
    /// rather than by every viewer that sees them (the same for all).
    vx_steps: Vec<f32>,
    vy_steps: Vec<f32>,
}

impl Keyed {
    /// Refills from `(unit, kind)` in key order.
    pub(super) fn fill<'a>(&mut self, units: impl ExactSizeIterator<Item = (&'a Vehicle, u8)>) {
        let n = units.len() + PADDING;
        for v in [&mut self.x, &mut self.y, &mut self.vx, &mut self.vy, &mut self.kind, &mut self.hx, &mut self.hy] {
            v.clear();
            v.reserve(n);
        }
        self.length.clear();
        self.length.reserve(n);
        let mut bound = 0.0f32;
        for (u, k) in units {
            self.x.push(u.position.x);
            self.y.push(u.position.y);
            // A broken velocity counts as none: one infinite term would swamp a fixed-point sum.
            let v = if u.velocity.is_finite() { u.velocity } else { Vec2::ZERO };
            bound = bound.max(v.x.abs()).max(v.y.abs());
            self.vx.push(v.x);
            self.vy.push(v.y);
            self.kind.push(f32::from(k));
            self.hx.push(u.heading.x);
            self.hy.push(u.heading.y);
            self.length.push(u.length);
        }
        // Padding: never in reach (the lane mask also cuts it off by key).
        for _ in 0..PADDING {
            self.x.push(f32::INFINITY);
            self.y.push(f32::INFINITY);
            for v in [&mut self.vx, &mut self.vy, &mut self.hx, &mut self.hy, &mut self.length] {
                v.push(0.0);
            }
            self.kind.push(-1.0);
        }
        self.velocity_bound = bound;
        let scale = fixed_scale(bound);
        let round = |v: &f32| (v * scale + ROUNDER) - ROUNDER;
        self.vx_steps.clear();
        self.vx_steps.extend(self.vx.iter().map(round));
        self.vy_steps.clear();
        self.vy_steps.extend(self.vy.iter().map(round));
    }

    /// The unit with key `k`, as it was when the keys were filled.
    pub(super) fn vehicle(&self, k: usize) -> Vehicle {
        Vehicle {
            position: Vec2::new(self.x[k], self.y[k]),
            velocity: Vec2::new(self.vx[k], self.vy[k]),
            heading: Vec2::new(self.hx[k], self.hy[k]),
            length: self.length[k],
        }
    }
}

/// A field of view as flags and factors, so the test is arithmetic on a lane (Ex. 4-3):
/// ahead (`wy > 0`, and for the narrow view `|wx| < wy·F`), or in the wide view's side wedges
/// behind (`wy < 0` and `|wx| > −wy·B`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct ViewTest {
    narrow: bool,
    wide: bool,
    front: f32,
    back: f32,
}

impl ViewTest {
    fn new(mode: ViewMode, vp: &ViewParams) -> Self {
        ViewTest {
            narrow: mode == ViewMode::Narrow,
            wide: mode == ViewMode::Wide,
            front: vp.front_angle_factor,
            back: vp.back_angle_factor,
        }
    }

    /// The lanes whose offset (`awx` = |wx|, `wy`; `ahead` = `wy > 0`) the view sees.
    #[inline(always)]
    fn sees(&self, awx: Vec4, wy: Vec4, ahead: BVec4A) -> BVec4A {
        let mut seen = ahead;
        if self.narrow {
            seen &= awx.cmplt(wy * self.front);
        }
        if self.wide {
            seen |= wy.cmplt(Vec4::ZERO) & awx.cmpgt(-wy * self.back);
        }
        seen
    }
}

/// Chunks whose terms a lane may add before it is flushed into the `f64` totals: each term is at
/// most 2¹⁶ steps (a little more with rounding), so 128 of them stay below 2²⁴, where `f32`
/// still holds every whole number exactly.
const FLUSH_EVERY: u32 = 128;
/// Adding and subtracting 1.5 × 2²³ rounds an `f32` below 2²² to the nearest whole number
/// (ties to even) on every IEEE machine, four lanes at once, without a conversion to integers.
const ROUNDER: f32 = 12_582_912.0;

/// The power of two that maps `[−bound, bound]` into ±2¹⁶ steps (0 for no usable bound: the
/// terms then count as 0). A power of two, so scaling is exact and undoing it is a multiply.
fn fixed_scale(bound: f32) -> f32 {
    if !(bound.is_normal() && bound > 0.0) {
        return 0.0;
    }
    // bound < 2^(e − 126) for its biased exponent e, so bound × 2^(142 − e) < 2^16.
    let e = (bound.to_bits() >> 23) as i32;
    let biased = 142 - e + 127;
    if (1..=254).contains(&biased) { f32::from_bits((biased as u32) << 23) } else { 0.0 }
}

/// The lanes of `v` (already scaled to steps) that `keep` selects, as whole numbers of steps;
/// the others 0.
#[inline(always)]
fn steps(keep: BVec4A, v: Vec4) -> Vec4 {
    Vec4::select(keep, (v + Vec4::splat(ROUNDER)) - Vec4::splat(ROUNDER), Vec4::ZERO)
}

/// A fixed-point total (exact, so the same in any order) back in the units it was scaled from.
fn unfixed(total: f32, scale: f32) -> f32 {
    if scale > 0.0 { total * (1.0 / scale) } else { 0.0 }
}

/// The deciding unit: where it is, which way it faces, and the radii and rules it applies.
#[derive(Debug, Clone, Copy)]
pub(super) struct Viewer {
    /// Its own key: skipped.
    pub key: usize,
    pub position: Vec2,
    pub forward: Vec2,
    pub right: Vec2,
    pub kind: f32,
    pub length: f32,
    /// Squared radii: candidates beyond `reach2` count for nothing.
    pub reach2: f32,
    pub view2: f32,
    pub sep2: f32,
    pub narrow2: f32,
    pub sep_radius: f32,
    /// Counting the units in the front cone (leader election).
    pub electing: bool,
    /// `None`: no cohesion or alignment.
    view: Option<ViewTest>,
    separation_view: ViewTest,
    /// Whether separation looks through the flocking view (the default): then one test serves both.
    same_view: bool,
    front_factor: f32,
    separation_force: f32,
    brake_floor: f32,
    /// Fixed-point scales of the offsets (bound: the reach), velocities (the flock's largest
    /// component) and separation pushes (bound: 101 × the force, the push at the closest).
    offset_scale: f32,
    velocity_scale: f32,
    push_scale: f32,
}

/// What a unit's neighbours add up to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Neighbourhood {
    /// Sum of the offsets (position minus the viewer's) and velocities of the flockmates in view
    /// (same kind, view radius), each term rounded to the fixed-point step.
    pub offset_sum: Vec2,
    pub velocity_sum: Vec2,
    pub flockmates: u32,
    /// Units in the narrow front cone within the narrow radius (counted only when electing).
    pub ahead: u32,
    /// The separation forces' sum, each term rounded to the fixed-point step.
    pub separation: f32,
    /// The speed fraction braking behind close units allows (1: no braking).
    pub throttle: f32,
    /// The squared distance to the nearest unit in reach, of any kind and in any direction
    /// (infinite when none is): whether this unit may touch another after the move.
    pub nearest2: f32,
}

/// The first `n` lanes, for a run's last, partial chunk.
const TAIL: [BVec4A; LANES] = [
    BVec4A::new(false, false, false, false),
    BVec4A::new(true, false, false, false),
    BVec4A::new(true, true, false, false),
    BVec4A::new(true, true, true, false),
];

/// Running sums of one unit's scan.
struct Sums {
    /// Whole numbers of steps since the last flush: offsets x and y, velocities x and y, pushes.
    lanes: [Vec4; 5],
    /// Chunks added to `lanes` since the last flush.
    pending: u32,
    /// Whether `totals` holds anything.
    flushed: bool,
    totals: [f64; 5],
    count: u32,
    ahead: u32,
    throttle: Vec4,
    nearest2: Vec4,
}

impl Sums {
    fn new() -> Self {
        Sums {
            lanes: [Vec4::ZERO; 5],
            pending: 0,
            flushed: false,
            totals: [0.0; 5],
            count: 0,
            ahead: 0,
            throttle: Vec4::ONE,
            nearest2: Vec4::INFINITY,
        }
    }

    fn flush(&mut self) {
        for (total, lane) in self.totals.iter_mut().zip(&mut self.lanes) {
            *total += lane.to_array().iter().map(|&v| f64::from(v)).sum::<f64>();
            *lane = Vec4::ZERO;
        }
        self.pending = 0;
        self.flushed = true;
    }

    /// What the scanned neighbours of `viewer` add up to.
    fn finish(mut self, viewer: &Viewer) -> Neighbourhood {
        // Up to 32 chunks, each lane is below 2²¹ steps and the four lanes' sum below 2²³: `f32`
        // adds them exactly. Past that, the `f64` totals do. Either way the total is exact, and
        // rounding it to `f32` gives the same value.
        let t = if self.flushed || self.pending > 32 {
            self.flush();
            self.totals.map(|t| t as f32)
        } else {
            self.lanes.map(|l| l.element_sum())
        };
        Neighbourhood {
            offset_sum: Vec2::new(unfixed(t[0], viewer.offset_scale), unfixed(t[1], viewer.offset_scale)),
            velocity_sum: Vec2::new(unfixed(t[2], viewer.velocity_scale), unfixed(t[3], viewer.velocity_scale)),
            flockmates: self.count,
            ahead: self.ahead,
            separation: unfixed(t[4], viewer.push_scale),
            throttle: self.throttle.min_element().min(1.0),
            nearest2: self.nearest2.min_element(),
        }
    }
}

impl Viewer {
    /// The viewer for a unit at `position` facing `forward` (a unit vector), `length` long, among
    /// the units of `keyed`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        key: usize,
        position: Vec2,
        forward: Vec2,
        length: f32,
        kind: u8,
        params: &super::FlockParams,
        electing: bool,
        keyed: &Keyed,
    ) -> Self {
        let vp = &params.view_params;
        let view_radius = params.view.map_or(0.0, |m| vp.radius(m)) * length;
        let sep_radius = params.separation_factor * length;
        let narrow_radius = vp.narrow_radius * length;
        let reach = view_radius.max(sep_radius).max(if electing { narrow_radius } else { 0.0 });
        Viewer {
            key,
            position,
            forward,
            right: Vec2::new(forward.y, -forward.x),
            kind: f32::from(kind),
            length,
            reach2: reach * reach,
            view2: view_radius * view_radius,
            sep2: sep_radius * sep_radius,
            narrow2: narrow_radius * narrow_radius,
            sep_radius,
            electing,
            view: params.view.map(|m| ViewTest::new(m, vp)),
            separation_view: ViewTest::new(params.separation_view, vp),
            same_view: params.view.map(|m| ViewTest::new(m, vp)) == Some(ViewTest::new(params.separation_view, vp)),
            front_factor: vp.front_angle_factor,
            separation_force: params.separation,
            brake_floor: params.brake_floor,
            offset_scale: fixed_scale(reach),
            velocity_scale: fixed_scale(keyed.velocity_bound),
            push_scale: fixed_scale(101.0 * params.separation.abs()),
        }
    }

    /// The same viewer for another unit of its length and type: key `key`, at `position`, facing
    /// `forward`.
    #[inline]
    pub(super) fn at(self, key: usize, position: Vec2, forward: Vec2) -> Self {
        Viewer { key, position, forward, right: Vec2::new(forward.y, -forward.x), ..self }
    }

    /// How far candidates are looked for.
    pub(super) fn reach(&self) -> f32 {
        self.reach2.sqrt()
    }

    /// What the candidates in `runs` (key ranges) add up to.
    #[inline(always)]
    pub(super) fn scan(&self, keyed: &Keyed, runs: impl Iterator<Item = Range<usize>>) -> Neighbourhood {
        let mut sums = Sums::new();
        for run in runs {
            self.scan_run(keyed, run, &mut sums);
        }
        sums.finish(self)
    }

    /// Adds the candidates with keys in `run` to `sums`.
    #[inline(always)]
    fn scan_run(&self, keyed: &Keyed, run: Range<usize>, sums: &mut Sums) {
        let mut k = run.start;
        while k + LANES <= run.end {
            self.chunk(keyed, k, BVec4A::splat(true), sums);
            k += LANES;
        }
        if k < run.end {
            self.chunk(keyed, k, TAIL[run.end - k], sums);
        }
    }

    /// Candidates `start .. start + LANES`, one per lane, those in `lanes` only.
    #[inline(always)]
    fn chunk(&self, keyed: &Keyed, start: usize, mut lanes: BVec4A, sums: &mut Sums) {
        // Itself: never in any view anyway (its offset is zero, so `wy > 0` and `wy < 0` both
        // fail), but a unit with a broken heading should not rely on that.
        let me = self.key.wrapping_sub(start);
        if me < LANES {
            lanes.set(me, false);
        }
        let x = Vec4::from_slice(&keyed.x[start..start + LANES]);
        let y = Vec4::from_slice(&keyed.y[start..start + LANES]);
        let dx = x - Vec4::splat(self.position.x);
        let dy = y - Vec4::splat(self.position.y);
        let d2 = dx * dx + dy * dy;
        let counts = d2.cmple(Vec4::splat(self.reach2)) & lanes;
        if !counts.any() {
            return;
        }
        if sums.pending == FLUSH_EVERY {
            sums.flush();
        }
        sums.pending += 1;
        sums.nearest2 = sums.nearest2.min(Vec4::select(counts, d2, Vec4::INFINITY));
        // The candidates in the viewer's body frame (`Frame::to_local`).
        let wx = dx * self.right.x + dy * self.right.y;
        let wy = dx * self.forward.x + dy * self.forward.y;
        let awx = wx.abs();
        let in_front = wy.cmpgt(Vec4::ZERO);
        if self.electing {
            let ahead = counts & d2.cmple(Vec4::splat(self.narrow2)) & in_front & awx.cmplt(wy * self.front_factor);
            sums.ahead += ahead.bitmask().count_ones();
        }
        let mut seen = None;
        if let Some(view) = &self.view {
            let kind = Vec4::from_slice(&keyed.kind[start..start + LANES]);
            let sees = view.sees(awx, wy, in_front);
            seen = Some(sees);
            let mate = counts & d2.cmple(Vec4::splat(self.view2)) & kind.cmpeq(Vec4::splat(self.kind)) & sees;
            let vx = Vec4::from_slice(&keyed.vx_steps[start..start + LANES]);
            let vy = Vec4::from_slice(&keyed.vy_steps[start..start + LANES]);
            let l = &mut sums.lanes;
            l[0] += steps(mate, dx * self.offset_scale);
            l[1] += steps(mate, dy * self.offset_scale);
            l[2] += Vec4::select(mate, vx, Vec4::ZERO);
            l[3] += Vec4::select(mate, vy, Vec4::ZERO);
            sums.count += mate.bitmask().count_ones();
        }
        let sees = match seen {
            Some(sees) if self.same_view => sees,
            _ => self.separation_view.sees(awx, wy, in_front),
        };
        let near = counts & d2.cmple(Vec4::splat(self.sep2)) & sees;
        // Most runs of four hold nobody that close.
        if !near.any() {
            return;
        }
        // Separation (Ex. 4-10, `flock::separation_force`): S · threshold / distance, away from
        // the neighbour's side.
        let dist = d2.sqrt();
        let side = Vec4::select(wx.cmpgt(Vec4::ZERO), Vec4::NEG_ONE, Vec4::ONE);
        let closest = Vec4::splat((self.sep_radius * 0.01).max(f32::MIN_POSITIVE));
        let push = side * (self.separation_force * self.sep_radius / dist.max(closest));
        sums.lanes[4] += steps(near, push * self.push_scale);
        if self.brake_floor < 1.0 {
            let behind = near & in_front & awx.cmplt(Vec4::splat(self.length));
            let t = self.brake_floor + (1.0 - self.brake_floor) * (dist / self.sep_radius);
            sums.throttle = sums.throttle.min(Vec4::select(behind, t, Vec4::ONE));
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::super::FlockParams;
    use super::super::flock::{in_front_cone, in_view, separation_force};
    use super::*;

    /// The candidate-by-candidate loop the lanes replace, written with the rule functions of
    /// `flock` and adding the same fixed-point terms in `f64`.
    fn reference(viewer: &Viewer, params: &FlockParams, units: &[(Vec2, Vec2, u8)]) -> Neighbourhood {
        let vp = &params.view_params;
        let fixed = |v: f32, scale: f32| f64::from((v * scale + ROUNDER) - ROUNDER);
        let mut totals = [0.0f64; 5];
        let unfixed = |t: f64, scale: f32| unfixed(t as f32, scale);
        let (mut flockmates, mut ahead, mut throttle, mut nearest2) = (0, 0, 1.0f32, f32::INFINITY);
        // The lanes see velocities bounded by the flock's largest component.
        let bound = units.iter().fold(0.0f32, |b, u| b.max(u.1.x.abs()).max(u.1.y.abs()));
        let velocity_scale = fixed_scale(bound);
        for (j, &(pos, vel, kind)) in units.iter().enumerate() {
            let d = pos - viewer.position;
            let d2 = d.length_squared();
            if d2 > viewer.reach2 || j == viewer.key {
                continue;
            }
            nearest2 = nearest2.min(d2);
            let w = Vec2::new(d.dot(viewer.right), d.dot(viewer.forward));
            if viewer.electing && d2 <= viewer.narrow2 && in_front_cone(w, vp.front_angle_factor) {
                ahead += 1;
            }
            if d2 <= viewer.view2 && f32::from(kind) == viewer.kind && params.view.is_some_and(|m| in_view(m, w, vp)) {
                totals[0] += fixed(d.x, viewer.offset_scale);
                totals[1] += fixed(d.y, viewer.offset_scale);
                totals[2] += fixed(vel.x, velocity_scale);
                totals[3] += fixed(vel.y, velocity_scale);
                flockmates += 1;
            }
            if d2 <= viewer.sep2 && in_view(params.separation_view, w, vp) {
                let dist = d2.sqrt();
                totals[4] += fixed(separation_force(w, dist, viewer.sep_radius, params.separation), viewer.push_scale);
                if w.y > 0.0 && w.x.abs() < viewer.length && params.brake_floor < 1.0 {
                    throttle =
                        throttle.min(params.brake_floor + (1.0 - params.brake_floor) * (dist / viewer.sep_radius));
                }
            }
        }
        Neighbourhood {
            offset_sum: Vec2::new(unfixed(totals[0], viewer.offset_scale), unfixed(totals[1], viewer.offset_scale)),
            velocity_sum: Vec2::new(unfixed(totals[2], velocity_scale), unfixed(totals[3], velocity_scale)),
            flockmates,
            ahead,
            separation: unfixed(totals[4], viewer.push_scale),
            throttle,
            nearest2,
        }
    }

    fn mode(k: u8) -> ViewMode {
        [ViewMode::Wide, ViewMode::Limited, ViewMode::Narrow][usize::from(k % 3)]
    }

    fn keyed(units: &[(Vec2, Vec2, u8)]) -> Keyed {
        let mut keyed = Keyed::default();
        let vehicles: Vec<(Vehicle, u8)> = units
            .iter()
            .map(|&(p, v, k)| (Vehicle { position: p, velocity: v, heading: Vec2::Y, length: 1.0 }, k))
            .collect();
        keyed.fill(vehicles.iter().map(|(v, k)| (v, *k)));
        keyed
    }

    /// Scans `units` in two runs split at `split` (chunks straddle the split and the end), and
    /// checks that the eight-lane scan, where the machine has it, adds up the same bit for bit.
    fn scan_split(viewer: &Viewer, units: &[(Vec2, Vec2, u8)], split: usize) -> Neighbourhood {
        let split = split.min(units.len());
        let (keyed, runs) = (keyed(units), [0..split, split..units.len()]);
        let got = viewer.scan(&keyed, runs.clone().into_iter());
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has both, checked just above.
            let wide = unsafe { viewer.scan_avx2(&keyed, runs.into_iter()) };
            assert_eq!(wide, got, "the eight-lane scan differs from the four-lane one");
        }
        got
    }

    proptest! {
        #[test]
        fn lanes_add_up_what_the_candidate_loop_does_in_any_order(
            units in prop::collection::vec(((-12.0f32..12.0, -12.0f32..12.0), (-3.0f32..3.0, -3.0f32..3.0), 0u8..2), 0..40),
            angle in 0.0f32..std::f32::consts::TAU,
            (view, sep_view, kind, electing, key) in (0u8..4, 0u8..3, 0u8..2, any::<bool>(), 0usize..45),
            (split, brake_floor, rotation) in (0usize..40, 0.2f32..1.2, 0usize..40),
        ) {
            let mut units: Vec<(Vec2, Vec2, u8)> =
                units.into_iter().map(|((x, y), (vx, vy), k)| (Vec2::new(x, y), Vec2::new(vx, vy), k)).collect();
            let params = FlockParams {
                view: (view < 3).then(|| mode(view)),
                separation_view: mode(sep_view),
                brake_floor,
                ..FlockParams::default()
            };
            let forward = Vec2::from_angle(angle);
            // The viewer is one of the units (key < len) or stands apart.
            let position = units.get(key).map_or(Vec2::new(0.5, -0.25), |u| u.0);
            let viewer = Viewer::new(key, position, forward, 1.0, kind, &params, electing, &keyed(&units));
            let got = scan_split(&viewer, &units, split);
            // Bit for bit: the lanes add what the loop adds.
            prop_assert_eq!(got, reference(&viewer, &params, &units));
            // And the order does not matter: the same candidates reversed and rotated (the
            // viewer's own key moving with it) give the same sums to the last bit.
            units.reverse();
            let n = units.len();
            if n > 0 {
                units.rotate_left(rotation % n);
            }
            let moved = if key < n { (n - 1 - key + n - rotation % n) % n } else { key };
            let viewer = Viewer { key: moved, ..viewer };
            prop_assert_eq!(scan_split(&viewer, &units, split), got);
        }
    }

    #[test]
    fn a_crowd_too_big_for_one_flush_adds_up_exactly() {
        // 2,000 units within a few lengths: hundreds of chunks in one run, so the `f32` lanes are
        // flushed into the `f64` totals several times over; the sums still equal the `f64` loop's.
        let units: Vec<(Vec2, Vec2, u8)> = (0..2000)
            .map(|i| {
                let a = i as f32 * 2.399_963;
                let r = (i as f32).sqrt() * 0.12;
                (Vec2::from_angle(a) * r, Vec2::from_angle(a * 3.0) * 5.9, 0)
            })
            .collect();
        let params = FlockParams::default();
        let viewer = Viewer::new(7, units[7].0, Vec2::Y, 1.0, 0, &params, true, &keyed(&units));
        let got = scan_split(&viewer, &units, 1234);
        assert_eq!(got, reference(&viewer, &params, &units));
        assert!(got.flockmates > 1000 && got.ahead > 100, "{got:?}");
        assert!(got.separation.abs() > 0.0 && got.offset_sum != Vec2::ZERO);
    }
}
