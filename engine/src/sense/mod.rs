//! Perception: what an agent can see, hear and smell (001_003 §2.7).
//!
//! - [`VisionCone`]: range, half-angle and grid line of sight; [`visible_entities`].
//! - Hearing: [`Sound`]s with levels from [`SoundLevels`], damped by distance and walls, noticed
//!   above a [`Hearing`] threshold ([`heard_sounds`]).
//! - Smell: [`ScentTrail`]s that fade as their entity moves on, smelled within a radius and through
//!   walls by [`smell_at`].
//! - [`Perception`]: what the world remembers between ticks (the last tick's sounds, scent
//!   trails) and the declared senses, with per-entity attribute overrides.
//!
//! Everything here reads the world and the map; nothing changes them.

mod hearing;
mod live;
mod scent;
mod vision;

pub use hearing::{Heard, Hearing, Sound, SoundLevels, heard_sounds, perceived_level};
pub use live::{HeardSound, Perception, PerceptionSpec, Smelled};
pub use scent::{ScentHit, ScentMark, ScentTrail, Smell, smell_at};
pub use vision::{VisionCone, visible_entities};
