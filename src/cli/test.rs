//! `tactica test`: run the test files (`*.tactest`) under the paths given and report.
//!
//! Exit codes: 0 every test passed, 1 a test failed, 2 bad usage or a test that could not be
//! loaded or started (a mistake in a test file, a scenario or a script).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::output::{self, Format};
use crate::testing::{self, Options, Report, Seeds, Shard, Suite};

/// Arguments of `tactica test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// Test files, or folders searched for `*.tactest` (with `--merge`: shard files or folders of
    /// them). Default: the current folder.
    pub paths: Vec<PathBuf>,
    /// Run only the test of this name.
    #[arg(long)]
    pub name: Option<String>,
    /// Play every test on this seed instead of its own.
    #[arg(long, conflicts_with = "seeds")]
    pub seed: Option<u64>,
    /// Play every test on every seed of a range, both ends included (`1..1000`), on all cores.
    #[arg(long, value_name = "FROM..TO")]
    pub seeds: Option<Seeds>,
    /// Threads to play on (default: one per core). Results never depend on it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Write the golden files (`expect trace matches "…";`) from this run instead of comparing.
    #[arg(long)]
    pub bless: bool,
    /// `text` for people, `json` for programs: one object per line (docs/testing.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write the report as JUnit XML to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Play only this share of the (test × seed) matrix, the Ith of N (from 1), and write its
    /// results to `--out` for `--merge`.
    #[arg(long, value_name = "I/N", conflicts_with = "merge")]
    pub shard: Option<Shard>,
    /// With `--shard`: the folder the shard's results go in.
    #[arg(long, value_name = "DIR", default_value = "tactica-shards")]
    pub out: PathBuf,
    /// Merge the results of every shard (the paths are shard files or folders) into the report
    /// of the whole matrix; no test is played.
    #[arg(long)]
    pub merge: bool,
    /// Write the trace of the one run selected (`--name` and `--seed` pick it) to this file.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Write the replay viewer of each failing run into this folder, opened at its first failing
    /// tick (default at a terminal: `tactica-view`; docs/testing.md, "See a failure").
    #[arg(long, value_name = "DIR", conflicts_with_all = ["merge", "shard", "no_view"])]
    pub view: Option<PathBuf>,
    /// Write no viewer, even at a terminal.
    #[arg(long)]
    pub no_view: bool,
}

/// Where a terminal run writes the viewers of its failing runs when `--view` does not say.
pub const DEFAULT_VIEW_DIR: &str = "tactica-view";

/// Runs the tests (or merges shards) and prints the report.
pub fn test(args: &TestArgs) -> anyhow::Result<ExitCode> {
    let paths = if args.paths.is_empty() { vec![PathBuf::from(".")] } else { args.paths.clone() };
    if args.merge {
        return match testing::shard::merge(&paths) {
            Ok(report) => finish(&report, args),
            Err(e) => usage(&e.to_string()),
        };
    }
    let mut suite = match Suite::load(&paths) {
        Ok(s) => s,
        Err(testing::LoadError::Problems(problems)) => {
            let colour = output::color();
            for p in &problems {
                eprintln!("{}", p.render(colour));
            }
            let errors = problems.iter().filter(|p| p.is_error()).count();
            eprintln!("error: the tests were not run: {}", super::count(errors as u64, "mistake", "mistakes"));
            return Ok(ExitCode::from(2));
        }
        Err(e) => return usage(&e.to_string()),
    };
    for w in &suite.warnings {
        eprintln!("{}", w.render(output::color()));
    }
    if let Some(name) = &args.name
        && suite.keep_named(name) == 0
    {
        return usage(&format!("no test is named \"{name}\" under {}", shown(&paths)));
    }
    let options = Options {
        seeds: args.seed.map(|s| Seeds { from: s, to: s }).or(args.seeds),
        threads: args.threads.map_or_else(|| Options::default().threads, |n| n as usize),
        bless: args.bless,
    };
    let total = suite.plan(options.seeds).jobs.len();
    if let Some(file) = &args.trace {
        if total != 1 {
            return usage(&format!(
                "`--trace` writes the trace of one run, and {total} are selected: pick one with `--name` and `--seed`"
            ));
        }
        write_trace(&suite, options.seeds, file)?;
    }
    let bar = progress(args.shard.map_or(total, |s| (0..total).filter(|&i| s.takes(i)).count()));
    let done = || bar.inc(1);
    if let Some(shard) = args.shard {
        let file = suite.run_shard(&options, shard, &done);
        bar.finish_and_clear();
        let path = testing::shard::write(&args.out, &file)?;
        let failed = file.results.iter().filter(|(_, r)| !r.passed()).count();
        let errors = file.results.iter().any(|(_, r)| r.error.is_some());
        println!(
            "shard {} of {}: {}, {failed} failed; results in {}",
            shard.index,
            shard.count,
            super::count(file.results.len() as u64, "run", "runs"),
            path.display()
        );
        return Ok(ExitCode::from(if errors {
            2
        } else if failed > 0 {
            1
        } else {
            0
        }));
    }
    let mut report = suite.run(&options, &done);
    bar.finish_and_clear();
    if let Some(dir) = view_dir(args) {
        let writing = |file: &std::path::Path| eprintln!("recording the failing run again for {}", file.display());
        match suite.write_views(&report, &dir, &writing) {
            Ok(written) => {
                report.views = written.views;
                if written.left_out > 0 {
                    eprintln!(
                        "{} more failing {} no viewer (at most {} are written): add `--view DIR` to a run's replay command",
                        written.left_out,
                        if written.left_out == 1 { "run has" } else { "runs have" },
                        testing::view::MAX_VIEWS
                    );
                }
            }
            Err(e) => eprintln!("error: {e}"),
        }
    }
    finish(&report, args)
}

/// The folder the viewers of failing runs go in: `--view`'s, else [`DEFAULT_VIEW_DIR`] when a
/// person is reading the report at a terminal (a CI log has nobody to open them; CI asks with
/// `--view`), else none.
fn view_dir(args: &TestArgs) -> Option<PathBuf> {
    if args.view.is_some() || args.no_view {
        return args.view.clone();
    }
    let person = matches!(args.format, Format::Text) && std::io::stdout().is_terminal();
    (person && args.shard.is_none() && !args.merge).then(|| PathBuf::from(DEFAULT_VIEW_DIR))
}

/// Prints the report as asked, writes the JUnit file, and says how the run went in the exit code.
fn finish(report: &Report, args: &TestArgs) -> anyhow::Result<ExitCode> {
    match args.format {
        Format::Text => print!("{}", report.text(output::color_stdout())),
        Format::Json => report.json_lines().iter().for_each(output::json_line),
    }
    if let Some(file) = &args.junit {
        crate::output::write_file(file, testing::junit::junit(report).as_bytes())
            .map_err(|e| anyhow::anyhow!("cannot write the JUnit report to {}: {e}", file.display()))?;
    }
    Ok(ExitCode::from(if report.has_errors() {
        2
    } else if report.passed() {
        0
    } else {
        1
    }))
}

/// Plays the one selected run to its last tick and writes its trace.
fn write_trace(suite: &Suite, seeds: Option<Seeds>, file: &std::path::Path) -> anyhow::Result<()> {
    let test = &suite.tests[0];
    let seed = seeds.map_or(test.seed, |s| s.from);
    let mut rt = testing::sweep::start(test, seed).map_err(|e| anyhow::anyhow!(e))?;
    rt.run(test.ticks);
    rt.finish();
    crate::output::write_file(file, rt.trace().as_bytes())
        .map_err(|e| anyhow::anyhow!("cannot write the trace to {}: {e}", file.display()))?;
    eprintln!("trace of \"{}\" on seed {seed} ({} ticks) written to {}", test.name, test.ticks, file.display());
    Ok(())
}

/// A progress bar on stderr when it is a terminal and there is more than one run to wait for.
fn progress(runs: usize) -> indicatif::ProgressBar {
    if runs < 2 || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(runs as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} runs  {elapsed} (eta {eta})") {
        bar.set_style(style);
    }
    bar
}

fn usage(message: &str) -> anyhow::Result<ExitCode> {
    eprintln!("error: {message}");
    Ok(ExitCode::from(2))
}

fn shown(paths: &[PathBuf]) -> String {
    paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
}
