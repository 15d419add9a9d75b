//! Lua errors as [`ScriptError`]s naming the script file and line.

use std::path::Path;

use tactica_stdlib::backend::ScriptError;

/// Turns an mlua error into a [`ScriptError`] for `file`. The line comes from the message
/// (`name.lua:3: …`), else from the traceback of a failed host call, else from the hook's
/// `line N:` prefix, else from the last line the hook saw (`fallback_line`).
pub(crate) fn script_error(file: &Path, chunk: &str, err: &mlua::Error, fallback_line: u32) -> ScriptError {
    let (message, traceback) = flatten(err);
    let located = find_line(&message, chunk);
    let line = located
        .or_else(|| traceback.as_deref().and_then(|t| find_line(t, chunk)))
        .or_else(|| hook_line(&message))
        .unwrap_or(fallback_line);
    ScriptError::new(file, line, 0, clean(&message, chunk))
}

/// The innermost message and the first traceback of an error chain.
fn flatten(err: &mlua::Error) -> (String, Option<String>) {
    match err {
        mlua::Error::CallbackError { traceback, cause } => {
            let (m, t) = flatten(cause);
            (m, t.or_else(|| Some(traceback.clone())))
        }
        mlua::Error::RuntimeError(m) => (m.clone(), None),
        mlua::Error::SyntaxError { message, .. } => (format!("syntax error: {message}"), None),
        mlua::Error::MemoryError(_) => ("memory limit exceeded".to_owned(), None),
        mlua::Error::WithContext { context, cause } => {
            let (m, t) = flatten(cause);
            (format!("{context}: {m}"), t)
        }
        other => (other.to_string(), None),
    }
}

/// The line in the first `chunk:LINE:` of `text`.
fn find_line(text: &str, chunk: &str) -> Option<u32> {
    let pat = format!("{chunk}:");
    let mut rest = text;
    while let Some(at) = rest.find(&pat) {
        rest = &rest[at + pat.len()..];
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        if !digits.is_empty() && rest[digits.len()..].starts_with(':') {
            return digits.parse().ok();
        }
    }
    None
}

/// The line of the hook's `line N: …` messages.
fn hook_line(message: &str) -> Option<u32> {
    let rest = message.split("line ").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok().filter(|&l| l > 0)
}

/// The message without its `chunk:LINE: ` prefix (the error carries the place separately).
fn clean(message: &str, chunk: &str) -> String {
    // The traceback is for the line number only; the message stays one line.
    let m = message.split("\nstack traceback:").next().unwrap_or(message).trim();
    let m = m.strip_prefix("runtime error: ").unwrap_or(m);
    if let Some(rest) = m.strip_prefix(&format!("{chunk}:")) {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if let Some(tail) = rest[digits..].strip_prefix(": ") {
            return tail.to_owned();
        }
    }
    m.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    // mlua's own `CallbackError` holds its cause in an `Arc`; building one is the only way to test it.
    #[expect(clippy::arc_with_non_send_sync)]
    fn lines_come_from_the_message_then_the_traceback() {
        let e = mlua::Error::RuntimeError("troll.lua:7: attempt to index a nil value".into());
        let s = script_error(Path::new("dir/troll.lua"), "troll.lua", &e, 0);
        assert_eq!((s.line, s.message.as_str()), (7, "attempt to index a nil value"));
        let e = mlua::Error::CallbackError {
            traceback: "stack traceback:\n\t[C]: in ?\n\ttroll.lua:12: in function 'on_think'".into(),
            cause: std::sync::Arc::new(mlua::Error::RuntimeError("`Say` argument 1: expected string, got nil".into())),
        };
        let s = script_error(Path::new("troll.lua"), "troll.lua", &e, 0);
        assert_eq!(s.line, 12);
        assert!(s.message.contains("expected string"));
        let e = mlua::Error::MemoryError("not enough memory".into());
        assert_eq!(script_error(Path::new("t.lua"), "t.lua", &e, 4).line, 4);
        let e = mlua::Error::RuntimeError("line 9: instruction budget of 100 exceeded".into());
        assert_eq!(script_error(Path::new("t.lua"), "t.lua", &e, 1).line, 9);
    }
}
