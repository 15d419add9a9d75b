//! `print` and `debug` for Rhai scripts: the text becomes one `print` event with the script's file
//! and the calling line, which narration shows (`tactica_stdlib::ScriptCtx::print` holds a script
//! to a few lines a tick). `debug(x)` prints `x` in its debug form (strings quoted).
//!
//! Rhai calls a `print` function and hands what it returns to `Engine::on_print`, which knows no
//! place; the engine's own `print` functions are therefore shadowed, for every type, by ones that
//! read the call's place from their `NativeCallContext` and return nothing to print.

use std::path::Path;

use rhai::{Array, Dynamic, Engine, FLOAT, INT, ImmutableString, Map, NativeCallContext, Position, Variant};
use tactica_stdlib::lend::with_lent;

/// Registers `print` and `debug` on `engine` (after its packages: the global namespace is
/// searched first).
pub(crate) fn register(engine: &mut Engine) {
    engine.on_print(|_| {});
    engine.on_debug(|text, source, pos| emit(source, pos, text));
    engine.register_fn("print", |nc: NativeCallContext| -> ImmutableString {
        emit(nc.call_source(), nc.call_position(), "");
        ImmutableString::new()
    });
    typed::<ImmutableString>(engine);
    typed::<INT>(engine);
    typed::<FLOAT>(engine);
    typed::<bool>(engine);
    typed::<char>(engine);
    typed::<()>(engine);
    typed::<Array>(engine);
    typed::<Map>(engine);
    typed::<Dynamic>(engine);
}

fn typed<T: Variant + Clone>(engine: &mut Engine) {
    engine.register_fn("print", |nc: NativeCallContext, value: T| -> ImmutableString {
        let value = Dynamic::from(value);
        let text = match value.clone().into_immutable_string() {
            Ok(s) => s.to_string(),
            Err(_) => nc
                .call_native_fn::<ImmutableString>("to_string", (value.clone(),))
                .map_or_else(|_| value.to_string(), |s| s.to_string()),
        };
        emit(nc.call_source(), nc.call_position(), &text);
        ImmutableString::new()
    });
}

/// One `print` event, if a call is running (a file's top level does not run in a tick).
fn emit(source: Option<&str>, pos: Position, text: &str) {
    let file = source.map_or("", |s| Path::new(s).file_name().and_then(|n| n.to_str()).unwrap_or(s));
    let line = pos.line().and_then(|l| u32::try_from(l).ok()).unwrap_or(0);
    with_lent(|ctx| ctx.print(file, line, text));
}
