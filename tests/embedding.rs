//! Tactica inside a game: a world built in code, scripts from memory, a host function that is a
//! closure over the game's own state — called from `.tac`, Lua and Rhai alike and known to the
//! checker — the runtime moved to another thread, events drained as a stream with a bounded log,
//! and the trace streamed to a sink with the same hash as the whole trace.

use std::sync::{Arc, Mutex};

use glam::IVec2;
use tactica::host::{Api, HostError, Param, ScriptLimits, Type};
use tactica::runtime::Runtime;
use tactica_engine::Value;
use tactica_engine::grid::Map;
use tactica_engine::world::{Entity, EntityId, EventKind, World};

/// The game's own state, which scripts reach through the game's functions.
#[derive(Default)]
struct Purse {
    gold: i64,
    given: Vec<(String, i64)>,
}

/// The standard table plus two functions of the game: `PlayerGold()` reads the purse, and
/// `GiveGold(n)` pays into it, remembering who paid.
fn game_api(purse: &Arc<Mutex<Purse>>) -> Api {
    let mut api = Api::standard();
    let p = Arc::clone(purse);
    api.add_closure("PlayerGold", vec![], Type::Int, "The gold the player carries (`PlayerGold()`).", move |_, _| {
        Ok(Value::Int(p.lock().unwrap().gold))
    });
    let p = Arc::clone(purse);
    api.add_closure(
        "GiveGold",
        vec![Param { name: "amount", ty: Type::Int }],
        Type::Nil,
        "Pays `amount` gold into the player's purse (`GiveGold(5);`).",
        move |ctx, args| {
            let amount = args.first().and_then(Value::as_i64).ok_or_else(|| HostError::BadArgument {
                function: "GiveGold",
                index: 1,
                expected: "a whole number".into(),
                got: format!("{:?}", args.first()),
            })?;
            let who = ctx.me().map(|e| e.name.clone()).unwrap_or_default();
            let mut purse = p.lock().unwrap();
            purse.gold += amount;
            purse.given.push((who, amount));
            Ok(Value::Nil)
        },
    );
    api
}

const TAC: &str = "on think { GiveGold(5); if (PlayerGold() >= 30) Say(\"You are rich now.\"); }\n";
const LUA: &str =
    "function on_think()\n  give_gold(5)\n  if player_gold() >= 30 then say(\"Rich, you are.\") end\nend\n";
const RHAI: &str = "fn on_think() {\n  give_gold(5);\n  if player_gold() >= 30 { say(\"So rich.\"); }\n}\n";

fn world() -> (World, [EntityId; 3]) {
    let mut world = World::new(Map::open(12, 12), 10, 42);
    let mut player = Entity::new("player", "Human", IVec2::new(1, 1));
    player.tags.insert("player".into());
    world.spawn(player).unwrap();
    let ids = ["ogre", "goblin", "shaman"].map(|n| world.spawn(Entity::new(n, "Orc", IVec2::new(6, 6))).unwrap());
    (world, ids)
}

fn game(purse: &Arc<Mutex<Purse>>) -> Runtime {
    let api = game_api(purse);
    let (world, [ogre, goblin, shaman]) = world();
    let mut rt = Runtime::from_world("purse", world, tactica::languages_for(&api, ScriptLimits::new()));
    rt.attach_source(Some(ogre), "ogre.tac", TAC, 1).unwrap();
    rt.attach_source(Some(goblin), "mods/goblin.lua", LUA, 1).unwrap();
    rt.attach_source(Some(shaman), "mods/shaman.rhai", RHAI, 1).unwrap();
    rt
}

fn said(events: &[tactica_engine::world::Event]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Say { text } => Some((e.entity.clone().unwrap_or_default(), text.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn a_closure_host_function_works_from_all_three_languages() {
    let purse = Arc::new(Mutex::new(Purse::default()));
    let mut rt = game(&purse);
    rt.run(3);
    {
        let p = purse.lock().unwrap();
        assert_eq!(p.gold, 45, "three payers, three ticks, five each");
        let payers: Vec<&str> = p.given.iter().map(|(w, _)| w.as_str()).collect();
        assert_eq!(payers, ["ogre", "goblin", "shaman"].repeat(3));
    }
    // Each reads the purse after its own payment: on the second tick the shaman is the first to
    // see 30; on the third everybody is past it (the shaman does not repeat its line within the
    // say cooldown).
    let lines: Vec<(u64, String, String)> = rt
        .drain_events()
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::Say { text } => Some((e.tick, e.entity.clone().unwrap_or_default(), text.clone())),
            _ => None,
        })
        .collect();
    let expected = [(1, "shaman", "So rich."), (2, "ogre", "You are rich now."), (2, "goblin", "Rich, you are.")];
    assert_eq!(lines, expected.map(|(t, w, s)| (t, w.to_owned(), s.to_owned())));
}

#[test]
fn the_checker_knows_the_game_functions() {
    let purse = Arc::new(Mutex::new(Purse::default()));
    let api = game_api(&purse);
    let (script, diags) = tactica_script::check("ogre.tac", TAC, &api);
    assert!(script.is_some() && diags.is_empty(), "{diags:?}");
    // Against the standard table alone the same file names an unknown function.
    let (_, diags) = tactica_script::check("ogre.tac", TAC, &Api::standard());
    assert!(diags.iter().any(|d| d.code == tactica_script::Code::UnknownFunction), "{diags:?}");
    let (_, diags) = tactica_script::check("typo.tac", "on think { GiveGlod(5); GiveGold(\"lots\"); }", &api);
    let text = tactica_script::render("typo.tac", "on think { GiveGlod(5); GiveGold(\"lots\"); }", &diags, false);
    assert!(text.contains("[E0011]") && text.contains("did you mean `GiveGold`?"), "{text}");
    assert!(text.contains("[E0014]"), "a string where the amount is a number: {text}");
    // The generated API reference lists them with their docs.
    let md = tactica_stdlib::api_markdown(&api);
    assert!(md.contains("GiveGold(amount: int)") && md.contains("Pays `amount` gold"), "{md}");
}

#[test]
fn a_runtime_moves_to_another_thread_mid_game() {
    let purse = Arc::new(Mutex::new(Purse::default()));
    let mut here = game(&purse);
    here.run(6);
    let expected = here.trace_hash();

    let purse = Arc::new(Mutex::new(Purse::default()));
    let mut rt = game(&purse);
    rt.run(3);
    let rt = std::thread::spawn(move || {
        rt.run(3);
        rt
    })
    .join()
    .unwrap();
    assert_eq!(rt.trace_hash(), expected);
    assert_eq!(purse.lock().unwrap().gold, 90);
}

#[test]
fn a_bounded_log_keeps_memory_flat_and_the_trace_hash_whole() {
    let purse = Arc::new(Mutex::new(Purse::default()));
    let mut whole = game(&purse);
    whole.run(300);
    let full_trace = whole.trace();

    let purse = Arc::new(Mutex::new(Purse::default()));
    let mut rt = game(&purse);
    let sink = SharedSink::default();
    rt.stream_trace(Box::new(sink.clone()));
    rt.keep_events(Some(20));
    let mut drained = Vec::new();
    for _ in 0..300 {
        rt.tick();
        drained.extend(rt.drain_events());
        assert!(rt.world().log().events().len() <= 40, "at most twice what is kept");
    }
    assert_eq!(rt.trace_hash(), whole.trace_hash(), "the hash covers every event");
    assert_eq!(String::from_utf8(sink.0.lock().unwrap().clone()).unwrap(), full_trace, "the sink got every line");
    assert_eq!(drained.len(), whole.world().log().len(), "every event was drained once");
    assert!(rt.trace_sink_error().is_none());
}

#[test]
fn scripts_from_memory_reload_from_memory() {
    let purse = Arc::new(Mutex::new(Purse::default()));
    let mut rt = game(&purse);
    rt.tick();
    let bad = rt.reload_source("mods/goblin.lua", "function on_think( say('x') end");
    assert!(bad.outcome.is_err(), "a broken mod is refused");
    let good = rt.reload_source("mods/goblin.lua", "function on_think() say(\"New goblin.\") end\n");
    assert!(good.outcome.is_ok(), "{}", good.message());
    let unknown = rt.reload_source("mods/troll.lua", "");
    assert!(unknown.outcome.is_err());
    rt.drain_events();
    rt.tick();
    let lines = said(&rt.drain_events());
    assert!(lines.contains(&("goblin".to_owned(), "New goblin.".to_owned())), "{lines:?}");
    let reloads = rt.world().log().events().iter().filter(|e| matches!(e.kind, EventKind::Reload { .. })).count();
    assert_eq!(reloads, 3, "each attempt is in the trace");
}

/// A `Vec<u8>` the test can read while the runtime owns a writer to it.
#[derive(Clone, Default)]
struct SharedSink(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for SharedSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_script_budget_puts_thinks_off_round_robin() {
    let purse = Arc::new(Mutex::new(Purse::default()));
    let mut rt = game(&purse);
    // A budget of nothing: one routine think a tick, the others put off and first next tick.
    rt.set_script_budget(Some(std::time::Duration::ZERO));
    rt.run(6);
    let p = purse.lock().unwrap();
    let payers: Vec<&str> = p.given.iter().map(|(w, _)| w.as_str()).collect();
    assert_eq!(payers, ["ogre", "goblin", "shaman", "ogre", "goblin", "shaman"], "each in turn, none starved");
    assert_eq!(rt.scripts_put_off(), 2);
}

#[test]
fn a_new_map_raises_and_lowers_walls_and_a_wrong_one_is_refused() {
    let scenario = tactica::scenario::load(std::path::Path::new("examples/castle/scenario.toml")).unwrap();
    let mut rt = Runtime::new(scenario, tactica::languages()).unwrap();
    rt.run(2);
    let file = rt.map_file().unwrap().to_path_buf();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut rows: Vec<Vec<u8>> = text.lines().map(|l| l.as_bytes().to_vec()).collect();
    // The first wall of the first inner row opens; the first open cell there becomes a wall.
    let y = 1;
    let wall = rows[y].iter().position(|&c| c == b'#').unwrap();
    let open = rows[y].iter().position(|&c| c == b'.').unwrap();
    rows[y][wall] = b'.';
    rows[y][open] = b'#';
    let edited: String = rows.iter().map(|r| String::from_utf8_lossy(r).into_owned() + "\n").collect();
    let report = rt.reload_map_text(&edited);
    assert!(report.outcome.is_ok(), "{}", report.message());
    assert!(rt.world().map().passable(glam::IVec2::new(wall as i32, y as i32)));
    assert!(!rt.world().map().passable(glam::IVec2::new(open as i32, y as i32)));
    let cells = rt.world().log().events().iter().filter(|e| matches!(e.kind, EventKind::Cell { .. })).count();
    assert_eq!(cells, 2, "each changed cell is a map edit in the trace");
    // Another size, or text that is not a map, leaves the map as it is.
    let before = rt.world().map().to_ascii();
    assert!(rt.reload_map_text("...\n...\n").outcome.is_err());
    assert!(rt.reload_map_text("..@?\n").outcome.is_err());
    assert_eq!(rt.world().map().to_ascii(), before);
    // From disk, the map file reloads like a script.
    assert!(rt.reload_file(&file).outcome.is_ok());
    assert!(!rt.world().map().passable(glam::IVec2::new(wall as i32, y as i32)), "the file's wall is back");
}
