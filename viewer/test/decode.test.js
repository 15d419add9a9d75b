// The decoder under Node: varints, numbers put back into event bodies, and a whole small run
// written here by a writer that follows src/view/encode.rs, decoded and asked questions.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const D = require('../decode.js');

/** The writer's side of the format, as src/view/bytes.rs and encode.rs write it. */
class Writer {
  constructor() {
    this.bytes = [];
  }
  uint(v) {
    while (v >= 128) {
      this.bytes.push((v % 128) | 128);
      v = Math.floor(v / 128);
    }
    this.bytes.push(v);
  }
  int(v) {
    this.uint(v < 0 ? -2 * v - 1 : 2 * v);
  }
  done() {
    return Uint8Array.from(this.bytes);
  }
}

test('varints are LEB128, signed ones zigzag', () => {
  const r = new D.Reader(Uint8Array.from([0, 127, 0x80, 1, 0xac, 2, 0, 1, 2, 127, 0x80, 1]));
  assert.deepEqual([r.uint(), r.uint(), r.uint(), r.uint()], [0, 127, 128, 300]);
  assert.deepEqual([r.int(), r.int(), r.int(), r.int(), r.int()], [0, -1, 1, -64, 64]);
  assert.equal(r.at, 12);
});

test('large varints keep every bit up to 2^53', () => {
  const w = new Writer();
  w.uint(2 ** 53 - 1);
  w.int(-(2 ** 40) - 3);
  const r = new D.Reader(w.done());
  assert.equal(r.uint(), 2 ** 53 - 1);
  assert.equal(r.int(), -(2 ** 40) - 3);
});

test('a stream that ends early is an error, not a wrong number', () => {
  const r = new D.Reader(Uint8Array.from([0x80, 0x80]));
  assert.throws(() => r.uint(), /ends early/);
});

test('numbers come back as the text they were', () => {
  assert.equal(D.numberText(12485, 3), '12.485');
  assert.equal(D.numberText(-12485, 3), '-12.485');
  assert.equal(D.numberText(5, 2), '0.05');
  assert.equal(D.numberText(-5, 2), '-0.05');
  assert.equal(D.numberText(0, 0), '0');
  assert.equal(D.numberText(-10, 0), '-10');
  assert.equal(D.numberText(1000000, 1), '100000.0');
});

test('base64 decodes under Node as in a browser', () => {
  assert.deepEqual(Array.from(D.base64Bytes('AQID')), [1, 2, 3]);
});

/** A run of 2 characters over 10 ticks on a 4×3 map, with events, a route, states and a layer. */
function smallRun() {
  const w = new Writer();
  const cells = 12;
  const cost = [0, 0, 0, 0, 0, 100, 150, 0, 0, 0, 0, 0];
  cost.forEach((c) => w.uint(c));
  // Positions, 32 units a cell. a: (1.5, 1.5) at tick 0 walking to (2.5, 1.5) at tick 4, still to 9.
  const keys = [
    [[0, 48, 48], [4, 80, 48], [9, 80, 48]],
    [[2, 32, 16]],
  ];
  w.uint(4);
  for (const k of keys) w.uint(k.length);
  for (const field of [0, 1, 2]) {
    for (const k of keys) {
      let last = 0;
      for (const key of k) {
        if (field === 0) w.uint(key[0] - last);
        else w.int(key[field] - last);
        last = key[field];
      }
    }
  }
  // Events: (tick, entity+1, kind, body, numbers).
  const events = [
    [0, 1, 0, 0, []],
    [3, 1, 1, 1, [[12485, 3], [-2, 0]]],
    [3, 0, 2, 2, []],
    [7, 2, 0, 3, []],
  ];
  w.uint(events.length);
  let last = 0;
  for (const e of events) { w.uint(e[0] - last); last = e[0]; }
  for (const e of events) w.uint(e[1]);
  for (const e of events) w.uint(e[2]);
  for (const e of events) w.uint(e[3]);
  for (const e of events) for (const [d, k] of e[4]) w.uint((d < 0 ? -2 * d - 1 : 2 * d) * 8 + k);
  // Routes: a's at tick 1 (two corners), then none at tick 4.
  const routes = [[1, 0, [[1.5, 1.5], [2.5, 1.5]]], [4, 0, []]];
  w.uint(routes.length);
  last = 0;
  for (const r of routes) { w.uint(r[0] - last); last = r[0]; }
  for (const r of routes) w.uint(r[1]);
  for (const r of routes) w.uint(r[2].length);
  for (const axis of [0, 1]) {
    for (const r of routes) {
      let prev = 0;
      for (const p of r[2]) { const v = Math.round(p[axis] * 8); w.int(v - prev); prev = v; }
    }
  }
  // States: a at tick 0 ({}, {}) and tick 5 (alert, target).
  const states = [[0, 0, 0, 0], [5, 0, 1, 2]];
  w.uint(states.length);
  last = 0;
  for (const s of states) { w.uint(s[0] - last); last = s[0]; }
  for (const s of states) w.uint(s[1]);
  for (const s of states) w.uint(s[2]);
  for (const s of states) w.uint(s[3]);
  // One layer recorded at ticks 0 and 5 over [0, 2]: codes 0 and 65534 at cells 5 and 6, then
  // cell 6 drops to the middle (32767) and cell 7 has no value.
  const layerTicks = [[0, 0, 0, 0, 0, 0, 65534, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 32767, 65535, 0, 0, 0, 0]];
  let prev = new Array(cells).fill(0);
  for (const codes of layerTicks) {
    const deltas = codes.map((c, i) => c - prev[i]);
    let i = 0;
    while (i < cells) {
      let zeros = 0;
      while (i + zeros < cells && deltas[i + zeros] === 0) zeros++;
      i += zeros;
      let lits = 0;
      while (i + lits < cells && deltas[i + lits] !== 0) lits++;
      w.uint(zeros);
      w.uint(lits);
      for (let k = 0; k < lits; k++) w.int(deltas[i + k]);
      i += lits;
    }
    prev = codes;
  }
  const meta = {
    format: 1, name: 'small', file: 'small.toml', seed: 3, rate: 10, ticks: 10, startTick: 0, units: 32, routeUnits: 8,
    map: { width: 4, height: 3, tiles: '#####..#####' },
    doors: [{ name: 'gate', cells: [[1, 1]], open: false }], regions: [], places: [], hidespots: [],
    entities: { names: ['a', 'b'], kinds: ['guard', 'cat'], teams: ['blue', ''], squads: ['', ''] },
    kinds: ['say', 'path', 'door'],
    bodies: ['{"text":"halt"}', '{"cost":\u0001,"to":[\u0001,0]}', '{"name":"gate","open":true}', '{"text":"miaow"}'],
    states: ['{}', '{"alert":true}', '{"target":"b"}'],
    layers: [{ name: 'danger', low: 0, high: 2, ticks: [0, 5] }],
    queries: [], queriesDropped: 0, markers: [], missing: [],
  };
  return D.decode(meta, w.done());
}

test('a whole run decodes and answers where, what and when', () => {
  const run = smallRun();
  assert.equal(run.entityCount, 2);
  assert.deepEqual(Array.from(run.map.cost.slice(4, 8)), [0, 1, 1.5, 0]);
  // Between keys, positions are on the line; outside its keys, a character is not there.
  assert.deepEqual(run.positionAt(0, 0), [1.5, 1.5]);
  assert.deepEqual(run.positionAt(0, 2), [2, 1.5]);
  assert.deepEqual(run.positionAt(0, 1.5), [1.875, 1.5]);
  assert.deepEqual(run.positionAt(0, 9), [2.5, 1.5]);
  assert.equal(run.positionAt(0, 9.5), null);
  assert.equal(run.positionAt(1, 1), null);
  assert.deepEqual(run.positionAt(1, 2), [1, 0.5]);
  assert.deepEqual(run.headingAt(0, 1), [1, 0]);
  // Events: bodies with their numbers put back, by tick and by entity.
  const path = run.event(1);
  assert.deepEqual(path, { index: 1, tick: 3, entity: 0, kind: 'path', fields: { cost: 12.485, to: [-2, 0] } });
  assert.equal(run.eventText(1), '{"cost":12.485,"to":[-2,0]}');
  assert.deepEqual(run.eventRange(3, 3), [1, 3]);
  assert.deepEqual(run.eventRange(4, 6), [3, 3]);
  assert.deepEqual(Array.from(run.eventsOf[1]), [3]);
  assert.equal(run.event(2).entity, -1);
  // Doors open at the tick of their event.
  assert.deepEqual(run.doorsAt(2), { gate: false });
  assert.deepEqual(run.doorsAt(3), { gate: true });
  // Routes: the latest at or before the tick; an empty one means none.
  assert.equal(run.routeAt(0, 0), null);
  const route = run.routeAt(0, 2);
  assert.deepEqual([Array.from(route.xs), Array.from(route.ys)], [[1.5, 2.5], [1.5, 1.5]]);
  assert.equal(run.routeAt(0, 4), null);
  // States: attributes and blackboard as they stood.
  assert.deepEqual(run.stateAt(0, 4), { attributes: {}, blackboard: {}, since: 0 });
  assert.deepEqual(run.stateAt(0, 6), { attributes: { alert: true }, blackboard: { target: 'b' }, since: 5 });
  // Layers: the snapshot at or before the tick; 65535 is no value.
  const first = run.layerAt(0, 3);
  assert.equal(first.tick, 0);
  assert.equal(first.values[5], 0);
  assert.equal(first.values[6], 2);
  const second = run.layerAt(0, 9);
  assert.equal(second.tick, 5);
  assert.ok(Math.abs(second.values[6] - 1) < 1e-4);
  assert.ok(Number.isNaN(second.values[7]));
});

test('another format, or bytes left over, is refused', () => {
  assert.throws(() => D.decode({ format: 2 }, new Uint8Array()), /format 1, not 2/);
  const meta = {
    format: 1, ticks: 1, units: 32, routeUnits: 8, map: { width: 1, height: 1, tiles: '.' },
    entities: { names: [], kinds: [], teams: [], squads: [] }, kinds: [], bodies: [], states: [], layers: [],
    queries: [], markers: [], doors: [], missing: [],
  };
  // One cell's cost, no keypoints, events, routes or states: whole.
  assert.equal(D.decode(meta, Uint8Array.from([100, 0, 0, 0, 0])).entityCount, 0);
  assert.throws(() => D.decode(meta, Uint8Array.from([100, 0, 0, 0, 0, 7])), /1 bytes left over/);
  assert.throws(() => D.decode(meta, Uint8Array.from([100, 0, 0, 0])), /ends early/);
});

test('a compressed run is inflated by the platform, as the page does it', async () => {
  const zlib = require('node:zlib');
  const meta = {
    format: 1, compression: 'zlib', ticks: 1, units: 32, routeUnits: 8, map: { width: 1, height: 1, tiles: '.' },
    entities: { names: [], kinds: [], teams: [], squads: [] }, kinds: [], bodies: [], states: [], layers: [],
    queries: [], markers: [], doors: [], missing: [],
  };
  const packed = zlib.deflateSync(Buffer.from([250, 1, 0, 0, 0, 0])).toString('base64');
  const run = await D.fromText(meta, packed);
  assert.equal(run.map.cost[0], 2.5);
  await assert.rejects(D.fromText({ ...meta, compression: 'xz' }, packed), /compressed with xz/);
});
