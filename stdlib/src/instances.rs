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

    /// What `key`'s instance has kept, to change it.
    pub fn get_mut(&mut self, key: Option<EntityId>) -> Option<&mut T> {
        match key {
            None => self.world.as_mut(),
            Some(id) => match self.by_slot.get_mut(slot(id)) {
                Some(Some((known, t))) if *known == id => Some(t),
                _ => None,
            },
        }
    }

    /// What `key`'s instance has kept, made by `make` first when it has nothing (or when its slot
    /// holds what an earlier entity left).
    pub fn get_or_insert_with(&mut self, key: Option<EntityId>, make: impl FnOnce() -> T) -> &mut T {
        let Some(id) = key else { return self.world.get_or_insert_with(make) };
        let i = slot(id);
        if self.by_slot.len() <= i {
            self.by_slot.resize_with(i + 1, || None);
        }
        let entry = &mut self.by_slot[i];
        if entry.as_ref().is_some_and(|(known, _)| *known != id) {
            *entry = None;
        }
        &mut entry.get_or_insert_with(|| (id, make())).1
    }

    /// Everything kept, to change it (a recompile migrating each instance).
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.world.iter_mut().chain(self.by_slot.iter_mut().flatten().map(|(_, t)| t))
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

#[cfg(test)]
mod tests {
    use super::*;
    use slotmap::SlotMap;

    #[test]
    fn an_entity_finds_its_own_and_a_slot_reused_starts_afresh() {
        let mut ids: SlotMap<EntityId, ()> = SlotMap::with_key();
        let (a, b) = (ids.insert(()), ids.insert(()));
        let mut kept: Instances<u32> = Instances::default();
        *kept.get_or_insert_with(Some(a), || 1) += 10;
        assert_eq!(*kept.get_or_insert_with(Some(a), || 99), 11, "made once");
        kept.get_or_insert_with(Some(b), || 2);
        kept.get_or_insert_with(None, || 3);
        *kept.get_mut(None).unwrap() += 30;
        let mut all: Vec<u32> = kept.values_mut().map(|v| *v).collect();
        all.sort_unstable();
        assert_eq!(all, [2, 11, 33]);
        // `a` goes and a new entity takes its slot: it does not inherit `a`'s.
        ids.remove(a);
        let c = ids.insert(());
        assert_eq!(slot(c), slot(a));
        assert!(kept.get(Some(c)).is_none() && kept.get_mut(Some(c)).is_none());
        assert_eq!(*kept.get_or_insert_with(Some(c), || 5), 5);
        assert!(kept.get(Some(a)).is_none(), "the old entity's is gone");
    }
}
