//! Values across the Lua boundary: [`Value`] to Lua and back, with entity handles and vectors as
//! userdata that scripts can hold and compare but never build.

use glam::Vec2;
use mlua::{AnyUserData, Lua, MetaMethod, UserData, UserDataFields, UserDataMethods, Value as LuaValue};
use tactica_engine::world::EntityId;
use tactica_stdlib::crossing::Crossing;
use tactica_stdlib::{ScriptLimits, Table, Value};

/// How deeply tables may nest when they cross into the host (a cyclic table would otherwise
/// recurse forever).
pub(crate) const MAX_DEPTH: usize = 32;

/// An entity handle. Only the host creates these: Lua has no constructor, and a table that looks
/// like one (`{idx = 1, version = 1}`) stays a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LuaEntity(pub(crate) EntityId);

impl UserData for LuaEntity {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| Ok(format!("entity {:?}", this.0)));
        methods.add_meta_method(MetaMethod::Eq, |_, this, other: AnyUserData| {
            Ok(other.borrow::<LuaEntity>().is_ok_and(|o| o.0 == this.0))
        });
    }
}

/// A 2-D vector with read-only fields `x` and `y`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LuaVec2(pub(crate) Vec2);

impl UserData for LuaVec2 {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("x", |_, this| Ok(f64::from(this.0.x)));
        fields.add_field_method_get("y", |_, this| Ok(f64::from(this.0.y)));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| Ok(format!("({}, {})", this.0.x, this.0.y)));
    }
}

/// A host value as a Lua value.
pub(crate) fn to_lua(lua: &Lua, v: &Value) -> mlua::Result<LuaValue> {
    Ok(match v {
        Value::Nil => LuaValue::Nil,
        Value::Bool(b) => LuaValue::Boolean(*b),
        Value::Int(i) => LuaValue::Integer(*i),
        Value::Float(f) => LuaValue::Number(*f),
        Value::Str(s) => LuaValue::String(lua.create_string(s)?),
        Value::Vec2(p) => {
            LuaValue::UserData(tagged(lua, lua.create_userdata(LuaVec2(*p))?, crate::host::vec2_bits(*p))?)
        }
        Value::Entity(id) => LuaValue::UserData(entity_handle(lua, *id)?),
        Value::List(items) => {
            let t = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                t.raw_set(i + 1, to_lua(lua, item)?)?;
            }
            LuaValue::Table(t)
        }
        Value::Map(map) => LuaValue::Table(table_to_lua(lua, map)?),
    })
}

/// The states' handles while scripts hold them: by entity (its bits), weak in the handle.
struct Handles(mlua::Table);

/// Gives a new state its table of entity handles (see [`entity_handle`]).
pub(crate) fn keep_handles(lua: &Lua) -> mlua::Result<()> {
    let handles = lua.create_table()?;
    let mode = lua.create_table()?;
    mode.raw_set("__mode", "v")?;
    handles.set_metatable(Some(mode))?;
    lua.set_app_data(Handles(handles));
    Ok(())
}

/// `id`'s handle: the one the state already has while a script still holds it, else a new one.
/// `Me()` and `Player()` on every think made a userdata each (a tenth of a crowd's Lua time); one
/// per entity also makes a handle a stable table key. The table's values are weak, so handles
/// nobody holds are collected as before.
fn entity_handle(lua: &Lua, id: EntityId) -> mlua::Result<AnyUserData> {
    let bits = crate::host::entity_bits(id);
    let handles = lua.app_data_ref::<Handles>().map(|h| h.0.clone());
    if let Some(handles) = &handles
        && let Some(ud) = handles.raw_get::<Option<AnyUserData>>(bits)?
    {
        return Ok(ud);
    }
    let ud = tagged(lua, lua.create_userdata(LuaEntity(id))?, bits)?;
    if let Some(handles) = handles {
        handles.raw_set(bits, &ud)?;
    }
    Ok(ud)
}

/// `ud` with its value also as the integer in its first user value, where the host closures
/// read it off the stack without going through mlua (`host.rs`).
fn tagged(lua: &Lua, ud: AnyUserData, bits: i64) -> mlua::Result<AnyUserData> {
    // SAFETY: sets the user value of the one argument and leaves nothing.
    unsafe {
        lua.exec_raw::<()>(&ud, |l| {
            mlua::ffi::lua_pushinteger(l, bits);
            mlua::ffi::lua_setiuservalue(l, 1, 1);
            mlua::ffi::lua_settop(l, 0);
        })
    }?;
    Ok(ud)
}

/// A host table as a Lua table.
pub(crate) fn table_to_lua(lua: &Lua, map: &Table) -> mlua::Result<mlua::Table> {
    let t = lua.create_table_with_capacity(0, map.len())?;
    for (k, v) in map {
        t.raw_set(k.as_str(), to_lua(lua, v)?)?;
    }
    Ok(t)
}

/// A Lua value as a host value. Tables with keys `1..n` become lists, tables with string keys
/// maps; functions, coroutines and foreign userdata are refused, as are values over the limits
/// and a crossing over its cap (`crossing` weighs every value converted, see
/// [`tactica_stdlib::crossing`]).
pub(crate) fn from_lua(v: &LuaValue, limits: &ScriptLimits, crossing: &mut Crossing) -> Result<Value, String> {
    convert(v, limits, crossing, 0)
}

fn convert(v: &LuaValue, limits: &ScriptLimits, crossing: &mut Crossing, depth: usize) -> Result<Value, String> {
    let text = match v {
        LuaValue::String(s) => s.as_bytes().len(),
        _ => 0,
    };
    crossing.add(text)?;
    Ok(match v {
        LuaValue::Nil => Value::Nil,
        LuaValue::Boolean(b) => Value::Bool(*b),
        LuaValue::Integer(i) => Value::Int(*i),
        LuaValue::Number(f) => Value::Float(*f),
        LuaValue::String(s) => {
            let bytes = s.as_bytes();
            if limits.string_limit().is_some_and(|max| bytes.len() > max) {
                return Err(format!(
                    "a string of {} bytes is over the limit of {}",
                    bytes.len(),
                    limits.max_string_len
                ));
            }
            Value::Str(String::from_utf8_lossy(&bytes).into_owned())
        }
        LuaValue::UserData(ud) => {
            if let Ok(e) = ud.borrow::<LuaEntity>() {
                Value::Entity(e.0)
            } else if let Ok(p) = ud.borrow::<LuaVec2>() {
                Value::Vec2(p.0)
            } else {
                return Err("this userdata cannot cross into the host".to_owned());
            }
        }
        LuaValue::Table(t) => {
            if depth >= MAX_DEPTH {
                return Err(format!("tables nested deeper than {MAX_DEPTH} (or cyclic) cannot cross into the host"));
            }
            table_from_lua(t, limits, crossing, depth)?
        }
        other => return Err(format!("a {} cannot cross into the host", other.type_name())),
    })
}

fn table_from_lua(
    t: &mlua::Table,
    limits: &ScriptLimits,
    crossing: &mut Crossing,
    depth: usize,
) -> Result<Value, String> {
    let n = t.raw_len();
    let mut count = 0usize;
    let mut map = Table::new();
    let mut list = Vec::new();
    let too_many = |c: usize| limits.collection_limit().is_some_and(|max| c > max);
    for pair in t.clone().pairs::<LuaValue, LuaValue>() {
        let (k, v) = pair.map_err(|e| e.to_string())?;
        count += 1;
        if too_many(count) {
            return Err(format!(
                "a table of more than {} entries cannot cross into the host",
                limits.max_collection_len
            ));
        }
        let v = convert(&v, limits, crossing, depth + 1)?;
        match k {
            LuaValue::String(s) => {
                crossing.add_key(s.as_bytes().len())?;
                map.insert(s.to_string_lossy(), v);
            }
            LuaValue::Integer(i) if i >= 1 && usize::try_from(i).is_ok_and(|i| i <= n) => list.push((i, v)),
            other => return Err(format!("table keys must be strings or 1..n, got a {}", other.type_name())),
        }
    }
    if !list.is_empty() && !map.is_empty() {
        return Err("a table cannot mix a list part and named keys".to_owned());
    }
    if list.is_empty() && n == 0 {
        return Ok(Value::Map(map));
    }
    list.sort_by_key(|(i, _)| *i);
    Ok(Value::List(list.into_iter().map(|(_, v)| v).collect()))
}

/// Whether `v` converts to exactly `x` ([`from_lua`]`(v) == x`, floats bit for bit), decided in
/// place without converting; `false` when unsure (the caller then converts). `depth` bounds
/// the walk as [`from_lua`]'s does (a cyclic table is never the same as a host value).
pub(crate) fn same(v: &LuaValue, x: &Value, depth: usize) -> bool {
    match (v, x) {
        (LuaValue::Boolean(a), Value::Bool(b)) => a == b,
        (LuaValue::Integer(a), Value::Int(b)) => a == b,
        (LuaValue::Number(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
        (LuaValue::String(a), Value::Str(b)) => *a.as_bytes() == *b.as_bytes(),
        (LuaValue::UserData(ud), Value::Entity(id)) => ud.borrow::<LuaEntity>().is_ok_and(|e| e.0 == *id),
        (LuaValue::UserData(ud), Value::Vec2(p)) => {
            ud.borrow::<LuaVec2>().is_ok_and(|q| q.0.to_array().map(f32::to_bits) == p.to_array().map(f32::to_bits))
        }
        (LuaValue::Table(t), Value::List(items)) if depth < MAX_DEPTH && !items.is_empty() => {
            t.raw_len() == items.len()
                && same_entries(t, depth, |k| match k {
                    LuaValue::Integer(i) => {
                        usize::try_from(*i).ok().and_then(|i| i.checked_sub(1)).and_then(|i| items.get(i))
                    }
                    _ => None,
                }) == Some(items.len())
        }
        (LuaValue::Table(t), Value::Map(m)) if depth < MAX_DEPTH => {
            same_entries(t, depth, |k| match k {
                LuaValue::String(s) => std::str::from_utf8(&s.as_bytes()).ok().and_then(|s| m.get(s)),
                _ => None,
            }) == Some(m.len())
        }
        _ => false,
    }
}

/// The number of entries of `t` when each is [`same`] as what `host` gives for its key, else
/// `None`.
fn same_entries<'h>(t: &mlua::Table, depth: usize, host: impl Fn(&LuaValue) -> Option<&'h Value>) -> Option<usize> {
    let mut n = 0usize;
    let mut ok = true;
    let _ = t.for_each::<LuaValue, LuaValue>(|k, v| {
        n += 1;
        if host(&k).is_some_and(|x| same(&v, x, depth + 1)) {
            Ok(())
        } else {
            ok = false;
            Err(mlua::Error::runtime("differs"))
        }
    });
    ok.then_some(n)
}

/// Whether the Lua table `t` holds exactly the public (not `__`) entries of `table`: what the
/// end of a call would write back is already there.
pub(crate) fn same_public(t: &mlua::Table, table: &Table) -> bool {
    let public = table.iter().filter(|(k, _)| !tactica_stdlib::is_private(k)).count();
    same_entries(t, 0, |k| match k {
        LuaValue::String(s) => std::str::from_utf8(&s.as_bytes())
            .ok()
            .filter(|s| !tactica_stdlib::is_private(s))
            .and_then(|s| table.get(s)),
        _ => None,
    }) == Some(public)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_and_tables_split_into_lists_and_maps() {
        let lua = Lua::new();
        let limits = ScriptLimits::new();
        let v: LuaValue = lua.load("return { a = {1, 2.5, 'x'}, b = { c = true } }").eval().unwrap();
        let got = from_lua(&v, &limits, &mut Crossing::new(None)).unwrap();
        assert_eq!(got.to_string(), "{a = [1, 2.5, x], b = {c = true}}");
        let back = to_lua(&lua, &got).unwrap();
        assert_eq!(from_lua(&back, &limits, &mut Crossing::new(None)).unwrap(), got);
    }

    #[test]
    fn an_entity_has_one_handle_while_a_script_holds_it() {
        let lua = crate::sandbox::new_state(&ScriptLimits::new(), &std::rc::Rc::default()).unwrap();
        let mut ids = slotmap::SlotMap::<EntityId, ()>::with_key();
        let (a, b) = (ids.insert(()), ids.insert(()));
        let ha = to_lua(&lua, &Value::Entity(a)).unwrap();
        let again = to_lua(&lua, &Value::Entity(a)).unwrap();
        let hb = to_lua(&lua, &Value::Entity(b)).unwrap();
        let same: mlua::Function = lua.load("return function(x, y) return rawequal(x, y) end").eval().unwrap();
        assert!(same.call::<bool>((ha.clone(), again)).unwrap(), "the same userdata both times");
        assert!(!same.call::<bool>((ha.clone(), hb)).unwrap());
        assert_eq!(from_lua(&ha, &ScriptLimits::new(), &mut Crossing::new(None)).unwrap(), Value::Entity(a));
        // Nobody holds b's handle any more: the weak table lets it go, and a new one is made.
        drop(ha);
        lua.gc_collect().unwrap();
        lua.gc_collect().unwrap();
        let handles = lua.app_data_ref::<Handles>().map(|h| h.0.clone()).unwrap();
        assert_eq!(handles.pairs::<i64, AnyUserData>().count(), 0, "no handle is kept for its own sake");
        assert_eq!(
            from_lua(&to_lua(&lua, &Value::Entity(b)).unwrap(), &ScriptLimits::new(), &mut Crossing::new(None))
                .unwrap(),
            Value::Entity(b)
        );
    }

    #[test]
    fn cycles_functions_and_long_strings_are_refused() {
        let lua = Lua::new();
        let limits = ScriptLimits::new().set_max_string_len(8);
        let cyclic: LuaValue = lua.load("local t = {}; t.self = t; return t").eval().unwrap();
        assert!(from_lua(&cyclic, &limits, &mut Crossing::new(None)).unwrap_err().contains("nested deeper"));
        let f: LuaValue = lua.load("return print").eval().unwrap();
        assert!(from_lua(&f, &limits, &mut Crossing::new(None)).unwrap_err().contains("function"));
        let s: LuaValue = lua.load("return ('x'):rep(9)").eval().unwrap();
        assert!(from_lua(&s, &limits, &mut Crossing::new(None)).unwrap_err().contains("9 bytes"));
        let mixed: LuaValue = lua.load("return {1, a = 2}").eval().unwrap();
        assert!(from_lua(&mixed, &limits, &mut Crossing::new(None)).is_err());
    }
}
