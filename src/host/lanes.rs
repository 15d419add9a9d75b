//! Lanes: the copies of the script languages a parallel scripts phase runs on.
//!
//! A language's backend is not shared between threads (a Lua state is single-threaded; the `.tac`
//! VM and Rhai keep per-instance caches), so the host keeps [`LANES`] copies of each
//! ([`ScriptBackend::fork`]) and every instance belongs to one lane, fixed when it is attached
//! from its place among the instances (`index % LANES`). A worker thread owns whole lanes for the
//! phase. Because the lane depends on the instance alone, what a script shares with others — a
//! Lua file's globals, its heap under the memory limit — is the same on one thread or eight.
//! Lane 0's backends are the host's own; lanes 1 … are made when an instance first needs them.

use std::collections::BTreeMap;
use std::path::Path;

use super::{ProgramId, ScriptBackend, ScriptError};

/// How many copies of each language the host keeps, and so the most worker threads a scripts
/// phase uses. Fixed, so that which instances share a copy never depends on the thread count.
pub const LANES: usize = 8;

/// One lane's copies of the backends (lanes 1 and up).
#[derive(Default)]
pub(crate) struct Lane {
    /// By backend index; `None` until an instance of that language lands here.
    pub(crate) backends: Vec<Option<Box<dyn ScriptBackend>>>,
    /// Lane 0's program → this lane's, per backend.
    ids: BTreeMap<(usize, ProgramId), ProgramId>,
}

impl Lane {
    /// Makes sure `program` of backend `b` runs here, compiling `source` into this lane's copy
    /// of the backend (forked from `proto` on first use). `false` when the language cannot be
    /// copied.
    pub(crate) fn add(
        &mut self,
        proto: &[Box<dyn ScriptBackend>],
        b: usize,
        program: ProgramId,
        file: &Path,
        source: &str,
    ) -> Result<bool, Vec<ScriptError>> {
        if self.ids.contains_key(&(b, program)) {
            return Ok(true);
        }
        if self.backends.len() <= b {
            self.backends.resize_with(b + 1, || None);
        }
        if self.backends[b].is_none() {
            match proto[b].fork() {
                Some(copy) => self.backends[b] = Some(copy),
                None => return Ok(false),
            }
        }
        let Some(backend) = self.backends[b].as_mut() else { return Ok(false) };
        let id = backend.compile(file, source)?;
        self.ids.insert((b, program), id);
        Ok(true)
    }

    /// Replaces `program`'s code in this lane, if it runs here.
    pub(crate) fn recompile(
        &mut self,
        b: usize,
        program: ProgramId,
        file: &Path,
        source: &str,
    ) -> Result<(), Vec<ScriptError>> {
        let Some(&id) = self.ids.get(&(b, program)) else { return Ok(()) };
        match self.backends.get_mut(b).and_then(Option::as_mut) {
            Some(backend) => backend.recompile(id, file, source),
            None => Ok(()),
        }
    }

    /// This lane's copy of backend `b` and its id for lane 0's `program`.
    pub(crate) fn get(
        &mut self,
        b: usize,
        program: ProgramId,
    ) -> Option<(&mut (dyn ScriptBackend + 'static), ProgramId)> {
        let id = *self.ids.get(&(b, program))?;
        let backend = self.backends.get_mut(b)?.as_mut()?;
        Some((&mut **backend, id))
    }
}

/// The backend and program that run an instance of lane 0's `program` on `lane`.
pub(crate) fn backend<'a>(
    proto: &'a mut [Box<dyn ScriptBackend>],
    lanes: &'a mut [Lane],
    lane: usize,
    b: usize,
    program: ProgramId,
) -> Option<(&'a mut (dyn ScriptBackend + 'static), ProgramId)> {
    if lane == 0 {
        return proto.get_mut(b).map(|be| (&mut **be, program));
    }
    lanes.get_mut(lane - 1)?.get(b, program)
}

/// The error of an instance whose lane lost its program (a host bug, reported, not a panic).
pub(crate) fn missing(file: &Path) -> ScriptError {
    ScriptError::new(file, 0, 0, "this script's program is missing from its lane")
}
