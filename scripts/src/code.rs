//! The compiled form: one flat array of stack-machine instructions with a parallel array of
//! source spans, and tables saying which chunk of it each record, handler, state, rule and role
//! runs. Compact, cheap to clone, and free of the syntax tree.
//!
//! After compiling, `Script::fuse` overwrites the first instruction of common shapes with a
//! superinstruction (`if f() < k` as one call-compare-jump, `Const` then `Binary`, `Call` then
//! `Pop`, a fact compared with a constant) and leaves the instructions it covers in place, so
//! jump targets and spans keep their indices. The VM counts a fused instruction's steps as the
//! plain ones would, so a budget stops a run at the same instruction either way; the tests here
//! run every script fused and unfused and compare. A file of top-level statements only
//! (`top_level_only`) runs on a shorter path, without the handler, rule and machine machinery.

use std::sync::Arc;

use tactica_engine::Value;
use tactica_engine::decide::fsm::StateMachine;
use tactica_engine::decide::rules::RuleSet;
use tactica_stdlib::Api;

use crate::ast::BinOp;
use crate::lexer::Span;

/// One instruction. Chunks end with [`Op::Return`], which returns the top of the stack (or nil).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// Push constant `n`.
    Const(u32),
    /// Push nil.
    Nil,
    /// Push a local.
    LoadLocal(u32),
    /// Pop into a local.
    StoreLocal(u32),
    /// Push an engine global.
    LoadGlobal(u32),
    /// Push a fact of working memory.
    LoadFact(u32),
    /// Pop into a fact of working memory.
    StoreFact(u32),
    /// Pop a value and set the attribute named by constant `n` (checked against the schema).
    SetAttribute(u32),
    /// Call host function `f` with the top `argc` values; push its result.
    Call {
        /// The function's index in the API.
        f: u32,
        /// How many arguments.
        argc: u8,
    },
    /// Drop the top value.
    Pop,
    /// Logical not.
    Not,
    /// Negate a number.
    Neg,
    /// Replace the top value by its truthiness.
    ToBool,
    /// A binary operator (not `and`/`or`, which compile to jumps).
    Binary(BinOp),
    /// Jump.
    Jump(u32),
    /// Pop; jump when falsy.
    JumpIfFalse(u32),
    /// Edge detector `n`: in edge mode, replace the condition on top by "it just became true".
    Edge(u32),
    /// Pop `n` lines and say one picked with the world's generator.
    SayOneOf(u32),
    /// Send the signal named by constant `n` in the current scope.
    Signal(u32),
    /// Wait for the signal named by constant `n` in the current scope.
    Wait(u32),
    /// Start the sequence named by constant `n`.
    Start(u32),
    /// Pop a value; push whether backward chaining proves fact `n` has it.
    Prove(u32),
    /// Return the top of the stack (nil when empty).
    Return,
    /// In a sequence role, before a top-level `if`: when the role has already queued actions in
    /// this run, stop here and go on once the character has carried them out, so the condition
    /// is read when the role reaches it, not when the sequence starts.
    Suspend,
    /// Superinstructions (see [`Script::fuse`]): each does the work of the instruction it
    /// replaced and of the one (or two) after it, which stay in place (a jump may land on them)
    /// and are skipped. Fewer dispatches, and the constant of `BinaryConst` is read where it lies.
    ///
    /// `Const(c)` then `Binary(op)`.
    BinaryConst {
        /// The operator.
        op: BinOp,
        /// The constant, the right operand.
        c: u32,
    },
    /// `Call { f, argc }`, `Const(c)`, `Binary(op)`, `Edge` when `edge`, then `JumpIfFalse(to)`:
    /// an `if` on a host function's result (`if (DistanceToPlayer() < 3)`), decided without
    /// putting the result or the condition on the stack.
    CallCompareJump {
        /// The function's index in the API.
        f: u32,
        /// How many arguments.
        argc: u8,
        /// The operator.
        op: BinOp,
        /// Whether an `Edge` comes before the jump (a top-level `if`).
        edge: bool,
        /// The constant, the right operand.
        c: u32,
        /// Where to jump when the condition does not hold.
        to: u32,
    },
    /// `Call { f, argc }`, `Const(c)`, then `Binary(op)`: a condition on a host function's
    /// result (`DistanceToPlayer() < 3`), compared without going through the stack.
    CallBinaryConst {
        /// The function's index in the API.
        f: u32,
        /// How many arguments.
        argc: u8,
        /// The operator.
        op: BinOp,
        /// The constant, the right operand.
        c: u32,
    },
    /// `LoadFact(f)`, `Const(c)`, then `Binary(op)` with `op` a comparison: a rule's test of a
    /// fact (`Idle == Yes`), made where the fact is kept. A text fact is not copied to be compared.
    FactCompareConst {
        /// The fact.
        f: u32,
        /// The comparison.
        op: BinOp,
        /// The constant, the right operand.
        c: u32,
    },
    /// `Call { f, argc }` then `Pop`: a call made for what it does.
    CallPop {
        /// The function's index in the API.
        f: u32,
        /// How many arguments.
        argc: u8,
    },
    /// `Edge(slot)` then `JumpIfFalse(to)`: a top-level `if`.
    EdgeJumpIfFalse {
        /// The edge detector.
        slot: u32,
        /// Where to jump when the condition is falsy.
        to: u32,
    },
}

impl Op {
    /// The instruction a superinstruction replaced (itself for any other).
    pub fn unfused(self) -> Op {
        match self {
            Op::BinaryConst { c, .. } => Op::Const(c),
            Op::CallPop { f, argc } | Op::CallBinaryConst { f, argc, .. } | Op::CallCompareJump { f, argc, .. } => {
                Op::Call { f, argc }
            }
            Op::EdgeJumpIfFalse { slot, .. } => Op::Edge(slot),
            Op::FactCompareConst { f, .. } => Op::LoadFact(f),
            op => op,
        }
    }

    /// The superinstruction doing `self` and the instructions after it (`next`), if there is one.
    fn fused(self, next: &[Op]) -> Option<Op> {
        Some(match (self, next) {
            (Op::Call { f, argc }, [Op::Const(c), Op::Binary(op), Op::JumpIfFalse(to), ..]) if is_ordering(*op) => {
                Op::CallCompareJump { f, argc, op: *op, edge: false, c: *c, to: *to }
            }
            (Op::Call { f, argc }, [Op::Const(c), Op::Binary(op), Op::Edge(_), Op::JumpIfFalse(to), ..])
                if is_ordering(*op) =>
            {
                Op::CallCompareJump { f, argc, op: *op, edge: true, c: *c, to: *to }
            }
            (Op::Call { f, argc }, [Op::Const(c), Op::Binary(op), ..]) => {
                Op::CallBinaryConst { f, argc, op: *op, c: *c }
            }
            (Op::LoadFact(f), [Op::Const(c), Op::Binary(op), ..]) if is_comparison(*op) => {
                Op::FactCompareConst { f, op: *op, c: *c }
            }
            (Op::Const(c), [Op::Binary(op), ..]) => Op::BinaryConst { op: *op, c },
            (Op::Call { f, argc }, [Op::Pop, ..]) => Op::CallPop { f, argc },
            (Op::Edge(slot), [Op::JumpIfFalse(to), ..]) => Op::EdgeJumpIfFalse { slot, to: *to },
            _ => return None,
        })
    }
}

/// Whether `op` is `<`, `<=`, `>` or `>=`, the operators a numeric comparison decides.
fn is_ordering(op: BinOp) -> bool {
    matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
}

/// Whether `op` compares (an ordering, `==` or `!=`): its result is a truth value, never text
/// that a size limit would have to check.
fn is_comparison(op: BinOp) -> bool {
    is_ordering(op) || matches!(op, BinOp::Eq | BinOp::Ne)
}

/// A compiled classic record or creature block.
#[derive(Debug, Clone)]
pub struct RecordCode {
    /// `CREATURE=n` of a classic record.
    pub creature: Option<i64>,
    /// The kind of a `creature Kind { … }` block.
    pub kind: Option<String>,
    /// Its chunk.
    pub entry: u32,
}

/// What a handler reacts to, compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandlerEvent {
    /// Spawn.
    Spawn,
    /// Think tick.
    Think,
    /// Every tick.
    Tick,
    /// Encounter.
    Encounter,
    /// Hear.
    Hear,
    /// The file was reloaded (`on reload`).
    Reload,
    /// Every tick, when the condition chunk just became true (`on enter`, `when`).
    Edge {
        /// The condition chunk.
        cond: u32,
        /// Its edge detector.
        slot: u32,
    },
}

/// A compiled handler.
#[derive(Debug, Clone)]
pub struct HandlerCode {
    /// What it reacts to.
    pub event: HandlerEvent,
    /// Fires at most once per instance: the index of its once flag.
    pub once: Option<u32>,
    /// Its body chunk.
    pub entry: u32,
}

/// A compiled state.
#[derive(Debug, Clone)]
pub struct StateCode {
    /// Its name.
    pub name: String,
    /// Entry chunk.
    pub entry: Option<u32>,
    /// Tick chunk.
    pub tick: Option<u32>,
    /// Exit chunk.
    pub exit: Option<u32>,
}

/// A compiled state machine.
#[derive(Debug, Clone)]
pub struct MachineCode {
    /// Its name.
    pub name: String,
    /// Its states' chunks, by state id.
    pub states: Vec<StateCode>,
    /// The machine on the engine's state-machine model: guards are condition chunks (`None`:
    /// always), hooks name the state's `entry`, `exit` and `tick` chunks.
    pub model: StateMachine<Option<u32>>,
}

pub use tactica_engine::decide::rules::Strategy;

/// What a rule's condition reads (its refraction key is the values of these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Read {
    /// A fact.
    Fact(u32),
    /// A global.
    Global(u32),
}

/// A compiled rule.
#[derive(Debug, Clone)]
pub struct RuleCode {
    /// Its name (`#n` when unnamed).
    pub name: String,
    /// Its weight.
    pub weight: i64,
    /// The if-part chunk.
    pub cond: u32,
    /// The then-part chunk.
    pub then: u32,
    /// What the if-part reads, sorted.
    pub reads: Vec<Read>,
    /// The if-part as a conjunction of `fact == constant`, when it is one (for backward chaining).
    pub conjuncts: Option<Vec<(u32, Value)>>,
    /// The `fact = constant` assignments of the then-part (for backward chaining).
    pub asserts: Vec<(u32, Value)>,
}

/// A compiled rule system.
#[derive(Debug, Clone)]
pub struct RulesCode {
    /// Its name.
    pub name: String,
    /// Its conflict resolution.
    pub strategy: Strategy,
    /// Its facts: (fact id, initial-value chunk).
    pub facts: Vec<(u32, u32)>,
    /// Its rules, in authoring order.
    pub rules: Vec<RuleCode>,
}

/// A compiled sequence.
#[derive(Debug, Clone)]
pub struct SequenceCode {
    /// Its name.
    pub name: String,
    /// Its roles: (name, chunk).
    pub roles: Vec<(String, u32)>,
}

/// A checked, compiled script: everything the VM needs, nothing of the syntax tree.
#[derive(Debug, Clone)]
pub struct Script {
    /// The file name (for run-time error positions).
    pub file: String,
    /// The source (for run-time error positions).
    pub(crate) src: Arc<str>,
    /// The API it was checked against; calls index into it.
    pub(crate) api: Arc<Api>,
    /// All instructions.
    pub(crate) code: Vec<Op>,
    /// The span of each instruction.
    pub(crate) spans: Vec<Span>,
    /// Constants.
    pub(crate) consts: Vec<Value>,
    /// Locals a frame needs.
    pub(crate) n_locals: u32,
    /// Edge detectors an instance needs.
    pub(crate) n_edges: u32,
    /// Once flags an instance needs.
    pub(crate) n_once: u32,
    /// Fact names, by id.
    pub(crate) facts: Vec<String>,
    /// The top-level statements' chunk.
    pub(crate) main: Option<u32>,
    /// The kind the file declares (`kind dialogue;`), if it does.
    pub(crate) declared_kind: Option<crate::ScriptKind>,
    /// Whether the top level sets attributes (so it also runs at spawn in a behaviour file).
    pub(crate) records: Vec<RecordCode>,
    /// Handlers.
    pub(crate) handlers: Vec<HandlerCode>,
    /// State machines.
    pub(crate) machines: Vec<MachineCode>,
    /// Rule systems.
    pub(crate) rules: Vec<RulesCode>,
    /// Every rule of the file on the engine's rule model, for `prove` (backward chaining).
    pub(crate) proofs: Option<RuleSet>,
    /// Sequences.
    pub(crate) sequences: Vec<SequenceCode>,
    /// Behaviour-tree leaves: name as written, entry.
    pub(crate) leaves: Vec<(String, u32)>,
    /// Whether the file is top-level statements only (no records, handlers, machines, rules or
    /// sequences), which a run takes a shorter path for. Set with the code.
    pub(crate) top_level_only: bool,
}

impl Script {
    /// The id of working-memory fact `name` (any case), as [`crate::prove`] takes it.
    pub fn fact_id(&self, name: &str) -> Option<u32> {
        self.facts.iter().position(|f| f.eq_ignore_ascii_case(name)).map(|i| i as u32)
    }

    /// How many instructions it compiled to.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// Whether it compiled to nothing.
    pub fn is_empty(&self) -> bool {
        self.main.is_none()
            && self.records.is_empty()
            && self.handlers.is_empty()
            && self.machines.is_empty()
            && self.rules.is_empty()
            && self.sequences.is_empty()
            && self.leaves.is_empty()
    }

    /// The kind a host runs the file as on a character: the one it declares (`kind dialogue;`),
    /// else the one its top level suggests ([`Script::inferred_kind`]).
    pub fn default_kind(&self) -> crate::ScriptKind {
        self.declared_kind.unwrap_or_else(|| self.inferred_kind().0)
    }

    /// The kind the top level suggests, the instruction that decided it, and whether the top
    /// level also does things of another kind (so that the choice changed what some lines mean):
    /// attributes when it sets attributes, dialogue when it speaks or asks, events when it
    /// triggers a trap (so that a trap fires once per visit wherever it is attached), behaviour
    /// otherwise.
    pub fn inferred_kind(&self) -> (crate::ScriptKind, Option<usize>, bool) {
        use crate::ScriptKind::{Attributes, Behaviour, Dialogue, Events};
        let Some(main) = self.main else { return (Behaviour, None, false) };
        // The first instruction that is evidence of each kind, in precedence order.
        let mut first: [Option<usize>; 4] = [None; 4];
        let ops = self.code.iter().map(|op| op.unfused()).enumerate().skip(main as usize);
        for (at, op) in ops.take_while(|(_, op)| *op != Op::Return) {
            let slot = match op {
                Op::SetAttribute(_) => Some(0),
                Op::SayOneOf(_) => Some(1),
                Op::Call { f, .. } => self.api.function(f as usize).and_then(|h| match h.name {
                    "Say" | "Ask" => Some(1),
                    "Trigger" => Some(2),
                    // Things any kind does: sounds, notes, the world's and one's own memory.
                    "PlaySound" | "Note" | "SetGlobal" | "SetBlackboard" => None,
                    _ if h.ret == tactica_stdlib::Type::Nil => Some(3),
                    _ => None,
                }),
                _ => None,
            };
            if let Some(k) = slot {
                first[k].get_or_insert(at);
            }
        }
        let kinds = [Attributes, Dialogue, Events, Behaviour];
        let Some(k) = first.iter().position(Option::is_some) else { return (Behaviour, None, false) };
        let mixed = first.iter().enumerate().any(|(i, f)| i != k && f.is_some());
        (kinds[k], first[k], mixed)
    }

    /// Where instruction `at` came from.
    pub fn span_of(&self, at: usize) -> Option<&Span> {
        self.spans.get(at)
    }

    /// The names of its sequences.
    pub fn sequence_names(&self) -> impl Iterator<Item = &str> {
        self.sequences.iter().map(|s| s.name.as_str())
    }

    /// The roles of a sequence.
    pub fn roles(&self, sequence: &str) -> Vec<&str> {
        self.sequences
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(sequence))
            .map(|s| s.roles.iter().map(|(r, _)| r.as_str()).collect())
            .unwrap_or_default()
    }

    /// Replaces each instruction that has a superinstruction with the ones after it by that
    /// superinstruction. The instructions after it stay, so jump targets and spans keep their
    /// indices, and an error in either half reports the position of the instruction it came from.
    pub(crate) fn fuse(&mut self) {
        let compiled: Vec<Op> = self.code.iter().map(|op| op.unfused()).collect();
        for (i, op) in compiled.iter().enumerate() {
            if let Some(fused) = op.fused(&compiled[i + 1..]) {
                self.code[i] = fused;
            }
        }
    }

    /// The same script without superinstructions (what [`Script::fuse`] started from), run on
    /// the general path: what the fast paths must agree with.
    #[cfg(test)]
    pub(crate) fn general(&self) -> Script {
        let mut plain = self.clone();
        plain.code = self.code.iter().map(|op| op.unfused()).collect();
        plain.top_level_only = false;
        plain
    }

    /// The instructions as text, one per line (what `tactica dump ir` prints): as compiled,
    /// superinstructions shown as the instructions they stand for.
    pub fn disassemble(&self) -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for (i, op) in self.code.iter().map(|op| op.unfused()).enumerate() {
            let detail = match op {
                Op::Const(n) | Op::SetAttribute(n) | Op::Signal(n) | Op::Wait(n) | Op::Start(n) => {
                    format!("  ; {}", self.consts.get(n as usize).map(|v| format!("{v:?}")).unwrap_or_default())
                }
                Op::Call { f, .. } => format!("  ; {}", self.api.function(f as usize).map_or("?", |h| h.name)),
                Op::LoadGlobal(g) => {
                    format!("  ; {}", self.api.global_at(g as usize).map_or("?", |g| g.name.as_str()))
                }
                Op::LoadFact(f) | Op::StoreFact(f) | Op::Prove(f) => {
                    format!("  ; {}", self.facts.get(f as usize).map_or("?", String::as_str))
                }
                _ => String::new(),
            };
            let _ = writeln!(out, "{i:4} {op:?}{detail}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    //! Superinstructions and the top-level-only run are shortcuts: a script must do exactly what
    //! it does without them ([`Script::general`]), down to the step count, the commands issued,
    //! and where an error or the budget stops it.

    use glam::IVec2;
    use proptest::prelude::*;
    use tactica_engine::grid::Map;
    use tactica_engine::world::{Command, CommandBuffer, Entity, EntityId, World, WorldRng};

    use super::*;
    use crate::{Instance, RunReport, RuntimeError, ScriptKind, ScriptLimits, Trigger};

    fn compile(src: &str) -> Script {
        let (script, diags) = crate::check("t.tac", src, &Api::standard());
        script.unwrap_or_else(|| panic!("{src:?} does not check: {diags:?}"))
    }

    fn world() -> (World, Vec<EntityId>) {
        let mut world = World::new(Map::open(16, 16), 10, 1);
        let mut p = Entity::new("player", "Human", IVec2::new(1, 1));
        p.tags.insert("player".into());
        world.spawn(p).unwrap();
        world.globals.insert("PlayerArmed".into(), "Dagger".into());
        // Near (within 3) and far from the player.
        let ids = [IVec2::new(3, 3), IVec2::new(9, 9)]
            .into_iter()
            .enumerate()
            .map(|(i, at)| world.spawn(Entity::new(format!("e{i}"), "Troll", at)).unwrap())
            .collect();
        (world, ids)
    }

    type Outcome = (Result<RunReport, RuntimeError>, Vec<Command>, Instance);

    /// Three think ticks of every entity (edge detectors see a condition twice).
    fn outcomes(script: &Script, kind: ScriptKind, limits: ScriptLimits) -> Vec<Outcome> {
        let (world, ids) = world();
        let mut rng = WorldRng::new(7);
        let mut out = Vec::new();
        for &id in &ids {
            let mut inst = script.instantiate();
            for _ in 0..3 {
                let mut commands = CommandBuffer::default();
                let mut report = RunReport::default();
                let r = script
                    .run_entity(
                        &mut inst,
                        kind,
                        Trigger::Think,
                        &world,
                        id,
                        &mut commands,
                        &mut rng,
                        None,
                        &limits,
                        &mut report,
                    )
                    .map(|()| report);
                out.push((r, commands.as_slice().to_vec(), inst.clone()));
            }
        }
        out
    }

    fn assert_same(src: &str, kind: ScriptKind, limits: ScriptLimits) {
        let script = compile(src);
        let general = script.general();
        assert_eq!(script.disassemble(), general.disassemble(), "{src}");
        assert_eq!(
            outcomes(&script, kind, limits),
            outcomes(&general, kind, limits),
            "{src} as {kind:?} under {limits:?}"
        );
    }

    const SOURCES: &[&str] = &[
        "if (DistanceToPlayer() < 3) DoFlee();\n",
        "if (DistanceToPlayer() >= 3.5) DoFlee();\nif (DistanceToPlayer() <= 2) Say(\"near\");\n",
        "let x = DistanceToPlayer();\nif (x > 2) { DoFlee(); }\n",
        "let n = 0;\nwhile (n < 4) { n = n + 1; if (DistanceToPlayer() < 3) Say(\"near\"); }\n",
        "if (DistanceToPlayer() == 3) DoFlee();\n",
        "while (DistanceToPlayer() < 100) { }\n",
        "let big = 9223372036854775807;\nif (big + 1 > DistanceToPlayer()) DoFlee();\n",
        // Rules testing text and number facts (`FactCompareConst`), one firing twice by refraction.
        "rules Watch {\n  strategy weight;\n  fact Idle = No;\n  fact Leg = 0;\n  \
         rule lead weight 2 when Idle == Yes and Leg >= 0 and Leg != 7 then begin Leg = Leg + 1; Say(\"go\"); end\n  \
         rule rest weight 1 when Idle != Yes and Leg < 2 then Idle = Yes;\n}\n\
         Idle = No;\nif (DistanceToPlayer() > 0) Idle = Yes;\n",
        // A fact compared with what it cannot be ordered against: the error at the `<`.
        "rules R {\n  fact Leg = 0;\n  rule bad when Leg < 3 then Say(\"no\");\n}\nLeg = \"x\";\n",
    ];

    #[test]
    fn the_benchmark_behaviour_compiles_to_superinstructions() {
        let script = compile(SOURCES[0]);
        assert!(matches!(script.code[0], Op::CallCompareJump { edge: true, op: BinOp::Lt, .. }), "{:?}", script.code);
        assert!(script.code.iter().any(|op| matches!(op, Op::CallPop { .. })), "{:?}", script.code);
        assert!(script.top_level_only);
        // What `tactica dump ir` shows does not change.
        assert!(script.disassemble().contains("Call { f: "), "{}", script.disassemble());
    }

    #[test]
    fn a_rule_tests_its_facts_in_place() {
        let script = compile(SOURCES[7]);
        let fused = script.code.iter().filter(|op| matches!(op, Op::FactCompareConst { .. })).count();
        assert_eq!(fused, 5, "{:?}", script.code);
        let (r, commands, _) = outcomes(&script, ScriptKind::Behaviour, ScriptLimits::new()).remove(0);
        r.unwrap();
        assert!(!commands.is_empty(), "the rule said its line");
        let bad = compile(SOURCES[8]);
        let (r, _, _) = outcomes(&bad, ScriptKind::Behaviour, ScriptLimits::new()).remove(0);
        let e = r.unwrap_err();
        assert_eq!((e.code, e.line), (crate::Code::RuntimeType, 3), "{e}");
        assert_same(SOURCES[8], ScriptKind::Behaviour, ScriptLimits::new());
    }

    #[test]
    fn fused_and_general_agree_on_every_kind() {
        for src in SOURCES {
            for kind in [ScriptKind::Behaviour, ScriptKind::Events, ScriptKind::Attributes] {
                assert_same(src, kind, ScriptLimits::new().set_max_ops(200));
            }
        }
    }

    /// Every budget from too small to start to enough: the run stops at the same instruction
    /// (the same E0100, file, line and column) whether or not that instruction was fused.
    #[test]
    fn the_budget_stops_a_run_at_the_same_place() {
        for src in SOURCES {
            for max_ops in 1..40 {
                assert_same(src, ScriptKind::Behaviour, ScriptLimits::new().set_max_ops(max_ops));
            }
        }
        let endless = compile(SOURCES[5]);
        let (r, _, _) = outcomes(&endless, ScriptKind::Behaviour, ScriptLimits::new().set_max_ops(50)).remove(0);
        let e = r.unwrap_err();
        assert_eq!((e.code, e.line), (crate::Code::BudgetExceeded, 1), "{e}");
    }

    #[test]
    fn the_stack_limit_stops_a_run_at_the_same_place() {
        for src in SOURCES {
            for max_stack in 0..4 {
                assert_same(src, ScriptKind::Behaviour, ScriptLimits::new().set_max_ops(200).set_max_stack(max_stack));
            }
        }
    }

    #[test]
    fn a_runtime_error_keeps_its_position() {
        let script = compile(SOURCES[6]);
        assert!(script.code.iter().any(|op| matches!(op, Op::BinaryConst { op: BinOp::Add, .. })), "{:?}", script.code);
        let (r, _, _) = outcomes(&script, ScriptKind::Behaviour, ScriptLimits::new()).remove(0);
        let (fused, general) = (
            r.unwrap_err(),
            outcomes(&script.general(), ScriptKind::Behaviour, ScriptLimits::new()).remove(0).0.unwrap_err(),
        );
        assert_eq!(fused, general);
        assert_eq!((fused.code, fused.file.as_str(), fused.line), (crate::Code::RuntimeType, "t.tac", 2), "{fused}");
        assert_same(SOURCES[6], ScriptKind::Behaviour, ScriptLimits::new());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Random comparisons of a host function's result with a constant, in the shapes the
        /// superinstructions cover and next to them, under random budgets.
        #[test]
        fn random_conditions_agree(
            op in prop::sample::select(vec!["<", "<=", ">", ">=", "==", "!="]),
            k in -2i64..12,
            float in any::<bool>(),
            shape in 0usize..4,
            max_ops in 1u64..30,
            events in any::<bool>(),
        ) {
            let k = if float { format!("{k}.5") } else { k.to_string() };
            let cond = format!("DistanceToPlayer() {op} {k}");
            let src = match shape {
                0 => format!("if ({cond}) DoFlee();\n"),
                1 => format!("let b = {cond};\nif (b) Say(\"yes\");\n"),
                2 => format!("let n = 0;\nwhile ({cond} and n < 3) {{ n = n + 1; DoFlee(); }}\n"),
                _ => format!("if (DistanceToPlayer() - {k} {op} 0) {{ Say(\"a\"); }}\n"),
            };
            let kind = if events { ScriptKind::Events } else { ScriptKind::Behaviour };
            assert_same(&src, kind, ScriptLimits::new().set_max_ops(max_ops));
        }
    }
}
