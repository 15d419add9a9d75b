//! Host functions with Rust signatures: a game registers `|ctx, (item, count): (String, i64)|
//! -> Result<i64, ShopError>` and the table gets its parameter and return types from the
//! signature, every call converts the script's values to the Rust arguments (a value of the wrong
//! type is a script error naming the argument), the result back to a [`Value`], and an error of
//! the game's own type reaches the script as a script error with the error's message.
//!
//! [`FromValue`] and [`IntoValue`] are what `mlua`'s `FromLua`/`IntoLua` are to Lua values, over
//! the one [`Value`] every language shares, so one closure serves `.tac`, Lua and Rhai. A game
//! implements them for its own types (an item kind read from a string) the same way.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;

use glam::Vec2;
use tactica_engine::Value;
use tactica_engine::world::EntityId;

use crate::api::{Api, HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

/// A Rust type a host function takes as an argument.
pub trait FromValue: Sized {
    /// The type the API table gives a parameter of this Rust type (what `check` and the docs see).
    fn ty() -> Type;

    /// The script's value as this type; `Err` says what was expected ("a whole number").
    fn from_value(value: &Value) -> Result<Self, String>;
}

/// A Rust type a host function returns.
pub trait IntoValue {
    /// The type the API table gives a result of this Rust type.
    fn ty() -> Type;

    /// The value the script gets.
    fn into_value(self) -> Value;
}

/// The arguments of a host function with a Rust signature: one [`FromValue`] type, a tuple of
/// them, or `()` for none.
pub trait FromArgs: Sized {
    /// The parameters' types, in order.
    fn types() -> Vec<Type>;

    /// The script's arguments as Rust values; a wrong one is [`HostError::BadArgument`] with
    /// its 1-based position.
    fn from_args(function: &'static str, args: &[Value]) -> Result<Self, HostError>;
}

/// One argument, converted; a missing one reads as nil (the bindings pick an overload by arity,
/// so only a direct call can pass too few).
fn arg<T: FromValue>(function: &'static str, args: &[Value], i: usize) -> Result<T, HostError> {
    let value = args.get(i).unwrap_or(&Value::Nil);
    T::from_value(value).map_err(|expected| HostError::BadArgument {
        function,
        index: i + 1,
        expected,
        got: match value {
            Value::Nil if args.get(i).is_none() => "nothing".to_owned(),
            other => other.value_type().to_string(),
        },
    })
}

impl FromArgs for () {
    fn types() -> Vec<Type> {
        Vec::new()
    }

    fn from_args(_function: &'static str, _args: &[Value]) -> Result<Self, HostError> {
        Ok(())
    }
}

impl<T: FromValue> FromArgs for T {
    fn types() -> Vec<Type> {
        vec![T::ty()]
    }

    fn from_args(function: &'static str, args: &[Value]) -> Result<Self, HostError> {
        arg(function, args, 0)
    }
}

macro_rules! tuple_args {
    ($(($($t:ident $i:tt),+))*) => {$(
        impl<$($t: FromValue),+> FromArgs for ($($t,)+) {
            fn types() -> Vec<Type> {
                vec![$($t::ty()),+]
            }

            fn from_args(function: &'static str, args: &[Value]) -> Result<Self, HostError> {
                Ok(($(arg::<$t>(function, args, $i)?,)+))
            }
        }
    )*};
}

tuple_args! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6)
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
}

/// The error a closure returned, as the script sees it: a [`HostError`] stays what it is (a
/// closure may refuse an argument as the standard functions do); any other error is the game's
/// own, and its message is the script error's.
fn host_error<E: fmt::Display + 'static>(function: &'static str, e: E) -> HostError {
    match (&e as &dyn Any).downcast_ref::<HostError>() {
        Some(h) => h.clone(),
        None => HostError::Game { function, message: e.to_string() },
    }
}

impl Api {
    /// Registers a game's own function with a Rust signature: the closure takes the call's
    /// context and its arguments as Rust values (one [`FromValue`] type, a tuple of them, or
    /// `()`), and returns a `Result` of a Rust value ([`IntoValue`]) or an error of the game's
    /// own (anything that is `Display`). The table's parameter and return types come from the
    /// signature; `params` names the parameters for the docs (`arg1`, `arg2` … for names not
    /// given). The function is then called from `.tac`, Lua and Rhai alike, and checked by
    /// `tactica check` given the same `Api`.
    ///
    /// A script that passes a value of the wrong type gets a script error naming the argument;
    /// an `Err` the closure returns stops the script for that tick with the error's message (a
    /// `script_error` event), as any failing host call does.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use tactica_stdlib::{Api, HostError, ScriptCtx, Type};
    ///
    /// #[derive(Debug, thiserror::Error)]
    /// enum ShopError {
    ///     #[error("{need} gold needed, {have} carried")]
    ///     TooPoor { need: i64, have: i64 },
    /// }
    ///
    /// let purse = Arc::new(Mutex::new(20_i64));
    /// let mut api = Api::standard();
    /// let gold = Arc::clone(&purse);
    /// api.add_fn(
    ///     "Buy",
    ///     &["item", "price"],
    ///     "Buys an item for the player (`Buy(\"rope\", 5)`); returns the gold left.",
    ///     move |_ctx: &mut ScriptCtx<'_>, (_item, price): (String, i64)| -> Result<i64, ShopError> {
    ///         let mut have = gold.lock().unwrap();
    ///         if *have < price {
    ///             return Err(ShopError::TooPoor { need: price, have: *have });
    ///         }
    ///         *have -= price;
    ///         Ok(*have)
    ///     },
    /// );
    /// let buy = api.functions("buy").next().unwrap();
    /// assert_eq!(buy.signature(), "Buy(item: string, price: int)");
    /// assert_eq!(buy.ret, Type::Int);
    /// ```
    pub fn add_fn<A, R, E, F>(&mut self, name: &'static str, params: &[&'static str], doc: &'static str, f: F)
    where
        A: FromArgs,
        R: IntoValue,
        E: fmt::Display + 'static,
        F: Fn(&mut ScriptCtx<'_>, A) -> Result<R, E> + Send + Sync + 'static,
    {
        let params = A::types()
            .into_iter()
            .enumerate()
            .map(|(i, ty)| Param { name: params.get(i).copied().unwrap_or(ARG_NAMES[i.min(ARG_NAMES.len() - 1)]), ty })
            .collect();
        let call = move |ctx: &mut ScriptCtx<'_>, args: &[Value]| -> Result<Value, HostError> {
            let args = A::from_args(name, args)?;
            f(ctx, args).map(IntoValue::into_value).map_err(|e| host_error(name, e))
        };
        self.add_function(HostFn {
            name,
            params,
            ret: R::ty(),
            doc,
            imp: HostImpl::Closure(std::sync::Arc::new(call)),
        });
    }
}

/// The names of parameters a registration did not name.
const ARG_NAMES: &[&str] = &["arg1", "arg2", "arg3", "arg4", "arg5", "arg6", "arg7", "arg8"];

// --- FromValue -----------------------------------------------------------------------------

impl FromValue for Value {
    fn ty() -> Type {
        Type::Any
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        Ok(value.clone())
    }
}

impl FromValue for bool {
    fn ty() -> Type {
        Type::Bool
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Bool(b) => Ok(*b),
            _ => Err("true or false".to_owned()),
        }
    }
}

impl FromValue for i64 {
    fn ty() -> Type {
        Type::Int
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        value.as_i64().ok_or_else(|| "a whole number".to_owned())
    }
}

macro_rules! narrow_ints {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn ty() -> Type {
                Type::Int
            }

            fn from_value(value: &Value) -> Result<Self, String> {
                value
                    .as_i64()
                    .and_then(|n| <$t>::try_from(n).ok())
                    .ok_or_else(|| format!("a whole number from {} to {}", <$t>::MIN, <$t>::MAX))
            }
        }
    )*};
}

narrow_ints!(i8, i16, i32, u8, u16, u32, u64, usize);

impl FromValue for f64 {
    fn ty() -> Type {
        Type::Number
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        value.as_f64().ok_or_else(|| "a number".to_owned())
    }
}

impl FromValue for f32 {
    fn ty() -> Type {
        Type::Number
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        #[allow(clippy::cast_possible_truncation, reason = "a script's number, read as the f32 asked for")]
        value.as_f64().filter(|v| v.is_finite()).map(|v| v as f32).ok_or_else(|| "a finite number".to_owned())
    }
}

impl FromValue for String {
    fn ty() -> Type {
        Type::Str
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        value.as_str().map(str::to_owned).ok_or_else(|| "a string".to_owned())
    }
}

impl FromValue for EntityId {
    fn ty() -> Type {
        Type::Any
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Entity(id) => Ok(*id),
            _ => Err("an entity handle".to_owned()),
        }
    }
}

impl FromValue for Vec2 {
    fn ty() -> Type {
        Type::Any
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Vec2(v) => Ok(*v),
            _ => Err("a vector".to_owned()),
        }
    }
}

/// Nil is `None`; anything else is read as `T`.
impl<T: FromValue> FromValue for Option<T> {
    fn ty() -> Type {
        T::ty()
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Nil => Ok(None),
            other => T::from_value(other).map(Some).map_err(|e| format!("{e} or nil")),
        }
    }
}

impl<T: FromValue> FromValue for Vec<T> {
    fn ty() -> Type {
        Type::Any
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::List(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| T::from_value(v).map_err(|e| format!("a list of {e} (item {} is not)", i + 1)))
                .collect(),
            _ => Err("a list".to_owned()),
        }
    }
}

impl<T: FromValue> FromValue for BTreeMap<String, T> {
    fn ty() -> Type {
        Type::Any
    }

    fn from_value(value: &Value) -> Result<Self, String> {
        match value {
            Value::Map(map) => map
                .iter()
                .map(|(k, v)| {
                    T::from_value(v).map(|v| (k.clone(), v)).map_err(|e| format!("a map of {e} (`{k}` is not)"))
                })
                .collect(),
            _ => Err("a map".to_owned()),
        }
    }
}

// --- IntoValue -----------------------------------------------------------------------------

impl IntoValue for () {
    fn ty() -> Type {
        Type::Nil
    }

    fn into_value(self) -> Value {
        Value::Nil
    }
}

impl IntoValue for Value {
    fn ty() -> Type {
        Type::Any
    }

    fn into_value(self) -> Value {
        self
    }
}

macro_rules! into_values {
    ($($t:ty => $ty:ident),*) => {$(
        impl IntoValue for $t {
            fn ty() -> Type {
                Type::$ty
            }

            fn into_value(self) -> Value {
                Value::from(self)
            }
        }
    )*};
}

into_values!(bool => Bool, i64 => Int, i32 => Int, u32 => Int, f64 => Number, f32 => Number, String => Str);

macro_rules! small_ints {
    ($($t:ty),*) => {$(
        impl IntoValue for $t {
            fn ty() -> Type {
                Type::Int
            }

            fn into_value(self) -> Value {
                Value::Int(i64::from(self))
            }
        }
    )*};
}

small_ints!(i8, i16, u8, u16);

/// Counts past `i64::MAX` (no game has them) read as `i64::MAX`.
macro_rules! wide_ints {
    ($($t:ty),*) => {$(
        impl IntoValue for $t {
            fn ty() -> Type {
                Type::Int
            }

            fn into_value(self) -> Value {
                Value::Int(i64::try_from(self).unwrap_or(i64::MAX))
            }
        }
    )*};
}

wide_ints!(u64, usize);

impl IntoValue for &str {
    fn ty() -> Type {
        Type::Str
    }

    fn into_value(self) -> Value {
        Value::from(self)
    }
}

impl IntoValue for EntityId {
    fn ty() -> Type {
        Type::Any
    }

    fn into_value(self) -> Value {
        Value::Entity(self)
    }
}

impl IntoValue for Vec2 {
    fn ty() -> Type {
        Type::Any
    }

    fn into_value(self) -> Value {
        Value::Vec2(self)
    }
}

/// `None` is nil.
impl<T: IntoValue> IntoValue for Option<T> {
    fn ty() -> Type {
        T::ty()
    }

    fn into_value(self) -> Value {
        self.map_or(Value::Nil, IntoValue::into_value)
    }
}

impl<T: IntoValue> IntoValue for Vec<T> {
    fn ty() -> Type {
        Type::Any
    }

    fn into_value(self) -> Value {
        Value::List(self.into_iter().map(IntoValue::into_value).collect())
    }
}

impl<T: IntoValue> IntoValue for BTreeMap<String, T> {
    fn ty() -> Type {
        Type::Any
    }

    fn into_value(self) -> Value {
        Value::Map(self.into_iter().map(|(k, v)| (k, v.into_value())).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactica_engine::grid::Map;
    use tactica_engine::world::{CommandBuffer, Entity, World};

    /// Calls `name` in `api` with `args` for a character of a small world.
    fn call(api: &Api, name: &str, args: &[Value]) -> Result<Value, HostError> {
        let mut world = World::new(Map::open(4, 4), 10, 1);
        let me = world.spawn(Entity::new("shopper", "human", glam::IVec2::new(1, 1))).unwrap();
        let mut commands = CommandBuffer::default();
        let mut state = tactica_engine::Table::new();
        world.lend(|world, rng| {
            let mut ctx = ScriptCtx::new(world, me, &mut commands, rng, &mut state);
            let f = api.functions(name).find(|f| f.params.len() == args.len()).expect("an overload of that arity");
            f.call(&mut ctx, args)
        })
    }

    #[derive(Debug, thiserror::Error)]
    #[error("{need} gold needed, {have} carried")]
    struct TooPoor {
        need: i64,
        have: i64,
    }

    fn shop() -> Api {
        let mut api = Api::raw();
        api.add_fn(
            "Buy",
            &["item", "price"],
            "Buys.",
            |_ctx: &mut ScriptCtx<'_>, (item, price): (String, i64)| -> Result<String, TooPoor> {
                if price > 10 { Err(TooPoor { need: price, have: 10 }) } else { Ok(format!("{item} for {price}")) }
            },
        );
        api.add_fn("Gold", &[], "Gold carried.", |_ctx: &mut ScriptCtx<'_>, ()| Ok::<_, HostError>(10_u32));
        api.add_fn("Name", &[], "The caller's name.", |ctx: &mut ScriptCtx<'_>, ()| {
            ctx.me().map(|e| e.name.clone()).ok_or(HostError::NoSelf)
        });
        api.add_fn("Half", &["n"], "Half of n, nil for odd.", |_ctx: &mut ScriptCtx<'_>, n: Option<u8>| {
            Ok::<_, String>(n.filter(|n| n % 2 == 0).map(|n| n / 2))
        });
        api.add_fn("Sum", &["numbers"], "The sum.", |_ctx: &mut ScriptCtx<'_>, xs: Vec<f64>| -> Result<f64, String> {
            Ok(xs.iter().sum())
        });
        api.add_fn("Refuse", &[], "Refuses as the standard functions do.", |_ctx: &mut ScriptCtx<'_>, ()| {
            Err::<(), _>(HostError::OutOfRange { name: "gold".into(), min: 0, max: 9, value: 12 })
        });
        api
    }

    #[test]
    fn the_signature_gives_the_table_its_types() {
        let api = shop();
        let buy = api.functions("Buy").next().unwrap();
        assert_eq!(buy.signature(), "Buy(item: string, price: int)");
        assert_eq!(buy.ret, Type::Str);
        assert_eq!(api.functions("Gold").next().unwrap().ret, Type::Int);
        assert_eq!(api.functions("Half").next().unwrap().signature(), "Half(n: int)");
        assert_eq!(api.functions("Sum").next().unwrap().signature(), "Sum(numbers: any)");
        assert_eq!(api.functions("Refuse").next().unwrap().ret, Type::Nil);
    }

    #[test]
    fn arguments_and_results_are_converted() {
        let api = shop();
        assert_eq!(call(&api, "Buy", &["rope".into(), Value::Int(5)]), Ok(Value::from("rope for 5")));
        // A float with no fraction is a whole number (Lua's 5.0, Rhai's 5.0).
        assert_eq!(call(&api, "Buy", &["rope".into(), Value::Float(5.0)]), Ok(Value::from("rope for 5")));
        assert_eq!(call(&api, "Gold", &[]), Ok(Value::Int(10)));
        assert_eq!(call(&api, "Name", &[]), Ok(Value::from("shopper")));
        assert_eq!(call(&api, "Half", &[Value::Int(8)]), Ok(Value::Int(4)));
        assert_eq!(call(&api, "Half", &[Value::Int(7)]), Ok(Value::Nil));
        assert_eq!(call(&api, "Half", &[Value::Nil]), Ok(Value::Nil));
        let xs = Value::List(vec![Value::Int(1), Value::Float(2.5)]);
        assert_eq!(call(&api, "Sum", &[xs]), Ok(Value::Float(3.5)));
    }

    #[test]
    fn a_wrong_argument_names_its_place() {
        let api = shop();
        assert_eq!(
            call(&api, "Buy", &[Value::Int(3), Value::Int(5)]).unwrap_err().to_string(),
            "`Buy` argument 1: expected a string, got int"
        );
        assert_eq!(
            call(&api, "Buy", &["rope".into(), Value::Float(2.5)]).unwrap_err().to_string(),
            "`Buy` argument 2: expected a whole number, got float"
        );
        assert_eq!(
            call(&api, "Half", &[Value::Int(300)]).unwrap_err().to_string(),
            "`Half` argument 1: expected a whole number from 0 to 255 or nil, got int"
        );
        assert_eq!(
            call(&api, "Sum", &[Value::List(vec![Value::Int(1), "x".into()])]).unwrap_err().to_string(),
            "`Sum` argument 1: expected a list of a number (item 2 is not), got list"
        );
    }

    #[test]
    fn the_games_error_is_the_scripts_error() {
        let api = shop();
        let e = call(&api, "Buy", &["lantern".into(), Value::Int(30)]).unwrap_err();
        assert_eq!(e, HostError::Game { function: "Buy", message: "30 gold needed, 10 carried".into() });
        assert_eq!(e.to_string(), "`Buy`: 30 gold needed, 10 carried");
        // A host error returned by the closure stays what it is.
        assert!(matches!(call(&api, "Refuse", &[]), Err(HostError::OutOfRange { value: 12, .. })));
    }
}
