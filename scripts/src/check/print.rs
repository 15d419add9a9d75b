//! `Print(value)` in `.tac`: a debug line, as `print` is in Lua and Rhai — a `print` event with the
//! file and line, shown by narration, under the same cap ([`tactica_stdlib::ScriptCtx::print`]).
//!
//! It is `.tac`'s own: the checker adds it to its copy of the API (so the name resolves, with
//! "did you mean" and arity like any function) and the lowering passes the call's place as two
//! more arguments, `Print(value, file, line)`, which the VM hands the host function as they are.
//! Lua and Rhai have their own `print`, so the shared table — and the docs made from it — never
//! carry this one.

use tactica_engine::Value;
use tactica_stdlib::{Api, HostError, HostFn, HostImpl, Param, ScriptCtx, Type};

/// The name scripts call (any case, as every `.tac` name).
pub(crate) const PRINT: &str = "Print";

/// `Print`'s doc (and how [`is_print`] knows it from a game's function of the same name).
const DOC: &str = "Writes a debug line: a `print` event with the file and line, and a narration line \
                   (`Print(LEVEL);`). At most 20 lines a tick, each cut to 200 characters.";

/// `api` with `Print` added, unless a game already has a function of that name.
pub(crate) fn with_print(api: &Api) -> Api {
    let mut api = api.clone();
    if api.functions(PRINT).next().is_none() {
        api.add_function(HostFn {
            name: PRINT,
            params: vec![Param { name: "value", ty: Type::Any }],
            ret: Type::Nil,
            doc: DOC,
            imp: HostImpl::Fn(print),
        });
    }
    api
}

/// Whether `f` is the `Print` added by [`with_print`] (its call gets the place appended).
pub(crate) fn is_print(f: &HostFn) -> bool {
    f.name == PRINT && f.doc == DOC
}

/// `Print(value, file, line)`, as the lowering calls it.
fn print(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (value, file, line) = match args {
        [value, Value::Str(file), Value::Int(line)] => (value, file.as_str(), u32::try_from(*line).unwrap_or(0)),
        [value, ..] => (value, "", 0),
        [] => (&Value::Nil, "", 0),
    };
    let text = match value {
        Value::Str(s) => s.clone(),
        other => other.to_string(),
    };
    ctx.print(file, line, &text);
    Ok(Value::Nil)
}
