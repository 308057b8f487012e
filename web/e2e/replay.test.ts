// End-to-end: the replay viewer replays a server game whose seed is above
// 2^53 (which a JavaScript number cannot hold), from the game's address and
// from an uploaded file, to the scores `bastide replay` computes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createRaw, replayScores, serverAndBrowser, waitForStatus, type Server } from './harness';
import { shownScores } from './table';

const SEED = '14276715017308306393';
let server: Server;
let browser: Browser;
let id = '';
let recordText = '';

serverAndBrowser(async (env) => {
  ({ server, browser } = env);
  // A whole base game between bots: the seed decides the draw order, so a
  // rounded seed replays another game (which breaks within a few actions).
  ({ id } = await createRaw(server, `{"config": {"players": ["RED", "BLUE", "GREEN"], "base": "base", "seed": ${SEED}}, "seats": ["random", "random", "random"]}`));
  await waitForStatus(server, id, 'finished');
  recordText = await (await fetch(`${server.url}/api/games/${id}/record`)).text();
  assert.ok(recordText.includes(`"seed": ${SEED}`), 'the server kept the seed');
  // The test's own guard: JavaScript's numbers do round this seed.
  assert.ok(!JSON.stringify(JSON.parse(recordText)).includes(SEED));
});

async function finalScores(page: Page): Promise<number[]> {
  await page.locator('#summary').waitFor({ timeout: 20_000 });
  return shownScores(page);
}

async function noError(page: Page): Promise<void> {
  const text = await page.locator('#replay-status').innerText();
  assert.ok(!/Cannot/.test(text), `the viewer shows: ${text}`);
}

test('the viewer replays a finished server game with a 64-bit seed to its scores', { timeout: 120_000 }, async () => {
  const expected = replayScores(server.dir, recordText);
  const actions = (JSON.parse(recordText) as { actions: unknown[] }).actions.length;
  assert.ok(actions > 100, `a whole game: ${actions} actions`);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/replay/${id}`);
  await page.locator('#replay-status', { hasText: `Action 0 of ${actions}` }).waitFor();
  // Step by step through the first actions (each a replay on the server), then to the end.
  for (let i = 1; i <= 5; i++) {
    await page.click('#forward');
    await page.locator('#replay-status', { hasText: `Action ${i} of` }).waitFor();
    await noError(page);
    // Each step in words, no coordinates.
    assert.doesNotMatch(await page.locator('#replay-status').innerText(), /\(-?\d+, -?\d+\)/);
  }
  await page.click('#last');
  assert.deepEqual(await finalScores(page), expected);
  await noError(page);
  await page.close();
});

test('an uploaded record file with a 64-bit seed replays to its scores', { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/replay`);
  await page.setInputFiles('input[type=file]', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(recordText) });
  await page.locator('#replay-status', { hasText: 'Action 0 of' }).waitFor();
  await page.keyboard.press('End');
  assert.deepEqual(await finalScores(page), replayScores(server.dir, recordText));
  await noError(page);
  await page.close();
});

test('a record that breaks a rule: the message names the rule and stays inside its panel', { timeout: 60_000 }, async () => {
  // The same game with another seed: its first placement does not fit the other draw.
  const other = recordText.replace(`"seed": ${SEED}`, '"seed": 14276715017308305000');
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/replay`);
  await page.setInputFiles('input[type=file]', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(other) });
  await page.locator('#replay-status', { hasText: 'Action 0 of' }).waitFor();
  await page.keyboard.press('End');
  const status = page.locator('#replay-status', { hasText: 'Cannot replay' });
  await status.waitFor();
  const text = await status.innerText();
  // The whole engine message: which action, and why it is illegal.
  assert.match(text, /action \d+ \(.*\) is illegal: \S+/s);
  assert.ok(!text.includes('…'), `not cut off: ${text}`);
  const box = await status.boundingBox();
  const panel = await page.locator('.side .panel').first().boundingBox();
  assert.ok(box && panel && box.x + box.width <= panel.x + panel.width + 1, 'the message wraps inside its panel');
  assert.ok(await status.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'nothing of it runs out sideways');
  await page.close();
});

test('the slider shows any action at once, Play steps by itself until Pause, and the replay is named by its players', { timeout: 120_000 }, async () => {
  const actions = (JSON.parse(recordText) as { actions: unknown[] }).actions.length;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/replay/${id}`);
  await page.locator('#replay-status', { hasText: `Action 0 of ${actions}` }).waitFor();
  assert.equal(await page.locator('h2', { hasText: 'Replay: RED vs BLUE vs GREEN · Base game' }).count(), 1, 'named by its players and sets, not its id');
  assert.equal(await page.locator('#replay-slider').getAttribute('max'), String(actions));
  // Dragged to action 40: shown at once, the board drawn at that version.
  await page.locator('#replay-slider').evaluate((el) => {
    (el as HTMLInputElement).value = '40';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.locator('#replay-status', { hasText: 'Action 40 of' }).waitFor();
  await page.locator('svg.board[data-version="40"]').waitFor();
  // Play: the actions come by themselves, the slider following; Pause stops them.
  await page.click('#autoplay');
  await page.locator('#replay-status', { hasText: 'Action 42 of' }).waitFor({ timeout: 10_000 });
  assert.equal(await page.locator('#replay-slider').inputValue(), '42');
  await page.click('#autoplay');
  assert.equal(await page.locator('#autoplay').getAttribute('aria-pressed'), 'false');
  // (A step asked for just before the pause may still arrive.)
  await page.waitForTimeout(500);
  const stopped = await page.locator('#replay-slider').inputValue();
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('#replay-slider').inputValue(), stopped, 'paused');
  // The page has its icon.
  assert.match(await page.locator('link[rel=icon]').getAttribute('href') ?? '', /^data:image\/svg\+xml,/);
  await page.close();
});
