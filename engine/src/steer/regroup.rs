//! Regrouping (ours, not the book's): the parts of a flock that have lost sight of the rest steer
//! back to it.
//!
//! The book's rules are local, so nothing in them brings back a part of a flock that has gone
//! round the other side of an obstacle: each part keeps flocking, and with leaders chasing a
//! quarry, each part elects its own. The book says as much (wide views "tend to split and pass
//! on both sides, sometimes regrouping quickly, sometimes not", 002a L2188). [`Regroup`] finds
//! the flock's parts: units of the same kind linked within the link distance (shorter than the
//! view, so a part turns back while the rest is still in sight). The largest part of each kind
//! is the flock; every unit of a smaller part is given a point to steer to: the member of the
//! flock nearest its part's centre. A whole part then turns back together, toward the near edge
//! of the flock, rather than each unit toward a centre that may lie beyond an obstacle. While a
//! kind has such stragglers, its flock is marked as waiting (the flock slows down for them:
//! `FlockParams::regroup_wait`).
//!
//! Every step is independent of the order units are visited in (parts are sets; the tie-breaks
//! go by unit index), so the result is the same from any neighbour source.

use glam::Vec2;

use super::spatial_hash::SpatialHash;

/// The parts of a flock and where the stragglers head.
#[derive(Debug, Clone, Default)]
pub(super) struct Regroup {
    /// Union-find forest over the units.
    parent: Vec<u32>,
    /// Per unit: where to steer to rejoin (non-finite: in the flock already).
    target: Vec<Vec2>,
    /// Per unit: whether its kind's flock has stragglers.
    waiting: Vec<bool>,
    hash: Option<SpatialHash>,
}

impl Regroup {
    /// Finds the parts of the units at `positions` (of kinds `kinds`) linked within `link`, and
    /// each straggler's target. Costs a neighbour query per unit and, for each smaller part, a
    /// pass over the flock's members: meant for flocks of tens to a few thousand.
    pub(super) fn update(&mut self, positions: &[Vec2], kinds: &[u8], link: f32) {
        let n = positions.len();
        self.target.clear();
        self.target.resize(n, Vec2::NAN);
        self.waiting.clear();
        self.waiting.resize(n, false);
        if n < 2 || !(link.is_finite() && link > 0.0) {
            return;
        }
        self.parent.clear();
        self.parent.extend(0..n as u32);
        let hash = self.hash.get_or_insert_with(|| SpatialHash::new(link));
        if hash.cell_size() != link {
            *hash = SpatialHash::new(link);
        }
        hash.rebuild(positions);
        let parent = &mut self.parent;
        let kind_of = |i: usize| kinds.get(i).copied().unwrap_or(0);
        for (i, &p) in positions.iter().enumerate() {
            hash.for_each_within(p, link, |j, _| {
                if j as usize > i && kind_of(j as usize) == kind_of(i) {
                    union(parent, i, j as usize);
                }
            });
        }
        // Each part's size, sum of positions and lowest member; the flock of each kind is its
        // largest part (ties: the part with the lowest unit index).
        let mut size = vec![0u32; n];
        let mut sum = vec![Vec2::ZERO; n];
        for (i, &p) in positions.iter().enumerate() {
            let r = find(parent, i);
            size[r] += 1;
            if p.is_finite() {
                sum[r] += p;
            }
        }
        let mut main: Vec<(u8, usize)> = Vec::new();
        for i in 0..n {
            let (r, kind) = (find(parent, i), kind_of(i));
            match main.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, m)) if size[r] > size[*m] => *m = r,
                Some(_) => {}
                None => main.push((kind, r)),
            }
        }
        // For each smaller part, the flock's member nearest its centre (ties: lowest index).
        let mut part_target = vec![Vec2::NAN; n];
        for i in 0..n {
            let (r, kind) = (find(parent, i), kind_of(i));
            let flock = main.iter().find(|(k, _)| *k == kind).map(|&(_, m)| m);
            if flock == Some(r) || part_target[r].is_finite() {
                continue;
            }
            let centre = sum[r] / size[r] as f32;
            let mut best = (f32::INFINITY, Vec2::NAN);
            for (j, &q) in positions.iter().enumerate() {
                if Some(find(parent, j)) == flock && q.distance_squared(centre) < best.0 {
                    best = (q.distance_squared(centre), q);
                }
            }
            part_target[r] = best.1;
        }
        let mut kinds_waiting: Vec<u8> = Vec::new();
        for i in 0..n {
            self.target[i] = part_target[find(&mut self.parent, i)];
            if self.target[i].is_finite() {
                kinds_waiting.push(kind_of(i));
            }
        }
        for (i, waiting) in self.waiting.iter_mut().enumerate() {
            *waiting = kinds_waiting.contains(&kind_of(i));
        }
    }

    /// Whether unit `i`'s kind has stragglers.
    pub(super) fn waiting(&self, i: usize) -> bool {
        self.waiting.get(i).copied().unwrap_or(false)
    }

    /// Where unit `i` should steer to rejoin its flock, if it is apart from it.
    pub(super) fn target(&self, i: usize) -> Option<Vec2> {
        self.target.get(i).copied().filter(|t| t.is_finite())
    }
}

fn find(parent: &mut [u32], mut i: usize) -> usize {
    while parent[i] as usize != i {
        // Path halving.
        parent[i] = parent[parent[i] as usize];
        i = parent[i] as usize;
    }
    i
}

fn union(parent: &mut [u32], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    // The lower root wins, so the forest does not depend on the order of the unions' roots.
    if ra != rb {
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        parent[hi] = lo as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stragglers_head_for_the_nearest_member_of_the_largest_part() {
        // A part of three at x ≈ 0, a part of two at x ≈ 20, a lone unit at x = 40, and a unit of
        // another kind alone at x = 60 (the largest, and only, part of its kind).
        let positions = [
            Vec2::new(0.0, 0.0),
            Vec2::new(20.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(21.0, 1.0),
            Vec2::new(4.0, 0.0),
            Vec2::new(40.0, 0.0),
            Vec2::new(60.0, 0.0),
        ];
        let kinds = [0, 0, 0, 0, 0, 0, 1];
        let mut r = Regroup::default();
        r.update(&positions, &kinds, 3.0);
        for i in [0, 2, 4, 6] {
            assert_eq!(r.target(i), None, "unit {i} is in its flock");
        }
        // The pair's centre is (20.5, 0.5); the flock's nearest member to it is at x = 4.
        assert_eq!(r.target(1), Some(Vec2::new(4.0, 0.0)));
        assert_eq!(r.target(3), Some(Vec2::new(4.0, 0.0)));
        assert_eq!(r.target(5), Some(Vec2::new(4.0, 0.0)));
        // Kind 0 has stragglers, so its whole flock waits; kind 1's lone unit is its flock.
        assert_eq!((0..7).map(|i| r.waiting(i)).collect::<Vec<_>>(), [true, true, true, true, true, true, false]);
        // The same parts and targets whatever order the units come in.
        let order = [5, 3, 6, 0, 4, 1, 2];
        let shuffled: Vec<Vec2> = order.iter().map(|&i| positions[i]).collect();
        let shuffled_kinds: Vec<u8> = order.iter().map(|&i| kinds[i]).collect();
        let mut s = Regroup::default();
        s.update(&shuffled, &shuffled_kinds, 3.0);
        for (k, &i) in order.iter().enumerate() {
            assert_eq!(s.target(k), r.target(i), "unit {i}");
        }
    }

    #[test]
    fn one_part_or_nothing_to_link_gives_no_targets() {
        let mut r = Regroup::default();
        r.update(&[Vec2::ZERO, Vec2::X], &[0, 0], 2.0);
        assert_eq!((r.target(0), r.target(1)), (None, None));
        assert!(!r.waiting(0) && !r.waiting(1), "one part: nobody waits");
        r.update(&[Vec2::ZERO, Vec2::X * 10.0], &[0, 0], 2.0);
        assert!(r.waiting(0) && r.waiting(1), "two parts of one unit each: the flock waits");
        r.update(&[Vec2::ZERO, Vec2::X * 10.0], &[0, 0], f32::NAN);
        assert_eq!((r.target(0), r.target(1)), (None, None));
        assert!(!r.waiting(0), "nothing to link: the last update's waiting is gone");
        r.update(&[Vec2::NAN, Vec2::ZERO, Vec2::X], &[0, 0, 0], 2.0);
        assert_eq!(r.target(1), None);
        assert_eq!(r.target(7), None);
    }
}
