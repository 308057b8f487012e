// End-to-end: the lobby as a person meets it. A game against a bot is one
// click away above the fold; the person's own games are listed in words
// (sets, clock, who sits where) with continue and resign; "play my seat"
// only where this browser holds one; and no text of the lobby shows a
// game's hex id or its version.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRaw, serverAndBrowser, startedGame, waitForStatus } from './harness';
import { status } from './table';

const env = serverAndBrowser();
const DECK = ['base/U', 'base/E', 'base/V', 'base/K'];

test('one click to a bot game; the lobby lists games in words, never by id', { timeout: 120_000 }, async () => {
  const { server, browser } = env;
  // Other people's games, one of each list: finished (bots), open (two people), in progress.
  const bots = await createRaw(server, JSON.stringify({ config: { players: ['RED', 'BLUE'], deck: DECK, deck_only: true }, seats: ['greedy', 'greedy'] }));
  const open = await createRaw(server, JSON.stringify({ config: { players: ['RED', 'BLUE'] }, seats: ['human', 'human'], clock: { initial_ms: 180_000, increment_ms: 5_000 } }));
  const other = await startedGame(server, { players: ['RED', 'BLUE'] }, ['human', 'greedy']);
  await waitForStatus(server, bots.id, 'finished');

  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  const button = page.locator('#play-bot');
  const box = await button.boundingBox();
  assert.ok(box && box.y + box.height <= 800, `"Play against a bot now" above the fold: ${JSON.stringify(box)}`);
  await button.click();
  await page.waitForURL(/\/play\/[0-9a-f]+#seat=0$/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  assert.equal((await status(page)).status, 'playing');

  await page.goto(`${server.url}/`);
  const mine = page.locator(`#my-games li[data-game="${id}"]`);
  await mine.waitFor();
  // A guest's own game says whose turn it is, as an account's does.
  assert.match(await mine.innerText(), /^Your turn: Base game · no clock — RED: you 0, BLUE: greedy bot 0 continue resign$/);
  assert.equal(await page.locator('#your-count').innerText(), '1 game open or running:');
  // The open game offers its seat, with its clock; nothing of it is in "Your games".
  const row = page.locator(`#open-games li[data-game="${open.id}"]`);
  assert.match(await row.innerText(), /^Base game · 3 min \+ 5 s a turn — RED: free, BLUE: free Take a seat$/);
  // "play my seat" only for the game this browser holds a seat of.
  await page.locator(`#playing-games li[data-game="${id}"] a`, { hasText: 'play my seat' }).waitFor();
  assert.equal(await page.locator(`#playing-games li[data-game="${other.id}"] a`, { hasText: 'play my seat' }).count(), 0);
  await page.locator(`#finished-games li[data-game="${bots.id}"]`).waitFor();

  // No text node shows an id (16 hex digits) or a version ("v60").
  const texts = await page.evaluate(() => {
    const out: string[] = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) out.push(n.textContent ?? '');
    return out;
  });
  const ids = texts.filter((t) => /[0-9a-f]{16}/i.test(t));
  assert.deepEqual(ids, [], 'no hex id on the page');
  assert.deepEqual(texts.filter((t) => /\bv\d+\b/.test(t)), [], 'no version on the page');

  // Resign from the list: the game ends and leaves "Your games".
  await mine.locator('.resign').click();
  await waitForStatus(server, id, 'resigned');
  await page.locator(`#my-games li[data-game="${id}"]`).waitFor({ state: 'detached' });
  await page.close();
});

test('a rule preset in the lobby: the Half-and-half draft is chosen, the game drafts', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  await page.click('#rules-draft');
  assert.match(await page.locator('#rules-about').innerText(), /^Half-and-half draft: /);
  assert.equal(await page.locator('input[name=rule][value=draft]').isChecked(), true);
  await page.fill('#followers', '9');
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  const g = await (await fetch(`${server.url}/api/games/${id}`)).json() as { config: { expansions: string[]; options: Record<string, unknown> } };
  assert.deepEqual(g.config.options, { draft: true, followers: 9 });
  assert.deepEqual(g.config.expansions, ['halfsies1', 'halfsies2']);
  // The table offers the halves to draft.
  await page.locator('#draft button').first().waitFor({ timeout: 20_000 });
  await page.close();
});

test('a private game is not offered to strangers, and its creator cancels it from the list', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const host = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const stranger = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const a = await host.newPage();
  await a.goto(`${server.url}/`);
  await a.selectOption('select[name=seat1]', 'human');
  await a.check('#private');
  await a.click('#create');
  await a.waitForURL(/\/play\/[0-9a-f]+#seat=0$/);
  const id = /\/play\/([0-9a-f]+)/.exec(a.url())?.[1] ?? '';
  const b = await stranger.newPage();
  await b.goto(`${server.url}/`);
  await b.locator('#game-lists h2', { hasText: 'Open games' }).waitFor();
  assert.equal(await b.locator(`.take-seat[data-game="${id}"]`).count(), 0, 'a private game is not offered');
  // Its creator sees it among their own games, not among the open ones.
  await a.goto(`${server.url}/`);
  await a.locator(`#my-games li[data-game="${id}"]`, { hasText: 'private' }).waitFor();
  assert.equal(await a.locator(`#open-games li[data-game="${id}"]`).count(), 0);
  // Its creator cancels it from the list: the game is gone.
  await a.locator(`#my-games li[data-game="${id}"] .cancel`).click();
  await a.locator(`#my-games li[data-game="${id}"]`).waitFor({ state: 'detached' });
  assert.equal((await fetch(`${server.url}/api/games/${id}`)).status, 404);
  await host.close();
  await stranger.close();
});

test('waiting rooms nobody joined are said as such in "Your games", and cancelled in one click', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const ids: string[] = [];
  for (let i = 0; i < 2; i++) {
    await page.goto(`${server.url}/`);
    await page.selectOption('select[name=seat1]', 'human');
    await page.click('#create');
    await page.waitForURL(/\/play\/[0-9a-f]+#seat=0$/);
    ids.push(/\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '');
  }
  await page.goto(`${server.url}/`);
  for (const id of ids) {
    const row = page.locator(`#my-games li[data-game="${id}"][data-unused="true"]`);
    await row.waitFor();
    assert.match(await row.innerText(), /open for (a moment|\d+ min), nobody has joined yet; it counts as one of your open games until you cancel it or it expires\.$/);
    assert.equal(await row.locator('.cancel').innerText(), 'cancel this waiting room');
  }
  assert.match(await page.locator('#unused-rooms').innerText(), /^2 waiting rooms nobody has joined\. Cancel all 2$/);
  await page.locator('#cancel-unused').click();
  for (const id of ids) await page.locator(`#my-games li[data-game="${id}"]`).waitFor({ state: 'detached' });
  for (const id of ids) assert.equal((await fetch(`${server.url}/api/games/${id}`)).status, 404);
  await context.close();
});

test('a signed-in player\'s games follow the account to another device, "Your turn" first', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const one = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await one.newPage();
  await page.goto(`${server.url}/`);
  await page.fill('#account-name', 'lobby_player');
  await page.fill('#account-password', 'a long password');
  await page.click('#sign-up');
  await page.locator('#sign-out').waitFor();
  await page.click('#play-bot');
  await page.waitForURL(/\/play\/[0-9a-f]+#seat=0$/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  // Another device: no seats kept in its browser, the same account.
  const other = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: { cookies: await one.cookies(), origins: [] } });
  const there = await other.newPage();
  await there.goto(`${server.url}/`);
  const row = there.locator(`#my-games li[data-game="${id}"]`);
  await row.waitFor();
  assert.equal(await row.getAttribute('data-your-turn'), 'true');
  assert.match(await row.innerText(), /^Your turn: Base game · no clock — RED: you 0, BLUE: greedy bot 0 continue$/);
  await one.close();
  await other.close();
});
