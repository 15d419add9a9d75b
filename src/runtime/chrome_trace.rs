//! The profiler's timeline in the Chrome trace-event format (JSON), which Perfetto
//! (<https://ui.perfetto.dev>) and `chrome://tracing` open: `tactica run --profile-json FILE`.
//!
//! Every tick is one complete event (`"ph":"X"`) on one track; its phases are complete events
//! laid end to end inside it, every script call is one inside the `scripts` phase, and every host
//! function call one inside the script call that made it. Durations are the profiler's own
//! figures, written to the nanosecond (`ts` and `dur` are microseconds with three decimals), so
//! the spans of a phase, a file, a handler or a host function add up to the profiler's totals
//! exactly. The file is written as the ticks end — a long run keeps no timeline in memory — and
//! closed by [`ChromeTrace::finish`].

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::profile::Phase;

/// The process and track ids of every event (one process, one thread: the tick loop).
const PID: u32 = 1;
const TID: u32 = 1;

/// One script call of a tick, as the timeline draws it.
pub(super) struct CallSpan<'a> {
    /// The script file as the trace names it.
    pub file: &'a str,
    /// The handler (`think`, `spawn` …).
    pub handler: &'static str,
    /// `tac`, `lua`, `rhai` or `native`.
    pub language: &'static str,
    /// The entity whose script it is (none for a world script).
    pub entity: Option<&'a str>,
    /// When it started and how long it took.
    pub start: Instant,
    /// How long it took.
    pub took: Duration,
}

/// A Chrome trace-event file being written.
pub(super) struct ChromeTrace {
    out: Box<dyn Write + Send>,
    /// The instant `ts` 0 stands for: when the timeline was started.
    origin: Instant,
    /// Whether an event was written (the next one needs a comma before it).
    written: bool,
    /// The first write error: later writes are skipped and [`ChromeTrace::finish`] returns it.
    error: Option<io::Error>,
    line: String,
}

impl ChromeTrace {
    /// Starts the file: its header and the names Perfetto shows for the process and the track.
    pub(super) fn new(mut out: Box<dyn Write + Send>, title: &str) -> Self {
        let header = format!(
            "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"scenario\":{}}},\"traceEvents\":[\n\
             {{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{PID},\"tid\":{TID},\"args\":{{\"name\":{}}}}},\n\
             {{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":{PID},\"tid\":{TID},\"args\":{{\"name\":\"ticks\"}}}}",
            json_string(title),
            json_string(&format!("tactica: {title}")),
        );
        let error = out.write_all(header.as_bytes()).err();
        ChromeTrace { out, origin: Instant::now(), written: true, error, line: String::new() }
    }

    /// Writes one tick: the tick, its phases (`laps`, in [`Phase::ALL`] order, starting at
    /// `start`), its script calls and the host calls they made, and an instant event when the
    /// tick went over the frame budget.
    pub(super) fn tick(
        &mut self,
        tick: u64,
        start: Instant,
        laps: &[Duration; 10],
        calls: &[CallSpan<'_>],
        host_calls: &[tactica_stdlib::profile::HostCall],
        over_budget: bool,
    ) {
        if self.error.is_some() {
            return;
        }
        let total: Duration = laps.iter().sum();
        self.complete(&format!("tick {tick}"), "tick", start, total, &format!("{{\"tick\":{tick}}}"));
        let mut at = start;
        for (phase, lap) in Phase::ALL.iter().zip(laps) {
            self.complete(phase.name(), "phase", at, *lap, "");
            if *phase == Phase::Scripts {
                self.calls(calls, host_calls);
            }
            at += *lap;
        }
        if over_budget {
            self.event(&format!(
                "{{\"name\":\"over the frame budget\",\"cat\":\"budget\",\"ph\":\"i\",\"s\":\"t\",\"ts\":{},\"pid\":{PID},\"tid\":{TID}}}",
                micros(start.saturating_duration_since(self.origin))
            ));
        }
    }

    /// The script calls, each followed by the host calls that started inside it.
    fn calls(&mut self, calls: &[CallSpan<'_>], host_calls: &[tactica_stdlib::profile::HostCall]) {
        let mut host = host_calls.iter().peekable();
        for c in calls {
            let entity = c.entity.map_or_else(String::new, |e| format!(",\"entity\":{}", json_string(e)));
            let args = format!(
                "{{\"file\":{},\"handler\":\"{}\",\"language\":\"{}\"{entity}}}",
                json_string(c.file),
                c.handler,
                c.language
            );
            self.complete(&format!("{} {}", c.file, c.handler), "script", c.start, c.took, &args);
            let end = c.start + c.took;
            while let Some(h) = host.next_if(|h| h.start < end) {
                // Host calls are only recorded inside script calls, in order: one that started
                // before this call did belongs to none the profiler saw, and is left out rather
                // than drawn across a span it does not nest in.
                if h.start >= c.start {
                    self.complete(h.name, "host", h.start, h.took, "");
                }
            }
        }
    }

    /// One complete event; `args` is a JSON object or empty.
    fn complete(&mut self, name: &str, cat: &str, start: Instant, took: Duration, args: &str) {
        let ts = micros(start.saturating_duration_since(self.origin));
        let dur = micros(took);
        let args = if args.is_empty() { String::new() } else { format!(",\"args\":{args}") };
        self.event(&format!(
            "{{\"name\":{},\"cat\":\"{cat}\",\"ph\":\"X\",\"ts\":{ts},\"dur\":{dur},\"pid\":{PID},\"tid\":{TID}{args}}}",
            json_string(name)
        ));
    }

    fn event(&mut self, json: &str) {
        if self.error.is_some() {
            return;
        }
        self.line.clear();
        if self.written {
            self.line.push_str(",\n");
        }
        self.line.push_str(json);
        self.written = true;
        if let Err(e) = self.out.write_all(self.line.as_bytes()) {
            self.error = Some(e);
        }
    }

    /// Closes the event list and the object, and flushes; the first error of the whole file, if
    /// any.
    pub(super) fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.write_all(b"\n]}\n")?;
        self.out.flush()
    }
}

/// A duration as microseconds with three decimals: nanoseconds exactly.
fn micros(d: Duration) -> String {
    let ns = d.as_nanos();
    format!("{}.{:03}", ns / 1000, ns % 1000)
}

fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn micros_keep_every_nanosecond() {
        assert_eq!(micros(Duration::from_nanos(0)), "0.000");
        assert_eq!(micros(Duration::from_nanos(7)), "0.007");
        assert_eq!(micros(Duration::from_nanos(1_234_567)), "1234.567");
    }

    #[test]
    fn names_are_escaped() {
        assert_eq!(json_string("a \"b\"\n"), "\"a \\\"b\\\"\\n\"");
    }
}
