//! Behaviour-tree files (`.bt`): the trees a scenario's `[models]` section declares with `tree = …`.
//!
//! ```text
//! // A guard: patrol, but investigate a noise, and take cover when shot at.
//! tree Guard {
//!   blackboard { noise = false; shot_at = false; }
//!   leaves "guard.lua";
//!
//!   fallback {
//!     service listen() every 5;
//!     guard shot_at abort lower_priority sequence { take_cover(); wait(20); set shot_at = false; }
//!     guard noise abort lower_priority sequence { say("Who's there?"); investigate(); }
//!     sequence { move_to(post_a); wait(5); move_to(post_b); wait(5); }
//!   }
//! }
//! ```
//!
//! A file holds one or more `tree NAME { … }` blocks; the first is the tree a scenario attaches,
//! the others are subtrees it may call. Inside a tree:
//!
//! - `blackboard { KEY = value; … }` declares the keys the tree reads and writes, with defaults;
//! - `leaves "file", …;` names the `.tac`, Lua or Rhai files whose functions are leaves;
//! - one node, the root.
//!
//! A node is one of:
//!
//! - a *header* of words and numbers followed by a `{ … }` block or by one node:
//!   `sequence { … }`, `reactive fallback { … }`, `parallel success 2 failure 1 { … }`,
//!   `repeat 3 move_to(post);`, `invert check noise;`, `timeout 50 sequence { … }`. Headers
//!   chain: `repeat 3 reactive sequence { … }` is a repeat around a reactive sequence. What the
//!   words mean is the engine's business (`decide::bt`); this module only keeps them with spans;
//! - `guard CONDITION [abort none|self|lower_priority|both] BODY`;
//! - `check CONDITION;` — a condition leaf (a model condition: facts, constants, comparisons and
//!   `and`/`or`/`not`);
//! - `set KEY = value;` — writes a blackboard key;
//! - `subtree NAME(port = key, …);` — runs another tree of the file with its ports remapped;
//! - `NAME(args);` — a leaf: a built-in one (`move_to`, `wait`, `say` …) or a script function.
//!
//! A block may start with services: `service NAME(args) every TICKS;`.

use chumsky::input::ValueInput;
use chumsky::prelude::*;

use crate::ast::{Expr, Name};
use crate::diagnostics::Diagnostic;
use crate::lexer::{Span, Token, unquote};
use crate::limits::Grammar;
use crate::parser::{Extra, expr, ident, kw};
use crate::tac::front;

/// A whole `.bt` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TreeFile {
    /// The trees, in written order; the first is the main one.
    pub trees: Vec<TreeDecl>,
}

/// `tree NAME(ports) { members }`.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeDecl {
    /// The tree's name.
    pub name: Name,
    /// Its ports, when it is a subtree that takes some.
    pub ports: Vec<Port>,
    /// Its blackboard sections, leaf-file lists and nodes, in written order.
    pub members: Vec<Member>,
    /// The whole declaration.
    pub span: Span,
}

/// One member of a tree.
#[derive(Debug, Clone, PartialEq)]
pub enum Member {
    /// `blackboard { KEY = value; … }`.
    Blackboard(Vec<KeyDecl>),
    /// `leaves "a.lua", "b.tac";`: the files as written, with their spans.
    Leaves(Vec<(String, Span)>),
    /// A node (a tree has exactly one, its root).
    Node(Node),
}

/// A port of a subtree: `in NAME` or `out NAME`.
#[derive(Debug, Clone, PartialEq)]
pub struct Port {
    /// Whether the subtree reads it (`in`) or writes it (`out`).
    pub output: bool,
    /// Its name: a blackboard key inside the subtree.
    pub name: Name,
}

/// `KEY = value;` or `KEY;` (no default: nil).
#[derive(Debug, Clone, PartialEq)]
pub struct KeyDecl {
    /// The key.
    pub name: Name,
    /// Its default.
    pub value: Option<Arg>,
}

/// An argument, a default or a port binding: a constant or a name.
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// What it is.
    pub kind: ArgKind,
    /// Where.
    pub span: Span,
}

/// The kinds of [`Arg`].
#[derive(Debug, Clone, PartialEq)]
pub enum ArgKind {
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A quoted string.
    Str(String),
    /// `true`/`false`.
    Bool(bool),
    /// A bare name: a blackboard key where one is declared, else a word (a place, an entity, a
    /// pattern …).
    Name(String),
}

/// A word or number of a node's header (`parallel success 2`).
#[derive(Debug, Clone, PartialEq)]
pub enum Word {
    /// A word.
    Name(Name),
    /// A whole number, with its span.
    Int(i64, Span),
}

impl Word {
    /// Where it is written.
    pub fn span(&self) -> Span {
        match self {
            Word::Name(n) => n.span.clone(),
            Word::Int(_, s) => s.clone(),
        }
    }
}

/// `service NAME(args) every TICKS;`.
#[derive(Debug, Clone, PartialEq)]
pub struct Service {
    /// The function (a script function of the tree's leaf files).
    pub name: Name,
    /// Its arguments.
    pub args: Vec<Arg>,
    /// Its interval in ticks.
    pub every: Option<(i64, Span)>,
    /// The whole declaration.
    pub span: Span,
}

/// A node with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What it is.
    pub kind: NodeKind,
    /// Where.
    pub span: Span,
}

/// What follows a header or a guard: a block of children (with services) or one node.
#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// `{ services nodes }`.
    Block {
        /// The block's services.
        services: Vec<Service>,
        /// Its children.
        children: Vec<Node>,
        /// The block, braces included.
        span: Span,
    },
    /// One node.
    One(Box<Node>),
}

/// The kinds of node.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A header and its body: a composite (`sequence { … }`) or a decorator (`repeat 3 …`).
    Header {
        /// The words and numbers, in order.
        words: Vec<Word>,
        /// What follows.
        body: Body,
    },
    /// `guard CONDITION [abort MODE] BODY`.
    Guard {
        /// The condition.
        cond: Expr,
        /// The abort mode's word, when given.
        abort: Option<Name>,
        /// What it guards.
        body: Body,
    },
    /// `check CONDITION;`.
    Check(Expr),
    /// `set KEY = value;`.
    Set {
        /// The key.
        key: Name,
        /// The value: a constant, or a key to copy.
        value: Arg,
    },
    /// `subtree NAME(port = key, …);`.
    Subtree {
        /// The tree called.
        name: Name,
        /// Each port and what it is bound to.
        bindings: Vec<(Name, Arg)>,
    },
    /// `NAME(args);`: a leaf.
    Call {
        /// The leaf.
        name: Name,
        /// Its arguments.
        args: Vec<Arg>,
    },
    /// Something that did not parse.
    Error,
}

fn range(s: SimpleSpan) -> Span {
    s.into_range()
}

/// The words a header may continue with after its first: node keywords and their parameters.
const HEADER_WORDS: &[&str] = &[
    "sequence", "fallback", "selector", "reactive", "memory", "with", "parallel", "invert", "force", "success",
    "failure", "forever", "retry", "timeout", "cooldown", "delay", "repeat",
];

fn arg<'t, 's: 't, I>() -> impl Parser<'t, I, Arg, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let number = just(Token::Minus).or_not().then(select! {
        Token::Int(n) => ArgKind::Int(n),
        Token::Float(x) => ArgKind::Float(x),
    });
    let number = number.map(|(minus, kind)| match (minus.is_some(), kind) {
        (true, ArgKind::Int(n)) => ArgKind::Int(-n),
        (true, ArgKind::Float(x)) => ArgKind::Float(-x),
        (_, k) => k,
    });
    choice((
        number,
        select! {
            Token::Str(s) => ArgKind::Str(unquote(s)),
            Token::True => ArgKind::Bool(true),
            Token::False => ArgKind::Bool(false),
            Token::Ident(s) => ArgKind::Name(s.to_owned()),
        },
    ))
    .map_with(|kind, e| Arg { kind, span: range(e.span()) })
    .labelled("a value or a name")
}

fn args<'t, 's: 't, I>() -> impl Parser<'t, I, Vec<Arg>, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    arg()
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LParen), just(Token::RParen))
}

/// The first word of a header: any name (a misspelt keyword is reported by the engine with a
/// did-you-mean), or `repeat`, which the lexer reads as a keyword of `.tac`.
fn first_word<'t, 's: 't, I>() -> impl Parser<'t, I, Name, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    choice((ident(), just(Token::Repeat).map_with(|_, e| Name { text: "repeat".to_owned(), span: range(e.span()) })))
}

fn header<'t, 's: 't, I>() -> impl Parser<'t, I, Vec<Word>, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let more_word = choice((
        select! { Token::Ident(s) if HEADER_WORDS.iter().any(|w| w.eq_ignore_ascii_case(s)) => s.to_owned() },
        just(Token::Repeat).to("repeat".to_owned()),
    ))
    .map_with(|text, e| Word::Name(Name { text, span: range(e.span()) }));
    let int = just(Token::Minus)
        .or_not()
        .then(select! { Token::Int(n) => n })
        .map_with(|(minus, n), e| Word::Int(if minus.is_some() { -n } else { n }, range(e.span())));
    first_word().map(Word::Name).then(choice((more_word, int)).repeated().collect::<Vec<_>>()).map(|(first, rest)| {
        let mut words = vec![first];
        words.extend(rest);
        words
    })
}

fn node<'t, 's: 't, I>() -> impl Parser<'t, I, Node, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    recursive(|node| {
        let semi = just(Token::Semi).labelled("`;`");
        let service = kw("service")
            .ignore_then(ident())
            .then(args().or_not())
            .then(
                kw("every").ignore_then(select! { Token::Int(n) => n }.map_with(|n, e| (n, range(e.span())))).or_not(),
            )
            .then_ignore(semi.clone())
            .map_with(|((name, args), every), e| Service {
                name,
                args: args.unwrap_or_default(),
                every,
                span: range(e.span()),
            });
        let block = service
            .repeated()
            .collect::<Vec<_>>()
            .then(node.clone().repeated().collect::<Vec<Node>>())
            .delimited_by(just(Token::LBrace), just(Token::RBrace))
            .map_with(|(services, children), e| Body::Block { services, children, span: range(e.span()) })
            .recover_with(via_parser(nested_delimiters(
                Token::LBrace,
                Token::RBrace,
                [(Token::LParen, Token::RParen), (Token::LBracket, Token::RBracket)],
                |span: SimpleSpan| Body::Block { services: vec![], children: vec![], span: span.into_range() },
            )));
        let body = choice((block, node.clone().map(|n| Body::One(Box::new(n)))));

        let check = kw("check").ignore_then(expr()).then_ignore(semi.clone()).map(NodeKind::Check);
        let set = kw("set")
            .ignore_then(ident())
            .then_ignore(just(Token::Assign))
            .then(arg())
            .then_ignore(semi.clone())
            .map(|(key, value)| NodeKind::Set { key, value });
        let binding = ident().then_ignore(just(Token::Assign)).then(arg());
        let subtree = kw("subtree")
            .ignore_then(ident())
            .then(
                binding
                    .separated_by(just(Token::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>()
                    .delimited_by(just(Token::LParen), just(Token::RParen))
                    .or_not(),
            )
            .then_ignore(semi.clone())
            .map(|(name, bindings)| NodeKind::Subtree { name, bindings: bindings.unwrap_or_default() });
        let guard = kw("guard")
            .ignore_then(expr())
            .then(kw("abort").ignore_then(ident()).or_not())
            .then(body.clone())
            .map(|((cond, abort), body)| NodeKind::Guard { cond, abort, body });
        let call = ident().then(args()).then_ignore(semi).map(|(name, args)| NodeKind::Call { name, args });
        let headed = header().then(body).map(|(words, body)| NodeKind::Header { words, body });

        choice((check, set, subtree, guard, call, headed))
            .map_with(|kind, e| Node { kind, span: range(e.span()) })
            // A broken node runs to its `;`, or up to the `}` closing its block, so the rest of the
            // tree is still read and checked.
            .recover_with(via_parser(
                none_of([Token::RBrace, Token::Semi])
                    .repeated()
                    .at_least(1)
                    .then(just(Token::Semi).or_not())
                    .map_with(|_, e| Node { kind: NodeKind::Error, span: range(e.span()) }),
            ))
            .labelled("a node")
            .boxed()
    })
}

fn tree<'t, 's: 't, I>() -> impl Parser<'t, I, TreeDecl, Extra<'t, 's>> + Clone
where
    I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
{
    let port =
        choice((kw("in").to(false), kw("out").to(true))).then(ident()).map(|(output, name)| Port { output, name });
    let ports = port
        .separated_by(just(Token::Comma))
        .allow_trailing()
        .collect::<Vec<_>>()
        .delimited_by(just(Token::LParen), just(Token::RParen));
    let key = ident()
        .then(just(Token::Assign).ignore_then(arg()).or_not())
        .then_ignore(choice((just(Token::Semi), just(Token::Comma))).or_not())
        .map(|(name, value)| KeyDecl { name, value });
    let blackboard = kw("blackboard")
        .ignore_then(key.repeated().collect::<Vec<_>>().delimited_by(just(Token::LBrace), just(Token::RBrace)))
        .map(Member::Blackboard);
    let file = select! { Token::Str(s) => s }.map_with(|s: &str, e| (unquote(s), range(e.span())));
    let leaves = kw("leaves")
        .ignore_then(file.separated_by(just(Token::Comma)).at_least(1).collect::<Vec<_>>())
        .then_ignore(just(Token::Semi))
        .map(Member::Leaves);
    let member = choice((blackboard, leaves, node().map(Member::Node)));
    kw("tree")
        .ignore_then(ident().labelled("the tree's name"))
        .then(ports.or_not())
        .then(member.repeated().collect::<Vec<_>>().delimited_by(just(Token::LBrace), just(Token::RBrace)))
        .map_with(|((name, ports), members), e| TreeDecl {
            name,
            ports: ports.unwrap_or_default(),
            members,
            span: range(e.span()),
        })
}

/// How deep a tree file may nest blocks and wrapping nodes before it is refused unread: the one
/// nesting limit of designer text ([`crate::limits::MAX_NESTING`], E0005), so a tree is refused
/// at the same depth with the same code whether it nests blocks, decorators or both. The tree is
/// read into nested nodes, and nodes a million deep would overflow the stack when the tree is
/// walked or dropped; the engine holds trees (subtrees included) to the same depth.
pub const MAX_NESTING: usize = crate::limits::MAX_NESTING;

/// The words that make a node wrap the next one (a block or one node).
const WRAPPING: &[&str] = &[
    "guard", "sequence", "fallback", "selector", "reactive", "parallel", "invert", "force", "repeat", "retry",
    "timeout", "delay", "cooldown",
];

/// Where the text nests deeper than [`MAX_NESTING`]: open blocks, plus the wrapping words since
/// the last `;`, `{` or `}` (each may open one more level), counted without reading the tree.
fn too_deep(src: &str) -> Option<Span> {
    let mut blocks = 0usize;
    let mut run = 0usize;
    for (tok, span) in crate::lexer::lex(src) {
        match tok {
            Token::LBrace => {
                blocks += 1;
                run = 0;
            }
            Token::RBrace => {
                blocks = blocks.saturating_sub(1);
                run = 0;
            }
            Token::Semi => run = 0,
            Token::Repeat => run += 1,
            Token::Ident(w) if WRAPPING.iter().any(|k| k.eq_ignore_ascii_case(w)) => run += 1,
            _ => {}
        }
        if blocks + run > MAX_NESTING {
            return Some(span);
        }
    }
    None
}

/// Parses a tree file. Returns what could be read (with [`NodeKind::Error`] where a node did not
/// parse) and every lexical and syntax error; never fails. What the nodes mean — which words name
/// which nodes, which names are leaves and keys — is checked by the engine (`decide::bt`).
pub fn parse(src: &str) -> (Option<TreeFile>, Vec<Diagnostic>) {
    if let Some(span) = too_deep(src) {
        let d = Diagnostic::new(
            crate::diagnostics::Code::NestingTooDeep,
            span,
            format!("nested more than {MAX_NESTING} levels deep"),
            "the limit is reached here",
        )
        .with_hint(
            "blocks and the decorators wrapping a node count together; a tree this deep is hard to read: \
             split it into subtrees or flatten it",
        );
        return (None, vec![d]);
    }
    // The reader's own depth check above counts nodes (blocks and the decorators wrapping them);
    // the front end's counts brackets and blocks, the nesting its parser recurses on.
    front(src, Grammar::Blocks, |tokens, eoi| {
        let item = tree()
            .map(Some)
            .recover_with(skip_then_retry_until(any().ignored(), end()))
            .recover_with(via_parser(any().to(None)));
        item.repeated()
            .collect::<Vec<_>>()
            .then_ignore(end())
            .map(|trees| TreeFile { trees: trees.into_iter().flatten().collect() })
            .parse(tokens.map(eoi, |(t, s)| (t, s)))
            .into_output_errors()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;

    fn one(src: &str) -> TreeDecl {
        let (file, d) = parse(src);
        assert!(d.is_empty(), "{d:?}");
        file.unwrap().trees.remove(0)
    }

    fn words(n: &Node) -> Vec<String> {
        match &n.kind {
            NodeKind::Header { words, .. } => words
                .iter()
                .map(|w| match w {
                    Word::Name(n) => n.text.clone(),
                    Word::Int(i, _) => i.to_string(),
                })
                .collect(),
            other => panic!("not a header: {other:?}"),
        }
    }

    #[test]
    fn sections_headers_leaves_and_services() {
        let t = one("tree Guard {\n  blackboard { noise = false; x = -3; name = \"a\"; spot; }\n  leaves \"a.lua\", \
                     \"b.tac\";\n  fallback {\n    service listen() every 5;\n    guard noise abort self sequence { \
                     say(\"hm\"); wait(3); }\n    parallel success 2 failure 1 { a(); b(); }\n    repeat 3 move_to(post);\n    \
                     check x > 2 and noise;\n    set noise = false;\n    subtree Look(at = spot);\n  }\n}\n");
        assert_eq!(t.name.text, "Guard");
        let Member::Blackboard(keys) = &t.members[0] else { panic!() };
        assert_eq!(keys.len(), 4);
        assert_eq!(keys[1].value.as_ref().map(|a| &a.kind), Some(&ArgKind::Int(-3)));
        assert_eq!(keys[3].value, None);
        let Member::Leaves(files) = &t.members[1] else { panic!() };
        assert_eq!(files.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["a.lua", "b.tac"]);
        let Member::Node(root) = &t.members[2] else { panic!() };
        assert_eq!(words(root), ["fallback"]);
        let NodeKind::Header { body: Body::Block { services, children, .. }, .. } = &root.kind else { panic!() };
        assert_eq!(services[0].name.text, "listen");
        assert_eq!(services[0].every.as_ref().map(|e| e.0), Some(5));
        assert_eq!(children.len(), 6);
        let NodeKind::Guard { abort, body: Body::One(inner), .. } = &children[0].kind else { panic!() };
        assert_eq!(abort.as_ref().map(|a| a.text.as_str()), Some("self"));
        assert_eq!(words(inner), ["sequence"]);
        assert_eq!(words(&children[1]), ["parallel", "success", "2", "failure", "1"]);
        assert_eq!(words(&children[2]), ["repeat", "3"]);
        assert!(matches!(&children[3].kind, NodeKind::Check(_)));
        assert!(matches!(&children[4].kind, NodeKind::Set { .. }));
    }

    #[test]
    fn headers_chain_and_misspelt_keywords_still_parse() {
        let t = one("tree T { invert reactive sequence { check a; } }");
        let Member::Node(root) = &t.members[0] else { panic!() };
        assert_eq!(words(root), ["invert", "reactive", "sequence"]);
        let t = one("tree T { sequnce { a(); } }");
        let Member::Node(root) = &t.members[0] else { panic!() };
        assert_eq!(words(root), ["sequnce"]);
    }

    #[test]
    fn several_trees_and_ports() {
        let (file, d) = parse("tree A { subtree B(x = k); }\ntree B(in x, out y) { set y = x; }");
        assert!(d.is_empty(), "{d:?}");
        let file = file.unwrap();
        assert_eq!(file.trees.len(), 2);
        assert_eq!(file.trees[1].ports.len(), 2);
        assert!(file.trees[1].ports[1].output);
    }

    #[test]
    fn mistakes_are_reported_and_reading_goes_on() {
        let (file, d) = parse("tree T {\n  sequence {\n    move_to(a)\n    wait(3);\n  }\n}\n");
        assert_eq!(d[0].code, Code::Syntax, "{d:?}");
        assert!(file.is_some());
        let (_, d) = parse("tree T { sequence { a(); }");
        assert!(d.iter().any(|d| d.message == "this block is never closed"), "{d:?}");
        let (_, d) = parse("tree T { say(\"open); }");
        assert_eq!(d[0].code, Code::UnterminatedString);
        let (_, d) = parse("");
        assert!(d.is_empty());
    }

    #[test]
    fn nesting_past_the_limit_is_refused_before_it_is_read() {
        let deep = format!("tree T {{ {}x(); }}", "guard a ".repeat(100_000));
        let (file, d) = parse(&deep);
        assert!(file.is_none());
        assert_eq!(d[0].code, Code::NestingTooDeep);
        assert_eq!(d[0].message, "nested more than 200 levels deep");
        // One limit, one code: blocks past it, from just past it to far past it.
        for n in [201, 256, 257, 300] {
            let blocks = format!("tree T {{ {}x();{} }}", "sequence { ".repeat(n), " }".repeat(n));
            let d = parse(&blocks).1;
            assert_eq!(
                (d[0].code, d[0].message.as_str()),
                (Code::NestingTooDeep, "nested more than 200 levels deep"),
                "{n}"
            );
        }
        // Well within the limit: read.
        let within = format!("tree T {{ {}x();{} }}", "sequence { ".repeat(150), " }".repeat(150));
        assert!(parse(&within).1.is_empty());
        // Many siblings are no nesting.
        let wide = format!("tree T {{ sequence {{ {} }} }}", "guard a x(); ".repeat(10_000));
        assert!(parse(&wide).1.is_empty());
    }
}
