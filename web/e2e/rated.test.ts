// End-to-end: a rated game between two people in two browsers. The
// creator gets only their own seat; the waiting room hands out the game's
// address as the invite; a guest opening it is told to sign in, a
// signed-in player takes the seat with "Take this seat"; both move, one
// resigns, and both tables show the rating change.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { act, status } from './table';
import { serverAndBrowser } from './harness';

const env = serverAndBrowser();

/** Signs `name` up in the lobby's player panel. */
async function signUp(page: Page, name: string): Promise<void> {
  await page.goto(`${env.server.url}/`);
  await page.fill('#account-name', name);
  await page.fill('#account-password', 'a long password');
  await page.click('#sign-up');
  await page.locator('#account h2', { hasText: `Signed in as ${name}` }).waitFor();
}

test('a private rated game: the invite is the address, a signed-in player takes the seat, a resignation moves both ratings', { timeout: 120_000 }, async () => {
  const { server, browser } = env;
  const host = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const guest = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const a = await host.newPage();
  await signUp(a, 'e2e_host');
  await a.selectOption('select[name=seat1]', 'human');
  await a.check('#private');
  await a.check('#rated');
  // The lobby must not ask for a start the server refuses (the other seat is free).
  const starts: number[] = [];
  a.on('response', (r) => { if (r.url().endsWith('/start')) starts.push(r.status()); });
  await a.click('#create');
  await a.waitForURL(/\/play\/[0-9a-f]+#seat=0$/);
  const id = /\/play\/([0-9a-f]+)/.exec(a.url())?.[1] ?? '';
  assert.ok(id);
  // The waiting room hands out the game's address, without a token, for the other seat.
  const address = `${server.url}/play/${id}`;
  await a.locator('#rated-invite', { hasText: address }).waitFor();
  await a.locator('.copy-invite[data-seat="1"]').waitFor();
  assert.equal(await a.locator('#take-seat').count(), 0, 'the creator is offered no second seat');
  assert.deepEqual(starts, []);

  // A guest opening the address is told to sign in.
  const b = await guest.newPage();
  await b.goto(address);
  await b.locator('#sign-in-to-sit').waitFor();
  assert.equal(await b.locator('#take-seat').count(), 0);
  // Signed in, the same address offers the seat; taking it starts the game.
  await signUp(b, 'e2e_guest');
  await b.goto(address);
  await b.click('#take-seat');
  await b.waitForURL(new RegExp(`/play/${id}#seat=1$`));
  await b.locator('#status[data-status="playing"]').waitFor();
  await a.locator('#status[data-status="playing"]').waitFor();

  // Both move (a rated game resigned before every seat moved is not rated).
  const moved = new Set<number>();
  for (let turn = 0; moved.size < 2; turn++) {
    assert.ok(turn < 20, 'both seats moved within 20 actions');
    const [sa, sb] = [await status(a), await status(b)];
    assert.equal(sa.status, 'playing');
    if (sa.mine) { await act(a, { followers: false }); moved.add(0); } else if (sb.mine) { await act(b, { followers: false }); moved.add(1); } else await a.waitForTimeout(100);
  }
  b.once('dialog', (d) => { void d.accept(); });
  await b.getByRole('button', { name: 'Resign' }).click();
  for (const p of [a, b]) {
    const line = p.locator('#rating-changes', { hasText: 'Ratings:' });
    await line.waitFor();
    const text = await line.innerText();
    assert.match(text, /e2e_host\): 1500 → \d+ \(\+\d+\.\d\)/);
    assert.match(text, /e2e_guest\): 1500 → \d+ \(−\d+\.\d\)/);
  }
  await host.close();
  await guest.close();
});
