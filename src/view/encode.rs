//! A [`Recording`] as the viewer reads it: a small JSON header (names, string tables, the map's
//! tiles, the query records) and one binary stream of columns for everything that grows with
//! ticks and characters. `viewer/decode.js` is its reader; `docs/viewer.md` describes the format.
//!
//! The binary stream is zlib-compressed (the browser inflates it with its own
//! `DecompressionStream`); inside, in order (all numbers varints, signed ones zigzag — see
//! [`Bytes`]):
//!
//! 1. **map costs**: one per cell, the cost of entry × 100 (0 blocked).
//! 2. **positions**: the number of keypoints of all characters, each character's count, then
//!    three columns over all of them — ticks, x and y in 1/32 cells — each character's first
//!    absolute and the rest differences from the one before.
//! 3. **events**: the count, then columns: tick differences, entity (0 none, else index + 1),
//!    kind (index in `kinds`), body (index in `bodies`), then the numbers of every body. A body
//!    is the event's other fields as JSON with every number taken out ([`template`]): `{"cell":
//!    [\u1,\u1]}` is stored once however many cells it is said of, and each number is one
//!    varint (zigzag of its digits × 8 + how many of them are decimals).
//! 4. **routes**: the count, then columns: tick differences, entity, corner count; then every
//!    route's x in 1/8 cells (the first corner absolute, then differences), then every y.
//! 5. **states**: the count, then columns: tick differences, entity, attributes and blackboard
//!    (indices in `states`).
//! 6. **layers**: per layer, per recorded tick, its cells as 16-bit codes over the layer's range
//!    (65535: no value), each the difference from the same cell at the previous recorded tick,
//!    run-length coded: a run of zeros, a count of literals, the literals, and again.
//!
//! Equal bodies and states are stored once (the tables), so ten thousand `say`s of three taunts
//! cost three strings and ten thousand small numbers.

use std::collections::HashMap;

use serde_json::{Value as Json, json};

use super::Marker;
use super::bytes::Bytes;
use super::record::{Recording, query_json};

/// Format version: the decoder refuses others.
pub const FORMAT: u32 = 1;

/// Route corners are stored in 1/8 cells (corners sit on cell centres and exact targets).
pub const ROUTE_UNITS: f32 = 8.0;

/// The largest code of a layer value; [`NO_VALUE`] marks a cell without one.
const LAYER_CODES: f64 = 65534.0;
const NO_VALUE: i64 = 65535;

/// The encoded run: the JSON header and the binary stream.
pub struct Encoded {
    /// The header.
    pub meta: Json,
    /// The binary stream.
    pub data: Vec<u8>,
}

/// Encodes `rec` with the viewer's markers and the tick it opens at.
pub fn encode(rec: &Recording, markers: &[Marker], start_tick: u64) -> Encoded {
    let mut b = Bytes::default();
    for &c in &rec.map.cost {
        b.uint((f64::from(c) * 100.0).round() as u64);
    }
    positions(&mut b, rec);
    let (kinds, bodies) = events(&mut b, rec);
    routes(&mut b, rec);
    let states = states(&mut b, rec);
    let layers = layers(&mut b, rec);
    let data = miniz_oxide::deflate::compress_to_vec_zlib(&b.into_vec(), 6);
    let tiles: String = rec.map.tiles.iter().map(|&t| char::from(t)).collect();
    let entities = json!({
        "names": rec.entities.iter().map(|e| e.name.as_str()).collect::<Vec<_>>(),
        "kinds": rec.entities.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
        "teams": rec.entities.iter().map(|e| e.team.as_str()).collect::<Vec<_>>(),
        "squads": rec.entities.iter().map(|e| e.squad.as_str()).collect::<Vec<_>>(),
    });
    let meta = json!({
        "format": FORMAT,
        "compression": "zlib",
        "name": rec.name,
        "file": rec.file,
        "seed": rec.seed,
        "rate": rec.rate,
        "ticks": rec.ticks,
        "startTick": start_tick.min(rec.ticks.saturating_sub(1)),
        "units": super::trajectory::UNITS_PER_CELL,
        "routeUnits": ROUTE_UNITS,
        "map": { "width": rec.map.width, "height": rec.map.height, "tiles": tiles },
        "doors": rec.doors.iter().map(|(n, cells, open)| json!({ "name": n, "cells": cells, "open": open })).collect::<Vec<_>>(),
        "regions": rec.regions.iter().map(|(n, lo, hi)| json!({ "name": n, "min": lo, "max": hi })).collect::<Vec<_>>(),
        "places": rec.places.iter().map(|(n, at)| json!({ "name": n, "at": at })).collect::<Vec<_>>(),
        "hidespots": rec.hidespots,
        "entities": entities,
        "kinds": kinds,
        "bodies": bodies,
        "states": states,
        "layers": layers,
        "queries": rec.queries.iter().map(|(t, e, r)| query_json(*t, *e, r)).collect::<Vec<_>>(),
        "queriesDropped": rec.queries_dropped,
        "markers": markers.iter().map(|m| json!({
            "tick": m.tick, "label": m.label, "kind": m.kind.word(), "entity": m.entity,
        })).collect::<Vec<_>>(),
        "missing": rec.missing,
    });
    Encoded { meta, data }
}

fn positions(b: &mut Bytes, rec: &Recording) {
    b.len(rec.entities.iter().map(|e| e.keys.len()).sum());
    for e in &rec.entities {
        b.len(e.keys.len());
    }
    for e in &rec.entities {
        let mut last = 0u64;
        for k in &e.keys {
            b.uint(k.tick - last);
            last = k.tick;
        }
    }
    for axis in [|k: &super::trajectory::Key| k.x, |k: &super::trajectory::Key| k.y] {
        for e in &rec.entities {
            let mut last = 0i64;
            for k in &e.keys {
                b.int(i64::from(axis(k)) - last);
                last = i64::from(axis(k));
            }
        }
    }
}

/// A table of distinct strings, in first-seen order.
#[derive(Default)]
struct Strings {
    index: HashMap<String, usize>,
    list: Vec<String>,
}

impl Strings {
    fn id(&mut self, s: &str) -> usize {
        if let Some(&i) = self.index.get(s) {
            return i;
        }
        self.list.push(s.to_owned());
        self.index.insert(s.to_owned(), self.list.len() - 1);
        self.list.len() - 1
    }
}

/// Where a number was taken out of a body.
pub const HOLE: char = '\u{1}';

/// A body with its numbers taken out: the text with [`HOLE`] for each, and each number as its
/// digits and how many of them follow the decimal point (`-12.485` → (-12485, 3)). Numbers that
/// would not come back the same way (`-0`, leading zeros, more than 7 decimals, more than 14
/// digits) stay in the text.
pub fn template(text: &str) -> (String, Vec<(i64, u32)>) {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut numbers = Vec::new();
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        let starts =
            bytes[i].is_ascii_digit() || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit));
        if !starts {
            i += 1;
            continue;
        }
        let mut end = i + usize::from(bytes[i] == b'-');
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        if end + 1 < bytes.len() && bytes[end] == b'.' && bytes[end + 1].is_ascii_digit() {
            end += 1;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
        }
        let token = &text[i..end];
        if let Some(n) = number_of(token) {
            out.push_str(&text[copied..i]);
            out.push(HOLE);
            numbers.push(n);
            copied = end;
        }
        i = end;
    }
    out.push_str(&text[copied..]);
    (out, numbers)
}

/// `token`'s digits and decimals when writing them back gives the same text.
fn number_of(token: &str) -> Option<(i64, u32)> {
    let (negative, unsigned) = token.strip_prefix('-').map_or((false, token), |u| (true, u));
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    if (whole.len() > 1 && whole.starts_with('0')) || fraction.len() > 7 || whole.len() + fraction.len() > 14 {
        return None;
    }
    let digits: i64 = format!("{whole}{fraction}").parse().ok()?;
    if negative && digits == 0 {
        return None;
    }
    Some((if negative { -digits } else { digits }, fraction.len() as u32))
}

fn events(b: &mut Bytes, rec: &Recording) -> (Vec<String>, Vec<String>) {
    let mut kinds = Strings::default();
    let mut bodies = Strings::default();
    let templates: Vec<(String, Vec<(i64, u32)>)> = rec.events.iter().map(|e| template(&e.body)).collect();
    b.len(rec.events.len());
    let mut last = 0;
    for e in &rec.events {
        b.uint(e.tick - last);
        last = e.tick;
    }
    for e in &rec.events {
        b.len(e.entity.map_or(0, |i| i + 1));
    }
    for e in &rec.events {
        b.len(kinds.id(&e.kind));
    }
    for (text, _) in &templates {
        b.len(bodies.id(text));
    }
    for (_, numbers) in &templates {
        for &(digits, decimals) in numbers {
            b.uint((((digits << 1) ^ (digits >> 63)) as u64) * 8 + u64::from(decimals));
        }
    }
    (kinds.list, bodies.list)
}

fn routes(b: &mut Bytes, rec: &Recording) {
    b.len(rec.plans.len());
    let mut last = 0;
    for (t, _, _) in &rec.plans {
        b.uint(t - last);
        last = *t;
    }
    for (_, e, _) in &rec.plans {
        b.len(*e);
    }
    for (_, _, points) in &rec.plans {
        b.len(points.len());
    }
    for axis in 0..2 {
        for (_, _, points) in &rec.plans {
            let mut last = 0i64;
            for p in points {
                let v = (p[axis] * ROUTE_UNITS).round() as i64;
                b.int(v - last);
                last = v;
            }
        }
    }
}

fn states(b: &mut Bytes, rec: &Recording) -> Vec<String> {
    let mut table = Strings::default();
    b.len(rec.states.len());
    let mut last = 0;
    for (t, _, _, _) in &rec.states {
        b.uint(t - last);
        last = *t;
    }
    for (_, e, _, _) in &rec.states {
        b.len(*e);
    }
    for (_, _, attributes, _) in &rec.states {
        b.len(table.id(attributes));
    }
    for (_, _, _, blackboard) in &rec.states {
        b.len(table.id(blackboard));
    }
    table.list
}

fn layers(b: &mut Bytes, rec: &Recording) -> Vec<Json> {
    let mut out = Vec::new();
    for layer in &rec.layers {
        let finite = layer.values.iter().flatten().copied().filter(|v| v.is_finite());
        let (low, high) = finite.fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let (low, high) = if low <= high { (low, high) } else { (0.0, 0.0) };
        let span = f64::from(high) - f64::from(low);
        let code = |v: f32| -> i64 {
            if !v.is_finite() {
                NO_VALUE
            } else if span > 0.0 {
                ((f64::from(v) - f64::from(low)) / span * LAYER_CODES).round() as i64
            } else {
                0
            }
        };
        let mut previous = vec![0i64; rec.map.cost.len()];
        for values in &layer.values {
            let codes: Vec<i64> = values.iter().map(|&v| code(v)).collect();
            let deltas: Vec<i64> = codes.iter().zip(&previous).map(|(c, p)| c - p).collect();
            run_length(b, &deltas);
            previous = codes;
        }
        out.push(json!({ "name": layer.name, "low": low, "high": high, "ticks": layer.ticks }));
    }
    out
}

/// Zeros as runs, the rest as literals: (zero run, literal count, literals) until the end.
fn run_length(b: &mut Bytes, values: &[i64]) {
    let mut i = 0;
    while i < values.len() {
        let zeros = values[i..].iter().take_while(|&&v| v == 0).count();
        i += zeros;
        let literals = values[i..].iter().take_while(|&&v| v != 0).count();
        b.len(zeros);
        b.len(literals);
        for &v in &values[i..i + literals] {
            b.int(v);
        }
        i += literals;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_lose_their_numbers_and_only_those_that_come_back_the_same() {
        let (text, numbers) = template(r#"{"cost":12.485,"from":[3,-10],"to":[0,7]}"#);
        assert_eq!(text, "{\"cost\":\u{1},\"from\":[\u{1},\u{1}],\"to\":[\u{1},\u{1}]}");
        assert_eq!(numbers, vec![(12485, 3), (3, 0), (-10, 0), (0, 0), (7, 0)]);
        let (text, numbers) = template(r#"{"id":"leg12","scope":"squad:watch/watch-squad-3","x":-0,"y":007,"z":1e-7}"#);
        assert_eq!(
            text,
            "{\"id\":\"leg\u{1}\",\"scope\":\"squad:watch/watch-squad\u{1}\",\"x\":-0,\"y\":007,\"z\":\u{1}e\u{1}}"
        );
        assert_eq!(numbers, vec![(12, 0), (-3, 0), (1, 0), (-7, 0)]);
        let (text, numbers) = template("0.123456789 123456789012345");
        assert_eq!((text.as_str(), numbers.len()), ("0.123456789 123456789012345", 0));
    }

    #[test]
    fn runs_of_zeros_cost_two_numbers() {
        let mut b = Bytes::default();
        run_length(&mut b, &[0, 0, 0, 0, 5, -1, 0, 0]);
        assert_eq!(b.into_vec(), vec![4, 2, 10, 1, 2, 0]);
        let mut b = Bytes::default();
        run_length(&mut b, &[0; 1000]);
        assert_eq!(b.into_vec(), vec![0xE8, 0x07, 0]);
    }
}
