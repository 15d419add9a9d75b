//! What the Lua and Rhai linters share: the findings they make, worded as the `.tac` checker words
//! them (E0011 unknown function, E0013 wrong arity, E0074 unknown handler, E0075 removed global,
//! E0079 a global nothing defines, E0010 a string naming a place the scenario does not have),
//! so `tactica check` reads alike in every language. Each language walks its own syntax tree and
//! asks here about the names it meets.

use std::ops::Range;

use tactica_syntax::diagnostics::{Code, Diagnostic};

use crate::{Api, GlobalSource, HANDLERS, HostFn, snake_case, suggest};

/// How many arguments a call passes: exactly so many, or at least so many (the last argument
/// may give several values, as a Lua call or `...` does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgCount {
    /// Exactly this many.
    Exactly(usize),
    /// This many, or more.
    AtLeast(usize),
}

/// The overloads a script calling `name` reaches: the API binds every function under its
/// canonical name (`MoveTo`) and its snake_case alias (`move_to`), spelt exactly so (Lua and Rhai
/// are case-sensitive). Empty when `name` is neither.
pub fn overloads<'a>(api: &'a Api, name: &str) -> Vec<&'a HostFn> {
    // The table is keyed by lower-case canonical name; an alias drops its underscores.
    let mut found: Vec<&HostFn> =
        api.functions(name).filter(|f| f.name == name || snake_case(f.name) == name).collect();
    if found.is_empty() && name.contains('_') {
        found = api.functions(&name.replace('_', "")).filter(|f| snake_case(f.name) == name).collect();
    }
    found
}

/// Every name a script may call the API by (canonical names and snake_case aliases), for
/// suggestions.
fn callable_names(api: &Api) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for f in api.all_functions() {
        names.push(f.name.to_owned());
        let alias = snake_case(f.name);
        if alias != f.name {
            names.push(alias);
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The closest name the API binds to `name`, if one is close enough to be a likely typo.
pub fn closest_function(api: &Api, name: &str) -> Option<String> {
    let names = callable_names(api);
    // A typo keeps the spelling style: `move_tu` means `move_to`, `MovTo` means `MoveTo`.
    suggest(name, names.iter().map(String::as_str)).map(str::to_owned)
}

/// E0011: a call to a function no one defines — neither the API, the language's own library, nor
/// the script. `span` is the name's.
pub fn unknown_function(api: &Api, name: &str, span: Range<usize>) -> Diagnostic {
    Diagnostic::new(Code::UnknownFunction, span, format!("unknown function `{name}`"), "no host function has this name")
        .suggest(closest_function(api, name).as_deref())
}

/// E0013 when `args` fits none of the overloads `name` reaches (`overloads` not empty); `span`
/// covers the call.
pub fn check_arity(overloads: &[&HostFn], args: ArgCount, span: Range<usize>) -> Option<Diagnostic> {
    let first = overloads.first()?;
    let fits = |f: &&HostFn| match args {
        ArgCount::Exactly(n) => f.params.len() == n,
        ArgCount::AtLeast(n) => f.params.len() >= n,
    };
    if overloads.iter().any(fits) {
        return None;
    }
    let mut counts: Vec<usize> = overloads.iter().map(|f| f.params.len()).collect();
    counts.sort_unstable();
    counts.dedup();
    let expected: Vec<String> = counts.iter().map(usize::to_string).collect();
    let sigs: Vec<String> = overloads.iter().map(|f| format!("`{}`", f.signature())).collect();
    let (n, more) = match args {
        ArgCount::Exactly(n) => (n, ""),
        ArgCount::AtLeast(n) => (n, " or more"),
    };
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    Some(
        Diagnostic::new(
            Code::WrongArity,
            span,
            format!(
                "`{}` takes {} argument{}, but {n}{more} {} given",
                first.name,
                expected.join(" or "),
                if expected.len() == 1 && expected[0] == "1" { "" } else { "s" },
                if n == 1 && more.is_empty() { "was" } else { "were" }
            ),
            format!("called with {n}{more} argument{}", plural(n)),
        )
        .with_hint(format!("the signature is {}", sigs.join(" or "))),
    )
}

/// Whether `name` is one of the handlers the runtime calls.
pub fn is_handler(name: &str) -> bool {
    HANDLERS.iter().any(|(h, _, _)| *h == name)
}

/// E0074 when a top-level function named `name` looks like a handler (`on_…`) but no event has
/// that name, so it is never called. `span` is the name's.
pub fn unknown_handler(name: &str, span: Range<usize>) -> Option<Diagnostic> {
    if is_handler(name) || !name.get(..3).is_some_and(|p| p.eq_ignore_ascii_case("on_")) {
        return None;
    }
    let closest = suggest(name, HANDLERS.iter().map(|(h, _, _)| *h).filter(|h| h.starts_with("on_")));
    let d = Diagnostic::new(
        Code::UnknownHandler,
        span,
        format!("`{name}` is named like a handler, but no event has that name"),
        "never called",
    );
    Some(match closest {
        Some(h) => d.suggest(Some(h)),
        None => d.with_hint(
            "handlers are `on_spawn`, `on_think`, `on_tick`, `on_encounter`, `on_hear`, `on_reload`; name helpers \
             without the `on_` prefix",
        ),
    })
}

/// E0075: a read of `name`, which the sandbox removed. `what` says what it was for.
pub fn removed_global(name: &str, what: &str, span: Range<usize>) -> Diagnostic {
    Diagnostic::new(
        Code::RemovedGlobal,
        span,
        format!("`{name}` is not available to scripts: the sandbox removed it"),
        format!("{what}; this fails when the script runs"),
    )
    .with_hint("scripts have no files, OS, modules, clock or debug library: `print` or `Note` show what a script does")
}

/// E0010 when the string literal `text`, passed as argument `index` (0-based) of a call with
/// `argc` arguments to `overloads`, stands where the API expects a place or region and the
/// scenario has none of that name (`MoveTo("kVualt")`): at run time the call fails on every
/// think. Silent for a file checked without a scenario (its places are not known) and for a
/// parameter of any other kind. `span` is the literal's, quotes included.
pub fn unknown_place_literal(
    api: &Api,
    overloads: &[&HostFn],
    argc: usize,
    index: usize,
    text: &str,
    span: Range<usize>,
) -> Option<Diagnostic> {
    api.world_tags()?;
    let f = overloads.iter().find(|f| f.params.len() == argc)?;
    let param = f.params.get(index)?;
    if param.ty != crate::Type::symbol("place") || api.symbol(text).is_some_and(|s| s.family == "place") {
        return None;
    }
    let places = api.all_symbols().iter().filter(|s| s.family == "place").map(|s| s.name.as_str());
    let closest = suggest(text, places);
    Some(
        Diagnostic::new(
            Code::UnknownName,
            span,
            format!("`{}` names no place or region of the scenario", text),
            format!("`{}` expects a place here", f.name),
        )
        .with_hint(match closest {
            Some(name) => format!("did you mean `\"{name}\"`? The scenario's `[places]` and `[regions]` name them"),
            None => "the scenario's `[places]` and `[regions]` name the places a script may use".to_owned(),
        }),
    )
}

/// E0079: a read of a global nothing defines — not the script, not the language's library, not
/// the API — in `language` ("Lua", "Rhai"). There such a name is nil (Lua) or an error (Rhai),
/// and the usual cause is a name written bare as `.tac` writes it: a place, a weapon or a signal,
/// which in Lua and Rhai are strings. The hint says so, with the name's canonical spelling when
/// the API (or the scenario) knows it. `span` is the name's.
pub fn undefined_global(api: &Api, name: &str, language: &str, span: Range<usize>) -> Diagnostic {
    let fails = if language == "Rhai" { "the script stops with an error there" } else { "it reads as nil" };
    let d = Diagnostic::new(
        Code::UndefinedGlobal,
        span,
        format!("`{name}` is not defined"),
        format!("nothing defines this name: {fails}"),
    );
    let hint = match (api.symbol(name), api.global(name)) {
        (Some(symbol), _) => format!(
            "`{0}` is {1} the scenario or the API names; in {language} names are strings: write `\"{0}\"`",
            symbol.name,
            family_phrase(&symbol.family),
        ),
        (None, Some((_, global))) => match &global.source {
            GlobalSource::World(key) => {
                format!("`{}` is a world global; in {language} read it with `GetGlobal(\"{key}\")`", global.name)
            }
            _ => format!(
                "`{}` is a global of `.tac` scripts; in {language} the functions of the API read it (docs/api.md)",
                global.name
            ),
        },
        (None, None) => format!(
            "names of places, weapons, traps and signals are strings in {language} (`\"{name}\"`); a variable must be \
             assigned before it is read"
        ),
    };
    d.with_hint(hint)
}

/// "a place", "a weapon" … for a symbol family.
fn family_phrase(family: &str) -> String {
    let article = if family.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {family}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_reached_as_the_bindings_spell_them() {
        let api = Api::standard();
        assert_eq!(overloads(&api, "MoveTo").len(), 2);
        assert_eq!(overloads(&api, "move_to").len(), 2);
        assert!(overloads(&api, "moveto").is_empty(), "Lua and Rhai are case-sensitive");
        assert_eq!(closest_function(&api, "Sya").as_deref(), Some("Say"));
        assert_eq!(closest_function(&api, "move_tu").as_deref(), Some("move_to"));
    }

    #[test]
    fn arity_names_every_overload() {
        let api = Api::standard();
        let d = check_arity(&overloads(&api, "MoveTo"), ArgCount::Exactly(3), 0..5).unwrap();
        assert_eq!(d.code, Code::WrongArity);
        assert_eq!(d.message, "`MoveTo` takes 1 or 2 arguments, but 3 were given");
        assert!(check_arity(&overloads(&api, "MoveTo"), ArgCount::Exactly(2), 0..5).is_none());
        assert!(check_arity(&overloads(&api, "MoveTo"), ArgCount::AtLeast(1), 0..5).is_none());
        assert!(check_arity(&overloads(&api, "Say"), ArgCount::AtLeast(2), 0..5).is_some());
    }

    #[test]
    fn an_undefined_global_says_names_are_strings() {
        let mut api = Api::standard();
        api.declare_symbol("kWell", "place");
        let d = undefined_global(&api, "kwell", "Lua", 3..8);
        assert_eq!((d.code, d.message.as_str()), (Code::UndefinedGlobal, "`kwell` is not defined"));
        assert_eq!(d.label, "nothing defines this name: it reads as nil");
        assert_eq!(
            d.hint.as_deref(),
            Some("`kWell` is a place the scenario or the API names; in Lua names are strings: write `\"kWell\"`")
        );
        let d = undefined_global(&api, "GameTime", "Rhai", 0..8);
        assert_eq!(d.label, "nothing defines this name: the script stops with an error there");
        assert_eq!(
            d.hint.as_deref(),
            Some("`GameTime` is a world global; in Rhai read it with `GetGlobal(\"GameTime\")`")
        );
        let d = undefined_global(&api, "Dagger", "Lua", 0..6);
        assert!(d.hint.unwrap().starts_with("`Dagger` is a weapon"));
        let d = undefined_global(&api, "mood", "Lua", 0..4);
        assert!(d.hint.unwrap().starts_with("names of places, weapons, traps and signals are strings in Lua"));
    }

    #[test]
    fn handler_names() {
        assert!(unknown_handler("on_think", 0..1).is_none());
        assert!(unknown_handler("sequence", 0..1).is_none());
        assert!(unknown_handler("helper", 0..1).is_none());
        let d = unknown_handler("on_thinck", 0..1).unwrap();
        assert_eq!(d.hint.as_deref(), Some("did you mean `on_think`?"));
        assert!(unknown_handler("on_hit", 0..1).unwrap().hint.unwrap().contains("without the `on_` prefix"));
    }
}
