//! Tile maps: passability, per-cell terrain cost, loaders and line of sight.
//!
//! A [`Map`] is a flat row-major array of cells, indexed `y * width + x`, with `(0, 0)` at the top
//! left — the layout of MovingAI files and of every search buffer in [`crate::path`].

mod cell;
mod data;
mod error;
mod load;
mod los;
mod map;

pub use cell::cell_of;
pub use data::shared_data_dir;
pub use error::{MapError, MapErrorKind};
pub use load::{TerrainCosts, load_ascii, load_movingai, parse_ascii, parse_movingai};
pub use los::{line_of_sight, supercover_line, walk_segment, walk_supercover};
pub use map::{MAX_CELLS, Map};
