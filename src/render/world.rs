//! A picture of a live world: the map, every entity as an arrow in its team's colour, the rest of
//! each entity's path, and what steering is doing — a formation's route and slots, and a line from
//! each chaser, evader or interceptor to its target.

use glam::Vec2;
use image::RgbImage;
use tactica_engine::coord::Action;
use tactica_engine::steer::Behaviour;
use tactica_engine::world::World;

use super::{Arrow, Polyline, Ring, Scene, Style, draw};

/// Team colours, handed out in team-name order so the same scenario always gets the same colours.
const PALETTE: [[u8; 3]; 6] =
    [[214, 39, 40], [31, 119, 180], [44, 160, 44], [255, 127, 14], [148, 103, 189], [23, 190, 207]];

/// Colour words a team may be named by, drawn in that colour.
const NAMED: [(&str, [u8; 3]); 8] = [
    ("red", [214, 39, 40]),
    ("blue", [31, 119, 180]),
    ("green", [44, 160, 44]),
    ("orange", [255, 127, 14]),
    ("purple", [148, 103, 189]),
    ("cyan", [23, 190, 207]),
    ("yellow", [220, 190, 20]),
    ("black", [30, 30, 30]),
];

/// The colour `team` is drawn in: its own when it is named by a colour word (`blue` is blue),
/// else one of the palette, handed out in team-name order.
pub fn team_colour(world: &World, team: &str) -> [u8; 3] {
    if let Some((_, c)) = NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(team)) {
        return *c;
    }
    let mut teams: Vec<&str> = world.entities().map(|(_, e)| e.team.as_str()).collect();
    teams.sort_unstable();
    teams.dedup();
    PALETTE[teams.binary_search(&team).unwrap_or(0) % PALETTE.len()]
}

/// Draws the world as it stands.
pub fn draw_world(world: &World, style: &Style) -> RgbImage {
    let color = |team: &str| team_colour(world, team);
    let mut agents = Vec::new();
    let mut paths = Vec::new();
    for (_, e) in world.entities() {
        let heading =
            if e.velocity.length_squared() > 0.0 { e.velocity.normalize() } else { Vec2::from_angle(e.heading) };
        agents.push(Arrow { position: e.position, heading, color: color(&e.team) });
        let rest: Vec<Vec2> = match e.actions.front() {
            Some(Action::FollowPath { points, next }) => points.get(*next..).unwrap_or(&[]).to_vec(),
            Some(Action::MoveTo { target }) => vec![*target],
            _ => Vec::new(),
        };
        if !rest.is_empty() {
            let mut points = vec![e.position];
            points.extend(rest);
            paths.push(Polyline { points, color: color(&e.team) });
        }
    }
    let rings = steering_overlay(world, &color, &mut paths);
    draw(&Scene { map: world.map(), agents: &agents, paths: &paths, rings: &rings, ..Scene::empty(world.map()) }, style)
}

/// A formation's captain-to-route line and a ring per slot; a pursuit line from every chaser,
/// evader and interceptor to its target.
fn steering_overlay(world: &World, color: &impl Fn(&str) -> [u8; 3], paths: &mut Vec<Polyline>) -> Vec<Ring> {
    let steering = world.steering();
    let mut rings = Vec::new();
    for group in steering.formations().values() {
        let Some(captain) = group.captain.and_then(|c| world.entity(c)) else { continue };
        let c = color(&captain.team);
        if !group.remaining_path().is_empty() {
            let mut points = vec![captain.position];
            points.extend_from_slice(group.remaining_path());
            paths.push(Polyline { points, color: c });
        }
        rings.extend(group.slot_positions().iter().map(|&center| Ring { center, radius: 0.35, color: c }));
    }
    for (id, e) in world.entities() {
        let target = match steering.behaviour(id) {
            Some(Behaviour::Chase(t) | Behaviour::Evade(t) | Behaviour::Intercept(t)) => *t,
            _ => continue,
        };
        if let Some(t) = world.entity(target) {
            paths.push(Polyline { points: vec![e.position, t.position], color: color(&e.team) });
        }
    }
    rings
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::IVec2;
    use tactica_engine::grid::Map;
    use tactica_engine::world::Entity;

    #[test]
    fn entities_are_drawn_in_their_team_colour() {
        let mut w = World::new(Map::open(6, 4), 10, 0);
        let mut a = Entity::new("a", "x", IVec2::new(1, 1));
        a.team = "blue".into();
        w.spawn(a).unwrap();
        let mut b = Entity::new("b", "x", IVec2::new(4, 2));
        b.team = "red".into();
        w.spawn(b).unwrap();
        let style = Style::default();
        let img = draw_world(&w, &style);
        let px = style.cell_px;
        // The arrow starts at the cell centre: the centre pixel carries the team colour.
        assert_eq!(img.get_pixel(px + px / 2, px + px / 2).0, [31, 119, 180], "a team named blue is blue");
        assert_eq!(img.get_pixel(4 * px + px / 2, 2 * px + px / 2).0, [214, 39, 40], "and red is red");
        // Teams not named by a colour take the palette in name order.
        assert_eq!(team_colour(&w, "wolves"), PALETTE[0]);
        assert_eq!(img.get_pixel(0, 0).0, style.floor);
    }
}
