//! What the viewer shows that the trace does not hold, recorded by playing the scenario:
//! positions every tick (as [`Trajectory`] keypoints), the routes characters planned, every
//! position query with every candidate it weighed, the tactical layers at an interval, and each
//! character's attributes and blackboard whenever they change. The trace's own events come along
//! (all but `move`, which the positions show).

use std::collections::HashMap;

use glam::Vec2;
use serde_json::Value as Json;
use tactica_engine::nav::PlanState;
use tactica_engine::tactics::query::{CandidateStatus, QueryRecord, TestEffect};
use tactica_engine::value::Table;
use tactica_engine::world::{EntityId, EventKind, World};

use super::trajectory::{Key, Trajectory};
use crate::runtime::Runtime;

/// Everything recorded of one run; [`super::encode`] writes it for the viewer.
#[derive(Debug, Default)]
pub struct Recording {
    /// The scenario's title and file (as given).
    pub name: String,
    /// The scenario file as the command was given it.
    pub file: String,
    /// The seed played.
    pub seed: u64,
    /// Ticks per second.
    pub rate: u32,
    /// How many ticks were recorded (ticks `0..ticks`).
    pub ticks: u64,
    /// The map: width, height, each cell's tile character and whether it is blocked at the start.
    pub map: MapInfo,
    /// Doors: name, cells, open at the start.
    pub doors: Vec<(String, Vec<[i32; 2]>, bool)>,
    /// Regions: name, min and max cell.
    pub regions: Vec<(String, [i32; 2], [i32; 2])>,
    /// Places: name, position.
    pub places: Vec<(String, [f32; 2])>,
    /// Hidespots' cells.
    pub hidespots: Vec<[i32; 2]>,
    /// The characters, in the order they were first seen.
    pub entities: Vec<Track>,
    /// The trace's events but `move`: tick, entity index, kind, the other fields as JSON.
    pub events: Vec<RecordedEvent>,
    /// Each planned route when it changed: tick, entity index, corners (empty: no route now).
    pub plans: Vec<(u64, usize, Vec<Vec2>)>,
    /// Attributes and blackboard whenever either changed: tick, entity index, both as JSON.
    pub states: Vec<(u64, usize, String, String)>,
    /// Every position query: tick, entity index, its record.
    pub queries: Vec<(u64, usize, QueryRecord)>,
    /// Queries asked but not kept, past [`MAX_QUERY_CANDIDATES`].
    pub queries_dropped: u64,
    /// Tactical layers: name, and its values over the map at each recorded tick.
    pub layers: Vec<LayerTrack>,
    /// What the recording lacks, in words, when it came from a trace alone.
    pub missing: Vec<String>,
}

/// The map's cells.
#[derive(Debug, Default)]
pub struct MapInfo {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Each cell's tile character (row-major).
    pub tiles: Vec<u8>,
    /// Each cell's cost of entry, 0 for blocked (row-major).
    pub cost: Vec<f32>,
}

/// One character.
#[derive(Debug, Default)]
pub struct Track {
    /// Its name.
    pub name: String,
    /// Its kind.
    pub kind: String,
    /// Its team.
    pub team: String,
    /// Its squad.
    pub squad: String,
    /// Its positions.
    pub keys: Vec<Key>,
}

/// One event of the trace.
#[derive(Debug, Clone)]
pub struct RecordedEvent {
    /// Its tick.
    pub tick: u64,
    /// The character it concerns.
    pub entity: Option<usize>,
    /// Its kind (`say`, `state`, …).
    pub kind: String,
    /// Its other fields, as a JSON object.
    pub body: String,
}

/// A tactical layer's recorded values.
#[derive(Debug, Default)]
pub struct LayerTrack {
    /// Its name (`influence.blue`, `cover` …).
    pub name: String,
    /// The ticks recorded.
    pub ticks: Vec<u64>,
    /// The values at each, one per cell, row-major.
    pub values: Vec<Vec<f32>>,
}

/// Candidates kept over all queries of a run; a run that asks more keeps the first ones and
/// counts the rest.
pub const MAX_QUERY_CANDIDATES: usize = 200_000;

/// Layer values kept over a run (cells × layers × snapshots) when no interval is given: the
/// interval is the smallest of 1, 2, 5, 10, 20, 50, 100 … that keeps the total under this.
pub const LAYER_SAMPLE_BUDGET: u64 = 1_500_000;

/// Plays `ticks` ticks of `rt` and records them.
pub fn record(rt: &mut Runtime, ticks: u64, layer_every: Option<u64>) -> Recording {
    let seed = rt.world_mut().rng().seed();
    let world = rt.world();
    let mut rec = Recording {
        name: rt.name().to_owned(),
        file: rt.file().display().to_string(),
        seed,
        rate: world.clock().rate(),
        ticks,
        map: map_info(world),
        ..Recording::default()
    };
    rec.doors = world
        .doors()
        .iter()
        .map(|(name, d)| (name.clone(), d.cells.iter().map(|c| [c.x, c.y]).collect(), d.open))
        .collect();
    rec.regions = world.regions().iter().map(|(n, r)| (n.clone(), [r.min.x, r.min.y], [r.max.x, r.max.y])).collect();
    rec.places = world.places().iter().map(|(n, p)| (n.clone(), [p.x, p.y])).collect();
    rec.hidespots = world.waypoints().iter().map(|(_, w)| [w.cell.x, w.cell.y]).collect();
    let layer_names = world.tactical().map(tactica_engine::field::TacticalMaps::layer_names).unwrap_or_default();
    let every =
        layer_every.unwrap_or_else(|| default_layer_every(ticks, world.map().len() as u64, layer_names.len() as u64));
    rec.layers = layer_names.into_iter().map(|name| LayerTrack { name, ..LayerTrack::default() }).collect();
    rt.world_mut().positions_mut().keep_records(true);

    let mut rx = Recorder::default();
    let mut read = rt.world().log().len();
    for _ in 0..ticks {
        let tick = rt.world().clock().tick();
        rt.tick();
        let world = rt.world();
        rx.sample(world, tick, &mut rec);
        rx.events(world, read, &mut rec);
        read = world.log().len();
        let asked = rt.world_mut().positions_mut().take_records();
        let world = rt.world();
        for q in asked {
            let Some(e) = world.entity(q.owner).map(|_| rx.index(world, q.owner, &mut rec)) else { continue };
            let size: usize = q.record.options.iter().map(|o| o.candidates.len()).sum();
            if rx.candidates + size > MAX_QUERY_CANDIDATES {
                rec.queries_dropped += 1;
                continue;
            }
            rx.candidates += size;
            rec.queries.push((q.tick, e, q.record));
        }
        if tick.is_multiple_of(every) {
            rx.layers(world, tick, &mut rec);
        }
    }
    // Errors still repeating when the recording stops get their count, as `tactica run` ends.
    rt.finish();
    rx.events(rt.world(), read, &mut rec);
    rt.world_mut().positions_mut().keep_records(false);
    for (i, t) in rx.trajectories.into_iter().enumerate() {
        rec.entities[i].keys = t.finish();
    }
    rec
}

/// The smallest of 1, 2, 5, 10, 20, 50 … that keeps `ticks / every × cells × layers` under
/// [`LAYER_SAMPLE_BUDGET`].
pub fn default_layer_every(ticks: u64, cells: u64, layers: u64) -> u64 {
    let per_snapshot = (cells * layers).max(1);
    let mut base = 1u64;
    loop {
        for m in [1, 2, 5] {
            let every = base * m;
            if ticks.div_ceil(every) * per_snapshot <= LAYER_SAMPLE_BUDGET || every >= ticks.max(1) {
                return every;
            }
        }
        base *= 10;
    }
}

/// The map's cells as the viewer draws them.
pub fn map_info(world: &World) -> MapInfo {
    let map = world.map();
    let cells = 0..map.len();
    MapInfo {
        width: map.width(),
        height: map.height(),
        tiles: cells
            .clone()
            .map(|i| map.tile(map.cell_at(i)).map_or(b' ', |c| u8::try_from(c).unwrap_or(b'?')))
            .collect(),
        cost: cells.map(|i| map.cost(map.cell_at(i)).filter(|c| c.is_finite()).unwrap_or(0.0)).collect(),
    }
}

/// What the recorder keeps between ticks.
#[derive(Default)]
struct Recorder {
    index: HashMap<EntityId, usize>,
    by_name: HashMap<String, usize>,
    trajectories: Vec<Trajectory>,
    /// Each character's last route (to record only changes) and last state.
    plans: Vec<Option<Vec<Vec2>>>,
    attributes: Vec<Option<Table>>,
    blackboards: Vec<Option<Table>>,
    candidates: usize,
}

impl Recorder {
    /// The character's index, giving it one (and a track) when first seen.
    fn index(&mut self, world: &World, id: EntityId, rec: &mut Recording) -> usize {
        if let Some(&i) = self.index.get(&id) {
            return i;
        }
        let e = world.entity(id).expect("a live entity");
        let i = rec.entities.len();
        rec.entities.push(Track {
            name: e.name.clone(),
            kind: e.kind.clone(),
            team: e.team.clone(),
            squad: e.squad.clone(),
            keys: Vec::new(),
        });
        self.index.insert(id, i);
        self.by_name.insert(e.name.clone(), i);
        self.trajectories.push(Trajectory::default());
        self.plans.push(None);
        self.attributes.push(None);
        self.blackboards.push(None);
        i
    }

    /// Positions, routes, attributes and blackboards at the end of `tick`.
    fn sample(&mut self, world: &World, tick: u64, rec: &mut Recording) {
        for (id, e) in world.entities() {
            let i = self.index(world, id, rec);
            self.trajectories[i].push(tick, e.position.x, e.position.y);
            let route = match world.nav().plan(id).map(|p| &p.state) {
                Some(PlanState::Following { points, .. }) => Some(points),
                _ => None,
            };
            if route != self.plans[i].as_ref() {
                rec.plans.push((tick, i, route.cloned().unwrap_or_default()));
                self.plans[i] = route.cloned();
            }
            let attributes_changed = self.attributes[i].as_ref() != Some(&e.attributes);
            let blackboard_changed = self.blackboards[i].as_ref() != Some(&*e.blackboard);
            if attributes_changed || blackboard_changed {
                rec.states.push((tick, i, table_json(&e.attributes), table_json(&e.blackboard)));
                self.attributes[i] = Some(e.attributes.clone());
                self.blackboards[i] = Some((*e.blackboard).clone());
            }
        }
    }

    /// The events logged since `from`, but `move`.
    fn events(&mut self, world: &World, from: usize, rec: &mut Recording) {
        for e in world.log().since(from) {
            if matches!(e.kind, EventKind::Move { .. }) {
                continue;
            }
            let entity = e.entity.as_ref().and_then(|name| {
                self.by_name.get(name).copied().or_else(|| world.find(name).map(|id| self.index(world, id, rec)))
            });
            let (kind, body) = split_kind(&e.kind);
            rec.events.push(RecordedEvent { tick: e.tick, entity, kind, body });
        }
    }

    fn layers(&mut self, world: &World, tick: u64, rec: &mut Recording) {
        let Some(maps) = world.tactical() else { return };
        let map = world.map();
        for layer in &mut rec.layers {
            let values =
                (0..map.len()).map(|i| maps.value_at(&layer.name, map.cell_at(i)).unwrap_or(f32::NAN)).collect();
            layer.ticks.push(tick);
            layer.values.push(values);
        }
    }
}

/// An event's kind and its other fields as a JSON object.
pub fn split_kind(kind: &EventKind) -> (String, String) {
    let mut v = serde_json::to_value(kind).unwrap_or(Json::Null);
    let kind = v.get("kind").and_then(Json::as_str).unwrap_or("unknown").to_owned();
    if let Some(o) = v.as_object_mut() {
        o.remove("kind");
    }
    (kind, v.to_string())
}

fn table_json(t: &Table) -> String {
    serde_json::to_string(t).unwrap_or_else(|_| "{}".to_owned())
}

/// A query record as the viewer reads it: `[x, y, fate, rank or failed test, score, max score,
/// tests]` per candidate, each test `[key, raw, effect]` with effect `"ok"`, `"fail"` or the
/// weight's contribution.
pub fn query_json(tick: u64, entity: usize, r: &QueryRecord) -> Json {
    let options: Vec<Json> = r
        .options
        .iter()
        .map(|o| {
            let candidates: Vec<Json> = o
                .candidates
                .iter()
                .map(|c| {
                    let (fate, detail) = match &c.status {
                        CandidateStatus::Chosen(rank) => ("chosen", Json::from(*rank)),
                        CandidateStatus::Passed => ("passed", Json::Null),
                        CandidateStatus::Failed(test) => ("failed", Json::from(test.as_str())),
                        CandidateStatus::Reserved(_) => ("reserved", Json::Null),
                        CandidateStatus::Blocked => ("blocked", Json::Null),
                        CandidateStatus::Partial => ("partial", Json::Null),
                    };
                    let tests: Vec<Json> = c
                        .tests
                        .iter()
                        .map(|t| {
                            let effect = match t.effect {
                                TestEffect::Pass => Json::from("ok"),
                                TestEffect::Fail => Json::from("fail"),
                                TestEffect::Add(a) => number(a),
                            };
                            Json::Array(vec![Json::from(t.key.as_str()), number(t.raw), effect])
                        })
                        .collect();
                    Json::Array(vec![
                        number(f64::from(c.position.x)),
                        number(f64::from(c.position.y)),
                        Json::from(fate),
                        detail,
                        number(c.score),
                        number(c.max_score),
                        Json::Array(tests),
                    ])
                })
                .collect();
            serde_json::json!({ "option": o.option, "candidates": candidates })
        })
        .collect();
    serde_json::json!({ "tick": tick, "entity": entity, "query": r.query, "outcome": r.outcome, "options": options })
}

/// A number rounded to 4 decimals (what the panel shows), or null when not finite (an
/// unreachable point's path distance).
fn number(v: f64) -> Json {
    if v.is_finite() { Json::from((v * 1e4).round() / 1e4) } else { Json::Null }
}
