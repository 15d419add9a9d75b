//! The village example played headless: villagers at their scheduled places at given hours, the
//! closed tavern's failures flushing the queue to the fallback, and the guard's state machine
//! reacting to the traveller.

use std::path::Path;

use glam::IVec2;
use tactica::runtime::Runtime;
use tactica_engine::Value;
use tactica_engine::world::EventKind;

const TICKS_PER_HOUR: u64 = 50;
const START_HOUR: u64 = 7;

fn tick_at(hour: u64) -> u64 {
    (hour - START_HOUR) * TICKS_PER_HOUR
}

fn village() -> Runtime {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/village/scenario.toml");
    let scenario = tactica::scenario::load(&path).unwrap_or_else(|e| panic!("{e}"));
    Runtime::new(scenario, tactica::languages()).unwrap_or_else(|e| panic!("{e:?}"))
}

fn cell_of(rt: &Runtime, name: &str) -> IVec2 {
    let w = rt.world();
    w.entity(w.find(name).unwrap()).unwrap().cell()
}

fn place(rt: &Runtime, name: &str) -> IVec2 {
    rt.world().place(name).unwrap().floor().as_ivec2()
}

/// Each villager's `home` and `work` place names.
fn villagers(rt: &Runtime) -> Vec<(String, String, String)> {
    rt.world()
        .entities()
        .filter(|(_, e)| e.kind == "Villager")
        .map(|(_, e)| {
            let a = |k: &str| e.attributes.get(k).and_then(Value::as_str).unwrap().to_owned();
            (e.name.clone(), a("home"), a("work"))
        })
        .collect()
}

#[test]
fn villagers_keep_their_schedule_and_the_guard_reacts() {
    let mut rt = village();
    let people = villagers(&rt);
    assert_eq!(people.len(), 12);
    let run_to = |rt: &mut Runtime, tick: u64| {
        let now = rt.world().clock().tick();
        rt.run(tick - now);
    };
    // Noon: everyone at work (the field or the forge).
    run_to(&mut rt, tick_at(12));
    for (name, _, work) in &people {
        assert_eq!(cell_of(&rt, name), place(&rt, work), "{name} at noon");
    }
    // 18:45: the tavern is still open — everyone is there.
    run_to(&mut rt, tick_at(18) + 45);
    for (name, _, _) in &people {
        assert_eq!(cell_of(&rt, name), place(&rt, "tavern"), "{name} at 18:45");
    }
    // The tavern closes at 19:00; by 20:48 (before the sleep block) every evening queue failed,
    // was flushed, and the fallback took the villager home.
    run_to(&mut rt, tick_at(20) + 40);
    for (name, home, _) in &people {
        assert_eq!(cell_of(&rt, name), place(&rt, home), "{name} at 20:48");
    }
    let events = rt.world().log().events();
    let fails: Vec<_> =
        events.iter().filter(|e| matches!(&e.kind, EventKind::Note { name, .. } if name == "queue_fail")).collect();
    assert!(fails.len() >= people.len(), "every villager found the tavern closed: {}", fails.len());
    assert!(fails.iter().all(|e| e.tick >= tick_at(19)), "no failure before closing time");
    let grumbles =
        events.iter().filter(|e| matches!(&e.kind, EventKind::Say { text } if text == "Closed? At this hour?"));
    assert!(grumbles.count() >= people.len());
    // The guard saw the traveller: idle → alert → challenge, and back to idle after searching.
    let guard: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Note { name, value } if name == "guard" => Some(value.as_str().unwrap().to_owned()),
            _ => None,
        })
        .collect();
    assert_eq!(guard.first().map(String::as_str), Some("idle -> alert"), "{guard:?}");
    assert!(guard.iter().any(|g| g == "alert -> challenge"), "{guard:?}");
    assert!(guard.iter().any(|g| g.ends_with("-> search")), "{guard:?}");
    assert_eq!(guard.last().map(String::as_str), Some("search -> idle"), "{guard:?}");
    // 22:00: asleep at home.
    run_to(&mut rt, tick_at(22));
    for (name, home, _) in &people {
        assert_eq!(cell_of(&rt, name), place(&rt, home), "{name} at 22:00");
    }
}
