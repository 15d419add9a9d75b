//! The conformance suite: each behaviour in `tests/conformance/<name>/` is written in `.tac`, Lua
//! and Rhai and plays the same scenario in each. The three traces must be equal to each other
//! byte for byte, equal to the pinned golden `trace.jsonl` (so a change that moves all three
//! languages alike is caught too), and show what the behaviour is about — exact counts of the
//! events that matter, so an empty or truncated trace cannot pass.
//!
//! The scenario names its scripts as `file.EXT`; each language plays it with its own extension. A
//! language may leave out a file another of its files drives: a `.tac` sequence casts its roles by
//! tag, so the breach's cover men have no `.tac` file. Regenerate the goldens with
//! `UPDATE_EXPECT=1` (after reading the diff).

mod common;

use std::path::Path;

/// The languages every behaviour is written in; the first one's trace is the reference the
/// others are compared with.
const LANGUAGES: [&str; 3] = ["tac", "lua", "rhai"];

/// Plays behaviour `name` with its scripts in language `ext` and returns the trace.
fn play(name: &str, ext: &str) -> String {
    let dir = Path::new("tests/conformance").join(name);
    let mut scenario =
        std::fs::read_to_string(dir.join("scenario.toml")).unwrap().replace(".EXT\"", &format!(".{ext}\""));
    let named: Vec<String> = scenario
        .split('"')
        .filter(|s| s.ends_with(&format!(".{ext}")) && !s.contains(char::is_whitespace))
        .map(str::to_owned)
        .collect();
    for file in named.iter().filter(|f| !dir.join(f).exists()) {
        scenario = scenario.replace(&format!("\"{file}\""), "").replace("[, ", "[").replace(", ]", "]");
    }
    let mut scripts = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == ext) {
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            scripts.push((file, std::fs::read_to_string(&path).unwrap()));
        }
    }
    assert!(!scripts.is_empty(), "{name} has no .{ext} scripts");
    let refs: Vec<(&str, &str)> = scripts.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
    let rt = common::play(&common::folder(&format!("conf-{name}-{ext}"), &scenario, &refs));
    let trace = rt.trace();
    assert!(!trace.contains("\"script_error\""), "{name}.{ext} failed:\n{trace}");
    trace
}

/// The first line where two traces differ, for a readable failure.
fn first_difference(a: &str, b: &str) -> String {
    let (mut la, mut lb) = (a.lines(), b.lines());
    for n in 1.. {
        match (la.next(), lb.next()) {
            (None, None) => return "the traces are equal".to_owned(),
            (x, y) if x == y => {}
            (x, y) => return format!("line {n}:\n  {}\n  {}", x.unwrap_or("<end>"), y.unwrap_or("<end>")),
        }
    }
    unreachable!()
}

/// Plays `name` in every language and checks the traces agree, match the golden and contain each
/// `(fragment, count)` exactly `count` times (a fragment is a piece of one trace line).
fn conform(name: &str, expected: &[(&str, usize)]) {
    let traces: Vec<(&str, String)> = LANGUAGES.iter().map(|ext| (*ext, play(name, ext))).collect();
    let (first, reference) = &traces[0];
    for (ext, trace) in &traces[1..] {
        assert!(
            trace == reference,
            "{name}: the .{ext} trace differs from the .{first} one at {}",
            first_difference(reference, trace)
        );
    }
    let golden = Path::new("tests/conformance").join(name).join("trace.jsonl");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&golden, reference).unwrap();
    }
    let pinned = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        *reference == pinned,
        "{name}: all three languages moved away from {} at {}",
        golden.display(),
        first_difference(&pinned, reference)
    );
    for (fragment, count) in expected {
        let found = reference.lines().filter(|l| l.contains(fragment)).count();
        assert_eq!(found, *count, "{name}: `{fragment}` occurs {found} times, expected {count}:\n{reference}");
    }
}

#[test]
fn troll() {
    conform(
        "troll",
        &[
            (r#""kind":"say""#, 3),
            // The taunt is the troll's first roll on seed 1 (its own stream: the same in every
            // language).
            (r#""tick":7,"entity":"troll","kind":"say","text":"You smell like elf.""#, 1),
            (r#""tick":10,"entity":"troll","kind":"say","text":"Grrr.""#, 1),
            (r#""tick":27,"entity":"troll","kind":"sound","name":"kCreakingDoorSnd""#, 1),
        ],
    );
}

#[test]
fn wizard() {
    conform(
        "wizard",
        &[
            (r#""kind":"say","text":"Greetings, traveller.""#, 1),
            (r#""kind":"say","text":"I am Merlin.""#, 1),
            (r#""kind":"say","text":"Seek the dock at night.""#, 1),
            (r#""kind":"say","text":"Hmm?""#, 1),
            (r#""kind":"note","name":"asked","value":"Where is the treasure?""#, 1),
        ],
    );
}

#[test]
fn trap() {
    conform(
        "trap",
        &[
            (r#""kind":"trigger","name":"kPoisonTrap""#, 2),
            (r#""kind":"sound","name":"kCreakingDoorSnd""#, 2),
            (r#""entity":"trap","kind":"say","text":"Again?""#, 1),
        ],
    );
}

#[test]
fn patrol() {
    conform(
        "patrol",
        &[
            (r#""kind":"note","name":"lap""#, 3),
            (r#""kind":"note","name":"lap","value":3"#, 1),
            (r#""kind":"action","action":"follow_path","detail":"10 points to (1, 1)""#, 3),
            (r#""kind":"arrive","cell":[1,1]"#, 3),
        ],
    );
}

#[test]
fn breach() {
    conform(
        "breach",
        &[
            (r#""entity":"point_a","kind":"signal","scope":"team:alpha","id":"breach""#, 1),
            (r#""entity":"cover_a","kind":"release","scope":"team:alpha","id":"breach""#, 1),
            (r#""entity":"cover_a","kind":"say","text":"Clear!""#, 1),
            (r#""entity":"cover_b","kind":"wait","scope":"team:bravo""#, 1),
            (r#""entity":"cover_b","kind":"release""#, 0),
        ],
    );
}

#[test]
fn build_order() {
    conform(
        "build_order",
        &[
            (r#""kind":"trigger","name":"build kFarm""#, 1),
            (r#""kind":"trigger","name":"build kBarracks""#, 1),
            (r#""kind":"trigger","name":"build kBlacksmith""#, 1),
            (r#""kind":"trigger","name":"build kStable""#, 1),
            (r#""kind":"note","name":"built""#, 4),
        ],
    );
}

#[test]
fn guard() {
    conform(
        "guard",
        &[
            (r#""kind":"state","machine":"Guard","from":"","to":"kPatrol""#, 1),
            (r#""kind":"state","machine":"Guard","from":"kPatrol","to":"kChase""#, 1),
            (r#""kind":"state","machine":"Guard","from":"kChase","to":"kGoHome""#, 1),
            (r#""kind":"state","machine":"Guard","from":"kGoHome","to":"kPatrol""#, 1),
            (r#""entity":"guard","kind":"attribute","key":"state""#, 4),
        ],
    );
}

#[test]
fn coward() {
    conform(
        "coward",
        &[
            (r#""tick":0,"entity":"goblin","kind":"say","text":"Come and get me!""#, 1),
            (r#""tick":10,"entity":"goblin","kind":"say","text":"Eek!""#, 1),
            (r#""kind":"say""#, 2),
        ],
    );
}
