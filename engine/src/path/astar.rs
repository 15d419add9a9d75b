//! Grid A*: resumable, allocation-free after warm-up, generic over the cost model.
//!
//! The book's A* (002b §3.3) is followed in spirit and corrected where its print is wrong
//! (002b §7, P18/P19): the search stops when the goal is *taken from* the open list, not when it
//! is added (stopping on insertion is not optimal with terrain costs), and a cheaper route to an
//! open node re-parents it (the printed pseudo-code skips open nodes, which loses optimality).
//! Open nodes are not decreased in place: a cheaper route pushes a new heap entry and the stale
//! one is skipped when popped ("lazy deletion"), which is faster than a decrease-key heap here.
//!
//! Buffers are flat arrays indexed by cell and reset lazily with a per-query stamp, so a query
//! costs nothing for the cells it does not touch and, once the buffers have grown to the map's
//! size and the largest frontier seen, allocates nothing (`engine/tests/path_alloc.rs`).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use glam::IVec2;

use super::cost::{Connectivity, CostModel, PathError, SQRT2, Status, endpoints};

/// How a grid search moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchOptions {
    /// 4- or 8-connected.
    pub connectivity: Connectivity,
    /// The length of a diagonal step: √2 for true distances; the book's walkthrough (002b §5.3)
    /// counts every step as 1. Must be in `[1, 2]` for the heuristic to stay admissible.
    pub diagonal_cost: f64,
    /// Whether a diagonal step may pass a blocked corner. Off by default (the MovingAI rules and
    /// the world's walker both forbid it); the book's walkthrough allows it (002b §7 P22).
    pub corner_cutting: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { connectivity: Connectivity::Eight, diagonal_cost: SQRT2, corner_cutting: false }
    }
}

impl SearchOptions {
    /// The book's walkthrough rules: 8-connected, every step 1, corners may be cut.
    pub fn book_walkthrough() -> Self {
        SearchOptions { connectivity: Connectivity::Eight, diagonal_cost: 1.0, corner_cutting: true }
    }

    /// 4-connected moves (Manhattan heuristic).
    pub fn four_connected() -> Self {
        SearchOptions { connectivity: Connectivity::Four, ..Self::default() }
    }
}

/// A path that was found: its cost and the work it took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    /// The sum of the step costs (the length, on a uniform map).
    pub cost: f64,
    /// How many nodes were expanded (taken from the open list and their neighbours examined).
    pub expanded: usize,
}

/// Per-cell search state. `stamp` says whether the rest is from the current query: `2q` open (or
/// reached), `2q + 1` closed, anything else untouched.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Node {
    pub(crate) g: f64,
    pub(crate) parent: u32,
    pub(crate) stamp: u32,
}

/// A heap entry: cheapest `f` first, and among equal `f` the deeper node (larger `g`), which
/// finishes straight-line searches with fewer expansions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Open {
    pub(crate) f: f64,
    pub(crate) g: f64,
    pub(crate) cell: u32,
}

impl PartialEq for Open {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    /// Reversed on `f` (the std heap pops the greatest). Costs are never NaN (they are sums of
    /// finite, non-negative step costs), so the plain float comparisons are total here; they are
    /// much cheaper in the heap's inner loop than `total_cmp` chains.
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        if self.f < other.f {
            Ordering::Greater
        } else if self.f > other.f {
            Ordering::Less
        } else if self.g > other.g {
            Ordering::Greater
        } else if self.g < other.g {
            Ordering::Less
        } else {
            other.cell.cmp(&self.cell)
        }
    }
}

/// The per-query stamps shared by A* and JPS.
#[derive(Debug, Clone, Default)]
pub(crate) struct Stamps {
    query: u32,
}

impl Stamps {
    /// Starts a new query over `nodes` (grown to `len`): returns the open stamp.
    pub(crate) fn next(&mut self, nodes: &mut Vec<Node>, len: usize) -> u32 {
        if nodes.len() < len {
            nodes.resize(len, Node::default());
        }
        self.query = self.query.wrapping_add(1);
        if self.query == 0 || self.query > u32::MAX / 2 - 1 {
            // Stamps would wrap: forget every old one.
            nodes.iter_mut().for_each(|n| n.stamp = 0);
            self.query = 1;
        }
        2 * self.query
    }
}

/// Grid A* with reusable buffers. One instance serves any number of queries, one at a time,
/// either all at once ([`AStar::find`]) or a slice at a time ([`AStar::begin`], [`AStar::step`]).
#[derive(Debug, Clone, Default)]
pub struct AStar {
    options: SearchOptions,
    nodes: Vec<Node>,
    open: BinaryHeap<Open>,
    stamps: Stamps,
    stamp: u32,
    width: u32,
    start: u32,
    goal: u32,
    goal_xy: (i32, i32),
    h_scale: f64,
    status: Option<Status>,
    expanded: usize,
    last: Option<u32>,
}

impl AStar {
    /// A searcher with the default rules (8-connected, √2 diagonals, no corner cutting).
    pub fn new() -> Self {
        AStar::default()
    }

    /// A searcher with other rules.
    pub fn with_options(options: SearchOptions) -> Self {
        AStar { options, ..AStar::default() }
    }

    /// The rules it searches with.
    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Finds a cheapest path from `start` to `goal` and writes its cells, start first, into `out`
    /// (cleared first). Reuses `out`'s buffer, so a caller that keeps it allocates nothing.
    pub fn find(
        &mut self,
        grid: &impl CostModel,
        start: IVec2,
        goal: IVec2,
        out: &mut Vec<IVec2>,
    ) -> Result<Found, PathError> {
        out.clear();
        self.begin(grid, start, goal)?;
        match self.step(grid, usize::MAX) {
            Status::Found => {
                let cost = self.write_path(out).unwrap_or(0.0);
                Ok(Found { cost, expanded: self.expanded })
            }
            _ => Err(PathError::NoPath { expanded: self.expanded }),
        }
    }

    /// Starts a query. Errors when an endpoint is off the map or blocked; afterwards
    /// [`AStar::step`] runs it.
    pub fn begin(&mut self, grid: &impl CostModel, start: IVec2, goal: IVec2) -> Result<(), PathError> {
        self.status = Some(Status::NotFound);
        let (s, g) = endpoints(grid, start, goal)?;
        let len = grid.width() as usize * grid.height() as usize;
        self.stamp = self.stamps.next(&mut self.nodes, len);
        self.width = grid.width();
        self.open.clear();
        self.expanded = 0;
        self.last = None;
        self.start = s as u32;
        self.goal = g as u32;
        self.nodes[s] = Node { g: 0.0, parent: s as u32, stamp: self.stamp };
        self.goal_xy = (goal.x, goal.y);
        self.h_scale = grid.heuristic_scale();
        self.open.push(Open { f: self.heuristic(start.x, start.y), g: 0.0, cell: s as u32 });
        self.status = Some(Status::InProgress);
        Ok(())
    }

    /// Expands at most `max_expansions` nodes of the running query and says where it stands.
    /// The grid must be the one the query began on (same size; costs may have changed).
    pub fn step(&mut self, grid: &impl CostModel, max_expansions: usize) -> Status {
        if self.status != Some(Status::InProgress) {
            return self.status.unwrap_or(Status::NotFound);
        }
        if grid.width() != self.width || grid.width() as usize * grid.height() as usize > self.nodes.len() {
            self.status = Some(Status::NotFound);
            return Status::NotFound;
        }
        let (open, closed) = (self.stamp, self.stamp + 1);
        let w = self.width as i32;
        let h = grid.height() as i32;
        let diag = self.options.diagonal_cost;
        let eight = self.options.connectivity == Connectivity::Eight;
        let cut = self.options.corner_cutting;
        let mut budget = max_expansions;
        while budget > 0 {
            let Some(Open { g, cell, .. }) = self.open.pop() else {
                self.status = Some(Status::NotFound);
                return Status::NotFound;
            };
            let c = cell as usize;
            let node = self.nodes[c];
            if node.stamp == closed || g > node.g {
                continue; // a stale entry: the cell was reached more cheaply since
            }
            self.nodes[c].stamp = closed;
            self.last = Some(cell);
            self.expanded += 1;
            budget -= 1;
            if cell == self.goal {
                self.status = Some(Status::Found);
                return Status::Found;
            }
            let (x, y) = (c as i32 % w, c as i32 / w);
            let free = |nx: i32, ny: i32| {
                nx >= 0 && ny >= 0 && nx < w && ny < h && grid.cell_cost((ny * w + nx) as usize).is_finite()
            };
            for (k, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
                let straight = k < 4;
                if !straight && !eight {
                    break;
                }
                let (nx, ny) = (x + dx, y + dy);
                if !free(nx, ny) {
                    continue;
                }
                let corner_ok = straight || cut || (free(x + dx, y) && free(x, y + dy));
                if !corner_ok {
                    continue;
                }
                let n = (ny * w + nx) as usize;
                let next = self.nodes[n];
                if next.stamp == closed {
                    continue;
                }
                let ng = g + grid.step_cost(c, n, if straight { 1.0 } else { diag });
                if next.stamp == open && ng >= next.g {
                    continue;
                }
                self.nodes[n] = Node { g: ng, parent: cell, stamp: open };
                let f = ng + self.heuristic(nx, ny);
                self.open.push(Open { f, g: ng, cell: n as u32 });
            }
        }
        Status::InProgress
    }

    /// Where the running or last query stands.
    pub fn status(&self) -> Status {
        self.status.unwrap_or(Status::NotFound)
    }

    /// How many nodes the running or last query has expanded.
    pub fn expanded(&self) -> usize {
        self.expanded
    }

    /// The cell expanded most recently (for debug drawing and the book's walkthrough).
    pub fn last_expanded(&self) -> Option<IVec2> {
        self.last.map(|c| self.cell(c as usize))
    }

    /// The cost of the best route to `cell` found so far in this query, if it has been reached.
    pub fn cost_so_far(&self, cell: IVec2) -> Option<f64> {
        let i = self.index(cell)?;
        let n = self.nodes.get(i)?;
        (n.stamp == self.stamp || n.stamp == self.stamp + 1).then_some(n.g)
    }

    /// Whether `cell` has been expanded (is on the closed list) in this query.
    pub fn is_closed(&self, cell: IVec2) -> bool {
        self.index(cell).and_then(|i| self.nodes.get(i)).is_some_and(|n| n.stamp == self.stamp + 1)
    }

    /// The cells on the open list (reached, not yet expanded), in index order.
    pub fn open_cells(&self) -> impl Iterator<Item = IVec2> + '_ {
        let stamp = self.stamp;
        self.nodes.iter().enumerate().filter(move |(_, n)| n.stamp == stamp).map(|(i, _)| self.cell(i))
    }

    /// Writes the found path, start first, into `out` (cleared first) and returns its cost;
    /// `None` when the query has not found one.
    pub fn write_path(&self, out: &mut Vec<IVec2>) -> Option<f64> {
        out.clear();
        if self.status != Some(Status::Found) {
            return None;
        }
        let mut c = self.goal as usize;
        loop {
            out.push(self.cell(c));
            let p = self.nodes[c].parent as usize;
            if p == c {
                break;
            }
            c = p;
        }
        out.reverse();
        Some(self.nodes[self.goal as usize].g)
    }

    /// The octile (or Manhattan) distance to the goal, scaled by the cost model's factor. Works
    /// on coordinates: dividing flat indices back into them would cost more than the search step.
    #[inline]
    fn heuristic(&self, x: i32, y: i32) -> f64 {
        let dx = f64::from((x - self.goal_xy.0).abs());
        let dy = f64::from((y - self.goal_xy.1).abs());
        let h = match self.options.connectivity {
            Connectivity::Four => dx + dy,
            Connectivity::Eight => {
                let (lo, hi) = (dx.min(dy), dx.max(dy));
                hi - lo + self.options.diagonal_cost.clamp(1.0, 2.0) * lo
            }
        };
        h * self.h_scale
    }

    fn cell(&self, i: usize) -> IVec2 {
        let w = self.width.max(1) as usize;
        IVec2::new((i % w) as i32, (i / w) as i32)
    }

    fn index(&self, cell: IVec2) -> Option<usize> {
        (cell.x >= 0 && cell.y >= 0 && (cell.x as u32) < self.width)
            .then(|| cell.y as usize * self.width as usize + cell.x as usize)
    }
}

/// Straight neighbours first (so 4-connected search can stop after them), then diagonals.
const NEIGHBOURS: [(i32, i32); 8] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)];
