//! Influence over the world's waypoint graph (`[navigation.graph]`), kept up to date with the
//! declared teams' members: each member stands at the node a route would start from (the
//! nearest one a straight walk reaches) and projects its strength, radius and falloff along the
//! edges it can walk now (an edge through a closed door carries nothing until it opens).
//!
//! Rebuilt whole when its inputs change — where the members stand, their attributes, the map —
//! because a waypoint graph has tens to hundreds of nodes: a rebuild is a handful of short
//! Dijkstras, cheaper than tracking which source moved.

use glam::{IVec2, Vec2};

use super::graph::{GraphInfluence, GraphSource};
use crate::grid::{Map, walk_segment};
use crate::path::WaypointGraph;

/// The graph's team layers and the inputs they were built from.
#[derive(Debug, Clone)]
pub(crate) struct GraphLayers {
    influence: GraphInfluence,
    sources: Vec<GraphSource>,
    map_version: u64,
}

/// The node a walker in `cell` starts a waypoint route from: the nearest one (ties to the lower
/// id) a straight walk reaches on `map`, as the navigation service links routes.
pub fn linked_node(graph: &WaypointGraph, map: &Map, cell: IVec2) -> Option<usize> {
    let p = cell.as_vec2() + Vec2::splat(0.5);
    let mut order: Vec<usize> = (0..graph.len()).collect();
    let d = |i: usize| graph.position(i).map_or(f32::INFINITY, |q| q.distance_squared(p));
    order.sort_by(|&a, &b| d(a).total_cmp(&d(b)).then(a.cmp(&b)));
    order.into_iter().find(|&n| {
        graph.position(n).is_some_and(|q| map.passable(q.floor().as_ivec2()) && walk_segment(p, q, |c| map.passable(c)))
    })
}

/// The graph's edges a walker can take on `map` now, once each way-pair, with their costs.
fn walkable_edges(graph: &WaypointGraph, map: &Map) -> Vec<(usize, usize, f32)> {
    let open = |n: usize| graph.position(n).is_some_and(|q| map.passable(q.floor().as_ivec2()));
    let mut edges = Vec::new();
    for a in 0..graph.len() {
        for &(b, cost) in graph.edges(a) {
            // An arc whose reverse exists is taken once, from its lower end.
            let reverse = graph.edges(b).iter().any(|&(to, _)| to == a);
            if (a < b || !reverse) && open(a) && open(b) {
                let (Some(pa), Some(pb)) = (graph.position(a), graph.position(b)) else { continue };
                if walk_segment(pa, pb, |c| map.passable(c)) {
                    edges.push((a, b, cost));
                }
            }
        }
    }
    edges
}

impl GraphLayers {
    /// Brings the layers up to date: rebuilt when `sources` or the map (`map_version`) differ
    /// from what they were built from. `None` when the graph's edges are invalid.
    pub(crate) fn update(
        current: Option<Self>,
        graph: &WaypointGraph,
        map: &Map,
        map_version: u64,
        teams: usize,
        sources: Vec<GraphSource>,
    ) -> Option<Self> {
        if let Some(c) = current
            && c.map_version == map_version
            && c.sources == sources
            && c.influence.layers().first().is_none_or(|l| l.width() as usize == graph.len())
        {
            return Some(c);
        }
        let mut influence = GraphInfluence::new(graph.len(), &walkable_edges(graph, map), teams).ok()?;
        for &s in &sources {
            influence.add(s).ok()?;
        }
        Some(GraphLayers { influence, sources, map_version })
    }

    /// A team's influence at a node.
    pub(crate) fn at(&self, team: usize, node: usize) -> f32 {
        self.influence.at(team, node)
    }
}
