// Real components for the end-to-end tests: a `bastide serve` on a
// loopback port over a temporary SQLite file, and Debian's Chromium driven
// by playwright-core (no browser download).

import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';

export const BIN = process.env.BASTIDE_BIN ?? resolve(import.meta.dirname, '../../target/debug/bastide');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

/**
 * A running server: `url` is what the browser opens and the tests fetch,
 * `api` the `bastide serve` itself. They are one address, except with
 * `BASTIDE_CLIENT=dist`: then `vite preview` serves this checkout's
 * `web/dist` at `url` and passes `/api` (and its WebSockets) to `api`, so
 * that the client is tested as built now, whatever client the binary
 * embeds (the server-drawn first page is then not there: the client draws
 * the board itself).
 */
export interface Server { url: string; api: string; dir: string; proc: ChildProcess; client: ChildProcess | null; stop(): Promise<void>; kill(): Promise<void> }

const WEB = resolve(import.meta.dirname, '..');

function exited(proc: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  proc.kill(signal);
  return new Promise((ok) => { proc.once('exit', () => ok()); setTimeout(ok, 3000); });
}

/** A free loopback port (asked of the system, then released). */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}

/** Waits for `pattern` on a process's output; its first group. */
function waitForLine(proc: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  let errors = '';
  proc.stderr?.on('data', (d: Buffer) => { errors += d.toString(); });
  return new Promise<string>((ok, fail) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${what} did not start: ${errors}`)), 20_000);
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = pattern.exec(out);
      if (m?.[1]) { clearTimeout(timer); ok(m[1]); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); fail(new Error(`${what} exited ${code}: ${errors}`)); });
  });
}

/** `vite preview` of `web/dist` in front of the server at `api`. */
async function startClient(api: string): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn(join(WEB, 'node_modules/.bin/vite'), ['preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], { cwd: WEB, env: { ...process.env, BASTIDE_URL: api }, stdio: ['ignore', 'pipe', 'pipe'] });
  // The address vite prints is coloured: wait for the port, then use the plain address.
  await waitForLine(proc, new RegExp(`(127\\.0\\.0\\.1:(?:\\x1b\\[[0-9;]*m)*${port})`), 'vite preview');
  return { url: `http://127.0.0.1:${port}`, proc };
}

/** Starts a server; `again` restarts one on the same address and database (and keeps its client). */
export async function startServer(again?: { dir: string; url: string; api?: string; client?: ChildProcess | null }): Promise<Server> {
  const dir = again?.dir ?? mkdtempSync(join(tmpdir(), 'bastide-e2e-'));
  const addr = again ? (again.api ?? again.url).replace('http://', '') : '127.0.0.1:0';
  const proc = spawn(BIN, ['serve', '--addr', addr, '--database', join(dir, 'games.db'), '--bot-move-ms', '2000'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const api = await waitForLine(proc, /listening on (http:\/\/[^/\s]+)\//, 'server');
  let client = again?.client ?? null;
  if (!client && process.env.BASTIDE_CLIENT === 'dist') {
    const c = await startClient(api);
    client = c.proc;
    again = { dir, url: c.url };
  }
  const url = client ? (again?.url ?? api) : api;
  const front = client;
  return {
    url, api, dir, proc, client,
    async stop() {
      await exited(proc, 'SIGINT');
      if (front) await exited(front, 'SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
    async kill() {
      await exited(proc, 'SIGKILL');
    },
  };
}

/** Chromium with a fresh profile: Playwright makes a new temporary one per launch (it refuses `--user-data-dir`). */
export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
}

/**
 * The final scores `bastide replay` computes from a record: its text as
 * the server sent it (lossless), or a parsed one (whose seed, if above
 * 2^53, JavaScript has rounded).
 */
export function replayScores(dir: string, record: unknown): number[] {
  const file = join(dir, `record-${Date.now()}.json`);
  writeFileSync(file, typeof record === 'string' ? record : JSON.stringify(record));
  const out = JSON.parse(execFileSync(BIN, ['replay', file, '--compact']).toString()) as { scores: number[]; finished: boolean };
  if (!out.finished) throw new Error('the record does not end the game');
  return out.scores;
}

/**
 * Two seconds of zoom (one wheel event per frame, in and out) or pan (one
 * arrow key per frame) on the board, timed by animation frames: frames per
 * second, the longest frame and the 95th percentile (ms).
 */
export async function motion(page: Page, kind: 'zoom' | 'pan'): Promise<{ fps: number; worst: number; p95: number }> {
  return page.evaluate(async (k) => {
    const view = document.querySelector('.board-view');
    if (!view) return { fps: 0, worst: 0, p95: 0 };
    const times: number[] = [];
    const t0 = performance.now();
    // Read once: a layout read per frame would be the measurement's own cost.
    const r = view.getBoundingClientRect();
    await new Promise<void>((done) => {
      const frame = (now: number): void => {
        times.push(now);
        const n = times.length;
        if (k === 'zoom') view.dispatchEvent(new WheelEvent('wheel', { deltaY: n % 60 < 30 ? -20 : 20, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true }));
        else document.dispatchEvent(new KeyboardEvent('keydown', { key: ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown'][Math.floor(n / 15) % 4], bubbles: true }));
        if (now - t0 < 2000) requestAnimationFrame(frame); else done();
      };
      requestAnimationFrame(frame);
    });
    const gaps = times.slice(1).map((x, i) => x - (times[i] ?? x)).sort((a, b) => a - b);
    return { fps: (times.length - 1) / (((times[times.length - 1] ?? t0) - (times[0] ?? t0)) / 1000), worst: gaps[gaps.length - 1] ?? 0, p95: gaps[Math.floor(gaps.length * 0.95)] ?? 0 };
  }, kind);
}

/** Creates a game with `POST /api/games` from the body's JSON text (a seed above 2^53 written as digits); its id and the seats' tokens. */
export async function createRaw(server: Server, body: string): Promise<{ id: string; tokens: (string | null)[] }> {
  const res = await fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`create: ${res.status} ${text}`);
  const created = JSON.parse(text) as { id: string; seats: { token?: string | null }[] };
  return { id: created.id, tokens: created.seats.map((s) => s.token ?? null) };
}

/** Waits until the game's status is `status` (bots play fast; at most `ms`). */
export async function waitForStatus(server: Server, id: string, status: string, ms = 60_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    const s = (await (await fetch(`${server.url}/api/games/${id}`)).json() as { status: string }).status;
    if (s === status) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`game ${id} did not become ${status} within ${ms} ms`);
}

/**
 * A server and a browser for one test file, started before its tests and
 * stopped after them (read `server` and `browser` inside the tests);
 * `setup` runs once both are up.
 */
export function serverAndBrowser(setup?: (env: { server: Server; browser: Browser }) => Promise<void>): { server: Server; browser: Browser } {
  const env = {} as { server: Server; browser: Browser };
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
    await setup?.(env);
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/** A game created over the API (a person in its first seat) and started with that seat's token. */
export async function startedGame(server: Server, config: object, seats: string[]): Promise<{ id: string; token: string }> {
  const { id, tokens } = await createRaw(server, JSON.stringify({ config, seats }));
  const token = tokens[0] ?? '';
  const res = await fetch(`${server.url}/api/games/${id}/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (!res.ok) throw new Error(`start: ${res.status} ${await res.text()}`);
  return { id, token };
}

/**
 * Two people at two tables: a game of `config` created over the API with
 * two human seats, RED's and BLUE's pages opened on it with their tokens
 * (1280×800, each in its own browser context). Both seats taken, the first
 * table starts the game.
 */
export async function twoTables(server: Server, browser: Browser, config: object): Promise<{ id: string; red: Page; blue: Page }> {
  const { id, tokens } = await createRaw(server, JSON.stringify({ config, seats: ['human', 'human'] }));
  const table = async (seat: number): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    await page.goto(`${server.url}/play/${id}#seat=${seat}&token=${tokens[seat] ?? ''}`);
    return page;
  };
  return { id, red: await table(0), blue: await table(1) };
}
