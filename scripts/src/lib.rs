//! # tactica-script
//!
//! Tactica Script (`.tac`), the designers' language: lexer, parser, checker, compiler, VM and
//! diagnostics. Not yet built: the runtime reports `.tac` files as having no language registered.
