//! The inner loop of a flock's decision pass: one unit against a run of candidate neighbours,
//! four candidates at a time.
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
//! The tests and forces are computed four lanes at a time; the sums then take the selected lanes
//! in candidate order, exactly as the candidate-by-candidate loop added them. The results are
//! bit-for-bit those of that loop, which matters more than it seems: a flock is chaotic, and a
//! change in the last bit of one sum (as lane-wise partial sums give) sends it on a different
//! trajectory after a few hundred ticks.

use std::ops::Range;

use glam::{BVec4A, Vec2, Vec4};

use super::body::Vehicle;
use super::flock::{ViewMode, ViewParams};

/// Candidates processed together: one `Vec4` (SSE2 on x86-64, NEON on ARM, plain floats elsewhere).
pub(super) const LANES: usize = 4;
/// Per-unit data in the neighbour source's key order, padded with [`LANES`] unreachable entries
/// so any run can be read in whole chunks of eight.
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
}

impl Keyed {
    /// Refills from `(unit, kind)` in key order.
    pub(super) fn fill<'a>(&mut self, units: impl ExactSizeIterator<Item = (&'a Vehicle, u8)>) {
        let n = units.len() + LANES;
        for v in [&mut self.x, &mut self.y, &mut self.vx, &mut self.vy, &mut self.kind, &mut self.hx, &mut self.hy] {
            v.clear();
            v.reserve(n);
        }
        self.length.clear();
        self.length.reserve(n);
        for (u, k) in units {
            self.x.push(u.position.x);
            self.y.push(u.position.y);
            self.vx.push(u.velocity.x);
            self.vy.push(u.velocity.y);
            self.kind.push(f32::from(k));
            self.hx.push(u.heading.x);
            self.hy.push(u.heading.y);
            self.length.push(u.length);
        }
        // Padding: never in reach (the lane mask also cuts it off by key).
        for _ in 0..LANES {
            self.x.push(f32::INFINITY);
            self.y.push(f32::INFINITY);
            for v in [&mut self.vx, &mut self.vy, &mut self.hx, &mut self.hy, &mut self.length] {
                v.push(0.0);
            }
            self.kind.push(-1.0);
        }
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
#[derive(Debug, Clone, Copy)]
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
    front_factor: f32,
    separation_force: f32,
    brake_floor: f32,
}

/// What a unit's neighbours add up to.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Neighbourhood {
    /// Sum of the positions and velocities of the flockmates in view (same kind, view radius).
    pub position_sum: Vec2,
    pub velocity_sum: Vec2,
    pub flockmates: u32,
    /// Units in the narrow front cone within the narrow radius (counted only when electing).
    pub ahead: u32,
    /// The separation forces' sum.
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
pub(super) struct Sums {
    position: Vec2,
    velocity: Vec2,
    count: u32,
    ahead: u32,
    force: f32,
    throttle: Vec4,
    nearest2: Vec4,
}

impl Sums {
    pub(super) fn new() -> Self {
        Sums {
            position: Vec2::ZERO,
            velocity: Vec2::ZERO,
            count: 0,
            ahead: 0,
            force: 0.0,
            throttle: Vec4::ONE,
            nearest2: Vec4::INFINITY,
        }
    }

    pub(super) fn finish(self) -> Neighbourhood {
        Neighbourhood {
            position_sum: self.position,
            velocity_sum: self.velocity,
            flockmates: self.count,
            ahead: self.ahead,
            separation: self.force,
            throttle: self.throttle.min_element().min(1.0),
            nearest2: self.nearest2.min_element(),
        }
    }
}

/// The set lanes of a mask, lowest first.
fn lanes_of(mask: BVec4A) -> impl Iterator<Item = usize> {
    let mut bits = mask.bitmask();
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let l = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            l
        })
    })
}

impl Viewer {
    /// The viewer for a unit at `position` facing `forward` (a unit vector), `length` long.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        key: usize,
        position: Vec2,
        forward: Vec2,
        length: f32,
        kind: u8,
        params: &super::FlockParams,
        electing: bool,
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
            front_factor: vp.front_angle_factor,
            separation_force: params.separation,
            brake_floor: params.brake_floor,
        }
    }

    /// How far candidates are looked for.
    pub(super) fn reach(&self) -> f32 {
        self.reach2.sqrt()
    }

    /// Adds up the candidates of every run `runs` calls back with.
    #[cfg(test)]
    pub(super) fn scan(&self, keyed: &Keyed, runs: impl FnOnce(&mut dyn FnMut(Range<usize>))) -> Neighbourhood {
        let mut sums = Sums::new();
        runs(&mut |run: Range<usize>| self.scan_run(keyed, run, &mut sums));
        sums.finish()
    }

    /// Adds the candidates with keys in `run` to `sums`.
    #[inline]
    pub(super) fn scan_run(&self, keyed: &Keyed, run: Range<usize>, sums: &mut Sums) {
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
        if let Some(view) = &self.view {
            let kind = Vec4::from_slice(&keyed.kind[start..start + LANES]);
            let mate = counts
                & d2.cmple(Vec4::splat(self.view2))
                & kind.cmpeq(Vec4::splat(self.kind))
                & view.sees(awx, wy, in_front);
            // In candidate order, adding +0 for the others: the same sums as adding the mates
            // alone (a sum that starts at +0 never becomes −0), without a branch per mate.
            let vx = Vec4::from_slice(&keyed.vx[start..start + LANES]);
            let vy = Vec4::from_slice(&keyed.vy[start..start + LANES]);
            let pick = |v: Vec4| Vec4::select(mate, v, Vec4::ZERO).to_array();
            let (px, py, vx, vy) = (pick(x), pick(y), pick(vx), pick(vy));
            for l in 0..LANES {
                sums.position += Vec2::new(px[l], py[l]);
                sums.velocity += Vec2::new(vx[l], vy[l]);
            }
            sums.count += mate.bitmask().count_ones();
        }
        let near = counts & d2.cmple(Vec4::splat(self.sep2)) & self.separation_view.sees(awx, wy, in_front);
        // Most runs of four hold nobody that close.
        if !near.any() {
            return;
        }
        // Separation (Ex. 4-10, `flock::separation_force`): S · threshold / distance, away from
        // the neighbour's side.
        let dist = d2.sqrt();
        let side = Vec4::select(wx.cmpgt(Vec4::ZERO), Vec4::NEG_ONE, Vec4::ONE);
        let push = side * (self.separation_force * self.sep_radius / dist.max(Vec4::splat(self.sep_radius * 0.01)));
        let push = push.to_array();
        for l in lanes_of(near) {
            sums.force += push[l];
        }
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
    /// `flock`.
    fn reference(viewer: &Viewer, params: &FlockParams, units: &[(Vec2, Vec2, u8)]) -> Neighbourhood {
        let vp = &params.view_params;
        let mut n = Neighbourhood {
            position_sum: Vec2::ZERO,
            velocity_sum: Vec2::ZERO,
            flockmates: 0,
            ahead: 0,
            separation: 0.0,
            throttle: 1.0,
            nearest2: f32::INFINITY,
        };
        for (j, &(pos, vel, kind)) in units.iter().enumerate() {
            let d = pos - viewer.position;
            let d2 = d.length_squared();
            if d2 > viewer.reach2 || j == viewer.key {
                continue;
            }
            n.nearest2 = n.nearest2.min(d2);
            let w = Vec2::new(d.dot(viewer.right), d.dot(viewer.forward));
            if viewer.electing && d2 <= viewer.narrow2 && in_front_cone(w, vp.front_angle_factor) {
                n.ahead += 1;
            }
            if d2 <= viewer.view2 && f32::from(kind) == viewer.kind && params.view.is_some_and(|m| in_view(m, w, vp)) {
                n.position_sum += pos;
                n.velocity_sum += vel;
                n.flockmates += 1;
            }
            if d2 <= viewer.sep2 && in_view(params.separation_view, w, vp) {
                let dist = d2.sqrt();
                n.separation += separation_force(w, dist, viewer.sep_radius, params.separation);
                if w.y > 0.0 && w.x.abs() < viewer.length && params.brake_floor < 1.0 {
                    n.throttle =
                        n.throttle.min(params.brake_floor + (1.0 - params.brake_floor) * (dist / viewer.sep_radius));
                }
            }
        }
        n
    }

    fn mode(k: u8) -> ViewMode {
        [ViewMode::Wide, ViewMode::Limited, ViewMode::Narrow][usize::from(k % 3)]
    }

    proptest! {
        #[test]
        fn lanes_add_up_what_the_candidate_loop_does(
            units in prop::collection::vec(((-12.0f32..12.0, -12.0f32..12.0), (-3.0f32..3.0, -3.0f32..3.0), 0u8..2), 0..40),
            angle in 0.0f32..std::f32::consts::TAU,
            (view, sep_view, kind, electing, key) in (0u8..4, 0u8..3, 0u8..2, any::<bool>(), 0usize..45),
            (split, brake_floor) in (0usize..40, 0.2f32..1.2),
        ) {
            let units: Vec<(Vec2, Vec2, u8)> =
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
            let viewer = Viewer::new(key, position, forward, 1.0, kind, &params, electing);
            let mut keyed = Keyed::default();
            let vehicles: Vec<(Vehicle, u8)> =
                units.iter().map(|&(p, v, k)| (Vehicle { position: p, velocity: v, heading: Vec2::Y, length: 1.0 }, k)).collect();
            keyed.fill(vehicles.iter().map(|(v, k)| (v, *k)));
            // Two runs, split anywhere: chunks straddle the split and the end.
            let split = split.min(units.len());
            let got = viewer.scan(&keyed, |run| {
                run(0..split);
                run(split..units.len());
            });
            let want = reference(&viewer, &params, &units);
            // Bit for bit: the lanes add what the loop adds, in the loop's order.
            prop_assert_eq!(got, want);
        }
    }
}
