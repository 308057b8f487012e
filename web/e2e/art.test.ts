// End-to-end: the tile art (index.html's #bastide-art) and its switch to
// the plain schematic tiles, kept across a reload; the art's own marks
// (src/art.ts): battlements on city walls, a pennant at each coat of arms.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import { createRaw, serverAndBrowser, startedGame, waitForStatus } from './harness';

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

test('city walls carry battlements and each coat of arms a pennant, with the art only', { timeout: 90_000 }, async () => {
  // Cities with coats of arms (C, F, M, Q, S) and without (E), played out by the bots.
  const deck = ['base/C', 'base/F', 'base/E', 'base/M', 'base/Q', 'base/S', 'base/E'];
  const { id } = await createRaw(env.server, JSON.stringify({ config: { players: ['RED', 'BLUE'], deck, deck_only: true, seed: 2 }, seats: ['greedy', 'greedy'] }));
  await waitForStatus(env.server, id, 'finished');
  const page = await env.browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(`${env.server.url}/watch/${id}`);
  await page.locator('svg.board[data-version] use.tile').first().waitFor();
  // Every tile drawing on the board: its walls, shields and the marks added to them.
  const count = (): Promise<{ wall: number; battlement: number; shield: number; banner: number; pole: number; shown: number }> => page.evaluate(() => {
    const used = new Set([...document.querySelectorAll('svg.board use.tile')].map((u) => (u.getAttribute('href') ?? '').slice(1)));
    const n = { wall: 0, battlement: 0, shield: 0, banner: 0, pole: 0, shown: 0 };
    for (const id of used) {
      const s = document.getElementById(id);
      if (!s) continue;
      n.wall += s.querySelectorAll('path.wall').length;
      n.battlement += s.querySelectorAll('path.battlement').length;
      n.shield += s.querySelectorAll('path.shield').length;
      n.banner += s.querySelectorAll('path.banner').length;
      n.pole += s.querySelectorAll('path.banner-pole').length;
      n.shown += [...s.querySelectorAll('.battlement, .banner, .banner-pole')].filter((e) => getComputedStyle(e).display !== 'none').length;
    }
    return n;
  });
  const art = await count();
  assert.ok(art.wall > 0 && art.shield >= 3, `the board has city walls and coats of arms: ${JSON.stringify(art)}`);
  assert.equal(art.battlement, art.wall, 'a battlement on every wall');
  assert.equal(art.banner, art.shield, 'a pennant at every coat of arms');
  assert.equal(art.pole, art.shield);
  assert.equal(art.shown, art.battlement + art.banner + art.pole, 'all shown with the art');
  if (process.env.BASTIDE_SCREENSHOTS === '1') {
    await page.mouse.move(1, 1);
    await page.locator('.boardwrap').screenshot({ path: resolve(import.meta.dirname, '../../docs/web-tile-art.png') });
  }
  const before = await page.locator('svg.board').screenshot();
  await page.locator('#schematic').click();
  await page.locator('#schematic[aria-pressed="true"]').waitFor();
  assert.equal((await count()).shown, 0, 'none with the schematic tiles');
  assert.notDeepEqual(await page.locator('svg.board').screenshot(), before);
  await page.locator('#schematic').click();
  await page.close();
});
