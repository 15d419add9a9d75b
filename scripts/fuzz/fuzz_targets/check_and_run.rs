//! Lexer, parser, checker, renderer and VM on arbitrary input: nothing may panic or hang. The
//! same `tactica_script::exercise` as `tests/robust.rs` (every script kind on every trigger, then every sequence),
//! without proptest's bounds. Every call runs under a small step budget, so an endless loop in a
//! generated script is a stopped call (E0100), never a hang; libFuzzer's `-timeout` catches any
//! hang the budget would miss.
//!
//! Run it with `.ci/fuzz-tac SECONDS` (cargo-fuzz on stable Rust; see `scripts/fuzz/README.md`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        tactica_script::exercise(src, 10_000);
    }
});
