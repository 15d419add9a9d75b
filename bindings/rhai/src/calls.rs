//! Calling a handler of one compiled file, with Rhai's function-resolution cache kept from call
//! to call.
//!
//! Rhai's `call_fn_with_options` starts every call with an empty cache, so each host function a
//! handler calls was searched for through every module on every call: for a one-line `on_think`
//! that search was a sixth of the call. Rhai here is `tactica-rhai-fork` (`vendor/rhai`), which
//! adds `Engine::call_fn_with_caches`; `docs/upstream/rhai.md` is the change as we would send it
//! upstream.
//!
//! A cache holds what names resolved to in one `AST` under one engine's functions, so a
//! recompiled file starts a fresh one; the engine's functions are fixed when it is built.

use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, Scope};

/// The calls into one `AST`.
#[derive(Default)]
pub(crate) struct Calls {
    caches: rhai::Caches,
}

impl Calls {
    /// Calls the script function `name` with `args`, as `call_fn_with_options` does.
    pub(crate) fn call(
        &mut self,
        engine: &Engine,
        options: CallFnOptions,
        scope: &mut Scope,
        ast: &AST,
        name: &str,
        args: Vec<Dynamic>,
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        engine.call_fn_with_caches(options, &mut self.caches, scope, ast, name, args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> Engine {
        let mut engine = Engine::new_raw();
        engine.register_fn("twice", |x: rhai::INT| x * 2);
        engine.register_fn("twice", |x: rhai::FLOAT| x * 2.0);
        engine
    }

    /// `f` of `ast` with `v`, as the backend calls a handler.
    fn call(calls: &mut Calls, engine: &Engine, ast: &AST, v: Dynamic) -> Result<Dynamic, Box<EvalAltResult>> {
        let options = CallFnOptions::new().eval_ast(false).rewind_scope(false);
        calls.call(engine, options, &mut Scope::new(), ast, "f", vec![v])
    }

    /// A kept cache gives what a fresh one does, whatever types a call brings: the cached
    /// resolution of `twice(int)` is not used for `twice(float)`.
    #[test]
    fn a_kept_cache_resolves_as_a_fresh_one() {
        let engine = engine();
        let ast = engine.compile("fn f(v) { twice(v) + helper() } fn helper() { 1 }").unwrap();
        let mut calls = Calls::default();
        for _ in 0..3 {
            assert_eq!(call(&mut calls, &engine, &ast, Dynamic::from_int(4)).unwrap().as_int(), Ok(9));
            assert_eq!(call(&mut calls, &engine, &ast, Dynamic::from_float(0.5)).unwrap().as_float(), Ok(2.0));
        }
    }

    /// The cache lives across calls: after the first calls every function `f` calls is in it
    /// (Rhai caches a function from its second use on), and it stays one cache, not a stack.
    #[test]
    fn the_cache_is_kept_between_calls() {
        let engine = engine();
        let ast = engine.compile("fn f(v) { twice(v) + helper() } fn helper() { 1 }").unwrap();
        let mut calls = Calls::default();
        for _ in 0..2 {
            assert_eq!(call(&mut calls, &engine, &ast, Dynamic::from_int(4)).unwrap().as_int(), Ok(9));
        }
        assert_eq!(calls.caches.fn_resolution_caches_len(), 1);
        let cached = calls.caches.fn_resolution_cache_mut().dict.values().filter(|e| e.is_some()).count();
        assert_eq!(cached, 2, "twice(int) and helper()");
        // A call that fails leaves the one cache in place.
        assert!(call(&mut calls, &engine, &ast, Dynamic::from("x")).is_err());
        assert_eq!(calls.caches.fn_resolution_caches_len(), 1);
    }
}
