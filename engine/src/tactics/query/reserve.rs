//! Reservations: the point each agent holds or is moving to, so that squad members never pick the
//! same point (001:L112, L145, L168).

use std::collections::BTreeMap;

use super::env::{Candidate, PointKey};
use crate::world::EntityId;

/// Who holds which point. Each agent holds at most one point.
#[derive(Debug, Clone, Default)]
pub struct Reservations {
    by_point: BTreeMap<PointKey, (EntityId, Candidate)>,
    by_owner: BTreeMap<EntityId, PointKey>,
}

impl Reservations {
    /// No reservations.
    pub fn new() -> Self {
        Reservations::default()
    }

    /// `owner` takes `point`, giving up whatever it held. Fails with the holder when another
    /// agent holds the point already.
    pub fn reserve(&mut self, owner: EntityId, point: Candidate) -> Result<(), EntityId> {
        let key = point.key();
        if let Some(&(holder, _)) = self.by_point.get(&key)
            && holder != owner
        {
            return Err(holder);
        }
        self.release(owner);
        self.by_point.insert(key, (owner, point));
        self.by_owner.insert(owner, key);
        Ok(())
    }

    /// `owner` gives up its point.
    pub fn release(&mut self, owner: EntityId) {
        if let Some(key) = self.by_owner.remove(&owner) {
            self.by_point.remove(&key);
        }
    }

    /// Who holds `key`.
    pub fn holder(&self, key: PointKey) -> Option<EntityId> {
        self.by_point.get(&key).map(|&(owner, _)| owner)
    }

    /// The point `owner` holds.
    pub fn held_by(&self, owner: EntityId) -> Option<&Candidate> {
        self.by_owner.get(&owner).and_then(|k| self.by_point.get(k)).map(|(_, c)| c)
    }

    /// The agents holding a point, in id order.
    pub fn owners(&self) -> impl Iterator<Item = EntityId> + '_ {
        self.by_owner.keys().copied()
    }

    /// How many points are held.
    pub fn len(&self) -> usize {
        self.by_point.len()
    }

    /// Whether no point is held.
    pub fn is_empty(&self) -> bool {
        self.by_point.is_empty()
    }
}
