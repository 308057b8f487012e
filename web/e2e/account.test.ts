// End-to-end: sign up in the lobby's player panel, play a rated game
// against a bot to the end by clicking, and see the rating change.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { act } from './table';
import { launch, startServer, type Server } from './harness';

let server: Server;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

const DECK = 'base/U base/E base/V base/K base/D base/B base/J base/L';

test('sign up, play a rated game against a bot to the end, see the rating move', { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  await page.fill('#account-name', 'e2e_player');
  await page.fill('#account-password', 'a long password');
  await page.click('#sign-up');
  await page.locator('#account h2', { hasText: 'Signed in as e2e_player' }).waitFor();
  await page.locator('#account', { hasText: 'No rated games yet.' }).waitFor();
  // A rated game on a fixed deck against the default greedy bot.
  await page.fill('#deck', DECK);
  await page.check('#deck-only');
  await page.check('#rated');
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1];
  assert.ok(id);
  while (await act(page, { followers: true })) { /* play on */ }
  await page.locator('#summary').waitFor();
  // The player's rating and history in the lobby.
  await page.goto(`${server.url}/`);
  await page.locator('#my-ratings', { hasText: /Two players: \d+ ± \d+ \(1 games/ }).waitFor();
  const entry = page.locator('#my-history li', { hasText: id });
  await entry.waitFor();
  assert.match(await entry.innerText(), /\((\+|−)\d+\.\d\)/);
  const profile = await (await fetch(`${server.url}/api/players/e2e_player`)).json() as { ratings: { duel: { games: number; rating: number } } };
  assert.equal(profile.ratings.duel.games, 1);
  assert.notEqual(profile.ratings.duel.rating, 1500);
  // Signing out shows the form again.
  await page.click('#sign-out');
  await page.locator('#sign-in').waitFor();
});
