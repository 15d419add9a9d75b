//! The rule of [`super`] where `openat` is not available: each part of the path is looked at
//! with `symlink_metadata` before it is used (a link is refused wherever it stands), and the file
//! is written fresh beside its name and renamed into place. Unlike the Unix version this looks
//! before it opens, so a link swapped in between the two is not seen.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::{OutputError, describe};

/// An open folder (here: a checked path).
#[derive(Debug, Clone)]
pub(super) struct Dir {
    path: PathBuf,
}

fn io(shown: &Path) -> impl Fn(std::io::Error) -> OutputError + '_ {
    move |source| OutputError::Io { path: shown.to_path_buf(), source }
}

impl Dir {
    pub(super) fn open(path: &Path, shown: &Path) -> Result<Dir, OutputError> {
        Dir { path: PathBuf::new() }.subdir(path, shown)
    }

    pub(super) fn subdir(&self, rel: &Path, shown: &Path) -> Result<Dir, OutputError> {
        let mut path = self.path.clone();
        for part in rel.components() {
            path.push(part.as_os_str());
            if !matches!(part, Component::Normal(_)) {
                continue;
            }
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.file_type().is_symlink() => {
                    let target = std::fs::read_link(&path).unwrap_or_else(|_| PathBuf::from("?"));
                    return Err(OutputError::Link { path: shown.to_path_buf(), link: path, target });
                }
                Ok(m) if m.is_dir() => {}
                Ok(_) => return Err(OutputError::NotAFolder { path: shown.to_path_buf(), part: path }),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    std::fs::create_dir(&path)
                        .or_else(|e| if path.is_dir() { Ok(()) } else { Err(e) })
                        .map_err(io(shown))?;
                }
                Err(e) => return Err(io(shown)(e)),
            }
        }
        Ok(Dir { path })
    }

    pub(super) fn create_file(&self, leaf: &OsStr, shown: &Path) -> Result<PendingFile, OutputError> {
        let target = self.path.join(leaf);
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&target).unwrap_or_else(|_| PathBuf::from("?"));
                return Err(OutputError::Link { path: shown.to_path_buf(), link: target, target: to });
            }
            Ok(m) if !m.is_file() => {
                return Err(OutputError::NotAFile { path: shown.to_path_buf(), what: describe(m.is_dir(), false) });
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(shown)(e)),
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let tmp = self.path.join(OsString::from(format!(
            ".tactica-{}-{}.tmp",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        )));
        let file = std::fs::OpenOptions::new().write(true).create_new(true).open(&tmp).map_err(io(shown))?;
        Ok(PendingFile { file, tmp, target, done: false })
    }
}

/// A fresh file being written beside its final name.
#[derive(Debug)]
pub(super) struct PendingFile {
    file: File,
    tmp: PathBuf,
    target: PathBuf,
    done: bool,
}

impl PendingFile {
    pub(super) fn file(&mut self) -> &mut File {
        &mut self.file
    }

    pub(super) fn commit(mut self) -> std::io::Result<()> {
        std::fs::rename(&self.tmp, &self.target)?;
        self.done = true;
        Ok(())
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
