// The viewer in a real browser: Debian's Chromium (/usr/bin/chromium, never a downloaded one)
// driven by puppeteer-core. tests/viewer.rs writes the viewers of shipped examples and what the
// runtime itself says about those runs (expectations.json, never read from the viewer's data)
// into TACTICA_VIEW_DIR, then runs this file. Each test seeks to a tick, checks what is listed
// (the DOM) and drawn (the canvas' pixels), and saves a screenshot there.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const DIR = process.env.TACTICA_VIEW_DIR;
const CHROMIUM = process.env.TACTICA_CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

if (!DIR) throw new Error('TACTICA_VIEW_DIR is not set: run these tests through `cargo test --test viewer`');
const expect = JSON.parse(fs.readFileSync(path.join(DIR, 'expectations.json'), 'utf8'));
const shots = path.join(DIR, 'shots');
fs.mkdirSync(shots, { recursive: true });

let browser;
test.before(async () => {
  const puppeteer = require('puppeteer-core');
  browser = await puppeteer.launch({ executablePath: CHROMIUM, args: FLAGS, defaultViewport: { width: 1280, height: 800 } });
});
test.after(async () => {
  if (browser) await browser.close();
});

/** Opens a viewer file (at `hash`), fails on any page error, and waits for its first frame. */
async function open(file, hash = '') {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('requestfailed', (r) => errors.push(`fetched ${r.url()}`));
  page.on('request', (r) => {
    if (!r.url().startsWith('file://') && !r.url().startsWith('data:')) errors.push(`fetched ${r.url()}`);
  });
  await page.goto(`file://${path.join(DIR, file)}${hash}`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true', { timeout: 30000 });
  page.errors = errors;
  return page;
}

/** The colour of the canvas at CSS pixel (x, y), as [r, g, b]. */
async function pixel(page, x, y) {
  return page.evaluate(([x, y]) => {
    const c = document.getElementById('map');
    const k = c.width / c.getBoundingClientRect().width;
    const d = c.getContext('2d').getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data;
    return [d[0], d[1], d[2]];
  }, [x, y]);
}

/** How many of 8 pixels round (x, y), `d` CSS pixels away, are within `tol` of `colour`: a
 *  character's disc is its team's colour but for the stroke showing its way and its name. */
async function around(page, x, y, d, colour, tol) {
  let n = 0;
  for (let k = 0; k < 8; k++) {
    const a = (k * Math.PI) / 4;
    if (near(await pixel(page, x + Math.cos(a) * d, y + Math.sin(a) * d), colour, tol)) n++;
  }
  return n;
}

/** Moves the mouse to a point given in canvas pixels. */
async function hover(page, x, y) {
  const box = await (await page.$('#map')).boundingBox();
  await page.mouse.move(box.x + x, box.y + y);
}

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const near = (a, b, tol) => a.every((v, i) => Math.abs(v - b[i]) <= tol);

async function shot(page, name) {
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

test('harbour: where a character stands, what it says, signals and the panels', async () => {
  const h = expect.harbour;
  const page = await open('harbour.html', `#t=${h.tick}`);
  assert.equal(await page.evaluate(() => tactica.tick()), h.tick, 'the URL hash opens at its tick');
  await page.evaluate(() => tactica.zoomTo(9, 7, 28));
  // The speech bubble of that tick is drawn over the speaker.
  const bubbles = await page.evaluate(() => tactica.drawn().bubbles);
  assert.ok(bubbles.some((b) => b.entity === h.speaker && b.text === h.said), JSON.stringify(bubbles));
  // Every character is drawn where the runtime had it: the canvas there is its team's colour.
  for (const c of h.characters) {
    const [x, y] = await page.evaluate(([x, y]) => tactica.cellToScreen(x, y), c.position);
    const hits = await around(page, x, y, 28 * 0.2, hex(c.colour), 40);
    assert.ok(hits >= 5, `${c.name} at (${c.position}) is drawn in ${c.colour} (${hits} of 8 pixels round it are)`);
    const drawn = await page.evaluate((n) => tactica.positionOf(n), c.name);
    assert.ok(Math.hypot(drawn[0] - c.position[0], drawn[1] - c.position[1]) < 0.05, `${c.name}: ${drawn} for ${c.position}`);
  }
  // Selecting the speaker lists its line in its panel, and its position as the runtime had it.
  await page.evaluate((n) => tactica.select(n), h.speaker);
  const panel = await page.$eval('#character', (e) => e.innerText);
  assert.ok(panel.includes(`“${h.said}”`), panel);
  const speaker = h.characters.find((c) => c.name === h.speaker);
  assert.ok(panel.includes(`(${speaker.position[0].toFixed(2)}, ${speaker.position[1].toFixed(2)})`), panel);
  // The event list: filtered by kind and by search.
  await page.evaluate(() => {
    for (const box of document.querySelectorAll('#kinds input')) if (box.dataset.kind !== 'signal') box.click();
  });
  let events = await page.$$eval('#events li', (li) => li.map((l) => l.innerText));
  assert.ok(events.length >= 1 && events.every((l) => l.includes('signal')), events.join('\n'));
  await page.evaluate(() => {
    for (const box of document.querySelectorAll('#kinds input')) if (!box.checked) box.click();
  });
  await page.type('#search', 'Lock');
  events = await page.$$eval('#events li', (li) => li.map((l) => l.innerText));
  assert.ok(events.length >= 1 && events.every((l) => /lock/i.test(l)), events.join('\n'));
  await page.focus('#map');
  await shot(page, 'harbour');
  // Keyboard: → steps, space plays, [ and ] change speed, Home goes to the start.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.evaluate(() => tactica.tick()), h.tick - 1);
  await page.keyboard.down('Shift');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.up('Shift');
  assert.equal(await page.evaluate(() => tactica.tick()), h.tick - 11);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => tactica.tick()), h.tick - 10);
  await page.keyboard.press(']');
  assert.equal(await page.evaluate(() => tactica.speed()), 2);
  await page.keyboard.press(' ');
  assert.equal(await page.evaluate(() => tactica.playing()), true);
  await new Promise((r) => setTimeout(r, 400));
  await page.keyboard.press(' ');
  const after = await page.evaluate(() => tactica.tick());
  assert.ok(after > h.tick - 10, `playing moved on (${after})`);
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => tactica.tick()), h.tick);
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => tactica.tick()), 0);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('cover: the query of a tick, its chosen point drawn and listed, a candidate on hover', async () => {
  const c = expect.cover;
  const page = await open('cover.html', `#t=${c.tick}`);
  await page.evaluate((n) => tactica.select(n), c.entity);
  const text = await page.$eval('#query', (e) => e.innerText);
  assert.ok(text.includes(`${c.query} for ${c.entity} at tick ${c.tick}`), text);
  assert.ok(text.includes(`chose (${c.chosen[0].toFixed(2)}, ${c.chosen[1].toFixed(2)})`), text);
  // The chosen point is drawn as a blue ring round the point the script was given.
  const [x, y] = await page.evaluate(([x, y]) => tactica.cellToScreen(x, y), c.chosen);
  const scale = await page.evaluate(() => tactica.cellToScreen(1, 0)[0] - tactica.cellToScreen(0, 0)[0]);
  const ring = await pixel(page, x + scale * 0.45, y);
  assert.ok(near(ring, [30, 90, 230], 40), `the ring at the chosen point is ${ring}`);
  // Hovering it shows its fate, score and tests.
  await hover(page, x, y);
  const tip = await page.$eval('#tooltip', (e) => (e.hidden ? '' : e.innerText));
  assert.ok(tip.includes('chosen (rank 1)') && tip.includes('score'), tip);
  assert.ok(c.tests.every((t) => tip.includes(t)), `${tip} lacks one of ${c.tests}`);
  await shot(page, 'cover');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('tactics: a layer as a heat map, its value under the cursor', async () => {
  const t = expect.tactics;
  const page = await open('tactics.html', `#t=${t.tick}`);
  await page.evaluate((n) => tactica.setLayer(n), t.layer);
  for (const cell of t.cells) {
    const [x, y] = await page.evaluate(([x, y]) => tactica.cellToScreen(x + 0.5, y + 0.5), cell.cell);
    await hover(page, x, y);
    const shown = await page.$eval('#layer-value', (e) => e.innerText);
    const want = `${t.layer} at (${cell.cell[0]}, ${cell.cell[1]}):`;
    assert.ok(shown.startsWith(want), `${shown} for ${want}`);
    const value = Number(shown.slice(want.length));
    assert.ok(Math.abs(value - cell.value) <= 0.0011, `${shown}: the runtime has ${cell.value}`);
  }
  // Warm cells are drawn warmer than cold ones.
  const hot = t.cells.reduce((a, b) => (b.value > a.value ? b : a));
  const cold = t.cells.reduce((a, b) => (b.value < a.value ? b : a));
  const [hx, hy] = await page.evaluate(([x, y]) => tactica.cellToScreen(x + 0.5, y + 0.5), hot.cell);
  const [cx, cy] = await page.evaluate(([x, y]) => tactica.cellToScreen(x + 0.5, y + 0.5), cold.cell);
  await page.mouse.move(1, 1);
  const [hotPx, coldPx] = [await pixel(page, hx + 3, hy + 3), await pixel(page, cx + 3, cy + 3)];
  assert.ok(hotPx[0] - hotPx[2] > coldPx[0] - coldPx[2], `hot ${hotPx} is redder than cold ${coldPx}`);
  await shot(page, 'tactics-layer');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('markers: a failed expectation and a script error on the timeline, opened at its tick', async () => {
  const m = expect.markers;
  const page = await open('markers.html');
  assert.equal(await page.evaluate(() => tactica.tick()), m.start, 'the viewer opens at the tick it was given');
  const kinds = await page.$$eval('#markers .marker', (b) => b.map((x) => x.className));
  assert.ok(kinds.some((k) => k.includes('failure')) && kinds.some((k) => k.includes('error')), kinds.join(' '));
  await page.focus('#map');
  await page.keyboard.press('Home');
  await page.keyboard.press('n');
  assert.equal(await page.evaluate(() => tactica.tick()), m.first, 'n goes to the first marker');
  await page.click('#markers .marker.error');
  assert.equal(await page.evaluate(() => tactica.tick()), m.error.tick);
  const panel = await page.$eval('#character', (e) => e.innerText);
  assert.ok(panel.includes(m.error.at), `the error's file:line (${m.error.at}) in ${panel}`);
  await shot(page, 'markers');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('crowd: 10,000 characters load in under 3 s and scrub at 30 frames a second or more', async () => {
  const c = expect.crowd;
  // The machine running the tests is shared: each figure is the best of three tries, as a
  // benchmark takes the best of its runs, and every try is printed.
  const loads = [];
  const scrubs = [];
  let page;
  for (let k = 0; k < 3; k++) {
    if (page) await page.close();
    page = await open('crowd.html');
    loads.push(await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      return { script: tactica.loadMs, page: performance.now() - nav.startTime };
    }));
    // Scrubbing as a hand drags the slider: on every animation frame the slider moves 7 ticks
    // on (an `input` event, as a drag makes), for two seconds; the frame rate is how many
    // frames the viewer drew in that time, each at a new tick.
    scrubs.push(await page.evaluate(async () => {
      const slider = document.getElementById('scrub');
      const drawn = tactica.frames();
      const frames = [];
      let t = 0;
      const start = performance.now();
      while (performance.now() < start + 2000) {
        await new Promise((r) => requestAnimationFrame(r));
        frames.push(tactica.frameMs());
        slider.value = String((t += 7) % tactica.run.ticks);
        slider.dispatchEvent(new Event('input'));
      }
      const seconds = (performance.now() - start) / 1000;
      slider.dispatchEvent(new Event('change'));
      frames.sort((a, b) => a - b);
      return { fps: (tactica.frames() - drawn) / seconds, median: frames[frames.length >> 1], worst: frames[frames.length - 1] };
    }));
  }
  const load = loads.reduce((a, b) => (b.page < a.page ? b : a));
  const scrub = scrubs.reduce((a, b) => (b.fps > a.fps ? b : a));
  const figures = `crowd viewer: ${c.characters} characters, ${c.ticks} ticks, ${(c.bytes / 1048576).toFixed(1)} MiB; load ${(load.page / 1000).toFixed(2)} s (decode and first frame ${(load.script / 1000).toFixed(2)} s); scrub ${scrub.fps.toFixed(0)} frames/s (drawing a frame: median ${scrub.median.toFixed(1)} ms, worst ${scrub.worst.toFixed(1)} ms) — best of 3 (loads ${loads.map((l) => (l.page / 1000).toFixed(2)).join(', ')} s; scrubs ${scrubs.map((x) => x.fps.toFixed(0)).join(', ')} frames/s)`;
  console.log(figures);
  fs.writeFileSync(path.join(DIR, 'figures.txt'), `${figures}\n`);
  // A character of the crowd is where the runtime had it at the last tick.
  await page.evaluate((t) => tactica.seek(t), c.tick);
  const at = await page.evaluate((n) => tactica.positionOf(n), c.name);
  assert.ok(Math.hypot(at[0] - c.position[0], at[1] - c.position[1]) < 0.05, `${c.name}: ${at} for ${c.position}`);
  await page.evaluate(([x, y]) => tactica.zoomTo(x, y, 24), c.position);
  const [x, y] = await page.evaluate(([x, y]) => tactica.cellToScreen(x, y), c.position);
  const hits = await around(page, x, y, 24 * 0.2, hex(c.colour), 40);
  assert.ok(hits >= 5, `${c.name} is drawn in ${c.colour} (${hits} of 8 pixels round it are)`);
  await shot(page, 'crowd-close');
  await page.evaluate(() => tactica.zoomTo(96, 64, 4.6));
  await page.evaluate(() => tactica.seek(500));
  await shot(page, 'crowd');
  assert.ok(load.page < 3000, `loaded in ${load.page} ms`);
  assert.ok(scrub.fps >= 30, `scrubbed at ${scrub.fps} frames a second`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
