//! What the lint targets share: the runtime's own backends, each file linted (`tactica check`'s
//! linter) and compiled for running, as a mod's file is when it is checked and loaded.

use std::cell::RefCell;
use std::path::Path;

use tactica::host::{Api, ScriptBackend};

thread_local! {
    static BACKENDS: RefCell<(Vec<Box<dyn ScriptBackend>>, Api, u32)> =
        RefCell::new((tactica::languages(), Api::standard(), 0));
}

/// Lints and compiles `src` as the file `name` with the backend of its extension; fresh
/// backends every 32 files, as the language server makes (a backend keeps every program it
/// compiled).
pub fn check(name: &str, src: &str) {
    let path = Path::new(name);
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
    BACKENDS.with(|b| {
        let (backends, api, n) = &mut *b.borrow_mut();
        *n += 1;
        if *n > 32 {
            *backends = tactica::languages();
            *n = 1;
        }
        if let Some(backend) = backends.iter_mut().find(|b| b.extensions().contains(&ext)) {
            let _ = backend.lint(path, src, api);
            let _ = backend.compile(path, src);
        }
    });
}
