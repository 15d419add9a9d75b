//! Hot reload through the library API with the real languages — `.tac`, Lua and Rhai files on
//! disk, edited while a scenario plays and reloaded between ticks with `Runtime::reload_file` (no
//! wall-clock waits). `tests/reload.rs` tests the machinery with a toy language; this file checks
//! that each real front-end keeps its promises: new lines said on the next tick, broken files
//! reported the way the language reports them while the old code runs on, sequences in progress
//! finishing once, `on_reload` hooks migrating state, attribute scripts re-applied within the
//! schema, and the real file watcher.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use tactica::reload::{FileWatcher, ReloadReport};
use tactica::runtime::Runtime;
use tactica_engine::Value;
use tactica_engine::coord::Action;
use tactica_engine::world::EventKind;

/// A scenario folder being played.
struct Game {
    dir: PathBuf,
    rt: Runtime,
}

impl Game {
    fn new(name: &str, scenario: &str, scripts: &[(&str, &str)]) -> Game {
        let path = common::folder(&format!("reload-lang-{name}"), scenario, scripts);
        let rt = common::play(&path);
        Game { dir: path.parent().unwrap().to_path_buf(), rt }
    }

    fn edit(&self, file: &str, text: &str) {
        std::fs::write(self.dir.join(file), text).unwrap();
    }

    fn reload(&mut self, file: &str) -> ReloadReport {
        let path = self.dir.join(file);
        self.rt.reload_file(&path)
    }

    /// The events of `who` as JSON lines, from tick `from` on.
    fn lines_of(&self, who: &str, from: u64) -> Vec<String> {
        self.rt
            .world()
            .log()
            .events()
            .iter()
            .filter(|e| e.tick >= from && e.entity.as_deref() == Some(who))
            .map(|e| e.to_json_line())
            .collect()
    }

    /// What `who` said on tick `tick`.
    fn said(&self, who: &str, tick: u64) -> Vec<String> {
        self.kinds(who, tick, |k| if let EventKind::Say { text } = k { Some(text.clone()) } else { None })
    }

    /// The sounds `who` played on tick `tick`.
    fn sounds(&self, who: &str, tick: u64) -> Vec<String> {
        self.kinds(who, tick, |k| if let EventKind::Sound { name } = k { Some(name.clone()) } else { None })
    }

    fn kinds(&self, who: &str, tick: u64, f: impl Fn(&EventKind) -> Option<String>) -> Vec<String> {
        let log = self.rt.world().log().events();
        log.iter().filter(|e| e.tick == tick && e.entity.as_deref() == Some(who)).filter_map(|e| f(&e.kind)).collect()
    }

    /// The tick the last `tick()` played.
    fn last_tick(&self) -> u64 {
        self.rt.world().clock().tick() - 1
    }

    /// The `reload` events of the trace: (file, entities, ok, message).
    fn reloads(&self) -> Vec<(String, Vec<String>, bool, String)> {
        let log = self.rt.world().log().events();
        log.iter()
            .filter_map(|e| match &e.kind {
                EventKind::Reload { file, entities, ok, message } => {
                    Some((file.clone(), entities.clone(), *ok, message.clone()))
                }
                _ => None,
            })
            .collect()
    }

    fn attribute(&self, who: &str, key: &str) -> Value {
        let id = self.rt.world().find(who).unwrap();
        self.rt.world().entity(id).unwrap().attribute(key).clone()
    }
}

/// One troll taunting on every think tick, in language `ext`.
fn troll(ext: &str) -> String {
    format!(
        r#"
map = "map.txt"
ticks = 0
[[entities]]
name = "troll"
kind = "troll"
at = [1, 1]
scripts = ["troll.{ext}"]
"#
    )
}

/// The taunt script of each language: says `line` and plays `sound` on every think tick.
fn taunt(ext: &str, line: &str, sound: &str) -> String {
    match ext {
        "tac" => format!("on think {{\n  Say(\"{line}\");\n  PlaySound({sound});\n}}\n"),
        "lua" => format!("function on_think()\n  Say(\"{line}\")\n  PlaySound(\"{sound}\")\nend\n"),
        "rhai" => format!("fn on_think() {{\n    say(\"{line}\");\n    play_sound(\"{sound}\");\n}}\n"),
        _ => unreachable!(),
    }
}

/// A taunt script with a mistake on its third line (a missing `)`).
fn broken(ext: &str) -> &'static str {
    match ext {
        "tac" => "on think {\n  Say(\"Oi!\");\n  PlaySound(kAlarmSnd;\n}\n",
        "lua" => "function on_think()\n  Say(\"Oi!\")\n  PlaySound(\"kAlarmSnd\"\nend\n",
        "rhai" => "fn on_think() {\n    say(\"Oi!\");\n    play_sound(\"kAlarmSnd\";\n}\n",
        _ => unreachable!(),
    }
}

fn a_changed_taunt_is_said_on_the_next_tick(ext: &str) {
    let file = format!("troll.{ext}");
    let mut g = Game::new(&format!("taunt-{ext}"), &troll(ext), &[(&file, &taunt(ext, "Grr!", "kSeagullSnd"))]);
    g.rt.run(3);
    assert_eq!(g.said("troll", 0), ["Grr!"]);
    assert_eq!(g.sounds("troll", 2), ["kSeagullSnd"]);
    g.edit(&file, &taunt(ext, "You smell of fish.", "kSeagullSnd"));
    let report = g.reload(&file);
    assert_eq!(report.outcome, Ok(()), "{}", report.message());
    assert_eq!(report.entities, ["troll"]);
    g.rt.tick();
    assert_eq!(g.said("troll", 3), ["You smell of fish."], "the new line, on the very next tick");
    assert_eq!(g.reloads(), [(file, vec!["troll".to_owned()], true, String::new())]);
}

#[test]
fn tac_taunt_reloads() {
    a_changed_taunt_is_said_on_the_next_tick("tac");
}

#[test]
fn lua_taunt_reloads() {
    a_changed_taunt_is_said_on_the_next_tick("lua");
}

#[test]
fn rhai_taunt_reloads() {
    a_changed_taunt_is_said_on_the_next_tick("rhai");
}

/// Rhai keeps what each call resolved to across calls (`bindings/rhai/src/calls.rs`); a reload
/// must not call the old file's script function that the cache found before.
#[test]
fn rhai_reload_reaches_a_changed_script_function() {
    let with_line = |line: &str| format!("fn line() {{ \"{line}\" }}\nfn on_think() {{\n    say(line());\n}}\n");
    let mut g = Game::new("helper-rhai", &troll("rhai"), &[("troll.rhai", &with_line("Grr!"))]);
    // Three thinks: `line` is called on each, so Rhai has cached it (from its second use on).
    g.rt.run(3);
    assert_eq!(g.said("troll", 0), ["Grr!"]);
    g.edit("troll.rhai", &with_line("You smell of fish."));
    let report = g.reload("troll.rhai");
    assert_eq!(report.outcome, Ok(()), "{}", report.message());
    g.rt.tick();
    assert_eq!(g.said("troll", 3), ["You smell of fish."]);
}

/// Breaks the script (the old code keeps running, the error is reported as the language reports
/// it and traced), then fixes it (the new code runs). Returns the failed report's message.
fn broken_then_fixed(ext: &str) -> String {
    let file = format!("troll.{ext}");
    let mut g = Game::new(&format!("broken-{ext}"), &troll(ext), &[(&file, &taunt(ext, "Grr!", "kSeagullSnd"))]);
    g.rt.run(2);
    g.edit(&file, broken(ext));
    let report = g.reload(&file);
    let errors = report.outcome.clone().expect_err("a broken file is refused");
    assert!(errors.iter().all(|e| e.file.ends_with(&file)), "{errors:?}");
    assert!(errors.iter().any(|e| e.line == 3 || e.line == 4), "the place of the mistake: {errors:?}");
    for _ in 0..3 {
        g.rt.tick();
        assert_eq!(g.sounds("troll", g.last_tick()), ["kSeagullSnd"], "the old behaviour continues");
        assert!(g.said("troll", g.last_tick()).is_empty(), "no line of the broken file is said");
    }
    let reloads = g.reloads();
    assert_eq!(reloads.len(), 1);
    let (traced_file, entities, ok, message) = &reloads[0];
    assert_eq!(
        (traced_file.as_str(), entities.as_slice(), *ok),
        (file.as_str(), ["troll".to_owned()].as_slice(), false)
    );
    assert_eq!(message, &report.message(), "the trace carries the diagnostics");
    g.edit(&file, &taunt(ext, "Oi!", "kAlarmSnd"));
    assert_eq!(g.reload(&file).outcome, Ok(()));
    g.rt.tick();
    assert_eq!(g.said("troll", g.last_tick()), ["Oi!"]);
    assert_eq!(g.sounds("troll", g.last_tick()), ["kAlarmSnd"]);
    assert!(g.reloads()[1].2, "the fix is traced as a successful reload");
    assert!(!g.rt.trace().contains("script_error"), "a refused reload is not a run-time error");
    report.message()
}

#[test]
fn tac_broken_script_reports_ariadne_and_keeps_the_old_code() {
    let message = broken_then_fixed("tac");
    // The ariadne report: code, title, the file and place, the source line under it.
    assert!(message.contains("[E0001] Error"), "{message}");
    assert!(message.contains("troll.tac:3:"), "{message}");
    assert!(message.contains("│   PlaySound(kAlarmSnd;"), "{message}");
}

#[test]
fn lua_broken_script_reports_file_and_line() {
    let message = broken_then_fixed("lua");
    assert!(message.contains("troll.lua:4:"), "{message}");
    assert!(message.contains("')' expected"), "{message}");
}

#[test]
fn rhai_broken_script_reports_file_and_line() {
    let message = broken_then_fixed("rhai");
    assert!(message.contains("troll.rhai:3:"), "{message}");
}

const SQUAD: &str = r#"
map = "map.txt"
ticks = 0
[[entities]]
name = "sergeant"
kind = "soldier"
team = "squad"
at = [0, 0]
speed = 4.0
tags = ["pointman"]
scripts = ["squad.tac"]
[[entities]]
name = "private"
kind = "soldier"
team = "squad"
at = [0, 5]
speed = 2.0
tags = ["cover"]
"#;

const SQUAD_TAC: &str = "sequence Breach {
  role pointman { MoveTo(3, 0); signal ready; wait go; Trigger(kBreachCharge); MoveTo(8, 0); }
  role cover    { MoveTo(3, 5); wait ready; Say(\"Breach!\"); signal go; MoveTo(8, 5); }
}
once on think start Breach;
";

#[test]
fn tac_sequence_half_way_through_its_waits_keeps_its_progress() {
    let mut g = Game::new("squad-tac", SQUAD, &[("squad.tac", SQUAD_TAC)]);
    g.rt.run(8);
    // The pointman is at the door waiting for `go`; the slow cover is still on its way.
    let sergeant = g.rt.world().find("sergeant").unwrap();
    let front = g.rt.world().entity(sergeant).unwrap().actions.front().cloned();
    assert!(matches!(&front, Some(Action::Wait { id, .. }) if id == "go"), "{front:?}");
    assert!(g.lines_of("private", 0).iter().all(|l| !l.contains("\"kind\":\"release\"")));
    // An edit that changes the lines and adds a handler: the running sequence is not restarted.
    let edited =
        SQUAD_TAC.replace("Breach!", "Now!").replace("once on think", "on reload Say(\"Reloaded.\");\nonce on think");
    g.edit("squad.tac", &edited);
    assert_eq!(g.reload("squad.tac").outcome, Ok(()));
    g.rt.run(60);
    let sergeant_lines = g.lines_of("sergeant", 0);
    let private_lines = g.lines_of("private", 0);
    let count = |lines: &[String], what: &str| lines.iter().filter(|l| l.contains(what)).count();
    assert_eq!(count(&sergeant_lines, "\"trigger\",\"name\":\"kBreachCharge\""), 1, "{sergeant_lines:#?}");
    assert_eq!(count(&sergeant_lines, "\"kind\":\"wait\""), 1, "waited once: no restart");
    assert_eq!(count(&sergeant_lines, "\"kind\":\"release\""), 1);
    assert_eq!(count(&private_lines, "\"kind\":\"release\""), 1);
    // The lines already queued when the file changed are the old ones; the reload hook ran once.
    assert_eq!(count(&private_lines, "\"text\":\"Breach!\""), 1, "{private_lines:#?}");
    assert_eq!(count(&private_lines, "\"text\":\"Now!\""), 0);
    assert_eq!(count(&sergeant_lines, "\"text\":\"Reloaded.\""), 1);
    let cell = |who: &str| g.rt.world().entity(g.rt.world().find(who).unwrap()).unwrap().cell();
    assert_eq!((cell("sergeant").to_array(), cell("private").to_array()), ([8, 0], [8, 5]), "{private_lines:#?}");
}

const BREACH: &str = r#"
map = "map.txt"
ticks = 0
[[entities]]
name = "point"
kind = "soldier"
team = "alpha"
at = [0, 0]
speed = 2.0
scripts = ["point.lua"]
[[entities]]
name = "cover"
kind = "soldier"
team = "alpha"
at = [0, 1]
speed = 4.0
scripts = ["cover.lua"]
"#;

const POINT_LUA: &str = "function sequence()\n  MoveTo(4, 1)\n  Signal(\"breach\")\nend\n";
const COVER_LUA: &str = "function report() return \"Clear!\" end
function sequence()
  Wait(\"breach\")
  -- A query after queued actions: the coroutine waits here until the breach is signalled.
  local d = Distance(Me(), FindEntity(\"point\"))
  MoveTo(7, 1)
  Say(report() .. \" \" .. math.floor(d))
end
";

#[test]
fn lua_coroutine_waiting_on_a_signal_keeps_its_progress() {
    let mut g = Game::new("breach-lua", BREACH, &[("point.lua", POINT_LUA), ("cover.lua", COVER_LUA)]);
    g.rt.run(3);
    let cover = g.rt.world().find("cover").unwrap();
    assert!(matches!(g.rt.world().entity(cover).unwrap().actions.front(), Some(Action::Wait { .. })));
    g.edit("cover.lua", &COVER_LUA.replace("\"Clear!\"", "\"All clear!\""));
    assert_eq!(g.reload("cover.lua").outcome, Ok(()));
    g.rt.run(40);
    let lines = g.lines_of("cover", 0);
    let waits = lines.iter().filter(|l| l.contains("\"kind\":\"wait\"")).count();
    assert_eq!(waits, 1, "the coroutine was not restarted: {lines:#?}");
    // Resumed after the signal: the distance it measured then (point at (4,1), cover at (0,1): 4),
    // and the report function of the new code.
    let said: Vec<&String> = lines.iter().filter(|l| l.contains("\"kind\":\"say\"")).collect();
    assert_eq!(said.len(), 1, "{lines:#?}");
    assert!(said[0].contains("\"text\":\"All clear! 4\""), "{}", said[0]);
    let e = g.rt.world().entity(cover).unwrap();
    assert_eq!((e.cell().to_array(), e.actions.is_idle()), ([7, 1], true), "{lines:#?}");
    assert!(!g.rt.trace().contains("script_error"));
}

#[test]
fn lua_on_reload_migrates_state_and_queues_and_blackboards_survive() {
    let old = "function on_spawn()\n  state.gold = 15\n  MoveTo(10, 0)\nend\n";
    let new = "function on_reload(s)\n  s.coins = s.gold * 10\n  s.gold = nil\nend\n\
               function on_think()\n  Say(\"coins \" .. state.coins)\nend\n";
    let scenario = troll("lua").replace("at = [1, 1]", "at = [0, 0]\nspeed = 0.5");
    let mut g = Game::new("migrate-lua", &scenario, &[("troll.lua", old)]);
    g.rt.run(4);
    let troll = g.rt.world().find("troll").unwrap();
    g.rt.world_mut().entity_mut(troll).unwrap().blackboard.insert("seen".into(), Value::Int(7));
    let before = g.rt.world().entity(troll).unwrap().actions.front().cloned();
    assert!(matches!(before, Some(Action::MoveTo { .. })), "{before:?}");
    g.edit("troll.lua", new);
    assert_eq!(g.reload("troll.lua").outcome, Ok(()));
    g.rt.tick();
    assert_eq!(g.said("troll", 4), ["coins 150"], "on_reload ran before the first think of the new code");
    let state = &g.rt.host_mut().instances()[0].state;
    assert_eq!(state.get("coins"), Some(&Value::Int(150)));
    assert_eq!(state.get("gold"), None);
    let e = g.rt.world().entity(troll).unwrap();
    assert_eq!(e.actions.front().cloned(), before, "the move in progress goes on");
    assert_eq!(e.blackboard.get("seen"), Some(&Value::Int(7)));
}

#[test]
fn rhai_on_reload_migrates_state() {
    let old = "fn on_spawn() {\n    this.gold = 15;\n}\n";
    // The hook gets the old state; the map it returns becomes the state.
    let new = "fn on_reload(old) {\n    #{ coins: old.gold * 10 }\n}\n\
               fn on_think() {\n    say(\"coins \" + this.coins);\n}\n";
    let mut g = Game::new("migrate-rhai", &troll("rhai"), &[("troll.rhai", old)]);
    g.rt.run(2);
    g.edit("troll.rhai", new);
    assert_eq!(g.reload("troll.rhai").outcome, Ok(()));
    g.rt.tick();
    assert_eq!(g.said("troll", 2), ["coins 150"]);
    let state = &g.rt.host_mut().instances()[0].state;
    assert_eq!((state.get("coins"), state.get("gold")), (Some(&Value::Int(150)), None));
    // The other form: `this` is the state; a hook that returns nothing keeps its changes.
    g.edit("troll.rhai", &new.replace("#{ coins: old.gold * 10 }", "this.coins = old.coins + 1;"));
    assert_eq!(g.reload("troll.rhai").outcome, Ok(()));
    g.rt.tick();
    assert_eq!(g.said("troll", 3), ["coins 151"]);
}

#[test]
fn tac_on_reload_migrates_facts() {
    let old = "rules Purse { fact Gold = 15; }\non think { if (Gold == 15) PlaySound(kSeagullSnd); }\n";
    // A new fact starts at its initial value; `on reload` fills it from the carried one.
    let new = "rules Purse { fact Gold = 15; fact Coins = 0; }\n\
               on reload { Coins = Gold * 10; }\n\
               on think { if (Coins == 150) Say(\"150 coins.\"); }\n";
    let mut g = Game::new("migrate-tac", &troll("tac"), &[("troll.tac", old)]);
    g.rt.run(2);
    assert_eq!(g.sounds("troll", 1), ["kSeagullSnd"]);
    g.edit("troll.tac", new);
    assert_eq!(g.reload("troll.tac").outcome, Ok(()));
    g.rt.tick();
    assert_eq!(g.said("troll", 2), ["150 coins."]);
}

#[test]
fn tac_attribute_scripts_reapply_within_the_schema() {
    let scenario = troll("tac").replace("troll.tac", "troll_attrs.tac");
    let attrs = "creature Troll { intelligence = 20; strength = 75; }\n";
    let mut g = Game::new("attrs-tac", &scenario, &[("troll_attrs.tac", attrs)]);
    g.rt.run(2);
    assert_eq!(
        (g.attribute("troll", "INTELLIGENCE"), g.attribute("troll", "STRENGTH")),
        (Value::Int(20), Value::Int(75))
    );
    g.edit("troll_attrs.tac", "creature Troll { intelligence = 40; strength = 75; }\n");
    assert_eq!(g.reload("troll_attrs.tac").outcome, Ok(()));
    g.rt.tick();
    assert_eq!(g.attribute("troll", "INTELLIGENCE"), Value::Int(40), "the live creature follows the file");
    // Out of the schema's range (0..=255): refused whole, the live values stay.
    g.edit("troll_attrs.tac", "creature Troll { intelligence = 300; strength = 90; }\n");
    let report = g.reload("troll_attrs.tac");
    assert!(report.message().contains("E0020"), "{}", report.message());
    g.rt.run(2);
    assert_eq!(
        (g.attribute("troll", "INTELLIGENCE"), g.attribute("troll", "STRENGTH")),
        (Value::Int(40), Value::Int(75))
    );
    let reloads = g.reloads();
    assert_eq!(reloads.iter().map(|r| r.2).collect::<Vec<_>>(), [true, false]);
}

#[test]
fn a_renamed_file_is_reported_and_the_entity_keeps_its_code() {
    let mut g = Game::new("renamed-rhai", &troll("rhai"), &[("troll.rhai", &taunt("rhai", "Grr!", "kSeagullSnd"))]);
    g.rt.run(1);
    std::fs::rename(g.dir.join("troll.rhai"), g.dir.join("troll_old.rhai")).unwrap();
    let report = g.reload("troll.rhai");
    let message = report.message();
    assert!(
        message.ends_with("troll.rhai:0:0: the file was deleted or renamed; the entities keep their last code"),
        "{message}"
    );
    g.rt.tick();
    assert_eq!(g.sounds("troll", 1), ["kSeagullSnd"]);
    let reloads = g.reloads();
    assert_eq!((reloads[0].0.as_str(), reloads[0].2), ("troll.rhai", false));
    assert!(reloads[0].3.contains("deleted or renamed"));
}

/// Edits a file on disk and polls `reload_changed` until the watcher reports it (bounded).
fn watch_until_reloaded(g: &mut Game, watcher: &FileWatcher, file: &str, text: &str) -> ReloadReport {
    g.edit(file, text);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(r) = g.rt.reload_changed(watcher).pop() {
            return r;
        }
        assert!(Instant::now() < deadline, "the watcher never reported the change");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_real_file_watcher_reloads_a_lua_taunt() {
    let mut g = Game::new("watch-lua", &troll("lua"), &[("troll.lua", &taunt("lua", "Grr!", "kSeagullSnd"))]);
    let watcher = FileWatcher::new(g.rt.script_files()).unwrap();
    g.rt.run(1);
    let r = watch_until_reloaded(&mut g, &watcher, "troll.lua", &taunt("lua", "Watched!", "kSeagullSnd"));
    assert_eq!(r.outcome, Ok(()), "{}", r.message());
    g.rt.tick();
    assert_eq!(g.said("troll", g.last_tick()), ["Watched!"]);
}

#[test]
fn the_real_file_watcher_reloads_a_tac_taunt_saved_by_rename() {
    let mut g = Game::new("watch-tac", &troll("tac"), &[("troll.tac", &taunt("tac", "Grr!", "kSeagullSnd"))]);
    let watcher = FileWatcher::new(g.rt.script_files()).unwrap();
    g.rt.run(1);
    // Editors save by writing a new file and renaming it over the old one.
    g.edit("troll.tac.swp", &taunt("tac", "Saved by rename!", "kSeagullSnd"));
    std::fs::rename(g.dir.join("troll.tac.swp"), g.dir.join("troll.tac")).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let r = loop {
        if let Some(r) = g.rt.reload_changed(&watcher).pop() {
            break r;
        }
        assert!(Instant::now() < deadline, "the watcher never reported the rename");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(r.outcome, Ok(()), "{}", r.message());
    g.rt.tick();
    assert_eq!(g.said("troll", g.last_tick()), ["Saved by rename!"]);
}

/// A Lua file saved with a top level that never finishes (an endless loop hidden behind `pcall`)
/// is refused within the budget when reloaded; the old code plays on.
#[test]
fn lua_reload_that_never_finishes_loading_is_refused() {
    let file = "troll.lua";
    let mut g = Game::new("lua-reload-loop", &troll("lua"), &[(file, &taunt("lua", "Grr!", "kSeagullSnd"))]);
    g.rt.run(2);
    g.edit(
        file,
        "while true do\n  pcall(function() while true do end end)\nend\nfunction on_think() Say(\"never\") end\n",
    );
    let started = Instant::now();
    let report = g.reload(file);
    assert!(started.elapsed() < Duration::from_secs(10), "the reload hung for {:?}", started.elapsed());
    let errors = report.outcome.clone().expect_err("a file that never finishes loading is refused");
    assert!(errors.iter().any(|e| e.message.contains("instruction budget") && e.line == 2), "{errors:?}");
    g.rt.tick();
    assert_eq!(g.sounds("troll", g.last_tick()), ["kSeagullSnd"], "the old behaviour continues");
}
