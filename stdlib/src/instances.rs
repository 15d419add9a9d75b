//! Something a language backend keeps per script instance between calls (Lua's state table,
//! Rhai's state map), found without hashing: by the entity's slot.

use slotmap::Key;
use tactica_engine::world::EntityId;

/// One `T` per instance: per entity (by its slot, the full handle checked), and one for the
/// world script. An entity that reuses a slot replaces what the slot's last entity left.
pub struct Instances<T> {
    world: Option<T>,
    by_slot: Vec<Option<(EntityId, T)>>,
}

impl<T> Default for Instances<T> {
    fn default() -> Self {
        Instances { world: None, by_slot: Vec::new() }
    }
}

fn slot(id: EntityId) -> usize {
    (id.data().as_ffi() & 0xffff_ffff) as usize
}

impl<T> Instances<T> {
    /// What `key`'s instance (`None`: the world script) has kept, if anything.
    pub fn get(&self, key: Option<EntityId>) -> Option<&T> {
        match key {
            None => self.world.as_ref(),
            Some(id) => match self.by_slot.get(slot(id)) {
                Some(Some((known, t))) if *known == id => Some(t),
                _ => None,
            },
        }
    }

    /// Takes what `key`'s instance has kept out, leaving nothing.
    pub fn take(&mut self, key: Option<EntityId>) -> Option<T> {
        match key {
            None => self.world.take(),
            Some(id) => {
                let entry = self.by_slot.get_mut(slot(id))?;
                if entry.as_ref().is_some_and(|(known, _)| *known == id) { entry.take().map(|(_, t)| t) } else { None }
            }
        }
    }

    /// Keeps `value` for `key`'s instance, replacing what was kept.
    pub fn insert(&mut self, key: Option<EntityId>, value: T) {
        match key {
            None => self.world = Some(value),
            Some(id) => {
                let i = slot(id);
                if self.by_slot.len() <= i {
                    self.by_slot.resize_with(i + 1, || None);
                }
                self.by_slot[i] = Some((id, value));
            }
        }
    }
}
