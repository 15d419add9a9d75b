//! `tactica replay TRACE SCENARIO`: play a scenario again and compare it with a recorded trace.
//!
//! Exit codes: 0 the trace reproduces, 1 it diverges (the first difference is printed), 2 bad
//! usage, a trace that cannot be read, or a scenario that does not load.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::testing::replay::{Replay, replay};
use crate::testing::{self, Suite};

/// Arguments of `tactica replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The trace (JSON Lines, as `tactica run --trace` writes it).
    pub trace: PathBuf,
    /// The scenario file (or a folder holding `scenario.toml`); or a test file, to play a test's
    /// version of its scenario (`--name` picks the test when the file has several).
    pub scenario: PathBuf,
    /// The seed the trace was recorded with (default: the scenario's, or the test's).
    #[arg(long)]
    pub seed: Option<u64>,
    /// With a test file: the test whose scenario to play.
    #[arg(long)]
    pub name: Option<String>,
}

/// Replays the trace and prints whether it reproduces or where it first diverges.
pub fn replay_cli(args: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let trace = match crate::scenario::files::read_text(&args.trace, 1 << 30) {
        Ok(t) => t,
        Err(why) => return usage(&format!("the trace {} {why}", args.trace.display())),
    };
    let is_test = args.scenario.extension().is_some_and(|e| e == testing::prepare::EXTENSION);
    let rt = if is_test {
        let mut suite = match Suite::load(&[&args.scenario]) {
            Ok(s) => s,
            Err(e) => return usage(&e.to_string()),
        };
        if let Some(name) = &args.name {
            suite.keep_named(name);
        }
        let [test] = suite.tests.as_slice() else {
            let names: Vec<String> = suite.tests.iter().map(|t| format!("\"{}\"", t.name)).collect();
            return usage(&format!("pick the test with `--name`: {}", names.join(", ")));
        };
        match testing::sweep::start(test, args.seed.unwrap_or(test.seed)) {
            Ok(rt) => rt,
            Err(e) => return usage(&e),
        }
    } else {
        let Ok(mut scenario) = super::load_scenario(&args.scenario) else { return Ok(ExitCode::from(2)) };
        if let Some(seed) = args.seed {
            scenario.world.reseed(seed);
        }
        match super::start(scenario) {
            Ok(rt) => rt,
            Err(_) => return Ok(ExitCode::from(2)),
        }
    };
    match replay(&trace, rt) {
        Ok(Replay::Reproduces { events, ticks }) => {
            println!("the trace reproduces: {events} events over {ticks} ticks, every one the same");
            Ok(ExitCode::SUCCESS)
        }
        Ok(Replay::Diverges(d)) => {
            print!("{}", d.text());
            Ok(ExitCode::from(1))
        }
        Err(e) => usage(&format!("{}: {e}", args.trace.display())),
    }
}

fn usage(message: &str) -> anyhow::Result<ExitCode> {
    eprintln!("error: {message}");
    Ok(ExitCode::from(2))
}
