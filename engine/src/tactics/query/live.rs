//! Queries against the running world: the data sources a [`QueryEnv`] needs, read from a
//! [`World`] — its map, its tactical waypoint database (hidespots), its live tactical layers
//! (`influence_<layer>`), its entities and regions, and path distances by A* on its map as it is
//! now (walled-off points are known unreachable without a search).
//!
//! The objects come from the asking entity ([`Objects::from_world`]); a caller may override them
//! (`FindPosition`'s `target` and `referencePoint` options). Evaluation runs to the end in one
//! call: a script asks and gets its point on the same tick.

use std::sync::Arc;

use glam::Vec2;

use super::connect::AStarOracle;
use super::env::{InfluenceLookup, Objects, PathOracle, QueryEnv, cell};
use super::eval::{Evaluation, QueryRequest, Status};
use super::reserve::Reservations;
use super::schedule::WallClock;
use super::spec::Query;
use crate::field::TacticalMaps;
use crate::world::{EntityId, World};

/// The world's tactical layers by name, as `influence_<layer>` reads them.
struct Layers<'w>(Option<&'w TacticalMaps>);

impl InfluenceLookup for Layers<'_> {
    fn influence(&self, layer: &str, at: Vec2) -> Option<f32> {
        let maps = self.0?;
        maps.layer(layer)?;
        Some(maps.value_at(layer, cell(at)).unwrap_or(0.0))
    }

    fn influence_limits(&self, layer: &str) -> Option<(f32, f32)> {
        self.0?.layer(layer).map(|l| l.range().unwrap_or((0.0, 1.0)))
    }
}

/// Path distances on the world's map: known unreachable at once when the two points lie in
/// different connected areas, else one A* search.
struct Paths<'w> {
    world: &'w World,
    search: AStarOracle<'w>,
}

impl PathOracle for Paths<'_> {
    fn path_distance(&self, from: Vec2, to: Vec2) -> Option<f32> {
        if !self.world.reachable(cell(from), cell(to)) {
            return None;
        }
        self.search.path_distance(from, to)
    }
}

/// Evaluates `query` for `puppet` against the world as it is, with `objects` (start from
/// [`Objects::from_world`]) and the points `reservations` hold. The evaluation is returned
/// finished, its record kept when `record` is set.
pub fn evaluate_in_world(
    world: &World,
    puppet: EntityId,
    query: Arc<Query>,
    objects: Objects,
    reservations: &Reservations,
    seed: u64,
    record: bool,
) -> Evaluation {
    let mut req = QueryRequest::new(puppet, objects);
    req.seed = seed;
    req.record = record;
    let mut eval = Evaluation::new(query, req);
    with_world_env(
        world,
        reservations,
        |env| while eval.step(env, &WallClock::new(), u64::MAX) == Status::InProgress {},
    );
    eval
}

/// Runs `f` with a [`QueryEnv`] reading `world`: its map, hidespots, tactical layers, path
/// distances and entities, and the points `reservations` hold.
pub(crate) fn with_world_env<R>(world: &World, reservations: &Reservations, f: impl FnOnce(&QueryEnv<'_>) -> R) -> R {
    let layers = Layers(world.tactical());
    let paths = Paths { world, search: AStarOracle::new(world.map()) };
    let mut env = QueryEnv::new(world.map(), reservations);
    env.hidespots = world.waypoints();
    env.influence = &layers;
    env.paths = &paths;
    env.entities = world;
    f(&env)
}
