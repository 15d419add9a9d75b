//! The script library: stereotyped activities (go get coffee, work at the workstation) that
//! expand, with an NPC's working memory, into a short list of simple tasks.

use std::collections::BTreeMap;

use glam::Vec2;
use serde::{Deserialize, Serialize};

use crate::decide::{DecideError, error::from_toml};

/// A library as written in a data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LibrarySpec {
    /// Scripts by name.
    pub scripts: BTreeMap<String, ScriptSpec>,
}

/// One script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScriptSpec {
    /// Its steps, in order.
    pub steps: Vec<StepSpec>,
    /// The script queued when a step fails (turn to the camera and complain).
    #[serde(default)]
    pub fallback: Option<String>,
}

/// One step: `{ move_to = "cafe" }`, `{ move_to = "$work" }` (a working-memory slot),
/// `{ wait = 20 }` (ticks), `{ say = "…" }`, `{ emit = "animation" }`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepSpec {
    /// Walk to a place.
    MoveTo(String),
    /// Wait a number of ticks.
    Wait(u32),
    /// Say a line.
    Say(String),
    /// Ask the host to do something (an animation, a purchase).
    Emit(String),
}

/// A concrete task in an action queue. Small and `Copy`: text is an index into the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// Walk to a place (index into [`Places`]).
    MoveTo(u16),
    /// Wait this many more ticks.
    Wait(u32),
    /// Say the library's text number `n`.
    Say(u16),
    /// Emit the library's text number `n`.
    Emit(u16),
}

/// Named places with positions; a closed place makes moves to it fail.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Places {
    names: Vec<String>,
    /// Positions, by place id.
    pub positions: Vec<Vec2>,
    /// Whether each place can be reached.
    pub open: Vec<bool>,
}

impl Places {
    /// Adds a place (or moves an existing one) and returns its id.
    pub fn add(&mut self, name: &str, position: Vec2) -> u16 {
        if let Some(i) = self.id(name) {
            self.positions[usize::from(i)] = position;
            return i;
        }
        self.names.push(name.to_owned());
        self.positions.push(position);
        self.open.push(true);
        (self.names.len() - 1) as u16
    }

    /// A place's id.
    pub fn id(&self, name: &str) -> Option<u16> {
        self.names.iter().position(|n| n == name).map(|i| i as u16)
    }

    /// A place's name.
    pub fn name(&self, id: u16) -> &str {
        self.names.get(usize::from(id)).map_or("", String::as_str)
    }

    /// Opens or closes a place.
    pub fn set_open(&mut self, name: &str, open: bool) -> Result<(), DecideError> {
        let i = self.id(name).ok_or_else(|| DecideError::unknown("place", name))?;
        self.open[usize::from(i)] = open;
        Ok(())
    }
}

/// A compiled library.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptLibrary {
    names: Vec<String>,
    scripts: Vec<(Vec<StepSpec>, Option<u16>)>,
    texts: Vec<String>,
}

/// Why a script could not be expanded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Abort {
    /// A working-memory slot is empty.
    NoMemory,
    /// A place does not exist.
    NoPlace,
    /// A place is closed.
    Closed,
}

impl ScriptLibrary {
    /// Parses a TOML library, checking fallbacks.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        let spec: LibrarySpec = from_toml(text)?;
        let names: Vec<String> = spec.scripts.keys().cloned().collect();
        let mut texts: Vec<String> = Vec::new();
        let mut scripts = Vec::new();
        for (name, s) in &spec.scripts {
            let fallback = match &s.fallback {
                Some(f) => {
                    Some(names.iter().position(|n| n == f).ok_or_else(|| DecideError::unknown("script", f))? as u16)
                }
                None => None,
            };
            for step in &s.steps {
                if let StepSpec::Say(t) | StepSpec::Emit(t) = step
                    && !texts.contains(t)
                {
                    texts.push(t.clone());
                }
            }
            if s.steps.is_empty() {
                return Err(DecideError::invalid(format!("script `{name}`"), "needs at least one step"));
            }
            scripts.push((s.steps.clone(), fallback));
        }
        Ok(ScriptLibrary { names, scripts, texts })
    }

    /// A script's id.
    pub fn id(&self, name: &str) -> Option<u16> {
        self.names.iter().position(|n| n == name).map(|i| i as u16)
    }

    /// A script's name.
    pub fn name(&self, id: u16) -> &str {
        self.names.get(usize::from(id)).map_or("", String::as_str)
    }

    /// The text of a [`Task::Say`] or [`Task::Emit`].
    pub fn text(&self, id: u16) -> &str {
        self.texts.get(usize::from(id)).map_or("", String::as_str)
    }

    /// A script's steps as written (empty for an unknown id).
    pub fn steps(&self, id: u16) -> &[StepSpec] {
        self.scripts.get(usize::from(id)).map_or(&[], |s| s.0.as_slice())
    }

    /// A script's fallback.
    pub fn fallback(&self, id: u16) -> Option<u16> {
        self.scripts.get(usize::from(id)).and_then(|s| s.1)
    }

    /// Expands a script with working memory (slot → place id) into tasks appended to `out`.
    /// On an abort nothing is appended.
    pub fn expand(
        &self,
        id: u16,
        memory: &BTreeMap<String, u16>,
        places: &Places,
        out: &mut impl Extend<Task>,
    ) -> Result<(), Abort> {
        let Some((steps, _)) = self.scripts.get(usize::from(id)) else { return Err(Abort::NoPlace) };
        let mut tasks = [Task::Wait(0); 16];
        let mut n = 0;
        for step in steps {
            let task = match step {
                StepSpec::MoveTo(place) => {
                    let p = match place.strip_prefix('$') {
                        Some(slot) => *memory.get(slot).ok_or(Abort::NoMemory)?,
                        None => places.id(place).ok_or(Abort::NoPlace)?,
                    };
                    if !places.open.get(usize::from(p)).copied().unwrap_or(false) {
                        return Err(Abort::Closed);
                    }
                    Task::MoveTo(p)
                }
                StepSpec::Wait(t) => Task::Wait(*t),
                StepSpec::Say(t) => Task::Say(self.texts.iter().position(|x| x == t).unwrap_or(0) as u16),
                StepSpec::Emit(t) => Task::Emit(self.texts.iter().position(|x| x == t).unwrap_or(0) as u16),
            };
            if n < tasks.len() {
                tasks[n] = task;
                n += 1;
            }
        }
        out.extend(tasks[..n].iter().copied());
        Ok(())
    }
}
