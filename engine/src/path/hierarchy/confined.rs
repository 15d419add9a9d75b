//! A view of a map that blocks every cell outside one rectangle, so the ordinary A* searches
//! inside a single cluster (HPA*'s intra-cluster edges and refinement) without a second search.

use crate::grid::Map;
use crate::path::CostModel;

/// The map seen through a rectangle `[x0, x1) × [y0, y1)`; outside it every cell is blocked.
pub(crate) struct Confined<'a> {
    pub(crate) map: &'a Map,
    pub(crate) x0: u32,
    pub(crate) y0: u32,
    pub(crate) x1: u32,
    pub(crate) y1: u32,
}

impl CostModel for Confined<'_> {
    fn width(&self) -> u32 {
        self.map.width()
    }
    fn height(&self) -> u32 {
        self.map.height()
    }
    #[inline]
    fn cell_cost(&self, i: usize) -> f32 {
        let w = self.map.width() as usize;
        let (x, y) = ((i % w) as u32, (i / w) as u32);
        if x < self.x0 || x >= self.x1 || y < self.y0 || y >= self.y1 { f32::INFINITY } else { self.map.costs()[i] }
    }
}
