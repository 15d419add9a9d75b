//! `tactica path`: solve every query of a MovingAI scenario file and check each length against
//! the file's optimal one. All the work is the engine's (`tactica_engine::path::scen`); this file
//! only turns arguments into a call and the report into text and an exit code.

use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use tactica_engine::grid::load_movingai;
use tactica_engine::path::scen::{Algorithm, format_path_line, load_scen, solve};

use super::output::{self, Format};

/// Arguments of `tactica path`.
#[derive(Debug, Args)]
pub struct PathArgs {
    /// The MovingAI map (`.map`).
    pub map: PathBuf,
    /// The MovingAI scenario (`.scen`) with the queries and their optimal lengths.
    pub scen: PathBuf,
    /// The search method: `astar` or `jps` (jump point search, uniform-cost maps only).
    #[arg(long, default_value = "jps")]
    pub algo: Algorithm,
    /// Write every path to this file, one line per query: its index, then the cells as `x,y`
    /// from start to goal separated by spaces (or `none`).
    #[arg(long)]
    pub paths: Option<PathBuf>,
    /// Print only the mismatches and the totals, not a line per query.
    #[arg(long, short)]
    pub quiet: bool,
    /// `text` for people, `json` for programs: one object per query, then the totals
    /// (docs/json.md).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Solves the scenario and prints the report; exit code 1 when a length is not optimal.
pub fn path(args: &PathArgs) -> anyhow::Result<ExitCode> {
    let map = match load_movingai(&args.map) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let scen = match load_scen(&args.scen) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    let mut out = match &args.paths {
        Some(p) => Some(BufWriter::new(crate::output::create_file(p)?)),
        None => None,
    };
    // indicatif draws on stderr only when it is a terminal.
    let bar = ProgressBar::new(scen.queries.len() as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} queries, {elapsed} ({eta} left)") {
        bar.set_style(style);
    }
    let mut write_error = None;
    let solved = solve(&map, &scen, args.algo, |r, cells| {
        bar.inc(1);
        if let Some(w) = out.as_mut()
            && write_error.is_none()
            && let Err(e) = writeln!(w, "{}", format_path_line(r.index, cells))
        {
            write_error = Some(e);
        }
    });
    bar.finish_and_clear();
    let report = match solved {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    if let Some(e) = write_error {
        return Err(e).context("cannot write the paths file");
    }
    if let Some(w) = out {
        let file = w.into_inner().map_err(|e| e.into_error()).context("cannot write the paths file")?;
        file.finish()?;
    }
    if args.format == Format::Json {
        for r in &report.results {
            if args.quiet && r.matches {
                continue;
            }
            let q = &scen.queries[r.index];
            output::json_line(&serde_json::json!({
                "type": "query",
                "index": r.index,
                "line": r.line,
                "start": [q.start.x, q.start.y],
                "goal": [q.goal.x, q.goal.y],
                "length": r.length,
                "optimal": r.optimal,
                "matches": r.matches,
                "expanded": r.expanded,
                "nanos": r.nanos,
            }));
        }
        output::json_line(&serde_json::json!({
            "type": "summary",
            "queries": report.results.len(),
            "mismatches": report.mismatches().count(),
            "expanded": report.expanded(),
            "seconds": report.seconds(),
        }));
    } else if args.quiet {
        for r in report.mismatches() {
            println!("mismatch: query {} (line {}): found {:?}, optimal {}", r.index, r.line, r.length, r.optimal);
        }
        println!("{}", report.summary());
    } else {
        print!("{}", report.to_text());
    }
    Ok(if report.mismatches().next().is_none() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
