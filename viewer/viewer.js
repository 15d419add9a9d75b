// The Tactica replay viewer: draws a recorded run (decoded by decode.js) on a canvas and lists
// what happened in the side panels. Everything is in this one page: no server, no network.
// docs/viewer.md explains every panel; window.tactica is a small API the browser tests read.
'use strict';

(async () => {
  const started = performance.now();
  const $ = (id) => document.getElementById(id);
  let run;
  try {
    run = await TacticaDecode.fromPage(document);
  } catch (e) {
    document.getElementById('stage').textContent = `This page's recorded run cannot be read: ${e.message}`;
    throw e;
  }
  const meta = run.meta;
  const W = run.map.width;
  const H = run.map.height;
  const RATE = meta.rate || 10;

  // ---- colours -------------------------------------------------------------------------------
  const TEAM_COLOURS = ['#4e9cff', '#ff6b5a', '#f2c14e', '#7bd389', '#c48bff', '#4fd1c5', '#ff9f43', '#f78fb3', '#a4b0be', '#e1e1e1'];
  const teamColour = new Map(run.teams.map((t, i) => [t, TEAM_COLOURS[i % TEAM_COLOURS.length]]));
  const FATE = {
    chosen: ['#1e5ae6', 'chosen'],
    passed: ['#2aa04a', 'valid'],
    failed: ['#d22828', 'rejected by a condition'],
    blocked: ['#828282', 'blocked'],
    reserved: ['#828282', 'reserved by another'],
    partial: ['#f09614', 'left half-evaluated (could not beat the winner)'],
  };
  const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16, 32];
  /** Speech bubbles drawn at once (the selected character's always): text is dear to draw. */
  const MAX_BUBBLES = 30;

  // ---- state ---------------------------------------------------------------------------------
  const V = {
    t: 0,
    playing: false,
    speed: 1,
    selected: -1,
    layer: -1,
    mouse: null, // [px, py] over the canvas
    view: { scale: 8, ox: 0, oy: 0 },
    kindsOff: new Set(),
    search: '',
    onlySelected: false,
    show: { names: true, routes: true, queries: true, signals: true, bubbles: true, sounds: true, regions: true, places: true, hidespots: true },
    lastTick: -1,
    drawn: { bubbles: [], queries: [], entities: 0 },
    frames: 0,
    frameMs: 0,
  };

  // ---- the static map, once, one pixel per cell ----------------------------------------------
  const mapCanvas = document.createElement('canvas');
  mapCanvas.width = W;
  mapCanvas.height = H;
  (() => {
    const ctx = mapCanvas.getContext('2d');
    const img = ctx.createImageData(W, H);
    const maxCost = Math.max(1, ...Array.from(run.map.cost).filter((c) => c > 0));
    for (let i = 0; i < W * H; i++) {
      const tile = run.map.tiles[i];
      const cost = run.map.cost[i];
      let c;
      if (cost === 0) c = [58, 62, 68];
      else if (tile === '~') c = [40, 70, 110];
      else if (cost > 1) {
        const k = (cost - 1) / Math.max(1, maxCost - 1);
        c = [150 - 50 * k, 140 - 40 * k, 110 - 40 * k];
      } else c = [196, 190, 174];
      img.data.set([c[0], c[1], c[2], 255], i * 4);
    }
    ctx.putImageData(img, 0, 0);
  })();

  // ---- derived look-ups ----------------------------------------------------------------------
  const kindId = (name) => run.kindIndex.get(name);
  const K = {
    say: kindId('say'),
    sound: kindId('sound'),
    trigger: kindId('trigger'),
    signal: kindId('signal'),
    wait: kindId('wait'),
    release: kindId('release'),
    error: kindId('script_error'),
  };
  // Each wait: who sends the signal it waits for, and when it is released.
  const waits = (() => {
    const out = [];
    if (K.wait === undefined) return out;
    const ev = run.events;
    const sent = new Map(); // scope|id -> [tick, entity] of each signal, in order
    if (K.signal !== undefined) {
      for (let i = 0; i < ev.count; i++) {
        if (ev.kind[i] !== K.signal) continue;
        const f = run.event(i).fields;
        const key = `${f.scope}|${f.id}`;
        if (!sent.has(key)) sent.set(key, []);
        sent.get(key).push([ev.tick[i], ev.entity[i]]);
      }
    }
    for (let i = 0; i < ev.count; i++) {
      if (ev.kind[i] !== K.wait) continue;
      const f = run.event(i).fields;
      const by = (sent.get(`${f.scope}|${f.id}`) || []).find(([t]) => t >= ev.tick[i]);
      out.push({ from: ev.tick[i], until: by ? by[0] : run.ticks, entity: ev.entity[i], sender: by ? by[1] : -1, id: f.id });
    }
    return out;
  })();
  const queriesByTick = new Map();
  run.queries.forEach((q, i) => {
    if (!queriesByTick.has(q.tick)) queriesByTick.set(q.tick, []);
    queriesByTick.get(q.tick).push(i);
  });

  // ---- view transform ------------------------------------------------------------------------
  const canvas = $('map');
  const ctx = canvas.getContext('2d');
  let dpr = window.devicePixelRatio || 1;
  function resize() {
    dpr = window.devicePixelRatio || 1;
    const r = canvas.getBoundingClientRect();
    canvas.width = Math.max(1, Math.round(r.width * dpr));
    canvas.height = Math.max(1, Math.round(r.height * dpr));
  }
  function fit() {
    const r = canvas.getBoundingClientRect();
    const scale = Math.max(0.5, Math.min(r.width / W, r.height / H) * 0.98);
    V.view = { scale, ox: (r.width - W * scale) / 2, oy: (r.height - H * scale) / 2 };
  }
  const toScreen = (x, y) => [V.view.ox + x * V.view.scale, V.view.oy + y * V.view.scale];
  const toCell = (px, py) => [(px - V.view.ox) / V.view.scale, (py - V.view.oy) / V.view.scale];

  // ---- layers as images, made on demand ------------------------------------------------------
  const layerImages = new Map();
  function heat(k) {
    // Dark blue through teal and yellow to red.
    const stops = [[20, 30, 120], [20, 150, 160], [240, 220, 60], [220, 40, 30]];
    const x = Math.max(0, Math.min(1, k)) * (stops.length - 1);
    const i = Math.min(stops.length - 2, Math.floor(x));
    const f = x - i;
    return stops[i].map((a, j) => Math.round(a + (stops[i + 1][j] - a) * f));
  }
  function layerImage(l, t) {
    const at = run.layerAt(l, t);
    if (!at) return null;
    const key = `${l}@${at.tick}`;
    if (layerImages.has(key)) return { canvas: layerImages.get(key), tick: at.tick, values: at.values };
    const layer = run.layers[l];
    const c = document.createElement('canvas');
    c.width = W;
    c.height = H;
    const g = c.getContext('2d');
    const img = g.createImageData(W, H);
    const span = layer.high - layer.low || 1;
    for (let i = 0; i < W * H; i++) {
      const v = at.values[i];
      if (Number.isNaN(v) || run.map.cost[i] === 0) continue;
      const [r, gr, b] = heat((v - layer.low) / span);
      img.data.set([r, gr, b, 170], i * 4);
    }
    g.putImageData(img, 0, 0);
    if (layerImages.size > 64) layerImages.clear();
    layerImages.set(key, c);
    return { canvas: c, tick: at.tick, values: at.values };
  }

  // ---- drawing -------------------------------------------------------------------------------
  function draw() {
    dirty = false;
    const t0 = performance.now();
    const t = V.t;
    const tick = Math.floor(t);
    const { scale } = V.view;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#111417';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(mapCanvas, V.view.ox, V.view.oy, W * scale, H * scale);
    const cw = canvas.width / dpr;
    const ch = canvas.height / dpr;
    const [minX, minY] = toCell(0, 0);
    const [maxX, maxY] = toCell(cw, ch);

    if (V.layer >= 0) {
      const li = layerImage(V.layer, tick);
      if (li) ctx.drawImage(li.canvas, V.view.ox, V.view.oy, W * scale, H * scale);
    }

    // Doors and cells scripts changed.
    const open = run.doorsAt(tick);
    for (const d of meta.doors) {
      ctx.fillStyle = open[d.name] ? 'rgba(120, 220, 120, 0.55)' : 'rgba(150, 90, 40, 0.95)';
      for (const [x, y] of d.cells) ctx.fillRect(V.view.ox + x * scale, V.view.oy + y * scale, scale, scale);
    }
    for (const [key, blocked] of run.cellsAt(tick)) {
      const [x, y] = key.split(',').map(Number);
      ctx.fillStyle = blocked ? 'rgb(58, 62, 68)' : 'rgb(196, 190, 174)';
      ctx.fillRect(V.view.ox + x * scale, V.view.oy + y * scale, scale, scale);
    }

    ctx.font = '11px system-ui, sans-serif';
    if (V.show.regions) {
      ctx.strokeStyle = 'rgba(255, 200, 80, 0.8)';
      ctx.fillStyle = 'rgba(255, 200, 80, 0.9)';
      ctx.lineWidth = 1;
      ctx.setLineDash([4, 3]);
      for (const r of meta.regions) {
        const [x, y] = toScreen(r.min[0], r.min[1]);
        ctx.strokeRect(x, y, (r.max[0] - r.min[0] + 1) * scale, (r.max[1] - r.min[1] + 1) * scale);
        if (scale >= 6) ctx.fillText(r.name, x + 2, y + 11);
      }
      ctx.setLineDash([]);
    }
    if (V.show.hidespots) {
      ctx.strokeStyle = '#2b7a4b';
      ctx.lineWidth = 2;
      for (const [hx, hy] of meta.hidespots) {
        const [x, y] = toScreen(hx + 0.5, hy + 0.5);
        ctx.strokeRect(x - scale * 0.3, y - scale * 0.3, scale * 0.6, scale * 0.6);
      }
    }
    if (V.show.places && scale >= 6) {
      ctx.fillStyle = '#222';
      for (const p of meta.places) {
        const [x, y] = toScreen(p.at[0] + 0.5, p.at[1] + 0.5);
        ctx.beginPath();
        ctx.moveTo(x, y - 4);
        ctx.lineTo(x + 4, y);
        ctx.lineTo(x, y + 4);
        ctx.lineTo(x - 4, y);
        ctx.fill();
        ctx.fillText(p.name, x + 5, y - 3);
      }
    }

    // Routes: the selected character's, or everyone's in a small run.
    if (V.show.routes) {
      const few = run.entityCount <= 60;
      ctx.lineWidth = 2;
      for (let e = 0; e < run.entityCount; e++) {
        if (!(few || e === V.selected)) continue;
        const route = run.routeAt(e, tick);
        const at = run.positionAt(e, t);
        if (!route || !at) continue;
        ctx.strokeStyle = e === V.selected ? '#ffffff' : `${teamColour.get(run.entities.teams[e])}aa`;
        ctx.setLineDash([6, 4]);
        ctx.beginPath();
        const [sx, sy] = toScreen(at[0], at[1]);
        ctx.moveTo(sx, sy);
        // From where it stands, through the corners it has not passed yet.
        let k = nextCorner(route, at);
        for (; k < route.xs.length; k++) {
          const [x, y] = toScreen(route.xs[k], route.ys[k]);
          ctx.lineTo(x, y);
        }
        ctx.stroke();
        ctx.setLineDash([]);
        const last = route.xs.length - 1;
        const [gx, gy] = toScreen(route.xs[last], route.ys[last]);
        ctx.strokeRect(gx - 3, gy - 3, 6, 6);
      }
    }

    // Queries of this tick (and the last few ticks, fading).
    V.drawn.queries = [];
    if (V.show.queries) {
      for (const qi of shownQueries(tick)) {
        const q = run.queries[qi];
        const age = tick - q.tick;
        ctx.globalAlpha = age === 0 ? 1 : 0.45;
        for (const o of q.options) {
          for (const c of o.candidates) {
            const [x, y] = toScreen(c[0], c[1]);
            const chosen = c[2] === 'chosen';
            ctx.strokeStyle = FATE[c[2]][0];
            ctx.fillStyle = FATE[c[2]][0];
            ctx.lineWidth = chosen ? 3 : 1.5;
            ctx.beginPath();
            ctx.arc(x, y, Math.max(2, scale * (chosen ? 0.45 : 0.22)), 0, Math.PI * 2);
            if (chosen) ctx.stroke();
            else ctx.fill();
            if (chosen) V.drawn.queries.push({ query: q.query, entity: run.entities.names[q.entity], tick: q.tick, chosen: [c[0], c[1]], screen: [x, y] });
          }
        }
        ctx.globalAlpha = 1;
      }
    }

    // Signal and wait lines between squad members.
    if (V.show.signals) {
      ctx.lineWidth = 1.5;
      for (const w of waits) {
        if (tick < w.from || tick > w.until || w.sender < 0) continue;
        if (run.entityCount > 300 && w.entity !== V.selected && w.sender !== V.selected) continue;
        const a = run.positionAt(w.entity, t);
        const b = run.positionAt(w.sender, t);
        if (!a || !b) continue;
        const released = tick === w.until;
        ctx.strokeStyle = released ? 'rgba(120, 255, 140, 0.95)' : 'rgba(255, 220, 90, 0.8)';
        ctx.setLineDash(released ? [] : [3, 3]);
        ctx.beginPath();
        ctx.moveTo(...toScreen(a[0], a[1]));
        ctx.lineTo(...toScreen(b[0], b[1]));
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }

    // What was said, heard and set off in the last two seconds: sounds and triggers under the
    // characters, speech bubbles over them.
    V.drawn.bubbles = [];
    const said = [];
    const worldEffects = [];
    const [from, to] = run.eventRange(Math.max(0, tick - 2 * RATE), tick);
    for (let i = from; i < to; i++) {
      const k = run.events.kind[i];
      if (k !== K.say && k !== K.sound && k !== K.trigger) continue;
      const e = run.events.entity[i];
      if (e < 0) {
        // A trap or sound of the world, not of a character: listed in the map's corner.
        if (k !== K.say && V.show.sounds) worldEffects.push(`${k === K.trigger ? '⚡' : '♪'} ${run.event(i).fields.name} (tick ${run.events.tick[i]})`);
        continue;
      }
      const p = run.positionAt(e, t);
      if (!p || p[0] < minX || p[0] > maxX || p[1] < minY || p[1] > maxY) continue;
      if (k === K.say) {
        said.push([i, e, p]);
        continue;
      }
      const age = t - run.events.tick[i];
      const [x, y] = toScreen(p[0], p[1]);
      const f = run.event(i).fields;
      const rr = Math.max(1.5, scale * 0.38);
      if (V.show.sounds && k === K.sound) {
        ctx.strokeStyle = `rgba(140, 200, 255, ${1 - age / (2 * RATE)})`;
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(x, y, rr + (age + 1) * scale * 0.6, 0, Math.PI * 2);
        ctx.stroke();
        ctx.fillStyle = '#8cc8ff';
        ctx.fillText(`♪ ${f.name}`, x + rr + 2, y + rr + 12);
      } else if (V.show.sounds && k === K.trigger) {
        ctx.fillStyle = `rgba(255, 80, 60, ${1 - age / (2 * RATE)})`;
        star(x, y, rr + 6);
        ctx.fillText(`⚡ ${f.name}`, x + rr + 2, y + rr + 12);
      }
    }

    // Characters, batched by team colour; off-screen ones skipped. Past a few hundred in view
    // they are stamped into a pixel buffer: rasterising ten thousand vector discs costs the
    // browser more than the whole rest of the frame.
    let drawnEntities = 0;
    const r = Math.max(1.5, scale * 0.38);
    const byColour = new Map();
    for (let e = 0; e < run.entityCount; e++) {
      const p = run.positionAt(e, t);
      if (!p || p[0] < minX - 1 || p[0] > maxX + 1 || p[1] < minY - 1 || p[1] > maxY + 1) continue;
      const colour = teamColour.get(run.entities.teams[e]);
      let list = byColour.get(colour);
      if (!list) byColour.set(colour, (list = []));
      list.push(e, p[0], p[1]);
      drawnEntities++;
    }
    if (drawnEntities > PIXEL_DOTS_FROM) stampDots(byColour, r);
    else {
      for (const [colour, list] of byColour) {
        ctx.fillStyle = colour;
        ctx.beginPath();
        for (let k = 0; k < list.length; k += 3) {
          const x = V.view.ox + list[k + 1] * scale;
          const y = V.view.oy + list[k + 2] * scale;
          ctx.moveTo(x + r, y);
          ctx.arc(x, y, r, 0, Math.PI * 2);
        }
        ctx.fill();
      }
    }
    if (scale >= 10 && run.entityCount <= 2000) {
      ctx.strokeStyle = '#111';
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      for (const list of byColour.values()) {
        for (let k = 0; k < list.length; k += 3) {
          const [dx, dy] = run.headingAt(list[k], t);
          const len = Math.hypot(dx, dy);
          if (len === 0) continue;
          const x = V.view.ox + list[k + 1] * scale;
          const y = V.view.oy + list[k + 2] * scale;
          ctx.moveTo(x, y);
          ctx.lineTo(x + (dx / len) * r, y + (dy / len) * r);
        }
      }
      ctx.stroke();
    }
    V.drawn.entities = drawnEntities;
    if (V.show.names && scale >= 10 && drawnEntities <= 300) {
      ctx.fillStyle = '#111';
      for (const list of byColour.values()) {
        for (let k = 0; k < list.length; k += 3) {
          if (list[k] === V.selected) continue;
          const [x, y] = toScreen(list[k + 1], list[k + 2]);
          ctx.fillText(run.entities.names[list[k]], x + r + 2, y + 4);
        }
      }
    }
    if (V.selected >= 0) {
      const p = run.positionAt(V.selected, t);
      if (p) {
        const [x, y] = toScreen(p[0], p[1]);
        ctx.strokeStyle = '#fff';
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.arc(x, y, r + 4, 0, Math.PI * 2);
        ctx.stroke();
        ctx.fillStyle = '#fff';
        ctx.fillText(run.entities.names[V.selected], x + r + 6, y - r - 2);
      }
    }

    if (worldEffects.length) {
      ctx.font = '13px system-ui, sans-serif';
      worldEffects.slice(-6).forEach((text, k) => {
        ctx.fillStyle = 'rgba(20, 23, 27, 0.85)';
        ctx.fillRect(8, 8 + k * 20, ctx.measureText(text).width + 12, 18);
        ctx.fillStyle = '#ff8a70';
        ctx.fillText(text, 14, 22 + k * 20);
      });
      ctx.font = '11px system-ui, sans-serif';
    }
    V.drawn.worldEffects = worldEffects;
    for (const [i, e, p] of V.show.bubbles ? said : []) {
      if (V.drawn.bubbles.length >= MAX_BUBBLES && e !== V.selected) continue;
      const [x, y] = toScreen(p[0], p[1]);
      const f = run.event(i).fields;
      bubble(x, y - r - 4, f.text, (t - run.events.tick[i]) / (2 * RATE));
      V.drawn.bubbles.push({ entity: run.entities.names[e], text: f.text, tick: run.events.tick[i] });
    }

    V.frames++;
    V.frameMs = performance.now() - t0;
  }

  /** Characters in view above which they are drawn as pixels rather than vector discs. */
  const PIXEL_DOTS_FROM = 400;
  const dots = document.createElement('canvas');
  let dotsImage = null;
  let dotsPixels = null;
  /** Stamps every character as a disc of its team's colour into one image, drawn at once. */
  function stampDots(byColour, radius) {
    const w = canvas.width;
    const h = canvas.height;
    if (dots.width !== w || dots.height !== h || !dotsImage) {
      dots.width = w;
      dots.height = h;
      dotsImage = dots.getContext('2d').createImageData(w, h);
      dotsPixels = new Uint32Array(dotsImage.data.buffer);
    }
    dotsPixels.fill(0);
    const R = Math.max(1, radius * dpr);
    const offsets = [];
    for (let dy = -Math.ceil(R); dy <= Math.ceil(R); dy++) {
      for (let dx = -Math.ceil(R); dx <= Math.ceil(R); dx++) if (dx * dx + dy * dy <= R * R + 0.5) offsets.push(dx, dy);
    }
    for (const [colour, list] of byColour) {
      const [cr, cg, cb] = hex(colour);
      const value = ((255 << 24) | (cb << 16) | (cg << 8) | cr) >>> 0;
      for (let k = 0; k < list.length; k += 3) {
        const cx = Math.round((V.view.ox + list[k + 1] * V.view.scale) * dpr);
        const cy = Math.round((V.view.oy + list[k + 2] * V.view.scale) * dpr);
        for (let o = 0; o < offsets.length; o += 2) {
          const x = cx + offsets[o];
          const y = cy + offsets[o + 1];
          if (x >= 0 && y >= 0 && x < w && y < h) dotsPixels[y * w + x] = value;
        }
      }
    }
    dots.getContext('2d').putImageData(dotsImage, 0, 0);
    ctx.drawImage(dots, 0, 0, w / dpr, h / dpr);
  }
  const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));

  /** The first corner of `route` still ahead of a walker at `at` (the one after the nearest). */
  function nextCorner(route, at) {
    let best = 0;
    let bestD = Infinity;
    for (let k = 0; k < route.xs.length; k++) {
      const d = Math.hypot(route.xs[k] - at[0], route.ys[k] - at[1]);
      if (d < bestD) {
        bestD = d;
        best = k;
      }
    }
    return Math.min(best + (bestD < 0.6 ? 1 : 0), route.xs.length - 1);
  }

  function bubble(x, y, text, age) {
    const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
    ctx.font = '12px system-ui, sans-serif';
    const w = ctx.measureText(shown).width + 10;
    ctx.globalAlpha = Math.max(0.35, 1 - age * 0.6);
    ctx.fillStyle = '#fffbe8';
    ctx.strokeStyle = '#333';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.rect(x - w / 2, y - 22, w, 18);
    ctx.moveTo(x - 4, y - 4);
    ctx.lineTo(x, y);
    ctx.lineTo(x + 4, y - 4);
    ctx.fill();
    ctx.stroke();
    ctx.fillStyle = '#222';
    ctx.fillText(shown, x - w / 2 + 5, y - 9);
    ctx.globalAlpha = 1;
    ctx.font = '11px system-ui, sans-serif';
  }

  function star(x, y, r) {
    ctx.beginPath();
    for (let k = 0; k < 10; k++) {
      const a = (k * Math.PI) / 5 - Math.PI / 2;
      const rr = k % 2 === 0 ? r : r / 2.4;
      ctx.lineTo(x + Math.cos(a) * rr, y + Math.sin(a) * rr);
    }
    ctx.fill();
  }

  /** The queries drawn at `tick`: those of this tick, and each asker's last one of the last two
   *  seconds (the selected character's only, when one is selected). */
  function shownQueries(tick) {
    const out = [];
    const seen = new Set();
    for (let t = tick; t >= Math.max(0, tick - 2 * RATE); t--) {
      for (const qi of queriesByTick.get(t) || []) {
        const q = run.queries[qi];
        if (seen.has(q.entity)) continue;
        if (V.selected >= 0 && q.entity !== V.selected && t !== tick) continue;
        seen.add(q.entity);
        out.push(qi);
      }
    }
    return out;
  }

  // ---- panels --------------------------------------------------------------------------------
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  const fmt = (v) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(3)) : v === null ? '—' : String(v));
  const valueText = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

  function eventLine(ev, withEntity) {
    const who = withEntity && ev.entity >= 0 ? `<b>${esc(run.entities.names[ev.entity])}</b> ` : '';
    return `<span class="tick">${ev.tick}</span>${who}<span class="kind kind-${esc(ev.kind)}">${esc(ev.kind)}</span> ${esc(describe(ev))}`;
  }

  /** An event in words; kinds this viewer does not know are listed with their fields. */
  function describe(ev) {
    const f = ev.fields;
    switch (ev.kind) {
      case 'say': return `“${f.text}”`;
      case 'spawn': return `${f.of} of ${f.team || 'no team'} at (${f.cell})`;
      case 'arrive': return `at (${f.cell})`;
      case 'blocked': return `at (${f.cell}): ${f.reason}`;
      case 'path': return `(${f.from}) → (${f.to}), cost ${fmt(f.cost)}`;
      case 'door': return `${f.name} ${f.open ? 'opens' : 'closes'}`;
      case 'trigger': case 'sound': return f.name;
      case 'signal': case 'wait': case 'release': return `${f.id} (${f.scope})`;
      case 'enter': case 'exit': return f.region;
      case 'attribute': case 'global': return `${f.key} = ${valueText(f.value)}`;
      case 'state': return `${f.machine}: ${f.from} → ${f.to}`;
      case 'action': return `${f.action} ${f.detail}`;
      case 'script_error': return `${f.file}:${f.line}:${f.column}: ${f.message}`;
      case 'print': return `${f.file}:${f.line}: ${f.text}`;
      case 'note': return `${f.name} = ${valueText(f.value)}`;
      case 'reload': return `${f.file} ${f.ok ? 'reloaded' : `refused: ${f.message}`}`;
      case 'node': return `${f.tree}: ${f.name} ${f.status}`;
      default: return JSON.stringify(f);
    }
  }

  function renderCharacter(tick) {
    const box = $('character');
    const e = V.selected;
    if (e < 0) {
      box.innerHTML = '<p class="hint">Click a character on the map, or find one by name.</p>';
      return;
    }
    const names = run.entities;
    const p = run.positionAt(e, tick);
    const machines = run.machinesAt(e, tick);
    const state = run.stateAt(e, tick);
    const rows = (obj) => Object.keys(obj).length === 0
      ? '<p class="hint">none</p>'
      : `<dl>${Object.entries(obj).map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(valueText(v))}</dd>`).join('')}</dl>`;
    const own = Array.from(run.eventsOf[e]);
    const hi = TacticaDecode.upperBound(run.events.tick, tick, 0, run.events.count);
    const upTo = own.filter((i) => i < hi);
    const errors = upTo.filter((i) => run.events.kind[i] === K.error).map((i) => run.event(i));
    const recent = upTo.slice(-60).reverse().map((i) => run.event(i));
    box.innerHTML = `
      <dl id="character-facts">
        <dt>name</dt><dd id="character-name">${esc(names.names[e])}</dd>
        <dt>kind</dt><dd>${esc(names.kinds[e])}</dd>
        <dt>team</dt><dd><span class="swatch" style="background:${teamColour.get(names.teams[e])}"></span>${esc(names.teams[e] || '—')}</dd>
        ${names.squads[e] ? `<dt>squad</dt><dd>${esc(names.squads[e])}</dd>` : ''}
        <dt>position</dt><dd id="character-position">${p ? `(${p[0].toFixed(2)}, ${p[1].toFixed(2)})` : 'not in the world'}</dd>
      </dl>
      <h3>State machines</h3>${rows(machines)}
      <h3>Attributes</h3>${rows(state.attributes)}
      <h3>Blackboard</h3>${rows(state.blackboard)}
      <h3>Script errors</h3>${errors.length === 0 ? '<p class="hint">none</p>' : `<ol class="event-list error">${errors.map((ev) => `<li data-tick="${ev.tick}">${eventLine(ev, false)}</li>`).join('')}</ol>`}
      <h3>Events (latest first)</h3>${recent.length === 0 ? '<p class="hint">none yet</p>' : `<ol class="event-list" id="character-events">${recent.map((ev) => `<li data-tick="${ev.tick}" class="${ev.tick === tick ? 'now' : ''}">${eventLine(ev, false)}</li>`).join('')}</ol>`}`;
  }

  function renderEvents(tick) {
    const list = $('events');
    const needle = V.search.toLowerCase();
    const out = [];
    const [, end] = run.eventRange(0, tick);
    for (let i = end - 1; i >= 0 && out.length < 200; i--) {
      const kind = run.events.kinds[run.events.kind[i]];
      if (V.kindsOff.has(kind)) continue;
      const e = run.events.entity[i];
      if (V.onlySelected && e !== V.selected) continue;
      const ev = run.event(i);
      const line = eventLine(ev, true);
      if (needle && !`${e >= 0 ? run.entities.names[e] : ''} ${kind} ${describe(ev)}`.toLowerCase().includes(needle)) continue;
      out.push(`<li data-tick="${ev.tick}" data-entity="${e}" class="${ev.tick === tick ? 'now' : ''}">${line}</li>`);
    }
    list.innerHTML = out.length ? out.join('') : '<li class="hint">No events up to this tick match.</li>';
  }

  function renderQuery(tick) {
    const box = $('query');
    const shown = shownQueries(tick);
    if (shown.length === 0) {
      box.innerHTML = `<p class="hint">No query at this tick.${run.queries.length ? ` ${run.queries.length} in the run: the timeline marks none, step to one (ticks ${[...queriesByTick.keys()].slice(0, 8).join(', ')}${queriesByTick.size > 8 ? '…' : ''}).` : ''}</p>`;
      return;
    }
    box.innerHTML = shown.slice(0, 6).map((qi) => {
      const q = run.queries[qi];
      const counts = {};
      let best = null;
      for (const o of q.options) for (const c of o.candidates) {
        counts[c[2]] = (counts[c[2]] || 0) + 1;
        if (c[2] === 'chosen' && c[3] === 0) best = c;
      }
      const legend = Object.entries(counts).map(([k, n]) => `<span class="swatch" style="background:${FATE[k][0]}"></span>${n} ${FATE[k][1]}`).join(' · ');
      return `<div class="query" data-query="${qi}">
        <p><b>${esc(q.query)}</b> for <b>${esc(run.entities.names[q.entity])}</b> at tick ${q.tick}: ${esc(q.outcome)}</p>
        ${best ? `<p class="chosen">chose (${best[0].toFixed(2)}, ${best[1].toFixed(2)}), score ${fmt(best[4])}</p>` : ''}
        <p>${legend}</p>
        <p class="hint">Hover a candidate on the map for its score and each test's result.</p></div>`;
    }).join('');
  }

  function layerValue(x, y) {
    if (V.layer < 0) return null;
    const cx = Math.floor(x);
    const cy = Math.floor(y);
    if (cx < 0 || cy < 0 || cx >= W || cy >= H) return null;
    const at = run.layerAt(V.layer, Math.floor(V.t));
    if (!at) return null;
    return { x: cx, y: cy, value: at.values[cy * W + cx], tick: at.tick };
  }

  function renderLayer() {
    const box = $('layer-info');
    const legend = $('legend');
    if (V.layer < 0) {
      box.innerHTML = meta.layers.length ? '<p class="hint">No layer shown.</p>' : '<p class="hint">This run recorded no tactical layers (the scenario has no [field] section).</p>';
      legend.hidden = true;
      return;
    }
    const layer = run.layers[V.layer];
    const at = run.layerAt(V.layer, Math.floor(V.t));
    let under = '<p class="hint">Point at a cell for its value.</p>';
    if (V.mouse) {
      const [x, y] = toCell(...V.mouse);
      const v = layerValue(x, y);
      if (v) under = `<p id="layer-value">${esc(layer.name)} at (${v.x}, ${v.y}): <b>${Number.isNaN(v.value) ? 'no value' : v.value.toFixed(3)}</b></p>`;
    }
    box.innerHTML = `<p>${esc(layer.name)}, recorded at tick ${at.tick} (every ${layer.ticks.length > 1 ? layer.ticks[1] - layer.ticks[0] : '—'} ticks), ${layer.low.toFixed(3)} … ${layer.high.toFixed(3)}</p>${under}`;
    legend.hidden = false;
    const stops = [0, 0.33, 0.66, 1].map((k) => `rgb(${heat(k).join(',')}) ${k * 100}%`).join(',');
    legend.innerHTML = `${esc(layer.name)}<div class="ramp" style="background:linear-gradient(to right,${stops})"></div>${layer.low.toFixed(2)} <span style="float:right">${layer.high.toFixed(2)}</span>`;
  }

  function renderClock(tick) {
    $('clock').textContent = `tick ${tick} / ${run.ticks - 1} · ${(tick / RATE).toFixed(1)} s · ${V.speed}×${V.playing ? ' · playing' : ''}`;
    $('scrub').value = String(tick);
    if (document.activeElement !== $('tick')) $('tick').value = String(tick);
  }

  function renderPanels() {
    const tick = Math.floor(V.t);
    renderClock(tick);
    renderCharacter(tick);
    renderEvents(tick);
    renderQuery(tick);
    renderLayer();
    V.lastTick = tick;
  }

  // ---- tooltip -------------------------------------------------------------------------------
  function hoverText(px, py) {
    const tick = Math.floor(V.t);
    // A query candidate under the pointer?
    if (V.show.queries) {
      let best = null;
      let bestD = 8;
      for (const qi of shownQueries(tick)) {
        const q = run.queries[qi];
        for (const o of q.options) for (const c of o.candidates) {
          const [x, y] = toScreen(c[0], c[1]);
          const d = Math.hypot(x - px, y - py);
          if (d < bestD) {
            bestD = d;
            best = [q, o, c];
          }
        }
      }
      if (best) {
        const [q, o, c] = best;
        const fate = c[2] === 'chosen' ? `chosen (rank ${c[3] + 1})` : c[2] === 'failed' ? `rejected by ${c[3]}` : FATE[c[2]][1];
        const tests = c[6].map(([key, raw, effect]) => `  ${key} = ${raw === null ? 'unreachable' : fmt(raw)}  ${typeof effect === 'number' ? (effect >= 0 ? '+' : '') + effect.toFixed(3) : effect}`).join('\n');
        return `${q.query} (option ${o.option + 1}) at (${c[0].toFixed(2)}, ${c[1].toFixed(2)})\n${fate}\nscore ${fmt(c[4])} (could reach ${fmt(c[5])})\n${tests}`;
      }
    }
    const e = entityAt(px, py);
    if (e >= 0) {
      const p = run.positionAt(e, V.t);
      return `${run.entities.names[e]} (${run.entities.kinds[e]}, ${run.entities.teams[e] || 'no team'}) at (${p[0].toFixed(2)}, ${p[1].toFixed(2)})`;
    }
    const [x, y] = toCell(px, py);
    const v = layerValue(x, y);
    if (v) return `${run.layers[V.layer].name} at (${v.x}, ${v.y}): ${Number.isNaN(v.value) ? 'no value' : v.value.toFixed(3)}`;
    if (x >= 0 && y >= 0 && x < W && y < H) return `(${Math.floor(x)}, ${Math.floor(y)}) ${run.map.cost[Math.floor(y) * W + Math.floor(x)] === 0 ? 'wall' : ''}`;
    return '';
  }

  /** The character drawn nearest to a screen point, within a few pixels; -1 when none. */
  function entityAt(px, py) {
    const [x, y] = toCell(px, py);
    const reach = Math.max(0.6, 8 / V.view.scale);
    let best = -1;
    let bestD = reach;
    for (let e = 0; e < run.entityCount; e++) {
      const p = run.positionAt(e, V.t);
      if (!p) continue;
      const d = Math.hypot(p[0] - x, p[1] - y);
      if (d < bestD) {
        bestD = d;
        best = e;
      }
    }
    return best;
  }

  function showTooltip() {
    const tip = $('tooltip');
    if (!V.mouse) {
      tip.hidden = true;
      return;
    }
    const text = hoverText(...V.mouse);
    tip.hidden = !text;
    tip.textContent = text;
    tip.style.left = `${V.mouse[0] + 14}px`;
    tip.style.top = `${V.mouse[1] + 14}px`;
  }

  // ---- time ----------------------------------------------------------------------------------
  // The canvas follows every frame; the panels (and the address) follow the tick a little later
  // while it keeps moving, so scrubbing ten thousand characters stays smooth.
  const PANEL_DELAY_MS = 120;
  let panelTimer = null;
  let panelsAt = 0;
  function seek(t) {
    V.t = Math.max(0, Math.min(run.ticks - 1, t));
    requestDraw();
    if (Math.floor(V.t) === V.lastTick) return;
    renderClock(Math.floor(V.t));
    const now = performance.now();
    if (V.scrubbing) {
      // Dragging the slider: the panels wait until the hand rests.
      clearTimeout(panelTimer);
      panelTimer = setTimeout(panelsNow, PANEL_DELAY_MS);
    } else if (now - panelsAt > PANEL_DELAY_MS * 2 && !V.playing) panelsNow();
    else if (panelTimer === null) panelTimer = setTimeout(panelsNow, PANEL_DELAY_MS);
  }
  function panelsNow() {
    clearTimeout(panelTimer);
    panelTimer = null;
    panelsAt = performance.now();
    renderPanels();
    history.replaceState(null, '', `#t=${Math.floor(V.t)}${V.selected >= 0 ? `&e=${encodeURIComponent(run.entities.names[V.selected])}` : ''}`);
  }
  function setPlaying(on) {
    V.playing = on && run.ticks > 1;
    $('play').textContent = V.playing ? 'Pause' : 'Play';
    last = performance.now();
    if (V.playing) requestAnimationFrame(loop);
    else panelsNow();
  }
  let last = performance.now();
  function loop(now) {
    if (!V.playing) return;
    const dt = (now - last) / 1000;
    last = now;
    let t = V.t + dt * RATE * V.speed;
    if (t >= run.ticks - 1) {
      t = run.ticks - 1;
      V.playing = false;
      $('play').textContent = 'Play';
    }
    seek(t);
    if (V.playing) requestAnimationFrame(loop);
  }
  let drawPending = false;
  let dirty = false;
  function requestDraw() {
    dirty = true;
    if (drawPending) return;
    drawPending = true;
    requestAnimationFrame(() => {
      drawPending = false;
      if (!dirty) return;
      draw();
      showTooltip();
    });
  }
  function setSpeed(s) {
    V.speed = s;
    $('speed').value = String(s);
    renderClock(Math.floor(V.t));
  }
  function stepMarker(dir) {
    const tick = Math.floor(V.t);
    const ticks = meta.markers.map((m) => m.tick);
    const next = dir > 0 ? ticks.find((t) => t > tick) : [...ticks].reverse().find((t) => t < tick);
    if (next !== undefined) seek(next);
  }

  // ---- selection -----------------------------------------------------------------------------
  function select(e) {
    V.selected = e;
    if (e >= 0) $('find').value = run.entities.names[e];
    seek(V.t);
    panelsNow();
  }

  // ---- wiring --------------------------------------------------------------------------------
  function setUp() {
    $('title').textContent = meta.name;
    $('subtitle').textContent = `${meta.file} · seed ${meta.seed} · ${run.entityCount} characters · ${run.ticks} ticks at ${RATE} Hz`;
    if (meta.missing.length) {
      const m = $('missing');
      m.hidden = false;
      m.textContent = '⚠ from a trace alone';
      m.title = `This view lacks:\n- ${meta.missing.join('\n- ')}`;
    }
    $('names').innerHTML = run.entityCount <= 5000 ? run.entities.names.map((n) => `<option value="${esc(n)}">`).join('') : '';
    for (const s of SPEEDS) $('speed').insertAdjacentHTML('beforeend', `<option value="${s}">${s}×</option>`);
    $('speed').value = '1';
    $('scrub').max = String(Math.max(0, run.ticks - 1));
    $('tick').max = String(Math.max(0, run.ticks - 1));
    meta.layers.forEach((l, i) => $('layer').insertAdjacentHTML('beforeend', `<option value="${i}">${esc(l.name)}</option>`));
    const kinds = [...new Set(run.events.kinds)].sort();
    $('kinds').innerHTML = kinds.map((k) => `<label><input type="checkbox" data-kind="${esc(k)}" checked> ${esc(k)}</label>`).join(' ');
    $('toggles').innerHTML = Object.keys(V.show).map((k) => `<label><input type="checkbox" data-show="${k}" checked> ${k}</label>`).join(' ');
    const span = Math.max(1, run.ticks - 1);
    $('markers').innerHTML = meta.markers.map((m, i) => `<button class="marker ${esc(m.kind)}" data-marker="${i}" style="left:${(m.tick / span) * 100}%" title="tick ${m.tick}: ${esc(m.kind)}${m.entity ? ` (${esc(m.entity)})` : ''}: ${esc(m.label)}"></button>`).join('');

    $('play').onclick = () => setPlaying(!V.playing);
    $('back').onclick = () => seek(Math.floor(V.t) - 1);
    $('forward').onclick = () => seek(Math.floor(V.t) + 1);
    $('speed').onchange = (ev) => setSpeed(Number(ev.target.value));
    $('scrub').oninput = (ev) => {
      V.scrubbing = true;
      seek(Number(ev.target.value));
    };
    $('scrub').onchange = () => {
      V.scrubbing = false;
      panelsNow();
    };
    $('tick').onchange = (ev) => seek(Number(ev.target.value));
    $('prev-marker').onclick = () => stepMarker(-1);
    $('next-marker').onclick = () => stepMarker(1);
    $('markers').onclick = (ev) => {
      const m = ev.target.dataset.marker;
      if (m === undefined) return;
      const marker = meta.markers[Number(m)];
      if (marker.entity && run.byName.has(marker.entity)) V.selected = run.byName.get(marker.entity);
      seek(marker.tick);
      panelsNow();
    };
    $('find').onchange = (ev) => {
      const e = run.byName.get(ev.target.value.trim());
      if (e !== undefined) select(e);
    };
    $('search').oninput = (ev) => {
      V.search = ev.target.value;
      renderEvents(Math.floor(V.t));
    };
    $('only-selected').onchange = (ev) => {
      V.onlySelected = ev.target.checked;
      renderEvents(Math.floor(V.t));
    };
    $('kinds').onchange = (ev) => {
      const k = ev.target.dataset.kind;
      if (ev.target.checked) V.kindsOff.delete(k);
      else V.kindsOff.add(k);
      renderEvents(Math.floor(V.t));
    };
    $('toggles').onchange = (ev) => {
      V.show[ev.target.dataset.show] = ev.target.checked;
      requestDraw();
    };
    $('layer').onchange = (ev) => {
      V.layer = ev.target.value === '' ? -1 : Number(ev.target.value);
      renderLayer();
      requestDraw();
    };
    const jump = (ev) => {
      const li = ev.target.closest('li[data-tick]');
      if (!li) return;
      if (li.dataset.entity !== undefined && Number(li.dataset.entity) >= 0) V.selected = Number(li.dataset.entity);
      seek(Number(li.dataset.tick));
      panelsNow();
    };
    $('events').onclick = jump;
    $('character').onclick = jump;
    $('help-button').onclick = () => ($('help').hidden = !$('help').hidden);

    // Pointer: hover, click to select, drag to pan, wheel to zoom.
    let drag = null;
    canvas.onpointerdown = (ev) => {
      drag = { x: ev.offsetX, y: ev.offsetY, ox: V.view.ox, oy: V.view.oy, moved: false };
      canvas.setPointerCapture(ev.pointerId);
    };
    canvas.onpointermove = (ev) => {
      V.mouse = [ev.offsetX, ev.offsetY];
      if (drag) {
        const dx = ev.offsetX - drag.x;
        const dy = ev.offsetY - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        if (drag.moved) {
          canvas.classList.add('dragging');
          V.view.ox = drag.ox + dx;
          V.view.oy = drag.oy + dy;
          requestDraw();
        }
      }
      showTooltip();
      if (V.layer >= 0) renderLayer();
    };
    canvas.onpointerup = (ev) => {
      if (drag && !drag.moved) {
        const e = entityAt(ev.offsetX, ev.offsetY);
        if (e >= 0 || V.selected >= 0) select(e);
      }
      drag = null;
      canvas.classList.remove('dragging');
    };
    canvas.onpointerleave = () => {
      V.mouse = null;
      showTooltip();
    };
    canvas.onwheel = (ev) => {
      ev.preventDefault();
      zoom(ev.deltaY < 0 ? 1.25 : 0.8, ev.offsetX, ev.offsetY);
    };
    window.onresize = () => {
      resize();
      requestDraw();
    };
    document.addEventListener('keydown', (ev) => {
      const typing = ['INPUT', 'SELECT', 'TEXTAREA'].includes(document.activeElement.tagName) && document.activeElement.type !== 'range' && document.activeElement.type !== 'checkbox';
      if (typing) {
        if (ev.key === 'Escape') document.activeElement.blur();
        return;
      }
      const step = ev.shiftKey ? 10 : 1;
      const tick = Math.floor(V.t);
      const keys = {
        ' ': () => setPlaying(!V.playing),
        ArrowRight: () => seek(tick + step),
        ArrowLeft: () => seek(tick - step),
        Home: () => seek(0),
        End: () => seek(run.ticks - 1),
        ']': () => setSpeed(SPEEDS[Math.min(SPEEDS.length - 1, SPEEDS.indexOf(V.speed) + 1)]),
        '[': () => setSpeed(SPEEDS[Math.max(0, SPEEDS.indexOf(V.speed) - 1)]),
        n: () => stepMarker(1),
        p: () => stepMarker(-1),
        '/': () => $('find').focus(),
        l: () => {
          V.layer = run.layers.length ? ((V.layer + 2) % (run.layers.length + 1)) - 1 : -1;
          $('layer').value = V.layer < 0 ? '' : String(V.layer);
          renderLayer();
          requestDraw();
        },
        '+': () => zoom(1.25),
        '=': () => zoom(1.25),
        '-': () => zoom(0.8),
        0: () => {
          fit();
          requestDraw();
        },
        '?': () => ($('help').hidden = !$('help').hidden),
        Escape: () => {
          $('help').hidden = true;
          select(-1);
        },
      };
      const act = keys[ev.key];
      if (act) {
        ev.preventDefault();
        act();
      }
    });
  }

  function zoom(f, px, py) {
    const r = canvas.getBoundingClientRect();
    const cx = px ?? r.width / 2;
    const cy = py ?? r.height / 2;
    const [x, y] = toCell(cx, cy);
    V.view.scale = Math.max(0.25, Math.min(96, V.view.scale * f));
    V.view.ox = cx - x * V.view.scale;
    V.view.oy = cy - y * V.view.scale;
    requestDraw();
  }

  // ---- start ---------------------------------------------------------------------------------
  setUp();
  resize();
  fit();
  const hash = new URLSearchParams(location.hash.slice(1));
  // The URL's character (`#t=…&e=NAME`), else the one the file was written to open with (the
  // character a failed expectation is about).
  const chosen = hash.has('e') ? hash.get('e') : meta.select;
  if (chosen && run.byName.has(chosen)) V.selected = run.byName.get(chosen);
  const startTick = hash.has('t') ? Number(hash.get('t')) : meta.startTick;
  V.t = Math.max(0, Math.min(run.ticks - 1, Number.isFinite(startTick) ? startTick : 0));
  if (V.selected >= 0) $('find').value = run.entities.names[V.selected];
  draw();
  renderPanels();
  setTimeout(() => run.ensureLayers(), 0);

  // ---- the API the browser tests read (and anyone curious, from the console) ----------------
  window.tactica = {
    run,
    loadMs: performance.now() - started,
    ready: true,
    seek: (t) => {
      seek(t);
      draw();
    },
    /** Seeks and brings the panels up to date at once (what a pause does a moment later). */
    seekAndList: (t) => {
      seek(t);
      draw();
      panelsNow();
    },
    tick: () => Math.floor(V.t),
    play: () => setPlaying(true),
    pause: () => setPlaying(false),
    playing: () => V.playing,
    speed: () => V.speed,
    select: (name) => select(name === null ? -1 : run.byName.get(name) ?? -1),
    selected: () => (V.selected >= 0 ? run.entities.names[V.selected] : null),
    positionOf: (name, t) => run.positionAt(run.byName.get(name), t ?? V.t),
    /** Where a character is drawn, in CSS pixels from the canvas' top left. */
    screenOf: (name) => {
      const p = run.positionAt(run.byName.get(name), V.t);
      return p ? toScreen(p[0], p[1]) : null;
    },
    cellToScreen: (x, y) => toScreen(x, y),
    setLayer: (name) => {
      V.layer = run.layers.findIndex((l) => l.name === name);
      $('layer').value = V.layer < 0 ? '' : String(V.layer);
      renderLayer();
      draw();
    },
    zoomTo: (x, y, scale) => {
      const r = canvas.getBoundingClientRect();
      V.view.scale = scale;
      V.view.ox = r.width / 2 - x * scale;
      V.view.oy = r.height / 2 - y * scale;
      draw();
    },
    drawn: () => V.drawn,
    frame: () => {
      draw();
      return V.frameMs;
    },
    /** How long the last frame's drawing took (ms). */
    frameMs: () => V.frameMs,
    frames: () => V.frames,
  };
  document.body.dataset.ready = 'true';
})();
