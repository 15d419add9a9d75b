//! Hover text and completion items from the one API table (what `docs/api.md` is generated
//! from): function signatures, their docs and Lua/Rhai spellings, globals, attributes, named
//! values, handlers, and a scenario's places, globals and signals.

use std::fmt::Write;

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};
use tactica_stdlib::{HANDLERS, snake_case};

use crate::host::Api;

/// The language of a document, by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Tactica Script.
    Tac,
    /// Lua.
    Lua,
    /// Rhai.
    Rhai,
}

impl Lang {
    /// The name of a Markdown code block in this language.
    fn fence(self) -> &'static str {
        match self {
            Lang::Tac => "```tactica\n",
            Lang::Lua => "```lua\n",
            Lang::Rhai => "```rhai\n",
        }
    }

    /// The language of extension `ext`.
    pub fn of(ext: &str) -> Option<Lang> {
        match ext {
            "tac" => Some(Lang::Tac),
            "lua" => Some(Lang::Lua),
            "rhai" => Some(Lang::Rhai),
            _ => None,
        }
    }
}

/// The functions named `word`: canonical spelling in any case, or (Lua, Rhai) the snake_case
/// alias.
fn functions<'a>(api: &'a Api, word: &str, lang: Lang) -> Vec<&'a tactica_stdlib::HostFn> {
    let direct: Vec<_> = api.functions(word).collect();
    if !direct.is_empty() || lang == Lang::Tac {
        return direct;
    }
    api.all_functions().iter().filter(|f| snake_case(f.name) == word).collect()
}

/// The markdown a hover over `word` shows, if the API knows the name. For `.tac`, `api` is the
/// one [`tactica_script::tac_api`] gives (with `.tac`'s own `Print`).
pub fn hover(api: &Api, word: &str, lang: Lang, after_on: bool) -> Option<String> {
    let fns = functions(api, word, lang);
    if let Some(first) = fns.first() {
        let mut md = String::from(lang.fence());
        for f in &fns {
            let _ = writeln!(md, "{}{}", f.signature(), returns(&f.ret));
        }
        md.push_str("```\n\n");
        let mut docs: Vec<&str> = fns.iter().map(|f| f.doc).collect();
        docs.dedup();
        md.push_str(&docs.join("\n\n"));
        if lang == Lang::Tac && fns.iter().all(|f| tactica_script::is_tac_builtin(f)) {
            let _ = write!(md, "\n\nTactica Script's own; Lua and Rhai have their `{}`", snake_case(first.name));
        } else {
            let _ = write!(md, "\n\nLua / Rhai: `{}` or `{}`", first.name, snake_case(first.name));
        }
        return Some(md);
    }
    // `on think` in `.tac`, `on_think` in Lua and Rhai.
    let handler = if after_on { format!("on_{}", word.to_ascii_lowercase()) } else { word.to_owned() };
    if let Some((name, param, doc)) = HANDLERS.iter().find(|(n, _, _)| *n == handler) {
        return Some(format!("{}{name}({param})\n```\n\nA handler: {doc}", lang.fence()));
    }
    if let Some((_, g)) = api.global(word) {
        return Some(format!("{}{}: {}\n```\n\n{}", lang.fence(), g.name, g.ty, g.doc));
    }
    if let Some(a) = api.attribute(word) {
        return Some(format!(
            "{}{}: {} ({}..={})\n```\n\nAn attribute: {}",
            lang.fence(),
            a.name,
            a.ty,
            a.min,
            a.max,
            a.doc
        ));
    }
    if let Some(s) = api.symbol(word) {
        let what = match s.family.as_str() {
            "place" => "a place or region".to_owned(),
            "kind" => "a kind of character".to_owned(),
            family => format!("a named value of the `{family}` family"),
        };
        return Some(format!("{}{}: {}\n```\n\n`{}` is {what}.", lang.fence(), s.name, s.family, s.name));
    }
    if let Some(s) = api.signals().iter().find(|s| s.eq_ignore_ascii_case(word)) {
        return Some(format!("{}signal {s}\n```\n\nA signal the scenario's scripts send or wait for.", lang.fence()));
    }
    None
}

fn returns(ty: &tactica_stdlib::Type) -> String {
    match ty {
        tactica_stdlib::Type::Nil => String::new(),
        t => format!(" -> {t}"),
    }
}

fn markdown(text: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value: text })
}

/// The words of `.tac` that start items and statements.
const TAC_KEYWORDS: &[&str] = &[
    "machine", "state", "initial", "entry", "exit", "rules", "rule", "fact", "strategy", "weight", "prove", "sequence",
    "role", "signal", "wait", "team", "world", "start", "say", "one", "of", "kind", "creature", "on", "when", "once",
    "enter", "if", "else", "begin", "end", "then", "while", "repeat", "let", "and", "or", "not", "true", "false",
];

/// The `.tac` events `on …` takes.
const TAC_EVENTS: &[&str] = &["spawn", "think", "tick", "encounter", "hear", "reload", "enter"];

/// Every completion for a `lang` document: API functions (with signature and doc), handlers,
/// globals, attributes, named values (a scenario's places among them) and signals. Names that
/// Lua and Rhai pass as strings are quoted unless the cursor is inside a string already.
pub fn completions(api: &Api, lang: Lang, in_string: bool) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    let quote = |name: &str| {
        if lang == Lang::Tac || in_string { name.to_owned() } else { format!("\"{name}\"") }
    };
    if !in_string {
        let mut seen = std::collections::BTreeSet::new();
        for f in api.all_functions() {
            if !seen.insert(f.name) {
                continue;
            }
            let sigs: Vec<String> =
                api.functions(f.name).map(|f| format!("{}{}", f.signature(), returns(&f.ret))).collect();
            let docs = hover(api, f.name, lang, false).unwrap_or_default();
            items.push(CompletionItem {
                label: f.name.to_owned(),
                kind: Some(CompletionItemKind::FUNCTION),
                detail: Some(sigs.join(" | ")),
                documentation: Some(markdown(docs)),
                ..Default::default()
            });
        }
        match lang {
            Lang::Tac => {
                for k in TAC_KEYWORDS {
                    items.push(CompletionItem {
                        label: (*k).to_owned(),
                        kind: Some(CompletionItemKind::KEYWORD),
                        ..Default::default()
                    });
                }
                for e in TAC_EVENTS {
                    let doc = HANDLERS.iter().find(|(n, _, _)| n.strip_prefix("on_") == Some(e)).map(|h| h.2);
                    items.push(CompletionItem {
                        label: format!("on {e}"),
                        kind: Some(CompletionItemKind::EVENT),
                        detail: Some("handler".into()),
                        documentation: doc.map(|d| markdown(d.to_owned())),
                        ..Default::default()
                    });
                }
            }
            Lang::Lua | Lang::Rhai => {
                for (name, param, doc) in HANDLERS {
                    items.push(CompletionItem {
                        label: (*name).to_owned(),
                        kind: Some(CompletionItemKind::EVENT),
                        detail: Some(format!("handler {name}({param})")),
                        documentation: Some(markdown((*doc).to_owned())),
                        ..Default::default()
                    });
                }
            }
        }
    }
    for g in api.all_globals() {
        items.push(CompletionItem {
            label: g.name.clone(),
            kind: Some(CompletionItemKind::VARIABLE),
            detail: Some(format!("global: {}", g.ty)),
            documentation: Some(markdown(g.doc.clone())),
            insert_text: Some(quote(&g.name)),
            ..Default::default()
        });
    }
    for a in api.all_attributes() {
        items.push(CompletionItem {
            label: a.name.clone(),
            kind: Some(CompletionItemKind::PROPERTY),
            detail: Some(format!("attribute: {} ({}..={})", a.ty, a.min, a.max)),
            documentation: Some(markdown(a.doc.clone())),
            insert_text: Some(quote(&a.name)),
            ..Default::default()
        });
    }
    for s in api.all_symbols() {
        items.push(CompletionItem {
            label: s.name.clone(),
            kind: Some(if s.family == "place" {
                CompletionItemKind::REFERENCE
            } else {
                CompletionItemKind::ENUM_MEMBER
            }),
            detail: Some(s.family.clone()),
            insert_text: Some(quote(&s.name)),
            ..Default::default()
        });
    }
    for s in api.signals() {
        items.push(CompletionItem {
            label: s.clone(),
            kind: Some(CompletionItemKind::CONSTANT),
            detail: Some("signal".into()),
            insert_text: Some(quote(s)),
            ..Default::default()
        });
    }
    items
}
