//! What a scenario's Lua and Rhai scripts send and wait for in the squad's scope (literal ids),
//! read without running them: declared to the `.tac` checker so that a sequence's `wait` that a
//! Lua or Rhai squad-mate signals is not refused (E0061), nor a signal a Lua or Rhai squad-mate
//! waits for reported as unused (E0062).

use std::path::PathBuf;

use tactica_stdlib::ScriptSignals;

use super::Scenario;

/// The squad signals of every Lua and Rhai script `scenario` runs (a file several characters
/// run is read once; one that cannot be read or parsed adds nothing).
pub fn of(scenario: &Scenario) -> ScriptSignals {
    let files: std::collections::BTreeSet<&PathBuf> =
        scenario.entity_scripts.iter().flat_map(|e| e.files.iter()).chain(&scenario.world_scripts).collect();
    // With `.tac` alone there is no Lua or Rhai script to read.
    #[cfg_attr(not(any(feature = "lua", feature = "rhai")), allow(unused_mut))]
    let mut all = ScriptSignals::default();
    for f in files {
        let read = || super::files::read_text(f, super::files::MAX_SOURCE_BYTES).ok();
        match f.extension().and_then(|e| e.to_str()) {
            #[cfg(feature = "lua")]
            Some("lua") => {
                if let Some(source) = read() {
                    all.extend(tactica_lua::squad_signals(&source));
                }
            }
            #[cfg(feature = "rhai")]
            Some("rhai") => {
                if let Some(source) = read() {
                    all.extend(tactica_rhai::squad_signals(&source));
                }
            }
            _ => {
                let _ = read;
            }
        }
    }
    all
}
