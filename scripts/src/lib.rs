//! # tactica-script
//!
//! Tactica Script (`.tac`), the designers' language: the classic game scripting of reference 002b
//! §4 (attribute records, `If … BEGIN … END` behaviour, taunts, keyword dialogue, traps) plus
//! events, movement patterns, group sequences with signal/wait, rule systems and state machines.
//!
//! The pipeline, one module each:
//! [`lexer`] (logos) → [`parse`] (chumsky, recovering) → [`check`] (names, types, schema) →
//! [`compile`] (bytecode) → [`vm`] (a stack machine with a step budget) — and [`diagnostics`]
//! renders every finding with ariadne. Front-end functions never fail: they return
//! `(Option<T>, Vec<Diagnostic>)`.

#![warn(missing_docs)]

pub mod ast;
mod check;
mod code;
pub mod diagnostics;
mod exercise;
mod explain;
pub mod lexer;
mod parser;
mod rules;
mod runtime;
mod syntax;
mod vm;

pub use check::{check, check_program};
pub use code::Script;
pub use diagnostics::{Code, Diagnostic, Level, render};
pub use exercise::exercise;
pub use explain::{Explanation, explanation};
pub use rules::prove;
pub use runtime::{Instance, RunReport, ScriptKind, Trigger};
pub use syntax::parse;
pub use tactica_stdlib::{Api, ScriptCtx, ScriptLimits};
pub use vm::{RuntimeError, values_equal};
