//! `tactica check` on a Lua file of arbitrary text: the linter (full_moon) and the load (Lua's
//! own parser) through `cli::check::check_text`, as a mod's file goes. Nothing may panic,
//! overflow a stack or hang, whatever the nesting.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        tactica_fuzz_common::check("fuzz.lua", src);
    }
});

#[path = "common.rs"]
mod tactica_fuzz_common;
