//! A crowd of villagers living by daily schedules: action selection when a queue runs empty
//! (pending one-shots first, then the current block's looping task), open-loop execution,
//! fail → flush → fallback.

use std::collections::BTreeMap;

use glam::Vec2;

use super::queue::OpenLoopQueue;
use super::schedule::Schedule;
use super::script::{Abort, Places, ScriptLibrary, Task};
use crate::decide::DecideError;
use crate::world::WorldRng;

/// One villager.
#[derive(Debug, Clone, PartialEq)]
pub struct Villager {
    /// Its name.
    pub name: String,
    /// Index of its schedule.
    pub schedule: usize,
    /// Working memory: slot (`home`, `work`) → place id.
    pub memory: BTreeMap<String, u16>,
    /// Where it is.
    pub position: Vec2,
    /// Map units per tick.
    pub speed: f32,
    /// Its action queue.
    pub queue: OpenLoopQueue<Task>,
    pending: Vec<u16>,
}

/// Something that happened to a villager this tick.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrowdEvent {
    /// The villager's index.
    pub villager: u32,
    /// What happened.
    pub kind: CrowdEventKind,
}

/// Kinds of [`CrowdEvent`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CrowdEventKind {
    /// Action selection started a script.
    Started(u16),
    /// A script could not run or a task failed; its fallback (if any) was queued.
    Failed(u16),
    /// A `say` task.
    Said(u16),
    /// An `emit` task.
    Emitted(u16),
}

/// A crowd: shared schedules, scripts and places, and the villagers.
#[derive(Debug, Clone)]
pub struct Crowd {
    /// The script library.
    pub library: ScriptLibrary,
    /// The schedules.
    pub schedules: Vec<Schedule>,
    /// The places.
    pub places: Places,
    /// The villagers.
    pub villagers: Vec<Villager>,
    /// The hour of day (0–24).
    pub hour: f64,
    /// What happened in the last tick.
    pub events: Vec<CrowdEvent>,
    schedule_tasks: Vec<Vec<Vec<Option<u16>>>>,
    oneshot_tasks: Vec<Vec<Vec<Option<u16>>>>,
    buffer: Vec<Task>,
}

impl Crowd {
    /// A crowd with no villagers yet, starting at `hour`. Every task a schedule names must be a
    /// script of the library.
    pub fn new(
        library: ScriptLibrary,
        schedules: Vec<Schedule>,
        places: Places,
        hour: f64,
    ) -> Result<Self, DecideError> {
        let resolve = |tasks: &[String]| -> Result<Vec<Option<u16>>, DecideError> {
            tasks.iter().map(|t| library.id(t).map(Some).ok_or_else(|| DecideError::unknown("script", t))).collect()
        };
        let mut schedule_tasks = Vec::new();
        let mut oneshot_tasks = Vec::new();
        for s in &schedules {
            schedule_tasks.push(s.blocks.iter().map(|b| resolve(&b.tasks)).collect::<Result<Vec<_>, _>>()?);
            oneshot_tasks.push(s.oneshots.iter().map(|o| resolve(&o.tasks)).collect::<Result<Vec<_>, _>>()?);
        }
        Ok(Crowd {
            library,
            schedules,
            places,
            villagers: Vec::new(),
            hour: hour.rem_euclid(24.0),
            events: Vec::new(),
            schedule_tasks,
            oneshot_tasks,
            buffer: Vec::with_capacity(16),
        })
    }

    /// Adds a villager at a place with working memory given as slot → place name.
    pub fn add(
        &mut self,
        name: &str,
        schedule: &str,
        at: &str,
        memory: &[(&str, &str)],
        speed: f32,
    ) -> Result<usize, DecideError> {
        let schedule = self
            .schedules
            .iter()
            .position(|s| s.name == schedule)
            .ok_or_else(|| DecideError::unknown("schedule", schedule))?;
        let at = self.places.id(at).ok_or_else(|| DecideError::unknown("place", at))?;
        let memory = memory
            .iter()
            .map(|(slot, place)| {
                Ok(((*slot).to_owned(), self.places.id(place).ok_or_else(|| DecideError::unknown("place", *place))?))
            })
            .collect::<Result<_, DecideError>>()?;
        self.villagers.push(Villager {
            name: name.to_owned(),
            schedule,
            memory,
            position: self.places.positions[usize::from(at)],
            speed,
            queue: OpenLoopQueue::default(),
            pending: Vec::new(),
        });
        Ok(self.villagers.len() - 1)
    }

    /// Advances the clock by `hours` and every villager by one tick.
    pub fn tick(&mut self, hours: f64, rng: &mut WorldRng) {
        let prev = self.hour;
        self.hour = (self.hour + hours).rem_euclid(24.0);
        self.events.clear();
        let mut due = Vec::new();
        for (vi, v) in self.villagers.iter_mut().enumerate() {
            let schedule = &self.schedules[v.schedule];
            due.clear();
            schedule.due(prev, self.hour, rng, &mut due);
            for o in &due {
                let idx = schedule.oneshots.iter().position(|x| std::ptr::eq(x, *o)).unwrap_or(0);
                v.pending.extend(self.oneshot_tasks[v.schedule][idx].iter().flatten());
            }
            if v.queue.is_empty() {
                select(
                    v,
                    vi,
                    &self.library,
                    &self.places,
                    schedule,
                    &self.schedule_tasks[v.schedule],
                    self.hour,
                    rng,
                    &mut self.buffer,
                    &mut self.events,
                );
            }
            perform(v, vi, &self.library, &self.places, &mut self.buffer, &mut self.events);
        }
    }

    /// The script a villager is running.
    pub fn activity(&self, villager: usize) -> Option<&str> {
        self.villagers.get(villager).and_then(|v| v.queue.script()).map(|s| self.library.name(s))
    }
}

/// Action selection: a pending one-shot, else a task of the current block.
#[expect(clippy::too_many_arguments, reason = "the crowd's fields, borrowed apart")]
fn select(
    v: &mut Villager,
    vi: usize,
    library: &ScriptLibrary,
    places: &Places,
    schedule: &Schedule,
    block_tasks: &[Vec<Option<u16>>],
    hour: f64,
    rng: &mut WorldRng,
    buffer: &mut Vec<Task>,
    events: &mut Vec<CrowdEvent>,
) {
    let script = if v.pending.is_empty() {
        let Some(b) = schedule.block_at(hour) else { return };
        let bi = schedule.blocks.iter().position(|x| std::ptr::eq(x, b)).unwrap_or(0);
        let tasks = &block_tasks[bi];
        match tasks.get(rng.below(tasks.len())).copied().flatten() {
            Some(s) => s,
            None => return,
        }
    } else {
        v.pending.remove(0)
    };
    start(v, vi, script, library, places, buffer, events);
}

fn start(
    v: &mut Villager,
    vi: usize,
    script: u16,
    library: &ScriptLibrary,
    places: &Places,
    buffer: &mut Vec<Task>,
    events: &mut Vec<CrowdEvent>,
) {
    buffer.clear();
    match library.expand(script, &v.memory, places, buffer) {
        Ok(()) => {
            v.queue.start(script, buffer.drain(..));
            events.push(CrowdEvent { villager: vi as u32, kind: CrowdEventKind::Started(script) });
        }
        Err(Abort::NoMemory | Abort::NoPlace | Abort::Closed) => fail(v, vi, script, library, places, buffer, events),
    }
}

/// Records the failure and queues the fallback (a fallback that itself fails is not retried).
fn fail(
    v: &mut Villager,
    vi: usize,
    script: u16,
    library: &ScriptLibrary,
    places: &Places,
    buffer: &mut Vec<Task>,
    events: &mut Vec<CrowdEvent>,
) {
    events.push(CrowdEvent { villager: vi as u32, kind: CrowdEventKind::Failed(script) });
    if let Some(fb) = library.fallback(script) {
        buffer.clear();
        if library.expand(fb, &v.memory, places, buffer).is_ok() {
            v.queue.start(fb, buffer.drain(..));
        }
    }
}

/// Runs the front task, open loop: only its own failure condition (a closed destination) is checked.
fn perform(
    v: &mut Villager,
    vi: usize,
    library: &ScriptLibrary,
    places: &Places,
    buffer: &mut Vec<Task>,
    events: &mut Vec<CrowdEvent>,
) {
    let Some(task) = v.queue.front() else { return };
    match task {
        Task::MoveTo(p) => {
            if !places.open[usize::from(p)] {
                let script = v.queue.fail().unwrap_or(0);
                fail(v, vi, script, library, places, buffer, events);
                return;
            }
            let target = places.positions[usize::from(p)];
            let d = target - v.position;
            if d.length() <= v.speed {
                v.position = target;
                v.queue.complete();
            } else {
                v.position += d.normalize() * v.speed;
            }
        }
        Task::Wait(n) => {
            if n <= 1 {
                v.queue.complete();
            } else if let Some(Task::Wait(left)) = v.queue.front_mut() {
                *left = n - 1;
            }
        }
        Task::Say(t) => {
            events.push(CrowdEvent { villager: vi as u32, kind: CrowdEventKind::Said(t) });
            v.queue.complete();
        }
        Task::Emit(t) => {
            events.push(CrowdEvent { villager: vi as u32, kind: CrowdEventKind::Emitted(t) });
            v.queue.complete();
        }
    }
}
