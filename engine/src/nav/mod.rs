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
//! Plans are smoothed by the walker's own line of sight (the supercover line, no cut corners),
//! so a smoothed leg never enters a blocked cell and is never longer than the grid path.

mod components;
mod plan;

use std::collections::BTreeMap;

pub use components::Components;
use glam::IVec2;
pub use plan::{Plan, PlanState};

use crate::field::TacticalMaps;
use crate::grid::Map;
use crate::path::{CostModel, DEFAULT_TICK_BUDGET, PathQueue, RequestId, RequestState, TacticalCost, TacticalWeights};
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
}

impl Default for NavConfig {
    fn default() -> Self {
        NavConfig { budget: DEFAULT_TICK_BUDGET, max_active: 8, quantum: 256 }
    }
}

/// The world's navigation service: the path queue, the characters' plans and the map's edit count.
#[derive(Debug, Clone)]
pub struct Navigator {
    config: NavConfig,
    queue: PathQueue,
    plans: BTreeMap<EntityId, Plan>,
    /// The last goal each character was told it cannot reach, and on which map: asking again
    /// for the same goal on the same map fails without a search or a second report.
    refused: BTreeMap<EntityId, (IVec2, u64)>,
    map_version: u64,
    /// The map's connected areas as of `map_version`.
    components: Components,
    /// The layers and weights of searches made for characters that avoid tactical layers.
    weighted: BTreeMap<RequestId, (Vec<String>, TacticalWeights)>,
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
        };
        Navigator {
            config,
            queue: PathQueue::new(config.max_active, config.quantum),
            plans: BTreeMap::new(),
            refused: BTreeMap::new(),
            map_version: 0,
            components: Components::default(),
            weighted: BTreeMap::new(),
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
        self.plans.get(&id)
    }

    /// Every plan made before this call is out of date: the map changed (to `map`).
    pub(crate) fn map_changed(&mut self, map: &Map) {
        self.map_version += 1;
        self.components = Components::of(map);
    }

    /// Takes over from a service that had seen `version` map edits: every plan it had is stale.
    pub(crate) fn resume(&mut self, version: u64, map: &Map) {
        self.map_version = version;
        self.map_changed(map);
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
        let cost = |r: RequestId| match resolved.get(&r) {
            Some((slices, weights)) => {
                TacticalCost::new(map, slices, weights).map_or(StepCost::Plain(map), StepCost::Tactical)
            }
            None => StepCost::Plain(map),
        };
        self.spent_last_tick = self.queue.update_with(self.config.budget, cost);
        self.most_spent = self.most_spent.max(self.spent_last_tick);
    }

    /// Queues a search from `start` to `goal` for `id`, replacing whatever it planned before;
    /// `avoid` weighs tactical layers by name (empty: the map's costs alone).
    pub(crate) fn request(&mut self, id: EntityId, start: IVec2, goal: IVec2, avoid: &BTreeMap<String, f32>) {
        self.forget(id);
        let request = self.queue.submit(start, goal);
        if !avoid.is_empty() {
            let (names, weights): (Vec<String>, Vec<f32>) = avoid.iter().map(|(k, &w)| (k.clone(), w)).unzip();
            self.weighted.insert(request, (names, TacticalWeights::new(weights)));
        }
        self.plans.insert(id, Plan::pending(start, goal, request, self.map_version));
    }

    /// Drops `id`'s plan and its search, if any.
    pub(crate) fn forget(&mut self, id: EntityId) {
        if let Some(plan) = self.plans.remove(&id)
            && let PlanState::Pending(r) = plan.state
        {
            self.queue.cancel(r);
            self.weighted.remove(&r);
        }
    }

    /// The plan of `id`, mutably.
    pub(crate) fn plan_mut(&mut self, id: EntityId) -> Option<&mut Plan> {
        self.plans.get_mut(&id)
    }

    /// Takes a finished search's result out of the queue (`None` while it is still running).
    pub(crate) fn take(&mut self, request: RequestId) -> Option<RequestState> {
        if matches!(self.queue.state(request), Some(RequestState::Found { .. } | RequestState::Failed(_)) | None) {
            self.weighted.remove(&request);
        }
        match self.queue.state(request) {
            Some(RequestState::Found { .. } | RequestState::Failed(_)) => self.queue.take(request),
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
        self.refused.get(&id) == Some(&(goal, self.map_version))
    }

    /// Drops the plans of entities that are gone.
    pub(crate) fn retain(&mut self, mut alive: impl FnMut(EntityId) -> bool) {
        let gone: Vec<EntityId> = self.plans.keys().copied().filter(|&id| !alive(id)).collect();
        for id in gone {
            self.forget(id);
        }
        self.refused.retain(|&id, _| alive(id));
    }
}

/// The step costs of one search: the map's own, or with a character's tactical weights.
enum StepCost<'a> {
    Plain(&'a Map),
    Tactical(TacticalCost<'a>),
}

impl CostModel for StepCost<'_> {
    fn width(&self) -> u32 {
        match self {
            StepCost::Plain(m) => m.width(),
            StepCost::Tactical(t) => t.width(),
        }
    }
    fn height(&self) -> u32 {
        match self {
            StepCost::Plain(m) => m.height(),
            StepCost::Tactical(t) => t.height(),
        }
    }
    #[inline]
    fn cell_cost(&self, i: usize) -> f32 {
        match self {
            StepCost::Plain(m) => m.costs()[i],
            StepCost::Tactical(t) => t.cell_cost(i),
        }
    }
    #[inline]
    fn step_cost(&self, from: usize, to: usize, length: f64) -> f64 {
        match self {
            StepCost::Plain(m) => m.step_cost(from, to, length),
            StepCost::Tactical(t) => t.step_cost(from, to, length),
        }
    }
    fn heuristic_scale(&self) -> f64 {
        match self {
            StepCost::Plain(m) => m.heuristic_scale(),
            StepCost::Tactical(t) => t.heuristic_scale(),
        }
    }
}
