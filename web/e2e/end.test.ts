// End-to-end: the end of a game names the winner and the ranking, keeps
// zero-point events out of the score log, and starts the server's rematch
// from a button; the final scoring is shown one feature after another,
// the farms lit last, then the result (all at once with reduced motion).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { replayScores, serverAndBrowser, startedGame } from './harness';
import { act, shownScores, status, waitForChange } from './table';

const env = serverAndBrowser();

const DECK = 'base/U base/E base/V base/K base/D base/B base/J base/L'.split(' ');
const PLAYERS = ['RED', 'BLUE'];
// BASTIDE_SCREENSHOTS=1: the final scoring's farms lit are saved as docs/web-final-scoring.png (docs/web.md shows it).
const DOCS = resolve(import.meta.dirname, '../../docs');

/** Plays this seat through the board to the end: a follower on a field when one is offered (the bot has its own). */
async function playToEnd(page: Page): Promise<void> {
  for (;;) {
    const s = await status(page);
    if (s.status !== 'playing') break;
    // Only on this seat's turn is the version sure to be drawn: on the
    // bot's, a newer update may take over a drawing in progress.
    if (s.mine) await page.locator(`svg.board[data-version="${s.version}"]`).waitFor();
    const field = page.locator('.spot[data-feature="field"]');
    if (s.mine && await field.count() > 0) {
      await field.first().click();
      await waitForChange(page, s.version);
    } else {
      await act(page, { followers: false });
    }
  }
}

/** What the page showed of the final scoring, in order: each step's lit tiles and "+N" (board), its line in the panel, and the end panel. */
interface Shown { kind: 'cells' | 'gain' | 'line' | 'summary'; step: number; t: number; text: string; cells: number; scores: number[]; logged: number }

/** Starts recording the final scoring's drawings (a MutationObserver in the page); `shown` reads them back. */
async function recordFinale(page: Page): Promise<() => Promise<Shown[]>> {
  await page.evaluate(() => {
    const out: Shown[] = [];
    (window as unknown as { finale: Shown[] }).finale = out;
    new MutationObserver((records) => {
      const t = performance.now();
      // The seats' scores as this batch of changes left them.
      const scores = [...document.querySelectorAll('.players .score')].map((e) => Number(e.textContent));
      // The final scores the log lists by then.
      const logged = [...document.querySelectorAll('ol[aria-label="Scoring events"] li')].filter((e) => (e.textContent ?? '').startsWith('game end')).length;
      for (const r of records) for (const n of r.addedNodes) {
        if (!(n instanceof Element)) continue;
        for (const e of [n, ...n.querySelectorAll('[data-final-step], #summary')]) {
          if (e.id === 'summary') out.push({ kind: 'summary', step: -1, t, text: '', cells: 0, scores, logged });
          const step = e.getAttribute('data-final-step');
          if (step === null) continue;
          const kind = e.classList.contains('gain-cells') ? 'cells' : e.classList.contains('gain') ? 'gain' : 'line';
          out.push({ kind, step: Number(step), t, text: e.textContent ?? '', cells: e.querySelectorAll('.gain-cell').length, scores, logged });
        }
      }
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { finale: Shown[] }).finale);
}

/** The first time each step of a kind was shown, by step. */
function firstTimes(shown: Shown[], kind: Shown['kind']): Map<number, number> {
  const out = new Map<number, number>();
  for (const s of shown) if (s.kind === kind && !out.has(s.step)) out.set(s.step, s.t);
  return out;
}

test('the final scoring is shown one feature after another, the farms lit last, then the result', { timeout: 180_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: PLAYERS, deck: DECK, deck_only: true, seed: 1 }, ['human', 'greedy']);
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  const shown = await recordFinale(page);
  const shot = process.env.BASTIDE_SCREENSHOTS === '1'
    ? page.locator('#final-scoring li', { hasText: 'game end field' }).first().waitFor({ timeout: 120_000 })
      .then(async () => { await page.mouse.move(1, 1); await page.screenshot({ path: `${DOCS}/web-final-scoring.png` }); })
    : Promise.resolve();
  await playToEnd(page);
  await page.locator('#summary').waitFor();
  // The final board is seen plain: the steps' "+N" fade with the result.
  await page.waitForFunction(() => document.querySelectorAll('.layer-effects .gain').length === 0, undefined, { timeout: 1500 });
  await shot;
  const got = await shown();
  // What the server says the last move scored: one step per event with points.
  const view = await (await fetch(`${env.server.url}/api/games/${id}/view`)).json() as { events: { reason: string; feature?: string; points: number[] }[] };
  const end = view.events.filter((e) => e.reason === 'game end' && e.points.some((p) => p > 0));
  const fields = end.filter((e) => e.feature === 'field').length;
  assert.ok(end.length >= 2 && fields >= 1, `the game ends with farms and other features scoring: ${JSON.stringify(end)}`);
  const lines = got.filter((s) => s.kind === 'line');
  const steps = firstTimes(got, 'line');
  assert.equal(steps.size, end.length, `one step per scoring event: ${JSON.stringify(lines)}`);
  // In turn: each step's line, lit tiles and "+N" come after the one before, a visible while apart.
  const times = [...steps.keys()].sort((a, b) => a - b).map((k) => steps.get(k) ?? 0);
  for (let i = 1; i < times.length; i++) assert.ok((times[i] ?? 0) - (times[i - 1] ?? 0) >= 300, `step ${i} came after step ${i - 1}: ${times.join(', ')}`);
  // The log lists no final score before its step is shown.
  for (const k of steps.keys()) {
    const first = lines.find((l) => l.step === k);
    assert.ok(first && first.logged <= k + 1, `when step ${k} came the log listed ${first?.logged} final scores`);
  }
  const lit = firstTimes(got, 'cells');
  const gains = firstTimes(got, 'gain');
  for (const [k, t] of steps) {
    assert.ok(lit.has(k), `step ${k}'s tiles were lit`);
    assert.ok(gains.has(k), `step ${k}'s "+N" was shown`);
    assert.ok(Math.abs((lit.get(k) ?? 0) - t) < 300, `step ${k}: its tiles lit with its line`);
  }
  // The farms last, each with its tiles lit; then the result.
  const order = [...steps.keys()].sort((a, b) => a - b).map((k) => lines.find((l) => l.step === k)?.text ?? '');
  assert.ok(order.slice(-fields).every((l) => l.startsWith('game end field')), `the farms come last: ${order.join(' | ')}`);
  for (let k = end.length - fields; k < end.length; k++) assert.ok((got.find((s) => s.kind === 'cells' && s.step === k)?.cells ?? 0) >= 1, `farm step ${k}'s tiles lit`);
  const result = got.find((s) => s.kind === 'summary');
  assert.ok(result && result.t >= Math.max(...times) + 300, `the result comes after the last step (${result?.t} vs ${times.join(', ')})`);
  // The seats' scores climb with the steps, to the record's final scores.
  const final = replayScores(env.server.dir, await (await fetch(`${env.server.url}/api/games/${id}/record`)).text());
  const scoresAt = (k: number): number[] => lines.find((l) => l.step === k)?.scores ?? [];
  assert.notDeepEqual(scoresAt(0), final, 'not yet final at the first step');
  assert.deepEqual(scoresAt(end.length - 1), final, 'final at the last step');
  await page.close();
});

test('with reduced motion the final scoring is shown all at once, the result with it', { timeout: 180_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: PLAYERS, deck: DECK, deck_only: true, seed: 1 }, ['human', 'greedy']);
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  const shown = await recordFinale(page);
  await playToEnd(page);
  await page.locator('#summary').waitFor();
  const got = await shown();
  const cells = [...firstTimes(got, 'cells').values()];
  assert.ok(cells.length >= 2, `the features' tiles were lit: ${JSON.stringify(got)}`);
  const first = Math.min(...cells);
  assert.ok(Math.max(...cells) - first < 200, `all lit at once: ${cells.join(', ')}`);
  const result = got.find((s) => s.kind === 'summary');
  assert.ok(result && result.t - first < 500, `the result at once (${result?.t} vs ${first})`);
  // Still lit with the result, nothing moving.
  assert.ok(await page.locator('.gain-cells[data-final-step]').count() >= 2);
  assert.equal(await page.locator('.gain-cell').evaluateAll((es) => es.filter((e) => getComputedStyle(e).animationName !== 'none').length), 0, 'no animation');
  await page.close();
});

test('the end screen names the winner, and a rematch starts from it', { timeout: 180_000 }, async () => {
  const players = PLAYERS;
  const { id, token } = await startedGame(env.server, { players, deck: DECK, deck_only: true, seed: 1 }, ['human', 'greedy']);
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  // A follower on a field when one is offered: a field next to no
  // completed city scores nothing at the end (a zero-point event).
  await playToEnd(page);
  await page.locator('#summary').waitFor();
  const text = await (await fetch(`${env.server.url}/api/games/${id}/record`)).text();
  const scores = replayScores(env.server.dir, text);
  assert.deepEqual(await shownScores(page), scores);
  // The ranking line: the winner (or the shared win) and everyone's place.
  const ranking = await page.locator('#ranking').innerText();
  const best = Math.max(...scores);
  const winners = players.filter((_, i) => scores[i] === best);
  assert.ok(ranking.startsWith(winners.length === 1 ? `${winners[0]} wins with ${best} point` : `${winners.join(' and ')} share the win with ${best} point`), ranking);
  for (const [i, p] of players.entries()) assert.ok(ranking.includes(`${p} ${scores[i]}`), ranking);
  // The score log lists exactly the events that scored.
  const view = await (await fetch(`${env.server.url}/api/games/${id}/view`)).json() as { events: { points: number[] }[] };
  const scored = view.events.filter((e) => e.points.some((p) => p !== 0)).length;
  assert.ok(scored < view.events.length, `the game has zero-point events to leave out: ${view.events.length - scored}`);
  assert.equal(await page.locator('ol[aria-label="Scoring events"] li').count(), scored);
  for (const li of await page.locator('ol[aria-label="Scoring events"] li').allInnerTexts()) assert.match(li, /\+\d+/, li);

  // Rematch: a new game with the seats turned by one, this person now seat 1, started at once (alone with the bot).
  await page.click('#rematch');
  await page.waitForURL((u) => /^\/play\/[0-9a-f]+$/.test(u.pathname) && !u.pathname.endsWith(id));
  assert.equal(new URL(page.url()).hash, '#seat=1');
  const next = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  await page.locator('#status[data-status="playing"]').waitFor();
  const game = await (await fetch(`${env.server.url}/api/games/${next}`)).json() as { players: string[]; status: string };
  assert.deepEqual(game.players, ['BLUE', 'RED']);
  assert.equal(await page.locator('.players li', { hasText: 'RED (you)' }).count(), 1);
  // And it is played like any game: the bot opens, then this seat acts.
  assert.ok(await act(page, { followers: false }));
  assert.ok((await status(page)).version >= 1);
  await page.close();
});
