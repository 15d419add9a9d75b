//! What a test's conditions read of a running world: its globals, the tick, and each character's
//! facts. The conditions themselves are the engine's ([`tactica_engine::decide::expr::Expr`],
//! the same evaluator model conditions use), so `==` means what it means in every designer text.
//!
//! A bare name is a global. `NAME.FACT` is a fact of the character `NAME`: first `x`, `y` (its
//! cell), `team`, `kind`, `squad` and `idle` (no action queued); then an attribute of that name;
//! then the state a machine of that name last entered (read from the trace's `state` events).
//! `tick` is the tick just played. A fact nothing gives reads as nothing (`nil`).

use std::collections::BTreeMap;

use tactica_engine::Value;
use tactica_engine::decide::expr::Expr;
use tactica_engine::world::{Event, EventKind, World};

/// The machine states seen so far, and the lookups conditions make.
#[derive(Debug, Default, Clone)]
pub(crate) struct Facts {
    /// (entity, machine, both lower case) → the state it last entered.
    states: BTreeMap<(String, String), String>,
}

impl Facts {
    /// Takes in a tick's events (the machine states it changed).
    pub(crate) fn absorb(&mut self, events: &[Event]) {
        for e in events {
            if let (EventKind::State { machine, to, .. }, Some(who)) = (&e.kind, &e.entity) {
                self.states.insert((who.to_ascii_lowercase(), machine.to_ascii_lowercase()), to.clone());
            }
        }
    }

    /// The value of the fact `name` at the end of `tick`.
    pub(crate) fn value(&self, world: &World, tick: u64, name: &str) -> Value {
        let Some((who, fact)) = name.split_once('.') else {
            if let Some(v) = world.globals.get(name) {
                return v.clone();
            }
            if name.eq_ignore_ascii_case("tick") {
                return Value::Int(i64::try_from(tick).unwrap_or(i64::MAX));
            }
            return world
                .globals
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(name))
                .map_or(Value::Nil, |(_, v)| v.clone());
        };
        let Some(e) = world.find(who).and_then(|id| world.entity(id)) else { return Value::Nil };
        match fact.to_ascii_lowercase().as_str() {
            "x" => return Value::Int(i64::from(e.cell().x)),
            "y" => return Value::Int(i64::from(e.cell().y)),
            "team" => return Value::Str(e.team.clone()),
            "kind" => return Value::Str(e.kind.clone()),
            "squad" => return Value::Str(e.squad.clone()),
            "idle" => return Value::Bool(e.actions.is_idle()),
            _ => {}
        }
        if let Some(v) = e
            .attributes
            .get(fact)
            .or_else(|| e.attributes.iter().find(|(k, _)| k.eq_ignore_ascii_case(fact)).map(|(_, v)| v))
        {
            return v.clone();
        }
        self.states
            .get(&(who.to_ascii_lowercase(), fact.to_ascii_lowercase()))
            .map_or(Value::Nil, |s| Value::Str(s.clone()))
    }

    /// Whether `cond` holds at the end of `tick`.
    pub(crate) fn holds(&self, cond: &Expr, world: &World, tick: u64) -> bool {
        let values: BTreeMap<String, Value> =
            cond.facts().into_iter().map(|f| (self.value(world, tick, &f), f)).map(|(v, f)| (f, v)).collect();
        cond.eval_with(&|name| values.get(name))
    }

    /// The facts `cond` reads and their values, for a failure's "what was seen":
    /// `GameTime = "kDay", guard.x = 4`.
    pub(crate) fn describe(&self, cond: &Expr, world: &World, tick: u64) -> String {
        let shown: Vec<String> = cond
            .facts()
            .iter()
            .map(|f| match self.value(world, tick, f) {
                Value::Str(s) => format!("{f} = {s:?}"),
                Value::Nil => format!("{f} is nothing"),
                v => format!("{f} = {v}"),
            })
            .collect();
        if shown.is_empty() { "it reads no fact".to_owned() } else { shown.join(", ") }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::IVec2;
    use tactica_engine::grid::Map;
    use tactica_engine::world::Entity;

    #[test]
    fn globals_cells_attributes_and_machine_states() {
        let mut world = World::new(Map::open(8, 8), 10, 1);
        world.globals.insert("GameTime".into(), Value::Str("kNight".into()));
        let mut guard = Entity::new("guard", "human", IVec2::new(3, 5));
        guard.team = "watch".into();
        guard.attributes.insert("health".into(), Value::Int(40));
        world.spawn(guard).unwrap();
        let mut facts = Facts::default();
        let changed = Event {
            tick: 4,
            entity: Some("guard".into()),
            kind: EventKind::State { machine: "patrol".into(), from: "walk".into(), to: "hide".into() },
        };
        facts.absorb(&[changed]);
        let v = |name: &str| facts.value(&world, 9, name);
        assert_eq!(v("GameTime"), Value::Str("kNight".into()));
        assert_eq!(v("gametime"), Value::Str("kNight".into()), "a global without regard to case");
        assert_eq!(v("tick"), Value::Int(9));
        assert_eq!((v("guard.x"), v("guard.y")), (Value::Int(3), Value::Int(5)));
        assert_eq!(v("guard.team"), Value::Str("watch".into()));
        assert_eq!(v("guard.HEALTH"), Value::Int(40));
        assert_eq!(v("guard.patrol"), Value::Str("hide".into()));
        assert_eq!(v("guard.idle"), Value::Bool(true));
        assert_eq!(v("guard.nothing"), Value::Nil);
        assert_eq!(v("troll.x"), Value::Nil);
        let cond = Expr::parse("GameTime == kNight and guard.health > 30 and guard.patrol == hide").unwrap();
        assert!(facts.holds(&cond, &world, 9));
        let cond = Expr::parse("guard.health > 50 or guard.x != 3").unwrap();
        assert!(!facts.holds(&cond, &world, 9));
        assert_eq!(facts.describe(&cond, &world, 9), "guard.health = 40, guard.x = 3");
    }
}
