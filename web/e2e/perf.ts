// The browser client's figures on a 140-tile board for docs/performance.md:
// bots play a game of 140 tiles (base and Inns & Cathedrals, a fixed
// shuffled deck) on a real server, then fresh browser contexts (nothing
// cached) open it and the Performance API marks say when the board is
// painted; pan and zoom are timed frame by frame. Run after building the
// client and the server (use the release binary for the figures):
//   BASTIDE_BIN=../target/release/bastide RUNS=5 npx tsx e2e/perf.ts
// ADDR=127.0.0.1:8091 puts the server on that address, so that
//   BASTIDE_URL=http://127.0.0.1:8091 npx vite preview --port 4173
// with CLIENT_URL=http://127.0.0.1:4173 measures a client not yet embedded.
// SCHEMATIC=1 measures the board without its tile art (the schematic tiles).
// TRACE=file.json also writes a Chromium trace of the first warm visit
// and prints where its main thread spent the time.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launch, motion, startServer } from './harness';

const RUNS = Number(process.env.RUNS ?? 5);
const CATALOG = resolve(import.meta.dirname, '../../crates/engine/catalog');

/** Every tile of a catalog file, as many times as the set holds it. */
function tilesOf(set: string): string[] {
  const text = readFileSync(`${CATALOG}/${set}.toml`, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/\[\[tile\]\]\s*\nid = "([^"]+)"\s*\ncount = (\d+)/g)) {
    for (let i = 0; i < Number(m[2]); i++) out.push(`${set}/${m[1] ?? ''}`);
  }
  return out;
}

/** A fixed shuffle (the same board every run). */
function shuffle<T>(xs: T[], seed: number): T[] {
  const a = xs.slice();
  let s = seed;
  for (let i = a.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

// The start tile and 139 to draw (the base game twice and Inns & Cathedrals,
// shuffled): a board of 140 pieces, less any tile that fits nowhere.
const PIECES = Number(process.env.PIECES ?? 140);
const DECK = shuffle([...tilesOf('base'), ...tilesOf('inns-cathedrals'), ...tilesOf('base')], 7).slice(0, PIECES - 1);

const server = await startServer(process.env.ADDR ? { dir: mkdtempSync(join(tmpdir(), 'bastide-perf-')), url: `http://${process.env.ADDR}` } : undefined);
const browser = await launch();
const rows: string[] = [];
try {
  const res = await fetch(`${server.url}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config: { players: ['RED', 'BLUE'], base: 'base', expansions: ['inns-cathedrals'], deck: DECK, deck_only: true, seed: 3 }, seats: ['random', 'random'] }),
  });
  if (!res.ok) throw new Error(await res.text());
  const { id } = await res.json() as { id: string };
  // The bots play it to its end.
  for (let i = 0; i < 3000; i++) {
    const g = await (await fetch(`${server.url}/api/games/${id}`)).json() as { status: string };
    if (g.status === 'finished') break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  console.log(`game ${id}`);
  for (let run = 0; run <= RUNS; run++) {
    const pass = run === 0 ? 'cold' : 'warm';
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript('window.__name = (f) => f');
    // SCHEMATIC=1: the plain tiles, without the tile art (src/art.ts), to measure what the art costs.
    if (process.env.SCHEMATIC === '1') await page.addInitScript("localStorage.setItem('bastide.schematic', '1')");
    const trace = process.env.TRACE && run === 1 ? process.env.TRACE : null;
    if (trace) await browser.startTracing(page, { path: trace, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'] });
    // CLIENT_URL: a client served elsewhere (vite preview passing /api to BASTIDE_URL).
    await page.goto(`${process.env.CLIENT_URL ?? server.url}/watch/${id}`);
    // One evaluation that waits for the marks (polling from here would be
    // measured too: Playwright's polling runs in the page every frame):
    // the tiles' art painted, and the complete board (followers too) —
    // a client older than that mark gets 1.5 s, its art mark says both.
    const until = (name: string, ms: number): Promise<void> => page.evaluate(([n, limit]) => new Promise<void>((done) => {
      if (performance.getEntriesByName(n).length > 0) { done(); return; }
      const obs = new PerformanceObserver((list) => { if (list.getEntriesByName(n).length > 0) { obs.disconnect(); done(); } });
      obs.observe({ type: 'mark' });
      if (limit > 0) setTimeout(() => { obs.disconnect(); done(); }, limit);
    }), [name, ms] as const);
    await until('bastide:art-painted', 0);
    await until('bastide:complete-painted', 1500);
    // The first contentful paint is reported when the frame is presented,
    // which can be after the marks (two frames after the DOM change).
    await page.evaluate(() => new Promise<void>((done) => {
      const obs = new PerformanceObserver((list) => { if (list.getEntriesByName('first-contentful-paint').length > 0) { obs.disconnect(); done(); } });
      obs.observe({ type: 'paint', buffered: true });
      setTimeout(() => { obs.disconnect(); done(); }, 3000);
    }));
    if (trace) await browser.stopTracing();
    const t = await page.evaluate(() => {
      const at = (name: string): number => performance.getEntriesByName(name)[0]?.startTime ?? -1;
      const tiles = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => /\/api\/(tiles\/batch|games\/[0-9a-f]+\/tiles)/.test(r.name));
      const board = performance.getEntriesByName('bastide:art')[0] as PerformanceMark | undefined;
      return {
        pieces: Number(board?.detail ?? 0), fcp: at('first-contentful-paint'), script: at('bastide:script'), wsOpen: at('bastide:ws-open'), welcome: at('bastide:welcome'),
        tilesSent: tiles.length ? Math.min(...tiles.map((r) => r.requestStart)) : -1, tilesDone: tiles.length ? Math.max(...tiles.map((r) => r.responseEnd)) : -1,
        tilesKb: tiles.reduce((n, r) => n + r.encodedBodySize, 0) / 1024, requests: tiles.length,
        board: at('bastide:board'), painted: at('bastide:painted'), art: at('bastide:art'), artPainted: at('bastide:art-painted'),
        complete: at('bastide:complete-painted') >= 0 ? at('bastide:complete-painted') : at('bastide:art-painted'),
        nodes: document.getElementsByTagName('*').length,
      };
    });
    const zoom = await motion(page, 'zoom');
    await page.waitForTimeout(300);
    const pan = await motion(page, 'pan');
    const f = (x: number): string => (x < 0 ? '–' : x.toFixed(0));
    rows.push(`| ${pass} | ${t.pieces} | ${f(t.fcp)} | ${f(t.welcome)} | ${f(t.tilesSent)}–${f(t.tilesDone)} (${t.requests}, ${t.tilesKb.toFixed(0)} KiB) | ${f(t.board)} | ${f(t.artPainted)} | ${f(Math.max(t.artPainted, t.fcp))} | ${f(t.complete)} | ${f(t.welcome < 0 ? -1 : t.artPainted - t.welcome)} | ${zoom.fps.toFixed(1)} / ${zoom.worst.toFixed(0)} | ${pan.fps.toFixed(1)} / ${pan.worst.toFixed(0)} |`);
    console.log(pass, JSON.stringify(t), 'zoom', JSON.stringify(zoom), 'pan', JSON.stringify(pan));
    if (trace) summariseTrace(trace, t.artPainted);
    await context.close();
  }
  const table = `| visit | pieces | first contentful paint | welcome | tile requests (count, size) | board in DOM | board with art painted | board on screen | complete board painted | painted − welcome | zoom fps / worst frame | pan fps / worst frame |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
  console.log(table);
  if (process.env.OUT) writeFileSync(process.env.OUT, table);
} finally {
  await browser.close();
  await server.stop();
}

/**
 * Where the renderer's main thread spent its time from navigation to
 * `until` ms: busy time (its tasks), by the kind of work directly inside a
 * task (script, style, layout, paint, …), and the raster threads' total.
 */
function summariseTrace(file: string, until: number): void {
  interface Ev { name: string; ph: string; ts: number; dur?: number; tdur?: number; tid: number; pid: number }
  const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[] }).traceEvents.filter((e) => e.ph === 'X' && e.ts > 0);
  const nav = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Ev[] }).traceEvents.find((e) => e.name === 'navigationStart');
  const start = nav?.ts ?? Math.min(...events.map((e) => e.ts));
  const end = start + until * 1000;
  // The renderer's main thread: where the layouts happen.
  const count = new Map<string, number>();
  for (const e of events) if (e.name === 'Layout' || e.name === 'ParseHTML') count.set(`${e.pid}:${e.tid}`, (count.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const thread = [...count.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === thread && e.ts >= start && e.ts <= end).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  const stack: number[] = [];
  // Wall time (dur) and the thread's CPU time (tdur): on a loaded machine
  // the thread waits for a core inside its tasks, and only the CPU time says
  // what the work itself costs.
  const totals = new Map<string, number>();
  let busy = 0;
  let cpu = 0;
  for (const e of mine) {
    while (stack.length > 0 && (stack[stack.length - 1] ?? 0) <= e.ts) stack.pop();
    if (stack.length === 0) { busy += (e.dur ?? 0) / 1000; cpu += (e.tdur ?? 0) / 1000; }
    if (stack.length === 1) totals.set(e.name, (totals.get(e.name) ?? 0) + (e.tdur ?? 0) / 1000);
    stack.push(e.ts + (e.dur ?? 0));
  }
  const raster = events.filter((e) => e.name === 'RasterTask' && e.ts >= start && e.ts <= end).reduce((n, e) => n + (e.dur ?? 0) / 1000, 0);
  const top = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10);
  console.log(`trace, navigation to ${until.toFixed(0)} ms: main thread busy ${busy.toFixed(1)} ms of wall time, ${cpu.toFixed(1)} ms of CPU (CPU by kind: ${top.map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}); raster threads ${raster.toFixed(1)} ms of wall time`);
}
