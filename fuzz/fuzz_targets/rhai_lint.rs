//! `tactica check` on a Rhai file of arbitrary text: the linter (rhai's own compiler and
//! `AST::walk`) and the compile for running, through `cli::check::check_text`. Nothing may
//! panic, overflow a stack or hang, whatever the nesting.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        tactica_fuzz_common::check("fuzz.rhai", src);
    }
});

#[path = "common.rs"]
mod tactica_fuzz_common;
