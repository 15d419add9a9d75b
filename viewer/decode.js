// The Tactica viewer's decoder: the recorded run (a JSON header and a binary stream of columns,
// written by src/view/encode.rs) into typed arrays and look-ups the viewer draws from. No DOM here:
// Node's test runner loads this file as it is (viewer/test/decode.test.js).
'use strict';

const TacticaDecode = (() => {
  const FORMAT = 1;

  /** Reads LEB128 varints (zigzag for signed ones) from a byte array. */
  class Reader {
    constructor(bytes) {
      this.bytes = bytes;
      this.at = 0;
    }
    uint() {
      // Multiplication, not shifts: shifts are 32-bit in JavaScript, varints go to 2^53.
      let value = 0;
      let scale = 1;
      for (;;) {
        if (this.at >= this.bytes.length) throw new Error(`the recorded run ends early (byte ${this.at})`);
        const b = this.bytes[this.at++];
        value += (b & 0x7f) * scale;
        if (b < 0x80) return value;
        scale *= 128;
      }
    }
    int() {
      const u = this.uint();
      return u % 2 === 1 ? -(u + 1) / 2 : u / 2;
    }
    /** `n` unsigned varints into `into` (from `offset`); with `running`, each is added to the one
     *  before (the first to 0). The hot loop of the decoder: bytes and position in locals. */
    uints(n, into, running = false, offset = 0) {
      const b = this.bytes;
      let at = this.at;
      let v = 0;
      for (let i = 0; i < n; i++) {
        let x = b[at++];
        if (x >= 0x80) {
          x &= 0x7f;
          let scale = 128;
          for (;;) {
            const c = b[at++];
            if (c === undefined) break;
            x += (c & 0x7f) * scale;
            if (c < 0x80) break;
            scale *= 128;
          }
        }
        v = running ? v + x : x;
        into[offset + i] = v;
      }
      if (at > b.length) throw new Error(`the recorded run ends early (byte ${b.length})`);
      this.at = at;
      return into;
    }
    /** `n` zigzag varints into `into` (from `offset`), each added to the one before, divided by
     *  `scale`. */
    ints(n, into, scale, offset = 0) {
      const b = this.bytes;
      let at = this.at;
      let v = 0;
      for (let i = 0; i < n; i++) {
        let x = b[at++];
        if (x >= 0x80) {
          x &= 0x7f;
          let m = 128;
          for (;;) {
            const c = b[at++];
            if (c === undefined) break;
            x += (c & 0x7f) * m;
            if (c < 0x80) break;
            m *= 128;
          }
        }
        v += x % 2 === 1 ? -(x + 1) / 2 : x / 2;
        into[offset + i] = v / scale;
      }
      if (at > b.length) throw new Error(`the recorded run ends early (byte ${b.length})`);
      this.at = at;
      return into;
    }
    /** `n` unsigned varints, each added to the one before (the first to 0). */
    deltas(n, into) {
      let v = 0;
      for (let i = 0; i < n; i++) {
        v += this.uint();
        into[i] = v;
      }
      return into;
    }
    /** `n` signed varints, each added to the one before. */
    signedDeltas(n, into, scale) {
      let v = 0;
      for (let i = 0; i < n; i++) {
        v += this.int();
        into[i] = v / scale;
      }
      return into;
    }
    column(n, into) {
      for (let i = 0; i < n; i++) into[i] = this.uint();
      return into;
    }
  }

  /** Base64 to bytes, in a browser (atob) or in Node (Buffer). */
  function base64Bytes(text) {
    if (typeof Buffer !== 'undefined') return new Uint8Array(Buffer.from(text, 'base64'));
    const s = atob(text.trim());
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  }

  /** First index in `sorted[lo..hi)` whose value is above `v`. */
  function upperBound(sorted, v, lo, hi) {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] <= v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** For items sorted by tick: where each tick's items start (length ticks + 1). */
  function tickIndex(ticks, count, nTicks) {
    const start = new Int32Array(nTicks + 2);
    let k = 0;
    for (let t = 0; t <= nTicks + 1; t++) {
      while (k < count && ticks[k] < t) k++;
      start[t] = k;
    }
    return start;
  }

  /** Per entity, its items' indices in tick order (items are sorted by tick already). */
  function byEntity(entity, count, nEntities) {
    const lists = Array.from({ length: nEntities }, () => []);
    for (let i = 0; i < count; i++) {
      const e = entity[i];
      if (e >= 0 && e < nEntities) lists[e].push(i);
    }
    return lists.map((l) => Int32Array.from(l));
  }

  function decodePositions(r, n, units) {
    const total = r.uint();
    const start = new Int32Array(n + 1);
    for (let e = 0; e < n; e++) start[e + 1] = start[e] + r.uint();
    if (start[n] !== total) throw new Error(`keypoints: ${start[n]} counted, ${total} said`);
    const keyTick = new Int32Array(total);
    const keyX = new Float32Array(total);
    const keyY = new Float32Array(total);
    // Each character's first value is absolute, the rest differences: restart at its start.
    for (let e = 0; e < n; e++) r.uints(start[e + 1] - start[e], keyTick, true, start[e]);
    for (const into of [keyX, keyY]) {
      for (let e = 0; e < n; e++) r.ints(start[e + 1] - start[e], into, units, start[e]);
    }
    return { start, keyTick, keyX, keyY };
  }

  /** Where a number was taken out of an event's body (src/view/encode.rs, `template`). */
  const HOLE = '\u0001';

  /** A number as its text: digits and how many of them are decimals (-12485, 3 → "-12.485"). */
  function numberText(digits, decimals) {
    if (decimals === 0) return String(digits);
    const s = String(Math.abs(digits)).padStart(decimals + 1, '0');
    return `${digits < 0 ? '-' : ''}${s.slice(0, s.length - decimals)}.${s.slice(s.length - decimals)}`;
  }

  function decodeEvents(r, meta) {
    const n = r.uint();
    const tick = r.uints(n, new Int32Array(n), true);
    const entity = r.uints(n, new Int32Array(n));
    for (let i = 0; i < n; i++) entity[i] -= 1;
    const kind = r.uints(n, new Int32Array(n));
    const body = r.uints(n, new Int32Array(n));
    const parts = meta.bodies.map((t) => t.split(HOLE));
    const numberStart = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) numberStart[i + 1] = numberStart[i] + parts[body[i]].length - 1;
    // Kept as read (zigzag digits × 8 + decimals): turned into text only for the events shown.
    const numbers = r.uints(numberStart[n], new Float64Array(numberStart[n]));
    return { count: n, tick, entity, kind, body, parts, numberStart, numbers, kinds: meta.kinds };
  }

  function decodeRoutes(r, units) {
    const n = r.uint();
    const tick = r.uints(n, new Int32Array(n), true);
    const entity = r.uints(n, new Int32Array(n));
    const size = r.uints(n, new Int32Array(n));
    const start = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) start[i + 1] = start[i] + size[i];
    const xs = new Float32Array(start[n]);
    const ys = new Float32Array(start[n]);
    for (const into of [xs, ys]) {
      for (let i = 0; i < n; i++) r.ints(start[i + 1] - start[i], into, units, start[i]);
    }
    return { count: n, tick, entity, start, xs, ys };
  }

  function decodeStates(r) {
    const n = r.uint();
    const tick = r.uints(n, new Int32Array(n), true);
    const entity = r.uints(n, new Int32Array(n));
    const attributes = r.uints(n, new Int32Array(n));
    const blackboard = r.uints(n, new Int32Array(n));
    return { count: n, tick, entity, attributes, blackboard };
  }

  const NO_VALUE = 65535;
  const CODES = 65534;

  function decodeLayers(r, meta, cells) {
    return meta.layers.map((layer) => {
      const codes = new Uint16Array(cells);
      const snapshots = layer.ticks.map(() => {
        let i = 0;
        while (i < cells) {
          i += r.uint();
          const literals = r.uint();
          if (i + literals > cells) throw new Error(`layer ${layer.name}: more values than cells`);
          for (let k = 0; k < literals; k++, i++) codes[i] += r.int();
        }
        return codes.slice();
      });
      return { name: layer.name, low: layer.low, high: layer.high, ticks: layer.ticks, snapshots };
    });
  }

  /** A layer snapshot's codes as values (NaN where there is none). */
  function layerValues(layer, codes) {
    const values = new Float32Array(codes.length);
    const span = layer.high - layer.low;
    for (let c = 0; c < codes.length; c++) {
      const code = codes[c];
      values[c] = code === NO_VALUE ? NaN : layer.low + (span > 0 ? (code / CODES) * span : 0);
    }
    return values;
  }

  /** The whole run: the header's fields, the decoded columns and the look-ups over them. */
  function decode(meta, bytes) {
    if (meta.format !== FORMAT) {
      throw new Error(`this viewer reads recorded runs of format ${FORMAT}, not ${meta.format}`);
    }
    const r = new Reader(bytes);
    const cells = meta.map.width * meta.map.height;
    const cost = new Float32Array(cells);
    for (let i = 0; i < cells; i++) cost[i] = r.uint() / 100;
    const n = meta.entities.names.length;
    const positions = decodePositions(r, n, meta.units);
    const events = decodeEvents(r, meta);
    const routes = decodeRoutes(r, meta.routeUnits);
    const states = decodeStates(r);
    // The layers come last and are decoded when first asked for (the viewer asks right after
    // its first frame): a run opens without waiting for them.
    const layers = () => {
      const decoded = decodeLayers(r, meta, cells);
      if (r.at !== bytes.length) throw new Error(`${bytes.length - r.at} bytes left over after the recorded run`);
      return decoded;
    };
    const run = new Run(meta, cost, positions, events, routes, states, layers);
    if (meta.layers.length === 0) run.ensureLayers();
    return run;
  }

  /** A decoded run and the questions the viewer asks of it. */
  class Run {
    constructor(meta, cost, positions, events, routes, states, layers) {
      this.meta = meta;
      this.ticks = meta.ticks;
      this.map = { width: meta.map.width, height: meta.map.height, tiles: meta.map.tiles, cost };
      this.entities = meta.entities;
      this.entityCount = meta.entities.names.length;
      this.positions = positions;
      this.events = events;
      this.eventsAt = tickIndex(events.tick, events.count, this.ticks);
      this.eventsOf = byEntity(events.entity, events.count, this.entityCount);
      this.routes = routes;
      this.routesOf = byEntity(routes.entity, routes.count, this.entityCount);
      this.states = states;
      this.statesOf = byEntity(states.entity, states.count, this.entityCount);
      this.decodeLayers = layers;
      this.decodedLayers = null;
      this.queries = meta.queries;
      this.teams = [...new Set(meta.entities.teams)];
      this.byName = new Map(meta.entities.names.map((name, i) => [name, i]));
      this.kindIndex = new Map(events.kinds.map((k, i) => [k, i]));
      this.bodyCache = new Map();
      this.layerCache = { key: null, values: null };
      this.doorEvents = this.eventsOfKind('door');
      this.cellEvents = this.eventsOfKind('cell');
    }

    /** The tactical layers, decoded on first use. */
    get layers() {
      return this.ensureLayers();
    }

    /** Decodes the layers if not yet done (and checks the stream ends with them). */
    ensureLayers() {
      if (this.decodedLayers === null) this.decodedLayers = this.decodeLayers();
      return this.decodedLayers;
    }

    /** Indices of every event of one kind, in order. */
    eventsOfKind(name) {
      const kind = this.kindIndex.get(name);
      const out = [];
      if (kind === undefined) return out;
      for (let i = 0; i < this.events.count; i++) if (this.events.kind[i] === kind) out.push(i);
      return out;
    }

    /** Where entity `e` is at tick `t` (fractional ticks interpolate): [x, y] in cells, or null
     *  when it is not in the world then. */
    positionAt(e, t) {
      const p = this.positions;
      const lo = p.start[e];
      const hi = p.start[e + 1];
      if (hi === lo || t < p.keyTick[lo] || t > p.keyTick[hi - 1]) return null;
      const k = upperBound(p.keyTick, t, lo, hi) - 1;
      if (k + 1 >= hi) return [p.keyX[k], p.keyY[k]];
      const f = (t - p.keyTick[k]) / (p.keyTick[k + 1] - p.keyTick[k]);
      return [p.keyX[k] + (p.keyX[k + 1] - p.keyX[k]) * f, p.keyY[k] + (p.keyY[k + 1] - p.keyY[k]) * f];
    }

    /** The direction entity `e` moves in at tick `t` ([dx, dy], zero when it stands still). */
    headingAt(e, t) {
      const p = this.positions;
      const lo = p.start[e];
      const hi = p.start[e + 1];
      if (hi - lo < 2) return [0, 0];
      let k = Math.min(Math.max(upperBound(p.keyTick, t, lo, hi) - 1, lo), hi - 2);
      return [p.keyX[k + 1] - p.keyX[k], p.keyY[k + 1] - p.keyY[k]];
    }

    /** Event `i`'s other fields as JSON text, its numbers put back. */
    eventText(i) {
      const ev = this.events;
      const parts = ev.parts[ev.body[i]];
      let text = parts[0];
      for (let k = 1; k < parts.length; k++) {
        const v = ev.numbers[ev.numberStart[i] + k - 1];
        const z = Math.floor(v / 8);
        text += numberText(z % 2 === 1 ? -(z + 1) / 2 : z / 2, v % 8) + parts[k];
      }
      return text;
    }

    /** Event `i` as an object: tick, entity index (-1 none), kind and its own fields. */
    event(i) {
      const ev = this.events;
      let fields = this.bodyCache.get(i);
      if (fields === undefined) {
        fields = JSON.parse(this.eventText(i));
        if (this.bodyCache.size > 50000) this.bodyCache.clear();
        this.bodyCache.set(i, fields);
      }
      return { index: i, tick: ev.tick[i], entity: ev.entity[i], kind: ev.kinds[ev.kind[i]], fields };
    }

    /** Indices of the events of ticks `from..=to`. */
    eventRange(from, to) {
      const a = this.eventsAt[Math.max(0, Math.min(from, this.ticks + 1))];
      const b = this.eventsAt[Math.max(0, Math.min(to + 1, this.ticks + 1))];
      return [a, b];
    }

    /** Entity `e`'s route at tick `t`: {tick, xs, ys} or null. */
    routeAt(e, t) {
      const list = this.routesOf[e];
      const ticks = this.routes.tick;
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (ticks[list[mid]] <= t) lo = mid + 1;
        else hi = mid;
      }
      if (lo === 0) return null;
      const i = list[lo - 1];
      const r = this.routes;
      if (r.start[i + 1] === r.start[i]) return null;
      return { tick: r.tick[i], xs: r.xs.subarray(r.start[i], r.start[i + 1]), ys: r.ys.subarray(r.start[i], r.start[i + 1]) };
    }

    /** Entity `e`'s attributes and blackboard at tick `t` (the last change at or before it). */
    stateAt(e, t) {
      const list = this.statesOf[e];
      let found = -1;
      for (let k = 0; k < list.length && this.states.tick[list[k]] <= t; k++) found = list[k];
      if (found < 0) return { attributes: {}, blackboard: {}, since: null };
      const table = this.meta.states;
      return {
        attributes: JSON.parse(table[this.states.attributes[found]]),
        blackboard: JSON.parse(table[this.states.blackboard[found]]),
        since: this.states.tick[found],
      };
    }

    /** Entity `e`'s state machines at tick `t`: machine name → state, from its `state` events. */
    machinesAt(e, t) {
      const machines = {};
      const kind = this.kindIndex.get('state');
      if (kind === undefined) return machines;
      for (const i of this.eventsOf[e]) {
        if (this.events.tick[i] > t) break;
        if (this.events.kind[i] !== kind) continue;
        const f = this.event(i).fields;
        machines[f.machine] = f.to;
      }
      return machines;
    }

    /** Which doors are open at tick `t`: name → bool (the start, then `door` events). */
    doorsAt(t) {
      const open = {};
      for (const d of this.meta.doors) open[d.name] = d.open;
      for (const i of this.doorEvents) {
        if (this.events.tick[i] > t) break;
        const f = this.event(i).fields;
        open[f.name] = f.open;
      }
      return open;
    }

    /** Cells scripts blocked or opened up to tick `t`: "x,y" → blocked. */
    cellsAt(t) {
      const cells = new Map();
      for (const i of this.cellEvents) {
        if (this.events.tick[i] > t) break;
        const f = this.event(i).fields;
        cells.set(`${f.cell[0]},${f.cell[1]}`, f.blocked);
      }
      return cells;
    }

    /** Layer `l`'s values as recorded at the last recorded tick at or before `t` (or the first). */
    layerAt(l, t) {
      const layer = this.layers[l];
      if (!layer || layer.ticks.length === 0) return null;
      const k = Math.max(0, upperBound(layer.ticks, t, 0, layer.ticks.length) - 1);
      const key = `${l}@${k}`;
      if (this.layerCache.key !== key) this.layerCache = { key, values: layerValues(layer, layer.snapshots[k]) };
      return { tick: layer.ticks[k], values: this.layerCache.values };
    }
  }

  /** Inflates zlib-compressed bytes with the platform's own DecompressionStream (browsers, Node). */
  async function inflate(bytes) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  /** The run from a header and the data element's text (base64, compressed as the header says). */
  async function fromText(meta, base64) {
    const bytes = base64Bytes(base64);
    if (meta.compression === 'zlib') return decode(meta, await inflate(bytes));
    if (meta.compression) throw new Error(`the recorded run is compressed with ${meta.compression}, which this viewer does not read`);
    return decode(meta, bytes);
  }

  /** Reads the run embedded in a page: the header element's JSON and the data element's base64. */
  function fromPage(doc) {
    const meta = JSON.parse(doc.getElementById('tactica-meta').textContent);
    return fromText(meta, doc.getElementById('tactica-data').textContent);
  }

  return { Reader, base64Bytes, decode, inflate, fromText, fromPage, upperBound, numberText, FORMAT };
})();

if (typeof module !== 'undefined') module.exports = TacticaDecode;
