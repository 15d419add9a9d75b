//! Every concrete command the README and the docs show is run, and does what a reader expects:
//! `cargo run --release -- ARGS` and `tactica ARGS` run the binary with those arguments. Mentions
//! with placeholders (`tactica check FILE`, `[--tick N]`) are syntax, not commands, and are left
//! out; outputs a command would write into the repository go to a temporary folder instead.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The command lines in `text`: lines of ```sh blocks and inline `…` spans that start with
/// `tactica ` or `cargo run --release -- `, as argument lists for the binary.
fn commands(text: &str) -> Vec<Vec<String>> {
    let mut lines = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_sh = line.trim_start() == "```sh";
            continue;
        }
        if in_sh {
            lines.push(line.split('#').next().unwrap_or("").trim().to_owned());
        } else {
            lines.extend(line.split('`').skip(1).step_by(2).map(str::to_owned));
        }
    }
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("cargo run --release -- ").or_else(|| l.strip_prefix("tactica ")))
        .map(|args| args.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .filter(|args| is_concrete(args))
        .collect()
}

/// A command, not a syntax line: no placeholder (`FILE`, `N`, `PATH…`), no brackets or
/// alternatives, and at least one argument naming something in the repository.
fn is_concrete(args: &[String]) -> bool {
    let placeholder = |a: &str| {
        a.chars().any(|c| matches!(c, '[' | ']' | '|' | '…'))
            || (!a.is_empty() && a.chars().all(|c| c.is_ascii_uppercase() || c == '.' || c == '_'))
            || a.ends_with(".tac") && a.chars().next().is_some_and(|c| c.is_ascii_uppercase())
    };
    !args.iter().any(|a| placeholder(a)) && args.iter().skip(1).any(|a| Path::new(a).exists() || a == "/dev/zero")
}

fn run(args: &[String], scratch: &Path) -> (Option<i32>, String) {
    // Outputs go to the scratch folder, not into the repository.
    let mut args: Vec<String> = args.to_vec();
    for i in 1..args.len() {
        if matches!(
            args[i - 1].as_str(),
            "-o" | "--render" | "--trace" | "--paths" | "--profile-json" | "--junit" | "--out"
        ) {
            let name = Path::new(&args[i]).file_name().map(PathBuf::from).unwrap_or_else(|| "out".into());
            args[i] = scratch.join(name).display().to_string();
        }
    }
    // A file an earlier command of the docs wrote (`--trace run.jsonl`, then `view run.jsonl`)
    // is read from the scratch folder it went to.
    for a in args.iter_mut().skip(1) {
        if !a.starts_with('-') && !Path::new(a.as_str()).exists() && scratch.join(a.as_str()).exists() {
            *a = scratch.join(a.as_str()).display().to_string();
        }
    }
    let watch = args.iter().any(|a| a == "--watch");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(&args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut text = String::new();
    if watch {
        // Real time until interrupted: once it says it is playing, let it play a moment, then
        // stop it as a user would.
        use std::io::BufRead;
        let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        while stdout.read_line(&mut line).unwrap_or(0) > 0 && !line.contains("Playing") {
            line.clear();
        }
        text.push_str(&line);
        std::thread::sleep(std::time::Duration::from_millis(300));
        // SAFETY: sending a signal to our own child process.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let mut rest = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut rest);
        text.push_str(&rest);
    }
    let out = child.wait_with_output().unwrap();
    text.push_str(&String::from_utf8_lossy(&out.stdout));
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

#[test]
fn every_command_the_docs_show_runs() {
    let scratch = tempfile::Builder::new().prefix("tactica-doc-commands-").tempdir().unwrap().keep();
    let mut docs = vec![PathBuf::from("README.md")];
    docs.extend(
        std::fs::read_dir("docs")
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "md")),
    );
    docs.sort();
    let mut ran = 0;
    let mut failures = Vec::new();
    for doc in &docs {
        let text = std::fs::read_to_string(doc).unwrap();
        for args in commands(&text) {
            eprintln!("{}: tactica {}", doc.display(), args.join(" "));
            let (code, output) = run(&args, &scratch);
            ran += 1;
            let shown = args.join(" ");
            // `run /dev/zero` is shown as an input that is refused: a clear error, exit 1; so are
            // the files of `tests/lint/`, each written to hold one mistake.
            let ok = if args.iter().any(|a| a == "/dev/zero") {
                code == Some(1) && output.contains("error")
            } else if args[0] == "check" && args.iter().any(|a| a.starts_with("tests/lint/")) {
                // The linter's examples are shown for their findings: an error with its code.
                code == Some(1) && output.contains("[E0")
            } else if args.iter().any(|a| a == "--watch") {
                code == Some(130) && output.contains("trace sha256")
            } else {
                code == Some(0)
            };
            if !ok {
                failures.push(format!("{}: `{shown}` exited {code:?}:\n{output}", doc.display()));
            }
        }
    }
    assert!(ran >= 8, "only {ran} commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
