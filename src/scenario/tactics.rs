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
use tactica_engine::tactics::query::QueryLibrary;
use tactica_engine::tactics::waypoints::{GenerateParams, Origin, Property, Waypoint, generate};
use tactica_engine::world::World;
use tactica_engine::world::WorldRng;
use toml::Spanned;

use super::budget::Budget;
use super::cost;
use super::error::{ScenarioError, SourcePos};
use super::load::with_suggestion;

/// The `[queries]` section as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueriesSection {
    /// Files of query blocks, relative to the scenario.
    #[serde(default)]
    pub files: Vec<Spanned<String>>,
    /// Units of query work all `FindPosition` calls of one tick may do together; a query that does
    /// not fit is finished in later ticks. Absent: no limit.
    #[serde(default)]
    pub budget: Option<Spanned<u64>>,
}

/// The `[waypoints]` section: tactical waypoints generated from the map.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaypointsSection {
    /// Generate waypoints: a dense grid evaluated by ray sampling, then condensed per property.
    pub generate: Spanned<bool>,
    /// The dense grid's spacing in cells (default 1).
    pub spacing: Option<Spanned<u32>>,
    /// How far visibility rays and exposure samples reach, in cells (default 12).
    pub range: Option<Spanned<f32>>,
    /// Condensation's distance weight: lower keeps fewer waypoints (default 0.02).
    pub weight: Option<Spanned<f32>>,
    /// Condensation's neighbourhood radius in cells (default 6).
    pub neighbourhood: Option<Spanned<f32>>,
    /// Seed of the sampling's own generator (default 0).
    #[serde(default)]
    pub seed: u64,
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

/// Builds the waypoint database: the `[[hidespots]]` first, then the waypoints `[waypoints]`
/// generates from the map.
pub fn install_hidespots(
    spots: &[Spanned<HidespotSpec>],
    generated: Option<&WaypointsSection>,
    world: &mut World,
    budget: &mut Budget<'_>,
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
    if let Some(g) = generated.filter(|g| *g.generate.get_ref()) {
        let mut params = GenerateParams::default();
        let positive = |v: &Option<Spanned<f32>>, key: &str, max: f32, slot: &mut f32| {
            if let Some(v) = v {
                let x = *v.get_ref();
                if !(x > 0.0 && x <= max) {
                    return Err(err(text, file, v, format!("`{key}` must be above 0 and at most {max}, not {x}")));
                }
                *slot = x;
            }
            Ok(())
        };
        positive(&g.range, "range", 1e4, &mut params.range)?;
        positive(&g.weight, "weight", 1e3, &mut params.weight)?;
        positive(&g.neighbourhood, "neighbourhood", 1e4, &mut params.neighbourhood)?;
        if let Some(sp) = &g.spacing {
            if !(1..=64).contains(sp.get_ref()) {
                return Err(err(text, file, sp, format!("`spacing` must be 1 to 64, not {}", sp.get_ref())));
            }
            params.spacing = *sp.get_ref();
        }
        let map = world.map();
        let units = cost::waypoints(map, cost::open_cells(map), &params);
        let what = format!(
            "tactical waypoints sampled every {} cells, rays of {} cells, condensed within {} cells",
            params.spacing, params.range, params.neighbourhood
        );
        budget.charge(units, "[waypoints]", &what, || {
            (file.to_path_buf(), SourcePos::of(text, g.generate.span().start))
        })?;
        let mut rng = WorldRng::new(g.seed);
        let made = generate(world.map(), &params, &mut rng).map_err(|e| {
            ScenarioError::new(file, SourcePos::default(), format!("the waypoints cannot be generated: {e}"))
        })?;
        for (_, w) in made.iter() {
            db.add(w.clone());
        }
    }
    world.set_waypoints(db);
    Ok(())
}

/// Loads the `[queries]` files into the world's query library.
pub fn install_queries(
    section: &QueriesSection,
    world: &mut World,
    budget: &mut Budget<'_>,
    text: &str,
    file: &Path,
    dir: &Path,
    folders: &super::files::Folders,
) -> Result<(), ScenarioError> {
    if let Some(budget) = &section.budget {
        if *budget.get_ref() == 0 {
            return Err(err(text, file, budget, "[queries] budget must be 1 or more units of work a tick".to_owned())
                .hint("leave `budget` out for no limit"));
        }
        world.positions_mut().set_budget(*budget.get_ref());
    }
    for name in &section.files {
        let path = dir.join(name.get_ref());
        let src = folders.read(&path).map_err(|why| err(text, file, name, format!("the query file {why}")))?;
        let what = format!("reading the query file `{}` ({} bytes)", name.get_ref(), src.len());
        budget.charge(cost::data_file(src.len() as u64), "[queries] files", &what, || {
            (file.to_path_buf(), SourcePos::of(text, name.span().start))
        })?;
        load_query_file(&mut world.queries, &path, &src).map_err(|why| {
            err(text, file, name, format!("the query file `{}` does not compile: {why}", name.get_ref()))
        })?;
    }
    Ok(())
}

/// The global tables a Lua data file defines.
#[cfg(feature = "lua")]
fn lua_tables(path: &Path, src: &str) -> Result<Vec<(String, tactica_engine::Value)>, String> {
    tactica_lua::data::global_tables(path, src).map_err(|e| e.to_string())
}

/// Without Lua built in, a Lua query file is a clear error.
#[cfg(not(feature = "lua"))]
fn lua_tables(_: &Path, _: &str) -> Result<Vec<(String, tactica_engine::Value)>, String> {
    Err("a Lua query file needs Lua, which this build leaves out (the `lua` feature)".into())
}

/// Loads (or reloads) a query file into `library`, all or nothing: a `.lua` file's global tables
/// are queries in the reference's own form (`take_cover = { Generation = {...}, ... }`), any other
/// file holds `.tps` query blocks. Returns the names loaded, or the first problem.
pub fn load_query_file(library: &mut QueryLibrary, path: &Path, src: &str) -> Result<Vec<String>, String> {
    let mut next = library.clone();
    let names = if path.extension().is_some_and(|e| e == "lua") {
        let tables = lua_tables(path, src)?;
        if tables.is_empty() {
            return Err("it defines no query: write each as a global table, `name = { Generation = {...} }`".into());
        }
        for (name, value) in &tables {
            next.load_value(name, value)
                .map_err(|errors| errors.0.first().map(|e| format!("`{name}`: {e}")).unwrap_or_default())?;
        }
        tables.into_iter().map(|(name, _)| name).collect()
    } else {
        next.load_text(&path.display().to_string(), src)
            .map_err(|errors| errors.0.first().map(ToString::to_string).unwrap_or_default())?
    };
    *library = next;
    Ok(names)
}
