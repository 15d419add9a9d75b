//! `tactica lsp`: a language server over stdio for `.tac` and behaviour-tree (`.bt`) files, and
//! for Lua and Rhai scripts (with their scenario's names when a scenario in their folder, or one
//! above it, uses them).
//!
//! It offers what `tactica check` finds as diagnostics while the user types (full-text sync),
//! hover with the API's docs, completion of API functions, handlers, attributes, globals, named
//! values and the scenario's places and signals, and "go to definition" of machine states, rules,
//! facts, roles, signals and places (a place lands on its key in the scenario file).
//!
//! Test files (`.tactest`) get the same diagnostics as `tactica check` gives them, hover over
//! the format's words and event kinds, and completion of them and of their scenario's names
//! ([`testfile`]).
//!
//! Modules: [`transport`] frames JSON-RPC and skips malformed messages; [`server`] keeps the open
//! documents and answers; [`project`] finds a script's scenario; [`api_docs`] turns the API table
//! into hover text and completion items; [`trees`] does the same for tree files; [`symbols`]
//! finds what a script defines; [`text`]
//! converts byte offsets to LSP's UTF-16 positions; [`uri`] converts `file:` URIs to paths.

pub mod api_docs;
pub mod project;
pub mod server;
pub mod symbols;
pub mod testfile;
pub mod text;
pub mod transport;
pub mod trees;
pub mod uri;

use std::io::{BufRead, Write};

use lsp_server::{Connection, ErrorCode, Message, Response};
use lsp_types::{
    CompletionOptions, HoverProviderCapability, OneOf, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};

pub use server::Server;

/// What the server can do, as the `initialize` response says.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(TextDocumentSyncOptions {
            open_close: Some(true),
            change: Some(TextDocumentSyncKind::FULL),
            save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions { include_text: Some(false) })),
            ..Default::default()
        })),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), "'".into()]),
            ..Default::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        ..Default::default()
    }
}

/// Serves one client over `input` and `output` until it says `exit` or goes away. Returns the
/// exit code LSP asks for: 0 when `shutdown` came before `exit`, 1 otherwise.
pub fn serve(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) -> u8 {
    let (connection, reader, writer) = transport::connect(input, output);
    let code = run(&connection);
    drop(connection);
    let _ = writer.join();
    // The reader may be blocked on an input the client keeps open; it ends with the process.
    drop(reader);
    code
}

fn run(connection: &Connection) -> u8 {
    let init = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo { name: "tactica".into(), version: Some(env!("CARGO_PKG_VERSION").into()) },
    });
    let Ok((id, _params)) = connection.initialize_start() else { return 1 };
    if connection.initialize_finish(id, init).is_err() {
        return 1;
    }
    let mut server = Server::new();
    let mut shut_down = false;
    for msg in &connection.receiver {
        match msg {
            Message::Request(req) => {
                let response = if shut_down {
                    Response::new_err(req.id, ErrorCode::InvalidRequest as i32, "the server is shutting down".into())
                } else if req.method == "shutdown" {
                    shut_down = true;
                    Response::new_ok(req.id, ())
                } else {
                    let (id, method) = (req.id.clone(), req.method.clone());
                    // A bug in an answer costs that answer, not the session.
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.request(req))).unwrap_or_else(
                        |_| Response::new_err(id, ErrorCode::InternalError as i32, format!("{method} failed")),
                    )
                };
                if connection.sender.send(response.into()).is_err() {
                    return 1;
                }
            }
            Message::Notification(n) if n.method == "exit" => return if shut_down { 0 } else { 1 },
            Message::Notification(n) => {
                if shut_down {
                    continue;
                }
                let published = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.notification(n)));
                for out in published.unwrap_or_default() {
                    if connection.sender.send(out.into()).is_err() {
                        return 1;
                    }
                }
            }
            Message::Response(_) => {}
        }
    }
    1
}
