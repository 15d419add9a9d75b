//! `tactica explain CODE`: the long explanation of a `.tac` diagnostic code, like
//! `rustc --explain` — what it means, a script that produces it and one that does not.

use std::process::ExitCode;

use clap::Args;
use tactica_script::{Code, explanation};

/// Arguments of `tactica explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The code, as `tactica check` prints it (`E0013`; case does not matter). Without one, lists
    /// every code.
    pub code: Option<String>,
}

/// Prints the explanation; an unknown code is an error (exit 1) that lists the known ones.
pub fn explain(args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let Some(name) = &args.code else {
        for c in Code::ALL {
            println!("{c}  {}", c.explain());
        }
        return Ok(ExitCode::SUCCESS);
    };
    match Code::parse(name.trim()) {
        Some(code) => {
            println!("{}", explanation(code).render());
            Ok(ExitCode::SUCCESS)
        }
        None => {
            let known = Code::ALL.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(", ");
            eprintln!("error: `{name}` is not a Tactica Script diagnostic code (known: {known})");
            Ok(ExitCode::from(1))
        }
    }
}
