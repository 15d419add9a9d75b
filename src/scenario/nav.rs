//! The `[navigation]` and `[doors]` sections: the world's search budget and the doors the map has.
//!
//! ```toml
//! [navigation]
//! budget = 4096       # node expansions all searches together may spend in one tick
//! max_active = 8      # searches under way at once
//! quantum = 256       # expansions one search spends before the next takes its turn
//! hierarchy = { cluster = 16 }  # plan through HPA* (`false`: always flat; default: by map size)
//! blocked_ticks = 3   # wait this long for a standing character in the way, then plan round it
//!
//! [navigation.graph]  # moves route over these waypoints: nearest node, cheapest hops, target
//! nodes = { hall = [2, 2], door = [10, 4], yard = [18, 9] }
//! edges = [["hall", "door"], ["door", "yard", 12.5]]   # cost: the distance, unless given
//!
//! [doors.gate]
//! cells = [[10, 4], [10, 5]]
//! open = false        # blocked until the timeline or a script opens it
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use glam::{IVec2, Vec2};
use serde::Deserialize;
use tactica_engine::grid::walk_segment;
use tactica_engine::nav::{Hierarchy, NavConfig};
use tactica_engine::path::WaypointGraph;
use tactica_engine::world::World;
use toml::Spanned;

use super::budget::Budget;
use super::cost;
use super::error::{ScenarioError, SourcePos};
use super::load::with_suggestion;

/// The `[navigation]` section as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NavigationSection {
    /// Expansions per tick.
    #[serde(default)]
    pub budget: Option<Spanned<i64>>,
    /// Searches under way at once.
    #[serde(default)]
    pub max_active: Option<Spanned<i64>>,
    /// Expansions per turn.
    #[serde(default)]
    pub quantum: Option<Spanned<i64>>,
    /// `{ cluster = N }` to plan through HPA*, `false` to plan flat.
    #[serde(default)]
    pub hierarchy: Option<Spanned<HierarchySpec>>,
    /// Ticks a walker waits for a standing character in its way before planning round it.
    #[serde(default)]
    pub blocked_ticks: Option<Spanned<i64>>,
    /// A waypoint graph every move routes over.
    #[serde(default)]
    pub graph: Option<GraphSection>,
}

/// `[navigation.graph]`: named nodes on cells and the edges between them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GraphSection {
    /// Node name → cell.
    pub nodes: BTreeMap<String, Spanned<[i32; 2]>>,
    /// Two-way edges: `[a, b]` (costing the distance) or `[a, b, cost]`.
    #[serde(default)]
    pub edges: Vec<Spanned<EdgeSpec>>,
}

/// One edge as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum EdgeSpec {
    /// `[a, b, cost]`.
    Weighted(String, String, f64),
    /// `[a, b]`.
    Plain(String, String),
}

/// `hierarchy = { cluster = N }` or `hierarchy = false` (`true`: the default cluster size).
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "toml::Value")]
pub enum HierarchySpec {
    /// On with the default clusters, or off.
    Switch(bool),
    /// On with clusters of this side.
    Clusters {
        /// The cluster side in cells.
        cluster: i64,
    },
}

impl TryFrom<toml::Value> for HierarchySpec {
    type Error = String;

    fn try_from(v: toml::Value) -> Result<Self, String> {
        const EXPECTED: &str = "`hierarchy` is `true`, `false` or `{ cluster = N }`";
        match v {
            toml::Value::Boolean(b) => Ok(HierarchySpec::Switch(b)),
            toml::Value::Table(t) => {
                if let Some(k) = t.keys().find(|k| k.as_str() != "cluster") {
                    return Err(format!("{EXPECTED}; `{k}` is not one of its keys"));
                }
                match t.get("cluster") {
                    Some(toml::Value::Integer(n)) => Ok(HierarchySpec::Clusters { cluster: *n }),
                    Some(other) => {
                        Err(format!("{EXPECTED}; `cluster` must be a whole number, not {}", other.type_str()))
                    }
                    None => Err(format!("{EXPECTED}; the table has no `cluster`")),
                }
            }
            other => {
                let ty = other.type_str();
                let a = if ty.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
                Err(format!("{EXPECTED}, not {a} {ty}"))
            }
        }
    }
}

/// One `[doors.NAME]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DoorSpec {
    /// The cells the door covers.
    pub cells: Vec<[i32; 2]>,
    /// Whether it starts open (default: closed).
    #[serde(default)]
    pub open: bool,
}

fn err<T>(text: &str, file: &Path, at: &Spanned<T>, message: String) -> ScenarioError {
    ScenarioError::new(file, SourcePos::of(text, at.span().start), message)
}

/// The world's search limits from `[navigation]` (the defaults without one).
pub fn nav_config(section: Option<&NavigationSection>, text: &str, file: &Path) -> Result<NavConfig, ScenarioError> {
    let mut config = NavConfig::default();
    let Some(section) = section else { return Ok(config) };
    let take = |value: &Option<Spanned<i64>>, key: &str, max: i64, slot: &mut usize| {
        if let Some(v) = value {
            let n = *v.get_ref();
            if !(1..=max).contains(&n) {
                return Err(err(text, file, v, format!("`{key}` must be 1 to {max}, not {n}"))
                    .hint("the search budget is counted in node expansions; see docs/scenario.md, \"Movement\""));
            }
            *slot = n as usize;
        }
        Ok(())
    };
    take(&section.budget, "budget", 10_000_000, &mut config.budget)?;
    take(&section.max_active, "max_active", 1024, &mut config.max_active)?;
    take(&section.quantum, "quantum", 10_000_000, &mut config.quantum)?;
    if let Some(v) = &section.blocked_ticks {
        let n = *v.get_ref();
        if !(0..=100_000).contains(&n) {
            return Err(err(text, file, v, format!("`blocked_ticks` must be 0 to 100000, not {n}"))
                .hint("0 lets characters walk through one another; 3 to 10 ticks suits most games"));
        }
        config.blocked_ticks = n as u32;
    }
    if let Some(spec) = &section.hierarchy {
        config.hierarchy = match *spec.get_ref() {
            HierarchySpec::Switch(false) => Hierarchy::Off,
            HierarchySpec::Switch(true) => Hierarchy::Clusters(tactica_engine::nav::DEFAULT_CLUSTER),
            HierarchySpec::Clusters { cluster } if (2..=256).contains(&cluster) => Hierarchy::Clusters(cluster as u32),
            HierarchySpec::Clusters { cluster } => {
                return Err(err(text, file, spec, format!("`hierarchy.cluster` must be 2 to 256, not {cluster}"))
                    .hint("clusters of 8 to 32 cells a side suit most maps; see docs/scenario.md, \"Movement\""));
            }
        };
    }
    Ok(config)
}

/// Charges building the hierarchy `config` asks for on `map`: at `[navigation] hierarchy` when
/// the scenario sets it, else at `map` (a map this large is planned through HPA* by default).
pub(super) fn charge_hierarchy(
    config: &NavConfig,
    section: Option<&NavigationSection>,
    map_key: &Spanned<String>,
    map: &tactica_engine::grid::Map,
    budget: &mut Budget<'_>,
    text: &str,
    file: &Path,
) -> Result<u64, ScenarioError> {
    let Some(cluster) = config.hierarchy.cluster_for(map.len()) else { return Ok(0) };
    let units = cost::hierarchy(map, cluster);
    let what = format!("the HPA* hierarchy of a {}×{} map in clusters of {cluster}", map.width(), map.height());
    let set = section.and_then(|s| s.hierarchy.as_ref());
    let (key, span) = match set {
        Some(h) => ("hierarchy", h.span()),
        None => ("map", map_key.span()),
    };
    budget.charge(units, key, &what, || (file.to_path_buf(), SourcePos::of(text, span.start)))?;
    Ok(units)
}

/// Builds the waypoint graph of `[navigation.graph]`: every node on an open cell, every edge
/// between declared nodes and walkable in a straight line on the map as loaded.
pub(super) fn install_graph(
    section: &GraphSection,
    world: &mut World,
    budget: &mut Budget<'_>,
    text: &str,
    file: &Path,
) -> Result<(), ScenarioError> {
    let mut graph = WaypointGraph::new();
    let names: Vec<String> = section.nodes.keys().cloned().collect();
    for (name, at) in &section.nodes {
        let cell = IVec2::from_array(*at.get_ref());
        if !world.map().passable(cell) {
            let why = if world.map().contains(cell) { "is blocked" } else { "is off the map" };
            return Err(err(text, file, at, format!("waypoint node `{name}` at ({}, {}) {why}", cell.x, cell.y))
                .hint("put waypoint nodes on open cells"));
        }
        graph.add_node(cell.as_vec2() + Vec2::splat(0.5));
    }
    let known: Vec<&str> = names.iter().map(String::as_str).collect();
    if let Some(first) = section.edges.first() {
        // Each edge is walked on the map: its length, at most the map's.
        let cell = |n: &str| section.nodes.get(n).map(|at| IVec2::from_array(*at.get_ref()));
        let lengths = section.edges.iter().map(|e| {
            let (a, b) = match e.get_ref() {
                EdgeSpec::Weighted(a, b, _) | EdgeSpec::Plain(a, b) => (a, b),
            };
            match (cell(a), cell(b)) {
                (Some(a), Some(b)) => u64::from((a - b).abs().max_element().unsigned_abs()),
                _ => 0,
            }
        });
        let units = cost::graph_edges(lengths);
        let what = format!("{} waypoint edges walked on the map", section.edges.len());
        budget.charge(units, "[navigation.graph] edges", &what, || {
            (file.to_path_buf(), SourcePos::of(text, first.span().start))
        })?;
    }
    let id = |name: &str, edge: &Spanned<EdgeSpec>| {
        names.binary_search_by(|n| n.as_str().cmp(name)).map_err(|_| {
            with_suggestion(err(text, file, edge, format!("the edge names no node `{name}`")), name, &known)
        })
    };
    for edge in &section.edges {
        let (a, b, cost) = match edge.get_ref() {
            EdgeSpec::Weighted(a, b, c) => (a, b, Some(*c)),
            EdgeSpec::Plain(a, b) => (a, b, None),
        };
        let (ia, ib) = (id(a, edge)?, id(b, edge)?);
        let (pa, pb) = (graph.position(ia).unwrap_or_default(), graph.position(ib).unwrap_or_default());
        if !walk_segment(pa, pb, |c| world.map().passable(c)) {
            return Err(err(text, file, edge, format!("the edge `{a}`–`{b}` crosses a wall"))
                .hint("a waypoint edge is walked in a straight line; add a node at the corner"));
        }
        match cost {
            Some(c) if !(c.is_finite() && c >= 0.0) => {
                return Err(err(text, file, edge, format!("the edge `{a}`–`{b}` costs {c}"))
                    .hint("an edge's cost is a distance: a number 0 or more"));
            }
            Some(c) => graph.add_edge(ia, ib, c as f32),
            None => graph.connect(ia, ib),
        };
    }
    world.set_waypoint_graph(Some((graph, names)));
    Ok(())
}

/// Declares the scenario's doors on the world's map; `hierarchy` is what building the map's
/// hierarchy cost (0 without one), a door rebuilding the part it touches.
pub fn install_doors(
    doors: &BTreeMap<String, Spanned<DoorSpec>>,
    world: &mut World,
    hierarchy: u64,
    budget: &mut Budget<'_>,
    text: &str,
    file: &Path,
) -> Result<(), ScenarioError> {
    let cluster = world.nav().config().hierarchy.cluster_for(world.map().len()).unwrap_or(2);
    for (name, spec) in doors {
        let d = spec.get_ref();
        if d.cells.is_empty() {
            return Err(
                err(text, file, spec, format!("door `{name}` has no cells")).hint("write `cells = [[x, y], …]`")
            );
        }
        let cells: Vec<IVec2> = d.cells.iter().map(|&c| IVec2::from_array(c)).collect();
        let units = cost::door(world.map(), &cells, hierarchy, cluster);
        let what = format!("door `{name}`: the map's areas labelled again and the hierarchy rebuilt where it stands");
        budget.charge(units, &format!("[doors.{name}]"), &what, || {
            (file.to_path_buf(), SourcePos::of(text, spec.span().start))
        })?;
        world
            .add_door(name.clone(), cells, d.open)
            .map_err(|e| err(text, file, spec, format!("door `{name}`: {e}")))?;
    }
    Ok(())
}

/// Whether taking in `map` as the new map of `world` (a reloaded map file) fits `limits`: its
/// cells labelled again and, when the world plans through a hierarchy, the hierarchy rebuilt over
/// it — the work loading a scenario on it would be charged. The error is a sentence.
pub(crate) fn charge_map_reload(
    map: &tactica_engine::grid::Map,
    world: &World,
    limits: super::budget::LoadLimits,
) -> Result<(), String> {
    let hierarchy = world.nav().config().hierarchy.cluster_for(map.len()).map_or(0, |c| cost::hierarchy(map, c));
    let units = cost::map_cells(map.len() as u64).saturating_add(hierarchy);
    if units > limits.work {
        return Err(format!(
            "the new map asks for {} units of load-time work (its cells, and the hierarchy rebuilt over them), past \
             the load budget of {} units",
            super::budget::grouped(units),
            super::budget::grouped(limits.work)
        ));
    }
    Ok(())
}
