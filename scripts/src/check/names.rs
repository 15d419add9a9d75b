//! Name resolution, shared by the checker and the compiler so both read a name the same way:
//! locals first, then the file's facts, then the API's globals, then its symbols. Every look-up
//! is case-insensitive.

use std::collections::BTreeMap;

use tactica_stdlib::{Api, Type};

use crate::ast::{ItemKind, Program};

/// What a name in an expression refers to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Resolved {
    /// A `let` local: its slot.
    Local(u32),
    /// A fact of one of the file's rule systems: its file-wide id.
    Fact(u32),
    /// An engine global: its index in the API.
    Global(u32),
    /// A named value: its canonical spelling.
    Symbol(String),
}

/// A fact of the file.
#[derive(Debug, Clone)]
pub(crate) struct FactInfo {
    /// Canonical spelling (as first declared).
    pub name: String,
    /// Its type (the type of its initial value).
    pub ty: Type,
}

/// The file-wide names: facts, and the scopes of locals while walking a body.
pub(crate) struct Names<'a> {
    pub api: &'a Api,
    pub facts: Vec<FactInfo>,
    fact_index: BTreeMap<String, u32>,
    scopes: Vec<Vec<(String, u32, Type)>>,
    next_local: u32,
    /// The most locals any body needed (the VM's frame size).
    pub max_locals: u32,
}

impl<'a> Names<'a> {
    /// Collects the file's facts (first declaration wins; the checker reports duplicates).
    pub fn new(api: &'a Api, program: &Program) -> Self {
        let mut names = Names {
            api,
            facts: Vec::new(),
            fact_index: BTreeMap::new(),
            scopes: Vec::new(),
            next_local: 0,
            max_locals: 0,
        };
        for item in &program.items {
            if let ItemKind::Rules(r) = &item.kind {
                for f in &r.facts {
                    let key = f.name.text.to_ascii_lowercase();
                    if names.fact_index.contains_key(&key) {
                        continue;
                    }
                    let ty = literal_type(api, &f.init);
                    names.fact_index.insert(key, u32::try_from(names.facts.len()).unwrap_or(u32::MAX));
                    names.facts.push(FactInfo { name: f.name.text.clone(), ty });
                }
            }
        }
        names
    }

    /// The fact of this name.
    pub fn fact(&self, name: &str) -> Option<u32> {
        self.fact_index.get(&name.to_ascii_lowercase()).copied()
    }

    /// Starts a body: locals declared from here on are dropped by [`Names::pop_scope`].
    pub fn push_scope(&mut self) {
        self.scopes.push(Vec::new());
    }

    /// Ends a body.
    pub fn pop_scope(&mut self) {
        if let Some(scope) = self.scopes.pop() {
            self.next_local -= u32::try_from(scope.len()).unwrap_or(0);
        }
    }

    /// Ends a whole chunk (a handler, a state's action …): its locals' slots are free again.
    pub fn reset_locals(&mut self) {
        self.scopes.clear();
        self.next_local = 0;
    }

    /// Declares a local in the innermost scope and returns its slot.
    pub fn declare_local(&mut self, name: &str, ty: Type) -> u32 {
        let slot = self.next_local;
        self.next_local += 1;
        self.max_locals = self.max_locals.max(self.next_local);
        if self.scopes.is_empty() {
            self.scopes.push(Vec::new());
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.to_ascii_lowercase(), slot, ty));
        }
        slot
    }

    fn local(&self, name: &str) -> Option<(u32, Type)> {
        let key = name.to_ascii_lowercase();
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _, _)| *n == key)
            .map(|(_, s, t)| (*s, t.clone()))
    }

    /// Resolves a name read in an expression, with its type.
    pub fn resolve(&self, name: &str) -> Option<(Resolved, Type)> {
        if let Some((slot, ty)) = self.local(name) {
            return Some((Resolved::Local(slot), ty));
        }
        if let Some(id) = self.fact(name) {
            return Some((Resolved::Fact(id), self.facts[id as usize].ty.clone()));
        }
        if let Some((i, g)) = self.api.global(name) {
            return Some((Resolved::Global(u32::try_from(i).unwrap_or(u32::MAX)), g.ty.clone()));
        }
        self.api.symbol(name).map(|s| (Resolved::Symbol(s.name.clone()), Type::Symbol(s.family.clone())))
    }

    /// Every name an expression could read, for suggestions.
    pub fn readable(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.scopes.iter().flatten().map(|(n, _, _)| n.as_str()).collect();
        v.extend(self.facts.iter().map(|f| f.name.as_str()));
        v.extend(self.api.value_names());
        v
    }
}

/// The type of a fact's initial value, when it is a literal or a name (otherwise unknown).
fn literal_type(api: &Api, e: &crate::ast::Expr) -> Type {
    use crate::ast::ExprKind;
    match &e.kind {
        ExprKind::Int(_) => Type::Int,
        ExprKind::Float(_) => Type::Number,
        ExprKind::Str(_) => Type::Str,
        ExprKind::Bool(_) => Type::Bool,
        ExprKind::Name(n) => api
            .symbol(&n.text)
            .map(|s| Type::Symbol(s.family.clone()))
            .or_else(|| api.global(&n.text).map(|(_, g)| g.ty.clone()))
            .unwrap_or(Type::Any),
        _ => Type::Any,
    }
}
