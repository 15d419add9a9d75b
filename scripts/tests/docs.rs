//! `docs/tac.md` is tested: every ```tac block checks, runs, and does what its `# expect-…` lines
//! say (see the top of the document for the directives).

mod common;

use common::Harness;
use glam::IVec2;
use tactica_engine::Value;
use tactica_engine::world::Entity;
use tactica_script::{ScriptKind, ScriptLimits, Trigger};

fn blocks(doc: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        match (&mut current, line.trim_end()) {
            (None, "```tac") => current = Some((i + 2, String::new())),
            (Some(_), "```") => out.extend(current.take()),
            (Some((_, text)), l) => {
                text.push_str(l);
                text.push('\n');
            }
            (None, _) => {}
        }
    }
    out
}

fn value(v: &str) -> Value {
    match v {
        "TRUE" => Value::Bool(true),
        "FALSE" => Value::Bool(false),
        _ => v.parse::<i64>().map_or_else(|_| Value::from(v), Value::Int),
    }
}

fn directives<'a>(src: &'a str, key: &str) -> Vec<&'a str> {
    let prefix = format!("# {key}:");
    src.lines().filter_map(|l| l.strip_prefix(prefix.as_str())).map(str::trim).collect()
}

#[test]
fn every_example_in_the_reference_runs_as_documented() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/tac.md")).unwrap();
    let blocks = blocks(&doc);
    assert!(blocks.len() >= 15, "{} examples", blocks.len());
    for (line, src) in blocks {
        let at = format!("docs/tac.md:{line}");
        let kind = match directives(&src, "kind").first().copied() {
            Some("attributes") => ScriptKind::Attributes,
            Some("behaviour") => ScriptKind::Behaviour,
            Some("dialogue") => ScriptKind::Dialogue,
            Some("events") => ScriptKind::Events,
            other => panic!("{at}: kind {other:?}"),
        };
        let expects: Vec<&str> = src.lines().filter(|l| l.starts_with("# expect-")).collect();
        assert!(!expects.is_empty(), "{at}: an example that asserts nothing");
        let mut h = Harness::new(&src, kind, "Troll", IVec2::new(5, 5), IVec2::new(1, 1), IVec2::new(16, 16));
        for given in directives(&src, "given") {
            let (k, v) = given.split_once('=').unwrap();
            let (k, v) = (k.trim(), value(v.trim()));
            if k == "state" {
                h.world.entity_mut(h.me).unwrap().attributes.insert(k.into(), v);
            } else {
                h.global(k, v);
            }
        }
        let heard = directives(&src, "hear").first().map(|s| (*s).to_owned());
        match kind {
            ScriptKind::Attributes => {
                h.fire(Trigger::Spawn, None);
            }
            ScriptKind::Behaviour => {
                h.fire(Trigger::Spawn, None);
                h.fire(Trigger::Think, None);
            }
            ScriptKind::Dialogue => {
                let trigger = if heard.is_some() { Trigger::Hear } else { Trigger::Encounter };
                h.fire(trigger, heard.as_deref());
            }
            ScriptKind::Events => {
                h.fire(Trigger::Tick, None);
            }
        }
        if directives(&src, "then").contains(&"reload") {
            // The file reloaded unchanged: the instance carries over and `on reload` runs.
            h.inst = h.inst.migrate(&h.script, &h.script);
            h.fire(Trigger::Reload, None);
        }
        for line in directives(&src, "expect-say") {
            assert!(h.said().iter().any(|s| s == line), "{at}: did not say {line:?}: {:?}", h.said());
        }
        for n in directives(&src, "expect-said-count") {
            assert_eq!(h.said().len(), n.parse::<usize>().unwrap(), "{at}");
        }
        for t in directives(&src, "expect-trigger") {
            assert!(h.triggered().iter().any(|s| s == t), "{at}: no trigger {t:?}: {:?}", h.triggered());
        }
        for s in directives(&src, "expect-sound") {
            assert!(h.sounds().iter().any(|x| x == s), "{at}: no sound {s:?}: {:?}", h.sounds());
        }
        for a in directives(&src, "expect-attr") {
            let (k, v) = a.split_once('=').unwrap();
            assert_eq!(h.attr(k.trim()), value(v.trim()), "{at}: {k}");
        }
        for a in directives(&src, "expect-action") {
            assert_eq!(h.front().map(|x| x.name()), Some(a), "{at}");
        }
        for name in directives(&src, "expect-sequence") {
            let roles: Vec<String> = h.script.roles(name).into_iter().map(str::to_owned).collect();
            assert!(!roles.is_empty(), "{at}");
            let mut cast = Vec::new();
            for (i, r) in roles.iter().enumerate() {
                let mut e = Entity::new(format!("{r}-{i}"), "soldier", IVec2::new(0, i as i32 + 2));
                e.speed = 10.0;
                cast.push((r.clone(), h.world.spawn(e).unwrap()));
            }
            let script = h.script.clone();
            let mut rng = h.world.rng().clone();
            h.world.step(|w, c| {
                let cast: Vec<(&str, _)> = cast.iter().map(|(r, e)| (r.as_str(), *e)).collect();
                script.start_sequence(name, "doc", &cast, w, c, &mut rng, ScriptLimits::new()).unwrap();
            });
            h.idle(30);
            for (_, e) in &cast {
                assert!(h.world.entity(*e).unwrap().actions.is_idle(), "{at}: a role never finished");
            }
        }
    }
}
