//! Who stands still where, for the walk phase: walkers wait for a standing character in their
//! way and then plan round every standing character ([`crate::nav::NavConfig::blocked_ticks`]).

use std::ops::Range;

use glam::IVec2;

use super::{Entity, EntityId};
use crate::grid::Map;
use crate::steer::Steering;

/// The characters standing still at the start of the actions phase — no move under way, not
/// steered — by cell. Empty when `blocked_ticks` is off.
///
/// Rebuilt every tick for every character of a crowd, and asked about every cell a walker
/// crosses, so it is a grid of the map's cells, kept by the world between ticks; the names are
/// copied into one buffer, for the rare report of who held a walker.
#[derive(Debug, Clone, Default)]
pub(crate) struct Standing {
    /// Per map cell, 1 + the index in `first` of the character standing there; 0 for nobody.
    grid: Vec<u32>,
    /// The first character (in entity key order) standing in each held cell: the cell's map
    /// index, who it is, and where its name is in `names`.
    first: Vec<(usize, EntityId, Range<usize>)>,
    names: String,
}

impl Standing {
    /// Takes in who stands where now on `map`, forgetting the last tick's. Characters off the map
    /// are left out: walkers only ask about cells they can enter, and the report lists cells of
    /// the map.
    pub(crate) fn refill(
        &mut self,
        entities: &slotmap::SlotMap<EntityId, Entity>,
        steering: &Steering,
        map: &Map,
        blocked_ticks: u32,
        is_moving: impl Fn(&Entity) -> bool,
    ) {
        if self.grid.len() == map.len() {
            for &(i, ..) in &self.first {
                self.grid[i] = 0;
            }
        } else {
            self.grid.clear();
            self.grid.resize(map.len(), 0);
        }
        self.first.clear();
        self.names.clear();
        if blocked_ticks == 0 {
            return;
        }
        for (id, e) in entities.iter() {
            if is_moving(e) || steering.behaviour(id).is_some() {
                continue;
            }
            let Some(i) = map.index(e.cell()) else { continue };
            if self.grid[i] == 0 {
                let at = self.names.len();
                self.names.push_str(&e.name);
                self.first.push((i, id, at..self.names.len()));
                self.grid[i] = u32::try_from(self.first.len()).unwrap_or(u32::MAX);
            }
        }
    }

    /// Whether someone other than `me` stands in `cell`.
    pub(crate) fn holds(&self, map: &Map, cell: IVec2, me: EntityId) -> bool {
        map.index(cell)
            .and_then(|i| self.grid.get(i))
            .and_then(|&n| n.checked_sub(1))
            .is_some_and(|n| self.first[n as usize].1 != me)
    }

    /// The cells others stand in, as sorted map indices, and who stands where (for a report),
    /// in row-major order.
    pub(crate) fn held_cells(&self, map: &Map, me: EntityId) -> (Vec<usize>, String) {
        let mut held: Vec<&(usize, EntityId, Range<usize>)> =
            self.first.iter().filter(|(_, id, _)| *id != me).collect();
        held.sort_unstable_by_key(|(i, ..)| *i);
        let cells = held.iter().map(|(i, ..)| *i).collect();
        let who: Vec<String> = held
            .iter()
            .map(|(i, _, name)| {
                let c = map.cell_at(*i);
                format!("{} at ({}, {})", &self.names[name.clone()], c.x, c.y)
            })
            .collect();
        (cells, who.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    /// The way it was first written: a tree by `(y, x)` with each standing character's name.
    struct TreeStanding {
        cells: BTreeMap<(i32, i32), (EntityId, String)>,
    }

    impl TreeStanding {
        fn of(entities: &slotmap::SlotMap<EntityId, Entity>, moving: &[EntityId]) -> Self {
            let mut cells = BTreeMap::new();
            for (id, e) in entities.iter() {
                if !moving.contains(&id) {
                    let c = e.cell();
                    cells.entry((c.y, c.x)).or_insert((id, e.name.clone()));
                }
            }
            TreeStanding { cells }
        }

        fn in_cell(&self, cell: IVec2, me: EntityId) -> Option<&str> {
            self.cells.get(&(cell.y, cell.x)).filter(|(id, _)| *id != me).map(|(_, name)| name.as_str())
        }

        fn held_cells(&self, map: &Map, me: EntityId) -> (Vec<usize>, String) {
            let mut cells = Vec::new();
            let mut who = Vec::new();
            for (&(y, x), (id, name)) in &self.cells {
                let c = IVec2::new(x, y);
                if *id != me && map.contains(c) {
                    cells.push(c.y as usize * map.width() as usize + c.x as usize);
                    who.push(format!("{name} at ({}, {})", c.x, c.y));
                }
            }
            cells.sort_unstable();
            (cells, who.join(", "))
        }
    }

    proptest! {
        /// The grid answers as the tree did, for every cell a walker can enter and for the report,
        /// over ticks in which characters come, go and crowd into the same cells.
        #[test]
        fn the_grid_agrees_with_the_tree(
            ticks in proptest::collection::vec(
                proptest::collection::vec((0..7i32, 0..5i32, any::<bool>()), 0..24), 1..4),
        ) {
            let map = Map::open(7, 5);
            let steering = Steering::default();
            let mut standing = Standing::default();
            for tick in ticks {
                let mut entities = slotmap::SlotMap::with_key();
                let mut moving = Vec::new();
                for (n, &(x, y, walks)) in tick.iter().enumerate() {
                    let id = entities.insert(Entity::new(format!("e{n}"), "s", IVec2::new(x, y)));
                    if walks {
                        moving.push(id);
                    }
                }
                standing.refill(&entities, &steering, &map, 3, |e| {
                    moving.iter().any(|&m| entities.get(m).is_some_and(|o| o.name == e.name))
                });
                let tree = TreeStanding::of(&entities, &moving);
                for me in entities.keys() {
                    for y in 0..5 {
                        for x in 0..7 {
                            let c = IVec2::new(x, y);
                            prop_assert_eq!(standing.holds(&map, c, me), tree.in_cell(c, me).is_some());
                        }
                    }
                    prop_assert_eq!(standing.held_cells(&map, me), tree.held_cells(&map, me));
                }
            }
        }
    }
}
