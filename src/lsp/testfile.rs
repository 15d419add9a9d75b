//! Test files (`.tactest`) in the editor: hover over a word of the format or an event kind says
//! what it means; completion offers the format's words, the trace's event kinds, and the
//! entities, places, regions and globals of the test file's scenario. Diagnostics come from the
//! same check `tactica check` runs.

use lsp_types::{CompletionItem, CompletionItemKind};
use tactica_engine::world::EventKind;

/// What each word of a test file does (`docs/testing.md` has the whole story).
pub const WORDS: &[(&str, &str)] = &[
    ("scenario", "`scenario \"scenario.toml\";` — the scenario the file's tests play, relative to the file."),
    ("test", "`test \"name\" { … }` — one test: settings, then what must hold."),
    ("seed", "`seed 7;` — the seed of the world's random generator for this test."),
    ("ticks", "`ticks 200;` — how many ticks the test plays."),
    ("set", "`set GameTime = kNight;`, `set guard.health = 10;` — a global or an attribute at tick 0."),
    ("start", "`start runner at (3, 4);` — where a character starts."),
    ("remove", "`remove fisherman;` — leave a character out of the scenario."),
    (
        "expect",
        "`expect …;` — something that must hold: an arrival, a line, a count, an order, a condition at a tick, a distance, a golden file.",
    ),
    (
        "never",
        "`never script_error;`, `never (alarm == 1);` — an event that must not happen, a condition that must not hold, at the end of any tick.",
    ),
    ("always", "`always (guard.health > 0);` — a condition that holds at the end of every tick."),
    ("eventually", "`eventually (GameTime == kNight) by 150;` — something that happens at least once."),
    ("reaches", "`expect runner reaches warehouse by 150;` — stands on the cell, place or region by the tick."),
    ("says", "`expect guard says \"Halt!\" by 40;` — says that exact line (`matching \"…\"`: a regular expression)."),
    ("matching", "`says matching \"quiet\"` — the line contains a match of the regular expression."),
    ("anyone", "`expect anyone says \"…\";` — any character."),
    (
        "before",
        "`expect signal \"breach\" before enter \"warehouse\";` — the first of one event comes before the first of the other.",
    ),
    ("between", "`between 10 and 60` — ticks 10 to 60, both included."),
    ("by", "`by 60` — at or before tick 60."),
    ("after", "`after 60` — from tick 60 on."),
    ("exactly", "`expect exactly 1 trigger;` — the count of matching events."),
    ("keeps", "`expect runner keeps 2 from guard;` — stays at least 2 cells away at the end of every tick."),
    ("stays", "`expect squad stays within 3 of captain;` — stays at most 3 cells away."),
    ("trace", "`expect trace matches \"golden/run.jsonl\";` — the trace equals the golden file (`--bless` writes it)."),
    ("narration", "`expect narration matches \"golden/run.txt\";` — the narration equals the golden file."),
];

/// The hover text for `word` in a test file, if it is a word of the format or an event kind.
pub fn hover(word: &str) -> Option<String> {
    let lower = word.to_ascii_lowercase();
    if let Some((_, doc)) = WORDS.iter().find(|(w, _)| *w == lower) {
        return Some((*doc).to_owned());
    }
    EventKind::KINDS
        .iter()
        .find(|(k, _)| *k == lower)
        .map(|(k, doc)| format!("`{k}` — an event of the trace: {doc} (docs/trace.md)."))
}

/// The completion items for a test file: the format's words, the event kinds, and `names`
/// (the scenario's entities, places, regions and globals) when its scenario loads.
pub fn completions(names: Option<&tactica_syntax::testfile::Names>) -> Vec<CompletionItem> {
    let item = |label: &str, kind, detail: &str| CompletionItem {
        label: label.to_owned(),
        kind: Some(kind),
        detail: Some(detail.to_owned()),
        ..Default::default()
    };
    let mut items: Vec<CompletionItem> =
        WORDS.iter().map(|(w, _)| item(w, CompletionItemKind::KEYWORD, "test file")).collect();
    items.extend(EventKind::KINDS.iter().map(|(k, doc)| item(k, CompletionItemKind::EVENT, doc)));
    if let Some(n) = names {
        items.extend(n.entities.iter().map(|e| item(e, CompletionItemKind::VARIABLE, "entity")));
        items.extend(n.places.iter().map(|p| item(p, CompletionItemKind::CONSTANT, "place")));
        items.extend(n.regions.iter().map(|r| item(r, CompletionItemKind::CONSTANT, "region")));
        items.extend(n.globals.iter().map(|g| item(g, CompletionItemKind::PROPERTY, "global")));
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_kinds_have_hover_text() {
        assert!(hover("Reaches").unwrap().contains("reaches warehouse"));
        assert!(hover("script_error").unwrap().contains("a script failed"));
        assert_eq!(hover("guard"), None);
        for w in tactica_syntax::testfile::KEYWORDS {
            if !["least", "most", "within", "from", "cells", "matches"].contains(w) {
                assert!(hover(w).is_some(), "{w} has no hover text");
            }
        }
    }
}
