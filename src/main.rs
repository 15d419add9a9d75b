//! The `tactica` command line: a thin layer over the library (see `src/cli/`).

use std::process::ExitCode;

fn main() -> ExitCode {
    tactica::cli::main()
}
