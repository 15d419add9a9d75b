//! Wrong scenario files give an error naming the file, line and column, with a hint where one
//! helps — never a panic.

use std::path::PathBuf;

use tactica::scenario;

fn write(name: &str, scenario: &str) -> PathBuf {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-scen-{name}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), ".....\n..#..\n.....\n").unwrap();
    std::fs::write(dir.join("bad.map"), "type octile\nheight 3\nwidth 2\nmap\n..\n.\n").unwrap();
    std::fs::write(dir.join("s.toml"), scenario).unwrap();
    dir.join("s.toml")
}

/// Loads and returns the error text, asserting its position.
fn error(name: &str, text: &str, line: usize, column: usize) -> String {
    let path = write(name, text);
    let e = scenario::load(&path).expect_err("must not load");
    assert_eq!((e.pos.line, e.pos.column), (line, column), "{e}");
    e.to_string()
}

#[test]
fn unknown_keys_are_named_with_their_line() {
    let e = error("unknown", "map = \"map.txt\"\nseeed = 3\n", 2, 1);
    assert!(e.contains("s.toml:2:1") && e.contains("unknown field `seeed`") && e.contains("hint"), "{e}");
    let e = error(
        "unknown-entity",
        "map = \"map.txt\"\n[[entities]]\nname = \"a\"\nkind = \"b\"\nat = [0, 0]\nsped = 2\n",
        6,
        1,
    );
    assert!(e.contains("unknown field `sped`"), "{e}");
}

#[test]
fn bad_values_are_named_with_their_line() {
    let e = error("type", "map = \"map.txt\"\nseed = \"forty\"\n", 2, 8);
    assert!(e.contains("invalid type"), "{e}");
    let e = error("rate", "map = \"map.txt\"\ntick_rate = 0\n", 2, 13);
    assert!(e.contains("tick_rate must be 1 to 1000"), "{e}");
    let e = error("missing", "seed = 1\n", 1, 1);
    assert!(e.contains("missing field `map`"), "{e}");
    let e = error("syntax", "map = \"map.txt\"\nticks = = 3\n", 2, 9);
    assert!(e.contains("s.toml:2:9"), "{e}");
}

#[test]
fn positions_places_and_files_are_checked() {
    let entity = |at: &str| {
        format!("map = \"map.txt\"\n[places]\nkDock = [4, 2]\n[[entities]]\nname = \"a\"\nkind = \"b\"\nat = {at}\n")
    };
    let e = error("wall", &entity("[2, 1]"), 7, 6);
    assert!(e.contains("`a` cannot stand at (2, 1): the cell is blocked"), "{e}");
    let e = error("off", &entity("[9, 1]"), 7, 6);
    assert!(e.contains("off the map"), "{e}");
    let e = error("place", &entity("\"kDok\""), 7, 6);
    assert!(e.contains("no place is named `kDok`") && e.contains("did you mean `kDock`?"), "{e}");
    let e = error("placeoff", "map = \"map.txt\"\n[places]\nkDock = [40, 2]\n", 3, 9);
    assert!(e.contains("place `kDock` at (40, 2) is off the map"), "{e}");
    let e = error("script", &(entity("[0, 0]") + "scripts = [\"troll.tac\"]\n"), 8, 12);
    assert!(e.contains("troll.tac") && e.contains("does not exist"), "{e}");
    let e = error("nomap", "map = \"nowhere.txt\"\n", 1, 7);
    assert!(e.contains("does not exist"), "{e}");
    // Where the file is elsewhere in the folder, or a letter off, the hint says so.
    let e = error("nearmap", "map = \"mpa.txt\"\n", 1, 7);
    assert!(e.contains("hint: did you mean `map.txt`?"), "{e}");
    let path = write("scriptsdir", &(entity("[0, 0]") + "scripts = [\"troll.tac\"]\n"));
    let dir = path.parent().unwrap();
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("scripts/troll.tac"), "on think { }\n").unwrap();
    let e = scenario::load(&path).expect_err("must not load");
    assert_eq!((e.pos.line, e.pos.column), (8, 12), "{e}");
    let e = e.to_string();
    assert!(e.contains("hint: `scripts/troll.tac` exists") && e.contains("set `scripts_dir = \"scripts\"`"), "{e}");
    let e = error("dup", &(entity("[0, 0]") + "[[entities]]\nname = \"a\"\nkind = \"b\"\nat = [1, 0]\n"), 11, 6);
    assert!(e.contains("already exists"), "{e}");
}

#[test]
fn map_errors_name_the_map_file_and_its_line() {
    let path = write("badmap", "map = \"bad.map\"\n");
    let e = scenario::load(&path).unwrap_err();
    assert!(e.file.ends_with("bad.map"), "{e}");
    assert_eq!(e.pos.line, 6);
    assert!(e.to_string().contains("this row has 1 cells but the header says the width is 2"), "{e}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
    /// Arbitrary text in a scenario file is an error or a scenario, never a panic.
    #[test]
    fn arbitrary_scenarios_never_panic(text in "[a-z_=\\[\\]{}\", 0-9.\n#]{0,200}") {
        let _ = scenario::parse(&text, std::path::Path::new("x.toml"));
    }
}
