//! Crowd tests: the book's schedule in both notations, one-shot frequencies, script expansion,
//! fail → flush → fallback, a simulated day, the planner and its cache.

use glam::Vec2;

use super::*;
use crate::Value;
use crate::decide::DecideError;
use crate::world::WorldRng;

fn town() -> Places {
    let mut p = Places::default();
    for (name, x, y) in [
        ("home", 0.0, 0.0),
        ("office", 10.0, 0.0),
        ("cafe", 10.0, 5.0),
        ("restaurant", 5.0, 5.0),
        ("shop", 0.0, 5.0),
        ("tavern", 2.0, 8.0),
    ] {
        p.add(name, Vec2::new(x, y));
    }
    p
}

#[test]
fn the_books_schedule_parses_in_both_notations() {
    let book = Schedule::from_script(OFFICE_SCHEDULE).unwrap();
    let toml = Schedule::from_toml(
        r#"
name = "schedule-office.7"
blocks = [ { from = 8, to = 20, tasks = ["go-work-at-workstation"] }, { from = 20, to = 8, tasks = ["go-stay-offsite"] } ]
oneshots = [
  { at = 8, prob = 1, tasks = ["go-get-coffee"] },
  { at = 12, prob = 1, tasks = ["go-get-lunch"] },
  { at = 15, prob = 0.5, tasks = ["go-get-coffee"] },
  { at = 17.5, prob = 0.25, tasks = ["go-visit-retail"] },
  { at = 20, prob = 0.5, tasks = ["go-get-dinner"] },
  { at = 20, prob = 0.25, tasks = ["go-get-drink"] },
]
"#,
    )
    .unwrap();
    assert_eq!(book, toml);
    assert_eq!(book.block_at(8.0).unwrap().tasks, ["go-work-at-workstation"]);
    assert_eq!(book.block_at(19.99).unwrap().tasks, ["go-work-at-workstation"]);
    assert_eq!(book.block_at(20.0).unwrap().tasks, ["go-stay-offsite"]);
    assert_eq!(book.block_at(3.0).unwrap().tasks, ["go-stay-offsite"]);
    assert!(matches!(
        Schedule::from_script("name \"x\" blocks [ { from 8 tasks [ a ] } ]"),
        Err(DecideError::Parse { .. })
    ));
    assert!(matches!(
        Schedule::from_script("name \"x\" oneshots [ { at 30 tasks [ a ] } ]"),
        Err(DecideError::Invalid { .. })
    ));
    assert!(matches!(Schedule::from_script("name \"x\"\nbogus"), Err(DecideError::Parse { line: 2, column: 1, .. })));
}

#[test]
fn oneshots_happen_with_their_probabilities() {
    let s = Schedule::from_script(OFFICE_SCHEDULE).unwrap();
    let mut rng = WorldRng::new(11);
    let days = 4000;
    let mut counts = std::collections::BTreeMap::<(u32, &str), u32>::new();
    let mut due = Vec::new();
    for _ in 0..days {
        // Quarter-hour ticks through a day, wrapping at midnight.
        for q in 0..96 {
            let (a, b) = (f64::from(q) * 0.25, f64::from(q + 1) * 0.25);
            due.clear();
            s.due(a, b, &mut rng, &mut due);
            for o in &due {
                *counts.entry(((o.at * 10.0) as u32, o.tasks[0].as_str())).or_default() += 1;
            }
        }
    }
    let share = |at: u32, task: &str| f64::from(counts.get(&(at, task)).copied().unwrap_or(0)) / f64::from(days);
    assert_eq!(share(80, "go-get-coffee"), 1.0);
    assert_eq!(share(120, "go-get-lunch"), 1.0);
    assert!((share(150, "go-get-coffee") - 0.5).abs() < 0.03);
    assert!((share(175, "go-visit-retail") - 0.25).abs() < 0.03);
    assert!((share(200, "go-get-dinner") - 0.5).abs() < 0.03);
    assert!((share(200, "go-get-drink") - 0.25).abs() < 0.03);
}

#[test]
fn scripts_expand_with_working_memory() {
    let lib = ScriptLibrary::from_toml(OFFICE_SCRIPTS).unwrap();
    let mut places = town();
    let memory = [("work".to_owned(), places.id("office").unwrap()), ("home".to_owned(), 0)].into();
    let mut out = Vec::new();
    lib.expand(lib.id("go-get-coffee").unwrap(), &memory, &places, &mut out).unwrap();
    assert_eq!(out.len(), 4);
    assert_eq!(out[0], Task::MoveTo(places.id("cafe").unwrap()));
    assert_eq!(out[3], Task::MoveTo(places.id("office").unwrap()));
    let Task::Emit(t) = out[1] else { panic!("emit") };
    assert_eq!(lib.text(t), "buy-coffee");
    out.clear();
    let no_work = [("home".to_owned(), 0)].into();
    assert_eq!(
        lib.expand(lib.id("go-work-at-workstation").unwrap(), &no_work, &places, &mut out),
        Err(Abort::NoMemory)
    );
    places.set_open("cafe", false).unwrap();
    assert_eq!(lib.expand(lib.id("go-get-coffee").unwrap(), &memory, &places, &mut out), Err(Abort::Closed));
    assert!(out.is_empty());
    assert!(matches!(
        ScriptLibrary::from_toml("[scripts.a]\nsteps = [ { wait = 1 } ]\nfallback = \"b\"\n"),
        Err(DecideError::Unknown { .. })
    ));
}

fn crowd(hour: f64) -> Crowd {
    let lib = ScriptLibrary::from_toml(OFFICE_SCRIPTS).unwrap();
    let schedule = Schedule::from_script(OFFICE_SCHEDULE).unwrap();
    Crowd::new(lib, vec![schedule], town(), hour).unwrap()
}

#[test]
fn failure_flushes_the_queue_and_runs_the_fallback() {
    let mut c = crowd(7.95);
    c.add("ann", "schedule-office.7", "home", &[("home", "home"), ("work", "office")], 0.5).unwrap();
    let mut rng = WorldRng::new(1);
    // At 8:00 the coffee one-shot is pending; the villager is idle, so it starts at once.
    c.tick(0.05, &mut rng);
    assert_eq!(c.activity(0), Some("go-get-coffee"));
    assert_eq!(c.villagers[0].queue.len(), 4);
    // The café closes while she walks there: flush, fall back to complaining.
    c.places.set_open("cafe", false).unwrap();
    c.tick(0.01, &mut rng);
    let coffee = c.library.id("go-get-coffee").unwrap();
    assert!(c.events.contains(&CrowdEvent { villager: 0, kind: CrowdEventKind::Failed(coffee) }));
    assert_eq!(c.activity(0), Some("complain"));
    let mut said = Vec::new();
    for _ in 0..5 {
        c.tick(0.01, &mut rng);
        said.extend(c.events.iter().filter_map(|e| match e.kind {
            CrowdEventKind::Said(t) => Some(c.library.text(t).to_owned()),
            _ => None,
        }));
    }
    assert_eq!(said, ["What kind of place is this?"]);
    // With nothing left to do, selection falls back on the block: work.
    for _ in 0..3 {
        c.tick(0.01, &mut rng);
    }
    assert_eq!(c.activity(0), Some("go-work-at-workstation"));
}

#[test]
fn a_simulated_day() {
    let mut c = crowd(0.0);
    for i in 0..40 {
        c.add(&format!("v{i}"), "schedule-office.7", "home", &[("home", "home"), ("work", "office")], 0.5).unwrap();
    }
    let mut rng = WorldRng::new(21);
    let (mut coffees, mut lunches) = (0, 0);
    let buy = |c: &Crowd, name: &str| {
        c.events.iter().filter(|e| matches!(e.kind, CrowdEventKind::Emitted(t) if c.library.text(t) == name)).count()
    };
    // One-minute ticks for a day.
    for minute in 0..24 * 60 {
        c.tick(1.0 / 60.0, &mut rng);
        coffees += buy(&c, "buy-coffee");
        lunches += buy(&c, "buy-lunch");
        if minute == 10 * 60 {
            let at_work = c.villagers.iter().filter(|v| v.position == Vec2::new(10.0, 0.0)).count();
            assert!(at_work >= 30, "{at_work} at work at 10:00");
        }
        if minute == 23 * 60 {
            let at_home = c.villagers.iter().filter(|v| v.position == Vec2::ZERO).count();
            assert!(at_home >= 25, "{at_home} at home at 23:00");
        }
    }
    assert_eq!(lunches, 40);
    assert!((40 + 10..=40 + 30).contains(&coffees), "{coffees}");
}

#[test]
fn planner_plans_and_caches() {
    let mut p = Planner::from_toml(
        r#"
[[rules]]
action = "go-to-restaurant"
pre = ["at-home", "is-hungry"]
post = ["~at-home", "at-restaurant"]
[[rules]]
action = "eat"
pre = ["at-restaurant", "is-hungry"]
post = ["~is-hungry", "has-eaten"]
[[rules]]
action = "go-home"
pre = ["at-restaurant"]
post = ["~at-restaurant", "at-home"]
[[rules]]
action = "read-paper"
pre = ["at-home", "~is-tired"]
post = ["is-informed"]
"#,
    )
    .unwrap();
    // The book's rule as bits: {at-home, is-hungry} → {is-hungry, at-restaurant}.
    let s = p.state(&["at-home", "is-hungry"]).unwrap();
    let after = p.execute(s, &[0]).unwrap();
    let mut d = p.describe(after);
    d.sort_unstable();
    assert_eq!(d, ["at-restaurant", "is-hungry"]);
    assert_eq!(p.execute(p.state(&["at-home"]).unwrap(), &[0]), None);
    // Fed and back home: go, eat, return.
    let goal = p.literals(&["at-home", "~is-hungry"]).unwrap();
    let plan = p.plan(s, goal, 6).unwrap();
    let names: Vec<&str> = plan.iter().map(|&a| p.action(a)).collect();
    assert_eq!(names, ["go-to-restaurant", "eat", "go-home"]);
    assert!(p.execute(s, &plan).is_some_and(|e| e & goal.0 == goal.0 && e & goal.1 == 0));
    assert_eq!(p.searches, 1);
    // Same situation with an irrelevant difference (informed): served from the cache.
    let s2 = s | p.state(&["is-informed"]).unwrap();
    assert_eq!(p.plan(s2, goal, 6), Some(plan.clone()));
    assert_eq!(p.searches, 1);
    // A relevant difference (not hungry) needs a new search — and an empty plan.
    let s3 = p.state(&["at-home"]).unwrap();
    assert_eq!(p.plan(s3, goal, 6), Some(vec![]));
    assert_eq!(p.searches, 2);
    assert_eq!(p.search(p.state(&["is-hungry"]).unwrap(), goal, 6), None);
    assert!(matches!(p.literals(&["is-rich"]), Err(DecideError::Unknown { .. })));
    let list = |xs: &[&str]| Value::List(xs.iter().map(|x| Value::from(*x)).collect());
    let v = p.plan_value(&list(&["at-home", "is-hungry"]), &list(&["has-eaten"]), 6).unwrap();
    assert_eq!(v, list(&["go-to-restaurant", "eat"]));
    assert_eq!(p.plan_value(&list(&["is-hungry"]), &list(&["has-eaten"]), 6).unwrap(), Value::Nil);
}
