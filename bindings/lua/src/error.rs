//! Lua errors as [`ScriptError`]s naming the script file and line.

use std::path::Path;

use tactica_stdlib::backend::ScriptError;

/// Turns an mlua error into a [`ScriptError`] for `file`. The line comes from the message
/// (`name.lua:3: …`), else from the traceback of a failed host call, else from the hook's
/// `line N:` prefix, else from the last line the hook saw (`fallback_line`).
///
/// Lua reports lines only; the column is found in `source` from what the message names (the
/// variable of `attempt to index a nil value (local 'n')`, the token of `'=' expected near 'x'`,
/// the host function of `` `Say` argument 1 ``, the library function the budget ran out in), else
/// it is the line's first non-blank character.
pub(crate) fn script_error(
    file: &Path,
    chunk: &str,
    source: &str,
    err: &mlua::Error,
    fallback_line: u32,
) -> ScriptError {
    let (message, traceback) = flatten(err);
    let located = find_line(&message, chunk);
    let line = located
        .or_else(|| traceback.as_deref().and_then(|t| find_line(t, chunk)))
        .or_else(|| hook_line(&message))
        .unwrap_or(fallback_line);
    let message = clean(&message, chunk);
    let column = column_of(source, line, &message);
    ScriptError::new(file, line, column, message)
}

/// The 1-based column on `line` of `source` of the name `message` points at (see
/// [`script_error`]); 0 when the line is not in the source.
fn column_of(source: &str, line: u32, message: &str) -> u32 {
    let Some(text) = line.checked_sub(1).and_then(|l| source.lines().nth(l as usize)) else { return 0 };
    let chars = |byte: usize| u32::try_from(text[..byte].chars().count() + 1).unwrap_or(0);
    let named = named_in(message);
    let at = named.iter().find_map(|name| find_word(text, name));
    match at {
        Some(byte) => chars(byte),
        None => text.find(|c: char| !c.is_whitespace()).map_or(1, chars),
    }
}

/// The names a Lua or host message points at, most specific first.
fn named_in(message: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (open, close) in [("'", "'"), ("`", "`")] {
        let mut rest = message;
        while let Some(at) = rest.find(open) {
            let after = &rest[at + open.len()..];
            let Some(end) = after.find(close) else { break };
            let name = &after[..end];
            if !name.is_empty() && name.len() < 64 {
                names.push(name.to_owned());
            }
            rest = &after[end + close.len()..];
        }
    }
    // `'=' expected near 'x'`: the token after "near" is where the parser stopped (its first
    // occurrence on the line is taken).
    if message.contains(" near ")
        && let Some(last) = names.pop()
    {
        names.insert(0, last);
    }
    names
}

/// Where `word` occurs in `text` as a whole word (or, for punctuation, anywhere).
fn find_word(text: &str, word: &str) -> Option<usize> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(at) = text[from..].find(word).map(|i| i + from) {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        let whole = !word.starts_with(ident) || (!before.is_some_and(ident) && !after.is_some_and(ident));
        if whole {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Whether `err` is (or was caused by) Lua running out of memory.
pub(crate) fn is_memory_error(err: &mlua::Error) -> bool {
    match err {
        mlua::Error::MemoryError(_) => true,
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => is_memory_error(cause),
        _ => false,
    }
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
        let s = script_error(Path::new("dir/troll.lua"), "troll.lua", "", &e, 0);
        assert_eq!((s.line, s.message.as_str()), (7, "attempt to index a nil value"));
        let e = mlua::Error::CallbackError {
            traceback: "stack traceback:\n\t[C]: in ?\n\ttroll.lua:12: in function 'on_think'".into(),
            cause: std::sync::Arc::new(mlua::Error::RuntimeError("`Say` argument 1: expected string, got nil".into())),
        };
        let s = script_error(Path::new("troll.lua"), "troll.lua", "", &e, 0);
        assert_eq!(s.line, 12);
        assert!(s.message.contains("expected string"));
        let e = mlua::Error::MemoryError("not enough memory".into());
        assert_eq!(script_error(Path::new("t.lua"), "t.lua", "", &e, 4).line, 4);
        let e = mlua::Error::RuntimeError("line 9: instruction budget of 100 exceeded".into());
        assert_eq!(script_error(Path::new("t.lua"), "t.lua", "", &e, 1).line, 9);
    }

    #[test]
    fn columns_point_at_what_the_message_names() {
        let source = "function on_think()\n  local n = nil\n  Say(n.x)\n  Sya(\"hi\")\n    x = = 1\nend\n";
        let col = |line: u32, message: &str| {
            let e = mlua::Error::RuntimeError(format!("t.lua:{line}: {message}"));
            script_error(Path::new("t.lua"), "t.lua", source, &e, 0).column
        };
        assert_eq!(col(3, "attempt to index a nil value (local 'n')"), 7);
        assert_eq!(col(4, "attempt to call a nil value (global 'Sya')"), 3);
        assert_eq!(col(5, "unexpected symbol near '='"), 7);
        assert_eq!(col(2, "something without a name"), 3);
        assert_eq!(col(9, "a line past the end"), 0);
        let e = mlua::Error::RuntimeError("line 3: instruction budget of 100 exceeded inside `Say`".into());
        assert_eq!(script_error(Path::new("t.lua"), "t.lua", source, &e, 0).column, 3);
    }
}
