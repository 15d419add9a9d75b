//! Following a path: a follower that steers an entity point to point and says when it arrives,
//! and the planner that turns a `MoveTo` into a `FollowPath` over an A* path.

use glam::{IVec2, Vec2};

use super::{AStar, PathError};
use crate::coord::Action;
use crate::grid::Map;
use crate::world::Entity;

/// Where a follower stands after a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowStatus {
    /// Still on the way; `next` is the index of the point it heads for.
    Moving {
        /// The point it heads for.
        next: usize,
    },
    /// At the last point (reported on every step from the one it arrived on).
    Arrived,
}

/// Steers along a list of points at the entity's speed. Intermediate points count as passed
/// within `radius` (so the mover cuts gently round corners instead of stopping on each); the last
/// point must be reached exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct PathFollower {
    points: Vec<Vec2>,
    next: usize,
    /// How close an intermediate point must be to count as passed (map units, ≥ 0).
    pub radius: f32,
}

impl PathFollower {
    /// A follower over `points` (map units), passing intermediate points within `radius`.
    pub fn new(points: Vec<Vec2>, radius: f32) -> Self {
        PathFollower { points, next: 0, radius: radius.max(0.0) }
    }

    /// A follower through the centres of `cells`.
    pub fn through_cells(cells: &[IVec2], radius: f32) -> Self {
        Self::new(cells.iter().map(|c| c.as_vec2() + 0.5).collect(), radius)
    }

    /// The points.
    pub fn points(&self) -> &[Vec2] {
        &self.points
    }

    /// Moves `position` up to `speed × dt` along the path (carrying leftover distance past
    /// points within the same step) and returns the velocity it moved with and the status.
    pub fn advance(&mut self, position: &mut Vec2, speed: f32, dt: f32) -> (Vec2, FollowStatus) {
        let start = *position;
        let mut budget = (speed * dt).max(0.0);
        while let Some(&target) = self.points.get(self.next) {
            let last = self.next + 1 == self.points.len();
            let to = target - *position;
            let dist = to.length();
            let reach = if last { 0.0 } else { self.radius };
            if dist <= reach || dist <= budget {
                // Passed (or reached) this point: move onto it only if it is the last or lies
                // within this step's budget, then head for the next one.
                if dist <= budget {
                    *position = target;
                    budget -= dist;
                }
                self.next += 1;
                continue;
            }
            *position += to * (budget / dist);
            break;
        }
        let velocity = if dt > 0.0 { (*position - start) / dt } else { Vec2::ZERO };
        let status = if self.next >= self.points.len() {
            FollowStatus::Arrived
        } else {
            FollowStatus::Moving { next: self.next }
        };
        (velocity, status)
    }

    /// Steers `entity` one step of `dt` seconds at its speed: position, velocity and heading.
    pub fn steer(&mut self, entity: &mut Entity, dt: f32) -> FollowStatus {
        let (velocity, status) = self.advance(&mut entity.position, entity.speed, dt);
        entity.velocity = velocity;
        if velocity != Vec2::ZERO {
            entity.heading = velocity.y.atan2(velocity.x);
        }
        status
    }
}

/// Plans the cells of a path from `from` to `to` with `astar` and keeps only its turning points
/// (where the direction changes), as cell centres. Segments between them are straight or exactly
/// diagonal, which the world's walker crosses without ever touching a wall corner.
pub fn plan_follow_path(map: &Map, astar: &mut AStar, from: IVec2, to: IVec2) -> Result<Vec<Vec2>, PathError> {
    let mut cells = Vec::new();
    astar.find(map, from, to, &mut cells)?;
    let mut points = Vec::with_capacity(cells.len());
    for (i, &c) in cells.iter().enumerate().skip(1) {
        let turning = cells.get(i + 1).is_none_or(|&n| n - c != c - cells[i - 1]);
        if turning {
            points.push(c.as_vec2() + 0.5);
        }
    }
    Ok(points)
}

/// Turns a straight-line `MoveTo` into a `FollowPath` over an A* path from `position` to its
/// target, so a move goes round walls instead of being blocked by them. Any other action is
/// returned unchanged; a `MoveTo` whose target cannot be reached is an error.
pub fn move_to_as_follow_path(
    map: &Map,
    astar: &mut AStar,
    position: Vec2,
    action: Action,
) -> Result<Action, PathError> {
    let Action::MoveTo { target } = action else { return Ok(action) };
    let mut points = plan_follow_path(map, astar, position.floor().as_ivec2(), target.floor().as_ivec2())?;
    // End on the exact target point rather than its cell's centre.
    match points.last_mut() {
        Some(last) => *last = target,
        None => points.push(target),
    }
    Ok(Action::FollowPath { points, next: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::World;

    #[test]
    fn the_follower_moves_at_speed_and_reports_arrival() {
        let mut f = PathFollower::new(vec![Vec2::new(3.0, 0.0), Vec2::new(3.0, 4.0)], 0.0);
        let mut p = Vec2::ZERO;
        let (v, s) = f.advance(&mut p, 2.0, 1.0);
        assert_eq!((p, v, s), (Vec2::new(2.0, 0.0), Vec2::new(2.0, 0.0), FollowStatus::Moving { next: 0 }));
        // The leftover of this step carries round the corner.
        let (_, s) = f.advance(&mut p, 2.0, 1.0);
        assert_eq!((p, s), (Vec2::new(3.0, 1.0), FollowStatus::Moving { next: 1 }));
        f.advance(&mut p, 2.0, 1.0);
        let (_, s) = f.advance(&mut p, 2.0, 1.0);
        assert_eq!((p, s), (Vec2::new(3.0, 4.0), FollowStatus::Arrived));
        assert_eq!(f.advance(&mut p, 2.0, 1.0).1, FollowStatus::Arrived);
    }

    #[test]
    fn intermediate_points_are_passed_within_the_radius() {
        let mut f = PathFollower::new(vec![Vec2::new(1.0, 0.0), Vec2::new(1.0, 5.0)], 0.5);
        let mut p = Vec2::new(0.6, 0.0);
        let (_, s) = f.advance(&mut p, 0.1, 1.0);
        assert_eq!(s, FollowStatus::Moving { next: 1 });
        assert!(p.y > 0.0, "already heading for the second point: {p}");
    }

    #[test]
    fn steering_sets_velocity_and_heading() {
        let mut e = Entity::new("e", "guard", IVec2::ZERO);
        e.speed = 1.0;
        let mut f = PathFollower::through_cells(&[IVec2::new(0, 0), IVec2::new(0, 3)], 0.0);
        // The first point is where it stands: it is passed at no cost and the step goes on.
        assert_eq!(f.steer(&mut e, 1.0), FollowStatus::Moving { next: 1 });
        assert_eq!((e.position, e.velocity), (Vec2::new(0.5, 1.5), Vec2::new(0.0, 1.0)));
        assert!((e.heading - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        f.steer(&mut e, 1.0);
        assert_eq!(f.steer(&mut e, 1.0), FollowStatus::Arrived);
        assert_eq!(e.position, Vec2::new(0.5, 3.5));
        assert_eq!(f.steer(&mut e, 1.0), FollowStatus::Arrived);
        assert_eq!(e.velocity, Vec2::ZERO);
    }

    #[test]
    fn a_move_to_goes_round_the_wall_in_the_world() {
        let mut map = Map::open(7, 5);
        for y in 0..4 {
            map.set(IVec2::new(3, y), b'#', f32::INFINITY);
        }
        let mut astar = AStar::new();
        let mut e = Entity::new("a", "peasant", IVec2::new(1, 1));
        e.speed = 10.0;
        let action = Action::MoveTo { target: Vec2::new(5.5, 1.5) };
        let planned = move_to_as_follow_path(&map, &mut astar, e.position, action).unwrap();
        let Action::FollowPath { points, .. } = &planned else { panic!("{planned:?}") };
        assert_eq!(points.last(), Some(&Vec2::new(5.5, 1.5)));
        assert!(points.iter().any(|p| p.y > 4.0), "passes below the wall: {points:?}");
        let mut world = World::new(map.clone(), 10, 1);
        let id = world.spawn(e).unwrap();
        world.entity_mut(id).unwrap().actions.push(planned);
        for _ in 0..20 {
            world.step(|_, _| {});
        }
        assert_eq!(world.entity(id).unwrap().cell(), IVec2::new(5, 1));
        let kinds: Vec<String> = world.log().events().iter().map(|e| format!("{:?}", e.kind)).collect();
        assert!(!kinds.iter().any(|k| k.starts_with("Blocked")), "{kinds:?}");
        assert!(kinds.iter().any(|k| k.starts_with("Arrive")), "{kinds:?}");
        let say = Action::Say { text: "hi".into() };
        assert_eq!(move_to_as_follow_path(&map, &mut astar, Vec2::ONE, say.clone()), Ok(say));
        let walled = Action::MoveTo { target: Vec2::new(3.5, 0.5) };
        assert!(move_to_as_follow_path(&map, &mut astar, Vec2::ONE, walled).is_err());
    }
}
