//! The server's state and its answers: open documents, the scenarios they belong to, and one
//! [`ScriptHost`] with every language for compiling Lua and Rhai.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use lsp_server::{ErrorCode, Notification, Request, Response};
use lsp_types::{
    CompletionResponse, Diagnostic, DiagnosticSeverity, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, GotoDefinitionResponse, Hover, HoverContents, Location,
    MarkupContent, MarkupKind, NumberOrString, Position, PublishDiagnosticsParams, Range, TextDocumentPositionParams,
    Uri,
};
use serde_json::Value;

use super::api_docs::{self, Lang};
use super::project::{Project, Projects};
use super::text::{LineIndex, word_at};
use super::{symbols, uri};
use crate::cli::check::{Finding, Severity, check_text};
use crate::host::{Api, ScriptHost};
use crate::scenario::files::MAX_SOURCE_BYTES;

/// An open document: the editor's text, not the disk's.
struct Doc {
    /// The text (empty while the document is too large to keep).
    text: String,
    index: LineIndex,
    /// Its file, for a `file:` URI.
    path: Option<PathBuf>,
    ext: String,
    /// The size of a text larger than [`MAX_SOURCE_BYTES`]: not kept, not read, until the
    /// editor sends a whole text that fits. A file the game would refuse to read is not worth an
    /// editor's memory, and no pass of the front end sees more than the game would.
    too_large: Option<usize>,
}

impl Doc {
    fn new(uri: &Uri, text: String) -> Self {
        let mut doc = Doc {
            text: String::new(),
            index: LineIndex::new(""),
            path: uri::to_path(uri),
            ext: uri::extension(uri),
            too_large: None,
        };
        doc.set_text(text);
        doc
    }

    fn set_text(&mut self, text: String) {
        if text.len() as u64 > MAX_SOURCE_BYTES {
            self.too_large = Some(text.len());
            self.text = String::new();
        } else {
            self.too_large = None;
            self.text = text;
        }
        self.index = LineIndex::new(&self.text);
    }

    /// Applies one change of a `didChange`: a whole text, or an edit of a range (from a client
    /// that sends ranges although the server asked for whole texts). An edit of a text too large
    /// to keep cannot be applied: the document waits for a whole text.
    fn change(&mut self, range: Option<Range>, with: String) {
        match range {
            None => self.set_text(with),
            Some(_) if self.too_large.is_some() => {}
            Some(r) => {
                let (a, b) = (self.index.offset(&self.text, r.start), self.index.offset(&self.text, r.end));
                let mut text = std::mem::take(&mut self.text);
                text.replace_range(a.min(b)..b.max(a), &with);
                self.set_text(text);
            }
        }
    }

    /// The path the checker is told (a stand-in of the right extension for an unsaved buffer).
    fn check_path(&self) -> PathBuf {
        self.path.clone().unwrap_or_else(|| PathBuf::from(format!("untitled.{}", self.ext)))
    }
}

/// What the server knows between messages.
pub struct Server {
    docs: HashMap<Uri, Doc>,
    projects: Projects,
    host: ScriptHost,
    /// Files the host compiled since it was made (see [`HOST_CHECKS`]).
    host_checks: u32,
    standard: Api,
}

/// How many files one [`ScriptHost`] compiles before the server makes a fresh one: a backend
/// keeps every program it compiled (a Lua program is a whole Lua state), which suits a game that
/// compiles each file once, not a server that compiles at every keystroke.
const HOST_CHECKS: u32 = 32;

/// The most edits one `didChange` may carry.
const MAX_CHANGES: usize = 10_000;

fn new_host() -> ScriptHost {
    let mut host = ScriptHost::new();
    for b in crate::languages() {
        host.add_backend(b);
    }
    host
}

impl Default for Server {
    fn default() -> Self {
        Self::new()
    }
}

impl Server {
    /// A server with no document open.
    pub fn new() -> Self {
        Server {
            docs: HashMap::new(),
            projects: Projects::default(),
            host: new_host(),
            host_checks: 0,
            standard: Api::standard(),
        }
    }

    /// Answers a request. Unknown methods and bad parameters are errors to the client, never a
    /// panic.
    pub fn request(&mut self, req: Request) -> Response {
        let id = req.id.clone();
        let result = match req.method.as_str() {
            "textDocument/hover" => self.position_request(req.params, Self::hover),
            "textDocument/completion" => self.position_request(req.params, Self::completion),
            "textDocument/definition" => self.position_request(req.params, Self::definition),
            other => return Response::new_err(id, ErrorCode::MethodNotFound as i32, format!("unknown method {other}")),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(why) => Response::new_err(id, ErrorCode::InvalidParams as i32, why),
        }
    }

    fn position_request(
        &mut self,
        params: Value,
        answer: impl FnOnce(&mut Self, &Uri, Position) -> Value,
    ) -> Result<Value, String> {
        let p: TextDocumentPositionParams = serde_json::from_value(params).map_err(|e| e.to_string())?;
        Ok(answer(self, &p.text_document.uri, p.position))
    }

    /// Handles a notification; returns the diagnostics to publish.
    pub fn notification(&mut self, n: Notification) -> Vec<Notification> {
        let parsed = match n.method.as_str() {
            "textDocument/didOpen" => serde_json::from_value::<DidOpenTextDocumentParams>(n.params).map(|p| {
                let uri = p.text_document.uri;
                self.docs.insert(uri.clone(), Doc::new(&uri, p.text_document.text));
                vec![uri]
            }),
            "textDocument/didChange" => serde_json::from_value::<DidChangeTextDocumentParams>(n.params).map(|p| {
                let uri = p.text_document.uri;
                let Some(doc) = self.docs.get_mut(&uri) else { return vec![] };
                let changes = p.content_changes.len();
                if changes > MAX_CHANGES {
                    // Each ranged edit costs a pass over the text; no editor sends this many in
                    // one message. The document keeps its text until a whole one comes.
                    eprintln!("tactica lsp: ignored a change of {changes} edits (at most {MAX_CHANGES})");
                    return vec![];
                }
                for change in p.content_changes {
                    doc.change(change.range, change.text);
                }
                vec![uri]
            }),
            "textDocument/didSave" => serde_json::from_value::<DidSaveTextDocumentParams>(n.params).map(|p| {
                // A saved script may send new signals, a saved scenario declare new places.
                self.projects.forget();
                let uri = p.text_document.uri;
                if uri::extension(&uri) == "toml" { self.docs.keys().cloned().collect() } else { vec![uri] }
            }),
            "textDocument/didClose" => serde_json::from_value::<DidCloseTextDocumentParams>(n.params).map(|p| {
                self.docs.remove(&p.text_document.uri);
                vec![p.text_document.uri]
            }),
            _ => return Vec::new(),
        };
        match parsed {
            Ok(uris) => uris.into_iter().map(|u| self.publish(u)).collect(),
            Err(e) => {
                eprintln!("tactica lsp: ignored {}: {e}", n.method);
                Vec::new()
            }
        }
    }

    /// The scenario of a document and its language. `.tac` files are served anywhere (against
    /// the standard API outside a scenario); Lua and Rhai files only when a scenario lists them,
    /// since any other Lua file in the workspace is not a Tactica script.
    fn context(&mut self, uri: &Uri) -> Option<(Option<Rc<Project>>, Lang)> {
        let doc = self.docs.get(uri)?;
        let lang = Lang::of(&doc.ext)?;
        let project = doc.path.clone().and_then(|p| self.projects.for_script(&p));
        (lang == Lang::Tac || project.is_some()).then_some((project, lang))
    }

    /// The API a `lang` document of `project` (none: a loose `.tac` file) sees: the project's or
    /// the standard one, with `.tac`'s own `Print` for `.tac`.
    fn api_for<'a>(&'a self, project: Option<&'a Project>, lang: Lang) -> Cow<'a, Api> {
        let api = project.map_or(&self.standard, |p| &p.api);
        if lang == Lang::Tac { Cow::Owned(tactica_script::tac_api(api)) } else { Cow::Borrowed(api) }
    }

    /// The diagnostics notification for `uri` (none for a closed or unknown document).
    fn publish(&mut self, uri: Uri) -> Notification {
        let diagnostics = self.diagnostics(&uri);
        diagnostics_notification(uri, diagnostics)
    }

    /// Every diagnostic of an open document: `tactica check`'s findings for its text.
    pub fn diagnostics(&mut self, uri: &Uri) -> Vec<Diagnostic> {
        // A behaviour tree (its leaf files are read from beside it, wherever it is) or a test
        // file (checked against its scenario's names).
        if let Some(doc) = self.docs.get(uri).filter(|d| d.ext == "bt" || is_test_file(d)) {
            let findings = check_text(&doc.check_path(), &doc.text, &mut self.host, &self.standard, false);
            return findings.iter().map(|f| to_lsp(f, doc)).collect();
        }
        let Some((project, _)) = self.context(uri) else { return Vec::new() };
        let Some(doc) = self.docs.get(uri) else { return Vec::new() };
        if let Some(size) = doc.too_large {
            return vec![too_large(size)];
        }
        let api = project.as_ref().map_or(&self.standard, |p| &p.api);
        self.host_checks += 1;
        if self.host_checks > HOST_CHECKS {
            self.host = new_host();
            self.host_checks = 1;
        }
        let findings = check_text(&doc.check_path(), &doc.text, &mut self.host, api, false);
        findings.iter().map(|f| to_lsp(f, doc)).collect()
    }

    fn hover(&mut self, uri: &Uri, pos: Position) -> Value {
        if let Some(doc) = self.docs.get(uri)
            && doc.ext == "bt"
        {
            let at = doc.index.offset(&doc.text, pos);
            let Some((word, span)) = word_at(&doc.text, at) else { return Value::Null };
            let Some(value) = super::trees::hover(&doc.text, word, doc.path.as_deref(), &mut self.host) else {
                return Value::Null;
            };
            return serde_json::to_value(Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
                range: Some(doc.index.range(&doc.text, &span)),
            })
            .unwrap_or(Value::Null);
        }
        if let Some(doc) = self.docs.get(uri).filter(|d| is_test_file(d)) {
            let at = doc.index.offset(&doc.text, pos);
            let Some((word, span)) = word_at(&doc.text, at) else { return Value::Null };
            return match super::testfile::hover(word) {
                Some(value) => serde_json::to_value(Hover {
                    contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
                    range: Some(doc.index.range(&doc.text, &span)),
                })
                .unwrap_or(Value::Null),
                None => Value::Null,
            };
        }
        let Some((project, lang)) = self.context(uri) else { return Value::Null };
        let Some(doc) = self.docs.get(uri) else { return Value::Null };
        let at = doc.index.offset(&doc.text, pos);
        let Some((word, span)) = word_at(&doc.text, at) else { return Value::Null };
        let after_on = lang == Lang::Tac && follows_on(&doc.text[..span.start]);
        let api = self.api_for(project.as_deref(), lang);
        let api = &*api;
        let text = api_docs::hover(api, word, lang, after_on).or_else(|| {
            // A name the file itself defines.
            let defs = if lang == Lang::Tac { symbols::tac_defs(&doc.text) } else { Vec::new() };
            symbols::lookup(&defs, word, at).first().map(|d| match &d.within {
                Some((owner, _)) => format!("{} `{}` of `{owner}`", d.kind.word(), d.name),
                None => format!("{} `{}`", d.kind.word(), d.name),
            })
        });
        match text {
            Some(value) => serde_json::to_value(Hover {
                contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }),
                range: Some(doc.index.range(&doc.text, &span)),
            })
            .unwrap_or(Value::Null),
            None => Value::Null,
        }
    }

    fn completion(&mut self, uri: &Uri, pos: Position) -> Value {
        if self.docs.get(uri).is_some_and(|d| d.ext == "bt") {
            let path = self.docs.get(uri).and_then(|d| d.path.clone());
            let project = path.as_deref().and_then(|p| self.projects.for_script(p));
            let places: Vec<String> =
                project.as_ref().map(|p| p.places.iter().map(|(n, _)| n.clone()).collect()).unwrap_or_default();
            let Some(doc) = self.docs.get(uri) else { return Value::Null };
            let items = super::trees::completions(&doc.text, doc.path.as_deref(), &mut self.host, &places);
            return serde_json::to_value(CompletionResponse::Array(items)).unwrap_or(Value::Null);
        }
        if let Some(doc) = self.docs.get(uri).filter(|d| is_test_file(d)) {
            let names = crate::testing::prepare::names_for(&doc.check_path(), &doc.text);
            let items = super::testfile::completions(names.as_ref());
            return serde_json::to_value(CompletionResponse::Array(items)).unwrap_or(Value::Null);
        }
        let Some((project, lang)) = self.context(uri) else { return Value::Null };
        let Some(doc) = self.docs.get(uri) else { return Value::Null };
        let at = doc.index.offset(&doc.text, pos);
        let api = self.api_for(project.as_deref(), lang);
        let api = &*api;
        let items = api_docs::completions(api, lang, lang != Lang::Tac && in_string(&doc.text, at));
        serde_json::to_value(CompletionResponse::Array(items)).unwrap_or(Value::Null)
    }

    fn definition(&mut self, uri: &Uri, pos: Position) -> Value {
        let Some((project, lang)) = self.context(uri) else { return Value::Null };
        let Some(doc) = self.docs.get(uri) else { return Value::Null };
        let at = doc.index.offset(&doc.text, pos);
        let Some((word, _)) = word_at(&doc.text, at) else { return Value::Null };
        let here = |span: &std::ops::Range<usize>| Location::new(uri.clone(), doc.index.range(&doc.text, span));
        // Names this file defines: states, rules, facts, roles, signals it sends.
        let mut defs = if lang == Lang::Tac { symbols::tac_defs(&doc.text) } else { Vec::new() };
        defs.extend(symbols::signal_calls(&doc.text));
        if let Some(d) = symbols::lookup(&defs, word, at).first() {
            return to_value(vec![here(&d.span)]);
        }
        let Some(project) = project else { return Value::Null };
        // A place or region: its key in the scenario file.
        if let Some((_, span)) = project.places.iter().find(|(name, _)| name.eq_ignore_ascii_case(word))
            && let Some(target) = uri::from_path(&project.file)
        {
            return to_value(vec![Location::new(target, project.index.range(&project.text, span))]);
        }
        // A signal another script of the scenario sends.
        let mut found = Vec::new();
        for script in &project.scripts {
            let Some(target) = uri::from_path(script) else { continue };
            let open = self.docs.get(&target).map(|d| d.text.clone());
            let Some(text) = open
                .or_else(|| crate::scenario::files::read_text(script, crate::scenario::files::MAX_SOURCE_BYTES).ok())
            else {
                continue;
            };
            let mut defs = symbols::signal_calls(&text);
            if script.extension().is_some_and(|e| e == "tac") {
                defs.extend(symbols::tac_defs(&text).into_iter().filter(|d| d.kind == symbols::Kind::Signal));
            }
            let index = LineIndex::new(&text);
            for d in symbols::lookup(&defs, word, usize::MAX) {
                found.push(Location::new(target.clone(), index.range(&text, &d.span)));
            }
        }
        if found.is_empty() { Value::Null } else { to_value(found) }
    }
}

/// Whether a document is a test file (`.tactest`).
fn is_test_file(doc: &Doc) -> bool {
    doc.ext == crate::testing::prepare::EXTENSION
}

/// Whether `before` ends with the word `on` (and blanks): `on think`, where `think` is a handler.
fn follows_on(before: &str) -> bool {
    let before = before.trim_end();
    let Some(start) = before.len().checked_sub(2) else { return false };
    before.get(start..).is_some_and(|w| w.eq_ignore_ascii_case("on"))
        && !before[..start].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
}

fn to_value(locations: Vec<Location>) -> Value {
    serde_json::to_value(GotoDefinitionResponse::Array(locations)).unwrap_or(Value::Null)
}

/// The one diagnostic of a document too large to read.
fn too_large(size: usize) -> Diagnostic {
    Diagnostic {
        range: Range::new(Position::new(0, 0), Position::new(0, 0)),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("tactica".into()),
        message: format!(
            "this file is {} KiB, larger than the {} KiB a script may be: the game would not read it, so it is not checked",
            size / 1024,
            MAX_SOURCE_BYTES / 1024
        ),
        ..Default::default()
    }
}

fn diagnostics_notification(uri: Uri, diagnostics: Vec<Diagnostic>) -> Notification {
    Notification::new(
        "textDocument/publishDiagnostics".into(),
        PublishDiagnosticsParams { uri, diagnostics, version: None },
    )
}

/// Whether byte offset `at` is inside a string literal on its line (Lua and Rhai names of
/// places, globals and signals are strings); a `--` or `//` comment ends the line's code.
fn in_string(text: &str, at: usize) -> bool {
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let mut quote = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (None, '-' | '/') if chars.peek() == Some(&c) => return false,
            _ => {}
        }
    }
    quote.is_some()
}

/// A finding as an LSP diagnostic: the front end's byte span when it has one, else the line and
/// column a compiler reported (the whole line when it gave no column).
fn to_lsp(f: &Finding, doc: &Doc) -> Diagnostic {
    let (text, index) = (&doc.text, &doc.index);
    let range = match (&f.span, f.start) {
        (Some(span), _) => index.range(text, span),
        (None, (0, _)) => Range::new(Position::new(0, 0), Position::new(0, 0)),
        (None, (line, 0)) => index.line_range(text, line),
        (None, (line, col)) => {
            let start = index.position_of_line_col(text, line, col);
            let end = if f.end > f.start { index.position_of_line_col(text, f.end.0, f.end.1) } else { start };
            Range::new(start, end)
        }
    };
    let message = match &f.hint {
        Some(hint) => format!("{}\nhint: {hint}", f.message),
        None => f.message.clone(),
    };
    Diagnostic {
        range,
        severity: Some(match f.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
        }),
        code: f.code.clone().map(NumberOrString::String),
        source: Some("tactica".into()),
        message,
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_word_before_a_handler() {
        assert!(follows_on("once on "));
        assert!(follows_on("ON\n  "));
        assert!(!follows_on("moon "));
        assert!(!follows_on("☕ "));
        assert!(!follows_on("n"));
    }

    #[test]
    fn strings_under_the_cursor() {
        let t = "MoveTo(\"kDo";
        assert!(in_string(t, t.len()));
        assert!(!in_string("MoveTo(k", 8));
        assert!(!in_string("x = 1 -- \"abc", 13));
        assert!(in_string("Say('it\\'s", 10));
    }
}
