//! Chase, evade and intercept (002a ch. 2).
//!
//! - [`basic_chase_tile`] / [`basic_evade_tile`] and their continuous forms: one step per axis
//!   toward (away from) the other actor, ignoring heading (Ex. 2-1 … 2-3).
//! - [`los_steer`]: the continuous line-of-sight chase of Ex. 2-8 — the target in the body frame,
//!   a dead band of `tol`, then a fixed-magnitude turn toward it; [`Pursuit::Evade`] inverts it.
//! - [`intercept_point`] and [`intercept_steer`]: Ex. 2-9's closing velocity, time to close and
//!   predicted point, with the book's fallback to line-of-sight chase while the prey is behind
//!   (L832) and a guard for equal velocities (no closing speed).

use glam::{IVec2, Vec2};

use super::body::{Vehicle, normalize_book};

/// Whether a behaviour goes toward its target or away from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pursuit {
    /// Toward the target.
    Chase,
    /// Away from the target (the book's "reverse the comparisons").
    Evade,
}

/// One basic-chase step on tiles: each axis moves one cell toward `prey` (Ex. 2-3).
pub fn basic_chase_tile(predator: IVec2, prey: IVec2) -> IVec2 {
    predator + (prey - predator).signum()
}

/// One basic-evade step on tiles: each axis moves one cell away from `predator` (Ex. 2-2); an axis
/// on which both stand level does not move, as in the book.
pub fn basic_evade_tile(prey: IVec2, predator: IVec2) -> IVec2 {
    prey + (prey - predator).signum()
}

/// One basic-chase step in continuous space: each axis moves `step` toward `prey`, never past it
/// (the book's `x++`/`x--` with a step size and without the overshoot jitter of real coordinates).
pub fn basic_chase(predator: Vec2, prey: Vec2, step: f32) -> Vec2 {
    let d = prey - predator;
    predator + Vec2::new(d.x.clamp(-step, step), d.y.clamp(-step, step))
}

/// One basic-evade step in continuous space: each axis moves `step` away from `predator`.
pub fn basic_evade(prey: Vec2, predator: Vec2, step: f32) -> Vec2 {
    let d = prey - predator;
    let away = |c: f32| {
        if c > 0.0 {
            step
        } else if c < 0.0 {
            -step
        } else {
            0.0
        }
    };
    prey + Vec2::new(away(d.x), away(d.y))
}

/// The line-of-sight steering decision of Ex. 2-8: `+1` turns toward local `+x`, `−1` toward
/// local `−x`, `0` goes straight (the target is within `tol` of dead ahead, in normalised local
/// `x`). Evade flips the sign.
pub fn los_steer(vehicle: &Vehicle, target: Vec2, tol: f32, pursuit: Pursuit) -> f32 {
    let u = normalize_book(vehicle.frame().to_local(target - vehicle.position));
    let toward = if u.x < -tol {
        -1.0
    } else if u.x > tol {
        1.0
    } else if u.y < 0.0 && pursuit == Pursuit::Chase {
        // Dead astern the book's test goes straight forever; turn to break the tie.
        1.0
    } else {
        0.0
    };
    match pursuit {
        Pursuit::Chase => toward,
        Pursuit::Evade => -toward,
    }
}

/// The predicted meeting point of Ex. 2-9 and the time to close.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Intercept {
    /// `St = S_prey + V_prey · tc`.
    pub point: Vec2,
    /// `tc = |Sr| / |Vr|`, the book's average time to close.
    pub time_to_close: f32,
}

/// Ex. 2-9: closing velocity `Vr = V_prey − V_predator`, range `Sr = S_prey − S_predator`,
/// `tc = |Sr| / |Vr|`, `St = S_prey + V_prey·tc`. `None` when the closing speed is (almost) zero,
/// where the book divides by zero.
pub fn intercept_point(predator_pos: Vec2, predator_vel: Vec2, prey_pos: Vec2, prey_vel: Vec2) -> Option<Intercept> {
    let vr = prey_vel - predator_vel;
    let sr = prey_pos - predator_pos;
    let closing = vr.length();
    if closing <= 1e-6 || !closing.is_finite() {
        return None;
    }
    let tc = sr.length() / closing;
    Some(Intercept { point: prey_pos + prey_vel * tc, time_to_close: tc })
}

/// Which target [`intercept_steer`] aimed at.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum InterceptAim {
    /// The predicted point (exposed for debug drawing, like the book's `Target`).
    Predicted(Intercept),
    /// The prey is behind (local `y < 0`) or there is no closing speed: plain line-of-sight chase
    /// at its current position until re-aimed (L832).
    LineOfSight,
}

/// Intercept steering with the book's fallback: returns the lateral steer (as [`los_steer`]) and
/// what it aimed at.
pub fn intercept_steer(predator: &Vehicle, prey_pos: Vec2, prey_vel: Vec2, tol: f32) -> (f32, InterceptAim) {
    let behind = predator.frame().to_local(prey_pos - predator.position).y < 0.0;
    match intercept_point(predator.position, predator.velocity, prey_pos, prey_vel) {
        Some(hit) if !behind => (los_steer(predator, hit.point, tol, Pursuit::Chase), InterceptAim::Predicted(hit)),
        _ => (los_steer(predator, prey_pos, tol, Pursuit::Chase), InterceptAim::LineOfSight),
    }
}

#[cfg(test)]
mod tests {
    use super::super::body::{Control, VehicleLimits};
    use super::*;

    #[test]
    fn basic_tile_chase_is_diagonal_then_straight() {
        // Digest §6.1: (0,0) chasing a still prey at (3,5): five ticks.
        let mut p = IVec2::ZERO;
        let mut seen = Vec::new();
        while p != IVec2::new(3, 5) {
            p = basic_chase_tile(p, IVec2::new(3, 5));
            seen.push(p);
        }
        let want = [(1, 1), (2, 2), (3, 3), (3, 4), (3, 5)].map(|(x, y)| IVec2::new(x, y));
        assert_eq!(seen, want);
        assert_eq!(basic_evade_tile(IVec2::new(3, 5), IVec2::new(3, 1)), IVec2::new(3, 6));
        assert_eq!(basic_chase(Vec2::ZERO, Vec2::new(0.5, -3.0), 1.0), Vec2::new(0.5, -1.0));
        assert_eq!(basic_evade(Vec2::new(2.0, 0.0), Vec2::ZERO, 1.0), Vec2::new(3.0, 0.0));
    }

    #[test]
    fn intercept_point_of_digest_6_3() {
        let hit = intercept_point(Vec2::ZERO, Vec2::ZERO, Vec2::new(100.0, 0.0), Vec2::new(0.0, 10.0)).unwrap();
        assert_eq!(hit.time_to_close, 10.0);
        assert_eq!(hit.point, Vec2::new(100.0, 100.0));
        // Equal velocities: no closing speed, no prediction.
        assert_eq!(intercept_point(Vec2::ZERO, Vec2::X, Vec2::Y, Vec2::X), None);
        // Facing +y (orientation 0), the point (100, 100) lies at local x > 0: turn toward +x.
        let predator = Vehicle::new(Vec2::ZERO, Vec2::Y, 0.0, 1.0);
        let (steer, aim) = intercept_steer(&predator, Vec2::new(100.0, 0.0), Vec2::new(0.0, 10.0), 0.01);
        assert_eq!(steer, 1.0);
        assert!(matches!(aim, InterceptAim::Predicted(h) if h.point == Vec2::new(100.0, 100.0)));
    }

    #[test]
    fn intercept_falls_back_to_line_of_sight_when_the_prey_is_behind() {
        // Predator heading +y, prey behind and to its −x side, running away along −y.
        let predator = Vehicle::new(Vec2::ZERO, Vec2::Y, 5.0, 1.0);
        let (steer, aim) = intercept_steer(&predator, Vec2::new(-10.0, -20.0), Vec2::new(0.0, -3.0), 0.01);
        assert_eq!(aim, InterceptAim::LineOfSight);
        assert_eq!(steer, -1.0);
    }

    #[test]
    fn los_dead_band_and_evade_inversion() {
        let v = Vehicle::new(Vec2::ZERO, Vec2::Y, 1.0, 1.0);
        assert_eq!(los_steer(&v, Vec2::new(0.001, 10.0), 0.01, Pursuit::Chase), 0.0);
        assert_eq!(los_steer(&v, Vec2::new(1.0, 10.0), 0.01, Pursuit::Chase), 1.0);
        assert_eq!(los_steer(&v, Vec2::new(-1.0, 10.0), 0.01, Pursuit::Chase), -1.0);
        assert_eq!(los_steer(&v, Vec2::new(-1.0, 10.0), 0.01, Pursuit::Evade), 1.0);
    }

    fn run_chase(intercept: bool) -> Option<usize> {
        let limits = VehicleLimits { max_speed: 12.0, max_turn_rate: 2.0, acceleration: 50.0 };
        let prey_speed = 8.0;
        let mut predator = Vehicle::new(Vec2::new(0.0, 0.0), Vec2::Y, 12.0, 1.0);
        let mut prey_pos = Vec2::new(60.0, 0.0);
        let prey_vel = Vec2::new(-0.6, 0.8) * prey_speed;
        let dt = 0.05;
        for tick in 0..2000 {
            if predator.position.distance(prey_pos) < 1.0 {
                return Some(tick);
            }
            let steer = if intercept {
                intercept_steer(&predator, prey_pos, prey_vel, 0.01).0
            } else {
                los_steer(&predator, prey_pos, 0.01, Pursuit::Chase)
            };
            predator.step(Control::steer(steer), &limits, dt);
            prey_pos += prey_vel * dt;
        }
        None
    }

    #[test]
    fn a_faster_chaser_catches_a_slower_prey_and_intercept_is_quicker() {
        // Fig. 2-9/2-11: predator bottom-left, prey bottom-right flying to the upper left.
        let los = run_chase(false).expect("line-of-sight chase catches the slower prey");
        let intercept = run_chase(true).expect("intercept catches the slower prey");
        assert!(intercept < los, "intercept {intercept} ticks vs line of sight {los}");
    }

    #[test]
    fn an_evader_keeps_its_distance_from_an_equally_fast_chaser() {
        let limits = VehicleLimits { max_speed: 10.0, max_turn_rate: 2.0, acceleration: 50.0 };
        let mut chaser = Vehicle::new(Vec2::ZERO, Vec2::Y, 10.0, 1.0);
        let mut evader = Vehicle::new(Vec2::new(5.0, 20.0), Vec2::X, 10.0, 1.0);
        let start = chaser.position.distance(evader.position);
        let mut closest = start;
        for _ in 0..2000 {
            let c = los_steer(&chaser, evader.position, 0.01, Pursuit::Chase);
            let e = los_steer(&evader, chaser.position, 0.01, Pursuit::Evade);
            chaser.step(Control::steer(c), &limits, 0.05);
            evader.step(Control::steer(e), &limits, 0.05);
            closest = closest.min(chaser.position.distance(evader.position));
        }
        assert!(closest > 0.5 * start, "closest {closest} of {start}");
    }
}
