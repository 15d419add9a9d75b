//! A small world to run scripts in: a player, one scripted creature, and helpers that run a
//! trigger, step the world, and read back what happened.
#![allow(dead_code)]

use glam::IVec2;
use tactica_engine::Value;
use tactica_engine::grid::Map;
use tactica_engine::world::{Entity, EntityId, EventKind, World};
use tactica_script::{Api, Instance, RunReport, Script, ScriptCtx, ScriptKind, ScriptLimits, Trigger, check};

pub const BOOK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/book");

pub fn book(name: &str) -> String {
    std::fs::read_to_string(format!("{BOOK}/{name}.tac")).expect("fixture")
}

/// Compiles or panics with the rendered diagnostics.
pub fn compile(src: &str) -> Script {
    compile_with(src, &Api::standard())
}

pub fn compile_with(src: &str, api: &Api) -> Script {
    let (script, diags) = check("test.tac", src, api);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).cloned().collect();
    assert!(errors.is_empty(), "{}", tactica_script::render("test.tac", src, &errors, false));
    script.expect("a script when there is no error")
}

pub struct Harness {
    pub world: World,
    pub script: Script,
    pub inst: Instance,
    pub me: EntityId,
    pub player: EntityId,
    pub kind: ScriptKind,
    /// One report for every run, as a host keeps it: each run must empty it first.
    pub report: RunReport,
}

impl Harness {
    /// `creature` of `kind` at `at`, the player at `player_at`, on an open `w`×`h` map.
    pub fn new(src: &str, kind: ScriptKind, creature: &str, at: IVec2, player_at: IVec2, size: IVec2) -> Self {
        let script = compile(src);
        Self::with_script(script, kind, creature, at, player_at, size)
    }

    pub fn with_script(
        script: Script,
        kind: ScriptKind,
        creature: &str,
        at: IVec2,
        player_at: IVec2,
        size: IVec2,
    ) -> Self {
        let mut world = World::new(Map::open(size.x as u32, size.y as u32), 10, 7);
        let mut p = Entity::new("player", "Human", player_at);
        p.tags.insert("player".into());
        p.speed = 10.0;
        let player = world.spawn(p).unwrap();
        let mut e = Entity::new("it", creature, at);
        e.speed = 10.0;
        let me = world.spawn(e).unwrap();
        let inst = script.instantiate();
        Harness { world, script, inst, me, player, kind, report: RunReport::default() }
    }

    pub fn global(&mut self, key: &str, value: impl Into<Value>) {
        self.world.globals.insert(key.into(), value.into());
    }

    /// Runs one trigger inside one world tick (the commands are applied, actions run).
    pub fn fire(&mut self, trigger: Trigger, heard: Option<&str>) -> RunReport {
        let mut rng = self.world.rng().clone();
        let Harness { world, script, inst, me, kind, report, .. } = self;
        world.step(|w, commands| {
            let mut table = std::mem::take(&mut inst.table);
            let mut ctx = ScriptCtx::new(w, *me, commands, &mut rng, &mut table);
            ctx.heard = heard;
            script.run_with(inst, *kind, trigger, &mut ctx, &ScriptLimits::new(), report).expect("runs");
            inst.table = table;
        });
        *self.world.rng() = rng;
        self.report.clone()
    }

    /// Steps the world without scripts.
    pub fn idle(&mut self, ticks: usize) {
        for _ in 0..ticks {
            self.world.step(|_, _| {});
        }
    }

    /// Moves the player to a cell at once.
    pub fn put_player(&mut self, cell: IVec2) {
        self.world.entity_mut(self.player).unwrap().position = cell.as_vec2() + glam::Vec2::splat(0.5);
    }

    fn of_me(&self) -> impl Iterator<Item = &EventKind> {
        let name = self.world.entity(self.me).unwrap().name.clone();
        self.world.log().events().iter().filter(move |e| e.entity.as_deref() == Some(name.as_str())).map(|e| &e.kind)
    }

    pub fn said(&self) -> Vec<String> {
        self.of_me().filter_map(|k| if let EventKind::Say { text } = k { Some(text.clone()) } else { None }).collect()
    }

    pub fn triggered(&self) -> Vec<String> {
        self.of_me()
            .filter_map(|k| if let EventKind::Trigger { name } = k { Some(name.clone()) } else { None })
            .collect()
    }

    pub fn sounds(&self) -> Vec<String> {
        self.of_me().filter_map(|k| if let EventKind::Sound { name } = k { Some(name.clone()) } else { None }).collect()
    }

    pub fn attr(&self, key: &str) -> Value {
        self.world.entity(self.me).unwrap().attribute(key).clone()
    }

    pub fn cell(&self) -> IVec2 {
        self.world.entity(self.me).unwrap().cell()
    }

    pub fn front(&self) -> Option<tactica_engine::coord::Action> {
        self.world.entity(self.me).unwrap().actions.front().cloned()
    }
}
