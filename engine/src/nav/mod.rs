//! Navigation as a service of the world: every move a character makes — a scenario's `move_to`
//! and `follow_path`, a script's `MoveTo`, `MoveToPlace`, `DoFlee`, an action queue's step — plans
//! a path through one per-tick [`PathQueue`] and follows it smoothed.
//!
//! Why one queue for the world: a frame has one budget for search. Detour's crowd and sliced
//! queries do the same — requests wait their turn, active ones take turns of a few expansions,
//! and the tick's total never exceeds [`NavConfig::budget`] however many characters ask at once,
//! so a hundred characters told to move on the same tick spread their searches over a few ticks
//! instead of stalling one.
//!
//! A character's plan remembers the map's edit count ([`Navigator::map_version`]). When the map
//! changes (a door opens, a wall falls — `World::set_blocked`, `World::set_door`), every plan
//! made before is dropped and searched again from where the character stands, so after any
//! change each remaining route is optimal on the map as it is: a door that opens gives the
//! shorter way, one that closes is walked round.
//!
//! Large maps plan through HPA* ([`Hpa`], [`Hierarchy`]): a flat search across a large map
//! expands cells in proportion to the area it floods, while the hierarchical query links the
//! endpoints into their clusters, searches the graph of border transitions and refines the route
//! cluster by cluster — its expansions charged to the same budget — for a route somewhat dearer
//! than the optimal one (`tests/hierarchy_navigation.rs` measures it). A map edit rebuilds the
//! abstraction only for the clusters the edited cells touch.
//!
//! Plans are smoothed by the walker's own line of sight (the supercover line, no cut corners),
//! so a smoothed leg never enters a blocked cell and is never longer than the grid path.
//!
//! Three kinds of search take turns in the one `PathQueue` under the one budget: flat A*, HPA*,
//! and routes over a scenario's waypoint graph (`[navigation.graph]`, `GraphQuery`), which are
//! walked node to node, unsmoothed (the nodes stay in the plan's `via`). A move whose straight
//! line crosses only open ground of the cheapest cost is walked without a search. A character
//! with `avoid` weights always searches flat, with a `TacticalCost` of its own, and walks its
//! cells unsmoothed, since a shortcut would cross what it avoids. With `NavConfig::blocked_ticks`,
//! a walker held that long by a character standing in its way plans round every standing
//! character, and says so in the trace when there is no way round.

mod components;
mod plan;

use std::collections::BTreeMap;

pub use components::Components;
use glam::IVec2;
pub use plan::{Plan, PlanState};
use slotmap::SecondaryMap;

use crate::field::TacticalMaps;
use crate::grid::Map;
use crate::path::{
    CostModel, DEFAULT_TICK_BUDGET, Hpa, PathQueue, RequestId, RequestState, Routes, TacticalCost, TacticalWeights,
    WaypointGraph,
};

/// Maps with at least this many cells (256 × 256) plan hierarchically unless told otherwise:
/// above it a flat search across the map outgrows the default per-tick budget many times over.
pub const HIERARCHY_AUTO_CELLS: usize = 256 * 256;

/// The cluster side of an automatic hierarchy: 16 keeps a cluster's confined searches to a few
/// hundred cells, so linking an endpoint in fits one search turn.
pub const DEFAULT_CLUSTER: u32 = 16;

/// Whether searches go through HPA*.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Hierarchy {
    /// Hierarchical with clusters of [`DEFAULT_CLUSTER`] on maps of at least
    /// [`HIERARCHY_AUTO_CELLS`] cells, flat on smaller ones.
    #[default]
    Auto,
    /// Always flat (optimal routes, however long the search).
    Off,
    /// Always hierarchical, with square clusters of this side (at least 2).
    Clusters(u32),
}

impl Hierarchy {
    /// The cluster side to use on a map of `cells` cells, or `None` to search flat.
    pub fn cluster_for(self, cells: usize) -> Option<u32> {
        match self {
            Hierarchy::Auto => (cells >= HIERARCHY_AUTO_CELLS).then_some(DEFAULT_CLUSTER),
            Hierarchy::Off => None,
            Hierarchy::Clusters(n) => Some(n.max(2)),
        }
    }
}
use crate::world::EntityId;

/// How much search the world may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavConfig {
    /// Node expansions all path searches together may spend in one tick.
    pub budget: usize,
    /// Searches that may be under way at once (each holds one map-sized buffer).
    pub max_active: usize,
    /// Expansions one search may spend before the next one takes its turn.
    pub quantum: usize,
    /// Whether searches go through HPA*. Characters with `avoid` weights always search flat:
    /// the abstraction knows the map's costs, not their layers.
    pub hierarchy: Hierarchy,
    /// Ticks a walker waits when a standing character holds the next cell of its way before it
    /// plans round every standing character; 0: characters walk through one another.
    pub blocked_ticks: u32,
}

impl Default for NavConfig {
    fn default() -> Self {
        NavConfig {
            budget: DEFAULT_TICK_BUDGET,
            max_active: 8,
            quantum: 256,
            hierarchy: Hierarchy::Auto,
            blocked_ticks: 0,
        }
    }
}

/// The world's navigation service: the path queue, the characters' plans and the map's edit count.
#[derive(Debug, Clone)]
pub struct Navigator {
    config: NavConfig,
    queue: PathQueue,
    /// Each walker's plan. Looked up several times per walker per tick, so by slot, not by a
    /// tree search; nothing iterates it in an order that matters (only to drop the dead). Boxed:
    /// every character's slot is visited every tick (most to find no plan, or to drop one), and
    /// a slot holding a whole plan is two cache lines, a boxed one a sixth of one.
    plans: SecondaryMap<EntityId, Box<Plan>>,
    /// The last goal each character was told it cannot reach, and on which map: asking again
    /// for the same goal on the same map fails without a search or a second report.
    refused: SecondaryMap<EntityId, (IVec2, u64)>,
    map_version: u64,
    /// The map's connected areas as of `map_version`.
    components: Components,
    /// HPA*'s abstraction of the map as of `map_version`, when searches go through it.
    hpa: Option<Hpa>,
    /// The scenario's waypoint graph and its nodes' names: when there is one, moves route over it.
    graph: Option<(WaypointGraph, Vec<String>)>,
    /// The layers and weights of searches made for characters that avoid tactical layers.
    weighted: BTreeMap<RequestId, (Vec<String>, TacticalWeights)>,
    /// The cells (sorted indices) searches made round standing characters treat as walls.
    around: BTreeMap<RequestId, Vec<usize>>,
    /// How many ticks in a row each walker has been held by a standing character.
    held: BTreeMap<EntityId, u32>,
    spent_last_tick: usize,
    most_spent: usize,
}

impl Default for Navigator {
    fn default() -> Self {
        Navigator::new(NavConfig::default())
    }
}

impl Navigator {
    /// A service with these limits (each at least 1).
    pub fn new(config: NavConfig) -> Self {
        let config = NavConfig {
            budget: config.budget.max(1),
            max_active: config.max_active.max(1),
            quantum: config.quantum.max(1),
            hierarchy: config.hierarchy,
            blocked_ticks: config.blocked_ticks,
        };
        Navigator {
            config,
            queue: PathQueue::new(config.max_active, config.quantum),
            plans: SecondaryMap::new(),
            refused: SecondaryMap::new(),
            map_version: 0,
            components: Components::default(),
            hpa: None,
            graph: None,
            weighted: BTreeMap::new(),
            around: BTreeMap::new(),
            held: BTreeMap::new(),
            spent_last_tick: 0,
            most_spent: 0,
        }
    }

    /// The limits in force.
    pub fn config(&self) -> NavConfig {
        self.config
    }

    /// How many times the map has been edited since the world began.
    pub fn map_version(&self) -> u64 {
        self.map_version
    }

    /// Expansions spent in the last tick's search (never more than the budget).
    pub fn spent_last_tick(&self) -> usize {
        self.spent_last_tick
    }

    /// The most expansions any one tick has spent so far.
    pub fn most_spent(&self) -> usize {
        self.most_spent
    }

    /// Requests waiting or being searched.
    pub fn pending(&self) -> usize {
        self.queue.pending()
    }

    /// A character's current plan, if it is moving.
    pub fn plan(&self, id: EntityId) -> Option<&Plan> {
        self.plans.get(id).map(|p| &**p)
    }

    /// Every plan made before this call is out of date: the map changed (to `map`) anywhere.
    pub(crate) fn map_changed(&mut self, map: &Map) {
        self.map_version += 1;
        self.components = Components::of(map);
        self.hpa = self.config.hierarchy.cluster_for(map.len()).map(|size| Hpa::build(map, size));
    }

    /// Every plan made before this call is out of date: `cells` of `map` changed. The
    /// hierarchy is rebuilt only for the clusters they touch.
    pub(crate) fn cells_changed(&mut self, map: &Map, cells: &[IVec2]) {
        let Some(hpa) = self.hpa.as_mut().filter(|h| h.covers(map)) else {
            self.map_changed(map);
            return;
        };
        if let (Some(min), Some(max)) =
            (cells.iter().copied().reduce(IVec2::min), cells.iter().copied().reduce(IVec2::max))
        {
            hpa.update_region(map, min, max);
        }
        self.map_version += 1;
        self.components = Components::of(map);
    }

    /// Takes over from `old`, a service that had seen its map edits: every plan it had is
    /// stale; its hierarchy is kept when the cluster size is the same.
    pub(crate) fn resume(&mut self, old: Navigator, map: &Map) {
        self.map_version = old.map_version + 1;
        self.components = old.components;
        self.graph = old.graph;
        // The old service kept its abstraction in step with the map: reuse it when it fits.
        let size = self.config.hierarchy.cluster_for(map.len());
        self.hpa = match (size, old.hpa) {
            (Some(size), Some(hpa)) if hpa.cluster_size() == size && hpa.covers(map) => Some(hpa),
            (Some(size), _) => Some(Hpa::build(map, size)),
            (None, _) => None,
        };
    }

    /// Routes every later move over `graph` (its nodes named by `names`, in id order); `None`
    /// goes back to grid searches. Plans under way are searched again.
    pub(crate) fn set_graph(&mut self, graph: Option<(WaypointGraph, Vec<String>)>) {
        self.graph = graph;
        self.map_version += 1;
    }

    /// The waypoint graph moves route over, and its nodes' names.
    pub fn waypoint_graph(&self) -> Option<(&WaypointGraph, &[String])> {
        self.graph.as_ref().map(|(g, n)| (g, n.as_slice()))
    }

    /// HPA*'s abstraction of the map, when searches go through it.
    pub fn hierarchy(&self) -> Option<&Hpa> {
        self.hpa.as_ref()
    }

    /// The map's connected areas.
    pub fn components(&self) -> &Components {
        &self.components
    }

    /// Spends this tick's budget on the queued searches. Searches for characters that avoid
    /// layers price each step with those layers as they stand now ([`TacticalCost`]).
    pub(crate) fn update(&mut self, map: &Map, layers: Option<&TacticalMaps>) {
        let resolved: BTreeMap<RequestId, (Vec<&[f32]>, &TacticalWeights)> = self
            .weighted
            .iter()
            .filter_map(|(&r, (names, weights))| {
                let maps = layers?;
                let slices: Option<Vec<&[f32]>> =
                    names.iter().map(|n| maps.layer(n).map(|l| l.values()).filter(|v| v.len() == map.len())).collect();
                Some((r, (slices?, weights)))
            })
            .collect();
        let around = &self.around;
        let cost = |r: RequestId| {
            let base = match resolved.get(&r) {
                Some((slices, weights)) => {
                    TacticalCost::new(map, slices, weights).map_or(StepCost::Plain(map), StepCost::Tactical)
                }
                None => StepCost::Plain(map),
            };
            match around.get(&r) {
                Some(cells) => StepCost::Around(Box::new(base), cells),
                None => base,
            }
        };
        let routes = Routes { map, hierarchy: self.hpa.as_ref(), graph: self.graph.as_ref().map(|(g, _)| g) };
        self.spent_last_tick = self.queue.update_routed(self.config.budget, cost, Some(routes));
        self.most_spent = self.most_spent.max(self.spent_last_tick);
    }

    /// Queues a search from `start` to `goal` for `id`, replacing whatever it planned before;
    /// `avoid` weighs tactical layers by name (empty: the map's costs alone).
    pub(crate) fn request(&mut self, id: EntityId, start: IVec2, goal: IVec2, avoid: &BTreeMap<String, f32>) {
        self.forget(id);
        let request = if avoid.is_empty() && self.graph.is_some() {
            self.queue.submit_graph(start, goal)
        } else if avoid.is_empty() && self.hpa.is_some() {
            self.queue.submit_hierarchical(start, goal)
        } else {
            self.queue.submit(start, goal)
        };
        if !avoid.is_empty() {
            let (names, weights): (Vec<String>, Vec<f32>) = avoid.iter().map(|(k, &w)| (k.clone(), w)).unzip();
            self.weighted.insert(request, (names, TacticalWeights::new(weights)));
        }
        self.plans.insert(id, Box::new(Plan::pending(start, goal, request, self.map_version)));
    }

    /// Queues a search for `id` that treats `held` cells (standing characters) as walls,
    /// `why` naming who stands where for the report when there is no way round. Searched flat:
    /// the hierarchy and the waypoint graph know the map, not who stands on it.
    pub(crate) fn request_around(
        &mut self,
        id: EntityId,
        start: IVec2,
        goal: IVec2,
        avoid: &BTreeMap<String, f32>,
        held: Vec<usize>,
        why: String,
    ) {
        self.forget(id);
        let request = self.queue.submit(start, goal);
        if !avoid.is_empty() {
            let (names, weights): (Vec<String>, Vec<f32>) = avoid.iter().map(|(k, &w)| (k.clone(), w)).unzip();
            self.weighted.insert(request, (names, TacticalWeights::new(weights)));
        }
        self.around.insert(request, held);
        let mut plan = Plan::pending(start, goal, request, self.map_version);
        plan.around = Some(why);
        self.plans.insert(id, Box::new(plan));
    }

    /// Counts one more tick of `id` held by a standing character; true when it has waited
    /// [`NavConfig::blocked_ticks`] and should plan round.
    pub(crate) fn held_once_more(&mut self, id: EntityId) -> bool {
        let n = self.held.entry(id).or_insert(0);
        *n += 1;
        if *n >= self.config.blocked_ticks {
            self.held.remove(&id);
            return true;
        }
        false
    }

    /// `id` moved: it is not held any more.
    pub(crate) fn not_held(&mut self, id: EntityId) {
        self.held.remove(&id);
    }

    /// Drops `id`'s plan and its search, if any.
    pub(crate) fn forget(&mut self, id: EntityId) {
        if let Some(plan) = self.plans.remove(id)
            && let PlanState::Pending(r) = plan.state
        {
            self.queue.cancel(r);
            self.weighted.remove(&r);
            self.around.remove(&r);
        }
    }

    /// The plan of `id`, mutably.
    pub(crate) fn plan_mut(&mut self, id: EntityId) -> Option<&mut Plan> {
        self.plans.get_mut(id).map(|p| &mut **p)
    }

    /// Takes the finished search `request` of `id`'s plan out of the queue (`None` while it is
    /// still running); a waypoint route's nodes go into the plan's `via`.
    pub(crate) fn take(&mut self, id: EntityId, request: RequestId) -> Option<RequestState> {
        if matches!(self.queue.state(request), Some(RequestState::Found { .. } | RequestState::Failed(_)) | None) {
            self.weighted.remove(&request);
            self.around.remove(&request);
        }
        match self.queue.state(request) {
            Some(RequestState::Found { .. } | RequestState::Failed(_)) => {
                let route = self.queue.take_route(request);
                if let Some(plan) = self.plans.get_mut(id).filter(|p| p.state == PlanState::Pending(request)) {
                    plan.via = route;
                }
                self.queue.take(request)
            }
            Some(_) => None,
            // Unknown to the queue (taken already): treat as failed rather than wait for ever.
            None => Some(RequestState::Failed(crate::path::PathError::NoPath { expanded: 0 })),
        }
    }

    /// Remembers that `id` cannot reach `goal` on the map as it is.
    pub(crate) fn refuse(&mut self, id: EntityId, goal: IVec2) {
        self.refused.insert(id, (goal, self.map_version));
    }

    /// Whether `id` was told it cannot reach `goal` on the map as it is.
    pub fn refused(&self, id: EntityId, goal: IVec2) -> bool {
        self.refused.get(id) == Some(&(goal, self.map_version))
    }

    /// Drops the plans of entities that are gone.
    pub(crate) fn retain(&mut self, mut alive: impl FnMut(EntityId) -> bool) {
        let gone: Vec<EntityId> = self.plans.keys().filter(|&id| !alive(id)).collect();
        for id in gone {
            self.forget(id);
        }
        self.refused.retain(|id, _| alive(id));
        self.held.retain(|&id, _| alive(id));
    }
}

/// The step costs of one search: the map's own, or with a character's tactical weights.
enum StepCost<'a> {
    Plain(&'a Map),
    Tactical(TacticalCost<'a>),
    /// Another cost with some cells (sorted indices) walled off: where characters stand.
    Around(Box<StepCost<'a>>, &'a [usize]),
}

impl CostModel for StepCost<'_> {
    fn width(&self) -> u32 {
        match self {
            StepCost::Plain(m) => m.width(),
            StepCost::Tactical(t) => t.width(),
            StepCost::Around(c, _) => c.width(),
        }
    }
    fn height(&self) -> u32 {
        match self {
            StepCost::Plain(m) => m.height(),
            StepCost::Tactical(t) => t.height(),
            StepCost::Around(c, _) => c.height(),
        }
    }
    #[inline]
    fn cell_cost(&self, i: usize) -> f32 {
        match self {
            StepCost::Plain(m) => m.costs()[i],
            StepCost::Tactical(t) => t.cell_cost(i),
            StepCost::Around(c, held) => {
                if held.binary_search(&i).is_ok() {
                    f32::INFINITY
                } else {
                    c.cell_cost(i)
                }
            }
        }
    }
    #[inline]
    fn step_cost(&self, from: usize, to: usize, length: f64) -> f64 {
        match self {
            StepCost::Plain(m) => m.step_cost(from, to, length),
            StepCost::Tactical(t) => t.step_cost(from, to, length),
            StepCost::Around(c, _) => c.step_cost(from, to, length),
        }
    }
    fn heuristic_scale(&self) -> f64 {
        match self {
            StepCost::Plain(m) => m.heuristic_scale(),
            StepCost::Tactical(t) => t.heuristic_scale(),
            StepCost::Around(c, _) => c.heuristic_scale(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_maps_plan_hierarchically_unless_told_otherwise() {
        assert_eq!(Hierarchy::Auto.cluster_for(HIERARCHY_AUTO_CELLS - 1), None);
        assert_eq!(Hierarchy::Auto.cluster_for(HIERARCHY_AUTO_CELLS), Some(DEFAULT_CLUSTER));
        assert_eq!(Hierarchy::Off.cluster_for(1 << 20), None);
        assert_eq!(Hierarchy::Clusters(1).cluster_for(4), Some(2));
        let mut nav = Navigator::default();
        nav.map_changed(&Map::open(256, 256));
        assert_eq!(nav.hierarchy().map(Hpa::cluster_size), Some(DEFAULT_CLUSTER));
        nav.map_changed(&Map::open(255, 256));
        assert!(nav.hierarchy().is_none());
    }
}
