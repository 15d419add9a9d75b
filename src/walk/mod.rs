//! Walking a folder someone else made: every walk the runtime does (`tactica check DIR`, the
//! language server's look for a script's scenario, the hint search for a missing file) goes
//! through [`walk`], so a folder cannot keep it going round a loop, lead it out of the folder or
//! hold it for minutes.
//!
//! - **Links are never followed into folders.** A symbolic link to a folder is listed as skipped,
//!   so no chain of links can loop (`a → b → a`, a link to its own folder) or leave.
//! - **A link to a file counts only if the file lies inside the folder walked** (after resolving
//!   every link); one pointing out, or nowhere, is listed as skipped.
//! - **The walk stops at a bound**: at most [`WalkLimits::max_entries`] entries read, at most
//!   [`WalkLimits::max_depth`] folders deep. Reaching either is reported ([`WalkStop`]) with the
//!   folder and the bound, never silently.
//!
//! Entries come in name order, so what a walk finds and reports is the same on every system.
//!
//! ```
//! let walked = tactica::walk::walk(std::path::Path::new("examples"), tactica::walk::WalkLimits::CHECK, |_| true);
//! assert!(walked.stopped.is_none());
//! assert!(walked.files.iter().any(|f| f.ends_with("village/scenario.toml")));
//! ```

use std::path::{Path, PathBuf};

use walkdir::WalkDir;

/// How far a walk may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkLimits {
    /// Folders below the one walked that are entered (1: only the folder's own entries).
    pub max_depth: usize,
    /// Entries (files, folders and links) read at most.
    pub max_entries: usize,
}

impl WalkLimits {
    /// `tactica check DIR`: a mod or a game's content folder, nested as deep as any project is.
    pub const CHECK: WalkLimits = WalkLimits { max_depth: 32, max_entries: 100_000 };
}

/// Why a walk stopped short of the whole folder.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WalkStop {
    /// A folder lay deeper than the depth bound; it (and any other as deep) was not entered.
    #[error(
        "`{folder}` lies more than {max_depth} folders deep and was not entered (the walk's depth bound; name it \
         on its own to check it)"
    )]
    TooDeep {
        /// The first folder left out.
        folder: PathBuf,
        /// The bound.
        max_depth: usize,
    },
    /// The folder holds more entries than the bound; the walk stopped there.
    #[error(
        "the walk stopped after {max_entries} entries (its bound): the rest of `{root}` was not looked at (name \
         the folders that matter)"
    )]
    TooMany {
        /// The folder walked.
        root: PathBuf,
        /// The bound.
        max_entries: usize,
    },
}

/// Why an entry was passed over.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Skip {
    /// A symbolic link to a folder: links are never followed into folders.
    LinkToFolder,
    /// A symbolic link to a file outside the folder walked.
    LinkOutside,
    /// A symbolic link to nothing.
    Dangling,
    /// The entry could not be read (permissions, or it vanished during the walk).
    Unreadable(String),
}

impl std::fmt::Display for Skip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skip::LinkToFolder => {
                write!(f, "is a symbolic link to a folder, and walks never follow links into folders")
            }
            Skip::LinkOutside => write!(f, "is a symbolic link to a file outside the folder, and was not followed"),
            Skip::Dangling => write!(f, "is a symbolic link to nothing"),
            Skip::Unreadable(why) => write!(f, "cannot be read: {why}"),
        }
    }
}

/// What a walk found.
#[derive(Debug, Clone, Default)]
pub struct Walked {
    /// Regular files, and links to regular files inside the folder, in walk order.
    pub files: Vec<PathBuf>,
    /// Entries passed over, with why.
    pub skipped: Vec<(PathBuf, Skip)>,
    /// Set when a bound was reached.
    pub stopped: Option<WalkStop>,
}

/// Walks `root` within `limits`, entering the folders `enter` accepts (it sees each folder's
/// path; the root is always entered). A `root` that is a file is found alone.
pub fn walk(root: &Path, limits: WalkLimits, mut enter: impl FnMut(&Path) -> bool) -> Walked {
    let mut out = Walked::default();
    // The real folder, to tell a link that stays inside from one that leaves.
    let inside = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let entries = WalkDir::new(root)
        .follow_links(false)
        .max_depth(limits.max_depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !e.file_type().is_dir() || enter(e.path()));
    let mut read = 0usize;
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let path = e.path().map_or_else(|| root.to_path_buf(), Path::to_path_buf);
                let why = e.io_error().map_or_else(|| e.to_string(), ToString::to_string);
                out.skipped.push((path, Skip::Unreadable(why)));
                continue;
            }
        };
        if entry.depth() > 0 {
            read += 1;
            if read > limits.max_entries {
                out.stopped = Some(WalkStop::TooMany { root: root.to_path_buf(), max_entries: limits.max_entries });
                break;
            }
        }
        let kind = entry.file_type();
        if kind.is_dir() {
            // A folder at the bound is not entered; say so when it holds anything.
            let holds = || std::fs::read_dir(entry.path()).is_ok_and(|mut d| d.next().is_some());
            if entry.depth() == limits.max_depth && out.stopped.is_none() && holds() {
                out.stopped = Some(WalkStop::TooDeep { folder: entry.into_path(), max_depth: limits.max_depth });
            }
        } else if kind.is_file() {
            out.files.push(entry.into_path());
        } else if kind.is_symlink() {
            match link_kind(entry.path(), &inside) {
                Ok(()) => out.files.push(entry.into_path()),
                Err(skip) => out.skipped.push((entry.into_path(), skip)),
            }
        }
    }
    out
}

/// Whether the link at `path` leads to a regular file inside `inside`, and if not, why not.
fn link_kind(path: &Path, inside: &Path) -> Result<(), Skip> {
    let meta = std::fs::metadata(path).map_err(|_| Skip::Dangling)?;
    if meta.is_dir() {
        return Err(Skip::LinkToFolder);
    }
    let real = path.canonicalize().map_err(|_| Skip::Dangling)?;
    if !real.starts_with(inside) {
        return Err(Skip::LinkOutside);
    }
    if meta.is_file() { Ok(()) } else { Err(Skip::Unreadable("not a regular file".into())) }
}

#[cfg(test)]
mod tests;
