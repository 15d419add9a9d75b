//! Watching script files on disk.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::absolute;
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use notify::{Config, PollWatcher, RecursiveMode};

/// Watches a set of files and reports which of them changed (written, created, removed or
/// renamed) since the last call to [`FileWatcher::changed`].
///
/// It watches the files' folders rather than the files: editors often save by writing a new file
/// and renaming it over the old one, which a watch on the old file would lose. It uses the
/// platform's notifications (inotify, FSEvents, …) and falls back to polling every 100 ms where
/// those are unavailable (network drives, some containers).
///
/// Polling looks at the files themselves, never at their folders: a poll of a folder reads every
/// entry in it, and the contents of every file, each time, so a folder of a million entries, a
/// huge file or a link to a device beside the scripts would hold the game. A poll of a path
/// notices a save by rename as well (it compares what the path holds each time), and its work
/// is the watched files' own.
pub struct FileWatcher {
    files: BTreeSet<PathBuf>,
    events: Receiver<notify::Result<notify::Event>>,
    // Kept alive: dropping a watcher stops it.
    _watcher: Box<dyn notify::Watcher + Send>,
    polling: bool,
}

impl FileWatcher {
    /// Watches `files` (at least one). Fails only when neither notifications nor polling can be
    /// set up for their folders.
    pub fn new(files: impl IntoIterator<Item = PathBuf>) -> notify::Result<Self> {
        Self::build(files, false)
    }

    /// Like [`FileWatcher::new`] but always polling (for file systems without notifications).
    pub fn polling(files: impl IntoIterator<Item = PathBuf>) -> notify::Result<Self> {
        Self::build(files, true)
    }

    fn build(files: impl IntoIterator<Item = PathBuf>, force_poll: bool) -> notify::Result<Self> {
        let files: BTreeSet<PathBuf> = files.into_iter().map(|f| absolute(&f)).collect();
        let dirs: BTreeSet<PathBuf> = files.iter().filter_map(|f| f.parent().map(Path::to_path_buf)).collect();
        let (tx, rx) = channel();
        let mut polling = force_poll;
        let mut watcher: Box<dyn notify::Watcher + Send> = match (force_poll, notify::recommended_watcher(tx.clone())) {
            (false, Ok(w)) => Box::new(w),
            _ => {
                polling = true;
                let config =
                    Config::default().with_poll_interval(Duration::from_millis(100)).with_compare_contents(true);
                Box::new(PollWatcher::new(tx, config)?)
            }
        };
        let watched = if polling { &files } else { &dirs };
        for p in watched {
            watcher.watch(p, RecursiveMode::NonRecursive)?;
        }
        Ok(FileWatcher { files, events: rx, _watcher: watcher, polling })
    }

    /// Whether it fell back to polling.
    pub fn is_polling(&self) -> bool {
        self.polling
    }

    /// The watched files that changed since the last call, in path order. Never blocks.
    pub fn changed(&self) -> BTreeSet<PathBuf> {
        let mut out = BTreeSet::new();
        while let Ok(event) = self.events.try_recv() {
            let Ok(event) = event else { continue };
            if matches!(event.kind, notify::EventKind::Access(_)) {
                continue;
            }
            for p in event.paths {
                let p = absolute(&p);
                if self.files.contains(&p) {
                    out.insert(p);
                }
            }
        }
        out
    }
}
