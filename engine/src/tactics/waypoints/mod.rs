//! The tactical waypoint database: locations with continuous tactical properties, nearest-first
//! queries, compound tactics and context checks (000 §6.1.1-6.1.2).

mod condense;
mod fuzzy;
mod generate;

use std::collections::BTreeSet;

use glam::IVec2;

pub use condense::{Candidate, condense, condense_by_property};
pub use fuzzy::Fuzzy;
pub use generate::{GenerateParams, compute_properties, dense_grid, evaluate_cell, generate};

use crate::field::Direction;
use crate::grid::{Map, line_of_sight};

/// A primitive tactical quality. Each waypoint stores one value per property in a fixed array, so
/// the index says what a value means (L83).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Property {
    /// Share of simulated attacks blocked by geometry (L178-308).
    Cover = 0,
    /// Darkness: 1 minus the brightest point of a body standing here (L315-320).
    Shadow = 1,
    /// Good for a sniper: cover AND visibility, the chapter's compound (L30, L56).
    Sniping = 2,
    /// How much of the surroundings can see this place (a negative quality: exposed areas, L19).
    Exposure = 3,
    /// How much can be seen from here: average ray length (L309-314).
    Visibility = 4,
}

impl Property {
    /// Every property, in index order.
    pub const ALL: [Property; 5] =
        [Property::Cover, Property::Shadow, Property::Sniping, Property::Exposure, Property::Visibility];

    /// The property's name as scripts write it.
    pub fn name(self) -> &'static str {
        match self {
            Property::Cover => "cover",
            Property::Shadow => "shadow",
            Property::Sniping => "sniping",
            Property::Exposure => "exposure",
            Property::Visibility => "visibility",
        }
    }

    /// The property with this name.
    pub fn from_name(name: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// One value in `[0, 1]` per [`Property`] (1 = the most of it): fuzzy membership degrees (L51-55).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Properties([f32; 5]);

impl Properties {
    /// The value of `p`.
    pub fn get(&self, p: Property) -> f32 {
        self.0[p as usize]
    }

    /// Sets `p`, clamped to `[0, 1]` (NaN becomes 0).
    pub fn set(&mut self, p: Property, value: f32) -> &mut Self {
        self.0[p as usize] = if value.is_nan() { 0.0 } else { value.clamp(0.0, 1.0) };
        self
    }
}

/// Who put a waypoint there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Origin {
    /// A level designer; its values are kept unless regenerated on purpose.
    Placed,
    /// Generation from a dense grid or from observed players.
    Generated,
}

/// A tactical location.
#[derive(Debug, Clone, PartialEq)]
pub struct Waypoint {
    /// Where it is.
    pub cell: IVec2,
    /// Its continuous tactical values.
    pub properties: Properties,
    /// Cover against attacks from each direction (index by [`Direction`]): the "multiple states
    /// per node" form of context sensitivity (L90).
    pub cover_by_direction: [f32; 4],
    /// Free labels (`rally`, `door`, `power-up`, `quick-exit` …).
    pub tags: BTreeSet<String>,
    /// Placed or generated.
    pub origin: Origin,
    /// An enemy has shot at someone here: the position is known, so its sniping value no longer
    /// holds (L93).
    pub compromised: bool,
}

impl Waypoint {
    /// A waypoint at `cell` with all values zero.
    pub fn new(cell: IVec2, origin: Origin) -> Self {
        Waypoint {
            cell,
            properties: Properties::default(),
            cover_by_direction: [0.0; 4],
            tags: BTreeSet::new(),
            origin,
            compromised: false,
        }
    }
}

/// A handle to a waypoint in a [`WaypointDb`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WaypointId(pub u32);

/// The set of tactical locations of a level, kept apart from the pathfinding graph (L23-25).
/// Ids are indices and stay valid (waypoints are only added); iteration is in id order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WaypointDb {
    waypoints: Vec<Waypoint>,
}

impl WaypointDb {
    /// An empty database.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a waypoint.
    pub fn add(&mut self, waypoint: Waypoint) -> WaypointId {
        self.waypoints.push(waypoint);
        WaypointId(self.waypoints.len() as u32 - 1)
    }

    /// A waypoint by id.
    pub fn get(&self, id: WaypointId) -> Option<&Waypoint> {
        self.waypoints.get(id.0 as usize)
    }

    /// A waypoint by id, for changing.
    pub fn get_mut(&mut self, id: WaypointId) -> Option<&mut Waypoint> {
        self.waypoints.get_mut(id.0 as usize)
    }

    /// How many waypoints there are.
    pub fn len(&self) -> usize {
        self.waypoints.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.waypoints.is_empty()
    }

    /// Every waypoint with its id, in id order.
    pub fn iter(&self) -> impl Iterator<Item = (WaypointId, &Waypoint)> {
        self.waypoints.iter().enumerate().map(|(i, w)| (WaypointId(i as u32), w))
    }

    /// Waypoints within `max_distance` of `from` that `accept`, nearest first (ties by id): the
    /// "nearest suitable" search of L115 checks them in this order.
    pub fn nearest(
        &self,
        from: IVec2,
        max_distance: f32,
        accept: impl Fn(&Waypoint) -> bool,
    ) -> Vec<(WaypointId, f32)> {
        let mut out: Vec<(WaypointId, f32)> = self
            .iter()
            .map(|(id, w)| (id, (w.cell - from).as_vec2().length()))
            .filter(|&(id, d)| d <= max_distance && self.get(id).is_some_and(&accept))
            .collect();
        out.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        out
    }

    /// The waypoint that best balances quality against distance (L115: do not cross the map for
    /// the globally best node): the largest `quality(w) − distance_weight × distance` among those
    /// within `max_distance` whose quality is above zero. Ties go to the nearer, then the lower id.
    pub fn best(
        &self,
        from: IVec2,
        max_distance: f32,
        distance_weight: f32,
        quality: impl Fn(&Waypoint) -> f32,
    ) -> Option<WaypointId> {
        let mut best: Option<(f32, WaypointId)> = None;
        for (id, d) in self.nearest(from, max_distance, |_| true) {
            let Some(w) = self.get(id) else { continue };
            let q = quality(w);
            if q.is_nan() || q <= 0.0 {
                continue;
            }
            let score = q - distance_weight * d;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, id));
            }
        }
        best.map(|(_, id)| id)
    }

    /// The value of a fuzzy expression at a waypoint; `inputs` gives the memberships of the
    /// expression's named inputs (facts about the situation, like "friends arriving").
    pub fn evaluate(
        &self,
        id: WaypointId,
        expr: &Fuzzy,
        inputs: &std::collections::BTreeMap<String, f32>,
    ) -> Option<f32> {
        self.get(id).map(|w| expr.eval(w, inputs))
    }

    /// Whether the waypoint's stored per-direction cover is at least `min` against every direction
    /// in `needed` (the states form of context sensitivity, Fig 6.5 left).
    pub fn covers_directions(&self, id: WaypointId, needed: &[Direction], min: f32) -> bool {
        self.get(id).is_some_and(|w| needed.iter().all(|&d| w.cover_by_direction[d as usize] >= min))
    }

    /// Cover against the actual enemies (post-processing, Fig 6.5 right, L92): the share of
    /// `enemies` with no line of sight to the waypoint. 1 with no enemies.
    pub fn cover_against(&self, map: &Map, id: WaypointId, enemies: &[IVec2]) -> Option<f32> {
        let w = self.get(id)?;
        if enemies.is_empty() {
            return Some(1.0);
        }
        let hidden = enemies.iter().filter(|&&e| !line_of_sight(map, e, w.cell)).count();
        Some(hidden as f32 / enemies.len() as f32)
    }

    /// The sniping value as it stands now: the stored value, or 0 once the place is compromised.
    pub fn sniping_now(&self, id: WaypointId) -> Option<f32> {
        self.get(id).map(|w| if w.compromised { 0.0 } else { w.properties.get(Property::Sniping) })
    }
}

#[cfg(test)]
mod tests;
