//! State tables of plain values — string keys, and booleans, numbers or strings for values, as
//! most characters keep (`state.leg`, `state.waiting`) — compared with the host's table and
//! converted for it on the Lua stack.
//!
//! A routine call compares the instance's `state` with the host's table before and after the
//! handler runs, and converts it when it changed. Through mlua every entry becomes a pair of
//! registry references (and a mismatch an error value, to stop the walk): most of a call's cost
//! for a character with a few entries of state. Here nothing is made but the answer. Anything
//! else in the table (a nested table, an entity handle) answers `None`, and the caller takes
//! the general path in `convert.rs`, which has the same meaning.

use std::ffi::c_int;

use mlua::{Lua, ffi};
use tactica_stdlib::crossing::Crossing;
use tactica_stdlib::{ScriptLimits, Table, Value, is_private};

/// What one entry on the stack (key at -2, value at -1) is as a host entry: `None` when it is
/// not plain. The key must be a string (the caller checked).
///
/// # Safety
/// `l` has a string key at -2 and a value at -1.
unsafe fn plain_value(l: *mut ffi::lua_State, limits: &ScriptLimits) -> Option<Value> {
    // SAFETY: reads the value at -1 by its type; `lua_tolstring` only on a string, which it
    // does not convert.
    unsafe {
        match ffi::lua_type(l, -1) {
            ffi::LUA_TBOOLEAN => Some(Value::Bool(ffi::lua_toboolean(l, -1) != 0)),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(l, -1) != 0 => {
                Some(Value::Int(ffi::lua_tointegerx(l, -1, std::ptr::null_mut())))
            }
            ffi::LUA_TNUMBER => Some(Value::Float(ffi::lua_tonumberx(l, -1, std::ptr::null_mut()))),
            ffi::LUA_TSTRING => {
                let bytes = bytes_at(l, -1);
                // Over the limit: the general path says so, with its message.
                if limits.string_limit().is_some_and(|max| bytes.len() > max) {
                    return None;
                }
                Some(Value::Str(String::from_utf8_lossy(bytes).into_owned()))
            }
            _ => None,
        }
    }
}

/// Whether the value at -1 is exactly `x` (floats bit for bit); `None` when it is not plain.
///
/// # Safety
/// `l` has a value at -1.
unsafe fn plain_same(l: *mut ffi::lua_State, x: &Value) -> Option<bool> {
    // SAFETY: as in `plain_value`.
    unsafe {
        Some(match (ffi::lua_type(l, -1), x) {
            (ffi::LUA_TBOOLEAN, Value::Bool(b)) => (ffi::lua_toboolean(l, -1) != 0) == *b,
            (ffi::LUA_TNUMBER, _) if ffi::lua_isinteger(l, -1) != 0 => {
                matches!(x, Value::Int(i) if *i == ffi::lua_tointegerx(l, -1, std::ptr::null_mut()))
            }
            (ffi::LUA_TNUMBER, _) => {
                let f = ffi::lua_tonumberx(l, -1, std::ptr::null_mut());
                matches!(x, Value::Float(g) if g.to_bits() == f.to_bits())
            }
            (ffi::LUA_TSTRING, _) => matches!(x, Value::Str(s) if s.as_bytes() == bytes_at(l, -1)),
            (ffi::LUA_TBOOLEAN, _) => false,
            _ => return None,
        })
    }
}

/// The bytes of the string at `i`.
///
/// # Safety
/// The value at `i` is a string; the slice lives while it stays on the stack.
unsafe fn bytes_at<'a>(l: *mut ffi::lua_State, i: c_int) -> &'a [u8] {
    let mut len = 0usize;
    // SAFETY: a string's pointer and length, from Lua, valid while the string is on the stack.
    unsafe {
        let p = ffi::lua_tolstring(l, i, &mut len);
        std::slice::from_raw_parts(p.cast::<u8>(), len)
    }
}

/// Walks `t`'s entries on the stack, handing each (key, value on the stack) to `each`, which
/// says whether to go on; `None` when `t` has a list part or a key that is not a string, or the
/// walk could not start.
fn walk(lua: &Lua, t: &mlua::Table, mut each: impl FnMut(*mut ffi::lua_State, &[u8]) -> bool) -> Option<()> {
    lua.exec_raw_lua(|raw| {
        // SAFETY: the table is pushed by mlua and walked with `lua_next`, which raises no error
        // for keys it handed out itself; the stack is put back as it was on every way out.
        unsafe {
            let l = raw.state();
            let top = ffi::lua_gettop(l);
            if ffi::lua_checkstack(l, 4) == 0 || raw.push(t).is_err() {
                ffi::lua_settop(l, top);
                return None;
            }
            let ti = top + 1;
            let mut result = Some(());
            if ffi::lua_rawlen(l, ti) != 0 {
                result = None;
            } else {
                ffi::lua_pushnil(l);
                while ffi::lua_next(l, ti) != 0 {
                    if ffi::lua_type(l, -2) != ffi::LUA_TSTRING {
                        result = None;
                        break;
                    }
                    if !each(l, bytes_at(l, -2)) {
                        break;
                    }
                    ffi::lua_settop(l, -2);
                }
            }
            ffi::lua_settop(l, top);
            result
        }
    })
}

/// Whether `t` holds exactly the public entries of `table`, when `t` is plain; `None` when it is
/// not (the caller compares through mlua).
pub(crate) fn same_public(lua: &Lua, t: &mlua::Table, table: &Table) -> Option<bool> {
    let mut n = 0usize;
    let mut answer = Some(true);
    walk(lua, t, |l, key| {
        n += 1;
        let host = std::str::from_utf8(key).ok().filter(|k| !is_private(k)).and_then(|k| table.get(k));
        answer = match host {
            // SAFETY: `walk` hands the entry's value at -1.
            Some(x) => unsafe { plain_same(l, x) },
            None => Some(false),
        };
        answer == Some(true)
    })?;
    let public = table.keys().filter(|k| !is_private(k)).count();
    answer.map(|same| same && n == public)
}

/// `t` as a host map, when it is plain and within `limits`; `None` otherwise (the caller
/// converts through mlua, which also gives the reason a table cannot cross).
pub(crate) fn to_map(lua: &Lua, t: &mlua::Table, limits: &ScriptLimits) -> Option<Table> {
    let mut map = Table::new();
    let mut plain = true;
    // Weighed as the general path weighs it; over the cap, that path says so.
    let mut crossing = Crossing::kept(limits);
    let _ = crossing.add(0);
    walk(lua, t, |l, key| {
        // SAFETY: `walk` hands the entry's value at -1.
        match unsafe { plain_value(l, limits) } {
            Some(v)
                if limits.collection_limit().is_none_or(|max| map.len() < max)
                    && crossing.add_key(key.len()).is_ok()
                    && crossing.add(if let Value::Str(s) = &v { s.len() } else { 0 }).is_ok() =>
            {
                map.insert(String::from_utf8_lossy(key).into_owned(), v);
                true
            }
            _ => {
                plain = false;
                false
            }
        }
    })?;
    plain.then_some(map)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::convert::{from_lua, same_public as general_same_public, to_lua};

    fn scalar() -> impl Strategy<Value = Value> {
        prop_oneof![
            any::<bool>().prop_map(Value::Bool),
            (-3i64..3).prop_map(Value::Int),
            prop_oneof![Just(0.0), Just(-0.0), Just(2.0), Just(0.5)].prop_map(Value::Float),
            "[a-c]{0,3}".prop_map(Value::Str),
        ]
    }

    fn table() -> impl Strategy<Value = Table> {
        proptest::collection::btree_map("(__)?[a-c]{1,2}", scalar(), 0..5)
    }

    fn lua_table(lua: &Lua, t: &Table) -> mlua::Table {
        let lt = lua.create_table().unwrap();
        for (k, v) in t {
            lt.raw_set(k.as_str(), to_lua(lua, v).unwrap()).unwrap();
        }
        lt
    }

    proptest! {
        /// On plain tables the stack walk answers as the general comparison does, for the
        /// table itself and for any other host table.
        #[test]
        fn same_public_agrees_with_the_general_path(script in table(), host in table()) {
            let lua = Lua::new();
            let lt = lua_table(&lua, &script);
            for other in [&script, &host] {
                let general = general_same_public(&lt, other);
                prop_assert_eq!(same_public(&lua, &lt, other), Some(general));
            }
        }

        /// A plain table converts to the map the general conversion makes.
        #[test]
        fn to_map_agrees_with_the_general_path(script in table()) {
            let lua = Lua::new();
            let lt = lua_table(&lua, &script);
            let general = from_lua(&mlua::Value::Table(lt.clone()), &ScriptLimits::new(), &mut Crossing::new(None)).unwrap();
            prop_assert_eq!(to_map(&lua, &lt, &ScriptLimits::new()).map(Value::Map), Some(general));
        }
    }

    #[test]
    fn what_is_not_plain_goes_the_general_way() {
        let lua = Lua::new();
        let limits = ScriptLimits::new().set_max_string_len(4);
        for source in
            ["return { 1, 2 }", "return { a = { 1 } }", "return { [3] = true }", "return { a = 'long string' }"]
        {
            let t: mlua::Table = lua.load(source).eval().unwrap();
            assert_eq!(to_map(&lua, &t, &limits), None, "{source}");
        }
        let t: mlua::Table = lua.load("return { a = { 1 } }").eval().unwrap();
        assert_eq!(same_public(&lua, &t, &Table::new()), Some(false), "one entry more than the host's");
        let mut host = Table::new();
        host.insert("a".into(), Value::List(vec![Value::Int(1)]));
        assert_eq!(same_public(&lua, &t, &host), None, "a nested table is left to the general path");
        let t: mlua::Table = lua.load("return { a = 1, b = 2, c = 3 }").eval().unwrap();
        assert_eq!(to_map(&lua, &t, &ScriptLimits::new().set_max_collection_len(2)), None, "over the limit");
        assert_eq!(lua.exec_raw_lua(|raw| unsafe { ffi::lua_gettop(raw.state()) }), 0, "the stack is left as it was");
    }
}
