//! How often flocks split round obstacles, with and without the flock waiting for its
//! stragglers: the measurement behind `FlockParams::regroup_wait`'s default.
//!
//! ```text
//! cargo run --release --example flock_connectivity
//! ```
//!
//! The flocks are those of the ring test in the engine's `steer::flock_sim` (sizes 18 to 50,
//! spacings 1.7 to 2.7, chasing a quarry round a ring of eight pillars for 1,000 ticks), each
//! started from its grid and from five tiny perturbations of it, because a flock is chaotic and
//! one trajectory proves little. A flock is split on a tick when its units are not linked within
//! 10 lengths. About 15 seconds in all.

use glam::Vec2;
use tactica_engine::steer::{Circle, Flock, FlockParams, Quarry, UnitType, Vehicle, VehicleLimits, connected};

/// Ticks on which a flock of `n` at `spacing`, its start moved by `perturb`, was split.
fn split_ticks(n: usize, spacing: f32, perturb: f32, params: FlockParams) -> usize {
    let side = (n as f32).sqrt().ceil() as usize;
    let units = (0..n)
        .map(|i| {
            let grid = Vec2::new((i % side) as f32, (i / side) as f32) * spacing;
            // A fixed pattern of small offsets, different for every unit.
            let nudge = Vec2::new(((i * 7919) % 13) as f32 - 6.0, ((i * 104_729) % 11) as f32 - 5.0);
            Vehicle::new(grid + nudge * perturb, Vec2::Y, 5.0, 1.0)
        })
        .collect();
    let limits = VehicleLimits { max_speed: 6.0, max_turn_rate: 3.0, acceleration: 10.0 };
    let mut flock = Flock::new(units, vec![UnitType { limits, interceptor: false }], params);
    let pillars = (0..8).map(|k| {
        let a = k as f32 * std::f32::consts::TAU / 8.0 + 0.3;
        Circle { center: Vec2::new(a.cos(), a.sin()) * 45.0, radius: 2.5 }
    });
    flock.set_obstacles(pillars.collect());
    let dt = 0.05;
    let mut split = 0;
    for tick in 0..1000 {
        let a = tick as f32 * dt * 0.12;
        let (position, velocity) = (Vec2::new(a.cos(), a.sin()) * 45.0, Vec2::new(-a.sin(), a.cos()) * 5.4);
        flock.tick(dt, Some(Quarry { position, velocity }));
        let points: Vec<Vec2> = flock.units.iter().map(|u| u.position).collect();
        split += usize::from(!connected(&points, 10.0));
    }
    split
}

fn main() {
    let perturbations = [0.0, 2e-5, 3e-4, 5e-3, 2e-2, 7e-2];
    println!("regroup 3, link 5 lengths; 54 flocks a row; split: not linked within 10 lengths");
    for wait in [1.0f32, 0.7, 0.5] {
        let (mut flocks, mut never, mut ticks) = (0, 0, 0);
        for perturb in perturbations {
            let (mut row_never, mut row_ticks) = (0, 0);
            for n in (18..=50).step_by(4) {
                for spacing in [1.7f32, 1.9, 2.1, 2.3, 2.5, 2.7] {
                    let params =
                        FlockParams { leader_force: 1.0, regroup: 3.0, regroup_wait: wait, ..FlockParams::default() };
                    let split = split_ticks(n, spacing, perturb, params);
                    row_never += usize::from(split == 0);
                    row_ticks += split;
                }
            }
            println!(
                "wait {wait}, start moved by {perturb:e}: {row_never}/54 never split, {row_ticks} split flock-ticks"
            );
            (flocks, never, ticks) = (flocks + 54, never + row_never, ticks + row_ticks);
        }
        println!("wait {wait}: {never}/{flocks} never split, {ticks} split flock-ticks in all\n");
    }
}
