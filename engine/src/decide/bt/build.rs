//! From a `.bt` file, read by the designers' front end ([`tactica_syntax::tree`]), to a
//! [`TreeDef`]: node words resolved, subtrees inlined with their ports remapped onto the
//! caller's keys, every name checked, and every mistake a coded [`Diagnostic`] at its place —
//! misspelt nodes and leaves (E0120) and keys (E0121) with a did-you-mean, a child that can never
//! run (E0122, a warning), wrong arguments (E0123), misplaced aborts (E0124), subtree and port
//! mistakes (E0125), duplicates (E0126).

use std::collections::{BTreeMap, BTreeSet};

use tactica_syntax::condition::{self, Condition};
use tactica_syntax::lexer::Span;
use tactica_syntax::tree::{self as ast, ArgKind, Body, Member, NodeKind as Ast, TreeDecl, TreeFile, Word};
use tactica_syntax::{Code, Diagnostic};

use super::def::{Abort, Arg, Leaf, Node, NodeId, NodeKind, Service, Target, TreeDef};
use crate::decide::expr::Expr;
use crate::value::Value;

/// What the names of a tree may refer to beyond the file itself.
#[derive(Debug, Clone, Copy, Default)]
pub struct Catalog<'a> {
    /// The functions the tree's `leaves` files define. `None`: not known (the file is read alone,
    /// or by a host that checks later) — every name that is not a built-in leaf is taken for a
    /// script function.
    pub functions: Option<&'a [String]>,
    /// The places, regions and entities of the scenario, for a leaf's place argument. `None`:
    /// not checked.
    pub places: Option<&'a [String]>,
}

/// How deep nodes may nest, subtrees included: the one nesting limit of designer text
/// (`tactica_syntax::limits::MAX_NESTING`, E0005), which the reader holds a file to before this
/// sees it; here it holds a tree with its subtrees put in. Ticking, halting and checking a tree
/// walk it recursively, and a text of a million `invert`s must not overflow the stack.
pub const MAX_DEPTH: u32 = tactica_syntax::limits::MAX_NESTING as u32;

/// The built-in leaves, their argument counts, and the arguments that name a place or entity
/// (checked against the scenario's names when a name is not a key).
const LEAVES: &[(&str, &[usize])] = &[
    ("move_to", &[1, 2]),
    ("follow_path", &[1]),
    ("flee", &[0]),
    ("chase", &[1]),
    ("wait", &[1]),
    ("say", &[1]),
    ("go_to_position", &[1]),
    ("play_pattern", &[1, 2]),
    ("signal", &[1, 2]),
    ("wait_signal", &[1, 2]),
    ("succeed", &[0]),
    ("fail", &[0]),
];

/// The words that start a node's header.
const NODE_WORDS: &[&str] = &[
    "sequence", "fallback", "selector", "reactive", "memory", "parallel", "invert", "force", "repeat", "retry",
    "timeout", "delay", "cooldown", "guard", "check", "set", "subtree",
];

/// The names a built-in leaf, node word or script function may be.
pub fn leaf_names() -> impl Iterator<Item = &'static str> {
    LEAVES.iter().map(|(n, _)| *n)
}

/// The words that begin nodes (`sequence`, `guard`, `repeat` …).
pub fn node_words() -> impl Iterator<Item = &'static str> {
    NODE_WORDS.iter().copied()
}

/// Reads a tree file's text and builds its first tree. Never fails: the tree is `None` when the
/// text has an error, and every mistake found is in the list (warnings too).
pub fn parse(src: &str, catalog: &Catalog<'_>) -> (Option<TreeDef>, Vec<Diagnostic>) {
    let (file, mut diagnostics) = tactica_syntax::tree::parse(src);
    let Some(file) = file else { return (None, diagnostics) };
    let (def, more) = build(src, &file, catalog);
    diagnostics.extend(more);
    diagnostics.sort_by_key(|d| d.span.start);
    let failed = diagnostics.iter().any(Diagnostic::is_error);
    (if failed { None } else { def }, diagnostics)
}

/// The `leaves` files of every tree of a file, as written, with their spans.
pub fn leaf_files(file: &TreeFile) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    for t in &file.trees {
        for m in &t.members {
            if let Member::Leaves(files) = m {
                for f in files {
                    if !out.iter().any(|(o, _)| o == &f.0) {
                        out.push(f.clone());
                    }
                }
            }
        }
    }
    out
}

/// Builds the first tree of `file` (`src` is its text, for the nodes' names and lines).
pub fn build(src: &str, file: &TreeFile, catalog: &Catalog<'_>) -> (Option<TreeDef>, Vec<Diagnostic>) {
    let mut b = Builder {
        src,
        catalog,
        trees: BTreeMap::new(),
        nodes: Vec::new(),
        keys: BTreeMap::new(),
        functions: Vec::new(),
        services: 0,
        diagnostics: Vec::new(),
        stack: Vec::new(),
        spans: Vec::new(),
        depth: 0,
        too_deep: false,
    };
    for t in &file.trees {
        if let Some(first) = b.trees.get(t.name.text.as_str()) {
            let d = Diagnostic::new(
                Code::TreeDuplicate,
                t.name.span.clone(),
                format!("a second tree `{}`", t.name.text),
                "this name is taken",
            )
            .with_note(first.name.span.clone(), "first declared here");
            b.diagnostics.push(d);
            continue;
        }
        b.trees.insert(t.name.text.as_str(), t);
    }
    let Some(main) = file.trees.first() else {
        return (None, b.diagnostics);
    };
    let root = b.tree(main, "", BTreeMap::new());
    b.warn_unreachable();
    let leaf_files = leaf_files(file).into_iter().map(|(f, _)| f).collect();
    let Builder { nodes, keys, functions, services, diagnostics, .. } = b;
    if root.is_none() || diagnostics.iter().any(Diagnostic::is_error) {
        return (None, diagnostics);
    }
    let mut def =
        TreeDef { name: main.name.text.clone(), nodes, keys, functions, leaf_files, services, pure: Vec::new() };
    def.pure = (0..def.nodes.len() as NodeId).map(|id| is_pure(&def, id)).collect();
    (Some(def), diagnostics)
}

/// Whether node `id` is pure: [`super::tick::eval_pure`] can give its status without ticking it.
fn is_pure(def: &TreeDef, id: NodeId) -> bool {
    let node = def.node(id);
    if !node.services.is_empty() {
        return false;
    }
    let children = || node.children.iter().all(|&c| is_pure(def, c));
    match &node.kind {
        NodeKind::Check(_) | NodeKind::Leaf(Leaf::Succeed | Leaf::Fail) => true,
        NodeKind::Invert
        | NodeKind::ForceSuccess
        | NodeKind::ForceFailure
        | NodeKind::Subtree { .. }
        | NodeKind::Retry { .. }
        | NodeKind::Repeat { times: Some(_) }
        | NodeKind::Guard { .. }
        | NodeKind::Sequence
        | NodeKind::ReactiveSequence
        | NodeKind::Fallback
        | NodeKind::ReactiveFallback => children(),
        _ => false,
    }
}

/// Names in one tree's scope: its own keys and ports, by local name, mapped to the key they are
/// on the character's blackboard.
type Scope = BTreeMap<String, String>;

struct Builder<'a> {
    src: &'a str,
    catalog: &'a Catalog<'a>,
    trees: BTreeMap<&'a str, &'a TreeDecl>,
    nodes: Vec<Node>,
    keys: BTreeMap<String, Value>,
    functions: Vec<String>,
    services: u32,
    diagnostics: Vec<Diagnostic>,
    /// The trees being inlined, outermost first (a call of one of them is a cycle).
    stack: Vec<String>,
    /// Each node's span (for warnings after the build).
    spans: Vec<Span>,
    /// How deep the node being lowered is, and whether the limit was reported.
    depth: u32,
    too_deep: bool,
}

/// What a node may return, for the unreachable-child warning.
#[derive(Debug, Clone, Copy)]
struct May {
    succeed: bool,
    fail: bool,
}

impl<'a> Builder<'a> {
    fn error(
        &mut self,
        code: Code,
        span: Span,
        message: impl Into<String>,
        label: impl Into<String>,
    ) -> &mut Diagnostic {
        self.diagnostics.push(Diagnostic::new(code, span, message, label));
        self.diagnostics.last_mut().expect("just pushed")
    }

    /// Inlines tree `t` with `prefix` for its own keys and `ports` already bound (port name →
    /// key). Returns its root node.
    fn tree(&mut self, t: &'a TreeDecl, prefix: &str, ports: Scope) -> Option<NodeId> {
        self.stack.push(t.name.text.clone());
        let mut scope = ports;
        let mut roots = Vec::new();
        for m in &t.members {
            match m {
                Member::Blackboard(keys) => {
                    for k in keys {
                        if scope.contains_key(&k.name.text) {
                            self.error(
                                Code::TreeDuplicate,
                                k.name.span.clone(),
                                format!("the key `{}` is declared twice", k.name.text),
                                "declared again here",
                            );
                            continue;
                        }
                        let full = format!("{prefix}{}", k.name.text);
                        let value = k.value.as_ref().map_or(Value::Nil, constant);
                        self.keys.insert(full.clone(), value);
                        scope.insert(k.name.text.clone(), full);
                    }
                }
                Member::Leaves(files) => {
                    for (f, span) in files {
                        let ext = std::path::Path::new(f).extension().and_then(|e| e.to_str()).unwrap_or("");
                        if !["tac", "lua", "rhai"].contains(&ext) {
                            self.error(
                                Code::TreeLeafFile,
                                span.clone(),
                                format!("`{f}` is not a `.tac`, Lua or Rhai file"),
                                "cannot hold leaves",
                            )
                            .hint = Some("script leaves are functions of `.tac`, `.lua` or `.rhai` files".to_owned());
                        }
                    }
                }
                Member::Node(n) => roots.push(n),
            }
        }
        let root = match roots.as_slice() {
            [] => {
                self.error(
                    Code::TreeArguments,
                    t.name.span.clone(),
                    format!("the tree `{}` has no root node", t.name.text),
                    "a tree needs one node",
                )
                .hint = Some("write its root after the blackboard, e.g. `sequence { … }`".to_owned());
                None
            }
            [root] => self.node(root, &scope, None),
            [first, second, ..] => {
                let d =
                    self.error(Code::TreeArguments, second.span.clone(), "a tree has one root node", "a second root");
                d.notes.push((first.span.clone(), "the root".to_owned()));
                d.hint = Some("put the nodes in a `sequence { … }` or `fallback { … }`".to_owned());
                self.node(first, &scope, None)
            }
        };
        self.stack.pop();
        root
    }

    /// Reserves a node; its children are added after it (depth first).
    fn push(&mut self, kind: NodeKind, label: String, span: &Span) -> NodeId {
        let line = tactica_syntax::line_col(self.src, span.start).0;
        self.nodes.push(Node { kind, children: Vec::new(), label, line, services: Vec::new() });
        self.spans.push(span.clone());
        (self.nodes.len() - 1) as NodeId
    }

    fn label(&self, span: &Span) -> String {
        let text = self.src.get(span.clone()).unwrap_or_default();
        let mut out = String::new();
        for word in text.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        let out = out.trim_end_matches(';').trim_end().to_owned();
        if out.chars().count() > 60 { format!("{}…", out.chars().take(59).collect::<String>()) } else { out }
    }

    /// Counts one more level of nesting at `span`; false (with the error, once) past
    /// [`MAX_DEPTH`].
    fn deeper(&mut self, span: &Span) -> bool {
        self.depth += 1;
        if self.depth <= MAX_DEPTH {
            return true;
        }
        if !self.too_deep {
            self.too_deep = true;
            self.error(
                Code::NestingTooDeep,
                span.clone(),
                format!("nested more than {MAX_DEPTH} levels deep"),
                "the limit is reached here",
            )
            .hint = Some(
                "subtrees count with the tree they are put in; a tree this deep is hard to read: split it or flatten it"
                    .to_owned(),
            );
        }
        false
    }

    /// Lowers one node; `parent` is the kind of the node it is a child of.
    fn node(&mut self, n: &'a ast::Node, scope: &Scope, parent: Option<&NodeKind>) -> Option<NodeId> {
        let id = if self.deeper(&n.span) { self.node_at_depth(n, scope, parent) } else { None };
        self.depth -= 1;
        id
    }

    fn node_at_depth(&mut self, n: &'a ast::Node, scope: &Scope, parent: Option<&NodeKind>) -> Option<NodeId> {
        match &n.kind {
            Ast::Error => None,
            Ast::Header { words, body } => self.header(n, words, 0, body, scope),
            Ast::Guard { cond, abort, body } => {
                let mode = match abort {
                    None => Abort::None,
                    Some(w) => match w.text.to_ascii_lowercase().as_str() {
                        "none" => Abort::None,
                        "self" => Abort::Own,
                        "lower_priority" | "lower" => Abort::LowerPriority,
                        "both" => Abort::Both,
                        other => {
                            let near = suggest(other, ["none", "self", "lower_priority", "both"]);
                            self.error(
                                Code::TreeAbort,
                                w.span.clone(),
                                format!("unknown abort mode `{}`", w.text),
                                "not an abort mode",
                            )
                            .hint = Some(near.map_or_else(
                                || "the abort modes are `none`, `self`, `lower_priority` and `both`".to_owned(),
                                |s| format!("did you mean `{s}`?"),
                            ));
                            Abort::None
                        }
                    },
                };
                if mode.lower() && !matches!(parent, Some(NodeKind::Fallback)) {
                    let w = abort.as_ref().map_or(n.span.clone(), |w| w.span.clone());
                    self.error(
                        Code::TreeAbort,
                        w,
                        "an `abort lower_priority` guard must be a child of a `fallback`",
                        "nothing of lower priority to abort here",
                    )
                    .hint = Some("put the guard directly in a `fallback { … }`, before the branches it may cut short, or use `abort self`".to_owned());
                }
                let cond = self.condition(cond, scope);
                let head = n.span.start..body_start(body);
                let label = self.label(&head);
                let id = self.push(
                    NodeKind::Guard { cond: cond.unwrap_or(Expr::Const(false)), abort: mode },
                    label,
                    &n.span,
                );
                let child = self.one_child(body, scope, "a guard")?;
                self.nodes[id as usize].children.push(child);
                Some(id)
            }
            Ast::Check(cond) => {
                let cond = self.condition(cond, scope)?;
                let label = self.label(&n.span);
                Some(self.push(NodeKind::Check(cond), label, &n.span))
            }
            Ast::Set { key, value } => {
                let Some(full) = scope.get(&key.text).cloned() else {
                    self.unknown_key(&key.text, key.span.clone(), scope, None);
                    return None;
                };
                let value = self.arg(value, scope);
                let label = self.label(&n.span);
                Some(self.push(NodeKind::Set { key: full, value }, label, &n.span))
            }
            Ast::Subtree { name, bindings } => self.subtree(n, name, bindings, scope),
            Ast::Call { name, args } => self.call(n, name, args, scope),
        }
    }

    /// A header's words from `at`: a composite takes the body as its children, a decorator
    /// takes the rest of the header (or the body) as its one child.
    fn header(
        &mut self,
        n: &'a ast::Node,
        words: &'a [Word],
        at: usize,
        body: &'a Body,
        scope: &Scope,
    ) -> Option<NodeId> {
        let word = |i: usize| match words.get(i) {
            Some(Word::Name(w)) => Some(w.text.to_ascii_lowercase()),
            _ => None,
        };
        let int = |i: usize| match words.get(i) {
            Some(Word::Int(v, _)) => Some(*v),
            _ => None,
        };
        let Some(first) = word(at) else {
            let span = words.get(at).map_or(n.span.clone(), Word::span);
            self.error(Code::TreeArguments, span, "a number where a node was expected", "not a node");
            return None;
        };
        let mut next = at + 1;
        let count = |what: &str, this: &mut Self, next: &mut usize| -> Option<u32> {
            match int(*next) {
                Some(v) if (1..=i64::from(u32::MAX)).contains(&v) => {
                    *next += 1;
                    Some(v as u32)
                }
                Some(_) => {
                    this.error(
                        Code::TreeArguments,
                        words[*next].span(),
                        format!("`{first}` needs a positive {what}"),
                        "at least 1",
                    );
                    None
                }
                None => {
                    let span = words.get(*next).map_or_else(|| words[at].span(), Word::span);
                    this.error(
                        Code::TreeArguments,
                        span,
                        format!("`{first}` needs a {what}"),
                        format!("expected {what} here"),
                    )
                    .hint = Some(format!("write `{first} 3 …`"));
                    None
                }
            }
        };
        let composite = match first.as_str() {
            "sequence" if word(next).as_deref() == Some("with") && word(next + 1).as_deref() == Some("memory") => {
                next += 2;
                Some(NodeKind::MemorySequence)
            }
            "sequence" => Some(NodeKind::Sequence),
            "fallback" | "selector" => Some(NodeKind::Fallback),
            "memory" if word(next).as_deref() == Some("sequence") => {
                next += 1;
                Some(NodeKind::MemorySequence)
            }
            "reactive" => match word(next).as_deref() {
                Some("sequence") => {
                    next += 1;
                    Some(NodeKind::ReactiveSequence)
                }
                Some("fallback" | "selector") => {
                    next += 1;
                    Some(NodeKind::ReactiveFallback)
                }
                _ => {
                    self.error(
                        Code::TreeArguments,
                        words[at].span(),
                        "`reactive` goes before `sequence` or `fallback`",
                        "reactive what?",
                    );
                    return None;
                }
            },
            "parallel" => {
                let (mut s, mut f) = (None, None);
                while let Some(w) = word(next).filter(|w| w == "success" || w == "failure") {
                    next += 1;
                    let v = count("threshold", self, &mut next)?;
                    if w == "success" { s = Some(v) } else { f = Some(v) }
                }
                // BehaviorTree.CPP's defaults: every child must succeed, one failure fails it.
                Some(NodeKind::Parallel { success: s.unwrap_or(0), failure: f.unwrap_or(1) })
            }
            _ => None,
        };
        if let Some(kind) = composite {
            if next < words.len() {
                self.error(
                    Code::TreeArguments,
                    words[next].span(),
                    format!(
                        "`{}` takes no more words",
                        self.label(&(words[at].span().start..words[next - 1].span().end))
                    ),
                    "unexpected here",
                )
                .hint = Some("a composite's children go in its `{ … }` block".to_owned());
                return None;
            }
            return self.composite(n, kind, words, at, body, scope);
        }
        let decorator = match first.as_str() {
            "invert" => NodeKind::Invert,
            "force" => match word(next).as_deref() {
                Some("success") => {
                    next += 1;
                    NodeKind::ForceSuccess
                }
                Some("failure") => {
                    next += 1;
                    NodeKind::ForceFailure
                }
                _ => {
                    self.error(
                        Code::TreeArguments,
                        words[at].span(),
                        "`force` goes before `success` or `failure`",
                        "force what?",
                    );
                    return None;
                }
            },
            "repeat" if word(next).as_deref() == Some("forever") => {
                next += 1;
                NodeKind::Repeat { times: None }
            }
            "repeat" => NodeKind::Repeat { times: Some(count("count (or `forever`)", self, &mut next)?) },
            "retry" => NodeKind::Retry { times: count("count", self, &mut next)? },
            "timeout" => NodeKind::Timeout { ticks: count("number of ticks", self, &mut next)? },
            "delay" => NodeKind::Delay { ticks: count("number of ticks", self, &mut next)? },
            "cooldown" => NodeKind::Cooldown { ticks: count("number of ticks", self, &mut next)? },
            _ => {
                let w = &words[at];
                self.unknown_node(&first, w.span(), true);
                return None;
            }
        };
        let head = words[at].span().start..words[next - 1].span().end;
        let label = self.label(&head);
        let id = self.push(decorator, label, &(words[at].span().start..n.span.end));
        let child = if next < words.len() {
            let deeper = self.deeper(&words[next].span());
            let child = if deeper { self.header(n, words, next, body, scope) } else { None };
            self.depth -= 1;
            child?
        } else {
            self.one_child(body, scope, "a decorator")?
        };
        self.nodes[id as usize].children.push(child);
        Some(id)
    }

    fn composite(
        &mut self,
        n: &'a ast::Node,
        kind: NodeKind,
        words: &'a [Word],
        at: usize,
        body: &'a Body,
        scope: &Scope,
    ) -> Option<NodeId> {
        let head = words[at].span().start..words.last().map_or(n.span.end, |w| w.span().end);
        let label = self.label(&head);
        let span = words[at].span().start..n.span.end;
        let id = self.push(kind.clone(), label, &span);
        let (services, children): (&[ast::Service], Vec<&'a ast::Node>) = match body {
            Body::Block { services, children, .. } => (services, children.iter().collect()),
            Body::One(c) => (&[], vec![&**c]),
        };
        if children.is_empty() {
            self.error(
                Code::TreeArguments,
                span.clone(),
                format!("`{}` has no children", self.nodes[id as usize].label),
                "nothing to run",
            )
            .hint = Some("a composite runs its children: give it at least one".to_owned());
            return None;
        }
        for s in services {
            if let Some(service) = self.service(s) {
                self.nodes[id as usize].services.push(service);
            }
        }
        let mut ok = true;
        let mut kids = Vec::new();
        for c in children {
            match self.node(c, scope, Some(&kind)) {
                Some(k) => kids.push(k),
                None => ok = false,
            }
        }
        if let NodeKind::Parallel { success, failure } = kind {
            let count = kids.len() as u32;
            let success = if success == 0 { count } else { success };
            if kids.len() > 64 {
                self.error(Code::TreeArguments, span.clone(), "a parallel has at most 64 children", "too many");
            }
            if success > count || failure > count {
                self.error(
                    Code::TreeArguments,
                    head.clone(),
                    format!("a threshold larger than the {count} children"),
                    "can never be reached",
                )
                .hint = Some(
                    "`parallel success N failure M { … }` counts children: N and M at most their number".to_owned(),
                );
            }
            self.nodes[id as usize].kind =
                NodeKind::Parallel { success: success.min(count).max(1), failure: failure.min(count).max(1) };
        }
        self.nodes[id as usize].children = kids;
        ok.then_some(id)
    }

    /// The one child of a decorator or guard.
    fn one_child(&mut self, body: &'a Body, scope: &Scope, what: &str) -> Option<NodeId> {
        match body {
            Body::One(c) => self.node(c, scope, None),
            Body::Block { services, children, span } => {
                if let Some(s) = services.first() {
                    self.error(
                        Code::TreeArguments,
                        s.span.clone(),
                        format!("{what} has no services"),
                        "services belong to composites",
                    )
                    .hint =
                        Some("declare the service in the `sequence { … }` or `fallback { … }` it serves".to_owned());
                }
                match children.as_slice() {
                    [one] => self.node(one, scope, None),
                    [] => {
                        self.error(Code::TreeArguments, span.clone(), format!("{what} needs a child"), "empty");
                        None
                    }
                    [_, second, ..] => {
                        self.error(
                            Code::TreeArguments,
                            second.span.clone(),
                            format!("{what} takes one child"),
                            "a second child",
                        )
                        .hint = Some("wrap the children in `sequence { … }` (or `fallback { … }`)".to_owned());
                        None
                    }
                }
            }
        }
    }

    fn service(&mut self, s: &ast::Service) -> Option<Service> {
        let function = self.function(&s.name.text, s.name.span.clone())?;
        if let Some(a) = s.args.first() {
            self.error(
                Code::TreeArguments,
                a.span.clone(),
                "a service takes no arguments",
                "it reads the blackboard",
            )
            .hint = Some(
                "the service function reads what it needs with `GetBlackboard` and writes with `SetBlackboard`"
                    .to_owned(),
            );
        }
        let every = match &s.every {
            Some((n, _)) if *n >= 1 && *n <= i64::from(u32::MAX) => *n as u32,
            Some((_, span)) => {
                self.error(Code::TreeArguments, span.clone(), "a service's interval is at least 1 tick", "too small");
                return None;
            }
            None => {
                self.error(Code::TreeArguments, s.span.clone(), "a service needs its interval", "how often?").hint =
                    Some(format!("write `service {}() every 5;`", s.name.text));
                return None;
            }
        };
        let slot = self.services;
        self.services += 1;
        Some(Service { function, every, slot })
    }

    /// The index of script function `name`, or an error when the catalog knows it is not one.
    fn function(&mut self, name: &str, span: Span) -> Option<u32> {
        if let Some(known) = self.catalog.functions
            && !known.iter().any(|f| f == name)
        {
            self.unknown_node(name, span, false);
            return None;
        }
        Some(match self.functions.iter().position(|f| f == name) {
            Some(i) => i as u32,
            None => {
                self.functions.push(name.to_owned());
                (self.functions.len() - 1) as u32
            }
        })
    }

    fn unknown_node(&mut self, name: &str, span: Span, header: bool) {
        let known = self.catalog.functions.is_some();
        let functions: Vec<String> = self.catalog.functions.map(<[String]>::to_vec).unwrap_or_default();
        let mut candidates: Vec<&str> = functions.iter().map(String::as_str).collect();
        for w in NODE_WORDS.iter().copied().chain(leaf_names()) {
            candidates.push(w);
        }
        let near = suggest(name, candidates).map(str::to_owned);
        let (message, label) = if header {
            (format!("unknown node `{name}`"), "not a composite or decorator")
        } else {
            (format!("unknown leaf `{name}`"), "no built-in leaf and no function of the `leaves` files has this name")
        };
        let d = self.error(Code::TreeUnknownNode, span, message, label);
        d.hint = Some(match near {
            Some(s) => format!("did you mean `{s}`?"),
            None if functions.is_empty() && known => {
                "the tree's `leaves` files define no functions; built-in leaves are move_to, follow_path, flee, chase, wait, say, go_to_position, play_pattern, signal, wait_signal, succeed and fail".to_owned()
            }
            None => "built-in leaves are move_to, follow_path, flee, chase, wait, say, go_to_position, play_pattern, signal, wait_signal, succeed and fail; script leaves are functions of the files `leaves` names".to_owned(),
        });
    }

    fn unknown_key(&mut self, name: &str, span: Span, scope: &Scope, places: Option<&[String]>) {
        let candidates = scope.keys().map(String::as_str).chain(places.unwrap_or_default().iter().map(String::as_str));
        let near = suggest(name, candidates).map(str::to_owned);
        let what = if places.is_some() { "blackboard key or place" } else { "blackboard key" };
        let d = self.error(
            Code::TreeUnknownKey,
            span,
            format!("unknown {what} `{name}`"),
            "not declared in the tree's `blackboard { … }`",
        );
        d.hint = Some(match near {
            Some(s) => format!("did you mean `{s}`?"),
            None if scope.is_empty() => format!("declare it: `blackboard {{ {name} = false; }}`"),
            None => format!(
                "declare it in `blackboard {{ … }}` (declared: {})",
                scope.keys().cloned().collect::<Vec<_>>().join(", ")
            ),
        });
    }

    /// A condition over the scope's keys, renamed to their blackboard names.
    fn condition(&mut self, e: &tactica_syntax::ast::Expr, scope: &Scope) -> Option<Expr> {
        let c = match condition::from_expr(e) {
            Ok(c) => c,
            Err(d) => {
                self.diagnostics.push(d);
                return None;
            }
        };
        let mut ok = true;
        let renamed = self.rename(&c, scope, &mut ok);
        ok.then(|| Expr::from(&renamed))
    }

    fn rename(&mut self, c: &Condition, scope: &Scope, ok: &mut bool) -> Condition {
        let mut fact = |this: &mut Self, n: &tactica_syntax::ast::Name| match scope.get(&n.text) {
            Some(full) => tactica_syntax::ast::Name { text: full.clone(), span: n.span.clone() },
            None => {
                this.unknown_key(&n.text, n.span.clone(), scope, None);
                *ok = false;
                n.clone()
            }
        };
        match c {
            Condition::Const(b) => Condition::Const(*b),
            Condition::Fact(n) => Condition::Fact(fact(self, n)),
            Condition::Compare { fact: f, op, value } => {
                Condition::Compare { fact: fact(self, f), op: *op, value: value.clone() }
            }
            Condition::Not(inner) => Condition::Not(Box::new(self.rename(inner, scope, ok))),
            Condition::And(cs) => Condition::And(cs.iter().map(|c| self.rename(c, scope, ok)).collect()),
            Condition::Or(cs) => Condition::Or(cs.iter().map(|c| self.rename(c, scope, ok)).collect()),
        }
    }

    /// An argument: a name that is a key of the scope reads the key; any other name is a word.
    fn arg(&mut self, a: &ast::Arg, scope: &Scope) -> Arg {
        match &a.kind {
            ArgKind::Name(n) => match scope.get(n) {
                Some(full) => Arg::Key(full.clone()),
                None => Arg::Value(Value::Str(n.clone())),
            },
            _ => Arg::Value(constant(a)),
        }
    }

    /// An argument that must be a key or a number (a count of ticks, a coordinate).
    fn number_arg(&mut self, a: &ast::Arg, scope: &Scope) -> Option<Arg> {
        match &a.kind {
            ArgKind::Int(_) | ArgKind::Float(_) => Some(Arg::Value(constant(a))),
            ArgKind::Name(n) => match scope.get(n) {
                Some(full) => Some(Arg::Key(full.clone())),
                None => {
                    self.unknown_key(n, a.span.clone(), scope, None);
                    None
                }
            },
            _ => {
                self.error(Code::TreeArguments, a.span.clone(), "a number or a key is needed here", "not a number");
                None
            }
        }
    }

    /// An argument naming a place, region or entity (or a key holding one).
    fn place_arg(&mut self, a: &ast::Arg, scope: &Scope) -> Option<Arg> {
        if let ArgKind::Name(n) = &a.kind
            && !scope.contains_key(n)
            && let Some(places) = self.catalog.places
            && !n.eq_ignore_ascii_case("player")
            && !places.iter().any(|p| p == n)
        {
            self.unknown_key(n, a.span.clone(), scope, Some(places));
            return None;
        }
        Some(self.arg(a, scope))
    }

    fn call(
        &mut self,
        n: &'a ast::Node,
        name: &tactica_syntax::ast::Name,
        args: &'a [ast::Arg],
        scope: &Scope,
    ) -> Option<NodeId> {
        let lower = name.text.to_ascii_lowercase();
        let label = self.label(&n.span);
        let Some(&(builtin, counts)) = LEAVES.iter().find(|(l, _)| *l == lower) else {
            // Script leaves take no arguments: a call with some, unknown to the catalog, is most
            // likely a built-in leaf misspelt.
            if self.catalog.functions.is_none() && !args.is_empty() && suggest(&name.text, leaf_names()).is_some() {
                self.unknown_node(&name.text, name.span.clone(), false);
                return None;
            }
            let function = self.function(&name.text, name.span.clone())?;
            if let Some(a) = args.first() {
                self.error(
                    Code::TreeArguments,
                    a.span.clone(),
                    format!("the script leaf `{}` takes no arguments", name.text),
                    "not passed",
                )
                .hint = Some("script leaves read what they need from the blackboard (`GetBlackboard`)".to_owned());
                return None;
            }
            return Some(self.push(NodeKind::Script { function }, label, &n.span));
        };
        if !counts.contains(&args.len()) {
            let want = counts.iter().map(ToString::to_string).collect::<Vec<_>>().join(" or ");
            self.error(
                Code::TreeArguments,
                n.span.clone(),
                format!("`{builtin}` takes {want} argument{}", if want == "1" { "" } else { "s" }),
                format!("{} given", args.len()),
            );
            return None;
        }
        let text = |this: &mut Self, a: &ast::Arg| this.arg(a, scope);
        let leaf = match builtin {
            "move_to" if args.len() == 2 => {
                Leaf::MoveTo(Target::Cell(self.number_arg(&args[0], scope)?, self.number_arg(&args[1], scope)?))
            }
            "move_to" => Leaf::MoveTo(Target::One(self.place_arg(&args[0], scope)?)),
            "follow_path" => match &args[0].kind {
                ArgKind::Name(k) if scope.contains_key(k) => Leaf::FollowPath(self.arg(&args[0], scope)),
                ArgKind::Name(k) => {
                    self.unknown_key(k, args[0].span.clone(), scope, None);
                    return None;
                }
                _ => {
                    self.error(
                        Code::TreeArguments,
                        args[0].span.clone(),
                        "`follow_path` walks the list of cells a key holds",
                        "not a key",
                    );
                    return None;
                }
            },
            "flee" => Leaf::Flee,
            "chase" => Leaf::Chase(self.place_arg(&args[0], scope)?),
            "wait" => Leaf::Wait(self.number_arg(&args[0], scope)?),
            "say" => Leaf::Say(text(self, &args[0])),
            "go_to_position" => Leaf::GoToPosition(text(self, &args[0])),
            "play_pattern" => {
                let ticks = match args.get(1) {
                    Some(a) => Some(self.number_arg(a, scope)?),
                    None => None,
                };
                Leaf::PlayPattern(text(self, &args[0]), ticks)
            }
            "signal" | "wait_signal" => {
                let scope_arg = match args.get(1) {
                    Some(a) => {
                        if let ArgKind::Str(s) | ArgKind::Name(s) = &a.kind
                            && !scope.contains_key(s)
                            && !["squad", "team", "world"].contains(&s.to_ascii_lowercase().as_str())
                        {
                            self.error(
                                Code::TreeArguments,
                                a.span.clone(),
                                format!("unknown signal scope `{s}`"),
                                "not a scope",
                            )
                            .hint = Some("a signal's scope is `squad`, `team` or `world`".to_owned());
                            return None;
                        }
                        Some(text(self, a))
                    }
                    None => None,
                };
                let id = text(self, &args[0]);
                if builtin == "signal" { Leaf::Signal(id, scope_arg) } else { Leaf::WaitSignal(id, scope_arg) }
            }
            "succeed" => Leaf::Succeed,
            _ => Leaf::Fail,
        };
        Some(self.push(NodeKind::Leaf(leaf), label, &n.span))
    }

    fn subtree(
        &mut self,
        n: &'a ast::Node,
        name: &tactica_syntax::ast::Name,
        bindings: &'a [(tactica_syntax::ast::Name, ast::Arg)],
        scope: &Scope,
    ) -> Option<NodeId> {
        let Some(&t) = self.trees.get(name.text.as_str()) else {
            let near = suggest(&name.text, self.trees.keys().copied()).map(str::to_owned);
            self.error(
                Code::TreeSubtree,
                name.span.clone(),
                format!("no tree `{}` in this file", name.text),
                "unknown subtree",
            )
            .hint = Some(near.map_or_else(
                || "a subtree is another `tree NAME { … }` of the same file".to_owned(),
                |s| format!("did you mean `{s}`?"),
            ));
            return None;
        };
        if self.stack.iter().any(|s| s == &t.name.text) {
            self.error(
                Code::TreeSubtree,
                name.span.clone(),
                format!("the tree `{}` calls itself", t.name.text),
                "a cycle",
            )
            .hint = Some(format!("the calls go {} → {}", self.stack.join(" → "), t.name.text));
            return None;
        }
        let prefix = format!("{}.", t.name.text);
        let mut ports = Scope::new();
        for (port, value) in bindings {
            let Some(decl) = t.ports.iter().find(|p| p.name.text == port.text) else {
                let near = suggest(&port.text, t.ports.iter().map(|p| p.name.text.as_str())).map(str::to_owned);
                self.error(
                    Code::TreeSubtree,
                    port.span.clone(),
                    format!("`{}` has no port `{}`", t.name.text, port.text),
                    "unknown port",
                )
                .hint = Some(near.map_or_else(
                    || {
                        format!(
                            "its ports: {}",
                            t.ports.iter().map(|p| p.name.text.as_str()).collect::<Vec<_>>().join(", ")
                        )
                    },
                    |s| format!("did you mean `{s}`?"),
                ));
                return None;
            };
            if ports.contains_key(&port.text) {
                self.error(
                    Code::TreeDuplicate,
                    port.span.clone(),
                    format!("the port `{}` is bound twice", port.text),
                    "bound again",
                );
                return None;
            }
            let bound = match (&value.kind, decl.output) {
                (ArgKind::Name(k), _) if scope.contains_key(k) => scope[k].clone(),
                (ArgKind::Name(k), true) => {
                    self.unknown_key(k, value.span.clone(), scope, None);
                    return None;
                }
                (_, true) => {
                    self.error(
                        Code::TreeSubtree,
                        value.span.clone(),
                        format!("the out port `{}` needs a key to write to", port.text),
                        "a constant",
                    );
                    return None;
                }
                (_, false) => {
                    // An in port bound to a constant (or a word that is no key: a place, a
                    // query) is a key of the subtree's own, set to it.
                    let full = format!("{prefix}{}", port.text);
                    self.keys.insert(full.clone(), constant(value));
                    full
                }
            };
            ports.insert(port.text.clone(), bound);
        }
        if let Some(missing) = t.ports.iter().find(|p| !ports.contains_key(&p.name.text)) {
            self.error(
                Code::TreeSubtree,
                n.span.clone(),
                format!("the port `{}` of `{}` is not bound", missing.name.text, t.name.text),
                "every port needs a key or value",
            )
            .hint = Some(format!("write `subtree {}({} = some_key)`", t.name.text, missing.name.text));
            return None;
        }
        let label = format!("subtree {}", t.name.text);
        let id = self.push(NodeKind::Subtree { name: t.name.text.clone() }, label, &n.span);
        let root = self.tree(t, &prefix, ports)?;
        self.nodes[id as usize].children.push(root);
        Some(id)
    }

    /// Warns (E0122) of the first child of each composite that can never run.
    fn warn_unreachable(&mut self) {
        let mut memo: Vec<Option<May>> = vec![None; self.nodes.len()];
        for id in 0..self.nodes.len() {
            self.may(id as NodeId, &mut memo);
        }
        let mut warnings = Vec::new();
        for node in &self.nodes {
            let blocks = match node.kind {
                NodeKind::Sequence | NodeKind::MemorySequence | NodeKind::ReactiveSequence => |m: May| !m.succeed,
                NodeKind::Fallback | NodeKind::ReactiveFallback => |m: May| !m.fail,
                _ => continue,
            };
            for pair in node.children.windows(2) {
                let before = memo[pair[0] as usize].unwrap_or(May { succeed: true, fail: true });
                if blocks(before) {
                    let why = match (before.succeed, before.fail) {
                        (false, false) => "never finishes",
                        (true, false) => "always succeeds",
                        _ => "never succeeds",
                    };
                    let culprit = self.nodes[pair[0] as usize].label.clone();
                    let d = Diagnostic::new(
                        Code::TreeUnreachableChild,
                        self.spans[pair[1] as usize].clone(),
                        "this child can never run",
                        format!("`{culprit}` before it {why}"),
                    )
                    .with_note(self.spans[pair[0] as usize].clone(), format!("this {why}"))
                    .with_hint(match node.kind {
                        NodeKind::Fallback | NodeKind::ReactiveFallback => "a fallback tries its next child only when one fails: move this child before it, or remove it",
                        _ => "a sequence goes on to its next child only when one succeeds: move this child before it, or remove it",
                    });
                    warnings.push(d);
                    break;
                }
            }
            if let NodeKind::Guard { cond: Expr::Const(false), .. } = &node.kind
                && let Some(&child) = node.children.first()
            {
                warnings.push(Diagnostic::new(
                    Code::TreeUnreachableChild,
                    self.spans[child as usize].clone(),
                    "this child can never run",
                    "its guard's condition is `false`",
                ));
            }
        }
        self.diagnostics.extend(warnings);
    }

    fn may(&self, id: NodeId, memo: &mut Vec<Option<May>>) -> May {
        if let Some(m) = memo[id as usize] {
            return m;
        }
        let node = &self.nodes[id as usize];
        let both = May { succeed: true, fail: true };
        // A node whose child did not build (its mistake is reported) may do anything.
        let child = |i: usize, memo: &mut Vec<Option<May>>| node.children.get(i).map_or(both, |&c| self.may(c, memo));
        let m = match &node.kind {
            NodeKind::Leaf(Leaf::Succeed | Leaf::Say(_) | Leaf::Signal(..) | Leaf::Wait(_)) | NodeKind::Set { .. } => {
                May { succeed: true, fail: false }
            }
            NodeKind::Leaf(Leaf::Fail) => May { succeed: false, fail: true },
            NodeKind::Leaf(Leaf::PlayPattern(_, None)) => May { succeed: false, fail: true },
            NodeKind::Check(Expr::Const(b)) => May { succeed: *b, fail: !*b },
            NodeKind::Invert => {
                let c = child(0, memo);
                May { succeed: c.fail, fail: c.succeed }
            }
            NodeKind::ForceSuccess => {
                let c = child(0, memo);
                May { succeed: c.succeed || c.fail, fail: false }
            }
            NodeKind::ForceFailure => {
                let c = child(0, memo);
                May { succeed: false, fail: c.succeed || c.fail }
            }
            NodeKind::Repeat { times: None } => May { succeed: false, fail: child(0, memo).fail },
            NodeKind::Repeat { .. } | NodeKind::Retry { .. } | NodeKind::Subtree { .. } | NodeKind::Delay { .. } => {
                child(0, memo)
            }
            NodeKind::Timeout { .. } | NodeKind::Cooldown { .. } => May { succeed: child(0, memo).succeed, fail: true },
            NodeKind::Guard { cond, .. } => {
                let c = child(0, memo);
                match cond {
                    Expr::Const(false) => May { succeed: false, fail: true },
                    Expr::Const(true) => c,
                    _ => May { succeed: c.succeed, fail: true },
                }
            }
            NodeKind::Sequence | NodeKind::MemorySequence | NodeKind::ReactiveSequence => {
                let mut succeed = true;
                let mut fail = false;
                for i in 0..node.children.len() {
                    let c = child(i, memo);
                    fail |= succeed && c.fail;
                    succeed &= c.succeed;
                }
                May { succeed, fail }
            }
            NodeKind::Fallback | NodeKind::ReactiveFallback => {
                let mut fail = true;
                let mut succeed = false;
                for i in 0..node.children.len() {
                    let c = child(i, memo);
                    succeed |= fail && c.succeed;
                    fail &= c.fail;
                }
                May { succeed, fail }
            }
            _ => both,
        };
        memo[id as usize] = Some(m);
        m
    }
}

/// Where a body starts (the end of the header before it).
fn body_start(body: &Body) -> usize {
    match body {
        Body::Block { span, .. } => span.start,
        Body::One(n) => n.span.start,
    }
}

/// The value of a constant argument (a bare name is its own spelling).
fn constant(a: &ast::Arg) -> Value {
    match &a.kind {
        ArgKind::Int(n) => Value::Int(*n),
        ArgKind::Float(x) => Value::Float(*x),
        ArgKind::Str(s) | ArgKind::Name(s) => Value::Str(s.clone()),
        ArgKind::Bool(b) => Value::Bool(*b),
    }
}

/// The candidate closest to `name` (case-insensitive edit distance), if it is a likely typo.
fn suggest<'c>(name: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let lower = name.to_ascii_lowercase();
    let limit = (lower.chars().count() / 3).max(1);
    let mut seen = BTreeSet::new();
    candidates
        .into_iter()
        .filter(|c| seen.insert(*c))
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_ascii_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)))
        .map(|(_, c)| c)
}
