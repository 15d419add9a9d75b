//! The vehicle the steering behaviours drive, and the book's body frame.
//!
//! The book (002a §2) flies rigid bodies with a constant forward thrust and a lateral steering
//! force applied at the nose. Every behaviour in this folder produces that lateral force (and, for
//! potential functions, a forward component too); [`Vehicle::step`] turns it into motion. The
//! model is kinematic rather than a full rigid body: the lateral force sets the turn rate, so the
//! turning radius grows with speed (002a L642) and the behaviours stay easy to tune and test.
//!
//! **Body frame.** Local `+y` is the nose direction (`forward`), local `+x` is
//! `right = (forward.y, −forward.x)`, the book's `VRotate2D(−θ, v)` with `forward = (−sin θ, cos θ)`.
//! A positive lateral force pushes the nose toward local `+x`. The book's prose mixes up left and
//! right between chapters (digest §0.3); this module follows its code: "turn toward" = the sign of
//! the target's local `x`.

use glam::Vec2;

/// The book's vector tolerance (`Vector::Normalize`, tol = 0.0001).
pub const TOL: f32 = 1e-4;

/// The book's `Normalize`: a vector of length ≤ [`TOL`] comes back unchanged (never NaN), and
/// components smaller than [`TOL`] snap to zero.
pub fn normalize_book(v: Vec2) -> Vec2 {
    let m = v.length();
    let m = if m <= TOL { 1.0 } else { m };
    let u = v / m;
    Vec2::new(if u.x.abs() < TOL { 0.0 } else { u.x }, if u.y.abs() < TOL { 0.0 } else { u.y })
}

/// A body frame: the nose direction and its right-hand side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Unit nose direction (local `+y`).
    pub forward: Vec2,
    /// Unit local `+x`: `(forward.y, −forward.x)`.
    pub right: Vec2,
}

impl Frame {
    /// The frame of a body whose nose points along `forward` (need not be unit; a zero vector gives
    /// the frame of global `+y`).
    pub fn from_forward(forward: Vec2) -> Self {
        let f = forward.try_normalize().unwrap_or(Vec2::Y);
        Frame { forward: f, right: Vec2::new(f.y, -f.x) }
    }

    /// The frame of the book's `fOrientation` angle θ (radians): `forward = (−sin θ, cos θ)`.
    pub fn from_orientation(theta: f32) -> Self {
        Self::from_forward(Vec2::new(-theta.sin(), theta.cos()))
    }

    /// A global vector in this frame: the book's `VRotate2D(−θ, v)`.
    pub fn to_local(&self, v: Vec2) -> Vec2 {
        Vec2::new(v.dot(self.right), v.dot(self.forward))
    }

    /// A local vector back in global coordinates.
    pub fn to_global(&self, v: Vec2) -> Vec2 {
        self.right * v.x + self.forward * v.y
    }
}

/// Limits of a vehicle: how fast it goes and turns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VehicleLimits {
    /// Cruise speed under constant forward thrust (units/s).
    pub max_speed: f32,
    /// Turn rate at full lateral force (radians/s).
    pub max_turn_rate: f32,
    /// How fast speed follows the throttle (units/s²).
    pub acceleration: f32,
}

impl Default for VehicleLimits {
    fn default() -> Self {
        VehicleLimits { max_speed: 10.0, max_turn_rate: 3.0, acceleration: 20.0 }
    }
}

/// What a behaviour asks of the vehicle for one tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Control {
    /// Lateral force at the nose as a fraction of the maximum steering force; positive toward local
    /// `+x`. Clamped to `[−1, 1]` when applied.
    pub steer: f32,
    /// Forward throttle as a fraction of cruise speed, clamped to `[0, 1]`.
    pub throttle: f32,
}

impl Control {
    /// Full throttle, no steering: the book's default `SetThrusters(false, false)`.
    pub const CRUISE: Control = Control { steer: 0.0, throttle: 1.0 };

    /// Full throttle with `steer`.
    pub fn steer(steer: f32) -> Self {
        Control { steer, throttle: 1.0 }
    }
}

/// A steered body: position, velocity, nose direction and length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vehicle {
    /// Position in world units.
    pub position: Vec2,
    /// Velocity in world units per second (along the nose).
    pub velocity: Vec2,
    /// Unit nose direction.
    pub heading: Vec2,
    /// Body length; view radii, separation and feelers are multiples of it (002a L1892).
    pub length: f32,
}

impl Vehicle {
    /// A vehicle at `position` facing `heading` and moving at `speed` along it.
    pub fn new(position: Vec2, heading: Vec2, speed: f32, length: f32) -> Self {
        let heading = heading.try_normalize().unwrap_or(Vec2::Y);
        Vehicle { position, velocity: heading * speed, heading, length }
    }

    /// The body frame.
    pub fn frame(&self) -> Frame {
        Frame { forward: self.heading, right: Vec2::new(self.heading.y, -self.heading.x) }
    }

    /// Current speed.
    pub fn speed(&self) -> f32 {
        self.velocity.length()
    }

    /// Advances one tick of `dt` seconds: the lateral force turns the nose (turn rate proportional
    /// to it), speed eases toward `throttle × max_speed`, and the body moves along its nose.
    pub fn step(&mut self, control: Control, limits: &VehicleLimits, dt: f32) {
        let steer = if control.steer.is_finite() { control.steer.clamp(-1.0, 1.0) } else { 0.0 };
        let throttle = if control.throttle.is_finite() { control.throttle.clamp(0.0, 1.0) } else { 0.0 };
        // Positive steer turns toward local +x, which is clockwise: rotate by −ω·dt.
        let angle = -steer * limits.max_turn_rate * dt;
        self.heading = Vec2::from_angle(angle).rotate(self.heading).normalize_or(Vec2::Y);
        let target = throttle * limits.max_speed;
        let speed = self.speed();
        let dv = (target - speed).clamp(-limits.acceleration * dt, limits.acceleration * dt);
        let speed = (speed + dv).max(0.0);
        self.velocity = self.heading * speed;
        self.position += self.velocity * dt;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_matches_the_books_rotation_formulas() {
        // 002a L700–702: x = X cosθ + Y sinθ, y = −X sinθ + Y cosθ.
        for theta in [0.0f32, 0.3, 1.2, -2.0, 3.0] {
            let f = Frame::from_orientation(theta);
            let v = Vec2::new(3.0, -2.0);
            let l = f.to_local(v);
            assert!((l.x - (v.x * theta.cos() + v.y * theta.sin())).abs() < 1e-5);
            assert!((l.y - (-v.x * theta.sin() + v.y * theta.cos())).abs() < 1e-5);
            assert!((f.to_global(l) - v).length() < 1e-5);
        }
        let f = Frame::from_forward(Vec2::Y);
        assert_eq!(f.right, Vec2::X);
    }

    #[test]
    fn book_normalize_keeps_zero_and_snaps_tiny_components() {
        assert_eq!(normalize_book(Vec2::ZERO), Vec2::ZERO);
        assert_eq!(normalize_book(Vec2::new(5e-5, 0.0)), Vec2::new(0.0, 0.0));
        assert_eq!(normalize_book(Vec2::new(3.0, 4.0)), Vec2::new(0.6, 0.8));
        assert_eq!(normalize_book(Vec2::new(1.0, 1e-6)), Vec2::new(1.0, 0.0));
    }

    #[test]
    fn positive_steer_turns_toward_local_plus_x() {
        let limits = VehicleLimits::default();
        let mut v = Vehicle::new(Vec2::ZERO, Vec2::Y, 10.0, 1.0);
        v.step(Control::steer(1.0), &limits, 0.1);
        assert!(v.heading.x > 0.0, "nose swung toward +x: {}", v.heading);
        let mut v = Vehicle::new(Vec2::ZERO, Vec2::Y, 10.0, 1.0);
        v.step(Control::steer(f32::NAN), &limits, 0.1);
        assert_eq!(v.heading, Vec2::Y, "a NaN control is ignored");
        assert!((v.position - Vec2::new(0.0, 1.0)).length() < 1e-5);
    }

    #[test]
    fn turning_radius_grows_with_speed() {
        let limits = VehicleLimits { max_speed: 10.0, max_turn_rate: 1.0, acceleration: 100.0 };
        let radius = |throttle: f32| {
            let mut v = Vehicle::new(Vec2::ZERO, Vec2::Y, 10.0 * throttle, 1.0);
            let mut max_x = 0.0f32;
            for _ in 0..2000 {
                v.step(Control { steer: 1.0, throttle }, &limits, 0.005);
                max_x = max_x.max(v.position.x);
            }
            max_x / 2.0
        };
        let (slow, fast) = (radius(0.3), radius(1.0));
        assert!((slow - 3.0).abs() < 0.1 && (fast - 10.0).abs() < 0.2, "radii {slow} {fast}");
    }
}
