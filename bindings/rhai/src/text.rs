//! Arrays and maps as text (`to_string`, `to_debug`, `debug`, `print`, `"" + a`, `` `${a}` ``,
//! `to_json`), built against the string limit and charged as they are built.
//!
//! Rhai formats a collection by formatting every element into one string and checks the string
//! limit afterwards. Its elements can be far larger as text than in memory — an array of a
//! thousand references to one megabyte string is a few kilobytes, and its text a gigabyte — so
//! the text was built to the end before it was refused. These versions write into a buffer that
//! refuses to pass the limit, in Rhai's own format (leaves go through the engine's `to_debug`),
//! and charge one operation per element and per 16 bytes written.

use rhai::{Array, Dynamic, Engine, EvalAltResult, ImmutableString, Map, NativeCallContext, Position};

/// The text being built, and the most it may hold.
struct Text {
    out: String,
    cap: usize,
}

type Fallible = Result<(), Box<EvalAltResult>>;

impl Text {
    fn push(&mut self, s: &str) -> Fallible {
        if self.out.len() + s.len() > self.cap {
            return Err(Box::new(EvalAltResult::ErrorDataTooLarge("Length of string".into(), Position::NONE)));
        }
        rhai::tactica::charge_bytes(s.len());
        self.out.push_str(s);
        Ok(())
    }
}

/// How deeply the text of nested collections may go (a deeper value is refused, not formatted:
/// each level is a frame of this formatter).
const MAX_DEPTH: usize = 256;

/// Registers the capped formatters on `engine`; `max_string` is the string limit (0: none).
pub(crate) fn register(engine: &mut Engine, max_string: usize) {
    let cap = if max_string == 0 { usize::MAX } else { max_string };
    for name in ["to_string", "to_debug", "debug"] {
        engine.register_fn(
            name,
            move |nc: NativeCallContext, a: &mut Array| -> Result<ImmutableString, Box<EvalAltResult>> {
                let mut text = Text { out: String::new(), cap };
                array(&nc, &mut text, a, 0)?;
                Ok(text.out.into())
            },
        );
        engine.register_fn(
            name,
            move |nc: NativeCallContext, m: &mut Map| -> Result<ImmutableString, Box<EvalAltResult>> {
                let mut text = Text { out: String::new(), cap };
                map(&nc, &mut text, m, 0)?;
                Ok(text.out.into())
            },
        );
    }
    engine.register_fn("to_json", move |m: &mut Map| -> Result<ImmutableString, Box<EvalAltResult>> {
        // Rhai's JSON is exact; it is built only once the value is known to fit: every string at
        // most doubles when escaped for JSON (a quote or backslash), control characters aside,
        // which are bounded by the limit check on the result.
        let estimate = json_map(m, 0)?;
        if estimate > cap {
            return Err(Box::new(EvalAltResult::ErrorDataTooLarge("Length of string".into(), Position::NONE)));
        }
        rhai::tactica::charge_bytes(estimate);
        Ok(rhai::format_map_as_json(m).into())
    });
}

fn array(nc: &NativeCallContext, text: &mut Text, a: &Array, depth: usize) -> Fallible {
    text.push("[")?;
    for (i, v) in a.iter().enumerate() {
        if i > 0 {
            text.push(", ")?;
        }
        item(nc, text, v, depth + 1)?;
    }
    text.push("]")
}

fn map(nc: &NativeCallContext, text: &mut Text, m: &Map, depth: usize) -> Fallible {
    text.push("#{")?;
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            text.push(", ")?;
        }
        text.push(&format!("{:?}: ", k.as_str()))?;
        item(nc, text, v, depth + 1)?;
    }
    text.push("}")
}

/// One element in its debug form, as Rhai's own `to_debug` gives it.
fn item(nc: &NativeCallContext, text: &mut Text, v: &Dynamic, depth: usize) -> Fallible {
    rhai::tactica::charge(1);
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    if v.is_shared() {
        return item(nc, text, &v.flatten_clone(), depth);
    }
    if let Ok(a) = v.as_array_ref() {
        return array(nc, text, &a, depth);
    }
    if let Ok(m) = v.as_map_ref() {
        return map(nc, text, &m, depth);
    }
    let shown = nc.call_native_fn::<ImmutableString>("to_debug", (v.clone(),))?;
    text.push(&shown)
}

/// A value nested deeper than [`MAX_DEPTH`]: a size limit (so the script stops, as for a text
/// over the string limit, instead of the value being printed some other way).
fn too_deep() -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorDataTooLarge(format!("Nesting (over {MAX_DEPTH} levels) of a value"), Position::NONE))
}

/// An upper bound of the length of `v` as Rhai's JSON, walked without building it (one operation
/// charged per value).
fn json_estimate(v: &Dynamic, depth: usize) -> Result<usize, Box<EvalAltResult>> {
    rhai::tactica::charge(1);
    if depth > MAX_DEPTH {
        return Err(too_deep());
    }
    if let Ok(s) = v.as_immutable_string_ref() {
        return Ok(2 + 2 * s.len());
    }
    if let Ok(a) = v.as_array_ref() {
        let mut n = 2;
        for x in a.iter() {
            n += 2 + json_estimate(x, depth + 1)?;
        }
        return Ok(n);
    }
    if let Ok(m) = v.as_map_ref() {
        return json_map(&m, depth);
    }
    // Numbers, booleans, null and the rest: their text is short.
    Ok(32)
}

/// [`json_estimate`] of a map.
fn json_map(m: &Map, depth: usize) -> Result<usize, Box<EvalAltResult>> {
    let mut n = 2;
    for (k, x) in m.iter() {
        n += 6 + 2 * k.len() + json_estimate(x, depth + 1)?;
    }
    Ok(n)
}
