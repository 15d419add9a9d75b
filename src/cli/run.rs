//! `tactica run`: play a scenario headless.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;

use super::narrate::narrate;
use crate::reload::FileWatcher;
use crate::runtime::Runtime;
use crate::scenario;

/// Arguments of `tactica run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The scenario file (TOML), or a folder holding `scenario.toml`.
    pub scenario: PathBuf,
    /// Ticks to play (default: the scenario's `ticks`).
    #[arg(long)]
    pub ticks: Option<u64>,
    /// Seed for the world's random generator (default: the scenario's `seed`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write the trace (JSON Lines) to this file.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Print only the summary, not every event.
    #[arg(long, short)]
    pub quiet: bool,
    /// Play in real time at the scenario's tick rate and reload changed scripts as you save them
    /// (without `--ticks`, play until interrupted).
    #[arg(long)]
    pub watch: bool,
}

fn watch(rt: &Runtime) -> anyhow::Result<FileWatcher> {
    let files = rt.script_files();
    let w = FileWatcher::new(files.clone()).context("cannot watch the script files")?;
    eprintln!("watching {} script files{}", files.len(), if w.is_polling() { " (polling)" } else { "" });
    Ok(w)
}

/// Plays the scenario and prints what happened.
pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let path = if args.scenario.is_dir() { args.scenario.join("scenario.toml") } else { args.scenario.clone() };
    let mut scenario = match scenario::load(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    if let Some(seed) = args.seed {
        scenario.world.reseed(seed);
    }
    let mut rt = match Runtime::new(scenario, crate::languages()) {
        Ok(rt) => rt,
        Err(errors) => {
            for e in &errors {
                eprintln!("{}", e.rendered.clone().unwrap_or_else(|| format!("error: {e}")));
            }
            return Ok(ExitCode::from(1));
        }
    };
    let ticks = match (args.ticks, args.watch) {
        (Some(n), _) => n,
        (None, true) => u64::MAX,
        (None, false) => rt.scenario_ticks(),
    };
    let watcher = if args.watch { Some(watch(&rt)?) } else { None };
    let shown = if ticks == u64::MAX { "until interrupted".to_owned() } else { format!("for {ticks} ticks") };
    println!("Playing {} ({}) {shown} at {} Hz", rt.name(), path.display(), rt.world().clock().rate());
    let period = Duration::from_secs_f64(1.0 / f64::from(rt.world().clock().rate()));
    let mut next = Instant::now();
    let mut printed = 0;
    for _ in 0..ticks {
        if let Some(w) = &watcher {
            // Reloads land between ticks: the new code runs from the next tick on.
            for r in rt.reload_changed(w) {
                match &r.outcome {
                    Ok(()) => eprintln!("reloaded {} ({})", r.file.display(), r.entities.join(", ")),
                    Err(_) => eprintln!("{}\nthe old code keeps running", r.message()),
                }
            }
            next += period;
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
        }
        rt.tick();
        if !args.quiet {
            for e in rt.world().log().since(printed) {
                println!("{}", narrate(e));
            }
        }
        printed = rt.world().log().len();
    }
    let trace = rt.trace();
    if let Some(file) = &args.trace {
        std::fs::write(file, &trace).with_context(|| format!("cannot write the trace to {}", file.display()))?;
    }
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for e in rt.world().log().events() {
        let line = e.to_json_line();
        let kind = serde_json::from_str::<serde_json::Value>(&line)
            .ok()
            .and_then(|v| v["kind"].as_str().map(str::to_owned))
            .unwrap_or_default();
        *counts.entry(kind).or_default() += 1;
    }
    let errors = counts.get("script_error").copied().unwrap_or(0);
    let by_kind: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    println!(
        "\nPlayed {ticks} ticks ({:.1} s of game time): {} entities, {} events ({}).",
        rt.world().clock().seconds(),
        rt.world().entity_count(),
        rt.world().log().len(),
        by_kind.join(", ")
    );
    if errors > 0 {
        println!("{errors} script errors were reported (the scripts were stopped for those ticks; the world went on).");
    }
    println!("trace sha256 {}", crate::runtime::trace_hash(&trace));
    Ok(ExitCode::SUCCESS)
}
