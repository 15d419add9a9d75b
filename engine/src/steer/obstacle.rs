//! Obstacle avoidance with a feeler (002a §5.10, Ex. 4-12).
//!
//! A feeler of length `CVF × length` points along the heading. A circular obstacle is hit when its
//! centre projects onto the feeler within its length (`|p| < |v|`) and lies closer than the radius
//! to the feeler line (`|b| < R`). The unit then turns away from the obstacle's side with a force
//! `S · (CVF · length) / |a|`, inversely proportional to the distance to the centre.

use glam::Vec2;

use super::body::{Vehicle, normalize_book};

/// A circular obstacle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    /// Centre.
    pub center: Vec2,
    /// Radius.
    pub radius: f32,
}

/// Feeler settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Feeler {
    /// `_COLLISION_VISIBILITY_FACTOR`: feeler length in body lengths.
    pub visibility_factor: f32,
    /// Maximum steering force `S` this rule may contribute per obstacle at the feeler tip.
    pub force: f32,
    /// The book's hit test uses `|p|`, so an obstacle *behind* the unit also triggers (digest §5.10).
    /// `true` (our default) only reacts to obstacles ahead (`a·u > 0`); `false` is book-exact.
    pub ignore_behind: bool,
    /// Extra clearance added to every obstacle's radius (e.g. half the body width).
    pub clearance: f32,
}

impl Default for Feeler {
    fn default() -> Self {
        Feeler { visibility_factor: 6.0, force: 1.0, ignore_behind: true, clearance: 0.0 }
    }
}

/// The lateral force of one obstacle on `vehicle` (0 when the feeler misses it). Positive is toward
/// local `+x`; the force always turns away from the obstacle's side. An obstacle dead ahead is
/// passed on the `+x` side, where the book's uninitialised `m` leaves it undefined.
pub fn feeler_force(vehicle: &Vehicle, obstacle: Circle, feeler: &Feeler) -> f32 {
    let u = vehicle.heading;
    let reach = feeler.visibility_factor * vehicle.length;
    let a = obstacle.center - vehicle.position;
    let along = a.dot(u);
    if feeler.ignore_behind && along <= 0.0 {
        return 0.0;
    }
    let p = along * u;
    let b = p - a;
    if !(b.length() < obstacle.radius + feeler.clearance && p.length() < reach) {
        return 0.0;
    }
    let w = normalize_book(vehicle.frame().to_local(a));
    let m = if w.x > 0.0 { -1.0 } else { 1.0 };
    let dist = a.length().max(1e-3);
    m * feeler.force * reach / dist
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> Vehicle {
        Vehicle::new(Vec2::ZERO, Vec2::Y, 1.0, 1.0)
    }

    #[test]
    fn digest_6_9_geometry() {
        // u = (0,1), a = (0.5, 3): p = (0,3), b = (−0.5, 0). Hit iff 0.5 < R and 3 < CVF·L.
        let f = Feeler { visibility_factor: 6.0, force: 1.0, ignore_behind: true, clearance: 0.0 };
        let hit = feeler_force(&unit(), Circle { center: Vec2::new(0.5, 3.0), radius: 1.0 }, &f);
        assert!((hit - (-6.0 / 9.25f32.sqrt())).abs() < 1e-6, "turns away (−x), S·6/|a|: {hit}");
        assert_eq!(feeler_force(&unit(), Circle { center: Vec2::new(0.5, 3.0), radius: 0.5 }, &f), 0.0);
        let short = Feeler { visibility_factor: 3.0, ..f };
        assert_eq!(feeler_force(&unit(), Circle { center: Vec2::new(0.5, 3.0), radius: 1.0 }, &short), 0.0);
        let left = feeler_force(&unit(), Circle { center: Vec2::new(-0.5, 3.0), radius: 1.0 }, &f);
        assert!(left > 0.0);
    }

    #[test]
    fn obstacles_behind_trigger_only_in_book_mode() {
        let behind = Circle { center: Vec2::new(0.0, -3.0), radius: 1.0 };
        let ours = Feeler::default();
        let book = Feeler { ignore_behind: false, ..ours };
        assert_eq!(feeler_force(&unit(), behind, &ours), 0.0);
        assert_eq!(feeler_force(&unit(), behind, &book), 2.0, "dead astern at 3: S·6/3, on the +x side");
    }
}
