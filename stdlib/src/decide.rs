//! The decision package: scripts drive the world's named models (a scenario's `[models]`
//! section) — state machines, fuzzy rule bases, rule bases, Bayesian networks, GAIA brains,
//! neural networks, daily schedules, open-loop action queues and the planner.
//!
//! Models are shared definitions in [`World::models`](tactica_engine::world::World); what one
//! character needs to remember between calls (its state in a machine, its working memory, its
//! action queue, the inputs it set) lives in the script instance's state table under private
//! `__`-keys, which every language keeps across calls and a hot reload keeps too. Every function
//! that takes a table of inputs also has a form without it that reads the inputs set with
//! `ModelInput` — the form `.tac` uses, since it has no table literals.

use tactica_engine::coord::Action;
use tactica_engine::decide::Model;
use tactica_engine::decide::crowd::StepSpec;
use tactica_engine::decide::fsm::{FsmState, HookKind};
use tactica_engine::decide::utility::Situation;
use tactica_engine::path::AStar;
use tactica_engine::world::{Command, EventKind};
use tactica_engine::{Table, Value};

use crate::api::{HostError, HostFn, HostImpl, Param};
use crate::context::ScriptCtx;
use crate::types::Type;

fn p(name: &'static str, ty: Type) -> Param {
    Param { name, ty }
}

/// The functions of this package, in the order the API reference lists them.
pub(crate) fn functions() -> Vec<HostFn> {
    let f = |name, params, ret, doc, imp| HostFn { name, params, ret, doc, imp: HostImpl::Fn(imp) };
    let m = || p("model", Type::Str);
    vec![
        f(
            "ModelInput",
            vec![m(), p("name", Type::Str), p("value", Type::Any)],
            Type::Nil,
            "Sets one input of a model for this character (`ModelInput(\"threat\", \"distance\", 25)`); the table-less forms of the decision functions read these.",
            model_input,
        ),
        f("ModelClear", vec![m()], Type::Nil, "Forgets the inputs set with `ModelInput` for a model.", model_clear),
        f(
            "FsmStep",
            vec![m()],
            Type::Str,
            "Steps this character's instance of a state machine with the `ModelInput` facts; returns the state it is in after the step (`FsmStep(\"guard\")`).",
            fsm_step,
        ),
        f(
            "FsmStep",
            vec![m(), p("facts", Type::Any)],
            Type::Str,
            "Steps the state machine with a table of facts (`FsmStep(\"guard\", {sees_player = true})`); returns the state after the step.",
            fsm_step,
        ),
        f(
            "FsmState",
            vec![m()],
            Type::Str,
            "The state this character is in (the machine's initial state before the first step).",
            fsm_state,
        ),
        f(
            "FsmHooks",
            vec![m()],
            Type::Any,
            "The hooks the last step ran, in order, as `kind:state:name` strings (`enter:alert:sound_alarm`).",
            fsm_hooks,
        ),
        f(
            "FuzzyEval",
            vec![m(), p("output", Type::Str)],
            Type::Any,
            "Evaluates a fuzzy rule base on the `ModelInput` values; the output defuzzified by weighted average, or nil when no rule fired.",
            fuzzy_eval,
        ),
        f(
            "FuzzyEval",
            vec![m(), p("output", Type::Str), p("inputs", Type::Any)],
            Type::Any,
            "Evaluates a fuzzy rule base on a table of inputs (`FuzzyEval(\"threat\", \"threat\", {distance = 25, size = 8})`).",
            fuzzy_eval,
        ),
        f(
            "FuzzyCentroid",
            vec![m(), p("output", Type::Str)],
            Type::Any,
            "Like `FuzzyEval`, defuzzified by the centroid of the clipped output sets instead.",
            fuzzy_centroid,
        ),
        f(
            "FuzzyDegree",
            vec![m(), p("output", Type::Str), p("set", Type::Str)],
            Type::Number,
            "The degree of one output set on the `ModelInput` values (`FuzzyDegree(\"threat\", \"threat\", \"low\")`).",
            fuzzy_degree,
        ),
        f(
            "RulesAssert",
            vec![m(), p("fact", Type::Str), p("value", Type::Any)],
            Type::Nil,
            "Sets a fact in this character's working memory of a rule base (`RulesAssert(\"tech\", \"Temple\", \"Yes\")`).",
            rules_assert,
        ),
        f(
            "RulesRun",
            vec![m()],
            Type::Any,
            "Forward-chains the working memory to quiescence; returns the names of the rules that fired. A rule does not fire twice on the same facts, across calls too.",
            rules_run,
        ),
        f("RulesFact", vec![m(), p("fact", Type::Str)], Type::Any, "A fact of the working memory.", rules_fact),
        f(
            "RulesProve",
            vec![m(), p("fact", Type::Str), p("value", Type::Any)],
            Type::Bool,
            "Backward-chains: whether `fact == value` follows from the working memory through the rules.",
            rules_prove,
        ),
        f(
            "BayesQuery",
            vec![m(), p("node", Type::Str), p("state", Type::Str)],
            Type::Number,
            "P(node = state | evidence) with the `ModelInput` evidence (node → state) (`BayesQuery(\"locker\", \"Trapped\", \"true\")`).",
            bayes_query,
        ),
        f(
            "BayesQuery",
            vec![m(), p("node", Type::Str), p("state", Type::Str), p("evidence", Type::Any)],
            Type::Number,
            "P(node = state | evidence) with a table of evidence (`{Locked = \"true\"}`).",
            bayes_query,
        ),
        f(
            "UtilityChoose",
            vec![m()],
            Type::Any,
            "Runs a GAIA brain once with this character as `me` (its `ModelInput` values as its data, the other entities as actors); returns the option chosen at the top level, or nil.",
            utility_choose,
        ),
        f(
            "UtilityChoose",
            vec![m(), p("situation", Type::Any)],
            Type::Any,
            "Runs a GAIA brain on a situation table: `{me = {name, position, data}, actors = {...}, globals, time}`, or just a table of data for `me`.",
            utility_choose,
        ),
        f(
            "UtilityDecide",
            vec![m(), p("situation", Type::Any)],
            Type::Any,
            "Like `UtilityChoose`, returning the whole decision: `{path = {...}, commands = {{name, target, position, args}}}`.",
            utility_decide,
        ),
        f(
            "NnRun",
            vec![m()],
            Type::Str,
            "Runs a neural network on the `ModelInput` values (missing inputs are 0); returns the name of the strongest output.",
            nn_run,
        ),
        f(
            "NnRun",
            vec![m(), p("inputs", Type::Any)],
            Type::Str,
            "Runs a neural network on a table of named inputs; returns the name of the strongest output.",
            nn_run,
        ),
        f(
            "NnOutput",
            vec![m(), p("output", Type::Str)],
            Type::Number,
            "One output's activation for the `ModelInput` values.",
            nn_output,
        ),
        f(
            "GeneticGenome",
            vec![m(), p("slot", Type::Int)],
            Type::Any,
            "The genes of one individual of a genetic model's current generation (slots from 0), a list of numbers: one response per situation (`GeneticGenome(\"raiders\", 2)`).",
            genetic_genome,
        ),
        f(
            "GeneticScore",
            vec![m(), p("slot", Type::Int), p("done", Type::Number), p("received", Type::Number)],
            Type::Nil,
            "Adds a round's tallies to an individual: damage it dealt and damage it took; its fitness is dealt ÷ taken (taken at least 1).",
            genetic_score,
        ),
        f(
            "GeneticEvolve",
            vec![m()],
            Type::Nil,
            "Ends the round: ranks the population by fitness, replaces the weaker half by crossovers of the stronger half with mutation, clears the tallies, and notes the generation and the best fitness in the trace. Takes effect after every script of the tick has run.",
            genetic_evolve,
        ),
        f(
            "GeneticGeneration",
            vec![m()],
            Type::Int,
            "How many generations a genetic model has bred (0 for the first, random one).",
            genetic_generation,
        ),
        f(
            "AdaptiveChoose",
            vec![m(), p("context", Type::Str)],
            Type::Str,
            "The tactic an adaptive model picks for a context: the one with the best mean success there (untried ones count 0.5, ties to the earlier), before any history the model's default (or a random one), and with the model's exploration chance a random one (`AdaptiveChoose(\"duel\", \"cornered\")`).",
            adaptive_choose,
        ),
        f(
            "AdaptiveRecord",
            vec![m(), p("context", Type::Str), p("tactic", Type::Str), p("success", Type::Number)],
            Type::Nil,
            "Records how a tactic went in a context, success 0–1; later choices for that context learn from it. The history is the world's, shared by every character using the model, and survives reloads.",
            adaptive_record,
        ),
        f(
            "AdaptiveRate",
            vec![m(), p("context", Type::Str), p("tactic", Type::Str)],
            Type::Any,
            "A tactic's mean success in a context so far, or nil before it was tried there.",
            adaptive_rate,
        ),
        f(
            "HourOfDay",
            vec![],
            Type::Number,
            "The time of day in hours, 0 to 24: globals `DayStartHour` (default 0) plus the elapsed seconds over `SecondsPerHour` (default 3600).",
            hour_of_day,
        ),
        f(
            "ScheduleTask",
            vec![m(), p("hour", Type::Number)],
            Type::Any,
            "The first task of the schedule's block at this hour, or nil (`ScheduleTask(\"day\", HourOfDay())`).",
            schedule_task,
        ),
        f(
            "ScheduleDue",
            vec![m(), p("from", Type::Number), p("to", Type::Number)],
            Type::Any,
            "The one-shot tasks whose hour lies in (from, to], each drawn with its probability from the world's generator.",
            schedule_due,
        ),
        f(
            "QueueRun",
            vec![m(), p("script", Type::Str)],
            Type::Any,
            "Drives this character's open-loop action queue: starts `script` from the action library if another one was asked for, and when the character is idle issues its next step (move, wait, say, emit). A step that cannot be done (unknown or closed place — global `closed:<place>`) fails: the queue is flushed and the script's fallback runs. Returns the script running.",
            queue_run,
        ),
        f(
            "QueueFail",
            vec![m()],
            Type::Any,
            "Fails the running step: flushes the queue and starts the script's fallback; returns the fallback's name or nil.",
            queue_fail,
        ),
        f("QueueCurrent", vec![m()], Type::Any, "The action script this character is running, or nil.", queue_current),
        f(
            "Plan",
            vec![m(), p("goal", Type::Any), p("state", Type::Any)],
            Type::Any,
            "The shortest plan of actions from the true propositions `state` to the `goal` literals (lists, or comma-separated text; `~p` is a negative literal); nil when none exists.",
            plan,
        ),
        f(
            "PlanNext",
            vec![m(), p("goal", Type::Any), p("state", Type::Any)],
            Type::Any,
            "The first action of `Plan`, or nil (already there, or no plan).",
            plan_next,
        ),
    ]
}

fn bad(function: &'static str, index: usize, expected: impl Into<String>, got: impl Into<String>) -> HostError {
    HostError::BadArgument { function, index: index + 1, expected: expected.into(), got: got.into() }
}

fn str_arg<'v>(f: &'static str, args: &'v [Value], i: usize) -> Result<&'v str, HostError> {
    match args.get(i) {
        Some(Value::Str(s)) => Ok(s),
        other => Err(bad(f, i, "a string", other.map_or("nothing".to_owned(), |v| v.value_type().to_string()))),
    }
}

fn num_arg(f: &'static str, args: &[Value], i: usize) -> Result<f64, HostError> {
    args.get(i)
        .and_then(Value::as_f64)
        .ok_or_else(|| bad(f, i, "a number", args.get(i).map_or("nothing".to_owned(), |v| v.value_type().to_string())))
}

/// The model named by argument 0, with a did-you-mean when it is not declared.
fn model<'w>(ctx: &ScriptCtx<'w>, f: &'static str, args: &[Value]) -> Result<(String, &'w Model), HostError> {
    let name = str_arg(f, args, 0)?;
    let models = &ctx.world.models;
    match models.get(name) {
        Some(m) => Ok((name.to_owned(), m)),
        None => {
            let near = models
                .names()
                .map(|n| (strsim::damerau_levenshtein(&n.to_lowercase(), &name.to_lowercase()), n))
                .filter(|&(d, n)| d <= (n.len() / 3).max(2))
                .min();
            let expected = match near {
                Some((_, n)) => format!("a declared model (did you mean `{n}`?)"),
                None if models.is_empty() => "a declared model (the scenario's [models] section is empty)".to_owned(),
                None => format!("a declared model ({})", models.names().collect::<Vec<_>>().join(", ")),
            };
            Err(bad(f, 0, expected, format!("`{name}`")))
        }
    }
}

fn wrong_kind(f: &'static str, name: &str, want: &str, m: &Model) -> HostError {
    bad(f, 0, format!("a {want} model"), format!("`{name}`, a {} model", m.kind().key()))
}

macro_rules! model_of {
    ($ctx:expr, $f:expr, $args:expr, $variant:ident, $want:expr) => {{
        let (name, m) = model($ctx, $f, $args)?;
        match m {
            Model::$variant(x) => (name, x),
            other => return Err(wrong_kind($f, &name, $want, other)),
        }
    }};
}

fn decide_err(f: &'static str, e: impl std::fmt::Display) -> HostError {
    bad(f, 1, "arguments the model accepts", e.to_string())
}

fn key(prefix: &str, model: &str) -> String {
    format!("__{prefix}:{model}")
}

/// The table argument at `i`, or the inputs set with `ModelInput`.
fn inputs(ctx: &ScriptCtx<'_>, f: &'static str, args: &[Value], i: usize, model: &str) -> Result<Table, HostError> {
    match args.get(i) {
        Some(Value::Map(m)) => Ok(m.clone()),
        Some(Value::List(l)) if l.is_empty() => Ok(Table::new()),
        Some(Value::Nil) | None => match ctx.state.get(&key("in", model)) {
            Some(Value::Map(m)) => Ok(m.clone()),
            _ => Ok(Table::new()),
        },
        Some(other) => Err(bad(f, i, "a table", other.value_type().to_string())),
    }
}

fn numbers(t: &Table) -> std::collections::BTreeMap<String, f64> {
    t.iter().filter_map(|(k, v)| v.as_f64().map(|x| (k.clone(), x))).collect()
}

fn state_map(ctx: &ScriptCtx<'_>, k: &str) -> Table {
    match ctx.state.get(k) {
        Some(Value::Map(m)) => m.clone(),
        _ => Table::new(),
    }
}

/// `ModelInput(model, name, value)`.
pub fn model_input(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, _) = model(ctx, "ModelInput", args)?;
    let input = str_arg("ModelInput", args, 1)?.to_owned();
    let value = args.get(2).cloned().unwrap_or_default();
    if matches!(value, Value::Entity(_)) {
        return Err(bad("ModelInput", 2, "plain data", "an entity handle"));
    }
    let k = key("in", &name);
    let mut m = state_map(ctx, &k);
    m.insert(input, value);
    ctx.state.insert(k, Value::Map(m));
    Ok(Value::Nil)
}

/// `ModelClear(model)`.
pub fn model_clear(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, _) = model(ctx, "ModelClear", args)?;
    ctx.state.remove(&key("in", &name));
    Ok(Value::Nil)
}

/// The character's position in a machine: the stored state name (a state a reload removed
/// restarts the machine).
fn fsm_instance(ctx: &ScriptCtx<'_>, name: &str, m: &tactica_engine::decide::fsm::StateMachine) -> FsmState {
    let saved = state_map(ctx, &key("fsm", name));
    match saved.get("state").and_then(Value::as_str).and_then(|s| m.state(s)) {
        Some(current) => FsmState {
            current,
            ticks_in_state: saved
                .get("ticks")
                .and_then(Value::as_i64)
                .map_or(0, |t| t.clamp(0, i64::from(u32::MAX)) as u32),
        },
        None => m.start(),
    }
}

/// `FsmStep(model[, facts])`.
pub fn fsm_step(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, m) = model_of!(ctx, "FsmStep", args, Fsm, "state machine");
    let facts = inputs(ctx, "FsmStep", args, 1, &name)?;
    let mut inst = fsm_instance(ctx, &name, m);
    let mut hooks = Vec::new();
    m.step(&mut inst, &facts, ctx.rng, &mut hooks);
    let hooks: Vec<Value> = hooks
        .iter()
        .map(|h| {
            let kind = match h.kind {
                HookKind::Enter => "enter",
                HookKind::Exit => "exit",
                HookKind::Tick => "tick",
            };
            Value::Str(format!("{kind}:{}:{}", h.state, h.name))
        })
        .collect();
    let state = m.name(inst.current).to_owned();
    ctx.state.insert(
        key("fsm", &name),
        Value::Map(Table::from([
            ("state".to_owned(), Value::from(state.as_str())),
            ("ticks".to_owned(), Value::Int(i64::from(inst.ticks_in_state))),
            ("hooks".to_owned(), Value::List(hooks)),
        ])),
    );
    Ok(Value::Str(state))
}

/// `FsmState(model)`.
pub fn fsm_state(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, m) = model_of!(ctx, "FsmState", args, Fsm, "state machine");
    Ok(Value::from(m.name(fsm_instance(ctx, &name, m).current)))
}

/// `FsmHooks(model)`.
pub fn fsm_hooks(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, _) = model_of!(ctx, "FsmHooks", args, Fsm, "state machine");
    Ok(state_map(ctx, &key("fsm", &name)).remove("hooks").unwrap_or(Value::List(Vec::new())))
}

fn fuzzy_result(
    ctx: &ScriptCtx<'_>,
    f: &'static str,
    args: &[Value],
    at: usize,
) -> Result<tactica_engine::decide::fuzzy::FuzzyResult, HostError> {
    let (name, sys) = model_of!(ctx, f, args, Fuzzy, "fuzzy");
    let xs = numbers(&inputs(ctx, f, args, at, &name)?);
    sys.evaluate(&xs).map_err(|e| decide_err(f, e))
}

/// `FuzzyEval(model, output[, inputs])`.
pub fn fuzzy_eval(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let out = str_arg("FuzzyEval", args, 1)?;
    let r = fuzzy_result(ctx, "FuzzyEval", args, 2)?;
    Ok(r.weighted_average(out).map_or(Value::Nil, Value::Float))
}

/// `FuzzyCentroid(model, output)`.
pub fn fuzzy_centroid(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let out = str_arg("FuzzyCentroid", args, 1)?;
    let r = fuzzy_result(ctx, "FuzzyCentroid", args, 2)?;
    Ok(r.centroid(out, 601).map_or(Value::Nil, Value::Float))
}

/// `FuzzyDegree(model, output, set)`.
pub fn fuzzy_degree(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (out, set) = (str_arg("FuzzyDegree", args, 1)?, str_arg("FuzzyDegree", args, 2)?);
    let r = fuzzy_result(ctx, "FuzzyDegree", args, 3)?;
    Ok(Value::Float(r.degree(out, set)))
}

type Memory = (tactica_engine::decide::rules::WorkingMemory, tactica_engine::decide::rules::ChainState);

/// Rebuilds a character's working memory and refraction from its state table.
fn rules_memory(ctx: &ScriptCtx<'_>, name: &str, rs: &tactica_engine::decide::rules::RuleSet) -> Memory {
    let (mut wm, mut st) = rs.memory();
    let saved = state_map(ctx, &key("rules", name));
    if let Some(Value::Map(facts)) = saved.get("facts") {
        for (fact, v) in facts {
            // A fact a reload removed is forgotten.
            let _ = rs.assert(&mut wm, fact, v.clone());
        }
    }
    if let Some(fired) = saved.get("fired") {
        rs.restore_refraction(&mut st, fired);
    }
    (wm, st)
}

fn save_rules(ctx: &mut ScriptCtx<'_>, name: &str, rs: &tactica_engine::decide::rules::RuleSet, mem: &Memory) {
    ctx.state.insert(
        key("rules", name),
        Value::Map(Table::from([
            ("facts".to_owned(), Value::Map(rs.to_table(&mem.0))),
            ("fired".to_owned(), rs.refraction_value(&mem.1)),
        ])),
    );
}

/// `RulesAssert(model, fact, value)`.
pub fn rules_assert(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, rs) = model_of!(ctx, "RulesAssert", args, Rules, "rules");
    let fact = str_arg("RulesAssert", args, 1)?;
    let mut mem = rules_memory(ctx, &name, rs);
    rs.assert(&mut mem.0, fact, args.get(2).cloned().unwrap_or_default()).map_err(|e| decide_err("RulesAssert", e))?;
    save_rules(ctx, &name, rs, &mem);
    Ok(Value::Nil)
}

/// `RulesRun(model)`.
pub fn rules_run(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, rs) = model_of!(ctx, "RulesRun", args, Rules, "rules");
    let mut mem = rules_memory(ctx, &name, rs);
    let fired: Vec<Value> =
        rs.run(&mut mem.0, &mut mem.1, ctx.rng, 10_000).iter().map(|f| Value::from(f.rule)).collect();
    save_rules(ctx, &name, rs, &mem);
    Ok(Value::List(fired))
}

/// `RulesFact(model, fact)`.
pub fn rules_fact(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, rs) = model_of!(ctx, "RulesFact", args, Rules, "rules");
    let fact = str_arg("RulesFact", args, 1)?;
    let mem = rules_memory(ctx, &name, rs);
    rs.value(&mem.0, fact).cloned().ok_or_else(|| decide_err("RulesFact", format!("unknown fact `{fact}`")))
}

/// `RulesProve(model, fact, value)`.
pub fn rules_prove(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, rs) = model_of!(ctx, "RulesProve", args, Rules, "rules");
    let fact = str_arg("RulesProve", args, 1)?;
    let mem = rules_memory(ctx, &name, rs);
    let proof =
        rs.prove(&mem.0, fact, args.get(2).cloned().unwrap_or_default()).map_err(|e| decide_err("RulesProve", e))?;
    Ok(Value::Bool(proof.proven))
}

/// `BayesQuery(model, node, state[, evidence])`.
pub fn bayes_query(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, net) = model_of!(ctx, "BayesQuery", args, Bayes, "bayes");
    let (node, state) = (str_arg("BayesQuery", args, 1)?, str_arg("BayesQuery", args, 2)?);
    let evidence = inputs(ctx, "BayesQuery", args, 3, &name)?;
    let post = net.query_value(node, &evidence).map_err(|e| decide_err("BayesQuery", e))?;
    match post {
        Value::Map(m) => m
            .get(state)
            .cloned()
            .ok_or_else(|| decide_err("BayesQuery", format!("node `{node}` has no state `{state}`"))),
        _ => Ok(Value::Nil),
    }
}

/// The situation a brain sees and the brain's blackboard: a full situation table (one with `me`)
/// as given; otherwise this character as `me`, the given table (or its `ModelInput` values) as
/// both its data and the blackboard, the other entities as actors with their attributes.
fn situation(
    ctx: &ScriptCtx<'_>,
    f: &'static str,
    args: &[Value],
    name: &str,
) -> Result<(Situation, Table), HostError> {
    if let Some(Value::Map(m)) = args.get(1)
        && m.contains_key("me")
    {
        let board = match m.get("blackboard") {
            Some(Value::Map(b)) => b.clone(),
            _ => Table::new(),
        };
        return Ok((Situation::from_value(&Value::Map(m.clone())), board));
    }
    let data = inputs(ctx, f, args, 1, name)?;
    let actor = |n: &str, pos: glam::Vec2, data: Table| {
        Value::Map(Table::from([
            ("name".to_owned(), Value::from(n)),
            ("position".to_owned(), Value::Vec2(pos)),
            ("data".to_owned(), Value::Map(data)),
        ]))
    };
    let me = ctx.me();
    let actors: Vec<Value> = ctx
        .world
        .entities()
        .filter(|(id, _)| *id != ctx.me)
        .map(|(_, e)| actor(&e.name, e.position, e.attributes.clone()))
        .collect();
    let v = Value::Map(Table::from([
        (
            "me".to_owned(),
            actor(me.map_or("", |e| e.name.as_str()), me.map_or(glam::Vec2::ZERO, |e| e.position), data.clone()),
        ),
        ("actors".to_owned(), Value::List(actors)),
        ("globals".to_owned(), Value::Map(ctx.world.globals.clone())),
        ("time".to_owned(), Value::Float(ctx.world.clock().seconds())),
    ]));
    Ok((Situation::from_value(&v), data))
}

fn decide_once(ctx: &mut ScriptCtx<'_>, f: &'static str, args: &[Value]) -> Result<Value, HostError> {
    let (name, brain) = model_of!(ctx, f, args, Utility, "utility");
    let (sit, blackboard) = situation(ctx, f, args, &name)?;
    // A fresh brain state per call: the decision is made from this situation alone (option
    // histories, cooldowns and running sequences are not carried between calls).
    let mut state = tactica_engine::decide::utility::BrainState::default();
    state.blackboard = blackboard;
    Ok(brain.update(&mut state, &sit, ctx.rng).to_value())
}

/// `UtilityChoose(model[, situation])`.
pub fn utility_choose(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let d = decide_once(ctx, "UtilityChoose", args)?;
    Ok(match d {
        Value::Map(m) => match m.get("path") {
            Some(Value::List(p)) => p.first().cloned().unwrap_or_default(),
            _ => Value::Nil,
        },
        _ => Value::Nil,
    })
}

/// `UtilityDecide(model, situation)`.
pub fn utility_decide(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    decide_once(ctx, "UtilityDecide", args)
}

fn nn_outputs(
    ctx: &ScriptCtx<'_>,
    f: &'static str,
    args: &[Value],
    at: usize,
) -> Result<(Vec<f64>, Vec<String>), HostError> {
    let (name, net) = model_of!(ctx, f, args, Nn, "nn");
    let xs = numbers(&inputs(ctx, f, args, at, &name)?);
    Ok((net.run(|n| xs.get(n).copied().unwrap_or(0.0)), net.outputs.clone()))
}

/// `NnRun(model[, inputs])`.
pub fn nn_run(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (out, names) = nn_outputs(ctx, "NnRun", args, 1)?;
    // The first of equal outputs wins, as the book's `GetMaxOutputID` does.
    let best = out.iter().enumerate().fold(0, |b, (i, &v)| if v > out[b] { i } else { b });
    Ok(Value::from(names[best].as_str()))
}

/// The population of the genetic model named by argument 0.
fn genetic_run<'w>(
    ctx: &ScriptCtx<'w>,
    f: &'static str,
    args: &[Value],
) -> Result<(String, &'w tactica_engine::decide::learn::GeneticRun), HostError> {
    let (name, _) = model_of!(ctx, f, args, Genetic, "genetic");
    let run = ctx.world.genetics(&name).ok_or_else(|| decide_err(f, format!("`{name}` has no population")))?;
    Ok((name, run))
}

fn slot_arg(f: &'static str, args: &[Value], size: usize) -> Result<usize, HostError> {
    match args.get(1).and_then(Value::as_f64) {
        Some(v) if v >= 0.0 && (v as usize) < size && v.fract() == 0.0 => Ok(v as usize),
        _ => Err(bad(f, 1, format!("a slot from 0 to {}", size.saturating_sub(1)), shown(args.get(1)))),
    }
}

/// The history of the adaptive model named by argument 0, and the index of the tactic named by
/// argument `tactic_at` when asked.
fn adaptive_of<'w>(
    ctx: &ScriptCtx<'w>,
    f: &'static str,
    args: &[Value],
    tactic_at: Option<usize>,
) -> Result<(String, &'w tactica_engine::decide::adaptive::TacticHistory, usize), HostError> {
    let (name, _) = model_of!(ctx, f, args, Adaptive, "adaptive");
    let history = ctx.world.adaptive(&name).ok_or_else(|| decide_err(f, format!("`{name}` has no history")))?;
    let Some(i) = tactic_at else { return Ok((name, history, 0)) };
    let tactic = str_arg(f, args, i)?;
    let index = history.tactics.iter().position(|t| t == tactic).ok_or_else(|| {
        let hint = crate::names::suggest(tactic, history.tactics.iter().map(String::as_str))
            .map_or_else(|| history.tactics.join(", "), |s| format!("did you mean `{s}`?"));
        bad(f, i, format!("a tactic of `{name}` ({hint})"), format!("`{tactic}`"))
    })?;
    Ok((name, history, index))
}

/// `AdaptiveChoose(model, context)`.
pub fn adaptive_choose(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (_, history, _) = adaptive_of(ctx, "AdaptiveChoose", args, None)?;
    let context = str_arg("AdaptiveChoose", args, 1)?;
    let choice = history.choose(context, ctx.rng);
    Ok(choice.and_then(|i| history.tactics.get(i)).map_or(Value::Nil, |t| Value::from(t.as_str())))
}

/// `AdaptiveRecord(model, context, tactic, success)`.
pub fn adaptive_record(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (model, _, tactic) = adaptive_of(ctx, "AdaptiveRecord", args, Some(2))?;
    let context = str_arg("AdaptiveRecord", args, 1)?.to_owned();
    let success = args
        .get(3)
        .and_then(Value::as_f64)
        .filter(|v| v.is_finite())
        .ok_or_else(|| bad("AdaptiveRecord", 3, "a number from 0 to 1", shown(args.get(3))))?;
    ctx.commands.push(Command::AdaptiveRecord { model, context, tactic, success });
    Ok(Value::Nil)
}

/// `AdaptiveRate(model, context, tactic)`.
pub fn adaptive_rate(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (_, history, tactic) = adaptive_of(ctx, "AdaptiveRate", args, Some(2))?;
    let context = str_arg("AdaptiveRate", args, 1)?;
    Ok(history.success_rate(context, tactic).map_or(Value::Nil, Value::Float))
}

/// An argument as an error shows it: its value when it is a number, else its type.
fn shown(v: Option<&Value>) -> String {
    match v {
        Some(n @ (Value::Int(_) | Value::Float(_))) => n.to_string(),
        Some(other) => other.value_type().to_string(),
        None => "nothing".to_owned(),
    }
}

/// `GeneticGenome(model, slot)`.
pub fn genetic_genome(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (_, run) = genetic_run(ctx, "GeneticGenome", args)?;
    let slot = slot_arg("GeneticGenome", args, run.population.individuals.len())?;
    let genes = &run.population.individuals[slot].genes;
    Ok(Value::List(genes.iter().map(|&g| Value::Int(i64::from(g))).collect()))
}

/// `GeneticScore(model, slot, done, received)`.
pub fn genetic_score(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (model, run) = genetic_run(ctx, "GeneticScore", args)?;
    let slot = slot_arg("GeneticScore", args, run.population.individuals.len())?;
    let tally = |i: usize| {
        args.get(i)
            .and_then(Value::as_f64)
            .filter(|v| v.is_finite() && *v >= 0.0)
            .ok_or_else(|| bad("GeneticScore", i, "a finite amount, 0 or more", shown(args.get(i))))
    };
    let (done, received) = (tally(2)?, tally(3)?);
    ctx.commands.push(Command::GeneticScore { model, slot, done, received });
    Ok(Value::Nil)
}

/// `GeneticEvolve(model)`.
pub fn genetic_evolve(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (model, _) = genetic_run(ctx, "GeneticEvolve", args)?;
    ctx.commands.push(Command::GeneticEvolve { model });
    Ok(Value::Nil)
}

/// `GeneticGeneration(model)`.
pub fn genetic_generation(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (_, run) = genetic_run(ctx, "GeneticGeneration", args)?;
    Ok(Value::Int(i64::from(run.generation)))
}

/// `NnOutput(model, output)`.
pub fn nn_output(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let output = str_arg("NnOutput", args, 1)?;
    let (out, names) = nn_outputs(ctx, "NnOutput", args, 2)?;
    let i = names
        .iter()
        .position(|n| n == output)
        .ok_or_else(|| decide_err("NnOutput", format!("no output `{output}`")))?;
    Ok(Value::Float(out[i]))
}

/// `HourOfDay()`.
pub fn hour_of_day(ctx: &mut ScriptCtx<'_>, _args: &[Value]) -> Result<Value, HostError> {
    let g = |n: &str, d: f64| ctx.world.globals.get(n).and_then(Value::as_f64).unwrap_or(d);
    let per_hour = g("SecondsPerHour", 3600.0).max(1e-9);
    Ok(Value::Float((g("DayStartHour", 0.0) + ctx.world.clock().seconds() / per_hour).rem_euclid(24.0)))
}

/// `ScheduleTask(model, hour)`.
pub fn schedule_task(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (_, s) = model_of!(ctx, "ScheduleTask", args, Schedule, "schedule");
    let hour = num_arg("ScheduleTask", args, 1)?;
    Ok(s.block_at(hour).and_then(|b| b.tasks.first()).map_or(Value::Nil, |t| Value::from(t.as_str())))
}

/// `ScheduleDue(model, from, to)`.
pub fn schedule_due(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (_, s) = model_of!(ctx, "ScheduleDue", args, Schedule, "schedule");
    let (from, to) = (num_arg("ScheduleDue", args, 1)?, num_arg("ScheduleDue", args, 2)?);
    let mut due = Vec::new();
    s.due(from, to, ctx.rng, &mut due);
    Ok(Value::List(due.iter().flat_map(|o| o.tasks.iter().map(|t| Value::from(t.as_str()))).collect()))
}

/// A character's action queue: the script asked for (`origin`), the one running (a fallback
/// replaces it) and the index of its next step.
struct Queue {
    origin: String,
    script: String,
    next: usize,
}

fn load_queue(ctx: &ScriptCtx<'_>, name: &str) -> Option<Queue> {
    let m = state_map(ctx, &key("queue", name));
    Some(Queue {
        origin: m.get("origin")?.as_str()?.to_owned(),
        script: m.get("script")?.as_str()?.to_owned(),
        next: usize::try_from(m.get("next")?.as_i64()?).ok()?,
    })
}

fn save_queue(ctx: &mut ScriptCtx<'_>, name: &str, q: &Queue) {
    ctx.state.insert(
        key("queue", name),
        Value::Map(Table::from([
            ("origin".to_owned(), Value::from(q.origin.as_str())),
            ("script".to_owned(), Value::from(q.script.as_str())),
            ("next".to_owned(), Value::Int(i64::try_from(q.next).unwrap_or(i64::MAX))),
        ])),
    );
}

/// Flushes the queue and starts the running script's fallback (or leaves it empty); records a
/// `queue_fail` note.
fn fail_queue(ctx: &mut ScriptCtx<'_>, lib: &tactica_engine::decide::crowd::ScriptLibrary, q: &mut Queue, why: &str) {
    let entity = ctx.me().map(|_| ctx.me);
    ctx.commands.push(Command::Emit {
        entity,
        event: EventKind::Note { name: "queue_fail".to_owned(), value: Value::Str(format!("{}: {why}", q.script)) },
    });
    match lib.id(&q.script).and_then(|id| lib.fallback(id)) {
        Some(fb) => {
            q.script = lib.name(fb).to_owned();
            q.next = 0;
        }
        None => q.next = usize::MAX,
    }
}

/// `QueueRun(model, script)`.
pub fn queue_run(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, lib) = model_of!(ctx, "QueueRun", args, Actions, "actions");
    let wanted = str_arg("QueueRun", args, 1)?;
    if lib.id(wanted).is_none() {
        return Err(bad("QueueRun", 1, "a script of the action library", format!("`{wanted}`")));
    }
    let me = ctx.me().ok_or(HostError::NoSelf)?;
    let idle = me.actions.is_empty();
    let mut q = load_queue(ctx, &name).unwrap_or(Queue { origin: String::new(), script: String::new(), next: 0 });
    if q.origin != wanted {
        // Another script asked for: flush and start it (open loop — whatever ran is dropped).
        q = Queue { origin: wanted.to_owned(), script: wanted.to_owned(), next: 0 };
    }
    if idle {
        let steps = lib.id(&q.script).map_or(&[][..], |id| lib.steps(id));
        if q.next >= steps.len() {
            // Done (or flushed without a fallback): block tasks loop.
            q.script = wanted.to_owned();
            q.next = 0;
        }
        let steps = lib.id(&q.script).map_or(&[][..], |id| lib.steps(id));
        if let Some(step) = steps.get(q.next) {
            q.next += 1;
            match step {
                StepSpec::MoveTo(place) => {
                    let resolved = match place.strip_prefix('$') {
                        Some(slot) => me
                            .blackboard
                            .get(slot)
                            .or_else(|| me.attributes.get(slot))
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        None => Some(place.clone()),
                    };
                    let world = ctx.world;
                    let closed = |p: &str| world.globals.get(&format!("closed:{p}")).is_some_and(Value::truthy);
                    match resolved.as_deref().map(|p| (p, world.place(p))) {
                        Some((p, Some(_))) if closed(p) => fail_queue(ctx, lib, &mut q, &format!("`{p}` is closed")),
                        Some((p, Some(target))) => {
                            // Walk around walls: an A* path on the world's map, cell centres.
                            let mut cells = Vec::new();
                            let found =
                                AStar::new().find(world.map(), me.cell(), target.floor().as_ivec2(), &mut cells);
                            match found {
                                Ok(_) => {
                                    let points: Vec<glam::Vec2> =
                                        cells.iter().skip(1).map(|c| c.as_vec2() + glam::Vec2::splat(0.5)).collect();
                                    if !points.is_empty() {
                                        ctx.act(Action::FollowPath { points, next: 0 });
                                    }
                                }
                                Err(_) => fail_queue(ctx, lib, &mut q, &format!("no way to `{p}`")),
                            }
                        }
                        Some((p, None)) => fail_queue(ctx, lib, &mut q, &format!("no place `{p}`")),
                        None => fail_queue(ctx, lib, &mut q, &format!("no memory `{place}`")),
                    }
                }
                StepSpec::Wait(t) => ctx.act(Action::Sleep { ticks: *t }),
                StepSpec::Say(text) => ctx.perform(Action::Say { text: text.clone() }),
                StepSpec::Emit(what) => {
                    let entity = Some(ctx.me);
                    ctx.commands.push(Command::Emit {
                        entity,
                        event: EventKind::Note { name: "emit".to_owned(), value: Value::from(what.as_str()) },
                    });
                }
            }
        }
    }
    let running = q.script.clone();
    save_queue(ctx, &name, &q);
    Ok(Value::Str(running))
}

/// `QueueFail(model)`.
pub fn queue_fail(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, lib) = model_of!(ctx, "QueueFail", args, Actions, "actions");
    let Some(mut q) = load_queue(ctx, &name) else { return Ok(Value::Nil) };
    let before = q.script.clone();
    fail_queue(ctx, lib, &mut q, "failed by the script");
    save_queue(ctx, &name, &q);
    Ok(if q.next == 0 && q.script != before { Value::Str(q.script) } else { Value::Nil })
}

/// `QueueCurrent(model)`.
pub fn queue_current(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    let (name, _) = model_of!(ctx, "QueueCurrent", args, Actions, "actions");
    Ok(load_queue(ctx, &name).map_or(Value::Nil, |q| Value::Str(q.script)))
}

/// A list of strings, or comma-separated text.
fn words(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::List(items)) => {
            items.iter().map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_owned)).collect()
        }
        Some(Value::Str(s)) => s.split(',').map(str::trim).filter(|w| !w.is_empty()).map(str::to_owned).collect(),
        _ => Vec::new(),
    }
}

fn plan_list(ctx: &ScriptCtx<'_>, f: &'static str, args: &[Value]) -> Result<Option<Vec<String>>, HostError> {
    let (_, planner) = model_of!(ctx, f, args, Planner, "planner");
    let (goal, state) = (words(args.get(1)), words(args.get(2)));
    let goal = planner
        .literals(&goal.iter().map(String::as_str).collect::<Vec<_>>())
        .map_err(|e| bad(f, 1, "goal literals", e.to_string()))?;
    let state = planner
        .state(&state.iter().map(String::as_str).collect::<Vec<_>>())
        .map_err(|e| bad(f, 2, "propositions", e.to_string()))?;
    Ok(planner.search(state, goal, 12).map(|p| p.iter().map(|&a| planner.action(a).to_owned()).collect()))
}

/// `Plan(model, goal, state)`.
pub fn plan(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    Ok(plan_list(ctx, "Plan", args)?.map_or(Value::Nil, |p| Value::List(p.into_iter().map(Value::Str).collect())))
}

/// `PlanNext(model, goal, state)`.
pub fn plan_next(ctx: &mut ScriptCtx<'_>, args: &[Value]) -> Result<Value, HostError> {
    Ok(plan_list(ctx, "PlanNext", args)?.and_then(|p| p.into_iter().next()).map_or(Value::Nil, Value::Str))
}
