//! The condensation algorithm (000 §6.1.5, L344-501): from many candidate positions keep those
//! with high quality or far from others of the same kind.

use glam::{IVec2, Vec2};

use super::{Properties, Property};

/// A candidate position and its value for the property being condensed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    /// Where it is.
    pub position: Vec2,
    /// Its value for the property.
    pub value: f32,
}

/// Condenses `candidates`; returns the indices of the survivors, ascending.
///
/// Candidates compete in pairs closer than `neighbourhood` between which `can_move(a, b)` holds
/// (usually a line-of-sight test, so a wall keeps both sides). The weaker one is discarded when
/// the value difference exceeds the weighted distance: `w²·|Δpos|² < Δvalue²` (L460-484). A lower
/// `weight` leaves fewer waypoints, a higher one more (L347).
///
/// Candidates are processed from strongest to weakest, each competing against its neighbours from
/// weakest to strongest (L351), which removes the order dependence of Fig 6.9: the result does not
/// depend on the order of `candidates` (ties in value are broken by index). Neighbours are found
/// with a bucket grid of `neighbourhood`-sized cells, so the cost is about `O(n·k)` for `k`
/// candidates per neighbourhood. Candidates with a NaN value or position never survive.
pub fn condense(
    candidates: &[Candidate],
    weight: f32,
    neighbourhood: f32,
    mut can_move: impl FnMut(usize, usize) -> bool,
) -> Vec<usize> {
    let ok = |c: &Candidate| c.value.is_finite() && c.position.is_finite();
    let mut alive: Vec<bool> = candidates.iter().map(ok).collect();
    let r = if neighbourhood.is_finite() && neighbourhood > 0.0 { neighbourhood } else { 0.0 };
    let w2 = weight * weight;
    // Bucket grid for the neighbour search.
    let bucket = |p: Vec2| if r > 0.0 { (p / r).floor().as_ivec2() } else { IVec2::ZERO };
    let mut buckets: std::collections::BTreeMap<(i32, i32), Vec<usize>> = std::collections::BTreeMap::new();
    for (i, c) in candidates.iter().enumerate().filter(|&(i, _)| alive[i]) {
        let b = bucket(c.position);
        buckets.entry((b.x, b.y)).or_default().push(i);
    }
    // Strongest first; ties by index.
    let mut order: Vec<usize> = (0..candidates.len()).filter(|&i| alive[i]).collect();
    let key = |i: usize| (candidates[i].value, std::cmp::Reverse(i));
    order.sort_by(|&a, &b| key(b).partial_cmp(&key(a)).unwrap_or(std::cmp::Ordering::Equal));
    let rank: Vec<usize> = {
        let mut rank = vec![0; candidates.len()];
        for (pos, &i) in order.iter().enumerate() {
            rank[i] = pos;
        }
        rank
    };
    let mut nearby = Vec::new();
    for &current in &order {
        if !alive[current] {
            continue;
        }
        let c = candidates[current];
        let b = bucket(c.position);
        nearby.clear();
        for dy in -1..=1 {
            for dx in -1..=1 {
                if let Some(list) = buckets.get(&(b.x + dx, b.y + dy)) {
                    nearby.extend(
                        list.iter()
                            .copied()
                            .filter(|&j| j != current && alive[j] && candidates[j].position.distance(c.position) <= r),
                    );
                }
            }
        }
        // Weakest first: the reverse of the global order.
        nearby.sort_by_key(|&j| std::cmp::Reverse(rank[j]));
        for &target in &nearby {
            // Stronger neighbours were (or will be) compared when they were current.
            if rank[target] < rank[current] {
                break;
            }
            if !can_move(current, target) {
                continue;
            }
            let t = candidates[target];
            let dv = c.value - t.value;
            if w2 * c.position.distance_squared(t.position) < dv * dv {
                alive[target] = false;
            }
        }
    }
    (0..candidates.len()).filter(|&i| alive[i]).collect()
}

/// Condenses each property separately (a good cover point is not discarded because a good ambush
/// point is near, L352) and returns the union of the survivors, ascending. Positions scoring below
/// `thresholds` on a property do not take part in that property's condensation.
pub fn condense_by_property(
    positions: &[(IVec2, Properties)],
    thresholds: &Properties,
    weight: f32,
    neighbourhood: f32,
    mut can_move: impl FnMut(IVec2, IVec2) -> bool,
) -> Vec<usize> {
    let mut keep = vec![false; positions.len()];
    for p in Property::ALL {
        // Exposure is a quality to avoid: it is never a reason to keep a waypoint.
        if p == Property::Exposure {
            continue;
        }
        let members: Vec<usize> = (0..positions.len())
            .filter(|&i| positions[i].1.get(p) > 0.0 && positions[i].1.get(p) >= thresholds.get(p))
            .collect();
        let cands: Vec<Candidate> = members
            .iter()
            .map(|&i| Candidate { position: positions[i].0.as_vec2(), value: positions[i].1.get(p) })
            .collect();
        for k in
            condense(&cands, weight, neighbourhood, |a, b| can_move(positions[members[a]].0, positions[members[b]].0))
        {
            keep[members[k]] = true;
        }
    }
    (0..positions.len()).filter(|&i| keep[i]).collect()
}
