//! A scenario file of arbitrary text read from a string (`scenario::parse`: TOML with spans,
//! unknown keys refused, non-finite numbers refused). Nothing may panic, overflow a stack or
//! hang, whatever the nesting of arrays and inline tables.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        let _ = tactica::scenario::parse(src, std::path::Path::new("fuzz.toml"));
    }
});
