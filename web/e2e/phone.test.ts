// End-to-end: a phone (390×844, touch). The board is the main view, the
// panel under it folds away, and a whole game is played by tapping.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayScores, serverAndBrowser, startedGame } from './harness';
import { act, shownScores } from './table';

const env = serverAndBrowser();

const DECK = 'base/U base/E base/V base/K base/D base/B base/J base/L'.split(' ');

test('on a phone the board fills the screen\'s width and a game is played to the end by tapping', { timeout: 180_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], deck: DECK, deck_only: true }, ['human', 'greedy']);
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  await page.locator('#status[data-mine="true"]').waitFor();
  const board = async (): Promise<{ width: number; height: number }> => {
    const b = await page.locator('.board-view').boundingBox();
    assert.ok(b);
    return b;
  };
  const open = await board();
  assert.ok(open.width >= 300, `the board is ${open.width} px wide`);
  assert.ok(open.height >= 400, `the board is ${open.height} px high`);
  // Nothing runs off the screen sideways.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  // The panel folds away (the board takes its place) and back.
  await page.locator('#panel-toggle').tap();
  assert.equal(await page.locator('#side-panel').isVisible(), false);
  assert.equal(await page.locator('#panel-toggle').getAttribute('aria-expanded'), 'false');
  const folded = await board();
  assert.ok(folded.height > open.height + 100, `folded ${folded.height} px, open ${open.height} px`);
  await page.locator('#panel-toggle').tap();
  await page.locator('#side-panel').waitFor();

  let actions = 0;
  while (await act(page, { followers: true, touch: true })) actions++;
  assert.ok(actions >= 8, `the person acted ${actions} times`);
  await page.locator('#summary').waitFor();
  const text = await (await fetch(`${env.server.url}/api/games/${id}/record`)).text();
  assert.deepEqual(await shownScores(page), replayScores(env.server.dir, text));
  await context.close();
});
