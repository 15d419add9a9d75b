//! The `tactica` command line: a thin layer over the library (see `src/cli/`).

use std::process::ExitCode;

/// Counts what each script call allocates, so Rhai calls are held to the memory limit and pay
/// for the bytes they copy (see `tactica_stdlib::memory`).
#[global_allocator]
static ALLOCATOR: tactica::memory::CountingAllocator = tactica::memory::CountingAllocator;

fn main() -> ExitCode {
    restore_sigpipe();
    tactica::cli::main()
}

/// Rust ignores SIGPIPE, so `println!` into a closed pipe (`tactica run … | head -1`) panics.
/// A command-line tool should end quietly instead, as `cat` or `grep` do: restore the default.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists; setting a signal's
    // disposition to its default has no other effect on the process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
