//! Named places and rectangular regions that scripts and events refer to.

use glam::IVec2;
use serde::{Deserialize, Serialize};

/// A rectangle of cells, both corners included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Region {
    /// The top-left cell.
    pub min: IVec2,
    /// The bottom-right cell.
    pub max: IVec2,
}

impl Region {
    /// The region spanning `a` and `b` in any order.
    pub fn new(a: IVec2, b: IVec2) -> Self {
        Region { min: a.min(b), max: a.max(b) }
    }

    /// Whether `cell` lies inside.
    pub fn contains(&self, cell: IVec2) -> bool {
        cell.cmpge(self.min).all() && cell.cmple(self.max).all()
    }

    /// How many cells it covers.
    pub fn area(&self) -> i64 {
        let d = self.max - self.min + IVec2::ONE;
        i64::from(d.x) * i64::from(d.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_are_inclusive_and_order_free() {
        let r = Region::new(IVec2::new(5, 2), IVec2::new(1, 4));
        assert!(r.contains(IVec2::new(1, 2)));
        assert!(r.contains(IVec2::new(5, 4)));
        assert!(!r.contains(IVec2::new(6, 4)));
        assert!(!r.contains(IVec2::new(3, 1)));
        assert_eq!(r.area(), 15);
    }
}
