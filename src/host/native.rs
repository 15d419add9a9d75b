//! Behaviours written in Rust: what a game that embeds Tactica attaches to its own characters, and
//! the floor the script languages are measured against.

use std::path::Path;

use super::{ProgramId, ScriptBackend, ScriptCall, ScriptError};

/// A Rust behaviour: the same call a script gets.
pub type NativeFn = Box<dyn FnMut(&mut ScriptCall<'_>) -> Result<(), String> + Send>;

/// The backend that runs [`NativeFn`]s. It compiles no files.
#[derive(Default)]
pub struct NativeBackend {
    functions: Vec<(String, NativeFn)>,
}

impl NativeBackend {
    /// Registers a behaviour under `name`; returns its program id.
    pub fn register(&mut self, name: impl Into<String>, f: NativeFn) -> ProgramId {
        self.functions.push((name.into(), f));
        ProgramId(self.functions.len() as u32 - 1)
    }
}

impl ScriptBackend for NativeBackend {
    fn extensions(&self) -> &[&'static str] {
        &[]
    }

    fn compile(&mut self, file: &Path, _source: &str) -> Result<ProgramId, Vec<ScriptError>> {
        Err(vec![ScriptError::new(file, 0, 0, "native behaviours are registered from Rust, not loaded from files")])
    }

    fn recompile(&mut self, _program: ProgramId, file: &Path, source: &str) -> Result<(), Vec<ScriptError>> {
        self.compile(file, source).map(|_| ())
    }

    fn run(&mut self, program: ProgramId, call: &mut ScriptCall<'_>) -> Result<(), ScriptError> {
        // A game's behaviour may touch the game's own state, which no turn of the world orders:
        // in a parallel scripts phase it runs after every earlier call has finished.
        call.rng.wait_turn();
        let Some((name, f)) = self.functions.get_mut(program.0 as usize) else {
            return Err(ScriptError::new("native", 0, 0, "no such native behaviour"));
        };
        f(call).map_err(|message| ScriptError::new(format!("native:{name}"), 0, 0, message))
    }
}
