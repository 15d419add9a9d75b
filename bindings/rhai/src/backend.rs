//! [`RhaiBackend`]: one sandboxed engine with the stdlib table registered by one generic adapter,
//! one compiled AST per script file, handlers per trigger, and `sequence` run once at spawn with
//! every action queued in order.

use std::any::TypeId;
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rhai::packages::{
    BasicArrayPackage, BasicMapPackage, BasicMathPackage, BitFieldPackage, CorePackage, LogicPackage,
    MoreStringPackage, Package,
};
use rhai::{AST, CallFnOptions, Dynamic, Engine, EvalAltResult, NativeCallContext, Position, Scope};
use tactica_engine::world::EntityId;
use tactica_stdlib::backend::{ProgramId, ScriptBackend, ScriptCall, ScriptError, Trigger};
use tactica_stdlib::{ActionMode, Api, ScriptCtx, ScriptLimits, Type, Value, is_private, snake_case};

use crate::calls::Calls;
use crate::convert::{Converter, RhaiEntity, RhaiVec2, from_dynamic, same_public, to_dynamic};
use tactica_stdlib::crossing::Crossing;
use tactica_stdlib::instances::Instances;
use tactica_stdlib::lend::{lend, with_lent};

/// The function a script may define to run once when its entity spawns, every action it issues
/// queued after the previous one (Lua runs the same function as a coroutine).
pub const SEQUENCE: &str = "sequence";

/// Rhai as a Tactica script language.
pub struct RhaiBackend {
    /// Shared by every lane's copy of the backend (`fork`): built once, read only while running
    /// (rhai's `sync` feature makes it `Send + Sync`).
    engine: Arc<Engine>,
    limits: ScriptLimits,
    programs: Vec<Program>,
}

struct Program {
    file: PathBuf,
    ast: AST,
    /// The line each script function starts on: Rhai reports errors raised deep inside a
    /// function (too many operations, stack overflow, data too large) without a place, and these
    /// name the handler that was running.
    fn_lines: Vec<(String, u32)>,
    /// The handlers the file defines, with their arities, found once per compile (not by walking
    /// the AST's functions on every call).
    handlers: Vec<(&'static str, usize)>,
    /// Per instance (its entity; `None` for a world script): the state map `this` as the last
    /// call left it. It is used again while the host's table still holds the same public entries
    /// (compared in place, nothing converted), so a call whose state did not change converts
    /// nothing either way.
    states: Instances<Dynamic>,
    /// Rhai's function-resolution cache for this `AST`, kept from call to call so a handler's
    /// host calls are looked up once, not on every call (started afresh with a new `AST`).
    calls: Calls,
}

/// The names a call may run: the handlers of every trigger and `sequence`.
const HANDLER_NAMES: [&str; 7] = ["on_spawn", "on_think", "on_encounter", "on_hear", "on_tick", "on_reload", SEQUENCE];

impl Program {
    fn new(file: &Path, ast: AST, source: &str) -> Self {
        let mut p = Program {
            file: file.to_path_buf(),
            ast,
            fn_lines: fn_lines(source),
            handlers: Vec::new(),
            states: Instances::default(),
            calls: Calls::default(),
        };
        p.index_handlers();
        p
    }

    /// Takes a recompiled `AST`: what was found in or cached for the old one goes.
    fn replace(&mut self, ast: AST, source: &str) {
        self.ast = ast;
        self.fn_lines = fn_lines(source);
        self.calls = Calls::default();
        self.index_handlers();
    }

    fn index_handlers(&mut self) {
        self.handlers = self
            .ast
            .iter_functions()
            .filter_map(|f| HANDLER_NAMES.iter().find(|&&n| n == f.name).map(|&n| (n, f.params.len())))
            .collect();
    }
}

/// The line of every `fn NAME(` in `source`.
fn fn_lines(source: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let t = line.trim_start();
        let t = t.strip_prefix("private ").unwrap_or(t);
        if let Some(rest) = t.strip_prefix("fn ") {
            let name: String = rest.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            out.push((name, u32::try_from(i + 1).unwrap_or(u32::MAX)));
        }
    }
    out
}

impl RhaiBackend {
    /// A backend binding `api` under `limits`.
    pub fn new(api: Api, limits: ScriptLimits) -> Self {
        let engine = sandboxed_engine(Arc::new(api), &limits);
        RhaiBackend { engine: Arc::new(engine), limits, programs: Vec::new() }
    }

    /// A backend with the standard table and the default limits.
    pub fn standard() -> Self {
        RhaiBackend::new(Api::standard(), ScriptLimits::new())
    }

    /// The limits every call runs under.
    pub fn limits(&self) -> ScriptLimits {
        self.limits
    }

    /// Every function a script can call — the engine's own (its packages, with the versions this
    /// crate puts in their place) and the API's — as Rhai writes them (`name(type, …) -> type`):
    /// for tools and tests that go through all of them.
    pub fn function_signatures(&self) -> Vec<String> {
        self.engine.gen_fn_signatures(true)
    }

    fn load(&self, file: &Path, source: &str) -> Result<AST, Vec<ScriptError>> {
        let mut ast = self.engine.compile(source).map_err(|e| {
            let pos = e.position();
            vec![ScriptError::new(file, line_of(pos), column_of(pos), e.err_type().to_string())]
        })?;
        ast.set_source(file.display().to_string());
        Ok(ast)
    }
}

/// An engine with no file, module, system, time or `eval` access, the limits applied, and the
/// whole stdlib table registered.
pub(crate) fn sandboxed_engine(api: Arc<Api>, limits: &ScriptLimits) -> Engine {
    let mut engine = Engine::new_raw();
    // The standard package minus time (wall-clock time would break determinism) and blobs, as
    // one module: every call to a host function first looks for a script function of that name
    // in each global module and misses, so seven modules cost seven look-ups per call where one
    // costs one. Combined in registration order, a later package still wins a clash, as it does
    // between registered modules.
    let mut standard = rhai::Module::new();
    for package in [
        CorePackage::new().as_shared_module(),
        LogicPackage::new().as_shared_module(),
        BitFieldPackage::new().as_shared_module(),
        BasicMathPackage::new().as_shared_module(),
        BasicArrayPackage::new().as_shared_module(),
        BasicMapPackage::new().as_shared_module(),
        MoreStringPackage::new().as_shared_module(),
    ] {
        standard.combine_flatten(rhai::Module::clone(&package));
    }
    standard.build_index();
    engine.register_global_module(standard.into());
    engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    engine.disable_symbol("eval");
    apply_limits(&mut engine, limits);
    engine.register_type_with_name::<RhaiEntity>("Entity");
    engine.register_fn("==", |a: RhaiEntity, b: RhaiEntity| a == b);
    engine.register_fn("!=", |a: RhaiEntity, b: RhaiEntity| a != b);
    engine.register_fn("to_string", |e: &mut RhaiEntity| format!("entity {:?}", e.0));
    engine.register_fn("to_debug", |e: &mut RhaiEntity| format!("entity {:?}", e.0));
    engine.register_type_with_name::<RhaiVec2>("Vec2");
    engine.register_get("x", |v: &mut RhaiVec2| f64::from(v.0.x));
    engine.register_get("y", |v: &mut RhaiVec2| f64::from(v.0.y));
    engine.register_fn("to_string", |v: &mut RhaiVec2| format!("({}, {})", v.0.x, v.0.y));
    register_api(&mut engine, &api, limits);
    crate::print::register(&mut engine);
    engine
}

/// The one limits struct, in Rhai's terms: operations, call levels, and size caps standing in for
/// a memory limit (Rhai has no allocator hook; every string, array and map is capped instead).
fn apply_limits(engine: &mut Engine, limits: &ScriptLimits) {
    engine.set_max_operations(limits.max_ops);
    // Rhai reads 0 call levels as "no calls at all"; ours means unlimited.
    engine.set_max_call_levels(limits.call_depth_limit().unwrap_or(usize::MAX));
    let string = match (limits.string_limit(), limits.memory_limit()) {
        (Some(s), Some(m)) => s.min(m),
        (s, m) => s.or(m).unwrap_or(0),
    };
    engine.set_max_string_size(string);
    let items = match (limits.collection_limit(), limits.memory_limit()) {
        // An element costs at least 16 bytes (a `Dynamic`).
        (Some(c), Some(m)) => c.min(m / 16),
        (c, m) => c.or(m.map(|m| m / 16)).unwrap_or(0),
    };
    engine.set_max_array_size(items);
    engine.set_max_map_size(items);
    engine.set_max_expr_depths(64, 64);
    crate::work::install(engine, limits, string);
}

/// Registers every overload of the table, under its canonical name and its snake_case alias, as
/// a raw function of `Dynamic` parameters over the one adapter [`host_call`].
fn register_api(engine: &mut Engine, api: &Arc<Api>, limits: &ScriptLimits) {
    for (index, f) in api.all_functions().iter().enumerate() {
        let alias = snake_case(f.name);
        for types in signatures(&f.params) {
            for name in [f.name.to_owned(), alias.clone()] {
                let api = Arc::clone(api);
                let limits = *limits;
                engine.register_raw_fn(name, &types, move |nc: NativeCallContext, args: &mut [&mut Dynamic]| {
                    host_call(&api, &limits, index, &nc, args)
                });
            }
        }
    }
}

/// The argument types a host function is registered under, all with the one adapter: any values
/// (`Dynamic`, which takes every call), and the declared types as Rhai's (a number as an integer
/// or a float, a handle for "any"). Rhai looks a call up first by its arguments' own types and
/// only then tries `Dynamic` in each place, one look-up after another (four for two arguments);
/// a call with the declared types now resolves at its first.
fn signatures(params: &[tactica_stdlib::Param]) -> Vec<Vec<TypeId>> {
    let choices = |ty: &Type| -> Vec<TypeId> {
        match ty {
            Type::Bool => vec![TypeId::of::<bool>()],
            Type::Int => vec![TypeId::of::<rhai::INT>()],
            Type::Number => vec![TypeId::of::<rhai::INT>(), TypeId::of::<rhai::FLOAT>()],
            Type::Str | Type::Symbol(_) => vec![TypeId::of::<rhai::ImmutableString>()],
            Type::Any => vec![TypeId::of::<RhaiEntity>()],
            Type::Nil => vec![],
        }
    };
    let mut typed: Vec<Vec<TypeId>> = vec![Vec::new()];
    for p in params {
        typed = typed
            .iter()
            .flat_map(|prefix| choices(&p.ty).into_iter().map(move |t| [prefix.clone(), vec![t]].concat()))
            .collect();
    }
    let dynamic = vec![TypeId::of::<Dynamic>(); params.len()];
    // No more than four typed forms (two numbers); an empty list when a parameter has no form.
    typed.truncate(4);
    typed.retain(|t| t.len() == params.len() && *t != dynamic);
    std::iter::once(dynamic).chain(typed).collect()
}

/// The adapter from Rhai to the stdlib table.
fn host_call(
    api: &Api,
    limits: &ScriptLimits,
    index: usize,
    nc: &NativeCallContext,
    args: &mut [&mut Dynamic],
) -> Result<Dynamic, Box<EvalAltResult>> {
    let pos = nc.call_position();
    let fail = |m: String| Box::new(EvalAltResult::ErrorRuntime(m.into(), pos));
    let f = api.function(index).ok_or_else(|| fail("no such host function".to_owned()))?;
    let mut crossing = Crossing::argument(limits);
    let mut arg = |i: usize| {
        from_dynamic(args[i], limits, &mut crossing).map_err(|e| fail(format!("`{}` argument {}: {e}", f.name, i + 1)))
    };
    let run = |values: &[Value]| {
        with_lent(|ctx| f.call(ctx, values))
            .ok_or_else(|| fail(format!("`{}` can only be called from a handler (on_think …)", f.name)))?
            .map_err(|e| fail(e.to_string()))
    };
    // Up to three arguments are converted onto the stack, not into a `Vec`.
    let out = match args.len() {
        0 => run(&[])?,
        1 => run(&[arg(0)?])?,
        2 => {
            let a = arg(0)?;
            run(&[a, arg(1)?])?
        }
        3 => {
            let (a, b) = (arg(0)?, arg(1)?);
            run(&[a, b, arg(2)?])?
        }
        n => run(&(0..n).map(&mut arg).collect::<Result<Vec<Value>, _>>()?)?,
    };
    // What crossed was copied: one operation per 16 bytes.
    rhai::tactica::charge_bytes(crossing.weight());
    Ok(to_dynamic(&out))
}

fn line_of(pos: Position) -> u32 {
    pos.line().and_then(|l| u32::try_from(l).ok()).unwrap_or(0)
}

fn column_of(pos: Position) -> u32 {
    pos.position().and_then(|c| u32::try_from(c).ok()).unwrap_or(0)
}

/// A run-time error as a [`ScriptError`]: the innermost error of a chain of script function calls
/// gives the message and the place.
fn run_error(file: &Path, err: &EvalAltResult) -> ScriptError {
    let mut inner = err;
    let mut outer_pos = err.position();
    while let EvalAltResult::ErrorInFunctionCall(_, _, cause, pos) = inner {
        if !pos.is_none() {
            outer_pos = *pos;
        }
        inner = cause;
    }
    let pos = if inner.position().is_none() { outer_pos } else { inner.position() };
    // A limit of ours (`on_progress`) ends the script with its reason as the token.
    let text = match inner {
        EvalAltResult::ErrorTerminated(token, _) => token.clone().into_string().unwrap_or_else(|_| inner.to_string()),
        // A thrown array or map is not printed whole: its text has no bound (and each level of
        // nesting would be a frame of Rhai's formatter).
        EvalAltResult::ErrorRuntime(value, _) if value.is_array() || value.is_map() => {
            let len = value.as_array_ref().map(|a| a.len()).or_else(|_| value.as_map_ref().map(|m| m.len()));
            format!("Runtime error: {} of {} entries", value.type_name(), len.unwrap_or(0))
        }
        _ => inner.to_string(),
    };
    // Rhai appends the place as " (line L, position C)"; the error carries it separately.
    let message = text.rfind(" (line ").map_or(text.as_str(), |at| &text[..at]);
    ScriptError::new(file, line_of(pos), column_of(pos), message)
}

impl ScriptBackend for RhaiBackend {
    fn fork(&self) -> Option<Box<dyn ScriptBackend>> {
        Some(Box::new(RhaiBackend { engine: Arc::clone(&self.engine), limits: self.limits, programs: Vec::new() }))
    }

    fn extensions(&self) -> &[&'static str] {
        &["rhai"]
    }

    fn compile(&mut self, file: &Path, source: &str) -> Result<ProgramId, Vec<ScriptError>> {
        let ast = self.load(file, source)?;
        self.programs.push(Program::new(file, ast, source));
        Ok(ProgramId(u32::try_from(self.programs.len() - 1).unwrap_or(u32::MAX)))
    }

    fn recompile(&mut self, program: ProgramId, file: &Path, source: &str) -> Result<(), Vec<ScriptError>> {
        let ast = self.load(file, source)?;
        match self.programs.get_mut(program.0 as usize) {
            Some(p) => {
                p.replace(ast, source);
                Ok(())
            }
            None => Err(vec![ScriptError::new(file, 0, 0, "no such Rhai program")]),
        }
    }

    fn lint(&self, _file: &Path, source: &str, api: &Api) -> Vec<tactica_syntax::diagnostics::Diagnostic> {
        crate::lint::lint(&self.engine, api, source)
    }

    fn leaf_names(&self, program: ProgramId) -> Vec<String> {
        let Some(p) = self.programs.get(program.0 as usize) else { return Vec::new() };
        let mut names: Vec<String> =
            p.ast.iter_functions().filter(|f| f.params.is_empty()).map(|f| f.name.to_string()).collect();
        names.sort();
        names.dedup();
        names
    }

    fn call_leaf(&mut self, program: ProgramId, name: &str, call: &mut ScriptCall<'_>) -> Result<Value, ScriptError> {
        let Some(p) = self.programs.get_mut(program.0 as usize) else {
            return Err(ScriptError::new("rhai", 0, 0, "no such Rhai program"));
        };
        let entity = call.entity;
        let mut ctx = call.ctx();
        let running = Cell::new("");
        let mut out = Value::Nil;
        let result = run_call(&self.engine, &self.limits, p, &mut ctx, What::Leaf(name, &mut out), entity, &running);
        crate::work::end_call();
        ctx.finish();
        result.map(|()| out).map_err(|e| {
            let mut err = run_error(&p.file, &e);
            if err.line == 0
                && let Some((_, line)) = p.fn_lines.iter().find(|(n, _)| n == name)
            {
                err.line = *line;
                err.message.push_str(&format!(" (in `{name}`)"));
            }
            if crate::work::watchdog_fired() { err.by_watchdog(self.limits.max_wall_ms) } else { err }
        })
    }

    fn run(&mut self, program: ProgramId, call: &mut ScriptCall<'_>) -> Result<(), ScriptError> {
        let Some(p) = self.programs.get_mut(program.0 as usize) else {
            return Err(ScriptError::new("rhai", 0, 0, "no such Rhai program"));
        };
        let trigger = call.trigger.clone();
        let entity = call.entity;
        let mut ctx = call.ctx();
        let running = Cell::new("");
        let result = run_call(&self.engine, &self.limits, p, &mut ctx, What::Trigger(&trigger), entity, &running);
        crate::work::end_call();
        ctx.finish();
        result.map_err(|e| {
            let mut err = run_error(&p.file, &e);
            if err.line == 0
                && let Some((name, line)) = p.fn_lines.iter().find(|(n, _)| n == running.get())
            {
                err.line = *line;
                err.message.push_str(&format!(" (in `{name}`)"));
            }
            if crate::work::watchdog_fired() { err.by_watchdog(self.limits.max_wall_ms) } else { err }
        })
    }
}

/// What a call runs: the handler of a trigger, or a behaviour tree's leaf (whose result goes
/// into the value).
enum What<'a> {
    Trigger(&'a Trigger),
    Leaf(&'a str, &'a mut Value),
}

/// One call: the instance's state is `this` (a map), the handler for the trigger (or the leaf)
/// runs with the context lent, and at spawn `sequence` runs with every action queued in order.
fn run_call(
    engine: &Engine,
    limits: &ScriptLimits,
    p: &mut Program,
    ctx: &mut ScriptCtx<'_>,
    what: What<'_>,
    entity: Option<EntityId>,
    running: &Cell<&'static str>,
) -> Result<(), Box<EvalAltResult>> {
    let (trigger, leaf) = match what {
        What::Trigger(t) => (t, None),
        What::Leaf(name, out) => (&Trigger::Think, Some((name, out))),
    };
    // The map the last call left is `this` again while the host's table still says the same;
    // otherwise (first call, another table, a reload's migration) it is built afresh.
    let mut this = match p.states.take(entity) {
        Some(d) if d.as_map_ref().is_ok_and(|m| same_public(&m, &ctx.state)) => d,
        _ => Dynamic::from_map(
            ctx.state.iter().filter(|(k, _)| !is_private(k)).map(|(k, v)| (k.as_str().into(), to_dynamic(v))).collect(),
        ),
    };
    // The call's accounting starts once its state is built: rebuilding a large state is the
    // host's work, not the script's.
    crate::work::start_call();
    let Program { ast, handlers, calls, .. } = p;
    let has = |name: &str, arity: usize| handlers.iter().any(|&(n, a)| n == name && a == arity);
    let mut scope = Scope::new();
    let result = lend(ctx, || -> Result<(), Box<EvalAltResult>> {
        let mut call =
            |name: &'static str, args: Vec<Dynamic>, this: &mut Dynamic| -> Result<Dynamic, Box<EvalAltResult>> {
                running.set(name);
                // The AST's top level ran once at compile; a fresh scope is empty, so nothing to rewind.
                let options = CallFnOptions::new().eval_ast(false).rewind_scope(false).bind_this_ptr(this);
                calls.call(engine, options, &mut scope, ast, name, args)
            };
        if let Some((name, out)) = leaf {
            let options = CallFnOptions::new().eval_ast(false).rewind_scope(false).bind_this_ptr(&mut this);
            let returned = calls.call(engine, options, &mut scope, ast, name, Vec::new())?;
            *out = from_dynamic(&returned, limits, &mut Crossing::argument(limits)).map_err(|e| {
                Box::new(EvalAltResult::ErrorRuntime(format!("`{name}` returned {e}").into(), Position::NONE))
            })?;
            return Ok(());
        }
        let handler = trigger.handler();
        match trigger {
            Trigger::Hear(text) => {
                if has(handler, 1) {
                    call(handler, vec![Dynamic::from(text.clone())], &mut this).map(drop)?;
                }
            }
            // `fn on_reload(state)`: Rhai passes arguments by value, so the hook gets a copy of the
            // state the old code left and migrates through `this` or by returning the new map.
            Trigger::Reload if has(handler, 1) => {
                let old = this.clone();
                let returned = call(handler, vec![old], &mut this)?;
                if returned.is_map() {
                    this = returned;
                }
            }
            _ => {
                if has(handler, 0) {
                    call(handler, Vec::new(), &mut this).map(drop)?;
                }
            }
        }
        if *trigger == Trigger::Spawn && entity.is_some() && has(SEQUENCE, 0) {
            set_mode(ActionMode::Enqueue);
            let r = call(SEQUENCE, Vec::new(), &mut this);
            set_mode(ActionMode::Request);
            r.map(drop)?;
        }
        Ok(())
    });
    // A failed call keeps the state it started with (and its map is built afresh next time).
    result?;
    // Unchanged (compared in place): nothing to convert or write back.
    if !this.as_map_ref().is_ok_and(|m| same_public(&m, &ctx.state)) {
        let mut convert = Converter { limits, crossing: Crossing::kept(limits), saw_shared: false };
        let kept = convert.value(&this, 0).map_err(|e| {
            Box::new(EvalAltResult::ErrorRuntime(format!("`this` (the state map): {e}").into(), Position::NONE))
        })?;
        // A map that holds captured variables is not kept as it is: the call's shared values are
        // emptied when it ends (`work::end_call`), so the next call builds it afresh from the
        // host's table.
        if convert.saw_shared {
            this = Dynamic::UNIT;
        }
        let Value::Map(m) = kept else {
            return Err(Box::new(EvalAltResult::ErrorRuntime("`this` must stay a map".into(), Position::NONE)));
        };
        ctx.state.retain(|k, _| is_private(k));
        ctx.state.extend(m.into_iter().filter(|(k, _)| !is_private(k)));
    }
    if !this.is_unit() {
        p.states.insert(entity, this);
    }
    Ok(())
}

/// Switches the lent context between behaviour (request) and sequence (enqueue) mode, issuing
/// any gathered movement pattern in the mode it was gathered in.
fn set_mode(mode: ActionMode) {
    with_lent(|ctx| {
        ctx.flush_pattern();
        ctx.mode = mode;
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use tactica_stdlib::Param;

    #[test]
    fn a_host_function_is_registered_for_any_values_and_its_declared_types() {
        let p = |ty| Param { name: "x", ty };
        let dynamic = TypeId::of::<Dynamic>();
        let (int, float) = (TypeId::of::<rhai::INT>(), TypeId::of::<rhai::FLOAT>());
        assert_eq!(signatures(&[]), vec![Vec::<TypeId>::new()]);
        assert_eq!(
            signatures(&[p(Type::Any), p(Type::Str)]),
            vec![vec![dynamic, dynamic], vec![TypeId::of::<RhaiEntity>(), TypeId::of::<rhai::ImmutableString>()]]
        );
        assert_eq!(
            signatures(&[p(Type::Number), p(Type::Number)]),
            vec![vec![dynamic, dynamic], vec![int, int], vec![int, float], vec![float, int], vec![float, float]]
        );
        assert_eq!(signatures(&[p(Type::Nil)]), vec![vec![dynamic]], "no typed form without a type");
    }

    /// Whatever form a call resolves to, it reaches the same host function: an integer, a float
    /// and a string where a number is declared give what the host makes of them.
    #[test]
    fn every_form_reaches_the_one_adapter() {
        let engine = sandboxed_engine(Arc::new(Api::standard()), &ScriptLimits::new());
        let ast = engine.compile("fn f(v) { random(v) }").unwrap();
        let run = |v: Dynamic| engine.call_fn::<Dynamic>(&mut Scope::new(), &ast, "f", (v,));
        // Outside a handler nothing is lent: every form fails the same way, in the adapter.
        for v in [Dynamic::from_int(3), Dynamic::from_float(3.0), Dynamic::from("x")] {
            let e = run(v).unwrap_err().to_string();
            assert!(e.contains("can only be called from a handler"), "{e}");
        }
    }
}
