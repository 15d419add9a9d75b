//! Waypoint graphs: nodes with positions, weighted edges, A* over them, a graph built from a grid,
//! and the book's next-hop table (002b §2.7).
//!
//! Waypoint navigation trades search for precomputation: nodes are placed so that each sees at
//! least one other, a character walks in a straight line to the nearest node it can see, hops
//! from node to node along the table, and walks straight from the last node to its target.

use std::collections::BinaryHeap;

use glam::{IVec2, Vec2};

use super::astar::Open;
use crate::grid::{Map, line_of_sight};

/// A node's index in its graph.
pub type NodeId = usize;

/// Nodes with positions and weighted, directed edges (an undirected edge is two of them).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WaypointGraph {
    positions: Vec<Vec2>,
    edges: Vec<Vec<(NodeId, f32)>>,
    /// Whether every edge costs at least the straight distance it spans, which keeps the
    /// Euclidean heuristic admissible; when not, searches fall back to Dijkstra.
    metric: bool,
}

impl WaypointGraph {
    /// An empty graph.
    pub fn new() -> Self {
        WaypointGraph { metric: true, ..Default::default() }
    }

    /// Adds a node at `position` and returns its id.
    pub fn add_node(&mut self, position: Vec2) -> NodeId {
        self.positions.push(position);
        self.edges.push(Vec::new());
        self.positions.len() - 1
    }

    /// Adds an edge both ways with `cost` (negative or NaN costs are raised to 0). Returns `false`
    /// when a node does not exist.
    pub fn add_edge(&mut self, a: NodeId, b: NodeId, cost: f32) -> bool {
        self.add_arc(a, b, cost) && self.add_arc(b, a, cost)
    }

    /// Adds an edge both ways costing the distance between the nodes.
    pub fn connect(&mut self, a: NodeId, b: NodeId) -> bool {
        let (Some(pa), Some(pb)) = (self.position(a), self.position(b)) else { return false };
        self.add_edge(a, b, pa.distance(pb))
    }

    /// Adds a one-way edge from `a` to `b`.
    pub fn add_arc(&mut self, a: NodeId, b: NodeId, cost: f32) -> bool {
        if a >= self.positions.len() || b >= self.positions.len() {
            return false;
        }
        let cost = if cost.is_nan() { 0.0 } else { cost.max(0.0) };
        if cost < self.positions[a].distance(self.positions[b]) * 0.999_99 {
            self.metric = false;
        }
        let list = &mut self.edges[a];
        match list.iter_mut().find(|(to, _)| *to == b) {
            Some(e) => e.1 = cost,
            None => list.push((b, cost)),
        }
        true
    }

    /// Whether every edge costs at least the distance it spans (the Euclidean heuristic holds).
    pub fn is_metric(&self) -> bool {
        self.metric
    }

    /// How many nodes there are.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// A node's position.
    pub fn position(&self, id: NodeId) -> Option<Vec2> {
        self.positions.get(id).copied()
    }

    /// A node's outgoing edges: `(to, cost)`, in the order they were added.
    pub fn edges(&self, id: NodeId) -> &[(NodeId, f32)] {
        self.edges.get(id).map_or(&[], Vec::as_slice)
    }

    /// A cheapest route from `a` to `b` (both included) and its cost, by A* with the Euclidean
    /// heuristic (Dijkstra when some edge is shorter than the distance it spans).
    pub fn find_path(&self, a: NodeId, b: NodeId) -> Option<(Vec<NodeId>, f64)> {
        let scale = if self.metric { 1.0 } else { 0.0 };
        self.find_path_with(a, b, scale, |_, _, cost| cost)
    }

    /// A* with a custom edge cost: `cost(from, to, edge_cost)` must be ≥ 0 and at least
    /// `heuristic_scale ×` the distance between the nodes for the result to be optimal (use 0 for
    /// Dijkstra). Negative costs are treated as 0.
    pub fn find_path_with(
        &self,
        a: NodeId,
        b: NodeId,
        heuristic_scale: f64,
        mut cost: impl FnMut(NodeId, NodeId, f64) -> f64,
    ) -> Option<(Vec<NodeId>, f64)> {
        let n = self.positions.len();
        if a >= n || b >= n {
            return None;
        }
        let goal = self.positions[b];
        let h = |i: usize| f64::from(self.positions[i].distance(goal)) * heuristic_scale;
        let mut g = vec![f64::INFINITY; n];
        let mut parent = vec![usize::MAX; n];
        let mut closed = vec![false; n];
        let mut open = BinaryHeap::new();
        g[a] = 0.0;
        open.push(Open { f: h(a), g: 0.0, cell: a as u32 });
        while let Some(Open { g: gc, cell, .. }) = open.pop() {
            let c = cell as usize;
            if closed[c] || gc > g[c] {
                continue;
            }
            closed[c] = true;
            if c == b {
                let mut route = vec![b];
                while let Some(&last) = route.last()
                    && last != a
                {
                    route.push(parent[last]);
                }
                route.reverse();
                return Some((route, gc));
            }
            for &(to, w) in &self.edges[c] {
                let ng = gc + cost(c, to, f64::from(w)).max(0.0);
                if !closed[to] && ng < g[to] {
                    g[to] = ng;
                    parent[to] = c;
                    open.push(Open { f: ng + h(to), g: ng, cell: to as u32 });
                }
            }
        }
        None
    }

    /// Places a node in every `spacing × spacing` block of `map` that has a passable cell (the
    /// passable cell nearest the block's centre) and connects nodes of neighbouring blocks that
    /// see each other, each edge costing its length. Node positions are cell centres.
    pub fn from_grid(map: &Map, spacing: u32) -> Self {
        let s = spacing.max(1) as i32;
        let (bw, bh) = ((map.width() as i32).div_euclid(s) + 1, (map.height() as i32).div_euclid(s) + 1);
        let mut graph = WaypointGraph::new();
        let mut block_node = vec![None; (bw * bh) as usize];
        for by in 0..bh {
            for bx in 0..bw {
                let centre = IVec2::new(bx * s + s / 2, by * s + s / 2);
                let best = (0..s)
                    .flat_map(|dy| (0..s).map(move |dx| IVec2::new(bx * s + dx, by * s + dy)))
                    .filter(|&c| map.passable(c))
                    .min_by_key(|&c| ((c - centre).length_squared(), c.y, c.x));
                if let Some(cell) = best {
                    block_node[(by * bw + bx) as usize] = Some(graph.add_node(cell.as_vec2() + 0.5));
                }
            }
        }
        let cell_of = |g: &WaypointGraph, id: NodeId| g.positions[id].floor().as_ivec2();
        for by in 0..bh {
            for bx in 0..bw {
                let Some(a) = block_node[(by * bw + bx) as usize] else { continue };
                // Right, down, and both downward diagonals: each pair once.
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
                    let (nx, ny) = (bx + dx, by + dy);
                    if nx < 0 || ny >= bh || nx >= bw {
                        continue;
                    }
                    let Some(b) = block_node[(ny * bw + nx) as usize] else { continue };
                    if line_of_sight(map, cell_of(&graph, a), cell_of(&graph, b)) {
                        graph.connect(a, b);
                    }
                }
            }
        }
        graph
    }

    /// The node nearest to `cell` that can be seen from it (step 1 and 2 of the book's route:
    /// the character's node and the player's node). Ties go to the lower id.
    pub fn nearest_visible(&self, map: &Map, cell: IVec2) -> Option<NodeId> {
        let p = cell.as_vec2() + 0.5;
        let mut order: Vec<NodeId> = (0..self.len()).collect();
        order.sort_by(|&x, &y| self.positions[x].distance_squared(p).total_cmp(&self.positions[y].distance_squared(p)));
        order.into_iter().find(|&id| line_of_sight(map, cell, self.positions[id].floor().as_ivec2()))
    }
}

/// For every pair of nodes, the first node to move to on a cheapest route (002b §2.7, Fig. 6-24):
/// the full route is never stored, only its first step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextHopTable {
    n: usize,
    next: Vec<Option<NodeId>>,
}

impl NextHopTable {
    /// Builds the table by a Dijkstra search from every node (ties go to the node reached
    /// through the lower-id neighbour, so the table is deterministic).
    pub fn build(graph: &WaypointGraph) -> Self {
        let n = graph.len();
        let mut next = vec![None; n * n];
        let mut g = vec![f64::INFINITY; n];
        let mut first = vec![usize::MAX; n];
        let mut closed = vec![false; n];
        let mut open = BinaryHeap::new();
        for s in 0..n {
            g.fill(f64::INFINITY);
            closed.fill(false);
            open.clear();
            g[s] = 0.0;
            first[s] = s;
            open.push(Open { f: 0.0, g: 0.0, cell: s as u32 });
            while let Some(Open { g: gc, cell, .. }) = open.pop() {
                let c = cell as usize;
                if closed[c] || gc > g[c] {
                    continue;
                }
                closed[c] = true;
                if c != s {
                    next[s * n + c] = Some(first[c]);
                }
                for &(to, w) in graph.edges(c) {
                    let ng = gc + f64::from(w);
                    if !closed[to] && ng < g[to] {
                        g[to] = ng;
                        first[to] = if c == s { to } else { first[c] };
                        open.push(Open { f: ng, g: ng, cell: to as u32 });
                    }
                }
            }
        }
        NextHopTable { n, next }
    }

    /// The first node to move to from `from` towards `to`; `None` when `from == to` (the book's
    /// "-") or `to` cannot be reached.
    pub fn next_hop(&self, from: NodeId, to: NodeId) -> Option<NodeId> {
        if from >= self.n || to >= self.n {
            return None;
        }
        self.next[from * self.n + to]
    }

    /// The route from `from` to `to` by repeated lookup, `from` first; `None` when unreachable.
    pub fn route(&self, from: NodeId, to: NodeId) -> Option<Vec<NodeId>> {
        if from >= self.n || to >= self.n {
            return None;
        }
        let mut route = vec![from];
        let mut at = from;
        while at != to {
            at = self.next_hop(at, to)?;
            route.push(at);
            if route.len() > self.n {
                return None; // cannot happen with a table from `build`; guards a hand-made one
            }
        }
        Some(route)
    }

    /// The table drawn like the book's Fig. 6-24: a header of node names, then one row per start
    /// node, tab-separated, with `-` on the diagonal and `.` where there is no route.
    pub fn to_text(&self, names: &[&str]) -> String {
        let name = |i: usize| names.get(i).copied().unwrap_or("?").to_owned();
        let mut s = String::from("\t");
        s.push_str(&(0..self.n).map(name).collect::<Vec<_>>().join("\t"));
        for from in 0..self.n {
            s.push('\n');
            s.push_str(&name(from));
            for to in 0..self.n {
                s.push('\t');
                s.push_str(&match self.next_hop(from, to) {
                    _ if from == to => "-".to_owned(),
                    Some(h) => name(h),
                    None => ".".to_owned(),
                });
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The book's seven-room example (002b §5.6): edges A–B, B–C, C–D, C–E, E–F, F–G.
    fn book_graph() -> WaypointGraph {
        let mut g = WaypointGraph::new();
        let at = [(0.0, 0.0), (4.0, 0.0), (8.0, 0.0), (8.0, 4.0), (12.0, 0.0), (16.0, 0.0), (16.0, 4.0)];
        for (x, y) in at {
            g.add_node(Vec2::new(x, y));
        }
        for (a, b) in [(0, 1), (1, 2), (2, 3), (2, 4), (4, 5), (5, 6)] {
            assert!(g.connect(a, b));
        }
        g
    }

    #[test]
    fn the_next_hop_table_is_the_books() {
        let table = NextHopTable::build(&book_graph());
        let expected = "\tA\tB\tC\tD\tE\tF\tG\n\
                        A\t-\tB\tB\tB\tB\tB\tB\n\
                        B\tA\t-\tC\tC\tC\tC\tC\n\
                        C\tB\tB\t-\tD\tE\tE\tE\n\
                        D\tC\tC\tC\t-\tC\tC\tC\n\
                        E\tC\tC\tC\tC\t-\tF\tF\n\
                        F\tE\tE\tE\tE\tE\t-\tG\n\
                        G\tF\tF\tF\tF\tF\tF\t-";
        assert_eq!(table.to_text(&["A", "B", "C", "D", "E", "F", "G"]), expected);
        // B → G takes four segments: C, E, F, G (Fig. 6-26); A → E goes A, B, C, E.
        assert_eq!(table.route(1, 6), Some(vec![1, 2, 4, 5, 6]));
        assert_eq!(table.route(0, 4), Some(vec![0, 1, 2, 4]));
        assert_eq!(table.route(6, 0), Some(vec![6, 5, 4, 2, 1, 0]));
        assert_eq!(table.next_hop(3, 3), None);
    }

    #[test]
    fn astar_over_the_graph_takes_the_cheapest_route() {
        let mut g = book_graph();
        let (route, cost) = g.find_path(0, 6).unwrap();
        assert_eq!(route, [0, 1, 2, 4, 5, 6]);
        assert_eq!(cost, 20.0);
        // A shortcut edge that is cheaper than its length switches to Dijkstra and is taken.
        g.add_edge(0, 6, 1.0);
        assert_eq!(g.find_path(0, 6).unwrap(), (vec![0, 6], 1.0));
        let lonely = g.add_node(Vec2::new(50.0, 50.0));
        assert_eq!(g.find_path(0, lonely), None);
        assert_eq!(NextHopTable::build(&g).route(0, lonely), None);
        assert_eq!(g.find_path(0, 99), None);
        assert!(!g.add_edge(0, 99, 1.0));
    }

    #[test]
    fn a_graph_from_a_grid_connects_rooms_that_see_each_other() {
        // Two rooms joined by a door in the wall at x = 4.
        let mut map = Map::open(8, 4);
        for y in 0..4 {
            if y != 1 {
                map.set(IVec2::new(4, y), b'#', f32::INFINITY);
            }
        }
        let g = WaypointGraph::from_grid(&map, 2);
        assert_eq!(g.len(), 8, "one node per 2×2 block");
        // Every edge joins mutually visible nodes and costs its length.
        for a in 0..g.len() {
            for &(b, w) in g.edges(a) {
                let (pa, pb) = (g.position(a).unwrap(), g.position(b).unwrap());
                assert!((w - pa.distance(pb)).abs() < 1e-6);
                assert!(line_of_sight(&map, pa.floor().as_ivec2(), pb.floor().as_ivec2()));
            }
        }
        let left = g.nearest_visible(&map, IVec2::new(0, 3)).unwrap();
        let right = g.nearest_visible(&map, IVec2::new(7, 3)).unwrap();
        let (route, _) = g.find_path(left, right).expect("the rooms are connected through the door");
        assert!(route.len() >= 3);
        let table = NextHopTable::build(&g);
        assert_eq!(table.route(left, right).map(|r| r.len()), Some(route.len()));
    }
}
