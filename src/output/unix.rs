//! The rule of [`super`] on Unix: every folder opened with `openat` from the one before it,
//! `O_NOFOLLOW` unless the link stands in a folder the user cannot write to, and the file made
//! fresh with `O_CREAT | O_EXCL | O_NOFOLLOW` and renamed into place with `renameat`.

use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fd::OwnedFd;
use rustix::fs::{Access, AtFlags, CWD, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::{OutputError, describe};

const DIR_FLAGS: OFlags = OFlags::RDONLY.union(OFlags::DIRECTORY).union(OFlags::CLOEXEC);

/// An open folder.
#[derive(Debug, Clone)]
pub(super) struct Dir {
    fd: Arc<OwnedFd>,
    /// Its path as the caller spelled it (for messages).
    path: PathBuf,
}

fn io(shown: &Path) -> impl Fn(Errno) -> OutputError + '_ {
    move |e| OutputError::Io { path: shown.to_path_buf(), source: e.into() }
}

impl Dir {
    /// Opens `path` part by part from the root or the working folder, making missing folders.
    pub(super) fn open(path: &Path, shown: &Path) -> Result<Dir, OutputError> {
        let start = if path.has_root() { "/" } else { "." };
        let fd = rustix::fs::openat(CWD, start, DIR_FLAGS, Mode::empty()).map_err(io(shown))?;
        let root = Dir { fd: Arc::new(fd), path: PathBuf::new() };
        root.subdir(path, shown)
    }

    /// The folder `rel` below this one, made where missing, every part checked.
    pub(super) fn subdir(&self, rel: &Path, shown: &Path) -> Result<Dir, OutputError> {
        let mut dir = self.clone();
        for part in rel.components() {
            dir = match part {
                Component::RootDir => Dir { path: PathBuf::from("/"), ..dir },
                Component::CurDir | Component::Prefix(_) => dir,
                Component::ParentDir => {
                    let fd = rustix::fs::openat(&*dir.fd, "..", DIR_FLAGS, Mode::empty()).map_err(io(shown))?;
                    Dir { fd: Arc::new(fd), path: dir.path.join("..") }
                }
                Component::Normal(name) => dir.child(name, shown)?,
            };
        }
        Ok(dir)
    }

    /// The folder `name` in this one: made when missing; through a link only when this folder is
    /// not the user's to write (the system's own links).
    fn child(&self, name: &OsStr, shown: &Path) -> Result<Dir, OutputError> {
        let path = self.path.join(name);
        let open = |flags| rustix::fs::openat(&*self.fd, name, flags, Mode::empty());
        // Twice at most: a folder someone else makes between our look and our `mkdir` is opened
        // on the second round.
        for _ in 0..2 {
            match open(DIR_FLAGS | OFlags::NOFOLLOW) {
                Ok(fd) => return Ok(Dir { fd: Arc::new(fd), path }),
                Err(Errno::NOENT) => match rustix::fs::mkdirat(&*self.fd, name, Mode::from_raw_mode(0o777)) {
                    Ok(()) | Err(Errno::EXIST) => {}
                    Err(e) => return Err(io(shown)(e)),
                },
                Err(Errno::LOOP | Errno::NOTDIR) => {
                    let stat = rustix::fs::statat(&*self.fd, name, AtFlags::SYMLINK_NOFOLLOW).map_err(io(shown))?;
                    if FileType::from_raw_mode(stat.st_mode) != FileType::Symlink {
                        return Err(OutputError::NotAFolder { path: shown.to_path_buf(), part: path });
                    }
                    if self.writable() {
                        return Err(self.link_error(name, path, shown));
                    }
                    return match open(DIR_FLAGS) {
                        Ok(fd) => Ok(Dir { fd: Arc::new(fd), path }),
                        Err(Errno::NOTDIR) => Err(OutputError::NotAFolder { path: shown.to_path_buf(), part: path }),
                        Err(e) => Err(io(shown)(e)),
                    };
                }
                Err(e) => return Err(io(shown)(e)),
            }
        }
        Err(io(shown)(Errno::NOENT))
    }

    /// Whether the user may make or replace entries in this folder: where a download could have
    /// been unpacked.
    fn writable(&self) -> bool {
        rustix::fs::accessat(&*self.fd, ".", Access::WRITE_OK, AtFlags::EACCESS).is_ok()
    }

    fn link_error(&self, name: &OsStr, link: PathBuf, shown: &Path) -> OutputError {
        let target = rustix::fs::readlinkat(&*self.fd, name, Vec::new())
            .map(|t| PathBuf::from(OsStr::from_bytes(t.as_bytes())))
            .unwrap_or_else(|_| PathBuf::from("?"));
        OutputError::Link { path: shown.to_path_buf(), link, target }
    }

    /// Starts the file `leaf` in this folder: refused when the name is a link or not a regular
    /// file; the bytes go to a fresh hidden file beside it.
    pub(super) fn create_file(&self, leaf: &OsStr, shown: &Path) -> Result<PendingFile, OutputError> {
        match rustix::fs::statat(&*self.fd, leaf, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => match FileType::from_raw_mode(stat.st_mode) {
                FileType::RegularFile => {}
                FileType::Symlink => return Err(self.link_error(leaf, self.path.join(leaf), shown)),
                other => {
                    let what = describe(other == FileType::Directory, false);
                    return Err(OutputError::NotAFile { path: shown.to_path_buf(), what });
                }
            },
            Err(Errno::NOENT) => {}
            Err(e) => return Err(io(shown)(e)),
        }
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let tmp =
            OsString::from(format!(".tactica-{}-{}.tmp", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed)));
        let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let fd = rustix::fs::openat(&*self.fd, &tmp, flags, Mode::from_raw_mode(0o666)).map_err(io(shown))?;
        Ok(PendingFile { file: File::from(fd), dir: Arc::clone(&self.fd), tmp, leaf: leaf.to_owned(), done: false })
    }
}

/// A fresh file being written beside its final name.
#[derive(Debug)]
pub(super) struct PendingFile {
    file: File,
    dir: Arc<OwnedFd>,
    tmp: OsString,
    leaf: OsString,
    done: bool,
}

impl PendingFile {
    pub(super) fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// Renames the written file over its name (which, if a link, is replaced, never followed).
    pub(super) fn commit(mut self) -> std::io::Result<()> {
        rustix::fs::renameat(&*self.dir, &self.tmp, &*self.dir, &self.leaf)?;
        self.done = true;
        Ok(())
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if !self.done {
            // Unfinished: leave nothing behind. Failing to, the hidden file is all that remains.
            let _ = rustix::fs::unlinkat(&*self.dir, &self.tmp, AtFlags::empty());
        }
    }
}
