//! Issue 33, "load-time work has a budget a game can set": every scenario key whose load-time
//! cost grows with its value is charged before the work is done, and a scenario over the budget
//! gets an error at the key, naming the limit — at once, without the work, and without using the
//! memory the work would have.
//!
//! Each costly key is generated from small to past the budget and played by the `tactica`
//! binary as a child process: the small values load, the large ones are refused at the key's
//! line and column, none dies of a signal, every run ends within its time and its peak resident
//! memory stays under 512 MB. The shipped examples fit the default budget with room.

mod child;

use std::path::{Path, PathBuf};

use child::{open_map, scratch, tactica};
use tactica::scenario::{LoadLimits, Loader};

/// The budget the families play under: small enough that the loads that fit stay quick.
const BUDGET: u64 = 100_000_000;

/// One generated scenario: its files, and the file holding the charged key.
struct Case {
    files: Vec<(String, String)>,
    at: &'static str,
}

impl Case {
    /// A scenario and the files beside it; the key is in `scenario.toml`.
    fn scenario(scenario: String, mut others: Vec<(String, String)>) -> Case {
        others.push(("scenario.toml".into(), scenario));
        Case { files: others, at: "scenario.toml" }
    }

    fn text(&self, file: &str) -> &str {
        &self.files.iter().find(|(n, _)| n == file).unwrap_or_else(|| panic!("no {file}")).1
    }
}

/// Where an error printed as `…/FILE:LINE:COLUMN: …` points in `text`: the rest of that line
/// from that column.
fn pointed<'t>(stderr: &str, file: &str, text: &'t str) -> Option<&'t str> {
    let after = &stderr[stderr.find(&format!("{file}:"))? + file.len() + 1..];
    let mut parts = after.splitn(3, ':');
    let line: usize = parts.next()?.parse().ok()?;
    let column: usize = parts.next()?.parse().ok()?;
    let l = text.lines().nth(line.checked_sub(1)?)?;
    let start = l.char_indices().nth(column.checked_sub(1)?).map(|(i, _)| i)?;
    Some(&l[start..])
}

/// A crowd of `count` on team `blue`.
fn crowd(count: u64) -> String {
    format!("[[crowd]]\nname = \"g\"\nkind = \"goblin\"\nteam = \"blue\"\ncount = {count}\n")
}

fn map_file(w: usize, h: usize) -> (String, String) {
    ("map.txt".into(), open_map(w, h))
}

/// A `w × h` map whose even rows are walls at even columns: corridors on the odd rows, joined
/// through the odd columns, so every cluster border has an opening every other cell.
fn sieve_map(w: usize, h: usize) -> (String, String) {
    let row = |y: usize| {
        (0..w).map(|x| if y.is_multiple_of(2) && x.is_multiple_of(2) { '#' } else { '.' }).collect::<String>()
    };
    ("map.txt".into(), (0..h).map(|y| row(y) + "\n").collect())
}

/// A family: a key, a scenario for each of its values (smallest first), and what is written
/// where the refusal must point.
struct Family {
    key: &'static str,
    values: &'static [u64],
    case: fn(u64) -> Case,
    token: &'static str,
}

/// The files a cover layer of `directions × repeats` rays on a `side × side` map needs.
fn cover(side: usize, directions: u64, repeats: u64) -> Case {
    let text = format!(
        "map = \"map.txt\"\n[field]\nteams = [\"blue\"]\nlayers = [\"cover\"]\n[field.cover]\nradius = 16.0\njitter = 1.0\ndirections = {directions}\nrepeats = {repeats}\n"
    );
    Case::scenario(text, vec![map_file(side, side)])
}

/// An automaton of `steps` generations over a `side × side` map.
fn automaton(side: usize, steps: u64) -> Case {
    let text = format!(
        "map = \"map.txt\"\n[navigation]\nhierarchy = false\n[field]\nteams = [\"blue\"]\n[[field.automaton]]\nname = \"a\"\nfrom = \"influence.blue\"\nthresholds = [0.5]\nrule = \"life\"\nsteps = {steps}\n"
    );
    Case::scenario(text, vec![map_file(side, side)])
}

fn families() -> Vec<Family> {
    vec![
        Family {
            key: "map",
            values: &[16, 200, 900],
            case: |side| Case::scenario("map = \"map.txt\"\n".into(), vec![map_file(side as usize, side as usize)]),
            token: "\"map.txt\"",
        },
        Family {
            key: "hierarchy",
            values: &[2, 4, 16],
            case: |n| {
                let text = format!("map = \"map.txt\"\n[navigation]\nhierarchy = {{ cluster = {n} }}\n");
                Case::scenario(text, vec![sieve_map(128, 128)])
            },
            token: "{ cluster = 16 }",
        },
        Family {
            key: "count",
            values: &[10, 1_000, 10_000],
            case: |n| Case::scenario(format!("map = \"map.txt\"\n{}", crowd(n)), vec![map_file(300, 300)]),
            token: "10000",
        },
        Family {
            key: "[[entities]]",
            values: &[1, 100, 8_000],
            case: |n| {
                let mut text = String::from("map = \"map.txt\"\n");
                for i in 0..n {
                    text += &format!("[[entities]]\nname = \"e{i}\"\nkind = \"x\"\nat = [{}, {}]\n", i % 100, i / 100);
                }
                Case::scenario(text, vec![map_file(100, 100)])
            },
            token: "[[entities]]",
        },
        Family {
            key: "radius",
            values: &[2, 20, 200],
            case: |r| {
                let text = format!("map = \"map.txt\"\n[field]\nteams = [\"blue\"]\nradius = {r}.0\n{}", crowd(2_000));
                Case::scenario(text, vec![map_file(255, 255)])
            },
            token: "200.0",
        },
        Family {
            key: "[field.cover]",
            values: &[1, 16, 256],
            case: |repeats| cover(64, 8, repeats),
            token: "[field.cover]",
        },
        Family {
            key: "visibility_rays",
            values: &[1, 4, 360],
            case: |rays| {
                let text = format!(
                    "map = \"map.txt\"\n[field]\nteams = [\"blue\"]\nlayers = [\"visibility\"]\nsight_range = 10000.0\nvisibility_rays = {rays}\n"
                );
                Case::scenario(text, vec![map_file(100, 100)])
            },
            token: "\"visibility\"",
        },
        Family {
            key: "[[field.filter]] f",
            values: &[1, 8, 64],
            case: |passes| {
                let text = format!(
                    "map = \"map.txt\"\n[field]\nteams = [\"blue\"]\n[[field.filter]]\nname = \"f\"\nfrom = \"influence.blue\"\nkernel = \"gaussian\"\nhalf = 2\npasses = {passes}\n"
                );
                Case::scenario(text, vec![map_file(255, 255)])
            },
            token: "[[field.filter]]",
        },
        Family {
            key: "[[field.automaton]] a",
            values: &[1, 10, 1_000],
            case: |steps| automaton(255, steps),
            token: "[[field.automaton]]",
        },
        Family {
            key: "[waypoints]",
            values: &[2, 6, 200],
            case: |reach| {
                let text = format!("map = \"map.txt\"\n[waypoints]\ngenerate = true\nneighbourhood = {reach}.0\n");
                Case::scenario(text, vec![map_file(64, 64)])
            },
            token: "true",
        },
        Family {
            key: "[doors.",
            values: &[1, 10, 100],
            case: |n| {
                let mut text = String::from("map = \"map.txt\"\n");
                for i in 0..n {
                    text += &format!("[doors.d{i:03}]\ncells = [[{}, 150]]\n", i + 1);
                }
                Case::scenario(text, vec![map_file(300, 300)])
            },
            token: "[doors.d",
        },
        Family {
            key: "size",
            values: &[1, 2, 20],
            case: |models| {
                let genes = vec!["[0, 1]"; 1_024].join(", ");
                let mut text = String::from("map = \"map.txt\"\n[models]\n");
                for i in 0..models {
                    text += &format!("m{i} = {{ genetic = \"pop.toml\" }}\n");
                }
                let pop = format!("genes = [{genes}]\nsize = 10000\n");
                let mut c = Case::scenario(text, vec![map_file(8, 8), ("pop.toml".into(), pop)]);
                c.at = "pop.toml";
                c
            },
            token: "10000",
        },
        Family {
            key: "max_epochs",
            values: &[10, 100, 200_000],
            case: |epochs| {
                let rows = vec!["[0.0, 1.0, 1.0]"; 100].join(", ");
                let net = format!(
                    "inputs = [\"a\", \"b\"]\noutputs = [\"c\"]\nhidden = 64\n[train]\nrows = [{rows}]\ntarget = 0.0\nmax_epochs = {epochs}\n"
                );
                let text = String::from("map = \"map.txt\"\n[models]\nnet = { nn = \"net.toml\" }\n");
                let mut c = Case::scenario(text, vec![map_file(8, 8), ("net.toml".into(), net)]);
                c.at = "net.toml";
                c
            },
            token: "200000",
        },
        Family {
            key: "hidden",
            values: &[2, 100, 100_000],
            case: |inputs| {
                let names: Vec<String> = (0..inputs).map(|i| format!("\"i{i}\"")).collect();
                let net = format!("inputs = [{}]\noutputs = [\"c\"]\nhidden = 1024\n", names.join(", "));
                let text = String::from("map = \"map.txt\"\n[models]\nnet = { nn = \"net.toml\" }\n");
                let mut c = Case::scenario(text, vec![map_file(8, 8), ("net.toml".into(), net)]);
                c.at = "net.toml";
                c
            },
            token: "1024",
        },
        Family {
            key: "scripts",
            values: &[1, 2, 4],
            case: |n| {
                let pad = "// padding padding padding padding padding\n".repeat(12_000);
                let body = format!("{pad}Say(\"hi\");\n");
                let names: Vec<String> = (0..n).map(|i| format!("\"s{i}.tac\"")).collect();
                let text = format!(
                    "map = \"map.txt\"\n[[entities]]\nname = \"e\"\nkind = \"x\"\nat = [1, 1]\nscripts = [{}]\n",
                    names.join(", ")
                );
                let mut files = vec![map_file(8, 8)];
                files.extend((0..n).map(|i| (format!("s{i}.tac"), body.clone())));
                Case::scenario(text, files)
            },
            // Each file is charged where it is first named: the fourth is past the budget.
            token: "\"s3.tac\"",
        },
        Family {
            key: "[steering.tile_grids] g",
            values: &[1, 100, 2_000],
            case: |n| {
                let mut text = String::from("map = \"map.txt\"\n[steering.tile_grids]\n");
                for i in 0..n {
                    text += &format!("g{i:04} = [[[0, 0], [4, 0]]]\n");
                }
                Case::scenario(text, vec![map_file(255, 255)])
            },
            token: "[[[0, 0], [4, 0]]]",
        },
        Family {
            key: "[navigation.graph] edges",
            values: &[1, 1_000, 30_000],
            case: |n| {
                let edges = vec!["[\"a\", \"b\"]"; n as usize].join(", ");
                let text = format!(
                    "map = \"map.txt\"\n[navigation.graph]\nnodes = {{ a = [0, 0], b = [999, 0] }}\nedges = [{edges}]\n"
                );
                Case::scenario(text, vec![map_file(1_000, 60)])
            },
            token: "[\"a\", \"b\"]",
        },
        Family {
            key: "[queries] files",
            values: &[1, 10, 30],
            case: |n| {
                let pad = "// padding padding padding padding padding\n".repeat(12_000);
                let query = format!(
                    "{pad}query q {{\n    option {{\n        Generation {{ grid_around_puppet = 4 }}\n        Weights {{ distance_from_puppet = -1.0 }}\n    }}\n}}\n"
                );
                let names = vec!["\"q.tps\""; n as usize].join(", ");
                let text = format!("map = \"map.txt\"\n[queries]\nfiles = [{names}]\n");
                Case::scenario(text, vec![map_file(8, 8), ("q.tps".into(), query)])
            },
            token: "\"q.tps\"",
        },
    ]
}

fn write(case_dir: &Path, case: &Case) {
    for (name, text) in &case.files {
        std::fs::write(case_dir.join(name), text).unwrap();
    }
}

#[test]
fn every_costly_key_from_small_to_huge_is_loaded_or_refused_at_the_key_in_bounded_time_and_memory() {
    let budget = BUDGET.to_string();
    let mut failures = Vec::new();
    for family in families() {
        let mut refused_from = None;
        for (i, &value) in family.values.iter().enumerate() {
            let dir = scratch("budget", &format!("{}-{value}", family.key.replace(['[', ']', '.', ' '], "_")));
            let case = (family.case)(value);
            write(&dir, &case);
            let scenario = dir.join("scenario.toml");
            let args = ["--load-budget", &budget, "run", scenario.to_str().unwrap(), "--ticks", "0", "--quiet"];
            let o = tactica(&args, None, None);
            let what = format!("{} = {value}", family.key);
            if o.signal.is_some() || o.seconds > 60.0 || o.peak > 512 << 20 {
                let (signal, seconds, mb) = (o.signal, o.seconds, o.peak >> 20);
                failures.push(format!("{what}: signal {signal:?}, {seconds:.1} s, {mb} MB\n{}", o.stderr));
                continue;
            }
            match o.code {
                Some(0) if refused_from.is_none() => {}
                Some(1) => {
                    refused_from.get_or_insert(i);
                    let at = pointed(&o.stderr, case.at, case.text(case.at));
                    let named = o.stderr.contains(&format!("`{}", family.key))
                        && o.stderr.contains("past the load budget of 100,000,000 units")
                        && o.stderr.contains("hint: lower `");
                    if !named || !at.is_some_and(|rest| rest.starts_with(family.token)) {
                        failures.push(format!(
                            "{what}: refused, but not at `{}` in {} naming the key and the limit (pointed at {at:?}):\n{}",
                            family.token, case.at, o.stderr
                        ));
                    }
                }
                _ => failures
                    .push(format!("{what}: exit {:?} after a refusal at {refused_from:?}\n{}", o.code, o.stderr)),
            }
        }
        if refused_from.is_none_or(|i| i == 0) {
            failures
                .push(format!("{}: refused from value #{refused_from:?}; a family loads, then is refused", family.key));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_default_budget_refuses_the_huge_end_of_each_family_at_once() {
    // The largest values of a few families, scaled up, against the default budget: refused
    // before the work, so at once and in a few megabytes.
    let two_crowds = format!("map = \"map.txt\"\n{}{}", crowd(100_000), crowd(100_000).replace("\"g\"", "\"h\""));
    let cases: [(&str, Case, &str); 4] = [
        ("map", Case::scenario("map = \"map.txt\"\n".into(), vec![map_file(4_000, 4_000)]), "\"map.txt\""),
        ("count", Case::scenario(two_crowds, vec![map_file(500, 500)]), "100000\n"),
        ("[field.cover]", cover(255, 64, 1_024), "[field.cover]"),
        ("[[field.automaton]] a", automaton(500, 1_000), "[[field.automaton]]"),
    ];
    for (key, case, token) in cases {
        let dir = scratch("budget-default", &key.replace(['[', ']', '.', ' '], "_"));
        write(&dir, &case);
        let o = tactica(&["run", dir.join("scenario.toml").to_str().unwrap(), "--ticks", "0", "--quiet"], None, None);
        assert!(o.exited(1), "{key}: {:?}\n{}", o.code, o.stderr);
        let at = pointed(&o.stderr, case.at, case.text(case.at));
        assert!(at.is_some_and(|rest| rest.starts_with(token.trim_end())), "{key}: at {at:?}\n{}", o.stderr);
        assert!(o.stderr.contains(&format!("`{key}` asks for")), "{key}: {}", o.stderr);
        assert!(key != "count" || o.stderr.contains("characters of crowd `h`"), "the second crowd: {}", o.stderr);
        assert!(o.stderr.contains("past the load budget of 2,000,000,000 units"), "{key}: {}", o.stderr);
        // Refused before the work: the memory is the map's and the file's, not the work's. (The
        // time bound is loose: the machine running the tests may be shared.)
        assert!(o.peak < 256 << 20 && o.seconds < 60.0, "{key}: {} MB, {:.1} s", o.peak >> 20, o.seconds);
    }
}

/// What fits the default budget also fits in memory: a hundred thousand characters (the most
/// one crowd may hold) on a map of a quarter million cells.
#[test]
fn the_largest_crowd_the_default_budget_allows_stays_under_512_mb() {
    let case = Case::scenario(format!("map = \"map.txt\"\n{}", crowd(100_000)), vec![map_file(500, 500)]);
    let dir = scratch("budget-default", "largest-crowd");
    write(&dir, &case);
    let o = tactica(&["run", dir.join("scenario.toml").to_str().unwrap(), "--ticks", "1", "--quiet"], None, None);
    assert!(o.exited(0), "{}", o.stderr);
    assert!(o.peak < 512 << 20, "{} MB", o.peak >> 20);
}

/// The run length a scenario asks for is held to the limit too; a run told its length is not.
#[test]
fn ticks_past_the_limit_are_refused_at_the_key() {
    let dir = scratch("budget", "ticks");
    std::fs::write(dir.join("map.txt"), open_map(4, 4)).unwrap();
    std::fs::write(dir.join("scenario.toml"), "map = \"map.txt\"\nticks = 10000001\n").unwrap();
    let o = tactica(&["run", dir.join("scenario.toml").to_str().unwrap(), "--quiet"], None, None);
    assert!(o.exited(1), "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "scenario.toml:2:9: `ticks` asks a run to play 10,000,001 ticks, past the 10,000,000 the load limits allow"
        ),
        "{}",
        o.stderr
    );
    std::fs::write(dir.join("scenario.toml"), "map = \"map.txt\"\nticks = 10000000\n").unwrap();
    let o = tactica(&["run", dir.join("scenario.toml").to_str().unwrap(), "--ticks", "2", "--quiet"], None, None);
    assert!(o.exited(0), "{}", o.stderr);
    let tight = Loader::new().limits(LoadLimits::new().set_ticks(99)).load(&dir.join("scenario.toml"));
    assert!(tight.unwrap_err().message.contains("past the 99 the load limits allow"));
}

/// The units are counted exactly as docs/scenario.md says: a map file of 110 bytes at 136 a
/// byte, characters at 16,000 each, and 2 per character per region.
#[test]
fn a_small_scenario_is_charged_exactly_what_the_formulas_say() {
    let dir = scratch("budget", "exact");
    std::fs::write(dir.join("map.txt"), open_map(10, 10)).unwrap();
    let two = "[[entities]]\nname = \"a\"\nkind = \"x\"\nteam = \"t\"\nat = [1, 1]\n[[entities]]\nname = \"b\"\nkind = \"x\"\nteam = \"t\"\nat = [2, 2]\n";
    let scenario = dir.join("scenario.toml");
    std::fs::write(&scenario, format!("map = \"map.txt\"\n{two}")).unwrap();
    assert_eq!(Loader::new().load(&scenario).unwrap().load_work, 110 * 136 + 2 * 16_000);
    std::fs::write(&scenario, format!("map = \"map.txt\"\n[regions]\nr = {{ min = [0, 0], max = [3, 3] }}\n{two}"))
        .unwrap();
    assert_eq!(Loader::new().load(&scenario).unwrap().load_work, 110 * 136 + 2 * 16_000 + 2 * 2);
    // A team layer: four layers of 100 cells at 16 units, and two sources of radius 8 that each
    // write the whole 10 × 10 map (and their own cell).
    std::fs::write(&scenario, format!("map = \"map.txt\"\n[field]\nteams = [\"t\"]\n{two}")).unwrap();
    assert_eq!(Loader::new().load(&scenario).unwrap().load_work, 110 * 136 + 2 * 16_000 + 4 * 100 * 16 + 2 * 101);
    let refused = Loader::new().limits(LoadLimits::new().set_work(110 * 136 + 2 * 16_000 - 1)).load(&scenario);
    let e = refused.unwrap_err();
    assert_eq!((e.pos.line, e.pos.column), (4, 1), "at the first `[[entities]]`: {e}");
    assert!(
        e.message.starts_with("`[[entities]]` asks for 32,000 units of load-time work (2 characters with 0 scripts)"),
        "{e}"
    );
}

/// The defaults leave every shipped example a wide margin: each loads within a tenth of the
/// default budget.
#[test]
fn every_shipped_example_loads_well_inside_the_default_budget() {
    let mut sizes = Vec::new();
    for entry in std::fs::read_dir("examples").unwrap() {
        let scenario = entry.unwrap().path().join("scenario.toml");
        if !scenario.is_file() {
            continue;
        }
        let s = Loader::new().load(&scenario).unwrap_or_else(|e| panic!("{e}"));
        sizes.push((scenario, s.load_work));
    }
    assert!(sizes.len() >= 8, "{sizes:?}");
    for (file, work) in &sizes {
        assert!(*work > 0 && *work <= LoadLimits::DEFAULT_WORK / 10, "{}: {work} units", file.display());
    }
}

/// A progress report comes before each piece of work, with the running total.
#[test]
fn progress_is_reported_before_each_charge() {
    let mut seen: Vec<(String, u64, u64)> = Vec::new();
    let mut report = |p: &tactica::scenario::LoadProgress<'_>| seen.push((p.key.to_owned(), p.spent, p.limit));
    let s = Loader::new().progress(&mut report).load(Path::new("examples/crowd/scenario.toml")).unwrap();
    assert!(seen.len() >= 3, "{seen:?}");
    assert_eq!(seen[0], ("map".to_owned(), 0, LoadLimits::DEFAULT_WORK));
    assert!(seen.windows(2).all(|w| w[0].1 <= w[1].1), "spent only grows: {seen:?}");
    assert!(seen.iter().any(|(k, _, _)| k == "count"), "{seen:?}");
    assert!(seen.last().unwrap().1 < s.load_work);
    let _: PathBuf = s.file;
}

/// A reloaded map is load-time work in a running game: one where every other row's walls moved
/// is taken in with one update of the navigation service (each cell edit relabelled the whole
/// map before), logs one `cell` event per changed cell, and leaves the world as loading the new
/// map would have — or, past the scenario's load budget, is refused and the old map stays.
#[test]
fn a_reloaded_map_with_thousands_of_changed_cells_is_taken_in_at_once() {
    let dir = scratch("budget", "reload-map");
    let (old, new) = (open_map(160, 160), sieve_map(160, 160).1);
    std::fs::write(dir.join("map.txt"), &old).unwrap();
    let scenario = dir.join("scenario.toml");
    std::fs::write(&scenario, "map = \"map.txt\"\n[navigation]\nhierarchy = { cluster = 16 }\n").unwrap();
    // The sieve is the worst a map can be for the hierarchy (an opening every other cell of
    // every border): rebuilding it is past a budget the open map fits in.
    let tight = Loader::new().limits(LoadLimits::new().set_work(100_000_000)).load(&scenario).unwrap();
    let mut rt = tactica::runtime::Runtime::new(tight, tactica::languages()).unwrap();
    let message = rt.reload_map_text(&new).message();
    assert!(message.contains("past the load budget of 100,000,000 units; the old map stays"), "{message}");
    assert_eq!(rt.world().map().to_ascii(), old);
    let trusted = Loader::new().limits(LoadLimits::unlimited()).load(&scenario).unwrap();
    let mut rt = tactica::runtime::Runtime::new(trusted, tactica::languages()).unwrap();
    let started = std::time::Instant::now();
    let report = rt.reload_map_text(&new);
    let took = started.elapsed();
    assert!(report.outcome.is_ok(), "{}", report.message());
    assert!(took.as_secs() < 20, "{took:?}");
    let walls = new.bytes().filter(|&b| b == b'#').count();
    let cells = rt.world().log().events().iter().filter(|e| e.to_json_line().contains("\"kind\":\"cell\"")).count();
    assert_eq!((walls, cells), (80 * 80, 80 * 80), "every wall raised is one `cell` event");
    std::fs::write(dir.join("map.txt"), &new).unwrap();
    let fresh = Loader::new().limits(LoadLimits::unlimited()).load(&scenario).unwrap().world;
    assert_eq!(rt.world().map().to_ascii(), fresh.map().to_ascii());
    let probe = |x: i32, y: i32| glam::IVec2::new(x, y);
    for (a, b) in [((1, 1), (159, 159)), ((0, 1), (0, 3)), ((1, 0), (1, 159)), ((0, 1), (1, 0))] {
        let (a, b) = (probe(a.0, a.1), probe(b.0, b.1));
        assert_eq!(rt.world().reachable(a, b), fresh.reachable(a, b), "{a} → {b}");
    }
}

/// A model file edited while the game runs trains again when it reloads: held to the scenario's
/// load limits, at `max_epochs` in the model's own file, and refused past them (the old network
/// keeps running).
#[test]
fn a_reloaded_network_is_held_to_the_scenarios_load_limits() {
    let dir = scratch("budget", "reload-net");
    let net = |epochs: u64| {
        format!(
            "inputs = [\"a\", \"b\"]\noutputs = [\"c\"]\nhidden = 4\n[train]\nrows = [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]]\ntarget = 0.0\nmax_epochs = {epochs}\n"
        )
    };
    std::fs::write(dir.join("map.txt"), open_map(8, 8)).unwrap();
    std::fs::write(dir.join("net.toml"), net(10)).unwrap();
    std::fs::write(dir.join("scenario.toml"), "map = \"map.txt\"\n[models]\nnet = { nn = \"net.toml\" }\n").unwrap();
    let limits = LoadLimits::new().set_work(1_000_000);
    let s = Loader::new().limits(limits).load(&dir.join("scenario.toml")).unwrap();
    let mut rt = tactica::runtime::Runtime::new(s, tactica::languages()).unwrap();
    assert_eq!(rt.load_limits(), limits);
    std::fs::write(dir.join("net.toml"), net(200_000)).unwrap();
    let report = rt.reload_file(&dir.join("net.toml"));
    let message = report.message();
    assert!(report.outcome.is_err(), "{message}");
    assert!(message.contains("net.toml:7:14") && message.contains("`max_epochs` asks for"), "{message}");
    std::fs::write(dir.join("net.toml"), net(20)).unwrap();
    assert!(rt.reload_file(&dir.join("net.toml")).outcome.is_ok());
}
