//! The `[queries]` section and `[[hidespots]]`: the position queries scripts run by name, and
//! the hidespots of the world's tactical waypoint database.
//!
//! ```toml
//! [queries]
//! files = ["cover.tac"]        # query blocks (`query take_cover { option { … } }`), beside the scenario
//!
//! [[hidespots]]
//! at = [12, 7]
//! sides = ["south"]           # the sides its cover faces: north, east, south, west (none: every side)
//! quality = 0.9               # 0–1 (default 1)
//! soft = false                # soft cover hides but does not stop bullets (default hard)
//! low = false                 # low cover hides a crouching body only (default high)
//! ```

use std::path::Path;

use glam::IVec2;
use serde::Deserialize;
use tactica_engine::field::Direction;
use tactica_engine::tactics::WaypointDb;
use tactica_engine::tactics::waypoints::{Origin, Property, Waypoint};
use tactica_engine::world::World;
use toml::Spanned;

use super::error::{ScenarioError, SourcePos};
use super::load::with_suggestion;

/// The `[queries]` section as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueriesSection {
    /// Files of query blocks, relative to the scenario.
    pub files: Vec<Spanned<String>>,
}

/// One `[[hidespots]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HidespotSpec {
    /// The cell.
    pub at: [i32; 2],
    /// The sides its cover faces.
    #[serde(default)]
    pub sides: Vec<Spanned<String>>,
    /// Cover quality, 0–1.
    #[serde(default)]
    pub quality: Option<f32>,
    /// Soft cover.
    #[serde(default)]
    pub soft: bool,
    /// Low cover.
    #[serde(default)]
    pub low: bool,
}

fn err<T>(text: &str, file: &Path, at: &Spanned<T>, message: String) -> ScenarioError {
    ScenarioError::new(file, SourcePos::of(text, at.span().start), message)
}

const SIDES: [(&str, Direction); 4] =
    [("north", Direction::North), ("east", Direction::East), ("south", Direction::South), ("west", Direction::West)];

/// Builds the waypoint database from `[[hidespots]]`.
pub fn install_hidespots(
    spots: &[Spanned<HidespotSpec>],
    world: &mut World,
    text: &str,
    file: &Path,
) -> Result<(), ScenarioError> {
    let mut db = WaypointDb::new();
    for spanned in spots {
        let h = spanned.get_ref();
        let cell = IVec2::from_array(h.at);
        if !world.map().passable(cell) {
            return Err(err(text, file, spanned, format!("hidespot at ({}, {}) is not an open cell", cell.x, cell.y)));
        }
        let quality = h.quality.unwrap_or(1.0);
        if !(quality > 0.0 && quality <= 1.0) {
            return Err(err(text, file, spanned, format!("hidespot `quality` must be in (0, 1], not {quality}")));
        }
        let mut w = Waypoint::new(cell, Origin::Placed);
        w.properties.set(Property::Cover, quality);
        for side in &h.sides {
            let Some(&(_, d)) = SIDES.iter().find(|(n, _)| n == side.get_ref()) else {
                let names = SIDES.map(|(n, _)| n);
                let e = err(text, file, side, format!("`{}` is not a side", side.get_ref()));
                return Err(with_suggestion(e, side.get_ref(), &names));
            };
            w.cover_by_direction[d as usize] = quality;
        }
        if h.soft {
            w.tags.insert("soft".into());
        }
        if h.low {
            w.tags.insert("low".into());
        }
        db.add(w);
    }
    world.set_waypoints(db);
    Ok(())
}

/// Loads the `[queries]` files into the world's query library.
pub fn install_queries(
    section: &QueriesSection,
    world: &mut World,
    text: &str,
    file: &Path,
    dir: &Path,
) -> Result<(), ScenarioError> {
    for name in &section.files {
        let path = dir.join(name.get_ref());
        let src = std::fs::read_to_string(&path)
            .map_err(|e| err(text, file, name, format!("cannot read the query file `{}`: {e}", path.display())))?;
        world.queries.load_text(&path.display().to_string(), &src).map_err(|errors| {
            let first = errors.0.first().map(ToString::to_string).unwrap_or_default();
            err(text, file, name, format!("the query file `{}` does not compile: {first}", name.get_ref()))
        })?;
    }
    Ok(())
}
