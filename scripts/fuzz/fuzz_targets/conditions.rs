//! Model conditions, fuzzy premises and conclusions on arbitrary text: the front end's three
//! condition grammars, then the engine's lowering of what parses (`decide::expr`). Nothing may
//! panic, overflow a stack or hang, whatever the nesting (`tactica_syntax::limits`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        let _ = tactica_syntax::condition::parse(src);
        let _ = tactica_syntax::condition::parse_premise(src);
        let _ = tactica_syntax::condition::parse_conclusion(src);
        let _ = tactica_engine::decide::expr::Expr::parse(src);
    }
});
