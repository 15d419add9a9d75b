//! The scenario file as written: serde types with spans where later checks need a position.

use std::collections::BTreeMap;

use serde::Deserialize;
use tactica_engine::Table;
use toml::Spanned;

/// A whole scenario file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// A title for logs.
    #[serde(default)]
    pub name: Option<String>,
    /// The map file, relative to the scenario: `.map` is MovingAI, anything else an ASCII grid.
    pub map: Spanned<String>,
    /// The seed of the world's random generator.
    #[serde(default)]
    pub seed: u64,
    /// Ticks per second (1–1000).
    #[serde(default = "default_rate")]
    pub tick_rate: Spanned<u32>,
    /// How many ticks `tactica run` plays unless told otherwise.
    #[serde(default = "default_ticks")]
    pub ticks: Spanned<u64>,
    /// Worker threads for the scripts phase (1 or more; default: one per core, at most 8). The
    /// trace is the same for every count.
    #[serde(default)]
    pub threads: Option<Spanned<u64>>,
    /// The folder scripts are looked up in, relative to the scenario (default: the scenario's).
    #[serde(default)]
    pub scripts_dir: Option<String>,
    /// Folders outside the scenario's own that its files may come from (relative to it). Without
    /// them, every map, script, query and model file must lie inside the scenario's folder.
    #[serde(default)]
    pub allow_folders: Vec<Spanned<String>>,
    /// World-level scripts (events, traps, ambience) that belong to no entity.
    #[serde(default)]
    pub scripts: Vec<Spanned<String>>,
    /// The entity that stands for the player (encounters are measured from it).
    #[serde(default)]
    pub player: Option<Spanned<String>>,
    /// How near (in cells) the player must come for an `encounter`.
    #[serde(default = "default_encounter")]
    pub encounter_range: Spanned<f32>,
    /// Globals at tick 0.
    #[serde(default)]
    pub globals: Table,
    /// Named cells.
    #[serde(default)]
    pub places: BTreeMap<String, Spanned<[i32; 2]>>,
    /// Named rectangles.
    #[serde(default)]
    pub regions: BTreeMap<String, Spanned<RegionSpec>>,
    /// The entities.
    #[serde(default)]
    pub entities: Vec<Spanned<EntitySpec>>,
    /// Many characters from one description (`[[crowd]]`, see `crowd.rs`).
    #[serde(default)]
    pub crowd: Vec<Spanned<super::crowd::CrowdSpec>>,
    /// What the game does during the run.
    #[serde(default)]
    pub timeline: Vec<Spanned<TimelineEntry>>,
    /// Named decision models from data files (`guard = { fsm = "guard.toml" }`), see `models.rs`.
    #[serde(default)]
    pub models: super::models::ModelsSection,
    /// Flocks, formations, patterns and pursuers (`docs/scenario.md`, "Steering").
    #[serde(default)]
    pub steering: Option<super::steer::SteeringSection>,
    /// The tactical layers and senses the world keeps (`[field]`, see `field.rs`).
    #[serde(default)]
    pub field: Option<super::field::FieldSection>,
    /// The world's path search budget (`[navigation]`, see `nav.rs`).
    #[serde(default)]
    pub navigation: Option<super::nav::NavigationSection>,
    /// Named doors: cells blocked while closed (`[doors.NAME]`, see `nav.rs`).
    #[serde(default)]
    pub doors: BTreeMap<String, Spanned<super::nav::DoorSpec>>,
    /// Files of named position queries (`[queries]`, see `tactics.rs`).
    #[serde(default)]
    pub queries: Option<super::tactics::QueriesSection>,
    /// The hidespots of the tactical waypoint database (`[[hidespots]]`, see `tactics.rs`).
    #[serde(default)]
    pub hidespots: Vec<Spanned<super::tactics::HidespotSpec>>,
    /// Tactical waypoints generated from the map (`[waypoints]`, see `tactics.rs`).
    #[serde(default)]
    pub waypoints: Option<super::tactics::WaypointsSection>,
    /// What `tactica view` records (`[view]`, docs/viewer.md).
    #[serde(default)]
    pub view: Option<ViewSection>,
}

/// `[view]`: what the replay viewer records of this scenario.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewSection {
    /// Record the tactical layers every this many ticks (1 or more).
    #[serde(default)]
    pub layer_every: Option<Spanned<u64>>,
}

fn default_rate() -> Spanned<u32> {
    Spanned::new(0..0, 10)
}
fn default_ticks() -> Spanned<u64> {
    Spanned::new(0..0, 100)
}
fn default_encounter() -> Spanned<f32> {
    Spanned::new(0..0, 5.0)
}
fn default_speed() -> f32 {
    1.0
}
fn default_think() -> u32 {
    1
}

/// A rectangle of cells, corners included.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegionSpec {
    /// One corner.
    pub min: [i32; 2],
    /// The opposite corner.
    pub max: [i32; 2],
}

/// Where something stands: a cell `[x, y]` or the name of a place.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged, expecting = "a cell [x, y] of two whole numbers, or the name of a place")]
pub enum Position {
    /// A cell.
    Cell([i32; 2]),
    /// A named place.
    Place(String),
}

/// One entity.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntitySpec {
    /// Unique name; the trace calls it by this.
    pub name: String,
    /// What it is.
    pub kind: String,
    /// Its side.
    #[serde(default)]
    pub team: String,
    /// Its squad within the team: scripts' signals reach the squad, and a `.tac` sequence a
    /// squad member starts casts its roles from the squad.
    #[serde(default)]
    pub squad: String,
    /// Where it starts.
    pub at: Spanned<Position>,
    /// Top speed in cells per second.
    #[serde(default = "default_speed")]
    pub speed: f32,
    /// Attributes at spawn (attribute scripts run after these are set).
    #[serde(default)]
    pub attributes: Table,
    /// Labels.
    #[serde(default)]
    pub tags: Vec<String>,
    /// Script files attached to it (attributes, behaviour, dialogue …), run in this order.
    #[serde(default)]
    pub scripts: Vec<Spanned<String>>,
    /// Its behaviour scripts think every this many ticks.
    #[serde(default = "default_think")]
    pub think_every: u32,
    /// Actions queued at spawn.
    #[serde(default)]
    pub actions: Vec<Spanned<ActionSpec>>,
    /// Tactical layers its moves avoid (positive weights) or seek (negative), by layer name.
    #[serde(default)]
    pub avoid: Option<Spanned<BTreeMap<String, f32>>>,
    /// The behaviour tree it runs: a `tree` model of `[models]`, by name.
    #[serde(default)]
    pub tree: Option<Spanned<String>>,
}

/// An action written in a scenario file, e.g. `{ move_to = "kDock" }` or `{ sleep = 5 }`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ActionSpec {
    /// Walk to a cell or place.
    MoveTo(Position),
    /// Walk through cells or places in order.
    FollowPath(Vec<Position>),
    /// Say a line.
    Say(String),
    /// Play a sound.
    PlaySound(String),
    /// Fire a trigger.
    Trigger(String),
    /// Idle for ticks.
    Sleep(u32),
    /// Send a signal in the entity's team scope.
    Signal(String),
    /// Wait for a signal in the entity's team scope.
    Wait(String),
}

/// Something that happens at a tick.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimelineEntry {
    /// When.
    pub tick: u64,
    /// Globals to set.
    #[serde(default)]
    pub set: Table,
    /// Text the player types (dialogue handlers `hear` it).
    #[serde(default)]
    pub player_says: Option<String>,
    /// Doors that open at this tick.
    #[serde(default)]
    pub open: Vec<Spanned<String>>,
    /// Doors that close at this tick.
    #[serde(default)]
    pub close: Vec<Spanned<String>>,
}
