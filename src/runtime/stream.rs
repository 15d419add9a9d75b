//! Events out as they happen, for a game that runs for hours: it drains them each frame (to move
//! its own characters, play its own sounds, show its own subtitles), the log keeps only the recent
//! ones, and the trace is written to a sink and hashed as it goes instead of being kept whole.
//!
//! The trace hash is the same whichever way it is made: the SHA-256 of every event's JSON line,
//! in order, from the first tick. Events are forgotten only after they have been hashed.

use std::io::Write;

use sha2::{Digest, Sha256};
use tactica_engine::world::Event;

use super::Runtime;

/// Where a streamed trace goes: any writer the game owns (a file, a socket, a `Vec<u8>`).
pub type TraceSink = Box<dyn Write + Send>;

#[derive(Default)]
pub(super) struct Stream {
    /// Every event with a lower index has been hashed (and written to the sink, if any).
    hashed: usize,
    hasher: Sha256,
    sink: Option<TraceSink>,
    sink_error: Option<String>,
    /// How many recent events the log keeps; `None` keeps every event (the CLI's way).
    keep: Option<usize>,
    /// The index of the next event [`Runtime::drain_events`] returns.
    drained: usize,
    /// The lines being hashed, kept between ticks so a tick's thousands of events are written
    /// into one buffer and hashed in one call.
    lines: Vec<u8>,
}

impl Stream {
    fn streaming(&self) -> bool {
        self.keep.is_some() || self.sink.is_some()
    }

    fn absorb(&mut self, events: &[Event]) {
        // SHA-256 over the concatenated lines is the same however the bytes are split between
        // calls: one update for the tick's lines hashes what one per line did.
        let mut lines = std::mem::take(&mut self.lines);
        lines.clear();
        for e in events {
            let start = lines.len();
            e.write_json_line(&mut lines);
            if self.sink.is_some() {
                self.write_bytes(&lines[start..]);
            }
        }
        self.hasher.update(&lines);
        self.hashed += events.len();
        self.lines = lines;
    }

    /// Writes one line, its `\n` included, to the sink (if any) unless writing has failed.
    fn write_bytes(&mut self, line: &[u8]) {
        if let Some(sink) = &mut self.sink
            && self.sink_error.is_none()
            && let Err(err) = sink.write_all(line)
        {
            self.sink_error = Some(err.to_string());
        }
    }

    fn write_line(&mut self, line: &str) {
        if let Some(sink) = &mut self.sink
            && self.sink_error.is_none()
            && let Err(err) = writeln!(sink, "{line}")
        {
            self.sink_error = Some(err.to_string());
        }
    }
}

impl Runtime {
    /// Keeps only about the `n` most recent events in the log (at least `n`, at most `2n`, and
    /// always the last tick's, which scripts read): memory stays flat however long the game runs.
    /// Events are hashed before they are forgotten, so [`Runtime::trace_hash`] still covers the
    /// whole run; take them out first with [`Runtime::drain_events`] if the game needs them.
    ///
    /// ```
    /// # let scenario = tactica::scenario::load(std::path::Path::new("examples/harbour/scenario.toml")).unwrap();
    /// let mut rt = tactica::runtime::Runtime::new(scenario, tactica::languages()).unwrap();
    /// rt.keep_events(Some(1_000));
    /// for _ in 0..100 { // a game's whole session: the log keeps no more than 1,000 events
    ///     rt.tick();
    ///     for event in rt.drain_events() {
    ///         // move a sprite, play a sound, show a subtitle …
    ///         let _ = event;
    ///     }
    /// }
    /// ```
    pub fn keep_events(&mut self, n: Option<usize>) {
        self.stream.keep = n;
        self.stream_events(self.previous.0);
    }

    /// Writes the trace to `sink` as it happens: every event still in the log now, then each
    /// tick's events at the end of the tick (and a reload's when the next tick ends). Events the
    /// log forgot before a sink was set are hashed but not written. A write that fails stops the
    /// writing; [`Runtime::trace_sink_error`] says why. The game owns buffering and flushing (wrap
    /// a file in a `BufWriter`).
    pub fn stream_trace(&mut self, sink: TraceSink) {
        let Runtime { world, stream, .. } = self;
        stream.sink = Some(sink);
        stream.sink_error = None;
        let log = world.log();
        // Events already hashed (and still kept) are written without being hashed again.
        for e in log.range(log.first_kept()..stream.hashed) {
            stream.write_line(&e.to_json_line());
        }
        stream.absorb(log.since(stream.hashed));
    }

    /// Why writing the streamed trace stopped, if it did.
    pub fn trace_sink_error(&self) -> Option<&str> {
        self.stream.sink_error.as_deref()
    }

    /// Every event logged since the last call (or since the start), oldest first. Events the log
    /// already forgot (see [`Runtime::keep_events`]) are not returned: drain at least once every
    /// `n` events.
    pub fn drain_events(&mut self) -> Vec<Event> {
        let events = self.world.log().since(self.stream.drained).to_vec();
        self.stream.drained = self.world.log().len();
        events
    }

    /// The SHA-256 of the whole trace (every event's JSON line, from the first tick), in hex:
    /// equal hashes mean byte-identical traces. Forgotten events count: they were hashed first.
    pub fn trace_hash(&self) -> String {
        let mut hasher = self.stream.hasher.clone();
        for e in self.world.log().since(self.stream.hashed) {
            hasher.update(e.to_json_line().as_bytes());
            hasher.update(b"\n");
        }
        hasher.finalize().iter().map(|b| format!("{b:02x}")).collect()
    }

    /// At the end of a tick that started at event `tick_start`: hashes and writes the new events,
    /// then forgets what the log need not keep.
    pub(super) fn stream_events(&mut self, tick_start: usize) {
        if !self.stream.streaming() {
            return;
        }
        let Runtime { world, stream, .. } = self;
        stream.absorb(world.log().since(stream.hashed));
        if let Some(keep) = self.stream.keep {
            let len = self.world.log().len();
            let keep_from = len.saturating_sub(keep).min(tick_start).min(self.stream.hashed);
            self.world.forget_events_before(keep_from);
        }
    }
}
