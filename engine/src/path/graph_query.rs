//! One route over a [`WaypointGraph`] that can be run a few expansions at a time, so the path
//! queue's per-tick budget holds for waypoint navigation as it does for grid searches.
//!
//! The book's waypoint route (002b §2.7): walk straight to the nearest node the walker can walk to
//! in a straight line, hop from node to node, walk straight from the last node to the target.
//! Every straight leg — the two links and every edge taken — is checked on the grid as it is now
//! (`grid::walk_segment`), so an edge a closed door cuts is not taken. One expansion is one
//! link candidate tested or one node closed by the graph search.

use std::collections::BinaryHeap;

use glam::{IVec2, Vec2};

use super::astar::Open;
use super::graph::{NodeId, WaypointGraph};
use crate::grid::{Map, walk_segment};
use crate::path::cost::endpoints;
use crate::path::{PathError, Status};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    LinkStart,
    LinkGoal,
    Search,
    Done,
}

/// A running waypoint route.
#[derive(Debug, Clone)]
pub struct GraphQuery {
    start: IVec2,
    goal: IVec2,
    stage: Stage,
    /// Nodes nearest first from the end being linked, and how many were tried.
    order: Vec<NodeId>,
    k: usize,
    from: Option<NodeId>,
    to: Option<NodeId>,
    g: Vec<f64>,
    parent: Vec<NodeId>,
    closed: Vec<bool>,
    open: BinaryHeap<Open>,
    heuristic_scale: f64,
    expanded: usize,
    route: Vec<NodeId>,
    cost: f64,
    outcome: Option<Result<(), PathError>>,
}

fn centre(c: IVec2) -> Vec2 {
    c.as_vec2() + Vec2::splat(0.5)
}

/// Whether a walker can go straight from `a` to `b` on `map` as it is.
fn clear(map: &Map, a: Vec2, b: Vec2) -> bool {
    walk_segment(a, b, |c| map.passable(c))
}

impl GraphQuery {
    /// Starts a route from `start` to `goal`. Errors when an endpoint is off the map or blocked.
    pub fn begin(graph: &WaypointGraph, map: &Map, start: IVec2, goal: IVec2) -> Result<Self, PathError> {
        endpoints(map, start, goal)?;
        let n = graph.len();
        let mut q = GraphQuery {
            start,
            goal,
            stage: Stage::LinkStart,
            order: Vec::new(),
            k: 0,
            from: None,
            to: None,
            g: vec![f64::INFINITY; n],
            parent: vec![NodeId::MAX; n],
            closed: vec![false; n],
            open: BinaryHeap::new(),
            heuristic_scale: if graph.is_metric() { 1.0 } else { 0.0 },
            expanded: 0,
            route: Vec::new(),
            cost: 0.0,
            outcome: None,
        };
        q.order = q.nearest_first(graph, start);
        Ok(q)
    }

    /// Node ids sorted by distance from `cell`'s centre, ties to the lower id.
    fn nearest_first(&self, graph: &WaypointGraph, cell: IVec2) -> Vec<NodeId> {
        let p = centre(cell);
        let mut order: Vec<NodeId> = (0..graph.len()).collect();
        let d = |i: NodeId| graph.position(i).map_or(f32::INFINITY, |q| q.distance_squared(p));
        order.sort_by(|&a, &b| d(a).total_cmp(&d(b)).then(a.cmp(&b)));
        order
    }

    /// Where the route starts.
    pub fn start(&self) -> IVec2 {
        self.start
    }

    /// Where it ends.
    pub fn goal(&self) -> IVec2 {
        self.goal
    }

    /// Expansions spent so far.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// The nodes of the route found, in walking order (empty until it is found).
    pub fn route(&self) -> &[NodeId] {
        &self.route
    }

    /// The route's length: the two links and the edges' costs.
    pub fn cost(&self) -> f64 {
        self.cost
    }

    /// Where the route stands.
    pub fn status(&self) -> Status {
        match self.outcome {
            None => Status::InProgress,
            Some(Ok(())) => Status::Found,
            Some(Err(_)) => Status::NotFound,
        }
    }

    /// Whether it failed because no node is in a straight walk of an end (the graph does not
    /// cover it), rather than because the graph has no route.
    pub fn unlinked(&self) -> bool {
        self.outcome.as_ref().is_some_and(Result::is_err) && (self.from.is_none() || self.to.is_none())
    }

    /// The corner cells of the route: start, every node's cell, goal.
    pub fn cells(&self, graph: &WaypointGraph) -> Vec<IVec2> {
        let mut cells = vec![self.start];
        cells.extend(self.route.iter().filter_map(|&n| graph.position(n)).map(|p| p.floor().as_ivec2()));
        cells.push(self.goal);
        cells.dedup();
        cells
    }

    fn fail(&mut self) {
        self.outcome = Some(Err(PathError::NoPath { expanded: self.expanded }));
        self.stage = Stage::Done;
    }

    /// Runs at most `max_expansions` expansions.
    pub fn step(&mut self, graph: &WaypointGraph, map: &Map, max_expansions: usize) -> Status {
        // A graph replaced under the query (its owner should have dropped it) cannot be resumed.
        if graph.len() != self.g.len() && self.outcome.is_none() {
            self.fail();
        }
        let mut spent = 0;
        while self.outcome.is_none() && spent < max_expansions {
            match self.stage {
                Stage::LinkStart | Stage::LinkGoal => {
                    let linking_goal = self.stage == Stage::LinkGoal;
                    let Some(&n) = self.order.get(self.k) else {
                        self.fail();
                        break;
                    };
                    self.k += 1;
                    spent += 1;
                    self.expanded += 1;
                    let end = centre(if linking_goal { self.goal } else { self.start });
                    let Some(p) = graph.position(n) else { continue };
                    if !map.passable(p.floor().as_ivec2()) || !clear(map, end, p) {
                        continue;
                    }
                    if linking_goal {
                        self.to = Some(n);
                        self.stage = Stage::Search;
                        let from = self.from.unwrap_or(n);
                        self.g[from] = f64::from(centre(self.start).distance(graph.position(from).unwrap_or(p)));
                        let f = self.g[from] + self.h(graph, from, n);
                        self.open.push(Open { f, g: self.g[from], cell: from as u32 });
                    } else {
                        self.from = Some(n);
                        self.stage = Stage::LinkGoal;
                        self.order = self.nearest_first(graph, self.goal);
                        self.k = 0;
                    }
                }
                Stage::Search => {
                    let (Some(target), Some(_)) = (self.to, self.from) else {
                        self.fail();
                        break;
                    };
                    let Some(Open { g, cell, .. }) = self.open.pop() else {
                        self.fail();
                        break;
                    };
                    let c = cell as usize;
                    if self.closed[c] || g > self.g[c] {
                        continue;
                    }
                    self.closed[c] = true;
                    spent += 1;
                    self.expanded += 1;
                    if c == target {
                        self.finish(graph, c);
                        break;
                    }
                    let Some(pc) = graph.position(c) else { continue };
                    for &(to, w) in graph.edges(c) {
                        let ng = g + f64::from(w);
                        if to >= self.g.len() || self.closed[to] || ng >= self.g[to] {
                            continue;
                        }
                        // An edge is walked in a straight line: a wall or a closed door across
                        // it takes it out of the graph until it opens.
                        match graph.position(to) {
                            Some(pt) if map.passable(pt.floor().as_ivec2()) && clear(map, pc, pt) => {}
                            _ => continue,
                        }
                        self.g[to] = ng;
                        self.parent[to] = c;
                        let f = ng + self.h(graph, to, target);
                        self.open.push(Open { f, g: ng, cell: to as u32 });
                    }
                }
                Stage::Done => break,
            }
        }
        self.status()
    }

    fn h(&self, graph: &WaypointGraph, a: NodeId, b: NodeId) -> f64 {
        match (graph.position(a), graph.position(b)) {
            (Some(p), Some(q)) => f64::from(p.distance(q)) * self.heuristic_scale,
            _ => 0.0,
        }
    }

    fn finish(&mut self, graph: &WaypointGraph, last: NodeId) {
        let from = self.from.unwrap_or(last);
        let mut route = vec![last];
        while let Some(&at) = route.last()
            && at != from
        {
            match self.parent.get(at) {
                Some(&p) if p != NodeId::MAX && route.len() <= self.parent.len() => route.push(p),
                _ => {
                    self.fail();
                    return;
                }
            }
        }
        route.reverse();
        let tail = graph.position(last).map_or(0.0, |p| f64::from(p.distance(centre(self.goal))));
        self.cost = self.g[last] + tail;
        self.route = route;
        self.outcome = Some(Ok(()));
        self.stage = Stage::Done;
    }
}
