//! Expressions and statements: type-checked and lowered to instructions in one walk.

use std::collections::BTreeMap;

use tactica_engine::Value;
use tactica_stdlib::{Type, suggest};

use super::Checker;
use super::names::Resolved;
use crate::ast::{BinOp, Expr, ExprKind, SignalScope, Stmt, StmtKind, UnOp};

/// The constant a `signal`/`wait` instruction carries: the id, or `[id, scope]` for a team or
/// world signal (the VM passes them to `Signal(id, scope)`).
fn signal_operand(scope: SignalScope, id: &crate::ast::Name) -> Value {
    match scope {
        SignalScope::Squad => Value::Str(id.text.clone()),
        _ => Value::List(vec![Value::Str(id.text.clone()), Value::Str(scope.word().to_owned())]),
    }
}
use crate::code::{Op, Read};
use crate::diagnostics::{Code, Diagnostic};

impl Checker<'_> {
    /// Lowers an expression, leaving its value on the stack; returns its static type.
    pub(super) fn expr(&mut self, e: &Expr) -> Type {
        let span = e.span.clone();
        if self.diags.full() {
            // The script is refused already; nothing more is looked at (see `Findings`).
            self.diags.stop(&span);
            return Type::Any;
        }
        match &e.kind {
            ExprKind::Int(n) => self.push_const(Value::Int(*n), &span, Type::Int),
            ExprKind::Float(x) => self.push_const(Value::Float(*x), &span, Type::Number),
            ExprKind::Str(s) => self.push_const(Value::Str(s.clone()), &span, Type::Str),
            ExprKind::Bool(b) => self.push_const(Value::Bool(*b), &span, Type::Bool),
            ExprKind::Error => {
                self.emit(Op::Nil, &span);
                Type::Any
            }
            ExprKind::Name(name) => match self.names.resolve(&name.text) {
                Some((resolved, ty)) => {
                    match resolved {
                        Resolved::Local(slot) => self.emit(Op::LoadLocal(slot), &span),
                        Resolved::Fact(id) => {
                            self.note_read(Read::Fact(id));
                            self.emit(Op::LoadFact(id), &span);
                        }
                        Resolved::Global(g) => {
                            self.note_read(Read::Global(g));
                            self.emit(Op::LoadGlobal(g), &span);
                        }
                        Resolved::Symbol(s) => {
                            let value = self.api.symbol(&s).map_or(Value::Str(s), tactica_stdlib::Symbol::value);
                            self.push_const(value, &span, Type::Any);
                        }
                    }
                    ty
                }
                None => {
                    let hint = suggest(&name.text, self.names.readable());
                    let mut d = Diagnostic::new(
                        Code::UnknownName,
                        span.clone(),
                        format!("unknown name `{}`", name.text),
                        "not a global, value, fact or local",
                    )
                    .suggest(hint);
                    if hint.is_none() && self.api.functions(&name.text).next().is_some() {
                        d = d.with_hint(format!("`{}` is a function: call it with `{}(…)`", name.text, name.text));
                    }
                    self.diags.push(d);
                    self.emit(Op::Nil, &span);
                    Type::Any
                }
            },
            ExprKind::Call { name, args } => self.call(name, args, &span),
            ExprKind::Unary { op, expr } => {
                let ty = self.expr(expr);
                match op {
                    UnOp::Not => {
                        self.require_value(&ty, &expr.span, "`not`");
                        self.emit(Op::Not, &span);
                        Type::Bool
                    }
                    UnOp::Neg => {
                        self.require_number(&ty, &expr.span, "`-`");
                        self.emit(Op::Neg, &span);
                        ty
                    }
                }
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, &span),
            ExprKind::Prove { fact, value } => {
                let vt = self.expr(value);
                match self.names.fact(&fact.text) {
                    Some(id) => {
                        let ft = self.names.facts[id as usize].ty.clone();
                        if !ft.comparable(&vt) {
                            self.mismatch(&ft, &vt, &fact.span, &value.span);
                        }
                        self.emit(Op::Prove(id), &span);
                    }
                    None => {
                        let hint = suggest(&fact.text, self.names.facts.iter().map(|f| f.name.as_str()));
                        self.diags.push(
                            Diagnostic::new(
                                Code::UnknownFact,
                                fact.span.clone(),
                                format!("`prove` needs a fact, and `{}` is none", fact.text),
                                "not a fact of this file's rule systems",
                            )
                            .suggest(hint),
                        );
                        self.emit(Op::Pop, &span);
                        self.emit(Op::Nil, &span);
                    }
                }
                Type::Bool
            }
        }
    }

    fn call(&mut self, name: &crate::ast::Name, args: &[Expr], span: &crate::lexer::Span) -> Type {
        let arg_types: Vec<Type> = args.iter().map(|a| self.expr(a)).collect();
        let overloads: Vec<usize> = self.api.function_indices(&name.text).to_vec();
        if overloads.is_empty() {
            let hint = suggest(&name.text, self.api.function_names());
            self.diags.push(
                Diagnostic::new(
                    Code::UnknownFunction,
                    name.span.clone(),
                    format!("unknown function `{}`", name.text),
                    "no host function has this name",
                )
                .suggest(hint),
            );
            for _ in args {
                self.emit(Op::Pop, span);
            }
            self.emit(Op::Nil, span);
            return Type::Any;
        }
        let chosen =
            overloads.iter().copied().find(|&i| self.api.function(i).is_some_and(|f| f.params.len() == args.len()));
        let Some(index) = chosen else {
            let sigs: Vec<String> = overloads
                .iter()
                .filter_map(|&i| self.api.function(i))
                .map(|f| format!("`{}`", f.signature()))
                .collect();
            let canonical = self.api.function(overloads[0]).map_or("?", |f| f.name);
            let expected: Vec<String> =
                overloads.iter().filter_map(|&i| self.api.function(i)).map(|f| f.params.len().to_string()).collect();
            self.diags.push(
                Diagnostic::new(
                    Code::WrongArity,
                    span.clone(),
                    format!(
                        "`{canonical}` takes {} argument{}, but {} {} given",
                        expected.join(" or "),
                        if expected.len() == 1 && expected[0] == "1" { "" } else { "s" },
                        args.len(),
                        if args.len() == 1 { "was" } else { "were" }
                    ),
                    format!("called with {} argument{}", args.len(), if args.len() == 1 { "" } else { "s" }),
                )
                .with_hint(format!("the signature is {}", sigs.join(" or "))),
            );
            for _ in args {
                self.emit(Op::Pop, span);
            }
            self.emit(Op::Nil, span);
            return Type::Any;
        };
        let Some(f) = self.api.function(index) else { return Type::Any };
        for ((arg, ty), param) in args.iter().zip(&arg_types).zip(&f.params) {
            if *ty == Type::Nil {
                self.no_value(&arg.span);
            } else if !param.ty.accepts(ty) {
                self.diags.push(
                    Diagnostic::new(
                        Code::ArgumentType,
                        arg.span.clone(),
                        format!(
                            "argument `{}` of `{}` must be {}, not {}",
                            param.name,
                            f.name,
                            param.ty.article(),
                            ty.article()
                        ),
                        format!("this is {}", ty.article()),
                    )
                    .with_hint(format!("the signature is `{}`", f.signature())),
                );
            }
        }
        let ret = f.ret.clone();
        let mut argc = args.len();
        if super::print::is_print(f) {
            // `Print` gets its place as two more arguments (check/print.rs).
            let line = crate::diagnostics::line_col(self.src, span.start).0;
            let file = Value::Str(self.file_name.clone());
            self.push_const(file, span, Type::Str);
            self.push_const(Value::Int(i64::from(line)), span, Type::Int);
            argc += 2;
        }
        self.emit(
            Op::Call { f: u32::try_from(index).unwrap_or(u32::MAX), argc: u8::try_from(argc).unwrap_or(u8::MAX) },
            span,
        );
        ret
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, span: &crate::lexer::Span) -> Type {
        match op {
            BinOp::And | BinOp::Or => {
                let lt = self.expr(lhs);
                self.require_value(&lt, &lhs.span, op.symbol());
                let jump = self.emit_jump(Op::JumpIfFalse(0), span);
                if op == BinOp::And {
                    let rt = self.expr(rhs);
                    self.require_value(&rt, &rhs.span, op.symbol());
                    self.emit(Op::ToBool, span);
                    let end = self.emit_jump(Op::Jump(0), span);
                    self.patch(jump);
                    self.push_const(Value::Bool(false), span, Type::Bool);
                    self.patch(end);
                } else {
                    self.push_const(Value::Bool(true), span, Type::Bool);
                    let end = self.emit_jump(Op::Jump(0), span);
                    self.patch(jump);
                    let rt = self.expr(rhs);
                    self.require_value(&rt, &rhs.span, op.symbol());
                    self.emit(Op::ToBool, span);
                    self.patch(end);
                }
                Type::Bool
            }
            _ => {
                let lt = self.expr(lhs);
                let rt = self.expr(rhs);
                self.emit(Op::Binary(op), span);
                match op {
                    BinOp::Eq | BinOp::Ne => {
                        if lt == Type::Nil || rt == Type::Nil {
                            self.no_value(if lt == Type::Nil { &lhs.span } else { &rhs.span });
                        } else if !lt.comparable(&rt) {
                            self.mismatch(&lt, &rt, &lhs.span, &rhs.span);
                        }
                        Type::Bool
                    }
                    BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        self.require_number(&lt, &lhs.span, op.symbol());
                        self.require_number(&rt, &rhs.span, op.symbol());
                        Type::Bool
                    }
                    BinOp::Add if is_text(&lt) || is_text(&rt) => {
                        // Building a line: `"You owe " + Gold`. The other side needs a plain form.
                        for (ty, side) in [(&lt, lhs), (&rt, rhs)] {
                            if *ty == Type::Nil {
                                self.no_value(&side.span);
                            }
                        }
                        Type::Str
                    }
                    _ => {
                        self.require_number(&lt, &lhs.span, op.symbol());
                        self.require_number(&rt, &rhs.span, op.symbol());
                        if matches!(op, BinOp::Div | BinOp::Rem) && matches!(rhs.kind, ExprKind::Int(0)) {
                            self.diags.push(Diagnostic::new(
                                Code::DivisionByZero,
                                rhs.span.clone(),
                                "division by zero",
                                "this is always 0",
                            ));
                        }
                        if lt == Type::Int && rt == Type::Int && op != BinOp::Div { Type::Int } else { Type::Number }
                    }
                }
            }
        }
    }

    fn require_value(&mut self, ty: &Type, span: &crate::lexer::Span, _what: &str) {
        if *ty == Type::Nil {
            self.no_value(span);
        }
    }

    fn no_value(&mut self, span: &crate::lexer::Span) {
        self.diags.push(
            Diagnostic::new(Code::NoValue, span.clone(), "an action has no value", "this returns nothing")
                .with_hint("call actions as statements: `DoFlee();`"),
        );
    }

    fn require_number(&mut self, ty: &Type, span: &crate::lexer::Span, what: &str) {
        if *ty == Type::Nil {
            self.no_value(span);
        } else if !ty.is_numeric() {
            self.diags.push(Diagnostic::new(
                Code::NotANumber,
                span.clone(),
                format!("{what} needs numbers, not {}", ty.article()),
                format!("this is {}", ty.article()),
            ));
        }
    }

    fn mismatch(&mut self, lt: &Type, rt: &Type, ls: &crate::lexer::Span, rs: &crate::lexer::Span) {
        self.diags.push(
            Diagnostic::new(
                Code::CompareMismatch,
                rs.clone(),
                format!("{} is never equal to {}", lt.article(), rt.article()),
                format!("this is {}", rt.article()),
            )
            .with_note(ls.clone(), format!("this is {}", lt.article())),
        );
    }

    /// Lowers a list of statements in its own scope (a block, a branch, a body).
    pub(super) fn body(&mut self, stmts: &[Stmt]) {
        self.body_with(stmts, false);
    }

    /// A sequence role's body: as [`Checker::body`], with a [`Op::Suspend`] before each top-level
    /// `if`, so its condition is read when the role gets there.
    pub(super) fn role_body(&mut self, stmts: &[Stmt]) {
        self.body_with(stmts, true);
    }

    fn body_with(&mut self, stmts: &[Stmt], role: bool) {
        self.names.push_scope();
        self.assigned.push(BTreeMap::new());
        for s in stmts {
            if role && matches!(s.kind, StmtKind::If { .. }) {
                self.emit(Op::Suspend, &s.span);
            }
            self.stmt(s, false);
        }
        self.assigned.pop();
        self.names.pop_scope();
    }

    /// Lowers a statement. `edge` gives a top-level `if` an edge detector (events scripts).
    pub(super) fn stmt(&mut self, s: &Stmt, edge: bool) {
        let span = s.span.clone();
        if self.diags.full() {
            self.diags.stop(&span);
            return;
        }
        match &s.kind {
            StmtKind::Error => {}
            StmtKind::Expr(e) => {
                let ty = self.expr(e);
                match &e.kind {
                    ExprKind::Call { name, .. } if ty == Type::Nil || ty == Type::Any => {
                        let _ = name;
                    }
                    ExprKind::Call { name, .. } => self.diags.push(
                        Diagnostic::new(
                            Code::UselessStatement,
                            e.span.clone(),
                            format!("the {ty} that `{}` returns is thrown away", name.text),
                            "this value is not used",
                        )
                        .with_hint(format!("use it in a condition: `if ({}) …`", name.text)),
                    ),
                    _ => self.diags.push(
                        Diagnostic::new(
                            Code::UselessStatement,
                            e.span.clone(),
                            "this statement does nothing",
                            "a value, thrown away",
                        )
                        .with_hint("statements are actions (`Say(\"…\");`), assignments or `if`s"),
                    ),
                }
                self.emit(Op::Pop, &span);
            }
            StmtKind::Assign { target, value } => self.assign(target, value, &span),
            StmtKind::Let { name, value } => {
                let ty = self.expr(value);
                if ty == Type::Nil {
                    self.no_value(&value.span);
                }
                let slot = self.names.declare_local(&name.text, ty);
                self.emit(Op::StoreLocal(slot), &span);
            }
            StmtKind::If { cond, then, otherwise } => {
                let ty = self.expr(cond);
                self.require_value(&ty, &cond.span, "if");
                if edge {
                    let slot = self.n_edges;
                    self.n_edges += 1;
                    self.emit(Op::Edge(slot), &cond.span);
                }
                let jump = self.emit_jump(Op::JumpIfFalse(0), &span);
                self.body(then);
                if let Some(otherwise) = otherwise {
                    let end = self.emit_jump(Op::Jump(0), &span);
                    self.patch(jump);
                    self.body(otherwise);
                    self.patch(end);
                } else {
                    self.patch(jump);
                }
            }
            StmtKind::While { cond, body } => {
                let top = self.here();
                let ty = self.expr(cond);
                self.require_value(&ty, &cond.span, "while");
                let exit = self.emit_jump(Op::JumpIfFalse(0), &span);
                self.body(body);
                self.emit(Op::Jump(top), &span);
                self.patch(exit);
            }
            StmtKind::Repeat { count, body } => {
                let ty = self.expr(count);
                self.require_number(&ty, &count.span, "`repeat`");
                self.names.push_scope();
                let slot = self.names.declare_local(" repeat", Type::Int);
                self.emit(Op::StoreLocal(slot), &span);
                let top = self.here();
                self.emit(Op::LoadLocal(slot), &span);
                self.push_const(Value::Int(0), &span, Type::Int);
                self.emit(Op::Binary(BinOp::Gt), &span);
                let exit = self.emit_jump(Op::JumpIfFalse(0), &span);
                self.body(body);
                self.emit(Op::LoadLocal(slot), &span);
                self.push_const(Value::Int(1), &span, Type::Int);
                self.emit(Op::Binary(BinOp::Sub), &span);
                self.emit(Op::StoreLocal(slot), &span);
                self.emit(Op::Jump(top), &span);
                self.patch(exit);
                self.names.pop_scope();
            }
            StmtKind::SayOneOf(lines) => {
                if lines.is_empty() {
                    self.diags.push(Diagnostic::new(
                        Code::EmptyChoice,
                        span.clone(),
                        "nothing to choose from",
                        "an empty list",
                    ));
                }
                for line in lines {
                    let ty = self.expr(line);
                    if !Type::Str.accepts(&ty) {
                        self.diags.push(Diagnostic::new(
                            Code::ArgumentType,
                            line.span.clone(),
                            format!("`say one of` needs strings, not {}", ty.article()),
                            format!("this is {}", ty.article()),
                        ));
                    }
                }
                self.emit(Op::SayOneOf(u32::try_from(lines.len()).unwrap_or(u32::MAX)), &span);
            }
            StmtKind::Signal(scope, id) => {
                // Only the run's own signals pair up within the sequence (E0061/E0062); a team or
                // world signal may be meant for anyone.
                if *scope == SignalScope::Squad {
                    self.signals.push((id.text.to_ascii_lowercase(), id.span.clone(), id.text.clone()));
                }
                let c = self.konst(signal_operand(*scope, id));
                self.emit(Op::Signal(c), &span);
            }
            StmtKind::Return(e) => {
                if !self.in_leaf {
                    self.diags.push(
                        Diagnostic::new(
                            Code::ReturnOutsideLeaf,
                            span.clone(),
                            "`return` outside a leaf",
                            "nothing to return to",
                        )
                        .with_hint("`return` ends a `leaf NAME { … }` that a behaviour tree calls; handlers just end"),
                    );
                }
                let ty = self.expr(e);
                if ty == Type::Nil {
                    self.no_value(&e.span);
                }
                self.emit(Op::Return, &span);
            }
            StmtKind::Start(name) => {
                if !self.sequence_names.iter().any(|s| s.eq_ignore_ascii_case(&name.text)) {
                    self.diags.push(
                        Diagnostic::new(
                            Code::NoSuchSequence,
                            name.span.clone(),
                            format!("no sequence `{}` in this file", name.text),
                            "not a sequence",
                        )
                        .suggest(suggest(&name.text, self.sequence_names.iter().map(String::as_str))),
                    );
                }
                let c = self.konst(Value::Str(name.text.clone()));
                self.emit(Op::Start(c), &span);
            }
            StmtKind::Wait(scope, id) => {
                if *scope == SignalScope::Squad {
                    self.waits.push((id.text.to_ascii_lowercase(), id.span.clone(), id.text.clone()));
                }
                let c = self.konst(signal_operand(*scope, id));
                self.emit(Op::Wait(c), &span);
            }
        }
    }

    fn assign(&mut self, target: &crate::ast::Name, value: &Expr, span: &crate::lexer::Span) {
        let vt = self.expr(value);
        if vt == Type::Nil {
            self.no_value(&value.span);
        }
        if let Some((Resolved::Local(slot), _)) = self.names.resolve(&target.text) {
            self.emit(Op::StoreLocal(slot), span);
            return;
        }
        if let Some(id) = self.names.fact(&target.text) {
            if let Some(asserts) = self.asserts.as_mut()
                && let Some(v) = constant(self.api, value)
            {
                asserts.push((id, v));
            }
            self.emit(Op::StoreFact(id), span);
            return;
        }
        let Some(spec) = self.api.attribute(&target.text).cloned() else {
            if let Some((_, g)) = self.api.global(&target.text) {
                self.diags.push(
                    Diagnostic::new(
                        Code::ReadOnlyGlobal,
                        target.span.clone(),
                        format!("`{}` is set by the engine, not by scripts", g.name),
                        "engine globals are read-only",
                    )
                    .with_hint("scripts read globals in conditions; attribute scripts set attributes"),
                );
                self.emit(Op::Pop, span);
                return;
            }
            let candidates = self
                .api
                .all_attributes()
                .iter()
                .map(|a| a.name.as_str())
                .chain(self.names.facts.iter().map(|f| f.name.as_str()));
            let hint = suggest(&target.text, candidates);
            self.diags.push(
                Diagnostic::new(
                    Code::UnknownAttribute,
                    target.span.clone(),
                    format!("unknown attribute `{}`", target.text),
                    "not in the attribute schema",
                )
                .suggest(hint),
            );
            self.emit(Op::Pop, span);
            return;
        };
        if !spec.ty.accepts(&vt) && vt != Type::Nil {
            self.diags.push(Diagnostic::new(
                Code::AttributeType,
                value.span.clone(),
                format!("`{}` is {}, not {}", spec.name, spec.ty.article(), vt.article()),
                format!("this is {}", vt.article()),
            ));
        } else if let Some(n) = constant(self.api, value).and_then(|v| v.as_i64())
            && spec.ty == Type::Int
            && !spec.in_range(n)
        {
            self.diags.push(
                Diagnostic::new(
                    Code::AttributeRange,
                    value.span.clone(),
                    format!("`{}` must be in {}..={}, got {n}", spec.name, spec.min, spec.max),
                    "out of range",
                )
                .with_hint(format!("{}: {}", spec.name, spec.doc)),
            );
        }
        let key = spec.name.to_ascii_lowercase();
        if let Some(seen) = self.assigned.last_mut() {
            if let Some(first) = seen.get(&key).cloned() {
                self.diags.push(
                    Diagnostic::new(
                        Code::DuplicateAttribute,
                        target.span.clone(),
                        format!("`{}` is set twice", spec.name),
                        "set again here",
                    )
                    .with_note(first, "first set here"),
                );
            } else {
                seen.insert(key, target.span.clone());
            }
        }
        let c = self.konst(Value::Str(spec.name.clone()));
        self.emit(Op::SetAttribute(c), span);
    }
}

/// The value of a constant expression (a literal, a symbol, a negated number).
pub(super) fn constant(api: &tactica_stdlib::Api, e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Int(n) => Some(Value::Int(*n)),
        ExprKind::Float(x) => Some(Value::Float(*x)),
        ExprKind::Str(s) => Some(Value::Str(s.clone())),
        ExprKind::Bool(b) => Some(Value::Bool(*b)),
        ExprKind::Name(n) => api.symbol(&n.text).map(tactica_stdlib::Symbol::value),
        ExprKind::Unary { op: UnOp::Neg, expr } => match constant(api, expr)? {
            Value::Int(n) => n.checked_neg().map(Value::Int),
            Value::Float(x) => Some(Value::Float(-x)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a value of type `ty` is text: strings and named values (`Sword`, `kDock`).
fn is_text(ty: &Type) -> bool {
    matches!(ty, Type::Str | Type::Symbol(_))
}
