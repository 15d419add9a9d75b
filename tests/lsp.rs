//! `tactica lsp` driven as an editor drives it: the real binary, JSON-RPC with `Content-Length`
//! framing over pipes. Every read has a timeout, so a server that hangs fails the test.
//!
//! `TACTICA_LSP_TRANSCRIPT=DIR` writes what an editor shows during the `.tac` and the Lua
//! sessions to `DIR/tac.txt` and `DIR/lua.txt` (docs/editors.md's transcript).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::{Value, json};

const TIMEOUT: Duration = Duration::from_secs(20);

/// An editor talking to one server process.
struct Editor {
    child: Child,
    stdin: Option<ChildStdin>,
    incoming: Receiver<Value>,
    next_id: i64,
    /// Notifications that arrived while waiting for a response.
    pending: Vec<Value>,
}

impl Editor {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tactica"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // The server's log (skipped messages) goes to the test's stderr; a pipe nobody reads
            // could fill and stall it.
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tactica lsp");
        let stdout = child.stdout.take().unwrap();
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = v.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                let msg: Value = serde_json::from_slice(&body).expect("the server sends JSON");
                if tx.send(msg).is_err() {
                    return;
                }
            }
        });
        let stdin = child.stdin.take();
        Editor { child, stdin, incoming, next_id: 0, pending: Vec::new() }
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, msg: Value) {
        let body = serde_json::to_string(&msg).unwrap();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    fn recv(&mut self) -> Value {
        match self.incoming.recv_timeout(TIMEOUT) {
            Ok(v) => v,
            Err(RecvTimeoutError::Timeout) => panic!("the server did not answer within {TIMEOUT:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output"),
        }
    }

    /// Sends a request and returns its whole response (`result` or `error`).
    fn request_raw(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.recv();
            if msg.get("id") == Some(&json!(id)) && msg.get("method").is_none() {
                return msg;
            }
            self.pending.push(msg);
        }
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let matches = |m: &Value| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
        if let Some(i) = self.pending.iter().position(matches) {
            return self.pending.remove(i)["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let msg = self.recv();
            if matches(&msg) {
                return msg["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.pending.push(msg);
        }
    }

    fn initialize(&mut self) -> Value {
        let root = uri(&fixture(""));
        let result = self.request("initialize", json!({"processId": null, "rootUri": root, "capabilities": {}}));
        self.notify("initialized", json!({}));
        result
    }

    fn open(&mut self, uri: &str, language: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn at(&mut self, method: &str, uri: &str, (line, character): (u32, u32)) -> Value {
        self.request(method, json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}))
    }

    /// `shutdown`, `exit`, and the process's exit code.
    fn shut_down(mut self) -> i32 {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        self.wait()
    }

    fn wait(&mut self) -> i32 {
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code().expect("exited, not killed");
            }
            assert!(std::time::Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Editor {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lsp/keep").join(rel)
}

fn uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_str().unwrap().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(fixture(rel)).unwrap()
}

/// The (line, UTF-16 character) of the first `needle` in `text`, plus `offset` characters.
fn pos(text: &str, needle: &str, offset: u32) -> (u32, u32) {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle:?} in the text"));
    let line = text[..at].matches('\n').count() as u32;
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line, text[start..at].encode_utf16().count() as u32 + offset)
}

fn range(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({"start": {"line": start.0, "character": start.1}, "end": {"line": end.0, "character": end.1}})
}

fn labels(items: &Value) -> Vec<String> {
    let items = items.get("items").unwrap_or(items);
    items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_owned()).collect()
}

/// What an editor would show, for docs/editors.md.
#[derive(Default)]
struct Transcript(String);

impl Transcript {
    fn line(&mut self, s: impl AsRef<str>) {
        for line in s.as_ref().split('\n') {
            self.0.push_str(line.trim_end());
            self.0.push('\n');
        }
    }

    fn diagnostics(&mut self, file: &str, diags: &[Value]) {
        if diags.is_empty() {
            self.line(format!("  {file}: no problems"));
        }
        for d in diags {
            let severity = if d["severity"] == 1 { "error" } else { "warning" };
            let (l, c) =
                (d["range"]["start"]["line"].as_u64().unwrap(), d["range"]["start"]["character"].as_u64().unwrap());
            let message = d["message"].as_str().unwrap().replace('\n', "\n      ");
            self.line(format!(
                "  {file}:{}:{}: {severity}[{}] {message}",
                l + 1,
                c + 1,
                d["code"].as_str().unwrap_or("-")
            ));
        }
    }

    fn save(&self, name: &str) {
        if let Some(dir) = std::env::var_os("TACTICA_LSP_TRANSCRIPT") {
            std::fs::write(Path::new(&dir).join(name), &self.0).unwrap();
        }
    }
}

#[test]
fn an_editor_session_on_a_tac_file() {
    let mut t = Transcript::default();
    let mut ed = Editor::start();
    let init = ed.initialize();
    assert_eq!(init["serverInfo"]["name"], "tactica");
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 1, "full-text sync");
    assert_eq!(init["capabilities"]["hoverProvider"], true);
    assert_eq!(init["capabilities"]["definitionProvider"], true);

    let guard = uri(&fixture("scripts/guard.tac"));
    let good = read("scripts/guard.tac");
    // A typo after non-ASCII text: `à`, `é` (one UTF-16 unit, two bytes) and `🛡` (two units,
    // four bytes) come before it on the line.
    let bad = good.replace("étranger !\");", "étranger 🛡 !\"); Sya(\"x\");");
    t.line("$ code tests/fixtures/lsp/keep/scripts/guard.tac   # the guard, with a typo typed in");
    ed.open(&guard, "tac", &bad);
    let diags = ed.diagnostics(&guard);
    t.diagnostics("guard.tac", &diags);
    let sya = pos(&bad, "Sya", 0);
    let line = bad.lines().nth(sya.0 as usize).unwrap();
    let before = &line[..line.find("Sya").unwrap()];
    assert_eq!((sya.1, before.len(), before.chars().count()), (44, 48, 43), "UTF-16 units, not bytes or chars");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0011");
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(diags[0]["source"], "tactica");
    assert_eq!(diags[0]["range"], range(sya, (sya.0, sya.1 + 3)));
    assert_eq!(diags[0]["message"], "unknown function `Sya`\nhint: did you mean `Say`?");

    // Fixing it clears the diagnostics.
    ed.change(&guard, 2, &good);
    let diags = ed.diagnostics(&guard);
    t.line("  … the typo fixed:");
    t.diagnostics("guard.tac", &diags);
    assert_eq!(diags, Vec::<Value>::new());

    // Hover over `Say`: the API table's doc, the same text docs/api.md has.
    let say_doc = tactica::host::Api::standard().functions("Say").next().unwrap().doc;
    let hover = ed.at("textDocument/hover", &guard, pos(&good, "Say(", 1));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("Say(text: string)"), "{text}");
    assert!(text.contains(say_doc), "{text}");
    assert!(text.contains("Says a line now"), "{text}");
    assert_eq!(hover["range"], range(pos(&good, "Say(", 0), pos(&good, "Say(", 3)));
    t.line("\n  hover over `Say`:");
    t.line(format!("    {}", text.replace('\n', "\n    ")));
    // … and over a place of the scenario.
    let hover = ed.at("textDocument/hover", &guard, pos(&good, "gate)", 1));
    assert_eq!(hover["contents"]["value"], "```tactica\ngate: place\n```\n\n`gate` is a place or region.");

    // Completion: the API's functions with their signatures, and the scenario's names.
    let items = ed.at("textDocument/completion", &guard, pos(&good, "MoveTo", 2));
    let names = labels(&items);
    for want in ["MoveTo", "Say", "gate", "well", "yard", "alarm", "Alarm", "on think", "machine"] {
        assert!(names.iter().any(|n| n == want), "{want} among {names:?}");
    }
    let move_to = items.as_array().unwrap().iter().find(|i| i["label"] == "MoveTo").unwrap();
    assert_eq!(move_to["kind"], 3, "a function");
    assert!(move_to["detail"].as_str().unwrap().contains("MoveTo("), "{move_to}");
    let gate = items.as_array().unwrap().iter().find(|i| i["label"] == "gate").unwrap();
    assert_eq!(gate["detail"], "place");
    t.line("\n  completion at `Mo|veTo` (some of the items):");
    for want in ["MoveTo", "gate", "yard", "alarm", "on think"] {
        let i = items.as_array().unwrap().iter().find(|i| i["label"] == want).unwrap();
        t.line(format!("    {:<10} {}", want, i["detail"].as_str().unwrap_or("")));
    }
    // `.tac`'s own `Print` is offered and explained, though the shared API (Lua's and Rhai's) lacks it.
    let print = items.as_array().unwrap().iter().find(|i| i["label"] == "Print").expect("Print offered in .tac");
    assert_eq!(print["detail"], "Print(value: any)");
    let with_print = good.replacen("Say(", "Print(", 1);
    ed.change(&guard, 3, &with_print);
    assert_eq!(ed.diagnostics(&guard), Vec::<Value>::new(), "Print checks in .tac");
    let hover = ed.at("textDocument/hover", &guard, pos(&with_print, "Print(", 2));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("```tactica\nPrint(value: any)\n```"), "{text}");
    assert!(text.contains("Writes a debug line"), "{text}");
    assert!(text.ends_with("Tactica Script's own; Lua and Rhai have their `print`"), "{text}");
    ed.change(&guard, 4, &good);
    assert_eq!(ed.diagnostics(&guard), Vec::<Value>::new());

    // Go to definition: a transition's target state, and a place in the scenario file.
    let def = ed.at("textDocument/definition", &guard, pos(&good, "-> Alert", 4));
    let state = pos(&good, "Alert {", 0);
    assert_eq!(def, json!([{"uri": guard, "range": range(state, (state.0, state.1 + 5))}]));
    let def = ed.at("textDocument/definition", &guard, pos(&good, "gate)", 2));
    let toml = read("scenario.toml");
    let key = pos(&toml, "gate =", 0);
    assert_eq!(def, json!([{"uri": uri(&fixture("scenario.toml")), "range": range(key, (key.0, key.1 + 4))}]));
    t.line("\n  go to definition:");
    t.line(format!("    `-> Alert`  →  guard.tac:{}:{}", state.0 + 1, state.1 + 1));
    t.line(format!("    `gate`      →  scenario.toml:{}:{}", key.0 + 1, key.1 + 1));

    assert_eq!(ed.shut_down(), 0);
    t.save("tac.txt");
}

#[test]
fn lua_and_rhai_in_a_scenario_folder() {
    let mut t = Transcript::default();
    let mut ed = Editor::start();
    ed.initialize();
    let goblin = uri(&fixture("scripts/goblin.lua"));
    let good = read("scripts/goblin.lua");
    // A syntax error: Lua reports the line.
    let bad = good.replace("state.grumbles = 0", "state.grumbles = = 0");
    ed.open(&goblin, "lua", &bad);
    let diags = ed.diagnostics(&goblin);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(diags[0]["range"]["start"]["line"], 2, "{diags:?}");
    assert!(diags[0]["message"].as_str().unwrap().contains("unexpected symbol"), "{diags:?}");
    ed.change(&goblin, 2, &good);
    assert_eq!(ed.diagnostics(&goblin), Vec::<Value>::new());
    // Typing on: every keystroke compiles the file again (the server renews its script host now
    // and then, since backends keep what they compiled).
    let started = std::time::Instant::now();
    for version in 0..100 {
        ed.change(&goblin, 10 + version, if version % 2 == 0 { &bad } else { &good });
        assert_eq!(ed.diagnostics(&goblin).len(), (version % 2 == 0) as usize);
    }
    println!("100 changes of goblin.lua, each with its diagnostics: {:?}", started.elapsed());

    // The linter's findings, as `tactica check` reports them: a misspelt call after non-ASCII
    // text on its line.
    let typo = good.replace("Say(\"Mine, mine.\")", "Say(\"Mine, café 🛡.\") Sya(\"hi\")");
    ed.change(&goblin, 3, &typo);
    let diags = ed.diagnostics(&goblin);
    t.line("$ code tests/fixtures/lsp/keep/scripts/goblin.lua   # a typo in Lua");
    t.diagnostics("goblin.lua", &diags);
    let sya = pos(&typo, "Sya", 0);
    assert_eq!(sya.1, 24, "UTF-16 units");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0011");
    assert_eq!(diags[0]["severity"], 1);
    assert_eq!(diags[0]["range"], range(sya, (sya.0, sya.1 + 3)));
    assert_eq!(diags[0]["message"], "unknown function `Sya`\nhint: did you mean `Say`?");
    ed.change(&goblin, 4, &good);
    assert_eq!(ed.diagnostics(&goblin), Vec::<Value>::new());

    // Inside a string, Lua completes the scenario's places bare; outside, quoted.
    let inside = pos(&good, "well\")", 2);
    let items = ed.at("textDocument/completion", &goblin, inside);
    let well = items.as_array().unwrap().iter().find(|i| i["label"] == "well").unwrap();
    assert_eq!(well["insertText"], "well");
    t.line("\n  completion inside `MoveTo(\"we|ll\")` (the scenario's places):");
    for i in items.as_array().unwrap().iter().filter(|i| i["detail"] == "place") {
        t.line(format!("    {:<10} {}", i["label"].as_str().unwrap(), i["detail"].as_str().unwrap()));
    }
    let items = ed.at("textDocument/completion", &goblin, pos(&good, "Say(", 1));
    let well = items.as_array().unwrap().iter().find(|i| i["label"] == "well").unwrap();
    assert_eq!(well["insertText"], "\"well\"");
    assert!(labels(&items).iter().any(|l| l == "on_think"));

    // Hover knows the snake_case alias too; a place in a string goes to the scenario file.
    let shaman = uri(&fixture("scripts/shaman.rhai"));
    let rhai = read("scripts/shaman.rhai");
    ed.open(&shaman, "rhai", &rhai.replace("say(\"I am", "sya(\"I am"));
    let diags = ed.diagnostics(&shaman);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0011", "{diags:?}");
    ed.change(&shaman, 2, &rhai);
    assert_eq!(ed.diagnostics(&shaman), Vec::<Value>::new());
    let hover = ed.at("textDocument/hover", &shaman, pos(&rhai, "say(", 0));
    assert!(hover["contents"]["value"].as_str().unwrap().contains("Say(text: string)"), "{hover}");
    let hover = ed.at("textDocument/hover", &goblin, pos(&good, "on_think", 3));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("think ticks"), "{text}");
    t.line("\n  hover over `on_think`:");
    t.line(format!("    {}", text.replace('\n', "\n    ")));
    let def = ed.at("textDocument/definition", &goblin, inside);
    let toml = read("scenario.toml");
    let key = pos(&toml, "well =", 0);
    assert_eq!(def, json!([{"uri": uri(&fixture("scenario.toml")), "range": range(key, (key.0, key.1 + 4))}]));
    // A signal the .tac guard sends, from the Lua file.
    let with_wait = good.replace("Say(\"Mine, mine.\")", "Wait(\"alarm\")");
    ed.change(&goblin, 5, &with_wait);
    ed.diagnostics(&goblin);
    let def = ed.at("textDocument/definition", &goblin, pos(&with_wait, "alarm", 1));
    let tac = read("scripts/guard.tac");
    let sent = pos(&tac, "alarm;", 0);
    assert_eq!(def, json!([{"uri": uri(&fixture("scripts/guard.tac")), "range": range(sent, (sent.0, sent.1 + 5))}]));
    t.line("\n  go to definition:");
    t.line(format!("    `\"well\"`   →  scenario.toml:{}:{}", key.0 + 1, key.1 + 1));
    t.line(format!("    `\"alarm\"`  →  guard.tac:{}:{}   (where `signal alarm;` sends it)", sent.0 + 1, sent.1 + 1));
    // A Lua file no scenario lists is not a Tactica script: the server leaves it alone.
    let loose = uri(&fixture("../loose.lua"));
    ed.open(&loose, "lua", "Sya(\"hi\")\nlocal x = = 1\n");
    assert_eq!(ed.diagnostics(&loose), Vec::<Value>::new());
    assert_eq!(ed.at("textDocument/hover", &loose, (0, 1)), Value::Null);
    assert_eq!(ed.shut_down(), 0);
    t.save("lua.txt");
}

#[test]
fn bad_input_never_stops_the_server() {
    let mut ed = Editor::start();
    // Garbage before `initialize`: skipped.
    ed.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    ed.send_raw(b"Content-Length: nine\r\n\r\n");
    ed.initialize();
    ed.send_raw(b"Content-Length: 12\r\n\r\n{\"what\": 1}\n");
    // An unknown method is an error response; a request with bad params too.
    let r = ed.request_raw("textDocument/rename", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    let r = ed.request_raw("textDocument/hover", json!({"nonsense": true}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    // Unknown documents and files of no language get nothing, not a crash.
    let unknown = uri(&fixture("nowhere.tac"));
    assert_eq!(ed.at("textDocument/hover", &unknown, (0, 0)), Value::Null);
    assert_eq!(ed.at("textDocument/definition", &unknown, (3, 99)), Value::Null);
    let map = uri(&fixture("keep.txt"));
    ed.open(&map, "plaintext", &read("keep.txt"));
    assert_eq!(ed.diagnostics(&map), Vec::<Value>::new());
    ed.notify("textDocument/didOpen", json!({"textDocument": 5}));
    ed.notify("$/unknownNotification", json!({}));
    // A new, unsaved buffer is still checked; positions past the end are clamped.
    let untitled = "untitled:Untitled-1.tac";
    ed.open(untitled, "tac", "Say(\"🛡\"); Sya();");
    let diags = ed.diagnostics(untitled);
    let typo = diags.iter().find(|d| d["code"] == "E0011").expect("E0011");
    assert_eq!(typo["range"], range((0, 11), (0, 14)));
    assert!(ed.at("textDocument/completion", untitled, (40, 40)).as_array().map(Vec::len).unwrap_or(0) > 10);
    ed.notify("textDocument/didClose", json!({"textDocument": {"uri": untitled}}));
    assert_eq!(ed.diagnostics(untitled), Vec::<Value>::new());
    assert_eq!(ed.shut_down(), 0);
}

#[test]
fn exit_without_shutdown_is_exit_code_1() {
    let mut ed = Editor::start();
    ed.initialize();
    ed.notify("exit", Value::Null);
    assert_eq!(ed.wait(), 1);
    // A client that goes away without a word: the server ends too.
    let mut ed = Editor::start();
    ed.initialize();
    assert_eq!(ed.wait(), 1);
}

#[test]
fn every_shipped_example_script_opens_clean() {
    // What `tactica check examples` says of them, the server says too: no errors, with each
    // scenario's names (a `.tac` script naming a place of its scenario is fine).
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "tac" || e == "lua" || e == "rhai") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 10, "{files:?}");
    let mut ed = Editor::start();
    ed.initialize();
    for f in &files {
        let u = uri(f);
        let language = f.extension().unwrap().to_str().unwrap();
        ed.open(&u, language, &std::fs::read_to_string(f).unwrap());
        let errors: Vec<Value> = ed.diagnostics(&u).into_iter().filter(|d| d["severity"] == 1).collect();
        assert_eq!(errors, Vec::<Value>::new(), "{}", f.display());
    }
    assert_eq!(ed.shut_down(), 0);
}

#[test]
fn a_behaviour_tree_file_has_diagnostics_hover_and_completion() {
    // The guard example's tree, opened where it lies (its leaf files beside it, its scenario's
    // places one folder up).
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/guard/trees/guard.bt");
    let text = std::fs::read_to_string(&tree).unwrap();
    let mut ed = Editor::start();
    ed.initialize();
    let u = uri(&tree);
    ed.open(&u, "bt", &text);
    assert_eq!(ed.diagnostics(&u), Vec::<Value>::new(), "the example is clean");

    // A misspelt leaf, as `tactica check` reports it.
    let typo = text.replace("call_squad();", "cal_squad();");
    ed.change(&u, 2, &typo);
    let diags = ed.diagnostics(&u);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0120");
    assert_eq!(diags[0]["message"], "unknown leaf `cal_squad`\nhint: did you mean `call_squad`?");
    assert_eq!(diags[0]["range"]["start"], json!({"line": pos(&typo, "cal_squad", 0).0, "character": 6}));
    ed.change(&u, 3, &text);

    // Hover: a built-in leaf, a node word, a key, a script leaf, a subtree.
    let hover = |ed: &mut Editor, needle: &str| -> String {
        let h = ed.at("textDocument/hover", &u, pos(&text, needle, 1));
        h["contents"]["value"].as_str().unwrap_or_default().to_owned()
    };
    let h = hover(&mut ed, "go_to_position(");
    assert!(h.contains("go_to_position(query)") && h.contains("position query"), "{h}");
    assert!(hover(&mut ed, "fallback {").contains("until one succeeds"));
    assert!(hover(&mut ed, "noise = false").contains("noise = false"));
    let h = hover(&mut ed, "call_squad();");
    assert!(h.contains("a function of `../leaves/squad.rhai`"), "{h}");
    assert!(hover(&mut ed, "Patrol(from").contains("tree Patrol(in from, in to)"));

    // Completion: node words and leaves, the file's keys and trees, script leaves, places.
    let items = ed.at("textDocument/completion", &u, pos(&text, "report();", 0));
    let labels = labels(&items);
    for want in
        ["reactive", "move_to", "wait_signal", "noise", "Patrol", "call_squad", "listen", "report", "post_a", "gate"]
    {
        assert!(labels.iter().any(|l| l == want), "{want} in {labels:?}");
    }
    assert_eq!(ed.shut_down(), 0);
}

#[test]
fn a_test_file_gets_diagnostics_hover_and_the_scenarios_names() {
    let mut ed = Editor::start();
    ed.initialize();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/harbour/harbour.tactest");
    let file = uri(&path);
    let good = std::fs::read_to_string(&path).unwrap();
    ed.open(&file, "tactest", &good);
    assert_eq!(ed.diagnostics(&file), Vec::<Value>::new(), "the shipped test file is clean");
    // A misspelt character, as the editor shows it while the designer types.
    let bad = good.replacen("expect runner reaches warehouse", "expect runer reaches warehouse", 1);
    ed.change(&file, 2, &bad);
    let diags = ed.diagnostics(&file);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "E0110");
    let runer = pos(&bad, "runer reaches", 0);
    assert_eq!(diags[0]["range"], range(runer, (runer.0, runer.1 + 5)));
    assert_eq!(diags[0]["message"], "the scenario has no entity named `runer`\nhint: did you mean `runner`?");
    // Hover over a word of the format and over an event kind.
    let hover = ed.at("textDocument/hover", &file, pos(&good, "reaches warehouse", 1));
    assert!(hover["contents"]["value"].as_str().unwrap().contains("stands on the cell, place or region"), "{hover}");
    let hover = ed.at("textDocument/hover", &file, pos(&good, "script_error", 2));
    assert!(hover["contents"]["value"].as_str().unwrap().contains("a script failed at run time"), "{hover}");
    // Completion: the format's words, the event kinds, and the harbour's names.
    let items = ed.at("textDocument/completion", &file, pos(&good, "runner reaches", 0));
    let labels = labels(&items);
    for name in ["expect", "reaches", "script_error", "lookout", "kDock", "warehouse", "GameTime"] {
        assert!(labels.iter().any(|l| l == name), "{name} is offered: {labels:?}");
    }
    assert_eq!(ed.shut_down(), 0);
}
