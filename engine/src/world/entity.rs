//! Entities: the characters, creatures, props and markers of a world.

use std::collections::BTreeSet;

use glam::{IVec2, Vec2};
use serde::{Deserialize, Serialize};
use slotmap::new_key_type;

use crate::coord::ActionQueue;
use crate::value::{Table, Value};

new_key_type! {
    /// A handle to an entity. It carries a generation: once the entity is removed, the handle is
    /// stale and every lookup with it fails instead of reaching another entity.
    pub struct EntityId;
}

/// One entity. Scripts never hold one of these; they hold an [`EntityId`] and read a view.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entity {
    /// The unique name the scenario gave it; the trace names entities by it.
    pub name: String,
    /// What it is (`troll`, `wizard`, `guard` …); scripts and queries select by kind.
    pub kind: String,
    /// Its side; empty when it has none.
    pub team: String,
    /// Its squad within the team; empty when it has none. Scripts' signals are scoped to the
    /// squad when there is one (see [`Entity::signal_scope`]).
    #[serde(default)]
    pub squad: String,
    /// Position in map units: cell `(x, y)` covers `[x, x+1) × [y, y+1)`.
    pub position: Vec2,
    /// Velocity in map units per second.
    pub velocity: Vec2,
    /// Facing, in radians, counter-clockwise from +x.
    pub heading: f32,
    /// Top speed in map units per second.
    pub speed: f32,
    /// Typed attributes (`INTELLIGENCE`, `LEVEL`, `health` …).
    pub attributes: Table,
    /// Free-form labels.
    pub tags: BTreeSet<String>,
    /// Per-entity memory that scripts, its behaviour tree and decision models share.
    pub blackboard: super::Blackboard,
    /// What it is doing and will do next.
    pub actions: ActionQueue,
    /// Tactical layers its moves avoid (a positive weight) or seek (negative), by layer name
    /// (`exposure.red` …): each step of a planned path costs `weight × the layer's value` more.
    #[serde(default)]
    pub avoid: std::collections::BTreeMap<String, f32>,
    /// Regions it stood in at the end of the last tick (for edge-triggered enter/exit events).
    pub(crate) regions_inside: BTreeSet<String>,
}

impl Entity {
    /// A new entity of `kind` named `name` standing at the centre of `cell`.
    pub fn new(name: impl Into<String>, kind: impl Into<String>, cell: IVec2) -> Self {
        Entity {
            name: name.into(),
            kind: kind.into(),
            team: String::new(),
            squad: String::new(),
            position: cell.as_vec2() + Vec2::splat(0.5),
            velocity: Vec2::ZERO,
            heading: 0.0,
            speed: 1.0,
            attributes: Table::new(),
            tags: BTreeSet::new(),
            blackboard: super::Blackboard::default(),
            actions: ActionQueue::default(),
            avoid: std::collections::BTreeMap::new(),
            regions_inside: BTreeSet::new(),
        }
    }

    /// Who its scripts' signals reach by default: its squad (`squad:TEAM/SQUAD`), else its team
    /// (`team:TEAM`), else itself alone (`entity:NAME`).
    pub fn signal_scope(&self) -> String {
        // Built by hand, not with `format!`: every script call makes one.
        let parts: [&str; 4] = match (self.team.is_empty(), self.squad.is_empty()) {
            (_, false) => ["squad:", &self.team, "/", &self.squad],
            (false, true) => ["team:", &self.team, "", ""],
            (true, true) => ["entity:", &self.name, "", ""],
        };
        let mut scope = String::with_capacity(parts.iter().map(|p| p.len()).sum());
        for p in parts {
            scope.push_str(p);
        }
        scope
    }

    /// The grid cell the entity stands in.
    pub fn cell(&self) -> IVec2 {
        crate::grid::cell_of(self.position)
    }

    /// An attribute's value, or [`Value::Nil`].
    pub fn attribute(&self, key: &str) -> &Value {
        self.attributes.get(key).unwrap_or(&Value::Nil)
    }

    /// Whether the entity carries `tag`.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.contains(tag)
    }
}
