//! The Rhai linter behind `tactica check`: the file is compiled with the backend's own engine
//! (`Engine::compile`, which parses and never runs) and the syntax tree walked (`AST::walk`, with
//! rhai's `internals`). It reports calls to functions no one defines (E0011, with the closest API
//! name), API calls with an argument count no overload takes (E0013), script functions named like
//! a handler no event has (E0074), what the sandbox removed (E0075): `timestamp` (wall-clock
//! time), `import`, and reads of `os`, `io` and their kin; and reads of variables nothing
//! declares (E0079: a place written bare, `MoveTo(kWell)`, as `.tac` writes it; in Rhai the
//! script stops there).
//!
//! Names the script defines are never findings: its `fn`s (closures included), and every variable
//! it declares anywhere (`let`, `const`, parameters, loop and `catch` variables): a variable may
//! hold a function pointer that `name(…)` calls.

use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::OnceLock;

use rhai::{ASTNode, Engine, Expr, FnCallExpr, Position, Stmt};
use tactica_stdlib::lint::{self, ArgCount};
use tactica_stdlib::{Api, ScriptLimits, ScriptSignals};
use tactica_syntax::diagnostics::{Diagnostic, offset_of};

/// Rhai's keyword functions, resolved by the engine itself rather than registered.
const KEYWORDS: &[&str] =
    &["print", "debug", "type_of", "Fn", "call", "curry", "is_def_fn", "is_def_var", "is_shared", "eval", "this"];

/// Globals a Lua habit reaches for, which no Rhai script has either.
const REMOVED_NAMES: &[(&str, &str)] = &[
    ("os", "the OS library"),
    ("io", "the file library"),
    ("package", "the module library"),
    ("debug", "the debug library"),
    ("require", "module loading"),
];

/// The functions the sandboxed engine has besides the API (its packages and the `Entity` and
/// `Vec2` helpers), by name, made once.
fn builtins() -> &'static BTreeSet<String> {
    static NAMES: OnceLock<BTreeSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let engine = crate::backend::sandboxed_engine(std::sync::Arc::new(Api::raw()), &ScriptLimits::new());
        engine
            .gen_fn_signatures(true)
            .iter()
            .filter_map(|sig| {
                let sig = sig.strip_prefix("fn ").unwrap_or(sig);
                sig.split_once('(').map(|(name, _)| name.trim().to_owned())
            })
            .collect()
    })
}

/// The findings in `source`, compiled with `engine` (empty when it does not compile: syntax
/// errors are `compile`'s).
pub(crate) fn lint(engine: &Engine, api: &Api, source: &str) -> Vec<Diagnostic> {
    let Ok(ast) = engine.compile(source) else { return Vec::new() };
    let functions: BTreeSet<String> = ast.iter_functions().map(|f| f.name.to_owned()).collect();
    let mut variables: BTreeSet<String> =
        ast.iter_functions().flat_map(|f| f.params.into_iter().map(str::to_owned)).collect();
    ast.walk(&mut |path: &[ASTNode]| {
        match path.last() {
            Some(ASTNode::Stmt(Stmt::Var(x, ..))) => {
                variables.insert(x.0.name.to_string());
            }
            Some(ASTNode::Stmt(Stmt::For(x, ..))) => {
                variables.insert(x.0.name.to_string());
                if let Some(counter) = &x.1 {
                    variables.insert(counter.name.to_string());
                }
            }
            Some(ASTNode::Stmt(Stmt::TryCatch(x, ..))) => {
                if let Expr::Variable(v, ..) = &x.expr {
                    variables.insert(v.1.to_string());
                }
            }
            _ => {}
        }
        true
    });
    let mut diags = Vec::new();
    let defined = |name: &str| functions.contains(name) || variables.contains(name);
    ast.walk(&mut |path: &[ASTNode]| {
        match path.last() {
            Some(ASTNode::Stmt(Stmt::FnCall(call, pos))) | Some(ASTNode::Expr(Expr::FnCall(call, pos))) => {
                if let Some(d) = check_call(api, source, call, *pos, &defined) {
                    diags.push(d);
                } else if !defined(call.name.as_str()) {
                    diags.extend(name_literals(api, source, call));
                }
            }
            Some(ASTNode::Expr(Expr::Variable(v, _, pos))) if v.2.is_empty() && !defined(&v.1) => {
                match REMOVED_NAMES.iter().find(|(n, _)| *n == v.1.as_str()) {
                    Some((name, what)) => diags.push(lint::removed_global(name, what, name_span(source, *pos, name))),
                    None => diags.push(undefined_variable(api, source, &v.1, *pos)),
                }
            }
            Some(ASTNode::Stmt(Stmt::Import(_, pos))) => {
                diags.push(lint::removed_global("import", "module loading", name_span(source, *pos, "import")));
            }
            _ => {}
        }
        true
    });
    for f in ast.iter_functions() {
        if let Some(span) = fn_name_span(source, f.name)
            && let Some(d) = lint::unknown_handler(f.name, span)
        {
            diags.push(d);
        }
    }
    diags.sort_by_key(|d| (d.span.start, d.code));
    diags.dedup();
    diags
}

/// The squad signals `source` sends and waits for with `Signal` and `Wait` (see
/// [`ScriptSignals`]); nothing when it does not compile.
pub(crate) fn squad_signals(engine: &Engine, source: &str) -> ScriptSignals {
    let mut found = ScriptSignals::default();
    let Ok(ast) = engine.compile(source) else { return found };
    ast.walk(&mut |path: &[ASTNode]| {
        if let Some(ASTNode::Stmt(Stmt::FnCall(call, _)) | ASTNode::Expr(Expr::FnCall(call, _))) = path.last()
            && call.namespace.is_empty()
        {
            let literal = |e: &Expr| match e {
                Expr::StringConstant(s, _) => Some(s.to_string()),
                _ => None,
            };
            let args: Vec<Option<String>> = call.args.iter().map(literal).collect();
            found.note(call.name.as_str(), args.first().map(Option::as_deref), args.get(1).map(Option::as_deref));
        }
        true
    });
    found
}

fn check_call(
    api: &Api,
    source: &str,
    call: &FnCallExpr,
    pos: Position,
    defined: &dyn Fn(&str) -> bool,
) -> Option<Diagnostic> {
    let name = call.name.as_str();
    let is_name = name.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_');
    if call.is_operator_call() || !call.namespace.is_empty() || !is_name || defined(name) {
        return None;
    }
    let span = name_span(source, pos, name);
    if name == "timestamp" {
        return Some(lint::removed_global(name, "wall-clock time, which would make every run differ", span));
    }
    let overloads = lint::overloads(api, name);
    if !overloads.is_empty() {
        let end = call_end(source, span.end).unwrap_or(span.end);
        return lint::check_arity(&overloads, ArgCount::Exactly(call.args.len()), span.start..end);
    }
    if KEYWORDS.contains(&name) || builtins().contains(name) {
        return None;
    }
    Some(lint::unknown_function(api, name, span))
}

/// E0010 for each string literal of an API call that names a place the scenario lacks.
fn name_literals(api: &Api, source: &str, call: &FnCallExpr) -> Vec<Diagnostic> {
    let overloads = lint::overloads(api, call.name.as_str());
    if overloads.is_empty() || !call.namespace.is_empty() {
        return Vec::new();
    }
    let argc = call.args.len();
    call.args
        .iter()
        .enumerate()
        .filter_map(|(index, a)| {
            let Expr::StringConstant(text, pos) = a else { return None };
            let span = literal_span(source, *pos, text);
            lint::unknown_place_literal(api, &overloads, argc, index, text, span)
        })
        .collect()
}

/// The byte span of a string literal at Rhai's `pos`, quotes included (its text when written
/// without escapes; else just where it starts).
fn literal_span(source: &str, pos: Position, text: &str) -> Range<usize> {
    let start = name_span(source, pos, "").start;
    let quoted = format!("\"{text}\"");
    let end = if source[start..].starts_with(&quoted) { start + quoted.len() } else { start };
    start..end
}

/// E0079 for a variable no `let`, `const`, parameter or loop declares anywhere in the file.
fn undefined_variable(api: &Api, source: &str, name: &str, pos: Position) -> Diagnostic {
    lint::undefined_global(api, name, "Rhai", name_span(source, pos, name))
}

/// The byte span of `name` at Rhai's `pos` (1-based line and character column).
fn name_span(source: &str, pos: Position, name: &str) -> Range<usize> {
    let (Some(line), Some(column)) = (pos.line(), pos.position()) else { return 0..0 };
    let start = offset_of(source, u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(column).unwrap_or(u32::MAX));
    let end = if source[start..].starts_with(name) { start + name.len() } else { start };
    start..end
}

/// Where the argument list that starts after `from` (the callee's name) ends: just past its `)`.
/// Strings and characters are skipped; `None` when there is no such list.
fn call_end(source: &str, from: usize) -> Option<usize> {
    let rest = source.get(from..)?;
    let open = rest.find(|c: char| !c.is_whitespace())?;
    if !rest[open..].starts_with('(') {
        return None;
    }
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in rest[open..].char_indices() {
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(from + open + i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The span of the name in the first `fn NAME` of `source` (rhai keeps no position for a
/// function's definition).
fn fn_name_span(source: &str, name: &str) -> Option<Range<usize>> {
    let mut at = 0;
    while let Some(i) = source[at..].find("fn") {
        let start = at + i;
        at = start + 2;
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let commented = source[line_start..start].contains("//");
        let before_ok =
            !commented && source[..start].chars().next_back().is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = &source[at..];
        let trimmed = after.trim_start();
        if before_ok && trimmed.len() < after.len() && trimmed.starts_with(name) {
            let name_start = at + (after.len() - trimmed.len());
            let next = source[name_start + name.len()..].chars().next();
            if next.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
                return Some(name_start..name_start + name.len());
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactica_syntax::diagnostics::Code;

    fn codes(src: &str) -> Vec<(Code, String)> {
        let engine = crate::backend::sandboxed_engine(std::sync::Arc::new(Api::standard()), &ScriptLimits::new());
        lint(&engine, &Api::standard(), src).into_iter().map(|d| (d.code, src[d.span.clone()].to_owned())).collect()
    }

    #[test]
    fn the_four_mistakes() {
        assert_eq!(codes("fn on_think() { Sya(\"hi\"); }"), [(Code::UnknownFunction, "Sya".to_owned())]);
        assert_eq!(codes("fn on_think() {\n  MoveTo(1, 2, 3);\n}"), [(Code::WrongArity, "MoveTo(1, 2, 3)".to_owned())]);
        assert_eq!(codes("fn on_thinck() { Say(\"hi\"); }"), [(Code::UnknownHandler, "on_thinck".to_owned())]);
        assert_eq!(codes("fn on_think() { let t = timestamp(); }"), [(Code::RemovedGlobal, "timestamp".to_owned())]);
        assert_eq!(codes("fn on_think() { let t = os.time(); }"), [(Code::RemovedGlobal, "os".to_owned())]);
        assert_eq!(codes("fn on_think() { let x = say(1, 2); }")[0].0, Code::WrongArity);
        assert_eq!(codes("fn on_think() { move_tu(1, 2); }")[0].0, Code::UnknownFunction);
    }

    #[test]
    fn what_the_script_defines_is_never_a_finding() {
        let clean = [
            "fn helper(a) { a + 1 } fn on_think() { let x = helper(1); Say(`${x}`); }",
            "fn on_think() { later(); } fn later() {}",
            "fn on_think() { let f = |x| x * 2; let y = f(2); let z = f.call(3); }",
            "fn on_think() { let Say = |a, b, c| a; Say(1, 2, 3); }",
            "fn on_think() { let a = [1, 2]; a.push(3); let n = a.len(); let s = \"x\".to_upper(); }",
            "fn on_think() { this.count = (this.count ?? 0) + 1; print(this.count); debug(1); }",
            "fn on_think() { let n = sqrt(4.0) + abs(-1) + max(1, 2); let t = type_of(n); let s = n.to_string(); }",
            "fn on_hear(text) { if Ask(\"name\") { Say(text); } } fn sequence() { MoveTo(1, 2); }",
            "fn on_think() { let os = #{ time: 1 }; let t = os.time; }",
            "fn on_reload(state) { state }",
            "fn on_think() { try { throw 1; } catch (err) { print(err); } }",
            "fn on_think() { for (x, i) in [1, 2] { Say(`${x} ${i}`); } }",
            "fn on_think() { let r = MoveTo(\"(nested\", 2); }",
        ];
        for src in clean {
            assert_eq!(codes(src), [], "{src}");
        }
    }

    #[test]
    fn spans_are_exact() {
        assert_eq!(call_end("f(1, \")\", (2))", 1), Some(14));
        assert_eq!(call_end("f", 1), None);
        assert_eq!(fn_name_span("// fn on_x\nfn on_x() {}", "on_x"), Some(14..18));
        assert_eq!(fn_name_span("fn on_xy() {} fn on_x() {}", "on_x"), Some(17..21));
    }

    #[test]
    fn text_that_does_not_compile_finds_nothing() {
        assert_eq!(codes("fn ("), []);
        assert_eq!(codes(""), []);
        assert_eq!(codes(&"(".repeat(10_000)), []);
    }
}
