//! # tactica-script
//!
//! Tactica Script (`.tac`), the designers' language: the classic game scripting of reference 002b
//! §4 (attribute records, `If … BEGIN … END` behaviour, taunts, keyword dialogue, traps) plus
//! events, movement patterns, group sequences with signal/wait, rule systems and state machines.
//!
//! The pipeline: the designers' one front end, `tactica-syntax` ([`lexer`] with logos, [`parse`]
//! with chumsky, recovering; [`diagnostics`] rendered with ariadne, re-exported here) →
//! [`check`] (names, types, schema) → compile (bytecode) → the VM (a stack machine with a step
//! budget). Rule systems and state machines run on the engine's models (`decide::rules`,
//! `decide::fsm`). Front-end functions never fail: they return `(Option<T>, Vec<Diagnostic>)`.
//!
//! ```
//! use tactica_stdlib::Api;
//!
//! let api = Api::standard();
//! let (script, diagnostics) = tactica_script::check("guard.tac", "on encounter { Say(\"Halt!\"); }\n", &api);
//! assert!(script.is_some() && diagnostics.is_empty());
//!
//! // A misspelt function is an error with its place and a hint, never a panic.
//! let (script, diagnostics) = tactica_script::check("guard.tac", "on encounter { Sya(\"Halt!\"); }\n", &api);
//! assert!(script.is_none());
//! assert_eq!(diagnostics[0].span.start, 15);
//! assert!(diagnostics[0].hint.as_deref().unwrap_or("").contains("Say"), "{:?}", diagnostics[0]);
//! ```

#![deny(missing_docs)]

mod check;
mod code;
mod exercise;
mod rules;
mod runtime;
mod vm;

/// The front end is shared with every other kind of designer text (model conditions, query
/// blocks): it lives in `tactica-syntax` and is re-exported here under its old paths.
pub use tactica_syntax::{ast, diagnostics, lexer, tree};

pub use check::{check, check_program, is_tac_builtin, tac_api};
pub use code::Script;
pub use diagnostics::{Code, Diagnostic, Level, render};
pub use exercise::exercise;
pub use rules::prove;
pub use runtime::{Instance, RunReport, ScriptKind, Trigger};
pub use tactica_stdlib::{Api, ScriptCtx, ScriptLimits};
pub use tactica_syntax::parse;
pub use tactica_syntax::{Explanation, TextKind, explanation};
pub use vm::{RuntimeError, values_equal};
