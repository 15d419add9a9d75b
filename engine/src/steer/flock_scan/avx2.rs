//! The scan of [`Viewer::scan`] eight candidates at a time, for x86-64 machines with AVX2.
//!
//! A run of candidates (one row of hash cells) holds about seven units in a flock of the usual
//! density, so four lanes took two chunks per run where eight take one or two; a unit's three
//! runs cost about four chunks instead of seven. Every lane computes exactly what a lane of the
//! four-lane chunk computes, with the same operations in the same order and no fused
//! multiply-adds, and the sums are fixed-point (exact in any order), so the two scans return
//! the same [`Neighbourhood`] bit for bit: a test holds them to it. Lanes outside the run and
//! the viewer's own key are masked by comparing key numbers, without branches.

use std::arch::x86_64::*;
use std::ops::Range;

use glam::Vec4;

use super::{FLUSH_EVERY, Keyed, Neighbourhood, ROUNDER, Sums, ViewTest, Viewer};

/// Lanes of one chunk.
const WIDE: usize = 8;
/// Chunks between flushes: a chunk adds at most one term to a lane, and folding the eight lanes
/// into four adds two lanes' terms, so 64 chunks fold into lanes of at most [`FLUSH_EVERY`].
const WIDE_FLUSH_EVERY: u32 = FLUSH_EVERY / 2;

/// The running sums of one scan, eight lanes wide (see [`Sums`]).
struct WideSums {
    lanes: [__m256; 5],
    pending: u32,
    throttle: __m256,
    nearest2: __m256,
    count: u32,
    ahead: u32,
}

/// A view test on eight lanes (see [`ViewTest::sees`]).
#[inline(always)]
unsafe fn sees(view: &ViewTest, awx: __m256, wy: __m256, ahead: __m256) -> __m256 {
    unsafe {
        let mut seen = ahead;
        if view.narrow {
            seen = _mm256_and_ps(seen, _mm256_cmp_ps::<_CMP_LT_OQ>(awx, _mm256_mul_ps(wy, _mm256_set1_ps(view.front))));
        }
        if view.wide {
            let behind = _mm256_cmp_ps::<_CMP_LT_OQ>(wy, _mm256_setzero_ps());
            let neg_wy = _mm256_xor_ps(wy, _mm256_set1_ps(-0.0));
            let wedge = _mm256_cmp_ps::<_CMP_GT_OQ>(awx, _mm256_mul_ps(neg_wy, _mm256_set1_ps(view.back)));
            seen = _mm256_or_ps(seen, _mm256_and_ps(behind, wedge));
        }
        seen
    }
}

/// The lanes of `v` (already scaled to steps) that `keep` selects, as whole numbers of steps.
#[inline(always)]
unsafe fn steps(keep: __m256, v: __m256) -> __m256 {
    unsafe {
        let r = _mm256_set1_ps(ROUNDER);
        _mm256_and_ps(keep, _mm256_sub_ps(_mm256_add_ps(v, r), r))
    }
}

/// `v[start .. start + 8]`.
///
/// # Safety
/// AVX2, and `start + 8 <= v.len()`.
#[inline(always)]
unsafe fn load(v: &[f32], start: usize) -> __m256 {
    debug_assert!(start + WIDE <= v.len());
    unsafe { _mm256_loadu_ps(v.as_ptr().add(start)) }
}

/// The set lanes of a mask.
#[inline(always)]
unsafe fn count(mask: __m256) -> u32 {
    unsafe { (_mm256_movemask_ps(mask) as u32).count_ones() }
}

/// Four lanes: the low half plus the high half of `v` (exact for whole numbers below 2²³).
#[inline(always)]
unsafe fn fold(v: __m256) -> Vec4 {
    unsafe { Vec4::from(_mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v))) }
}

/// The lane-wise minimum of the halves of `v`.
#[inline(always)]
unsafe fn fold_min(v: __m256) -> Vec4 {
    unsafe { Vec4::from(_mm_min_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps::<1>(v))) }
}

impl WideSums {
    /// Folds the eight-lane sums into the four lanes of `sums` (whose lanes are empty: they
    /// were flushed, or never used) and empties them.
    #[inline(always)]
    unsafe fn fold_into(&mut self, sums: &mut Sums) {
        for (four, eight) in sums.lanes.iter_mut().zip(&mut self.lanes) {
            // SAFETY: the caller's (AVX2).
            unsafe {
                *four = fold(*eight);
                *eight = _mm256_setzero_ps();
            }
        }
        sums.pending = 2 * self.pending;
        self.pending = 0;
    }
}

impl Viewer {
    /// [`Viewer::scan`], eight lanes at a time.
    ///
    /// # Safety
    /// The CPU must have AVX2 and POPCNT.
    #[target_feature(enable = "avx2,popcnt")]
    #[inline(never)]
    pub(in crate::steer) unsafe fn scan_avx2(
        &self,
        keyed: &Keyed,
        runs: impl Iterator<Item = Range<usize>>,
    ) -> Neighbourhood {
        let mut sums = Sums::new();
        let mut wide = WideSums {
            lanes: [_mm256_setzero_ps(); 5],
            pending: 0,
            throttle: _mm256_set1_ps(1.0),
            nearest2: _mm256_set1_ps(f32::INFINITY),
            count: 0,
            ahead: 0,
        };
        // Every chunk starts below the number of keys, and the arrays hold `PADDING` (8) more
        // entries: whole chunks never read past them.
        let keys = keyed.x.len().saturating_sub(super::PADDING);
        let me = _mm256_set1_epi32(self.key.min(i32::MAX as usize) as i32);
        let iota = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
        for run in runs {
            let end = run.end.min(keys);
            let last = _mm256_set1_epi32(end as i32);
            let mut k = run.start;
            while k < end {
                let key = _mm256_add_epi32(_mm256_set1_epi32(k as i32), iota);
                // In the run (key < end) and not the viewer itself.
                let lanes = _mm256_andnot_si256(_mm256_cmpeq_epi32(key, me), _mm256_cmpgt_epi32(last, key));
                // SAFETY: k < end ≤ keys, so k + 8 ≤ the arrays' length.
                unsafe { self.wide_chunk(keyed, k, _mm256_castsi256_ps(lanes), &mut wide, &mut sums) };
                k += WIDE;
            }
        }
        // SAFETY (these and the chunks): this function's target features.
        unsafe {
            wide.fold_into(&mut sums);
            sums.throttle = fold_min(wide.throttle);
            sums.nearest2 = fold_min(wide.nearest2);
        }
        sums.count = wide.count;
        sums.ahead = wide.ahead;
        sums.finish(self)
    }

    /// [`Viewer::chunk`] for candidates `start .. start + 8`, those in `lanes` only.
    ///
    /// # Safety
    /// AVX2 and POPCNT, and `start + 8` within `keyed`'s arrays.
    #[inline(always)]
    unsafe fn wide_chunk(&self, keyed: &Keyed, start: usize, lanes: __m256, wide: &mut WideSums, sums: &mut Sums) {
        unsafe {
            let dx = _mm256_sub_ps(load(&keyed.x, start), _mm256_set1_ps(self.position.x));
            let dy = _mm256_sub_ps(load(&keyed.y, start), _mm256_set1_ps(self.position.y));
            let d2 = _mm256_add_ps(_mm256_mul_ps(dx, dx), _mm256_mul_ps(dy, dy));
            let counts = _mm256_and_ps(_mm256_cmp_ps::<_CMP_LE_OQ>(d2, _mm256_set1_ps(self.reach2)), lanes);
            if _mm256_testz_ps(counts, counts) != 0 {
                return;
            }
            if wide.pending == WIDE_FLUSH_EVERY {
                wide.fold_into(sums);
                sums.flush();
            }
            wide.pending += 1;
            wide.nearest2 = _mm256_min_ps(wide.nearest2, _mm256_blendv_ps(_mm256_set1_ps(f32::INFINITY), d2, counts));
            let wx = _mm256_add_ps(
                _mm256_mul_ps(dx, _mm256_set1_ps(self.right.x)),
                _mm256_mul_ps(dy, _mm256_set1_ps(self.right.y)),
            );
            let wy = _mm256_add_ps(
                _mm256_mul_ps(dx, _mm256_set1_ps(self.forward.x)),
                _mm256_mul_ps(dy, _mm256_set1_ps(self.forward.y)),
            );
            let awx = _mm256_andnot_ps(_mm256_set1_ps(-0.0), wx);
            let in_front = _mm256_cmp_ps::<_CMP_GT_OQ>(wy, _mm256_setzero_ps());
            if self.electing {
                let narrow = _mm256_cmp_ps::<_CMP_LE_OQ>(d2, _mm256_set1_ps(self.narrow2));
                let cone = _mm256_cmp_ps::<_CMP_LT_OQ>(awx, _mm256_mul_ps(wy, _mm256_set1_ps(self.front_factor)));
                wide.ahead += count(_mm256_and_ps(_mm256_and_ps(counts, narrow), _mm256_and_ps(in_front, cone)));
            }
            let mut seen = None;
            if let Some(view) = &self.view {
                let in_view = sees(view, awx, wy, in_front);
                seen = Some(in_view);
                let kind = _mm256_cmp_ps::<_CMP_EQ_OQ>(load(&keyed.kind, start), _mm256_set1_ps(self.kind));
                let close = _mm256_cmp_ps::<_CMP_LE_OQ>(d2, _mm256_set1_ps(self.view2));
                let mate = _mm256_and_ps(_mm256_and_ps(counts, close), _mm256_and_ps(kind, in_view));
                let l = &mut wide.lanes;
                l[0] = _mm256_add_ps(l[0], steps(mate, _mm256_mul_ps(dx, _mm256_set1_ps(self.offset_scale))));
                l[1] = _mm256_add_ps(l[1], steps(mate, _mm256_mul_ps(dy, _mm256_set1_ps(self.offset_scale))));
                l[2] = _mm256_add_ps(l[2], _mm256_and_ps(mate, load(&keyed.vx_steps, start)));
                l[3] = _mm256_add_ps(l[3], _mm256_and_ps(mate, load(&keyed.vy_steps, start)));
                wide.count += count(mate);
            }
            let in_view = match seen {
                Some(in_view) if self.same_view => in_view,
                _ => sees(&self.separation_view, awx, wy, in_front),
            };
            let near = _mm256_and_ps(
                _mm256_and_ps(counts, _mm256_cmp_ps::<_CMP_LE_OQ>(d2, _mm256_set1_ps(self.sep2))),
                in_view,
            );
            if _mm256_testz_ps(near, near) != 0 {
                return;
            }
            let dist = _mm256_sqrt_ps(d2);
            let side = _mm256_blendv_ps(
                _mm256_set1_ps(1.0),
                _mm256_set1_ps(-1.0),
                _mm256_cmp_ps::<_CMP_GT_OQ>(wx, _mm256_setzero_ps()),
            );
            let closest = _mm256_set1_ps((self.sep_radius * 0.01).max(f32::MIN_POSITIVE));
            let push = _mm256_mul_ps(
                side,
                _mm256_div_ps(_mm256_set1_ps(self.separation_force * self.sep_radius), _mm256_max_ps(dist, closest)),
            );
            wide.lanes[4] =
                _mm256_add_ps(wide.lanes[4], steps(near, _mm256_mul_ps(push, _mm256_set1_ps(self.push_scale))));
            if self.brake_floor < 1.0 {
                let ahead_close = _mm256_cmp_ps::<_CMP_LT_OQ>(awx, _mm256_set1_ps(self.length));
                let behind = _mm256_and_ps(_mm256_and_ps(near, in_front), ahead_close);
                let t = _mm256_add_ps(
                    _mm256_set1_ps(self.brake_floor),
                    _mm256_mul_ps(
                        _mm256_set1_ps(1.0 - self.brake_floor),
                        _mm256_div_ps(dist, _mm256_set1_ps(self.sep_radius)),
                    ),
                );
                wide.throttle = _mm256_min_ps(wide.throttle, _mm256_blendv_ps(_mm256_set1_ps(1.0), t, behind));
            }
        }
    }
}
