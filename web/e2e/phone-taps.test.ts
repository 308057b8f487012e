// End-to-end: fifteen turns on a phone (390×844, touch), every choice made
// by a tap on a target at least 32 CSS px each way: the lit cells, the
// previewed tile (a tap turns it), Confirm, the follower spots (zoomed in
// on when the board is drawn small) and Pass. The tile to place is in
// view on every turn, and the words name taps, not keys.

import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { serverAndBrowser, startedGame } from './harness';
import { myTurn, waitForChange } from './table';

const env = serverAndBrowser();
const MIN = 32;

// BASTIDE_SCREENSHOTS=1: the phone's table saved as docs/web-phone-*.png (docs/web.md shows them).
const DOCS = resolve(import.meta.dirname, '../../docs');
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.BASTIDE_SCREENSHOTS !== '1') return;
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.screenshot({ path: `${DOCS}/web-phone-${name}.png` });
}

/** Taps `l` after checking it is at least MIN px each way and inside the screen; its size. */
async function tap(page: Page, l: Locator, what: string, sizes: number[]): Promise<void> {
  await l.scrollIntoViewIfNeeded();
  const b = await l.boundingBox();
  assert.ok(b, `${what} is on the page`);
  assert.ok(b.width >= MIN && b.height >= MIN, `${what} is ${b.width.toFixed(1)}×${b.height.toFixed(1)} px (at least ${MIN})`);
  const vp = page.viewportSize();
  assert.ok(vp && b.x + b.width / 2 > 0 && b.x + b.width / 2 < vp.width && b.y + b.height / 2 > 0 && b.y + b.height / 2 < vp.height, `${what} is on the screen`);
  sizes.push(Math.min(b.width, b.height));
  await l.tap();
}

/** The lit cells whose middle is inside the board's viewport (a finger can reach them without panning). */
async function reachable(page: Page): Promise<Locator> {
  const view = await page.locator('.board-view').boundingBox();
  assert.ok(view);
  const boxes = await page.locator('.target').evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().toJSON() as { x: number; y: number; width: number; height: number }));
  const i = boxes.findIndex((b) => b.x + b.width / 2 > view.x && b.x + b.width / 2 < view.x + view.width && b.y + b.height / 2 > view.y && b.y + b.height / 2 < view.y + view.height);
  assert.ok(i >= 0, 'a lit cell is in view');
  return page.locator('.target').nth(i);
}

test('fifteen turns on a phone, each choice a tap on a target of at least 32 px', { timeout: 300_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], seed: 11 }, ['human', 'greedy']);
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  assert.ok(await page.evaluate(() => matchMedia('(pointer: coarse)').matches), 'the phone has a coarse pointer');
  const sizes: number[] = [];
  let turns = 0;
  let spots = 0;
  let turned = 0;
  while (turns < 15) {
    const mine = await myTurn(page);
    assert.ok(mine, 'the game is still on');
    await page.locator('.target').first().waitFor();
    // The tile to place is in view, and the words are a finger's.
    const tile = await page.locator('#current-tile').boundingBox();
    assert.ok(tile && tile.y >= 0 && tile.y + tile.height <= 844, `turn ${turns}: the tile to place is in view (${JSON.stringify(tile)})`);
    assert.equal(await page.locator('#rotate').innerText(), 'Turn');
    const text = await page.locator('body').innerText();
    assert.ok(!/\(R\)|with R\b|\(Enter\)|\(Esc\)/.test(text), `turn ${turns}: no key named on a phone`);
    await tap(page, await reachable(page), `turn ${turns}: the lit cell`, sizes);
    await page.locator('.preview').waitFor();
    if (turns === 6) await shot(page, 'preview');
    // A tap on the previewed tile turns it (where it fits another way), and keeps it there.
    const r0 = await page.locator('#current-tile').getAttribute('data-rotation');
    await tap(page, page.locator('.preview'), `turn ${turns}: the previewed tile`, sizes);
    await page.waitForTimeout(100);
    assert.equal(await page.locator('.preview').count(), 1, 'the preview stays after a tap');
    if (await page.locator('#current-tile').getAttribute('data-rotation') !== r0) turned++;
    await tap(page, page.locator('#confirm'), `turn ${turns}: Confirm`, sizes);
    const version = mine.version;
    await page.waitForFunction((v) => Number(document.querySelector('#status')?.getAttribute('data-version')) > v || document.querySelector('#pass, .spot') !== null, version);
    await page.locator('#pass, .spot').first().waitFor();
    const at = Number(await page.locator('#status').getAttribute('data-version'));
    if (turns % 2 === 0 && await page.locator('.spot').count() > 0) {
      const spot = page.locator('.spot').first();
      // The board zooms in on the spots for a finger (after its frame).
      await page.waitForTimeout(100);
      if (spots === 2) await shot(page, 'spots');
      await tap(page, spot, `turn ${turns}: a follower spot`, sizes);
      spots++;
    } else {
      await tap(page, page.locator('#pass'), `turn ${turns}: Pass`, sizes);
    }
    await waitForChange(page, at);
    turns++;
  }
  assert.ok(spots >= 3, `followers were placed by tapping spots (${spots})`);
  assert.ok(turned >= 1, `a tap on the preview turned it (${turned} times)`);
  console.log(`phone: ${sizes.length} taps, smallest target ${Math.min(...sizes).toFixed(1)} px`);
  await context.close();
});
