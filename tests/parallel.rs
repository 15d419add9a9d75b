//! The scripts phase on several threads gives the trace of one, byte for byte: every shipped
//! example and both crowds (staggered and everyone-thinks) at 1, 2, 4 and 8 threads, equal to
//! the hashes pinned from one thread; and a proptest
//! over generated scenarios — characters in three languages drawing from the generator, failing
//! half-way, asking position queries under a shared budget, doors opening and closing — at 1 and
//! 4 threads.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use tactica::runtime::{Runtime, trace_hash};
use tactica::scenario;

/// The examples' hashes on one thread (`tactica run examples/NAME --quiet --threads 1`; the
/// crowds with `--ticks 12`). Seven are those of the runtime before the phase went parallel;
/// `castle`, `modding` and the crowds changed once, when each script's calls got random streams
/// of their own instead of places in the world generator's one stream (their scripts draw).
const PINNED: [(&str, Option<u64>, &str); 11] = [
    ("castle", None, "cd7c4ba99736c14f820f9066902c9493e04446129871d9d2597d6d70459fcf50"),
    ("cover", None, "2d0b796ceb8158b90796d24d16e853954726d88706cc445b6e506bb84d3e7a52"),
    ("guard", None, "c2ce1392494e3ea405f70787d593ba569be2e16db8f39bb5f23ed1017c3da462"),
    ("guide", None, "de431ddf7bb7f9821326bfd29ef8b8f600c057ba4d6febb14c0c84cf915abb6d"),
    ("harbour", None, "75296f989cab4e8635498e78bf7ec937f4e7e176642e9c4c8c4e4ea8e89e0a86"),
    ("modding", None, "42d960f402e2efb00434ec5f98e36d4f3e4bfcb42f35d8b0c6f91456888a8775"),
    ("steering", None, "cfb4471dbe592dcfbbbb4dc634fe0ba2fcd526e4f22d0d81902a40230ebf352f"),
    ("tactics", None, "4735cc682546daeef4e24c9791b1400bd12f90943c5ee67341e77b47b9554463"),
    ("village", None, "eec629bc79a59aea4276622e24c84cd52e647bccef56d1c542ca46bd44491b27"),
    ("crowd/scenario.toml", Some(12), "553c58f3ddf4286bd5115ca47e7d25940f38049438693856a00d842540635241"),
    ("crowd/everyone.toml", Some(12), "0aed9fd3ba2b5f2b2a8bae57b8fc3d0160697e103a6cacf2f36dbce16e159d34"),
];

/// The trace hash of `scenario` played for `ticks` (default: its own) on `threads` threads.
fn play(scenario: &Path, ticks: Option<u64>, threads: usize) -> String {
    let s = scenario::load(scenario).unwrap_or_else(|e| panic!("{}: {e}", scenario.display()));
    let mut rt = Runtime::new(s, tactica::languages()).unwrap_or_else(|e| panic!("{e:?}"));
    rt.set_threads(threads);
    assert_eq!(rt.threads(), threads);
    let n = ticks.unwrap_or_else(|| rt.scenario_ticks());
    rt.run(n);
    trace_hash(&rt.trace())
}

fn example(name: &str) -> PathBuf {
    let p = Path::new("examples").join(name);
    if p.is_dir() { p.join("scenario.toml") } else { p }
}

#[test]
fn every_example_gives_its_single_threaded_trace_on_1_2_4_and_8_threads() {
    for (name, ticks, pinned) in PINNED.iter().filter(|(n, ..)| !n.starts_with("crowd")) {
        for threads in [1, 2, 4, 8] {
            assert_eq!(play(&example(name), *ticks, threads), *pinned, "{name} on {threads} threads");
        }
    }
}

#[test]
fn the_staggered_crowd_gives_its_single_threaded_trace_on_1_2_4_and_8_threads() {
    let (name, ticks, pinned) = PINNED[9];
    for threads in [1, 2, 4, 8] {
        assert_eq!(play(&example(name), ticks, threads), pinned, "{name} on {threads} threads");
    }
}

#[test]
fn the_everyone_thinks_crowd_gives_its_single_threaded_trace_on_1_2_4_and_8_threads() {
    let (name, ticks, pinned) = PINNED[10];
    for threads in [1, 2, 4, 8] {
        assert_eq!(play(&example(name), ticks, threads), pinned, "{name} on {threads} threads");
    }
}

#[test]
fn threads_come_from_the_scenario_and_zero_is_refused_at_its_line() {
    let dir = scratch("threads");
    std::fs::copy("examples/cover/map.txt", dir.join("map.txt")).unwrap();
    let file = dir.join("scenario.toml");
    std::fs::write(&file, "map = \"map.txt\"\nthreads = 3\n").unwrap();
    let rt = Runtime::new(scenario::load(&file).unwrap(), tactica::languages()).unwrap();
    assert_eq!(rt.threads(), 3);
    std::fs::write(&file, "map = \"map.txt\"\nthreads = 0\n").unwrap();
    let e = scenario::load(&file).unwrap_err().to_string();
    assert!(e.contains("`threads` is a number of worker threads: 1 to 1024"), "{e}");
    assert!(e.contains(":2:"), "the error names line 2: {e}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A folder of this call's own (tempfile), so tests running at once never share one.
fn scratch(name: &str) -> PathBuf {
    tempfile::Builder::new().prefix(&format!("tactica-parallel-{name}-")).tempdir().unwrap().keep()
}

/// A character of a generated scenario: where it stands, its script's language and numbers.
#[derive(Debug, Clone)]
struct Character {
    at: (u32, u32),
    language: usize,
    think_every: u32,
    /// The script fails (after drawing) when a draw below 100 comes out under this.
    fail_below: u32,
    /// It asks for cover on thinks whose draw comes out under this (of 100).
    query_below: u32,
}

/// The open cells of the cover example's map, where characters and the door may stand.
fn open_cells() -> Vec<(u32, u32)> {
    let map = std::fs::read_to_string("examples/cover/map.txt").unwrap();
    let mut open = Vec::new();
    for (y, row) in map.lines().enumerate() {
        for (x, c) in row.chars().enumerate() {
            if c == '.' {
                open.push((u32::try_from(x).unwrap(), u32::try_from(y).unwrap()));
            }
        }
    }
    open
}

fn character() -> impl Strategy<Value = Character> {
    (prop::sample::select(open_cells()), 0usize..3, 1u32..4, 0u32..30, 0u32..40).prop_map(
        |(at, language, think_every, fail_below, query_below)| Character {
            at,
            language,
            think_every,
            fail_below,
            query_below,
        },
    )
}

/// The script of `c`, in its language: draws, walks, says, fails half-way (after a draw) and asks
/// position queries as its numbers say.
fn script(c: &Character) -> (String, String) {
    let (f, q) = (c.fail_below, c.query_below);
    match c.language {
        0 => (
            "lua".into(),
            format!(
                "function on_think()\n  local r = Random(100)\n  if r < {q} then\n    local s = FindPosition(\"take_cover\")\n    if s then Note(\"spot\", s) end\n  end\n  if IsIdle() then MoveTo(math.floor(PositionOf(Me()).x) + Random(9) - 4, math.floor(PositionOf(Me()).y) + Random(9) - 4) end\n  if Random(100) < {f} then error(\"boom \" .. r) end\n  if r % 7 == 0 then Say(\"seven \" .. r) end\nend\n"
            ),
        ),
        1 => (
            "rhai".into(),
            format!(
                "fn on_think() {{\n  let r = random(100);\n  if r < {q} {{ let s = find_position(\"take_cover\"); if s != () {{ note(\"spot\", s); }} }}\n  if is_idle() {{ let at = position_of(me()); move_to(at.x.floor().to_int() + random(9) - 4, at.y.floor().to_int() + random(9) - 4); }}\n  if random(100) < {f} {{ throw \"boom\"; }}\n  if r % 5 == 0 {{ say(\"five \" + r); }}\n}}\n"
            ),
        ),
        _ => (
            "tac".into(),
            format!(
                "// generated\nif (Random(100) < {q}) Say(\"looking\");\nif (IsIdle()) move(Random(9) - 4, Random(9) - 4);\nif (Random(100) < {f}) Say(\"odd\");\n"
            ),
        ),
    }
}

/// A generated scenario on the cover example's map, with its hidespots and queries: `chars`,
/// a door that opens and closes at the given ticks, and a shared query budget.
fn write_scenario(chars: &[Character], door: (u32, u32), door_ticks: (u64, u64), budget: u64) -> PathBuf {
    let dir = scratch("case");
    for f in ["map.txt", "cover.tps"] {
        std::fs::copy(Path::new("examples/cover").join(f), dir.join(f)).unwrap();
    }
    let mut toml = format!(
        "name = \"generated\"\nmap = \"map.txt\"\nseed = 5\nticks = 12\n\n[queries]\nfiles = [\"cover.tps\"]\nbudget = {budget}\n\n[[hidespots]]\nat = [12, 13]\nsides = [\"south\"]\n\n[[hidespots]]\nat = [21, 8]\nsides = [\"east\"]\n\n[doors.gate]\ncells = [[{}, {}]]\nopen = true\n\n[[timeline]]\ntick = {}\nclose = [\"gate\"]\n\n[[timeline]]\ntick = {}\nopen = [\"gate\"]\n",
        door.0,
        door.1,
        door_ticks.0,
        door_ticks.0 + door_ticks.1
    );
    for (n, c) in chars.iter().enumerate() {
        let (ext, text) = script(c);
        let file = format!("c{n}.{ext}");
        std::fs::write(dir.join(&file), text).unwrap();
        toml.push_str(&format!(
            "\n[[entities]]\nname = \"c{n}\"\nkind = \"soldier\"\nat = [{}, {}]\nthink_every = {}\nscripts = [\"{file}\"]\n",
            c.at.0, c.at.1, c.think_every
        ));
    }
    toml.push_str("\n[[entities]]\nname = \"sniper\"\nkind = \"soldier\"\nteam = \"red\"\nat = [3, 3]\n");
    let file = dir.join("scenario.toml");
    std::fs::write(&file, toml).unwrap();
    file
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Whatever the characters, scripts, doors and queries, 4 threads give 1 thread's trace.
    #[test]
    fn generated_scenarios_give_one_threads_trace_on_four(
        chars in prop::collection::vec(character(), 1..24),
        door in prop::sample::select(open_cells()),
        door_ticks in (1u64..8, 1u64..4),
        budget in 1u64..400,
    ) {
        let file = write_scenario(&chars, door, door_ticks, budget);
        let traces: Vec<String> = [1, 4]
            .iter()
            .map(|&threads| {
                let s = scenario::load(&file).unwrap_or_else(|e| panic!("{e}"));
                let mut rt = Runtime::new(s, tactica::languages()).unwrap_or_else(|e| panic!("{e:?}"));
                rt.set_threads(threads);
                rt.run(12);
                rt.trace()
            })
            .collect();
        prop_assert!(traces[0].lines().count() > chars.len(), "the characters did something");
        prop_assert_eq!(&traces[0], &traces[1]);
        std::fs::remove_dir_all(file.parent().unwrap()).unwrap();
    }
}

/// The profiler counts the same calls on two threads as on one, and shows each worker's time and
/// its time waiting for a turn.
#[test]
fn the_profile_counts_every_workers_calls_and_shows_each_worker() {
    let counts = |threads: usize| {
        let s = scenario::load(Path::new("examples/crowd/everyone.toml")).unwrap();
        let mut rt = Runtime::new(s, tactica::languages()).unwrap();
        rt.set_threads(threads);
        rt.run(2);
        rt.enable_profile();
        rt.run(3);
        let p = rt.disable_profile().unwrap();
        let calls = |rows: Vec<tactica::runtime::profile::Row>| -> Vec<(String, u64)> {
            rows.into_iter()
                .map(|r| (r.name, r.calls))
                .collect::<std::collections::BTreeMap<_, _>>()
                .into_iter()
                .collect()
        };
        let workers: Vec<String> = p.workers().into_iter().map(|r| r.name).collect();
        (calls(p.host_functions()), calls(p.handlers()), workers, p.report())
    };
    let (host1, handlers1, workers1, _) = counts(1);
    let (host2, handlers2, workers2, report) = counts(2);
    assert!(host1.iter().any(|(n, c)| n == "DistanceToPlayer" && *c >= 20_000), "{host1:?}");
    assert_eq!(host1, host2, "host calls of both workers are recorded");
    assert_eq!(handlers1, handlers2);
    assert_eq!(workers1, ["worker 0", "worker 0 waiting"]);
    assert_eq!(workers2, ["worker 0", "worker 0 waiting", "worker 1", "worker 1 waiting"]);
    assert!(report.contains("scripts phase per worker thread"), "{report}");
}
