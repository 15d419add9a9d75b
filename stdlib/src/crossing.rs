//! What a value weighs when it crosses from a script into the host, and the cap on one crossing.
//!
//! Every value a script hands the host — an argument to a host function, the `state` table (or
//! Rhai's `this`) at the end of a call — is converted into a [`Value`]. The conversion costs in
//! proportion to what it copies, and a script's own values can be far larger than they look: a Lua
//! table that holds itself at two keys twenty levels deep converts to a million values, and a Rhai
//! array of a thousand references to one megabyte string converts to a gigabyte. So a crossing is
//! weighed as it goes — [`VALUE_BYTES`] for every value plus the bytes of its text (strings and
//! map keys) — and refused the moment it passes its cap: an argument's cap is the memory limit
//! ([`ScriptLimits::max_memory`]), the state's is what an instance may keep between calls
//! ([`ScriptLimits::max_kept_bytes`]).
//!
//! ```
//! use tactica_stdlib::crossing::{Crossing, weight};
//! use tactica_stdlib::Value;
//! let mut c = Crossing::new(Some(40));
//! assert!(c.add(10).is_ok()); // a value with 10 bytes of text weighs 26
//! assert!(c.add(0).unwrap_err().contains("more than 40 bytes"));
//! assert_eq!(weight(&Value::List(vec![Value::Str("abcd".into()), Value::Int(1)])), 16 + 20 + 16);
//! ```

use crate::{ScriptLimits, Value};

/// What one value weighs before its text: about what the host's `Value` takes in memory.
pub const VALUE_BYTES: usize = 16;

/// The weight of one crossing so far, against its cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crossing {
    weight: usize,
    cap: Option<usize>,
    /// Whether this is the state an instance keeps (its error says so).
    kept: bool,
}

impl Crossing {
    /// A crossing that may weigh at most `cap` bytes (`None`: no cap).
    pub const fn new(cap: Option<usize>) -> Self {
        Crossing { weight: 0, cap, kept: false }
    }

    /// A crossing of a host-function argument under `limits`: capped at the memory limit.
    pub const fn argument(limits: &ScriptLimits) -> Self {
        Crossing::new(limits.memory_limit())
    }

    /// A crossing of the state table an instance keeps between calls under `limits`: its entries
    /// may weigh [`ScriptLimits::max_kept_bytes`] (the table itself is one value more).
    pub const fn kept(limits: &ScriptLimits) -> Self {
        let cap = match limits.kept_limit() {
            Some(cap) => Some(cap.saturating_add(VALUE_BYTES)),
            None => None,
        };
        Crossing { weight: 0, cap, kept: true }
    }

    /// Adds one value with `text` bytes of text; an error naming the cap once the crossing
    /// passes it.
    pub fn add(&mut self, text: usize) -> Result<(), String> {
        self.add_key(VALUE_BYTES.saturating_add(text))
    }

    /// Adds the `bytes` of a map key (a key is text only, not a value of its own).
    pub fn add_key(&mut self, bytes: usize) -> Result<(), String> {
        self.weight = self.weight.saturating_add(bytes);
        match self.cap {
            Some(cap) if self.weight > cap && self.kept => Err(kept_error(cap - VALUE_BYTES)),
            Some(cap) if self.weight > cap => Err(format!(
                "a value of more than {cap} bytes cannot cross into the host ({VALUE_BYTES} bytes a value plus its \
                 text; a table or array that holds one value many times counts it every time)"
            )),
            _ => Ok(()),
        }
    }

    /// What the crossing weighs so far.
    pub const fn weight(&self) -> usize {
        self.weight
    }
}

/// Why a call that would leave its instance keeping more than `cap` bytes fails.
pub fn kept_error(cap: usize) -> String {
    format!(
        "the state kept between calls would weigh more than {cap} bytes ({VALUE_BYTES} bytes a value plus its text); \
         keep less in it (the call's changes to it are dropped)"
    )
}

/// What `v` weighs as a crossing does: [`VALUE_BYTES`] for it and every value inside it, plus
/// the bytes of every string and map key.
pub fn weight(v: &Value) -> usize {
    VALUE_BYTES
        + match v {
            Value::Str(s) => s.len(),
            Value::List(items) => items.iter().map(weight).sum(),
            Value::Map(m) => m.iter().map(|(k, v)| k.len() + weight(v)).sum(),
            _ => 0,
        }
}

/// What a state table weighs: its entries as [`weight`] counts a map's, without the map itself.
pub fn table_weight<'a>(entries: impl IntoIterator<Item = (&'a String, &'a Value)>) -> usize {
    entries.into_iter().map(|(k, v)| k.len() + weight(v)).sum()
}
