//! The names a script defines, with where: a `.tac` file's machines and their states, rule
//! systems with their rules and facts, sequences with their roles; and, in any language, the
//! places a signal is sent (`signal ready;`, `Signal("ready")`), which is where a signal is
//! defined as far as a reader is concerned.

use std::ops::Range;

use tactica_script::ast::{ItemKind, Stmt, StmtKind};
use tactica_script::lexer::{Token, lex};

/// What a defined name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A state machine.
    Machine,
    /// A state of a machine.
    State,
    /// A rule system.
    Rules,
    /// A named rule.
    Rule,
    /// A fact of a rule system.
    Fact,
    /// A sequence.
    Sequence,
    /// A role of a sequence.
    Role,
    /// A signal sent here.
    Signal,
}

impl Kind {
    /// The word a hover says.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Machine => "machine",
            Kind::State => "state",
            Kind::Rules => "rule system",
            Kind::Rule => "rule",
            Kind::Fact => "fact",
            Kind::Sequence => "sequence",
            Kind::Role => "role",
            Kind::Signal => "signal",
        }
    }
}

/// One defined name.
#[derive(Debug, Clone, PartialEq)]
pub struct Def {
    /// What it is.
    pub kind: Kind,
    /// The name as written.
    pub name: String,
    /// Where the name stands.
    pub span: Range<usize>,
    /// The item it belongs to (a state's machine …), for telling apart two machines' states.
    pub within: Option<(String, Range<usize>)>,
}

/// Every name a `.tac` file defines (what parses of it: the parser recovers).
pub fn tac_defs(source: &str) -> Vec<Def> {
    let (program, _) = tactica_script::parse(source);
    let mut out = Vec::new();
    let Some(program) = program else { return out };
    let def = |kind, name: &tactica_script::ast::Name, within: Option<(String, Range<usize>)>| Def {
        kind,
        name: name.text.clone(),
        span: name.span.clone(),
        within,
    };
    for item in &program.items {
        let within = |n: &tactica_script::ast::Name| Some((n.text.clone(), item.span.clone()));
        match &item.kind {
            ItemKind::Machine(m) => {
                out.push(def(Kind::Machine, &m.name, None));
                out.extend(m.states.iter().map(|s| def(Kind::State, &s.name, within(&m.name))));
            }
            ItemKind::Rules(r) => {
                out.push(def(Kind::Rules, &r.name, None));
                out.extend(r.facts.iter().map(|f| def(Kind::Fact, &f.name, within(&r.name))));
                out.extend(
                    r.rules.iter().filter_map(|rule| rule.name.as_ref()).map(|n| def(Kind::Rule, n, within(&r.name))),
                );
            }
            ItemKind::Sequence(s) => {
                out.push(def(Kind::Sequence, &s.name, None));
                out.extend(s.roles.iter().map(|role| def(Kind::Role, &role.name, within(&s.name))));
            }
            _ => {}
        }
    }
    let mut stmts = Vec::new();
    for item in &program.items {
        collect_signals(item_statements(&item.kind), &mut stmts);
    }
    out.extend(stmts);
    out
}

fn item_statements(kind: &ItemKind) -> Vec<&Stmt> {
    match kind {
        ItemKind::Stmt(s) => vec![s],
        ItemKind::Record { body, .. }
        | ItemKind::Creature { body, .. }
        | ItemKind::Handler { body, .. }
        | ItemKind::Leaf { body, .. } => body.iter().collect(),
        ItemKind::Machine(m) => m.states.iter().flat_map(|s| s.entry.iter().chain(&s.tick).chain(&s.exit)).collect(),
        ItemKind::Rules(r) => r.rules.iter().flat_map(|r| r.then.iter()).collect(),
        ItemKind::Sequence(s) => s.roles.iter().flat_map(|r| r.body.iter()).collect(),
        ItemKind::Kind(_) | ItemKind::Error => Vec::new(),
    }
}

fn collect_signals(stmts: Vec<&Stmt>, out: &mut Vec<Def>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Signal(_, name) => {
                out.push(Def { kind: Kind::Signal, name: name.text.clone(), span: name.span.clone(), within: None })
            }
            StmtKind::If { then, otherwise, .. } => {
                collect_signals(then.iter().chain(otherwise.iter().flatten()).collect(), out);
            }
            StmtKind::While { body, .. } | StmtKind::Repeat { body, .. } => collect_signals(body.iter().collect(), out),
            _ => {}
        }
    }
}

/// The signals `source` (any language) sends by calling `Signal("id" …)`, with the span of the
/// name inside the quotes.
pub fn signal_calls(source: &str) -> Vec<Def> {
    let tokens = lex(source);
    let mut out = Vec::new();
    for w in tokens.windows(3) {
        if let [(Token::Ident(word), _), (Token::LParen, _), (Token::Str(raw), span)] = w
            && word.eq_ignore_ascii_case("signal")
            && raw.len() >= 2
        {
            out.push(Def {
                kind: Kind::Signal,
                name: tactica_script::lexer::unquote(raw),
                span: span.start + 1..span.end - 1,
                within: None,
            });
        }
    }
    out
}

/// The definitions named `name` in `defs`, best first: exact spelling before another case, and
/// those inside the item that holds `at` (the cursor) before others.
pub fn lookup<'a>(defs: &'a [Def], name: &str, at: usize) -> Vec<&'a Def> {
    let mut found: Vec<&Def> = defs.iter().filter(|d| d.name.eq_ignore_ascii_case(name)).collect();
    found.sort_by_key(|d| {
        let inside = d.within.as_ref().is_some_and(|(_, span)| span.contains(&at));
        (d.name != name, !inside)
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_rules_roles_and_signals() {
        let src = "machine Guard {\n state Patrol { when Hurt -> Flee; }\n state Flee { -> Patrol; }\n}\n\
                   rules Build { fact Gold = 1; rule walls when Gold > 0 then Say(\"x\"); }\n\
                   sequence Breach { role a { signal ready; } role b { wait ready; } }";
        let defs = tac_defs(src);
        let names: Vec<(Kind, &str)> = defs.iter().map(|d| (d.kind, d.name.as_str())).collect();
        for want in [
            (Kind::Machine, "Guard"),
            (Kind::State, "Patrol"),
            (Kind::State, "Flee"),
            (Kind::Rules, "Build"),
            (Kind::Fact, "Gold"),
            (Kind::Rule, "walls"),
            (Kind::Sequence, "Breach"),
            (Kind::Role, "a"),
            (Kind::Signal, "ready"),
        ] {
            assert!(names.contains(&want), "{want:?} in {names:?}");
        }
        let flee = lookup(&defs, "flee", 0)[0];
        assert_eq!(&src[flee.span.clone()], "Flee");
        let lua = "Signal(\"go\", \"team\")\nsignal('ready')";
        let calls = signal_calls(lua);
        assert_eq!(calls.iter().map(|d| &lua[d.span.clone()]).collect::<Vec<_>>(), ["go", "ready"]);
    }
}
