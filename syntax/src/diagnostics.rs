//! Diagnostics are data: the parser and checker emit [`Diagnostic`]s, and this one module turns
//! them into ariadne reports (file:line:column, a labelled span, a hint, a stable code).

use std::fmt;

use ariadne::{Config, IndexType, Label, Report, ReportKind, Source};

use crate::lexer::Span;

/// How bad it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// The script is refused (`tactica check` exits 1).
    Error,
    /// The script runs, but probably not as meant.
    Warning,
}

macro_rules! codes {
    ($($variant:ident = $code:literal, $level:ident, $explain:literal;)*) => {
        /// A stable diagnostic code. The number never changes meaning; `explain` says what it is.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum Code {
            $(#[doc = $explain] $variant,)*
        }

        impl Code {
            /// Every code, in number order.
            pub const ALL: &[Code] = &[$(Code::$variant,)*];

            /// `E0001` …
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// Whether it is an error or a warning.
            pub fn level(self) -> Level {
                match self { $(Code::$variant => Level::$level,)* }
            }

            /// What the code means and how to fix it (what `tactica explain` prints).
            pub fn explain(self) -> &'static str {
                match self { $(Code::$variant => $explain,)* }
            }

            /// The code with this name (`E0013`), if there is one.
            pub fn parse(name: &str) -> Option<Code> {
                Code::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(name))
            }
        }
    };
}

codes! {
    Syntax = "E0001", Error, "The parser expected something else here. Blocks are `BEGIN … END`, `begin … end` or `{ … }`; statements end with `;`.";
    UnknownCharacter = "E0002", Error, "A character that is not part of the language (only letters, digits, `_`, operators, brackets and `\"` strings are).";
    UnterminatedString = "E0003", Error, "A string's closing quote is missing. Strings may span lines, so the string runs to the end of the file.";
    NumberTooLarge = "E0004", Error, "Whole numbers must fit in 64 bits.";
    NestingTooDeep = "E0005", Error, "The text nests more than 200 levels deep (brackets, blocks, statements inside statements and the operators of one expression, counted together).";
    TooManyErrors = "E0006", Error, "The file has more errors than one check lists (100); the rest are counted, not listed.";
    UnknownName = "E0010", Error, "The name is not a global, a value, a fact or a local. Names are case-insensitive; a scenario may declare more names.";
    UnknownFunction = "E0011", Error, "No host function has this name. The stdlib's table lists every function (`docs/api.md`, generated from it).";
    UnknownAttribute = "E0012", Error, "Attribute scripts may only set attributes the schema declares (INTELLIGENCE, STRENGTH, SPEED …).";
    WrongArity = "E0013", Error, "The function takes another number of arguments.";
    ArgumentType = "E0014", Error, "An argument has the wrong type (a sound where a trap is expected, a string where a number is).";
    CompareMismatch = "E0015", Error, "The two sides can never be equal: they are values of different families (a weapon and a place).";
    NotANumber = "E0016", Error, "Ordering and arithmetic need numbers on both sides.";
    NoValue = "E0017", Error, "An action returns nothing, so it cannot be used as a value or condition.";
    UselessStatement = "E0018", Error, "The statement computes a value and throws it away; call an action, or use the value in an `if`.";
    ReadOnlyGlobal = "E0019", Error, "Engine globals are set by the game, never by scripts.";
    AttributeRange = "E0020", Error, "The value lies outside the attribute's legal range; values a script writes are always checked.";
    AttributeType = "E0021", Error, "The attribute holds another type of value.";
    DuplicateCreature = "E0031", Error, "Two blocks configure the same creature; only one would win.";
    DuplicateAttribute = "E0032", Warning, "The attribute is set twice in the same record; the first value is overwritten.";
    DuplicateState = "E0040", Error, "Two states of one machine have the same name.";
    UnknownState = "E0041", Error, "The transition goes to a state the machine does not have.";
    UnreachableState = "E0042", Warning, "No transition leads to this state from the initial state, so it never runs.";
    EmptyMachine = "E0043", Error, "A state machine needs at least one state (and at most 65535).";
    ShadowedTransition = "E0045", Warning, "An unconditional transition comes first, so the transitions after it are never taken.";
    DuplicateRule = "E0050", Error, "Two rules of one rule system have the same name.";
    UnknownStrategy = "E0051", Error, "Conflict resolution is `first` (authoring order), `weight` (highest weight, ties to the first) or `random`.";
    DuplicateFact = "E0052", Error, "A fact is declared twice in one rule system.";
    UnknownFact = "E0055", Error, "`prove` and rule assignments need a fact of the file's rule systems.";
    DuplicateRole = "E0060", Error, "Two roles of one sequence have the same name.";
    WaitWithoutSignal = "E0061", Error, "Nobody sends this signal in the squad's scope (no role of the sequence, no Lua or Rhai script of the scenario), so the wait would block forever.";
    UnusedSignal = "E0062", Warning, "The signal is sent but nobody waits for it (no role of the sequence, no Lua or Rhai script of the scenario).";
    EmptySequence = "E0064", Error, "A sequence needs at least one role.";
    UncastRole = "E0065", Warning, "No character of the scenario carries this role's tag, so `start` could never cast it.";
    UnknownEvent = "E0070", Error, "Handlers react to `spawn`, `think`, `tick`, `encounter`, `hear`, `reload`, or `enter` a place.";
    UnknownPlace = "E0071", Error, "`on enter` takes a cell `(x, y)` or a declared place.";
    UnknownKind = "E0072", Error, "A file's kind is `behaviour`, `dialogue`, `events` or `attributes`, said once at most.";
    InferredKind = "E0073", Warning, "The file does not say its kind, so it was inferred from its top level; say it with `kind …;` so that one added line cannot change when the whole file runs.";
    UnknownHandler = "E0074", Warning, "A top-level function is named like an event handler (`on_…`) but no event has that name, so it never runs. Handlers are `on_spawn`, `on_think`, `on_tick`, `on_encounter`, `on_hear`, `on_reload`.";
    RemovedGlobal = "E0075", Error, "The sandbox removed this global: scripts have no file, OS, module-loading or debug access. Use the host functions (`Note` or `print` to debug, `Remember`/`Recall` to keep values).";
    UndefinedGlobal = "E0079", Warning, "A Lua or Rhai script reads a global that nothing defines (not the script, the language or the API), so it is nil (Lua) or an error (Rhai) when the script runs. Names of places, weapons and signals are strings there: `MoveTo(\"kWell\")`.";
    EmptyChoice = "E0080", Error, "`say one of [...]` needs at least one line.";
    DivisionByZero = "E0083", Error, "Dividing by the constant 0.";
    NotACondition = "E0090", Error, "A model's condition (`when = …` in a state machine, rule base or fuzzy rule) reads facts, compares them with constants and combines them with `and`, `or`, `not`; calls and arithmetic belong in `.tac` scripts.";
    UnknownQueryWord = "E0091", Error, "A position query names a generator, criterion, weight or section that does not exist; the hint names the closest.";
    QueryValue = "E0092", Error, "A position query's entry has a value of the wrong kind, stands in the wrong section, or is given twice.";
    QueryShape = "E0093", Error, "A position query holds `option { … }` blocks (each with a `Generation`) and at most one `on_failure { … }`.";
    BudgetExceeded = "E0100", Error, "The script ran more steps than its budget allows in one call (an endless loop?); it was stopped for this tick.";
    HostError = "E0101", Error, "A host function refused its arguments at run time.";
    RuntimeType = "E0102", Error, "A value of the wrong type reached an operator at run time.";
    RuntimeDivision = "E0103", Error, "Division by zero at run time.";
    NoSuchSequence = "E0104", Error, "The host asked for a sequence or role the script does not have.";
    UnknownEntity = "E0110", Error, "A test names an entity its scenario does not have (or one the test removes).";
    UnknownTarget = "E0111", Error, "A test names a place or region its scenario does not declare.";
    UnknownEventKind = "E0112", Error, "A test names an event kind the trace does not have (`say`, `arrive`, `blocked`, `script_error` …; docs/trace.md lists them).";
    UndeclaredGlobal = "E0113", Warning, "A test's condition reads a global its scenario does not declare; unless a script sets it, it reads as nothing.";
    TickOutOfRun = "E0114", Error, "A tick the test never plays, or a window whose end comes before its start.";
    EmptyTest = "E0115", Error, "A test states nothing that must hold, so it could never fail.";
    DuplicateTest = "E0116", Error, "Two tests of one file have the same name, so a failure or a replay command could not say which.";
    TestSetting = "E0117", Error, "A test's setting is given twice or takes a value it cannot have (`ticks 0`, a second `scenario` line, `at least 3` with `at most 1`).";
    BadPattern = "E0118", Error, "A `matching` pattern is not a valid regular expression.";
    NoScenario = "E0119", Error, "The test file's scenario cannot be found, or it does not load.";
    TreeUnknownNode = "E0120", Error, "A behaviour tree names a node that does not exist: not a node kind (`sequence`, `fallback`, `repeat` …), not a built-in leaf (`move_to`, `wait`, `say` …) and not a function of the tree's `leaves` files; the hint names the closest.";
    TreeUnknownKey = "E0121", Error, "A behaviour tree reads or writes a blackboard key it does not declare in its `blackboard { … }` section (or, for a leaf's place argument, names no key and no place of the scenario); the hint names the closest.";
    TreeUnreachableChild = "E0122", Warning, "A child of a behaviour tree can never run: the child before it in a fallback always succeeds, or the child before it in a sequence always fails, or never finishes.";
    TreeArguments = "E0123", Error, "A behaviour-tree node got parameters or arguments it does not take: a wrong count, a number where a name is needed, a decorator without its one child, a composite without children, a parallel threshold larger than its children.";
    TreeAbort = "E0124", Error, "`abort lower_priority` and `abort both` watch the children after a guard in a fallback; a guard anywhere else has nothing of lower priority to abort (Unreal allows these aborts under selectors only). The abort modes are `none`, `self`, `lower_priority` and `both`.";
    TreeSubtree = "E0125", Error, "A subtree call names no tree of the file, binds a port the subtree does not declare or leaves one unbound, or a tree calls itself (directly or through others).";
    TreeDuplicate = "E0126", Error, "Two trees of a file, two keys of a blackboard, two ports of a subtree or two leaves of a `.tac` file have the same name.";
    TreeLeafFile = "E0127", Error, "A behaviour tree's `leaves` file cannot be read, is not a `.tac`, Lua or Rhai file, or does not compile, so its functions cannot be leaves.";
    ReturnOutsideLeaf = "E0128", Error, "`return` ends a `leaf` of a behaviour tree with its status; handlers, rules, machines and top-level statements have nothing to return to.";
    LeafWithoutReturn = "E0129", Error, "A `leaf` must end with `return success;`, `return failure;` or `return running;` on every path, so the tree always learns how it went.";
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding about a script: a code, a message, the span it is about with a label, more
/// labelled spans, and a hint.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// The headline.
    pub message: String,
    /// Where.
    pub span: Span,
    /// What to say at the span.
    pub label: String,
    /// Other places that matter, with what to say there.
    pub notes: Vec<(Span, String)>,
    /// How to fix it.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A diagnostic of `code` at `span`.
    pub fn new(code: Code, span: Span, message: impl Into<String>, label: impl Into<String>) -> Self {
        Diagnostic { code, message: message.into(), span, label: label.into(), notes: vec![], hint: None }
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Adds a "did you mean" hint when there is a suggestion.
    pub fn suggest(self, suggestion: Option<&str>) -> Self {
        match suggestion {
            Some(s) => self.with_hint(format!("did you mean `{s}`?")),
            None => self,
        }
    }

    /// Adds another labelled span.
    pub fn with_note(mut self, span: Span, label: impl Into<String>) -> Self {
        self.notes.push((span, label.into()));
        self
    }

    /// Error or warning.
    pub fn level(&self) -> Level {
        self.code.level()
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.level() == Level::Error
    }

    /// The 1-based line and column of the span's start in `src`.
    pub fn line_col(&self, src: &str) -> (u32, u32) {
        line_col(src, self.span.start)
    }
}

/// The 1-based line and column (in characters) of byte offset `at` in `src`.
pub fn line_col(src: &str, at: usize) -> (u32, u32) {
    let at = at.min(src.len());
    let before = src.get(..at).unwrap_or(src);
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (u32::try_from(line).unwrap_or(u32::MAX), u32::try_from(col).unwrap_or(u32::MAX))
}

/// The byte offset of 1-based `line` and `column` (in characters) in `src`, the inverse of
/// [`line_col`]; positions past a line's end or the text's end clamp to them.
pub fn offset_of(src: &str, line: u32, column: u32) -> usize {
    let mut start = 0;
    for _ in 1..line.max(1) {
        match src[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return src.len(),
        }
    }
    let text = &src[start..];
    let end = text.find('\n').unwrap_or(text.len());
    start + text[..end].char_indices().nth(column.max(1) as usize - 1).map_or(end, |(i, _)| i)
}

/// Lines longer than this (in bytes) are not drawn under a diagnostic: ariadne draws the whole
/// line for each report, and a file of one megabyte-long line with a hundred errors would print
/// a hundred megabytes and take minutes.
pub const MAX_SHOWN_LINE: usize = 400;

/// Renders diagnostics as ariadne reports, the way `tactica check` prints them. `color` adds ANSI
/// colours (off for snapshots and pipes). A diagnostic on a line longer than [`MAX_SHOWN_LINE`]
/// is rendered without the line: the place, the label and the hint.
pub fn render(file: &str, src: &str, diagnostics: &[Diagnostic], color: bool) -> String {
    let mut out = Vec::new();
    let source = Source::from(src);
    for d in diagnostics {
        let kind = match d.level() {
            Level::Error => ReportKind::Error,
            Level::Warning => ReportKind::Warning,
        };
        let clamp = |s: &Span| {
            let start = s.start.min(src.len());
            start..s.end.clamp(start, src.len())
        };
        let places = std::iter::once(&d.span).chain(d.notes.iter().map(|(s, _)| s));
        if places.flat_map(|s| [s.start, s.end]).any(|at| line_len(src, at) > MAX_SHOWN_LINE) {
            out.extend(render_unshown(file, src, d).into_bytes());
            continue;
        }
        let mut report = Report::build(kind, (file, clamp(&d.span)))
            .with_config(Config::default().with_color(color).with_index_type(IndexType::Byte))
            .with_code(d.code)
            .with_message(&d.message)
            .with_label(Label::new((file, clamp(&d.span))).with_message(&d.label));
        for (span, label) in &d.notes {
            report = report.with_label(Label::new((file, clamp(span))).with_message(label));
        }
        if let Some(hint) = &d.hint {
            report = report.with_help(hint);
        }
        // Writing into a Vec cannot fail; a failure would only lose this report's text.
        let _ = report.finish().write((file, &source), &mut out);
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The length in bytes of the line byte `at` stands on.
fn line_len(src: &str, at: usize) -> usize {
    let at = at.min(src.len());
    let bytes = src.as_bytes();
    let start = bytes[..at].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let end = bytes[at..].iter().position(|&b| b == b'\n').map_or(bytes.len(), |i| at + i);
    end - start
}

/// A report in ariadne's shape without the source line, for a line too long to draw.
fn render_unshown(file: &str, src: &str, d: &Diagnostic) -> String {
    let kind = if d.is_error() { "Error" } else { "Warning" };
    let (line, col) = d.line_col(src);
    let mut text = format!("[{}] {kind}: {}\n   ╭─[ {file}:{line}:{col} ]\n   │\n", d.code, d.message);
    text.push_str(&format!("   │ {} (line {line} is too long to show)\n", d.label));
    for (span, label) in &d.notes {
        let (l, c) = line_col(src, span.start);
        text.push_str(&format!("   │ {file}:{l}:{c}: {label}\n"));
    }
    if let Some(hint) = &d.hint {
        text.push_str(&format!("   │\n   │ Help: {hint}\n"));
    }
    text.push_str("───╯\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_parse_back() {
        let mut seen: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let n = seen.len();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), n);
        assert_eq!(Code::parse("e0013"), Some(Code::WrongArity));
        assert_eq!(Code::parse("E9999"), None);
    }

    #[test]
    fn line_and_column_are_one_based() {
        let src = "ab\ncdé\nf";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 4), (2, 2));
        assert_eq!(line_col(src, src.len()), (3, 2));
        assert_eq!(line_col(src, 999), (3, 2));
        for at in [0, 3, 4, 7, 8, src.len()] {
            let (l, c) = line_col(src, at);
            assert_eq!(offset_of(src, l, c), at, "{at}");
        }
        assert_eq!(offset_of(src, 2, 99), 7, "past the line's end: its end");
        assert_eq!(offset_of(src, 9, 1), src.len());
    }

    #[test]
    fn a_report_names_file_line_column_code_and_hint() {
        let src = "INTELIGENCE=20;\n";
        let d = Diagnostic::new(Code::UnknownAttribute, 0..11, "unknown attribute `INTELIGENCE`", "not in the schema")
            .suggest(Some("INTELLIGENCE"));
        let text = render("troll.tac", src, &[d], false);
        assert!(text.contains("[E0012] Error: unknown attribute `INTELIGENCE`"), "{text}");
        assert!(text.contains("troll.tac:1:1"), "{text}");
        assert!(text.contains("did you mean `INTELLIGENCE`?"), "{text}");
    }

    #[test]
    fn a_line_too_long_to_draw_is_named_not_drawn() {
        let src = format!("ok\n{}@{}\n", "a".repeat(MAX_SHOWN_LINE), "b".repeat(10));
        let at = 3 + MAX_SHOWN_LINE;
        let d =
            Diagnostic::new(Code::UnknownCharacter, at..at + 1, "unknown character `@`", "not part of the language")
                .with_hint("comments start with `//`");
        let text = render("long.tac", &src, &[d], false);
        assert_eq!(
            text,
            format!(
                "[E0002] Error: unknown character `@`\n   ╭─[ long.tac:2:{} ]\n   │\n   │ not part of the language \
                 (line 2 is too long to show)\n   │\n   │ Help: comments start with `//`\n───╯\n",
                MAX_SHOWN_LINE + 1
            )
        );
    }
}
