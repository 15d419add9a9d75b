//! The squad signals a scenario's Lua and Rhai scripts send and wait for, as `tactica check`
//! reads them (literal ids only), so that the `.tac` checker's pairing of a sequence's waits and
//! signals (E0061, E0062) counts the squad-mates that play their roles in another language.
//! Where a script computes an id or a scope, nobody can know what it sends: the checker stays
//! silent rather than report a wait someone may well release.

use std::collections::BTreeSet;

/// What the scripts of a scenario send and wait for in the squad's scope.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptSignals {
    /// Ids sent with a literal id (lower case).
    pub sent: BTreeSet<String>,
    /// Ids waited for with a literal id (lower case).
    pub awaited: BTreeSet<String>,
    /// Whether a script sends an id it computes.
    pub computed_sends: bool,
    /// Whether a script waits for an id it computes.
    pub computed_waits: bool,
}

/// One argument of a call as the linter saw it: `Some(text)` for a string literal, `None` for
/// anything computed.
pub type Literal<'a> = Option<&'a str>;

impl ScriptSignals {
    /// Notes a call of `function` (as the script spells it) with its first two arguments, when
    /// it is `Signal` or `Wait` in the squad's scope: one argument, or a second that is
    /// `"squad"` (or computed, so possibly `"squad"`).
    pub fn note(&mut self, function: &str, id: Option<Literal<'_>>, scope: Option<Literal<'_>>) {
        let send = match function {
            "Signal" | "signal" => true,
            "Wait" | "wait" => false,
            _ => return,
        };
        let Some(id) = id else { return };
        if let Some(Some(scope)) = scope
            && !scope.eq_ignore_ascii_case("squad")
        {
            return;
        }
        match (id, send) {
            (Some(id), true) => {
                self.sent.insert(id.to_ascii_lowercase());
            }
            (Some(id), false) => {
                self.awaited.insert(id.to_ascii_lowercase());
            }
            (None, true) => self.computed_sends = true,
            (None, false) => self.computed_waits = true,
        }
    }

    /// Adds what another script sends and waits for.
    pub fn extend(&mut self, other: ScriptSignals) {
        self.sent.extend(other.sent);
        self.awaited.extend(other.awaited);
        self.computed_sends |= other.computed_sends;
        self.computed_waits |= other.computed_waits;
    }

    /// Whether some script may send `id` (lower case) in the squad's scope.
    pub fn may_send(&self, id: &str) -> bool {
        self.computed_sends || self.sent.contains(id)
    }

    /// Whether some script may wait for `id` (lower case) in the squad's scope.
    pub fn may_await(&self, id: &str) -> bool {
        self.computed_waits || self.awaited.contains(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_squad_signals_are_read_and_computed_ones_make_it_unknowable() {
        let mut s = ScriptSignals::default();
        s.note("Signal", Some(Some("Ready")), None);
        s.note("wait", Some(Some("go")), Some(Some("squad")));
        s.note("Signal", Some(Some("dawn")), Some(Some("world")));
        s.note("Say", Some(Some("hi")), None);
        assert!(s.may_send("ready") && !s.may_send("dawn") && !s.may_send("go"));
        assert!(s.may_await("go") && !s.may_await("ready"));
        s.note("Signal", Some(None), None);
        assert!(s.may_send("anything"), "a computed id may be any");
        assert!(!s.may_await("anything"));
    }
}
