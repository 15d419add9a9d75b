//! A game's first day with nothing but `use tactica::prelude::*;`: a world built from the game's
//! own rows (a door and a place in them), a host function of the game's own registered as a
//! closure with its Rust signature (typed arguments and result, an error of the game's own),
//! scripts in `.tac`, Lua and Rhai, ticks and drained events. Every name below comes from the
//! prelude.

use std::fmt;
use std::sync::{Arc, Mutex};

use tactica::prelude::*;

/// The game's own error type: the gatekeeper turns down a short toll.
#[derive(Debug)]
struct TollError {
    offered: i64,
}

impl fmt::Display for TollError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the toll is {TOLL} coins, {} offered", self.offered)
    }
}

const TOLL: i64 = 3;

/// The game's level: `|` the gate (shut), `W` the well beyond it.
const LEVEL: [&str; 5] = ["##########", "#....#...#", "#....|..W#", "#....#...#", "##########"];

/// The game's function `PayToll(coins)`: takes the coins into the gatekeeper's chest and returns
/// what the chest holds, or refuses a short toll with the game's own error.
fn api(chest: &Arc<Mutex<i64>>) -> Api {
    let mut api = Api::standard();
    let chest = Arc::clone(chest);
    api.add_fn(
        "PayToll",
        &["coins"],
        "Pays the gatekeeper (`PayToll(3)`); returns what the chest holds.",
        move |_ctx: &mut ScriptCtx<'_>, coins: i64| -> Result<i64, TollError> {
            if coins < TOLL {
                return Err(TollError { offered: coins });
            }
            let mut held = chest.lock().unwrap();
            *held += coins;
            Ok(*held)
        },
    );
    api
}

const TAC: &str = "on think { if (PayToll(4) > 0) Say(\"Paid in full.\"); }\n";
const LUA: &str = "function on_think()\n  local held = PayToll(3)\n  Say(\"The chest holds \" .. held)\nend\n";
/// One coin short.
const RHAI: &str = "fn on_think() {\n  let held = PayToll(1);\n  Say(`Paid, ${held}`);\n}\n";
/// Coins as words: a value of the wrong type.
const LUA_WORDS: &str = "function on_think()\n  PayToll(\"three\")\nend\n";

fn game(chest: &Arc<Mutex<i64>>) -> Runtime {
    let mut world = WorldBuilder::from_rows(LEVEL).door('|', "gate", false).place('W', "well").seed(5).build().unwrap();
    let names = ["ogre", "goblin", "shaman", "imp"];
    let ids: Vec<EntityId> = names
        .iter()
        .enumerate()
        .map(|(i, n)| world.spawn(Entity::new(*n, "Orc", IVec2::new(1 + i as i32, 2))).unwrap())
        .collect();
    let mut rt = Runtime::from_world("toll", world, languages_for(&api(chest), ScriptLimits::new()));
    rt.attach_source(Some(ids[0]), "ogre.tac", TAC, 1).unwrap();
    rt.attach_source(Some(ids[1]), "goblin.lua", LUA, 1).unwrap();
    rt.attach_source(Some(ids[2]), "shaman.rhai", RHAI, 1).unwrap();
    rt.attach_source(Some(ids[3]), "imp.lua", LUA_WORDS, 1).unwrap();
    rt
}

/// `(entity, text)` pairs.
type Lines = Vec<(String, String)>;

/// `(entity, text)` of the lines said and the script errors, in trace order.
fn lines(events: &[Event]) -> (Lines, Lines) {
    let mut said = Vec::new();
    let mut errors = Vec::new();
    for e in events {
        let who = e.entity.clone().unwrap_or_default();
        match &e.kind {
            EventKind::Say { text } => said.push((who, text.clone())),
            EventKind::ScriptError { file, message, .. } => errors.push((file.clone(), message.clone())),
            _ => {}
        }
    }
    (said, errors)
}

#[test]
fn the_prelude_builds_a_world_registers_a_typed_function_and_runs_three_languages() {
    let chest = Arc::new(Mutex::new(0_i64));
    let mut rt = game(&chest);
    rt.tick();
    let events = rt.drain_events();
    let (said, errors) = lines(&events);
    // The ogre pays 4, the goblin 3 (the chest holds 7), the shaman's one coin is refused.
    assert_eq!(
        said,
        [("ogre".to_owned(), "Paid in full.".to_owned()), ("goblin".to_owned(), "The chest holds 7".to_owned())]
    );
    assert_eq!(*chest.lock().unwrap(), 7);
    assert_eq!(errors.len(), 2, "{errors:?}");
    let (file, message) = &errors[0];
    assert_eq!(file, "shaman.rhai");
    assert!(message.contains("`PayToll`: the toll is 3 coins, 1 offered"), "the game's own message: {message}");
    let (file, message) = &errors[1];
    assert_eq!(file, "imp.lua");
    assert!(message.contains("`PayToll` argument 1: expected a whole number, got string"), "{message}");
    // The next tick the failing scripts run again and fail the same way: counted, not recorded
    // again (docs/trace.md, "Repeated errors"); the world goes on.
    rt.tick();
    let (said, errors) = lines(&rt.drain_events());
    // The ogre's "Paid in full." is not said again within the say cooldown; the goblin's line
    // is a new one.
    assert_eq!(said, [("goblin".to_owned(), "The chest holds 14".to_owned())]);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(*chest.lock().unwrap(), 14);
    rt.finish();
    let mut counted: Vec<(String, u64)> = rt
        .drain_events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ScriptErrorRepeated { file, count, .. } => Some((file.clone(), *count)),
            _ => None,
        })
        .collect();
    counted.sort();
    assert_eq!(counted, [("imp.lua".to_owned(), 1), ("shaman.rhai".to_owned(), 1)]);
}

#[test]
fn the_rows_give_the_world_its_door_and_place() {
    let chest = Arc::new(Mutex::new(0_i64));
    let mut rt = game(&chest);
    let world = rt.world();
    assert_eq!((world.map().width(), world.map().height()), (10, 5));
    assert!(!world.map().passable(IVec2::new(5, 2)), "the gate is shut");
    assert_eq!(world.place("well"), Some(Vec2::new(8.5, 2.5)));
    // A script sends the goblin to the well once the gate opens.
    rt.reload_source("goblin.lua", "function on_think() MoveTo(\"well\") end\n").outcome.unwrap();
    rt.world_mut().set_door("gate", true);
    // Six cells at a cell a second, ten ticks a second, through the open gate.
    rt.run(80);
    let goblin = rt.world().find("goblin").unwrap();
    assert_eq!(rt.world().entity(goblin).unwrap().cell(), IVec2::new(8, 2));
    // The first arrival is the goblin's, at the well (asked again once there, it arrives again).
    let arrival = rt.world().log().events().iter().find(|e| matches!(e.kind, EventKind::Arrive { .. })).unwrap();
    assert_eq!((arrival.entity.as_deref(), &arrival.kind), (Some("goblin"), &EventKind::Arrive { cell: [8, 2] }));
    let doors: Vec<&EventKind> =
        rt.world().log().events().iter().map(|e| &e.kind).filter(|k| matches!(k, EventKind::Door { .. })).collect();
    assert_eq!(doors, [&EventKind::Door { name: "gate".into(), open: true }]);
}

#[test]
fn the_typed_function_is_in_the_table_with_its_types() {
    let chest = Arc::new(Mutex::new(0_i64));
    let api = api(&chest);
    let f = api.functions("paytoll").next().unwrap();
    assert_eq!(f.signature(), "PayToll(coins: int)");
    assert_eq!(f.ret, Type::Int);
    // `.tac` is checked against it: a string where the coins go is caught before anything runs.
    let value: Value = "three".into();
    assert_eq!(<i64 as FromValue>::from_value(&value), Err("a whole number".to_owned()));
    assert_eq!(7_i64.into_value(), Value::Int(7));
}
