//! Generation: gathering candidates from the hidespot database, cover rails, entities and regions,
//! or generating them on demand (grid, circles) (001:L78–L96).

use glam::{IVec2, Vec2};

use super::env::{Candidate, Cover, CoverRail, Hidespot, HidespotShape, Objects, PointSource, QueryEnv};
use super::keyword::{GeneratorKind, ObjectKind};
use super::spec::GeneratorSpec;
use crate::grid::Map;
use crate::world::EntityId;

/// Reused buffers for generation, so that a steady stream of queries does not allocate.
#[derive(Debug, Clone, Default)]
pub(crate) struct Scratch {
    hidespots: Vec<Hidespot>,
    rails: Vec<CoverRail>,
    entities: Vec<(EntityId, Vec2)>,
}

/// Appends the candidates of `spec` to `out`. Objects were checked to be present beforehand; a
/// missing one yields nothing.
pub(crate) fn generate(
    spec: &GeneratorSpec,
    objects: &Objects,
    owner: EntityId,
    env: &QueryEnv<'_>,
    scratch: &mut Scratch,
    out: &mut Vec<Candidate>,
) {
    let centre = spec.around.and_then(|o| objects.get(o)).map(|s| s.position);
    match spec.kind {
        GeneratorKind::Hidespots => {
            let Some(centre) = centre else { return };
            let threat = spec.from.and_then(|o| objects.get(o)).map(|s| s.position);
            scratch.hidespots.clear();
            env.hidespots.hidespots_within(centre, spec.radius, &mut scratch.hidespots);
            for h in &scratch.hidespots {
                if let Some(c) = place_hidespot(h, threat)
                    && c.position.distance(centre) <= spec.radius
                {
                    out.push(c);
                }
            }
        }
        GeneratorKind::Grid => {
            let Some(centre) = centre else { return };
            let step = if spec.spacing > 0.0 { spec.spacing } else { 1.0 };
            let origin = centre.floor() + Vec2::splat(0.5);
            let n = (spec.radius / step).floor() as i32;
            for j in -n..=n {
                for i in -n..=n {
                    let position = origin + Vec2::new(i as f32, j as f32) * step;
                    out.push(Candidate { position, source: PointSource::Grid, cover: None });
                }
            }
        }
        GeneratorKind::Circles => {
            let Some(centre) = centre else { return };
            let step = if spec.spacing > 0.0 { spec.spacing } else { 1.0 };
            let rings = (spec.radius / step).floor() as u32;
            for ring in 1..=rings {
                let r = ring as f32 * step;
                let count = ((std::f32::consts::TAU * r / step).ceil() as u32).max(8);
                for k in 0..count {
                    let a = std::f32::consts::TAU * k as f32 / count as f32;
                    let position = centre + Vec2::from_angle(a) * r;
                    out.push(Candidate { position, source: PointSource::Circle, cover: None });
                }
            }
        }
        GeneratorKind::Entities => {
            let Some(centre) = centre else { return };
            let Some(kind) = spec.name.as_deref() else { return };
            scratch.entities.clear();
            env.entities.entities_of_kind(kind, &mut scratch.entities);
            for &(id, position) in &scratch.entities {
                if position.distance(centre) <= spec.radius {
                    out.push(Candidate { position, source: PointSource::Entity(id), cover: None });
                }
            }
        }
        GeneratorKind::Region => {
            let Some(region) = spec.name.as_deref().and_then(|n| env.entities.region(n)) else { return };
            let step = if spec.spacing >= 1.0 { spec.spacing.floor() as usize } else { 1 };
            for y in (region.min.y..=region.max.y).step_by(step) {
                for x in (region.min.x..=region.max.x).step_by(step) {
                    let position = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
                    out.push(Candidate { position, source: PointSource::Region, cover: None });
                }
            }
        }
        GeneratorKind::CoverRails => {
            let Some(centre) = centre else { return };
            scratch.rails.clear();
            env.rails.rails_within(centre, spec.radius, &mut scratch.rails);
            for rail in &scratch.rails {
                rail_points(rail, centre, spec, out);
            }
        }
        GeneratorKind::CurrentPoint => {
            if let Some(c) = env.reservations.held_by(owner) {
                out.push(*c);
            }
        }
        GeneratorKind::Doorways => {
            let Some(centre) = centre else { return };
            for cell in cells_within(centre, spec.radius) {
                if is_doorway(env.map, cell) {
                    out.push(Candidate { position: cell_centre(cell), source: PointSource::Doorway, cover: None });
                }
            }
        }
        GeneratorKind::SniperSpots => {
            let (Some(centre), Some(object)) = (centre, spec.from.and_then(|o| objects.get(o))) else { return };
            for cell in cells_within(centre, spec.radius) {
                let position = cell_centre(cell);
                if env.map.passable(cell)
                    && beside_a_wall(env.map, cell)
                    && position.distance(object.position) >= SNIPER_STANDOFF
                    && env.line_of_sight(position, object.position)
                {
                    out.push(Candidate { position, source: PointSource::SniperSpot, cover: None });
                }
            }
        }
    }
}

/// How far from the object a sniper spot is at least, in cells.
pub const SNIPER_STANDOFF: f32 = 10.0;

fn cell_centre(c: IVec2) -> Vec2 {
    c.as_vec2() + Vec2::splat(0.5)
}

/// The cells whose centres lie within `radius` of `centre`, row by row.
fn cells_within(centre: Vec2, radius: f32) -> impl Iterator<Item = IVec2> {
    let r = radius.max(0.0).ceil() as i32;
    let c = centre.floor().as_ivec2();
    (-r..=r)
        .flat_map(move |dy| (-r..=r).map(move |dx| c + IVec2::new(dx, dy)))
        .filter(move |&cell| cell_centre(cell).distance(centre) <= radius)
}

/// An open cell with walls on two opposite sides and open ground on the other two: a one-cell gap
/// in a wall, which is what a doorway is on a grid.
fn is_doorway(map: &Map, c: IVec2) -> bool {
    let open = |d: IVec2| map.passable(c + d);
    let (n, s, e, w) = (open(IVec2::NEG_Y), open(IVec2::Y), open(IVec2::X), open(IVec2::NEG_X));
    map.passable(c) && ((!n && !s && e && w) || (!e && !w && n && s))
}

/// Some neighbour (of eight) is blocked: there is a wall to lean on.
fn beside_a_wall(map: &Map, c: IVec2) -> bool {
    (-1..=1).flat_map(|dy| (-1..=1).map(move |dx| IVec2::new(dx, dy))).any(|d| d != IVec2::ZERO && !map.passable(c + d))
}

/// A hidespot as a candidate, or `None` when its cover points the wrong way for `threat`: the
/// dot-product rejection of directional hidespots, and omnidirectional ones placed opposite the
/// threat (001:L85).
fn place_hidespot(h: &Hidespot, threat: Option<Vec2>) -> Option<Candidate> {
    match h.shape {
        HidespotShape::Directional => {
            if let (Some(t), Some(facing)) = (threat, h.cover.facing) {
                let to_threat = (t - h.position).normalize_or_zero();
                if to_threat.dot(facing) < h.cover.cos_half_angle {
                    return None;
                }
            }
            Some(Candidate { position: h.position, source: PointSource::Hidespot(h.id), cover: Some(h.cover) })
        }
        HidespotShape::AroundObstacle { obstacle, standoff } => {
            // Without a threat there is no "opposite side" to stand on.
            let t = threat?;
            let away = (obstacle - t).normalize_or_zero();
            if away == Vec2::ZERO {
                return None;
            }
            let position = obstacle + away * standoff;
            let cover = Cover { facing: Some(-away), ..h.cover };
            Some(Candidate { position, source: PointSource::Hidespot(h.id), cover: Some(cover) })
        }
    }
}

/// The closest rail position to `centre`, and with a spacing, positions every `spacing` along it.
fn rail_points(rail: &CoverRail, centre: Vec2, spec: &GeneratorSpec, out: &mut Vec<Candidate>) {
    let mk = |position| Candidate { position, source: PointSource::Rail(rail.id), cover: Some(rail.cover) };
    let mut best: Option<(f32, Vec2)> = None;
    for w in rail.points.windows(2) {
        let p = closest_on_segment(w[0], w[1], centre);
        let d = p.distance_squared(centre);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, p));
        }
    }
    if let Some((d, p)) = best
        && d.sqrt() <= spec.radius
    {
        out.push(mk(p));
    }
    if spec.spacing > 0.0 {
        let mut carry = 0.0f32;
        for w in rail.points.windows(2) {
            let len = w[0].distance(w[1]);
            let mut s = carry;
            while s <= len {
                let p = w[0].lerp(w[1], if len > 0.0 { s / len } else { 0.0 });
                if p.distance(centre) <= spec.radius {
                    out.push(mk(p));
                }
                s += spec.spacing;
            }
            carry = s - len;
        }
    }
}

/// The point of segment `a`–`b` closest to `p`.
pub(crate) fn closest_on_segment(a: Vec2, b: Vec2, p: Vec2) -> Vec2 {
    let ab = b - a;
    let len2 = ab.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
}

/// The objects a generator needs.
pub(crate) fn needed_objects(spec: &GeneratorSpec) -> impl Iterator<Item = ObjectKind> {
    spec.around.into_iter().chain(spec.from)
}
