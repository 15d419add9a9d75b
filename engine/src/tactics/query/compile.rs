//! Compiling a query from a plain [`Value`] map — the shape a Lua table or a Rhai map becomes, and
//! what the block syntax parses to — into the checked [`Query`].
//!
//! Accepted shapes: one option (`{Generation = …, Conditions = …, Weights = …}`), a list of options,
//! a map of options keyed `1`, `2`, … (a Lua array), or `{Options = [...], OnFailure = {...}}`.

use std::collections::BTreeMap;

use super::error::{Location, QueryError, QueryErrorKind, QueryErrors};
use super::keyword::{self, AROUND, GLUE_WORDS, KeywordKind, ObjectKind, ObjectRule, OutputKind, Section};
use super::spec::{FailureAction, GeneratorSpec, Query, QueryConfig, QueryOption, Role, Test};
use crate::value::Value;

/// Compiles `value` into a query named `name`. Diagnostics name key paths.
pub fn compile_value(name: &str, value: &Value, config: QueryConfig) -> Result<Query, QueryErrors> {
    compile_located(name, value, config, &|path| Location::KeyPath(path.to_owned()))
}

/// Compiles with a caller-supplied mapping from key paths to locations (the text parser maps
/// them to file and line).
pub(crate) fn compile_located(
    name: &str,
    value: &Value,
    config: QueryConfig,
    locate: &dyn Fn(&str) -> Location,
) -> Result<Query, QueryErrors> {
    let mut c = Compiler { locate, errors: Vec::new() };
    let mut query = Query { name: name.to_owned(), options: Vec::new(), on_failure: FailureAction::default(), config };
    for (path, option) in c.option_values(value) {
        if let Some(o) = c.option(&path, option, query.options.len() + 1) {
            query.options.push(o);
        }
    }
    if query.options.is_empty() && c.errors.is_empty() {
        c.error("", QueryErrorKind::NoOptions);
    }
    if let Value::Map(m) = value
        && let Some(f) = m.get("OnFailure")
    {
        query.on_failure = c.failure(&join("", "OnFailure"), f);
    }
    if c.errors.is_empty() { Ok(query) } else { Err(QueryErrors(c.errors)) }
}

struct Compiler<'a> {
    locate: &'a dyn Fn(&str) -> Location,
    errors: Vec<QueryError>,
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") }
}

fn describe(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("string \"{s}\""),
        Value::Map(_) | Value::List(_) => v.value_type().to_string(),
        other => format!("{} {other}", other.value_type()),
    }
}

impl Compiler<'_> {
    fn error(&mut self, path: &str, kind: QueryErrorKind) {
        self.errors.push(QueryError { kind, location: (self.locate)(path) });
    }

    /// The options of a query value with their key paths, in order.
    fn option_values<'v>(&mut self, value: &'v Value) -> Vec<(String, &'v Value)> {
        match value {
            Value::List(items) => items.iter().enumerate().map(|(i, v)| (format!("[{i}]"), v)).collect(),
            Value::Map(m) if m.keys().any(|k| Section::from_name(k).is_some()) => {
                for k in m.keys().filter(|k| Section::from_name(k).is_none()) {
                    self.unknown_section("", k);
                }
                vec![(String::new(), value)]
            }
            Value::Map(m) if m.contains_key("Options") => {
                for k in m.keys().filter(|k| !matches!(k.as_str(), "Options" | "OnFailure")) {
                    self.unknown_section("", k);
                }
                match &m["Options"] {
                    Value::List(items) => items.iter().enumerate().map(|(i, v)| (format!("Options[{i}]"), v)).collect(),
                    other => {
                        let kind = QueryErrorKind::BadValue {
                            key: "Options".into(),
                            expected: "a list of options",
                            found: describe(other),
                        };
                        self.error("Options", kind);
                        Vec::new()
                    }
                }
            }
            Value::Map(m) => {
                // A Lua array that arrived as a map keyed "1", "2", ….
                let mut numbered: Vec<(i64, &String, &Value)> = Vec::new();
                for (k, v) in m {
                    match k.parse::<i64>() {
                        Ok(n) => numbered.push((n, k, v)),
                        Err(_) if k == "OnFailure" => {}
                        Err(_) => self.unknown_section("", k),
                    }
                }
                numbered.sort_by_key(|&(n, _, _)| n);
                numbered.into_iter().map(|(_, k, v)| (k.clone(), v)).collect()
            }
            other => {
                let kind = QueryErrorKind::BadValue {
                    key: "query".into(),
                    expected: "a map or a list",
                    found: describe(other),
                };
                self.error("", kind);
                Vec::new()
            }
        }
    }

    fn unknown_section(&mut self, path: &str, name: &str) {
        let suggestion = keyword::suggest(name, ["Generation", "Conditions", "Weights", "Options", "OnFailure"]);
        let kind = QueryErrorKind::UnknownSection { name: name.to_owned(), suggestion: suggestion.map(str::to_owned) };
        self.error(&join(path, name), kind);
    }

    fn option(&mut self, path: &str, value: &Value, number: usize) -> Option<QueryOption> {
        let Value::Map(m) = value else {
            let kind =
                QueryErrorKind::BadValue { key: path.to_owned(), expected: "an option map", found: describe(value) };
            self.error(path, kind);
            return None;
        };
        let before = self.errors.len();
        let mut generators = Vec::new();
        let mut tests = Vec::new();
        for (section_name, entries) in m {
            let Some(section) = Section::from_name(section_name) else {
                self.unknown_section(path, section_name);
                continue;
            };
            let spath = join(path, section_name);
            let Value::Map(entries) = entries else {
                let kind = QueryErrorKind::BadValue {
                    key: spath.clone(),
                    expected: "a map of key = value",
                    found: describe(entries),
                };
                self.error(&spath, kind);
                continue;
            };
            for (key, v) in entries {
                let kpath = join(&spath, key);
                match self.term(&kpath, key, section) {
                    Some(Term::Generator(g)) => {
                        if let Some(g) = self.generator_value(&kpath, g, v) {
                            generators.push(g);
                        }
                    }
                    Some(Term::Test(t)) => {
                        if let Some(t) = self.test_value(&kpath, t, section, v) {
                            tests.push(t);
                        }
                    }
                    None => {}
                }
            }
        }
        if generators.is_empty() && self.errors.len() == before {
            self.error(path, QueryErrorKind::NoGeneration { option: number });
        }
        // Evaluation order (001:L193–L210): cheap before expensive; within a class conditions first
        // (they discard), then weights by falling magnitude (the largest decide most). The sort is
        // stable, so equal tests keep key order.
        tests.sort_by(|a, b| {
            let rank = |t: &Test| match t.role {
                Role::Weight(w) => (t.cost, 1u8, -w.abs()),
                _ => (t.cost, 0u8, 0.0),
            };
            let (ca, ra, wa) = rank(a);
            let (cb, rb, wb) = rank(b);
            (ca, ra).cmp(&(cb, rb)).then(wa.total_cmp(&wb))
        });
        (self.errors.len() == before).then_some(QueryOption { generators, tests })
    }

    /// Splits a key into its criterion, objects, bound and parameter, and checks them against the
    /// keyword's type tag and the section.
    fn term(&mut self, path: &str, key: &str, section: Section) -> Option<Term> {
        let words: Vec<&str> = key.split('_').collect();
        let unknown = |word: &str, pool: Vec<&'static str>| QueryErrorKind::UnknownKeyword {
            key: key.to_owned(),
            word: word.to_owned(),
            suggestion: keyword::suggest(word, pool).map(str::to_owned),
        };
        let (bound, rest) = match words.first() {
            Some(&"min") => (Some(Bound::Min), &words[1..]),
            Some(&"max") => (Some(Bound::Max), &words[1..]),
            _ => (None, &words[..]),
        };
        let Some(&crit_word) = rest.first() else {
            self.error(path, unknown("", keyword::KEYWORDS.iter().map(|k| k.name).collect()));
            return None;
        };
        let Some(kw) = keyword::lookup(crit_word) else {
            let pool = keyword::KEYWORDS.iter().map(|k| k.name).chain(["min", "max"]).collect();
            self.error(path, unknown(crit_word, pool));
            return None;
        };
        let mut param = None;
        let mut object = None;
        let mut around = None;
        let mut expect_centre = false;
        for &w in &rest[1..] {
            if GLUE_WORDS.contains(&w) {
                continue;
            }
            if w == AROUND {
                expect_centre = true;
                continue;
            }
            if kw.param && param.is_none() {
                param = Some(w.to_owned());
                continue;
            }
            let Some(o) = ObjectKind::from_keyword(w) else {
                self.error(path, unknown(w, keyword::object_words().collect()));
                return None;
            };
            let slot = if expect_centre { &mut around } else { &mut object };
            if slot.is_some() {
                let why =
                    format!("`{w}` is a second object; a criterion takes one object (and a generator one centre)");
                self.error(path, QueryErrorKind::UnexpectedObject { key: key.to_owned(), why });
                return None;
            }
            *slot = Some(o);
            expect_centre = false;
        }
        if expect_centre {
            let example = format!("{key}_puppet");
            self.error(
                path,
                QueryErrorKind::MissingObject { key: key.to_owned(), what: "a centre object after `around`", example },
            );
            return None;
        }
        match kw.kind {
            KeywordKind::Generator(kind) => {
                if section != Section::Generation {
                    let why = format!("`{}` is a generation method; it belongs in Generation", kw.name);
                    self.error(
                        path,
                        QueryErrorKind::WrongSection { key: key.to_owned(), section: section.name(), why },
                    );
                    return None;
                }
                if bound.is_some() {
                    let why = "min_/max_ turn a criterion into a condition; a generator takes none".to_owned();
                    self.error(path, QueryErrorKind::UnexpectedObject { key: key.to_owned(), why });
                    return None;
                }
                if kw.centre && around.is_none() {
                    let example = format!("{key}_around_puppet");
                    self.error(
                        path,
                        QueryErrorKind::MissingObject { key: key.to_owned(), what: "a centre object", example },
                    );
                    return None;
                }
                if !kw.centre && around.is_some() {
                    let why = format!("`{}` generates in a fixed place and takes no centre", kw.name);
                    self.error(path, QueryErrorKind::UnexpectedObject { key: key.to_owned(), why });
                    return None;
                }
                if kw.object == ObjectRule::None && object.is_some() {
                    let why = format!("`{}` takes no object besides its centre (`around_X`)", kw.name);
                    self.error(path, QueryErrorKind::UnexpectedObject { key: key.to_owned(), why });
                    return None;
                }
                Some(Term::Generator(GeneratorSpec {
                    key: key.to_owned(),
                    kind,
                    from: object,
                    around,
                    radius: 0.0,
                    spacing: 0.0,
                    name: None,
                }))
            }
            KeywordKind::Test(criterion) => {
                if section == Section::Generation {
                    let why = format!("`{}` is a test; it belongs in Conditions or Weights", kw.name);
                    self.error(
                        path,
                        QueryErrorKind::WrongSection { key: key.to_owned(), section: section.name(), why },
                    );
                    return None;
                }
                if around.is_some() {
                    let why = "`around` names a generation centre; tests take `from`/`to` objects".to_owned();
                    self.error(path, QueryErrorKind::UnexpectedObject { key: key.to_owned(), why });
                    return None;
                }
                if kw.param && param.is_none() {
                    let example = format!("{key}_threat");
                    self.error(
                        path,
                        QueryErrorKind::MissingObject { key: key.to_owned(), what: "a layer name", example },
                    );
                    return None;
                }
                match (kw.object, object) {
                    (ObjectRule::Required, None) => {
                        let example = format!("{key}_from_puppet");
                        self.error(
                            path,
                            QueryErrorKind::MissingObject { key: key.to_owned(), what: "an object", example },
                        );
                        return None;
                    }
                    (ObjectRule::None, Some(o)) => {
                        let why = format!(
                            "`{}` is a property of the point and takes no object (found `{}`)",
                            kw.name,
                            o.name()
                        );
                        self.error(path, QueryErrorKind::UnexpectedObject { key: key.to_owned(), why });
                        return None;
                    }
                    _ => {}
                }
                match (section, bound, kw.output) {
                    (Section::Weights, Some(_), _) => {
                        let why = "min_/max_ make a condition; put it in Conditions, or drop the prefix to weigh it"
                            .to_owned();
                        self.error(
                            path,
                            QueryErrorKind::WrongSection { key: key.to_owned(), section: section.name(), why },
                        );
                        return None;
                    }
                    (Section::Conditions, None, OutputKind::Float) => {
                        let why = format!("`{}` yields a number; as a condition write min_{key} or max_{key}", kw.name);
                        self.error(
                            path,
                            QueryErrorKind::WrongSection { key: key.to_owned(), section: section.name(), why },
                        );
                        return None;
                    }
                    (Section::Conditions, Some(_), OutputKind::Bool) => {
                        let why = format!("`{}` is true or false; min_/max_ apply only to numbers", kw.name);
                        self.error(
                            path,
                            QueryErrorKind::WrongSection { key: key.to_owned(), section: section.name(), why },
                        );
                        return None;
                    }
                    _ => {}
                }
                Some(Term::Test(TestTerm { key: key.to_owned(), criterion, object, param, bound, kw }))
            }
        }
    }

    fn generator_value(&mut self, path: &str, mut g: GeneratorSpec, v: &Value) -> Option<GeneratorSpec> {
        use super::keyword::GeneratorKind as G;
        let bad = |expected| QueryErrorKind::BadValue { key: g.key.clone(), expected, found: describe(v) };
        match (g.kind, v) {
            (G::CurrentPoint, Value::Bool(true)) => return Some(g),
            (G::CurrentPoint, _) => {
                self.error(path, bad("true"));
                return None;
            }
            (G::Region, Value::Str(s)) => {
                g.name = Some(s.clone());
                return Some(g);
            }
            (G::Entities, Value::Map(_)) | (G::Region, Value::Map(_)) => {}
            (G::Entities, _) => {
                self.error(path, bad("a map {kind = \"…\", radius = …}"));
                return None;
            }
            (G::Region, _) => {
                self.error(path, bad("a region name or {name = \"…\", spacing = …}"));
                return None;
            }
            (_, v) if v.as_f64().is_some() => {}
            (_, Value::Map(_)) => {}
            _ => {
                self.error(path, bad("a radius (number) or {radius = …, spacing = …}"));
                return None;
            }
        }
        if let Some(r) = v.as_f64() {
            g.radius = r as f32;
        }
        if let Value::Map(m) = v {
            for (k, item) in m {
                let ipath = join(path, k);
                match (k.as_str(), item) {
                    ("radius", x) if x.as_f64().is_some() => g.radius = x.as_f64().unwrap_or(0.0) as f32,
                    ("spacing", x) if x.as_f64().is_some() => g.spacing = x.as_f64().unwrap_or(0.0) as f32,
                    ("kind" | "name", Value::Str(s)) => g.name = Some(s.clone()),
                    ("radius" | "spacing" | "kind" | "name", other) => {
                        let expected = if matches!(k.as_str(), "kind" | "name") { "a string" } else { "a number" };
                        self.error(
                            &ipath,
                            QueryErrorKind::BadValue { key: k.clone(), expected, found: describe(other) },
                        );
                    }
                    _ => {
                        let suggestion = keyword::suggest(k, ["radius", "spacing", "kind", "name"]).map(str::to_owned);
                        self.error(
                            &ipath,
                            QueryErrorKind::UnknownKeyword { key: g.key.clone(), word: k.clone(), suggestion },
                        );
                    }
                }
            }
            if matches!(g.kind, G::Entities | G::Region) && g.name.is_none() {
                let expected = if g.kind == G::Entities { "a `kind`" } else { "a `name`" };
                self.error(path, QueryErrorKind::BadValue { key: g.key.clone(), expected, found: "none".into() });
                return None;
            }
        }
        if !(g.radius.is_finite() && g.radius >= 0.0 && g.spacing.is_finite() && g.spacing >= 0.0) {
            self.error(path, bad("a finite, non-negative radius and spacing"));
            return None;
        }
        Some(g)
    }

    fn test_value(&mut self, path: &str, t: TestTerm, section: Section, v: &Value) -> Option<Test> {
        let role = match (section, t.bound, v) {
            (Section::Conditions, None, Value::Bool(b)) => Role::Require(*b),
            (Section::Conditions, None, _) => {
                self.error(
                    path,
                    QueryErrorKind::BadValue { key: t.key, expected: "true or false", found: describe(v) },
                );
                return None;
            }
            (_, bound, v) => match v.as_f64().filter(|x| x.is_finite()) {
                Some(x) => match bound {
                    Some(Bound::Min) => Role::Min(x),
                    Some(Bound::Max) => Role::Max(x),
                    None => Role::Weight(x),
                },
                None => {
                    let expected = if bound.is_some() { "a number (the raw limit)" } else { "a number (the weight)" };
                    self.error(path, QueryErrorKind::BadValue { key: t.key, expected, found: describe(v) });
                    return None;
                }
            },
        };
        Some(Test {
            key: t.key,
            criterion: t.criterion,
            object: t.object,
            param: t.param,
            role,
            output: t.kw.output,
            cost: t.kw.cost,
        })
    }

    fn failure(&mut self, path: &str, v: &Value) -> FailureAction {
        let mut action = FailureAction::default();
        let Value::Map(m) = v else {
            self.error(
                path,
                QueryErrorKind::BadValue { key: "OnFailure".into(), expected: "a map", found: describe(v) },
            );
            return action;
        };
        let scope = m.get("scope").and_then(Value::as_str).unwrap_or("").to_owned();
        let mut entries: BTreeMap<&str, &Value> = m.iter().map(|(k, v)| (k.as_str(), v)).collect();
        entries.remove("scope");
        for (k, item) in entries {
            let ipath = join(path, k);
            match (k, item) {
                ("signal", Value::Str(s)) => action.signal = Some((scope.clone(), s.clone())),
                ("blackboard", Value::Str(s)) => {
                    let value = m.get("value").cloned().unwrap_or(Value::Bool(true));
                    action.blackboard = Some((s.clone(), value));
                }
                ("value", _) => {}
                ("signal" | "blackboard", other) => {
                    self.error(
                        &ipath,
                        QueryErrorKind::BadValue { key: k.into(), expected: "a string", found: describe(other) },
                    );
                }
                _ => {
                    let suggestion = keyword::suggest(k, ["signal", "blackboard", "value", "scope"]).map(str::to_owned);
                    self.error(&ipath, QueryErrorKind::UnknownSection { name: k.into(), suggestion });
                }
            }
        }
        action
    }
}

#[derive(Clone, Copy)]
enum Bound {
    Min,
    Max,
}

struct TestTerm {
    key: String,
    criterion: keyword::Criterion,
    object: Option<ObjectKind>,
    param: Option<String>,
    bound: Option<Bound>,
    kw: &'static keyword::Keyword,
}

enum Term {
    Generator(GeneratorSpec),
    Test(TestTerm),
}
