//! Influence over a waypoint graph: the same sources, falloffs and teams as on a grid, with
//! distance measured by walking along the graph's edges.
//!
//! A graph's layers are [`Layer`]s one row high (`width` = number of nodes), so the derived maps of
//! [`crate::field::control`] and friends apply unchanged; only the frontier needs the edges.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::derived::Control;
use super::error::{FieldError, finite};
use super::falloff::Falloff;
use super::influence::SourceId;
use super::layer::Layer;

/// A unit standing at a graph node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphSource {
    /// Its team.
    pub team: usize,
    /// The node it stands at.
    pub node: usize,
    /// Its intrinsic influence.
    pub strength: f32,
    /// Walking distance beyond which it has none.
    pub radius: f32,
    /// How it fades.
    pub falloff: Falloff,
}

#[derive(Debug, Clone)]
struct Reached {
    source: GraphSource,
    values: Vec<(u32, f32)>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry(f32, u32);
impl Eq for Entry {}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Per-team influence over the nodes of a graph with non-negative edge lengths.
#[derive(Debug, Clone)]
pub struct GraphInfluence {
    adjacency: Vec<Vec<(u32, f32)>>,
    layers: Vec<Layer>,
    sources: Vec<Option<Reached>>,
    dist: Vec<f32>,
}

impl GraphInfluence {
    /// A graph of `nodes` nodes joined by undirected `edges` `(a, b, length)`, with `teams` layers.
    /// Errors on an edge to a missing node or a negative or non-finite length.
    pub fn new(nodes: usize, edges: &[(usize, usize, f32)], teams: usize) -> Result<Self, FieldError> {
        let mut adjacency = vec![Vec::new(); nodes];
        for &(a, b, len) in edges {
            for n in [a, b] {
                if n >= nodes {
                    return Err(FieldError::NoSuchNode { node: n, nodes });
                }
            }
            if finite("edge length", len)? < 0.0 {
                return Err(FieldError::NotFinite { what: "non-negative edge length", value: len });
            }
            adjacency[a].push((b as u32, len));
            adjacency[b].push((a as u32, len));
        }
        let w = u32::try_from(nodes).map_err(|_| FieldError::NoSuchNode { node: nodes, nodes })?;
        Ok(GraphInfluence {
            adjacency,
            layers: vec![Layer::new(w, 1); teams],
            sources: Vec::new(),
            dist: vec![f32::INFINITY; nodes],
        })
    }

    /// The team layers (one row, one column per node).
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// A team's influence at a node (0 for a missing team or node).
    pub fn at(&self, team: usize, node: usize) -> f32 {
        self.layers.get(team).and_then(|l| l.values().get(node)).copied().unwrap_or(0.0)
    }

    /// Adds a source.
    pub fn add(&mut self, source: GraphSource) -> Result<SourceId, FieldError> {
        let r = self.reach(source)?;
        self.apply(&r, 1.0);
        let slot = self.sources.iter().position(Option::is_none).unwrap_or(self.sources.len());
        if slot == self.sources.len() {
            self.sources.push(None);
        }
        self.sources[slot] = Some(r);
        Ok(SourceId(slot as u32))
    }

    /// Moves a source to another node: only the nodes it reached and now reaches change.
    pub fn move_to(&mut self, id: SourceId, node: usize) -> Result<(), FieldError> {
        let old = self.sources.get(id.0 as usize).and_then(Option::as_ref).ok_or(FieldError::NoSuchSource(id.0))?;
        let new = self.reach(GraphSource { node, ..old.source })?;
        let old = self.sources[id.0 as usize].take().ok_or(FieldError::NoSuchSource(id.0))?;
        self.apply(&old, -1.0);
        self.apply(&new, 1.0);
        self.sources[id.0 as usize] = Some(new);
        Ok(())
    }

    /// Removes a source.
    pub fn remove(&mut self, id: SourceId) -> Result<GraphSource, FieldError> {
        let old = self.sources.get_mut(id.0 as usize).and_then(Option::take).ok_or(FieldError::NoSuchSource(id.0))?;
        self.apply(&old, -1.0);
        Ok(old.source)
    }

    /// Nodes held by a team with an edge to a node held by another team: the graph's front line.
    pub fn frontier(&self, control: &Control) -> Vec<usize> {
        (0..self.adjacency.len())
            .filter(|&n| {
                let Some(me) = control.owner.get(n).copied().flatten() else { return false };
                self.adjacency[n]
                    .iter()
                    .any(|&(m, _)| control.owner.get(m as usize).copied().flatten().is_some_and(|o| o != me))
            })
            .collect()
    }

    /// Walking distances from the source's node up to its radius (bounded Dijkstra), turned into
    /// influence values.
    fn reach(&mut self, source: GraphSource) -> Result<Reached, FieldError> {
        if source.team >= self.layers.len() {
            return Err(FieldError::NoSuchTeam { team: source.team, teams: self.layers.len() });
        }
        if source.node >= self.adjacency.len() {
            return Err(FieldError::NoSuchNode { node: source.node, nodes: self.adjacency.len() });
        }
        finite("strength", source.strength)?;
        finite("radius", source.radius)?;
        let mut touched = Vec::new();
        let mut heap = BinaryHeap::new();
        self.dist[source.node] = 0.0;
        touched.push(source.node as u32);
        heap.push(Entry(0.0, source.node as u32));
        while let Some(Entry(d, n)) = heap.pop() {
            if d > self.dist[n as usize] {
                continue;
            }
            for &(m, len) in &self.adjacency[n as usize] {
                let nd = d + len;
                if nd <= source.radius && nd < self.dist[m as usize] {
                    if self.dist[m as usize].is_infinite() {
                        touched.push(m);
                    }
                    self.dist[m as usize] = nd;
                    heap.push(Entry(nd, m));
                }
            }
        }
        touched.sort_unstable();
        let values = touched
            .iter()
            .map(|&n| {
                let d = std::mem::replace(&mut self.dist[n as usize], f32::INFINITY);
                (n, source.falloff.at(source.strength, source.radius, d))
            })
            .collect();
        Ok(Reached { source, values })
    }

    fn apply(&mut self, r: &Reached, sign: f32) {
        let layer = self.layers[r.source.team].values_mut();
        for &(n, v) in &r.values {
            layer[n as usize] += sign * v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::control;

    /// A corridor 0-1-2-3-4 (edges 1 long) with a shortcut 0-4 that is 10 long.
    fn corridor() -> GraphInfluence {
        GraphInfluence::new(5, &[(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0), (3, 4, 1.0), (0, 4, 10.0)], 2).unwrap()
    }

    #[test]
    fn influence_follows_walking_distance() {
        let mut g = corridor();
        let a = g.add(GraphSource { team: 0, node: 0, strength: 6.0, radius: 4.0, falloff: Falloff::Linear }).unwrap();
        assert_eq!(g.layers()[0].values(), &[6.0, 4.5, 3.0, 1.5, 0.0], "node 4 is 4 away along the corridor, not 10");
        g.add(GraphSource { team: 1, node: 4, strength: 4.0, radius: 9.0, falloff: Falloff::Inverse }).unwrap();
        let t1 = g.layers()[1].values();
        assert_eq!((t1[0], t1[1], t1[3], t1[4]), (0.8, 1.0, 2.0, 4.0));
        assert!((t1[2] - 4.0 / 3.0).abs() < 1e-6);
        let c = control(g.layers()).unwrap();
        assert_eq!(c.owner, [Some(0), Some(0), Some(0), Some(1), Some(1)]);
        assert_eq!(g.frontier(&c), vec![0, 2, 3, 4], "the long shortcut 0-4 is a front too");
        g.move_to(a, 2).unwrap();
        assert_eq!(g.layers()[0].values(), &[3.0, 4.5, 6.0, 4.5, 3.0]);
        g.remove(a).unwrap();
        assert!(g.layers()[0].values().iter().all(|&v| v == 0.0));
        assert_eq!(g.at(1, 4), 4.0);
    }

    #[test]
    fn bad_graphs_and_sources_are_errors() {
        assert!(matches!(GraphInfluence::new(2, &[(0, 2, 1.0)], 1), Err(FieldError::NoSuchNode { node: 2, .. })));
        assert!(GraphInfluence::new(2, &[(0, 1, -1.0)], 1).is_err());
        assert!(GraphInfluence::new(2, &[(0, 1, f32::NAN)], 1).is_err());
        let mut g = corridor();
        let s = GraphSource { team: 0, node: 9, strength: 1.0, radius: 1.0, falloff: Falloff::Linear };
        assert!(matches!(g.add(s), Err(FieldError::NoSuchNode { .. })));
        assert!(matches!(g.add(GraphSource { team: 5, node: 0, ..s }), Err(FieldError::NoSuchTeam { .. })));
        assert!(matches!(g.move_to(SourceId(3), 0), Err(FieldError::NoSuchSource(3))));
    }
}
