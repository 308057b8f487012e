// End-to-end: the "How to play" cards of a game's sets, and the first
// turn's hint, shown once per browser.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverAndBrowser, startedGame } from './harness';

const env = serverAndBrowser();

test('"How to play" shows a card for the base game and each expansion; the first turn\'s hint shows until dismissed or the first tile is placed', { timeout: 90_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], expansions: ['plague'] }, ['human', 'greedy']);
  const context = await env.browser.newContext({ viewport: { width: 1200, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  await page.locator('#status[data-mine="true"]').waitFor();
  await page.locator('#first-hint').waitFor();
  assert.match(await page.locator('#first-hint').innerText(), /drag the tile onto a lit spot/i);
  await page.locator('#how-to-play').click();
  const dialog = page.locator('dialog#rules');
  await dialog.waitFor();
  assert.deepEqual(await dialog.locator('.rules-card').evaluateAll((cs) => cs.map((c) => (c as HTMLElement).dataset.set)), ['base', 'plague']);
  assert.equal(await dialog.locator('.rules-card[data-set="plague"] h3').innerText(), 'The Plague');
  assert.ok(await dialog.locator('.rules-card[data-set="plague"] li').count() >= 3);
  // R does not turn the tile behind the card; Esc closes it.
  const rotation = await page.locator('#current-tile').getAttribute('data-rotation');
  await page.keyboard.press('r');
  assert.equal(await page.locator('#current-tile').getAttribute('data-rotation'), rotation);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  // Not dismissed yet: the hint is there after a reload; "Got it" puts it away for good.
  await page.reload();
  await page.locator('#status[data-mine="true"]').waitFor();
  await page.locator('#first-hint').waitFor();
  await page.locator('#hint-ok').click();
  await page.locator('#first-hint').waitFor({ state: 'detached' });
  await page.reload();
  await page.locator('svg.board[data-version] .target').first().waitFor();
  assert.equal(await page.locator('#first-hint').count(), 0, 'the hint is shown once per browser');
  await context.close();

  // Another browser: placing the first tile is enough too.
  const other = await env.browser.newContext({ viewport: { width: 1200, height: 800 } });
  const p2 = await other.newPage();
  await p2.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  await p2.locator('svg.board[data-version] .target').first().waitFor();
  await p2.locator('#first-hint').waitFor();
  await p2.locator('.target').first().click();
  await p2.locator('#confirm').click();
  await p2.locator('#first-hint').waitFor({ state: 'detached' });
  assert.equal(await p2.evaluate(() => localStorage.getItem('bastide.hinted')), '1');
  await other.close();
});
