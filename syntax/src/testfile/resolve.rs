//! Checking a parsed test file against its scenario's names: every entity, place, region, event
//! kind and global a test uses, every tick against the ticks it plays, every setting once.

use std::collections::BTreeSet;

use super::grammar::conditions;
use super::{EventPattern, Expect, LineMatch, Setting, Subject, Target, Test, TestFile, TickAt, Window};
use crate::ast::Name;
use crate::condition::Condition;
use crate::diagnostics::{Code, Diagnostic};

/// What a test file's scenario declares, for resolving the names its tests use.
#[derive(Debug, Clone, Default)]
pub struct Names {
    /// The entities, by scenario name.
    pub entities: Vec<String>,
    /// The named places.
    pub places: Vec<String>,
    /// The regions.
    pub regions: Vec<String>,
    /// The globals the scenario declares or its timeline sets.
    pub globals: Vec<String>,
    /// The trace's event kinds (`say`, `arrive` …).
    pub event_kinds: Vec<String>,
    /// How many ticks the scenario plays.
    pub ticks: u64,
}

/// The facts a condition may read of a character besides its attributes and machines.
pub const ENTITY_FACTS: &[&str] = &["x", "y", "team", "kind", "squad", "idle"];

/// Every mistake in `file` against `names`: unknown names (with the closest known one),
/// ticks past the run, settings given twice, tests that state nothing or share a name.
pub fn check(file: &TestFile, names: &Names) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for extra in &file.more_scenarios {
        out.push(
            Diagnostic::new(Code::TestSetting, extra.span.clone(), "a second `scenario`", "a file plays one scenario")
                .with_hint("put tests of another scenario in a test file of their own"),
        );
    }
    let mut seen: Vec<(&str, std::ops::Range<usize>)> = Vec::new();
    for test in &file.tests {
        if let Some((_, first)) = seen.iter().find(|(n, _)| *n == test.name.text) {
            out.push(
                Diagnostic::new(
                    Code::DuplicateTest,
                    test.name.span.clone(),
                    format!("two tests are named \"{}\"", test.name.text),
                    "this name is taken",
                )
                .with_note(first.clone(), "first used here")
                .with_hint("give each test of a file its own name"),
            );
        } else {
            seen.push((&test.name.text, test.name.span.clone()));
        }
        Resolver { names, test, removed: BTreeSet::new(), out: &mut out }.test();
    }
    out.sort_by_key(|d| d.span.start);
    out
}

struct Resolver<'a> {
    names: &'a Names,
    test: &'a Test,
    /// Entities the test removes (lower case).
    removed: BTreeSet<String>,
    out: &'a mut Vec<Diagnostic>,
}

impl Resolver<'_> {
    fn test(&mut self) {
        self.settings();
        if self.test.expectations.is_empty() {
            self.out.push(
                Diagnostic::new(
                    Code::EmptyTest,
                    self.test.name.span.clone(),
                    format!("the test \"{}\" expects nothing", self.test.name.text),
                    "nothing here can fail",
                )
                .with_hint("state what must hold: `expect guard reaches gate by 40;`, `never script_error;` …"),
            );
        }
        for e in &self.test.expectations {
            self.expectation(&e.kind);
        }
    }

    /// The ticks the test plays.
    fn ticks(&self) -> u64 {
        self.test.ticks().unwrap_or(self.names.ticks)
    }

    fn settings(&mut self) {
        let mut seed = None;
        let mut ticks = None;
        for s in &self.test.settings {
            match s {
                Setting::Seed(_, span) => once(&mut seed, span, "seed", self.out),
                Setting::Ticks(n, span) => {
                    once(&mut ticks, span, "ticks", self.out);
                    if *n == 0 {
                        self.out.push(
                            Diagnostic::new(Code::TestSetting, span.clone(), "`ticks 0` plays nothing", "at least 1")
                                .with_hint("leave `ticks` out to play as many ticks as the scenario says"),
                        );
                    }
                }
                Setting::Set { target, .. } => {
                    if let Some((entity, _)) = target.text.split_once('.') {
                        self.entity_part(target, entity);
                    }
                }
                Setting::Start { entity, at, .. } => {
                    self.entity(entity);
                    if let Target::Named(n) = at
                        && find(&self.names.places, &n.text).is_none()
                    {
                        let d = Diagnostic::new(
                            Code::UnknownTarget,
                            n.span.clone(),
                            format!("no place is named `{}`", n.text),
                            "a character starts at a cell `(x, y)` or a place",
                        );
                        self.out.push(d.suggest(suggest(&n.text, &self.names.places)));
                    }
                }
                Setting::Remove { entity, .. } => {
                    if self.entity(entity) {
                        self.removed.insert(entity.text.to_ascii_lowercase());
                    }
                }
            }
        }
    }

    fn expectation(&mut self, e: &Expect) {
        for cond in conditions(e) {
            if let Ok(c) = cond.condition() {
                self.facts(&c);
            }
        }
        match e {
            Expect::Reaches { entity, target, by } => {
                self.entity(entity);
                self.target(target);
                self.window(&Window { from: None, to: *by });
            }
            Expect::Says { speaker, line, window } => {
                if let Some(s) = speaker {
                    self.entity(s);
                }
                if let LineMatch::Pattern(p) = line
                    && let Err(e) = regex::Regex::new(&p.text)
                {
                    let why = e.to_string();
                    let last = why.lines().last().unwrap_or("not a pattern").trim().to_owned();
                    self.out.push(
                        Diagnostic::new(Code::BadPattern, p.span.clone(), "this pattern does not read", last)
                            .with_hint(
                                "`matching` takes a regular expression; for the exact line, leave `matching` out",
                            ),
                    );
                }
                self.window(window);
            }
            Expect::Count { min, max, event, window } => {
                self.pattern(event);
                self.window(window);
                if let (Some(a), Some(b)) = (min, max)
                    && a > b
                {
                    self.out.push(
                        Diagnostic::new(
                            Code::TestSetting,
                            event.span.clone(),
                            format!("at least {a} and at most {b} cannot both hold"),
                            "no count is both",
                        )
                        .with_hint("write the smaller number first: `1 to 3 say`"),
                    );
                }
            }
            Expect::Order { first, then } => {
                self.pattern(first);
                self.pattern(then);
            }
            Expect::At { tick, .. } => self.tick(tick, "the tick"),
            Expect::Never { subject, window } => {
                if let Subject::Event(p) = subject {
                    self.pattern(p);
                }
                self.window(window);
            }
            Expect::Always { window, .. } => self.window(window),
            Expect::Eventually { subject, by } => {
                if let Subject::Event(p) = subject {
                    self.pattern(p);
                }
                self.window(&Window { from: None, to: *by });
            }
            Expect::Distance { a, b, window, .. } => {
                self.entity(a);
                self.entity(b);
                self.window(window);
            }
            Expect::Golden { .. } => {}
        }
    }

    /// Whether `name` is an entity of the scenario (reporting it when not).
    fn entity(&mut self, name: &Name) -> bool {
        self.entity_named(&name.text, name.span.clone())
    }

    /// The entity part of a dotted fact (`guard` of `guard.health`).
    fn entity_part(&mut self, name: &Name, entity: &str) -> bool {
        self.entity_named(entity, name.span.start..name.span.start + entity.len())
    }

    fn entity_named(&mut self, text: &str, span: std::ops::Range<usize>) -> bool {
        if find(&self.names.entities, text).is_none() {
            let d = Diagnostic::new(
                Code::UnknownEntity,
                span,
                format!("the scenario has no entity named `{text}`"),
                "not one of the scenario's entities",
            );
            let d = match suggest(text, &self.names.entities) {
                Some(s) => d.suggest(Some(s)),
                None => d.with_hint("entities are named as the scenario's `[[entities]]` and `[[crowd]]` name them"),
            };
            self.out.push(d);
            return false;
        }
        if self.removed.contains(&text.to_ascii_lowercase()) {
            self.out.push(
                Diagnostic::new(
                    Code::UnknownEntity,
                    span,
                    format!("`{text}` is removed by this test"),
                    "not in this test's world",
                )
                .with_hint("drop the `remove` or the expectation about it"),
            );
            return false;
        }
        true
    }

    fn target(&mut self, target: &Target) {
        let Target::Named(n) = target else { return };
        if find(&self.names.places, &n.text).is_some() || find(&self.names.regions, &n.text).is_some() {
            return;
        }
        let all: Vec<String> = self.names.places.iter().chain(&self.names.regions).cloned().collect();
        let d = Diagnostic::new(
            Code::UnknownTarget,
            n.span.clone(),
            format!("no place or region is named `{}`", n.text),
            "not declared by the scenario",
        );
        let d = match suggest(&n.text, &all) {
            Some(s) => d.suggest(Some(s)),
            None => d.with_hint("write a cell `(x, y)`, or a name from the scenario's `[places]` or `[regions]`"),
        };
        self.out.push(d);
    }

    fn pattern(&mut self, p: &EventPattern) {
        if find(&self.names.event_kinds, &p.kind.text).is_none() {
            let d = Diagnostic::new(
                Code::UnknownEventKind,
                p.kind.span.clone(),
                format!("the trace has no event kind `{}`", p.kind.text),
                "not an event kind",
            );
            let d = match suggest(&p.kind.text, &self.names.event_kinds) {
                Some(s) => d.suggest(Some(s)),
                None => d.with_hint(format!("the kinds are {}", self.names.event_kinds.join(", "))),
            };
            self.out.push(d);
        }
        if let Some(e) = &p.entity {
            self.entity(e);
        }
    }

    fn facts(&mut self, c: &Condition) {
        match c {
            Condition::Const(_) => {}
            Condition::Fact(n) | Condition::Compare { fact: n, .. } => self.fact(n),
            Condition::Not(c) => self.facts(c),
            Condition::And(cs) | Condition::Or(cs) => cs.iter().for_each(|c| self.facts(c)),
        }
    }

    /// A fact is a global (`GameTime`), `tick`, or `entity.something`.
    fn fact(&mut self, n: &Name) {
        if let Some((entity, _)) = n.text.split_once('.') {
            self.entity_part(n, entity);
            return;
        }
        if n.text.eq_ignore_ascii_case("tick") || find(&self.names.globals, &n.text).is_some() {
            return;
        }
        let mut all = self.names.globals.clone();
        all.push("tick".to_owned());
        let d = Diagnostic::new(
            Code::UndeclaredGlobal,
            n.span.clone(),
            format!("the scenario declares no global `{}`", n.text),
            "reads as nothing unless a script sets it",
        );
        let d = match suggest(&n.text, &all) {
            Some(s) => d.suggest(Some(s)),
            None => d.with_hint(
                "a bare name is a global; a character's facts are written `guard.health`, `guard.x`, `guard.patrol`",
            ),
        };
        self.out.push(d);
    }

    fn window(&mut self, w: &Window) {
        if let (Some(a), Some(b)) = (w.from, w.to)
            && a.tick > b.tick
        {
            self.out.push(
                Diagnostic::new(
                    Code::TickOutOfRun,
                    a.span.0..b.span.1,
                    format!("the window starts at tick {} after it ends at {}", a.tick, b.tick),
                    "no tick lies in it",
                )
                .with_hint("write the earlier tick first: `between 10 and 60`"),
            );
            return;
        }
        if let Some(a) = &w.from {
            self.tick(a, "the window's first tick");
        }
        if let Some(b) = &w.to {
            self.tick(b, "the tick");
        }
    }

    fn tick(&mut self, t: &TickAt, what: &str) {
        let ticks = self.ticks();
        if t.tick >= ticks {
            self.out.push(
                Diagnostic::new(
                    Code::TickOutOfRun,
                    t.span(),
                    format!("{what} {} is past the end of the run", t.tick),
                    format!("the test plays ticks 0 to {}", ticks.saturating_sub(1)),
                )
                .with_hint(format!("set `ticks {};` in the test, or ask for an earlier tick", t.tick + 1)),
            );
        }
    }
}

fn once(
    seen: &mut Option<std::ops::Range<usize>>,
    span: &std::ops::Range<usize>,
    what: &str,
    out: &mut Vec<Diagnostic>,
) {
    match seen {
        Some(first) => out.push(
            Diagnostic::new(Code::TestSetting, span.clone(), format!("`{what}` is set twice"), "the second time")
                .with_note(first.clone(), "first set here")
                .with_hint("a test sets each of its settings once"),
        ),
        None => *seen = Some(span.clone()),
    }
}

/// The one of `names` spelled `name`: exactly, else without regard to case.
pub(crate) fn find<'a>(names: &'a [String], name: &str) -> Option<&'a str> {
    names
        .iter()
        .find(|n| *n == name)
        .or_else(|| names.iter().find(|n| n.eq_ignore_ascii_case(name)))
        .map(String::as_str)
}

/// The one of `names` closest to `wrong`, if it is close enough to be a typo of it: at most a
/// third of its length in edits (a swapped pair counts one), at least one.
fn suggest<'a>(wrong: &str, names: &'a [String]) -> Option<&'a str> {
    let lower = wrong.to_lowercase();
    let limit = (lower.chars().count() / 3).max(1);
    names
        .iter()
        .map(|n| (strsim::damerau_levenshtein(&lower, &n.to_lowercase()), n.as_str()))
        .filter(|(d, _)| *d <= limit)
        .min()
        .map(|(_, n)| n)
}
