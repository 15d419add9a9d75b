//! `tactica lsp`: the language server on stdin and stdout (the server itself is
//! [`crate::lsp`]).

use std::process::ExitCode;

/// `tactica lsp`'s arguments.
#[derive(Debug, clap::Args)]
pub struct LspArgs {
    /// Talk over stdin and stdout (the only way; accepted because editors pass it).
    #[arg(long)]
    pub stdio: bool,
}

/// Serves one editor until it exits.
pub fn lsp(_args: &LspArgs) -> anyhow::Result<ExitCode> {
    let code = crate::lsp::serve(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
    Ok(ExitCode::from(code))
}
