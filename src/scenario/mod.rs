//! Scenario files: what a run starts from.
//!
//! A scenario is a TOML file naming the map, the seed, the tick rate, how many ticks to run, the
//! entities with their scripts and first actions, named places and regions, globals, and a
//! timeline of things the game does during the run (globals changing, the player typing). The
//! format is documented in `docs/scenario.md`; unknown keys and bad values are errors with the
//! file, line and column.

mod budget;
mod cost;
mod crowd;
mod error;
mod field;
mod file;
pub mod files;
mod load;
mod missing;
pub mod models;
mod nav;
pub mod squad_signals;
mod steer;
mod tactics;

pub use budget::{LoadLimits, LoadProgress, ProgressFn};
pub use crowd::{CrowdSpec, MAX_CROWD};
pub use error::{ScenarioError, SourcePos};
pub use field::{CoverSection, FieldSection, HearingSection, ScentSection, VisionSection};
pub use file::{ActionSpec, EntitySpec, Position, RegionSpec, ScenarioFile, TimelineEntry};
pub use load::{EntityScripts, Loader, Scenario, load, load_with, load_with_map, parse};
pub(crate) use nav::charge_map_reload;
pub use steer::{AgentEntry, FlockEntry, FormationEntry, PatternEntry, SteeringSection, StepEntry};
pub use tactics::load_query_file;
