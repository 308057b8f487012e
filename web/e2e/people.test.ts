// End-to-end: two people play each other with every clock the lobby
// offers. The first creates the game in the lobby (a small fixed deck),
// the second takes the other seat from the lobby's list of open games in
// another browser context (a seat of their own, its token kept in that
// browser), and both
// see the game playing with its clocks. One game is played to the end
// through a server restart; the shortest turn limit runs into a timeout
// (that game waits while the others are played, so the run stays short).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { TIME_CONTROLS } from '../src/clock';
import { replayScores, serverAndBrowser, startServer } from './harness';
import { act, playBoth, shownScores, status } from './table';

const env = serverAndBrowser();
const DECK = 'base/U base/E base/V base/K base/D base/B';

interface Meeting { id: string; a: Page; b: Page; contexts: BrowserContext[] }

/** Creates a game for two people with time control `clock` in the lobby; a second context takes the other seat. */
async function meet(clock: string): Promise<Meeting> {
  const origin = env.server.url;
  const ctxA = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const ctxB = await env.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const a = await ctxA.newPage();
  await a.goto(`${origin}/`);
  await a.fill('#deck', DECK);
  await a.check('#deck-only');
  await a.selectOption('select[name=seat1]', 'human');
  await a.selectOption('#time-control', clock);
  await a.click('#create');
  await a.waitForURL(/\/play\/[0-9a-f]+#seat=0$/);
  const id = /\/play\/([0-9a-f]+)/.exec(a.url())?.[1] ?? '';
  await a.locator('#waiting').waitFor();
  // The second person finds the game in the lobby's open games and takes its seat.
  const b = await ctxB.newPage();
  await b.goto(`${origin}/`);
  await b.locator(`.take-seat[data-game="${id}"]`).click();
  await b.waitForURL(new RegExp(`/play/${id}#seat=1$`));
  for (const p of [a, b]) await p.locator('#status[data-status="playing"]').waitFor({ timeout: 20_000 });
  return { id, a, b, contexts: [ctxA, ctxB] };
}

/** Both tables show a clock for the seat to act, running (a timed game), or none at all (untimed). */
async function clocksShown(m: Meeting, timed: boolean): Promise<void> {
  for (const p of [m.a, m.b]) {
    if (!timed) {
      assert.equal(await p.locator('.clock').count(), 0, 'an untimed game shows no clock');
      continue;
    }
    const running = p.locator('.clock.clock-running[data-seat="0"]');
    await running.waitFor();
    assert.ok(Number(await running.getAttribute('data-ms')) > 0, 'time left on the running clock');
  }
}

async function close(m: Meeting): Promise<void> {
  for (const c of m.contexts) await c.close();
}

// The shortest turn limit the lobby offers: its game is created first and
// left to run out of time while the others are played.
const shortest = TIME_CONTROLS.filter((t) => t.clock && typeof t.clock.turn_ms === 'number')
  .sort((x, y) => Number(x.clock?.turn_ms) - Number(y.clock?.turn_ms))[0];
let waiting: { m: Meeting; started: number } | null = null;

test(`the shortest turn limit (${shortest?.label ?? 'none'}): a game between people starts with its clock`, { timeout: 60_000 }, async () => {
  assert.ok(shortest, 'the lobby offers a turn limit');
  const m = await meet(shortest.id);
  await clocksShown(m, true);
  waiting = { m, started: Date.now() };
});

for (const t of TIME_CONTROLS.filter((x) => x !== shortest)) {
  test(`${t.label}: a game between two people created in the lobby starts for both, clocks shown`, { timeout: 60_000 }, async () => {
    const m = await meet(t.id);
    await clocksShown(m, t.clock !== null);
    // One move, each table following it.
    const before = (await status(m.b)).version;
    assert.ok(await act(m.a, { followers: false }));
    await m.b.waitForFunction((v) => Number(document.querySelector('#status')?.getAttribute('data-version')) > v, before);
    await close(m);
  });
}

test('a timed game between people is played to the end through a server restart', { timeout: 180_000 }, async () => {
  const timed = TIME_CONTROLS.find((t) => t.clock !== null && typeof t.clock.initial_ms === 'number');
  assert.ok(timed, 'the lobby offers a game clock');
  const m = await meet(timed.id);
  await clocksShown(m, true);
  // A few actions, each by the seat to act: a turn each at least.
  for (let i = 0; i < 4; i++) {
    const page = (await status(m.a)).mine ? m.a : m.b;
    await page.waitForFunction(() => document.querySelector('#status')?.getAttribute('data-mine') === 'true');
    assert.ok(await act(page, { followers: true }));
  }
  const at = (await status(m.a)).version;
  // The server stops and comes back on the same database; both tables reconnect by themselves.
  await env.server.kill();
  env.server = await startServer(env.server);
  for (const p of [m.a, m.b]) {
    await p.waitForFunction((v) => {
      const s = document.querySelector('#status');
      return s !== null && Number(s.getAttribute('data-version')) >= v && !(s.textContent ?? '').includes('reconnecting');
    }, at, { timeout: 30_000 });
  }
  await clocksShown(m, true);
  await playBoth(m.a, m.b);
  const text = await (await fetch(`${env.server.url}/api/games/${m.id}/record`)).text();
  const expected = replayScores(env.server.dir, text);
  assert.deepEqual(await shownScores(m.a), expected);
  assert.deepEqual(await shownScores(m.b), expected);
  await close(m);
});

test(`the shortest turn limit (${shortest?.label ?? 'none'}) runs out: the seat to act loses`, { timeout: 120_000 }, async () => {
  assert.ok(waiting, 'the game of the first test');
  const { m, started } = waiting;
  const turn = Number(shortest?.clock?.turn_ms ?? 0);
  for (const p of [m.a, m.b]) await p.locator('#timeout', { hasText: 'RED ran out of time.' }).waitFor({ timeout: turn + 30_000 });
  assert.ok(Date.now() - started >= turn - 2000, 'not before its time');
  assert.equal((await status(m.a)).status, 'resigned');
  assert.equal((await status(m.b)).status, 'resigned');
  const g = await (await fetch(`${env.server.url}/api/games/${m.id}`)).json() as { status: string; resigned: number | null };
  assert.deepEqual([g.status, g.resigned], ['resigned', 0]);
  await close(m);
});
