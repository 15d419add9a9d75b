//! The table every backend binds: host functions, globals, symbols and attributes.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use crate::attributes::{AttributeSpec, standard_attributes};
use crate::context::ScriptCtx;
use crate::names::STANDARD_SYMBOLS;
use crate::types::Type;
use tactica_engine::Value;

/// A plain host function: it reads the world through the context and writes commands into it; it
/// never mutates the world.
pub type HostFnPtr = fn(&mut ScriptCtx<'_>, &[Value]) -> Result<Value, HostError>;

/// A host function that is a closure, such as one a game registers over its own state (an
/// `Arc<Mutex<…>>` of its inventory, its quest log). It may read the world and issue commands
/// through the context like any other; being `Send + Sync`, the API stays shareable.
pub type HostClosure = dyn Fn(&mut ScriptCtx<'_>, &[Value]) -> Result<Value, HostError> + Send + Sync;

/// The Rust implementation of a host function.
#[derive(Clone)]
pub enum HostImpl {
    /// A plain function (the standard table).
    Fn(HostFnPtr),
    /// A closure (a game's own functions, registered with [`Api::add_closure`]).
    Closure(Arc<HostClosure>),
}

impl HostImpl {
    /// The plain function, when it is one (benchmarks call the standard table's directly).
    pub fn as_fn(&self) -> Option<HostFnPtr> {
        match self {
            HostImpl::Fn(f) => Some(*f),
            HostImpl::Closure(_) => None,
        }
    }

    /// Runs it.
    #[inline(always)]
    pub fn run(&self, ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
        match self {
            HostImpl::Fn(f) => f(ctx, args),
            HostImpl::Closure(f) => {
                // A game's function reads and writes the game's own state, which no turn of the
                // world orders: in a parallel scripts phase it runs in instance order, after
                // every earlier call has finished, as on one thread.
                ctx.rng.wait_turn();
                f(ctx, args)
            }
        }
    }
}

impl fmt::Debug for HostImpl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HostImpl::Fn(_) => "HostImpl::Fn",
            HostImpl::Closure(_) => "HostImpl::Closure",
        })
    }
}

impl From<HostFnPtr> for HostImpl {
    fn from(f: HostFnPtr) -> Self {
        HostImpl::Fn(f)
    }
}

/// Why a host function refused a call. Backends turn it into their own script error, with the
/// script's position added.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum HostError {
    /// An argument had the wrong type or value.
    #[error("`{function}` argument {index}: expected {expected}, got {got}")]
    BadArgument {
        /// The function.
        function: &'static str,
        /// 1-based argument position.
        index: usize,
        /// What was expected.
        expected: String,
        /// What was passed.
        got: String,
    },
    /// An attribute value outside the schema's range.
    #[error("attribute `{name}` must be in {min}..={max}, got {value}")]
    OutOfRange {
        /// The attribute.
        name: String,
        /// The smallest legal value.
        min: i64,
        /// The largest legal value.
        max: i64,
        /// The value given.
        value: i64,
    },
    /// The scripted entity is gone.
    #[error("the scripted entity no longer exists")]
    NoSelf,
    /// The call has handed the world all it may this call or this tick (notes, says, globals…).
    #[error("`{function}`: {reason}")]
    OverAllowance {
        /// The function whose output was refused.
        function: &'static str,
        /// Which allowance, and how large it is.
        reason: String,
    },
    /// A game's own function refused the call with an error of the game's own (see
    /// [`Api::add_fn`]); the script error carries its message.
    #[error("`{function}`: {message}")]
    Game {
        /// The function.
        function: &'static str,
        /// The game's error, as its `Display` words it.
        message: String,
    },
}

impl HostError {
    /// A game's own error for `function`, with `error`'s message (for closures registered with
    /// [`Api::add_closure`]; [`Api::add_fn`] converts the errors it returns by itself).
    pub fn game(function: &'static str, error: impl fmt::Display) -> HostError {
        HostError::Game { function, message: error.to_string() }
    }
}

/// One parameter of a host function.
#[derive(Debug, Clone, PartialEq)]
pub struct Param {
    /// Its name, for docs and diagnostics.
    pub name: &'static str,
    /// Its type.
    pub ty: Type,
}

/// One script-facing function.
#[derive(Debug, Clone)]
pub struct HostFn {
    /// Its canonical name (scripts may spell it in any case).
    pub name: &'static str,
    /// Its parameters; a name may have several entries of different arity (overloads).
    pub params: Vec<Param>,
    /// What it returns ([`Type::Nil`] for actions).
    pub ret: Type,
    /// What it does, with a script example.
    pub doc: &'static str,
    /// The implementation.
    pub imp: HostImpl,
}

impl HostFn {
    /// Runs the function for a script — the one way every language calls into the host — and
    /// fails it when what it handed the world went over the call's allowance (the command it
    /// tried to issue is already dropped, so a loop of `Note`s cannot fill the memory).
    #[inline(always)]
    pub fn call(&self, ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
        // Inlined, and one result built where it is returned: a fresh `Value` copied whole
        // through temporaries (a wider load than the stores that wrote it) costs more than
        // the checks around the call.
        // The implementation is called here, not in a closure handed to the profiler: such a
        // closure, called from two places, was compiled out of line in a caller with two host
        // calls (the `.tac` guarded call), and the result went through memory once more.
        let mark = ctx.commands.len();
        let out = if crate::profile::recording() {
            crate::profile::timed_recording(self.name, || self.imp.run(ctx, args))
        } else {
            self.imp.run(ctx, args)
        };
        if out.is_ok() && ctx.mode == crate::ActionMode::Enqueue {
            ctx.keep_in_order(mark);
        }
        if out.is_ok()
            && let Some(reason) = ctx.commands.take_refusal()
        {
            return Err(refused(self.name, out, reason));
        }
        out
    }

    /// The function's signature as docs and diagnostics print it: `Say(text: string)`.
    pub fn signature(&self) -> String {
        let params: Vec<String> = self.params.iter().map(|p| format!("{}: {}", p.name, p.ty)).collect();
        format!("{}({})", self.name, params.join(", "))
    }
}

/// [`HostFn::call`] when the call went over its allowance: drops what the function returned.
/// Out of line, and the result moved in, so that on the common path `out` stays where the
/// function wrote it (a copy of a fresh `Value`, a wider load than the stores that wrote it,
/// stalls).
#[cold]
#[inline(never)]
fn refused(function: &'static str, out: Result<Value, HostError>, reason: String) -> HostError {
    drop(out);
    HostError::OverAllowance { function, reason }
}

/// Where a global's value comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum GlobalSource {
    /// A world global of this key (`world.globals`), set by the game or the scenario.
    World(String),
    /// The scripted entity's kind (`Creature`).
    SelfKind,
    /// One of the scripted entity's attributes (`creature.state` reads `state`).
    SelfAttribute(String),
    /// The text the player typed, in a `hear` event; empty otherwise.
    Heard,
}

/// A value the engine provides and scripts only read (reference 002b §4.3: "the game engine
/// assigns their values, not the script").
#[derive(Debug, Clone, PartialEq)]
pub struct Global {
    /// Its canonical name; dotted names (`creature.state`) are one name.
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// What it means.
    pub doc: String,
    /// Where the value comes from.
    pub source: GlobalSource,
}

impl Global {
    /// The global's current value for the scripted entity.
    pub fn read(&self, ctx: &ScriptCtx<'_>) -> Value {
        match &self.source {
            GlobalSource::World(key) => match (ctx.world.global(key), &self.ty) {
                // A weapon global holding "Unarmed" reads as no weapon (see [`Symbol::value`]).
                (Value::Str(s), Type::Symbol(family)) if is_unarmed(family, s) => Value::Bool(false),
                (v, _) => v.clone(),
            },
            GlobalSource::SelfKind => ctx.me().map(|e| Value::Str(e.kind.clone())).unwrap_or_default(),
            GlobalSource::SelfAttribute(key) => ctx.me().map(|e| e.attribute(key).clone()).unwrap_or_default(),
            GlobalSource::Heard => Value::Str(ctx.heard.unwrap_or_default().to_owned()),
        }
    }
}

/// A named value (`Dagger`, `kNight`): at run time, the string of its name — except the weapon
/// `Unarmed`, which is `false`, so that `PlayerArmed == TRUE` is false for an unarmed player and
/// `PlayerArmed == Unarmed` is true.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The canonical name.
    pub name: String,
    /// Its family (`weapon`, `time`, `place` …).
    pub family: String,
}

impl Symbol {
    /// What the symbol is at run time.
    pub fn value(&self) -> Value {
        if is_unarmed(&self.family, &self.name) { Value::Bool(false) } else { Value::Str(self.name.clone()) }
    }
}

/// No weapon at all, however a scenario spells it.
fn is_unarmed(family: &str, name: &str) -> bool {
    family == "weapon" && name.eq_ignore_ascii_case("unarmed")
}

/// The script-facing API: one table of functions, globals, symbols and attributes. Look-ups are
/// case-insensitive (the classic scripts spell `PlayerArmed` and `playerArmed`, reference 002b
/// §7 P27); every name is stored once in its canonical spelling.
#[derive(Debug, Clone, Default)]
pub struct Api {
    functions: Vec<HostFn>,
    globals: Vec<Global>,
    symbols: Vec<Symbol>,
    attributes: Vec<AttributeSpec>,
    function_index: BTreeMap<String, Vec<usize>>,
    global_index: BTreeMap<String, usize>,
    symbol_index: BTreeMap<String, usize>,
    attribute_index: BTreeMap<String, usize>,
    /// The tags the scenario's characters carry (lower case), once a scenario declared its
    /// names; `None` for a file checked on its own.
    world_tags: Option<std::collections::BTreeSet<String>>,
    /// The signals a scenario's scripts send and wait for, for editors to complete.
    signals: std::collections::BTreeSet<String>,
    /// What the scenario's Lua and Rhai scripts send and wait for in the squad's scope, once
    /// declared (`None` for a file checked on its own).
    script_signals: Option<crate::ScriptSignals>,
}

impl Api {
    /// The tags the scenario's characters carry, when checking against a scenario (a sequence
    /// role no character is tagged for can never be cast).
    pub fn world_tags(&self) -> Option<&std::collections::BTreeSet<String>> {
        self.world_tags.as_ref()
    }

    /// What the scenario's Lua and Rhai scripts send and wait for in the squad's scope, when
    /// declared with [`Api::declare_script_signals`].
    pub fn script_signals(&self) -> Option<&crate::ScriptSignals> {
        self.script_signals.as_ref()
    }

    /// Declares what the scenario's Lua and Rhai scripts send and wait for, so the `.tac`
    /// checker pairs a sequence's waits and signals with theirs.
    pub fn declare_script_signals(&mut self, signals: crate::ScriptSignals) {
        self.script_signals = Some(signals);
    }

    /// The signals declared with [`Api::declare_signal`].
    pub fn signals(&self) -> &std::collections::BTreeSet<String> {
        &self.signals
    }

    /// Declares a signal a scenario's scripts use, so editors complete it (signals need no
    /// declaration to work: any string is a signal).
    pub fn declare_signal(&mut self, name: &str) {
        self.signals.insert(name.to_owned());
    }

    /// Declares the tags a scenario's characters carry (what [`Api::declare_world_names`] does
    /// for a whole world), for checking a file as if in that scenario.
    pub fn declare_tags<'a>(&mut self, tags: impl IntoIterator<Item = &'a str>) {
        self.world_tags.get_or_insert_with(Default::default).extend(tags.into_iter().map(str::to_ascii_lowercase));
    }

    /// An empty table (a host that wants to expose only some packages starts here).
    pub fn raw() -> Self {
        Api::default()
    }

    /// The standard table: every name of the classic scripts (reference 002b §4.10).
    pub fn standard() -> Self {
        let mut api = Api::raw();
        for f in crate::host::standard_functions() {
            api.add_function(f);
        }
        for f in crate::entities::functions() {
            api.add_function(f);
        }
        for f in crate::machines::functions() {
            api.add_function(f);
        }
        crate::decide::functions().into_iter().for_each(|f| api.add_function(f));
        crate::steer::functions().into_iter().for_each(|f| api.add_function(f));
        crate::field::functions().into_iter().for_each(|f| api.add_function(f));
        crate::positions::functions().into_iter().for_each(|f| api.add_function(f));
        crate::nav::functions().into_iter().for_each(|f| api.add_function(f));
        crate::waypoints::functions().into_iter().for_each(|f| api.add_function(f));
        crate::trees::functions().into_iter().for_each(|f| api.add_function(f));
        let world = |name: &str, ty: Type, doc: &str| Global {
            name: name.to_owned(),
            ty,
            doc: doc.to_owned(),
            source: GlobalSource::World(name.to_owned()),
        };
        api.declare(world("LEVEL", Type::Int, "The current game level (`If {LEVEL<5}`)."));
        api.declare(world(
            "PlayerArmed",
            Type::symbol("weapon"),
            "The player's weapon, or false when unarmed; `PlayerArmed == TRUE` asks whether the player is armed at all.",
        ));
        api.declare(world(
            "PlayerChallenge",
            Type::symbol("challenge"),
            "How tough an opponent the player is, as the engine rates it (`DIFFICULT` …).",
        ));
        api.declare(world("GameTime", Type::symbol("time"), "The time of day (`kDay`, `kNight` …)."));
        api.declare(world("player", Type::symbol("kind"), "The player's race (`Human` …)."));
        api.declare(world(
            "playerHas",
            Type::symbol("item"),
            "The item the player holds; a list of items compares equal to each item in it.",
        ));
        api.declare(Global {
            name: "Creature".to_owned(),
            ty: Type::symbol("kind"),
            doc: "The scripted creature's kind (`Creature == Giant`).".to_owned(),
            source: GlobalSource::SelfKind,
        });
        api.declare(Global {
            name: "creature.state".to_owned(),
            ty: Type::symbol("state"),
            doc: "The scripted creature's state (`creature.state == kPatrol`); state machines set it.".to_owned(),
            source: GlobalSource::SelfAttribute("state".to_owned()),
        });
        api.declare(Global {
            name: "PlayerText".to_owned(),
            ty: Type::Str,
            doc: "What the player typed, in a `hear` event (what `Ask` searches).".to_owned(),
            source: GlobalSource::Heard,
        });
        for (family, names) in STANDARD_SYMBOLS {
            for name in *names {
                api.declare_symbol(name, family);
            }
        }
        for a in standard_attributes() {
            api.declare_attribute(a);
        }
        api
    }

    /// Registers a game's own function, a closure over its state, under `name`: from then on it is
    /// called from `.tac`, Lua and Rhai alike, checked (name, arity and parameter types) by
    /// `tactica check` given the same `Api`, and listed in the generated API docs. A name the
    /// table already has gains an overload of another arity.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use tactica_stdlib::{Api, Param, Type, Value};
    ///
    /// let gold = Arc::new(Mutex::new(120_i64));
    /// let mut api = Api::standard();
    /// let purse = Arc::clone(&gold);
    /// api.add_closure(
    ///     "PlayerGold",
    ///     vec![],
    ///     Type::Int,
    ///     "How much gold the player carries (`if (PlayerGold() > 100) Say(\"Rich!\");`).",
    ///     move |_ctx, _args| Ok(Value::Int(*purse.lock().unwrap())),
    /// );
    /// assert_eq!(api.functions("playergold").count(), 1);
    /// # let _ = Param { name: "n", ty: Type::Int };
    /// ```
    pub fn add_closure(
        &mut self,
        name: &'static str,
        params: Vec<Param>,
        ret: Type,
        doc: &'static str,
        f: impl Fn(&mut ScriptCtx<'_>, &[Value]) -> Result<Value, HostError> + Send + Sync + 'static,
    ) {
        self.add_function(HostFn { name, params, ret, doc, imp: HostImpl::Closure(Arc::new(f)) });
    }

    /// Adds a host function (another overload if the name exists with another arity).
    pub fn add_function(&mut self, f: HostFn) {
        let key = f.name.to_ascii_lowercase();
        self.function_index.entry(key).or_default().push(self.functions.len());
        self.functions.push(f);
    }

    /// Adds or replaces a global.
    pub fn declare(&mut self, g: Global) {
        let key = g.name.to_ascii_lowercase();
        match self.global_index.get(&key) {
            Some(&i) => self.globals[i] = g,
            None => {
                self.global_index.insert(key, self.globals.len());
                self.globals.push(g);
            }
        }
    }

    /// Declares what a scenario names, so scripts may use the names bare and `check` knows them:
    /// places and regions (family `place`), the kinds of its entities (`kind`), and its globals
    /// (typed by their values at tick 0; a name the API already has keeps its declaration).
    pub fn declare_world_names(&mut self, world: &tactica_engine::world::World) {
        for name in world.places().keys().chain(world.regions().keys()) {
            self.declare_symbol(name, "place");
        }
        let mut tags = std::collections::BTreeSet::new();
        for (_, e) in world.entities() {
            if self.symbol(&e.kind).is_none() {
                self.declare_symbol(&e.kind, "kind");
            }
            tags.extend(e.tags.iter().map(|t| t.to_ascii_lowercase()));
        }
        self.world_tags = Some(tags);
        for (name, value) in &world.globals {
            if self.global(name).is_some() {
                continue;
            }
            let ty = match value {
                Value::Bool(_) => Type::Bool,
                Value::Int(_) => Type::Int,
                Value::Float(_) => Type::Number,
                Value::Str(_) => Type::Str,
                _ => Type::Any,
            };
            self.declare_global(name, ty, "A global the scenario declares.");
        }
    }

    /// Declares a world global a scenario provides (read from `world.globals[name]`).
    pub fn declare_global(&mut self, name: &str, ty: Type, doc: &str) {
        self.declare(Global {
            name: name.to_owned(),
            ty,
            doc: doc.to_owned(),
            source: GlobalSource::World(name.to_owned()),
        });
    }

    /// Declares a named value of `family` (a scenario's places, traps, sounds …).
    pub fn declare_symbol(&mut self, name: &str, family: &str) {
        let key = name.to_ascii_lowercase();
        let s = Symbol { name: name.to_owned(), family: family.to_owned() };
        match self.symbol_index.get(&key) {
            Some(&i) => self.symbols[i] = s,
            None => {
                self.symbol_index.insert(key, self.symbols.len());
                self.symbols.push(s);
            }
        }
    }

    /// Declares (or replaces) an attribute of the schema.
    pub fn declare_attribute(&mut self, a: AttributeSpec) {
        let key = a.name.to_ascii_lowercase();
        match self.attribute_index.get(&key) {
            Some(&i) => self.attributes[i] = a,
            None => {
                self.attribute_index.insert(key, self.attributes.len());
                self.attributes.push(a);
            }
        }
    }

    /// Every overload of a function name.
    pub fn functions(&self, name: &str) -> impl Iterator<Item = &HostFn> {
        self.function_indices(name).iter().map(|&i| &self.functions[i])
    }

    /// The indices (for [`Api::function`]) of every overload of a name.
    pub fn function_indices(&self, name: &str) -> &[usize] {
        self.function_index.get(&name.to_ascii_lowercase()).map_or(&[], Vec::as_slice)
    }

    /// The function at `index`.
    pub fn function(&self, index: usize) -> Option<&HostFn> {
        self.functions.get(index)
    }

    /// Every function, in declaration order (for generated docs).
    pub fn all_functions(&self) -> &[HostFn] {
        &self.functions
    }

    /// A global by name, with its index (for [`Api::global_at`]).
    pub fn global(&self, name: &str) -> Option<(usize, &Global)> {
        self.global_index.get(&name.to_ascii_lowercase()).map(|&i| (i, &self.globals[i]))
    }

    /// The global at `index`.
    pub fn global_at(&self, index: usize) -> Option<&Global> {
        self.globals.get(index)
    }

    /// Every global, in declaration order.
    pub fn all_globals(&self) -> &[Global] {
        &self.globals
    }

    /// A symbol by name.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbol_index.get(&name.to_ascii_lowercase()).map(|&i| &self.symbols[i])
    }

    /// Every symbol, in declaration order.
    pub fn all_symbols(&self) -> &[Symbol] {
        &self.symbols
    }

    /// An attribute of the schema by name.
    pub fn attribute(&self, name: &str) -> Option<&AttributeSpec> {
        self.attribute_index.get(&name.to_ascii_lowercase()).map(|&i| &self.attributes[i])
    }

    /// Every attribute of the schema.
    pub fn all_attributes(&self) -> &[AttributeSpec] {
        &self.attributes
    }

    /// Sets an attribute of the scripted entity after checking it against the schema: the name
    /// must be declared and an integer value must lie in its range ("never assume any script being
    /// parsed is valid", reference 002b L3861). Returns the canonical name.
    pub fn set_attribute(&self, ctx: &mut ScriptCtx<'_>, name: &str, value: Value) -> Result<String, HostError> {
        let spec = self.attribute(name).ok_or_else(|| HostError::BadArgument {
            function: "SetAttribute",
            index: 1,
            expected: "a declared attribute".to_owned(),
            got: name.to_owned(),
        })?;
        if spec.ty == Type::Int {
            let v = value.as_i64().ok_or_else(|| HostError::BadArgument {
                function: "SetAttribute",
                index: 2,
                expected: "int".to_owned(),
                got: value.value_type().to_string(),
            })?;
            if !spec.in_range(v) {
                return Err(HostError::OutOfRange { name: spec.name.clone(), min: spec.min, max: spec.max, value: v });
            }
        }
        let key = spec.name.clone();
        ctx.commands.push(tactica_engine::world::Command::SetAttribute { entity: ctx.me, key: key.clone(), value });
        Ok(key)
    }

    /// Every readable name (globals and symbols), for "did you mean" suggestions.
    pub fn value_names(&self) -> impl Iterator<Item = &str> {
        self.globals.iter().map(|g| g.name.as_str()).chain(self.symbols.iter().map(|s| s.name.as_str()))
    }

    /// Every function name, for suggestions.
    pub fn function_names(&self) -> impl Iterator<Item = &str> {
        self.functions.iter().map(|f| f.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_of_the_classic_scripts_is_declared() {
        let api = Api::standard();
        for g in ["PlayerArmed", "playerArmed", "PlayerChallenge", "LEVEL", "GameTime", "Creature", "player"] {
            assert!(api.global(g).is_some(), "{g}");
        }
        assert!(api.global("playerHas").is_some());
        assert!(api.global("creature.state").is_some());
        for s in ["Dagger", "Bow", "Sword", "BattleAxe", "Staff", "Giant", "Human", "FriendlyWizard", "RedAmulet"] {
            assert!(api.symbol(s).is_some(), "{s}");
        }
        for s in ["DIFFICULT", "kPatrol", "kNight", "kDay", "kDock", "kBoat", "xDoorway", "kPoisonTrap"] {
            assert!(api.symbol(s).is_some(), "{s}");
        }
        for s in ["kExpositionTrap", "kSeagullSnd", "kCreakingDoorSnd", "kWavesSnd", "kCricketsSnd", "kBirdsSnd"] {
            assert!(api.symbol(s).is_some(), "{s}");
        }
        for f in ["DoFlee", "DoAttack", "move", "Say", "Trigger", "PlaySound", "Ask", "PlayerLocation"] {
            assert!(api.functions(f).next().is_some(), "{f}");
        }
        assert_eq!(api.functions("PlayerLocation").count(), 2, "one place or x, y");
    }

    #[test]
    fn a_scenario_declares_more_and_replaces_nothing_twice() {
        let mut api = Api::standard();
        let n = api.all_symbols().len();
        api.declare_symbol("kGate", "place");
        api.declare_symbol("KGATE", "place");
        assert_eq!(api.all_symbols().len(), n + 1);
        api.declare_global("imBlue", Type::Bool, "the player ate a power pill");
        assert_eq!(api.global("IMBLUE").unwrap().1.ty, Type::Bool);
    }
}
