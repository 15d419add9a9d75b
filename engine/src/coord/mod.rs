//! Coordinated action: every entity's action queue, and the scoped signals that let several
//! entities wait for one another (reference 000 §6.4.3).
//!
//! All three script languages drive this one queue: a Lua coroutine that yields on `move_to`, a
//! `.tac` `wait`, and a Rhai script that enqueues actions all end up as [`Action`]s here.

mod action;
mod signals;

pub use action::{Action, ActionQueue};
pub use signals::{MAX_PER_SCOPE as MAX_SIGNALS_PER_SCOPE, Signals};
