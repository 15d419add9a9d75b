//! Formations and the group captain (001_003 §2.9, Overlord's triangle).
//!
//! A [`Formation`] is a list of slots. Each slot is an offset from a *reference* — the captain or
//! an earlier slot — expressed in the captain's body frame (`x` to its right, `y` ahead), so
//! "member 1 behind-left of C, member 3 behind-left of member 1" is written as it is said. Slot
//! positions are resolved from the reference's slot position, not from where the reference member
//! happens to be, which keeps the shape rigid instead of letting errors accumulate down a chain.
//!
//! A [`Squad`] puts members into those slots: the captain follows a path (one path query for the
//! whole group, L442–L444), every member steers for its slot, and when a member dies the others
//! move up so the shape stays filled; a dead captain is replaced by the member nearest the goal.

use glam::Vec2;

use super::body::{Control, Frame, Vehicle};

/// What a slot's offset is measured from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotRef {
    /// The captain.
    Captain,
    /// An earlier slot (by index).
    Slot(usize),
}

/// One place in a formation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Slot {
    /// What the offset is measured from.
    pub reference: SlotRef,
    /// Offset in the captain's frame: `x` to the right, `y` ahead (negative is behind).
    pub offset: Vec2,
}

/// A formation shape: slots for the members other than the captain.
#[derive(Debug, Clone, PartialEq)]
pub struct Formation {
    slots: Vec<Slot>,
}

impl Formation {
    /// A formation from explicit slots. A slot referring to itself or a later slot is treated as
    /// referring to the captain, so resolving never loops.
    pub fn new(slots: Vec<Slot>) -> Self {
        let slots = slots
            .into_iter()
            .enumerate()
            .map(|(i, s)| match s.reference {
                SlotRef::Slot(r) if r >= i => Slot { reference: SlotRef::Captain, ..s },
                _ => s,
            })
            .collect();
        Formation { slots }
    }

    /// Line abreast: members alternate right and left of the captain, `spacing` apart.
    pub fn line(members: usize, spacing: f32) -> Self {
        Formation::new(
            (0..members)
                .map(|i| {
                    let side = if i % 2 == 0 { 1.0 } else { -1.0 };
                    let reference = if i < 2 { SlotRef::Captain } else { SlotRef::Slot(i - 2) };
                    Slot { reference, offset: Vec2::new(side * spacing, 0.0) }
                })
                .collect(),
        )
    }

    /// Overlord's pyramid: a filled triangle behind the captain. Row `r` (the captain is row 0)
    /// holds `r + 1` units `spacing` apart; each member stands behind-left of the one ahead of it
    /// in the previous row, and the last of a row behind-right of the previous row's last — so
    /// member 1 is behind-left of the captain and member 3 behind-left of member 1 (L456).
    pub fn pyramid(members: usize, spacing: f32) -> Self {
        let mut slots = Vec::with_capacity(members);
        // `row_start[r]` is the slot index of row r's first member; the captain is "row 0".
        let mut row_start = vec![usize::MAX];
        let mut r = 1;
        while slots.len() < members {
            row_start.push(slots.len());
            for j in 0..=r {
                if slots.len() == members {
                    break;
                }
                let ahead = |k: usize| if r == 1 { SlotRef::Captain } else { SlotRef::Slot(row_start[r - 1] + k) };
                let slot = if j < r {
                    Slot { reference: ahead(j), offset: Vec2::new(-spacing, -spacing) }
                } else {
                    Slot { reference: ahead(j - 1), offset: Vec2::new(spacing, -spacing) }
                };
                slots.push(slot);
            }
            r += 1;
        }
        Formation::new(slots)
    }

    /// The slots.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no slots.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Every slot's offset from the captain in the captain's frame.
    pub fn local_positions(&self) -> Vec<Vec2> {
        let mut out: Vec<Vec2> = Vec::with_capacity(self.slots.len());
        for s in &self.slots {
            let base = match s.reference {
                SlotRef::Captain => Vec2::ZERO,
                SlotRef::Slot(r) => out[r],
            };
            out.push(base + s.offset);
        }
        out
    }

    /// The largest distance of a slot from the captain.
    pub fn radius(&self) -> f32 {
        self.local_positions().iter().map(|p| p.length()).fold(0.0, f32::max)
    }

    /// The fastest the captain may turn (radians/s) so that no slot moves faster than
    /// `member_speed` while the captain goes at `captain_speed`: the outermost slot sweeps at
    /// `captain_speed + ω · radius`.
    pub fn max_turn_rate(&self, captain_speed: f32, member_speed: f32) -> f32 {
        let spare = (member_speed - captain_speed).max(0.0);
        let r = self.radius();
        if r > 0.0 { spare / r } else { f32::INFINITY }
    }

    /// Every slot's world position for a captain at `position` heading along `heading`, written
    /// into `out`.
    pub fn world_positions(&self, position: Vec2, heading: Vec2, out: &mut Vec<Vec2>) {
        let frame = Frame::from_forward(heading);
        out.clear();
        out.extend(self.local_positions().into_iter().map(|l| position + frame.to_global(l)));
    }
}

/// Steering for a member toward its slot: aim half a second ahead of the slot along its motion,
/// turn in proportion to the heading error, and set the throttle so the member closes the gap
/// along its nose (up to full speed) and matches the slot's speed once there. `slot_velocity` is
/// how fast the slot itself moves — the captain's velocity on a straight leg, faster on the
/// outside of a turn ([`SlotTracker`] measures it).
pub fn follow_slot(member: &Vehicle, slot: Vec2, slot_velocity: Vec2, max_speed: f32) -> Control {
    let aim = slot + slot_velocity * 0.5;
    let frame = member.frame();
    let local = frame.to_local(aim - member.position);
    // A slot behind the member is reached by slowing down, not by turning round: only the lateral
    // part of the error steers then.
    let angle = local.x.atan2(local.y.abs() + 0.5);
    let steer = (angle / std::f32::consts::FRAC_PI_4).clamp(-1.0, 1.0);
    let gap = frame.to_local(slot - member.position).y;
    let speed = slot_velocity.length() + 1.5 * gap;
    Control { steer, throttle: (speed / max_speed.max(f32::MIN_POSITIVE)).clamp(0.0, 1.0) }
}

/// Slot positions of a formation tick by tick, with the velocity each slot moved at.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SlotTracker {
    /// This tick's slot positions.
    pub positions: Vec<Vec2>,
    /// Each slot's velocity since the last update (zero on the first update or after the slot
    /// count changed, e.g. on re-forming).
    pub velocities: Vec<Vec2>,
    previous: Vec<Vec2>,
}

impl SlotTracker {
    /// Recomputes the slots for the captain's pose; `dt` is the time since the last update.
    pub fn update(&mut self, formation: &Formation, captain: &Vehicle, dt: f32) {
        std::mem::swap(&mut self.previous, &mut self.positions);
        formation.world_positions(captain.position, captain.heading, &mut self.positions);
        self.velocities.clear();
        if self.previous.len() == self.positions.len() && dt > 0.0 {
            self.velocities.extend(self.positions.iter().zip(&self.previous).map(|(p, q)| (*p - *q) / dt));
        } else {
            self.velocities.resize(self.positions.len(), captain.velocity);
        }
    }
}

/// A captain following waypoints: steer for the current one and move on when within `radius`.
#[derive(Debug, Clone, PartialEq)]
pub struct PathFollower {
    /// The waypoints.
    pub waypoints: Vec<Vec2>,
    /// The current waypoint.
    pub index: usize,
    /// How close counts as reached.
    pub radius: f32,
}

impl PathFollower {
    /// Follow `waypoints` from the first.
    pub fn new(waypoints: Vec<Vec2>, radius: f32) -> Self {
        PathFollower { waypoints, index: 0, radius }
    }

    /// Whether the last waypoint has been reached.
    pub fn finished(&self) -> bool {
        self.index >= self.waypoints.len()
    }

    /// This tick's control at `throttle`, steering at most `max_steer` (a fraction of full
    /// force — a captain leading a formation turns gently, see [`Formation::max_turn_rate`]);
    /// stops (zero throttle) after the last waypoint.
    pub fn control(&mut self, vehicle: &Vehicle, throttle: f32, max_steer: f32) -> Control {
        let max_steer = max_steer.clamp(0.0, 1.0);
        while let Some(&w) = self.waypoints.get(self.index) {
            if vehicle.position.distance(w) > self.radius {
                let local = vehicle.frame().to_local(w - vehicle.position);
                let steer = (local.x.atan2(local.y) / std::f32::consts::FRAC_PI_4).clamp(-max_steer, max_steer);
                return Control { steer, throttle };
            }
            self.index += 1;
        }
        Control { steer: 0.0, throttle: 0.0 }
    }
}

/// A group under a captain: who leads, who stands in which slot.
#[derive(Debug, Clone, PartialEq)]
pub struct Squad<Id> {
    /// The captain.
    pub captain: Id,
    /// Members in slot order: `members[k]` stands in slot `k`.
    pub members: Vec<Id>,
    /// The shape.
    pub formation: Formation,
}

impl<Id: Copy + PartialEq> Squad<Id> {
    /// A squad of `units` going to `goal`: the unit nearest the goal becomes captain (L444; ties
    /// go to the earlier unit), the rest fill the slots in the order given. `None` for no units.
    pub fn form(units: &[(Id, Vec2)], goal: Vec2, formation: impl Fn(usize) -> Formation) -> Option<Self> {
        let (ci, _) = units
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.1.distance_squared(goal).total_cmp(&b.1.1.distance_squared(goal)))?;
        let members: Vec<Id> = units.iter().enumerate().filter(|&(i, _)| i != ci).map(|(_, u)| u.0).collect();
        Some(Squad { captain: units[ci].0, formation: formation(members.len()), members })
    }

    /// The slot a member stands in.
    pub fn slot_of(&self, id: Id) -> Option<usize> {
        self.members.iter().position(|&m| m == id)
    }

    /// Re-forms after `id` died: the members behind it move up one slot each, so the shape stays
    /// filled from the front. If the captain died, the member nearest `goal` (positions from
    /// `position_of`) takes command and leaves its slot. Returns `false` if `id` was not in the
    /// squad, and when the last unit died (the squad is then empty of members and keeps the dead
    /// captain's id; the caller drops it).
    pub fn remove(&mut self, id: Id, goal: Vec2, position_of: impl Fn(Id) -> Option<Vec2>) -> bool {
        if let Some(k) = self.slot_of(id) {
            self.members.remove(k);
            return true;
        }
        if self.captain != id {
            return false;
        }
        let best = self
            .members
            .iter()
            .enumerate()
            .filter_map(|(k, &m)| position_of(m).map(|p| (k, p.distance_squared(goal))))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match best {
            Some((k, _)) => {
                self.captain = self.members.remove(k);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::body::VehicleLimits;
    use super::*;

    #[test]
    fn pyramid_and_line_offsets() {
        let p = Formation::pyramid(5, 2.0);
        let want = [(-2.0, -2.0), (2.0, -2.0), (-4.0, -4.0), (0.0, -4.0), (4.0, -4.0)];
        assert_eq!(p.local_positions(), want.map(|(x, y)| Vec2::new(x, y)));
        assert_eq!(p.slots()[2].reference, SlotRef::Slot(0), "member 3 is oriented on member 1");
        assert_eq!(p.slots()[0].reference, SlotRef::Captain);
        let l = Formation::line(4, 3.0);
        assert_eq!(
            l.local_positions(),
            [(3.0, 0.0), (-3.0, 0.0), (6.0, 0.0), (-6.0, 0.0)].map(|(x, y)| Vec2::new(x, y))
        );
        // A captain heading +x: "behind" is −x and "right" is −y.
        let mut out = Vec::new();
        p.world_positions(Vec2::new(10.0, 10.0), Vec2::X, &mut out);
        assert!((out[0] - Vec2::new(8.0, 12.0)).length() < 1e-6, "{}", out[0]);
        let looped = Formation::new(vec![Slot { reference: SlotRef::Slot(0), offset: Vec2::X }]);
        assert_eq!(looped.local_positions(), vec![Vec2::X], "a self-reference falls back to the captain");
    }

    #[test]
    fn squad_forms_around_the_unit_nearest_the_goal_and_reforms() {
        let units =
            [(10u32, Vec2::new(0.0, 0.0)), (11, Vec2::new(5.0, 5.0)), (12, Vec2::new(1.0, 1.0)), (13, Vec2::ZERO)];
        let goal = Vec2::new(10.0, 10.0);
        let mut squad = Squad::form(&units, goal, |n| Formation::pyramid(n, 2.0)).unwrap();
        assert_eq!((squad.captain, squad.members.clone()), (11, vec![10, 12, 13]));
        assert!(squad.remove(10, goal, |_| None));
        assert_eq!(squad.members, vec![12, 13], "the others move up");
        let pos = |id: u32| units.iter().find(|u| u.0 == id).map(|u| u.1);
        assert!(squad.remove(11, goal, pos));
        assert_eq!((squad.captain, squad.members.clone()), (12, vec![13]), "nearest the goal takes command");
        assert!(!squad.remove(99, goal, pos));
        assert_eq!(Squad::<u32>::form(&[], goal, |n| Formation::line(n, 1.0)), None);
    }

    /// Runs a pyramid squad along an L-shaped path; returns the largest slot error after forming
    /// (ticks ≥ `settle`) and how far the captain got.
    fn run_corner(kill_at: Option<usize>) -> (f32, f32, usize) {
        let (spacing, dt) = (3.0, 0.05);
        let limits = VehicleLimits { max_speed: 8.0, max_turn_rate: 2.5, acceleration: 16.0 };
        let mut captain = Vehicle::new(Vec2::ZERO, Vec2::Y, 4.0, 1.0);
        let formation = Formation::pyramid(5, spacing);
        let mut slots = SlotTracker::default();
        slots.update(&formation, &captain, dt);
        let mut members: Vec<Vehicle> = slots.positions.iter().map(|&s| Vehicle::new(s, Vec2::Y, 4.0, 1.0)).collect();
        let ids: Vec<usize> = (0..members.len()).collect();
        let mut squad = Squad { captain: usize::MAX, members: ids, formation };
        // The captain cuts the corner: it turns no faster than the formation allows, so it starts
        // the turn ten units early.
        let mut path = PathFollower::new(vec![Vec2::new(0.0, 80.0), Vec2::new(80.0, 80.0)], 10.0);
        let max_steer = squad.formation.max_turn_rate(4.0, limits.max_speed * 0.9) / limits.max_turn_rate;
        let (mut worst, settle) = (0.0f32, 60);
        let mut alive = vec![true; members.len()];
        for tick in 0..900 {
            if Some(tick) == kill_at {
                alive[squad.members[0]] = false;
                squad.remove(squad.members[0], Vec2::ZERO, |_| None);
            }
            let c = path.control(&captain, 0.5, max_steer);
            slots.update(&squad.formation, &captain, dt);
            for (k, &m) in squad.members.iter().enumerate() {
                let ctl = follow_slot(&members[m], slots.positions[k], slots.velocities[k], limits.max_speed);
                if tick >= settle && kill_at.is_none_or(|t| tick >= t + settle) {
                    worst = worst.max(members[m].position.distance(slots.positions[k]));
                }
                members[m].step(ctl, &limits, dt);
            }
            captain.step(c, &limits, dt);
        }
        assert!(path.finished(), "the captain went round the corner to the end");
        (worst, captain.position.distance(Vec2::new(80.0, 80.0)), alive.iter().filter(|&&a| a).count())
    }

    #[test]
    fn a_pyramid_keeps_its_shape_around_a_corner() {
        let (worst, end, _) = run_corner(None);
        // Tolerance: once formed (3 s), every member stays within a third of the spacing (1 unit)
        // of its slot, through the 90° corner included (measured: 0.77).
        assert!(worst < 1.0, "worst slot error {worst}");
        assert!(end < 10.5, "stopped at the last waypoint: {end}");
    }

    #[test]
    fn the_squad_reforms_when_a_member_dies() {
        let (worst, _, alive) = run_corner(Some(100));
        assert_eq!(alive, 4);
        // Slot 0 emptied at tick 100; 3 s later everyone has moved up and holds within 1 unit.
        assert!(worst < 1.0, "re-formed within 3 s and kept the shape: worst {worst}");
    }
}
