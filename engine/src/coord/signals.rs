//! Scoped signals.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, DefaultHasher};

/// SipHash with fixed keys: the same on every run. Nothing iterates the signals (they are only
/// sent, asked about and cleared), so the tables' order is never seen.
type FixedHash = BuildHasherDefault<DefaultHasher>;

/// The signals sent so far, each in a scope (a group or a sequence instance) so that two squads
/// running the same script do not release each other.
///
/// A signal stays sent until its scope is cleared: one sent before anybody waits for it releases
/// that wait as soon as it starts (000 §6.4.3).
#[derive(Debug, Clone, Default)]
pub struct Signals {
    /// By scope, the ids sent in it: a wait asks on every tick it waits, so the question is
    /// answered by two lookups by `&str`, with nothing allocated. Hashed rather than sorted: a
    /// crowd has a thousand squad scopes with a long common prefix (`squad:watch/…`), and a tree
    /// compares that prefix at every level for each of the thousands of waits a tick.
    sent: HashMap<String, HashSet<String, FixedHash>, FixedHash>,
}

impl Signals {
    /// Marks `id` as sent in `scope`. Returns `false` if it already was.
    pub fn send(&mut self, scope: &str, id: &str) -> bool {
        match self.sent.get_mut(scope) {
            Some(ids) if ids.contains(id) => false,
            Some(ids) => ids.insert(id.to_owned()),
            None => {
                let mut ids = HashSet::default();
                ids.insert(id.to_owned());
                self.sent.insert(scope.to_owned(), ids);
                true
            }
        }
    }

    /// Whether `id` has been sent in `scope`.
    pub fn is_sent(&self, scope: &str, id: &str) -> bool {
        self.sent.get(scope).is_some_and(|ids| ids.contains(id))
    }

    /// Forgets every signal of `scope` (a sequence does this when it starts).
    pub fn clear_scope(&mut self, scope: &str) {
        self.sent.remove(scope);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_do_not_leak_and_clearing_is_per_scope() {
        let mut s = Signals::default();
        assert!(s.send("squad-a", "breach"));
        assert!(!s.send("squad-a", "breach"));
        assert!(s.is_sent("squad-a", "breach"));
        assert!(!s.is_sent("squad-b", "breach"));
        s.send("squad-b", "go");
        s.clear_scope("squad-a");
        assert!(!s.is_sent("squad-a", "breach"));
        assert!(s.is_sent("squad-b", "go"));
    }
}
