//! What each piece of load-time work costs in units of the load budget ([`super::budget`]).
//!
//! Every formula bounds the loops of the engine function it stands for, from sizes known before
//! that function runs (a key's value, the map's size, how many characters stand on a team), so
//! the loader can refuse before spending anything. The weights turn different steps into one
//! currency: about one unit per elementary step on a current desktop (some nanoseconds), and
//! what is kept for the whole run (a character, a layer's cells) weighed so that the default
//! budget also bounds memory to a few hundred megabytes. `tests/load_budget.rs` plays each
//! costly key from small to past the budget and checks the time and memory a unit stands for.

use tactica_engine::grid::Map;
use tactica_engine::path::Hpa;

/// Reading and parsing one byte of a data file (TOML, query blocks, model files).
pub const PER_BYTE: u64 = 8;
/// Compiling one byte of a script (parse, check, bytecode).
pub const PER_SCRIPT_BYTE: u64 = 64;
/// One map cell at load: read, kept as a cost, labelled into areas, and the search grids.
pub const PER_CELL: u64 = 128;
/// One byte kept for the whole run: the budget's 2,000,000,000 units hold at most 500 MB.
pub const PER_BYTE_KEPT: u64 = 4;
/// One cell of a layer kept for the run (four bytes, written at least once).
pub const PER_LAYER_CELL: u64 = 4 * PER_BYTE_KEPT;
/// One step along a ray or a line of sight.
pub const PER_RAY_STEP: u64 = 4;
/// One cell expanded by a search (a heap push and pop, eight neighbours).
pub const PER_EXPANSION: u64 = 48;
/// One character spawned: the entity, its name, attributes, tags and the state it keeps.
pub const PER_CHARACTER: u64 = 16_000;
/// One script attached to one character: the instance and state table the run keeps for it.
pub const PER_INSTANCE: u64 = 2_000;

/// `a · b`, saturating.
fn mul(a: u64, b: u64) -> u64 {
    a.saturating_mul(b)
}

/// How far a ray may go on `map`: `range` cells, but never past the map's corners.
pub fn ray(map: &Map, range: f32) -> u64 {
    let diagonal = u64::from(map.width()) + u64::from(map.height());
    if range.is_finite() && range >= 0.0 { (range.ceil() as u64).min(diagonal) + 1 } else { diagonal + 1 }
}

/// The map's open cells.
pub fn open_cells(map: &Map) -> u64 {
    map.costs().iter().filter(|c| c.is_finite()).count() as u64
}

/// A map file of `bytes` bytes: it holds at most that many cells.
pub fn map_file(bytes: u64) -> u64 {
    mul(bytes, PER_BYTE + PER_CELL)
}

/// A map of `cells` cells handed in whole.
pub fn map_cells(cells: u64) -> u64 {
    mul(cells, PER_CELL)
}

/// Building the HPA* hierarchy of `map` with clusters of `cluster` cells.
pub fn hierarchy(map: &Map, cluster: u32) -> u64 {
    mul(Hpa::build_work(map, cluster), PER_EXPANSION)
}

/// A door: its cells change, the map's areas are labelled again, and the hierarchy (`whole`:
/// the cost of building it over the map, 0 without one) is rebuilt where the door's bounding box
/// touches it.
pub fn door(map: &Map, cells: &[glam::IVec2], whole_hierarchy: u64, cluster: u32) -> u64 {
    let relabel = mul(map.len() as u64, PER_CELL / 4);
    let (Some(min), Some(max)) =
        (cells.iter().copied().reduce(glam::IVec2::min), cells.iter().copied().reduce(glam::IVec2::max))
    else {
        return relabel;
    };
    if whole_hierarchy == 0 {
        return relabel;
    }
    let size = cluster.max(2) as i32;
    let touched = |lo: i32, hi: i32| u64::try_from((hi / size) - (lo / size) + 1).unwrap_or(0);
    let clusters = u64::from(map.width().div_ceil(cluster.max(2))) * u64::from(map.height().div_ceil(cluster.max(2)));
    let share = touched(min.x.max(0), max.x.max(0)).saturating_mul(touched(min.y.max(0), max.y.max(0))).min(clusters);
    relabel.saturating_add(whole_hierarchy / clusters.max(1) * share)
}

/// The waypoint graph's edges, each walked in a straight line on the map.
pub fn graph_edges(lengths: impl Iterator<Item = u64>) -> u64 {
    lengths.fold(0u64, |sum, len| sum.saturating_add(mul(len + 1, PER_RAY_STEP)))
}

/// One cell's cover estimate: the walk that finds its room, then `directions × repeats` rays.
pub fn cover_cell(map: &Map, open: u64, p: &tactica_engine::field::CoverParams) -> u64 {
    let reach = (p.room_reach * (p.radius + p.jitter)).ceil();
    let side = if reach.is_finite() { 2 * (reach.max(0.0) as u64).min(1 << 20) + 1 } else { u64::MAX };
    let walk = mul(side, side).min(open);
    let rays = mul(u64::from(p.directions), u64::from(p.repeats));
    walk.saturating_add(mul(rays, mul(ray(map, p.radius + p.jitter), PER_RAY_STEP)))
}

/// The cover layer: every open cell's estimate, and the five layers it fills.
pub fn cover_layer(map: &Map, open: u64, p: &tactica_engine::field::CoverParams) -> u64 {
    mul(open, cover_cell(map, open, p)).saturating_add(mul(map.len() as u64, 5 * PER_LAYER_CELL))
}

/// The visibility layer: `rays` rays of `range` from every open cell.
pub fn visibility_layer(map: &Map, open: u64, rays: u32, range: f32) -> u64 {
    mul(mul(open, u64::from(rays.max(1))), mul(ray(map, range), PER_RAY_STEP))
}

/// One team's exposure layer: every open cell against each of `observers` (a distance test, and
/// a line of sight for those within `range`).
pub fn exposure_layer(map: &Map, open: u64, observers: u64, range: f32) -> u64 {
    mul(mul(open, observers), 1 + mul(ray(map, range), PER_RAY_STEP))
        .saturating_add(mul(map.len() as u64, PER_LAYER_CELL))
}

/// One influence source of `radius` cells: the square it writes, at most the map.
pub fn influence_source(map: &Map, radius: f32) -> u64 {
    let side = if radius.is_finite() && radius >= 0.0 { 2 * (radius.ceil() as u64).min(1 << 20) + 1 } else { u64::MAX };
    mul(side, side).min(map.len() as u64).saturating_add(1)
}

/// `layers` whole-map layers computed in a pass each.
pub fn layers(map: &Map, layers: u64) -> u64 {
    mul(mul(map.len() as u64, layers), PER_LAYER_CELL)
}

/// The territory flood from `sources` members: a best-first spread over every cell.
pub fn territory(map: &Map, sources: u64) -> u64 {
    let cells = map.len() as u64;
    let log = u64::from(64 - cells.max(1).leading_zeros());
    mul(mul(cells, 8 * (log + 1)), PER_RAY_STEP).saturating_add(sources)
}

/// A filter: a kernel of `side × side` taps over every cell, `passes` times.
pub fn filter(map: &Map, side: usize, passes: usize) -> u64 {
    let taps = mul(side as u64, side as u64);
    mul(mul(map.len() as u64, taps), passes.max(1) as u64).saturating_add(mul(map.len() as u64, 2 * PER_LAYER_CELL))
}

/// A cellular automaton: nine cells read per cell, `steps` times.
pub fn automaton(map: &Map, thresholds: usize, steps: usize) -> u64 {
    let cells = map.len() as u64;
    mul(mul(cells, 9), steps as u64).saturating_add(mul(cells, thresholds as u64 + 2 * PER_LAYER_CELL))
}

/// Generating tactical waypoints: every `spacing`-th open cell sampled (cover, `rays` visibility
/// rays and `samples` exposure lines of `range`), then condensed per property (five of them):
/// each candidate looks at those in the nine buckets of side `neighbourhood` around it, and
/// tests line of sight to the weaker ones within `neighbourhood` (each pair once).
pub fn waypoints(map: &Map, open: u64, p: &tactica_engine::tactics::waypoints::GenerateParams) -> u64 {
    let spacing = u64::from(p.spacing.max(1));
    let area = mul(spacing, spacing);
    let candidates = open.div_ceil(area).max(1);
    let reach = mul(ray(map, p.range), PER_RAY_STEP);
    let per_cell = cover_cell(map, open, &p.cover)
        .saturating_add(mul(u64::from(p.visibility_rays.max(1)), reach))
        .saturating_add(mul(u64::from(p.exposure_samples), reach));
    let r = if p.neighbourhood.is_finite() { f64::from(p.neighbourhood.max(0.0)) } else { f64::MAX };
    let cells_within =
        |area_factor: f64| ((area_factor * r * r).min(1e18) as u64 / area).saturating_add(1).min(candidates);
    let looked_at = cells_within(9.0);
    let pairs = cells_within(std::f64::consts::PI / 2.0);
    let per_candidate = looked_at.saturating_add(mul(pairs, mul(ray(map, p.neighbourhood), PER_RAY_STEP)));
    mul(candidates, per_cell).saturating_add(mul(mul(5, candidates), per_candidate))
}

/// A pattern grid over the map, drawn from `segments` of at most `longest` cells.
pub fn tile_grid(map: &Map, segments: u64, longest: u64) -> u64 {
    mul(map.len() as u64, 1).saturating_add(mul(segments, longest))
}

/// Placing a crowd: every cell of its `area` looked at, then `count` characters with `scripts`
/// scripts each.
pub fn crowd(area: u64, count: u64, scripts: u64) -> u64 {
    mul(area, 2).saturating_add(characters(count, scripts))
}

/// `count` characters with `scripts` scripts each.
pub fn characters(count: u64, scripts: u64) -> u64 {
    mul(count, PER_CHARACTER.saturating_add(mul(scripts, PER_INSTANCE)))
}

/// A data file of `bytes` bytes read and parsed.
pub fn data_file(bytes: u64) -> u64 {
    mul(bytes, PER_BYTE)
}

/// A script file of `bytes` bytes compiled.
pub fn script_file(bytes: u64) -> u64 {
    mul(bytes, PER_SCRIPT_BYTE)
}

/// The weights of a network of `inputs`, `hidden` and `outputs` neurons (biases included).
fn weights(inputs: u64, hidden: u64, outputs: u64) -> u64 {
    mul(inputs.saturating_add(1), hidden).saturating_add(mul(hidden.saturating_add(1), outputs))
}

/// A network kept for the run: each weight, its last change (momentum) and its gradient, eight
/// bytes each.
pub fn network(inputs: u64, hidden: u64, outputs: u64) -> u64 {
    mul(weights(inputs, hidden, outputs), 24 * PER_BYTE_KEPT)
}

/// Training a network at load: every epoch runs every row forward and back through its weights.
pub fn training(inputs: u64, hidden: u64, outputs: u64, rows: u64, epochs: u64) -> u64 {
    mul(mul(mul(weights(inputs, hidden, outputs), 4), rows), epochs)
}

/// A genetic population of `size` individuals of `genes` genes (a byte each, kept, and bred
/// again each round).
pub fn population(size: u64, genes: u64) -> u64 {
    mul(mul(size, genes), 2 * PER_BYTE_KEPT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_stop_at_the_map_and_refuse_nothing_finite() {
        let map = Map::open(10, 20);
        assert_eq!(ray(&map, 5.0), 6);
        assert_eq!(ray(&map, 5.5), 7);
        assert_eq!(ray(&map, 1e9), 31);
        assert_eq!(ray(&map, f32::INFINITY), 31);
        assert_eq!(influence_source(&map, 1.0), 10, "3 × 3 cells and the source");
        assert_eq!(influence_source(&map, 1e6), 201, "at most the map");
    }

    #[test]
    fn formulas_grow_with_their_keys_and_saturate() {
        let map = Map::open(100, 100);
        let open = open_cells(&map);
        assert_eq!(open, 10_000);
        assert_eq!(filter(&map, 3, 2), 10_000 * 9 * 2 + 10_000 * 32);
        assert_eq!(automaton(&map, 2, 10), 10_000 * 90 + 10_000 * 34);
        assert_eq!(visibility_layer(&map, open, 16, 10.0), 10_000 * 16 * 11 * 4);
        assert_eq!(exposure_layer(&map, open, 3, 10.0), 10_000 * 3 * 45 + 160_000);
        assert_eq!(characters(10, 2), 10 * (16_000 + 4_000));
        assert_eq!(training(2, 4, 1, 10, 100), (3 * 4 + 5) * 4 * 10 * 100);
        assert_eq!(network(2, 4, 1), (3 * 4 + 5) * 96);
        assert_eq!(network(u64::MAX, 1024, 1), u64::MAX);
        let mut p = tactica_engine::field::CoverParams::default();
        let small = cover_layer(&map, open, &p);
        p.repeats *= 10;
        assert!(cover_layer(&map, open, &p) > 5 * small);
        p.repeats = u32::MAX;
        p.directions = u32::MAX;
        assert_eq!(cover_layer(&map, open, &p), u64::MAX);
        assert_eq!(characters(u64::MAX, 3), u64::MAX);
    }
}
