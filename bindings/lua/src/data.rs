//! Lua files that hold data rather than behaviour, such as a library of position queries written
//! the way the reference writes them: each global table the file defines is one entry.
//!
//! ```
//! use std::path::Path;
//! let src = "radius = 15\ntake_cover = { Generation = { hidespots_from_target_around_puppet = radius } }\n";
//! let tables = tactica_lua::data::global_tables(Path::new("cover.lua"), src).unwrap();
//! assert_eq!(tables.len(), 1);
//! assert_eq!(tables[0].0, "take_cover");
//! ```

use std::collections::BTreeSet;
use std::path::Path;
use std::rc::Rc;

use mlua::Value as LuaValue;
use mlua::chunk::ChunkMode;
use tactica_stdlib::backend::ScriptError;
use tactica_stdlib::{ScriptLimits, Value};

use crate::convert::from_lua;
use crate::error::script_error;
use crate::sandbox::{Meter, new_state};

/// Runs `source` in a sandboxed state with no game API (the same limits as a script) and returns
/// the tables it defined as globals, by name in sorted order. Other globals it defines (numbers
/// shared by several tables, helper functions) are not entries.
pub fn global_tables(file: &Path, source: &str) -> Result<Vec<(String, Value)>, ScriptError> {
    let limits = ScriptLimits::new();
    let chunk = file.file_name().map_or_else(|| file.display().to_string(), |n| n.to_string_lossy().into_owned());
    let meter = Rc::new(Meter::default());
    meter.start(0);
    let fail = |e: mlua::Error| script_error(file, &chunk, source, &e, meter.last_line.get());
    let lua = new_state(&limits, &meter).map_err(fail)?;
    let globals = lua.globals();
    let before: BTreeSet<String> = globals.pairs::<String, LuaValue>().filter_map(Result::ok).map(|(k, _)| k).collect();
    lua.load(source).set_name(format!("@{chunk}")).set_mode(ChunkMode::Text).exec().map_err(fail)?;
    // Sorted, so the order never depends on Lua's hash seed.
    let mut defined: Vec<(String, LuaValue)> = globals
        .pairs::<String, LuaValue>()
        .filter_map(Result::ok)
        .filter(|(k, v)| !before.contains(k) && matches!(v, LuaValue::Table(_)))
        .collect();
    defined.sort_by(|a, b| a.0.cmp(&b.0));
    defined
        .into_iter()
        .map(|(name, v)| {
            from_lua(&v, &limits, &mut tactica_stdlib::crossing::Crossing::argument(&limits))
                .map(|value| (name.clone(), value))
                .map_err(|why| ScriptError::new(file, 0, 0, format!("`{name}`: {why}")))
        })
        .collect()
}
