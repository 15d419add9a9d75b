//! Map flooding: territory by strongest (or nearest) source, a Dijkstra variant that grows each
//! source's region outwards until a stronger neighbour or the threshold stops it (000 §6.2.6).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::IVec2;

use super::falloff::Falloff;
use super::layer::Layer;
use crate::grid::Map;

/// A city, base or unit whose region is flooded out from its cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FloodSource {
    /// Where it stands.
    pub cell: IVec2,
    /// Its strength at its own cell.
    pub strength: f32,
    /// Its maximum reach in walking distance (`f32::INFINITY` for none: the threshold then ends
    /// the region, so a stronger source reaches further, L716).
    pub radius: f32,
    /// How its strength fades with the distance walked from it.
    pub falloff: Falloff,
}

/// Which cells count as neighbours when flooding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Connectivity {
    /// Up, down, left, right, each one step long.
    Four,
    /// Also the diagonals, √2 long; a diagonal step may not cut a blocked corner.
    #[default]
    Eight,
}

/// The result of a flood: per cell the owning source (its index in the input) and its strength.
#[derive(Debug, Clone, PartialEq)]
pub struct Territory {
    /// The owning source's index per cell (row-major), `None` outside every region.
    pub owner: Vec<Option<u32>>,
    /// The owner's strength per cell; zero where there is no owner.
    pub strength: Layer,
}

impl Territory {
    /// The owning source of `cell`.
    pub fn owner_at(&self, cell: IVec2) -> Option<u32> {
        self.strength.index(cell).and_then(|i| self.owner[i])
    }
}

/// An open-list entry; the heap pops the largest strength first (the chapter's `largestElement`),
/// breaking ties by the lower source index and then the lower cell index so that runs are
/// deterministic.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Open {
    strength: f32,
    source: u32,
    cell: u32,
    dist: f64,
}

impl Eq for Open {}
impl Ord for Open {
    fn cmp(&self, o: &Self) -> Ordering {
        self.strength.total_cmp(&o.strength).then(o.source.cmp(&self.source)).then(o.cell.cmp(&self.cell))
    }
}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Whether `a` beats `b` for a cell: higher strength, or equal strength and a lower source index.
fn beats(a: (f32, u32), b: (f32, Option<u32>)) -> bool {
    match b.1 {
        None => true,
        Some(bs) => a.0 > b.0 || (a.0 == b.0 && a.1 < bs),
    }
}

/// Floods the passable cells of `map` from `sources`.
///
/// Each source's strength at a cell is its falloff applied to the shortest walking distance from
/// the source **through cells it owns**; the strongest source wins a cell (ties go to the lower
/// index), and a region never extends where its strength would fall below `threshold`. Regions
/// are therefore contiguous. As the chapter requires (L724), a closed cell can still be taken over
/// by a stronger source and is then re-opened.
///
/// Sources on blocked or off-map cells, and those weaker than the threshold, own nothing.
/// Time `O(n log n)` for `n` owned cells with strictly decreasing falloffs; memory `O(cells)`.
pub fn flood(map: &Map, sources: &[FloodSource], threshold: f32, neighbours: Connectivity) -> Territory {
    let (w, h) = (map.width(), map.height());
    let n = w as usize * h as usize;
    let mut owner: Vec<Option<u32>> = vec![None; n];
    let mut strength = Layer::new(w, h);
    let mut dist = vec![0.0f64; n];
    let mut open = BinaryHeap::new();
    for (k, s) in sources.iter().enumerate() {
        let Some(i) = map.index(s.cell) else { continue };
        let v = s.falloff.at(s.strength, s.radius, 0.0);
        if !map.passable(s.cell)
            || v.is_nan()
            || v < threshold
            || !beats((v, k as u32), (strength.values()[i], owner[i]))
        {
            continue;
        }
        owner[i] = Some(k as u32);
        strength.values_mut()[i] = v;
        dist[i] = 0.0;
        open.push(Open { strength: v, source: k as u32, cell: i as u32, dist: 0.0 });
    }
    let steps: &[(i32, i32, f64)] = match neighbours {
        Connectivity::Four => &[(1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0)],
        Connectivity::Eight => &[
            (1, 0, 1.0),
            (-1, 0, 1.0),
            (0, 1, 1.0),
            (0, -1, 1.0),
            (1, 1, std::f64::consts::SQRT_2),
            (1, -1, std::f64::consts::SQRT_2),
            (-1, 1, std::f64::consts::SQRT_2),
            (-1, -1, std::f64::consts::SQRT_2),
        ],
    };
    while let Some(cur) = open.pop() {
        let i = cur.cell as usize;
        // Stale entry: the cell has since been taken over or reached by a shorter walk.
        if owner[i] != Some(cur.source) || strength.values()[i] != cur.strength || dist[i] != cur.dist {
            continue;
        }
        let c = map.cell_at(i);
        let src = &sources[cur.source as usize];
        for &(dx, dy, len) in steps {
            let nb = c + IVec2::new(dx, dy);
            if !map.passable(nb)
                || (dx != 0 && dy != 0 && !(map.passable(c + IVec2::new(dx, 0)) && map.passable(c + IVec2::new(0, dy))))
            {
                continue;
            }
            let j = map.index(nb).unwrap_or(i);
            let d = cur.dist + len;
            let v = src.falloff.at(src.strength, src.radius, d as f32);
            if v.is_nan() || v < threshold {
                continue;
            }
            let better = beats((v, cur.source), (strength.values()[j], owner[j]))
                || (owner[j] == Some(cur.source) && strength.values()[j] == v && d < dist[j]);
            if !better {
                continue;
            }
            owner[j] = Some(cur.source);
            strength.values_mut()[j] = v;
            dist[j] = d;
            open.push(Open { strength: v, source: cur.source, cell: j as u32, dist: d });
        }
    }
    Territory { owner, strength }
}

/// Dirichlet domains on the tile map: every reachable cell goes to the source nearest by walking
/// distance (ties to the lower index, up to float rounding) — [`flood`] with equal strengths and
/// a linear falloff whose radius exceeds any walk, the basic case the chapter starts from (L712).
pub fn nearest_territory(map: &Map, cells: &[IVec2], neighbours: Connectivity) -> Territory {
    // No walk is longer than 1.5 × the number of cells; a power of two keeps `d / radius` exact.
    let radius = ((map.len() as f32 * 1.5) + 2.0).log2().ceil().exp2();
    let sources: Vec<FloodSource> =
        cells.iter().map(|&cell| FloodSource { cell, strength: radius, radius, falloff: Falloff::Linear }).collect();
    flood(map, &sources, f32::MIN_POSITIVE, neighbours)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Walking distance from `from` to every cell, by relaxing until nothing changes (slow and
    /// obviously right), with the same neighbour and corner rules as [`flood`].
    fn walk_distances(map: &Map, from: IVec2, eight: bool) -> Vec<f64> {
        let mut d = vec![f64::INFINITY; map.len()];
        if let Some(i) = map.index(from).filter(|_| map.passable(from)) {
            d[i] = 0.0;
        }
        loop {
            let mut changed = false;
            for i in 0..map.len() {
                let c = map.cell_at(i);
                for dy in -1..=1 {
                    for dx in -1i32..=1 {
                        let diag = dx != 0 && dy != 0;
                        let nb = c + IVec2::new(dx, dy);
                        if (dx, dy) == (0, 0) || (diag && !eight) || !map.passable(nb) || !map.passable(c) {
                            continue;
                        }
                        if diag && !(map.passable(c + IVec2::new(dx, 0)) && map.passable(c + IVec2::new(0, dy))) {
                            continue;
                        }
                        let j = map.index(nb).unwrap();
                        let len = if diag { std::f64::consts::SQRT_2 } else { 1.0 };
                        if d[j] + len < d[i] {
                            d[i] = d[j] + len;
                            changed = true;
                        }
                    }
                }
            }
            if !changed {
                return d;
            }
        }
    }

    fn grid(w: u32, h: u32, walls: &[bool]) -> Map {
        let mut m = Map::open(w, h);
        for (i, &b) in walls.iter().enumerate() {
            if b {
                m.set(m.cell_at(i), b'#', f32::INFINITY);
            }
        }
        m
    }

    #[test]
    fn a_wall_keeps_a_region_contiguous_and_strength_sets_its_size() {
        let map = crate::field::test_map("......\n#####.\n......\n");
        let exp = Falloff::Exponential { rate: 0.5 };
        let weak = FloodSource { cell: IVec2::new(0, 0), strength: 1.0, radius: f32::INFINITY, falloff: exp };
        let strong = FloodSource { cell: IVec2::new(0, 2), strength: 4.0, radius: f32::INFINITY, falloff: exp };
        let t = flood(&map, &[weak, strong], 0.1, Connectivity::Four);
        let owners: String = (0..3)
            .flat_map(|y| (0..6).map(move |x| IVec2::new(x, y)))
            .map(|c| t.owner_at(c).map_or('.', |o| char::from(b'a' + o as u8)))
            .collect();
        // The strong source walks round the wall's right end and takes the top right corner, where
        // the weak one has faded below the threshold; nothing passes through the wall.
        assert_eq!(&owners[0..6], "aaaaab");
        assert_eq!(&owners[6..12], ".....b");
        assert_eq!(&owners[12..18], "bbbbbb");
        assert!(
            (t.strength.at(IVec2::new(5, 0)) - 4.0 * (-3.5f32).exp()).abs() < 1e-6,
            "7 steps from the strong source"
        );
        // Below threshold: a source owns nothing, and a source inside a wall owns nothing.
        let t = flood(
            &map,
            &[FloodSource { strength: 0.05, ..weak }, FloodSource { cell: IVec2::new(2, 1), ..strong }],
            0.1,
            Connectivity::Four,
        );
        assert!(t.owner.iter().all(Option::is_none));
    }

    #[test]
    fn nearest_territory_splits_an_open_room_in_half() {
        let map = Map::open(8, 1);
        let t = nearest_territory(&map, &[IVec2::new(0, 0), IVec2::new(7, 0)], Connectivity::Eight);
        assert_eq!(t.owner, [Some(0), Some(0), Some(0), Some(0), Some(1), Some(1), Some(1), Some(1)]);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        /// With one shared exponential falloff the strongest-through-own-cells rule equals the
        /// plain "best source by walking distance" rule, which the reference computes directly.
        #[test]
        fn flood_matches_per_source_walk_distances(
            walls in proptest::collection::vec(proptest::bool::weighted(0.25), 14 * 11),
            srcs in proptest::collection::vec((0i32..14, 0i32..11, 1.0f32..10.0), 1..5),
            rate in 0.05f32..0.6,
            threshold in 0.2f32..2.0,
            eight in any::<bool>(),
        ) {
            let map = grid(14, 11, &walls);
            let falloff = Falloff::Exponential { rate };
            let sources: Vec<FloodSource> = srcs.iter()
                .map(|&(x, y, s)| FloodSource { cell: IVec2::new(x, y), strength: s, radius: f32::INFINITY, falloff })
                .collect();
            let t = flood(&map, &sources, threshold, if eight { Connectivity::Eight } else { Connectivity::Four });
            let dists: Vec<Vec<f64>> = sources.iter().map(|s| walk_distances(&map, s.cell, eight)).collect();
            #[expect(clippy::needless_range_loop, reason = "i indexes the map and every source's distances")]
            for i in 0..map.len() {
                let mut cands: Vec<(f32, usize)> = sources.iter().enumerate()
                    .filter(|(k, _)| dists[*k][i].is_finite())
                    .map(|(k, s)| (falloff.at(s.strength, f32::INFINITY, dists[k][i] as f32), k))
                    .filter(|&(v, _)| v >= threshold)
                    .collect();
                cands.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                match cands.first() {
                    None => prop_assert_eq!(t.owner[i], None, "cell {}", i),
                    Some(&(v, k)) => {
                        prop_assert!((t.strength.values()[i] - v).abs() <= 1e-4 * v.max(1.0), "cell {}", i);
                        let clear = cands.get(1).is_none_or(|&(v2, _)| v - v2 > 1e-4 * v.max(1.0));
                        if clear {
                            prop_assert_eq!(t.owner[i], Some(k as u32), "cell {}", i);
                        }
                    }
                }
            }
        }
    }
}
