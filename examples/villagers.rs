//! A village living by daily schedules, watched over by stealth guards, run headless:
//! `cargo run --example villagers [seed] [villagers]`.
//!
//! Villagers follow the office schedule of "1000 NPCs at 60 FPS" through a script library and
//! open-loop action queues (the tavern closes on day two, so evening drinks fail, flush the
//! queue and fall back to complaining). A thief roams at night; three guards run the stealth
//! guard state machine, hearing, investigating, raising the alarm and chasing. Prints an hourly
//! summary and the guards' state changes.

use std::collections::BTreeMap;

use glam::Vec2;
use tactica_engine::Value;
use tactica_engine::decide::crowd::{
    Crowd, CrowdEventKind, OFFICE_SCHEDULE, OFFICE_SCRIPTS, Places, Schedule, ScriptLibrary,
};
use tactica_engine::decide::fsm::{FsmState, STEALTH_GUARD, StateMachine};
use tactica_engine::value::Table;
use tactica_engine::world::WorldRng;

struct Guard {
    name: &'static str,
    post: Vec2,
    position: Vec2,
    state: FsmState,
    facts: Table,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(7);
    let count: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(300);
    let mut rng = WorldRng::new(seed);

    let mut places = Places::default();
    for i in 0..12 {
        places.add(&format!("house{i}"), Vec2::new(5.0 + 8.0 * (i % 6) as f32, 5.0 + 40.0 * (i / 6) as f32));
    }
    for i in 0..4 {
        places.add(&format!("office{i}"), Vec2::new(10.0 + 12.0 * i as f32, 25.0));
    }
    for (name, x, y) in [("cafe", 30.0, 15.0), ("restaurant", 20.0, 32.0), ("shop", 40.0, 32.0), ("tavern", 50.0, 10.0)]
    {
        places.add(name, Vec2::new(x, y));
    }
    let library = ScriptLibrary::from_toml(OFFICE_SCRIPTS).expect("built-in scripts");
    let schedule = Schedule::from_script(OFFICE_SCHEDULE).expect("built-in schedule");
    let mut village = Crowd::new(library, vec![schedule], places, 0.0).expect("schedule names scripts of the library");
    for i in 0..count {
        let (home, work) = (format!("house{}", i % 12), format!("office{}", i % 4));
        village
            .add(&format!("villager{i}"), "schedule-office.7", &home, &[("home", &home), ("work", &work)], 1.5)
            .expect("places exist");
    }

    let fsm = StateMachine::from_toml(STEALTH_GUARD).expect("built-in guard");
    let mut guards: Vec<Guard> = [("Ada", 10.0, 10.0), ("Bo", 45.0, 20.0), ("Cy", 25.0, 40.0)]
        .into_iter()
        .map(|(name, x, y)| Guard {
            name,
            post: Vec2::new(x, y),
            position: Vec2::new(x, y),
            state: fsm.start(),
            facts: Table::from([("health".to_owned(), Value::Int(100)), ("courage".to_owned(), Value::Float(0.7))]),
        })
        .collect();
    let mut thief = Vec2::new(60.0, 50.0);
    let mut caught = 0;

    // Two days of one-minute ticks.
    let mut tallies: BTreeMap<&str, usize> = BTreeMap::new();
    println!("villagers: seed {seed}, {count} villagers, 3 guards, 2 days of 1-minute ticks");
    for minute in 0..2 * 24 * 60 {
        if minute == 24 * 60 {
            village.places.set_open("tavern", false).expect("tavern exists");
            println!("-- day 2: the tavern is closed --");
        }
        village.tick(1.0 / 60.0, &mut rng);
        for e in &village.events {
            let key = match e.kind {
                CrowdEventKind::Started(_) => "scripts started",
                CrowdEventKind::Failed(_) => "scripts failed",
                CrowdEventKind::Said(_) => "complaints",
                CrowdEventKind::Emitted(t) => match village.library.text(t) {
                    "buy-coffee" => "coffees",
                    "buy-lunch" => "lunches",
                    "buy-dinner" => "dinners",
                    "buy-drink" => "drinks",
                    _ => "other actions",
                },
            };
            *tallies.entry(key).or_default() += 1;
        }

        // The thief prowls at night and slips away by day.
        let night = !(6.0..22.0).contains(&village.hour);
        let wander = Vec2::new(rng.range(-1.0, 1.0) as f32, rng.range(-1.0, 1.0) as f32);
        thief = if night {
            (thief + wander * 0.6 + (Vec2::new(30.0, 25.0) - thief) * 0.01).clamp(Vec2::ZERO, Vec2::splat(60.0))
        } else {
            Vec2::new(60.0, 50.0)
        };
        for g in &mut guards {
            let d = g.position.distance(thief);
            let set = |facts: &mut Table, k: &str, v: bool| {
                facts.insert(k.to_owned(), Value::Bool(v));
            };
            set(&mut g.facts, "heard_noise", night && d < 15.0);
            set(&mut g.facts, "clue", night && d < 10.0);
            set(&mut g.facts, "sees_player", night && d < 6.0);
            set(&mut g.facts, "in_range", night && d < 1.5);
            set(&mut g.facts, "enemy_down", false);
            let mut hooks = Vec::new();
            let step = fsm.step(&mut g.state, &g.facts, &mut rng, &mut hooks);
            if step.fired {
                let on_enter: Vec<&str> = hooks
                    .iter()
                    .filter(|h| h.kind == tactica_engine::decide::fsm::HookKind::Enter)
                    .map(|h| h.name)
                    .collect();
                println!(
                    "  day {} {:02}:{:02} {:<3} {} → {}{}",
                    minute / (24 * 60) + 1,
                    (minute / 60) % 24,
                    minute % 60,
                    g.name,
                    fsm.name(step.from),
                    fsm.name(step.to),
                    if on_enter.is_empty() { String::new() } else { format!("  ({})", on_enter.join(", ")) }
                );
            }
            // Tick hooks become movement: patrol home, investigate and pursue toward the thief.
            let goal = match fsm.name(g.state.current) {
                "curious" | "alert" | "attack" => thief,
                _ => g.post,
            };
            let dir = goal - g.position;
            if dir.length() > 0.01 {
                g.position += dir.normalize() * dir.length().min(0.5);
            }
            if fsm.name(g.state.current) == "attack" {
                caught += 1;
                thief = Vec2::new(60.0, 50.0);
                g.facts.insert("enemy_down".to_owned(), Value::Bool(true));
                fsm.step(&mut g.state, &g.facts, &mut rng, &mut Vec::new());
            }
        }

        if minute % 180 == 0 {
            let mut activities: BTreeMap<&str, usize> = BTreeMap::new();
            for v in 0..village.villagers.len() {
                *activities.entry(village.activity(v).unwrap_or("idle")).or_default() += 1;
            }
            let top: Vec<String> = activities.iter().map(|(a, n)| format!("{a} {n}")).collect();
            println!("day {} {:02}:00  {}", minute / (24 * 60) + 1, (minute / 60) % 24, top.join(", "));
        }
    }
    let summary: Vec<String> = tallies.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!("summary: {}; thief caught {caught} times", summary.join(", "));
}
