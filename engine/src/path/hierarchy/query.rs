//! One HPA* query that can be run a few expansions at a time, so a per-tick budget
//! ([`crate::path::PathQueue`]) holds for hierarchical searches as it does for flat ones.
//!
//! The query is the same four stages [`Hpa::find`] runs in one go — link the start into its
//! cluster's nodes, link the goal's cluster's nodes to the goal, search the abstract graph, refine
//! every abstract edge into cells — cut wherever the budget runs out: inside a confined A* (which
//! is resumable itself) or between two abstract expansions. Every cell a confined search expands
//! and every abstract node the graph search closes is one expansion.

use std::collections::{BinaryHeap, HashMap};

use glam::IVec2;

use super::abstract_graph::{Hpa, HpaFound, Open};
use crate::grid::Map;
use crate::path::cost::endpoints;
use crate::path::{AStar, PathError, Status, octile};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    LinkStart,
    LinkGoal,
    Abstract,
    Refine,
    Done,
}

/// A running HPA* query. Its graph and map must stay the ones it began on: a map edit makes the
/// query stale, and its owner searches again (as the navigation service does).
#[derive(Debug, Clone)]
pub struct HpaQuery {
    start: IVec2,
    goal: IVec2,
    s: u32,
    g: u32,
    stage: Stage,
    /// The nodes the current link stage joins to the start or the goal, and the one under way.
    link: Vec<u32>,
    k: usize,
    /// Whether the confined search for `link[k]` (or the refinement of `chain[k]`) has begun.
    begun: bool,
    from_start: Vec<(u32, f64)>,
    to_goal: HashMap<u32, f64>,
    best: HashMap<u32, (f64, u32, bool)>,
    open: BinaryHeap<Open>,
    chain: Vec<u32>,
    cells: Vec<IVec2>,
    scratch: Vec<IVec2>,
    found: HpaFound,
    outcome: Option<Result<(), PathError>>,
}

impl HpaQuery {
    /// Starts a query from `start` to `goal`. Errors when an endpoint is off the map or blocked.
    pub fn begin(hpa: &Hpa, map: &Map, start: IVec2, goal: IVec2) -> Result<Self, PathError> {
        let (s, g) = endpoints(map, start, goal)?;
        let (s, g) = (s as u32, g as u32);
        let mut q = HpaQuery {
            start,
            goal,
            s,
            g,
            stage: Stage::LinkStart,
            link: Vec::new(),
            k: 0,
            begun: false,
            from_start: Vec::new(),
            to_goal: HashMap::new(),
            best: HashMap::new(),
            open: BinaryHeap::new(),
            chain: Vec::new(),
            cells: Vec::new(),
            scratch: Vec::new(),
            found: HpaFound { cost: 0.0, link_expanded: 0, abstract_expanded: 0, refine_expanded: 0 },
            outcome: None,
        };
        if s == g {
            q.cells.push(start);
            q.finish(Ok(()));
            return Ok(q);
        }
        let (cs, cg) = (hpa.cluster_of(s), hpa.cluster_of(g));
        // The start joins its cluster's nodes, and the goal directly when they share a cluster.
        q.link = hpa.nodes_of(cs);
        if cs == cg {
            q.link.push(g);
        }
        Ok(q)
    }

    /// The work done so far, by stage.
    pub fn found(&self) -> HpaFound {
        self.found
    }

    /// Everything expanded so far.
    pub fn expanded(&self) -> usize {
        self.found.expanded()
    }

    /// The cells of the path found, start first (empty until the query is done and found one).
    pub fn cells(&self) -> &[IVec2] {
        &self.cells
    }

    /// Takes the cells of the path found out of the query.
    pub fn take_cells(&mut self) -> Vec<IVec2> {
        std::mem::take(&mut self.cells)
    }

    /// Where the query stands.
    pub fn status(&self) -> Status {
        match self.outcome {
            None => Status::InProgress,
            Some(Ok(())) => Status::Found,
            Some(Err(_)) => Status::NotFound,
        }
    }

    /// Why the query failed, if it did.
    pub fn error(&self) -> Option<PathError> {
        self.outcome.as_ref().and_then(|o| o.as_ref().err().cloned())
    }

    fn finish(&mut self, outcome: Result<(), PathError>) {
        if outcome.is_err() {
            self.cells.clear();
        }
        self.stage = Stage::Done;
        self.outcome = Some(outcome);
    }

    /// Runs at most `max_expansions` expansions, with `astar` as the confined searcher. A confined
    /// search begun in one call is resumed in the next, so `astar` must serve this query alone
    /// until it is done (the path queue gives each running query its own slot's searcher).
    pub fn step(&mut self, hpa: &Hpa, map: &Map, astar: &mut AStar, max_expansions: usize) -> Status {
        let mut spent = 0;
        while self.outcome.is_none() && spent < max_expansions {
            let left = max_expansions - spent;
            match self.stage {
                Stage::LinkStart | Stage::LinkGoal => {
                    let to_goal = self.stage == Stage::LinkGoal;
                    let Some(&n) = self.link.get(self.k) else {
                        self.next_stage(hpa);
                        continue;
                    };
                    let (from, to) = if to_goal { (hpa.cell(n), self.goal) } else { (self.start, hpa.cell(n)) };
                    let cluster = hpa.cluster_of(if to_goal { self.g } else { self.s });
                    let view = hpa.confined(map, cluster);
                    if !self.begun {
                        if astar.begin(&view, from, to).is_err() {
                            self.k += 1;
                            continue;
                        }
                        self.begun = true;
                    }
                    let before = astar.expanded();
                    let status = astar.step(&view, left);
                    let used = astar.expanded() - before;
                    spent += used;
                    self.found.link_expanded += used;
                    match status {
                        Status::InProgress => {}
                        Status::Found => {
                            let cost = astar.write_path(&mut self.scratch).unwrap_or(f64::INFINITY);
                            if to_goal {
                                self.to_goal.insert(n, cost);
                            } else {
                                self.from_start.push((n, cost));
                            }
                            self.k += 1;
                            self.begun = false;
                        }
                        Status::NotFound => {
                            self.k += 1;
                            self.begun = false;
                        }
                    }
                }
                Stage::Abstract => {
                    spent += self.abstract_step(hpa, left);
                }
                Stage::Refine => {
                    let Some(&[a, b]) = self.chain.get(self.k..self.k + 2) else {
                        self.finish(Ok(()));
                        continue;
                    };
                    let (ca, cb) = (hpa.cluster_of(a), hpa.cluster_of(b));
                    // A border crossing is one straight step into the next cluster.
                    if ca != cb {
                        self.found.cost += f64::from(map.costs()[b as usize]);
                        self.cells.push(hpa.cell(b));
                        self.k += 1;
                        continue;
                    }
                    let view = hpa.confined(map, ca);
                    if !self.begun {
                        if let Err(e) = astar.begin(&view, hpa.cell(a), hpa.cell(b)) {
                            self.finish(Err(e));
                            continue;
                        }
                        self.begun = true;
                    }
                    let before = astar.expanded();
                    let status = astar.step(&view, left);
                    let used = astar.expanded() - before;
                    spent += used;
                    self.found.refine_expanded += used;
                    match status {
                        Status::InProgress => {}
                        Status::Found => {
                            self.found.cost += astar.write_path(&mut self.scratch).unwrap_or(f64::INFINITY);
                            self.cells.extend_from_slice(self.scratch.get(1..).unwrap_or(&[]));
                            self.k += 1;
                            self.begun = false;
                        }
                        // The graph promised an edge the map no longer has: it is stale.
                        Status::NotFound => {
                            let expanded = self.found.expanded();
                            self.finish(Err(PathError::NoPath { expanded }));
                        }
                    }
                }
                Stage::Done => break,
            }
        }
        self.status()
    }

    fn next_stage(&mut self, hpa: &Hpa) {
        self.k = 0;
        self.begun = false;
        if self.stage == Stage::LinkStart {
            self.stage = Stage::LinkGoal;
            self.link = hpa.nodes_of(hpa.cluster_of(self.g));
        } else {
            self.stage = Stage::Abstract;
            self.link.clear();
            self.best.insert(self.s, (0.0, self.s, false));
            self.open.push(Open { f: octile(self.start, self.goal), node: self.s });
        }
    }

    /// Closes at most `left` abstract nodes (A* with the octile distance to the goal); returns
    /// how many it closed.
    fn abstract_step(&mut self, hpa: &Hpa, left: usize) -> usize {
        let mut spent = 0;
        while spent < left {
            let Some(Open { node, .. }) = self.open.pop() else {
                let expanded = self.found.expanded();
                self.finish(Err(PathError::NoPath { expanded }));
                return spent;
            };
            let Some(&(gn, _, closed)) = self.best.get(&node) else { continue };
            if closed {
                continue;
            }
            if let Some(b) = self.best.get_mut(&node) {
                b.2 = true;
            }
            spent += 1;
            self.found.abstract_expanded += 1;
            if node == self.g {
                self.start_refinement();
                return spent;
            }
            let goal = self.goal;
            let (best, open) = (&mut self.best, &mut self.open);
            let mut relax = |next: u32, cost: f64| {
                let g2 = gn + cost;
                let e = best.entry(next).or_insert((f64::INFINITY, node, false));
                if !e.2 && g2 < e.0 {
                    *e = (g2, node, false);
                    open.push(Open { f: g2 + octile(hpa.cell(next), goal), node: next });
                }
            };
            if node == self.s {
                for &(n, c) in &self.from_start {
                    relax(n, c);
                }
            }
            for &(n, c) in hpa.adjacency.get(&node).into_iter().flatten() {
                relax(n, c);
            }
            if let Some(&c) = self.to_goal.get(&node) {
                relax(self.g, c);
            }
        }
        spent
    }

    fn start_refinement(&mut self) {
        let mut chain = vec![self.g];
        let mut at = self.g;
        while at != self.s {
            match self.best.get(&at) {
                Some(&(_, parent, _)) if parent != at => {
                    at = parent;
                    chain.push(at);
                }
                _ => {
                    let expanded = self.found.expanded();
                    self.finish(Err(PathError::NoPath { expanded }));
                    return;
                }
            }
        }
        chain.reverse();
        self.chain = chain;
        self.cells.clear();
        self.cells.push(self.start);
        self.stage = Stage::Refine;
        self.k = 0;
        self.begun = false;
    }
}
