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
    // Pinned on the map's bottom edge with the hero up-left of it, grub flees along the row.
    let grub = rt.world().find("grub").and_then(|id| rt.world().entity(id)).unwrap();
    assert_eq!(grub.cell().y, 6, "{trace}");
    assert!(grub.cell().x >= 13, "grub fled from (9, 6) to {:?}", grub.cell());
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

/// The code blocks of a Markdown file in the given language.
fn blocks<'a>(text: &'a str, lang: &str) -> Vec<&'a str> {
    let fence = format!("```{lang}\n");
    text.split(fence.as_str()).skip(1).filter_map(|rest| rest.split("```").next()).collect()
}

#[test]
fn the_readme_excerpts_are_taken_from_the_example_files() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let mut checked = 0;
    for lang in ["lua", "rhai"] {
        for block in blocks(&readme, lang) {
            // Each starts with a comment naming its file: `-- examples/modding/goblin.lua (excerpt)`.
            let (first, body) = block.split_once('\n').unwrap();
            let file = first.trim_start_matches(['-', '/', ' ']).trim_end_matches(" (excerpt)");
            let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("README names {file}: {e}"));
            assert!(text.contains(body), "the README's excerpt of {file} is not in the file");
            checked += 1;
        }
    }
    assert_eq!(checked, 2, "the README shows a Lua and a Rhai script");
}

#[test]
fn the_guides_state_machine_is_the_conformance_guard() {
    let guide = std::fs::read_to_string("docs/modding.md").unwrap();
    let guard = std::fs::read_to_string("tests/conformance/guard/guard.lua").unwrap();
    let block = blocks(&guide, "lua").into_iter().find(|b| b.contains("ChangeState")).expect("a ChangeState example");
    assert!(guard.contains(block), "docs/modding.md's state machine is no longer tests/conformance/guard/guard.lua's");
}
