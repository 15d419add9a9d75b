//! Expectations resolved against their scenario ([`Rule`]) and checked while the run plays
//! ([`Check`]): each tick's world and events go to every check still open, and a check decides
//! as soon as it can — an `always` that fails at tick 12 fails at tick 12, an arrival passes on
//! the tick the character arrives — so a run stops once every expectation is decided, and the
//! tick a failure names is the first tick it could be seen.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;

use glam::{IVec2, Vec2};
use serde::{Deserialize, Serialize};
use tactica_engine::decide::expr::Expr;
use tactica_engine::world::{Event, EventKind, Region, World};

use super::facts::Facts;
use crate::runtime::narrate::{narrate, sentence};

/// How one expectation fared on one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// It held; decided at the end of this tick.
    Passed {
        /// The tick it was decided at.
        tick: u64,
    },
    /// It did not hold: the first tick that shows it, and what was seen instead.
    Failed {
        /// The first tick at which it could be seen to fail.
        tick: u64,
        /// What the world showed instead.
        seen: String,
    },
    /// It is not checked on this run (a golden file is recorded for the test's own seed only).
    NotChecked {
        /// Why.
        why: String,
    },
    /// `--bless` wrote its golden file from this run.
    Written {
        /// The file, as the test names it.
        file: String,
        /// How many lines it holds.
        lines: usize,
    },
}

impl Verdict {
    /// Whether it failed.
    pub fn failed(&self) -> bool {
        matches!(self, Verdict::Failed { .. })
    }
}

/// The ticks an expectation looks at, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Window {
    pub(crate) from: u64,
    pub(crate) to: Option<u64>,
}

impl Window {
    fn contains(self, tick: u64) -> bool {
        tick >= self.from && self.to.is_none_or(|to| tick <= to)
    }

    /// Whether the window is over at the end of `tick`.
    fn over(self, tick: u64) -> bool {
        self.to.is_some_and(|to| tick >= to)
    }

    fn describe(self) -> String {
        match (self.from, self.to) {
            (0, None) => "in the whole run".to_owned(),
            (0, Some(to)) => format!("by tick {to}"),
            (from, None) => format!("from tick {from} on"),
            (from, Some(to)) => format!("between ticks {from} and {to}"),
        }
    }
}

/// Which events an expectation counts: a kind, maybe the event's word and its entity.
#[derive(Debug, Clone)]
pub(crate) struct Pattern {
    pub(crate) kind: String,
    pub(crate) text: Option<String>,
    pub(crate) entity: Option<String>,
}

impl Pattern {
    fn matches(&self, e: &Event) -> bool {
        e.kind.name() == self.kind
            && self.entity.as_ref().is_none_or(|who| e.entity.as_ref() == Some(who))
            && self.text.as_ref().is_none_or(|t| e.kind.text() == Some(t.as_str()))
    }

    fn describe(&self) -> String {
        let mut s = self.kind.clone();
        if let Some(t) = &self.text {
            s.push_str(&format!(" {t:?}"));
        }
        if let Some(who) = &self.entity {
            s.push_str(&format!(" of {who}"));
        }
        format!("`{s}`")
    }
}

/// Where an arrival must end: a cell (or a place's cell), or anywhere in a region.
#[derive(Debug, Clone)]
pub(crate) enum Spot {
    Cell { cell: IVec2, name: String },
    Region { region: Region, name: String },
}

impl Spot {
    fn contains(&self, cell: IVec2) -> bool {
        match self {
            Spot::Cell { cell: c, .. } => *c == cell,
            Spot::Region { region, .. } => region.contains(cell),
        }
    }

    /// How far `p` is from it, in cells.
    fn distance(&self, p: Vec2) -> f32 {
        match self {
            Spot::Cell { cell, .. } => p.distance(cell.as_vec2() + Vec2::splat(0.5)),
            Spot::Region { region, .. } => {
                p.distance(p.clamp(region.min.as_vec2(), (region.max + IVec2::ONE).as_vec2()))
            }
        }
    }

    fn name(&self) -> &str {
        match self {
            Spot::Cell { name, .. } | Spot::Region { name, .. } => name,
        }
    }
}

/// How a line said must read.
#[derive(Debug, Clone)]
pub(crate) enum Line {
    Exact(String),
    Pattern(regex::Regex),
}

impl Line {
    fn matches(&self, said: &str) -> bool {
        match self {
            Line::Exact(t) => said == t,
            Line::Pattern(p) => p.is_match(said),
        }
    }
}

/// A condition over world facts, as written and as the engine evaluates it.
#[derive(Debug, Clone)]
pub(crate) struct Cond {
    pub(crate) expr: Expr,
    pub(crate) text: String,
}

/// What `never` and `eventually` watch for.
#[derive(Debug, Clone)]
pub(crate) enum Subject {
    Event(Pattern),
    Cond(Cond),
}

/// What a golden file holds.
pub use tactica_syntax::testfile::GoldenKind;

/// A golden file and what it held when the test was loaded (`None`: there is none yet).
#[derive(Debug, Clone)]
pub(crate) struct Golden {
    pub(crate) of: GoldenKind,
    pub(crate) file: PathBuf,
    pub(crate) shown: String,
    pub(crate) expected: Option<Arc<Vec<String>>>,
}

/// An expectation resolved against its scenario.
#[derive(Debug, Clone)]
pub(crate) enum Rule {
    Reaches { entity: String, spot: Spot, by: Option<u64> },
    Says { speaker: Option<String>, line: Line, window: Window },
    Count { min: Option<u64>, max: Option<u64>, event: Pattern, window: Window },
    Order { first: Pattern, then: Pattern },
    At { cond: Cond, tick: u64 },
    Never { subject: Subject, window: Window },
    Always { cond: Cond, window: Window },
    Eventually { subject: Subject, by: Option<u64> },
    Distance { a: String, b: String, at_least: bool, cells: f32, window: Window },
    Golden(Golden),
}

/// What a check is given after each tick.
pub(crate) struct Frame<'w> {
    /// The tick just played.
    pub(crate) tick: u64,
    pub(crate) world: &'w World,
    /// The events the tick added.
    pub(crate) events: &'w [Event],
    pub(crate) facts: &'w Facts,
}

/// How a golden is handled on this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum GoldenMode {
    Compare,
    Write,
    Skip,
}

/// One expectation's progress through one run.
pub(crate) struct Check<'r> {
    rule: &'r Rule,
    golden: GoldenMode,
    verdict: Option<Verdict>,
    /// Events counted so far.
    count: u64,
    /// The tick the first of an order's two events came.
    first_at: Option<u64>,
    /// The last lines said in a `says` window: tick and sentence.
    said: VecDeque<(u64, String)>,
    /// A golden's next line, the lines before it, and what `--bless` writes.
    line: usize,
    context: VecDeque<String>,
    written: Vec<String>,
}

/// How many lines of context a golden's first difference shows before it.
const CONTEXT: usize = 3;

impl<'r> Check<'r> {
    pub(crate) fn new(rule: &'r Rule, golden: GoldenMode) -> Self {
        let mut check = Check {
            rule,
            golden,
            verdict: None,
            count: 0,
            first_at: None,
            said: VecDeque::new(),
            line: 0,
            context: VecDeque::new(),
            written: Vec::new(),
        };
        if let Rule::Golden(g) = rule {
            check.verdict = match (golden, &g.expected) {
                (GoldenMode::Skip, _) => {
                    Some(Verdict::NotChecked { why: "a golden file is checked on the test's own seed".to_owned() })
                }
                (GoldenMode::Compare, None) => Some(Verdict::Failed {
                    tick: 0,
                    seen: format!("there is no golden file {} yet: `--bless` writes it from this run", g.shown),
                }),
                _ => None,
            };
        }
        check
    }

    /// The verdict, once decided.
    pub(crate) fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }

    /// The golden file's new text, after a `--bless` run.
    pub(crate) fn written(&self) -> Option<(&Golden, String)> {
        match (self.rule, self.golden) {
            (Rule::Golden(g), GoldenMode::Write) => {
                let mut text = self.written.join("\n");
                if !text.is_empty() {
                    text.push('\n');
                }
                Some((g, text))
            }
            _ => None,
        }
    }

    /// Looks at one tick; decides if it can.
    pub(crate) fn observe(&mut self, f: &Frame<'_>) {
        if self.verdict.is_some() {
            return;
        }
        self.verdict = self.decide(f);
    }

    /// The verdict at the end of the run for a check still open; `last` is the last tick played.
    pub(crate) fn finish(&mut self, last: u64, world: &World, facts: &Facts) -> Verdict {
        if let Some(v) = &self.verdict {
            return v.clone();
        }
        let failed = |seen: String| Verdict::Failed { tick: last, seen };
        let verdict = match self.rule {
            Rule::Reaches { entity, spot, .. } => failed(whereabouts(world, entity, spot)),
            Rule::Says { speaker, window, .. } => failed(self.what_was_said(speaker.as_deref(), *window)),
            Rule::Count { min, event, window, .. } => match min {
                Some(min) if self.count < *min => failed(too_few(self.count, *min, event, *window)),
                _ => Verdict::Passed { tick: last },
            },
            Rule::Order { first, then } => failed(match self.first_at {
                None => format!("{} never happened", first.describe()),
                Some(at) => {
                    format!("{} came at tick {at}, but {} never came after it", first.describe(), then.describe())
                }
            }),
            Rule::At { tick, .. } => failed(format!("the run ended at tick {last}, before tick {tick}")),
            Rule::Never { .. } | Rule::Always { .. } | Rule::Distance { .. } => Verdict::Passed { tick: last },
            Rule::Eventually { subject, .. } => failed(never_seen(subject, last, world, facts)),
            Rule::Golden(g) => match self.golden {
                GoldenMode::Write => Verdict::Written { file: g.shown.clone(), lines: self.written.len() },
                _ => {
                    let expected = g.expected.as_deref().map_or(&[][..], Vec::as_slice);
                    match expected.get(self.line) {
                        Some(next) => failed(format!(
                            "the run ended after line {}, where the golden file {} goes on:\n{}  + golden line {}: {next}",
                            self.line,
                            g.shown,
                            self.shown_context(),
                            self.line + 1
                        )),
                        None => Verdict::Passed { tick: last },
                    }
                }
            },
        };
        self.verdict = Some(verdict.clone());
        verdict
    }

    fn decide(&mut self, f: &Frame<'_>) -> Option<Verdict> {
        let t = f.tick;
        let failed = |tick: u64, seen: String| Some(Verdict::Failed { tick, seen });
        match self.rule {
            Rule::Reaches { entity, spot, by } => {
                let arrived = f.events.iter().find(|e| {
                    e.entity.as_ref() == Some(entity)
                        && matches!(e.kind, EventKind::Move { to, .. } if spot.contains(IVec2::from_array(to)))
                });
                let here =
                    f.world.find(entity).and_then(|id| f.world.entity(id)).is_some_and(|e| spot.contains(e.cell()));
                if let Some(e) = arrived {
                    return Some(Verdict::Passed { tick: e.tick });
                }
                if here {
                    return Some(Verdict::Passed { tick: t });
                }
                match by {
                    Some(by) if t >= *by => failed(*by, whereabouts(f.world, entity, spot)),
                    _ => None,
                }
            }
            Rule::Says { speaker, line, window } => {
                for e in f.events {
                    let EventKind::Say { text } = &e.kind else { continue };
                    if !window.contains(e.tick) || speaker.as_ref().is_some_and(|s| e.entity.as_ref() != Some(s)) {
                        continue;
                    }
                    if line.matches(text) {
                        return Some(Verdict::Passed { tick: e.tick });
                    }
                    self.said.push_back((e.tick, sentence(e)));
                    if self.said.len() > 3 {
                        self.said.pop_front();
                    }
                }
                if window.over(t) {
                    return failed(t, self.what_was_said(speaker.as_deref(), *window));
                }
                None
            }
            Rule::Count { min, max, event, window } => {
                for e in f.events.iter().filter(|e| window.contains(e.tick) && event.matches(e)) {
                    self.count += 1;
                    if max.is_some_and(|max| self.count > max) {
                        let which = ordinal(self.count);
                        let limit = max.unwrap_or_default();
                        return failed(
                            e.tick,
                            format!(
                                "the {which} {} (at most {limit} expected) came at tick {}: {}",
                                event.describe(),
                                e.tick,
                                sentence(e)
                            ),
                        );
                    }
                }
                if window.over(t) {
                    return match min {
                        Some(min) if self.count < *min => failed(t, too_few(self.count, *min, event, *window)),
                        _ => Some(Verdict::Passed { tick: t }),
                    };
                }
                None
            }
            Rule::Order { first, then } => {
                for e in f.events {
                    if then.matches(e) {
                        if self.first_at.is_some() {
                            return Some(Verdict::Passed { tick: e.tick });
                        }
                        return failed(
                            e.tick,
                            format!("{} came first, at tick {}: {}", then.describe(), e.tick, sentence(e)),
                        );
                    }
                    if self.first_at.is_none() && first.matches(e) {
                        self.first_at = Some(e.tick);
                    }
                }
                None
            }
            Rule::At { cond, tick } => (t >= *tick).then(|| {
                if f.facts.holds(&cond.expr, f.world, t) {
                    Verdict::Passed { tick: t }
                } else {
                    Verdict::Failed { tick: t, seen: f.facts.describe(&cond.expr, f.world, t) }
                }
            }),
            Rule::Never { subject, window } => {
                match subject {
                    Subject::Event(p) => {
                        if let Some(e) = f.events.iter().find(|e| window.contains(e.tick) && p.matches(e)) {
                            return failed(e.tick, sentence(e));
                        }
                    }
                    Subject::Cond(c) => {
                        if window.contains(t) && f.facts.holds(&c.expr, f.world, t) {
                            return failed(t, f.facts.describe(&c.expr, f.world, t));
                        }
                    }
                }
                window.over(t).then_some(Verdict::Passed { tick: t })
            }
            Rule::Always { cond, window } => {
                if window.contains(t) && !f.facts.holds(&cond.expr, f.world, t) {
                    return failed(t, f.facts.describe(&cond.expr, f.world, t));
                }
                window.over(t).then_some(Verdict::Passed { tick: t })
            }
            Rule::Eventually { subject, by } => {
                let seen = match subject {
                    Subject::Event(p) => {
                        f.events.iter().find(|e| by.is_none_or(|b| e.tick <= b) && p.matches(e)).map(|e| e.tick)
                    }
                    Subject::Cond(c) => f.facts.holds(&c.expr, f.world, t).then_some(t),
                };
                if let Some(tick) = seen {
                    return Some(Verdict::Passed { tick });
                }
                match by {
                    Some(by) if t >= *by => failed(*by, never_seen(subject, *by, f.world, f.facts)),
                    _ => None,
                }
            }
            Rule::Distance { a, b, at_least, cells, window } => {
                if !window.contains(t) {
                    return window.over(t).then_some(Verdict::Passed { tick: t });
                }
                let find = |name: &str| f.world.find(name).and_then(|id| f.world.entity(id));
                let (Some(ea), Some(eb)) = (find(a), find(b)) else {
                    let missing = if find(a).is_none() { a } else { b };
                    return failed(t, format!("{missing} is not in the world"));
                };
                let d = ea.position.distance(eb.position);
                let kept = if *at_least { d >= *cells } else { d <= *cells };
                if !kept {
                    let c = |e: &tactica_engine::world::Entity| format!("({}, {})", e.cell().x, e.cell().y);
                    return failed(t, format!("{a} was {d:.1} cells from {b}: {a} at {}, {b} at {}", c(ea), c(eb)));
                }
                window.over(t).then_some(Verdict::Passed { tick: t })
            }
            Rule::Golden(g) => self.golden(g, f),
        }
    }

    fn golden(&mut self, g: &Golden, f: &Frame<'_>) -> Option<Verdict> {
        let line = |e: &Event| match g.of {
            GoldenKind::Trace => e.to_json_line(),
            GoldenKind::Narration => narrate(e),
        };
        if self.golden == GoldenMode::Write {
            self.written.extend(f.events.iter().map(line));
            return None;
        }
        let expected = g.expected.as_deref().map_or(&[][..], Vec::as_slice);
        for e in f.events {
            let got = line(e);
            match expected.get(self.line) {
                Some(want) if *want == got => {}
                want => {
                    let golden = match want {
                        Some(w) => format!("  - golden line {}: {w}\n", self.line + 1),
                        None => format!("  - the golden file {} ends after line {}\n", g.shown, self.line),
                    };
                    return Some(Verdict::Failed {
                        tick: e.tick,
                        seen: format!(
                            "the {} differs from {} at line {} (tick {}):\n{}{golden}  + this run:      {got}",
                            if g.of == GoldenKind::Trace { "trace" } else { "narration" },
                            g.shown,
                            self.line + 1,
                            e.tick,
                            self.shown_context(),
                        ),
                    });
                }
            }
            self.line += 1;
            self.context.push_back(got);
            if self.context.len() > CONTEXT {
                self.context.pop_front();
            }
        }
        None
    }

    /// The lines before a golden's first difference, numbered.
    fn shown_context(&self) -> String {
        let first = self.line - self.context.len();
        self.context.iter().enumerate().map(|(i, l)| format!("    line {}: {l}\n", first + i + 1)).collect()
    }

    fn what_was_said(&self, speaker: Option<&str>, window: Window) -> String {
        let who = speaker.unwrap_or("nobody");
        if self.said.is_empty() {
            return match speaker {
                Some(s) => format!("{s} said nothing {}", window.describe()),
                None => format!("{who} said anything {}", window.describe()),
            };
        }
        let lines: Vec<String> = self.said.iter().map(|(t, s)| format!("tick {t}: {s}")).collect();
        format!("no line matched {}; the last said: {}", window.describe(), lines.join("; "))
    }
}

/// Where a character is and how far from where it should be.
fn whereabouts(world: &World, entity: &str, spot: &Spot) -> String {
    match world.find(entity).and_then(|id| world.entity(id)) {
        Some(e) => format!(
            "{entity} was at ({}, {}), {:.1} cells from {}",
            e.cell().x,
            e.cell().y,
            spot.distance(e.position),
            spot.name()
        ),
        None => format!("{entity} is not in the world"),
    }
}

fn too_few(count: u64, min: u64, event: &Pattern, window: Window) -> String {
    let n = if count == 0 { "no".to_owned() } else { format!("only {count}") };
    format!("{n} {} {} (at least {min} expected)", event.describe(), window.describe())
}

fn never_seen(subject: &Subject, tick: u64, world: &World, facts: &Facts) -> String {
    match subject {
        Subject::Event(p) => format!("no {} by tick {tick}", p.describe()),
        Subject::Cond(c) => {
            format!("`{}` never held by tick {tick}; then {}", c.text, facts.describe(&c.expr, world, tick))
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th` … `11th`, `21st`.
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_and_windows_read_as_english() {
        let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].into_iter().map(ordinal).collect();
        assert_eq!(words, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]);
        assert_eq!(Window { from: 0, to: None }.describe(), "in the whole run");
        assert_eq!(Window { from: 0, to: Some(9) }.describe(), "by tick 9");
        assert_eq!(Window { from: 3, to: Some(9) }.describe(), "between ticks 3 and 9");
        assert!(Window { from: 3, to: Some(9) }.contains(9) && !Window { from: 3, to: Some(9) }.contains(2));
    }

    #[test]
    fn a_region_is_as_far_as_its_nearest_cell() {
        let spot = Spot::Region { region: Region::new(IVec2::new(2, 2), IVec2::new(4, 3)), name: "yard".into() };
        assert_eq!(spot.distance(Vec2::new(3.5, 2.5)), 0.0);
        assert_eq!(spot.distance(Vec2::new(7.0, 2.5)), 2.0);
        assert!(spot.contains(IVec2::new(4, 3)) && !spot.contains(IVec2::new(5, 3)));
    }
}
