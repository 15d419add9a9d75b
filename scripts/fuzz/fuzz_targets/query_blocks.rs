//! Position-query files (`.tps`) on arbitrary text: the front end's block grammar, then the
//! engine's reading of the blocks into checked queries, and the diagnostics rendered as
//! `tactica check` renders them. Nothing may panic, overflow a stack or hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        if let Err(diagnostics) = tactica_syntax::blocks::parse(src) {
            let _ = tactica_syntax::render("fuzz.tps", src, &diagnostics, false);
        }
        let _ = tactica_engine::tactics::query::parse_queries("fuzz.tps", src, Default::default());
    }
});
