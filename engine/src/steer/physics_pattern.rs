//! Movement patterns for physically simulated vehicles (002a §4.4, Ex. 3-13 … 3-20).
//!
//! Each instruction fires thrusters until a *relative* limit is reached — a heading change in
//! degrees or a straight-line displacement — then the next instruction starts. Heading turns taper
//! the steering force as the limit nears (`f = 1 − dHeading/limit`, never below a floor of 0.05 so
//! the limit is actually reached), which rounds the corners instead of overshooting them.
//!
//! The book fires the *port* thruster to turn right (L1358); here "right" is the body frame's
//! local `+x`, so a port instruction steers positive.

use glam::Vec2;

use super::body::{Control, Vehicle, normalize_book};

/// One instruction (`ControlData`, Ex. 3-13).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PatternStep {
    /// Port (left) thruster on: turns toward local `+x`.
    pub port: bool,
    /// Starboard (right) thruster on: turns toward local `−x`.
    pub starboard: bool,
    /// Heading change that ends the instruction, degrees.
    pub heading_limit: f32,
    /// Displacement that ends the instruction, world units.
    pub position_limit: f32,
    /// Whether the heading limit is checked.
    pub limit_heading: bool,
    /// Whether the position limit is checked.
    pub limit_position: bool,
}

impl PatternStep {
    /// Fly straight for `distance`.
    pub const fn forward(distance: f32) -> Self {
        PatternStep {
            port: false,
            starboard: false,
            heading_limit: 0.0,
            position_limit: distance,
            limit_heading: false,
            limit_position: true,
        }
    }

    /// Turn by `degrees`, with the port thruster (toward `+x`) or the starboard one.
    pub const fn turn(port: bool, degrees: f32) -> Self {
        PatternStep {
            port,
            starboard: !port,
            heading_limit: degrees,
            position_limit: 0.0,
            limit_heading: true,
            limit_position: false,
        }
    }
}

/// `PatrolPattern` (Ex. 3-16): four times forward 200, then a 90° port turn — a square.
pub const PATROL_PATTERN: [PatternStep; 8] = [
    PatternStep::forward(200.0),
    PatternStep::turn(true, 90.0),
    PatternStep::forward(200.0),
    PatternStep::turn(true, 90.0),
    PatternStep::forward(200.0),
    PatternStep::turn(true, 90.0),
    PatternStep::forward(200.0),
    PatternStep::turn(true, 90.0),
];

/// `ZigZagPattern` (Ex. 3-17): forward 100, 60° port, forward 100, 60° starboard.
pub const ZIGZAG_PATTERN: [PatternStep; 4] = [
    PatternStep::forward(100.0),
    PatternStep::turn(true, 60.0),
    PatternStep::forward(100.0),
    PatternStep::turn(false, 60.0),
];

/// The book's minimum steering fraction during a tapered turn (L1507; a calibration of its model).
pub const MIN_STEER_FRACTION: f32 = 0.05;

/// Per-vehicle progress through a pattern (`StateChangeData`, Ex. 3-14). The book keeps one global;
/// here every vehicle owns one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PatternTracker {
    /// Direction of travel when the current instruction started.
    pub initial_heading: Vec2,
    /// Position when the current instruction started.
    pub initial_position: Vec2,
    /// Heading change so far, degrees (unsigned, so at most 180).
    pub heading_change: f32,
    /// Straight-line displacement so far.
    pub position_change: f32,
    /// Index of the current instruction.
    pub current: usize,
    /// Taper floor; [`MIN_STEER_FRACTION`] by default.
    pub min_fraction: f32,
}

impl PatternTracker {
    /// Tracking from `vehicle`'s state, at instruction 0 (`InitializePatternTracking`). The heading
    /// is taken from the nose rather than the book's velocity, so a stopped vehicle does not read
    /// as already turned 90° (digest §4.4 pitfalls).
    pub fn new(vehicle: &Vehicle) -> Self {
        PatternTracker {
            initial_heading: vehicle.heading,
            initial_position: vehicle.position,
            heading_change: 0.0,
            position_change: 0.0,
            current: 0,
            min_fraction: MIN_STEER_FRACTION,
        }
    }

    fn restart_instruction(&mut self, vehicle: &Vehicle) {
        let (current, min_fraction) = (self.current, self.min_fraction);
        *self = PatternTracker { current, min_fraction, ..PatternTracker::new(vehicle) };
    }

    /// The steering fraction of `step` at the current heading change (L1477–1484).
    pub fn steer_fraction(&self, step: &PatternStep) -> f32 {
        if !step.limit_heading || step.heading_limit <= 0.0 {
            return 1.0;
        }
        (1.0 - self.heading_change / step.heading_limit).max(self.min_fraction)
    }

    /// `DoPattern` (Ex. 3-20): advances past a finished instruction, measures progress, and
    /// returns the lateral steer for this tick, or `None` once the pattern is complete. Call it
    /// before moving the vehicle.
    pub fn step(&mut self, pattern: &[PatternStep], vehicle: &Vehicle) -> Option<f32> {
        let step = pattern.get(self.current)?;
        let done = (step.limit_position && self.position_change >= step.position_limit)
            || (step.limit_heading && self.heading_change >= step.heading_limit);
        if done {
            self.current += 1;
            self.restart_instruction(vehicle);
        }
        let step = pattern.get(self.current)?;
        let u = normalize_book(vehicle.heading);
        let cos = self.initial_heading.dot(u).clamp(-1.0, 1.0);
        self.heading_change = cos.acos().to_degrees().abs();
        self.position_change = (vehicle.position - self.initial_position).length();
        let f = self.steer_fraction(step);
        let steer = match (step.port, step.starboard) {
            (true, false) => f,
            (false, true) => -f,
            _ => 0.0,
        };
        Some(steer)
    }
}

/// A vehicle flying a pattern over and over (the book's `UpdateSimulation` loop, Ex. 3-19).
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicsPattern {
    /// The instructions.
    pub steps: Vec<PatternStep>,
    /// Progress.
    pub tracker: PatternTracker,
    /// How many times the pattern has completed.
    pub laps: u32,
}

impl PhysicsPattern {
    /// Starts `steps` from `vehicle`'s current state.
    pub fn new(steps: &[PatternStep], vehicle: &Vehicle) -> Self {
        PhysicsPattern { steps: steps.to_vec(), tracker: PatternTracker::new(vehicle), laps: 0 }
    }

    /// This tick's control (full forward thrust, the pattern's steer), restarting when complete.
    pub fn control(&mut self, vehicle: &Vehicle) -> Control {
        if let Some(steer) = self.tracker.step(&self.steps, vehicle) {
            return Control::steer(steer);
        }
        self.laps += 1;
        let min_fraction = self.tracker.min_fraction;
        self.tracker = PatternTracker { min_fraction, ..PatternTracker::new(vehicle) };
        Control::steer(self.tracker.step(&self.steps, vehicle).unwrap_or(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::super::body::VehicleLimits;
    use super::*;

    #[test]
    fn pattern_tables_of_ex_3_16_and_3_17() {
        // Rows: (limitPosition, limitHeading, dHeadingLimit, dPositionLimit, port, starboard).
        let row = |s: &PatternStep| {
            (s.limit_position, s.limit_heading, s.heading_limit, s.position_limit, s.port, s.starboard)
        };
        for (i, s) in PATROL_PATTERN.iter().enumerate() {
            let want = if i % 2 == 0 {
                (true, false, 0.0, 200.0, false, false)
            } else {
                (false, true, 90.0, 0.0, true, false)
            };
            assert_eq!(row(s), want, "patrol {i}");
        }
        let zigzag: Vec<_> = ZIGZAG_PATTERN.iter().map(row).collect();
        assert_eq!(
            zigzag,
            vec![
                (true, false, 0.0, 100.0, false, false),
                (false, true, 60.0, 0.0, true, false),
                (true, false, 0.0, 100.0, false, false),
                (false, true, 60.0, 0.0, false, true),
            ]
        );
    }

    #[test]
    fn tapered_steering_fractions() {
        let v = Vehicle::new(Vec2::ZERO, Vec2::Y, 1.0, 1.0);
        let mut t = PatternTracker::new(&v);
        let turn = PatternStep::turn(true, 90.0);
        for (dh, want) in [(0.0, 1.0), (45.0, 0.5), (85.5, 0.05), (87.0, 0.05)] {
            t.heading_change = dh;
            assert!((t.steer_fraction(&turn) - want).abs() < 1e-6, "{dh}° → {}", t.steer_fraction(&turn));
        }
        assert_eq!(t.steer_fraction(&PatternStep::forward(10.0)), 1.0);
    }

    #[test]
    fn instructions_advance_on_their_limits_and_the_pattern_ends() {
        let mut v = Vehicle::new(Vec2::ZERO, Vec2::Y, 1.0, 1.0);
        let mut t = PatternTracker::new(&v);
        assert_eq!(t.step(&ZIGZAG_PATTERN, &v), Some(0.0));
        v.position = Vec2::new(0.0, 100.0);
        assert_eq!(t.step(&ZIGZAG_PATTERN, &v), Some(0.0), "measures 100 now");
        assert_eq!(t.step(&ZIGZAG_PATTERN, &v), Some(1.0), "advanced to the port turn, full force");
        assert_eq!(t.current, 1);
        v.heading = Vec2::from_angle(-30f32.to_radians()).rotate(Vec2::Y);
        assert!((t.step(&ZIGZAG_PATTERN, &v).unwrap() - 0.5).abs() < 1e-4, "30° of 60°: half force");
        v.heading = Vec2::from_angle(-60.5f32.to_radians()).rotate(Vec2::Y);
        t.step(&ZIGZAG_PATTERN, &v);
        assert_eq!(t.step(&ZIGZAG_PATTERN, &v), Some(0.0), "turn done: forward again");
        t.current = 3;
        t.heading_change = 61.0;
        assert_eq!(t.step(&ZIGZAG_PATTERN, &v), None, "past the last instruction");
    }

    #[test]
    fn patrol_flies_a_closed_square_and_loops() {
        let limits = VehicleLimits { max_speed: 40.0, max_turn_rate: 6.0, acceleration: 100.0 };
        let mut v = Vehicle::new(Vec2::ZERO, Vec2::Y, 40.0, 4.0);
        let mut p = PhysicsPattern::new(&PATROL_PATTERN, &v);
        let (mut min, mut max) = (Vec2::ZERO, Vec2::ZERO);
        let mut first_lap_end = None;
        for tick in 0..6000 {
            let c = p.control(&v);
            if p.laps == 1 && first_lap_end.is_none() {
                first_lap_end = Some((tick, v.position));
            }
            v.step(c, &limits, 0.01);
            min = min.min(v.position);
            max = max.max(v.position);
        }
        let (_, end) = first_lap_end.expect("the pattern completed a lap");
        assert!(p.laps >= 2, "it loops");
        // Four 200-unit legs joined by rounded 90° turns toward +x (clockwise): a square whose
        // side is a leg plus the reach of the tapered turns (about 57 here), closing on itself.
        let size = max - min;
        assert!(size.x > 200.0 && size.x < 280.0 && (size.x - size.y).abs() < 5.0, "{size}");
        assert!(end.length() < 30.0, "back near the start after one lap: {end}");
        assert!(min.x > -5.0, "the turns go toward +x: {min}");
    }
}
