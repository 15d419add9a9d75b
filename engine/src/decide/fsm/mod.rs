//! Finite state machines (chapter 9, the 003 stealth guard): states with enter/exit/tick hooks,
//! ordered guarded transitions, optional hierarchy and probabilistic transitions.
//!
//! The one state-machine engine: a scenario's machine files and `.tac` `machine` blocks both run
//! on [`StateMachine`] (`.tac` builds one with its compiled conditions as guards).

mod machine;
mod stealth;
#[cfg(test)]
mod tests;

pub use machine::{
    FsmSpec, FsmState, Hook, HookKind, SelfTransition, StateDef, StateId, StateMachine, StateSpec, Step, TransitionSpec,
};
pub use stealth::STEALTH_GUARD;
