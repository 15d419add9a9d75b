//! Script files as the trace names them: relative to the scenario's folder, with `/`.
//!
//! Naming a file asks the file system (the path made canonical, so `./a.lua`, `a.lua` and a link
//! name the same file), which costs a few system calls. A tick names files only when it records
//! an error, but a crowd whose scripts all fail would still name thousands a tick, so each file is
//! asked about once and its name kept: the trace also stays the same if the folder is moved while
//! the game runs.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The names of the files a runtime has shown, by the path it loaded them from.
#[derive(Debug)]
pub(super) struct FileNames {
    /// The scenario's file (its folder is the base of every name).
    scenario: PathBuf,
    shown: Mutex<HashMap<PathBuf, String>>,
}

impl FileNames {
    pub(super) fn new(scenario: &Path) -> Self {
        FileNames { scenario: scenario.to_path_buf(), shown: Mutex::new(HashMap::new()) }
    }

    /// `path` as the trace names it.
    pub(super) fn show(&self, path: &Path) -> String {
        let mut shown = self.shown.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(name) = shown.get(path) {
            return name.clone();
        }
        let base = crate::reload::absolute(self.scenario.parent().unwrap_or(Path::new(".")));
        let abs = crate::reload::absolute(path);
        let name = abs.strip_prefix(&base).map_or_else(|_| path.to_path_buf(), Path::to_path_buf);
        let name = name.to_string_lossy().replace('\\', "/");
        shown.insert(path.to_path_buf(), name.clone());
        name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file is asked about once: the name it got stays when the link it was loaded through is
    /// gone (asked again, the name would change).
    #[cfg(unix)]
    #[test]
    fn each_file_is_named_once() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        std::fs::write(dir.path().join("real/guard.lua"), "").unwrap();
        std::os::unix::fs::symlink(dir.path().join("real/guard.lua"), dir.path().join("guard.lua")).unwrap();
        let names = FileNames::new(&dir.path().join("scenario.toml"));
        let link = dir.path().join("guard.lua");
        assert_eq!(names.show(&link), "real/guard.lua");
        std::fs::remove_file(&link).unwrap();
        assert_eq!(names.show(&link), "real/guard.lua");
        assert_eq!(FileNames::new(&dir.path().join("scenario.toml")).show(&link), "guard.lua");
    }
}
