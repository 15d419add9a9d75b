//! One source text through every stage a designer's file can reach: lexer, parser, checker,
//! renderer and — when it checks — the VM as every script kind on every trigger, then every
//! sequence, each call under `max_ops` steps. The same text also goes through the front end's
//! other grammars (a model's condition, a fuzzy premise, a query file compiled by the engine), so
//! fuzzing one target fuzzes every parser a designer's text reaches. The robustness proptests (`tests/robust.rs`) and the
//! cargo-fuzz target (`scripts/fuzz`) both drive it, so they test the same thing; it returns
//! nothing because the only property is that it returns at all (no panic, no hang).

use glam::IVec2;
use tactica_engine::grid::Map;
use tactica_engine::world::{CommandBuffer, Entity, World, WorldRng};

use crate::{Api, ScriptKind, ScriptLimits, Trigger, check, render};

/// Runs `src` through every stage; see the module doc.
pub fn exercise(src: &str, max_ops: u64) {
    let _ = tactica_syntax::condition::parse(src);
    let _ = tactica_syntax::condition::parse_premise(src);
    let _ = tactica_syntax::condition::parse_conclusion(src);
    let _ = tactica_engine::decide::expr::Expr::parse(src);
    let _ = tactica_engine::tactics::query::parse_queries("fuzz.tps", src, Default::default());
    let api = Api::standard();
    let (script, diags) = check("fuzz.tac", src, &api);
    let _ = render("fuzz.tac", src, &diags, false);
    let Some(script) = script else { return };
    let mut world = World::new(Map::open(8, 8), 10, 1);
    let mut p = Entity::new("player", "Human", IVec2::new(1, 1));
    p.tags.insert("player".into());
    let _ = world.spawn(p);
    let Ok(me) = world.spawn(Entity::new("it", "Troll", IVec2::new(3, 3))) else { return };
    world.globals.insert("PlayerArmed".into(), "Dagger".into());
    let limits = ScriptLimits::new().set_max_ops(max_ops);
    let mut rng = WorldRng::new(3);
    for kind in [ScriptKind::Attributes, ScriptKind::Behaviour, ScriptKind::Dialogue, ScriptKind::Events] {
        let mut inst = script.instantiate();
        for trigger in
            [Trigger::Spawn, Trigger::Think, Trigger::Tick, Trigger::Encounter, Trigger::Hear, Trigger::Think]
        {
            let mut commands = CommandBuffer::default();
            let heard = (trigger == Trigger::Hear).then_some("what is your name");
            let mut report = crate::RunReport::default();
            let _ = script.run_entity(
                &mut inst,
                kind,
                trigger,
                &world,
                me,
                &mut commands,
                &mut rng,
                heard,
                &limits,
                &mut report,
            );
        }
    }
    for name in script.sequence_names().map(str::to_owned).collect::<Vec<_>>() {
        let roles: Vec<String> = script.roles(&name).into_iter().map(str::to_owned).collect();
        let cast: Vec<(&str, _)> = roles.iter().map(|r| (r.as_str(), me)).collect();
        let mut commands = CommandBuffer::default();
        let _ = script.start_sequence(&name, "s", &cast, &world, &mut commands, &mut rng, limits);
    }
}
