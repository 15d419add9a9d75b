//! Behaviour-tree files (`.bt`) in the editor: hover over a node word or built-in leaf shows its
//! form and what it does (the engine's table, `decide::bt::WORDS`), over a blackboard key its
//! default, over a subtree its ports, over a script leaf the file that defines it; completion
//! offers all of those and the scenario's places. Diagnostics are `tactica check`'s.

use std::path::{Path, PathBuf};

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};
use tactica_engine::decide::bt;
use tactica_script::tree::{ArgKind, Member, TreeFile};

use crate::host::ScriptHost;

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent { kind: MarkupKind::Markdown, value })
}

/// A blackboard key of a tree file: its name, its default as written, its tree.
type KeyName = (String, String, String);

/// A tree of a file: its name and its ports as written.
type TreeName = (String, String);

/// The names a tree file defines: its keys and its trees.
fn names(text: &str) -> (Vec<KeyName>, Vec<TreeName>) {
    let (file, _) = tactica_script::tree::parse(text);
    let Some(TreeFile { trees }) = file else { return (Vec::new(), Vec::new()) };
    let mut keys = Vec::new();
    let mut subtrees = Vec::new();
    for t in &trees {
        let ports: Vec<String> =
            t.ports.iter().map(|p| format!("{} {}", if p.output { "out" } else { "in" }, p.name.text)).collect();
        subtrees.push((t.name.text.clone(), ports.join(", ")));
        for m in &t.members {
            if let Member::Blackboard(decls) = m {
                for k in decls {
                    let default = match k.value.as_ref().map(|a| &a.kind) {
                        None => "nil".to_owned(),
                        Some(ArgKind::Int(n)) => n.to_string(),
                        Some(ArgKind::Float(x)) => x.to_string(),
                        Some(ArgKind::Str(s)) => format!("\"{s}\""),
                        Some(ArgKind::Bool(b)) => b.to_string(),
                        Some(ArgKind::Name(n)) => n.clone(),
                    };
                    keys.push((k.name.text.clone(), default, t.name.text.clone()));
                }
            }
        }
    }
    (keys, subtrees)
}

/// The script functions of the tree's leaf files (relative to `path`), with their file as written.
fn functions(text: &str, path: Option<&Path>, host: &mut ScriptHost) -> Vec<(String, String)> {
    let (Some(dir), (Some(file), _)) = (path.and_then(Path::parent), tactica_script::tree::parse(text)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (leaf_file, _) in bt::leaf_files(&file) {
        let p: PathBuf = dir.join(&leaf_file);
        if host.backend_for(&p).is_some() && host.load(&p).is_ok() {
            out.extend(host.leaf_names(&p).into_iter().map(|f| (f, leaf_file.clone())));
        }
    }
    out
}

/// What a hover over `word` in the tree file `text` (at `path`) shows.
pub fn hover(text: &str, word: &str, path: Option<&Path>, host: &mut ScriptHost) -> Option<String> {
    if let Some(w) = bt::word(word) {
        return Some(format!("```bt\n{}\n```\n\n{}", w.form, w.doc));
    }
    let (keys, subtrees) = names(text);
    if let Some((k, default, tree)) = keys.iter().find(|(k, _, _)| k == word) {
        return Some(format!("```bt\n{k} = {default}\n```\n\nA blackboard key of `{tree}` (its default)."));
    }
    if let Some((t, ports)) = subtrees.iter().find(|(t, _)| t == word) {
        return Some(format!("```bt\ntree {t}({ports})\n```\n\nA tree of this file; `subtree {t}(…)` runs it."));
    }
    let functions = functions(text, path, host);
    functions.iter().find(|(f, _)| f == word).map(|(f, file)| {
        format!("```bt\n{f}()\n```\n\nA script leaf: a function of `{file}`, returning success, failure or running.")
    })
}

/// Every completion in the tree file `text` (at `path`): node words, built-in leaves, the file's
/// keys and trees, its leaf files' functions and `places` (the scenario's, when it has one).
pub fn completions(text: &str, path: Option<&Path>, host: &mut ScriptHost, places: &[String]) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = bt::WORDS
        .iter()
        .map(|w| CompletionItem {
            label: w.word.to_owned(),
            kind: Some(if w.leaf { CompletionItemKind::FUNCTION } else { CompletionItemKind::KEYWORD }),
            detail: Some(w.form.to_owned()),
            documentation: Some(markdown(w.doc.to_owned())),
            ..Default::default()
        })
        .collect();
    let (keys, subtrees) = names(text);
    for (k, default, tree) in keys {
        items.push(CompletionItem {
            label: k,
            kind: Some(CompletionItemKind::VARIABLE),
            detail: Some(format!("blackboard key of {tree} = {default}")),
            ..Default::default()
        });
    }
    for (t, ports) in subtrees {
        items.push(CompletionItem {
            label: t.clone(),
            kind: Some(CompletionItemKind::MODULE),
            detail: Some(format!("tree {t}({ports})")),
            ..Default::default()
        });
    }
    for (f, file) in functions(text, path, host) {
        items.push(CompletionItem {
            label: f,
            kind: Some(CompletionItemKind::FUNCTION),
            detail: Some(format!("script leaf ({file})")),
            ..Default::default()
        });
    }
    for p in places {
        items.push(CompletionItem {
            label: p.clone(),
            kind: Some(CompletionItemKind::REFERENCE),
            detail: Some("place".into()),
            ..Default::default()
        });
    }
    items
}
