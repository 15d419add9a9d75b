//! What a Rhai call does beyond its operation count, charged to the same budget.
//!
//! Rhai counts one operation per step, whatever the step does: `a.contains(x)` on a long array,
//! `s.pad(1000000, "y")` or `a.sort()` are each one operation. So that a script stops at the same
//! point on every machine, this module charges that work:
//!
//! - with the counting allocator installed (`tactica_stdlib::memory`), each call pays one
//!   operation per [`BYTES_PER_OPERATION`] bytes it allocates (`s + s`, arrays that grow) and is
//!   held to the memory limit in live bytes;
//! - the library functions that work in place — `pad` on strings, `contains`, `index_of`, `sort`
//!   and `reverse` on arrays, `contains` and `index_of` on strings — are replaced by versions that
//!   charge one operation per element they visit (per 16 bytes for strings, and `n log n` for
//!   a sort) before working;
//! - inside Rhai itself (`vendor/rhai`, `rhai::tactica`), the library functions and operators
//!   that scan or move a whole string, array or map (`s.len()`, `a.insert(0, x)`, `a == b`,
//!   `s == t`, `s.replace(..)`, a `switch` on a string …) charge one operation per element and
//!   per 16 bytes, read here at every operation;
//! - the wall-clock watchdog reads the clock every 1,024 operations.
//!
//! Two things no operation count sees are handled at the edges of a call: shared values (what
//! closures capture) made during the call are emptied when it ends, so a closure that holds
//! itself does not leak; and `sleep` is not available.

use std::cell::Cell;
use std::time::Instant;

use rhai::{Array, Dynamic, Engine, EvalAltResult, INT, ImmutableString, NativeCallContext, Position};
use tactica_stdlib::{ScriptLimits, memory};

/// Bytes of allocation (or of a string scanned or filled) that cost one operation.
pub(crate) const BYTES_PER_OPERATION: u64 = 16;

/// The running call's accounting, read once per operation by the progress check (with the work
/// library functions charged, kept in `rhai::tactica`'s count).
#[derive(Clone, Copy)]
struct Account {
    /// What the allocator counted when the running call started.
    start: memory::Usage,
}

thread_local! {
    /// The running call's accounting (one thread-local, so one look-up per operation).
    static ACCOUNT: Cell<Account> = const { Cell::new(Account { start: memory::Usage { allocated: 0, live: 0 } }) };
    /// When the running call started, for the watchdog.
    static CALL_STARTED: Cell<Option<Instant>> = const { Cell::new(None) };
    /// Whether the watchdog stopped the running call.
    static WATCHDOG_FIRED: Cell<bool> = const { Cell::new(false) };
}

/// Starts the accounting of a call.
pub(crate) fn start_call() {
    let _ = rhai::tactica::take_work();
    rhai::tactica::track_shared(true);
    ACCOUNT.with(|a| a.set(Account { start: memory::Usage::now() }));
    // The clock is first read at the first watchdog check (1,024 operations in), not on every
    // call: a call that short cannot be what the watchdog is for, and reading the clock was a
    // good part of a short call's cost.
    CALL_STARTED.with(|c| c.set(None));
    WATCHDOG_FIRED.with(|f| f.set(false));
}

/// Ends a call: the shared values it made (captured variables) are emptied, which frees any
/// reference cycle among them; nothing of the call is used again (the state it keeps crosses
/// into the host as plain values first). Returns how many were still alive.
pub(crate) fn end_call() -> usize {
    rhai::tactica::track_shared(false);
    rhai::tactica::release_shared()
}

/// Whether the watchdog stopped the last call.
pub(crate) fn watchdog_fired() -> bool {
    WATCHDOG_FIRED.with(Cell::get)
}

/// Charges `units` operations of library work to the running call (the same count the engine's
/// own library functions charge).
fn charge(units: u64) {
    rhai::tactica::charge(units);
}

/// Installs the progress check and the charging library functions on `engine`. `max_string` is
/// the string size cap (0: none).
pub(crate) fn install(engine: &mut Engine, limits: &ScriptLimits, max_string: usize) {
    let counting = memory::installed();
    let (max_ops, max_memory, max_wall) = (limits.ops_limit(), limits.memory_limit(), limits.wall_limit());
    if max_ops.is_some() || max_wall.is_some() || (counting && max_memory.is_some()) {
        // The limits as plain numbers (no limit: the largest), so an operation compares without
        // unpacking options; a sum that cannot pass `u64::MAX` never trips the budget.
        let live_cap = max_memory.map_or(i64::MAX, |max| i64::try_from(max).unwrap_or(i64::MAX));
        let ops_cap = max_ops.unwrap_or(u64::MAX);
        engine.on_progress(move |ops| {
            if let Some(wall) = max_wall
                && ops.is_multiple_of(1024)
                && CALL_STARTED.with(|c| match c.get() {
                    Some(t) => t.elapsed() > wall,
                    None => {
                        c.set(Some(Instant::now()));
                        false
                    }
                })
            {
                WATCHDOG_FIRED.with(|f| f.set(true));
                return Some(Dynamic::from(format!(
                    "stopped by the wall-clock watchdog after {} ms",
                    wall.as_millis()
                )));
            }
            let work = rhai::tactica::work();
            let Account { start } = ACCOUNT.with(Cell::get);
            let used = if counting { start.elapsed() } else { memory::Usage::default() };
            if used.live > live_cap {
                let max = max_memory.unwrap_or_default();
                return Some(Dynamic::from(format!("memory limit of {max} bytes exceeded")));
            }
            let charged = ops + used.allocated / BYTES_PER_OPERATION + work;
            if charged > ops_cap {
                let max = max_ops.unwrap_or_default();
                return Some(Dynamic::from(format!(
                    "instruction budget of {max} exceeded ({ops} operations, {} bytes allocated at \
                     {BYTES_PER_OPERATION} bytes an operation, {work} operations of library work)",
                    used.allocated
                )));
            }
            None
        });
    }
    // Rhai's size limits check each value by its own size: walking everything inside made every
    // change to a large array cost in proportion to its size. With the counting allocator the
    // memory limit holds what nested values add up to; without it the totals stay.
    engine.set_shallow_size_checks(counting);
    // `sleep` would block the game's thread where no count or clock can stop it.
    engine.register_fn("sleep", |_: INT| -> Result<(), Box<EvalAltResult>> { Err(no_sleep()) });
    engine.register_fn("sleep", |_: rhai::FLOAT| -> Result<(), Box<EvalAltResult>> { Err(no_sleep()) });
    crate::text::register(engine, max_string);
    let cap = if max_string == 0 { usize::MAX } else { max_string };
    engine.register_fn("pad", move |s: &mut ImmutableString, len: INT, fill: char| {
        pad_string(s, len, &fill.to_string(), cap)
    });
    engine.register_fn("pad", move |s: &mut ImmutableString, len: INT, fill: &str| pad_string(s, len, fill, cap));
    engine.register_fn("contains", |nc: NativeCallContext, a: &mut Array, v: Dynamic| {
        Ok::<_, Box<EvalAltResult>>(position(&nc, a, &v, 0)?.is_some())
    });
    engine.register_fn("index_of", |nc: NativeCallContext, a: &mut Array, v: Dynamic| {
        Ok::<_, Box<EvalAltResult>>(position(&nc, a, &v, 0)?.map_or(-1, to_int))
    });
    engine.register_fn("index_of", |nc: NativeCallContext, a: &mut Array, v: Dynamic, start: INT| {
        let from = usize::try_from(start).unwrap_or(0);
        Ok::<_, Box<EvalAltResult>>(position(&nc, a, &v, from)?.map_or(-1, to_int))
    });
    engine.register_fn("sort", sort);
    engine.register_fn("reverse", |a: &mut Array| {
        charge(a.len() as u64);
        a.reverse();
    });
    engine.register_fn("contains", |s: &mut ImmutableString, part: &str| {
        charge(s.len() as u64 / BYTES_PER_OPERATION);
        s.contains(part)
    });
    engine.register_fn("contains", |s: &mut ImmutableString, c: char| {
        charge(s.len() as u64 / BYTES_PER_OPERATION);
        s.contains(c)
    });
    engine.register_fn("index_of", |s: &mut ImmutableString, part: &str| {
        charge(s.len() as u64 / BYTES_PER_OPERATION);
        // Rhai counts string positions in characters.
        s.find(part).map_or(-1, |byte| to_int(s[..byte].chars().count()))
    });
    engine.register_fn("index_of", |s: &mut ImmutableString, c: char| {
        charge(s.len() as u64 / BYTES_PER_OPERATION);
        s.find(c).map_or(-1, |byte| to_int(s[..byte].chars().count()))
    });
}

fn no_sleep() -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(
        "`sleep` is not available to scripts: it would stop the whole game; wait with `Wait` or a sequence".into(),
        Position::NONE,
    ))
}

fn to_int(n: usize) -> INT {
    INT::try_from(n).unwrap_or(INT::MAX)
}

/// Where `value` first is in `array` at or after `from`, comparing as Rhai's `==` does, one
/// operation charged per element looked at.
fn position(
    nc: &NativeCallContext,
    array: &[Dynamic],
    value: &Dynamic,
    from: usize,
) -> Result<Option<usize>, Box<EvalAltResult>> {
    charge(array.len().saturating_sub(from) as u64);
    for (i, item) in array.iter().enumerate().skip(from) {
        if item.type_id() != value.type_id() {
            continue; // values of two types are never equal (Rhai's own `contains` says the same)
        }
        // Plain values compare here; others through the script's own `==` (custom types).
        let equal = if let Some(same) = plain_equal(item, value) {
            same
        } else {
            match nc.call_native_fn::<bool>("==", (item.clone(), value.clone())) {
                Ok(b) => b,
                Err(e) if matches!(*e, EvalAltResult::ErrorFunctionNotFound(..)) => false,
                Err(e) => return Err(e),
            }
        };
        if equal {
            return Ok(Some(i));
        }
    }
    Ok(None)
}

/// `a == b` for two values of one plain type (integer, float, boolean, character, string), as
/// Rhai's built-in operator; `None` for other types.
fn plain_equal(a: &Dynamic, b: &Dynamic) -> Option<bool> {
    if let (Ok(x), Ok(y)) = (a.as_int(), b.as_int()) {
        return Some(x == y);
    }
    if let (Ok(x), Ok(y)) = (a.as_float(), b.as_float()) {
        return Some(x == y);
    }
    if let (Ok(x), Ok(y)) = (a.as_bool(), b.as_bool()) {
        return Some(x == y);
    }
    if let (Ok(x), Ok(y)) = (a.as_char(), b.as_char()) {
        return Some(x == y);
    }
    if a.is_string() && b.is_string() {
        return Some(a.clone().into_immutable_string().ok() == b.clone().into_immutable_string().ok());
    }
    None
}

/// `sort()` without a comparison function, as Rhai's: for arrays of integers, floats, strings,
/// characters or booleans, all of one type. Charges `n ⌈log₂ n⌉` operations first.
fn sort(array: &mut Array) -> Result<(), Box<EvalAltResult>> {
    let n = array.len() as u64;
    if n < 2 {
        return Ok(());
    }
    charge(n * u64::from(64 - (n - 1).leading_zeros()));
    let first = array[0].type_id();
    if array.iter().any(|v| v.type_id() != first) {
        return Err(Box::new(EvalAltResult::ErrorRuntime(
            "sort() needs elements all of one type; give a comparison function for others (`sort(|a, b| …)`)".into(),
            Position::NONE,
        )));
    }
    if array[0].is_int() {
        array.sort_by_key(|v| v.as_int().unwrap_or_default());
    } else if array[0].is_float() {
        array.sort_by(|a, b| a.as_float().unwrap_or_default().total_cmp(&b.as_float().unwrap_or_default()));
    } else if array[0].is_string() {
        array.sort_by(|a, b| {
            a.clone()
                .into_immutable_string()
                .unwrap_or_default()
                .cmp(&b.clone().into_immutable_string().unwrap_or_default())
        });
    } else if array[0].is_char() {
        array.sort_by_key(|v| v.as_char().unwrap_or_default());
    } else if array[0].is_bool() {
        array.sort_by_key(|v| v.as_bool().unwrap_or_default());
    } else {
        return Err(Box::new(EvalAltResult::ErrorRuntime(
            format!(
                "sort() cannot order {} values; give a comparison function (`sort(|a, b| …)`)",
                array[0].type_name()
            )
            .into(),
            Position::NONE,
        )));
    }
    Ok(())
}

/// Rhai's `pad` for strings, the bytes it writes charged (as allocation) before writing them.
fn pad_string(s: &mut ImmutableString, len: INT, fill: &str, cap: usize) -> Result<(), Box<EvalAltResult>> {
    let Ok(len) = usize::try_from(len) else { return Ok(()) };
    let current = s.chars().count();
    if len <= current || fill.is_empty() {
        return Ok(());
    }
    let added_bytes = (len - current) * fill.chars().next().map_or(1, char::len_utf8);
    if s.len() + added_bytes > cap {
        return Err(Box::new(EvalAltResult::ErrorDataTooLarge("Length of string".into(), Position::NONE)));
    }
    charge(added_bytes as u64 / BYTES_PER_OPERATION);
    let added: String = fill.chars().cycle().take(len - current).collect();
    let mut owned = s.to_string();
    owned.push_str(&added);
    *s = owned.into();
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rhai::{Dynamic, Scope};
    use tactica_stdlib::{Api, ScriptLimits};

    use crate::backend::sandboxed_engine;

    /// Runs `f` of `source` under `limits` as a call does (accounting started and ended).
    fn call(source: &str, limits: ScriptLimits) -> (Result<Dynamic, String>, usize) {
        let engine = sandboxed_engine(Arc::new(Api::standard()), &limits);
        let ast = engine.compile(source).unwrap();
        super::start_call();
        let r = engine.call_fn::<Dynamic>(&mut Scope::new(), &ast, "f", ()).map_err(|e| e.to_string());
        let released = super::end_call();
        (r, released)
    }

    /// A closure that captures the variable holding it is a reference cycle; the call's end
    /// empties every captured variable it made, so nothing of it is kept.
    #[test]
    fn captured_variables_are_released_when_the_call_ends() {
        let source = "fn f() { let big = []; big.pad(1000, 1); let g = 0; let h = || [g, big]; g = h; 7 }";
        let (r, released) = call(source, ScriptLimits::new());
        assert_eq!(r.unwrap().as_int(), Ok(7));
        assert_eq!(released, 1, "the captured `g` was still alive: the cycle");
        let (_, none) = call("fn f() { let x = 1; x + 1 }", ScriptLimits::new());
        assert_eq!(none, 0);
    }

    /// A value nested twenty thousand levels deep (with `take`, one operation a level) is
    /// dropped, copied and formatted without one stack frame per level: on a thread with a 256 KiB
    /// stack, where one frame per level overflows after a few thousand.
    #[test]
    fn deeply_nested_values_need_no_deep_stack() {
        let source = "fn f() { let a = []; for i in 0..20000 { a = [take(a)]; } let b = a; `${b}`.len() }";
        let limits = ScriptLimits::unlimited().set_max_string_len(1 << 20);
        let (r, _) = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || call(source, limits))
            .unwrap()
            .join()
            .expect("no stack overflow");
        let e = r.unwrap_err();
        assert!(e.contains("Nesting (over 256 levels) of a value too large"), "{e}");
    }

    /// Turning an array into text stops at the string limit before the text is built: an array
    /// of references to one long string is small in memory and huge as text.
    #[test]
    fn text_of_a_collection_is_refused_at_the_string_limit() {
        let source = "fn f() { let s = \"0123456789abcdef\"; for i in 0..12 { s += s; } let a = []; a.pad(10000, s); a.to_string() }";
        let limits = ScriptLimits::new().set_max_ops(0).set_max_string_len(1 << 20);
        let (r, _) = call(source, limits);
        let e = r.unwrap_err();
        assert!(e.contains("Length of string too large"), "{e}");
        let (r, _) = call(source.replace("a.to_string()", "`${a}`").as_str(), limits);
        assert!(r.unwrap_err().contains("Length of string too large"));
    }
}
