//! `tactica view`: write the replay viewer for a scenario's run, or for a trace file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::view::{self, ViewOptions, trace::Source};

/// Arguments of `tactica view`.
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// A scenario (file, or folder holding `scenario.toml`) to play and record, or a trace file
    /// (`.jsonl`, as `run --trace` writes it).
    pub input: PathBuf,
    /// With a trace: the scenario that made it (played again for everything a trace does not
    /// hold, when it makes the same trace).
    #[arg(long)]
    pub scenario: Option<PathBuf>,
    /// The HTML file to write (default: the scenario's or trace's name with `.html`, in the
    /// current folder).
    #[arg(short, long, value_name = "FILE.html")]
    pub output: Option<PathBuf>,
    /// Ticks to play (default: the scenario's `ticks`; for a trace, up to its last tick).
    #[arg(long)]
    pub ticks: Option<u64>,
    /// Seed for the world's random generator (default: the scenario's `seed`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Record the tactical layers every this many ticks (default: the scenario's `[view]
    /// layer_every`, else as often as keeps the file small).
    #[arg(long, value_name = "TICKS", value_parser = clap::value_parser!(u64).range(1..))]
    pub layer_every: Option<u64>,
    /// The tick the viewer opens at.
    #[arg(long, value_name = "TICK")]
    pub at: Option<u64>,
}

/// Writes the viewer's page.
pub fn view(args: &ViewArgs) -> anyhow::Result<ExitCode> {
    let options = ViewOptions {
        ticks: args.ticks,
        seed: args.seed,
        layer_every: args.layer_every,
        markers: Vec::new(),
        start_tick: args.at,
    };
    let is_trace = args.input.is_file() && args.input.extension().is_some_and(|e| e == "jsonl" || e == "json");
    let (html, note) = if is_trace {
        let scenario = match &args.scenario {
            Some(s) => match super::load_scenario(s) {
                Ok(s) => Some(s),
                Err(code) => return Ok(code),
            },
            None => None,
        };
        match view::view_trace(&args.input, scenario, &options) {
            Ok((html, Source::Replayed)) => (html, "the scenario played again made the same trace".to_owned()),
            Ok((html, Source::TraceOnly(why))) => (html, format!("from the trace alone: {why}")),
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(ExitCode::from(1));
            }
        }
    } else {
        if args.scenario.is_some() {
            eprintln!("error: --scenario goes with a trace file; {} is a scenario", args.input.display());
            return Ok(ExitCode::from(2));
        }
        let scenario = match super::load_scenario(&args.input) {
            Ok(s) => s,
            Err(code) => return Ok(code),
        };
        match view::view_scenario(scenario, &options) {
            Ok(html) => (html, "recorded".to_owned()),
            Err(e) => {
                eprintln!("error: {e}");
                return Ok(ExitCode::from(1));
            }
        }
    };
    let out = args.output.clone().unwrap_or_else(|| default_output(&args.input));
    crate::output::write_file(&out, html.as_bytes())?;
    println!("wrote {} ({} KiB; {note}); open it in a browser", out.display(), html.len().div_ceil(1024));
    Ok(ExitCode::SUCCESS)
}

/// `examples/harbour` → `harbour.html`; `run.jsonl` → `run.html`.
fn default_output(input: &Path) -> PathBuf {
    let stem = if input.is_dir() || input.file_name().is_some_and(|n| n == "scenario.toml") {
        let dir = if input.is_dir() { input } else { input.parent().unwrap_or(Path::new(".")) };
        crate::reload::absolute(dir).file_name().map(|n| n.to_string_lossy().into_owned())
    } else {
        input.file_stem().map(|n| n.to_string_lossy().into_owned())
    };
    PathBuf::from(format!("{}.html", stem.unwrap_or_else(|| "view".to_owned())))
}
