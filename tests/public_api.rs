//! The public API of each library crate, recorded in `tests/public_api/<crate>.txt`: a change to
//! what a game can name (an item added, removed, renamed, a signature changed) is a diff to that
//! file in review, and this test fails until the file is updated on purpose
//! (`TACTICA_BLESS_API=1 cargo test --test public_api -- --ignored`).
//!
//! The listing is made from rustdoc's JSON output (`--output-format json`, unstable: the test
//! gives `RUSTC_BOOTSTRAP=1` to rustdoc alone, so a stable toolchain does), in the workspace's
//! target folder. It runs cargo inside a test, so the test is ignored by `cargo test` and CI runs
//! it by name with `--ignored`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// The library crates whose surface a game sees, with the features the listing is made with
/// (the defaults: everything a game can turn on).
const CRATES: &[&str] = &[
    "tactica",
    "tactica-engine",
    "tactica-stdlib",
    "tactica-script",
    "tactica-syntax",
    "tactica-lua",
    "tactica-rhai",
    "tactica-lua-src",
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The target folder the workspace builds in.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| repo().join("target"))
}

/// A `rustdoc` that accepts unstable options: `RUSTC_BOOTSTRAP=1` set for rustdoc alone.
///
/// Set for the whole cargo run, `RUSTC_BOOTSTRAP` would change what the dependencies' build
/// scripts see (thiserror's probes it), so the run would rebuild every crate in a folder of its
/// own, minutes of work. Given only to rustdoc, the run reuses the dependencies' metadata the
/// workspace's own `cargo doc` and `cargo check` built, and only the listed crate is documented.
fn bootstrapped_rustdoc(dir: &Path) -> PathBuf {
    let real = std::env::var("RUSTDOC").unwrap_or_else(|_| "rustdoc".into());
    let wrapper = dir.join("rustdoc");
    std::fs::write(&wrapper, format!("#!/bin/sh\nRUSTC_BOOTSTRAP=1 exec '{real}' \"$@\"\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    wrapper
}

/// rustdoc's JSON for `krate`.
fn rustdoc_json(krate: &str, rustdoc: &Path) -> Value {
    let target = target_dir();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(repo())
        .args(["rustdoc", "--locked", "--lib", "-p", krate, "--target-dir"])
        .arg(&target)
        .args(["--", "-Z", "unstable-options", "--output-format", "json"])
        .env("RUSTDOC", rustdoc)
        .env_remove("RUSTC_BOOTSTRAP")
        .env_remove("RUSTDOCFLAGS")
        .output()
        .expect("cargo runs");
    assert!(output.status.success(), "rustdoc of {krate} failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let file = target.join("doc").join(format!("{}.json", krate.replace('-', "_")));
    serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
}

/// One crate's listing: one line per public item, sorted.
struct Listing<'a> {
    index: &'a serde_json::Map<String, Value>,
    lines: BTreeSet<String>,
}

impl<'a> Listing<'a> {
    fn item(&self, id: &Value) -> Option<&'a Value> {
        self.index.get(&id_key(id))
    }

    /// Lists the items of module `id`, named under `path`.
    fn module(&mut self, path: &str, id: &Value) {
        let Some(item) = self.item(id) else { return };
        let items = item["inner"]["module"]["items"].as_array().cloned().unwrap_or_default();
        for child in &items {
            let Some(child) = self.item(child) else { continue };
            if !is_public(child) {
                continue;
            }
            self.entry(path, child);
        }
    }

    fn entry(&mut self, path: &str, item: &'a Value) {
        let name = item["name"].as_str().unwrap_or("_");
        let here = format!("{path}::{name}");
        let inner = item["inner"].as_object().expect("an item's inner");
        let (kind, body) = inner.iter().next().expect("one kind");
        match kind.as_str() {
            "module" => {
                self.lines.insert(format!("pub mod {here}"));
                self.module(&here, &item["id"]);
            }
            "use" => {
                // A re-export's name is the use's own (`load as load_scenario`), not the item's.
                let source = body["source"].as_str().unwrap_or("?");
                let name = body["name"].as_str().unwrap_or(name);
                if body["is_glob"].as_bool() == Some(true) {
                    self.lines.insert(format!("pub use {path}::{{{source}::*}}"));
                } else {
                    self.lines.insert(format!("pub use {path}::{name} = {source}"));
                }
            }
            "function" => {
                self.lines.insert(format!("pub fn {here}{}", signature(body)));
            }
            "struct" => {
                self.lines.insert(format!("pub struct {here}{}", generics(&body["generics"])));
                let fields = body["kind"]["plain"]["fields"].as_array().cloned().unwrap_or_default();
                for field in fields.iter().chain(body["kind"]["tuple"].as_array().into_iter().flatten()) {
                    if let Some(field) = self.item(field).filter(|f| is_public(f)) {
                        let ty = render(&field["inner"]["struct_field"]);
                        self.lines.insert(format!("pub {here}.{}: {ty}", field["name"].as_str().unwrap_or("_")));
                    }
                }
                self.impls(&here, &body["impls"]);
            }
            "enum" => {
                self.lines.insert(format!("pub enum {here}{}", generics(&body["generics"])));
                for variant in body["variants"].as_array().into_iter().flatten() {
                    if let Some(variant) = self.item(variant) {
                        self.lines.insert(format!(
                            "{here}::{}{}",
                            variant["name"].as_str().unwrap_or("_"),
                            self.variant(variant)
                        ));
                    }
                }
                self.impls(&here, &body["impls"]);
            }
            "union" => {
                self.lines.insert(format!("pub union {here}"));
                self.impls(&here, &body["impls"]);
            }
            "trait" => {
                self.lines.insert(format!("pub trait {here}{}", generics(&body["generics"])));
                for member in body["items"].as_array().into_iter().flatten() {
                    if let Some(member) = self.item(member) {
                        self.member(&format!("{here}::"), member);
                    }
                }
            }
            "type_alias" => {
                self.lines.insert(format!("pub type {here} = {}", render(&body["type"])));
            }
            "constant" => {
                self.lines.insert(format!("pub const {here}: {}", render(&body["type"])));
            }
            "static" => {
                self.lines.insert(format!("pub static {here}: {}", render(&body["type"])));
            }
            "macro" | "proc_macro" => {
                self.lines.insert(format!("macro {here}"));
            }
            other => {
                self.lines.insert(format!("{other} {here}"));
            }
        }
    }

    /// A variant's fields: `(T, U)` or `{ a: T }`.
    fn variant(&self, variant: &Value) -> String {
        let kind = &variant["inner"]["variant"]["kind"];
        let field = |id: &Value| self.item(id).map(|f| render(&f["inner"]["struct_field"])).unwrap_or("_".into());
        if let Some(fields) = kind["tuple"].as_array() {
            let fields: Vec<String> = fields.iter().map(field).collect();
            format!("({})", fields.join(", "))
        } else if let Some(fields) = kind["struct"]["fields"].as_array() {
            let fields: Vec<String> = fields
                .iter()
                .filter_map(|id| self.item(id))
                .map(|f| format!("{}: {}", f["name"].as_str().unwrap_or("_"), render(&f["inner"]["struct_field"])))
                .collect();
            format!(" {{ {} }}", fields.join(", "))
        } else {
            String::new()
        }
    }

    /// The inherent methods of a type, and the traits it implements by hand (auto traits and
    /// blanket implementations are rustdoc's, not ours).
    fn impls(&mut self, here: &str, impls: &Value) {
        for id in impls.as_array().into_iter().flatten() {
            let Some(imp) = self.item(id) else { continue };
            let body = &imp["inner"]["impl"];
            if body["is_synthetic"].as_bool() == Some(true) || !body["blanket_impl"].is_null() {
                continue;
            }
            if body["trait"].is_null() {
                for member in body["items"].as_array().into_iter().flatten() {
                    if let Some(member) = self.item(member).filter(|m| is_public(m)) {
                        self.member(&format!("{here}::"), member);
                    }
                }
            } else {
                let negative = if body["is_negative"].as_bool() == Some(true) { "!" } else { "" };
                self.lines.insert(format!("impl {negative}{} for {here}", path(&body["trait"])));
            }
        }
    }

    /// A method, associated constant or type of a type or trait.
    fn member(&mut self, prefix: &str, member: &Value) {
        let name = member["name"].as_str().unwrap_or("_");
        let inner = &member["inner"];
        if let Some(function) = inner.get("function") {
            self.lines.insert(format!("fn {prefix}{name}{}", signature(function)));
        } else if let Some(constant) = inner.get("assoc_const") {
            self.lines.insert(format!("const {prefix}{name}: {}", render(&constant["type"])));
        } else if inner.get("assoc_type").is_some() {
            self.lines.insert(format!("type {prefix}{name}"));
        }
    }
}

fn id_key(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn is_public(item: &Value) -> bool {
    item["visibility"] == "public" || item["visibility"] == "default"
}

/// `<T: Bound>(a: A, b: B) -> R`.
fn signature(function: &Value) -> String {
    let sig = &function["sig"];
    let inputs: Vec<String> = sig["inputs"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|pair| {
            let name = pair[0].as_str().unwrap_or("_");
            let ty = render(&pair[1]);
            if name == "self" { ty } else { format!("{name}: {ty}") }
        })
        .collect();
    let output = if sig["output"].is_null() { String::new() } else { format!(" -> {}", render(&sig["output"])) };
    let header = &function["header"];
    let mut qualifiers = String::new();
    if header["is_const"].as_bool() == Some(true) {
        qualifiers.push_str("const ");
    }
    if header["is_unsafe"].as_bool() == Some(true) {
        qualifiers.push_str("unsafe ");
    }
    format!("{}({}){output}{}", generics(&function["generics"]), inputs.join(", "), qualifiers_suffix(&qualifiers))
}

fn qualifiers_suffix(qualifiers: &str) -> String {
    if qualifiers.is_empty() { String::new() } else { format!(" [{}]", qualifiers.trim_end()) }
}

/// `<T: Bound, 'a>` (bounds from the parameters and the where clause).
fn generics(generics: &Value) -> String {
    let mut params = Vec::new();
    for param in generics["params"].as_array().into_iter().flatten() {
        let name = param["name"].as_str().unwrap_or("_");
        let kind = &param["kind"];
        if let Some(ty) = kind.get("type") {
            if ty["is_synthetic"].as_bool() == Some(true) {
                continue; // an `impl Trait` argument, shown in place
            }
            let bounds = bounds(&ty["bounds"]);
            params.push(if bounds.is_empty() { name.to_string() } else { format!("{name}: {bounds}") });
        } else if let Some(constant) = kind.get("const") {
            params.push(format!("const {name}: {}", render(&constant["type"])));
        } else {
            params.push(name.to_string());
        }
    }
    let mut out = if params.is_empty() { String::new() } else { format!("<{}>", params.join(", ")) };
    let predicates: Vec<String> = generics["where_predicates"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("bound_predicate"))
        .map(|p| format!("{}: {}", render(&p["type"]), bounds(&p["bounds"])))
        .collect();
    if !predicates.is_empty() {
        out.push_str(&format!(" where {}", predicates.join(", ")));
    }
    out
}

fn bounds(bounds: &Value) -> String {
    let rendered: Vec<String> = bounds
        .as_array()
        .into_iter()
        .flatten()
        .map(|b| {
            if let Some(t) = b.get("trait_bound") {
                let modifier = if t["modifier"] == "maybe" { "?" } else { "" };
                format!("{modifier}{}", path(&t["trait"]))
            } else if let Some(l) = b.get("outlives") {
                l.as_str().unwrap_or("'_").to_string()
            } else {
                "use<..>".to_string()
            }
        })
        .collect();
    rendered.join(" + ")
}

/// A path with its generic arguments: `Vec<Value>`, `Fn(A) -> B`.
fn path(path: &Value) -> String {
    let name = path["path"].as_str().or(path["name"].as_str()).unwrap_or("?");
    format!("{name}{}", args(&path["args"]))
}

fn args(args: &Value) -> String {
    if let Some(angle) = args.get("angle_bracketed") {
        let mut rendered: Vec<String> = angle["args"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| {
                if let Some(t) = a.get("type") {
                    render(t)
                } else if let Some(l) = a.get("lifetime") {
                    l.as_str().unwrap_or("'_").to_string()
                } else if let Some(c) = a.get("const") {
                    c["expr"].as_str().unwrap_or("_").to_string()
                } else {
                    "_".to_string()
                }
            })
            .collect();
        for constraint in angle["constraints"].as_array().into_iter().flatten() {
            let name = constraint["name"].as_str().unwrap_or("_");
            let binding = &constraint["binding"];
            if let Some(eq) = binding.get("equality") {
                rendered.push(format!("{name} = {}", render(eq.get("type").unwrap_or(eq))));
            } else {
                rendered.push(format!("{name}: {}", bounds(&binding["constraint"])));
            }
        }
        if rendered.is_empty() { String::new() } else { format!("<{}>", rendered.join(", ")) }
    } else if let Some(paren) = args.get("parenthesized") {
        let inputs: Vec<String> = paren["inputs"].as_array().into_iter().flatten().map(render).collect();
        let output =
            if paren["output"].is_null() { String::new() } else { format!(" -> {}", render(&paren["output"])) };
        format!("({}){output}", inputs.join(", "))
    } else {
        String::new()
    }
}

/// A type as it is written.
fn render(ty: &Value) -> String {
    let Some((kind, body)) = ty.as_object().and_then(|o| o.iter().next()) else {
        return ty.as_str().unwrap_or("_").to_string();
    };
    match kind.as_str() {
        "resolved_path" => path(body),
        "generic" | "primitive" => body.as_str().unwrap_or("_").to_string(),
        "tuple" => {
            let items: Vec<String> = body.as_array().into_iter().flatten().map(render).collect();
            format!("({})", items.join(", "))
        }
        "slice" => format!("[{}]", render(body)),
        "array" => format!("[{}; {}]", render(&body["type"]), body["len"].as_str().unwrap_or("_")),
        "borrowed_ref" => {
            let lifetime = body["lifetime"].as_str().map(|l| format!("{l} ")).unwrap_or_default();
            let mutable = if body["is_mutable"].as_bool() == Some(true) { "mut " } else { "" };
            format!("&{lifetime}{mutable}{}", render(&body["type"]))
        }
        "raw_pointer" => {
            let mutable = if body["is_mutable"].as_bool() == Some(true) { "mut" } else { "const" };
            format!("*{mutable} {}", render(&body["type"]))
        }
        "impl_trait" => format!("impl {}", bounds(body)),
        "dyn_trait" => {
            let traits: Vec<String> =
                body["traits"].as_array().into_iter().flatten().map(|t| path(&t["trait"])).collect();
            let lifetime = body["lifetime"].as_str().map(|l| format!(" + {l}")).unwrap_or_default();
            format!("dyn {}{lifetime}", traits.join(" + "))
        }
        "qualified_path" => {
            let trait_ = if body["trait"].is_null() { String::new() } else { format!(" as {}", path(&body["trait"])) };
            format!("<{}{trait_}>::{}", render(&body["self_type"]), body["name"].as_str().unwrap_or("_"))
        }
        "function_pointer" => {
            let sig = &body["sig"];
            let inputs: Vec<String> = sig["inputs"].as_array().into_iter().flatten().map(|p| render(&p[1])).collect();
            let output =
                if sig["output"].is_null() { String::new() } else { format!(" -> {}", render(&sig["output"])) };
            format!("fn({}){output}", inputs.join(", "))
        }
        "infer" => "_".to_string(),
        other => other.to_string(),
    }
}

/// The listing of `krate`, one line per item, sorted.
fn listing(krate: &str, rustdoc: &Path) -> String {
    let json = rustdoc_json(krate, rustdoc);
    let index = json["index"].as_object().expect("rustdoc's index");
    let mut listing = Listing { index, lines: BTreeSet::new() };
    let root = json["root"].clone();
    let name = krate.replace('-', "_");
    listing.lines.insert(format!("pub mod {name}"));
    listing.module(&name, &root);
    let mut out = String::new();
    for line in &listing.lines {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[test]
#[ignore = "runs rustdoc on every library crate (minutes); CI runs it with --ignored"]
fn the_public_api_is_the_recorded_one() {
    let bless = std::env::var_os("TACTICA_BLESS_API").is_some();
    let mut changed = Vec::new();
    let scratch = tempfile::Builder::new().prefix("tactica-public-api-").tempdir().unwrap();
    let rustdoc = bootstrapped_rustdoc(scratch.path());
    for krate in CRATES {
        let now = listing(krate, &rustdoc);
        assert!(now.lines().count() > 1, "{krate}'s listing is empty:\n{now}");
        let folder = repo().join("tests/public_api");
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join(format!("{krate}.txt"));
        let recorded = std::fs::read_to_string(&file).unwrap_or_default();
        if now != recorded {
            if bless {
                std::fs::write(&file, &now).unwrap();
            } else {
                let added: Vec<&str> = now.lines().filter(|l| !recorded.lines().any(|r| r == *l)).collect();
                let removed: Vec<&str> = recorded.lines().filter(|l| !now.lines().any(|n| n == *l)).collect();
                changed.push(format!("{krate}:\n  added: {added:#?}\n  removed: {removed:#?}"));
            }
        }
    }
    assert!(
        changed.is_empty(),
        "the public API changed; if on purpose, record it with TACTICA_BLESS_API=1 cargo test --test public_api -- --ignored\n{}",
        changed.join("\n")
    );
}
