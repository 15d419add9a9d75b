//! Time-sliced pathfinding: many requests served fairly under a per-tick expansion budget, so a
//! frame's budget holds however many characters ask at once (Detour's sliced queries and crowd
//! `MAX_ITERS_PER_UPDATE`).
//!
//! Each active request owns an [`AStar`] (resumable by design: `begin → step(n) → Status`). At
//! most `max_active` requests search at a time; the rest wait in arrival order. Active requests
//! take turns (round robin), each turn at most `quantum` expansions, until the tick's budget is
//! spent — so a short request submitted behind a long one finishes in a few ticks instead of
//! waiting for the long one, and no request starves.

use std::collections::{BTreeMap, VecDeque};

use glam::IVec2;

use super::{AStar, CostModel, GraphQuery, Hpa, HpaQuery, NodeId, PathError, Status, WaypointGraph};
use crate::grid::Map;

/// The expansions a tick may spend by default.
pub const DEFAULT_TICK_BUDGET: usize = 4096;

/// A request's handle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RequestId(u64);

/// Where a request stands.
#[derive(Debug, Clone, PartialEq)]
pub enum RequestState {
    /// Waiting for a searcher.
    Queued,
    /// Being searched; `expanded` nodes so far.
    Searching {
        /// Nodes expanded so far.
        expanded: usize,
    },
    /// Done: the path (start first) and its cost.
    Found {
        /// The cells, start first.
        cells: Vec<IVec2>,
        /// The path's cost.
        cost: f64,
    },
    /// Done without a path.
    Failed(PathError),
}

#[derive(Debug, Clone)]
struct Request {
    id: RequestId,
    start: IVec2,
    goal: IVec2,
    kind: Kind,
}

/// How a request asks to be searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Flat,
    Hierarchical,
    Graph,
}

/// What requests other than flat ones search through: the map, HPA*'s abstraction of it and a
/// waypoint graph over it, each kept in step with the map by the queue's owner.
#[derive(Debug, Clone, Copy)]
pub struct Routes<'a> {
    /// The map the searches run on.
    pub map: &'a Map,
    /// HPA*'s abstraction, for requests submitted with [`PathQueue::submit_hierarchical`].
    pub hierarchy: Option<&'a Hpa>,
    /// The waypoint graph, for requests submitted with [`PathQueue::submit_graph`].
    pub graph: Option<&'a WaypointGraph>,
}

/// How an active request searches: flat A* in its slot's searcher, or an HPA* query that
/// borrows its slot's searcher for the confined searches.
#[derive(Debug, Clone)]
enum Lane {
    Flat,
    Hierarchical(Box<HpaQuery>),
    Graph(Box<GraphQuery>),
}

/// A fair queue of path requests over one map.
#[derive(Debug, Clone)]
pub struct PathQueue {
    searchers: Vec<AStar>,
    free: Vec<usize>,
    waiting: VecDeque<Request>,
    /// Active requests in turn order, with their searcher.
    active: VecDeque<(RequestId, usize, Lane)>,
    done: BTreeMap<RequestId, RequestState>,
    /// The nodes of the waypoint routes found, until taken.
    routes: BTreeMap<RequestId, Vec<NodeId>>,
    next_id: u64,
    quantum: usize,
    spent: usize,
}

impl PathQueue {
    /// A queue searching at most `max_active` requests at once (each holds one map-sized
    /// buffer), giving each at most `quantum` expansions per turn (both at least 1).
    pub fn new(max_active: usize, quantum: usize) -> Self {
        let n = max_active.max(1);
        PathQueue {
            searchers: vec![AStar::new(); n],
            free: (0..n).rev().collect(),
            waiting: VecDeque::new(),
            active: VecDeque::new(),
            done: BTreeMap::new(),
            routes: BTreeMap::new(),
            next_id: 0,
            quantum: quantum.max(1),
            spent: 0,
        }
    }

    /// Queues a request.
    pub fn submit(&mut self, start: IVec2, goal: IVec2) -> RequestId {
        let id = RequestId(self.next_id);
        self.next_id += 1;
        self.waiting.push_back(Request { id, start, goal, kind: Kind::Flat });
        id
    }

    fn submit_as(&mut self, start: IVec2, goal: IVec2, kind: Kind) -> RequestId {
        let id = self.submit(start, goal);
        if let Some(r) = self.waiting.back_mut() {
            r.kind = kind;
        }
        id
    }

    /// Queues a request to be routed over the waypoint graph ([`Routes::graph`]): the nearest
    /// nodes a straight walk reaches from each end, the cheapest route between them. Searched
    /// flat when the update has no graph or the graph does not reach an end.
    pub fn submit_graph(&mut self, start: IVec2, goal: IVec2) -> RequestId {
        self.submit_as(start, goal, Kind::Graph)
    }

    /// The waypoint nodes of a finished graph route, taken out of the queue (`None` for a
    /// request that was not routed over the graph).
    pub fn take_route(&mut self, id: RequestId) -> Option<Vec<NodeId>> {
        self.routes.remove(&id)
    }

    /// Queues a request to be searched through a hierarchy ([`Hpa`]) when the update is given
    /// one ([`PathQueue::update_routed`]); flat otherwise.
    pub fn submit_hierarchical(&mut self, start: IVec2, goal: IVec2) -> RequestId {
        self.submit_as(start, goal, Kind::Hierarchical)
    }

    /// Spends at most `budget` expansions on the queued requests. Returns how many were spent.
    pub fn update(&mut self, map: &Map, budget: usize) -> usize {
        self.update_with(budget, |_| map)
    }

    /// [`PathQueue::update`] with a cost model per request: characters with tactical weights
    /// search the same budget with their own step costs ([`super::TacticalCost`]).
    pub fn update_with<C: CostModel>(&mut self, budget: usize, cost: impl Fn(RequestId) -> C) -> usize {
        self.update_routed(budget, cost, None)
    }

    /// [`PathQueue::update_with`], searching the requests submitted with
    /// [`PathQueue::submit_hierarchical`] and [`PathQueue::submit_graph`] through `routes`.
    /// Their expansions (HPA*'s link, abstract and refinement ones; the graph's link tests and
    /// closed nodes) count against the same budget and take the same turns as flat ones.
    pub fn update_routed<C: CostModel>(
        &mut self,
        budget: usize,
        cost: impl Fn(RequestId) -> C,
        routes: Option<Routes<'_>>,
    ) -> usize {
        self.spent = 0;
        loop {
            self.admit(&cost, routes);
            if self.spent >= budget {
                break;
            }
            let Some((id, slot, mut lane)) = self.active.pop_front() else { break };
            let searcher = &mut self.searchers[slot];
            let turn = self.quantum.min(budget - self.spent);
            let status = match (&mut lane, routes) {
                (Lane::Hierarchical(query), Some(Routes { map, hierarchy: Some(hpa), .. })) => {
                    let before = query.expanded();
                    let status = query.step(hpa, map, searcher, turn);
                    self.spent += query.expanded() - before;
                    status
                }
                (Lane::Graph(query), Some(Routes { map, graph: Some(graph), .. })) => {
                    let before = query.expanded();
                    let status = query.step(graph, map, turn);
                    self.spent += query.expanded() - before;
                    // An end no node is in a straight walk of: the graph does not cover it, so
                    // the request is searched on the grid instead, in the same slot.
                    if status == Status::NotFound && query.unlinked() {
                        match self.searchers[slot].begin(&cost(id), query.start(), query.goal()) {
                            Ok(()) => self.active.push_back((id, slot, Lane::Flat)),
                            Err(e) => self.finish(id, slot, RequestState::Failed(e)),
                        }
                        continue;
                    }
                    status
                }
                // The hierarchy or the graph went away under a query (the service was
                // reconfigured): it cannot be resumed, so it fails and its owner asks again.
                (Lane::Hierarchical(query), _) => {
                    let expanded = query.expanded();
                    self.finish(id, slot, RequestState::Failed(PathError::NoPath { expanded }));
                    continue;
                }
                (Lane::Graph(query), _) => {
                    let expanded = query.expanded();
                    self.finish(id, slot, RequestState::Failed(PathError::NoPath { expanded }));
                    continue;
                }
                (Lane::Flat, _) => {
                    let before = searcher.expanded();
                    let status = searcher.step(&cost(id), turn);
                    self.spent += searcher.expanded() - before;
                    status
                }
            };
            match status {
                Status::InProgress => self.active.push_back((id, slot, lane)),
                Status::Found => {
                    let (cells, cost) = match &mut lane {
                        Lane::Hierarchical(query) => (query.take_cells(), query.found().cost),
                        Lane::Graph(query) => {
                            self.routes.insert(id, query.route().to_vec());
                            let cells = routes.and_then(|r| r.graph).map(|g| query.cells(g)).unwrap_or_default();
                            (cells, query.cost())
                        }
                        Lane::Flat => {
                            let mut cells = Vec::new();
                            let cost = self.searchers[slot].write_path(&mut cells).unwrap_or(0.0);
                            (cells, cost)
                        }
                    };
                    self.finish(id, slot, RequestState::Found { cells, cost });
                }
                Status::NotFound => {
                    let error = match &lane {
                        Lane::Hierarchical(query) => {
                            query.error().unwrap_or(PathError::NoPath { expanded: query.expanded() })
                        }
                        Lane::Graph(query) => PathError::NoPath { expanded: query.expanded() },
                        Lane::Flat => PathError::NoPath { expanded: self.searchers[slot].expanded() },
                    };
                    self.finish(id, slot, RequestState::Failed(error));
                }
            }
        }
        self.spent
    }

    /// Where a request stands; `None` for an unknown (or already taken) one.
    pub fn state(&self, id: RequestId) -> Option<RequestState> {
        if let Some(done) = self.done.get(&id) {
            return Some(done.clone());
        }
        if let Some((_, slot, lane)) = self.active.iter().find(|(r, ..)| *r == id) {
            let expanded = match lane {
                Lane::Flat => self.searchers[*slot].expanded(),
                Lane::Hierarchical(query) => query.expanded(),
                Lane::Graph(query) => query.expanded(),
            };
            return Some(RequestState::Searching { expanded });
        }
        // Requests wait in the order they were submitted, so by rising id: every walker whose
        // search waits asks each tick, and a scan of a long queue per asker grew with its square.
        self.waiting.binary_search_by_key(&id, |r| r.id).is_ok().then_some(RequestState::Queued)
    }

    /// Takes a finished request's result out of the queue.
    pub fn take(&mut self, id: RequestId) -> Option<RequestState> {
        self.done.remove(&id)
    }

    /// Drops a request wherever it is.
    pub fn cancel(&mut self, id: RequestId) {
        self.waiting.retain(|r| r.id != id);
        if let Some(k) = self.active.iter().position(|(r, ..)| *r == id)
            && let Some((_, slot, _)) = self.active.remove(k)
        {
            self.free.push(slot);
        }
        self.done.remove(&id);
        self.routes.remove(&id);
    }

    /// How many requests are waiting or searching.
    pub fn pending(&self) -> usize {
        self.waiting.len() + self.active.len()
    }

    /// Gives waiting requests the free searchers, in arrival order. A request whose endpoint is
    /// off the map or blocked fails here without costing any budget.
    fn admit<C: CostModel>(&mut self, cost: &impl Fn(RequestId) -> C, routes: Option<Routes<'_>>) {
        while !self.free.is_empty()
            && let Some(r) = self.waiting.pop_front()
        {
            let slot = self.free.pop().unwrap_or(0);
            let begun = match (r.kind, routes) {
                (Kind::Hierarchical, Some(Routes { map, hierarchy: Some(hpa), .. })) => {
                    HpaQuery::begin(hpa, map, r.start, r.goal).map(|q| Lane::Hierarchical(Box::new(q)))
                }
                (Kind::Graph, Some(Routes { map, graph: Some(graph), .. })) => {
                    GraphQuery::begin(graph, map, r.start, r.goal).map(|q| Lane::Graph(Box::new(q)))
                }
                _ => self.searchers[slot].begin(&cost(r.id), r.start, r.goal).map(|()| Lane::Flat),
            };
            match begun {
                Ok(lane) => self.active.push_back((r.id, slot, lane)),
                Err(e) => {
                    self.done.insert(r.id, RequestState::Failed(e));
                    self.free.push(slot);
                }
            }
        }
    }

    fn finish(&mut self, id: RequestId, slot: usize, state: RequestState) {
        self.done.insert(id, state);
        self.free.push(slot);
    }
}

impl Default for PathQueue {
    /// Eight searchers, 256 expansions a turn.
    fn default() -> Self {
        PathQueue::new(8, 256)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn maze() -> Map {
        // Long walls force long searches from the left edge to the right edge.
        let mut m = Map::open(40, 20);
        for x in (4..40).step_by(6) {
            for y in 0..20 {
                let gap = if (x / 6) % 2 == 0 { 19 } else { 0 };
                if y != gap {
                    m.set(IVec2::new(x, y), b'#', f32::INFINITY);
                }
            }
        }
        m
    }

    #[test]
    fn a_search_can_be_resumed_slice_by_slice() {
        let m = maze();
        let (a, b) = (IVec2::new(0, 0), IVec2::new(39, 10));
        let mut whole = Vec::new();
        let found = AStar::new().find(&m, a, b, &mut whole).unwrap();
        let mut s = AStar::new();
        s.begin(&m, a, b).unwrap();
        let mut calls = 0;
        while s.step(&m, 10) == Status::InProgress {
            calls += 1;
            assert_eq!(s.expanded(), calls * 10);
        }
        assert_eq!(s.status(), Status::Found);
        assert!(calls > 10);
        let mut sliced = Vec::new();
        assert_eq!(s.write_path(&mut sliced), Some(found.cost));
        assert_eq!(sliced, whole);
        assert_eq!(s.expanded(), found.expanded);
    }

    #[test]
    fn the_tick_budget_holds_and_every_request_is_answered() {
        let m = maze();
        let mut q = PathQueue::new(3, 16);
        let goals: Vec<IVec2> = (0..10).map(|i| IVec2::new(39 - i % 3, i * 2)).collect();
        let ids: Vec<RequestId> = goals.iter().map(|&g| q.submit(IVec2::ZERO, g)).collect();
        let bad = q.submit(IVec2::ZERO, IVec2::new(4, 5));
        let mut ticks = 0;
        while q.pending() > 0 {
            let spent = q.update(&m, 100);
            assert!(spent <= 100, "tick {ticks} spent {spent}");
            ticks += 1;
            assert!(ticks < 10_000);
        }
        let mut cells = Vec::new();
        for (id, goal) in ids.into_iter().zip(goals) {
            let expected = AStar::new().find(&m, IVec2::ZERO, goal, &mut cells).unwrap();
            match q.take(id) {
                Some(RequestState::Found { cost, cells: got }) => {
                    assert_eq!(cost, expected.cost);
                    assert_eq!(got, cells);
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(matches!(q.take(bad), Some(RequestState::Failed(PathError::Blocked { .. }))));
        assert_eq!(q.take(bad), None);
    }

    #[test]
    fn a_short_request_does_not_wait_for_long_ones() {
        let m = maze();
        let mut q = PathQueue::new(3, 8);
        let long1 = q.submit(IVec2::ZERO, IVec2::new(39, 19));
        let long2 = q.submit(IVec2::new(0, 19), IVec2::new(39, 0));
        let short = q.submit(IVec2::new(1, 1), IVec2::new(2, 2));
        // One turn each: 8 + 8 expansions for the long ones, 2 for the short one (start, goal).
        q.update(&m, 18);
        assert!(matches!(q.state(short), Some(RequestState::Found { .. })), "{:?}", q.state(short));
        // The two long ones took equal turns.
        let expanded = |q: &PathQueue, id| match q.state(id) {
            Some(RequestState::Searching { expanded }) => expanded,
            other => panic!("{other:?}"),
        };
        assert_eq!((expanded(&q, long1), expanded(&q, long2)), (8, 8));
        for _ in 0..10 {
            q.update(&m, 32);
            let (a, b) = (expanded(&q, long1), expanded(&q, long2));
            assert!(a.abs_diff(b) <= 8, "{a} vs {b}");
        }
        q.cancel(long1);
        assert_eq!(q.state(long1), None);
        assert_eq!(q.pending(), 1);
        // A waiting request takes the freed searcher.
        let later = q.submit(IVec2::ZERO, IVec2::new(3, 3));
        q.update(&m, 64);
        assert!(matches!(q.state(later), Some(RequestState::Found { .. })));
    }

    #[test]
    fn hierarchical_requests_share_the_budget_and_find_what_hpa_finds() {
        let m = maze();
        let hpa = Hpa::build(&m, 8);
        let mut q = PathQueue::new(3, 16);
        let pairs = [
            (IVec2::ZERO, IVec2::new(39, 19)),
            (IVec2::new(0, 19), IVec2::new(39, 0)),
            (IVec2::new(2, 2), IVec2::new(3, 3)),
        ];
        let ids: Vec<RequestId> = pairs.iter().map(|&(a, b)| q.submit_hierarchical(a, b)).collect();
        let flat = q.submit(IVec2::ZERO, IVec2::new(39, 10));
        let routes = Routes { map: &m, hierarchy: Some(&hpa), graph: None };
        let mut ticks = 0;
        while q.pending() > 0 {
            let spent = q.update_routed(40, |_| &m, Some(routes));
            assert!(spent <= 40, "tick {ticks} spent {spent}");
            ticks += 1;
            assert!(ticks < 10_000);
        }
        assert!(ticks > 10, "the searches were spread over {ticks} ticks");
        for (id, (a, b)) in ids.into_iter().zip(pairs) {
            let mut cells = Vec::new();
            let found = hpa.find(&m, a, b, &mut cells).unwrap();
            assert_eq!(q.take(id), Some(RequestState::Found { cells, cost: found.cost }));
        }
        let mut cells = Vec::new();
        let best = AStar::new().find(&m, IVec2::ZERO, IVec2::new(39, 10), &mut cells).unwrap();
        assert_eq!(q.take(flat), Some(RequestState::Found { cells, cost: best.cost }));
    }

    #[test]
    fn a_graph_request_routes_over_the_nodes_or_falls_back_to_the_grid() {
        let m = maze();
        // Two nodes either side of the first wall (x = 4, gap at row 19).
        let mut g = WaypointGraph::new();
        let a = g.add_node(glam::Vec2::new(2.5, 18.5));
        let b = g.add_node(glam::Vec2::new(4.5, 19.5));
        let c = g.add_node(glam::Vec2::new(7.5, 18.5));
        g.connect(a, b);
        g.connect(b, c);
        let mut q = PathQueue::new(2, 1);
        let over = q.submit_graph(IVec2::new(1, 17), IVec2::new(8, 17));
        // From row 0 no node is in a straight walk (the second wall's far side): grid search.
        let fallback = q.submit_graph(IVec2::new(12, 0), IVec2::new(18, 0));
        let routes = Routes { map: &m, hierarchy: None, graph: Some(&g) };
        while q.pending() > 0 {
            assert!(q.update_routed(1, |_| &m, Some(routes)) <= 1);
        }
        match q.take(over) {
            Some(RequestState::Found { cells, cost }) => {
                assert_eq!(
                    cells,
                    [IVec2::new(1, 17), IVec2::new(2, 18), IVec2::new(4, 19), IVec2::new(7, 18), IVec2::new(8, 17)]
                );
                let leg = |p: glam::Vec2, q: glam::Vec2| f64::from(p.distance(q));
                let expected = leg(glam::Vec2::new(1.5, 17.5), g.position(a).unwrap())
                    + f64::from(g.position(a).unwrap().distance(g.position(b).unwrap()))
                    + f64::from(g.position(b).unwrap().distance(g.position(c).unwrap()))
                    + leg(g.position(c).unwrap(), glam::Vec2::new(8.5, 17.5));
                assert!((cost - expected).abs() < 1e-5, "{cost} vs {expected}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(q.take_route(over), Some(vec![a, b, c]));
        let mut cells = Vec::new();
        let best = AStar::new().find(&m, IVec2::new(12, 0), IVec2::new(18, 0), &mut cells).unwrap();
        assert_eq!(q.take(fallback), Some(RequestState::Found { cells, cost: best.cost }));
        assert_eq!(q.take_route(fallback), None);
    }
}
