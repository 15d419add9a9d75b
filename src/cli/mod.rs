//! The command line: argument parsing (clap) and the subcommands. Each subcommand is a file of
//! its own that turns the library's typed results into text and an exit code.
//!
//! Exit codes: 0 all well, 1 errors were found (bad scenario, map or script; warnings only under
//! `check --deny-warnings`; a test that failed; a trace that diverges), 2 bad usage (and for
//! `test` and `replay`, what could not be loaded).

pub(crate) mod check;
mod docs;
mod explain;
mod lsp;
mod output;
mod path;
mod progress;
mod query;
mod render;
mod replay;
mod run;
mod test;
mod view;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::runtime::Runtime;
use crate::scenario::{self, Scenario};

/// Tactica: a runtime that gives game characters their brains.
#[derive(Debug, Parser)]
#[command(name = "tactica", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
    /// When to colour diagnostics: `auto` (at a terminal, unless `NO_COLOR` is set), `always`,
    /// `never`.
    #[arg(long, global = true, value_enum, default_value_t = output::ColorChoice::Auto)]
    pub color: output::ColorChoice,
    /// Units of load-time work a scenario may ask for before its first tick (default
    /// 2,000,000,000; docs/scenario.md, "Load limits"). Raise it for a large scenario you trust.
    #[arg(long, global = true, value_name = "UNITS")]
    pub load_budget: Option<u64>,
}

/// The limits every scenario this process loads is held to (set once from the arguments).
static LOAD_LIMITS: std::sync::OnceLock<scenario::LoadLimits> = std::sync::OnceLock::new();

/// The load limits the command line was given.
pub(crate) fn load_limits() -> scenario::LoadLimits {
    LOAD_LIMITS.get().copied().unwrap_or_default()
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play a scenario headless, print what happened and the trace's hash.
    Run(run::RunArgs),
    /// Validate scenario, map and script files and print diagnostics.
    Check {
        /// Files or folders to check (.toml scenarios, .map/.txt maps, scripts).
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Fail (exit 1) on warnings too, as CI wants.
        #[arg(long)]
        deny_warnings: bool,
        /// `text` for people, `json` for programs: one object per line (docs/json.md).
        #[arg(long, value_enum, default_value_t = output::Format::Text)]
        format: output::Format,
    },
    /// Explain a `.tac` diagnostic code (`tactica explain E0013`): what it means, a wrong and a
    /// right example.
    Explain(explain::ExplainArgs),
    /// Evaluate a tactical position query over a map and print every candidate.
    Query(query::QueryArgs),
    /// Solve every query of a MovingAI scenario file and check the lengths against the optimal ones.
    Path(path::PathArgs),
    /// Draw a tactical layer of a scenario as a PNG heat map (`--layer list` lists them).
    Render(render::RenderArgs),
    /// Write the replay viewer: one HTML file with the map and the recorded run, to scrub in a
    /// browser (docs/viewer.md).
    View(view::ViewArgs),
    /// Write the script API for editors: a LuaLS definitions file, a Rhai definitions file and the
    /// Markdown reference, with a scenario's names when one is given.
    Docs(docs::DocsArgs),
    /// Serve editors over stdio (the Language Server Protocol): diagnostics as you type, hover
    /// docs, completion and go to definition for `.tac`, Lua and Rhai (docs/editors.md).
    Lsp(lsp::LspArgs),
    /// Run the AI's tests (`*.tactest`): what the characters must do, on one seed or a sweep of
    /// many, with a report, JSON or JUnit, shards and goldens (docs/testing.md).
    Test(test::TestArgs),
    /// Play a scenario again and compare it with a recorded trace, to the first difference.
    Replay(replay::ReplayArgs),
}

/// Parses the arguments and runs the command.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    output::set_color(cli.color);
    let mut limits = scenario::LoadLimits::new();
    if let Some(units) = cli.load_budget {
        limits = limits.set_work(units);
    }
    let _ = LOAD_LIMITS.set(limits);
    let result = match cli.command {
        Command::Run(args) => run::run(&args),
        Command::Check { paths, deny_warnings, format } => check::check(&paths, deny_warnings, format),
        Command::Explain(args) => explain::explain(&args),
        Command::Query(args) => query::query(&args),
        Command::Path(args) => path::path(&args),
        Command::Render(args) => render::render(&args),
        Command::View(args) => view::view(&args),
        Command::Docs(args) => docs::docs(&args),
        Command::Lsp(args) => lsp::lsp(&args),
        Command::Test(args) => test::test(&args),
        Command::Replay(args) => replay::replay_cli(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

/// The scenario at `path` (a file, or a folder holding `scenario.toml`); on failure the error is
/// printed and the exit code is 1. A load that takes a while shows its progress against the
/// load budget on a terminal.
fn load_scenario(path: &Path) -> Result<Scenario, ExitCode> {
    let file = if path.is_dir() { path.join("scenario.toml") } else { path.to_path_buf() };
    let bar = progress::LoadBar::new();
    let mut report = |p: &scenario::LoadProgress<'_>| bar.report(p);
    let loaded = scenario::Loader::new().limits(load_limits()).progress(&mut report).load(&file);
    bar.finish();
    loaded.map_err(|e| {
        eprintln!("error: {e}");
        ExitCode::from(1)
    })
}

/// A runtime for `scenario` in every language; on failure every script's report is printed and
/// the exit code is 1.
fn start(scenario: Scenario) -> Result<Runtime, ExitCode> {
    Runtime::new(scenario, crate::languages()).map_err(|errors| {
        for e in &errors {
            eprintln!("{}", e.report());
        }
        ExitCode::from(1)
    })
}

/// Loads a scenario and plays it to `tick`, for the commands that look at a moment of a run;
/// errors are printed, and the exit code is returned.
///
/// A tick past the scenario's end is refused: the game never reaches it, and a mistyped tick
/// would otherwise replay for as long as it takes to get there.
fn play_to(path: &Path, tick: u64) -> Result<Runtime, ExitCode> {
    let mut rt = start(load_scenario(path)?)?;
    let end = rt.scenario_ticks();
    if tick > end {
        eprintln!(
            "error: --tick {tick} is past the end of {} ({}); ask about a tick from 0 to {end}",
            path.display(),
            count(end, "tick", "ticks")
        );
        return Err(ExitCode::from(2));
    }
    rt.run(tick);
    Ok(rt)
}

/// `n` with the singular or plural noun: `1 tick`, `2 ticks`.
pub(crate) fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
