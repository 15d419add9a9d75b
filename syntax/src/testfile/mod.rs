//! Test files (`.tactest`): what a scenario's characters must do, stated by a designer and
//! checked by `tactica test`.
//!
//! ```text
//! scenario "scenario.toml";
//!
//! test "the smugglers get in" {
//!     seed 7;
//!     ticks 200;
//!     expect runner reaches warehouse by 150;
//!     expect lookout says "Lock's open. Go!" by 60;
//!     expect signal "breach" of lookout before enter "warehouse" of runner;
//!     expect (GameTime == kNight) at 130;
//!     never script_error;
//! }
//! ```
//!
//! The file has the look of a `.tac` file (the same lexer: case-insensitive keywords, `//`, `#`
//! and `--` comments, statements ending in `;`) and its conditions, written in brackets as in
//! `.tac`'s `if (…)`, are `.tac` expressions read by the same grammar and restricted as model
//! conditions are ([`crate::condition`]). Words such as `test`, `expect`, `reaches` or `never`
//! are keywords only where they stand here, so they stay usable as names.
//!
//! [`parse`] gives the tree and every syntax error; [`check`] resolves the names a test uses
//! against its scenario's ([`Names`]): entities, places and regions, event kinds and globals,
//! each unknown one with a did-you-mean. What the expectations mean, and running them, is the
//! runtime's (`tactica::testing`).

mod grammar;
mod resolve;
#[cfg(test)]
mod tests;

pub use resolve::{ENTITY_FACTS, Names, check};

use crate::ast::Name;
use crate::condition::Condition;
use crate::diagnostics::Diagnostic;
use crate::lexer::Span;

/// The words of test files, for "did you mean" when one is misspelt.
pub const KEYWORDS: &[&str] = &[
    "scenario",
    "test",
    "seed",
    "ticks",
    "set",
    "start",
    "remove",
    "expect",
    "never",
    "always",
    "eventually",
    "reaches",
    "says",
    "matching",
    "anyone",
    "before",
    "between",
    "after",
    "least",
    "most",
    "exactly",
    "keeps",
    "stays",
    "within",
    "from",
    "cells",
    "trace",
    "narration",
    "matches",
];

/// A whole test file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TestFile {
    /// The scenario its tests play (`scenario "scenario.toml";`), relative to the test file.
    pub scenario: Option<Text>,
    /// Further `scenario` lines (a mistake the checker reports: a file plays one scenario).
    pub more_scenarios: Vec<Text>,
    /// The tests, in written order.
    pub tests: Vec<Test>,
}

/// A string as written: its text (unquoted) and where it stands.
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    /// The text, quotes removed.
    pub text: String,
    /// Where the literal stands, quotes included.
    pub span: Span,
}

/// One `test "name" { … }`.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// Its name.
    pub name: Text,
    /// What it changes in the scenario, in written order.
    pub settings: Vec<Setting>,
    /// What must hold, in written order.
    pub expectations: Vec<Expectation>,
    /// The whole block.
    pub span: Span,
}

impl Test {
    /// The seed the test sets, if it sets one.
    pub fn seed(&self) -> Option<u64> {
        self.settings.iter().find_map(|s| match s {
            Setting::Seed(n, _) => Some(*n),
            _ => None,
        })
    }

    /// The number of ticks the test sets, if it sets one.
    pub fn ticks(&self) -> Option<u64> {
        self.settings.iter().find_map(|s| match s {
            Setting::Ticks(n, _) => Some(*n),
            _ => None,
        })
    }
}

/// A constant a setting gives (`set GameTime = kNight;`).
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// A whole number.
    Int(i64),
    /// A real number.
    Float(f64),
    /// A string, or a bare name (which means its own spelling, as on the right of `==`).
    Str(String),
    /// `true` or `false`.
    Bool(bool),
}

/// What a test changes in its scenario before it plays.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    /// `seed N;`: the world's random generator starts from `N` (as `tactica run --seed`).
    Seed(u64, Span),
    /// `ticks N;`: how many ticks are played.
    Ticks(u64, Span),
    /// `set NAME = value;` (a global) or `set entity.KEY = value;` (an attribute).
    Set {
        /// The global, or `entity.attribute`.
        target: Name,
        /// The value.
        value: Literal,
        /// The whole statement.
        span: Span,
    },
    /// `start entity at (x, y);` or `… at place;`: where the entity starts.
    Start {
        /// The entity.
        entity: Name,
        /// Its new start.
        at: Target,
        /// The whole statement.
        span: Span,
    },
    /// `remove entity;`: the entity is left out of the scenario.
    Remove {
        /// The entity.
        entity: Name,
        /// The whole statement.
        span: Span,
    },
}

/// A cell, or a place or region by name.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// `(x, y)`.
    Cell([i32; 2], Span),
    /// A place or region.
    Named(Name),
}

/// A tick as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TickAt {
    /// The tick.
    pub tick: u64,
    /// Where it is written.
    pub span: (usize, usize),
}

impl TickAt {
    /// Where it is written.
    pub fn span(&self) -> Span {
        self.span.0..self.span.1
    }
}

/// The ticks an expectation looks at: from `from` to `to`, both included; every tick when
/// nothing is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Window {
    /// The first tick (`between A and …`, `after A`).
    pub from: Option<TickAt>,
    /// The last tick (`by B`, `between … and B`).
    pub to: Option<TickAt>,
}

impl Window {
    /// Whether `tick` lies in the window.
    pub fn contains(&self, tick: u64) -> bool {
        self.from.is_none_or(|f| tick >= f.tick) && self.to.is_none_or(|t| tick <= t.tick)
    }
}

/// A kind of event in the trace, maybe with its text and its entity:
/// `say "Halt!" of guard`, `blocked`, `enter "warehouse" of runner`.
#[derive(Debug, Clone, PartialEq)]
pub struct EventPattern {
    /// The trace kind (`say`, `arrive`, `script_error` …).
    pub kind: Name,
    /// The text the event's main field must equal (a line, a trigger's or a region's name …).
    pub text: Option<Text>,
    /// The entity it must concern.
    pub entity: Option<Name>,
    /// The whole pattern.
    pub span: Span,
}

/// A condition over world facts, in brackets.
#[derive(Debug, Clone, PartialEq)]
pub struct Cond {
    /// The expression as written.
    pub expr: crate::ast::Expr,
    /// Where it is written, brackets included.
    pub span: Span,
}

impl Cond {
    /// The condition, or why the expression cannot be one (a call, arithmetic). [`parse`]
    /// reports the second, so a file that parsed clean always has the first.
    pub fn condition(&self) -> Result<Condition, Diagnostic> {
        crate::condition::lower(&self.expr).map_err(|d| {
            if d.code == crate::Code::NotACondition {
                d.with_hint(
                    "a test's condition reads world facts — globals (`GameTime`), attributes (`guard.health`), \
                     `guard.x`, `guard.y`, a machine's state (`guard.patrol`) — and compares them with constants",
                )
            } else {
                d
            }
        })
    }
}

/// What `never` and `eventually` watch for: an event, or a condition.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    /// An event of the trace.
    Event(EventPattern),
    /// A condition over world facts.
    Condition(Cond),
}

/// How a line said must read.
#[derive(Debug, Clone, PartialEq)]
pub enum LineMatch {
    /// Exactly this text.
    Exact(Text),
    /// A regular expression the line must match somewhere (`matching "quiet"`).
    Pattern(Text),
}

/// `keeps N from` (at least N cells apart) or `stays within N of` (at most N).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The distance stays at least this.
    AtLeast,
    /// The distance stays at most this.
    AtMost,
}

/// What a golden file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoldenKind {
    /// The trace, JSON Lines.
    Trace,
    /// The narration, one sentence a line (what `tactica run` prints).
    Narration,
}

/// One statement of what must hold, with where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    /// What it says.
    pub kind: Expect,
    /// The whole statement, from its first word to its `;`.
    pub span: Span,
}

/// The kinds of expectation.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// `expect runner reaches warehouse by 150;`: the entity stands on the cell, the place's cell
    /// or in the region at the end of some tick, by the tick given.
    Reaches {
        /// Who.
        entity: Name,
        /// Where.
        target: Target,
        /// By when.
        by: Option<TickAt>,
    },
    /// `expect guard says "Halt!" by 40;`, `expect anyone says matching "quiet" between 10 and 90;`.
    Says {
        /// Who (`None`: `anyone`).
        speaker: Option<Name>,
        /// The line.
        line: LineMatch,
        /// When.
        window: Window,
    },
    /// `expect at most 2 blocked of runner;`, `expect exactly 1 signal "breach";`,
    /// `expect 1 to 3 say of guard by 100;`; and `expect trigger "kTrap" by 60;`, at least one.
    Count {
        /// At least this many.
        min: Option<u64>,
        /// At most this many.
        max: Option<u64>,
        /// Which events.
        event: EventPattern,
        /// When.
        window: Window,
    },
    /// `expect signal "breach" before enter "warehouse" of runner;`: the first of one kind of
    /// event comes before the first of the other.
    Order {
        /// What must come first.
        first: EventPattern,
        /// What must come after it.
        then: EventPattern,
    },
    /// `expect (guard.patrol == hiding) at 120;`: the condition holds at the end of that tick.
    At {
        /// The condition.
        condition: Cond,
        /// The tick.
        tick: TickAt,
    },
    /// `never script_error;`, `never (alarm == 1) by 50;`.
    Never {
        /// What must not happen.
        subject: Subject,
        /// When.
        window: Window,
    },
    /// `always (guard.health > 0);`: the condition holds at the end of every tick.
    Always {
        /// The condition.
        condition: Cond,
        /// When.
        window: Window,
    },
    /// `eventually (GameTime == kNight) by 150;`, `eventually arrive of runner;`.
    Eventually {
        /// What must happen.
        subject: Subject,
        /// By when.
        by: Option<TickAt>,
    },
    /// `expect runner keeps 2 from guard;`, `expect squad stays within 3 of captain;`: the
    /// distance between two characters, in cells, at the end of every tick.
    Distance {
        /// One character.
        a: Name,
        /// The other.
        b: Name,
        /// Which side of `cells` the distance keeps to.
        bound: Bound,
        /// The distance, in cells.
        cells: f64,
        /// When.
        window: Window,
    },
    /// `expect trace matches "golden/harbour.jsonl";`: the run's trace (or narration) equals a
    /// stored file, which `tactica test --bless` writes.
    Golden {
        /// What is compared.
        of: GoldenKind,
        /// The file, relative to the test file.
        file: Text,
    },
}

/// Parses a test file. Returns the tree (tests whose statements did not parse are kept without
/// them) and every lexical and syntax error; never fails.
pub fn parse(src: &str) -> (Option<TestFile>, Vec<Diagnostic>) {
    grammar::parse(src)
}
