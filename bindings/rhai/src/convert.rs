//! Values across the Rhai boundary: [`Value`] to [`Dynamic`] and back, with entity handles and
//! vectors as custom types that scripts can hold and compare but never build.

use glam::Vec2;
use rhai::{Dynamic, Map};
use tactica_engine::world::EntityId;
use tactica_stdlib::crossing::Crossing;
use tactica_stdlib::{ScriptLimits, Table, Value};

/// How deeply arrays and maps may nest when they cross into the host.
pub(crate) const MAX_DEPTH: usize = 32;

/// An entity handle (`Entity` in Rhai). No constructor is registered: a script only gets one from
/// the host, and a map that looks like one stays a map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RhaiEntity(pub(crate) EntityId);

/// A 2-D vector (`Vec2` in Rhai) with read-only properties `x` and `y`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct RhaiVec2(pub(crate) Vec2);

/// A host value as a Rhai value.
pub(crate) fn to_dynamic(v: &Value) -> Dynamic {
    match v {
        Value::Nil => Dynamic::UNIT,
        Value::Bool(b) => Dynamic::from_bool(*b),
        Value::Int(i) => Dynamic::from_int(*i),
        Value::Float(f) => Dynamic::from_float(*f),
        Value::Str(s) => Dynamic::from(s.clone()),
        Value::Vec2(p) => Dynamic::from(RhaiVec2(*p)),
        Value::Entity(id) => Dynamic::from(RhaiEntity(*id)),
        Value::List(items) => Dynamic::from_array(items.iter().map(to_dynamic).collect()),
        Value::Map(map) => Dynamic::from_map(table_to_map(map)),
    }
}

/// A host table as a Rhai object map.
pub(crate) fn table_to_map(map: &Table) -> Map {
    map.iter().map(|(k, v)| (k.as_str().into(), to_dynamic(v))).collect()
}

/// A Rhai value as a host value: unit, bools, numbers, strings, characters, arrays, maps, handles
/// and vectors cross; function pointers and other types are refused, as are values over the
/// limits and a crossing over its cap (see [`tactica_stdlib::crossing`]). Read in place: nothing
/// is cloned but the parts that become the host value (a handle or a number costs no allocation).
pub(crate) fn from_dynamic(d: &Dynamic, limits: &ScriptLimits, crossing: &mut Crossing) -> Result<Value, String> {
    let mut c = Converter { limits, crossing: *crossing, saw_shared: false };
    let v = c.value(d, 0);
    *crossing = c.crossing;
    v
}

/// One conversion: its limits, its weight so far, and whether it met a shared value (a variable
/// a closure captured).
pub(crate) struct Converter<'a> {
    pub(crate) limits: &'a ScriptLimits,
    pub(crate) crossing: Crossing,
    pub(crate) saw_shared: bool,
}

impl Converter<'_> {
    pub(crate) fn value(&mut self, d: &Dynamic, depth: usize) -> Result<Value, String> {
        let limits = self.limits;
        if d.is_shared() {
            // A captured variable: read it once, as a plain value.
            self.saw_shared = true;
            return self.value(&d.flatten_clone(), depth);
        }
        let text = d.as_immutable_string_ref().map_or(0, |s| s.len());
        self.crossing.add(text)?;
        if let Some(e) = d.read_lock::<RhaiEntity>() {
            return Ok(Value::Entity(e.0));
        }
        if d.is_unit() {
            return Ok(Value::Nil);
        }
        if let Ok(b) = d.as_bool() {
            return Ok(Value::Bool(b));
        }
        if let Ok(i) = d.as_int() {
            return Ok(Value::Int(i));
        }
        if let Ok(f) = d.as_float() {
            return Ok(Value::Float(f));
        }
        if let Ok(c) = d.as_char() {
            return Ok(Value::Str(c.to_string()));
        }
        if let Ok(s) = d.as_immutable_string_ref() {
            if limits.string_limit().is_some_and(|max| s.len() > max) {
                return Err(format!("a string of {} bytes is over the limit of {}", s.len(), limits.max_string_len));
            }
            return Ok(Value::Str(s.as_str().to_owned()));
        }
        if depth >= MAX_DEPTH && (d.is_array() || d.is_map()) {
            return Err(format!("values nested deeper than {MAX_DEPTH} cannot cross into the host"));
        }
        let too_many = |n: usize| limits.collection_limit().is_some_and(|max| n > max);
        if let Ok(items) = d.as_array_ref() {
            if too_many(items.len()) {
                return Err(format!("an array of {} items is over the limit", items.len()));
            }
            return items.iter().map(|x| self.value(x, depth + 1)).collect::<Result<_, _>>().map(Value::List);
        }
        if let Ok(map) = d.as_map_ref() {
            if too_many(map.len()) {
                return Err(format!("a map of {} entries is over the limit", map.len()));
            }
            let mut out = Table::new();
            for (k, v) in map.iter() {
                self.crossing.add_key(k.len())?;
                out.insert(k.to_string(), self.value(v, depth + 1)?);
            }
            return Ok(Value::Map(out));
        }
        if let Some(p) = d.read_lock::<RhaiVec2>() {
            return Ok(Value::Vec2(p.0));
        }
        Err(format!("a value of type {} cannot cross into the host", d.type_name()))
    }
}

/// Whether `d` converts to exactly `v` ([`from_dynamic`]`(d) == v`, floats bit for bit), decided
/// in place without converting. `false` when unsure (a shared value): the caller then converts.
pub(crate) fn same(d: &Dynamic, v: &Value) -> bool {
    if d.is_shared() {
        return false;
    }
    match v {
        Value::Nil => d.is_unit(),
        Value::Bool(b) => d.as_bool() == Ok(*b),
        Value::Int(i) => d.as_int() == Ok(*i),
        Value::Float(f) => d.as_float().is_ok_and(|x| x.to_bits() == f.to_bits()),
        Value::Str(s) => d.as_immutable_string_ref().is_ok_and(|x| x.as_str() == s),
        Value::Vec2(p) => d
            .read_lock::<RhaiVec2>()
            .is_some_and(|x| x.0.to_array().map(f32::to_bits) == p.to_array().map(f32::to_bits)),
        Value::Entity(id) => d.read_lock::<RhaiEntity>().is_some_and(|x| x.0 == *id),
        Value::List(items) => {
            d.as_array_ref().is_ok_and(|a| a.len() == items.len() && a.iter().zip(items).all(|(x, y)| same(x, y)))
        }
        Value::Map(m) => d
            .as_map_ref()
            .is_ok_and(|x| x.len() == m.len() && m.iter().all(|(k, v)| x.get(k.as_str()).is_some_and(|d| same(d, v)))),
    }
}

/// Whether the object map `map` holds exactly the public (not `__`) entries of `table`.
pub(crate) fn same_public(map: &Map, table: &Table) -> bool {
    let mut n = 0;
    for (k, v) in table.iter().filter(|(k, _)| !tactica_stdlib::is_private(k)) {
        n += 1;
        if !map.get(k.as_str()).is_some_and(|d| same(d, v)) {
            return false;
        }
    }
    n == map.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip() {
        let limits = ScriptLimits::new();
        let engine = rhai::Engine::new_raw();
        let d: Dynamic = engine.eval("#{ a: [1, 2.5, \"x\"], b: #{ c: true }, d: () }").unwrap();
        let v = from_dynamic(&d, &limits, &mut Crossing::new(None)).unwrap();
        assert_eq!(v.to_string(), "{a = [1, 2.5, x], b = {c = true}, d = nil}");
        assert_eq!(from_dynamic(&to_dynamic(&v), &limits, &mut Crossing::new(None)).unwrap(), v);
    }

    #[test]
    fn long_strings_and_foreign_types_are_refused() {
        let limits = ScriptLimits::new().set_max_string_len(4);
        assert!(
            from_dynamic(&Dynamic::from("hello".to_string()), &limits, &mut Crossing::new(None))
                .unwrap_err()
                .contains("5 bytes")
        );
        assert!(from_dynamic(&Dynamic::from(std::time::Duration::ZERO), &limits, &mut Crossing::new(None)).is_err());
    }
}
