//! The long form of every diagnostic code, what `tactica explain E0013` prints (like
//! `rustc --explain`): what the code means, why the language refuses or warns, and two small
//! scripts — one that produces the code and one that says what was meant and checks clean.
//!
//! `tests/explain.rs` holds the examples to their word: every `right` script checks with no
//! diagnostic at all (and runs without error), every `wrong` one produces its code — from the
//! checker, or, for the run-time codes (E0100 …), when it runs.

use crate::diagnostics::Code;

/// The long explanation of one code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Explanation {
    /// The code explained.
    pub code: Code,
    /// What it means and how to fix it, a paragraph or two.
    pub text: &'static str,
    /// A script that produces the code.
    pub wrong: &'static str,
    /// The same intent written right: checks with no diagnostic.
    pub right: &'static str,
    /// What kind of text the examples are.
    pub text_kind: TextKind,
}

/// The kinds of designer text the front end reads, which the examples of a code are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// A `.tac` script.
    Tac,
    /// A model's condition (`when = "…"` in a model file).
    Condition,
    /// A position-query file (`.tps`).
    QueryBlocks,
    /// A Lua script (the codes only the Lua and Rhai linters give; Rhai's examples would read
    /// the same).
    Lua,
    /// A behaviour-tree file (`.bt`). Its examples are checked as if the tree's `leaves` files
    /// defined `investigate`, `listen` and `call_squad` and the scenario had the places `post_a`,
    /// `post_b` and `gate`.
    Tree,
    /// A test file (`.tactest`) beside `examples/harbour/scenario.toml`, whose names it uses.
    TestFile,
}

impl TextKind {
    fn describe(self) -> &'static str {
        match self {
            TextKind::Tac => "",
            TextKind::Condition => " (a model's `when` text)",
            TextKind::QueryBlocks => " (a `.tps` query file)",
            TextKind::Lua => " (a Lua script; Rhai is checked the same way)",
            TextKind::Tree => " (a behaviour-tree file, `.bt`)",
            TextKind::TestFile => " (a `.tactest` file beside examples/harbour/scenario.toml)",
        }
    }
}

impl Explanation {
    /// Whether the code is found when the script runs rather than by the checker.
    pub fn at_run_time(&self) -> bool {
        matches!(self.code, Code::BudgetExceeded | Code::HostError | Code::RuntimeType | Code::RuntimeDivision)
    }

    /// The text `tactica explain` prints: code and level, the one-line summary, the paragraph,
    /// and both examples.
    pub fn render(&self) -> String {
        let level = match self.code.level() {
            crate::Level::Error => "error",
            crate::Level::Warning => "warning",
        };
        let when = if self.at_run_time() { "stops the script when it runs" } else { "found by `tactica check`" };
        format!(
            "{code} ({level}, {when}): {summary}\n\n{text}\n\nWrong{kind}:\n\n{wrong}\nRight:\n\n{right}",
            kind = self.text_kind.describe(),
            code = self.code,
            summary = self.code.explain(),
            text = self.text.trim_end(),
            wrong = indent(self.wrong),
            right = indent(self.right),
        )
    }
}

fn indent(src: &str) -> String {
    src.lines().map(|l| if l.is_empty() { "\n".to_owned() } else { format!("    {l}\n") }).collect()
}

/// The long explanation of `code`. The match is exhaustive, so a new code does not compile
/// without one.
pub fn explanation(code: Code) -> Explanation {
    let (text, wrong, right) = entry(code);
    let text_kind = match code {
        Code::NotACondition => TextKind::Condition,
        Code::UnknownQueryWord | Code::QueryValue | Code::QueryShape => TextKind::QueryBlocks,
        Code::UnknownHandler | Code::RemovedGlobal | Code::UndefinedGlobal => TextKind::Lua,
        Code::TreeUnknownNode
        | Code::TreeUnknownKey
        | Code::TreeUnreachableChild
        | Code::TreeArguments
        | Code::TreeAbort
        | Code::TreeSubtree
        | Code::TreeDuplicate
        | Code::TreeLeafFile => TextKind::Tree,
        Code::UnknownEntity
        | Code::UnknownTarget
        | Code::UnknownEventKind
        | Code::UndeclaredGlobal
        | Code::TickOutOfRun
        | Code::EmptyTest
        | Code::DuplicateTest
        | Code::TestSetting
        | Code::BadPattern
        | Code::NoScenario => TextKind::TestFile,
        _ => TextKind::Tac,
    };
    Explanation { code, text, wrong, right, text_kind }
}

fn entry(code: Code) -> (&'static str, &'static str, &'static str) {
    match code {
        Code::Syntax => (
            "The parser could not read the file here. It recovers and keeps going, so one run of \
             `tactica check` lists every syntax error of the file. The usual causes: a statement without its \
             closing `;`, a `BEGIN` without its `END`, an unclosed `(`.",
            "If (PlayerArmed == TRUE)\n    DoFlee()\nDoAttack();\n",
            "If (PlayerArmed == TRUE)\n    DoFlee();\nDoAttack();\n",
        ),
        Code::UnknownCharacter => (
            "The lexer met a character the language has no use for. Outside strings and comments only \
             letters, digits, `_`, operators, brackets, `,`, `;`, `.` and `\"` may appear.",
            "If (LEVEL < 5) @ Say(\"low level\");\n",
            "If (LEVEL < 5) Say(\"low level @ five\");\n",
        ),
        Code::UnterminatedString => (
            "A string has no closing quote. Strings may span lines (the book's Example 8-11 does), so an \
             unclosed one swallows the rest of the file; the error points at where it starts.",
            "Say(\"I see you found the Red Amulet.\n    Bring it to the stone temple);\n",
            "Say(\"I see you found the Red Amulet.\n    Bring it to the stone temple.\");\n",
        ),
        Code::NumberTooLarge => (
            "Whole numbers are 64-bit. A literal beyond 9223372036854775807 cannot be represented; write a \
             smaller one or a real number (`1.0e20`).",
            "If (LEVEL < 99999999999999999999) Say(\"high\");\n",
            "If (LEVEL < 99) Say(\"high\");\n",
        ),
        Code::NestingTooDeep => (
            "Every pass over a file — the parser, the checker, the compiler — goes one level deeper for \
             each level of nesting, so the front end refuses text nested more than 200 levels deep before \
             any of them runs, and no file can exhaust a stack or the memory of the game or an editor. Counted \
             together at each point of the text: the brackets and blocks (`( )`, `[ ]`, `{ }`, `BEGIN … \
             END`) open around it, the `if`, `while`, `repeat` and `else` of the statements it is inside, and \
             the operators of the expression it is part of (`a + b + c` is a `+` inside a `+`). A statement \
             that ends lets go of its operators and keywords, so statements one after another never add up. \
             The same limit applies to a model's condition and a query file. The error points at the token \
             that went past the limit; split the expression with `let`, or move the inner part into a \
             statement or handler of its own.",
            "Say(((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\"deep\")))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));\n",
            "Say(\"deep\");\n",
        ),
        Code::TooManyErrors => (
            "A check lists the first 100 errors of a file and counts the rest: one mistake early on (a \
             wrong file, a binary pasted in) can make an error of every character after it, and listing a \
             million of them would only cost memory and time. The last diagnostic says how many more \
             there were and points at the first of them. Fix the listed ones and check again.",
            "Say(\"hello\"); @@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n",
            "Say(\"hello\"); // @ in a comment is fine\n",
        ),
        Code::UnknownName => (
            "The name is not an engine global, a named value, a fact of the file's rule systems or a local \
             made with `let`. Names compare without case, so the usual cause is a typo; the hint names the \
             closest known name. A scenario can declare more globals and places.",
            "If (PlayerArmd == Dagger) Say(\"What a cute little knife.\");\n",
            "If (PlayerArmed == Dagger) Say(\"What a cute little knife.\");\n",
        ),
        Code::UnknownFunction => (
            "No host function has this name. The script API is one table shared by `.tac`, Lua and Rhai \
             (docs/api.md); the hint names the closest function.",
            "If (PlayerArmed == TRUE) DoFlea();\n",
            "If (PlayerArmed == TRUE) DoFlee();\n",
        ),
        Code::UnknownAttribute => (
            "Attribute scripts may only set attributes the stdlib's schema declares. Scripts are never \
             trusted: a misspelt attribute would otherwise be set silently and never \
             read.",
            "CREATURE=1;\nINTELIGENCE=20;\nEND\n",
            "CREATURE=1;\nINTELLIGENCE=20;\nEND\n",
        ),
        Code::UnknownHandler => (
            "The runtime calls a script's handlers by name: `on_spawn`, `on_think`, `on_tick`, \
             `on_encounter`, `on_hear(text)` and `on_reload(state)`. A top-level function whose name starts \
             with `on_` but is none of them is never called, and a misspelt handler is the usual cause; the \
             hint names the closest. Name helper functions without the `on_` prefix.",
            "function on_thinck()\n  Say(\"Halt!\")\nend\n",
            "function on_think()\n  Say(\"Halt!\")\nend\n",
        ),
        Code::RemovedGlobal => (
            "Scripts run in a sandbox without file, OS, network, module-loading or debug access: `os`, `io`, \
             `require`, `dofile`, `load`, `debug`, `package` and their kin are not there, and reading them \
             would fail when the script runs. To see what a script does, use `print` (a narration line and \
             a trace event with the file and line) or `Note`; to keep a value between calls, use the \
             script's `state` table.",
            "function on_think()\n  if os.time() % 2 == 0 then Say(\"A seasoned one.\") end\nend\n",
            "function on_think()\n  if (GetGlobal(\"LEVEL\") or 0) > 3 then Say(\"A seasoned one.\") end\nend\n",
        ),
        Code::UndefinedGlobal => (
            "`.tac` writes names bare — `MoveTo(kWell)`, `PlayerArmed == Dagger` — because its checker knows \
             every place, weapon and signal. In Lua and Rhai a bare name is a variable, and no variable of that \
             name exists: Lua reads it as nil (the call then fails on every think), Rhai stops the script. \
             There names are strings: `MoveTo(\"kWell\")`. World globals are read with `GetGlobal(\"GameTime\")`. \
             A name the script assigns anywhere, or a library the language has, is never flagged.",
            "function on_encounter()\n  if GetGlobal(\"PlayerArmed\") == Dagger then Say(\"What a cute little knife.\") end\nend\n",
            "function on_encounter()\n  if GetGlobal(\"PlayerArmed\") == \"Dagger\" then Say(\"What a cute little knife.\") end\nend\n",
        ),
        Code::WrongArity => (
            "The function is called with another number of arguments than it takes. Some functions have \
             overloads (`PlayerLocation(place)` and `PlayerLocation(x, y)`); the message lists them.",
            "move(0, 1, 2);\n",
            "move(0, 1);\n",
        ),
        Code::ArgumentType => (
            "An argument has the wrong type: a sound where a trap is expected, a number where text is. Named \
             values come in families (weapons, places, traps, sounds …) and a function says which it takes.",
            "If (GameTime == kNight) Trigger(kCricketsSnd);\n",
            "If (GameTime == kNight) PlaySound(kCricketsSnd);\n",
        ),
        Code::CompareMismatch => (
            "The two sides of `==` or `!=` belong to different families, so the comparison is always false \
             (or always true). Usually the wrong global was named: a weapon compared with a race.",
            "If (PlayerArmed == Human) Say(\"?\");\n",
            "If (player == Human) Say(\"Another human.\");\n",
        ),
        Code::NotANumber => (
            "`<`, `<=`, `>`, `>=` and arithmetic need numbers on both sides. Times of day, weapons and other \
             named values only compare for equality.",
            "If (GameTime < 5) Say(\"early\");\n",
            "If (GameTime == kDawn) Say(\"early\");\n",
        ),
        Code::NoValue => (
            "An action (`DoFlee`, `Say`, `move` …) returns nothing, so it cannot be a condition or an \
             operand. Test what the action depends on instead.",
            "If (DoFlee()) Say(\"ran\");\n",
            "kind behaviour;\nIf (PlayerArmed == TRUE) begin DoFlee(); Say(\"ran\"); end\n",
        ),
        Code::UselessStatement => (
            "A statement computes a value and throws it away, which is almost always a forgotten `if`.",
            "Ask(\"name\");\n",
            "If (Ask(\"name\")) Say(\"I am Merlin.\");\n",
        ),
        Code::ReadOnlyGlobal => (
            "Engine globals are the engine's view of the game: the game sets them, \
             scripts only read them. Keep a value of your own in a `let` local or a rule system's fact.",
            "LEVEL = 3;\n",
            "let level = LEVEL + 1;\nIf (level > 3) Say(\"past the third level\");\n",
        ),
        Code::AttributeRange => (
            "The value lies outside the attribute's legal range in the schema: values a script writes are \
             never trusted to be in range, so every assignment is checked. Constants are \
             refused by the checker; a computed value out of range stops the script when it runs.",
            "creature Troll {\n  intelligence = 300;\n}\n",
            "creature Troll {\n  intelligence = 100;\n}\n",
        ),
        Code::AttributeType => (
            "The attribute holds another type of value than the script gives it (the schema says which).",
            "STRENGTH = \"very strong\";\n",
            "STRENGTH = 90;\n",
        ),
        Code::DuplicateCreature => (
            "Two `creature` blocks configure the same kind (kinds compare without case), so one would \
             silently override the other. Merge them.",
            "creature Troll { SPEED = 50; }\ncreature troll { STRENGTH = 60; }\n",
            "creature Troll { SPEED = 50; STRENGTH = 60; }\n",
        ),
        Code::DuplicateAttribute => (
            "A record sets the same attribute twice; only the second value survives. A warning: the script \
             runs, but one of the lines is dead.",
            "CREATURE=1;\nSPEED=50;\nSPEED=60;\nEND\n",
            "CREATURE=1;\nSPEED=60;\nEND\n",
        ),
        Code::DuplicateState => (
            "Two states of one machine share a name (names compare without case), so a transition to it \
             would be ambiguous.",
            "machine Guard {\n  state Patrol { when PlayerArmed == TRUE -> Alert; }\n  state Alert { -> Patrol; }\n  \
             state Patrol { }\n}\n",
            "machine Guard {\n  state Patrol { when PlayerArmed == TRUE -> Alert; }\n  state Alert { -> Patrol; }\n}\n",
        ),
        Code::UnknownState => (
            "A transition names a state the machine does not have; the hint names the closest state.",
            "machine Guard {\n  state Patrol { when PlayerArmed == TRUE -> Alrt; }\n  state Alert { -> Patrol; }\n}\n",
            "machine Guard {\n  state Patrol { when PlayerArmed == TRUE -> Alert; }\n  state Alert { -> Patrol; }\n}\n",
        ),
        Code::UnreachableState => (
            "No chain of transitions leads from the initial state to this one, so its entry, tick and exit \
             blocks never run. A warning: add a transition to it, or delete it.",
            "machine Guard {\n  initial Patrol;\n  state Patrol { when PlayerArmed == TRUE -> Alert; }\n  \
             state Alert { -> Patrol; }\n  state Sleep { -> Patrol; }\n}\n",
            "machine Guard {\n  initial Patrol;\n  state Patrol { when PlayerArmed == TRUE -> Alert; \
             when GameTime == kNight -> Sleep; }\n  state Alert { -> Patrol; }\n  state Sleep { -> Patrol; }\n}\n",
        ),
        Code::EmptyMachine => (
            "A machine without states has nothing to run. Give it at least one state.",
            "machine Nothing { }\n",
            "machine Idle { state kPatrol { tick { Sleep(10); } } }\n",
        ),
        Code::ShadowedTransition => (
            "Transitions are tried in order and the first that holds is taken. An unconditional `-> STATE;` \
             always holds, so the transitions after it are dead. A warning: put the unconditional one last.",
            "machine Guard {\n  state Patrol { -> Alert; when PlayerArmed == TRUE -> Patrol; }\n  \
             state Alert { -> Patrol; }\n}\n",
            "machine Guard {\n  state Patrol { when PlayerArmed == TRUE -> Alert; }\n  state Alert { -> Patrol; }\n}\n",
        ),
        Code::DuplicateRule => (
            "Two rules of one rule system share a name. Rule names appear in traces and in refraction \
             bookkeeping, so they must be unique.",
            "rules Build {\n  fact Gold = 0;\n  rule barracks when Gold >= 100 then Build(kBarracks);\n  \
             rule barracks when Gold >= 200 then Build(kStable);\n}\n",
            "rules Build {\n  fact Gold = 0;\n  rule barracks when Gold >= 100 then Build(kBarracks);\n  \
             rule stable when Gold >= 200 then Build(kStable);\n}\n",
        ),
        Code::UnknownStrategy => (
            "Conflict resolution picks which of several matching rules fires: `first` (authoring order, the \
             default), `weight` (the highest `weight N`, ties to the first) or `random` (the world's seeded \
             generator).",
            "rules Build {\n  strategy wieght;\n  fact Gold = 0;\n  rule barracks when Gold >= 100 then Build(kBarracks);\n}\n",
            "rules Build {\n  strategy weight;\n  fact Gold = 0;\n  rule barracks when Gold >= 100 then Build(kBarracks);\n}\n",
        ),
        Code::DuplicateFact => (
            "A fact is declared twice in one rule system (names compare without case); working memory holds \
             one value per fact.",
            "rules Build {\n  fact Gold = 0;\n  fact gold = 10;\n  rule farm when Gold >= 50 then Build(kFarm);\n}\n",
            "rules Build {\n  fact Gold = 10;\n  rule farm when Gold >= 50 then Build(kFarm);\n}\n",
        ),
        Code::UnknownFact => (
            "`prove(Fact == value)` asks the file's rule systems by backward chaining, and a rule's `then` \
             assigns facts; both need a fact that some `rules` block declares.",
            "rules Tech { fact Cavalry = Unknown; }\nIf (prove(Cavlry == Yes)) Say(\"cavalry\");\n",
            "rules Tech { fact Cavalry = Unknown; }\nIf (prove(Cavalry == Yes)) Say(\"cavalry\");\n",
        ),
        Code::DuplicateRole => (
            "Two roles of one sequence share a name; the scenario casts characters by role name, so each must \
             be unique.",
            "sequence Breach {\n  role pointman { signal ready; }\n  role pointman { wait ready; }\n}\n",
            "sequence Breach {\n  role pointman { signal ready; }\n  role cover { wait ready; }\n}\n",
        ),
        Code::WaitWithoutSignal => (
            "A role waits for a signal that nobody sends in the squad's scope — no role of the sequence, \
             and no Lua or Rhai script of the scenario with that id written as a literal — so it would wait \
             forever. Signals reach the starter's squad (else its team), the scope Lua and Rhai scripts \
             signal in too; a script that computes its id leaves the check silent.",
            "sequence Breach {\n  role pointman { signal ready; }\n  role cover { wait redy; Say(\"Go!\"); }\n}\n",
            "sequence Breach {\n  role pointman { signal ready; }\n  role cover { wait ready; Say(\"Go!\"); }\n}\n",
        ),
        Code::UnusedSignal => (
            "A role sends a signal that no role waits for, nor any Lua or Rhai script of the scenario. \
             Harmless, so a warning, but usually a typo in the matching `wait` or a leftover.",
            "sequence Breach {\n  role pointman { signal ready; signal done; }\n  role cover { wait ready; }\n}\n",
            "sequence Breach {\n  role pointman { signal ready; }\n  role cover { wait ready; }\n}\n",
        ),
        Code::EmptySequence => (
            "A sequence without roles has nothing to cast or run: roles are what the scenario (or `start`) \
             hands to characters, one each.",
            "sequence Nothing { }\n",
            "sequence Greet { role host { Say(\"Welcome.\"); } }\n",
        ),
        Code::UncastRole => (
            "`start` casts each role to a character of the starter's squad or team tagged with the role's \
             name. When the scenario gives no character that tag, the sequence can never start (at run \
             time it stops with an error naming the tag). Tag a character in the scenario \
             (`tags = [\"archer\"]`) or rename the role after a tag that exists.",
            "// scenario: tags = [\"point\", \"cover\"]\nsequence Breach {\n  role point { signal go; }\n  role archer { wait go; }\n}\n",
            "// scenario: tags = [\"point\", \"cover\"]\nsequence Breach {\n  role point { signal go; }\n  role cover { wait go; }\n}\n",
        ),
        Code::UnknownKind => (
            "A file may say when its top level runs: `kind behaviour;` (every think), `kind dialogue;` (when \
             the player comes near or speaks), `kind events;` (every tick, each top-level `if` once per \
             rising edge) or `kind attributes;` (once, at spawn). Once per file.",
            "kind dialog;\nSay(\"Halt!\");\n",
            "kind dialogue;\nSay(\"Halt!\");\n",
        ),
        Code::InferredKind => (
            "Without `kind …;` a file on a character runs as dialogue when its top level speaks or asks, as \
             events when it triggers a trap, as attributes when it sets attributes, and as behaviour \
             otherwise — so adding one `Say` to a behaviour would silently make it dialogue. When the top \
             level does things of more than one kind, the checker says which kind won and why; saying the \
             kind keeps it fixed (and silences this warning).",
            "If (PlayerArmed == TRUE) DoFlee();\nSay(\"Run!\");\n",
            "kind behaviour;\nIf (PlayerArmed == TRUE) DoFlee();\nSay(\"Run!\");\n",
        ),
        Code::UnknownEvent => (
            "`on` takes one of the triggers the host sends: `spawn`, `think`, `tick`, `encounter`, `hear`, \
             or `enter` followed by a cell or a place.",
            "on encountr { Say(\"Halt!\"); }\n",
            "on encounter { Say(\"Halt!\"); }\n",
        ),
        Code::UnknownPlace => (
            "`on enter` takes a cell `(x, y)` or a place or region the API or the scenario declares.",
            "on enter kDok PlaySound(kSeagullSnd);\n",
            "on enter kDock PlaySound(kSeagullSnd);\n",
        ),
        Code::EmptyChoice => (
            "`say one of [...]` picks one of its lines with the world's random generator; an empty list has \
             nothing to pick.",
            "on encounter say one of [];\n",
            "on encounter say one of [\"Halt!\", \"Who goes there?\"];\n",
        ),
        Code::DivisionByZero => (
            "A division or remainder by the constant 0 would stop the script every time it runs. (Division \
             by a computed zero stops the script at run time, `E0103`.)",
            "If (LEVEL / 0 > 1) Say(\"never\");\n",
            "If (LEVEL / 2 > 1) Say(\"past level three\");\n",
        ),
        Code::NoSuchSequence => (
            "`start` names a sequence the file does not have (the hint names the closest); a host starting a \
             sequence or role the script lacks gets the same code at run time.",
            "sequence Breach { role pointman { Say(\"Breaching.\"); } }\non encounter start Breech;\n",
            "sequence Breach { role pointman { Say(\"Breaching.\"); } }\non encounter start Breach;\n",
        ),
        Code::NotACondition => (
            "The conditions of a scenario's model files (state-machine transitions, rule bases, fuzzy rules) \
             are evaluated by the engine over the model's facts, without a script: they may read facts, \
             compare a fact with a constant, and combine tests with `and`, `or`, `not` and brackets. A call or \
             arithmetic needs a `.tac` script: compute the value there and store it as a fact.",
            "health < MaxHealth() / 4",
            "health < 25",
        ),
        Code::UnknownQueryWord => (
            "A query's generators, conditions and weights are words the position service knows \
             (`grid_around_puppet`, `visible_from_target`, `distance_from_puppet` …, listed in docs/tps.md); \
             sections are `Generation`, `Conditions` and `Weights`. A misspelt word is refused when the file \
             loads, and the hint names the closest known word.",
            "query hide {\n    option {\n        Generation { grid_around_puppet = 8 }\n        Conditions { visble_from_target = false }\n    }\n}\n",
            "query hide {\n    option {\n        Generation { grid_around_puppet = 8 }\n        Conditions { visible_from_target = false }\n    }\n}\n",
        ),
        Code::QueryValue => (
            "Each entry of a query takes one kind of value: a generator a distance, a test `true` or `false`, a \
             weight a number. An entry that stands in the wrong section, has a value of the wrong kind or is \
             given twice is refused when the file loads, so a query never runs with a value it does not mean.",
            "query hide {\n    option {\n        Generation { grid_around_puppet = \"far\" }\n    }\n}\n",
            "query hide {\n    option {\n        Generation { grid_around_puppet = 8 }\n    }\n}\n",
        ),
        Code::QueryShape => (
            "A query is a list of options tried in order, each an `option { … }` block whose `Generation` \
             says where candidate points come from (with optional `Conditions` and `Weights`), and at most \
             one `on_failure { … }` saying what to do when no option finds a point.",
            "query hide {\n    option {\n        Conditions { visible_from_target = false }\n    }\n}\n",
            "query hide {\n    option {\n        Generation { grid_around_puppet = 8 }\n        Conditions { visible_from_target = false }\n    }\n}\n",
        ),
        Code::TreeUnknownNode => (
            "A tree is made of composites (`sequence`, `fallback`, `reactive sequence`, `parallel` …), \
             decorators (`invert`, `force success`, `repeat`, `retry`, `timeout`, `delay`, `cooldown`, `guard`), \
             `check`, `set`, `subtree`, the built-in leaves (`move_to`, `follow_path`, `flee`, `chase`, `wait`, \
             `say`, `go_to_position`, `play_pattern`, `signal`, `wait_signal`, `succeed`, `fail`) and the \
             functions of the files its `leaves` line names. Any other name is refused when the tree loads, \
             with the closest name as a hint.",
            "tree Guard {\n  sequence {\n    mvoe_to(post_a);\n    wait(10);\n  }\n}\n",
            "tree Guard {\n  sequence {\n    move_to(post_a);\n    wait(10);\n  }\n}\n",
        ),
        Code::TreeUnknownKey => (
            "A tree declares the blackboard keys it uses, with their defaults, in `blackboard { … }`; its \
             conditions, `set`s and leaf arguments may name only those (a leaf's place argument may also name \
             a place, region or character of the scenario). A misspelt key would otherwise read as nothing for \
             ever, and the branch it guards would never run.",
            "tree Guard {\n  blackboard { noise = false; }\n  guard noize say(\"Who's there?\");\n}\n",
            "tree Guard {\n  blackboard { noise = false; }\n  guard noise say(\"Who's there?\");\n}\n",
        ),
        Code::TreeUnreachableChild => (
            "A fallback tries its next child only when the one before fails, a sequence only when the one \
             before succeeds. After a child that always succeeds (`say`, `set`, `wait`, `succeed`, `force \
             success …`) in a fallback, or one that always fails or never finishes (`fail`, `repeat forever …`) \
             in a sequence, the rest never run. The tree still loads; the warning says which child is dead \
             and why.",
            "tree Guard {\n  fallback {\n    say(\"On watch.\");\n    move_to(post_a);\n  }\n}\n",
            "tree Guard {\n  sequence {\n    say(\"On watch.\");\n    move_to(post_a);\n  }\n}\n",
        ),
        Code::TreeArguments => (
            "Each node takes its own words and arguments: `repeat N` or `repeat forever`, `retry N`, \
             `timeout`/`delay`/`cooldown` a number of ticks, `parallel success N failure M` at most as many \
             as its children; a decorator or guard has exactly one child, a composite at least one; each \
             built-in leaf its count of arguments; script leaves and services none (they read the \
             blackboard), services an interval (`every 5`).",
            "tree Guard {\n  repeat sequence { wait(5); say(\"Still here.\"); }\n}\n",
            "tree Guard {\n  repeat 3 sequence { wait(5); say(\"Still here.\"); }\n}\n",
        ),
        Code::TreeAbort => (
            "A guard's observer abort says what a change of its condition cuts short while the tree runs \
             (Unreal's \"observer aborts\"): `self` its own branch when the condition stops holding, \
             `lower_priority` the children after it in its fallback when it comes to hold, `both` either. \
             Only a fallback has children of lower priority, so `lower_priority` and `both` are refused \
             anywhere else, as Unreal refuses them under a sequence.",
            "tree Guard {\n  blackboard { shot = false; }\n  sequence {\n    guard shot abort lower_priority say(\"Cover!\");\n    wait(5);\n  }\n}\n",
            "tree Guard {\n  blackboard { shot = false; }\n  fallback {\n    guard shot abort lower_priority say(\"Cover!\");\n    wait(5);\n  }\n}\n",
        ),
        Code::TreeSubtree => (
            "`subtree NAME(port = key, …)` runs another tree of the same file, with each of its ports bound \
             to a key of the caller (an `in` port may take a constant instead). The tree must exist, every \
             port must be bound and only its own ports, and no tree may call itself, even through others.",
            "tree Guard {\n  blackboard { spot = \"post_a\"; }\n  subtree Look(where = spot);\n}\ntree Look(in at) {\n  move_to(at);\n}\n",
            "tree Guard {\n  blackboard { spot = \"post_a\"; }\n  subtree Look(at = spot);\n}\ntree Look(in at) {\n  move_to(at);\n}\n",
        ),
        Code::TreeDuplicate => (
            "Names in a tree file are taken once: trees by the file, keys and ports by their tree. A second \
             declaration would silently hide the first.",
            "tree Guard {\n  blackboard { noise = false; noise = true; }\n  guard noise say(\"Who's there?\");\n}\n",
            "tree Guard {\n  blackboard { noise = false; }\n  guard noise say(\"Who's there?\");\n}\n",
        ),
        Code::TreeLeafFile => (
            "A tree's script leaves are functions of the `.tac`, Lua (`.lua`) or Rhai (`.rhai`) files its \
             `leaves` line names, relative to the tree file. A file of another kind, one that cannot be read \
             or one that does not compile is refused with the tree, since none of its functions could run.",
            "tree Guard {\n  leaves \"guard.py\";\n  investigate();\n}\n",
            "tree Guard {\n  leaves \"guard.lua\";\n  investigate();\n}\n",
        ),
        Code::ReturnOutsideLeaf => (
            "A `.tac` file's `leaf NAME { … }` blocks are leaves a behaviour tree calls; `return success;`, \
             `return failure;` or `return running;` ends one and tells the tree how it went. Anywhere else \
             there is nobody to tell.",
            "on think { Say(\"Looking.\"); return success; }\n",
            "leaf look { Say(\"Looking.\"); return success; }\n",
        ),
        Code::LeafWithoutReturn => (
            "A tree ticks a leaf and acts on what it returns, so every path through a `leaf` ends with \
             `return success;`, `return failure;` or `return running;` (a leaf that returns running is called \
             again next tick). The checker follows `if`/`else`: both branches must return, or a `return` must \
             follow them.",
            "leaf look {\n  if (DistanceToPlayer() < 5) return success;\n}\n",
            "leaf look {\n  if (DistanceToPlayer() < 5) return success;\n  return failure;\n}\n",
        ),
        Code::UnknownEntity => (
            "A test speaks of the characters of its scenario by the names the scenario gives them (a \
             crowd's members are `NAME-1`, `NAME-2` …, written in quotes). A name the scenario does not \
             have, or one the test itself removes with `remove`, could never be seen in the run, so the \
             expectation would fail for a reason that has nothing to do with the AI.",
            "scenario \"scenario.toml\";\n\ntest \"the runner gets in\" {\n    expect runer reaches warehouse by 150;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"the runner gets in\" {\n    expect runner reaches warehouse by 150;\n}\n",
        ),
        Code::UnknownTarget => (
            "`reaches` and `start … at` take a cell `(x, y)`, or a place or region the scenario declares \
             (`[places]`, `[regions]`); a region counts as reached when the character stands anywhere in \
             it.",
            "scenario \"scenario.toml\";\n\ntest \"the fisherman goes fishing\" {\n    expect fisherman reaches kDok by 120;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"the fisherman goes fishing\" {\n    expect fisherman reaches kDock by 120;\n}\n",
        ),
        Code::UnknownEventKind => (
            "Counts, orders, `never` and `eventually` watch the trace, whose events each have a kind: `say`, \
             `move`, `arrive`, `blocked`, `enter`, `signal`, `script_error` and the others docs/trace.md \
             lists. A kind the trace does not have would never be seen.",
            "scenario \"scenario.toml\";\n\ntest \"nobody is stuck\" {\n    never blockd;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"nobody is stuck\" {\n    never blocked;\n}\n",
        ),
        Code::UndeclaredGlobal => (
            "In a test's condition a bare name is a world global. One the scenario does not declare (in \
             `[globals]` or its timeline) reads as nothing until a script sets it, which is usually a typo; \
             a character's facts are written with its name in front: `guard.health`, `guard.x`, \
             `guard.patrol` (a machine's state).",
            "scenario \"scenario.toml\";\n\ntest \"night falls\" {\n    expect (GameTme == kNight) at 130;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"night falls\" {\n    expect (GameTime == kNight) at 130;\n}\n",
        ),
        Code::TickOutOfRun => (
            "A test plays ticks 0 to one less than its `ticks` (the scenario's `ticks` unless the test \
             sets its own). An expectation about a later tick could never be checked, and a window \
             `between A and B` needs A no later than B.",
            "scenario \"scenario.toml\";\n\ntest \"night falls\" {\n    expect (GameTime == kNight) at 230;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"night falls\" {\n    ticks 240;\n    expect (GameTime == kNight) at 230;\n}\n",
        ),
        Code::EmptyTest => (
            "A test passes when every expectation in it holds; one with none would pass whatever the \
             characters did. Say what must hold: an arrival, a line, a count, an order, a condition, a \
             distance or a golden file.",
            "scenario \"scenario.toml\";\n\ntest \"the harbour at dusk\" {\n    seed 7;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"the harbour at dusk\" {\n    seed 7;\n    never script_error;\n}\n",
        ),
        Code::DuplicateTest => (
            "A failure names its test, and the command that replays it picks the test by name, so the \
             names of one file's tests must differ.",
            "scenario \"scenario.toml\";\n\ntest \"night\" {\n    expect (GameTime == kNight) at 130;\n}\n\ntest \"night\" {\n    never script_error;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"night\" {\n    expect (GameTime == kNight) at 130;\n}\n\ntest \"no errors\" {\n    never script_error;\n}\n",
        ),
        Code::TestSetting => (
            "A test sets its `seed` and `ticks` once each, plays at least one tick, and a file plays one \
             scenario. A count of events needs its least number no larger than its greatest.",
            "scenario \"scenario.toml\";\n\ntest \"quiet\" {\n    seed 7;\n    seed 8;\n    never script_error;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"quiet\" {\n    seed 8;\n    never script_error;\n}\n",
        ),
        Code::BadPattern => (
            "`says matching \"…\"` takes a regular expression (the `regex` crate's syntax) that the line \
             must contain somewhere; `^` and `$` anchor it. A pattern that does not read would match \
             nothing. To expect the exact line, leave `matching` out.",
            "scenario \"scenario.toml\";\n\ntest \"the guard reports\" {\n    expect guard says matching \"(quiet\" by 150;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"the guard reports\" {\n    expect guard says matching \"quiet\" by 150;\n}\n",
        ),
        Code::NoScenario => (
            "A test file plays the scenario its `scenario \"…\";` line names, relative to the test file; \
             without one, the `scenario.toml` in its folder or the folder above. The scenario must load \
             (`tactica check` says why when it does not).",
            "scenario \"scenaro.toml\";\n\ntest \"quiet\" {\n    never script_error;\n}\n",
            "scenario \"scenario.toml\";\n\ntest \"quiet\" {\n    never script_error;\n}\n",
        ),
        Code::BudgetExceeded => (
            "Every call runs under a step budget (`ScriptLimits::max_ops`, 100 000 by default), so a script \
             can never hang the game. A loop that never ends is stopped; the script's commands of that call \
             are dropped, a `script_error` is recorded and every other entity goes on. Make the loop's \
             condition become false, or bound it with `repeat n`.",
            "let n = 0;\nwhile (n >= 0) { n = n + 1; }\n",
            "let n = 0;\nwhile (n < 10) { n = n + 1; }\n",
        ),
        Code::HostError => (
            "A host function refused its arguments when it ran: a handle that is nil or stale, an entity \
             handle stored in a global (handles may not outlive the call), a malformed query table. The \
             checker knows argument types, not values, so this is found at run time.",
            "SetGlobal(\"boss\", Me());\n",
            "SetGlobal(\"boss\", NameOf(Me()));\n",
        ),
        Code::RuntimeType => (
            "A value reached an operator that cannot take it — an engine global the game has not set yet is \
             `nothing` — or whole-number arithmetic overflowed 64 bits. The checker catches what it can see; \
             values that only exist when the script runs (globals, host queries, `GetGlobal`) are checked when \
             they arrive.",
            "let big = 9223372036854775807;\nlet bigger = big + Random(1) + 1;\n",
            "let big = 9223372036854775806;\nlet bigger = big + Random(1) + 1;\n",
        ),
        Code::RuntimeDivision => (
            "A division or remainder by a value that turned out 0 at run time (`Random(n)` is 0 one time in \
             n, and always for n = 1). Test the divisor first, or keep it away from 0.",
            "If (10 / Random(1) > 1) Say(\"never\");\n",
            "If (10 / (Random(1) + 1) > 1) Say(\"always\");\n",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rendering_has_the_summary_and_both_examples() {
        let text = explanation(Code::WrongArity).render();
        assert!(text.starts_with("E0013 (error, found by `tactica check`): The function takes"), "{text}");
        assert!(text.contains("Wrong:\n\n    move(0, 1, 2);\n"), "{text}");
        assert!(text.contains("Right:\n\n    move(0, 1);\n"), "{text}");
        assert!(explanation(Code::BudgetExceeded).render().contains("stops the script when it runs"));
    }
}
