//! Hot reload through the library API, with a tiny line-based test language so that what is
//! tested is the reload machinery itself: the swap at a tick boundary, failed reloads keeping
//! the old code, state surviving, attribute re-application, deleted files, the real watcher.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tactica::host::{ProgramId, ScriptBackend, ScriptCall, ScriptError, Trigger};
use tactica::reload::FileWatcher;
use tactica::runtime::Runtime;
use tactica::scenario;
use tactica_engine::Value;
use tactica_engine::coord::Action;
use tactica_engine::world::{Command, EventKind};

/// The test language, one statement a line: `say TEXT` (think), `attr KEY N` (spawn and reload),
/// `count` (think: state.n += 1), `migrate` (reload: state.n *= 10). A line starting with `!` is a
/// syntax error at that line.
#[derive(Default)]
struct Lines {
    programs: BTreeMap<u32, Vec<String>>,
}

impl Lines {
    fn parse(file: &Path, source: &str) -> Result<Vec<String>, Vec<ScriptError>> {
        let errors: Vec<ScriptError> = source
            .lines()
            .enumerate()
            .filter(|(_, l)| l.starts_with('!'))
            .map(|(i, _)| ScriptError::new(file, i as u32 + 1, 1, "syntax error"))
            .collect();
        if errors.is_empty() { Ok(source.lines().map(str::to_owned).collect()) } else { Err(errors) }
    }
}

impl ScriptBackend for Lines {
    fn extensions(&self) -> &[&'static str] {
        &["lines"]
    }
    fn compile(&mut self, file: &Path, source: &str) -> Result<ProgramId, Vec<ScriptError>> {
        let p = Self::parse(file, source)?;
        let id = self.programs.len() as u32;
        self.programs.insert(id, p);
        Ok(ProgramId(id))
    }
    fn recompile(&mut self, program: ProgramId, file: &Path, source: &str) -> Result<(), Vec<ScriptError>> {
        let p = Self::parse(file, source)?;
        self.programs.insert(program.0, p);
        Ok(())
    }
    fn run(&mut self, program: ProgramId, call: &mut ScriptCall<'_>) -> Result<(), ScriptError> {
        let me = call.entity.expect("entity scripts only");
        for line in &self.programs[&program.0] {
            let mut words = line.splitn(3, ' ');
            match (words.next(), call.trigger) {
                (Some("say"), Trigger::Think) => {
                    let text = line[4..].to_owned();
                    call.commands.push(Command::Enqueue { entity: me, action: Action::Say { text } });
                }
                (Some("attr"), Trigger::Spawn | Trigger::Reload) => {
                    let (k, v) = (words.next().unwrap_or_default(), words.next().unwrap_or_default());
                    let value = Value::Int(v.parse().unwrap_or(0));
                    call.commands.push(Command::SetAttribute { entity: me, key: k.into(), value });
                }
                (Some("count"), Trigger::Think) => {
                    let n = call.state.get("n").and_then(Value::as_i64).unwrap_or(0);
                    call.state.insert("n".into(), Value::Int(n + 1));
                }
                (Some("migrate"), Trigger::Reload) => {
                    let n = call.state.get("n").and_then(Value::as_i64).unwrap_or(0);
                    call.state.insert("n".into(), Value::Int(n * 10));
                }
                _ => {}
            }
        }
        Ok(())
    }
}

struct Fixture {
    dir: PathBuf,
    rt: Runtime,
}

impl Fixture {
    fn new(name: &str, script: &str) -> Fixture {
        let dir = tempfile::Builder::new().prefix(&format!("tactica-reload-{name}-")).tempdir().unwrap().keep();
        std::fs::write(dir.join("map.txt"), "..........\n..........\n").unwrap();
        std::fs::write(dir.join("troll.lines"), script).unwrap();
        std::fs::write(
            dir.join("scenario.toml"),
            r#"
map = "map.txt"
[[entities]]
name = "troll"
kind = "troll"
at = [0, 0]
speed = 10.0
scripts = ["troll.lines"]
actions = [{ follow_path = [[9, 0], [9, 1], [0, 1]] }]
[[entities]]
name = "other"
kind = "troll"
at = [5, 1]
scripts = ["troll.lines"]
"#,
        )
        .unwrap();
        let s = scenario::load(&dir.join("scenario.toml")).unwrap();
        let rt = Runtime::new(s, vec![Box::new(Lines::default())]).unwrap();
        Fixture { dir, rt }
    }

    fn script(&self) -> PathBuf {
        self.dir.join("troll.lines")
    }

    fn edit(&self, text: &str) {
        std::fs::write(self.script(), text).unwrap();
    }

    /// What `who` said on the last tick played.
    fn said_last_tick(&self, who: &str) -> Vec<String> {
        let last = self.rt.world().clock().tick() - 1;
        self.rt
            .world()
            .log()
            .events()
            .iter()
            .filter(|e| e.tick == last && e.entity.as_deref() == Some(who))
            .filter_map(|e| match &e.kind {
                EventKind::Say { text } => Some(text.clone()),
                _ => None,
            })
            .collect()
    }

    fn reload_events(&self) -> Vec<(bool, Vec<String>, String)> {
        self.rt
            .world()
            .log()
            .events()
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::Reload { ok, entities, message, file } => {
                    assert_eq!(file, "troll.lines", "paths in the trace are relative to the scenario");
                    Some((*ok, entities.clone(), message.clone()))
                }
                _ => None,
            })
            .collect()
    }
}

#[test]
fn a_changed_taunt_is_said_on_the_next_tick() {
    let mut f = Fixture::new("taunt", "say Grr!\n");
    f.rt.run(3);
    assert_eq!(f.said_last_tick("other"), ["Grr!"]);
    f.edit("say You smell of fish.\n");
    let report = f.rt.reload_file(&f.script());
    assert!(report.outcome.is_ok());
    assert_eq!(report.entities, ["troll", "other"]);
    f.rt.tick();
    assert_eq!(f.said_last_tick("other"), ["You smell of fish."]);
    // The troll's lines queue behind the path it is walking: its newest queued line is the new one.
    let troll = f.rt.world().find("troll").unwrap();
    let last = f.rt.world().entity(troll).unwrap().actions.iter().last().cloned();
    assert_eq!(last, Some(Action::Say { text: "You smell of fish.".into() }), "every entity using the file");
    assert_eq!(f.reload_events(), [(true, vec!["troll".into(), "other".into()], String::new())]);
}

#[test]
fn a_broken_script_keeps_the_old_code_then_the_fix_lands() {
    let mut f = Fixture::new("broken", "say Grr!\n");
    f.rt.run(2);
    f.edit("say Oi!\n!oops\n");
    let report = f.rt.reload_file(&f.script());
    let errors = report.outcome.clone().unwrap_err();
    assert_eq!((errors[0].line, errors[0].column), (2, 1));
    assert!(report.message().contains("troll.lines:2:1: syntax error"), "{}", report.message());
    f.rt.tick();
    assert_eq!(f.said_last_tick("other"), ["Grr!"], "the old behaviour continues");
    f.edit("say Oi!\n");
    assert!(f.rt.reload_file(&f.script()).outcome.is_ok());
    f.rt.tick();
    assert_eq!(f.said_last_tick("other"), ["Oi!"]);
    let events = f.reload_events();
    assert_eq!(events.len(), 2);
    assert!(!events[0].0 && events[0].2.contains("syntax error"));
    assert!(events[1].0);
}

#[test]
fn state_actions_and_attributes_survive_and_reload_hooks_run() {
    let mut f = Fixture::new("state", "count\nattr LEVEL 3\n");
    f.rt.run(4);
    let troll = f.rt.world().find("troll").unwrap();
    let pos_before = f.rt.world().entity(troll).unwrap().position;
    let queued_before = f.rt.world().entity(troll).unwrap().actions.len();
    assert_eq!(f.rt.world().entity(troll).unwrap().attribute("LEVEL"), &Value::Int(3));
    f.edit("count\nmigrate\nattr LEVEL 5\n");
    assert!(f.rt.reload_file(&f.script()).outcome.is_ok());
    let e = f.rt.world().entity(troll).unwrap();
    assert_eq!((e.position, e.actions.len()), (pos_before, queued_before), "a reload moves nothing");
    f.rt.tick();
    let e = f.rt.world().entity(troll).unwrap();
    assert_eq!(e.attribute("LEVEL"), &Value::Int(5), "attribute scripts re-apply to live creatures");
    assert!(!e.actions.is_idle(), "the path in progress goes on");
    // count ran on ticks 0..=3 (n = 4), the reload hook made it 40, this tick's think made it 41.
    let state = &f.rt.host_mut().instances()[0].state;
    assert_eq!(state.get("n"), Some(&Value::Int(41)));
}

#[test]
fn a_deleted_file_is_reported_and_the_entity_keeps_its_code() {
    let mut f = Fixture::new("deleted", "say Grr!\n");
    f.rt.run(1);
    std::fs::remove_file(f.script()).unwrap();
    let report = f.rt.reload_file(&f.script());
    assert!(report.message().contains("deleted or renamed"), "{}", report.message());
    f.rt.tick();
    assert_eq!(f.said_last_tick("other"), ["Grr!"]);
    assert!(!f.reload_events()[0].0);
}

/// Waits (bounded, polling) for the watcher to report the file, then reloads it.
fn watch_and_reload(f: &mut Fixture, watcher: &FileWatcher, text: &str) {
    f.edit(text);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let reports = f.rt.reload_changed(watcher);
        if let Some(r) = reports.first() {
            assert!(r.outcome.is_ok(), "{}", r.message());
            return;
        }
        assert!(Instant::now() < deadline, "the watcher never reported the change");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_real_file_watcher_sees_an_edit() {
    let mut f = Fixture::new("watch", "say Grr!\n");
    let watcher = FileWatcher::new([f.script()]).unwrap();
    f.rt.run(1);
    watch_and_reload(&mut f, &watcher, "say Watched!\n");
    f.rt.tick();
    assert_eq!(f.said_last_tick("other"), ["Watched!"]);
}

#[test]
fn the_polling_fallback_sees_an_edit() {
    let mut f = Fixture::new("poll", "say Grr!\n");
    let watcher = FileWatcher::polling([f.script()]).unwrap();
    assert!(watcher.is_polling());
    f.rt.run(1);
    // The poller compares contents every 100 ms: give it a moment to take its first snapshot.
    std::thread::sleep(Duration::from_millis(250));
    watch_and_reload(&mut f, &watcher, "say Polled!\n");
    f.rt.tick();
    assert_eq!(f.said_last_tick("other"), ["Polled!"]);
}
