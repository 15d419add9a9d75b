//! The boundary between Bevy's glam and Tactica's. Bevy 0.19 is built on glam 0.32, Tactica on
//! glam 0.34: two versions of one crate are two sets of types, so a Bevy `IVec2` is not a
//! Tactica `IVec2` (E0308). The plugin's API takes and gives Bevy's types and converts here, so
//! a game handles one glam; for the engine's own calls (`world_mut().set_blocked(…)`) these
//! traits convert by hand: `cell.to_tactica()`, `position.to_bevy()`.
//!
//! Tactica does not pin its glam to Bevy's: the engine serves games on every engine (and none),
//! and glam's 0.x releases are incompatible with each other, so a pin would hold for one Bevy
//! release and break the plain-loop games that use a newer glam. The conversion is a copy of two
//! numbers.

use bevy::math::{IVec2, Vec2};

/// A Bevy (glam 0.32) value as Tactica's (glam 0.34).
pub trait ToTactica {
    /// Tactica's type.
    type Tactica;

    /// The same numbers in Tactica's type.
    fn to_tactica(self) -> Self::Tactica;
}

/// A Tactica (glam 0.34) value as Bevy's (glam 0.32).
pub trait ToBevy {
    /// Bevy's type.
    type Bevy;

    /// The same numbers in Bevy's type.
    fn to_bevy(self) -> Self::Bevy;
}

impl ToTactica for IVec2 {
    type Tactica = tactica::glam::IVec2;

    fn to_tactica(self) -> Self::Tactica {
        tactica::glam::IVec2::new(self.x, self.y)
    }
}

impl ToTactica for Vec2 {
    type Tactica = tactica::glam::Vec2;

    fn to_tactica(self) -> Self::Tactica {
        tactica::glam::Vec2::new(self.x, self.y)
    }
}

impl ToBevy for tactica::glam::IVec2 {
    type Bevy = IVec2;

    fn to_bevy(self) -> IVec2 {
        IVec2::new(self.x, self.y)
    }
}

impl ToBevy for tactica::glam::Vec2 {
    type Bevy = Vec2;

    fn to_bevy(self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_numbers_cross_unchanged() {
        assert_eq!(IVec2::new(-3, 7).to_tactica(), tactica::glam::IVec2::new(-3, 7));
        assert_eq!(tactica::glam::IVec2::new(i32::MAX, i32::MIN).to_bevy(), IVec2::new(i32::MAX, i32::MIN));
        assert_eq!(Vec2::new(0.5, -1.25).to_tactica().to_bevy(), Vec2::new(0.5, -1.25));
    }
}
