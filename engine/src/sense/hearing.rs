//! Hearing: every action makes a sound of some level; a listener perceives it when what reaches
//! it, after distance and walls, is above its threshold (001_003 §2.7, L134-142).

use std::collections::BTreeMap;

use glam::Vec2;

use crate::grid::{Map, walk_supercover};

/// A sound somebody made.
#[derive(Debug, Clone, PartialEq)]
pub struct Sound {
    /// Where it was made.
    pub position: Vec2,
    /// Its level in decibels one map unit from the source.
    pub level: f32,
    /// A name for it (`footstep`, `gunshot`, the action that made it).
    pub name: String,
}

/// How well a listener hears.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hearing {
    /// The quietest level (dB) it notices. An idle guard has a higher threshold than an aware one.
    pub threshold: f32,
    /// Decibels lost per wall cell the sound passes through. Few materials are fully soundproof
    /// (L142), so walls damp rather than block; `f32::INFINITY` makes them soundproof.
    pub wall_damping: f32,
    /// Sounds farther than this are not considered at all (the cheap distance pre-filter, L138).
    pub range: f32,
}

impl Default for Hearing {
    fn default() -> Self {
        Hearing { threshold: 20.0, wall_damping: 15.0, range: 64.0 }
    }
}

/// A sound as it reached a listener.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Heard {
    /// Index of the sound in the list given.
    pub index: usize,
    /// The level that arrived (dB).
    pub level: f32,
}

/// The level of `sound` at `listener`: its level minus spherical spreading (`20·log₁₀ d`, no loss
/// within one unit) minus `wall_damping` for every blocked cell on the line between the two cells.
pub fn perceived_level(map: &Map, hearing: &Hearing, listener: Vec2, sound: &Sound) -> f32 {
    let d = listener.distance(sound.position);
    if !d.is_finite() || !sound.level.is_finite() {
        return f32::NEG_INFINITY;
    }
    let mut walls = 0u32;
    walk_supercover(sound.position.floor().as_ivec2(), listener.floor().as_ivec2(), |c| {
        walls += u32::from(!map.passable(c));
        true
    });
    let damping = if walls == 0 { 0.0 } else { walls as f32 * hearing.wall_damping };
    sound.level - 20.0 * d.max(1.0).log10() - damping
}

/// The sounds `listener` hears, loudest first (ties in list order).
pub fn heard_sounds(map: &Map, hearing: &Hearing, listener: Vec2, sounds: &[Sound]) -> Vec<Heard> {
    let mut out: Vec<Heard> = sounds
        .iter()
        .enumerate()
        .filter(|(_, s)| listener.distance(s.position) <= hearing.range)
        .map(|(index, s)| Heard { index, level: perceived_level(map, hearing, listener, s) })
        .filter(|h| h.level >= hearing.threshold)
        .collect();
    out.sort_by(|a, b| b.level.total_cmp(&a.level).then(a.index.cmp(&b.index)));
    out
}

/// The sound level of each action, preset for game balance (L140), in decibels at one unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SoundLevels {
    levels: BTreeMap<String, f32>,
}

impl SoundLevels {
    /// A table with typical levels: `walk` 30, `run` 45, `door` 55, `shout` 70, `gunshot` 110.
    pub fn typical() -> Self {
        let mut t = SoundLevels::default();
        for (a, l) in [("walk", 30.0), ("run", 45.0), ("door", 55.0), ("shout", 70.0), ("gunshot", 110.0)] {
            t.set(a, l);
        }
        t
    }

    /// Sets the level of `action` (non-finite levels are ignored).
    pub fn set(&mut self, action: impl Into<String>, level: f32) -> &mut Self {
        if level.is_finite() {
            self.levels.insert(action.into(), level);
        }
        self
    }

    /// The level of `action`, if it makes a sound.
    pub fn level(&self, action: &str) -> Option<f32> {
        self.levels.get(action).copied()
    }

    /// The sound `action` makes at `position`, if any.
    pub fn sound(&self, action: &str, position: Vec2) -> Option<Sound> {
        self.level(action).map(|level| Sound { position, level, name: action.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_walls_and_threshold() {
        let map = crate::field::test_map("............\n............\n.....#......\n");
        let h = Hearing { threshold: 20.0, wall_damping: 15.0, range: 50.0 };
        let levels = SoundLevels::typical();
        // 10 units away in the open: 45 − 20 = 25 dB.
        let run = levels.sound("run", Vec2::new(10.5, 0.5)).unwrap();
        assert!((perceived_level(&map, &h, Vec2::new(0.5, 0.5), &run) - 25.0).abs() < 1e-4);
        // A walk 9 cells along the bottom row, through the wall at (5,2): 30 − 20·log₁₀9 − 15.
        let ear = Vec2::new(0.5, 2.5);
        let walk = levels.sound("walk", Vec2::new(9.5, 2.5)).unwrap();
        let through = perceived_level(&map, &h, ear, &walk);
        assert!((through - (30.0 - 20.0 * 9.0f32.log10() - 15.0)).abs() < 1e-4);
        // A gunshot through the same wall is still heard; the walk is not.
        let shot = levels.sound("gunshot", Vec2::new(9.5, 2.5)).unwrap();
        let heard = heard_sounds(&map, &h, ear, &[walk.clone(), shot, run]);
        assert_eq!(heard.iter().map(|h| h.index).collect::<Vec<_>>(), vec![1, 2]);
        let soundproof = Hearing { wall_damping: f32::INFINITY, ..h };
        assert_eq!(heard_sounds(&map, &soundproof, ear, &[walk]).len(), 0);
        assert_eq!(levels.level("sneeze"), None);
    }
}
