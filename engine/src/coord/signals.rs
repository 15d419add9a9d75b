//! Scoped signals.

use std::collections::{HashMap, HashSet};

use foldhash::fast::RandomState;

/// The signals sent so far, each in a scope (a group or a sequence instance) so that two squads
/// running the same script do not release each other.
///
/// A signal stays sent until its scope is cleared: one sent before anybody waits for it releases
/// that wait as soon as it starts (000 §6.4.3).
#[derive(Debug, Clone, Default)]
pub struct Signals {
    /// By scope, the ids sent in it: a wait asks on every tick it waits, so the question is
    /// answered by two lookups by `&str`, with nothing allocated. Hashed, not ordered: a crowd
    /// has a scope per squad and a signal per leg walked, and an ordered search compares a
    /// dozen strings scattered over the heap where a hash compares one.
    ///
    /// Scripts choose the ids, so the hash is seeded at random per map: with a fixed hash (Fx),
    /// a hostile mod could send ids made to collide and turn every wait's lookup into a scan of
    /// all of them. Nothing iterates the sets, so the seed never reaches the trace.
    sent: HashMap<String, HashSet<String, RandomState>, RandomState>,
}

/// How many different ids one scope keeps. A signal stays sent until its scope is cleared, so a
/// script that makes a new id every call (`"go" .. n`) would otherwise grow the set for the
/// whole game; the host functions refuse a new id past this with an error the script sees.
pub const MAX_PER_SCOPE: usize = 4_096;

impl Signals {
    /// Marks `id` as sent in `scope`. Returns `false` if it already was, or if the scope holds
    /// [`MAX_PER_SCOPE`] ids already (only ids sent in the tick the cap is reached get here: the
    /// host functions refuse the others first).
    pub fn send(&mut self, scope: &str, id: &str) -> bool {
        match self.sent.get_mut(scope) {
            Some(ids) if ids.contains(id) || ids.len() >= MAX_PER_SCOPE => false,
            Some(ids) => ids.insert(id.to_owned()),
            None => {
                let mut ids = HashSet::with_hasher(RandomState::default());
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

    /// Whether `id` would be refused in `scope`: new there, and the scope full.
    pub fn is_full_for(&self, scope: &str, id: &str) -> bool {
        self.sent.get(scope).is_some_and(|ids| ids.len() >= MAX_PER_SCOPE && !ids.contains(id))
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

    #[test]
    fn a_scope_keeps_at_most_its_cap_of_ids() {
        let mut s = Signals::default();
        for i in 0..MAX_PER_SCOPE {
            assert!(s.send("squad", &format!("leg{i}")));
        }
        assert!(!s.is_full_for("squad", "leg7"), "an id already sent is never refused");
        assert!(s.is_full_for("squad", "one-more"));
        assert!(!s.send("squad", "one-more"));
        assert!(!s.is_sent("squad", "one-more"));
        assert!(s.send("other", "one-more"), "the cap is per scope");
        s.clear_scope("squad");
        assert!(s.send("squad", "one-more"), "clearing the scope makes room");
    }

    #[test]
    fn the_hash_is_seeded_per_map_so_colliding_ids_cannot_be_made_in_advance() {
        use std::hash::BuildHasher;
        let (a, b) = (Signals::default(), Signals::default());
        let hashes = |s: &Signals| (0..4).map(|i| s.sent.hasher().hash_one(format!("leg{i}"))).collect::<Vec<_>>();
        assert_ne!(hashes(&a), hashes(&b), "two maps hash the same ids alike");
    }
}
