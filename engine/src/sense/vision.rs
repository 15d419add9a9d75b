//! Sight: a range, a view cone around the facing direction, and grid line of sight
//! (001_003 §2.7, L118-132).

use glam::Vec2;

use crate::grid::{Map, line_of_sight};
use crate::world::{EntityId, World};

/// What an agent can see: how far, and how far either side of where it faces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VisionCone {
    /// The farthest it sees, in map units.
    pub range: f32,
    /// The largest angle (radians) between the facing direction and a target it can still see:
    /// a half-angle, since the text compares |angle| with it (L128). `π` sees all round.
    pub half_angle: f32,
}

impl VisionCone {
    /// A cone of `range` and a full field of view of `degrees` degrees.
    pub fn new(range: f32, degrees: f32) -> Self {
        VisionCone { range, half_angle: (degrees * 0.5).to_radians() }
    }

    /// Whether `target` is within range and inside the cone of an eye at `eye` facing `heading`
    /// (radians counter-clockwise from +x; on the map +y is down, so this is the same convention
    /// as [`crate::world::Entity::heading`]). Ignores walls.
    ///
    /// The text says to subtract the target from the agent (L124); the angle to the facing
    /// direction needs target − agent, which is what is used here.
    pub fn in_cone(&self, eye: Vec2, heading: f32, target: Vec2) -> bool {
        let to = target - eye;
        let d = to.length();
        if d.is_nan() || d > self.range {
            return false;
        }
        if d == 0.0 || self.half_angle >= std::f32::consts::PI {
            return true;
        }
        let facing = Vec2::from_angle(heading);
        facing.angle_to(to).abs() <= self.half_angle + 1e-6
    }

    /// [`VisionCone::in_cone`] and an unblocked line of sight between the two cells.
    pub fn can_see(&self, map: &Map, eye: Vec2, heading: f32, target: Vec2) -> bool {
        self.in_cone(eye, heading, target) && line_of_sight(map, eye.floor().as_ivec2(), target.floor().as_ivec2())
    }
}

/// Every other entity `observer` can see with `cone`, nearest first (ties in key order). Empty for
/// a stale id.
pub fn visible_entities(world: &World, observer: EntityId, cone: &VisionCone) -> Vec<EntityId> {
    let Some(me) = world.entity(observer) else { return Vec::new() };
    let mut seen: Vec<(f32, usize, EntityId)> = world
        .entities()
        .enumerate()
        .filter(|&(_, (id, e))| id != observer && cone.can_see(world.map(), me.position, me.heading, e.position))
        .map(|(order, (id, e))| (me.position.distance(e.position), order, id))
        .collect();
    seen.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    seen.into_iter().map(|(_, _, id)| id).collect()
}

#[cfg(test)]
mod tests {
    use glam::IVec2;

    use super::*;
    use crate::world::Entity;

    #[test]
    fn cone_range_and_angle() {
        let cone = VisionCone::new(10.0, 90.0);
        let eye = Vec2::new(0.5, 0.5);
        assert!(cone.in_cone(eye, 0.0, Vec2::new(5.5, 0.5)), "straight ahead");
        assert!(cone.in_cone(eye, 0.0, Vec2::new(5.5, 5.5)), "45° is on the edge of a 90° cone");
        assert!(!cone.in_cone(eye, 0.0, Vec2::new(5.5, 6.5)), "just outside");
        assert!(!cone.in_cone(eye, 0.0, Vec2::new(-3.5, 0.5)), "behind");
        assert!(!cone.in_cone(eye, 0.0, Vec2::new(11.5, 0.5)), "too far");
        assert!(cone.in_cone(eye, std::f32::consts::PI, Vec2::new(-3.5, 0.5)), "turned round");
        assert!(VisionCone::new(10.0, 360.0).in_cone(eye, 0.0, Vec2::new(-3.5, 0.5)));
        assert!(!cone.in_cone(eye, 0.0, Vec2::new(f32::NAN, 0.0)));
    }

    #[test]
    fn walls_block_and_the_nearest_comes_first() {
        let map = crate::field::test_map("........\n....#...\n........\n");
        let mut world = World::new(map, 10, 1);
        let guard = world.spawn(Entity::new("guard", "guard", IVec2::new(0, 1))).unwrap();
        let far = world.spawn(Entity::new("far", "thief", IVec2::new(6, 0))).unwrap();
        let hidden = world.spawn(Entity::new("hidden", "thief", IVec2::new(7, 1))).unwrap();
        let near = world.spawn(Entity::new("near", "thief", IVec2::new(2, 1))).unwrap();
        // Directly beside the guard, 90° off its facing: outside a 120° cone.
        world.spawn(Entity::new("beside", "thief", IVec2::new(0, 2))).unwrap();
        let cone = VisionCone::new(20.0, 120.0);
        assert_eq!(visible_entities(&world, guard, &cone), vec![near, far]);
        assert!(
            !cone.can_see(world.map(), Vec2::new(0.5, 1.5), 0.0, Vec2::new(7.5, 1.5)),
            "{hidden:?} is behind the pillar"
        );
    }
}
