// End-to-end: a whole game of Traders & Builders with River II played
// through the board by clicks, two people at two tables (each page acts
// on its own turns, every action a click on the board, a tile picture or
// a button — never the list of legal actions): a follower on a road, the
// builder chosen in the Figure panel and put on that road, the builder's
// second tile taken from the table and placed, the pig put beside the
// farmer, a city with wine finished (the goods at the seat), the pig herd
// on River II's tile labelled; the final scores are the record's.
//
// The fixed deck (deck_only) and the places make the game: the spring at
// (0, 0); RED's road runs north–south at x = -1, BLUE's at x = 2, the wine
// city at x = 3.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { replayScores, serverAndBrowser, twoTables } from './harness';
import { placeAt, shownScores, status, turnOf, waitForChange } from './table';

const env = serverAndBrowser();
// BASTIDE_SCREENSHOTS=1: the second tile offered and the end saved as docs/web-traders-builders-second-tile.png and docs/web-whole-traders-builders.png (docs/web.md shows them).
const DOCS = resolve(import.meta.dirname, '../../docs');
const shots = process.env.BASTIDE_SCREENSHOTS === '1';

/** The lit spots of `selector`, west to east (their centres' x). */
async function spotsWestToEast(page: Page, selector: string): Promise<{ cx: number; i: number }[]> {
  const cxs = await page.locator(selector).evaluateAll((els) => els.map((e) => Number(e.getAttribute('cx'))));
  return cxs.map((cx, i) => ({ cx, i })).sort((a, b) => a.cx - b.cx);
}

/** Clicks a lit spot of `selector` (the westmost with `west`), then waits for the move. */
async function spot(page: Page, selector: string, west = false): Promise<void> {
  const version = await turnOf(page);
  const spots = await spotsWestToEast(page, selector);
  assert.ok(spots.length > 0, `a lit spot ${selector}`);
  await page.locator(selector).nth((west ? spots[0] : spots[spots.length - 1])?.i ?? 0).click();
  await waitForChange(page, version);
}

async function pass(page: Page): Promise<void> {
  const version = await turnOf(page);
  await page.locator('#pass').click();
  await waitForChange(page, version);
}

/** Chooses a figure in the Figure panel (a click); its spots are then the ones lit. */
async function figure(page: Page, name: 'builder' | 'pig'): Promise<void> {
  await turnOf(page);
  await page.locator(`#figure-${name}`).click();
  await page.locator(`#figure-${name}[aria-pressed="true"]`).waitFor();
  await page.locator(`.spot-${name}`).first().waitFor();
}

test('Traders & Builders with River II: a whole game through the board, builder, second tile, pig, goods and the pig herd', { timeout: 240_000 }, async () => {
  const { server, browser } = env;
  const deck = ['river2/F', 'base/U', 'base/U', 'base/U', 'base/U', 'traders-builders/O', 'base/U', 'base/U', 'base/E', 'base/E'];
  const config = { players: ['RED', 'BLUE'], expansions: ['river2', 'traders-builders'], deck, deck_only: true, seed: 5 };
  const { id, red, blue } = await twoTables(server, browser, config);
  // Both seats taken: the first person's table starts the game.
  await turnOf(red);

  // RED lays the pig herd's river tile; with Traders & Builders the herd is labelled on the board.
  await placeAt(red, 1, 0, 0);
  await red.locator('.tok-herd').waitFor();
  assert.match((await red.locator('.tok-herd').getAttribute('aria-label')) ?? '', /pig herd/);
  await pass(red);
  await placeAt(blue, 2, 0, 90);
  await pass(blue);
  // RED's follower on the road west of the spring.
  await placeAt(red, -1, 0, 90);
  await spot(red, '.spot[data-feature="road"]');
  await placeAt(blue, 2, 1, 90);
  await pass(blue);
  // RED extends the road and chooses the builder in the Figure panel: its spot on the road.
  await placeAt(red, -1, -1, 90);
  assert.equal(await red.locator('#figure-builder').count(), 1, 'the builder is offered');
  await figure(red, 'builder');
  await spot(red, '.spot-builder');
  assert.match((await red.locator('.players li[data-seat="0"] .specials').innerText()), /builder on the board, pig in the supply/);
  await red.locator('use.fig-builder').waitFor();
  await placeAt(blue, 3, 0, 90);
  await pass(blue);
  // RED extends the builder's road again: a farmer west of it, then the second tile is offered on the table.
  await placeAt(red, -1, 1, 90);
  await spot(red, '.spot[data-feature="field"]', true);
  await red.locator('#double-turn').waitFor();
  assert.match(await red.locator('#double-turn').innerText(), /take a second tile/);
  assert.equal(await red.locator('#legal-list[open]').count(), 0);
  if (shots) { await red.mouse.move(1, 1); await red.screenshot({ path: `${DOCS}/web-traders-builders-second-tile.png` }); }
  const v = await turnOf(red);
  await red.locator('#second-tile').click();
  await waitForChange(red, v);
  // The second part: the tile goes on the road again, the pig beside the farmer.
  await placeAt(red, -1, 2, 90);
  await figure(red, 'pig');
  await spot(red, '.spot-pig', true);
  await red.locator('use.fig-pig').waitFor();
  await placeAt(blue, 3, -1, 180);
  await pass(blue);
  // RED finishes the city with wine: a wine token at RED's seat.
  await placeAt(red, 3, 1, 0);
  await pass(red);
  await red.locator('.players li[data-seat="0"] .goods[data-goods="1,0,0"]').waitFor();
  assert.match(await red.locator('.players li[data-seat="0"] .goods').innerText(), /wine 1/);

  // The game is over: the scores are the record's.
  await red.locator('#summary').waitFor();
  await blue.locator('#summary').waitFor();
  const text = await (await fetch(`${server.url}/api/games/${id}/record`)).text();
  const scores = replayScores(server.dir, text);
  assert.deepEqual(await shownScores(red), scores);
  assert.deepEqual(await shownScores(blue), scores);
  const actions = (JSON.parse(text) as { actions: Record<string, unknown>[] }).actions.map((a) => JSON.stringify(a));
  assert.ok(actions.some((a) => a.includes('"figure":"builder"')), 'the builder was placed');
  assert.ok(actions.some((a) => a.includes('"figure":"pig"')), 'the pig was placed');
  assert.ok(actions.includes('{"draw":{}}'), 'the second tile was taken');
  // The wine majority is in the log by its kind.
  await red.locator('.log li', { hasText: /most wine: RED \+10/ }).waitFor();
  if (shots) { await red.mouse.move(1, 1); await red.screenshot({ path: `${DOCS}/web-whole-traders-builders.png` }); }
  assert.equal((await status(red)).status, 'finished');
});
