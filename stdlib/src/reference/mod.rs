//! The API reference and the editor definitions, generated from the one table: the Markdown
//! reference (`docs/api.md`), a LuaLS `---@meta` file ([`luals_meta`]) and a Rhai definitions
//! file ([`rhai_definitions`]). `tactica docs` writes all three, with a scenario's names added;
//! a test in the root crate fails when the copies under `docs/` are stale.

mod luals;
mod rhai;

use std::fmt::Write;

use crate::api::{Api, HostFn, Param};
use crate::types::Type;

pub use luals::luals_meta;
pub use rhai::rhai_definitions;

/// The handlers a script may define, with when the runtime calls them: the one list the editor
/// definitions and the linters share.
pub const HANDLERS: &[(&str, &str, &str)] = &[
    ("on_spawn", "", "Called when the character spawns (attribute scripts set their values here)."),
    ("on_think", "", "Called on the character's think ticks (`think_every` in the scenario): behaviour decides here."),
    ("on_tick", "", "Called every tick, for world-level scripts (events, traps, ambience)."),
    ("on_encounter", "", "Called when the player comes into range and sight, once per approach."),
    ("on_hear", "text", "Called when the player types `text` nearby; `Ask(keyword)` reads it."),
    (
        "on_reload",
        "state",
        "Called once after the file was edited during play, with the state the old code left; return or edit it to migrate.",
    ),
    (
        "sequence",
        "",
        "Called once at spawn: actions queue in order (a coroutine in Lua; queries wait for the actions before them).",
    ),
];

/// Which names a string parameter takes, for editors to complete: the named values of a family,
/// the scenario's globals, the signals its scripts use, or the signal scopes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ParamNames<'a> {
    Family(&'a str),
    Global,
    Signal,
    Scope,
    Attribute,
    Free,
}

/// The names `p` of `f` takes. Named values carry their family in the type; the string
/// parameters that name a global, a signal, a scope or an attribute are known by function and
/// parameter name, since the type table calls them all strings.
fn param_names<'a>(f: &HostFn, p: &'a Param) -> ParamNames<'a> {
    match (&p.ty, f.name, p.name) {
        (Type::Symbol(family), _, _) => ParamNames::Family(family),
        (_, "GetGlobal" | "SetGlobal", "name") => ParamNames::Global,
        (_, "Signal" | "Wait", "id") => ParamNames::Signal,
        (_, "Signal" | "Wait", "scope") => ParamNames::Scope,
        (_, "AttributeOf" | "SetAttribute", "name") => ParamNames::Attribute,
        _ => ParamNames::Free,
    }
}

/// The scopes `Signal(id, scope)` and `Wait(id, scope)` take.
const SCOPES: [&str; 3] = ["squad", "team", "world"];

/// The named-value families of `api`, in the order they were declared, each with its names.
fn families(api: &Api) -> Vec<(&str, Vec<&str>)> {
    let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
    for s in api.all_symbols() {
        match out.iter_mut().find(|(f, _)| *f == s.family) {
            Some((_, names)) => names.push(&s.name),
            None => out.push((&s.family, vec![&s.name])),
        }
    }
    out
}

/// The snake_case alias Lua and Rhai also accept for a function name (`MoveTo` → `move_to`).
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower = i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if i > 0 && (prev_lower || (next_lower && chars[i - 1].is_ascii_uppercase())) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The API reference in Markdown: every function with its signature, its spellings in Lua and
/// Rhai, and its doc; then the globals, the attribute schema and the named values.
pub fn api_markdown(api: &Api) -> String {
    let mut md = String::new();
    md.push_str("# Script API reference\n\n");
    md.push_str("<!-- Generated from the script API table by `tactica docs`; do not edit. -->\n\n");
    md.push_str("Every function below is the same in `.tac`, Lua and Rhai: one Rust implementation, bound into each\n");
    md.push_str("language by a generic adapter. Names are case-insensitive in `.tac`; Lua and Rhai accept the\n");
    md.push_str("canonical spelling and the snake_case alias. Overloads are chosen by the number of arguments.\n\n");
    md.push_str("## Functions\n\n");
    md.push_str("| function | returns | Lua / Rhai alias | what it does |\n| --- | --- | --- | --- |\n");
    for f in api.all_functions() {
        let doc = f.doc.replace('|', "\\|").replace('\n', " ");
        let _ = writeln!(md, "| `{}` | {} | `{}` | {} |", f.signature(), f.ret, snake_case(f.name), doc);
    }
    md.push_str("\n## Globals\n\nValues the engine provides; scripts read them.\n\n");
    md.push_str("| name | type | meaning |\n| --- | --- | --- |\n");
    for g in api.all_globals() {
        let _ = writeln!(md, "| `{}` | {} | {} |", g.name, g.ty, g.doc.replace('|', "\\|"));
    }
    md.push_str("\n## Attributes\n\nWhat attribute scripts may set, with the legal range.\n\n");
    md.push_str("| attribute | type | range | meaning |\n| --- | --- | --- | --- |\n");
    for a in api.all_attributes() {
        let _ = writeln!(md, "| `{}` | {} | {}..={} | {} |", a.name, a.ty, a.min, a.max, a.doc);
    }
    md.push_str("\n## Named values\n\nAt run time a named value is the string of its name.\n\n");
    md.push_str("| family | names |\n| --- | --- |\n");
    for (fam, names) in families(api) {
        let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        let _ = writeln!(md, "| {fam} | {} |", names.join(", "));
    }
    if !api.signals().is_empty() {
        md.push_str("\n## Signals\n\nThe signals the scenario's scripts send and wait for.\n\n");
        let names: Vec<String> = api.signals().iter().map(|n| format!("`{n}`")).collect();
        let _ = writeln!(md, "{}", names.join(", "));
    }
    md.push('\n');
    md.push_str(&crate::reach::capabilities_markdown());
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_aliases() {
        assert_eq!(snake_case("MoveTo"), "move_to");
        assert_eq!(snake_case("DoFlee"), "do_flee");
        assert_eq!(snake_case("move"), "move");
        assert_eq!(snake_case("PlayerLocation"), "player_location");
        assert_eq!(snake_case("LineOfSight"), "line_of_sight");
        assert_eq!(snake_case("Me"), "me");
        assert_eq!(snake_case("DistanceToPlayer"), "distance_to_player");
    }

    #[test]
    fn every_function_appears_once_per_overload() {
        let api = Api::standard();
        let md = api_markdown(&api);
        for f in api.all_functions() {
            assert!(md.contains(&format!("`{}`", f.signature())), "{}", f.signature());
        }
        assert!(md.contains("| `FindPosition(query: any)` | any | `find_position` |"));
        assert!(md.contains("| `FindPosition(query: any, options: any)` | any | `find_position` |"));
    }
}
