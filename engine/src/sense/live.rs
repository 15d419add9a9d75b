//! Perception the world keeps between ticks: the sounds made on the last tick, every entity's
//! scent trail, and the vision, hearing and smell settings a scenario declares (001_003 §2.7).
//!
//! [`Perception`] is part of [`crate::field::TacticalMaps`], the one world field of tactical
//! state; the tick feeds it (`observe`) and scripts read it through the stdlib. Per-entity
//! attributes override the declared settings, so a sentry can see further than a cook:
//! `vision_range`, `vision_angle` (full field of view in degrees), `hearing_threshold` (dB) and
//! `scent` (how strongly the entity smells; 0 leaves no trail).

use std::collections::BTreeMap;

use glam::{IVec2, Vec2};

use super::hearing::{Hearing, Sound, SoundLevels, perceived_level};
use super::scent::{ScentTrail, Smell, smell_at};
use super::vision::VisionCone;
use crate::world::{Entity, EntityId, Event, EventKind, World};

/// What a scenario declares about the senses.
#[derive(Debug, Clone, PartialEq)]
pub struct PerceptionSpec {
    /// Everyone's sight unless their attributes say otherwise.
    pub vision: VisionCone,
    /// Everyone's hearing unless `hearing_threshold` says otherwise.
    pub hearing: Hearing,
    /// The level of each named sound (`PlaySound("door")`), in dB at one unit.
    pub levels: SoundLevels,
    /// The level of a sound the table does not name; `None` makes unnamed sounds silent.
    pub default_level: Option<f32>,
    /// How strongly an entity without a `scent` attribute smells (0: not at all).
    pub scent: f32,
    /// The share of its strength a scent mark keeps per tick.
    pub scent_fade: f32,
    /// Everyone's nose.
    pub smell: Smell,
}

impl Default for PerceptionSpec {
    fn default() -> Self {
        PerceptionSpec {
            vision: VisionCone::new(12.0, 120.0),
            hearing: Hearing::default(),
            levels: SoundLevels::typical(),
            default_level: Some(50.0),
            scent: 0.0,
            scent_fade: 0.8,
            smell: Smell { sensitivity: 1.0, threshold: 0.1, wall_pass: 0.0 },
        }
    }
}

/// A sound as a listener heard it.
#[derive(Debug, Clone, PartialEq)]
pub struct HeardSound {
    /// The sound's name.
    pub name: String,
    /// The entity that made it.
    pub source: String,
    /// Where it was made.
    pub position: Vec2,
    /// The level that reached the listener (dB).
    pub level: f32,
}

/// The strongest scent an agent smells.
#[derive(Debug, Clone, PartialEq)]
pub struct Smelled {
    /// The entity whose trail it is.
    pub source: String,
    /// The mark smelled.
    pub cell: IVec2,
    /// What reached the nose.
    pub strength: f32,
    /// The mark's age in ticks (0 = where the entity stood at the last update).
    pub age: usize,
}

/// The senses' memory between ticks.
#[derive(Debug, Clone, PartialEq)]
pub struct Perception {
    spec: PerceptionSpec,
    /// The sounds of the last observed tick with the name of the entity that made each.
    sounds: Vec<(Sound, String)>,
    trails: BTreeMap<EntityId, ScentTrail>,
    /// Entity names by trail id (ids are handed out in order of first sight, never reused).
    trail_names: Vec<String>,
}

/// A finite number attribute of `e`, if it has one.
fn number(e: &Entity, key: &str) -> Option<f32> {
    e.attribute(key).as_f64().map(|v| v as f32).filter(|v| v.is_finite())
}

impl Perception {
    /// Senses with `spec` and nothing heard or smelled yet.
    pub fn new(spec: PerceptionSpec) -> Self {
        Perception { spec, sounds: Vec::new(), trails: BTreeMap::new(), trail_names: Vec::new() }
    }

    /// The declared settings.
    pub fn spec(&self) -> &PerceptionSpec {
        &self.spec
    }

    /// Takes in one tick: the sounds among `events` replace the previous tick's, and every
    /// entity that smells leaves a mark where it stands (older marks fade).
    pub fn observe(&mut self, world: &World, events: &[Event]) {
        self.sounds.clear();
        for ev in events {
            let EventKind::Sound { name } = &ev.kind else { continue };
            let Some(source) = ev.entity.as_deref().and_then(|n| world.find(n)).and_then(|id| world.entity(id)) else {
                continue; // a world script's sound comes from nowhere in particular
            };
            let level = self.spec.levels.level(name).or(self.spec.default_level);
            if let Some(level) = level {
                let sound = Sound { position: source.position, level, name: name.clone() };
                self.sounds.push((sound, source.name.clone()));
            }
        }
        self.trails.retain(|id, _| world.entity(*id).is_some());
        for (id, e) in world.entities() {
            let intensity = number(e, "scent").unwrap_or(self.spec.scent).max(0.0);
            if intensity <= 0.0 && !self.trails.contains_key(&id) {
                continue;
            }
            let next_id = self.trail_names.len() as u32;
            let trail =
                self.trails.entry(id).or_insert_with(|| ScentTrail::new(next_id, intensity, self.spec.scent_fade));
            if trail.id == next_id {
                self.trail_names.push(e.name.clone());
            }
            trail.intensity = intensity;
            trail.update(e.cell());
        }
    }

    /// The sounds made on the last observed tick, with the name of their maker.
    pub fn sounds(&self) -> impl Iterator<Item = (&Sound, &str)> {
        self.sounds.iter().map(|(s, n)| (s, n.as_str()))
    }

    /// The vision cone of `e`: the declared one, with `vision_range` and `vision_angle`
    /// (degrees, the full field of view) taken from its attributes when it has them.
    pub fn cone_of(&self, e: &Entity) -> VisionCone {
        let d = self.spec.vision;
        VisionCone {
            range: number(e, "vision_range").unwrap_or(d.range),
            half_angle: number(e, "vision_angle").map_or(d.half_angle, |deg| (deg * 0.5).to_radians()),
        }
    }

    /// Whether `observer` sees `target` (a point in map units): in range, inside its cone around
    /// its heading, and with a clear line of sight.
    pub fn can_see(&self, world: &World, observer: &Entity, target: Vec2) -> bool {
        self.cone_of(observer).can_see(world.map(), observer.position, observer.heading, target)
    }

    /// The hearing of `e`: the declared one with its own `hearing_threshold`.
    pub fn hearing_of(&self, e: &Entity) -> Hearing {
        Hearing {
            threshold: number(e, "hearing_threshold").unwrap_or(self.spec.hearing.threshold),
            ..self.spec.hearing
        }
    }

    /// The sounds of the last tick `listener` heard (not its own), loudest first, ties in the
    /// order they were made.
    pub fn heard_by(&self, world: &World, listener: &Entity) -> Vec<HeardSound> {
        let hearing = self.hearing_of(listener);
        let mut out: Vec<HeardSound> = self
            .sounds
            .iter()
            .filter(|(s, source)| *source != listener.name && listener.position.distance(s.position) <= hearing.range)
            .map(|(s, source)| HeardSound {
                name: s.name.clone(),
                source: source.clone(),
                position: s.position,
                level: perceived_level(world.map(), &hearing, listener.position, s),
            })
            .filter(|h| h.level >= hearing.threshold)
            .collect();
        out.sort_by(|a, b| b.level.total_cmp(&a.level));
        out
    }

    /// The strongest scent noticed at `at` (map units), ignoring `except`'s own trail.
    pub fn smell_at(&self, world: &World, at: Vec2, except: Option<EntityId>) -> Option<Smelled> {
        let trails: Vec<ScentTrail> =
            self.trails.iter().filter(|(id, _)| Some(**id) != except).map(|(_, t)| t.clone()).collect();
        let hit = smell_at(world.map(), &self.spec.smell, at, &trails)?;
        Some(Smelled {
            source: self.trail_names.get(hit.id as usize).cloned().unwrap_or_default(),
            cell: hit.cell,
            strength: hit.strength,
            age: hit.age,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Value;

    #[test]
    fn sounds_of_one_tick_are_heard_by_the_others_above_their_threshold() {
        let map = crate::field::test_map("............\n.....#......\n............\n");
        let mut world = World::new(map, 10, 1);
        let door = world.spawn(Entity::new("door", "door", IVec2::new(10, 1))).unwrap();
        let mut deaf = Entity::new("deaf", "guard", IVec2::new(0, 1));
        deaf.attributes.insert("hearing_threshold".into(), Value::Int(30));
        world.spawn(deaf).unwrap();
        world.spawn(Entity::new("keen", "guard", IVec2::new(2, 0))).unwrap();
        world.record(Some(door), EventKind::Sound { name: "door".into() });
        let mut p = Perception::new(PerceptionSpec::default());
        p.observe(&world, world.log().events());
        let keen = world.entity(world.find("keen").unwrap()).unwrap();
        let heard = p.heard_by(&world, keen);
        // 55 dB from (10.5,1.5) to (2.5,0.5), less spreading and 15 dB per wall cell on the
        // supercover line between the two cells (counted here on its own).
        let d = Vec2::new(10.5, 1.5).distance(Vec2::new(2.5, 0.5));
        let mut walls = 0;
        crate::grid::walk_supercover(IVec2::new(10, 1), IVec2::new(2, 0), |c| {
            walls += i32::from(!world.map().passable(c));
            true
        });
        let want = 55.0 - 20.0 * d.log10() - 15.0 * walls as f32;
        assert_eq!(heard.len(), 1);
        assert_eq!((heard[0].name.as_str(), heard[0].source.as_str()), ("door", "door"));
        assert!((heard[0].level - want).abs() < 1e-4, "{} vs {want}", heard[0].level);
        // Straight along row 1 through the wall: 55 − 20·log₁₀10 − 15 = 20 dB, under 30.
        let deaf = world.entity(world.find("deaf").unwrap()).unwrap();
        assert!(p.heard_by(&world, deaf).is_empty());
        let door_e = world.entity(door).unwrap();
        assert!(p.heard_by(&world, door_e).is_empty(), "nobody hears their own sound");
        // The next tick without sounds forgets them.
        p.observe(&world, &[]);
        assert!(p.heard_by(&world, keen).is_empty());
    }

    #[test]
    fn attributes_override_the_declared_senses_and_trails_follow_entities() {
        let mut world = World::new(crate::grid::Map::open(10, 3), 10, 1);
        let mut fox = Entity::new("fox", "fox", IVec2::new(0, 0));
        fox.attributes.insert("scent".into(), Value::Float(1.0));
        fox.attributes.insert("vision_range".into(), Value::Int(3));
        fox.attributes.insert("vision_angle".into(), Value::Int(360));
        let fox = world.spawn(fox).unwrap();
        let hound = world.spawn(Entity::new("hound", "dog", IVec2::new(2, 1))).unwrap();
        let mut p = Perception::new(PerceptionSpec::default());
        for x in 0..3 {
            world.entity_mut(fox).unwrap().position = Vec2::new(x as f32 + 0.5, 0.5);
            p.observe(&world, &[]);
        }
        let f = world.entity(fox).unwrap();
        assert_eq!(p.cone_of(f).range, 3.0);
        assert!(p.can_see(&world, f, Vec2::new(0.5, 2.5)), "360° sees behind");
        assert!(!p.can_see(&world, f, Vec2::new(6.5, 0.5)), "beyond 3 cells");
        // The hound at (2,1) smells the newest mark (2,0), one unit away: 1 · (1 − 1/3).
        let h = world.entity(hound).unwrap();
        let s = p.smell_at(&world, h.position, Some(hound)).unwrap();
        assert_eq!((s.source.as_str(), s.cell, s.age), ("fox", IVec2::new(2, 0), 0));
        assert!((s.strength - (1.0 - 1.0 / 3.0)).abs() < 1e-6);
        assert_eq!(p.smell_at(&world, h.position, Some(fox)), None, "the fox ignores its own trail");
        let at = h.position;
        world.despawn(fox).unwrap();
        p.observe(&world, &[]);
        assert_eq!(p.smell_at(&world, at, None), None, "a gone entity's trail goes with it");
    }
}
