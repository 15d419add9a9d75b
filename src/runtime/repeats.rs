//! A run-time error that repeats on every call is reported once, then summed up with its count.
//!
//! A script that fails on a value it keeps (a misspelt place, a nil it indexes) fails the same way
//! on every think: a line per think buries everything else the trace says. So each script of each
//! character keeps its *run* of errors: the first error is recorded in full (`script_error`);
//! the same error again (same file, line, column and message) is counted, not recorded; the run
//! ends when that script's next call does not fail that way — it ran through, or failed another
//! way — and then, if anything was counted, one `script_error_repeated` line says how many times
//! and on which ticks. A run still going when the game stops is summed up by
//! [`super::Runtime::finish`]. Everything here follows the tick's fixed order of calls, so the
//! trace stays the same on every run.
//!
//! Scripts are keyed by the file as the runtime loaded it, not as the trace names it: every call
//! that goes through is looked up here on every tick, and naming a file for the trace is a walk
//! of the file system. A script with no run costs one map look-up.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use tactica_engine::world::{EntityId, EventKind};

/// Which script of which character: the entity (none for a world script) and the file as the
/// runtime loaded it.
pub(super) type ScriptKey = (Option<EntityId>, PathBuf);

/// The error a run repeats, and what was counted of it.
#[derive(Debug, Clone)]
struct Run {
    /// The file as the trace names it.
    file: String,
    line: u32,
    column: u32,
    message: String,
    /// The name of the character, kept for a summary after it is gone.
    who: Option<String>,
    first: u64,
    last: u64,
    /// Times it failed the same way after the first (not recorded one by one).
    repeats: u64,
}

impl Run {
    fn summary(self) -> Option<(Option<String>, EventKind)> {
        (self.repeats > 0).then(|| {
            let kind = EventKind::ScriptErrorRepeated {
                file: self.file,
                line: self.line,
                column: self.column,
                message: self.message,
                count: self.repeats,
                first: self.first,
                last: self.last,
            };
            (self.who, kind)
        })
    }
}

/// One error a tick reported, as the runtime files it.
pub(super) struct Failure<'a> {
    pub(super) key: ScriptKey,
    /// The file as the trace names it (asked for only when the error starts a run).
    pub(super) file: &'a dyn Fn() -> String,
    pub(super) who: Option<String>,
    pub(super) line: u32,
    pub(super) column: u32,
    pub(super) message: &'a str,
}

/// What to record for one failure: first the summary of the run it ended (if any), then the
/// error itself unless it only repeats the run.
pub(super) struct Verdict {
    pub(super) ended: Option<(Option<String>, EventKind)>,
    pub(super) record: bool,
}

/// The runs of errors of every script that is failing.
#[derive(Debug, Default)]
pub(super) struct Repeats {
    runs: BTreeMap<ScriptKey, Run>,
    /// The scripts that failed this tick: a call of theirs that went through on the same tick
    /// (another handler) does not end their run.
    failed_now: BTreeSet<ScriptKey>,
}

impl Repeats {
    /// Files one error of tick `tick`.
    pub(super) fn fail(&mut self, f: Failure<'_>, tick: u64) -> Verdict {
        self.failed_now.insert(f.key.clone());
        if let Some(run) = self.runs.get_mut(&f.key)
            && run.line == f.line
            && run.column == f.column
            && run.message == f.message
        {
            run.repeats += 1;
            run.last = tick;
            return Verdict { ended: None, record: false };
        }
        let new = Run {
            file: (f.file)(),
            line: f.line,
            column: f.column,
            message: f.message.to_owned(),
            who: f.who,
            first: tick,
            last: tick,
            repeats: 0,
        };
        let ended = self.runs.insert(f.key, new).and_then(Run::summary);
        Verdict { ended, record: true }
    }

    /// A call of `entity`'s script `file` went through: its run, unless it also failed this
    /// tick, ends.
    pub(super) fn succeeded(&mut self, entity: Option<EntityId>, file: &Path) -> Option<(Option<String>, EventKind)> {
        // Found without building a key: the entity's runs, then the file among them.
        let key = self
            .runs
            .range((entity, PathBuf::new())..)
            .take_while(|((e, _), _)| *e == entity)
            .find(|((_, f), _)| f == file)
            .map(|(k, _)| k.clone())?;
        if self.failed_now.contains(&key) {
            return None;
        }
        self.runs.remove(&key).and_then(Run::summary)
    }

    /// Whether no script is failing (then no call that went through needs looking up).
    pub(super) fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The tick's calls are all filed.
    pub(super) fn end_tick(&mut self) {
        self.failed_now.clear();
    }

    /// Ends every run (the game stops): the summaries of those that repeated, in a fixed order.
    pub(super) fn finish(&mut self) -> Vec<(Option<String>, EventKind)> {
        self.failed_now.clear();
        std::mem::take(&mut self.runs).into_values().filter_map(Run::summary).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(message: &str) -> Failure<'_> {
        Failure { key: (None, "a.lua".into()), file: &|| "a.lua".into(), who: None, line: 3, column: 1, message }
    }

    fn count(e: &EventKind) -> u64 {
        match e {
            EventKind::ScriptErrorRepeated { count, .. } => *count,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_first_error_is_recorded_and_its_repeats_are_counted_until_a_call_goes_through() {
        let mut r = Repeats::default();
        assert!(r.fail(failure("boom"), 0).record);
        r.end_tick();
        for tick in 1..5 {
            let v = r.fail(failure("boom"), tick);
            assert!(!v.record && v.ended.is_none());
            r.end_tick();
        }
        let (_, summary) = r.succeeded(None, Path::new("a.lua")).expect("a summary");
        assert_eq!(count(&summary), 4);
        assert!(matches!(summary, EventKind::ScriptErrorRepeated { first: 0, last: 4, .. }));
        // A new run starts in full.
        assert!(r.fail(failure("boom"), 9).record);
        r.end_tick();
        // A different error ends it: nothing repeated, so no summary.
        let v = r.fail(failure("bang"), 10);
        assert!(v.record && v.ended.is_none());
        r.end_tick();
        r.fail(failure("bang"), 11);
        let ended = r.finish();
        assert_eq!(ended.len(), 1);
        assert_eq!(count(&ended[0].1), 1);
        assert!(r.finish().is_empty());
    }

    #[test]
    fn a_call_that_goes_through_on_a_tick_the_script_failed_does_not_end_its_run() {
        let mut r = Repeats::default();
        r.fail(failure("boom"), 0);
        assert!(r.succeeded(None, Path::new("a.lua")).is_none());
        r.end_tick();
        assert!(!r.fail(failure("boom"), 1).record);
    }
}
