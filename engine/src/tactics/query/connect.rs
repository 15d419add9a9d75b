//! The query evaluator's data traits implemented for the engine's own types: the tactical waypoint
//! database as a hidespot source, grid A* as the path oracle, and named influence layers.

use std::cell::RefCell;
use std::collections::BTreeMap;

use glam::{IVec2, Vec2};

use super::env::{Cover, Hidespot, HidespotShape, HidespotSource, InfluenceLookup, PathOracle, cell};
use crate::field::{Direction, Layer};
use crate::grid::Map;
use crate::path::AStar;
use crate::tactics::{Property, WaypointDb};

/// Directional cover at or above this counts as covering that side.
pub const COVERED: f32 = 0.5;

fn unit(d: Direction) -> Vec2 {
    match d {
        Direction::North => Vec2::NEG_Y,
        Direction::East => Vec2::X,
        Direction::South => Vec2::Y,
        Direction::West => Vec2::NEG_X,
    }
}

/// The waypoint database as hidespots. A waypoint is a hidespot when it has any cover (its
/// `Cover` property or a covered direction). Its cover cone spans the sides whose
/// `cover_by_direction` is at least [`COVERED`]: one side is a cone of ±45° facing it, two adjacent
/// sides ±90° between them, three sides ±135° about the middle one, all four (or only an overall
/// `Cover` value) every side. Two opposite sides cannot be one cone; the better one is used.
/// Tags `soft` and `low` mark soft and low cover (hard and high otherwise); quality is the `Cover`
/// property (or the best directional value when that is zero).
impl HidespotSource for WaypointDb {
    fn hidespots_within(&self, centre: Vec2, radius: f32, out: &mut Vec<Hidespot>) {
        for (id, w) in self.iter() {
            let position = w.cell.as_vec2() + Vec2::splat(0.5);
            if position.distance(centre) > radius {
                continue;
            }
            let best = w.cover_by_direction.iter().copied().fold(0.0f32, f32::max);
            let quality = match w.properties.get(Property::Cover) {
                q if q > 0.0 => q,
                _ => best,
            };
            if quality <= 0.0 {
                continue;
            }
            let sides: Vec<Direction> =
                Direction::ALL.into_iter().filter(|&d| w.cover_by_direction[d as usize] >= COVERED).collect();
            let (facing, cos_half_angle) = match sides.as_slice() {
                [] | [_, _, _, _] => (None, -1.0),
                [d] => (Some(unit(*d)), std::f32::consts::FRAC_1_SQRT_2),
                [a, b] if unit(*a).dot(unit(*b)) == 0.0 => (Some((unit(*a) + unit(*b)).normalize()), 0.0),
                [a, b] => {
                    let d = if w.cover_by_direction[*a as usize] >= w.cover_by_direction[*b as usize] { a } else { b };
                    (Some(unit(*d)), std::f32::consts::FRAC_1_SQRT_2)
                }
                three => {
                    // The middle side is the one opposite the uncovered side.
                    let sum: Vec2 = three.iter().map(|&d| unit(d)).sum();
                    (Some(sum.normalize_or_zero()), -std::f32::consts::FRAC_1_SQRT_2)
                }
            };
            out.push(Hidespot {
                id: id.0,
                position,
                shape: HidespotShape::Directional,
                cover: Cover {
                    hard: !w.tags.contains("soft"),
                    high: !w.tags.contains("low"),
                    quality,
                    facing,
                    cos_half_angle,
                },
            });
        }
    }
}

/// Path distances by the engine's grid A* (8-connected, no corner cutting, terrain costs), one
/// search per question, reusing its buffers.
pub struct AStarOracle<'m> {
    map: &'m Map,
    search: RefCell<(AStar, Vec<IVec2>)>,
}

impl<'m> AStarOracle<'m> {
    /// An oracle over `map`.
    pub fn new(map: &'m Map) -> Self {
        AStarOracle { map, search: RefCell::new((AStar::new(), Vec::new())) }
    }
}

impl PathOracle for AStarOracle<'_> {
    fn path_distance(&self, from: Vec2, to: Vec2) -> Option<f32> {
        let mut s = self.search.borrow_mut();
        let (astar, cells) = &mut *s;
        astar.find(self.map, cell(from), cell(to), cells).ok().map(|f| f.cost as f32)
    }
}

/// Named influence layers (from `field`): the value of the cell a point lies in; the declared
/// limits are the layer's current range.
impl InfluenceLookup for BTreeMap<String, Layer> {
    fn influence(&self, layer: &str, at: Vec2) -> Option<f32> {
        self.get(layer).map(|l| l.get(cell(at)).unwrap_or(0.0))
    }

    fn influence_limits(&self, layer: &str) -> Option<(f32, f32)> {
        self.get(layer).map(|l| l.range().unwrap_or((0.0, 1.0)))
    }
}
