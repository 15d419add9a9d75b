//! Radar and touch: a radius check through walls, a team's shared contacts, and bodies that
//! overlap — from `.tac`, Lua and Rhai alike.

mod common;

const MAP: &str = "\
....................
....................
....................
....................
....................
########............
....................
....................
";

fn play(ext: &str) -> Vec<String> {
    let dir = tempfile::Builder::new().prefix(&format!("tactica-radar-{ext}-")).tempdir().unwrap().keep();
    std::fs::write(dir.join("map.txt"), MAP).unwrap();
    let script = match ext {
        "lua" => {
            "function on_think()\n  for _, e in ipairs(RadarContacts(20)) do Note(\"radar\", NameOf(e)) end\n  for _, e in ipairs(TeamRadar(20)) do Note(\"team\", NameOf(e)) end\n  for _, e in ipairs(Touching()) do Note(\"touch\", NameOf(e)) end\nend\n"
        }
        "rhai" => {
            "fn on_think() {\n  for e in radar_contacts(20) { note(\"radar\", name_of(e)); }\n  for e in team_radar(20) { note(\"team\", name_of(e)); }\n  for e in touching() { note(\"touch\", name_of(e)); }\n}\n"
        }
        _ => unreachable!("`.tac` has no loops over lists: see play_tac"),
    };
    std::fs::write(dir.join(format!("s.{ext}")), script).unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        format!(
            "map = \"map.txt\"\n\
             [[entities]]\nname = \"me\"\nkind = \"scout\"\nteam = \"blue\"\nat = [2, 3]\nscripts = [\"s.{ext}\"]\n\n\
             [[entities]]\nname = \"pet\"\nkind = \"dog\"\nteam = \"blue\"\nat = [2, 3]\n\n\
             [[entities]]\nname = \"mate\"\nkind = \"scout\"\nteam = \"blue\"\nat = [8, 3]\n\n\
             [[entities]]\nname = \"seen\"\nkind = \"soldier\"\nteam = \"red\"\nat = [14, 3]\n\n\
             [[entities]]\nname = \"hidden\"\nkind = \"soldier\"\nteam = \"red\"\nat = [3, 7]\n\n\
             [[entities]]\nname = \"far\"\nkind = \"soldier\"\nteam = \"red\"\nat = [19, 0]\n"
        ),
    )
    .unwrap();
    let rt = common::run_ticks(&dir.join("scenario.toml"), 1);
    let trace = rt.trace();
    assert!(!trace.contains("script_error"), "{ext}: {trace}");
    trace
        .lines()
        .filter(|l| l.contains("\"kind\":\"note\""))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {}", v["name"].as_str().unwrap(), v["value"])
        })
        .collect()
}

#[test]
fn radar_sees_through_walls_the_team_shares_what_it_sees_and_touch_is_contact() {
    let lua = play("lua");
    assert_eq!(play("rhai"), lua);
    // Radar: everyone within 20 cells, nearest first: the pet on my cell, the hidden soldier
    // behind the wall (√17), the mate (6), the seen soldier (12); the far one is √(17² + 3²) ≈ 17.3.
    let radar: Vec<&str> = lua.iter().filter(|n| n.starts_with("radar")).map(String::as_str).collect();
    assert_eq!(radar, ["radar \"pet\"", "radar \"hidden\"", "radar \"mate\"", "radar \"seen\"", "radar \"far\""]);
    // The team's contacts: red soldiers some blue member sees — not the one behind the wall.
    let team: Vec<&str> = lua.iter().filter(|n| n.starts_with("team")).map(String::as_str).collect();
    assert!(team.contains(&"team \"seen\"") && !team.contains(&"team \"hidden\""), "{team:?}");
    assert!(!team.iter().any(|n| n.contains("mate") || n.contains("pet")), "own team is not a contact: {team:?}");
    // Touch: only the pet, whose body overlaps mine.
    let touch: Vec<&str> = lua.iter().filter(|n| n.starts_with("touch")).map(String::as_str).collect();
    assert_eq!(touch, ["touch \"pet\""]);
    play_tac(&tempfile::Builder::new().prefix("tactica-radar-tac-").tempdir().unwrap().keep());
}

/// `.tac` has no loops over lists: a script that calls all three compiles (names, arities, types)
/// and runs to its last line.
fn play_tac(dir: &std::path::Path) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("map.txt"), MAP).unwrap();
    std::fs::write(
        dir.join("s.tac"),
        "on think {\n  RadarContacts(20);\n  TeamRadar(20);\n  Touching();\n  Say(\"scanned\");\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("scenario.toml"),
        "map = \"map.txt\"\n[[entities]]\nname = \"me\"\nkind = \"scout\"\nteam = \"blue\"\nat = [2, 3]\nscripts = [\"s.tac\"]\n",
    )
    .unwrap();
    let trace = common::run_ticks(&dir.join("scenario.toml"), 1).trace();
    assert!(trace.contains("\"kind\":\"say\",\"text\":\"scanned\""), "{trace}");
}
