//! The syntax tree. Every node carries its byte span so diagnostics and run-time errors can point
//! at the source; parse errors leave `Error` nodes behind so checking goes on around them.

use crate::lexer::Span;

/// A name as written, with where it was written. Dotted names (`creature.state`) are one name.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    /// The text as written.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// An expression with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A string.
    Str(String),
    /// `true`/`false` (`TRUE`).
    Bool(bool),
    /// A global, symbol, fact or local.
    Name(Name),
    /// A call of a host function.
    Call {
        /// The function.
        name: Name,
        /// Its arguments.
        args: Vec<Expr>,
    },
    /// `not e`, `-e`.
    Unary {
        /// The operator.
        op: UnOp,
        /// The operand.
        expr: Box<Expr>,
    },
    /// `a op b`.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left.
        lhs: Box<Expr>,
        /// Right.
        rhs: Box<Expr>,
    },
    /// `prove(Fact == Value)`: backward chaining over the file's rules.
    Prove {
        /// The goal fact.
        fact: Name,
        /// The value it should have.
        value: Box<Expr>,
    },
    /// Something that did not parse.
    Error,
}

/// Unary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `not`.
    Not,
    /// `-`.
    Neg,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// `and` (short-circuit).
    And,
    /// `or` (short-circuit).
    Or,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
    /// `%`.
    Rem,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

/// A statement with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    /// What it is.
    pub kind: StmtKind,
    /// Where.
    pub span: Span,
}

/// The kinds of statement.
#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// A call for its effect: `DoFlee();`.
    Expr(Expr),
    /// `NAME = value;`: an attribute (`INTELLIGENCE=20;`), a fact (in rules) or a local.
    Assign {
        /// What is assigned.
        target: Name,
        /// The value.
        value: Expr,
    },
    /// `let x = value;`: a local of this call.
    Let {
        /// The local.
        name: Name,
        /// Its value.
        value: Expr,
    },
    /// `if cond body [else body]`.
    If {
        /// The condition.
        cond: Expr,
        /// Run when it holds.
        then: Vec<Stmt>,
        /// Run when it does not.
        otherwise: Option<Vec<Stmt>>,
    },
    /// `while cond body`.
    While {
        /// The condition.
        cond: Expr,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `repeat n body`.
    Repeat {
        /// How many times.
        count: Expr,
        /// The body.
        body: Vec<Stmt>,
    },
    /// `say one of ["…", "…"];`: one line picked with the world's generator.
    SayOneOf(Vec<Expr>),
    /// `signal ID;`, `signal team ID;`, `signal world ID;`.
    Signal(SignalScope, Name),
    /// `wait ID;`, `wait team ID;`, `wait world ID;`.
    Wait(SignalScope, Name),
    /// `start SEQUENCE;`: starts a sequence of this file, casting each role to the entity of the
    /// starter's team tagged with the role's name.
    Start(Name),
    /// `return success;`: ends a `leaf` with its status.
    Return(Expr),
    /// Something that did not parse.
    Error,
}

/// A top-level item with its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// What it is.
    pub kind: ItemKind,
    /// Where.
    pub span: Span,
}

/// The kinds of top-level item.
#[derive(Debug, Clone, PartialEq)]
pub enum ItemKind {
    /// A top-level statement: run on the script kind's own trigger (see `docs/tac.md`).
    Stmt(Stmt),
    /// A classic attribute record: `CREATURE=1; … END` (reference 002b Example 8-1).
    Record {
        /// The `CREATURE` header and its value.
        header: Name,
        /// The creature type id.
        creature: Expr,
        /// The record's statements.
        body: Vec<Stmt>,
    },
    /// The block form: `creature Troll { intelligence = 20; }`.
    Creature {
        /// The creature kind it applies to.
        kind: Name,
        /// The settings.
        body: Vec<Stmt>,
    },
    /// `on EVENT body`, `when COND body`, optionally `once`.
    Handler {
        /// Fires at most once per instance.
        once: bool,
        /// What it reacts to.
        event: Event,
        /// What it does.
        body: Vec<Stmt>,
    },
    /// A state machine.
    Machine(Machine),
    /// A rule system.
    Rules(Rules),
    /// A group sequence with roles.
    Sequence(Sequence),
    /// `leaf NAME { … }`: a behaviour tree's leaf, ending with `return success;`, `return
    /// failure;` or `return running;`.
    Leaf {
        /// The leaf's name, as trees call it.
        name: Name,
        /// Its statements.
        body: Vec<Stmt>,
    },
    /// `kind dialogue;`: when the file's top level runs, said rather than inferred.
    Kind(Name),
    /// Something that did not parse.
    Error,
}

/// What a handler reacts to.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// `on NAME` as written; the checker resolves it to one of the others (or reports it).
    Named(Name),
    /// The entity spawned.
    Spawn,
    /// Its think tick.
    Think,
    /// Every tick.
    Tick,
    /// The player came into range or view.
    Encounter,
    /// The player typed text (`Ask` reads it).
    Hear,
    /// The player entered a cell or a named place or region (edge-triggered).
    Enter(PlaceRef),
    /// A condition became true (edge-triggered).
    When(Expr),
}

/// A cell or a named place.
#[derive(Debug, Clone, PartialEq)]
pub enum PlaceRef {
    /// `(x, y)`.
    Cell(Expr, Expr),
    /// A place or region name.
    Named(Name),
}

/// `machine NAME { [initial S;] state S { … } … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Machine {
    /// Its name.
    pub name: Name,
    /// The state it starts in (the first state when absent).
    pub initial: Option<Name>,
    /// Its states, in order.
    pub states: Vec<State>,
}

/// One state of a machine.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Its name.
    pub name: Name,
    /// Run when the state is entered.
    pub entry: Vec<Stmt>,
    /// Run on every think tick while in the state.
    pub tick: Vec<Stmt>,
    /// Run when the state is left.
    pub exit: Vec<Stmt>,
    /// Ordered transitions: the first whose condition holds is taken.
    pub transitions: Vec<Transition>,
}

/// `when COND -> TARGET;` or `-> TARGET;`.
#[derive(Debug, Clone, PartialEq)]
pub struct Transition {
    /// The guard; none means always.
    pub cond: Option<Expr>,
    /// The state to go to.
    pub target: Name,
    /// Where.
    pub span: Span,
}

/// `rules NAME { strategy S; fact F = v; rule R [weight w] when C then S … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Rules {
    /// Its name.
    pub name: Name,
    /// The conflict-resolution strategy (`first`, `weight`, `random`).
    pub strategy: Option<Name>,
    /// The working memory's facts and their initial values.
    pub facts: Vec<Fact>,
    /// The rules, in authoring order.
    pub rules: Vec<Rule>,
}

/// A fact of working memory.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    /// Its name.
    pub name: Name,
    /// Its initial value.
    pub init: Expr,
}

/// One production rule.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// Its name, if given.
    pub name: Option<Name>,
    /// Its weight (default 0) for the `weight` strategy.
    pub weight: Option<(i64, Span)>,
    /// The if-part.
    pub cond: Expr,
    /// The then-part.
    pub then: Vec<Stmt>,
    /// Where.
    pub span: Span,
}

/// `sequence NAME { role R { … } … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    /// Its name.
    pub name: Name,
    /// Its roles.
    pub roles: Vec<Role>,
}

/// One role of a sequence: the actions one character does, in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Role {
    /// Its name.
    pub name: Name,
    /// Its actions.
    pub body: Vec<Stmt>,
}

/// A whole file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Program {
    /// Its items, in order.
    pub items: Vec<Item>,
}

/// Who hears a signal: the sequence run (or, outside one, the character's team), the whole team,
/// or everybody.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignalScope {
    /// The default: the sequence run's own scope (two squads running one sequence stay apart).
    Squad,
    /// Every member of the character's team.
    Team,
    /// Everybody.
    World,
}

impl SignalScope {
    /// The word scripts write (`"team"`), as `Signal(id, scope)` takes it.
    pub fn word(self) -> &'static str {
        match self {
            SignalScope::Squad => "squad",
            SignalScope::Team => "team",
            SignalScope::World => "world",
        }
    }
}
