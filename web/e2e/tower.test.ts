// End-to-end: a short game of The Tower between two people by clicks (each
// page acts on its own turns, every action a click on the board or a
// button — never the list of legal actions): RED closes a city (+4); BLUE
// lays a tower tile (its foundation drawn); RED puts a monk on a tower
// monastery; BLUE puts a floor on the first foundation (lit on the board,
// not on the tile just placed), its reach drawn, and captures RED's monk (ringed) — BLUE's
// seat holds it; RED pays the ransom at BLUE's seat (−3 / +3); BLUE puts a
// follower on top of the tower. The final scores are the record's.
//
// The fixed deck (deck_only): the start tile at (0, 0) (city north, road
// west–east, field south); tower/B at (0, 1), tower/C at (1, 1), and three
// monasteries of the base game along row 1.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { replayScores, serverAndBrowser, twoTables } from './harness';
import { placeAt, shownScores, status, turnOf, waitForChange } from './table';

const env = serverAndBrowser();
// BASTIDE_SCREENSHOTS=1: the capture step and the end saved as docs/web-tower-capture.png and docs/web-tower.png (docs/web.md shows them).
const DOCS = resolve(import.meta.dirname, '../../docs');
const shots = process.env.BASTIDE_SCREENSHOTS === '1';

/** Clicks the one element of `selector` on this page's turn, then waits for the move. */
async function click(page: Page, selector: string): Promise<void> {
  const version = await turnOf(page);
  assert.equal(await page.locator(selector).count(), 1, `one ${selector}`);
  await page.locator(selector).click();
  await waitForChange(page, version);
}

test('The Tower: a floor anywhere on the board, a capture, the prisoner at the seat, the ransom and a follower on top, by clicks', { timeout: 240_000 }, async () => {
  const { server, browser } = env;
  const deck = ['base/E', 'tower/B', 'tower/C', 'base/B', 'base/B', 'base/B'];
  const config = { players: ['RED', 'BLUE'], expansions: ['tower'], deck, deck_only: true, seed: 5 };
  const { id, red, blue } = await twoTables(server, browser, config);
  await turnOf(red);
  // Each seat starts with 10 floors (two players).
  assert.equal(await red.locator('.players li[data-seat="1"] .tower-seat').getAttribute('data-floors'), '10');

  // RED closes the start tile's city: +4.
  await placeAt(red, 0, -1, 180);
  await click(red, '.spot[data-feature="city"]');
  // BLUE lays a tower tile: its foundation is drawn, and lit for a floor; BLUE passes.
  await placeAt(blue, 0, 1, 0);
  await blue.locator('.tok-tower[data-x="0"][data-y="1"][data-height="0"]').waitFor();
  assert.equal(await blue.locator('.mark-tower-at[data-x="0"][data-y="1"]').count(), 1);
  await blue.locator('#tower-floors').waitFor();
  await click(blue, '#pass');
  // RED lays the tower monastery and puts a monk on it.
  await placeAt(red, 1, 1, 0);
  await click(red, '.spot[data-feature="monastery"]');
  // BLUE lays a monastery elsewhere; both foundations are lit; BLUE raises the first (not the tile just placed).
  await placeAt(blue, -1, 1, 0);
  assert.equal(await blue.locator('.mark-tower-at').count(), 2);
  await click(blue, '.mark-tower-at[data-x="0"][data-y="1"]');
  // The capture step: RED's monk in reach is ringed; a click captures it.
  await blue.locator('#capture-step').waitFor();
  await blue.locator('.tok-tower[data-x="0"][data-y="1"][data-height="1"]').waitFor();
  // The reach of the height-1 tower is drawn: its own tile and the tiles one step along its row and column.
  const reach = await blue.locator('.mark-reach').evaluateAll((els) => els.map((e) => `${e.getAttribute('data-x') ?? ''},${e.getAttribute('data-y') ?? ''}`).sort());
  assert.deepEqual(reach, ['-1,1', '0,0', '0,1', '1,1']);
  if (shots) { await blue.mouse.move(1, 1); await blue.screenshot({ path: `${DOCS}/web-tower-capture.png` }); }
  await click(blue, '.mark-capture[data-x="1"][data-y="1"]');
  assert.equal(await blue.locator('.mark-reach').count(), 0, 'the reach is drawn only in the capture step');
  await red.locator('.players li[data-seat="1"] .tower-seat[data-prisoners="1"]').waitFor();
  assert.match(await red.locator('.players li[data-seat="1"] .tower-seat').innerText(), /9 floors, holds RED's follower/);
  await red.locator('.log li', { hasText: /BLUE captures RED's follower/ }).waitFor();

  // RED lays a tile, then pays the ransom at BLUE's seat: 4 − 3 for RED, 3 for BLUE; the step goes on.
  await placeAt(red, 2, 1, 0);
  await click(red, '.players li[data-seat="1"] button.ransom');
  await red.locator('.players li[data-seat="1"] .tower-seat[data-prisoners="0"]').waitFor();
  const seatScores = await red.locator('.players li .score').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-score'))));
  assert.deepEqual(seatScores, [1, 3]);
  await red.locator('.log li', { hasText: /RED pays BLUE 3 points/ }).waitFor();
  await click(red, '#pass');
  // BLUE puts a follower on top of the open tower: a spot above it; the tower is drawn closed with BLUE's follower on it.
  await placeAt(blue, -2, 1, 0);
  await click(blue, '.spot[data-place="tower"]');
  await red.locator('.tok-tower[data-x="0"][data-y="1"][data-top="1"]').waitFor();
  await red.locator('use.fig-tower-top').waitFor();
  if (shots) { await red.mouse.move(1, 1); await red.screenshot({ path: `${DOCS}/web-tower.png` }); }

  // The game is over: the scores are the record's.
  await red.locator('#summary').waitFor();
  const text = await (await fetch(`${server.url}/api/games/${id}/record`)).text();
  const scores = replayScores(server.dir, text);
  assert.deepEqual(scores, [1, 3]);
  assert.deepEqual(await shownScores(red), scores);
  assert.deepEqual(await shownScores(blue), scores);
  const actions = (JSON.parse(text) as { actions: Record<string, unknown>[] }).actions.map((a) => JSON.stringify(a));
  assert.ok(actions.includes('{"tower":{"x":0,"y":1}}'), 'the floor was placed');
  assert.ok(actions.includes('{"capture":{"x":1,"y":1,"place":"C","seat":0}}'), 'the monk was captured');
  assert.ok(actions.includes('{"ransom":{"seat":1}}'), 'the ransom was paid');
  assert.ok(actions.includes('{"follower":{"x":0,"y":1,"place":"tower"}}'), 'the follower went on top');
  assert.equal((await status(red)).status, 'finished');
});
