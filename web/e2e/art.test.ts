// End-to-end: the tile art (index.html's #bastide-art) and its switch to
// the plain schematic tiles, kept across a reload.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverAndBrowser, startedGame } from './harness';

const env = serverAndBrowser();

test('the tiles are drawn with their art, "Schematic tiles" shows the plain ones and the choice survives a reload', { timeout: 90_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], base: 'winter', deck: ['winter/U', 'winter/E', 'winter/V'], deck_only: true }, ['human', 'greedy']);
  const page = await env.browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  await page.locator('#status[data-mine="true"]').waitFor();
  await page.locator('svg.board[data-version] use.tile').first().waitFor();
  // Five patterns, defined once for the whole board.
  assert.equal(await page.locator('svg.art-defs pattern').count(), 5);
  assert.equal(await page.evaluate(() => (document.getElementById('bastide-art') as HTMLStyleElement).media), '');
  // The tile to place is the board's drawing of it, with the art, not the server's plain image.
  await page.waitForFunction(() => document.querySelector('#current-tile')?.getAttribute('src')?.startsWith('data:image/svg+xml') === true);
  const inHand = await page.locator('#current-tile').getAttribute('src') ?? '';
  assert.match(decodeURIComponent(inHand), /url\(#art-snow\)/, 'the Winter tile in hand is drawn under snow');
  const tile = page.locator('svg.board use.tile').first();
  const art = await tile.screenshot();
  await page.locator('#schematic').click();
  await page.locator('#schematic[aria-pressed="true"]').waitFor();
  assert.equal(await page.evaluate(() => (document.getElementById('bastide-art') as HTMLStyleElement).media), 'not all');
  const plain = await tile.screenshot();
  await page.waitForFunction((before) => document.querySelector('#current-tile')?.getAttribute('src') !== before, inHand);
  assert.doesNotMatch(decodeURIComponent(await page.locator('#current-tile').getAttribute('src') ?? ''), /art-snow/, 'the tile in hand is schematic too');
  assert.notDeepEqual(plain, art, 'the schematic tile looks different');
  await page.reload();
  await page.locator('#schematic[aria-pressed="true"]').waitFor();
  assert.equal(await page.evaluate(() => (document.getElementById('bastide-art') as HTMLStyleElement).media), 'not all');
  await page.locator('#schematic').click();
  await page.locator('#schematic[aria-pressed="false"]').waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('bastide.schematic')), null);
  await page.close();
});
