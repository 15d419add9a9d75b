//! The API reference, generated from the one table: `docs/api.md` is this function's output, and
//! a test in the root crate fails when the file is stale.

use std::fmt::Write;

use crate::api::Api;

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
    md.push_str(
        "<!-- Generated from `tactica_stdlib::Api::standard()` by `tactica_stdlib::api_markdown`; do not edit.\n",
    );
    md.push_str("     Regenerate with `UPDATE_API_DOCS=1 cargo test --test api_docs`. -->\n\n");
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
    let mut families: Vec<&str> = api.all_symbols().iter().map(|s| s.family.as_str()).collect();
    families.dedup();
    let mut seen = Vec::new();
    for fam in families {
        if seen.contains(&fam) {
            continue;
        }
        seen.push(fam);
        let names: Vec<String> =
            api.all_symbols().iter().filter(|s| s.family == fam).map(|s| format!("`{}`", s.name)).collect();
        let _ = writeln!(md, "| {fam} | {} |", names.join(", "));
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
