//! From test files to tests ready to play: finding the files, reading them with the front end,
//! finding and loading each file's scenario once, checking every name against it, loading each
//! test's own version of the scenario (its settings applied to what the scenario file says) and
//! resolving its expectations.
//!
//! Discovery: a path that is a file must be a test file (`*.tactest`); a folder is searched, at any
//! depth, for `*.tactest` files (folders whose names start with `.` and `target` folders are
//! left out), in path order. A test file plays the scenario its `scenario "…";` line names,
//! relative to the test file; without one, the `scenario.toml` in the test file's folder, or
//! else in the folder above (so both `example/x.tactest` and `example/tests/x.tactest` work).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use glam::IVec2;
use sha2::{Digest, Sha256};
use tactica_engine::Value;
use tactica_engine::decide::expr::Expr;
use tactica_engine::world::EventKind;
use tactica_syntax::ast::Name;
use tactica_syntax::testfile::{self, Expect, LineMatch, Literal, Names, Setting, Subject as SyntaxSubject, Target};
use tactica_syntax::{Code, Diagnostic};
use toml::Spanned;

use super::expect::{Cond, Golden, Line, Pattern, Rule, Spot, Subject, Window};
use crate::scenario::files::{MAX_SOURCE_BYTES, read_text};
use crate::scenario::{self, Position, Scenario, ScenarioFile};

/// The extension of test files.
pub const EXTENSION: &str = "tactest";

/// The largest golden file read (64 MiB: the trace of a big scenario's long run).
const MAX_GOLDEN_BYTES: u64 = 64 << 20;

/// One test, ready to play on any seed: its scenario loaded once, with the test's settings, and
/// its expectations resolved against it.
#[derive(Debug, Clone)]
pub struct PreparedTest {
    /// The test file, as found.
    pub file: PathBuf,
    /// The test's name.
    pub name: String,
    /// The line its `test` stands on.
    pub line: u32,
    /// The scenario as the test plays it, at tick 0, loaded once; see [`PreparedTest::scenario`].
    /// (A world is not `Sync`; the lock lets runs on many threads each take their copy of it.)
    scenario: Arc<Mutex<Scenario>>,
    /// The test's own seed: its `seed`, or the scenario file's.
    pub seed: u64,
    /// How many ticks it plays.
    pub ticks: u64,
    /// What must hold, in written order.
    pub expectations: Vec<Expectation>,
    /// The SHA-256 of the test file's text (shards compare it: all must have run the same tests).
    pub(crate) source_sha: String,
}

impl PreparedTest {
    /// A copy of the scenario as the test plays it, at tick 0 (its world seeded with the scenario
    /// file's seed: reseed it with the run's).
    pub fn scenario(&self) -> Scenario {
        self.scenario.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }
}

/// One expectation of a test.
#[derive(Debug, Clone)]
pub struct Expectation {
    /// The statement as written, on one line.
    pub text: String,
    /// The line it stands on.
    pub line: u32,
    pub(crate) rule: Rule,
}

/// A mistake in a test file, found by the front end or while loading its scenario.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The test file.
    pub file: PathBuf,
    /// Its text.
    pub source: Arc<String>,
    /// What is wrong, where.
    pub diagnostic: Diagnostic,
}

impl Problem {
    /// Whether it stops the file from running (a warning does not).
    pub fn is_error(&self) -> bool {
        self.diagnostic.is_error()
    }

    /// The report as `tactica check` prints it (ariadne: file, line, column, code, hint).
    pub fn render(&self, colour: bool) -> String {
        tactica_syntax::render(&shown(&self.file), &self.source, std::slice::from_ref(&self.diagnostic), colour)
    }
}

/// Why no test could be run.
#[derive(Debug, Clone)]
pub enum LoadError {
    /// A path given does not exist.
    Missing(PathBuf),
    /// A file given is not a test file (`*.tactest`).
    NotATestFile(PathBuf),
    /// No test file was found under the paths given.
    NoTests(Vec<PathBuf>),
    /// Test files with mistakes (every problem of every file, warnings among them).
    Problems(Vec<Problem>),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Missing(p) => write!(f, "{} does not exist", p.display()),
            LoadError::NotATestFile(p) => write!(
                f,
                "{} is not a test file: test files end in .{EXTENSION} (give the folder to run every test in it)",
                p.display()
            ),
            LoadError::NoTests(paths) => {
                let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
                write!(f, "no test files (*.{EXTENSION}) under {}", shown.join(", "))
            }
            LoadError::Problems(problems) => {
                for p in problems {
                    writeln!(f, "{}", p.render(false))?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// A path as reports show it: with `/`, as given.
pub(crate) fn shown(p: &Path) -> String {
    p.display().to_string().replace('\\', "/")
}

/// The test files under `paths` (see the module's doc for the rule).
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, LoadError> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_file() {
            if p.extension().is_none_or(|x| x != EXTENSION) {
                return Err(LoadError::NotATestFile(p.clone()));
            }
            out.push(p.clone());
        } else if p.is_dir() {
            walk(p, &mut out);
        } else {
            return Err(LoadError::Missing(p.clone()));
        }
    }
    if out.is_empty() {
        return Err(LoadError::NoTests(paths.to_vec()));
    }
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).into_iter().flatten().flatten().map(|e| e.path()).collect();
    entries.sort();
    for e in entries {
        let name = e.file_name().and_then(|n| n.to_str()).unwrap_or("");
        // A symlinked folder could lead back up the tree: only real folders are walked.
        let real_dir = std::fs::symlink_metadata(&e).is_ok_and(|m| m.is_dir());
        if real_dir && !name.starts_with('.') && name != "target" {
            walk(&e, out);
        } else if e.is_file() && e.extension().is_some_and(|x| x == EXTENSION) {
            out.push(e);
        }
    }
}

/// Every test of every file under `paths`, ready to play; or every problem found. Warnings of
/// files that load come back beside the tests.
pub fn load(paths: &[PathBuf]) -> Result<(Vec<PreparedTest>, Vec<Problem>), LoadError> {
    let files = discover(paths)?;
    let mut tests = Vec::new();
    let mut problems = Vec::new();
    for f in &files {
        match load_file(f) {
            Ok((t, warnings)) => {
                tests.extend(t);
                problems.extend(warnings);
            }
            Err(p) => problems.extend(p),
        }
    }
    if problems.iter().any(Problem::is_error) {
        return Err(LoadError::Problems(problems));
    }
    Ok((tests, problems))
}

/// The mistakes in a test file whose text is `source` (what an editor holds): syntax, the
/// scenario, and every name against the scenario's. `tactica check` and `tactica lsp` use it.
pub fn check_source(file: &Path, source: &str) -> Vec<Diagnostic> {
    match Reader::new(file, source) {
        Ok(r) => r.diagnostics,
        Err(d) => d,
    }
}

/// The names of the scenario a test file whose text is `source` plays (its entities, places,
/// regions, globals), for an editor's completion; `None` when its scenario is not found or does
/// not load.
pub fn names_for(file: &Path, source: &str) -> Option<Names> {
    Reader::new(file, source).ok().map(|r| r.names)
}

/// A test file read and checked against its scenario.
struct Reader {
    parsed: testfile::TestFile,
    names: Names,
    diagnostics: Vec<Diagnostic>,
    scenario_file: PathBuf,
    base: Scenario,
    base_seed: u64,
}

impl Reader {
    fn new(file: &Path, source: &str) -> Result<Reader, Vec<Diagnostic>> {
        let (parsed, mut diagnostics) = testfile::parse(source);
        let Some(parsed) = parsed else { return Err(diagnostics) };
        let at = parsed.scenario.as_ref().map_or(0..0, |s| s.span.clone());
        let scenario_file = match scenario_path(file, parsed.scenario.as_ref().map(|s| s.text.as_str())) {
            Ok(p) => p,
            Err((message, hint)) => {
                diagnostics.push(Diagnostic::new(Code::NoScenario, at, message, "no scenario here").with_hint(hint));
                return Err(diagnostics);
            }
        };
        let mut timeline_globals = Vec::new();
        let mut base_seed = 0;
        let base = scenario::load_with(&scenario_file, |f| {
            base_seed = f.seed;
            timeline_globals = f.timeline.iter().flat_map(|e| e.get_ref().set.keys().cloned()).collect();
        });
        let base = match base {
            Ok(s) => s,
            Err(e) => {
                diagnostics.push(
                    Diagnostic::new(Code::NoScenario, at, format!("the scenario does not load: {e}"), "this scenario")
                        .with_hint(format!("`tactica check {}` shows what is wrong", shown(&scenario_file))),
                );
                return Err(diagnostics);
            }
        };
        let w = &base.world;
        let mut globals: Vec<String> = w.globals.keys().cloned().collect();
        globals.extend(timeline_globals);
        let names = Names {
            entities: w.entities().map(|(_, e)| e.name.clone()).collect(),
            places: w.places().keys().cloned().collect(),
            regions: w.regions().keys().cloned().collect(),
            globals,
            event_kinds: EventKind::KINDS.iter().map(|(k, _)| (*k).to_owned()).collect(),
            ticks: base.ticks,
        };
        diagnostics.extend(testfile::check(&parsed, &names));
        diagnostics.sort_by_key(|d| d.span.start);
        Ok(Reader { parsed, names, diagnostics, scenario_file, base, base_seed })
    }
}

/// The scenario a test file plays: the one it names, or the nearest `scenario.toml`.
fn scenario_path(file: &Path, named: Option<&str>) -> Result<PathBuf, (String, String)> {
    let dir = file.parent().unwrap_or(Path::new("."));
    if let Some(name) = named {
        let p = dir.join(name);
        if p.is_file() {
            return Ok(p);
        }
        let tomls: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_owned))
            .filter(|n| n.ends_with(".toml"))
            .collect();
        let close = tomls
            .iter()
            .map(|n| (strsim::damerau_levenshtein(n, name), n))
            .filter(|(d, n)| *d <= (n.len() / 3).max(2))
            .min();
        let hint = match close {
            Some((_, n)) => format!("did you mean `{n}`?"),
            None => "the path is relative to the test file's folder".to_owned(),
        };
        return Err((format!("the scenario `{}` does not exist", shown(&p)), hint));
    }
    let mut candidates = vec![dir.join("scenario.toml")];
    if let Some(up) = dir.parent() {
        candidates.push(up.join("scenario.toml"));
    }
    candidates.into_iter().find(|p| p.is_file()).ok_or_else(|| {
        (
            "the test file names no scenario and none is beside it".to_owned(),
            "start the file with `scenario \"path/to/scenario.toml\";`".to_owned(),
        )
    })
}

/// The tests of one file, or its problems.
fn load_file(file: &Path) -> Result<(Vec<PreparedTest>, Vec<Problem>), Vec<Problem>> {
    let source = match read_text(file, MAX_SOURCE_BYTES) {
        Ok(s) => Arc::new(s),
        Err(why) => {
            let d = Diagnostic::new(Code::NoScenario, 0..0, format!("the test file {why}"), "here");
            return Err(vec![Problem { file: file.to_path_buf(), source: Arc::new(String::new()), diagnostic: d }]);
        }
    };
    let problem = |d: Diagnostic| Problem { file: file.to_path_buf(), source: Arc::clone(&source), diagnostic: d };
    let reader = Reader::new(file, &source).map_err(|ds| ds.into_iter().map(problem).collect::<Vec<_>>())?;
    if reader.diagnostics.iter().any(Diagnostic::is_error) {
        return Err(reader.diagnostics.into_iter().map(problem).collect());
    }
    let sha: String = Sha256::digest(source.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
    let mut tests = Vec::new();
    let mut errors = Vec::new();
    for t in &reader.parsed.tests {
        match prepare(file, &source, &reader, t) {
            Ok(mut p) => {
                p.source_sha.clone_from(&sha);
                tests.push(p);
            }
            Err(d) => errors.push(problem(d)),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok((tests, reader.diagnostics.into_iter().map(problem).collect()))
}

fn prepare(file: &Path, source: &str, r: &Reader, t: &testfile::Test) -> Result<PreparedTest, Diagnostic> {
    let changes_world = t.settings.iter().any(|s| !matches!(s, Setting::Seed(..) | Setting::Ticks(..)));
    let scenario = if changes_world {
        let mut refused = None;
        let loaded = scenario::load_with(&r.scenario_file, |f| {
            for s in &t.settings {
                if let Err(d) = apply(f, s) {
                    refused.get_or_insert(d);
                }
            }
        });
        if let Some(d) = refused {
            return Err(d);
        }
        loaded.map_err(|e| {
            Diagnostic::new(
                Code::NoScenario,
                t.name.span.clone(),
                format!("with this test's settings the scenario does not load: {e}"),
                "this test",
            )
            .with_hint("a character must start on an open cell of the map")
        })?
    } else {
        r.base.clone()
    };
    let resolve = Resolve { scenario: &scenario, dir: file.parent().unwrap_or(Path::new(".")), source };
    let mut expectations = Vec::new();
    for e in &t.expectations {
        let text = source.get(e.span.clone()).unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ");
        let line = tactica_syntax::line_col(source, e.span.start).0;
        expectations.push(Expectation { text, line, rule: resolve.rule(&e.kind)? });
    }
    Ok(PreparedTest {
        file: file.to_path_buf(),
        name: t.name.text.clone(),
        line: tactica_syntax::line_col(source, t.span.start).0,
        seed: t.seed().unwrap_or(r.base_seed),
        ticks: t.ticks().unwrap_or(scenario.ticks),
        scenario: Arc::new(Mutex::new(scenario)),
        expectations,
        source_sha: String::new(),
    })
}

/// Applies a test's setting to what the scenario file says.
fn apply(f: &mut ScenarioFile, s: &Setting) -> Result<(), Diagnostic> {
    let entity = |f: &mut ScenarioFile, name: &Name| {
        let at = f.entities.iter().position(|e| e.get_ref().name.eq_ignore_ascii_case(&name.text));
        at.ok_or_else(|| {
            Diagnostic::new(
                Code::UnknownEntity,
                name.span.clone(),
                format!("`{}` is a member of a crowd, which a test cannot change one by one", name.text),
                "not one of the scenario's `[[entities]]`",
            )
            .with_hint("settings reach the characters the scenario lists in `[[entities]]`")
        })
    };
    match s {
        Setting::Seed(..) | Setting::Ticks(..) => {}
        Setting::Set { target, value, .. } => {
            let value = literal(value);
            match target.text.split_once('.') {
                Some((who, key)) => {
                    let who = Name { text: who.to_owned(), span: target.span.clone() };
                    let i = entity(f, &who)?;
                    let (span, mut spec) = (f.entities[i].span(), f.entities[i].get_ref().clone());
                    spec.attributes.insert(key.to_owned(), value);
                    f.entities[i] = Spanned::new(span, spec);
                }
                None => {
                    let key = f.globals.keys().find(|k| k.eq_ignore_ascii_case(&target.text)).cloned();
                    f.globals.insert(key.unwrap_or_else(|| target.text.clone()), value);
                }
            }
        }
        Setting::Start { entity: who, at, .. } => {
            let i = entity(f, who)?;
            let (span, mut spec) = (f.entities[i].span(), f.entities[i].get_ref().clone());
            let position = match at {
                Target::Cell(c, _) => Position::Cell(*c),
                Target::Named(n) => {
                    let place = f.places.keys().find(|p| p.eq_ignore_ascii_case(&n.text)).cloned();
                    Position::Place(place.unwrap_or_else(|| n.text.clone()))
                }
            };
            spec.at = Spanned::new(spec.at.span(), position);
            f.entities[i] = Spanned::new(span, spec);
        }
        Setting::Remove { entity: who, .. } => {
            let i = entity(f, who)?;
            let name = f.entities.remove(i).into_inner().name;
            // Without its player, the scenario has no one to encounter.
            if f.player.as_ref().is_some_and(|p| p.get_ref() == &name) {
                f.player = None;
            }
        }
    }
    Ok(())
}

fn literal(l: &Literal) -> Value {
    match l {
        Literal::Int(n) => Value::Int(*n),
        Literal::Float(x) => Value::Float(*x),
        Literal::Str(s) => Value::Str(s.clone()),
        Literal::Bool(b) => Value::Bool(*b),
    }
}

/// Resolves a test's expectations against the scenario it plays.
struct Resolve<'a> {
    scenario: &'a Scenario,
    dir: &'a Path,
    source: &'a str,
}

impl Resolve<'_> {
    /// The scenario's spelling of an entity's name (the checker has made sure there is one).
    fn entity(&self, n: &Name) -> String {
        let w = &self.scenario.world;
        if w.find(&n.text).is_some() {
            return n.text.clone();
        }
        w.entities().map(|(_, e)| &e.name).find(|e| e.eq_ignore_ascii_case(&n.text)).cloned().unwrap_or(n.text.clone())
    }

    fn window(w: &testfile::Window) -> Window {
        Window { from: w.from.map_or(0, |t| t.tick), to: w.to.map(|t| t.tick) }
    }

    fn pattern(&self, p: &testfile::EventPattern) -> Pattern {
        Pattern {
            kind: p.kind.text.to_ascii_lowercase(),
            text: p.text.as_ref().map(|t| t.text.clone()),
            entity: p.entity.as_ref().map(|e| self.entity(e)),
        }
    }

    fn cond(&self, c: &testfile::Cond, span_text: String) -> Result<Cond, Diagnostic> {
        let condition = c.condition()?;
        let expr = canonical(Expr::from(&condition), &|fact| self.fact(fact));
        Ok(Cond { expr, text: span_text })
    }

    /// A fact with the scenario's spelling of its entity and global names.
    fn fact(&self, name: &str) -> String {
        let w = &self.scenario.world;
        match name.split_once('.') {
            Some((who, rest)) => {
                let who = self.entity(&Name { text: who.to_owned(), span: 0..0 });
                format!("{who}.{rest}")
            }
            None => w.globals.keys().find(|k| k.eq_ignore_ascii_case(name)).cloned().unwrap_or(name.to_owned()),
        }
    }

    fn subject(&self, s: &SyntaxSubject, text: &str) -> Result<Subject, Diagnostic> {
        Ok(match s {
            SyntaxSubject::Event(p) => Subject::Event(self.pattern(p)),
            SyntaxSubject::Condition(c) => Subject::Cond(self.cond(c, text.to_owned())?),
        })
    }

    fn spot(&self, t: &Target) -> Spot {
        let w = &self.scenario.world;
        match t {
            Target::Cell([x, y], _) => Spot::Cell { cell: IVec2::new(*x, *y), name: format!("({x}, {y})") },
            Target::Named(n) => {
                let place = w.places().iter().find(|(k, _)| k.eq_ignore_ascii_case(&n.text));
                if let Some((name, p)) = place {
                    return Spot::Cell { cell: p.floor().as_ivec2(), name: name.clone() };
                }
                let region = w.regions().iter().find(|(k, _)| k.eq_ignore_ascii_case(&n.text));
                match region {
                    Some((name, r)) => Spot::Region { region: *r, name: name.clone() },
                    // The checker reported it; a cell nobody stands on keeps the rule total.
                    None => Spot::Cell { cell: IVec2::splat(i32::MIN), name: n.text.clone() },
                }
            }
        }
    }

    fn rule(&self, e: &Expect) -> Result<Rule, Diagnostic> {
        let cond_text = |c: &testfile::Cond| {
            let text = self.source.get(c.span.clone()).unwrap_or_default();
            c.condition().map(|_| text.split_whitespace().collect::<Vec<_>>().join(" "))
        };
        Ok(match e {
            Expect::Reaches { entity, target, by } => {
                Rule::Reaches { entity: self.entity(entity), spot: self.spot(target), by: by.map(|t| t.tick) }
            }
            Expect::Says { speaker, line, window } => Rule::Says {
                speaker: speaker.as_ref().map(|s| self.entity(s)),
                line: match line {
                    LineMatch::Exact(t) => Line::Exact(t.text.clone()),
                    LineMatch::Pattern(p) => Line::Pattern(regex::Regex::new(&p.text).map_err(|e| {
                        Diagnostic::new(Code::BadPattern, p.span.clone(), "this pattern does not read", e.to_string())
                    })?),
                },
                window: Self::window(window),
            },
            Expect::Count { min, max, event, window } => {
                Rule::Count { min: *min, max: *max, event: self.pattern(event), window: Self::window(window) }
            }
            Expect::Order { first, then } => Rule::Order { first: self.pattern(first), then: self.pattern(then) },
            Expect::At { condition, tick } => {
                Rule::At { cond: self.cond(condition, cond_text(condition)?)?, tick: tick.tick }
            }
            Expect::Never { subject, window } => {
                let text = match subject {
                    SyntaxSubject::Condition(c) => cond_text(c)?,
                    SyntaxSubject::Event(_) => String::new(),
                };
                Rule::Never { subject: self.subject(subject, &text)?, window: Self::window(window) }
            }
            Expect::Always { condition, window } => {
                Rule::Always { cond: self.cond(condition, cond_text(condition)?)?, window: Self::window(window) }
            }
            Expect::Eventually { subject, by } => {
                let text = match subject {
                    SyntaxSubject::Condition(c) => cond_text(c)?,
                    SyntaxSubject::Event(_) => String::new(),
                };
                Rule::Eventually { subject: self.subject(subject, &text)?, by: by.map(|t| t.tick) }
            }
            Expect::Distance { a, b, bound, cells, window } => Rule::Distance {
                a: self.entity(a),
                b: self.entity(b),
                at_least: *bound == testfile::Bound::AtLeast,
                #[expect(clippy::cast_possible_truncation, reason = "a distance in cells fits an f32")]
                cells: *cells as f32,
                window: Self::window(window),
            },
            Expect::Golden { of, file } => {
                let path = self.dir.join(&file.text);
                let expected = read_text(&path, MAX_GOLDEN_BYTES)
                    .ok()
                    .map(|text| Arc::new(text.lines().map(str::to_owned).collect::<Vec<_>>()));
                Rule::Golden(Golden { of: *of, file: path, shown: file.text.clone(), expected })
            }
        })
    }
}

/// `e` with every fact renamed by `rename`.
fn canonical(e: Expr, rename: &dyn Fn(&str) -> String) -> Expr {
    match e {
        Expr::Const(b) => Expr::Const(b),
        Expr::Fact(f) => Expr::Fact(rename(&f)),
        Expr::Compare { fact, op, value } => Expr::Compare { fact: rename(&fact), op, value },
        Expr::Not(e) => Expr::Not(Box::new(canonical(*e, rename))),
        Expr::And(es) => Expr::And(es.into_iter().map(|e| canonical(e, rename)).collect()),
        Expr::Or(es) => Expr::Or(es.into_iter().map(|e| canonical(e, rename)).collect()),
    }
}
