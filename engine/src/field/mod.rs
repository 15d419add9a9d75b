//! Tactical analysis over grids and waypoint graphs (000 §6.2; 001_003 §2.10; 002b §3.8).
//!
//! Every analysis reads and writes [`Layer`]s: one `f32` per cell, row-major, the layout of
//! [`crate::grid::Map`]. A renderer needs only [`Layer::values`], [`Layer::width`] and
//! [`Layer::height`].
//!
//! - Influence: [`InfluenceMap`] keeps one layer per team, the sum of its [`Source`]s, each with a
//!   strength, a radius and a [`Falloff`]; moving a source updates only the cells it reaches.
//!   [`GraphInfluence`] does the same over a waypoint graph by walking distance.
//! - Derived maps: [`control`], [`security`], [`balance`], [`tension`], [`vulnerability`],
//!   [`frontier`], [`weakest_frontier`].
//! - Map flooding: [`flood`] and [`nearest_territory`] (territory by strongest or nearest source).
//! - Convolution: [`Kernel`] (Gaussian, box blur, sharpen, edge detection), [`Separable`],
//!   [`convolve`], [`convolve_separable`], [`Boundary`], the double-buffered [`DoubleBuffer`].
//! - Cellular automata: [`Automaton`] with [`Life`], [`Threshold`], [`Otostaz`], [`RtsBase`] or any
//!   [`Rule`].
//! - Terrain analysis: [`cover_layers`], [`visibility_layer`], [`exposure_layer`], [`shadow_at`],
//!   [`difficulty_layer`].
//! - Learning and decision maps: [`FragMap`], [`DecisionMaps`] (resource, offense, conflict).
//! - The running world's maps: [`TacticalMaps`] keeps the layers a [`FieldSpec`] declares (influence
//!   from entities, derived, terrain, frag and decision maps) and the senses' memory, updated once a
//!   tick; every layer has a name scripts and `tactica render` use.
//!
//! ```
//! use glam::IVec2;
//! use tactica_engine::field::{control, frontier, Falloff, InfluenceMap, Metric, Source};
//!
//! let mut map = InfluenceMap::new(16, 8, 2, Metric::Euclidean);
//! let tank = map.add(Source::new(0, IVec2::new(2, 4), 8.0, 8.0, Falloff::Linear)).unwrap();
//! map.add(Source::new(1, IVec2::new(13, 4), 6.0, 8.0, Falloff::Linear)).unwrap();
//! map.move_to(tank, IVec2::new(3, 4)).unwrap(); // only the cells near the tank change
//! let control = control(map.layers()).unwrap();
//! assert_eq!(control.owner_at(IVec2::new(0, 0)), Some(0));
//! let front = frontier(&control);
//! assert!(front.values().iter().any(|&v| v > 0.0));
//! ```

mod automaton;
mod convolve;
mod decision;
mod derive;
mod derived;
mod error;
mod falloff;
mod flood;
mod graph;
mod graph_live;
mod influence;
mod kernel;
mod layer;
mod learning;
mod live;
mod terrain;

pub use automaton::{Automaton, Life, Neighbours, Otostaz, RtsBase, Rule, Threshold, categorise, to_layer};
pub use convolve::{Boundary, DoubleBuffer, SeparableScratch, convolve, convolve_separable};
pub use decision::{Capability, ConflictKind, DecisionEvent, DecisionMaps, Objective};
pub use derive::{AutomatonRule, AutomatonSpec, FilterSpec};
pub use derived::{Control, balance, control, frontier, security, tension, vulnerability, weakest_frontier};
pub use error::FieldError;
pub use falloff::{Falloff, Metric};
pub use flood::{Connectivity, FloodSource, Territory, flood, nearest_territory};
pub use graph::{GraphInfluence, GraphSource};
pub use graph_live::linked_node;
pub use influence::{InfluenceMap, Source, SourceId};
pub use kernel::{Kernel, Separable, binomial_row};
pub use layer::{Combine, Layer};
pub use learning::FragMap;
pub use live::{FieldSpec, LayerKind, TacticalMaps};
pub use terrain::{
    Cover, CoverParams, Direction, Light, Ruggedness, WalkScratch, brightness_at, cover_at, cover_at_with,
    cover_layers, difficulty_layer, exposure_layer, ray_length, shadow_at, visibility_layer,
};

/// A map drawn in the ASCII legend, for tests.
#[cfg(test)]
pub(crate) fn test_map(text: &str) -> crate::grid::Map {
    crate::grid::parse_ascii(text.as_bytes(), std::path::Path::new("test"), &crate::grid::TerrainCosts::ascii())
        .expect("test map")
}
