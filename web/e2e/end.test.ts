// End-to-end: the end of a game names the winner and the ranking, keeps
// zero-point events out of the score log, and starts the server's rematch
// from a button.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayScores, serverAndBrowser, startedGame } from './harness';
import { act, shownScores, status, waitForChange } from './table';

const env = serverAndBrowser();

const DECK = 'base/U base/E base/V base/K base/D base/B base/J base/L'.split(' ');

test('the end screen names the winner, and a rematch starts from it', { timeout: 180_000 }, async () => {
  const players = ['RED', 'BLUE'];
  const { id, token } = await startedGame(env.server, { players, deck: DECK, deck_only: true, seed: 1 }, ['human', 'greedy']);
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  // A follower on a field when one is offered: a field next to no
  // completed city scores nothing at the end (a zero-point event).
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
