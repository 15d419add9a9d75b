//! Behaviour trees: the decision structure most studios author their AI in, with the node
//! semantics of BehaviorTree.CPP and Unreal (`docs/trees.md` has the table, node by node).
//!
//! | type | what |
//! | --- | --- |
//! | [`TreeDef`] | a tree: nodes in one flat array, blackboard keys with defaults, the script functions its leaves call; built from a `.bt` file by [`parse`]/[`build`], immutable, shared behind an `Arc` in the world's [`Models`](super::Models) |
//! | [`TreeState`] | one character's run of a tree: each node's last status and small memory, the leaves running, timers |
//! | [`Trees`] | the world's service: every character's run, ticked in entity order in the scripts phase |
//! | [`LeafHost`] | how the tree calls leaves written in `.tac`, Lua or Rhai — the engine names no language |
//! | [`Status`] | success, failure, running |
//!
//! The blackboard is the character's own ([`Blackboard`](crate::world::Blackboard), which scripts
//! and the other models share); a tree declares the keys it uses, with defaults, and reads and
//! writes them there. Built-in leaves are the runtime's long actions, through the action queue,
//! the navigation service and steering ([`leaves`]). Node status changes are `node` events in the
//! trace.
//!
//! Evaluation is event-driven by default ([`Evaluation`]): a tree is ticked from its root only on
//! ticks where a condition it watches changed, a running leaf finished or a timer is due, and it
//! issues exactly what a tree ticked from the root every tick issues (`watch`).
//!
//! ```
//! use std::sync::Arc;
//! use tactica_engine::decide::bt::{self, Catalog, Trees, NoScripts, Status};
//! use tactica_engine::grid::Map;
//! use tactica_engine::world::{CommandBuffer, Entity, World};
//!
//! let src = "tree Idle { blackboard { bored = false; } fallback { guard bored say(\"Hm.\"); wait(10); } }";
//! let (def, diagnostics) = bt::parse(src, &Catalog::default());
//! assert!(diagnostics.is_empty());
//! let mut world = World::new(Map::open(8, 8), 10, 1);
//! let guard = world.spawn(Entity::new("guard", "human", glam::IVec2::new(1, 1))).unwrap();
//! let mut trees = Trees::default();
//! trees.attach(guard, "idle", Arc::new(def.unwrap()));
//! let mut rng = world.rng().clone();
//! let mut commands = CommandBuffer::default();
//! trees.tick(&world, &mut rng, &mut commands, &mut NoScripts, None);
//! assert_eq!(trees.get(guard).unwrap().status(), Some(Status::Running), "waiting");
//! ```

mod build;
mod def;
mod host;
pub mod leaves;
mod profile;
mod state;
mod tick;
mod trees;
mod watch;
mod words;

#[cfg(test)]
mod tests;

pub use build::{Catalog, build, leaf_files, leaf_names, node_words, parse};
pub use def::{Abort, Arg, Leaf, Node, NodeId, NodeKind, Service, Target, TreeDef};
pub use host::{LeafCall, LeafHost, NoScripts, Status};
pub use profile::{TreeProfile, TreeTimes};
pub use state::TreeState;
pub use tick::MAX_NODE_TICKS;
pub use trees::{Evaluation, Trees};
pub use words::{WORDS, Word, word};
