//! Where trees spend their time: per tree, the ticks it was evaluated and skipped and the time
//! it took, and per node the ticks and the time inside it (children included). Filled only when
//! a profile is passed to [`super::Trees::tick`]; timing never changes what a tree does.

use std::collections::BTreeMap;
use std::time::Duration;

use super::def::{NodeId, TreeDef};

/// The time of one tree and its nodes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeTimes {
    /// Character-ticks on which the tree was evaluated from its root.
    pub evaluated: u64,
    /// Character-ticks event-driven evaluation skipped (nothing it watches changed).
    pub skipped: u64,
    /// Time in the tree, skipped ticks' checks included.
    pub total: Duration,
    /// Per node: its label, how often it was ticked and the time inside it (children included).
    pub nodes: BTreeMap<NodeId, (String, u64, Duration)>,
}

/// Per tree (by name), its times.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TreeProfile {
    /// Each tree's times.
    pub trees: BTreeMap<String, TreeTimes>,
}

impl TreeProfile {
    pub(crate) fn node(&mut self, def: &TreeDef, id: NodeId, took: Duration) {
        let times = self.trees.entry(def.name.clone()).or_default();
        let slot = times.nodes.entry(id).or_insert_with(|| (def.node(id).label.clone(), 0, Duration::ZERO));
        slot.1 += 1;
        slot.2 += took;
    }

    pub(crate) fn tree(&mut self, def: &TreeDef, evaluated: bool, took: Duration) {
        let times = self.trees.entry(def.name.clone()).or_default();
        if evaluated {
            times.evaluated += 1;
        } else {
            times.skipped += 1;
        }
        times.total += took;
    }

    /// Adds another profile's figures to this one.
    pub fn merge(&mut self, other: &TreeProfile) {
        for (name, t) in &other.trees {
            let mine = self.trees.entry(name.clone()).or_default();
            mine.evaluated += t.evaluated;
            mine.skipped += t.skipped;
            mine.total += t.total;
            for (id, (label, n, took)) in &t.nodes {
                let slot = mine.nodes.entry(*id).or_insert_with(|| (label.clone(), 0, Duration::ZERO));
                slot.1 += n;
                slot.2 += *took;
            }
        }
    }
}
