//! The tactical maps a world keeps while it runs: the layers a scenario declares, brought up to
//! date once a tick from where the entities stand and what happened (000 §6.2; 001_003 §2.10).
//!
//! [`TacticalMaps`] is the world's one field of tactical state ([`crate::world::World::tactical`]).
//! Influence is kept per team in an [`InfluenceMap`] whose sources are the entities of the declared
//! teams; a source moves (touching only the cells it reaches) when its entity changes cell. The
//! derived maps are recomputed only on ticks where some source changed; terrain maps only when the
//! map does; exposure only when the enemies' cells do; frag and decision maps learn from `note`
//! events (`frag`, `resource`, `conflict`) that scripts emit. Every layer has a name:
//!
//! | name | what |
//! |---|---|
//! | `influence.T` | team `T`'s summed influence |
//! | `control` | the winning team's margin over the second |
//! | `security.T`, `balance.T`, `vulnerability.T` | per team, as in [`crate::field::security`] … |
//! | `tension`, `frontier` | every team's influence summed; 1 on the front line |
//! | `cover`, `visibility`, `difficulty` | terrain analysis of the map |
//! | `exposure.T` | the share of `T`'s enemies that see each cell |
//! | `frag` | the learned frag map |
//! | `resources`, `conflict`, `offense` | the decision maps, per area of `area × area` cells |

use std::collections::{BTreeMap, BTreeSet};

use glam::IVec2;

use super::decision::{Capability, ConflictKind, DecisionEvent, DecisionMaps};
use super::derived::{balance, control, frontier, security, tension, vulnerability};
use super::falloff::{Falloff, Metric};
use super::graph::GraphSource;
use super::influence::{InfluenceMap, Source, SourceId};
use super::layer::Layer;
use super::learning::FragMap;
use super::terrain::{CoverParams, Ruggedness, cover_layers, difficulty_layer, exposure_layer, visibility_layer};
use crate::sense::{Perception, PerceptionSpec};
use crate::value::Value;
use crate::world::{Entity, EntityId, EventKind, World, WorldRng};

/// A kind of layer a scenario may ask for beyond the per-team influence, which is always kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LayerKind {
    /// `control`.
    Control,
    /// `security.T` for every team.
    Security,
    /// `balance.T` for every team.
    Balance,
    /// `tension`.
    Tension,
    /// `vulnerability.T` for every team.
    Vulnerability,
    /// `frontier`.
    Frontier,
    /// `cover`.
    Cover,
    /// `visibility`.
    Visibility,
    /// `exposure.T` for every team.
    Exposure,
    /// `difficulty`.
    Difficulty,
    /// `frag`.
    Frag,
    /// `resources`, `conflict` and `offense`.
    Decision,
    /// `territory`: the map flooded from every team member's influence; each cell holds the
    /// index of the team that owns it in the `teams` list, or -1.
    Territory,
}

impl LayerKind {
    /// Every kind with the name a scenario uses for it.
    pub const ALL: [(&'static str, LayerKind); 13] = [
        ("control", LayerKind::Control),
        ("security", LayerKind::Security),
        ("balance", LayerKind::Balance),
        ("tension", LayerKind::Tension),
        ("vulnerability", LayerKind::Vulnerability),
        ("frontier", LayerKind::Frontier),
        ("cover", LayerKind::Cover),
        ("visibility", LayerKind::Visibility),
        ("exposure", LayerKind::Exposure),
        ("difficulty", LayerKind::Difficulty),
        ("frag", LayerKind::Frag),
        ("decision", LayerKind::Decision),
        ("territory", LayerKind::Territory),
    ];

    /// The kind a scenario name stands for.
    pub fn parse(name: &str) -> Option<LayerKind> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, k)| k)
    }
}

/// What a scenario declares: teams, how their entities project influence, which layers to keep
/// and the parameters of the analyses.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSpec {
    /// The teams with an influence layer, in layer order; entities of other teams project none.
    pub teams: Vec<String>,
    /// How distance is measured for influence.
    pub metric: Metric,
    /// Strength of an entity without an `influence` attribute.
    pub strength: f32,
    /// Radius of an entity without an `influence_radius` attribute.
    pub radius: f32,
    /// Falloff of an entity without an `influence_falloff` attribute.
    pub falloff: Falloff,
    /// The layers kept besides influence.
    pub layers: BTreeSet<LayerKind>,
    /// The cover estimate's parameters.
    pub cover: CoverParams,
    /// Seed of the cover estimate's own generator (the world's is left alone).
    pub cover_seed: u64,
    /// Rays per cell for visibility.
    pub visibility_rays: u32,
    /// How far sight reaches for visibility and exposure.
    pub sight_range: f32,
    /// The frag map's forgetting factor.
    pub frag_decay: f32,
    /// Side of a decision-map area in cells.
    pub decision_area: u32,
    /// The senses.
    pub perception: PerceptionSpec,
    /// Layers filtered from others, in declaration order (a filter may read an earlier one).
    pub filters: Vec<super::derive::FilterSpec>,
    /// Layers grown by cellular automata, after the filters.
    pub automata: Vec<super::derive::AutomatonSpec>,
}

impl Default for FieldSpec {
    fn default() -> Self {
        FieldSpec {
            teams: Vec::new(),
            metric: Metric::Euclidean,
            strength: 1.0,
            radius: 8.0,
            falloff: Falloff::Linear,
            layers: BTreeSet::new(),
            cover: CoverParams::default(),
            cover_seed: 0,
            visibility_rays: 16,
            sight_range: 16.0,
            frag_decay: 0.9,
            decision_area: 4,
            perception: PerceptionSpec::default(),
            filters: Vec::new(),
            automata: Vec::new(),
        }
    }
}

/// What a territory flood depends on: each member's cell, team and strength (as bits, so it
/// compares exactly), and the map's edit count (no copy of the map every tick).
type FloodInputs = (Vec<(IVec2, usize, u32)>, u64);

/// The tactical layers and senses of a running world.
#[derive(Debug, Clone)]
pub struct TacticalMaps {
    spec: FieldSpec,
    influence: InfluenceMap,
    /// Each member's influence source, by slot: every member is looked up every tick.
    sources: slotmap::SecondaryMap<EntityId, SourceId>,
    layers: BTreeMap<String, Layer>,
    frag: FragMap,
    decision: DecisionMaps,
    perception: Perception,
    /// Events of the world's log already taken in.
    consumed: usize,
    /// The map costs the terrain layers were computed from.
    terrain_of: Option<Vec<f32>>,
    /// Per team, the enemy cells its exposure layer was computed from.
    observers: Vec<Vec<IVec2>>,
    /// How many source changes the last update made (0: the derived maps were left alone).
    changed: usize,
    /// The source values each filter and automaton layer was last computed from.
    derived_from: BTreeMap<String, Vec<f32>>,
    /// What `territory` was last flooded from.
    territory_of: Option<FloodInputs>,
    /// Influence over the world's waypoint graph, when it has one.
    graph: Option<super::graph_live::GraphLayers>,
}

/// A finite number attribute of `e`.
fn number(e: &Entity, key: &str) -> Option<f32> {
    e.attribute(key).as_f64().map(|v| v as f32).filter(|v| v.is_finite())
}

/// Whether `e` has any attribute whose key starts with `influence` — a superset of the keys
/// [`TacticalMaps::source_of`] reads (`influence`, `influence_falloff`, `influence_radius`):
/// the table is sorted, so the first key from `influence` on starts with it if any does.
fn has_influence_attributes(e: &Entity) -> bool {
    e.attributes
        .range::<str, _>((std::ops::Bound::Included("influence"), std::ops::Bound::Unbounded))
        .next()
        .is_some_and(|(k, _)| k.starts_with("influence"))
}

/// A cell from a note's `[x, y]` list or vec2.
fn cell_of(v: Option<&Value>) -> Option<IVec2> {
    match v? {
        Value::List(xy) if xy.len() == 2 => {
            let c = |v: &Value| v.as_f64().filter(|f| f.is_finite()).map(|f| f.floor().clamp(-1e9, 1e9) as i32);
            Some(IVec2::new(c(&xy[0])?, c(&xy[1])?))
        }
        Value::Vec2(p) if p.is_finite() => Some(p.floor().as_ivec2()),
        _ => None,
    }
}

impl TacticalMaps {
    /// Maps for a `width × height` world as `spec` declares, all empty until the first update.
    pub fn new(width: u32, height: u32, spec: FieldSpec) -> Self {
        TacticalMaps {
            influence: InfluenceMap::new(width, height, spec.teams.len(), spec.metric),
            sources: slotmap::SecondaryMap::new(),
            layers: BTreeMap::new(),
            frag: FragMap::new(width, height, spec.frag_decay),
            decision: DecisionMaps::new(width, height, spec.decision_area),
            perception: Perception::new(spec.perception.clone()),
            consumed: 0,
            terrain_of: None,
            observers: vec![Vec::new(); spec.teams.len()],
            changed: 0,
            derived_from: BTreeMap::new(),
            territory_of: None,
            graph: None,
            spec,
        }
    }

    /// The declaration.
    pub fn spec(&self) -> &FieldSpec {
        &self.spec
    }

    /// The senses.
    pub fn perception(&self) -> &Perception {
        &self.perception
    }

    /// The influence map.
    pub fn influence(&self) -> &InfluenceMap {
        &self.influence
    }

    /// The index of team `name`.
    pub fn team_index(&self, name: &str) -> Option<usize> {
        self.spec.teams.iter().position(|t| t == name)
    }

    /// How many influence sources the last update added, moved, changed or removed.
    pub fn last_changes(&self) -> usize {
        self.changed
    }

    /// A layer by name (see the module docs for the names).
    pub fn layer(&self, name: &str) -> Option<&Layer> {
        if let Some(team) = name.strip_prefix("influence.") {
            return self.team_index(team).and_then(|t| self.influence.layers().get(t));
        }
        self.layers.get(name)
    }

    /// The names of every layer kept, sorted.
    pub fn layer_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.spec.teams.iter().map(|t| format!("influence.{t}")).collect();
        names.extend(self.layers.keys().cloned());
        names.sort();
        names
    }

    /// The entity's influence source as its attributes and the declaration say; `None` when it is
    /// on no declared team.
    fn source_of(&self, e: &Entity) -> Option<Source> {
        let team = self.team_index(&e.team)?;
        if !has_influence_attributes(e) {
            // Every entity of every team is asked every tick, and most carry none of the three
            // attributes: one probe of the table answers for all three lookups.
            let radius = self.spec.radius.max(0.0);
            return Some(Source::new(team, e.cell(), self.spec.strength, radius, self.spec.falloff));
        }
        let falloff = e.attribute("influence_falloff").as_str().and_then(Falloff::parse).unwrap_or(self.spec.falloff);
        Some(Source::new(
            team,
            e.cell(),
            number(e, "influence").unwrap_or(self.spec.strength),
            number(e, "influence_radius").unwrap_or(self.spec.radius).max(0.0),
            falloff,
        ))
    }

    /// Brings every layer up to date with `world` (the tick calls this once, after the events
    /// phase; a fresh world once at load).
    pub fn update(&mut self, world: &World) {
        self.changed = self.update_sources(world);
        if self.changed > 0 || self.consumed == 0 {
            self.update_derived();
        }
        self.update_terrain(world);
        self.update_exposure(world);
        let events = world.log().since(self.consumed);
        self.learn(events);
        self.perception.observe(world, events);
        self.consumed = world.log().len();
        self.update_territory(world);
        self.update_declared();
        self.update_graph(world);
    }

    /// Influence over the waypoint graph: rebuilt when a member's node or attributes or the map
    /// changed.
    fn update_graph(&mut self, world: &World) {
        let Some((graph, _)) = world.nav().waypoint_graph() else {
            self.graph = None;
            return;
        };
        let map = world.map();
        let sources: Vec<GraphSource> = world
            .entities()
            .filter_map(|(_, e)| {
                let s = self.source_of(e)?;
                let node = super::graph_live::linked_node(graph, map, e.cell())?;
                Some(GraphSource { team: s.team, node, strength: s.strength, radius: s.radius, falloff: s.falloff })
            })
            .collect();
        let version = world.nav().map_version();
        self.graph = super::graph_live::GraphLayers::update(
            self.graph.take(),
            graph,
            map,
            version,
            self.spec.teams.len(),
            sources,
        );
    }

    /// Team `team`'s influence at node `node` of the world's waypoint graph (`None` when the
    /// world has no graph, or no such team or node).
    pub fn graph_influence(&self, team: &str, node: usize) -> Option<f32> {
        let t = self.team_index(team)?;
        let g = self.graph.as_ref()?;
        Some(g.at(t, node))
    }

    /// `territory`: the map flooded from the declared teams' members (strength, radius and
    /// falloff as for influence), recomputed when a member moved or the map changed.
    fn update_territory(&mut self, world: &World) {
        if !self.spec.layers.contains(&LayerKind::Territory) {
            return;
        }
        let mut members: Vec<(IVec2, usize, u32)> = Vec::new();
        let mut sources = Vec::new();
        for (_, e) in world.entities() {
            if let Some(s) = self.source_of(e) {
                members.push((s.cell, s.team, s.strength.to_bits()));
                sources.push(super::flood::FloodSource {
                    cell: s.cell,
                    strength: s.strength,
                    radius: s.radius,
                    falloff: s.falloff,
                });
            }
        }
        let key = (members, world.nav().map_version());
        if self.territory_of.as_ref() == Some(&key) && self.layers.contains_key("territory") {
            return;
        }
        // A threshold just above zero: a region ends where its strength has fallen off.
        let t = super::flood::flood(world.map(), &sources, 1e-6, super::flood::Connectivity::Eight);
        let map = world.map();
        let values = (0..map.len())
            .map(|i| t.owner[i].and_then(|o| key.0.get(o as usize)).map_or(-1.0, |&(_, team, _)| team as f32))
            .collect();
        let layer = Layer::from_values(map.width(), map.height(), values).unwrap_or_else(|| Layer::new(0, 0));
        self.layers.insert("territory".into(), layer);
        self.territory_of = Some(key);
    }

    /// The scenario's filter and automaton layers, each recomputed when the layer it reads changed.
    fn update_declared(&mut self) {
        for k in 0..self.spec.filters.len() + self.spec.automata.len() {
            let (name, from) = match k.checked_sub(self.spec.filters.len()) {
                None => (&self.spec.filters[k].name, &self.spec.filters[k].from),
                Some(a) => (&self.spec.automata[a].name, &self.spec.automata[a].from),
            };
            let Some(src) = self.layer(from) else { continue };
            if self.derived_from.get(name).is_some_and(|v| v.as_slice() == src.values())
                && self.layers.contains_key(name)
            {
                continue;
            }
            let out = match k.checked_sub(self.spec.filters.len()) {
                None => self.spec.filters[k].apply(src),
                Some(a) => self.spec.automata[a].apply(src),
            };
            let (name, used) = (name.clone(), src.values().to_vec());
            self.layers.insert(name.clone(), out);
            self.derived_from.insert(name, used);
        }
    }

    /// The team that owns a cell by the `territory` flood, if the scenario keeps it.
    pub fn territory_at(&self, cell: IVec2) -> Option<&str> {
        let v = self.layers.get("territory")?.get(cell)?;
        if v < 0.0 { None } else { self.spec.teams.get(v as usize).map(String::as_str) }
    }

    fn update_sources(&mut self, world: &World) -> usize {
        let mut changes = 0;
        let mut gone: Vec<EntityId> = self.sources.keys().filter(|&id| world.entity(id).is_none()).collect();
        gone.sort_unstable(); // removed in key order, as ever, so the sums come out the same

        for id in gone {
            if let Some(s) = self.sources.remove(id) {
                let _ = self.influence.remove(s);
                changes += 1;
            }
        }
        let mut ahead = world.entities().skip(crate::world::prefetch::AHEAD);
        for (id, e) in world.entities() {
            if let Some((_, later)) = ahead.next() {
                // Its team's name is read next (a heap block per character).
                crate::world::prefetch::prefetch(later.team.as_ptr());
            }
            let want = self.source_of(e);
            let have = self.sources.get(id).copied();
            match (have, want) {
                (Some(s), None) => {
                    let _ = self.influence.remove(s);
                    self.sources.remove(id);
                    changes += 1;
                }
                (Some(s), Some(want)) => {
                    let Some(old) = self.influence.source(s).copied() else { continue };
                    if old == want {
                        continue;
                    }
                    changes += 1;
                    let done = if (Source { cell: want.cell, ..old }) == want {
                        self.influence.move_to(s, want.cell) // only the cells near it change
                    } else {
                        self.influence.update(s, want)
                    };
                    if done.is_err() {
                        let _ = self.influence.remove(s);
                        self.sources.remove(id);
                    }
                }
                (None, Some(want)) => {
                    if let Ok(s) = self.influence.add(want) {
                        self.sources.insert(id, s);
                        changes += 1;
                    }
                }
                (None, None) => {}
            }
        }
        changes
    }

    fn update_derived(&mut self) {
        let layers = self.influence.layers();
        let kinds = &self.spec.layers;
        // Only what the scenario keeps is computed: a crowd's influence moves every tick, and a
        // whole-map layer nobody reads is a whole-map pass wasted per team per tick.
        let derived = [
            LayerKind::Security,
            LayerKind::Balance,
            LayerKind::Vulnerability,
            LayerKind::Tension,
            LayerKind::Frontier,
            LayerKind::Control,
        ];
        if !derived.iter().any(|k| kinds.contains(k)) {
            return;
        }
        let Ok(ctl) = control(layers) else { return };
        let mut out: Vec<(String, Layer)> = Vec::new();
        for (t, team) in self.spec.teams.iter().enumerate() {
            if kinds.contains(&LayerKind::Security) {
                out.push((format!("security.{team}"), security(&ctl, t)));
            }
            if kinds.contains(&LayerKind::Balance)
                && let Ok(l) = balance(layers, t)
            {
                out.push((format!("balance.{team}"), l));
            }
            if kinds.contains(&LayerKind::Vulnerability)
                && let Ok(l) = vulnerability(layers, t)
            {
                out.push((format!("vulnerability.{team}"), l));
            }
        }
        if kinds.contains(&LayerKind::Tension)
            && let Ok(l) = tension(layers)
        {
            out.push(("tension".into(), l));
        }
        if kinds.contains(&LayerKind::Frontier) {
            out.push(("frontier".into(), frontier(&ctl)));
        }
        if kinds.contains(&LayerKind::Control) {
            out.push(("control".into(), ctl.degree));
        }
        self.layers.extend(out);
    }

    fn update_terrain(&mut self, world: &World) {
        let map = world.map();
        if self.terrain_of.as_deref() == Some(map.costs()) {
            return;
        }
        self.terrain_of = Some(map.costs().to_vec());
        let kinds = &self.spec.layers;
        if kinds.contains(&LayerKind::Cover) {
            // Its own generator, so declaring cover does not change what scripts draw.
            let mut rng = WorldRng::new(self.spec.cover_seed);
            let cover = cover_layers(map, &self.spec.cover, &mut rng).map(|(overall, _)| overall);
            self.layers.insert("cover".into(), cover.unwrap_or_else(|_| Layer::new(map.width(), map.height())));
        }
        if kinds.contains(&LayerKind::Visibility) {
            let l = visibility_layer(map, self.spec.visibility_rays, self.spec.sight_range);
            self.layers.insert("visibility".into(), l);
        }
        if kinds.contains(&LayerKind::Difficulty) {
            let l = difficulty_layer(map, None, Ruggedness::Sum(0.0));
            self.layers.insert("difficulty".into(), l.unwrap_or_else(|_| Layer::new(map.width(), map.height())));
        }
        // The map changed: cells seen from the same observers may not be any more.
        self.observers.iter_mut().for_each(Vec::clear);
        self.layers.retain(|name, _| !name.starts_with("exposure."));
    }

    fn update_exposure(&mut self, world: &World) {
        if !self.spec.layers.contains(&LayerKind::Exposure) {
            return;
        }
        for (t, team) in self.spec.teams.iter().enumerate() {
            let enemies: Vec<IVec2> = world
                .entities()
                .filter(|(_, e)| e.team != *team && self.spec.teams.contains(&e.team))
                .map(|(_, e)| e.cell())
                .collect();
            let name = format!("exposure.{team}");
            if self.observers[t] != enemies || !self.layers.contains_key(&name) {
                self.layers.insert(name, exposure_layer(world.map(), &enemies, self.spec.sight_range));
                self.observers[t] = enemies;
            }
        }
    }

    /// Frag and decision reports among this tick's events: `note` events named `frag`
    /// (`{attacker = [x, y], victim = [x, y], amount}`), `resource` (`{cell, amount}`) and
    /// `conflict` (`{cell, enemies, strength}`).
    fn learn(&mut self, events: &[crate::world::Event]) {
        let (mut frag, mut decision) = (false, false);
        for ev in events {
            let EventKind::Note { name, value: Value::Map(m) } = &ev.kind else { continue };
            let num = |k: &str, d: f32| m.get(k).and_then(Value::as_f64).map_or(d, |v| v as f32);
            match name.as_str() {
                "frag" if self.spec.layers.contains(&LayerKind::Frag) => {
                    if let (Some(a), Some(v)) = (cell_of(m.get("attacker")), cell_of(m.get("victim"))) {
                        self.frag.record_hit(a, v, num("amount", 1.0));
                        frag = true;
                    }
                }
                "resource" if self.spec.layers.contains(&LayerKind::Decision) => {
                    if let Some(cell) = cell_of(m.get("cell")) {
                        self.decision.apply(&DecisionEvent::ResourceSeen { cell, amount: num("amount", 0.0) });
                        decision = true;
                    }
                }
                "conflict" if self.spec.layers.contains(&LayerKind::Decision) => {
                    if let Some(cell) = cell_of(m.get("cell")) {
                        let enemies = num("enemies", 1.0).clamp(0.0, u32::MAX as f32) as u32;
                        let (kind, capability) = (ConflictKind::Units, Capability::Both);
                        let strength = num("strength", 1.0);
                        self.decision.apply(&DecisionEvent::Conflict { cell, kind, capability, enemies, strength });
                        decision = true;
                    }
                }
                _ => {}
            }
        }
        if (frag || self.consumed == 0) && self.spec.layers.contains(&LayerKind::Frag) {
            self.layers.insert("frag".into(), self.frag.layer().clone());
        }
        if (decision || self.consumed == 0) && self.spec.layers.contains(&LayerKind::Decision) {
            self.layers.insert("resources".into(), self.decision.resources().clone());
            self.layers.insert("conflict".into(), self.decision.conflict_heat().clone());
            self.layers.insert("offense".into(), self.decision.offense());
        }
    }

    /// The decision maps (their layers are per area: divide a cell by
    /// [`FieldSpec::decision_area`]).
    pub fn decision(&self) -> &DecisionMaps {
        &self.decision
    }

    /// The value of layer `name` at a game cell. Decision layers are looked up in the cell's area.
    pub fn value_at(&self, name: &str, cell: IVec2) -> Option<f32> {
        let layer = self.layer(name)?;
        let cell =
            if matches!(name, "resources" | "conflict" | "offense") { self.decision.area_of(cell) } else { cell };
        Some(layer.at(cell))
    }

    /// The passable cell with the largest value of layer `name` within Euclidean distance
    /// `radius` of `centre` (ties: first in row-major order). With `walker`, only cells a walker
    /// standing there can reach count: the best cover behind a wall it cannot get round is no
    /// answer for it.
    pub fn best_near(
        &self,
        world: &World,
        name: &str,
        centre: IVec2,
        radius: f32,
        walker: Option<IVec2>,
    ) -> Option<(IVec2, f32)> {
        let r = if radius.is_finite() { radius.clamp(0.0, 1e6) } else { 0.0 };
        let reach = IVec2::splat(r.floor() as i32);
        self.best_where(world, name, centre - reach, centre + reach, |c| {
            (c - centre).as_vec2().length() <= r && walker.is_none_or(|w| world.reachable(w, c))
        })
    }

    /// The passable cell with the largest value of layer `name` in the rectangle `min..=max`
    /// (with `walker`, only cells it can reach).
    pub fn best_in(
        &self,
        world: &World,
        name: &str,
        min: IVec2,
        max: IVec2,
        walker: Option<IVec2>,
    ) -> Option<(IVec2, f32)> {
        self.best_where(world, name, min, max, |c| walker.is_none_or(|w| world.reachable(w, c)))
    }

    fn best_where(
        &self,
        world: &World,
        name: &str,
        min: IVec2,
        max: IVec2,
        accept: impl Fn(IVec2) -> bool,
    ) -> Option<(IVec2, f32)> {
        let (lo, hi) = (min.min(max), min.max(max));
        let lo = lo.max(IVec2::ZERO);
        let hi = hi.min(IVec2::new(world.map().width() as i32 - 1, world.map().height() as i32 - 1));
        let mut best: Option<(IVec2, f32)> = None;
        for y in lo.y..=hi.y {
            for x in lo.x..=hi.x {
                let c = IVec2::new(x, y);
                if !world.map().passable(c) || !accept(c) {
                    continue;
                }
                let v = self.value_at(name, c)?;
                if v.is_finite() && best.is_none_or(|(_, b)| v > b) {
                    best = Some((c, v));
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Map;

    fn spec(layers: &[LayerKind]) -> FieldSpec {
        FieldSpec {
            teams: vec!["blue".into(), "red".into()],
            strength: 4.0,
            radius: 4.0,
            metric: Metric::Manhattan,
            layers: layers.iter().copied().collect(),
            ..FieldSpec::default()
        }
    }

    fn unit(world: &mut World, name: &str, team: &str, x: i32) -> EntityId {
        let mut e = Entity::new(name, "soldier", IVec2::new(x, 0));
        e.team = team.into();
        world.spawn(e).unwrap()
    }

    #[test]
    fn entities_are_sources_that_move_and_derived_maps_follow() {
        let mut world = World::new(Map::open(9, 1), 10, 1);
        let a = unit(&mut world, "a", "blue", 2);
        let mut b = Entity::new("b", "soldier", IVec2::new(6, 0));
        b.team = "blue".into();
        b.attributes.insert("influence".into(), Value::Int(2));
        world.spawn(b).unwrap();
        unit(&mut world, "r", "red", 8);
        unit(&mut world, "n", "", 0); // no declared team: no influence
        let kinds = [LayerKind::Control, LayerKind::Tension, LayerKind::Frontier, LayerKind::Security];
        let mut maps = TacticalMaps::new(9, 1, spec(&kinds));
        maps.update(&world);
        assert_eq!(maps.last_changes(), 3);
        // The same numbers as the influence module's exercise-8 test, now from entities.
        let blue = [2.0, 3.0, 4.0, 3.5, 3.0, 2.5, 2.0, 1.5, 1.0];
        let red = [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0];
        assert_eq!(maps.layer("influence.blue").unwrap().values(), &blue);
        assert_eq!(maps.layer("influence.red").unwrap().values(), &red);
        let tension: Vec<f32> = blue.iter().zip(&red).map(|(b, r)| b + r).collect();
        assert_eq!(maps.layer("tension").unwrap().values(), &tension[..]);
        // Blue holds 0..=5, cell 6 is a tie (2 against 2: nobody's), red holds 7..=8: no cells of
        // different owners touch, so there is no front line yet.
        assert_eq!(maps.value_at("control", IVec2::new(6, 0)), Some(0.0));
        assert_eq!(maps.layer("frontier").unwrap().total(), 0.0);
        // The blue unit a steps to 3: only it changes, and blue now wins at 6 (2+1.5 > 2).
        world.entity_mut(a).unwrap().position.x = 3.5;
        maps.update(&world);
        assert_eq!(maps.last_changes(), 1);
        assert_eq!(maps.value_at("influence.blue", IVec2::new(6, 0)), Some(1.0 + 2.0));
        let front: Vec<f32> = maps.layer("frontier").unwrap().values().to_vec();
        assert_eq!(front, [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0]);
        assert_eq!(maps.value_at("security.red", IVec2::new(8, 0)), Some(4.0 - 1.0 + 0.0));
        // Nothing moves: nothing changes.
        maps.update(&world);
        assert_eq!(maps.last_changes(), 0);
        // A despawned unit takes its influence with it.
        world.despawn(a).unwrap();
        maps.update(&world);
        assert_eq!(maps.value_at("influence.blue", IVec2::new(2, 0)), Some(0.0));
        assert_eq!(maps.value_at("nonsense", IVec2::ZERO), None);
        assert_eq!(
            maps.layer_names(),
            ["control", "frontier", "influence.blue", "influence.red", "security.blue", "security.red", "tension"]
        );
    }

    #[test]
    fn frag_and_decision_maps_learn_from_notes_and_best_cells_skip_walls() {
        let map = crate::field::test_map("......\n..#...\n......\n");
        let mut world = World::new(map, 10, 1);
        let mut maps = TacticalMaps::new(6, 3, spec(&[LayerKind::Frag, LayerKind::Decision]));
        maps.update(&world);
        let cell = |x: i64, y: i64| Value::List(vec![Value::Int(x), Value::Int(y)]);
        let note = |name: &str, pairs: Vec<(&str, Value)>| EventKind::Note {
            name: name.into(),
            value: Value::Map(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()),
        };
        world.record(None, note("frag", vec![("attacker", cell(1, 1)), ("victim", cell(4, 1))]));
        world.record(None, note("frag", vec![("attacker", cell(1, 1)), ("victim", cell(4, 2))]));
        world.record(None, note("resource", vec![("cell", cell(5, 2)), ("amount", Value::Int(30))]));
        maps.update(&world);
        // The chapter's +1/−1 with ×0.9 forgetting before each record: 0.9·1 + 1 = 1.9 at the
        // attacker, 0.9·(−1) = −0.9 at the first victim.
        assert_eq!(maps.value_at("frag", IVec2::new(1, 1)), Some(0.9 + 1.0));
        assert_eq!(maps.value_at("frag", IVec2::new(4, 1)), Some(-0.9));
        assert_eq!(maps.value_at("frag", IVec2::new(4, 2)), Some(-1.0));
        // Areas are 4 cells wide: (5,2) is in area (1,0).
        assert_eq!(maps.value_at("resources", IVec2::new(4, 0)), Some(30.0));
        assert_eq!(maps.layer("resources").unwrap().values(), &[0.0, 30.0]);
        // The best frag cell within 1.5 of (2,1) — itself a wall — is the attacker's cell.
        assert_eq!(maps.best_near(&world, "frag", IVec2::new(2, 1), 1.5, None), Some((IVec2::new(1, 1), 1.9)));
        // The worst for the attacker: best of a layer only over open cells; the rectangle is
        // clipped to the map.
        assert_eq!(
            maps.best_in(&world, "frag", IVec2::new(3, -5), IVec2::new(99, 1), None),
            Some((IVec2::new(3, 0), 0.0))
        );
        // Old events are not learned twice.
        maps.update(&world);
        assert_eq!(maps.value_at("frag", IVec2::new(1, 1)), Some(1.9));
    }

    #[test]
    fn terrain_layers_follow_the_map_and_exposure_the_enemies() {
        let map = crate::field::test_map("........\n...#....\n........\n");
        let mut world = World::new(map, 10, 1);
        unit(&mut world, "b", "blue", 0);
        let r = unit(&mut world, "r", "red", 7);
        let kinds = [LayerKind::Visibility, LayerKind::Exposure, LayerKind::Difficulty, LayerKind::Cover];
        let mut maps = TacticalMaps::new(8, 3, spec(&kinds));
        maps.update(&world);
        let want = exposure_layer(world.map(), &[IVec2::new(7, 0)], 16.0);
        assert_eq!(maps.layer("exposure.blue"), Some(&want));
        assert_eq!(maps.value_at("difficulty", IVec2::new(3, 1)), Some(f32::INFINITY));
        let mut rng = WorldRng::new(0);
        let (cover, _) = cover_layers(world.map(), &CoverParams::default(), &mut rng).unwrap();
        assert_eq!(maps.layer("cover"), Some(&cover));
        world.entity_mut(r).unwrap().position = glam::Vec2::new(4.5, 2.5);
        world.map_mut().set(IVec2::new(3, 1), b'.', 1.0);
        maps.update(&world);
        assert_eq!(maps.layer("exposure.blue"), Some(&exposure_layer(world.map(), &[IVec2::new(4, 2)], 16.0)));
        assert_eq!(maps.layer("visibility"), Some(&visibility_layer(world.map(), 16, 16.0)));
        assert_eq!(maps.value_at("difficulty", IVec2::new(3, 1)), Some(1.0));
    }
}
