//! The API as a LuaLS `---@meta` file: what lua-language-server (and EmmyLua) read to complete,
//! document and check calls in a mod's Lua scripts.

use std::fmt::Write;

use super::{HANDLERS, ParamNames, SCOPES, families, param_names, snake_case};
use crate::api::{Api, HostFn};
use crate::types::Type;

/// Lua's reserved words: a parameter so named would make the file unreadable.
const RESERVED: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
    "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// The LuaLS definitions of `api`: every function (canonical name and snake_case alias) with
/// `---@param`, `---@return`, its overloads and its doc; the handlers a script defines; `state`;
/// and string aliases for the names parameters take (places, globals, signals …), so an editor
/// completes them inside the quotes.
pub fn luals_meta(api: &Api) -> String {
    let mut out = String::new();
    out.push_str("---@meta tactica\n");
    out.push_str("-- The Tactica script API for Lua, generated from the host-function table by `tactica docs`;\n");
    out.push_str("-- do not edit. Add this file's folder to lua-language-server's `workspace.library`.\n\n");
    for (family, names) in families(api) {
        alias(&mut out, &format!("tactica.{family}"), &format!("A named value of the `{family}` family."), &names);
    }
    let globals: Vec<&str> = api.all_globals().iter().map(|g| g.name.as_str()).collect();
    alias(&mut out, "tactica.global", "A world global (`GetGlobal`, `SetGlobal`); any other name works too.", &globals);
    let signals: Vec<&str> = api.signals().iter().map(String::as_str).collect();
    alias(&mut out, "tactica.signal", "A signal the scenario's scripts use; any other name works too.", &signals);
    alias(&mut out, "tactica.scope", "Where a signal goes.", &SCOPES);
    let attributes: Vec<&str> = api.all_attributes().iter().map(|a| a.name.as_str()).collect();
    alias(&mut out, "tactica.attribute", "An attribute of the schema.", &attributes);

    out.push_str("---This instance's own state: plain data kept across calls and hot reloads.\n");
    out.push_str("---@type table<string, any>\nstate = {}\n\n");
    for (name, param, doc) in HANDLERS {
        let _ = writeln!(out, "---{doc}\n---(A handler: define it in your script; the runtime calls it.)");
        if !param.is_empty() {
            let ty = if *param == "state" { "table<string, any>" } else { "string" };
            let _ = writeln!(out, "---@param {param} {ty}");
        }
        let _ = writeln!(out, "function {name}({param}) end\n");
    }

    let mut names: Vec<&str> = api.all_functions().iter().map(|f| f.name).collect();
    names.dedup();
    let mut written: Vec<&str> = Vec::new();
    for name in names {
        if written.contains(&name) {
            continue;
        }
        written.push(name);
        let overloads: Vec<&HostFn> = api.functions(name).collect();
        let alias = snake_case(name);
        function(&mut out, name, &overloads);
        if alias != name {
            function(&mut out, &alias, &overloads);
        }
    }
    out
}

/// `---@alias name "a"|"b"|string`: completion offers the names, and any string still type-checks
/// (a script may build a name at run time).
fn alias(out: &mut String, name: &str, doc: &str, names: &[&str]) {
    let _ = writeln!(out, "---{doc}");
    let _ = write!(out, "---@alias {name}");
    for n in names {
        let _ = write!(out, "\n---| \"{}\"", n.replace('"', "\\\""));
    }
    out.push_str("\n---| string\n\n");
}

fn function(out: &mut String, name: &str, overloads: &[&HostFn]) {
    let Some(first) = overloads.first() else { return };
    for f in overloads {
        for line in f.doc.lines() {
            let _ = writeln!(out, "---{}", line.trim());
        }
    }
    for p in &first.params {
        let _ = writeln!(out, "---@param {} {}", param_name(p.name), lua_type(first, p));
    }
    if first.ret != Type::Nil {
        let _ = writeln!(out, "---@return {}", return_type(&first.ret));
    }
    for f in &overloads[1..] {
        let params: Vec<String> =
            f.params.iter().map(|p| format!("{}: {}", param_name(p.name), lua_type(f, p))).collect();
        let ret = if f.ret == Type::Nil { String::new() } else { format!(": {}", return_type(&f.ret)) };
        let _ = writeln!(out, "---@overload fun({}){ret}", params.join(", "));
    }
    let params: Vec<String> = first.params.iter().map(|p| param_name(p.name)).collect();
    let _ = writeln!(out, "function {name}({}) end\n", params.join(", "));
}

fn param_name(name: &str) -> String {
    if RESERVED.contains(&name) { format!("{name}_") } else { name.to_owned() }
}

fn lua_type(f: &HostFn, p: &crate::api::Param) -> String {
    match param_names(f, p) {
        ParamNames::Family(family) => format!("tactica.{family}"),
        ParamNames::Global => "tactica.global".to_owned(),
        ParamNames::Signal => "tactica.signal".to_owned(),
        ParamNames::Scope => "tactica.scope".to_owned(),
        ParamNames::Attribute => "tactica.attribute".to_owned(),
        ParamNames::Free => plain_type(&p.ty).to_owned(),
    }
}

fn return_type(ty: &Type) -> String {
    match ty {
        Type::Symbol(family) => format!("tactica.{family}"),
        ty => plain_type(ty).to_owned(),
    }
}

/// Lua's name for a type. A value of any type, including the tables and entity handles some
/// functions take, is `any`.
fn plain_type(ty: &Type) -> &'static str {
    match ty {
        Type::Any | Type::Symbol(_) => "any",
        Type::Nil => "nil",
        Type::Bool => "boolean",
        Type::Int => "integer",
        Type::Number => "number",
        Type::Str => "string",
    }
}
