//! A character's blackboard: the key/value memory its scripts, its behaviour tree and the other
//! decision models share.
//!
//! It is a [`Table`] that counts its changes. A behaviour tree watching some of its keys asks
//! [`Blackboard::version`] once a tick and looks at its keys only when the count moved, so a
//! character whose blackboard did not change costs one comparison (`decide::bt`).

use std::ops::Deref;

use serde::{Deserialize, Serialize};

use crate::value::{Table, Value};

/// How many keys a character's blackboard holds before scripts may add no more: a script that
/// makes up a key every call (`SetBlackboard("seen" .. n, true)`) would grow the character for
/// the whole game. Setting a key that exists is always allowed; a host function refuses a new one
/// past this, and the world drops (with a note) what still reaches it in one tick.
pub const MAX_BLACKBOARD_KEYS: usize = 1_024;

/// The key/value memory of one character. Reads go through [`Deref`] to the [`Table`]; writes
/// through [`Blackboard::insert`] and [`Blackboard::remove`], which count the changes.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Blackboard {
    values: Table,
    /// How many changes it has had; not saved (a loaded world starts counting afresh).
    #[serde(skip)]
    version: u64,
}

impl Blackboard {
    /// Sets `key`. Setting a key to the value it holds is no change: the version stays.
    pub fn insert(&mut self, key: String, value: Value) {
        if self.values.get(&key) != Some(&value) {
            self.values.insert(key, value);
            self.version += 1;
        }
    }

    /// Forgets `key`, returning what it held.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let old = self.values.remove(key);
        if old.is_some() {
            self.version += 1;
        }
        old
    }

    /// How many changes the blackboard has had: equal counts mean equal contents.
    pub fn version(&self) -> u64 {
        self.version
    }
}

impl Deref for Blackboard {
    type Target = Table;

    fn deref(&self) -> &Table {
        &self.values
    }
}

impl From<Table> for Blackboard {
    fn from(values: Table) -> Self {
        Blackboard { values, version: 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_real_changes_move_the_version() {
        let mut b = Blackboard::default();
        b.insert("noise".into(), Value::Bool(true));
        assert_eq!(b.version(), 1);
        b.insert("noise".into(), Value::Bool(true));
        assert_eq!(b.version(), 1, "the same value again is no change");
        b.insert("noise".into(), Value::Bool(false));
        assert_eq!((b.version(), b.get("noise")), (2, Some(&Value::Bool(false))));
        assert_eq!(b.remove("absent"), None);
        assert_eq!(b.version(), 2);
        assert_eq!(b.remove("noise"), Some(Value::Bool(false)));
        assert_eq!(b.version(), 3);
        assert_eq!(serde_json::to_string(&b).unwrap(), "{}", "saved as the plain table");
    }
}
