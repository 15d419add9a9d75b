//! Smell: every entity leaves a scent trail of its last positions that fades as it moves on;
//! agents smell it like sound, within a radius and damped by walls (001_003 §2.7, L148).

use std::collections::VecDeque;

use glam::{IVec2, Vec2};

use crate::grid::{Map, walk_supercover};

/// One point of a trail and how strong it still smells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScentMark {
    /// Where it was left.
    pub cell: IVec2,
    /// Its strength now (starts at the entity's intensity).
    pub strength: f32,
}

/// The trail of one entity: its scent id and intensity, and its last positions, newest last.
///
/// The intensity sets both how far the scent carries ([`ScentTrail::radius`]) and how many marks
/// the trail keeps ([`ScentTrail::capacity`]); every update multiplies the older marks by `fade`.
#[derive(Debug, Clone, PartialEq)]
pub struct ScentTrail {
    /// The distinct scent id.
    pub id: u32,
    /// How strongly the entity smells.
    pub intensity: f32,
    /// The factor older marks keep on each update, in `[0, 1]`.
    pub fade: f32,
    marks: VecDeque<ScentMark>,
}

impl ScentTrail {
    /// Marks kept per unit of intensity.
    pub const MARKS_PER_INTENSITY: f32 = 4.0;
    /// Radius (cells) per unit of intensity.
    pub const RADIUS_PER_INTENSITY: f32 = 3.0;
    /// Marks fainter than this are dropped.
    pub const FAINTEST: f32 = 0.01;

    /// An empty trail.
    pub fn new(id: u32, intensity: f32, fade: f32) -> Self {
        let intensity = if intensity.is_finite() { intensity.max(0.0) } else { 0.0 };
        let fade = if fade.is_finite() { fade.clamp(0.0, 1.0) } else { 0.0 };
        ScentTrail { id, intensity, fade, marks: VecDeque::new() }
    }

    /// How far a mark of full strength can be smelled.
    pub fn radius(&self) -> f32 {
        self.intensity * Self::RADIUS_PER_INTENSITY
    }

    /// How many marks the trail keeps.
    pub fn capacity(&self) -> usize {
        (self.intensity * Self::MARKS_PER_INTENSITY).ceil() as usize
    }

    /// The marks, oldest first.
    pub fn marks(&self) -> impl Iterator<Item = &ScentMark> {
        self.marks.iter()
    }

    /// The entity is at `cell` now: older marks fade, a fresh full-strength mark is left (or the
    /// newest refreshed if it has not moved), and the oldest and faintest marks drop off.
    pub fn update(&mut self, cell: IVec2) {
        for m in &mut self.marks {
            m.strength *= self.fade;
        }
        match self.marks.back_mut() {
            Some(last) if last.cell == cell => last.strength = self.intensity,
            _ => self.marks.push_back(ScentMark { cell, strength: self.intensity }),
        }
        while self.marks.len() > self.capacity() || self.marks.front().is_some_and(|m| m.strength < Self::FAINTEST) {
            self.marks.pop_front();
        }
    }
}

/// How well an agent smells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Smell {
    /// Multiplies every scent it meets (a dog's is high).
    pub sensitivity: f32,
    /// The weakest scent it notices.
    pub threshold: f32,
    /// The share of scent that gets through each wall cell (0 = walls stop scent).
    pub wall_pass: f32,
}

/// The strongest scent an agent noticed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScentHit {
    /// The trail's scent id.
    pub id: u32,
    /// The mark smelled.
    pub cell: IVec2,
    /// What reached the agent.
    pub strength: f32,
    /// The mark's age in updates (0 = where the entity is now).
    pub age: usize,
}

/// The strongest scent `smell` notices at `at` among `trails` (the freshest mark on ties, then the
/// lower id). A mark's scent falls linearly to zero at the trail's radius and is multiplied by
/// `wall_pass` for each blocked cell in between.
pub fn smell_at(map: &Map, smell: &Smell, at: Vec2, trails: &[ScentTrail]) -> Option<ScentHit> {
    let here = at.floor().as_ivec2();
    let mut best: Option<ScentHit> = None;
    for t in trails {
        let radius = t.radius();
        let n = t.marks.len();
        for (k, m) in t.marks.iter().enumerate() {
            let d = (m.cell.as_vec2() + Vec2::splat(0.5)).distance(at);
            if d.is_nan() || d >= radius {
                continue;
            }
            let mut through = 1.0f32;
            walk_supercover(m.cell, here, |c| {
                if !map.passable(c) {
                    through *= smell.wall_pass.clamp(0.0, 1.0);
                }
                through > 0.0
            });
            let s = m.strength * smell.sensitivity * (1.0 - d / radius) * through;
            let hit = ScentHit { id: t.id, cell: m.cell, strength: s, age: n - 1 - k };
            let better = best.is_none_or(|b| s > b.strength || (s == b.strength && (hit.age, hit.id) < (b.age, b.id)));
            if s >= smell.threshold && better {
                best = Some(hit);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trail_fades_and_is_as_long_as_its_intensity() {
        let mut t = ScentTrail::new(7, 1.0, 0.5);
        assert_eq!((t.capacity(), t.radius()), (4, 3.0));
        for x in 0..6 {
            t.update(IVec2::new(x, 0));
        }
        let marks: Vec<(i32, f32)> = t.marks().map(|m| (m.cell.x, m.strength)).collect();
        assert_eq!(marks, vec![(2, 0.125), (3, 0.25), (4, 0.5), (5, 1.0)]);
        t.update(IVec2::new(5, 0)); // standing still refreshes the newest mark
        assert_eq!(t.marks().last().unwrap().strength, 1.0);
        assert_eq!(t.marks().next().unwrap().strength, 0.0625);
    }

    #[test]
    fn the_strongest_mark_is_smelled_and_walls_damp_it() {
        let map = crate::field::test_map("........\n........\n###.....\n........\n");
        let mut t = ScentTrail::new(1, 2.0, 0.8);
        for x in 0..4 {
            t.update(IVec2::new(x, 0));
        }
        let nose = Smell { sensitivity: 1.0, threshold: 0.1, wall_pass: 0.0 };
        // Standing at (3,1): the newest mark (3,0) is 1 away: 2 · (1 − 1/6).
        let hit = smell_at(&map, &nose, Vec2::new(3.5, 1.5), std::slice::from_ref(&t)).unwrap();
        assert_eq!((hit.id, hit.cell, hit.age), (1, IVec2::new(3, 0), 0));
        assert!((hit.strength - 2.0 * (1.0 - 1.0 / 6.0)).abs() < 1e-5);
        // At (0,3) behind the wall nothing gets through; with half passing, it does.
        assert_eq!(smell_at(&map, &nose, Vec2::new(0.5, 3.5), std::slice::from_ref(&t)), None);
        let dog = Smell { wall_pass: 0.5, ..nose };
        let hit = smell_at(&map, &dog, Vec2::new(0.5, 3.5), std::slice::from_ref(&t)).unwrap();
        assert_eq!(hit.cell, IVec2::new(0, 0), "straight up through one wall cell");
        assert!((hit.strength - 2.0 * 0.8f32.powi(3) * 0.5 * 0.5).abs() < 1e-5);
        // Far off, the best mark (3,0) is 5 away: 2 · (1 − 5/6) ≈ 0.33, under a 0.5 threshold.
        let dull = Smell { threshold: 0.5, ..dog };
        assert_eq!(smell_at(&map, &dull, Vec2::new(7.5, 3.5), std::slice::from_ref(&t)), None);
        assert!(smell_at(&map, &dog, Vec2::new(7.5, 3.5), std::slice::from_ref(&t)).is_some());
    }
}
