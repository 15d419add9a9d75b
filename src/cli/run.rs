//! `tactica run`: play a scenario headless.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;

use crate::reload::FileWatcher;
use crate::render;
use crate::runtime::Runtime;
use crate::runtime::narrate::narrate;

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
    /// Write the trace (JSON Lines) to this file; `-` writes it to standard output (and
    /// everything else to standard error).
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Exit with status 0 even when scripts failed (by default a run with script errors exits
    /// with 1, so a CI job notices).
    #[arg(long)]
    pub keep_going: bool,
    /// Print only the summary, not every event.
    #[arg(long, short)]
    pub quiet: bool,
    /// Play in real time at the scenario's tick rate and reload changed scripts as you save them
    /// (without `--ticks`, play until interrupted).
    #[arg(long)]
    pub watch: bool,
    /// Write a PNG frame of the world into this folder (every `--render-every` ticks).
    #[arg(long, value_name = "DIR")]
    pub render: Option<PathBuf>,
    /// With `--render`: draw every this many ticks.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub render_every: u64,
    /// Time every tick phase, language, script file, handler and host function, and print the
    /// tables (and the ticks over budget) at the end (docs/profile.md).
    #[arg(long)]
    pub profile: bool,
    /// Write the profiler's timeline — every tick, its phases, script calls and host calls — to
    /// this file in the Chrome trace-event format, which Perfetto and `chrome://tracing` open
    /// (docs/profile.md).
    #[arg(long, value_name = "FILE.json")]
    pub profile_json: Option<PathBuf>,
    /// Worker threads for the scripts phase (default: the scenario's `threads`, else one per
    /// core; at most 8 are used). The trace is the same for any number.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub threads: Option<u64>,
    /// With `--profile`: the frame budget in milliseconds a tick is listed against (default 16.6).
    #[arg(long, value_name = "MS", value_parser = frame_budget)]
    pub frame_budget: Option<f64>,
}

fn frame_budget(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(ms) if ms.is_finite() && ms > 0.0 && ms < 1e9 => Ok(ms),
        _ => Err(format!("`{text}` is not a frame budget: give milliseconds, a number above 0 (e.g. 16.6)")),
    }
}

fn watch(rt: &Runtime) -> anyhow::Result<FileWatcher> {
    let files = rt.script_files();
    let w = FileWatcher::new(files.clone()).context("cannot watch the script files")?;
    eprintln!("watching {} script files{}", files.len(), if w.is_polling() { " (polling)" } else { "" });
    Ok(w)
}

/// Plays the scenario and prints what happened.
pub fn run(args: &RunArgs) -> anyhow::Result<ExitCode> {
    let mut scenario = match super::load_scenario(&args.scenario) {
        Ok(s) => s,
        Err(code) => return Ok(code),
    };
    if let Some(seed) = args.seed {
        scenario.world.reseed(seed);
    }
    let mut rt = match super::start(scenario) {
        Ok(rt) => rt,
        Err(code) => return Ok(code),
    };
    let ticks = match (args.ticks, args.watch) {
        (Some(n), _) => n,
        (None, true) => u64::MAX,
        (None, false) => rt.scenario_ticks(),
    };
    let watcher = if args.watch { Some(watch(&rt)?) } else { None };
    if let Some(n) = args.threads {
        rt.set_threads(usize::try_from(n).unwrap_or(1));
    }
    if let Some(ms) = args.frame_budget {
        rt.set_frame_budget(Duration::from_secs_f64(ms / 1e3));
    }
    if args.profile {
        rt.enable_profile();
    }
    // The timeline streams into a file made as every output file is (never through a link); the
    // runtime owns the writer while it plays, so the file is put in place from here once closed.
    let timeline_file = match &args.profile_json {
        Some(file) => {
            let shared = SharedOutput(Arc::new(std::sync::Mutex::new(crate::output::create_file(file)?)));
            rt.profile_timeline(Box::new(std::io::BufWriter::new(shared.clone())));
            Some(shared)
        }
        None => None,
    };
    let trace_to_stdout = args.trace.as_deref() == Some(Path::new("-"));
    // Opened before playing, so a place that cannot be written is said at once, not after the run.
    let trace_file = match &args.trace {
        Some(file) if !trace_to_stdout => Some(crate::output::create_file(file)?),
        _ => None,
    };
    // With the trace on standard output, what people read goes to standard error.
    let mut out: Box<dyn Write> =
        if trace_to_stdout { Box::new(std::io::stderr()) } else { Box::new(std::io::stdout()) };
    let shown = if ticks == u64::MAX { "until interrupted".to_owned() } else { format!("for {ticks} ticks") };
    // Before saying "Playing": from then on an interrupt writes the trace.
    let interrupted = interrupt_flag();
    writeln!(out, "Playing {} ({}) {shown} at {} Hz", rt.name(), rt.file().display(), rt.world().clock().rate())?;
    let period = Duration::from_secs_f64(1.0 / f64::from(rt.world().clock().rate()));
    let mut next = Instant::now();
    let mut frames = args.render.as_ref().map(render::FrameWriter::new).transpose()?;
    let mut printed = 0;
    let mut played = 0;
    for _ in 0..ticks {
        // Checked between ticks: a tick in progress finishes, so the trace ends on a whole tick.
        if interrupted.load(Ordering::SeqCst) {
            break;
        }
        if let Some(w) = &watcher {
            // Reloads land between ticks: the new code runs from the next tick on.
            for r in rt.reload_changed(w) {
                match &r.outcome {
                    Ok(()) => eprintln!("reloaded {} ({})", r.file.display(), r.entities.join(", ")),
                    Err(_) => eprintln!("{}\nthe old code keeps running", r.message()),
                }
            }
            // Said above, in full: the `reload` events these logged are not narrated again.
            printed = rt.world().log().len();
            next += period;
            std::thread::sleep(next.saturating_duration_since(Instant::now()));
        }
        rt.tick();
        if let Some(frames) = &mut frames
            && rt.world().clock().tick() % args.render_every == 0
        {
            frames.write(&render::draw_world(rt.world(), &render::Style::default()))?;
        }
        if !args.quiet {
            for e in rt.world().log().since(printed) {
                writeln!(out, "{}", narrate(e))?;
            }
        }
        printed = rt.world().log().len();
        played += 1;
    }
    // Errors still repeating get their count, on the last tick played.
    rt.finish();
    if !args.quiet {
        for e in rt.world().log().since(printed) {
            writeln!(out, "{}", narrate(e))?;
        }
    }
    let stopped_early = interrupted.load(Ordering::SeqCst);
    if stopped_early {
        writeln!(out, "\ninterrupted after {played} ticks: writing what was played")?;
    }
    let trace = rt.trace();
    if trace_to_stdout {
        std::io::stdout().write_all(trace.as_bytes())?;
    }
    if let Some(mut file) = trace_file {
        file.write_all(trace.as_bytes())
            .with_context(|| format!("cannot write the trace to {}", file.path().display()))?;
        file.finish()?;
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
    // A repeated error counts every time it happened, though its repeats share one line.
    let repeats: u64 = rt
        .world()
        .log()
        .events()
        .iter()
        .map(|e| match e.kind {
            tactica_engine::world::EventKind::ScriptErrorRepeated { count, .. } => count,
            _ => 0,
        })
        .sum();
    let errors = counts.get("script_error").copied().unwrap_or(0) + repeats as usize;
    let by_kind: Vec<String> = counts.iter().map(|(k, n)| format!("{k} {n}")).collect();
    writeln!(
        out,
        "\nPlayed {} ({:.1} s of game time): {}, {} ({}).",
        super::count(played, "tick", "ticks"),
        rt.world().clock().seconds(),
        super::count(rt.world().entity_count() as u64, "entity", "entities"),
        super::count(rt.world().log().len() as u64, "event", "events"),
        by_kind.join(", ")
    )?;
    if errors > 0 {
        let (n, verb) =
            if errors == 1 { ("1 script error", "was") } else { (&*format!("{errors} script errors"), "were") };
        writeln!(out, "{n} {verb} reported (the scripts were stopped for those ticks; the world went on).")?;
    }
    if let (Some(dir), Some(frames)) = (&args.render, &frames) {
        writeln!(out, "{} frames written to {}", frames.count(), dir.display())?;
    }
    writeln!(out, "trace sha256 {}", crate::runtime::trace_hash(&trace))?;
    if let Some(file) = &args.profile_json {
        rt.finish_profile_timeline()
            .with_context(|| format!("cannot write the profile timeline to {}", file.display()))?;
        if let Some(shared) = timeline_file {
            shared.finish()?;
        }
        writeln!(out, "profile timeline written to {} (open it in Perfetto or chrome://tracing)", file.display())?;
    }
    if let Some(profile) = rt.profile().filter(|_| args.profile) {
        write!(out, "\n{}", profile.report())?;
    }
    // 130 is what shells report for a program ended by Ctrl-C.
    Ok(if stopped_early {
        ExitCode::from(130)
    } else if errors > 0 && !args.keep_going {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// A flag Ctrl-C (and SIGTERM) sets instead of killing the process, so the trace played so far is
/// still written. If the handler cannot be installed (one is already set, as in a game embedding
/// the CLI), the flag simply never rises and the default behaviour stays.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let raised = Arc::clone(&flag);
    if let Err(e) = ctrlc::set_handler(move || raised.store(true, Ordering::SeqCst)) {
        eprintln!("note: Ctrl-C will not save the trace ({e})");
    }
    flag
}

/// An output file the profile timeline writes to while the runtime holds the writer.
#[derive(Clone)]
struct SharedOutput(Arc<std::sync::Mutex<crate::output::OutputFile>>);

impl SharedOutput {
    /// Puts the file in place; the runtime must have dropped its writer (the timeline finished).
    fn finish(self) -> anyhow::Result<()> {
        let file = Arc::try_unwrap(self.0)
            .map_err(|_| anyhow::anyhow!("the profile timeline is still being written"))?
            .into_inner()
            .map_err(|_| anyhow::anyhow!("the profile timeline's writer panicked"))?;
        file.finish()?;
        Ok(())
    }
}

impl Write for SharedOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.lock().map_err(|_| std::io::Error::other("poisoned"))?.flush()
    }
}
