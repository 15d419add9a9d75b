//! Generating waypoint properties by ray sampling (000 §6.1.3) and waypoints from a condensed
//! dense grid (§6.1.4).

use glam::{IVec2, Vec2};

use super::condense::condense_by_property;
use super::{Origin, Properties, Property, Waypoint, WaypointDb};
use crate::field::{CoverParams, FieldError, Light, WalkScratch, cover_at_with, ray_length, shadow_at};
use crate::grid::{Map, line_of_sight};
use crate::world::WorldRng;

/// Everything property generation and condensation needs.
#[derive(Debug, Clone, PartialEq)]
pub struct GenerateParams {
    /// The cover ray sampling.
    pub cover: CoverParams,
    /// Rays cast at fixed angles for visibility.
    pub visibility_rays: u32,
    /// How far those rays (and exposure samples) reach; visibility is the average ray length as a
    /// share of this.
    pub range: f32,
    /// Random locations within `range` tested for line of sight to the waypoint (exposure).
    pub exposure_samples: u32,
    /// The level's lights, for shadow.
    pub lights: Vec<Light>,
    /// Light everywhere, for shadow.
    pub ambient: f32,
    /// Half the character's width in cells (0 = the body fills one cell), for shadow sampling.
    pub body: i32,
    /// The dense grid's spacing in cells.
    pub spacing: u32,
    /// Per-property minimum to take part in condensation; keep these low (L342).
    pub thresholds: Properties,
    /// Condensation distance weight (lower → fewer waypoints).
    pub weight: f32,
    /// Condensation neighbourhood radius.
    pub neighbourhood: f32,
}

impl Default for GenerateParams {
    fn default() -> Self {
        let mut thresholds = Properties::default();
        for p in Property::ALL {
            thresholds.set(p, 0.2);
        }
        GenerateParams {
            cover: CoverParams::default(),
            visibility_rays: 16,
            range: 12.0,
            exposure_samples: 32,
            lights: Vec::new(),
            ambient: 0.0,
            body: 0,
            spacing: 1,
            thresholds,
            weight: 0.02,
            neighbourhood: 6.0,
        }
    }
}

/// The tactical values of `cell` and its per-direction cover; `None` when the cell is blocked or
/// the cover sampling found no valid attack origin.
pub fn evaluate_cell(map: &Map, cell: IVec2, p: &GenerateParams, rng: &mut WorldRng) -> Option<(Properties, [f32; 4])> {
    evaluate_with(map, cell, p, rng, &mut WalkScratch::default())
}

/// [`evaluate_cell`] reusing the cover walk's buffers from cell to cell.
fn evaluate_with(
    map: &Map,
    cell: IVec2,
    p: &GenerateParams,
    rng: &mut WorldRng,
    scratch: &mut WalkScratch,
) -> Option<(Properties, [f32; 4])> {
    let cover = cover_at_with(map, cell, &p.cover, rng, scratch)?;
    let mut props = Properties::default();
    props.set(Property::Cover, cover.overall);
    let rays = p.visibility_rays.max(1);
    let visibility = if p.range > 0.0 {
        (0..rays)
            .map(|k| {
                let t = std::f32::consts::TAU * k as f32 / rays as f32;
                ray_length(map, cell, Vec2::new(t.cos(), t.sin()), p.range)
            })
            .sum::<f32>()
            / (rays as f32 * p.range)
    } else {
        0.0
    };
    props.set(Property::Visibility, visibility);
    props.set(Property::Shadow, shadow_at(map, &p.lights, p.ambient, cell, p.body));
    let (mut seen, mut valid) = (0u32, 0u32);
    for _ in 0..p.exposure_samples {
        let off = Vec2::new(rng.range(-1.0, 1.0) as f32, rng.range(-1.0, 1.0) as f32) * p.range;
        let from = (cell.as_vec2() + off).round().as_ivec2();
        if off.length() > p.range || from == cell || !map.passable(from) {
            continue;
        }
        valid += 1;
        seen += u32::from(line_of_sight(map, from, cell));
    }
    props.set(Property::Exposure, if valid == 0 { 0.0 } else { seen as f32 / valid as f32 });
    // The compound: sniper = cover AND visibility (fuzzy AND = min), stored as its own channel
    // because both inputs are static (L323).
    props.set(Property::Sniping, cover.overall.min(visibility));
    Some((props, cover.by_direction))
}

/// The passable cells on a lattice of `spacing` cells (at least 1): the dense grid laid over the
/// floor (L339).
pub fn dense_grid(map: &Map, spacing: u32) -> Vec<IVec2> {
    let s = spacing.max(1) as usize;
    (0..map.height() as usize)
        .step_by(s)
        .flat_map(|y| (0..map.width() as usize).step_by(s).map(move |x| IVec2::new(x as i32, y as i32)))
        .filter(|&c| map.passable(c))
        .collect()
}

/// Recomputes the properties of the waypoints in `db` (generated ones always, designer-placed ones
/// only if `placed_too`). Waypoints whose cell is blocked keep their values.
pub fn compute_properties(db: &mut WaypointDb, map: &Map, p: &GenerateParams, rng: &mut WorldRng, placed_too: bool) {
    let mut scratch = WalkScratch::default();
    for w in &mut db.waypoints {
        if w.origin == Origin::Placed && !placed_too {
            continue;
        }
        if let Some((props, dirs)) = evaluate_with(map, w.cell, p, rng, &mut scratch) {
            w.properties = props;
            w.cover_by_direction = dirs;
        }
    }
}

/// Generates waypoints for `map`: a dense grid of candidates, each evaluated by ray sampling;
/// candidates that reach no threshold are dropped at once (L341), and the rest condensed per
/// property with line of sight as the "can move" test (L346). Deterministic for a given generator.
pub fn generate(map: &Map, p: &GenerateParams, rng: &mut WorldRng) -> Result<WaypointDb, FieldError> {
    p.cover.validate()?;
    let mut scored: Vec<(IVec2, Properties, [f32; 4])> = Vec::new();
    let mut scratch = WalkScratch::default();
    for cell in dense_grid(map, p.spacing) {
        let Some((props, dirs)) = evaluate_with(map, cell, p, rng, &mut scratch) else { continue };
        let passes = Property::ALL
            .iter()
            .any(|&q| q != Property::Exposure && props.get(q) > 0.0 && props.get(q) >= p.thresholds.get(q));
        if passes {
            scored.push((cell, props, dirs));
        }
    }
    let positions: Vec<(IVec2, Properties)> = scored.iter().map(|&(c, pr, _)| (c, pr)).collect();
    let keep =
        condense_by_property(&positions, &p.thresholds, p.weight, p.neighbourhood, |a, b| line_of_sight(map, a, b));
    let mut db = WaypointDb::new();
    for i in keep {
        let (cell, props, dirs) = scored[i];
        let mut w = Waypoint::new(cell, Origin::Generated);
        w.properties = props;
        w.cover_by_direction = dirs;
        db.add(w);
    }
    Ok(db)
}
