//! Finite state machines (chapter 9, the 003 stealth guard): states with enter/exit/tick hooks,
//! ordered guarded transitions, optional hierarchy and probabilistic transitions.

mod machine;
mod stealth;
#[cfg(test)]
mod tests;

pub use machine::{FsmSpec, FsmState, Hook, HookKind, StateId, StateMachine, StateSpec, Step, TransitionSpec};
pub use stealth::STEALTH_GUARD;
