//! Designers' own content, played as a designer meets it: scenario folders with their scripts,
//! asserting on the trace or on what `tactica check` says.

mod common;

const TACTICA: &str = env!("CARGO_BIN_EXE_tactica");

/// The player walks onto the plate at (3, 4), waits there ten ticks, leaves, and comes back.
fn plate_scenario(trap_on: &str) -> String {
    let mut s = String::from(
        "map = \"map.txt\"\nticks = 60\nplayer = \"hero\"\n\
         [[entities]]\nname = \"hero\"\nkind = \"human\"\nat = [1, 4]\nspeed = 10.0\n\
         actions = [{ move_to = [3, 4] }, { sleep = 10 }, { move_to = [8, 4] }, { move_to = [3, 4] }, { sleep = 10 }]\n",
    );
    match trap_on {
        "world" => s.push_str("scripts = [\"plate.tac\"]\n"),
        _ => s.push_str("[[entities]]\nname = \"plate\"\nkind = \"plate\"\nat = [3, 5]\nscripts = [\"plate.tac\"]\n"),
    }
    s
}

fn triggers(trace: &str) -> usize {
    trace.lines().filter(|l| l.contains("\"kind\":\"trigger\"") && l.contains("kFireTrap")).count()
}

#[test]
fn a_trap_fires_once_per_visit_wherever_it_is_attached() {
    let classic = "If (PlayerLocation(3, 4)) Trigger(kFireTrap);\n";
    let declared = "kind events;\nIf (PlayerLocation(3, 4)) Trigger(kFireTrap);\n";
    for (name, on, src) in
        [("entity", "entity", classic), ("declared", "entity", declared), ("world", "world", classic)]
    {
        let path = common::folder(&format!("trap-{name}"), &plate_scenario(on), &[("plate.tac", src)]);
        let trace = common::play(&path).trace();
        assert!(!trace.contains("script_error"), "{trace}");
        assert_eq!(triggers(&trace), 2, "{name}: two visits, two fires\n{trace}");
    }
}

#[test]
fn check_says_which_kind_it_inferred_and_why() {
    let behaviour = "If (PlayerArmed == TRUE) DoFlee();\n";
    let path =
        common::folder("kind-infer", "map = \"map.txt\"\n", &[("troll.tac", &format!("{behaviour}Say(\"Grr.\");\n"))]);
    let file = path.with_file_name("troll.tac");
    let out = std::process::Command::new(TACTICA).arg("check").arg(&file).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "a warning does not fail the check: {text}");
    assert!(text.contains("E0073") && text.contains("runs as dialogue"), "{text}");
    assert!(text.contains("troll.tac:2:1"), "the line that decided it: {text}");
    assert!(text.contains("kind behaviour;"), "the way out: {text}");
    std::fs::write(&file, format!("kind behaviour;\n{behaviour}Say(\"Grr.\");\n")).unwrap();
    let out = std::process::Command::new(TACTICA).arg("check").arg(&file).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 file checked, 0 errors, 0 warnings"), "declared: nothing inferred: {text}");
    std::fs::write(&file, "kind dialog;\nSay(\"Grr.\");\n").unwrap();
    let out = std::process::Command::new(TACTICA).arg("check").arg(&file).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success() && text.contains("E0072") && text.contains("dialogue"), "{text}");
}

#[test]
fn a_declared_behaviour_with_a_line_of_speech_still_thinks_every_tick() {
    let scenario = "map = \"map.txt\"\nticks = 5\n[[entities]]\nname = \"troll\"\nkind = \"troll\"\nat = [1, 1]\nscripts = [\"troll.tac\"]\n";
    let src = "kind behaviour;\nSay(\"Grr.\");\n";
    let trace = common::play(&common::folder("kind-behaviour", scenario, &[("troll.tac", src)])).trace();
    // A behaviour thinks every tick; the say cooldown lets the line out once in five ticks.
    let thinks_said = trace.lines().filter(|l| l.contains("\"kind\":\"say\"")).count();
    assert_eq!(thinks_said, 1, "{trace}");
    let inferred = "Say(\"Grr.\");\n";
    let trace = common::play(&common::folder("kind-dialogue", scenario, &[("troll.tac", inferred)])).trace();
    assert_eq!(trace.lines().filter(|l| l.contains("\"kind\":\"say\"")).count(), 0, "dialogue waits for the player");
}

/// The names a scenario declares — globals, places, regions, creature kinds — are names a `.tac`
/// script may use bare: `check` knows them (with did-you-mean) and the runtime reads them.
#[test]
fn a_scenario_s_own_names_are_known_to_check_and_to_the_runtime() {
    let scenario = r#"map = "map.txt"
ticks = 1
player = "hero"
[globals]
Gold = 5
[places]
kHall = [2, 2]
[regions.yard]
min = [0, 0]
max = [3, 3]
[[entities]]
name = "hero"
kind = "human"
at = [2, 2]
[[entities]]
name = "grunt"
kind = "Orc"
at = [6, 1]
scripts = ["grunt.tac"]
"#;
    let grunt = "kind behaviour;\nIf (Gold > 3) Say(\"Rich pickings.\");\nIf (PlayerLocation(kHall)) Say(\"In the hall.\");\n\
                 If (PlayerLocation(yard)) Note(\"yard\", TRUE);\nIf (Creature == Orc) Note(\"orc\", TRUE);\n";
    let path = common::folder("names-declared", scenario, &[("grunt.tac", grunt)]);
    let out = std::process::Command::new(TACTICA).arg("check").arg(&path).output().unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let trace = common::play(&path).trace();
    assert!(trace.contains("Rich pickings.") && trace.contains("In the hall."), "{trace}");
    assert!(trace.contains("\"name\":\"yard\"") && trace.contains("\"name\":\"orc\""), "{trace}");

    // A misspelt place is caught by check, with the scenario's name suggested.
    std::fs::write(path.with_file_name("grunt.tac"), "kind behaviour;\nIf (PlayerLocation(kHal)) Say(\"x\");\n")
        .unwrap();
    let out = std::process::Command::new(TACTICA).arg("check").arg(&path).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success() && text.contains("kHall"), "{text}");

    // A book name the scenario does not declare is an error when it runs, not a silent false.
    std::fs::write(path.with_file_name("grunt.tac"), "kind behaviour;\nIf (PlayerLocation(kBoat)) Say(\"x\");\n")
        .unwrap();
    let trace = common::play(&path).trace();
    let error = trace.lines().find(|l| l.contains("script_error")).expect("an error");
    assert!(error.contains("PlayerLocation") && error.contains("`kBoat`"), "{error}");
}

/// A file with two mistakes, used by three entities: `check` on the scenario says 2 errors, each
/// once, with the places and hints a designer needs.
#[test]
fn a_shared_file_reports_each_mistake_once() {
    let scenario = "map = \"map.txt\"\n\
        [[entities]]\nname = \"a\"\nkind = \"orc\"\nat = [1, 1]\nscripts = [\"orc.tac\"]\n\
        [[entities]]\nname = \"b\"\nkind = \"orc\"\nat = [2, 1]\nscripts = [\"orc.tac\"]\n\
        [[entities]]\nname = \"c\"\nkind = \"orc\"\nat = [3, 1]\nscripts = [\"orc.tac\"]\n";
    let broken = "if (PlayerArmed) {\n    Sya(\"Drop it\");\n} els {\n    Say(\"Welcome\");\n}\n";
    let path = common::folder("shared-broken", scenario, &[("orc.tac", broken)]);
    let out = std::process::Command::new(TACTICA).arg("check").arg(&path).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success(), "{text}");
    assert_eq!(text.matches("unknown function `Sya`").count(), 1, "{text}");
    assert_eq!(text.matches("unknown word `els`").count(), 1, "{text}");
    assert!(text.contains("did you mean `Say`?") && text.contains("did you mean `else`?"), "{text}");
    assert!(text.contains("2 errors"), "{text}");
}

/// The long explanation of a code points to things that exist.
#[test]
fn explain_points_to_what_exists() {
    let out = std::process::Command::new(TACTICA).args(["explain", "E0011"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("docs/api.md") && !text.contains("tactica docs"), "{text}");
    assert!(std::path::Path::new("docs/api.md").exists());
}

/// The attribute schema's SPEED and INTELLIGENCE do what their descriptions say: SPEED / 32 is
/// the walking speed, and a creature below INTELLIGENCE 50 walks straight at its goal and stops
/// at the first wall while a clever one goes round.
#[test]
fn speed_and_intelligence_change_how_a_creature_walks() {
    // The test map has a wall at x = 5 on rows 2 and 3; everyone walks east along row 2.
    let creatures = "creature Hare { speed = 250; intelligence = 120; }\n\
                     creature Snail { speed = 5; intelligence = 120; }\n\
                     creature Ogre { speed = 250; intelligence = 10; }\n";
    let mut scenario = String::from("map = \"map.txt\"\nticks = 40\n");
    for (name, kind, row) in [("hare", "Hare", 0), ("snail", "Snail", 1), ("ogre", "Ogre", 2), ("fox", "Hare", 3)] {
        scenario.push_str(&format!(
            "[[entities]]\nname = \"{name}\"\nkind = \"{kind}\"\nat = [0, {row}]\nscripts = [\"creatures.tac\"]\n\
             actions = [{{ move_to = [10, {row}] }}]\n"
        ));
    }
    let rt = common::play(&common::folder("attributes-do", &scenario, &[("creatures.tac", creatures)]));
    let trace = rt.trace();
    assert!(!trace.contains("script_error"), "{trace}");
    let cell = |name: &str| rt.world().entities().find(|(_, e)| e.name == name).map(|(_, e)| e.cell()).unwrap();
    // 250 / 32 ≈ 7.8 cells a second: ten cells in well under 40 ticks (4 s).
    assert_eq!(cell("hare"), glam::IVec2::new(10, 0), "{trace}");
    // 5 / 32 ≈ 0.16 cells a second: from the centre of its cell (x 0.5) to x ≈ 1.1 in 4 s.
    assert_eq!(cell("snail"), glam::IVec2::new(1, 1), "{trace}");
    // The dull ogre stops at the wall and says why; the clever fox goes round it.
    assert_eq!(cell("ogre"), glam::IVec2::new(4, 2), "{trace}");
    assert!(trace.contains("with INTELLIGENCE below 50 it does not look for a way round"), "{trace}");
    assert_eq!(cell("fox"), glam::IVec2::new(10, 3), "{trace}");
}
