//! `tactica docs`: write the script API for editors — a LuaLS `---@meta` file, a Rhai definitions
//! file and the Markdown reference — with a scenario's names when one is given.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

/// The arguments of `tactica docs`.
#[derive(Debug, Args)]
pub struct DocsArgs {
    /// A scenario (its folder or `.toml` file) whose names — places, globals, signals, kinds — are
    /// added, so an editor completes them too.
    pub scenario: Option<PathBuf>,
    /// The folder to write `tactica.lua`, `tactica.d.rhai` and `api.md` into.
    #[arg(short, long, default_value = ".tactica")]
    pub out: PathBuf,
}

/// Writes the three files and names them.
pub fn docs(args: &DocsArgs) -> anyhow::Result<ExitCode> {
    let api = match &args.scenario {
        Some(path) => match super::load_scenario(path) {
            Ok(s) => crate::editor::scenario_api(&s),
            Err(code) => return Ok(code),
        },
        None => crate::host::Api::standard(),
    };
    let written = crate::editor::write_definitions(&api, &args.out)?;
    for path in written {
        println!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
