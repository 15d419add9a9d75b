//! # tactica-syntax
//!
//! The one front end for everything a designer types into Tactica. Three kinds of text share it:
//!
//! - **`.tac` files** ([`parse`]): attribute records, behaviour, dialogue, traps, sequences, rule
//!   systems and state machines, parsed to an [`ast::Program`];
//! - **model conditions** ([`condition::parse`]): the `when = "…"` guards of state machines and
//!   rule bases in a scenario's model files, which are `.tac` expressions (`health < 30 and not
//!   armed`, `Temple == Yes`) restricted to facts, literals, comparisons and `and`/`or`/`not`;
//! - **position-query blocks** ([`blocks::parse`]): the `query name { option { Generation { … } } }`
//!   files a scenario's `[queries]` lists;
//! - **behaviour trees** ([`tree::parse`]): the `.bt` files a scenario's `[models]` declares with
//!   `tree = …`, whose conditions are model conditions;
//! - **test files** ([`testfile::parse`], [`testfile::check`]): what a scenario's characters must
//!   do (`expect runner reaches warehouse by 150;`), which `tactica test` checks.
//!
//! All of them use one [`lexer`] (logos: case-insensitive keywords, `//`, `#` and `--` comments,
//! `"…"` or `'…'` strings), chumsky parsers that recover and report every mistake, and one
//! [`Diagnostic`] type with stable [`Code`]s that `tactica explain` knows, rendered by ariadne
//! ([`render`]). Front-end functions never panic on any input.
//!
//! The language's meaning (names, types, compiling, running) lives in `tactica-script`; the
//! engine turns conditions and query blocks into its own models.
//!
//! ```
//! use tactica_syntax::{condition, Code};
//!
//! let c = condition::parse("health < 30 and not armed").unwrap();
//! assert_eq!(c.facts(), ["health", "armed"]);
//!
//! let errors = condition::parse("health < 30 and Say(\"hi\")").unwrap_err();
//! assert_eq!(errors[0].code, Code::NotACondition);
//! ```

#![deny(missing_docs)]

pub mod ast;
pub mod blocks;
pub mod condition;
pub mod diagnostics;
pub mod explain;
pub mod lexer;
pub mod limits;
mod parser;
mod tac;
pub mod testfile;
pub mod tree;

pub use diagnostics::{Code, Diagnostic, Level, line_col, offset_of, render};
pub use explain::{Explanation, TextKind, explanation};
pub use tac::parse;
