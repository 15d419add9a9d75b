//! Reading the files a scenario names, the way a game that loads strangers' mods must: only
//! regular files, only up to a size, and only from the scenario's own folder unless the scenario
//! lists another folder in `allow_folders`.
//!
//! Why the confinement: a mod is a folder a player downloads. Without it, `scripts = ["../../x"]`
//! (or a symlink inside the folder) would let that folder read, and report in errors, any file the
//! game can. Paths are compared after resolving symlinks, so a link pointing out is refused too.

use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest scenario file read (1 MiB): far above any hand-written scenario.
pub const MAX_SCENARIO_BYTES: u64 = 1 << 20;
/// The largest script, query or model file read (1 MiB).
pub const MAX_SOURCE_BYTES: u64 = 1 << 20;

/// Reads `path` as UTF-8 text, refusing anything but a regular file no larger than `limit` bytes.
/// The error is one sentence, ready to follow the file's name.
pub fn read_text(path: &Path, limit: u64) -> Result<String, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err("is not a regular file (a device, pipe or folder cannot be a scenario's file)".into());
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot be read: {e}"))?;
    // Read one byte past the limit rather than trusting the size: a file may grow while we read.
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(format!("is larger than the {} KiB such a file may be", limit / 1024));
    }
    String::from_utf8(bytes).map_err(|e| format!("is not UTF-8 text (byte {} is not)", e.utf8_error().valid_up_to()))
}

/// The folders a scenario may read files from: its own, and those its `allow_folders` names.
#[derive(Debug, Clone)]
pub struct Folders {
    /// Canonical paths, the scenario's own folder first.
    roots: Vec<PathBuf>,
}

impl Folders {
    /// The scenario's folder `dir` alone.
    pub fn new(dir: &Path) -> Self {
        Folders { roots: vec![canonical(dir)] }
    }

    /// Also allows `folder` (relative to the scenario's folder); an error when it is not a folder.
    pub fn allow(&mut self, dir: &Path, folder: &str) -> Result<(), String> {
        let path = dir.join(folder);
        if !path.is_dir() {
            return Err(format!("`allow_folders` names `{folder}`, which is not a folder"));
        }
        self.roots.push(canonical(&path));
        Ok(())
    }

    /// `path` when it lies inside one of the folders (after resolving symlinks), else why not.
    pub fn confine(&self, path: &Path) -> Result<PathBuf, String> {
        let real = path.canonicalize().map_err(|e| format!("`{}` cannot be read: {e}", path.display()))?;
        if self.roots.iter().any(|root| real.starts_with(root)) {
            Ok(path.to_path_buf())
        } else {
            Err(format!("`{}` lies outside the scenario's folder", path.display()))
        }
    }

    /// The text of the script, query or model file at `path`, confined and capped; the error
    /// names the file.
    pub fn read(&self, path: &Path) -> Result<String, String> {
        self.confine(path)?;
        read_text(path, MAX_SOURCE_BYTES).map_err(|why| format!("`{}` {why}", path.display()))
    }
}

fn canonical(dir: &Path) -> PathBuf {
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_oversized_files_are_refused() {
        #[cfg(unix)]
        assert!(read_text(Path::new("/dev/zero"), 10).unwrap_err().contains("not a regular file"));
        let dir = tempfile::Builder::new().prefix("tactica-files-").tempdir().unwrap().keep();
        let f = dir.join("big.txt");
        std::fs::write(&f, "x".repeat(2049)).unwrap();
        assert_eq!(read_text(&f, 2048).unwrap_err(), "is larger than the 2 KiB such a file may be");
        assert_eq!(read_text(&f, 4096).unwrap().len(), 2049);
        std::fs::write(&f, [b'a', 0xff]).unwrap();
        assert_eq!(read_text(&f, 4096).unwrap_err(), "is not UTF-8 text (byte 1 is not)");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn paths_leaving_the_folder_are_refused_unless_allowed() {
        let base = tempfile::Builder::new().prefix("tactica-confine-").tempdir().unwrap().keep();
        let (mine, other) = (base.join("mod"), base.join("common"));
        std::fs::create_dir_all(&mine).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(mine.join("a.lua"), "").unwrap();
        std::fs::write(other.join("b.lua"), "").unwrap();
        let mut folders = Folders::new(&mine);
        assert!(folders.confine(&mine.join("a.lua")).is_ok());
        let outside = mine.join("../common/b.lua");
        assert!(folders.confine(&outside).unwrap_err().contains("lies outside the scenario's folder"));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(other.join("b.lua"), mine.join("link.lua")).unwrap();
            assert!(folders.confine(&mine.join("link.lua")).is_err(), "a symlink pointing out is still outside");
        }
        assert!(folders.allow(&mine, "../nowhere").is_err());
        folders.allow(&mine, "../common").unwrap();
        assert!(folders.confine(&outside).is_ok());
        std::fs::remove_dir_all(&base).unwrap();
    }
}
