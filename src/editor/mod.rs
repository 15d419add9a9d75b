//! What editors need to help a modder: the API with a scenario's names ([`scenario_api`]) and the
//! definition files `tactica docs` writes from it ([`definition_files`], [`write_definitions`]):
//! a LuaLS `---@meta` file, a Rhai definitions file and the Markdown reference.

mod signals;

use std::path::{Path, PathBuf};

use crate::host::Api;
use crate::scenario::Scenario;

pub use signals::signals_in;

/// The LuaLS definitions' file name.
pub const LUALS_FILE: &str = "tactica.lua";
/// The Rhai definitions' file name (rhai's `.d.rhai` convention).
pub const RHAI_FILE: &str = "tactica.d.rhai";
/// The Markdown reference's file name.
pub const MARKDOWN_FILE: &str = "api.md";

/// The standard API with what `scenario` names added: its places and regions, its characters'
/// kinds and tags, its globals, and the signals its scripts send and wait for.
pub fn scenario_api(scenario: &Scenario) -> Api {
    let mut api = Api::standard();
    api.declare_world_names(&scenario.world);
    api.declare_script_signals(crate::scenario::squad_signals::of(scenario));
    let files: std::collections::BTreeSet<&PathBuf> =
        scenario.entity_scripts.iter().flat_map(|e| e.files.iter()).chain(&scenario.world_scripts).collect();
    for f in files {
        // An unreadable script is `check`'s to report; here it only adds no names.
        if let Ok(source) = crate::scenario::files::read_text(f, crate::scenario::files::MAX_SOURCE_BYTES) {
            for s in signals_in(&source) {
                api.declare_signal(&s);
            }
        }
    }
    api
}

/// The three definition files of `api`, as `(file name, text)`.
pub fn definition_files(api: &Api) -> [(&'static str, String); 3] {
    [
        (LUALS_FILE, tactica_stdlib::luals_meta(api)),
        (RHAI_FILE, tactica_stdlib::rhai_definitions(api)),
        (MARKDOWN_FILE, tactica_stdlib::api_markdown(api)),
    ]
}

/// Writes the definition files of `api` into `dir` (made if missing) and returns their paths.
/// Nothing is written through a symbolic link a downloaded folder could hold ([`crate::output`]).
pub fn write_definitions(api: &Api, dir: &Path) -> Result<Vec<PathBuf>, crate::output::OutputError> {
    let out = crate::output::OutputDir::create(dir)?;
    definition_files(api).into_iter().map(|(name, text)| out.write_file(name, text.as_bytes())).collect()
}
