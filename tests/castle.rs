//! The castle example, played through the runtime with the `.tac` backend: every feature the
//! scenario shows happens, in the trace, deterministically.

use std::path::Path;

use tactica::runtime::Runtime;
use tactica::scenario;
use tactica_engine::Value;
use tactica_engine::world::EventKind;

fn play() -> Runtime {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/castle/scenario.toml");
    let mut rt = Runtime::new(scenario::load(&path).unwrap(), tactica::languages()).unwrap();
    let n = rt.scenario_ticks();
    rt.run(n);
    rt
}

fn lines(rt: &Runtime, pick: impl Fn(&EventKind) -> Option<String>) -> Vec<(String, String)> {
    rt.world()
        .log()
        .events()
        .iter()
        .filter_map(|e| Some((e.entity.clone().unwrap_or_default(), pick(&e.kind)?)))
        .collect()
}

#[test]
fn the_castle_plays_every_scripted_feature() {
    let rt = play();
    let w = rt.world();
    let attr = |who: &str, k: &str| w.entity(w.find(who).unwrap()).unwrap().attribute(k).clone();
    assert_eq!(attr("troll", "INTELLIGENCE"), Value::Int(20));
    assert_eq!(attr("giant", "STRENGTH"), Value::Int(150), "LEVEL 3 < 5");
    assert_eq!(attr("merlin", "MAGIC"), Value::Int(180));

    let said = lines(&rt, |k| if let EventKind::Say { text } = k { Some(text.clone()) } else { None });
    let who_said = |who: &str| said.iter().filter(|(w, _)| w == who).map(|(_, t)| t.as_str()).collect::<Vec<_>>();
    let troll = who_said("troll");
    assert_eq!(troll.len(), 1);
    assert!(["What a cute little knife.", "Is that a toothpick, little one?"].contains(&troll[0]), "a dagger taunt");
    assert_eq!(who_said("giant"), ["Your tiny dagger is no match for my club!"]);
    assert_eq!(who_said("merlin"), ["I am Merlin.", "The Red Amulet lies beyond the throne-room door."]);
    assert_eq!(who_said("private"), ["Breach!"]);

    let fired = lines(&rt, |k| match k {
        EventKind::Trigger { name } | EventKind::Sound { name } => Some(name.clone()),
        _ => None,
    });
    let names: Vec<&str> = fired.iter().map(|(_, n)| n.as_str()).collect();
    for want in [
        "kPoisonTrap",
        "kBreachCharge",
        "kCreakingDoorSnd",
        "kCricketsSnd",
        "build kBarracks",
        "build kStoneWall",
        "build kTower",
    ] {
        assert_eq!(names.iter().filter(|n| **n == want).count(), 1, "{want} once: {names:?}");
    }
    let barracks = names.iter().position(|n| *n == "build kBarracks").unwrap();
    let walls = names.iter().position(|n| *n == "build kStoneWall").unwrap();
    assert!(barracks < walls, "the heavier rule first");
    assert_eq!(w.entity(w.find("sergeant").unwrap()).unwrap().cell(), glam::IVec2::new(8, 4), "through the door");
    assert!(!rt.trace().contains("script_error"), "no script failed");
}

#[test]
fn the_castle_is_deterministic() {
    assert_eq!(play().trace_hash(), play().trace_hash());
}
