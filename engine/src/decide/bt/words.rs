//! Every word of the tree language with its form and a one-line description: what an editor
//! shows on hover and offers on completion, and what `docs/trees.md` describes (a test holds the
//! two together).

/// One word: the word, how it is written, what it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    /// The word (`sequence`, `move_to`).
    pub word: &'static str,
    /// How it is written (`sequence { … }`, `move_to(place)`).
    pub form: &'static str,
    /// What it does, in one or two sentences.
    pub doc: &'static str,
    /// Whether it is a leaf (else a composite, decorator or section).
    pub leaf: bool,
}

const fn w(word: &'static str, form: &'static str, doc: &'static str, leaf: bool) -> Word {
    Word { word, form, doc, leaf }
}

/// Every word, composites and decorators first, then the leaves.
pub const WORDS: &[Word] = &[
    w(
        "tree",
        "tree NAME { … }",
        "A tree: its blackboard, its leaf files and one root node. The file's first tree is the one a scenario attaches; the others are its subtrees.",
        false,
    ),
    w(
        "blackboard",
        "blackboard { KEY = value; … }",
        "The keys the tree reads and writes, with their defaults, on the character's blackboard (shared with its scripts and models).",
        false,
    ),
    w(
        "leaves",
        "leaves \"file.lua\", …;",
        "The `.tac`, Lua and Rhai files whose functions are the tree's script leaves and services (paths relative to the tree file).",
        false,
    ),
    w(
        "service",
        "service NAME() every TICKS;",
        "A script function the composite calls when it starts and then every TICKS ticks while it runs, to keep blackboard keys up to date.",
        false,
    ),
    w(
        "sequence",
        "sequence { … }",
        "Its children in order until one fails; it fails with it, or succeeds when all did. A running child is resumed next tick; the ones before it are not ticked again.",
        false,
    ),
    w(
        "fallback",
        "fallback { … }",
        "Its children in order until one succeeds (a selector); it succeeds with it, or fails when all did. A running child is resumed; guards before it with `abort lower_priority` watch.",
        false,
    ),
    w("selector", "selector { … }", "Another name for `fallback`.", false),
    w(
        "reactive",
        "reactive sequence { … } / reactive fallback { … }",
        "Ticks its children from the first on every tick: a child before the running one that fails (sequence) or succeeds (fallback) halts it.",
        false,
    ),
    w(
        "memory",
        "sequence with memory { … }",
        "A sequence that after a failure goes on at the child that failed, not at the first.",
        false,
    ),
    w(
        "parallel",
        "parallel success N failure M { … }",
        "Ticks every unfinished child each tick; succeeds when N children succeeded (default all), fails when M failed (default 1) or success is out of reach, halting those still running.",
        false,
    ),
    w("invert", "invert NODE", "Success becomes failure and failure success.", false),
    w("force", "force success NODE / force failure NODE", "Succeeds (or fails) whenever its child finishes.", false),
    w(
        "repeat",
        "repeat N NODE / repeat forever NODE",
        "Runs its child again after each success, N times (a child that finishes at once runs N times in the tick); fails when it fails. `forever` runs it once a tick, for ever.",
        false,
    ),
    w(
        "retry",
        "retry N NODE",
        "Runs its child again after each failure, up to N attempts; succeeds when it does.",
        false,
    ),
    w(
        "timeout",
        "timeout TICKS NODE",
        "Fails and halts its child when it has run TICKS ticks without finishing.",
        false,
    ),
    w("delay", "delay TICKS NODE", "Waits TICKS ticks (running), then ticks its child.", false),
    w(
        "cooldown",
        "cooldown TICKS NODE",
        "After its child finishes or is halted, fails at once without ticking it for TICKS ticks.",
        false,
    ),
    w(
        "guard",
        "guard CONDITION [abort none|self|lower_priority|both] NODE",
        "Ticks its child while the condition over blackboard keys holds. `abort self` halts its branch when the condition stops holding; `lower_priority` (in a fallback) halts the later branch running when it comes to hold.",
        false,
    ),
    w("check", "check CONDITION;", "A condition leaf over blackboard keys: succeeds when it holds.", true),
    w("set", "set KEY = value;", "Writes a blackboard key (a constant or another key's value); succeeds.", true),
    w(
        "subtree",
        "subtree NAME(port = key, …);",
        "Runs another tree of the file, its ports bound to the caller's keys (an `in` port may take a constant).",
        true,
    ),
    w(
        "move_to",
        "move_to(place) / move_to(x, y)",
        "Walks to a place, region, character, key or cell through the navigation service; succeeds on arrival, fails when the goal cannot be reached.",
        true,
    ),
    w("follow_path", "follow_path(key)", "Walks the list of cells a key holds; succeeds at the last.", true),
    w("flee", "flee()", "Runs from the player, as `DoFlee` does; succeeds when there.", true),
    w(
        "chase",
        "chase(target)",
        "Steers after a character (a key holding one, a name, `player`); succeeds on the catch.",
        true,
    ),
    w("wait", "wait(ticks)", "Does nothing for a number of ticks (a `sleep` action); succeeds after.", true),
    w("say", "say(text)", "Says a line; succeeds at once.", true),
    w(
        "go_to_position",
        "go_to_position(query)",
        "Runs a position query of the scenario's `[queries]` and walks to its best point; fails when it finds none.",
        true,
    ),
    w(
        "play_pattern",
        "play_pattern(pattern) / play_pattern(pattern, ticks)",
        "Flies a movement pattern until halted, or for so many ticks and then succeeds.",
        true,
    ),
    w(
        "signal",
        "signal(id) / signal(id, scope)",
        "Sends a signal to the squad (or `team`, `world`); succeeds at once.",
        true,
    ),
    w(
        "wait_signal",
        "wait_signal(id) / wait_signal(id, scope)",
        "Waits until the signal is sent (at once if it was); succeeds then.",
        true,
    ),
    w("succeed", "succeed()", "Succeeds.", true),
    w("fail", "fail()", "Fails.", true),
];

/// The word `word` (any case).
pub fn word(word: &str) -> Option<&'static Word> {
    WORDS.iter().find(|w| w.word.eq_ignore_ascii_case(word))
}
