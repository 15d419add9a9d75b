//! `print` for Lua scripts: the arguments as Lua's own `print` joins them (`tostring` of each,
//! separated by tabs) become one `print` event with the script's file and the calling line, which
//! narration shows (`tactica_stdlib::ScriptCtx::print` holds a script to a few lines a tick).
//! Outside a call — a file's top level runs when it loads — there is no tick to print in, and the
//! line goes nowhere.

use mlua::{Lua, Value as LuaValue, Variadic};
use tactica_stdlib::MAX_PRINT_CHARS;
use tactica_stdlib::lend::with_lent;

/// Defines `print` in `lua` for the script file `file` (its name, as errors give it).
pub(crate) fn install(lua: &Lua, file: &str) -> mlua::Result<()> {
    let file = file.to_owned();
    let print = lua.create_function(move |lua, args: Variadic<LuaValue>| {
        // Level 0 is this function; 1 is the script line that called it.
        let line =
            lua.inspect_stack(1, |d| d.current_line()).flatten().and_then(|l| u32::try_from(l).ok()).unwrap_or(0);
        let mut text = String::new();
        // What is past the cap is cut anyway: a string is read no further, and no argument after.
        let room = 4 * MAX_PRINT_CHARS;
        let mut copied = 0usize;
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                text.push('\t');
            }
            let left = room.saturating_sub(text.len());
            match a {
                LuaValue::String(s) => {
                    let bytes = s.as_bytes();
                    text.push_str(&String::from_utf8_lossy(&bytes[..bytes.len().min(left)]));
                }
                other => {
                    let shown = other.to_string()?;
                    copied += shown.len();
                    // (`str::floor_char_boundary` is newer than the crate's minimum Rust.)
                    let mut end = left.min(shown.len());
                    while !shown.is_char_boundary(end) {
                        end -= 1;
                    }
                    text.push_str(&shown[..end]);
                }
            }
            if text.len() >= room {
                break;
            }
        }
        // Converting is copying: charged at the script's next instruction.
        crate::patched::charge_later(lua, (copied + text.len()) / 16);
        with_lent(|ctx| ctx.print(&file, line, &text));
        Ok(())
    })?;
    lua.globals().raw_set("print", print)
}
