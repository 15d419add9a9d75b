//! The modding guide is runnable: `examples/modding` plays without script errors and does what
//! `docs/modding.md` says, and every Lua and Rhai block of the guide that is a whole script is the
//! example's file, verbatim.

use std::path::Path;

use tactica::runtime::Runtime;

#[test]
fn the_modding_example_plays_as_the_guide_says() {
    let scenario = tactica::scenario::load(Path::new("examples/modding/scenario.toml")).unwrap();
    let mut rt = Runtime::new(scenario, tactica::languages()).unwrap_or_else(|e| panic!("{e:?}"));
    rt.run(rt.scenario_ticks());
    let trace = rt.trace();
    assert!(!trace.contains("script_error"), "{trace}");
    let said =
        |who: &str, text: &str| trace.contains(&format!("\"entity\":\"{who}\",\"kind\":\"say\",\"text\":\"{text}\""));
    assert!(said("grub", "Run away!"), "{trace}");
    assert!(said("shaman", "I am Mogg, keeper of the bones."), "{trace}");
    assert!(said("scout", "At the hut."), "{trace}");
    assert!(said("scout", "The shaman is home."), "{trace}");
}

#[test]
fn the_guide_shows_the_example_files_verbatim() {
    let guide = std::fs::read_to_string("docs/modding.md").unwrap();
    for file in ["goblin.lua", "shaman.rhai", "scout.lua"] {
        let text = std::fs::read_to_string(Path::new("examples/modding").join(file)).unwrap();
        assert!(guide.contains(&text), "docs/modding.md no longer shows examples/modding/{file}");
    }
}
