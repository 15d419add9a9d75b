//! The checker: resolves every name against the stdlib's [`Api`] and the file's own facts, states
//! and roles, checks types, arities and the attribute schema, and lowers what it checked to the
//! compiled [`Script`] in the same walk. A script with any error is refused; warnings pass.

mod findings;
mod lower;
mod names;
mod print;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use tactica_engine::Value;
use tactica_engine::decide::fsm::{SelfTransition, StateDef, StateMachine};
use tactica_stdlib::{Api, Type, suggest};

use crate::ScriptKind;
use crate::ast::{BinOp, Event, Expr, ExprKind, Item, ItemKind, Machine, PlaceRef, Program, Rules, Sequence};
use crate::code::*;
use crate::diagnostics::{Code, Diagnostic};
use crate::lexer::Span;
use findings::Findings;
use names::Names;

/// Parses, checks and compiles a file. Returns the script when there is no error, and every
/// diagnostic (errors and warnings) in source order.
pub fn check(file: &str, src: &str, api: &Api) -> (Option<Script>, Vec<Diagnostic>) {
    let (program, mut diags) = crate::parse(src);
    let Some(program) = program else { return (None, diags) };
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let (script, more) = check_within(file, src, &program, api, Findings::after(errors));
    diags.extend(more);
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    let ok = !diags.iter().any(Diagnostic::is_error);
    (script.filter(|_| ok), diags)
}

/// The API as a `.tac` script sees it: `api` plus `.tac`'s own `Print` (Lua and Rhai have their
/// own `print`, so the shared table does not carry it). Editors use it for hover and completion.
pub fn tac_api(api: &Api) -> Api {
    print::with_print(api)
}

/// Whether `f` is one of `.tac`'s own functions that [`tac_api`] adds (not the game's).
pub fn is_tac_builtin(f: &tactica_stdlib::HostFn) -> bool {
    print::is_print(f)
}

/// Checks and compiles a parsed program.
pub fn check_program(file: &str, src: &str, program: &Program, api: &Api) -> (Option<Script>, Vec<Diagnostic>) {
    check_within(file, src, program, api, Findings::after(0))
}

/// [`check_program`] listing findings into `diags`. The walk recurses once per level of the
/// tree, which the front end keeps within `MAX_NESTING`: it runs where the stack that takes is
/// left, on any thread and in any build.
fn check_within(
    file: &str,
    src: &str,
    program: &Program,
    api: &Api,
    diags: Findings,
) -> (Option<Script>, Vec<Diagnostic>) {
    tactica_syntax::limits::with_tree_stack(|| walk(file, src, program, api, diags))
}

fn walk(file: &str, src: &str, program: &Program, api: &Api, diags: Findings) -> (Option<Script>, Vec<Diagnostic>) {
    let api = &tac_api(api);
    let mut c = Checker {
        api,
        file_name: std::path::Path::new(file)
            .file_name()
            .map_or_else(|| file.to_owned(), |n| n.to_string_lossy().into_owned()),
        src,
        names: Names::new(api, program),
        diags,
        code: Vec::new(),
        spans: Vec::new(),
        consts: Vec::new(),
        const_index: HashMap::new(),
        n_edges: 0,
        n_once: 0,
        reads: None,
        asserts: None,
        assigned: Vec::new(),
        signals: Vec::new(),
        waits: Vec::new(),
        sequence_names: program
            .items
            .iter()
            .filter_map(|i| if let ItemKind::Sequence(s) = &i.kind { Some(s.name.text.clone()) } else { None })
            .collect(),
        in_leaf: false,
    };
    let mut script = Script {
        file: file.to_owned(),
        src: Arc::from(src),
        api: Arc::new(api.clone()),
        code: Vec::new(),
        spans: Vec::new(),
        consts: Vec::new(),
        n_locals: 0,
        n_edges: 0,
        n_once: 0,
        facts: Vec::new(),
        main: None,
        declared_kind: None,
        records: Vec::new(),
        handlers: Vec::new(),
        machines: Vec::new(),
        rules: Vec::new(),
        proofs: None,
        sequences: Vec::new(),
        leaves: Vec::new(),
        top_level_only: false,
    };
    // The top-level statements form one chunk, in order; each top-level `if` gets an edge
    // detector so an events script fires on the rising edge (DESIGN.md, "When scripts run").
    let top: Vec<&crate::ast::Stmt> =
        program.items.iter().filter_map(|i| if let ItemKind::Stmt(s) = &i.kind { Some(s) } else { None }).collect();
    if !top.is_empty() {
        let entry = c.chunk(|c| {
            c.assigned.push(BTreeMap::new());
            for s in &top {
                c.stmt(s, true);
            }
            c.assigned.pop();
        });
        script.main = Some(entry);
    }
    let mut creature_kinds: BTreeMap<String, Span> = BTreeMap::new();
    for item in &program.items {
        c.item(item, &mut script, &mut creature_kinds);
    }
    script.code = std::mem::take(&mut c.code);
    script.spans = std::mem::take(&mut c.spans);
    script.consts = std::mem::take(&mut c.consts);
    script.n_locals = c.names.max_locals;
    script.n_edges = c.n_edges;
    script.n_once = c.n_once;
    script.facts = c.names.facts.iter().map(|f| f.name.clone()).collect();
    script.proofs = crate::rules::proof_model(&script);
    if script.declared_kind.is_none() {
        c.warn_inferred_kind(&script);
    }
    script.top_level_only = script.records.is_empty()
        && script.handlers.is_empty()
        && script.machines.is_empty()
        && script.rules.is_empty()
        && script.sequences.is_empty();
    script.fuse();
    (Some(script), c.diags.finish())
}

/// The walk's state.
pub(crate) struct Checker<'a> {
    api: &'a Api,
    /// The file's name, for `Print`'s events.
    file_name: String,
    /// The source, for `Print`'s line.
    src: &'a str,
    names: Names<'a>,
    diags: Findings,
    code: Vec<Op>,
    spans: Vec<Span>,
    consts: Vec<Value>,
    /// Where each constant of `consts` with a [`ConstKey`] is.
    const_index: HashMap<ConstKey, u32>,
    n_edges: u32,
    n_once: u32,
    /// While lowering a rule's condition: what it reads.
    reads: Option<Vec<Read>>,
    /// While lowering a rule's then-part: its `fact = constant` assignments.
    asserts: Option<Vec<(u32, Value)>>,
    /// Attributes set in each open body (for "set twice").
    assigned: Vec<BTreeMap<String, Span>>,
    /// Signals and waits of the sequence being lowered: (lower-case id, span, as written).
    signals: Vec<(String, Span, String)>,
    waits: Vec<(String, Span, String)>,
    /// The file's sequence names (for `start`).
    sequence_names: Vec<String>,
    /// Whether a `leaf` is being lowered (where `return` belongs).
    in_leaf: bool,
}

impl Checker<'_> {
    fn emit(&mut self, op: Op, span: &Span) {
        self.code.push(op);
        self.spans.push(span.clone());
    }

    fn here(&self) -> u32 {
        u32::try_from(self.code.len()).unwrap_or(u32::MAX)
    }

    fn emit_jump(&mut self, op: Op, span: &Span) -> usize {
        self.emit(op, span);
        self.code.len() - 1
    }

    fn patch(&mut self, at: usize) {
        let to = self.here();
        match &mut self.code[at] {
            Op::Jump(t) | Op::JumpIfFalse(t) => *t = to,
            _ => {}
        }
    }

    /// The index of constant `v`, each distinct constant stored once. Found by hash: a file of
    /// a hundred thousand different strings would otherwise compare each with all before it.
    fn konst(&mut self, v: Value) -> u32 {
        let key = ConstKey::of(&v);
        if let Some(&i) = key.as_ref().and_then(|k| self.const_index.get(k)) {
            return i;
        }
        if key.is_none()
            && let Some(i) = self.consts.iter().position(|c| *c == v && c.value_type() == v.value_type())
        {
            return u32::try_from(i).unwrap_or(u32::MAX);
        }
        self.consts.push(v);
        let i = u32::try_from(self.consts.len() - 1).unwrap_or(u32::MAX);
        if let Some(k) = key {
            self.const_index.insert(k, i);
        }
        i
    }

    fn push_const(&mut self, v: Value, span: &Span, ty: Type) -> Type {
        let c = self.konst(v);
        self.emit(Op::Const(c), span);
        ty
    }

    fn note_read(&mut self, r: Read) {
        if let Some(reads) = self.reads.as_mut() {
            reads.push(r);
        }
    }

    /// Lowers one chunk (ending in `Return`) and returns its entry.
    fn chunk(&mut self, f: impl FnOnce(&mut Self)) -> u32 {
        let entry = self.here();
        self.names.reset_locals();
        f(self);
        let end = self.spans.last().map_or(0..0, |s| s.end..s.end);
        self.emit(Op::Return, &end);
        self.names.reset_locals();
        entry
    }

    fn body_chunk(&mut self, stmts: &[crate::ast::Stmt]) -> u32 {
        self.chunk(|c| c.body(stmts))
    }

    fn expr_chunk(&mut self, e: &Expr) -> u32 {
        self.chunk(|c| {
            let ty = c.expr(e);
            if ty == Type::Nil {
                c.diags.push(Diagnostic::new(
                    Code::NoValue,
                    e.span.clone(),
                    "an action has no value",
                    "this returns nothing",
                ));
            }
        })
    }

    fn item(&mut self, item: &Item, script: &mut Script, creature_kinds: &mut BTreeMap<String, Span>) {
        match &item.kind {
            ItemKind::Stmt(_) | ItemKind::Error => {}
            ItemKind::Kind(name) => {
                const KINDS: [(&str, ScriptKind); 4] = [
                    ("behaviour", ScriptKind::Behaviour),
                    ("dialogue", ScriptKind::Dialogue),
                    ("events", ScriptKind::Events),
                    ("attributes", ScriptKind::Attributes),
                ];
                let found = KINDS.iter().find(|(k, _)| k.eq_ignore_ascii_case(&name.text)).map(|&(_, k)| k);
                match (found, script.declared_kind) {
                    (Some(_), Some(_)) => self.diags.push(Diagnostic::new(
                        Code::UnknownKind,
                        name.span.clone(),
                        "the file says its kind twice",
                        "a second `kind`",
                    )),
                    (Some(k), None) => script.declared_kind = Some(k),
                    (None, _) => self.diags.push(
                        Diagnostic::new(
                            Code::UnknownKind,
                            name.span.clone(),
                            format!("`{}` is not a kind", name.text),
                            "not a kind",
                        )
                        .suggest(suggest(&name.text, KINDS.iter().map(|(k, _)| *k)))
                        .with_hint_if_none("kinds are behaviour, dialogue, events and attributes"),
                    ),
                }
            }
            ItemKind::Record { header, creature, body } => {
                let value = lower::constant(self.api, creature).and_then(|v| v.as_i64());
                let entry = self.chunk(|c| {
                    c.assigned.push(BTreeMap::new());
                    let name = crate::ast::Name { text: header.text.clone(), span: header.span.clone() };
                    let stmt = crate::ast::Stmt {
                        kind: crate::ast::StmtKind::Assign { target: name, value: creature.clone() },
                        span: header.span.start..creature.span.end,
                    };
                    c.stmt(&stmt, false);
                    for s in body {
                        c.stmt(s, false);
                    }
                    c.assigned.pop();
                });
                if value.is_none() {
                    self.diags.push(Diagnostic::new(
                        Code::AttributeType,
                        creature.span.clone(),
                        "`CREATURE` must be a whole number",
                        "not a constant whole number",
                    ));
                }
                script.records.push(RecordCode { creature: value, kind: None, entry });
            }
            ItemKind::Creature { kind, body } => {
                let key = kind.text.to_ascii_lowercase();
                if let Some(first) = creature_kinds.get(&key) {
                    self.diags.push(
                        Diagnostic::new(
                            Code::DuplicateCreature,
                            kind.span.clone(),
                            format!("creature `{}` is configured twice", kind.text),
                            "configured again here",
                        )
                        .with_note(first.clone(), "first configured here")
                        .with_hint("merge the two blocks"),
                    );
                } else {
                    creature_kinds.insert(key, kind.span.clone());
                }
                let entry = self.body_chunk(body);
                script.records.push(RecordCode { creature: None, kind: Some(kind.text.clone()), entry });
            }
            ItemKind::Handler { once, event, body } => {
                let event = match event {
                    Event::Named(n) => {
                        let all = ["spawn", "think", "tick", "encounter", "hear", "reload"];
                        match n.text.to_ascii_lowercase().as_str() {
                            "spawn" => Some(HandlerEvent::Spawn),
                            "think" => Some(HandlerEvent::Think),
                            "tick" => Some(HandlerEvent::Tick),
                            "encounter" => Some(HandlerEvent::Encounter),
                            "hear" => Some(HandlerEvent::Hear),
                            "reload" => Some(HandlerEvent::Reload),
                            _ => {
                                self.diags.push(
                                    Diagnostic::new(
                                        Code::UnknownEvent,
                                        n.span.clone(),
                                        format!("unknown event `{}`", n.text),
                                        "not an event",
                                    )
                                    .suggest(suggest(&n.text, all))
                                    .with_hint_if_none(
                                        "events are spawn, think, tick, encounter, hear, reload and enter",
                                    ),
                                );
                                None
                            }
                        }
                    }
                    Event::Spawn => Some(HandlerEvent::Spawn),
                    Event::Think => Some(HandlerEvent::Think),
                    Event::Tick => Some(HandlerEvent::Tick),
                    Event::Encounter => Some(HandlerEvent::Encounter),
                    Event::Hear => Some(HandlerEvent::Hear),
                    Event::Enter(place) => {
                        let cond = self.enter_condition(place, &item.span);
                        Some(self.edge(cond))
                    }
                    Event::When(e) => {
                        let cond = self.expr_chunk(e);
                        Some(self.edge(cond))
                    }
                };
                let entry = self.body_chunk(body);
                let once = once.then(|| {
                    self.n_once += 1;
                    self.n_once - 1
                });
                if let Some(event) = event {
                    script.handlers.push(HandlerCode { event, once, entry });
                }
            }
            ItemKind::Machine(m) => {
                if let Some(code) = self.machine(m) {
                    script.machines.push(code);
                }
            }
            ItemKind::Rules(r) => {
                let code = self.rules(r);
                script.rules.push(code);
            }
            ItemKind::Sequence(s) => {
                let code = self.sequence(s);
                script.sequences.push(code);
            }
            ItemKind::Leaf { name, body } => {
                if script.leaves.iter().any(|(n, _)| n.eq_ignore_ascii_case(&name.text)) {
                    self.diags.push(Diagnostic::new(
                        Code::TreeDuplicate,
                        name.span.clone(),
                        format!("a second leaf `{}`", name.text),
                        "a tree could not tell the two apart",
                    ));
                }
                if !always_returns(body) {
                    let end = item.span.end.saturating_sub(1)..item.span.end;
                    self.diags.push(
                        Diagnostic::new(
                            Code::LeafWithoutReturn,
                            end,
                            format!("the leaf `{}` can end without saying how it went", name.text),
                            "a path reaches the end of the leaf here",
                        )
                        .with_note(name.span.clone(), "this leaf")
                        .with_hint("end every path with `return success;`, `return failure;` or `return running;`"),
                    );
                }
                self.in_leaf = true;
                let entry = self.body_chunk(body);
                self.in_leaf = false;
                script.leaves.push((name.text.clone(), entry));
            }
        }
    }

    /// The warning for a file whose kind was inferred from one line although its top level also
    /// does things of another kind (a behaviour that gained a `Say`): what was inferred, from
    /// which line, and what that means for when it runs.
    fn warn_inferred_kind(&mut self, script: &Script) {
        let (kind, at, mixed) = script.inferred_kind();
        if !mixed {
            return; // nothing but dialogue (or a trap, or settings): the kind is what it reads as
        }
        let Some(span) = at.and_then(|i| script.span_of(i)).cloned() else { return };
        let (what, when) = match kind {
            ScriptKind::Dialogue => {
                ("dialogue", "its top level runs when the player comes near or speaks, not every think")
            }
            ScriptKind::Events => ("events", "each top-level `if` fires once when its condition becomes true"),
            ScriptKind::Attributes => ("attributes", "its top level runs once, at spawn"),
            ScriptKind::Behaviour => return,
        };
        self.diags.push(
            Diagnostic::new(
                Code::InferredKind,
                span,
                format!("on a character this file runs as {what}: {when}"),
                "because of this line",
            )
            .with_hint(format!(
                "say `kind {what};` at the top to keep it so, or `kind behaviour;` to run it every think"
            )),
        );
    }

    fn edge(&mut self, cond: u32) -> HandlerEvent {
        let slot = self.n_edges;
        self.n_edges += 1;
        HandlerEvent::Edge { cond, slot }
    }

    /// `on enter X` is the rising edge of `PlayerLocation(X)`.
    fn enter_condition(&mut self, place: &PlaceRef, span: &Span) -> u32 {
        let name = crate::ast::Name { text: "PlayerLocation".to_owned(), span: span.clone() };
        let args = match place {
            PlaceRef::Cell(x, y) => vec![x.clone(), y.clone()],
            PlaceRef::Named(n) => {
                let known = self.api.symbol(&n.text).is_some_and(|s| s.family == "place");
                if !known {
                    let places = self.api.all_symbols().iter().filter(|s| s.family == "place").map(|s| s.name.as_str());
                    self.diags.push(
                        Diagnostic::new(
                            Code::UnknownPlace,
                            n.span.clone(),
                            format!("unknown place `{}`", n.text),
                            "not a declared place",
                        )
                        .suggest(suggest(&n.text, places))
                        .with_hint_if_none("declare the place in the scenario, or give a cell: `on enter (3, 4)`"),
                    );
                }
                vec![Expr {
                    kind: ExprKind::Str(self.api.symbol(&n.text).map_or(n.text.clone(), |s| s.name.clone())),
                    span: n.span.clone(),
                }]
            }
        };
        let call = Expr { kind: ExprKind::Call { name, args }, span: span.clone() };
        self.expr_chunk(&call)
    }

    fn machine(&mut self, m: &Machine) -> Option<MachineCode> {
        if m.states.is_empty() {
            self.diags.push(Diagnostic::new(
                Code::EmptyMachine,
                m.name.span.clone(),
                format!("machine `{}` has no states", m.name.text),
                "no `state` inside",
            ));
            return None;
        }
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        for (i, s) in m.states.iter().enumerate() {
            let key = s.name.text.to_ascii_lowercase();
            if let Some(&first) = index.get(&key) {
                self.diags.push(
                    Diagnostic::new(
                        Code::DuplicateState,
                        s.name.span.clone(),
                        format!("state `{}` is declared twice", s.name.text),
                        "declared again here",
                    )
                    .with_note(m.states[first].name.span.clone(), "first declared here"),
                );
            } else {
                index.insert(key, i);
            }
        }
        let names: Vec<&str> = m.states.iter().map(|s| s.name.text.as_str()).collect();
        let lookup = |c: &mut Self, n: &crate::ast::Name| -> Option<usize> {
            let found = index.get(&n.text.to_ascii_lowercase()).copied();
            if found.is_none() {
                c.diags.push(
                    Diagnostic::new(
                        Code::UnknownState,
                        n.span.clone(),
                        format!("machine `{}` has no state `{}`", m.name.text, n.text),
                        "no such state",
                    )
                    .suggest(suggest(&n.text, names.iter().copied())),
                );
            }
            found
        };
        let initial = match &m.initial {
            Some(n) => lookup(self, n).unwrap_or(0),
            None => 0,
        };
        let mut states = Vec::new();
        let mut edges: Vec<Vec<(Option<u32>, usize)>> = Vec::new();
        for s in &m.states {
            let entry = (!s.entry.is_empty()).then(|| self.body_chunk(&s.entry));
            let tick = (!s.tick.is_empty()).then(|| self.body_chunk(&s.tick));
            let exit = (!s.exit.is_empty()).then(|| self.body_chunk(&s.exit));
            let mut transitions = Vec::new();
            let mut always: Option<&Span> = None;
            for t in &s.transitions {
                if let Some(first) = always {
                    self.diags.push(
                        Diagnostic::new(
                            Code::ShadowedTransition,
                            t.span.clone(),
                            "this transition is never taken",
                            "never taken",
                        )
                        .with_note(first.clone(), "this transition is always taken first"),
                    );
                }
                let cond = t.cond.as_ref().map(|e| self.expr_chunk(e));
                if cond.is_none() && always.is_none() {
                    always = Some(&t.span);
                }
                if let Some(target) = lookup(self, &t.target) {
                    transitions.push((cond, target));
                }
            }
            states.push(StateCode { name: s.name.text.clone(), entry, tick, exit });
            edges.push(transitions);
        }
        let mut reached = BTreeSet::from([initial]);
        let mut todo = vec![initial];
        while let Some(s) = todo.pop() {
            for &(_, t) in &edges[s] {
                if reached.insert(t) {
                    todo.push(t);
                }
            }
        }
        for (i, s) in m.states.iter().enumerate() {
            if !reached.contains(&i) && index.get(&s.name.text.to_ascii_lowercase()) == Some(&i) {
                self.diags.push(
                    Diagnostic::new(
                        Code::UnreachableState,
                        s.name.span.clone(),
                        format!("state `{}` can never be reached", s.name.text),
                        "no transition leads here",
                    )
                    .with_note(m.states[initial].name.span.clone(), "the machine starts here"),
                );
            }
        }
        // The machine runs on the engine's state machine: guards are condition chunks (or
        // always), hooks name the state's chunks, and a transition to the current state stays.
        let defs = states
            .iter()
            .zip(edges)
            .map(|(s, edges)| {
                let hook = |chunk: Option<u32>, name: &str| chunk.map(|_| name.to_owned()).into_iter().collect();
                StateDef {
                    name: s.name.clone(),
                    parent: None,
                    initial: None,
                    // Entering always does something (the `state` attribute, the change report).
                    on_enter: vec!["entry".to_owned()],
                    on_exit: hook(s.exit, "exit"),
                    on_tick: hook(s.tick, "tick"),
                    transitions: edges.into_iter().map(|(c, t)| (c, vec![(states[t].name.clone(), 1.0)])).collect(),
                }
            })
            .collect();
        let had_errors = self.diags.iter().any(Diagnostic::is_error);
        let model = match StateMachine::from_states(&states[initial].name, defs, SelfTransition::Stay) {
            Ok(model) => model,
            Err(e) => {
                // Duplicate states are reported above; what else the engine refuses (more states
                // than its 16-bit ids hold) is reported here.
                if !had_errors {
                    self.diags.push(Diagnostic::new(
                        Code::EmptyMachine,
                        m.name.span.clone(),
                        format!("machine `{}` cannot run: {e}", m.name.text),
                        "this machine",
                    ));
                }
                return None;
            }
        };
        Some(MachineCode { name: m.name.text.clone(), states, model })
    }

    fn rules(&mut self, r: &Rules) -> RulesCode {
        let strategy = match r.strategy.as_ref().map(|s| (s, s.text.to_ascii_lowercase())) {
            None => Strategy::First,
            Some((_, s)) if s == "first" => Strategy::First,
            Some((_, s)) if s == "weight" => Strategy::Weight,
            Some((_, s)) if s == "random" => Strategy::Random,
            Some((n, _)) => {
                self.diags.push(
                    Diagnostic::new(
                        Code::UnknownStrategy,
                        n.span.clone(),
                        format!("unknown strategy `{}`", n.text),
                        "not a conflict-resolution strategy",
                    )
                    .suggest(suggest(&n.text, ["first", "weight", "random"]))
                    .with_hint_if_none("use `first`, `weight` or `random`"),
                );
                Strategy::First
            }
        };
        let mut facts = Vec::new();
        let mut seen: BTreeMap<String, Span> = BTreeMap::new();
        for f in &r.facts {
            let key = f.name.text.to_ascii_lowercase();
            if let Some(first) = seen.get(&key) {
                self.diags.push(
                    Diagnostic::new(
                        Code::DuplicateFact,
                        f.name.span.clone(),
                        format!("fact `{}` is declared twice", f.name.text),
                        "declared again here",
                    )
                    .with_note(first.clone(), "first declared here"),
                );
                continue;
            }
            seen.insert(key, f.name.span.clone());
            let Some(id) = self.names.fact(&f.name.text) else { continue };
            let init = self.expr_chunk(&f.init);
            facts.push((id, init));
        }
        let mut rules = Vec::new();
        let mut rule_names: BTreeMap<String, Span> = BTreeMap::new();
        for (i, rule) in r.rules.iter().enumerate() {
            let name = match &rule.name {
                Some(n) => {
                    let key = n.text.to_ascii_lowercase();
                    if let Some(first) = rule_names.get(&key) {
                        self.diags.push(
                            Diagnostic::new(
                                Code::DuplicateRule,
                                n.span.clone(),
                                format!("rule `{}` is declared twice", n.text),
                                "declared again here",
                            )
                            .with_note(first.clone(), "first declared here")
                            .with_hint("rule names identify rules in traces and explanations; rename one"),
                        );
                    } else {
                        rule_names.insert(key, n.span.clone());
                    }
                    n.text.clone()
                }
                None => format!("#{}", i + 1),
            };
            self.reads = Some(Vec::new());
            let cond = self.expr_chunk(&rule.cond);
            let mut reads = self.reads.take().unwrap_or_default();
            reads.sort();
            reads.dedup();
            self.asserts = Some(Vec::new());
            let then = self.body_chunk(&rule.then);
            let asserts = self.asserts.take().unwrap_or_default();
            let conjuncts = self.conjuncts(&rule.cond);
            rules.push(RuleCode {
                name,
                weight: rule.weight.as_ref().map_or(0, |w| w.0),
                cond,
                then,
                reads,
                conjuncts,
                asserts,
            });
        }
        RulesCode { name: r.name.text.clone(), strategy, facts, rules }
    }

    /// The condition as `fact == constant and …`, if it is exactly that.
    fn conjuncts(&self, e: &Expr) -> Option<Vec<(u32, Value)>> {
        match &e.kind {
            ExprKind::Binary { op: BinOp::And, lhs, rhs } => {
                let mut v = self.conjuncts(lhs)?;
                v.extend(self.conjuncts(rhs)?);
                Some(v)
            }
            ExprKind::Binary { op: BinOp::Eq, lhs, rhs } => {
                let ExprKind::Name(n) = &lhs.kind else { return None };
                Some(vec![(self.names.fact(&n.text)?, lower::constant(self.api, rhs)?)])
            }
            _ => None,
        }
    }

    fn sequence(&mut self, s: &Sequence) -> SequenceCode {
        if s.roles.is_empty() {
            self.diags.push(Diagnostic::new(
                Code::EmptySequence,
                s.name.span.clone(),
                format!("sequence `{}` has no roles", s.name.text),
                "no `role` inside",
            ));
        }
        self.signals.clear();
        self.waits.clear();
        let mut roles = Vec::new();
        let mut seen: BTreeMap<String, Span> = BTreeMap::new();
        for role in &s.roles {
            let key = role.name.text.to_ascii_lowercase();
            if let Some(first) = seen.get(&key) {
                self.diags.push(
                    Diagnostic::new(
                        Code::DuplicateRole,
                        role.name.span.clone(),
                        format!("role `{}` is declared twice", role.name.text),
                        "declared again here",
                    )
                    .with_note(first.clone(), "first declared here"),
                );
            } else {
                seen.insert(key.clone(), role.name.span.clone());
            }
            if let Some(tags) = self.api.world_tags()
                && !tags.contains(&key)
            {
                self.diags.push(
                    Diagnostic::new(
                        Code::UncastRole,
                        role.name.span.clone(),
                        format!("no character of the scenario is tagged `{}`", role.name.text),
                        "this role could never be cast",
                    )
                    .suggest(suggest(&role.name.text, tags.iter().map(String::as_str)))
                    .with_hint_if_none(&format!("tag a character `{}` in the scenario", role.name.text)),
                );
            }
            let entry = self.chunk(|c| c.role_body(&role.body));
            roles.push((role.name.text.clone(), entry));
        }
        let sent: BTreeSet<&str> = self.signals.iter().map(|(k, _, _)| k.as_str()).collect();
        let awaited: BTreeSet<&str> = self.waits.iter().map(|(k, _, _)| k.as_str()).collect();
        let mut found = Vec::new();
        // Squad-mates whose roles are Lua or Rhai scripts signal in the same scope.
        let others = self.api.script_signals();
        for (key, span, text) in &self.waits {
            if !sent.contains(key.as_str()) && !others.is_some_and(|o| o.may_send(key)) {
                found.push(
                    Diagnostic::new(
                        Code::WaitWithoutSignal,
                        span.clone(),
                        format!("no role sends `{text}`"),
                        "this wait would block forever",
                    )
                    .suggest(suggest(text, self.signals.iter().map(|(_, _, t)| t.as_str()))),
                );
            }
        }
        for (key, span, text) in &self.signals {
            if !awaited.contains(key.as_str()) && !others.is_some_and(|o| o.may_await(key)) {
                found.push(Diagnostic::new(
                    Code::UnusedSignal,
                    span.clone(),
                    format!("signal `{text}` is never waited for"),
                    "nobody waits for this",
                ));
            }
        }
        self.diags.extend(found);
        SequenceCode { name: s.name.text.clone(), roles }
    }
}

/// A constant as a hash key, for the kinds literals make: equal keys are exactly the constants
/// the linear search took as equal (`0.0` and `-0.0` are one constant).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum ConstKey {
    Nil,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(String),
}

impl ConstKey {
    fn of(v: &Value) -> Option<ConstKey> {
        Some(match v {
            Value::Nil => ConstKey::Nil,
            Value::Bool(b) => ConstKey::Bool(*b),
            Value::Int(n) => ConstKey::Int(*n),
            // NaN equals nothing, so it is never shared.
            Value::Float(x) if x.is_nan() => return None,
            Value::Float(x) => ConstKey::Float(if *x == 0.0 { 0 } else { x.to_bits() }),
            Value::Str(s) => ConstKey::Str(s.clone()),
            _ => return None,
        })
    }
}

trait HintIfNone {
    fn with_hint_if_none(self, hint: &str) -> Self;
}

impl HintIfNone for Diagnostic {
    fn with_hint_if_none(self, hint: &str) -> Self {
        if self.hint.is_some() { self } else { self.with_hint(hint) }
    }
}

/// Whether every path through `stmts` ends in a `return`: one of them returns, or is an
/// `if`/`else` whose branches both always return.
fn always_returns(stmts: &[crate::ast::Stmt]) -> bool {
    stmts.iter().any(|s| match &s.kind {
        crate::ast::StmtKind::Return(_) => true,
        crate::ast::StmtKind::If { then, otherwise: Some(otherwise), .. } => {
            always_returns(then) && always_returns(otherwise)
        }
        _ => false,
    })
}
