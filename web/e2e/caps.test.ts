// End-to-end: a guest at the cap on bot seats (12 games against a bot
// left unfinished from one address) is told how to go on, resigns one
// from the lobby's list of their games, and starts the next at once.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverAndBrowser, waitForStatus } from './harness';

const env = serverAndBrowser();

test('a guest who leaves bot games unfinished up to the cap resigns one from the list and plays on', { timeout: 180_000 }, async () => {
  const { server, browser } = env;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const started: string[] = [];
  // Game after game against a bot, each left after its first view, until the server refuses one.
  for (let i = 0; i < 20; i++) {
    await page.goto(`${server.url}/`);
    await page.click('#play-bot');
    const where = await Promise.race([
      page.waitForURL(/\/play\/[0-9a-f]+/).then(() => 'table'),
      page.locator('#quick-status', { hasText: /./ }).waitFor().then(() => 'refused'),
    ]);
    if (where === 'refused') break;
    started.push(/\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '');
    await page.locator('#status[data-status="playing"]').waitFor();
  }
  assert.equal(started.length, 12, 'the default cap: 12 bot seats');
  const said = await page.locator('#quick-status').innerText();
  assert.match(said, /resign or finish one of your games/, said);
  // Every one of them is in "Your games", each with resign.
  assert.equal(await page.locator('#my-games li').count(), 12);
  assert.equal(await page.locator('#your-count').innerText(), '12 games open or running:');
  const first = started[0] ?? '';
  await page.locator(`#my-games li[data-game="${first}"] .resign`).click();
  await waitForStatus(server, first, 'resigned');
  await page.locator(`#my-games li[data-game="${first}"]`).waitFor({ state: 'detached' });
  // The thirteenth starts.
  await page.click('#play-bot');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  await page.locator('#status[data-status="playing"]').waitFor();
  await page.close();
});
