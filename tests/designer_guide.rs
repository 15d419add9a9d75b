//! The designer's guide in `docs/tac.md` shows the files of `examples/guide/` verbatim (each in
//! a block whose fence names the file), and this plays exactly those files.

mod common;

/// The guide's blocks: (file named on the fence, text).
fn guide_blocks() -> Vec<(String, String)> {
    let doc = std::fs::read_to_string("docs/tac.md").unwrap();
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in doc.lines() {
        match &mut current {
            None => {
                if let Some(rest) = line.strip_prefix("```")
                    && let Some((_, file)) = rest.split_once(' ')
                    && file.starts_with("examples/guide/")
                {
                    current = Some((file.to_owned(), String::new()));
                }
            }
            Some((file, text)) => {
                if line == "```" {
                    out.push((std::mem::take(file), std::mem::take(text)));
                    current = None;
                } else {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
    }
    out
}

#[test]
fn the_guide_shows_every_file_of_its_scenario_verbatim() {
    let blocks = guide_blocks();
    let shown: Vec<&str> = blocks.iter().map(|(f, _)| f.as_str()).collect();
    for file in [
        "examples/guide/keep.txt",
        "examples/guide/scenario.toml",
        "examples/guide/scripts/orc.tac",
        "examples/guide/scripts/trap.tac",
        "examples/guide/scripts/orc_talk.tac",
        "examples/guide/scripts/breach.tac",
    ] {
        let Some((_, text)) = blocks.iter().find(|(f, _)| f == file) else {
            panic!("{file} is not in the guide: {shown:?}")
        };
        assert_eq!(text, &std::fs::read_to_string(file).unwrap(), "{file} differs from the guide");
    }
}

#[test]
fn the_guide_plays_as_it_says() {
    let rt = common::play(std::path::Path::new("examples/guide/scenario.toml"));
    let trace = rt.trace();
    assert!(!trace.contains("script_error"), "{trace}");
    let at = |needle: &str| -> Vec<u64> {
        trace
            .lines()
            .filter(|l| l.contains(needle))
            .map(|l| l.split("\"tick\":").nth(1).unwrap().split(',').next().unwrap().parse().unwrap())
            .collect()
    };
    assert_eq!(at("\"name\":\"kPoisonTrap\""), [13], "the trap fires once, as the hero steps on the plate");
    assert_eq!(at("At the gate."), [20]);
    assert_eq!(at("\"text\":\"Go!\""), [20]);
    assert_eq!(at("kBreachCharge"), [21]);
    assert_eq!(at("Quiet, it is dark."), [36], "the cover man's `if` is read after nightfall");
    assert_eq!(at("You owe me 12 gold."), [41]);
    // The creature block made Grukk an Orc that walks 2 cells a second.
    let grukk = rt.world().entities().find(|(_, e)| e.name == "grukk").map(|(_, e)| e).unwrap();
    assert!((grukk.speed - 2.0).abs() < 1e-6, "{}", grukk.speed);
    // `tactica check` knows every name the guide's scripts use.
    let out =
        std::process::Command::new(env!("CARGO_BIN_EXE_tactica")).args(["check", "examples/guide"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("0 errors, 0 warnings"), "{text}");
}
