//! A small tactical world of the tests' own: a map, a hidespot list, rails, a breadth-first path
//! oracle, one influence layer, and a simulated clock that data lookups advance.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::Arc;

use glam::{IVec2, Vec2};
use tactica_engine::grid::Map;
use tactica_engine::tactics::query::*;
use tactica_engine::world::EntityId;

pub fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A map from rows of `.` and `#`.
pub fn map(rows: &[&str]) -> Map {
    let mut m = Map::open(rows[0].len() as u32, rows.len() as u32);
    for (y, row) in rows.iter().enumerate() {
        for (x, ch) in row.bytes().enumerate() {
            if ch == b'#' {
                m.set(IVec2::new(x as i32, y as i32), b'#', f32::INFINITY);
            }
        }
    }
    m
}

/// Simulated nanoseconds.
#[derive(Default)]
pub struct SimClock(pub Cell<u64>);

impl SimClock {
    pub fn advance(&self, ns: u64) {
        self.0.set(self.0.get() + ns);
    }
}

impl Clock for SimClock {
    fn now(&self) -> u64 {
        self.0.get()
    }
}

/// Costs in simulated nanoseconds of each data lookup.
pub const HIDESPOT_COST: u64 = 200;
pub const PATH_COST: u64 = 8_000;

pub struct TestWorld {
    pub map: Map,
    pub hidespots: Vec<Hidespot>,
    pub rails: Vec<CoverRail>,
    pub threat: Vec<f32>,
    pub clock: Option<std::rc::Rc<SimClock>>,
    pub path_calls: Cell<u64>,
}

impl TestWorld {
    pub fn new(map: Map) -> Self {
        let threat = vec![0.0; map.len()];
        TestWorld { map, hidespots: Vec::new(), rails: Vec::new(), threat, clock: None, path_calls: Cell::new(0) }
    }

    pub fn env<'a>(&'a self, reservations: &'a Reservations) -> QueryEnv<'a> {
        QueryEnv {
            hidespots: self,
            rails: self,
            paths: self,
            influence: self,
            ..QueryEnv::new(&self.map, reservations)
        }
    }

    fn charge(&self, ns: u64) {
        if let Some(c) = &self.clock {
            c.advance(ns);
        }
    }
}

impl HidespotSource for TestWorld {
    fn hidespots_within(&self, centre: Vec2, radius: f32, out: &mut Vec<Hidespot>) {
        for h in &self.hidespots {
            self.charge(HIDESPOT_COST);
            if h.position.distance(centre) <= radius {
                out.push(*h);
            }
        }
    }
}

impl CoverRailSource for TestWorld {
    fn rails_within(&self, centre: Vec2, radius: f32, out: &mut Vec<CoverRail>) {
        out.extend(self.rails.iter().filter(|r| r.points.iter().any(|p| p.distance(centre) <= radius + 50.0)).cloned());
    }
}

impl PathOracle for TestWorld {
    /// Breadth-first search over 4-connected passable cells (one unit per step): the naive
    /// per-question search an expensive criterion stands for.
    fn path_distance(&self, from: Vec2, to: Vec2) -> Option<f32> {
        self.charge(PATH_COST);
        self.path_calls.set(self.path_calls.get() + 1);
        let (a, b) = (cell(from), cell(to));
        let idx = |c: IVec2| self.map.index(c);
        let (ia, ib) = (idx(a)?, idx(b)?);
        if !self.map.passable(a) || !self.map.passable(b) {
            return None;
        }
        let mut dist = vec![u32::MAX; self.map.len()];
        dist[ia] = 0;
        let mut q = VecDeque::from([a]);
        while let Some(c) = q.pop_front() {
            let d = dist[idx(c)?];
            if c == b {
                return Some(dist[ib] as f32);
            }
            for n in [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y].map(|s| c + s) {
                if let Some(i) = idx(n)
                    && self.map.passable(n)
                    && dist[i] == u32::MAX
                {
                    dist[i] = d + 1;
                    q.push_back(n);
                }
            }
        }
        None
    }
}

impl InfluenceLookup for TestWorld {
    fn influence(&self, layer: &str, at: Vec2) -> Option<f32> {
        (layer == "threat").then(|| self.map.index(cell(at)).map_or(0.0, |i| self.threat[i]))
    }
    fn influence_limits(&self, layer: &str) -> Option<(f32, f32)> {
        (layer == "threat").then_some((0.0, 10.0))
    }
}

pub fn cover(facing: Option<Vec2>, hard: bool, high: bool) -> Cover {
    Cover { hard, high, quality: if hard { 1.0 } else { 0.5 }, facing, cos_half_angle: 0.5 }
}

/// A directional hidespot at `p` facing `facing` (cone ±60°).
pub fn spot(id: u32, p: Vec2, facing: Vec2, hard: bool) -> Hidespot {
    Hidespot { id, position: p, shape: HidespotShape::Directional, cover: cover(Some(facing.normalize()), hard, true) }
}

pub fn owner() -> EntityId {
    EntityId::default()
}

/// `n` distinct entity ids.
pub fn owners(n: usize) -> Vec<EntityId> {
    let mut sm: slotmap::SlotMap<EntityId, ()> = slotmap::SlotMap::with_key();
    (0..n).map(|_| sm.insert(())).collect()
}

pub fn objects(puppet: Vec2, target: Option<Vec2>) -> Objects {
    let mut o = Objects::new().with(ObjectKind::Puppet, ObjectState::at(puppet));
    if let Some(t) = target {
        o.set(ObjectKind::Target, ObjectState::at(t));
    }
    o
}

/// Compiles one query from block text.
pub fn query(src: &str) -> Arc<Query> {
    match parse_queries("test.tac", src, QueryConfig::default()) {
        Ok(mut q) => Arc::new(q.remove(0)),
        Err(e) => panic!("query does not compile:\n{e}"),
    }
}

/// Wraps sections into a one-option query.
pub fn option(sections: &str) -> Arc<Query> {
    query(&format!("query q {{ option {{ {sections} }} }}"))
}

/// Runs lazily with a record, checks the exhaustive evaluator agrees, returns the outcome and record.
pub fn run(q: &Arc<Query>, env: &QueryEnv<'_>, objects: Objects) -> (Outcome, QueryRecord) {
    let mut req = QueryRequest::new(owner(), objects);
    req.record = true;
    let mut e = Evaluation::new(Arc::clone(q), req.clone());
    while e.step(env, &WallClock::new(), u64::MAX) == Status::InProgress {}
    let outcome = e.outcome().cloned().expect("done");
    let (reference, _) = evaluate_exhaustive(q, &req, env);
    assert_eq!(outcome, reference, "lazy and exhaustive evaluation disagree");
    (outcome, e.record().clone())
}

pub fn best(o: &Outcome) -> QueryResult {
    *o.best().unwrap_or_else(|| panic!("no result: {o:?}"))
}

/// Candidates of the last option record that passed every condition (chosen or not).
pub fn passed(r: &QueryRecord) -> Vec<Vec2> {
    r.options
        .last()
        .map(|o| {
            o.candidates
                .iter()
                .filter(|c| {
                    matches!(c.status, CandidateStatus::Chosen(_) | CandidateStatus::Passed | CandidateStatus::Partial)
                })
                .map(|c| c.position)
                .collect()
        })
        .unwrap_or_default()
}
