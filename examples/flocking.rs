//! A flock, a chase and a formation, run headless and drawn as PNG frames.
//!
//! ```text
//! cargo run --release --example flocking -- OUT_DIR [TICKS]
//! ```
//!
//! - **Flock** (blue, leaders red): 40 units with wide view, obstacle feelers and leader election
//!   chase a quarry (green) that circles through a field of obstacles (grey rings).
//! - **Chase**: an interceptor (magenta) and a line-of-sight chaser (purple) go after a prey
//!   (dark green) flying straight across; the interceptor's predicted point is drawn as a ring.
//! - **Formation**: a captain (orange) follows an L-shaped path (brown); five members hold a
//!   pyramid behind it.
//!
//! The scenario format cannot describe steering behaviours yet, so this program builds the scene
//! itself from the engine's `steer` module and the root crate's `render` module.

use std::process::ExitCode;

use anyhow::Context;
use glam::Vec2;
use tactica::render::{Arrow, FrameWriter, Polyline, Ring, Scene, Style, draw};
use tactica_engine::grid::Map;
use tactica_engine::steer::{
    Circle, Control, Flock, FlockParams, Formation, InterceptAim, PathFollower, Pursuit, Quarry, SlotTracker, UnitType,
    Vehicle, VehicleLimits, follow_slot, intercept_steer, los_steer,
};

const DT: f32 = 0.05;
const FRAME_EVERY: usize = 5;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let out = args.next().context("usage: flocking OUT_DIR [TICKS]")?;
    let ticks: usize = args.next().map(|t| t.parse()).transpose().context("TICKS must be a number")?.unwrap_or(400);
    let mut frames = FrameWriter::new(&out)?;

    let map = Map::open(160, 100);
    // The flock: a 5 × 8 block in the left half, a quarry circling through obstacles.
    let units = (0..40)
        .map(|i| Vehicle::new(Vec2::new(30.0 + (i % 5) as f32 * 2.0, 30.0 + (i / 5) as f32 * 2.0), Vec2::Y, 5.0, 1.0))
        .collect();
    let flock_type = UnitType {
        limits: VehicleLimits { max_speed: 6.0, max_turn_rate: 3.0, acceleration: 10.0 },
        interceptor: false,
    };
    let mut flock = Flock::new(units, vec![flock_type], FlockParams { leader_force: 1.0, ..FlockParams::default() });
    let centre = Vec2::new(45.0, 50.0);
    let obstacles: Vec<Circle> = (0..8)
        .map(|k| {
            let a = k as f32 * std::f32::consts::TAU / 8.0 + 0.3;
            Circle { center: centre + Vec2::new(a.cos(), a.sin()) * 30.0, radius: 2.5 }
        })
        .collect();
    flock.set_obstacles(obstacles.clone());

    // The chase: prey flies straight up-left; two chasers start bottom-left.
    let chase_limits = VehicleLimits { max_speed: 9.0, max_turn_rate: 1.5, acceleration: 20.0 };
    let mut prey = Vehicle::new(Vec2::new(150.0, 95.0), Vec2::new(-0.6, -0.8), 6.0, 1.5);
    let mut interceptor = Vehicle::new(Vec2::new(95.0, 98.0), Vec2::new(0.0, -1.0), 9.0, 1.5);
    let mut los_chaser = Vehicle::new(Vec2::new(92.0, 98.0), Vec2::new(0.0, -1.0), 9.0, 1.5);
    let prey_limits = VehicleLimits { max_speed: 6.0, ..chase_limits };

    // The formation: a pyramid behind a captain on an L path.
    let squad_limits = VehicleLimits { max_speed: 8.0, max_turn_rate: 2.5, acceleration: 16.0 };
    let formation = Formation::pyramid(5, 3.0);
    let waypoints = vec![Vec2::new(100.0, 70.0), Vec2::new(100.0, 15.0), Vec2::new(150.0, 15.0)];
    let mut captain = Vehicle::new(Vec2::new(100.0, 90.0), Vec2::new(0.0, -1.0), 4.0, 1.0);
    let mut path = PathFollower::new(waypoints.clone(), 10.0);
    let max_steer = formation.max_turn_rate(4.0, squad_limits.max_speed * 0.9) / squad_limits.max_turn_rate;
    let mut slots = SlotTracker::default();
    slots.update(&formation, &captain, DT);
    let mut members: Vec<Vehicle> =
        slots.positions.iter().map(|&p| Vehicle::new(p, captain.heading, 4.0, 1.0)).collect();

    let mut trail: Vec<Vec2> = Vec::new();
    for tick in 0..=ticks {
        let a = tick as f32 * DT * 0.15;
        let quarry = Quarry {
            position: centre + Vec2::new(a.cos(), a.sin()) * 30.0,
            velocity: Vec2::new(-a.sin(), a.cos()) * 4.5,
        };
        let (i_steer, aim) = intercept_steer(&interceptor, prey.position, prey.velocity, 0.02);
        let l_steer = los_steer(&los_chaser, prey.position, 0.02, Pursuit::Chase);
        if tick % FRAME_EVERY == 0 {
            let mut agents: Vec<Arrow> = flock
                .units
                .iter()
                .zip(flock.leaders().iter().chain(std::iter::repeat(&false)))
                .map(|(u, &leader)| Arrow {
                    position: u.position,
                    heading: u.heading,
                    color: if leader { [220, 0, 0] } else { [0, 60, 220] },
                })
                .collect();
            agents.push(Arrow { position: quarry.position, heading: quarry.velocity, color: [0, 200, 0] });
            agents.push(Arrow { position: prey.position, heading: prey.heading, color: [0, 110, 0] });
            agents.push(Arrow { position: interceptor.position, heading: interceptor.heading, color: [230, 0, 230] });
            agents.push(Arrow { position: los_chaser.position, heading: los_chaser.heading, color: [110, 0, 160] });
            agents.push(Arrow { position: captain.position, heading: captain.heading, color: [255, 140, 0] });
            agents.extend(members.iter().map(|m| Arrow {
                position: m.position,
                heading: m.heading,
                color: [150, 80, 20],
            }));
            let mut rings: Vec<Ring> =
                obstacles.iter().map(|o| Ring { center: o.center, radius: o.radius, color: [90, 90, 90] }).collect();
            if let InterceptAim::Predicted(hit) = aim {
                rings.push(Ring { center: hit.point, radius: 0.6, color: [230, 0, 230] });
            }
            let mut route = vec![Vec2::new(100.0, 90.0)];
            route.extend_from_slice(&waypoints);
            let paths = [
                Polyline { points: route, color: [150, 100, 60] },
                Polyline { points: trail.clone(), color: [230, 150, 230] },
            ];
            let scene = Scene { map: &map, heat: None, paths: &paths, rings: &rings, agents: &agents };
            frames.write(&draw(&scene, &Style { cell_px: 6, arrow_len: 2.0, ..Style::default() }))?;
        }
        if tick == ticks {
            break;
        }
        flock.tick(DT, Some(quarry));
        trail.push(interceptor.position);
        interceptor.step(Control::steer(i_steer), &chase_limits, DT);
        los_chaser.step(Control::steer(l_steer), &chase_limits, DT);
        prey.step(Control::CRUISE, &prey_limits, DT);
        let c = path.control(&captain, 0.5, max_steer);
        slots.update(&formation, &captain, DT);
        for (k, m) in members.iter_mut().enumerate() {
            let ctl = follow_slot(m, slots.positions[k], slots.velocities[k], squad_limits.max_speed);
            m.step(ctl, &squad_limits, DT);
        }
        captain.step(c, &squad_limits, DT);
    }
    let caught = interceptor.position.distance(prey.position) < 2.0;
    println!(
        "wrote {} frames to {out}; interceptor {} the prey (distance {:.1})",
        frames.count(),
        if caught { "caught" } else { "is chasing" },
        interceptor.position.distance(prey.position)
    );
    Ok(())
}
