//! Creating output files without trusting the folders they go into: every file the command line
//! writes (a trace, a paths file, a picture, a frame, the editor definitions) is made here, so a
//! new writer gets the rule by default.
//!
//! The threat is a folder someone downloaded. A mod can ship symbolic links: `frames` pointing at
//! the player's home, `tactica.lua` pointing at a shell start-up file. A command writing there by
//! the usual `File::create` would follow the link and overwrite a file outside the folder.
//!
//! The rule, applied part by part as the path is opened (`openat`, never a path string re-read
//! later, so nothing can be swapped in between a check and the write):
//!
//! - **A link in a folder you can write to is refused**, with its name, where it points and why;
//!   that is where unpacking a download could have put it. Links in folders you cannot write to
//!   are the system's own (macOS's `/tmp` and `/var`) and are followed as usual. (For `root`,
//!   who can write everywhere, no link is followed.)
//! - **The file itself is never opened through a link, and never written in place**: the bytes go
//!   to a fresh file made beside it (`O_CREAT | O_EXCL | O_NOFOLLOW`) that is renamed over the
//!   name when complete. A rename replaces the name, never what a link or a second hard link
//!   leads to, and a reader never sees half a file.
//! - Missing folders are made, one `mkdirat` at a time, under the same rule.
//!
//! ```no_run
//! use std::io::Write;
//! use std::path::Path;
//!
//! // One file: refused if `out` or `out/trace.jsonl` is a link a mod could have placed.
//! tactica::output::write_file(Path::new("out/trace.jsonl"), b"{}\n")?;
//!
//! // Many files in one folder, each written whole or not at all.
//! let dir = tactica::output::OutputDir::create(Path::new("frames"))?;
//! let mut frame = dir.create_file("frame_00000.png")?;
//! frame.write_all(b"...")?;
//! frame.finish()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#[cfg(not(unix))]
mod portable;
#[cfg(unix)]
mod unix;

#[cfg(not(unix))]
use portable as sys;
#[cfg(unix)]
use unix as sys;

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why an output file or folder could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OutputError {
    /// A part of the path is a symbolic link in a folder the user can write to.
    #[error(
        "cannot write {path}: `{link}` is a symbolic link (to `{target}`); output is never written through a \
         link in a folder you can write to, since a downloaded folder could point it anywhere (remove the \
         link, or name the place it points to)"
    )]
    Link {
        /// The path asked for.
        path: PathBuf,
        /// The link met on the way.
        link: PathBuf,
        /// What the link says it points to.
        target: PathBuf,
    },
    /// The path names something that is not a regular file where a file is to be written.
    #[error("cannot write {path}: it is {what}, not a regular file")]
    NotAFile {
        /// The path asked for.
        path: PathBuf,
        /// What is there (`a folder`, `a device`, …).
        what: &'static str,
    },
    /// A part of the path that must be a folder is something else.
    #[error("cannot write {path}: `{part}` is not a folder")]
    NotAFolder {
        /// The path asked for.
        path: PathBuf,
        /// The part that is not a folder.
        part: PathBuf,
    },
    /// The path names no file (it is empty, or ends in `..` or `/`).
    #[error("cannot write `{path}`: the path names no file")]
    NoFileName {
        /// The path asked for.
        path: PathBuf,
    },
    /// A file of an output folder was named by a path that leaves it (absolute, or with `..`).
    #[error("cannot write {path}: a file of an output folder is named by a relative path inside it")]
    Outside {
        /// The path asked for.
        path: PathBuf,
    },
    /// The system refused.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path asked for.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

impl From<OutputError> for std::io::Error {
    fn from(e: OutputError) -> Self {
        let kind = match &e {
            OutputError::Io { source, .. } => source.kind(),
            _ => std::io::ErrorKind::InvalidInput,
        };
        std::io::Error::new(kind, e)
    }
}

/// A folder opened for writing files into, every part of its path checked (see the module doc).
/// It holds the folder open: the files it makes land in that folder even if its path is renamed
/// or replaced meanwhile.
#[derive(Debug)]
pub struct OutputDir {
    dir: sys::Dir,
    path: PathBuf,
}

impl OutputDir {
    /// Opens the folder `path`, making it (and any missing folder on the way) if needed.
    pub fn create(path: &Path) -> Result<Self, OutputError> {
        let dir = sys::Dir::open(path, path)?;
        Ok(OutputDir { dir, path: path.to_path_buf() })
    }

    /// The folder's path, as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts the file `name` (a plain name, or a relative path whose folders are made as
    /// needed, never through a link). Nothing appears under `name` until
    /// [`OutputFile::finish`].
    pub fn create_file(&self, name: &str) -> Result<OutputFile, OutputError> {
        let shown = self.path.join(name);
        let rel = Path::new(name);
        if !rel.components().all(|c| matches!(c, std::path::Component::Normal(_))) {
            return Err(OutputError::Outside { path: shown });
        }
        let leaf = leaf_of(rel, &shown)?;
        let parent = rel.parent().unwrap_or(Path::new(""));
        let file = if parent.as_os_str().is_empty() {
            self.dir.create_file(leaf, &shown)?
        } else {
            self.dir.subdir(parent, &shown)?.create_file(leaf, &shown)?
        };
        Ok(OutputFile { file: Some(file), path: shown })
    }

    /// Writes the whole file `name` (see [`OutputDir::create_file`]) and returns its path.
    pub fn write_file(&self, name: &str, bytes: &[u8]) -> Result<PathBuf, OutputError> {
        let mut f = self.create_file(name)?;
        f.write_all(bytes).map_err(|source| OutputError::Io { path: f.path.clone(), source })?;
        f.finish()
    }
}

/// Starts the file at `path`: its folder is opened (and made) as [`OutputDir::create`] does, and
/// nothing appears under the name until [`OutputFile::finish`].
pub fn create_file(path: &Path) -> Result<OutputFile, OutputError> {
    let leaf = leaf_of(path, path)?;
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let dir = sys::Dir::open(parent, path)?;
    Ok(OutputFile { file: Some(dir.create_file(leaf, path)?), path: path.to_path_buf() })
}

/// Writes the whole file at `path` (see [`create_file`]).
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    let mut f = create_file(path)?;
    f.write_all(bytes).map_err(|source| OutputError::Io { path: path.to_path_buf(), source })?;
    f.finish().map(drop)
}

/// A file being written. Its bytes go to a fresh file beside the name; [`OutputFile::finish`]
/// puts it in place. Dropped unfinished (an error on the way), it leaves nothing behind.
#[derive(Debug)]
pub struct OutputFile {
    file: Option<sys::PendingFile>,
    path: PathBuf,
}

impl OutputFile {
    /// The path the file will have.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Puts the written file under its name, replacing what was there, and returns its path.
    pub fn finish(mut self) -> Result<PathBuf, OutputError> {
        let file = self.file.take().expect("an OutputFile is finished once, by value");
        file.commit().map_err(|source| OutputError::Io { path: self.path.clone(), source })?;
        Ok(std::mem::take(&mut self.path))
    }
}

impl Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().map_or(Ok(0), |f| f.file().write(buf))
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.file().write_all(buf),
            None => Ok(()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().map_or(Ok(()), |f| f.file().flush())
    }
}

/// The file name `rel` ends in; an error for a path that names no file.
fn leaf_of<'p>(rel: &'p Path, shown: &Path) -> Result<&'p std::ffi::OsStr, OutputError> {
    match rel.components().next_back() {
        Some(std::path::Component::Normal(name)) => Ok(name),
        _ => Err(OutputError::NoFileName { path: shown.to_path_buf() }),
    }
}

/// What a file type is called in messages.
fn describe(is_dir: bool, is_file: bool) -> &'static str {
    match (is_dir, is_file) {
        (true, _) => "a folder",
        (_, true) => "a regular file",
        _ => "a device, pipe or socket",
    }
}

#[cfg(test)]
mod tests;
