//! Daily schedules ("1000 NPCs at 60 FPS", S4:742–760): blocks of looping tasks over hour
//! ranges (wrapping past midnight) and one-shot tasks at given hours with a probability.

use serde::{Deserialize, Serialize};

use crate::decide::{DecideError, error::from_toml};
use crate::world::WorldRng;

/// A daily schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Schedule {
    /// Its name (`schedule-office.7`).
    pub name: String,
    /// Looping tasks by time of day.
    #[serde(default)]
    pub blocks: Vec<Block>,
    /// One-shot tasks.
    #[serde(default)]
    pub oneshots: Vec<OneShot>,
}

/// Tasks repeated from `from` to `to` o'clock; `from > to` wraps past midnight.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block {
    /// Start hour (inclusive).
    pub from: f64,
    /// End hour (exclusive).
    pub to: f64,
    /// The looping tasks (script names).
    pub tasks: Vec<String>,
}

/// Tasks that may happen once at `at` o'clock, with probability `prob`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OneShot {
    /// The hour (fractions allowed: 17.5 is half past five).
    pub at: f64,
    /// The chance it happens on a given day.
    pub prob: f64,
    /// The tasks (script names).
    pub tasks: Vec<String>,
}

impl Schedule {
    /// Parses a TOML schedule.
    pub fn from_toml(text: &str) -> Result<Self, DecideError> {
        let s: Schedule = from_toml(text)?;
        s.check()?;
        Ok(s)
    }

    /// Parses the book's own notation:
    /// `name "x" blocks [ { from 8 to 20 tasks [ a ] } ] oneshots [ { at 8 prob 1 tasks [ b ] } ]`.
    pub fn from_script(text: &str) -> Result<Self, DecideError> {
        let toks = script_tokens(text);
        let mut p = ScriptParser { toks: &toks, pos: 0, text };
        let s = p.schedule()?;
        s.check()?;
        Ok(s)
    }

    fn check(&self) -> Result<(), DecideError> {
        let bad_hour = |h: f64| !(0.0..=24.0).contains(&h);
        if self.blocks.iter().any(|b| bad_hour(b.from) || bad_hour(b.to))
            || self.oneshots.iter().any(|o| bad_hour(o.at))
        {
            return Err(DecideError::invalid(format!("schedule `{}`", self.name), "hours lie in 0..=24"));
        }
        if self.oneshots.iter().any(|o| !(0.0..=1.0).contains(&o.prob)) {
            return Err(DecideError::invalid(format!("schedule `{}`", self.name), "prob lies in 0..=1"));
        }
        Ok(())
    }

    /// The block covering `hour` (the first that does).
    pub fn block_at(&self, hour: f64) -> Option<&Block> {
        let h = hour.rem_euclid(24.0);
        self.blocks.iter().find(|b| if b.from <= b.to { b.from <= h && h < b.to } else { h >= b.from || h < b.to })
    }

    /// The one-shots whose hour falls in `(from, to]` (wrapping past midnight), each drawn with
    /// its probability — call once per tick with the previous and the current hour.
    pub fn due<'a>(&'a self, from: f64, to: f64, rng: &mut WorldRng, out: &mut Vec<&'a OneShot>) {
        let (a, b) = (from.rem_euclid(24.0), to.rem_euclid(24.0));
        for o in &self.oneshots {
            let t = o.at.rem_euclid(24.0);
            let inside = if a <= b { a < t && t <= b } else { t > a || t <= b };
            if inside && rng.chance(o.prob) {
                out.push(o);
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum STok {
    Word(String),
    Num(f64),
    Str(String),
    Open(char),
    Close(char),
}

fn script_tokens(text: &str) -> Vec<(STok, usize)> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '[' | '{' => out.push((STok::Open(c), i)),
            ']' | '}' => out.push((STok::Close(c), i)),
            '"' => {
                let mut s = String::new();
                for (_, d) in chars.by_ref() {
                    if d == '"' {
                        break;
                    }
                    s.push(d);
                }
                out.push((STok::Str(s), i));
            }
            _ => {
                let mut s = String::from(c);
                while let Some(&(_, d)) = chars.peek() {
                    if d.is_whitespace() || "[]{}\"".contains(d) {
                        break;
                    }
                    s.push(d);
                    chars.next();
                }
                out.push((s.parse::<f64>().map_or(STok::Word(s), STok::Num), i));
            }
        }
    }
    out
}

struct ScriptParser<'a> {
    toks: &'a [(STok, usize)],
    pos: usize,
    text: &'a str,
}

impl ScriptParser<'_> {
    fn error(&self, message: &str) -> DecideError {
        let offset = self.toks.get(self.pos).map_or(self.text.len(), |t| t.1);
        let (line, column) = crate::decide::error::line_column(self.text, offset);
        DecideError::Parse { line, column, message: message.to_owned() }
    }

    fn next(&mut self) -> Option<&STok> {
        let t = self.toks.get(self.pos).map(|t| &t.0);
        self.pos += 1;
        t
    }

    fn expect(&mut self, t: &STok, what: &str) -> Result<(), DecideError> {
        if self.toks.get(self.pos).map(|t| &t.0) == Some(t) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected {what}")))
        }
    }

    fn number(&mut self) -> Result<f64, DecideError> {
        match self.next() {
            Some(STok::Num(n)) => Ok(*n),
            _ => {
                self.pos -= 1;
                Err(self.error("expected a number"))
            }
        }
    }

    fn words(&mut self) -> Result<Vec<String>, DecideError> {
        self.expect(&STok::Open('['), "`[`")?;
        let mut v = Vec::new();
        loop {
            match self.next().cloned() {
                Some(STok::Close(']')) => return Ok(v),
                Some(STok::Word(w) | STok::Str(w)) => v.push(w),
                _ => {
                    self.pos -= 1;
                    return Err(self.error("expected a task name or `]`"));
                }
            }
        }
    }

    fn schedule(&mut self) -> Result<Schedule, DecideError> {
        let mut s = Schedule { name: String::new(), blocks: Vec::new(), oneshots: Vec::new() };
        while self.pos < self.toks.len() {
            match self.next().cloned() {
                Some(STok::Word(w)) if w == "name" => match self.next().cloned() {
                    Some(STok::Str(n) | STok::Word(n)) => s.name = n,
                    _ => return Err(self.error("expected a name")),
                },
                Some(STok::Word(w)) if w == "blocks" || w == "oneshots" => {
                    self.expect(&STok::Open('['), "`[`")?;
                    while self.toks.get(self.pos).map(|t| &t.0) == Some(&STok::Open('{')) {
                        self.pos += 1;
                        let (mut from, mut to, mut at, mut prob, mut tasks) = (None, None, None, None, Vec::new());
                        loop {
                            match self.next().cloned() {
                                Some(STok::Close('}')) => break,
                                Some(STok::Word(k)) if k == "from" => from = Some(self.number()?),
                                Some(STok::Word(k)) if k == "to" => to = Some(self.number()?),
                                Some(STok::Word(k)) if k == "at" => at = Some(self.number()?),
                                Some(STok::Word(k)) if k == "prob" => prob = Some(self.number()?),
                                Some(STok::Word(k)) if k == "tasks" => tasks = self.words()?,
                                _ => {
                                    self.pos -= 1;
                                    return Err(self.error("expected from, to, at, prob, tasks or `}`"));
                                }
                            }
                        }
                        if w == "blocks" {
                            let (Some(from), Some(to)) = (from, to) else {
                                return Err(self.error("a block needs from and to"));
                            };
                            s.blocks.push(Block { from, to, tasks });
                        } else {
                            let Some(at) = at else { return Err(self.error("a one-shot needs at")) };
                            s.oneshots.push(OneShot { at, prob: prob.unwrap_or(1.0), tasks });
                        }
                    }
                    self.expect(&STok::Close(']'), "`]`")?;
                }
                _ => {
                    self.pos -= 1;
                    return Err(self.error("expected name, blocks or oneshots"));
                }
            }
        }
        Ok(s)
    }
}
