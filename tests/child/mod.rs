//! Running the `tactica` binary as a child process, as a player's machine would, and reading
//! what it cost: its exit (or the signal that ended it), its output, its wall time and its peak
//! resident memory (`wait4`'s `ru_maxrss`, for this child alone). A child that runs past its
//! time is killed, so a hang fails the test instead of holding it.

#![allow(dead_code, reason = "each test binary uses a different part of the helpers")]

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How a child run ended and what it cost.
#[derive(Debug)]
pub struct Outcome {
    /// The exit code, when it exited.
    pub code: Option<i32>,
    /// The signal that ended it, when one did (an abort, a stack overflow, the time limit).
    pub signal: Option<i32>,
    /// What it printed.
    pub stdout: String,
    /// What it printed on standard error.
    pub stderr: String,
    /// Wall time.
    pub seconds: f64,
    /// Peak resident memory in bytes.
    pub peak: u64,
}

impl Outcome {
    /// Whether it ended by itself with `code`.
    pub fn exited(&self, code: i32) -> bool {
        self.code == Some(code) && self.signal.is_none()
    }
}

/// The longest a child may run before it is killed.
pub const TIME_LIMIT: Duration = Duration::from_secs(120);

/// Runs `tactica args…` in `cwd` (the test's own when `None`), as user `uid` when given.
#[expect(clippy::zombie_processes, reason = "the child is reaped by `wait4`, which also reads its peak memory")]
pub fn tactica(args: &[&str], cwd: Option<&Path>, uid: Option<u32>) -> Outcome {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tactica"));
    cmd.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).env("NO_COLOR", "1");
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    if let Some(uid) = uid {
        use std::os::unix::process::CommandExt;
        cmd.uid(uid).gid(uid);
    }
    let started = Instant::now();
    let mut child = cmd.spawn().expect("the tactica binary runs");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid fits");
    let mut out = child.stdout.take().expect("piped");
    let mut err = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let (done, finished) = std::sync::mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if finished.recv_timeout(TIME_LIMIT).is_err() {
            // SAFETY: `kill` only sends a signal; the child is not reaped before `done` is sent,
            // so the pid still names it.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
    });
    let mut status = 0;
    // SAFETY: `wait4` writes only the status and the usage it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let reaped = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    let seconds = started.elapsed().as_secs_f64();
    let _ = done.send(());
    let _ = watchdog.join();
    assert_eq!(reaped, pid, "wait4 reaps the child");
    let (code, signal) = if libc::WIFEXITED(status) {
        (Some(libc::WEXITSTATUS(status)), None)
    } else {
        (None, libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)))
    };
    Outcome {
        code,
        signal,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        seconds,
        peak: u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024, // kilobytes on Linux
    }
}

/// A fresh folder for one test case.
pub fn scratch(test: &str, case: &str) -> std::path::PathBuf {
    tempfile::Builder::new().prefix(&format!("tactica-{test}-{case}-")).tempdir().unwrap().keep()
}

/// An open ASCII map of `w × h` cells.
pub fn open_map(w: usize, h: usize) -> String {
    format!("{}\n", ".".repeat(w)).repeat(h)
}
