//! Terrain analysis, location by location (000 §6.2.3, with the ray sampling of §6.1.3): cover,
//! visibility, exposure to observers, light and shadow, and movement difficulty.
//!
//! Rays are grid lines of sight ([`crate::grid::line_of_sight`], a supercover line), so a ray is
//! blocked exactly when a character at one end could not see the other.

use glam::{IVec2, Vec2};

use super::error::{FieldError, finite};
use super::layer::Layer;
use crate::grid::{Map, line_of_sight, walk_supercover};
use crate::world::WorldRng;

/// A compass direction on the map; north is up (−y).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// −y.
    North = 0,
    /// +x.
    East = 1,
    /// +y.
    South = 2,
    /// −x.
    West = 3,
}

impl Direction {
    /// All four, in index order.
    pub const ALL: [Direction; 4] = [Direction::North, Direction::East, Direction::South, Direction::West];

    /// The direction an offset mostly points in (ties between axes go to east/west).
    pub fn of(offset: Vec2) -> Direction {
        if offset.x.abs() >= offset.y.abs() {
            if offset.x >= 0.0 { Direction::East } else { Direction::West }
        } else if offset.y < 0.0 {
            Direction::North
        } else {
            Direction::South
        }
    }
}

/// Parameters of the cover estimate (`getCoverQuality`, L187-306).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoverParams {
    /// `RADIUS`: how far from the location the attack origins are (in cells).
    pub radius: f32,
    /// `RAND_RADIUS`: random jitter added to each origin; must be below `radius · sin(ANGLE)` or
    /// samples spill into the neighbouring angle.
    pub jitter: f32,
    /// Number of distinct attack angles (`ANGLE = 2π / directions`).
    pub directions: u32,
    /// How many times each angle is sampled (`iterations = directions × repeats`).
    pub repeats: u32,
    /// `inSameRoom`: an origin counts only if a walk of at most `room_reach × radius` cells joins
    /// it to the location, so attacks from the next room, through a wall, are not simulated.
    pub room_reach: f32,
}

impl Default for CoverParams {
    fn default() -> Self {
        CoverParams { radius: 5.0, jitter: 0.75, directions: 16, repeats: 3, room_reach: 2.0 }
    }
}

impl CoverParams {
    /// Checks the chapter's constraint `RAND_RADIUS < RADIUS · sin(ANGLE)` and that the numbers
    /// are usable.
    pub fn validate(&self) -> Result<(), FieldError> {
        finite("cover radius", self.radius)?;
        finite("cover jitter", self.jitter)?;
        finite("room reach", self.room_reach)?;
        let angle = std::f32::consts::TAU / self.directions.max(1) as f32;
        if self.directions < 2
            || self.radius <= 0.0
            || self.jitter < 0.0
            || self.jitter >= self.radius * angle.sin().abs().max(1e-6)
        {
            return Err(FieldError::NotFinite { what: "cover jitter below radius·sin(angle)", value: self.jitter });
        }
        Ok(())
    }
}

/// A cover estimate: the share of simulated attacks that geometry blocks, overall and per
/// direction the attack came from (the context-sensitive variant, L307).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cover {
    /// Blocked rays / valid rays, in `[0, 1]` (1 = perfect cover).
    pub overall: f32,
    /// The same per attack direction (index by [`Direction`]); 0 where no valid origin lay.
    pub by_direction: [f32; 4],
}

/// `randomBinomial()`: `random() − random()`, in `[−1, 1]` and more often near 0.
fn binomial(rng: &mut WorldRng) -> f32 {
    (rng.range(0.0, 1.0) - rng.range(0.0, 1.0)) as f32
}

/// What a walk reuses from cell to cell: the distance per map cell, the queue, and the cells the
/// last walk reached. Pass one to [`cover_at_with`] for cell after cell of the same map.
#[derive(Debug, Default)]
pub struct WalkScratch {
    dist: Vec<u32>,
    queue: std::collections::VecDeque<IVec2>,
    reached: Vec<usize>,
}

/// Walking distances (4-connected steps) from `from`, up to `limit`, into `s.dist`. Only the
/// cells the last walk reached are reset: clearing the whole map for every cell made a cover
/// layer cost the square of the map's size.
fn walk_within(map: &Map, from: IVec2, limit: u32, s: &mut WalkScratch) {
    let WalkScratch { dist, queue, reached } = s;
    if dist.len() == map.len() {
        for &j in reached.iter() {
            dist[j] = u32::MAX;
        }
    } else {
        dist.clear();
        dist.resize(map.len(), u32::MAX);
    }
    reached.clear();
    queue.clear();
    let Some(i) = map.index(from) else { return };
    dist[i] = 0;
    reached.push(i);
    queue.push_back(from);
    while let Some(c) = queue.pop_front() {
        let d = dist[map.index(c).unwrap_or(0)];
        if d >= limit {
            continue;
        }
        for step in [IVec2::X, IVec2::NEG_X, IVec2::Y, IVec2::NEG_Y] {
            let n = c + step;
            if let Some(j) = map.index(n).filter(|_| map.passable(n))
                && dist[j] == u32::MAX
            {
                dist[j] = d + 1;
                reached.push(j);
                queue.push_back(n);
            }
        }
    }
}

/// Estimates the cover at `cell` by casting rays from jittered attack origins at regular angles
/// towards it (L178-308). `None` when the cell is blocked or no origin was valid (the chapter's
/// `hits / valid` is undefined then).
pub fn cover_at(map: &Map, cell: IVec2, params: &CoverParams, rng: &mut WorldRng) -> Option<Cover> {
    cover_with(map, cell, params, rng, &mut WalkScratch::default())
}

/// [`cover_at`] for many cells in turn: `scratch` keeps the walk's buffers, so each cell costs
/// its own neighbourhood rather than a pass over the whole map.
pub fn cover_at_with(
    map: &Map,
    cell: IVec2,
    params: &CoverParams,
    rng: &mut WorldRng,
    scratch: &mut WalkScratch,
) -> Option<Cover> {
    cover_with(map, cell, params, rng, scratch)
}

fn cover_with(map: &Map, cell: IVec2, p: &CoverParams, rng: &mut WorldRng, scratch: &mut WalkScratch) -> Option<Cover> {
    if !map.passable(cell) || p.validate().is_err() {
        return None;
    }
    let limit = (p.room_reach * (p.radius + p.jitter)).ceil() as u32;
    walk_within(map, cell, limit, scratch);
    let angle = std::f32::consts::TAU / p.directions as f32;
    let (mut hits, mut valid) = ([0u32; 4], [0u32; 4]);
    let centre = cell.as_vec2();
    for i in 0..p.directions * p.repeats {
        let theta = angle * (i % p.directions) as f32;
        let offset = Vec2::new(theta.cos(), theta.sin()) * p.radius;
        let jitter = Vec2::new(binomial(rng), binomial(rng)) * p.jitter;
        let from = (centre + offset + jitter).round().as_ivec2();
        let in_room = map.index(from).is_some_and(|j| scratch.dist[j] != u32::MAX);
        if !in_room || from == cell {
            continue;
        }
        let dir = Direction::of((from - cell).as_vec2()) as usize;
        valid[dir] += 1;
        if !line_of_sight(map, from, cell) {
            hits[dir] += 1;
        }
    }
    let total_valid: u32 = valid.iter().sum();
    if total_valid == 0 {
        return None;
    }
    let share = |h: u32, v: u32| if v == 0 { 0.0 } else { h as f32 / v as f32 };
    Some(Cover {
        overall: share(hits.iter().sum(), total_valid),
        by_direction: [0, 1, 2, 3].map(|d| share(hits[d], valid[d])),
    })
}

/// Cover for every cell: the overall layer and one layer per [`Direction`]. Blocked cells and cells
/// with no valid origin get 0. Deterministic for a given generator state.
pub fn cover_layers(map: &Map, params: &CoverParams, rng: &mut WorldRng) -> Result<(Layer, [Layer; 4]), FieldError> {
    params.validate()?;
    let (w, h) = (map.width(), map.height());
    let mut overall = Layer::new(w, h);
    let mut dirs = [(); 4].map(|()| Layer::new(w, h));
    let mut scratch = WalkScratch::default();
    for i in 0..map.len() {
        let c = map.cell_at(i);
        if let Some(cov) = cover_with(map, c, params, rng, &mut scratch) {
            overall.values_mut()[i] = cov.overall;
            for (layer, v) in dirs.iter_mut().zip(cov.by_direction) {
                layer.values_mut()[i] = v;
            }
        }
    }
    Ok((overall, dirs))
}

/// How far a ray from `from` in direction `dir` travels before it meets a blocked cell, up to
/// `range` (distance between cell centres to the last open cell).
pub fn ray_length(map: &Map, from: IVec2, dir: Vec2, range: f32) -> f32 {
    if !map.passable(from) {
        return 0.0;
    }
    let to = (from.as_vec2() + dir.normalize_or_zero() * range).round().as_ivec2();
    let mut last = from;
    walk_supercover(from, to, |c| {
        let open = map.passable(c);
        if open {
            last = c;
        }
        open
    });
    (last - from).as_vec2().length().min(range)
}

/// Visibility per cell (L646-653, L311): the average length of `rays` rays at fixed angles, as a
/// share of `range` (1 = sees the full range all round). Blocked cells get 0.
pub fn visibility_layer(map: &Map, rays: u32, range: f32) -> Layer {
    let mut out = Layer::new(map.width(), map.height());
    let rays = rays.max(1);
    for i in 0..map.len() {
        let c = map.cell_at(i);
        if !map.passable(c) || range <= 0.0 {
            continue;
        }
        let sum: f32 = (0..rays)
            .map(|k| {
                let t = std::f32::consts::TAU * k as f32 / rays as f32;
                ray_length(map, c, Vec2::new(t.cos(), t.sin()), range)
            })
            .sum();
        out.values_mut()[i] = sum / (rays as f32 * range);
    }
    out
}

/// Exposure per cell: the share of `observers` (enemy positions or other important locations,
/// L651) within `range` that have line of sight to it.
pub fn exposure_layer(map: &Map, observers: &[IVec2], range: f32) -> Layer {
    let mut out = Layer::new(map.width(), map.height());
    if observers.is_empty() {
        return out;
    }
    for i in 0..map.len() {
        let c = map.cell_at(i);
        if !map.passable(c) {
            continue;
        }
        let seen =
            observers.iter().filter(|&&o| (o - c).as_vec2().length() <= range && line_of_sight(map, o, c)).count();
        out.values_mut()[i] = seen as f32 / observers.len() as f32;
    }
    out
}

/// A light: full intensity at its cell, fading linearly to 0 at `radius`, blocked by walls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Light {
    /// Where it is.
    pub cell: IVec2,
    /// Brightness at the light.
    pub intensity: f32,
    /// How far it reaches.
    pub radius: f32,
}

/// The brightness at `cell`: `ambient` plus every light that reaches it with line of sight.
pub fn brightness_at(map: &Map, lights: &[Light], ambient: f32, cell: IVec2) -> f32 {
    ambient
        + lights
            .iter()
            .filter(|l| line_of_sight(map, l.cell, cell))
            .map(|l| {
                let d = (l.cell - cell).as_vec2().length();
                if l.radius > 0.0 && d < l.radius { l.intensity * (1.0 - d / l.radius) } else { 0.0 }
            })
            .sum::<f32>()
}

/// Shadow quality at `cell` for a character `size` cells across (L315-320): 1 minus the
/// **maximum** brightness over the cells of the body (not the average: a hider is as visible as
/// its most visible part), clamped to `[0, 1]`.
pub fn shadow_at(map: &Map, lights: &[Light], ambient: f32, cell: IVec2, size: i32) -> f32 {
    let r = size.max(0);
    let mut brightest = 0.0f32;
    for dy in -r..=r {
        for dx in -r..=r {
            let c = cell + IVec2::new(dx, dy);
            if map.passable(c) {
                brightest = brightest.max(brightness_at(map, lights, ambient, c));
            }
        }
    }
    (1.0 - brightest).clamp(0.0, 1.0)
}

/// How ruggedness joins the base terrain cost in [`difficulty_layer`] (L644).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ruggedness {
    /// `base + weight × gradient`.
    Sum(f32),
    /// `base × (1 + weight × gradient)`.
    Product(f32),
}

/// Terrain difficulty per cell: the map's base cost (per terrain type) combined with the local
/// gradient of `heights` (the largest height difference to any 8-neighbour, L642). Blocked cells
/// are `f32::INFINITY`. Errors when `heights` is not the map's size.
pub fn difficulty_layer(map: &Map, heights: Option<&Layer>, rugged: Ruggedness) -> Result<Layer, FieldError> {
    let (w, h) = (map.width(), map.height());
    if let Some(hl) = heights
        && (hl.width(), hl.height()) != (w, h)
    {
        return Err(FieldError::ShapeMismatch { expected: (w, h), got: (hl.width(), hl.height()) });
    }
    let mut out = Layer::new(w, h);
    for (i, &base) in map.costs().iter().enumerate() {
        let c = map.cell_at(i);
        let gradient = heights.map_or(0.0, |hl| {
            let here = hl.at(c);
            (-1..=1)
                .flat_map(|dy| (-1..=1).map(move |dx| IVec2::new(dx, dy)))
                .filter_map(|d| hl.get(c + d))
                .map(|v| (v - here).abs())
                .fold(0.0, f32::max)
        });
        out.values_mut()[i] = match rugged {
            Ruggedness::Sum(wt) => base + wt * gradient,
            Ruggedness::Product(wt) => base * (1.0 + wt * gradient),
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field::test_map;

    #[test]
    fn rays_stop_at_walls() {
        let map = test_map("......\n...#..\n......\n");
        assert_eq!(ray_length(&map, IVec2::new(0, 1), Vec2::X, 10.0), 2.0);
        assert_eq!(ray_length(&map, IVec2::new(0, 0), Vec2::X, 10.0), 5.0, "the map edge ends it");
        assert_eq!(ray_length(&map, IVec2::new(0, 0), Vec2::X, 3.0), 3.0);
        assert_eq!(ray_length(&map, IVec2::new(3, 1), Vec2::X, 3.0), 0.0, "from inside a wall");
        assert_eq!(Direction::of(Vec2::new(1.0, -3.0)), Direction::North);
        assert_eq!(Direction::of(Vec2::new(-2.0, 1.0)), Direction::West);
    }

    #[test]
    fn visibility_and_exposure_layers() {
        let map = test_map(".....\n.###.\n.....\n");
        let vis = visibility_layer(&map, 4, 4.0);
        // From (0,0): east 4, south 2, west and north 0 → (4 + 2) / 16.
        assert_eq!(vis.at(IVec2::new(0, 0)), 6.0 / 16.0);
        assert_eq!(vis.at(IVec2::new(2, 1)), 0.0, "a wall sees nothing");
        let exp = exposure_layer(&map, &[IVec2::new(0, 0), IVec2::new(4, 2)], 10.0);
        assert_eq!(exp.at(IVec2::new(4, 0)), 1.0, "both corners see the top-right corner");
        assert_eq!(exp.at(IVec2::new(2, 2)), 0.5, "the wall hides the bottom row's middle from (0,0)");
        assert_eq!(exposure_layer(&map, &[], 10.0).total(), 0.0);
    }

    #[test]
    fn difficulty_is_base_cost_plus_ruggedness() {
        let map = test_map(".~\n#.\n");
        let heights = Layer::from_rows(&[&[0.0, 2.0], &[0.0, 0.5]]).unwrap();
        let sum = difficulty_layer(&map, Some(&heights), Ruggedness::Sum(0.5)).unwrap();
        // (0,0): base 1, steepest neighbour difference 2 → 1 + 1. Swamp (1,0): 5 + 0.5·2.
        assert_eq!(sum.values()[..2], [2.0, 6.0]);
        assert!(sum.values()[2].is_infinite());
        let product = difficulty_layer(&map, Some(&heights), Ruggedness::Product(0.5)).unwrap();
        assert_eq!(product.values()[1], 10.0);
        let flat = difficulty_layer(&map, None, Ruggedness::Sum(1.0)).unwrap();
        assert_eq!(flat.values()[3], 1.0);
        assert!(difficulty_layer(&map, Some(&Layer::new(3, 3)), Ruggedness::Sum(1.0)).is_err());
    }

    #[test]
    fn cover_layers_and_parameter_checks() {
        let map = test_map(".......\n.......\n...#...\n.......\n.......\n");
        let p = CoverParams { radius: 2.0, jitter: 0.3, directions: 8, repeats: 2, room_reach: 3.0 };
        let (overall, dirs) = cover_layers(&map, &p, &mut WorldRng::new(5)).unwrap();
        let west_of_pillar = IVec2::new(2, 2);
        assert!(overall.at(west_of_pillar) > 0.0);
        assert!(dirs[Direction::East as usize].at(west_of_pillar) > 0.0);
        assert_eq!(dirs[Direction::West as usize].at(west_of_pillar), 0.0);
        assert_eq!(overall.at(IVec2::new(3, 2)), 0.0, "the pillar itself");
        let bad = CoverParams { jitter: 5.0, ..p };
        assert!(bad.validate().is_err(), "jitter must stay under radius·sin(angle)");
        assert!(cover_layers(&map, &bad, &mut WorldRng::new(5)).is_err());
        assert!(CoverParams { radius: f32::NAN, ..p }.validate().is_err());
    }
}
