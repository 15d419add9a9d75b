//! `tactica test` and `tactica replay` held to their word: every kind of expectation passes and
//! fails as its snapshot shows; a seed sweep finds a planted bug on exactly the seeds an
//! independent computation says it fails on, whatever the number of threads; the JUnit file
//! reads back in a JUnit parser; four shard processes merge into the single run's report; a
//! golden names its first difference; `--bless` writes goldens; replay finds the first
//! divergence of a hand-edited trace and reproduces an unedited one; the explanations of the
//! test-file codes hold against the real harbour scenario; exit codes say how a run went.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use tactica::testing::{Options, Seeds, Suite, Verdict};

const YARD: &str = "tests/fixtures/testing/yard";

fn tactica(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tactica")).args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    tempfile::Builder::new().prefix(&format!("tactica-testing-{name}-")).tempdir().unwrap().keep()
}

fn options(threads: usize, seeds: Option<Seeds>) -> Options {
    Options { seeds, threads, bless: false }
}

#[test]
fn each_kind_of_expectation_passes_and_fails_as_its_snapshot_shows() {
    let kinds = ["reaches", "says", "count", "order", "at", "never", "always", "eventually", "distance", "golden"];
    for kind in kinds {
        let file = format!("{YARD}/kinds/{kind}.tactest");
        let suite = Suite::load(&[&file]).unwrap();
        let report = suite.run(&options(1, None), &|| {});
        let names: Vec<(&str, bool)> =
            suite.tests.iter().zip(&report.results).map(|(t, r)| (t.name.as_str(), r.passed())).collect();
        assert_eq!(names, [("passes", true), ("fails", false)], "{kind}:\n{}", report.text(false));
        insta::assert_snapshot!(kind, report.text(false));
    }
}

/// The seeds in `seeds` on which the yard's guard divides by zero: his script's first call (its
/// spawn, on tick 0) draws `Random(40)` first from its own stream — the seed's, tick 0's and
/// the guard's first script's — and fails on a 0.
fn seeds_the_bug_fails_on(seeds: std::ops::RangeInclusive<u64>) -> Vec<u64> {
    use tactica_engine::world::WorldRng;
    let guard = WorldRng::stream_key(&[b"guard", &0u32.to_le_bytes()]);
    seeds.filter(|&s| WorldRng::for_call(s, 0, guard).below(40) == 0).collect()
}

#[test]
fn a_sweep_finds_the_planted_bug_on_exactly_its_seeds_whatever_the_threads() {
    let expected = seeds_the_bug_fails_on(1..=100);
    assert!((1..=10).contains(&expected.len()), "a few seeds out of 100 fail: {expected:?}");
    let suite = Suite::load(&[format!("{YARD}/bug.tactest")]).unwrap();
    let seeds = Some("1..100".parse::<Seeds>().unwrap());
    let report = suite.run(&options(2, seeds), &|| {});
    let stats = report.stats(0);
    assert_eq!(stats[0].failing_seeds, expected, "never script_error");
    assert_eq!((stats[0].passed, stats[0].failed), (100 - expected.len(), expected.len()));
    assert_eq!((stats[1].passed, stats[1].failed), (100, 0), "the courier arrives on every seed");
    let failures = report.failures();
    assert_eq!(failures.iter().map(|f| f.seed).collect::<Vec<_>>(), expected);
    for f in &failures {
        assert_eq!((f.tick, f.line), (0, 3));
        assert!(f.seen.contains("guard.tac:7:17") && f.seen.contains("E0103"), "{}", f.seen);
        assert!(f.replay.ends_with(&format!("--seed {}", f.seed)), "{}", f.replay);
    }
    // One thread or three: the same report, byte for byte.
    let one = suite.run(&options(1, seeds), &|| {});
    let three = suite.run(&options(3, seeds), &|| {});
    assert_eq!(one, report);
    assert_eq!(
        serde_json::to_string(&three.json_lines()).unwrap(),
        serde_json::to_string(&report.json_lines()).unwrap()
    );
    // The replay command shows that one failure again.
    let f = &failures[0];
    let o = tactica(&["test", &f.file, "--name", &f.test, "--seed", &f.seed.to_string()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("tick 0: script error in guard.tac:7:17"), "{}", stdout(&o));
}

#[test]
fn the_junit_file_reads_back_in_a_junit_parser() {
    let dir = scratch("junit");
    let xml = dir.join("report.xml");
    let o = tactica(&[
        "test",
        &format!("{YARD}/bug.tactest"),
        &format!("{YARD}/kinds/order.tactest"),
        "--seeds",
        "1..10",
        "--junit",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let parsed = junit_parser::from_reader(std::io::BufReader::new(std::fs::File::open(&xml).unwrap())).unwrap();
    assert_eq!(parsed.suites.len(), 2);
    let bug = &parsed.suites[0];
    assert_eq!(bug.name, format!("{YARD}/bug.tactest"));
    assert_eq!(bug.tests, 10);
    let failed_seeds = seeds_the_bug_fails_on(1..=10);
    assert_eq!(bug.failures as usize, failed_seeds.len());
    for case in &bug.cases {
        let seed: u64 = case.original_name.rsplit("seed ").next().unwrap().trim_end_matches(']').parse().unwrap();
        assert_eq!(case.status.is_failure(), failed_seeds.contains(&seed), "{}", case.name);
        if let junit_parser::TestStatus::Failure(f) = &case.status {
            assert_eq!(f.message, "line 3: never script_error;");
            assert!(f.text.contains("E0103") && f.text.contains("--seed"), "{}", f.text);
        }
    }
    let order = &parsed.suites[1];
    assert_eq!((order.tests, order.failures), (20, 10), "passes on 10 seeds, fails on 10");
}

#[test]
fn four_shards_merge_into_the_report_of_the_single_run() {
    let dir = scratch("shards");
    let out = dir.join("shards");
    let paths = [format!("{YARD}/bug.tactest"), format!("{YARD}/kinds/count.tactest")];
    let args = |extra: &[&str]| {
        let mut a = vec!["test", &paths[0], &paths[1], "--seeds", "1..12", "--format", "json"];
        a.extend_from_slice(extra);
        a.iter().map(|s| (*s).to_owned()).collect::<Vec<String>>()
    };
    let single = Command::new(env!("CARGO_BIN_EXE_tactica")).args(args(&[])).output().unwrap();
    assert_eq!(single.status.code(), Some(1));
    // The four shards run as four processes at once, as four CI machines would.
    let shards: Vec<_> = (1..=4)
        .map(|i| {
            let shard = format!("{i}/4");
            Command::new(env!("CARGO_BIN_EXE_tactica"))
                .args(args(&["--shard", &shard, "--out", out.to_str().unwrap(), "--threads", "1"]))
                .spawn()
                .unwrap()
        })
        .collect();
    for mut s in shards {
        assert!(s.wait().unwrap().code().is_some());
    }
    let merged = tactica(&["test", "--merge", out.to_str().unwrap(), "--format", "json"]);
    assert_eq!(merged.status.code(), single.status.code());
    assert_eq!(stdout(&merged), stdout(&single));
    assert!(stdout(&single).lines().count() > 5);
    // A missing shard is refused, not merged into a report that leaves runs out.
    std::fs::remove_file(out.join("shard-3-of-4.json")).unwrap();
    let o = tactica(&["test", "--merge", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("shards 3 of 4 are missing"));
}

#[test]
fn a_golden_names_its_first_difference_and_bless_writes_it() {
    let suite = Suite::load(&[format!("{YARD}/kinds/golden.tactest")]).unwrap();
    let report = suite.run(&options(1, None), &|| {});
    let failure = &report.failures()[0];
    assert_eq!(failure.tick, 45);
    assert!(failure.seen.contains("at line 18 (tick 45)"), "{}", failure.seen);
    assert!(
        failure
            .seen
            .contains(r#"- golden line 18: {"tick":45,"entity":"courier","kind":"say","text":"Delivered, sir."}"#)
    );
    assert!(
        failure.seen.contains(r#"+ this run:      {"tick":45,"entity":"courier","kind":"say","text":"Delivered."}"#)
    );
    assert!(failure.seen.contains("line 17:"), "the lines before it are shown");
    // --bless writes a golden a later run passes, and a hand edit of it fails.
    let dir = scratch("bless");
    for f in ["scenario.toml", "yard.txt", "guard.tac"] {
        std::fs::copy(Path::new(YARD).join(f), dir.join(f)).unwrap();
    }
    let test = dir.join("g.tactest");
    std::fs::write(&test, "test \"g\" { seed 2; expect narration matches \"out/yard.txt\"; }\n").unwrap();
    let test = test.to_str().unwrap();
    assert_eq!(tactica(&["test", test]).status.code(), Some(1), "no golden yet");
    let o = tactica(&["test", test, "--bless"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("(written: 19 lines)"), "{}", stdout(&o));
    let golden = std::fs::read_to_string(dir.join("out/yard.txt")).unwrap();
    assert_eq!(golden.lines().next(), Some("[    0] courier (human, team post) appears at (1, 1)"));
    assert_eq!(tactica(&["test", test]).status.code(), Some(0));
    std::fs::write(dir.join("out/yard.txt"), golden.replace("Delivered.", "Delivered!")).unwrap();
    let o = tactica(&["test", test]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("the narration differs from out/yard.txt at line"), "{}", stdout(&o));
}

#[test]
fn replay_finds_the_first_divergence_of_an_edited_trace_and_reproduces_an_unedited_one() {
    let dir = scratch("replay");
    let trace = dir.join("harbour.jsonl");
    let o = tactica(&["run", "examples/harbour", "-q", "--trace", trace.to_str().unwrap()]);
    assert!(o.status.success());
    let o = tactica(&["replay", trace.to_str().unwrap(), "examples/harbour"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o), "the trace reproduces: 115 events over 200 ticks, every one the same\n");
    // A player's bug report, edited by hand: the lookout's line changed.
    let text = std::fs::read_to_string(&trace).unwrap();
    let at = text.lines().position(|l| l.contains("Lock's open")).unwrap();
    let edited = text.replace("Lock's open. Go!", "Lock's open. Run!");
    let bad = dir.join("edited.jsonl");
    std::fs::write(&bad, edited).unwrap();
    let o = tactica(&["replay", bad.to_str().unwrap(), "examples/harbour"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.starts_with(&format!("the replay diverges at tick 43 (line {} of the trace):\n", at + 1)), "{out}");
    assert!(
        out.contains(r#"  - trace:  {"tick":43,"entity":"lookout","kind":"say","text":"Lock's open. Run!"}"#),
        "{out}"
    );
    assert!(
        out.contains(r#"  + replay: {"tick":43,"entity":"lookout","kind":"say","text":"Lock's open. Go!"}"#),
        "{out}"
    );
    // Another seed's run is not this trace's: a divergence too; the right seed reproduces it.
    let seeded = dir.join("seeded.jsonl");
    assert!(
        tactica(&["run", "examples/castle", "-q", "--seed", "4", "--trace", seeded.to_str().unwrap()]).status.success()
    );
    assert_eq!(tactica(&["replay", seeded.to_str().unwrap(), "examples/castle", "--seed", "4"]).status.code(), Some(0));
    // A line that is not an event is a usage error with its line.
    std::fs::write(&bad, format!("{}\nnot json\n", text.lines().next().unwrap())).unwrap();
    let o = tactica(&["replay", bad.to_str().unwrap(), "examples/harbour"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 2 of the trace is not a trace event"));
}

#[test]
fn a_test_writes_the_trace_replay_reads() {
    let dir = scratch("trace");
    let trace = dir.join("t.jsonl");
    let file = format!("{YARD}/kinds/reaches.tactest");
    let o = tactica(&["test", &file, "--name", "passes", "--trace", trace.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let o = tactica(&["replay", trace.to_str().unwrap(), &file, "--name", "passes"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = tactica(&["test", &file, "--trace", trace.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "two tests are selected: --trace needs one run");
}

#[test]
fn exit_codes_say_how_the_run_went() {
    let dir = scratch("exit");
    assert_eq!(tactica(&["test", &format!("{YARD}/kinds/reaches.tactest"), "--name", "passes"]).status.code(), Some(0));
    assert_eq!(tactica(&["test", &format!("{YARD}/kinds/reaches.tactest")]).status.code(), Some(1));
    assert_eq!(tactica(&["test", dir.to_str().unwrap()]).status.code(), Some(2), "no test files");
    let o = tactica(&["test", "examples/harbour/scenario.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a test file: test files end in .tactest"));
    let bad = dir.join("bad.tactest");
    std::fs::write(
        &bad,
        format!(
            "scenario \"{}/scenario.toml\";\ntest \"t\" {{ expect courir reaches kGate; }}\n",
            std::fs::canonicalize(YARD).unwrap().display()
        ),
    )
    .unwrap();
    let o = tactica(&["test", bad.to_str().unwrap(), "--color", "never"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("[E0110] Error: the scenario has no entity named `courir`")
            && err.contains("did you mean `courier`?"),
        "{err}"
    );
    // `tactica check` finds the same mistake, as it finds every other.
    let o = tactica(&["check", bad.to_str().unwrap(), "--color", "never"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("E0110"));
    assert_eq!(tactica(&["test", &format!("{YARD}/bug.tactest"), "--name", "nope"]).status.code(), Some(2));
}

#[test]
fn the_test_file_codes_explanations_hold_against_the_harbour() {
    use tactica_script::{Code, TextKind, explanation};
    let dir = scratch("explain");
    for f in ["scenario.toml", "harbour.txt"] {
        std::fs::copy(Path::new("examples/harbour").join(f), dir.join(f)).unwrap();
    }
    let codes_of = |src: &str| {
        let file = dir.join("explain.tactest");
        tactica::testing::prepare::check_source(&file, src).into_iter().map(|d| d.code).collect::<Vec<Code>>()
    };
    let mut checked = 0;
    for &code in Code::ALL {
        let e = explanation(code);
        if e.text_kind != TextKind::TestFile {
            continue;
        }
        assert!(codes_of(e.wrong).contains(&code), "{code}'s wrong example gave {:?}", codes_of(e.wrong));
        assert_eq!(codes_of(e.right), [], "{code}'s right example");
        // The right examples state what the harbour does: they pass.
        let file = dir.join(format!("{code}.tactest"));
        std::fs::write(&file, e.right).unwrap();
        let report = tactica::testing::run(&[&file], &options(1, None)).unwrap();
        assert!(report.passed(), "{code}'s right example:\n{}", report.text(false));
        checked += 1;
    }
    assert_eq!(checked, 10);
}

#[test]
fn a_game_drives_a_watch_from_its_own_loop() {
    let suite = Suite::load(&[format!("{YARD}/kinds/says.tactest")]).unwrap();
    let test = &suite.tests[0];
    let mut scenario = test.scenario();
    scenario.world.reseed(test.seed);
    let mut rt = tactica::runtime::Runtime::new(scenario, tactica::languages()).unwrap();
    rt.keep_events(Some(64));
    let mut watch = tactica::testing::Watch::new(test, test.seed);
    let mut ticks = 0;
    while !watch.done() {
        rt.tick();
        ticks += 1;
        let events = rt.drain_events();
        watch.observe(rt.world(), &events);
    }
    let verdicts = watch.finish(rt.world());
    assert_eq!(verdicts, [Verdict::Passed { tick: 45 }, Verdict::Passed { tick: 30 }]);
    assert_eq!(ticks, 46, "decided at tick 45: no need to play on");
}

#[test]
fn every_shipped_example_keeps_its_promises() {
    let report = tactica::testing::run(&["examples"], &options(2, None)).unwrap();
    assert!(report.passed(), "{}", report.text(false));
    let files: std::collections::BTreeSet<&str> = report.plan.tests.iter().map(|t| t.file.as_str()).collect();
    for example in ["castle", "cover", "crowd", "guide", "harbour", "modding", "steering", "tactics", "village"] {
        assert!(files.iter().any(|f| f.starts_with(&format!("examples/{example}/"))), "{example} has no tests");
    }
}

/// The JSON header of a viewer page (`tactica view`'s format, docs/viewer.md).
fn viewer_header(html: &str) -> serde_json::Value {
    let start = r#"<script id="tactica-meta" type="application/json">"#;
    let at = html.find(start).expect("the page has its header") + start.len();
    let end = at + html[at..].find("</script>").unwrap();
    serde_json::from_str(&html[at..end].replace("<\\/", "</")).unwrap()
}

#[test]
fn a_failing_run_writes_its_viewer_opened_at_the_first_failing_tick() {
    let dir = scratch("view");
    let views = dir.join("views");
    let file = format!("{YARD}/view.tactest");
    let o = tactica(&["test", &file, "--view", views.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let page = views.join("view-the-yard-goes-wrong-twice-seed-1.html");
    let text = stdout(&o);
    assert!(
        text.contains(&format!("      view:   {} (opens at tick 12, guard selected)\n", page.display())),
        "the failure names its viewer:\n{text}"
    );
    let names: Vec<String> =
        std::fs::read_dir(&views).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["view-the-yard-goes-wrong-twice-seed-1.html"], "one file per failing run");
    let meta = viewer_header(&std::fs::read_to_string(&page).unwrap());
    assert_eq!((meta["seed"].as_u64(), meta["ticks"].as_u64()), (Some(1), Some(60)), "the test's own run, all of it");
    assert_eq!(meta["startTick"], 12, "it opens at the first failing tick");
    assert_eq!(meta["select"], "guard", "with the character that failure is about selected");
    assert_eq!(
        meta["markers"],
        serde_json::json!([
            { "tick": 12, "kind": "failure", "entity": "guard",
              "label": "line 6: expect guard reaches kGate by 12; — guard was at (3, 5), 8.1 cells from kGate" },
            { "tick": 22, "kind": "failure", "entity": "courier",
              "label": "line 7: always (courier.x < 6); — courier.x = 6" },
        ]),
        "a marker for every failed expectation of the run, and none for the one that held"
    );

    // JSON names the file on each failure of the run; a run that passes writes nothing.
    let o = tactica(&["test", &file, "--view", views.to_str().unwrap(), "--format", "json"]);
    let failures: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "failure")
        .collect();
    assert_eq!(failures.len(), 2);
    assert!(failures.iter().all(|f| f["view"] == page.display().to_string()), "{failures:?}");
    assert_eq!(failures.iter().map(|f| f["entity"].as_str().unwrap()).collect::<Vec<_>>(), ["guard", "courier"]);
    let none = dir.join("none");
    let o = tactica(&[
        "test",
        &format!("{YARD}/kinds/reaches.tactest"),
        "--name",
        "passes",
        "--view",
        none.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!none.exists(), "a run that passes has no viewer, and its folder is not made");
    // Not at a terminal and not asked: no viewer (a CI log has nobody to open it).
    let absolute = std::fs::canonicalize(&file).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_tactica"))
        .args(["test", absolute.to_str().unwrap()])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(!dir.join("tactica-view").exists() && !stdout(&o).contains("view:"), "{}", stdout(&o));
    assert_eq!(tactica(&["test", &file, "--view", "x", "--merge"]).status.code(), Some(2), "a merge plays nothing");
}

#[test]
fn each_failure_names_the_character_it_is_about() {
    // The verdict's character: the one an expectation names, the one a condition reads, the one
    // whose event broke a `never` (the guard's script error on the first seed it fails on).
    let cases = [("reaches", Some("courier")), ("always", Some("courier")), ("says", Some("guard"))];
    for (kind, entity) in cases {
        let suite = Suite::load(&[format!("{YARD}/kinds/{kind}.tactest")]).unwrap();
        let report = suite.run(&options(1, None), &|| {});
        let failures = report.failures();
        assert_eq!(failures.len(), 1, "{kind}: {failures:?}");
        assert_eq!(failures[0].entity.as_deref(), entity, "{kind}: {failures:?}");
    }
    let suite = Suite::load(&[format!("{YARD}/bug.tactest")]).unwrap();
    let seed = seeds_the_bug_fails_on(1..=100)[0];
    let report = suite.run(&options(1, Some(Seeds { from: seed, to: seed })), &|| {});
    let failures = report.failures();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!((failures[0].tick, failures[0].entity.as_deref()), (0, Some("guard")));
    assert!(matches!(&report.results[0].verdicts[0], Verdict::Failed { entity: Some(e), .. } if e == "guard"));
}
