//! A view from a trace file (`tactica view TRACE [--scenario S]`).
//!
//! A trace holds the events of a run and nothing else: no map, no positions within cells, no
//! routes, queries, layers or blackboards (`docs/trace.md`). With the scenario that made it, the
//! run is played again and its trace compared with the file: when they are the same, the view is
//! the full recording of that replay. Otherwise — no scenario, or one whose replay differs (other
//! scripts, another seed) — the view is what the trace alone holds, on the scenario's map when
//! one is given, and says what it lacks.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde_json::Value as Json;

use super::record::{self, MapInfo, RecordedEvent, Recording, Track};
use super::trajectory::Trajectory;
use super::{ViewError, ViewOptions};
use crate::runtime::Runtime;
use crate::scenario::Scenario;

/// Where a trace view's data came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The scenario was played again and made the same trace: everything is recorded.
    Replayed,
    /// The trace alone (the scenario, if given, provided the map); the reason is said.
    TraceOnly(String),
}

/// One parsed line of a trace.
struct Line {
    tick: u64,
    entity: Option<String>,
    kind: String,
    fields: serde_json::Map<String, Json>,
}

/// The recording for a trace: replayed when `scenario` reproduces it, else from the trace alone.
pub fn recording(
    file: &Path,
    text: &str,
    scenario: Option<Scenario>,
    options: &ViewOptions,
) -> Result<(Recording, Source), ViewError> {
    let lines = parse(file, text)?;
    let ticks = lines.last().map_or(0, |l| l.tick + 1);
    let Some(mut scenario) = scenario else {
        let why = "the trace does not say which scenario made it; give it with --scenario to see the map and everything the trace does not hold".to_owned();
        let mut rec = from_lines(&lines, ticks, None);
        rec.missing.insert(0, "the map: the trace does not name its scenario (give it with --scenario)".to_owned());
        return Ok((rec, Source::TraceOnly(why)));
    };
    if let Some(seed) = options.seed {
        scenario.world.reseed(seed);
    }
    let map = record::map_info(&scenario.world);
    let places = (
        scenario
            .world
            .doors()
            .iter()
            .map(|(n, d)| (n.clone(), d.cells.iter().map(|c| [c.x, c.y]).collect(), d.open))
            .collect(),
        scenario.world.regions().iter().map(|(n, r)| (n.clone(), [r.min.x, r.min.y], [r.max.x, r.max.y])).collect(),
        scenario.world.places().iter().map(|(n, p)| (n.clone(), [p.x, p.y])).collect(),
        scenario.world.waypoints().iter().map(|(_, w)| [w.cell.x, w.cell.y]).collect(),
    );
    let name = scenario.name.clone();
    let layer_every = options.layer_every.or(scenario.view_layer_every);
    let mut rt = Runtime::new(scenario, crate::languages()).map_err(ViewError::Scripts)?;
    let rec = record::record(&mut rt, options.ticks.unwrap_or(ticks), layer_every);
    if rt.trace() == text {
        return Ok((rec, Source::Replayed));
    }
    let why = format!(
        "playing {name} again did not make the same trace (other scripts, map or seed than the run that wrote it), so the view shows what the trace holds on the scenario's map"
    );
    let mut rec = from_lines(&lines, ticks, Some(map));
    (rec.doors, rec.regions, rec.places, rec.hidespots) = places;
    Ok((rec, Source::TraceOnly(why)))
}

fn parse(file: &Path, text: &str) -> Result<Vec<Line>, ViewError> {
    let mut out = Vec::new();
    let mut last_tick = 0;
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |column: usize, message: String| ViewError::Trace {
            file: file.to_path_buf(),
            line: n + 1,
            column,
            message,
        };
        let value: Json = serde_json::from_str(line).map_err(|e| bad(e.column(), e.to_string()))?;
        let Json::Object(mut fields) = value else { return Err(bad(1, "not a JSON object".to_owned())) };
        let tick = fields
            .remove("tick")
            .and_then(|t| t.as_u64())
            .ok_or_else(|| bad(1, "no `tick` (a whole number)".to_owned()))?;
        if tick < last_tick {
            return Err(bad(1, format!("tick {tick} comes after tick {last_tick}: a trace is in tick order")));
        }
        last_tick = tick;
        let kind = match fields.remove("kind") {
            Some(Json::String(k)) => k,
            _ => return Err(bad(1, "no `kind` (a string)".to_owned())),
        };
        let entity = match fields.remove("entity") {
            Some(Json::String(e)) => Some(e),
            None => None,
            Some(_) => return Err(bad(1, "`entity` is not a name".to_owned())),
        };
        out.push(Line { tick, entity, kind, fields });
    }
    Ok(out)
}

/// What the trace alone holds: characters at the centres of the cells the trace puts them in,
/// every event, and attributes as they changed.
fn from_lines(lines: &[Line], ticks: u64, map: Option<MapInfo>) -> Recording {
    let mut rec = Recording { name: "trace".to_owned(), ticks, ..Recording::default() };
    let mut index: HashMap<String, usize> = HashMap::new();
    // Per character: the cell it stands in, from which tick, until it leaves.
    let mut cells: Vec<Vec<(u64, [i32; 2])>> = Vec::new();
    let mut gone: Vec<Option<u64>> = Vec::new();
    let mut attributes: Vec<BTreeMap<String, Json>> = Vec::new();
    let mut seen = [i32::MAX, i32::MAX, i32::MIN, i32::MIN];
    for l in lines {
        let entity = l.entity.as_ref().map(|name| {
            *index.entry(name.clone()).or_insert_with(|| {
                rec.entities.push(Track { name: name.clone(), ..Track::default() });
                cells.push(Vec::new());
                gone.push(None);
                attributes.push(BTreeMap::new());
                rec.entities.len() - 1
            })
        });
        let cell = |key: &str| l.fields.get(key).and_then(|c| serde_json::from_value::<[i32; 2]>(c.clone()).ok());
        if let Some(i) = entity {
            match l.kind.as_str() {
                "spawn" => {
                    let track = &mut rec.entities[i];
                    track.kind = l.fields.get("of").and_then(Json::as_str).unwrap_or_default().to_owned();
                    track.team = l.fields.get("team").and_then(Json::as_str).unwrap_or_default().to_owned();
                    if let Some(c) = cell("cell") {
                        cells[i].push((l.tick, c));
                    }
                }
                "move" => {
                    if let Some(c) = cell("to") {
                        cells[i].push((l.tick, c));
                    }
                }
                "despawn" => gone[i] = Some(l.tick),
                "attribute" => {
                    if let Some(key) = l.fields.get("key").and_then(Json::as_str) {
                        attributes[i].insert(key.to_owned(), l.fields.get("value").cloned().unwrap_or(Json::Null));
                        let attrs = serde_json::to_string(&attributes[i]).unwrap_or_default();
                        rec.states.push((l.tick, i, attrs, "{}".to_owned()));
                    }
                }
                _ => {}
            }
        }
        for key in ["cell", "from", "to"] {
            if let Some(c) = cell(key) {
                seen = [seen[0].min(c[0]), seen[1].min(c[1]), seen[2].max(c[0]), seen[3].max(c[1])];
            }
        }
        if l.kind != "move" {
            let body = Json::Object(l.fields.clone()).to_string();
            rec.events.push(RecordedEvent { tick: l.tick, entity, kind: l.kind.clone(), body });
        }
    }
    for (i, steps) in cells.iter().enumerate() {
        let Some(&(first, _)) = steps.first() else { continue };
        let end = gone[i].unwrap_or(ticks.saturating_sub(1)).min(ticks.saturating_sub(1));
        let mut t = Trajectory::default();
        let mut k = 0;
        for tick in first..=end {
            while k + 1 < steps.len() && steps[k + 1].0 <= tick {
                k += 1;
            }
            let c = steps[k].1;
            t.push(tick, c[0] as f32 + 0.5, c[1] as f32 + 0.5);
        }
        rec.entities[i].keys = t.finish();
    }
    rec.map = map.unwrap_or_else(|| {
        let (w, h) = if seen[0] == i32::MAX { (1, 1) } else { (seen[2].max(0) + 2, seen[3].max(0) + 2) };
        let n = (w * h) as usize;
        MapInfo { width: w as u32, height: h as u32, tiles: vec![b'.'; n], cost: vec![1.0; n] }
    });
    rec.missing = vec![
        "positions: the trace has cells, not positions within them — characters are drawn at cell centres".to_owned(),
        "routes: only each path's start, goal and cost (the `path` events)".to_owned(),
        "position queries: not recorded in a trace".to_owned(),
        "tactical layers: not recorded in a trace".to_owned(),
        "attributes only from their changes (not their values at spawn); blackboards not at all".to_owned(),
    ];
    rec
}
