//! `tactica check`: validate scenarios, maps and scripts.
//!
//! Exit code 0 when no file has an error (warnings are printed but allowed, as with rustc),
//! 1 when an error was printed — or a warning, under `--deny-warnings` (for CI).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::output::{self, Format};
use crate::host::{ScriptError, ScriptHost};
use crate::runtime::Runtime;
use crate::scenario;
use tactica_engine::grid;

/// Checks every path (folders: every file in them that tactica knows) and prints diagnostics:
/// as text on stderr (coloured at a terminal), or with `format` JSON as one object per finding on
/// stdout and a summary object last. `deny_warnings` makes a warning fail the check like an
/// error.
pub fn check(paths: &[PathBuf], deny_warnings: bool, format: Format) -> anyhow::Result<ExitCode> {
    let mut host = ScriptHost::new();
    for b in crate::languages() {
        host.add_backend(b);
    }
    let mut files = Vec::new();
    let mut walks: HashMap<PathBuf, Vec<Finding>> = HashMap::new();
    for p in paths {
        collect(p, &host, &mut files, &mut walks);
    }
    // A folder listed for what its walk passed over is not a file checked.
    let walked_only = walks.len();
    // A script checked without the scenario that uses it is checked with that scenario's
    // names all the same: the nearest one beside it or in the folders above that lists it.
    let mut scenarios: Vec<PathBuf> =
        files.iter().filter(|f| f.extension().is_some_and(|e| e == "toml")).cloned().collect();
    let mut beside = Vec::new();
    for f in files.iter().filter(|f| f.is_file() && host.backend_for(f).is_some()) {
        for s in scenarios_using(f) {
            if !scenarios.contains(&s) && !beside.contains(&s) {
                beside.push(s);
            }
        }
    }
    if format == Format::Text {
        for s in &beside {
            println!("with  {}", s.display());
        }
    }
    scenarios.extend(beside);
    let scenario_names = scenario_names(&scenarios);
    let colour = format == Format::Text && output::color();
    // The scripts a scenario file's check linted that are not on the list themselves: the
    // summary counts them, or `check scenario.toml` would seem to have looked at one file.
    let mut linted: BTreeSet<PathBuf> = BTreeSet::new();
    let mut found: Vec<Findings> = files
        .iter()
        .map(|f| match walks.remove(f) {
            Some(walked) => walked.into(),
            None => {
                let (found, scripts) = check_file(f, &mut host, &scenario_names, colour);
                linted.extend(scripts.iter().map(|p| p.canonicalize().unwrap_or_else(|_| p.clone())));
                found
            }
        })
        .collect();
    for f in &files {
        linted.remove(&f.canonicalize().unwrap_or_else(|_| f.clone()));
    }
    // Whether a file is ok is its own verdict, taken before the same mistake met twice is
    // printed once.
    let verdicts: Vec<(usize, usize)> = found.iter().map(Findings::counts).collect();
    report_each_once(&mut found);
    let (mut errors, mut warnings) = (0usize, 0usize);
    for ((f, found), verdict) in files.iter().zip(&found).zip(verdicts) {
        for p in found.iter() {
            match format {
                Format::Text => eprintln!("{}", p.text),
                Format::Json => output::json_line(&p.to_json()),
            }
        }
        let (e, w) = found.counts();
        if format == Format::Text {
            match verdict {
                (0, 0) => println!("ok    {}", f.display()),
                (0, w) => println!("ok    {} ({})", f.display(), super::count(w as u64, "warning", "warnings")),
                _ => {}
            }
        }
        errors += e;
        warnings += w;
    }
    match format {
        Format::Text => {
            let with = if linted.is_empty() {
                String::new()
            } else {
                let whose = if linted.len() == 1 { "its" } else { "their" };
                format!(" ({} linted with {whose} scenario)", super::count(linted.len() as u64, "script", "scripts"))
            };
            println!(
                "{}, {}, {}{with}",
                super::count((files.len() - walked_only) as u64, "file checked", "files checked"),
                super::count(errors as u64, "error", "errors"),
                super::count(warnings as u64, "warning", "warnings")
            );
        }
        Format::Json => output::json_line(&serde_json::json!({
            "type": "summary",
            "files": files.len() - walked_only,
            "scripts_linted_with_their_scenario": linted.len(),
            "errors": errors,
            "warnings": warnings,
        })),
    }
    let failed = errors > 0 || (deny_warnings && warnings > 0);
    Ok(if failed { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Severity {
    Error,
    Warning,
}

/// One problem found in a file: where (1-based; 0 when the whole file is meant), its code when
/// it has one, and the text a person reads.
#[derive(Debug, Clone)]
pub(crate) struct Finding {
    pub(crate) severity: Severity,
    pub(crate) file: String,
    pub(crate) start: (u32, u32),
    pub(crate) end: (u32, u32),
    /// The byte range in the checked text, for front-end diagnostics (editors want exact spans).
    pub(crate) span: Option<std::ops::Range<usize>>,
    pub(crate) code: Option<String>,
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
    pub(crate) text: String,
}

impl Finding {
    /// A finding about the whole of `file`, or an error that knows no place.
    fn plain(file: &Path, message: impl Into<String>) -> Self {
        let message = message.into();
        let text = format!("error: {}: {message}", file.display());
        Finding {
            severity: Severity::Error,
            file: file.display().to_string(),
            start: (0, 0),
            end: (0, 0),
            span: None,
            code: None,
            message,
            hint: None,
            text,
        }
    }

    /// A front-end diagnostic (`.tac`, query files, the Lua and Rhai linters), rendered with
    /// ariadne.
    fn diagnostic(file: &str, src: &str, d: &tactica_script::Diagnostic, colour: bool) -> Self {
        let line_col = |at: usize| tactica_script::diagnostics::line_col(src, at.min(src.len()));
        Finding {
            severity: if d.is_error() { Severity::Error } else { Severity::Warning },
            file: file.to_owned(),
            start: line_col(d.span.start),
            end: line_col(d.span.end),
            span: Some(d.span.start.min(src.len())..d.span.end.min(src.len())),
            code: Some(d.code.as_str().to_owned()),
            message: d.message.clone(),
            hint: d.hint.clone(),
            text: tactica_script::render(file, src, std::slice::from_ref(d), colour),
        }
    }

    /// A script that failed to compile or load.
    fn script(e: &ScriptError) -> Self {
        Finding {
            severity: Severity::Error,
            file: e.file.display().to_string(),
            start: (e.line, e.column),
            end: (e.line, e.column),
            span: None,
            code: None,
            message: e.message.clone(),
            hint: None,
            text: e.report(),
        }
    }

    fn scenario(e: &scenario::ScenarioError) -> Self {
        let at = (e.pos.line as u32, e.pos.column as u32);
        Finding {
            severity: Severity::Error,
            file: e.file.display().to_string(),
            start: at,
            end: at,
            span: None,
            code: None,
            message: e.message.clone(),
            hint: e.hint.clone(),
            text: format!("error: {e}"),
        }
    }

    fn map(e: &grid::MapError) -> Self {
        let at = (e.line as u32, e.column as u32);
        Finding {
            severity: Severity::Error,
            file: e.file.display().to_string(),
            start: at,
            end: at,
            span: None,
            code: None,
            message: e.kind.to_string(),
            hint: None,
            text: format!("error: {e}"),
        }
    }

    /// What makes two findings the same one: the file (however its path was spelled), the place
    /// and the message. A `.tac` mistake met through a scenario's load carries its code in the
    /// message (`E0016: …`); met in the file itself, the code is apart.
    fn identity(&self) -> (PathBuf, (u32, u32), String) {
        let file = Path::new(&self.file);
        let file = file.canonicalize().unwrap_or_else(|_| file.to_path_buf());
        let message = match &self.code {
            Some(_) => self.message.clone(),
            None => strip_code(&self.message).to_owned(),
        };
        (file, self.start, message)
    }

    /// The object `--format json` prints (docs/json.md).
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "type": "diagnostic",
            "severity": match self.severity { Severity::Error => "error", Severity::Warning => "warning" },
            "file": self.file,
            "line": self.start.0,
            "column": self.start.1,
            "end_line": self.end.0,
            "end_column": self.end.1,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
        })
    }
}

/// What checking one file found.
#[derive(Default)]
struct Findings(Vec<Finding>);

impl Findings {
    fn iter(&self) -> impl Iterator<Item = &Finding> {
        // Warnings first, then errors, as people read them: the error that fails the check last.
        self.0
            .iter()
            .filter(|f| f.severity == Severity::Warning)
            .chain(self.0.iter().filter(|f| f.severity == Severity::Error))
    }

    /// (errors, warnings).
    fn counts(&self) -> (usize, usize) {
        let errors = self.0.iter().filter(|f| f.severity == Severity::Error).count();
        (errors, self.0.len() - errors)
    }
}

impl From<Vec<Finding>> for Findings {
    fn from(found: Vec<Finding>) -> Self {
        Findings(found)
    }
}

/// A script a scenario uses is compiled when the scenario is checked, and again when the folder
/// walk (or the command line) reaches the file itself. Each mistake is kept once, where it was
/// first met, in its fullest form: the one that knows its code and the whole span.
fn report_each_once(found: &mut [Findings]) {
    let mut first: HashMap<_, (usize, usize)> = HashMap::new();
    for i in 0..found.len() {
        let mut j = 0;
        while j < found[i].0.len() {
            let key = found[i].0[j].identity();
            match first.get(&key) {
                None => {
                    first.insert(key, (i, j));
                    j += 1;
                }
                Some(&(fi, fj)) => {
                    let later = found[i].0.remove(j);
                    if found[fi].0[fj].code.is_none() && later.code.is_some() {
                        found[fi].0[fj] = later;
                    }
                }
            }
        }
    }
}

/// `message` without a leading error code (`E0016: `).
fn strip_code(message: &str) -> &str {
    match message.split_once(": ") {
        Some((code, rest))
            if code.len() == 5 && code.starts_with('E') && code[1..].bytes().all(|b| b.is_ascii_digit()) =>
        {
            rest
        }
        _ => message,
    }
}

/// The files to check under `p`: `p` itself when it is a file; in a folder, every file tactica
/// knows, by one bounded walk that follows no link into a folder or out of it (hidden folders
/// and `target` are passed over). What the walk passed over is reported against the folder: a
/// warning for each link not followed, an error when a bound cut the walk short.
fn collect(p: &Path, host: &ScriptHost, out: &mut Vec<PathBuf>, walks: &mut HashMap<PathBuf, Vec<Finding>>) {
    if !p.is_dir() {
        out.push(p.to_path_buf());
        return;
    }
    let walked = crate::walk::walk(p, crate::walk::WalkLimits::CHECK, |dir| {
        dir.file_name().is_some_and(|n| !n.to_string_lossy().starts_with('.') && n != "target")
    });
    out.extend(walked.files.into_iter().filter(|f| known(f, host)));
    let mut notes: Vec<Finding> = walked
        .skipped
        .iter()
        .map(|(link, why)| {
            let mut f = Finding::plain(link, why.to_string());
            f.severity = Severity::Warning;
            f.text = format!("warning: {}: {why}", link.display());
            f
        })
        .collect();
    if let Some(stop) = walked.stopped {
        notes.push(Finding::plain(p, stop.to_string()));
    }
    if !notes.is_empty() {
        out.push(p.to_path_buf());
        walks.entry(p.to_path_buf()).or_default().extend(notes);
    }
}

fn known(p: &Path, host: &ScriptHost) -> bool {
    let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
    (ext == "toml" && is_scenario(p))
        || ext == "map"
        || ext == "tps"
        || ext == "bt"
        || ext == crate::testing::prepare::EXTENSION
        || host.backend_for(p).is_some()
}

/// Whether a `.toml` file met while walking a folder is a scenario: `scenario.toml`, or a table
/// with a `map` key. Other TOML files (decision models, say) are data a scenario names, and are
/// checked when that scenario loads them.
pub(crate) fn is_scenario(p: &Path) -> bool {
    if p.file_name().is_some_and(|n| n == "scenario.toml") {
        return true;
    }
    let Ok(text) = crate::scenario::files::read_text(p, crate::scenario::files::MAX_SCENARIO_BYTES) else {
        return true; // unreadable: let the check say why
    };
    text.parse::<toml::Table>().map_or(true, |t| t.contains_key("map"))
}

/// Every problem with one file, and the scripts its check linted (a scenario's). `.tac` and the
/// Lua and Rhai linters give warnings too; the other checks report errors alone.
fn check_file(
    f: &Path,
    host: &mut ScriptHost,
    scenario_names: &[(BTreeSet<PathBuf>, tactica_script::Api)],
    colour: bool,
) -> (Findings, Vec<PathBuf>) {
    if !f.exists() {
        return (vec![Finding::plain(f, "no such file")].into(), Vec::new());
    }
    let mut linted = Vec::new();
    let ext = f.extension().and_then(|e| e.to_str()).unwrap_or("");
    let found = match ext {
        "toml" => match scenario::Loader::new().limits(super::load_limits()).load(f) {
            Err(e) => vec![Finding::scenario(&e)],
            Ok(s) => {
                linted = scripts_of(&s);
                let mut found = script_warnings_in(&s, host, colour);
                if let Err(errs) = Runtime::new(s, crate::languages()) {
                    found.extend(errs.iter().map(Finding::script));
                }
                found
            }
        },
        "map" => grid::load_movingai(f).err().map(|e| Finding::map(&e)).into_iter().collect(),
        "txt" | "grid" => grid::load_ascii(f).err().map(|e| Finding::map(&e)).into_iter().collect(),
        _ => {
            let source = match crate::scenario::files::read_text(f, crate::scenario::files::MAX_SOURCE_BYTES) {
                Ok(s) => s,
                Err(why) => return (vec![Finding::plain(f, format!("the file {why}"))].into(), Vec::new()),
            };
            // A file a scenario of this check uses is checked with that scenario's names.
            let canonical = f.canonicalize().unwrap_or_else(|_| f.to_path_buf());
            let standard = tactica_script::Api::standard();
            let api = scenario_names.iter().find(|(used, _)| used.contains(&canonical)).map_or(&standard, |(_, a)| a);
            check_text(f, &source, host, api, colour)
        }
    };
    (found.into(), linted)
}

/// The script files a scenario's characters and world run.
fn scripts_of(s: &scenario::Scenario) -> Vec<PathBuf> {
    let files: BTreeSet<&PathBuf> =
        s.entity_scripts.iter().flat_map(|e| e.files.iter()).chain(&s.world_scripts).collect();
    files.into_iter().cloned().collect()
}

/// Every problem with a script, query or test file whose text is `source` (what an editor holds,
/// which may differ from the disk): `.tps` query blocks, `.tactest` test files against their
/// scenario's names, `.tac` checked against `api`, and the host's
/// other languages compiled and, when they compile, linted against `api`. `tactica check` and
/// the language server (`tactica lsp`) share it.
pub(crate) fn check_text(
    f: &Path,
    source: &str,
    host: &mut ScriptHost,
    api: &tactica_script::Api,
    colour: bool,
) -> Vec<Finding> {
    let name = f.display().to_string();
    match f.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "tps" => check_query_blocks(f, source, colour),
        // A behaviour tree, with its leaf files (read from disk, relative to it).
        "bt" => {
            let (_, diagnostics) = crate::runtime::trees::diagnose(f, source, host, None);
            diagnostics.iter().map(|d| Finding::diagnostic(&name, source, d, colour)).collect()
        }
        // A test file is checked against its scenario's names (found from the file's path).
        crate::testing::prepare::EXTENSION => crate::testing::prepare::check_source(f, source)
            .iter()
            .map(|d| Finding::diagnostic(&name, source, d, colour))
            .collect(),
        "tac" => {
            let (_, diagnostics) = tactica_script::check(&name, source, api);
            diagnostics.iter().map(|d| Finding::diagnostic(&name, source, d, colour)).collect()
        }
        _ => match host.check_source(f, source) {
            Ok(()) => host.lint(f, source, api).iter().map(|d| Finding::diagnostic(&name, source, d, colour)).collect(),
            Err(errs) => errs.iter().map(Finding::script).collect(),
        },
    }
}

/// How many folders up from a script `check` looks for the scenario that uses it.
const SCENARIO_SEARCH_DEPTH: usize = 4;

/// The scenarios that use `script`: the scenario files of the nearest folder, beside it or up
/// to [`SCENARIO_SEARCH_DEPTH`] folders above, that has any listing it among an entity's or the
/// world's scripts. Empty when none does (the script is then checked with the standard names).
fn scenarios_using(script: &Path) -> Vec<PathBuf> {
    let Ok(canonical) = script.canonicalize() else { return Vec::new() };
    // The folders as the script's own path reaches them, so the scenario is named the way the
    // user named the script.
    let beside = script.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let folders = std::iter::successors(Some(beside.to_path_buf()), |d| Some(d.join("..")));
    for dir in folders.take(SCENARIO_SEARCH_DEPTH + 1) {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        let mut candidates: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "toml") && is_scenario(p))
            .collect();
        candidates.sort();
        let users: Vec<PathBuf> = candidates
            .into_iter()
            .filter(|p| {
                scenario::Loader::new().limits(super::load_limits()).load(p).is_ok_and(|s| {
                    s.entity_scripts
                        .iter()
                        .flat_map(|e| e.files.iter())
                        .chain(&s.world_scripts)
                        .any(|f| f.canonicalize().is_ok_and(|f| f == canonical))
                })
            })
            .collect();
        if !users.is_empty() {
            return users;
        }
    }
    Vec::new()
}

/// For each scenario among `files` that loads: the script files it uses (canonical paths) and
/// the API with its names declared (places, regions, kinds, globals, tags).
fn scenario_names(files: &[PathBuf]) -> Vec<(BTreeSet<PathBuf>, tactica_script::Api)> {
    let mut out = Vec::new();
    for f in files.iter().filter(|f| f.extension().is_some_and(|e| e == "toml")) {
        let Ok(s) = scenario::Loader::new().limits(super::load_limits()).load(f) else { continue };
        let mut api = tactica_script::Api::standard();
        api.declare_world_names(&s.world);
        api.declare_script_signals(scenario::squad_signals::of(&s));
        let used = s
            .entity_scripts
            .iter()
            .flat_map(|e| e.files.iter())
            .chain(&s.world_scripts)
            .map(|p| p.canonicalize().unwrap_or_else(|_| p.clone()))
            .collect();
        out.push((used, api));
    }
    out
}

/// What loading the scenario does not report about its scripts, checked against the scenario's
/// own names: the warnings of its `.tac` files (a role no character is tagged for …) and the
/// Lua and Rhai linters' findings (loading compiles those files, and reports only errors).
fn script_warnings_in(s: &scenario::Scenario, host: &ScriptHost, colour: bool) -> Vec<Finding> {
    let mut api = tactica_script::Api::standard();
    api.declare_world_names(&s.world);
    api.declare_script_signals(scenario::squad_signals::of(s));
    let mut warnings = Vec::new();
    for f in &scripts_of(s) {
        let Ok(source) = crate::scenario::files::read_text(f, crate::scenario::files::MAX_SOURCE_BYTES) else {
            continue;
        };
        let name = f.display().to_string();
        if f.extension().is_some_and(|e| e == "tac") {
            let (_, diagnostics) = tactica_script::check(&name, &source, &api);
            warnings.extend(
                diagnostics.iter().filter(|d| !d.is_error()).map(|d| Finding::diagnostic(&name, &source, d, colour)),
            );
        } else {
            warnings.extend(host.lint(f, &source, &api).iter().map(|d| Finding::diagnostic(&name, &source, d, colour)));
        }
    }
    warnings
}

/// A query file's mistakes, rendered like a `.tac` file's: the same front end read it.
fn check_query_blocks(f: &Path, source: &str, colour: bool) -> Vec<Finding> {
    let name = f.display().to_string();
    match tactica_engine::tactics::query::parse_queries(&name, source, Default::default()) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .0
            .iter()
            .map(|e| match e.diagnostic(source) {
                Some(d) => Finding::diagnostic(&name, source, &d, colour),
                None => Finding::plain(f, e.to_string()),
            })
            .collect(),
    }
}
