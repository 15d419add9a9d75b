//! The HPA* abstract graph: cluster borders, their transitions, the edges between them, and the
//! query that links start and goal in, searches the graph and refines the answer into cells.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

use glam::IVec2;

use super::confined::Confined;
use super::query::HpaQuery;
use crate::grid::Map;
use crate::path::{AStar, PathError, Status};

/// An open border segment at least this long gets a transition at each end; a shorter one gets
/// a single transition in its middle (the paper's threshold).
const LONG_SEGMENT: usize = 6;

/// A path found by [`Hpa::find`] and the work it took, so a per-tick budget can charge it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HpaFound {
    /// The sum of the step costs of the returned cells.
    pub cost: f64,
    /// Cells expanded by the confined searches linking start and goal into the graph.
    pub link_expanded: usize,
    /// Abstract nodes expanded by the graph search.
    pub abstract_expanded: usize,
    /// Cells expanded while refining abstract edges into cells.
    pub refine_expanded: usize,
}

impl HpaFound {
    /// Everything the query expanded.
    pub fn expanded(&self) -> usize {
        self.link_expanded + self.abstract_expanded + self.refine_expanded
    }
}

/// HPA*'s abstraction of one map: build it once, keep it in step with the map through
/// [`Hpa::set_cell`], query it with [`Hpa::find`].
#[derive(Debug, Clone, PartialEq)]
pub struct Hpa {
    size: u32,
    width: u32,
    height: u32,
    across: u32,
    down: u32,
    /// Transitions per border, keyed by the two clusters (lower id first): (cell in the first
    /// cluster, cell in the second).
    borders: BTreeMap<(u32, u32), Vec<(u32, u32)>>,
    /// Directed intra-cluster edges per cluster: (from, to, cost).
    intra: BTreeMap<u32, Vec<(u32, u32, f64)>>,
    /// Every abstract node's outgoing edges, derived from the two maps above.
    pub(super) adjacency: BTreeMap<u32, Vec<(u32, f64)>>,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Open {
    pub(super) f: f64,
    pub(super) node: u32,
}
impl PartialEq for Open {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Open {
    // Min-heap on f, ties to the lower node so the search is deterministic.
    fn cmp(&self, o: &Self) -> Ordering {
        o.f.total_cmp(&self.f).then(o.node.cmp(&self.node))
    }
}

impl Hpa {
    /// Builds the abstraction of `map` with square clusters of `cluster_size` cells (at least 2).
    pub fn build(map: &Map, cluster_size: u32) -> Self {
        let mut hpa = Hpa::empty(map, cluster_size);
        let all: Vec<u32> = (0..hpa.across * hpa.down).collect();
        for &c in &all {
            hpa.build_borders_of(map, c);
        }
        for &c in &all {
            hpa.build_intra(map, c);
        }
        hpa.build_adjacency(map);
        hpa
    }

    /// An upper bound on the cells [`Hpa::build`] expands for `map` with clusters of
    /// `cluster_size`, found without building: a cluster with `k` transitions on its borders runs
    /// `k·(k−1)` searches confined to it, and each expands at most the cells its start can reach
    /// inside the cluster (8-connected, a superset of what a search may enter). A loader charges
    /// it before building: a map of many narrow openings can ask for hours of work, while a maze
    /// of separate corridors asks for little. It reads the border cells and labels each cell of
    /// the map at most once.
    pub fn build_work(map: &Map, cluster_size: u32) -> u64 {
        let mut hpa = Hpa::empty(map, cluster_size);
        let clusters = hpa.across * hpa.down;
        for c in 0..clusters {
            hpa.build_borders_of(map, c);
        }
        // The component each reached cell belongs to within its cluster, and each component's size.
        let mut component = vec![u32::MAX; map.len()];
        let mut sizes: Vec<u64> = Vec::new();
        let mut stack = Vec::new();
        let mut work = 0u64;
        for c in 0..clusters {
            let view = hpa.confined(map, c);
            let area = u64::from(view.x1 - view.x0) * u64::from(view.y1 - view.y0);
            work = work.saturating_add(area);
            let nodes = hpa.nodes_of(c);
            let k = nodes.len() as u64;
            for &n in &nodes {
                if component[n as usize] == u32::MAX {
                    let id = sizes.len() as u32;
                    sizes.push(flood_within(&view, n, id, &mut component, &mut stack));
                }
                let reach = sizes[component[n as usize] as usize];
                work = work.saturating_add(k.saturating_sub(1).saturating_mul(reach));
            }
        }
        work
    }

    /// No borders or edges yet: the cluster grid of `map`.
    fn empty(map: &Map, cluster_size: u32) -> Self {
        let size = cluster_size.max(2);
        let (width, height) = (map.width(), map.height());
        Hpa {
            size,
            width,
            height,
            across: width.div_ceil(size),
            down: height.div_ceil(size),
            borders: BTreeMap::new(),
            intra: BTreeMap::new(),
            adjacency: BTreeMap::new(),
        }
    }

    /// The cluster side in cells.
    pub fn cluster_size(&self) -> u32 {
        self.size
    }

    /// Whether this abstraction was built for a map of `map`'s size.
    pub fn covers(&self, map: &Map) -> bool {
        self.width == map.width() && self.height == map.height()
    }

    /// How many abstract nodes (transition cells) the graph has.
    pub fn node_count(&self) -> usize {
        self.adjacency.len()
    }

    /// How many directed abstract edges the graph has.
    pub fn edge_count(&self) -> usize {
        self.adjacency.values().map(Vec::len).sum()
    }

    /// Brings the graph in step after `cell` of `map` changed (a door opened or closed): only the
    /// cell's cluster's borders and the intra edges of it and its four neighbours are rebuilt.
    pub fn set_cell(&mut self, map: &Map, cell: IVec2) {
        self.update_region(map, cell, cell);
    }

    /// Brings the graph in step after the cells in the rectangle `min..=max` changed.
    pub fn update_region(&mut self, map: &Map, min: IVec2, max: IVec2) {
        let clamp = |v: i32, hi: u32| v.clamp(0, hi as i32 - 1) as u32;
        let (x0, x1) =
            (clamp(min.x.min(max.x), self.width) / self.size, clamp(min.x.max(max.x), self.width) / self.size);
        let (y0, y1) =
            (clamp(min.y.min(max.y), self.height) / self.size, clamp(min.y.max(max.y), self.height) / self.size);
        let mut changed = BTreeSet::new();
        let mut touched = BTreeSet::new();
        for cy in y0..=y1 {
            for cx in x0..=x1 {
                let c = cy * self.across + cx;
                changed.insert(c);
                touched.insert(c);
                touched.extend(self.neighbours(c));
            }
        }
        // A changed cluster's four borders are rebuilt: its own east and south, and the west
        // neighbour's east and north neighbour's south.
        let mut owners = BTreeSet::new();
        for &c in &changed {
            owners.insert(c);
            let (cx, cy) = (c % self.across, c / self.across);
            if cx > 0 {
                owners.insert(c - 1);
            }
            if cy > 0 {
                owners.insert(c - self.across);
            }
        }
        for &c in &owners {
            self.borders.remove(&(c, c + 1));
            self.borders.remove(&(c, c + self.across));
            self.build_borders_of(map, c);
        }
        for &c in &touched {
            self.build_intra(map, c);
        }
        self.build_adjacency(map);
    }

    /// Finds a path from `start` to `goal` through the abstract graph and writes its cells, start
    /// first, into `out`. Every path HPA* returns is valid under the map's rules; its cost is at
    /// least the optimal one (typically within a few percent). `map` must be the map the graph
    /// was built on (kept in step with [`Hpa::set_cell`]).
    pub fn find(&self, map: &Map, start: IVec2, goal: IVec2, out: &mut Vec<IVec2>) -> Result<HpaFound, PathError> {
        out.clear();
        let mut query = HpaQuery::begin(self, map, start, goal)?;
        let mut astar = AStar::new();
        match query.step(self, map, &mut astar, usize::MAX) {
            Status::Found => {
                out.extend_from_slice(query.cells());
                Ok(query.found())
            }
            _ => Err(query.error().unwrap_or(PathError::NoPath { expanded: query.expanded() })),
        }
    }

    pub(super) fn neighbours(&self, c: u32) -> Vec<u32> {
        let (cx, cy) = (c % self.across, c / self.across);
        let mut out = Vec::with_capacity(4);
        if cx > 0 {
            out.push(c - 1);
        }
        if cx + 1 < self.across {
            out.push(c + 1);
        }
        if cy > 0 {
            out.push(c - self.across);
        }
        if cy + 1 < self.down {
            out.push(c + self.across);
        }
        out
    }

    pub(super) fn cluster_of(&self, i: u32) -> u32 {
        let (x, y) = (i % self.width, i / self.width);
        (y / self.size) * self.across + x / self.size
    }

    /// Finds the east and south borders of cluster `c` and their transitions.
    fn build_borders_of(&mut self, map: &Map, c: u32) {
        let (cx, cy) = (c % self.across, c / self.across);
        let passable = |x: u32, y: u32| map.costs()[(y * self.width + x) as usize].is_finite();
        if cx + 1 < self.across {
            let x = (cx + 1) * self.size - 1;
            let (y0, y1) = (cy * self.size, ((cy + 1) * self.size).min(self.height));
            let open: Vec<bool> = (y0..y1).map(|y| passable(x, y) && passable(x + 1, y)).collect();
            let pairs = transitions(&open)
                .into_iter()
                .map(|k| {
                    let y = y0 + k as u32;
                    (y * self.width + x, y * self.width + x + 1)
                })
                .collect::<Vec<_>>();
            if !pairs.is_empty() {
                self.borders.insert((c, c + 1), pairs);
            }
        }
        if cy + 1 < self.down {
            let y = (cy + 1) * self.size - 1;
            let (x0, x1) = (cx * self.size, ((cx + 1) * self.size).min(self.width));
            let open: Vec<bool> = (x0..x1).map(|x| passable(x, y) && passable(x, y + 1)).collect();
            let pairs = transitions(&open)
                .into_iter()
                .map(|k| {
                    let x = x0 + k as u32;
                    (y * self.width + x, (y + 1) * self.width + x)
                })
                .collect::<Vec<_>>();
            if !pairs.is_empty() {
                self.borders.insert((c, c + self.across), pairs);
            }
        }
    }

    /// The abstract nodes lying in cluster `c`, in cell order.
    pub(super) fn nodes_of(&self, c: u32) -> Vec<u32> {
        let mut nodes = BTreeSet::new();
        for n in self.neighbours(c) {
            let key = (c.min(n), c.max(n));
            for &(a, b) in self.borders.get(&key).into_iter().flatten() {
                nodes.insert(if key.0 == c { a } else { b });
            }
        }
        nodes.into_iter().collect()
    }

    pub(super) fn confined<'m>(&self, map: &'m Map, c: u32) -> Confined<'m> {
        let (cx, cy) = (c % self.across, c / self.across);
        Confined {
            map,
            x0: cx * self.size,
            y0: cy * self.size,
            x1: ((cx + 1) * self.size).min(self.width),
            y1: ((cy + 1) * self.size).min(self.height),
        }
    }

    fn build_intra(&mut self, map: &Map, c: u32) {
        let nodes = self.nodes_of(c);
        let view = self.confined(map, c);
        let mut astar = AStar::new();
        let mut cells = Vec::new();
        let mut edges = Vec::new();
        for &a in &nodes {
            for &b in &nodes {
                if a == b {
                    continue;
                }
                if let Ok(found) = astar.find(&view, self.cell(a), self.cell(b), &mut cells) {
                    edges.push((a, b, found.cost));
                }
            }
        }
        self.intra.insert(c, edges);
    }

    fn build_adjacency(&mut self, map: &Map) {
        let mut adjacency: BTreeMap<u32, Vec<(u32, f64)>> = BTreeMap::new();
        // A border crossing is one straight step: it costs the entered cell's cost.
        let costs = |i: u32| f64::from(map.costs()[i as usize]);
        for pairs in self.borders.values() {
            for &(a, b) in pairs {
                adjacency.entry(a).or_default().push((b, costs(b)));
                adjacency.entry(b).or_default().push((a, costs(a)));
            }
        }
        for edges in self.intra.values() {
            for &(a, b, cost) in edges {
                adjacency.entry(a).or_default().push((b, cost));
            }
        }
        self.adjacency = adjacency;
    }

    pub(super) fn cell(&self, i: u32) -> IVec2 {
        IVec2::new((i % self.width) as i32, (i / self.width) as i32)
    }
}

/// The positions along a border where transitions go: for each maximal run of open pairs, its
/// middle when the run is short, both ends when it is long.
/// Labels `id` on every open cell of `view` 8-connected to `from` and returns how many there are.
fn flood_within(view: &Confined<'_>, from: u32, id: u32, component: &mut [u32], stack: &mut Vec<u32>) -> u64 {
    let width = view.map.width();
    let open = |x: u32, y: u32| {
        (view.x0..view.x1).contains(&x)
            && (view.y0..view.y1).contains(&y)
            && view.map.costs()[(y * width + x) as usize].is_finite()
    };
    stack.clear();
    stack.push(from);
    component[from as usize] = id;
    let mut count = 0;
    while let Some(i) = stack.pop() {
        count += 1;
        let (x, y) = (i % width, i / width);
        for (dx, dy) in [(-1i32, -1i32), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            let (Some(nx), Some(ny)) = (x.checked_add_signed(dx), y.checked_add_signed(dy)) else { continue };
            let j = ny * width + nx;
            if open(nx, ny) && component[j as usize] == u32::MAX {
                component[j as usize] = id;
                stack.push(j);
            }
        }
    }
    count
}

pub(super) fn transitions(open: &[bool]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < open.len() {
        if !open[k] {
            k += 1;
            continue;
        }
        let start = k;
        while k < open.len() && open[k] {
            k += 1;
        }
        let len = k - start;
        if len < LONG_SEGMENT {
            out.push(start + len / 2);
        } else {
            out.push(start);
            out.push(k - 1);
        }
    }
    out
}
