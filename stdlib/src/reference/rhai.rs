//! The API as a Rhai definitions file, in the format rhai's own `definitions` feature writes
//! (`module static;` then one `fn name(param: type) -> type;` per function, doc comments above):
//! what Rhai's language server and editors read.

use std::fmt::Write;

use super::{HANDLERS, ParamNames, SCOPES, families, param_names, snake_case};
use crate::api::{Api, HostFn};
use crate::types::Type;

/// The Rhai definitions of `api`: every overload of every function under its canonical name and
/// its snake_case alias, with its doc; the handlers and the names string parameters take, as
/// comments (Rhai's definitions have no string enumerations).
pub fn rhai_definitions(api: &Api) -> String {
    let mut out = String::new();
    out.push_str("module static;\n\n");
    out.push_str("// The Tactica script API for Rhai, generated from the host-function table by `tactica docs`;\n");
    out.push_str("// do not edit. A script's state is the map `this`, kept across calls and hot reloads.\n");
    out.push_str("//\n// Handlers a script may define (the runtime calls them):\n");
    for (name, param, doc) in HANDLERS {
        let _ = writeln!(out, "//   fn {name}({param}) — {doc}");
    }
    out.push_str("//\n// Names string parameters take:\n");
    for (family, names) in families(api) {
        let _ = writeln!(out, "//   {family}: {}", names.join(", "));
    }
    let globals: Vec<&str> = api.all_globals().iter().map(|g| g.name.as_str()).collect();
    let _ = writeln!(out, "//   global (GetGlobal, SetGlobal): {}", globals.join(", "));
    if !api.signals().is_empty() {
        let signals: Vec<&str> = api.signals().iter().map(String::as_str).collect();
        let _ = writeln!(out, "//   signal (Signal, Wait): {}", signals.join(", "));
    }
    let _ = writeln!(out, "//   scope (Signal, Wait): {}", SCOPES.join(", "));
    let attributes: Vec<&str> = api.all_attributes().iter().map(|a| a.name.as_str()).collect();
    let _ = writeln!(out, "//   attribute (AttributeOf, SetAttribute): {}\n", attributes.join(", "));
    for f in api.all_functions() {
        function(&mut out, f.name, f);
        let alias = snake_case(f.name);
        if alias != f.name {
            function(&mut out, &alias, f);
        }
    }
    out
}

fn function(out: &mut String, name: &str, f: &HostFn) {
    for line in f.doc.lines() {
        let _ = writeln!(out, "/// {}", line.trim());
    }
    let params: Vec<String> = f
        .params
        .iter()
        .map(|p| {
            let ty = match param_names(f, p) {
                ParamNames::Free => rhai_type(&p.ty),
                _ => "String",
            };
            format!("{}: {ty}", p.name)
        })
        .collect();
    let _ = writeln!(out, "fn {name}({}) -> {};\n", params.join(", "), rhai_type(&f.ret));
}

/// Rhai's name for a type, as rhai's definitions write them: `?` for a value of any type (a
/// number parameter takes an `int` or a `float`, which Rhai keeps apart).
fn rhai_type(ty: &Type) -> &'static str {
    match ty {
        Type::Any | Type::Number => "?",
        Type::Nil => "()",
        Type::Bool => "bool",
        Type::Int => "int",
        Type::Str | Type::Symbol(_) => "String",
    }
}
