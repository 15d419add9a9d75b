//! The Lua linter behind `tactica check`: the file is parsed with `full_moon` (a Lua 5.4 parser),
//! never run, and its syntax tree walked with the script's own names in scope. It reports calls to
//! functions no one defines (E0011, with the closest API name), API calls with an argument count
//! no overload takes (E0013), global functions named like a handler no event has (E0074), reads
//! of globals the sandbox removed (E0075) and reads of globals nothing defines (E0079: a place
//! written bare, `MoveTo(kWell)`, as `.tac` writes it; in Lua it is nil).
//!
//! Names the script defines are never findings: locals (with Lua's scoping: a `local` is seen
//! from the statement after it, a `local function` from its own body on, parameters and loop
//! variables in their block) and every global the file assigns or declares anywhere (a global
//! function may be defined below its first use, or inside another function).

use std::collections::BTreeSet;
use std::ops::Range;

use full_moon::ast::{
    Block, Call, Expression, Field, FunctionArgs, FunctionBody, Index, LastStmt, Parameter, Prefix, Stmt, Suffix,
    TableConstructor, Var,
};
use full_moon::node::Node;
use full_moon::tokenizer::{TokenReference, TokenType};
use full_moon::visitors::Visitor;
use tactica_stdlib::lint::{self, ArgCount};
use tactica_stdlib::{Api, ScriptSignals};
use tactica_syntax::diagnostics::Diagnostic;

/// The globals of a script's state besides the API: the base library the sandbox keeps, the
/// library tables, and `state`.
const LUA_GLOBALS: &[&str] = &[
    "assert",
    "error",
    "getmetatable",
    "ipairs",
    "next",
    "pairs",
    "pcall",
    "print",
    "rawequal",
    "rawget",
    "rawlen",
    "rawset",
    "select",
    "setmetatable",
    "tonumber",
    "tostring",
    "type",
    "warn",
    "xpcall",
    "_G",
    "_VERSION",
    "coroutine",
    "math",
    "string",
    "table",
    "utf8",
    "state",
];

/// What the sandbox takes away (`sandbox.rs`: the libraries it never opens and the base
/// functions it removes), with what each was for.
const REMOVED: &[(&str, &str)] = &[
    ("os", "the OS library"),
    ("io", "the file library"),
    ("package", "the module library"),
    ("debug", "the debug library"),
    ("require", "module loading"),
    ("dofile", "file loading"),
    ("loadfile", "file loading"),
    ("load", "code loading"),
    ("loadstring", "code loading"),
    ("collectgarbage", "the collector"),
];

/// Deeper bracket nesting than Lua itself accepts (its parser stops at 200 levels): such text is
/// not linted, so no parser recursion can exhaust the stack.
const MAX_NESTING: usize = 200;

/// Whether `full_moon` may read `source`: text Lua's own parser accepts, nested no deeper than
/// Lua allows.
///
/// full_moon is written for valid Lua and has inputs Lua rejects on which it panics (a bare
/// backtick reaches an `unreachable!` in its string lexer; `.tac` text in a `.lua` buffer has
/// them). Rather than hunt those one at a time, it reads only what Lua compiles: syntax errors
/// are `compile`'s findings anyway, and Lua's parser is the one that decides what a file is.
/// Compiling without running costs one parse in a state with no libraries.
fn admitted(source: &str) -> bool {
    if nesting(source) > MAX_NESTING {
        return false;
    }
    let lua = mlua::Lua::new_with(mlua::StdLib::NONE, mlua::LuaOptions::default());
    lua.is_ok_and(|lua| lua.load(source).set_mode(mlua::chunk::ChunkMode::Text).into_function().is_ok())
}

/// The findings in `source` (empty when it does not compile: syntax errors are `compile`'s).
pub(crate) fn lint(api: &Api, source: &str) -> Vec<Diagnostic> {
    if !admitted(source) {
        return Vec::new();
    }
    // The parser and the walk recurse once per nesting level: a thread with a stack of its own
    // keeps that off whatever stack the caller runs on.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("tactica-lua-lint".to_owned())
            .stack_size(64 << 20)
            .spawn_scoped(s, || lint_here(api, source))
            .ok()
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    })
}

/// The squad signals `source` sends and waits for with `Signal` and `Wait` (see
/// [`ScriptSignals`]); nothing when it does not compile or nests too deep.
pub(crate) fn squad_signals(source: &str) -> ScriptSignals {
    if !admitted(source) {
        return ScriptSignals::default();
    }
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("tactica-lua-signals".to_owned())
            .stack_size(64 << 20)
            .spawn_scoped(s, || {
                let parsed = full_moon::parse_fallible(source, full_moon::LuaVersion::lua54());
                let mut calls = SignalCalls::default();
                if parsed.errors().is_empty() {
                    calls.visit_ast(parsed.ast());
                }
                calls.0
            })
            .ok()
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    })
}

/// Gathers the `Signal` and `Wait` calls of a file.
#[derive(Default)]
struct SignalCalls(ScriptSignals);

impl Visitor for SignalCalls {
    fn visit_function_call(&mut self, call: &full_moon::ast::FunctionCall) {
        let Prefix::Name(name) = call.prefix() else { return };
        let mut suffixes = call.suffixes();
        let (Some(Suffix::Call(Call::AnonymousCall(args))), None) = (suffixes.next(), suffixes.next()) else {
            return;
        };
        let FunctionArgs::Parentheses { arguments, .. } = &**args else { return };
        let literal = |e: &Expression| match e {
            Expression::String(t) => match t.token().token_type() {
                TokenType::StringLiteral { literal, .. } => Some(literal.to_string()),
                _ => None,
            },
            _ => None,
        };
        let args: Vec<Option<String>> = arguments.iter().map(literal).collect();
        self.0.note(&name_of(name), args.first().map(Option::as_deref), args.get(1).map(Option::as_deref));
    }
}

/// The deepest bracket nesting of `source`, counted over every `(`, `[` and `{`.
fn nesting(source: &str) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for b in source.bytes() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

fn lint_here(api: &Api, source: &str) -> Vec<Diagnostic> {
    let parsed = full_moon::parse_fallible(source, full_moon::LuaVersion::lua54());
    if !parsed.errors().is_empty() {
        return Vec::new();
    }
    let ast = parsed.ast();
    let mut globals = Walker::new(api, Pass::Collect);
    globals.block(ast.nodes());
    let mut w = Walker::new(api, Pass::Check);
    w.globals = globals.globals;
    w.dynamic_globals = globals.dynamic_globals;
    w.block(ast.nodes());
    w.diags.sort_by_key(|d| (d.span.start, d.code));
    w.diags
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Gathers the globals the file defines.
    Collect,
    /// Reports.
    Check,
}

struct Walker<'a> {
    api: &'a Api,
    pass: Pass,
    /// Globals the file assigns or declares anywhere.
    globals: BTreeSet<String>,
    /// The locals in scope, innermost block last.
    scopes: Vec<Vec<String>>,
    /// Whether the file reaches its globals by computed names (`_G[k] = v`, `rawset(_G, …)`,
    /// `_ENV`): then no read of a global can be said to be undefined.
    dynamic_globals: bool,
    diags: Vec<Diagnostic>,
}

fn name_of(t: &TokenReference) -> String {
    t.token().to_string()
}

fn span_of(t: &TokenReference) -> Range<usize> {
    t.token().start_position().bytes()..t.token().end_position().bytes()
}

impl<'a> Walker<'a> {
    fn new(api: &'a Api, pass: Pass) -> Self {
        Walker { api, pass, globals: BTreeSet::new(), scopes: Vec::new(), dynamic_globals: false, diags: Vec::new() }
    }

    fn is_local(&self, name: &str) -> bool {
        self.scopes.iter().rev().any(|s| s.iter().any(|n| n == name))
    }

    fn defined(&self, name: &str) -> bool {
        self.is_local(name) || self.globals.contains(name)
    }

    fn declare(&mut self, name: String) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(name);
        }
    }

    fn report(&mut self, d: Option<Diagnostic>) {
        if self.pass == Pass::Check
            && let Some(d) = d
        {
            self.diags.push(d);
        }
    }

    fn block(&mut self, b: &Block) {
        self.scopes.push(Vec::new());
        self.block_inner(b);
        self.scopes.pop();
    }

    /// A block's statements in the scope already open (`repeat … until` reads the block's locals
    /// in its condition).
    fn block_inner(&mut self, b: &Block) {
        for s in b.stmts() {
            self.stmt(s);
        }
        if let Some(LastStmt::Return(r)) = b.last_stmt() {
            for e in r.returns().iter() {
                self.expr(e);
            }
        }
    }

    /// A global the file defines here: gathered in the first pass; in the second, checked for a
    /// handler-like name.
    fn define_global(&mut self, name: &TokenReference, is_function: bool) {
        let text = name_of(name);
        if self.is_local(&text) {
            return;
        }
        match self.pass {
            Pass::Collect => {
                self.globals.insert(text);
            }
            Pass::Check if is_function => {
                let d = lint::unknown_handler(&text, span_of(name));
                self.report(d);
            }
            Pass::Check => {}
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Assignment(a) => {
                for e in a.expressions().iter() {
                    self.expr(e);
                }
                let values: Vec<&Expression> = a.expressions().iter().collect();
                for (i, v) in a.variables().iter().enumerate() {
                    match v {
                        Var::Name(n) => {
                            let is_function = matches!(values.get(i), Some(Expression::Function(_)));
                            self.define_global(n, is_function);
                        }
                        // `_G.name = …` defines a global too.
                        Var::Expression(ve) if matches!(ve.prefix(), Prefix::Name(g) if name_of(g) == "_G") => {
                            let mut suffixes = ve.suffixes();
                            match (suffixes.next(), suffixes.next()) {
                                (Some(Suffix::Index(Index::Dot { name, .. })), None) => {
                                    let is_function = matches!(values.get(i), Some(Expression::Function(_)));
                                    self.define_global(name, is_function);
                                }
                                _ => self.var(v),
                            }
                        }
                        other => self.var(other),
                    }
                }
            }
            Stmt::Do(d) => self.block(d.block()),
            Stmt::FunctionCall(c) => self.suffixed(c.prefix(), c.suffixes()),
            Stmt::FunctionDeclaration(f) => {
                let names: Vec<&TokenReference> = f.name().names().iter().collect();
                let method = f.name().method_name().is_some();
                match names.as_slice() {
                    [one] if !method => self.define_global(one, true),
                    [first, ..] => self.read(first),
                    [] => {}
                }
                self.function(f.body(), method);
            }
            Stmt::GenericFor(g) => {
                for e in g.expressions().iter() {
                    self.expr(e);
                }
                self.scopes.push(g.names().iter().map(name_of).collect());
                self.block(g.block());
                self.scopes.pop();
            }
            Stmt::If(i) => {
                self.expr(i.condition());
                self.block(i.block());
                for e in i.else_if().into_iter().flatten() {
                    self.expr(e.condition());
                    self.block(e.block());
                }
                if let Some(b) = i.else_block() {
                    self.block(b);
                }
            }
            Stmt::LocalAssignment(l) => {
                for e in l.expressions().iter() {
                    self.expr(e);
                }
                for n in l.names().iter() {
                    self.note_global_table(n, None);
                    self.declare(name_of(n));
                }
            }
            Stmt::LocalFunction(l) => {
                self.declare(name_of(l.name()));
                self.function(l.body(), false);
            }
            Stmt::NumericFor(n) => {
                self.expr(n.start());
                self.expr(n.end());
                if let Some(step) = n.step() {
                    self.expr(step);
                }
                self.scopes.push(vec![name_of(n.index_variable())]);
                self.block(n.block());
                self.scopes.pop();
            }
            Stmt::Repeat(r) => {
                self.scopes.push(Vec::new());
                self.block_inner(r.block());
                self.expr(r.until());
                self.scopes.pop();
            }
            Stmt::While(w) => {
                self.expr(w.condition());
                self.block(w.block());
            }
            _ => {}
        }
    }

    fn function(&mut self, body: &FunctionBody, method: bool) {
        let mut params: Vec<String> = body
            .parameters()
            .iter()
            .filter_map(|p| match p {
                Parameter::Name(n) => Some(name_of(n)),
                _ => None,
            })
            .collect();
        if method {
            params.push("self".to_owned());
        }
        self.scopes.push(params);
        self.block(body.block());
        self.scopes.pop();
    }

    fn expr(&mut self, e: &Expression) {
        match e {
            Expression::BinaryOperator { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            Expression::Parentheses { expression, .. } | Expression::UnaryOperator { expression, .. } => {
                self.expr(expression);
            }
            Expression::Function(f) => self.function(f.body(), false),
            Expression::FunctionCall(c) => self.suffixed(c.prefix(), c.suffixes()),
            Expression::TableConstructor(t) => self.table(t),
            Expression::Var(v) => self.var(v),
            _ => {}
        }
    }

    fn table(&mut self, t: &TableConstructor) {
        for f in t.fields().iter() {
            match f {
                Field::ExpressionKey { key, value, .. } => {
                    self.expr(key);
                    self.expr(value);
                }
                Field::NameKey { value, .. } => self.expr(value),
                Field::NoKey(v) => self.expr(v),
                _ => {}
            }
        }
    }

    fn var(&mut self, v: &Var) {
        match v {
            Var::Name(n) => {
                self.note_global_table(n, None);
                self.read(n);
            }
            Var::Expression(ve) => self.suffixed(ve.prefix(), ve.suffixes()),
            _ => {}
        }
    }

    /// A read of a global or local by name.
    fn read(&mut self, name: &TokenReference) {
        let text = name_of(name);
        if self.defined(&text) {
            return;
        }
        if let Some((_, what)) = REMOVED.iter().find(|(n, _)| *n == text) {
            let d = lint::removed_global(&text, what, span_of(name));
            self.report(Some(d));
            return;
        }
        self.undefined_global(&text, name);
    }

    /// E0079 for a read of a global that neither the file, Lua's library nor the API defines
    /// (an API function read as a value, `local say = Say`, is defined).
    fn undefined_global(&mut self, text: &str, name: &TokenReference) {
        if self.pass == Pass::Collect
            || self.dynamic_globals
            || LUA_GLOBALS.contains(&text)
            || !lint::overloads(self.api, text).is_empty()
        {
            return;
        }
        let d = lint::undefined_global(self.api, text, "Lua", span_of(name));
        self.report(Some(d));
    }

    /// Notes a file that reaches its globals by computed names: `_G` used other than as
    /// `_G.name` (`_G[k]`, `rawset(_G, …)`, `setmetatable(_G, …)`), or `_ENV` at all.
    fn note_global_table(&mut self, name: &TokenReference, first: Option<&Suffix>) {
        let text = name_of(name);
        let by_name = matches!(first, Some(Suffix::Index(Index::Dot { .. })));
        if (text == "_G" && !by_name) || text == "_ENV" {
            self.dynamic_globals = true;
        }
    }

    /// `prefix` followed by indexing and calls: `Say("hi")`, `os.time()`, `t:insert(x)`,
    /// `f()()`.
    fn suffixed<'s>(&mut self, prefix: &Prefix, suffixes: impl Iterator<Item = &'s Suffix>) {
        let suffixes: Vec<&Suffix> = suffixes.collect();
        match (prefix, suffixes.first()) {
            (Prefix::Name(n), Some(Suffix::Call(Call::AnonymousCall(args)))) => self.call(n, args),
            (Prefix::Name(n), first) => {
                self.note_global_table(n, first.copied());
                self.read(n);
                let dumped = matches!(first, Some(Suffix::Index(Index::Dot { name, .. })) if name_of(name) == "dump");
                if dumped && name_of(n) == "string" && !self.defined("string") {
                    let span = n.token().start_position().bytes()
                        ..first.and_then(|s| s.end_position()).map_or(span_of(n).end, |p| p.bytes());
                    self.report(Some(lint::removed_global("string.dump", "bytecode access", span)));
                }
            }
            (Prefix::Expression(e), _) => self.expr(e),
            _ => {}
        }
        for s in suffixes {
            match s {
                Suffix::Call(Call::AnonymousCall(args)) => self.args(args),
                Suffix::Call(Call::MethodCall(m)) => self.args(m.args()),
                Suffix::Index(Index::Brackets { expression, .. }) => self.expr(expression),
                _ => {}
            }
        }
    }

    fn args(&mut self, args: &FunctionArgs) {
        match args {
            FunctionArgs::Parentheses { arguments, .. } => {
                for a in arguments.iter() {
                    self.expr(a);
                }
            }
            FunctionArgs::TableConstructor(t) => self.table(t),
            _ => {}
        }
    }

    /// A call of a plain name: `name(args)`, `name "text"`, `name { … }` (the arguments are walked
    /// with the other suffixes).
    fn call(&mut self, name: &TokenReference, args: &FunctionArgs) {
        let text = name_of(name);
        if self.pass == Pass::Collect || self.defined(&text) {
            return;
        }
        if let Some((_, what)) = REMOVED.iter().find(|(n, _)| *n == text) {
            let d = lint::removed_global(&text, what, span_of(name));
            self.report(Some(d));
            return;
        }
        let overloads = lint::overloads(self.api, &text);
        if !overloads.is_empty() {
            let start = span_of(name).start;
            let end = args.end_position().map_or(span_of(name).end, |p| p.bytes());
            let d = lint::check_arity(&overloads, arg_count(args), start..end);
            if d.is_none() {
                self.name_literals(&overloads, args);
            }
            self.report(d);
            return;
        }
        if LUA_GLOBALS.contains(&text.as_str()) || self.api.global(&text).is_some() {
            return;
        }
        let d = lint::unknown_function(self.api, &text, span_of(name));
        self.report(Some(d));
    }
}

impl Walker<'_> {
    /// E0010 for each string literal of an API call that names a place the scenario lacks.
    fn name_literals(&mut self, overloads: &[&tactica_stdlib::HostFn], args: &FunctionArgs) {
        let FunctionArgs::Parentheses { arguments, .. } = args else { return };
        let argc = arguments.len();
        for (index, a) in arguments.iter().enumerate() {
            let Expression::String(token) = a else { continue };
            let TokenType::StringLiteral { literal, .. } = token.token().token_type() else { continue };
            let d = lint::unknown_place_literal(self.api, overloads, argc, index, literal, span_of(token));
            self.report(d);
        }
    }
}

/// How many values a call passes: a last argument that is a call or `...` may give any number.
fn arg_count(args: &FunctionArgs) -> ArgCount {
    match args {
        FunctionArgs::Parentheses { arguments, .. } => {
            let n = arguments.len();
            let open = match arguments.last().map(|p| p.value()) {
                Some(Expression::FunctionCall(_)) => true,
                Some(Expression::Symbol(t)) => name_of(t) == "...",
                _ => false,
            };
            if open { ArgCount::AtLeast(n - 1) } else { ArgCount::Exactly(n) }
        }
        _ => ArgCount::Exactly(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactica_syntax::diagnostics::Code;

    fn codes(src: &str) -> Vec<(Code, String)> {
        lint(&Api::standard(), src).into_iter().map(|d| (d.code, src[d.span.clone()].to_owned())).collect()
    }

    #[test]
    fn the_four_mistakes() {
        assert_eq!(codes("function on_think() Sya('hi') end"), [(Code::UnknownFunction, "Sya".to_owned())]);
        assert_eq!(
            codes("function on_think() MoveTo(1, 2, 3) end"),
            [(Code::WrongArity, "MoveTo(1, 2, 3)".to_owned())]
        );
        assert_eq!(codes("function on_thinck() Say('hi') end"), [(Code::UnknownHandler, "on_thinck".to_owned())]);
        assert_eq!(codes("function on_think() local t = os.time() end"), [(Code::RemovedGlobal, "os".to_owned())]);
        assert_eq!(codes("function on_think() io.write('x') end"), [(Code::RemovedGlobal, "io".to_owned())]);
        assert_eq!(codes("local f = require('x')"), [(Code::RemovedGlobal, "require".to_owned())]);
        assert_eq!(codes("local d = string.dump"), [(Code::RemovedGlobal, "string.dump".to_owned())]);
        assert_eq!(codes("on_tock = function() end"), [(Code::UnknownHandler, "on_tock".to_owned())]);
        assert_eq!(codes("_G.on_tock = function() end"), [(Code::UnknownHandler, "on_tock".to_owned())]);
        assert_eq!(codes("function on_think() move_to(1, 2, 3) end")[0].0, Code::WrongArity);
    }

    #[test]
    fn what_the_script_defines_is_never_a_finding() {
        let clean = [
            "local function on_thinck() end",
            "local function helper(a) return a end function on_think() helper(1) end",
            "function on_think() later() end function later() end",
            "function on_think() local Say = function(a, b, c) end Say(1, 2, 3) end",
            "function on_think(MoveTo) MoveTo(1, 2, 3) end",
            "local t = {} table.insert(t, 1) t:insert(2) local s = ('x'):upper() local u = s:lower()",
            "local os = { time = function() return 1 end } local x = os.time()",
            "for _, io in ipairs({}) do io.write() end",
            "function on_think() print('hi', 1) Say(tostring(#state)) end",
            "local function f(...) MoveTo(...) end",
            "function on_think() MoveTo(Where()) end function Where() return 1, 2 end",
            "M = {} function M.on_whatever() end function M:on_thing() self.x = 1 end",
            "local x <const> = 1 local y = x // 2 goto done ::done::",
            "repeat local done = true until done",
            "function on_hear(text) if Ask('name') then Say(text) end end function sequence() end",
            "_G.helper = function() end function on_think() helper() end",
        ];
        for src in clean {
            assert_eq!(codes(src), [], "{src}");
        }
    }

    #[test]
    fn a_global_nothing_defines_is_a_warning_that_names_are_strings() {
        assert_eq!(codes("function on_think() MoveTo(kWell) end"), [(Code::UndefinedGlobal, "kWell".to_owned())]);
        assert_eq!(codes("local x = kWell.x"), [(Code::UndefinedGlobal, "kWell".to_owned())]);
        assert_eq!(codes("if GameTime == kNight then end").len(), 2);
        let mut api = Api::standard();
        api.declare_symbol("kWell", "place");
        let d = lint(&api, "function on_think()\n  MoveTo(kWell)\nend\n");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].level(), tactica_syntax::diagnostics::Level::Warning);
        assert_eq!(
            d[0].hint.as_deref(),
            Some("`kWell` is a place the scenario or the API names; in Lua names are strings: write `\"kWell\"`")
        );
        // Defined somewhere, read as a function value, Lua's own, or reached by computed names.
        let clean = [
            "function on_think() MoveTo(home) end home = 'kWell'",
            "local say = Say say('hi')",
            "local n = math.max(1, 2) + #string.rep('x', 2)",
            "_G['home'] = 'kWell' function on_think() MoveTo(home) end",
            "rawset(_G, 'home', 'kWell') function on_think() MoveTo(home) end",
            "setmetatable(_G, { __index = function() return 'kWell' end }) MoveTo(home)",
            "local _ENV = { MoveTo = MoveTo, home = 'kWell' } MoveTo(home)",
            "function on_think() state.n = (state.n or 0) + 1 end",
        ];
        for src in clean {
            assert_eq!(codes(src), [], "{src}");
        }
    }

    #[test]
    fn a_local_is_seen_only_where_it_is_in_scope() {
        assert_eq!(codes("do local Sya = print end Sya('x')")[0].0, Code::UnknownFunction);
        assert_eq!(codes("local x = Sya(1) local function Sya() end").len(), 1);
    }

    #[test]
    fn text_that_does_not_parse_finds_nothing() {
        assert_eq!(codes("function ("), []);
        assert_eq!(codes(&"(".repeat(100_000)), []);
        assert_eq!(codes(""), []);
        // A bare backtick panics full_moon's lexer (the fuzzer found it in a `.tac` file read as
        // Lua); Lua rejects the text, so full_moon never sees it.
        for src in ["`", "x = `a`", "kind events;\non enter kPlate { Trigger(kPoisonTrap); }\n// `kPlate`"] {
            assert!(!admitted(src), "{src}");
            assert_eq!(codes(src), [], "{src}");
        }
        assert!(admitted("local s = '`' -- `"));
    }

    /// The shipped scripts of every language, the texts a mod's files start from.
    fn shipped() -> Vec<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        let mut texts = Vec::new();
        for dir in ["modding", "cover", "guide/scripts"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if matches!(path.extension().and_then(|e| e.to_str()), Some("lua" | "rhai" | "tac")) {
                    texts.push(std::fs::read_to_string(path).unwrap());
                }
            }
        }
        assert!(texts.len() >= 8, "the examples' scripts were not found");
        texts
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// The class of the fuzzer's find: whatever text a buffer holds (a shipped script of any
        /// language with characters put in, taken out or swapped), what the linter lets full_moon
        /// read does not panic it. `lint_here` runs on the test's own thread, where a panic fails
        /// the case (inside `lint` the thread would swallow it).
        #[test]
        fn full_moon_never_panics_on_what_it_is_given(
            pick in 0usize..64,
            edits in proptest::collection::vec((0.0f64..1.0, 0usize..3, proptest::char::range(' ', '~')), 0..8),
        ) {
            let texts = shipped();
            let mut text: Vec<char> = texts[pick % texts.len()].chars().collect();
            for (at, kind, c) in edits {
                let i = ((at * text.len() as f64) as usize).min(text.len());
                match kind {
                    0 => text.insert(i, c),
                    1 if i < text.len() => { text.remove(i); }
                    _ if i < text.len() => text[i] = c,
                    _ => text.push(c),
                }
            }
            let text: String = text.into_iter().collect();
            if admitted(&text) {
                let _ = lint_here(&Api::standard(), &text);
            }
        }

        /// Arbitrary printable text, backticks and all.
        #[test]
        fn full_moon_never_panics_on_arbitrary_text(text in "[ -~\n]{0,200}") {
            if admitted(&text) {
                let _ = lint_here(&Api::standard(), &text);
            }
        }
    }
}
