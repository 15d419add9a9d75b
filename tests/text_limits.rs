//! Issue 33, text front ends: every grammar Tactica reads from a mod, nested from a little to as
//! deep as the 1 MiB file cap allows, through each pass a file goes through — `tactica check`
//! (lexer, parser, checker, compiler, linters), `tactica run` (the VM) and `tactica lsp` (an
//! editor's open and change, hover and completion).
//!
//! Each file is read by the real binary in a child process, so an abort (a stack overflow) fails
//! the test instead of killing the test runner. For every child the test asserts: it exited (no
//! signal), its peak memory (`wait4`'s `ru_maxrss`) stayed under 512 MiB, it finished within a
//! bound, and where a limit applies, the coded diagnostic stands at the token where the limit
//! was reached, by line and column.

#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tactica_syntax::limits::MAX_NESTING;

/// The file cap (`scenario::files::MAX_SOURCE_BYTES`).
const CAP: usize = 1 << 20;
/// Peak memory allowed to one child.
const MAX_RSS_KIB: i64 = 512 * 1024;
/// Wall time allowed to one child: a debug build on a machine shared with other builds.
const MAX_TIME: Duration = Duration::from_secs(90);

/// What one child did.
struct Outcome {
    /// The exit code (`None`: killed by a signal).
    code: Option<i32>,
    stdout: String,
    stderr: String,
    rss_kib: i64,
    took: Duration,
}

/// Runs the binary with `args` (stdin from `input` when given) and waits for it with `wait4`, so
/// the peak memory read is this child's alone.
fn run(args: &[&str], dir: &Path, input: Option<&Path>) -> Outcome {
    let out_path = dir.join(format!("out-{}.txt", unique()));
    let err_path = dir.join(format!("err-{}.txt", unique()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tactica"));
    cmd.args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdout(fs::File::create(&out_path).unwrap())
        .stderr(fs::File::create(&err_path).unwrap());
    cmd.stdin(match input {
        Some(p) => Stdio::from(fs::File::open(p).unwrap()),
        None => Stdio::null(),
    });
    let started = Instant::now();
    let child = cmd.spawn().expect("start tactica");
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills; the pid is our own child's.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &raw mut status, 0, &raw mut usage) };
    assert_eq!(waited, pid, "wait4");
    let took = started.elapsed();
    // The child was reaped by wait4: `Child` must not wait for it again.
    std::mem::forget(child);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    Outcome {
        code,
        stdout: fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: fs::read_to_string(&err_path).unwrap_or_default(),
        rss_kib: usage.ru_maxrss,
        took,
    }
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

fn scratch(name: &str) -> PathBuf {
    tempfile::Builder::new().prefix(&format!("tactica-text-limits-{name}-")).tempdir().unwrap().keep()
}

/// The outcome held to the bounds every child must keep.
fn bounded(what: &str, o: &Outcome) {
    assert!(o.code.is_some(), "{what}: killed by a signal\n{}", tail(&o.stderr));
    assert!(!o.stderr.contains("overflow"), "{what}: {}", tail(&o.stderr));
    assert!(!o.stderr.contains("panicked"), "{what}: {}", tail(&o.stderr));
    assert!(o.rss_kib < MAX_RSS_KIB, "{what}: peak memory {} MiB", o.rss_kib / 1024);
    assert!(o.took < MAX_TIME, "{what}: took {:?}", o.took);
}

fn tail(s: &str) -> &str {
    &s[s.len().saturating_sub(2000)..]
}

/// The diagnostics of `tactica check --format json` (one object per line).
fn diagnostics(o: &Outcome) -> Vec<Value> {
    o.stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "diagnostic")
        .collect()
}

/// The 1-based line and column (in characters) of byte `at`.
fn line_col(src: &str, at: usize) -> (u64, u64) {
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line as u64, col as u64)
}

/// A text nested `n` deep.
type Nested = fn(usize) -> String;

/// One way `.tac` text nests: the text nested `n` deep, and where the limit is reached (the byte
/// offset of the token that goes past [`MAX_NESTING`]) when `n` is past it.
struct Family {
    name: &'static str,
    text: fn(usize) -> String,
    /// The offset of the token past the limit, for an `n` past it.
    limit_at: fn() -> usize,
    /// How many levels one step of `n` counts.
    per_step: usize,
}

/// Every way `.tac` text nests: brackets, unary and binary operators, string building,
/// statements inside statements, blocks, calls, lists.
fn tac_families() -> Vec<Family> {
    vec![
        Family {
            name: "parentheses",
            text: |n| format!("Print({}1{});\n", "(".repeat(n), ")".repeat(n)),
            // `Print(` is the first level: the `(` that makes it `m + 1`.
            limit_at: || 6 + (MAX_NESTING - 1),
            per_step: 1,
        },
        Family {
            name: "unclosed parentheses",
            text: |n| format!("Print({}1;\n", "(".repeat(n)),
            limit_at: || 6 + (MAX_NESTING - 1),
            per_step: 1,
        },
        Family {
            name: "unary minus",
            text: |n| format!("Print({}1);\n", "- ".repeat(n)),
            limit_at: || 6 + 2 * (MAX_NESTING - 1),
            per_step: 1,
        },
        Family {
            name: "not",
            text: |n| format!("if ({}PlayerArmed) Print(1);\n", "not ".repeat(n)),
            // `if` and its `(` are two levels.
            limit_at: || 4 + 4 * (MAX_NESTING - 2),
            per_step: 1,
        },
        Family {
            name: "sums",
            text: |n| format!("Print(1{});\n", " + 1".repeat(n)),
            limit_at: || 8 + 4 * (MAX_NESTING - 1),
            per_step: 1,
        },
        Family {
            name: "string concatenation",
            text: |n| format!("Print(\"a\"{});\n", " + \"a\"".repeat(n)),
            limit_at: || 10 + 6 * (MAX_NESTING - 1),
            per_step: 1,
        },
        Family {
            name: "if inside if",
            text: |n| format!("{}Print(1);\n", "if (PlayerArmed) ".repeat(n)),
            // The k-th `if` stands k deep plus the bracket of the condition before it.
            limit_at: || 17 * (MAX_NESTING - 1),
            per_step: 1,
        },
        Family {
            name: "else if",
            text: |n| format!("{}Print(2);\n", "if (PlayerArmed) Print(1); else ".repeat(n)),
            // An `if` and an `else` a link: the `else` of link k stands at 2k + 1.
            limit_at: || 32 * (MAX_NESTING / 2 - 1) + 27,
            per_step: 2,
        },
        Family {
            name: "blocks",
            text: |n| format!("{}Print(1);{}\n", "if (PlayerArmed) { ".repeat(n), "}".repeat(n)),
            // Two levels a step (the `if` and its block): the `if` of step k stands at 2k - 1,
            // plus the closed bracket of its statement's condition.
            limit_at: || 19 * (MAX_NESTING / 2),
            per_step: 2,
        },
        Family {
            name: "BEGIN END",
            text: |n| format!("{}Print(1); {}\n", "if (PlayerArmed) BEGIN ".repeat(n), "END ".repeat(n)),
            limit_at: || 23 * (MAX_NESTING / 2),
            per_step: 2,
        },
        Family {
            name: "calls",
            text: |n| format!("Print({}1{});\n", "Random(".repeat(n), ")".repeat(n)),
            // The bracket of the k-th `Random(` stands at k + 1.
            limit_at: || 6 + 7 * (MAX_NESTING - 1) + 6,
            per_step: 1,
        },
        Family {
            name: "lists",
            text: |n| format!("say one of {}\"a\"{};\n", "[".repeat(n), "]".repeat(n)),
            limit_at: || 11 + MAX_NESTING,
            per_step: 1,
        },
    ]
}

/// The depths each family is read at: shallow, just within the limit, just past it, and as deep
/// as the file cap allows.
fn depths(f: &Family) -> Vec<usize> {
    let within = MAX_NESTING / f.per_step - 2;
    let past = MAX_NESTING / f.per_step + 1;
    let step_bytes = (f.text)(2).len() - (f.text)(1).len();
    let deepest = (CAP - 64) / step_bytes;
    vec![3, within, past, deepest]
}

#[test]
fn tac_nested_to_the_file_cap_is_checked_without_abort_with_e0005_at_its_place() {
    let dir = scratch("tac");
    for f in tac_families() {
        for n in depths(&f) {
            let text = (f.text)(n);
            assert!(text.len() <= CAP, "{}: {} bytes", f.name, text.len());
            let file = format!("{}-{n}.tac", f.name.replace(' ', "_"));
            fs::write(dir.join(&file), &text).unwrap();
            let o = run(&["check", "--format", "json", &file], &dir, None);
            let what = format!("{} nested {n} deep", f.name);
            bounded(&what, &o);
            let found = diagnostics(&o);
            let deep: Vec<&Value> = found.iter().filter(|d| d["code"] == "E0005").collect();
            if n * f.per_step > MAX_NESTING {
                assert_eq!(o.code, Some(1), "{what}");
                assert_eq!(deep.len(), 1, "{what}: {found:?}");
                let (line, column) = line_col(&text, (f.limit_at)());
                assert_eq!(
                    (deep[0]["line"].as_u64(), deep[0]["column"].as_u64()),
                    (Some(line), Some(column)),
                    "{what}"
                );
                assert_eq!(found.len(), 1, "{what}: nothing else is read past the limit: {found:?}");
            } else {
                assert!(deep.is_empty(), "{what}: {found:?}");
            }
        }
    }
}

/// Within the limit, the deepest text of every family compiles and runs: the VM's stack and the
/// checker's walk hold at the limit, and every script prints what its expression evaluates to.
#[test]
fn tac_nested_just_within_the_limit_runs() {
    let dir = scratch("run");
    fs::write(dir.join("map.txt"), "......\n......\n......\n").unwrap();
    // What each family's innermost statement prints: one level less than `depths` reads (the
    // handler's block around the statement is one), with every condition made `true` so that
    // every branch down to the innermost `Print` is taken.
    let n_of = |f: &Family| MAX_NESTING / f.per_step - 3;
    let printed = |f: &Family| -> Option<String> {
        let n = n_of(f);
        Some(match f.name {
            // Neither is a statement on its own (`say one of` takes one list).
            "unclosed parentheses" | "lists" => return None,
            "unary minus" => if n % 2 == 1 { "-1" } else { "1" }.to_owned(),
            "sums" => (n + 1).to_string(),
            "string concatenation" => "a".repeat(n + 1),
            // `Random(1)` draws an integer in [0, 1).
            "calls" => "0".to_owned(),
            _ => "1".to_owned(),
        })
    };
    let mut scripts = Vec::new();
    for f in tac_families() {
        let Some(expected) = printed(&f) else { continue };
        let mut n = n_of(&f);
        // An even count of `not`s keeps `true` true.
        if f.name == "not" {
            n -= n % 2;
        }
        let text = (f.text)(n).replace("PlayerArmed", "true");
        let file = format!("{}.tac", f.name.replace(' ', "_"));
        fs::write(dir.join(&file), format!("kind behaviour;\non think {{\n{text}}}\n")).unwrap();
        scripts.push((file, expected));
    }
    assert_eq!(scripts.len(), 10);
    let entities: String = scripts
        .iter()
        .enumerate()
        .map(|(i, (s, _))| {
            format!("[[entities]]\nname = \"e{i}\"\nkind = \"Troll\"\nat = [{}, 1]\nscripts = [\"{s}\"]\n", i % 6)
        })
        .collect();
    let scenario = format!("name = \"deep\"\nmap = \"map.txt\"\nticks = 3\n\n{entities}");
    fs::write(dir.join("scenario.toml"), scenario).unwrap();
    let o = run(&["check", "scenario.toml"], &dir, None);
    bounded("check of the deep scenario", &o);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let o = run(&["run", "scenario.toml", "--trace", "trace.jsonl"], &dir, None);
    bounded("run of the deep scenario", &o);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let trace = fs::read_to_string(dir.join("trace.jsonl")).unwrap();
    assert!(!trace.contains("script_error"), "{}", tail(&trace));
    let events: Vec<Value> = trace.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    for (file, expected) in &scripts {
        let prints: Vec<(u64, &str)> = events
            .iter()
            .filter(|e| e["kind"] == "print" && e["file"] == file.as_str())
            .map(|e| (e["tick"].as_u64().unwrap(), e["text"].as_str().unwrap()))
            .collect();
        assert_eq!(prints, [(0, expected.as_str()), (1, expected), (2, expected)], "{file}");
    }
}

/// Model conditions, fuzzy premises and query files: the same limit through a scenario's
/// `[models]` and `[queries]`, reported in the file that holds the text.
#[test]
fn conditions_premises_and_query_files_nested_to_the_cap() {
    let dir = scratch("models");
    fs::write(dir.join("map.txt"), "......\n......\n").unwrap();
    let m = MAX_NESTING;
    // The deepest: a query file of `{ a ` and `}` (5 bytes a level) as large as the cap allows.
    for n in [5, m - 2, m + 1, (CAP - 200) / 5] {
        let past = n > m;
        // A condition: a transition's `when`.
        let when = format!("{}health < 3{}", "(".repeat(n), ")".repeat(n));
        let fsm = format!(
            "initial = \"a\"\n[[states]]\nname = \"a\"\ntransitions = [ {{ when = \"{when}\", to = \"a\" }} ]\n"
        );
        fs::write(dir.join("m.fsm.toml"), &fsm).unwrap();
        // A query file: blocks inside blocks.
        let tps = format!(
            "query q {{ option {{ Generation {{ grid_around_puppet = 5 }} Weights {} x = 1 {} }} }}\n",
            "{ a ".repeat(n),
            "}".repeat(n)
        );
        fs::write(dir.join("q.tps"), &tps).unwrap();
        // The scenario loader stops at a file's first error, so each file is its own scenario's.
        let scenario = "name = \"m\"\nmap = \"map.txt\"\nticks = 1\n[models]\nguard = { fsm = \"m.fsm.toml\" }\n";
        fs::write(dir.join("models.toml"), scenario).unwrap();
        let scenario = "name = \"q\"\nmap = \"map.txt\"\nticks = 1\n[queries]\nfiles = [\"q.tps\"]\n";
        fs::write(dir.join("queries.toml"), scenario).unwrap();
        // The query file's limit is its (m + 1)-th block:
        // `query q {`, `option {` and `Weights { a {` … (the `{` of `Generation` is closed).
        let when_at = "nested more than 200 levels deep".to_owned();
        let tps_at = tps
            .match_indices('{')
            .nth(m + 1)
            .map_or_else(String::new, |(at, _)| format!("q.tps:1:{}:", line_col(&tps, at).1));
        for (scenario, place) in [("models.toml", when_at), ("queries.toml", tps_at)] {
            let o = run(&["check", "--format", "json", scenario], &dir, None);
            let what = format!("{scenario} nested {n} deep");
            bounded(&what, &o);
            let found = diagnostics(&o);
            let deep: Vec<&Value> = found
                .iter()
                .filter(|d| d["message"].as_str().is_some_and(|m| m.contains("nested more than")))
                .collect();
            if past {
                assert_eq!(o.code, Some(1), "{what}");
                assert_eq!(deep.len(), 1, "{what}: {found:?}");
                assert!(deep[0]["message"].as_str().unwrap().contains(&place), "{what}: {place} in {found:?}");
            } else {
                assert!(deep.is_empty(), "{what}: {found:?}");
            }
        }
    }
    // Fuzzy premises nest through their prefix words.
    for n in [5, MAX_NESTING + 1, 200_000] {
        let fuzzy = format!(
            "[inputs.distance]\nnear = {{ shape = \"reverse_grade\", x0 = 2, x1 = 6 }}\n\
             [outputs.threat]\nhigh = {{ value = 1 }}\n\
             [[rules]]\nwhen = \"{}distance is near\"\nthen = \"threat is high\"\n",
            "very ".repeat(n)
        );
        fs::write(dir.join("f.fuzzy.toml"), &fuzzy).unwrap();
        let scenario = "name = \"f\"\nmap = \"map.txt\"\nticks = 1\n[models]\nthreat = { fuzzy = \"f.fuzzy.toml\" }\n";
        fs::write(dir.join("scenario.toml"), scenario).unwrap();
        let o = run(&["check", "--format", "json", "scenario.toml"], &dir, None);
        let what = format!("a fuzzy premise {n} words deep");
        bounded(&what, &o);
        let deep = diagnostics(&o)
            .into_iter()
            .filter(|d| d["message"].as_str().is_some_and(|m| m.contains("nested more than 200 levels deep")))
            .count();
        assert_eq!(deep, usize::from(n > MAX_NESTING), "{what}: {}", o.stdout);
    }
}

/// Lua and Rhai nest through their own parsers (full_moon and Lua's for Lua, rhai's for Rhai):
/// whatever the depth up to the cap, the check ends with an error, never an abort.
#[test]
fn lua_and_rhai_nested_to_the_cap_end_in_an_error() {
    let dir = scratch("lua-rhai");
    let lua: [(&str, Nested); 6] = [
        ("parentheses", |n| format!("local x = {}1{}\n", "(".repeat(n), ")".repeat(n))),
        ("tables", |n| format!("local x = {}1{}\n", "{".repeat(n), "}".repeat(n))),
        ("not", |n| format!("local x = {}true\n", "not ".repeat(n))),
        ("concatenation", |n| format!("local x = {}'a'\n", "'a' .. ".repeat(n))),
        ("if", |n| format!("{}x = 1 {}\n", "if true then ".repeat(n), "end ".repeat(n))),
        ("functions", |n| format!("local f = {}1{}\n", "function() return ".repeat(n), " end".repeat(n))),
    ];
    let rhai: [(&str, Nested); 6] = [
        ("parentheses", |n| format!("let x = {}1{};\n", "(".repeat(n), ")".repeat(n))),
        ("arrays", |n| format!("let x = {}1{};\n", "[".repeat(n), "]".repeat(n))),
        ("maps", |n| format!("let x = {}1{};\n", "#{a: ".repeat(n), "}".repeat(n))),
        ("not", |n| format!("let x = {}true;\n", "!".repeat(n))),
        ("if", |n| format!("{}x = 1; {}\n", "if true { ".repeat(n), "} ".repeat(n))),
        ("closures", |n| format!("let f = {}1;\n", "|| ".repeat(n))),
    ];
    let cases = lua.iter().map(|(name, f)| ("lua", *name, *f)).chain(rhai.iter().map(|(name, f)| ("rhai", *name, *f)));
    for (ext, name, text) in cases {
        let step = text(2).len() - text(1).len();
        for n in [150, 250, (CAP - 64) / step] {
            let file = format!("{name}-{n}.{ext}");
            fs::write(dir.join(&file), text(n)).unwrap();
            let o = run(&["check", "--format", "json", &file], &dir, None);
            let what = format!("{ext} {name} nested {n} deep");
            bounded(&what, &o);
            if n > 200 {
                assert_eq!(o.code, Some(1), "{what}: {}", o.stdout);
                let found = diagnostics(&o);
                assert!(
                    found.iter().any(|d| d["severity"] == "error" && d["line"].as_u64() >= Some(1)),
                    "{what}: {found:?}"
                );
            }
        }
    }
}

/// Lua's own limit is reported like every other Lua syntax error: file, line and column (the
/// column of the first token of that kind on the line, as for any error Lua places "near" a
/// token), never a bare "C stack overflow" at 0:0.
#[test]
fn lua_nested_too_deeply_is_a_syntax_error_at_its_place() {
    let dir = scratch("lua-deep");
    let text = format!("local y = 1\nlocal x = {}1{}\n", "(".repeat(300), ")".repeat(300));
    fs::write(dir.join("deep.lua"), text).unwrap();
    let o = run(&["check", "--format", "json", "deep.lua"], &dir, None);
    bounded("deep.lua", &o);
    assert_eq!(o.code, Some(1));
    let found = diagnostics(&o);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0]["line"].as_u64(), found[0]["column"].as_u64()), (Some(2), Some(11)));
    assert_eq!(
        found[0]["message"],
        "syntax error: deep.lua:2: nested too deeply (Lua reads at most 200 levels) near '('"
    );
    let o = run(&["check", "deep.lua"], &dir, None);
    assert!(o.stderr.starts_with("error: deep.lua:2:11: syntax error: deep.lua:2: nested too deeply"), "{}", o.stderr);
}

/// TOML (scenarios and model files) and JSON nest too; the `toml` crate stops at its own depth
/// limit with the place.
#[test]
fn toml_nested_to_the_cap_is_an_error_with_its_place() {
    let dir = scratch("toml");
    let cases: [(&str, Nested); 3] = [
        ("arrays", |n| format!("a = {}1{}\n", "[".repeat(n), "]".repeat(n))),
        ("inline tables", |n| format!("a = {}1{}\n", "{ b = ".repeat(n), " }".repeat(n))),
        ("unclosed arrays", |n| format!("a = {}\n", "[".repeat(n))),
    ];
    for (name, text) in cases {
        let step = text(2).len() - text(1).len();
        for n in [200, (CAP - 64) / step] {
            let file = format!("{}-{n}.toml", name.replace(' ', "_"));
            fs::write(dir.join(&file), text(n)).unwrap();
            let o = run(&["check", "--format", "json", &file], &dir, None);
            let what = format!("toml {name} nested {n} deep");
            bounded(&what, &o);
            assert_eq!(o.code, Some(1), "{what}");
            let found = diagnostics(&o);
            assert!(found.iter().any(|d| d["line"] == 1 && d["column"].as_u64() > Some(4)), "{what}: {found:?}");
        }
    }
}

/// A file of nothing but mistakes, as wide as a quarter of the cap: a hundred errors are listed,
/// the rest counted in one E0006, in bounded time and memory.
#[test]
fn a_file_of_mistakes_lists_a_hundred_and_counts_the_rest() {
    let dir = scratch("wide");
    let cases: [(&str, String, &str); 3] = [
        ("stray characters", "@".repeat(CAP / 4), "E0002"),
        ("unknown calls", "Foo(); ".repeat(CAP / 4 / 7), "E0011"),
        ("unknown characters on many lines", "@\n".repeat(CAP / 4 / 2), "E0002"),
    ];
    for (name, text, code) in cases {
        let file = format!("{}.tac", name.replace(' ', "_"));
        fs::write(dir.join(&file), &text).unwrap();
        let o = run(&["check", "--format", "json", &file], &dir, None);
        bounded(name, &o);
        let found = diagnostics(&o);
        assert_eq!(found.iter().filter(|d| d["code"] == code).count(), 100, "{name}");
        let summary: Vec<&Value> = found.iter().filter(|d| d["code"] == "E0006").collect();
        assert_eq!(summary.len(), 1, "{name}: {found:?}");
        // The text output draws no line too long to draw.
        let o = run(&["check", &file], &dir, None);
        bounded(name, &o);
        assert!(o.stderr.len() < 200_000, "{name}: {} bytes of diagnostics", o.stderr.len());
    }
}

/// A file of mistakes costs memory in proportion to its text, not to its errors: past the errors
/// listed, the parser keeps only each error's place and the checker stops, so the peak memory of
/// a 1 MiB file of mistakes stays within 256 MiB of a 4 KiB one (under 256 bytes a byte of text:
/// its tokens and tree), whatever the mistake (a statement that does not parse, a stray
/// character, an unknown call, a stray closer). Before the parser dropped its errors, 1 MiB of
/// `x x;` peaked 315 MiB above 4 KiB of it.
#[test]
fn a_file_of_mistakes_costs_memory_of_its_size_with_a_small_constant() {
    let dir = scratch("mistakes-memory");
    let cases: [(&str, &str); 4] = [
        ("statements that do not parse", "x x; "),
        ("stray characters", "@"),
        ("unknown calls", "Foo(); "),
        ("stray closers", "} Print(1); "),
    ];
    for (name, unit) in cases {
        let mut peaks = Vec::new();
        for bytes in [4 << 10, CAP - 64] {
            let text = unit.repeat(bytes / unit.len());
            let file = format!("{}-{bytes}.tac", name.replace(' ', "_"));
            fs::write(dir.join(&file), &text).unwrap();
            let o = run(&["check", "--format", "json", &file], &dir, None);
            let what = format!("{name}, {bytes} bytes");
            bounded(&what, &o);
            assert_eq!(o.code, Some(1), "{what}");
            let found = diagnostics(&o);
            assert_eq!(found.iter().filter(|d| d["severity"] == "error").count(), 101, "{what}: {found:?}");
            assert_eq!(found.iter().filter(|d| d["code"] == "E0006").count(), 1, "{what}: {found:?}");
            peaks.push(o.rss_kib);
        }
        eprintln!("{name}: peak RSS {} KiB at 4 KiB, {} KiB at 1 MiB", peaks[0], peaks[1]);
        assert!(peaks[1] - peaks[0] < 256 * 1024, "{name}: peak RSS {peaks:?} KiB");
    }
}

/// `tactica lsp` gets the same texts an editor would send: every document goes through the same
/// limits, hover and completion still answer, and a document larger than the cap is named, not
/// read.
#[test]
fn the_language_server_reads_deep_and_huge_documents_without_dying() {
    let dir = scratch("lsp");
    let deep = (tac_families()[0].text)(10_000);
    let sums = (tac_families()[4].text)(100_000);
    let huge = "Print(1);\n".repeat(CAP / 10 + 1000);
    let uri = "file:///deep.tac";
    let mut messages = vec![
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": null, "capabilities": {}}}),
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
               "params": {"textDocument": {"uri": uri, "languageId": "tac", "version": 1, "text": deep}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
               "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 2}}}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/completion",
               "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 300}}}),
        json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
               "params": {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": sums}]}}),
        json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
               "params": {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": huge}]}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "textDocument/hover",
               "params": {"textDocument": {"uri": uri}, "position": {"line": 5, "character": 2}}}),
    ];
    // Ranged edits of the too-large text cannot be applied; ranged edits that keep a text
    // within the cap are.
    messages.push(json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": 4}, "contentChanges": [
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]}}));
    messages.push(json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": "Print(1);\n"},
            {"range": {"start": {"line": 0, "character": 6}, "end": {"line": 0, "character": 7}},
             "text": "(".repeat(300)}]}}));
    messages.push(json!({"jsonrpc": "2.0", "id": 5, "method": "shutdown", "params": null}));
    messages.push(json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
    let mut input = Vec::new();
    for m in &messages {
        let body = serde_json::to_string(m).unwrap();
        input.extend(format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes());
    }
    fs::write(dir.join("input"), input).unwrap();
    let o = run(&["lsp"], &dir, Some(&dir.join("input")));
    bounded("the language server", &o);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    let replies = frames(&o.stdout);
    let published: Vec<&Vec<Value>> = replies
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .map(|m| m["params"]["diagnostics"].as_array().unwrap())
        .collect();
    assert_eq!(published.len(), 5, "open and four changes: {published:?}");
    // The deep document: one E0005 at the (MAX_NESTING)-th `(` after `Print(` on line 0.
    let code_at =
        |d: &Value| (d["code"].clone(), d["range"]["start"]["line"].clone(), d["range"]["start"]["character"].clone());
    assert_eq!(
        published[0].iter().map(code_at).collect::<Vec<_>>(),
        [(json!("E0005"), json!(0), json!(6 + MAX_NESTING - 1))]
    );
    assert_eq!(
        published[1].iter().map(code_at).collect::<Vec<_>>(),
        [(json!("E0005"), json!(0), json!(8 + 4 * (MAX_NESTING - 1)))]
    );
    for p in &published[2..4] {
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0]["message"].as_str().unwrap().contains("larger than the 1024 KiB"), "{p:?}");
    }
    assert_eq!(
        published[4].iter().map(code_at).collect::<Vec<_>>(),
        [(json!("E0005"), json!(0), json!(6 + MAX_NESTING - 1))]
    );
    for id in 1..=5 {
        let reply = replies.iter().find(|m| m["id"] == id).unwrap_or_else(|| panic!("no reply to request {id}"));
        assert!(reply.get("error").is_none(), "{reply}");
    }
    let completion = replies.iter().find(|m| m["id"] == 3).unwrap();
    assert!(completion["result"].as_array().is_some_and(|items| !items.is_empty()), "{completion}");
}

/// The JSON-RPC messages in a server's output.
fn frames(mut out: &str) -> Vec<Value> {
    let mut found = Vec::new();
    while let Some(i) = out.find("Content-Length: ") {
        out = &out[i + 16..];
        let end = out.find("\r\n").unwrap();
        let length: usize = out[..end].parse().unwrap();
        let body = out.find("\r\n\r\n").unwrap() + 4;
        found.push(serde_json::from_str(&out[body..body + length]).unwrap());
        out = &out[body + length..];
    }
    found
}
