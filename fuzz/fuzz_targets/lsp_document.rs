//! The language server's document handling on arbitrary text: the first byte picks the
//! language (`.tac`, `.lua`, `.rhai`), the rest is opened, changed (whole and by a range),
//! hovered and completed at a position the text picks, as an editor would send them. Nothing may
//! panic, overflow a stack or hang, whatever the document holds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use lsp_server::{Notification, Request, RequestId};
use serde_json::json;

thread_local! {
    static SERVER: std::cell::RefCell<tactica::lsp::Server> = std::cell::RefCell::new(tactica::lsp::Server::new());
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let ext = ["tac", "lua", "rhai"][usize::from(pick % 3)];
    let uri = format!("file:///fuzz/doc.{ext}");
    let line = u32::from(pick / 3 % 8);
    let character = u32::try_from(text.len() % 97).unwrap_or(0);
    let position = json!({"line": line, "character": character});
    let notify = |method: &str, params| Notification::new(method.to_owned(), params);
    let request = |id: i32, method: &str| {
        Request::new(
            RequestId::from(id),
            method.to_owned(),
            json!({"textDocument": {"uri": uri}, "position": position}),
        )
    };
    SERVER.with(|s| {
        let mut s = s.borrow_mut();
        s.notification(notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": ext, "version": 1, "text": text}}),
        ));
        let _ = s.request(request(1, "textDocument/hover"));
        let _ = s.request(request(2, "textDocument/completion"));
        let _ = s.request(request(3, "textDocument/definition"));
        // The text edited where the text says: its second half replaced by its first.
        let half = text.len() / 2;
        s.notification(notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
                {"range": {"start": position, "end": {"line": line + 1, "character": 0}}, "text": &text[..(0..=half).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0)]},
            ]}),
        ));
        let _ = s.request(request(4, "textDocument/hover"));
        s.notification(notify("textDocument/didClose", json!({"textDocument": {"uri": uri}})));
    });
});
