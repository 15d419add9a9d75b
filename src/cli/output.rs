//! How the commands print: colour for people at a terminal, JSON Lines for programs.
//!
//! Colour follows the usual conventions: `--color auto` (the default) colours diagnostics only
//! when stderr is a terminal and `NO_COLOR` is unset or empty; `always` and `never` decide
//! outright. `--format json` makes `check`, `query` and `path` print one JSON object per line
//! (docs/json.md), each with a `"type"` saying what it is.

use std::io::IsTerminal;
use std::sync::OnceLock;

use clap::ValueEnum;

/// When to colour diagnostics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    /// When stderr is a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always (a CI log that renders ANSI colour).
    Always,
    /// Never.
    Never,
}

/// What the command prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Format {
    /// Text for people.
    #[default]
    Text,
    /// One JSON object per line, for programs (docs/json.md).
    Json,
}

static COLOR: OnceLock<ColorChoice> = OnceLock::new();

/// Records the `--color` choice; the first call wins (the CLI makes it once, at start).
pub fn set_color(choice: ColorChoice) {
    let _ = COLOR.set(choice);
}

/// Whether diagnostics written to stderr are coloured.
pub fn color() -> bool {
    match COLOR.get().copied().unwrap_or_default() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stderr().is_terminal()
        }
    }
}

/// Whether text written to stdout is coloured (`tactica test`'s report): as [`color`], for stdout.
pub fn color_stdout() -> bool {
    match COLOR.get().copied().unwrap_or_default() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && std::io::stdout().is_terminal()
        }
    }
}

/// Prints one JSON object as a line of stdout.
pub fn json_line(value: &serde_json::Value) {
    println!("{value}");
}
