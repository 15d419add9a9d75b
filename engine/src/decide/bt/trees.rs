//! [`Trees`]: the world's behaviour-tree service. It keeps each character's run of its tree
//! ([`TreeState`]) and ticks them all, in entity key order, in the scripts phase: trees read
//! the world and the blackboard and issue commands, like every script.

use std::sync::Arc;
use std::time::Instant;

use slotmap::SecondaryMap;

use crate::value::Table;
use crate::world::{Command, CommandBuffer};
use crate::world::{EntityId, World, WorldRng};

use super::def::TreeDef;
use super::host::{LeafHost, Status};
use super::profile::TreeProfile;
use super::state::{Pending, TreeState};
use super::tick::{Env, Ticker};
use super::watch;

/// How trees are evaluated each tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Evaluation {
    /// From the root only on ticks where something the tree watches changed: a blackboard key a
    /// watched condition reads, a running built-in leaf that finished, a timer that is due.
    /// The same commands and trace as [`Evaluation::Full`], for less work.
    #[default]
    EventDriven,
    /// From the root on every tick (what BehaviorTree.CPP's `tickRoot` does): the peer
    /// event-driven evaluation is measured and tested against.
    Full,
}

/// Every character's tree.
#[derive(Debug, Clone)]
pub struct Trees {
    states: SecondaryMap<EntityId, TreeState>,
    evaluation: Evaluation,
    trace: bool,
    overlay: Table,
    gone: Vec<EntityId>,
}

impl Default for Trees {
    fn default() -> Self {
        Trees {
            states: SecondaryMap::new(),
            evaluation: Evaluation::default(),
            trace: true,
            overlay: Table::new(),
            gone: Vec::new(),
        }
    }
}

impl Trees {
    /// Attaches the tree `def` (the model `model`) to `entity`. A tree it already runs is halted
    /// cleanly at the next tick, and the new one starts there.
    pub fn attach(&mut self, entity: EntityId, model: impl Into<String>, def: Arc<TreeDef>) {
        let model = model.into();
        match self.states.get_mut(entity) {
            Some(st) => st.pending = Some(Pending::Swap(model, def)),
            None => {
                self.states.insert(entity, TreeState::new(model, def));
            }
        }
    }

    /// Stops `entity`'s tree: what runs is halted cleanly at the next tick, then the tree is
    /// dropped. Whether it had one.
    pub fn stop(&mut self, entity: EntityId) -> bool {
        match self.states.get_mut(entity) {
            Some(st) => {
                st.pending = Some(Pending::Stop);
                true
            }
            None => false,
        }
    }

    /// Every character running the model `model` swaps to `def` at its next tick: what runs is
    /// halted cleanly and the new tree starts from its root; the blackboard is the character's
    /// and stays. How many characters that is.
    pub fn reload(&mut self, model: &str, def: &Arc<TreeDef>) -> usize {
        let mut n = 0;
        for (_, st) in &mut self.states {
            let runs = match &st.pending {
                Some(Pending::Swap(m, _)) => m == model,
                Some(Pending::Stop) => false,
                None => st.model == model,
            };
            if runs {
                st.pending = Some(Pending::Swap(model.to_owned(), Arc::clone(def)));
                n += 1;
            }
        }
        n
    }

    /// `entity`'s run of its tree.
    pub fn get(&self, entity: EntityId) -> Option<&TreeState> {
        self.states.get(entity)
    }

    /// Every character with a tree, in key order, and its run.
    pub fn iter(&self) -> impl Iterator<Item = (EntityId, &TreeState)> {
        self.states.iter()
    }

    /// How many characters run a tree.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether none does.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// Sets how trees are evaluated (default [`Evaluation::EventDriven`]).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
    }

    /// How trees are evaluated.
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// Whether node status changes are recorded as `node` events (default yes). A benchmark of
    /// the decisions alone turns it off.
    pub fn set_trace(&mut self, trace: bool) {
        self.trace = trace;
    }

    /// One tick of every character's tree, in entity key order: reads `world`, calls script
    /// leaves through `host`, writes into `commands`. With `profile`, the time of every tree and
    /// node is added to it.
    pub fn tick(
        &mut self,
        world: &World,
        rng: &mut WorldRng,
        commands: &mut CommandBuffer,
        host: &mut dyn LeafHost,
        mut profile: Option<&mut TreeProfile>,
    ) {
        let now = world.clock().tick();
        let Trees { states, evaluation, trace, overlay, gone } = self;
        gone.clear();
        for (me, st) in states.iter_mut() {
            let Some(e) = world.entity(me) else {
                gone.push(me);
                continue;
            };
            let version = e.blackboard.version();
            let t0 = profile.is_some().then(Instant::now);
            if let Some(pending) = st.pending.take() {
                overlay.clear();
                let def = Arc::clone(&st.def);
                let mut env = Env {
                    world,
                    rng: &mut *rng,
                    commands: &mut *commands,
                    host: &mut *host,
                    me,
                    now,
                    trace: *trace,
                    overlay: &mut *overlay,
                    profile: profile.as_deref_mut(),
                };
                Ticker::new(&def, st, &mut env).halt_everything();
                match pending {
                    Pending::Swap(model, def) => *st = TreeState::new(model, def),
                    Pending::Stop => {
                        gone.push(me);
                        continue;
                    }
                }
            } else if *evaluation == Evaluation::EventDriven {
                let def = Arc::clone(&st.def);
                if watch::quiet(&def, st, world, me, now) {
                    if let (Some(t0), Some(p)) = (t0, profile.as_deref_mut()) {
                        p.tree(&def, false, t0.elapsed());
                    }
                    continue;
                }
            }
            overlay.clear();
            let def = Arc::clone(&st.def);
            if st.fresh {
                // A tree's keys start at their defaults on the character's blackboard, where its
                // scripts and models see them too; keys it already holds keep their values (a
                // reload keeps the blackboard).
                st.fresh = false;
                for (key, value) in &def.keys {
                    if !e.blackboard.contains_key(key) {
                        overlay.insert(key.clone(), value.clone());
                        commands.push(Command::SetBlackboard { entity: me, key: key.clone(), value: value.clone() });
                    }
                }
            }
            let mut env = Env {
                world,
                rng: &mut *rng,
                commands: &mut *commands,
                host: &mut *host,
                me,
                now,
                trace: *trace,
                overlay: &mut *overlay,
                profile: profile.as_deref_mut(),
            };
            let status: Status = Ticker::new(&def, st, &mut env).tick_root();
            st.status = Some(status);
            watch::collect(&def, st, now);
            st.seen = version;
            if let (Some(t0), Some(p)) = (t0, profile.as_deref_mut()) {
                p.tree(&def, true, t0.elapsed());
            }
        }
        for id in gone.drain(..) {
            states.remove(id);
        }
    }
}
