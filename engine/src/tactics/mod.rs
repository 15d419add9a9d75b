//! Tactics: tactical waypoints and what they are good for (000 §6.1).
//!
//! [`WaypointDb`] is the database of tactical locations — designer-placed or generated — each with
//! continuous [`Properties`] (cover, shadow, sniping, exposure, visibility) and per-direction cover.
//! [`generate`] computes properties by ray sampling and builds a condensed set from a dense grid
//! ([`condense`]). [`Fuzzy`] expressions combine properties into compound tactics (`sniper = cover
//! AND visibility`), and the context checks ([`WaypointDb::cover_against`],
//! [`WaypointDb::covers_directions`]) decide whether a stored value holds in the current situation.
//!
//! ```
//! use glam::IVec2;
//! use tactica_engine::tactics::{Fuzzy, Origin, Property, Waypoint, WaypointDb};
//!
//! let mut db = WaypointDb::new();
//! let mut w = Waypoint::new(IVec2::new(3, 4), Origin::Placed);
//! w.properties.set(Property::Cover, 0.9);
//! w.properties.set(Property::Visibility, 0.7);
//! let id = db.add(w);
//! let sniper = Fuzzy::and([Fuzzy::prop(Property::Cover), Fuzzy::prop(Property::Visibility)]);
//! assert_eq!(db.evaluate(id, &sniper, &Default::default()), Some(0.7));
//! ```

pub mod waypoints;

pub use waypoints::{
    Candidate, Fuzzy, GenerateParams, Origin, Properties, Property, Waypoint, WaypointDb, WaypointId,
    compute_properties, condense, condense_by_property, dense_grid, evaluate_cell, generate,
};
