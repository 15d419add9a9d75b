//! Where the shared benchmark data lives.
//!
//! The benchmark maps and scenarios from shipped games are not part of the repository: they sit
//! in `../shared/data` beside the checkout, or wherever `TACTICA_DATA` points. Tests and
//! benchmarks that use them call [`shared_data_dir`] and, when it returns `None`, say so in one
//! line and pass over them.

use std::path::PathBuf;

/// The shared data folder (the one holding `maps/` and `scen/`): `$TACTICA_DATA` if set, else the
/// first `shared/data` found walking up from this crate's folder.
pub fn shared_data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("TACTICA_DATA") {
        let dir = PathBuf::from(dir);
        return dir.join("maps").is_dir().then_some(dir);
    }
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.ancestors().map(|a| a.join("shared").join("data")).find(|d| d.join("maps").is_dir())
}
