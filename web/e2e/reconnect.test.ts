// End-to-end: the server stopped between a click and its answer. The
// page reconnects by itself to the restarted server, which offers the
// seat its moves again; the action that was never received is sent once
// more, and the game goes on to the end without a reload.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launch, replayScores, startServer, startedGame, type Server } from './harness';
import { act, shownScores, status, turnOf, waitForChange } from './table';

let browser: Browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const DECK = 'base/U base/E base/V base/K base/D base/B base/J base/L'.split(' ');

test('a Pass clicked while the server is down is sent again after the restart, and the game goes on', { timeout: 120_000 }, async () => {
  const first = await startServer();
  let second: Server | null = null;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    const { id, token } = await startedGame(first, { players: ['RED', 'BLUE'], deck: DECK, deck_only: true }, ['human', 'greedy']);
    await page.goto(`${first.url}/play/${id}#seat=0&token=${token}`);
    // The first tile placed: the follower step, where Pass is offered.
    // (The seat's turn is waited for: the page may show the table before
    // the server's state says whose move it is.)
    const v0 = await turnOf(page);
    await page.locator('.target').first().click();
    await page.click('#confirm');
    await waitForChange(page, v0);
    const v = (await status(page)).version;
    await page.locator('#pass').waitFor();

    await first.kill();
    // Into a socket that is closed, or closing: the server never reads it.
    await page.click('#pass');
    await page.locator('#status', { hasText: 'reconnecting' }).waitFor();
    // Said plainly: the move is waiting, never "RED to play" to RED; a banner over the board says the server is away.
    assert.match(await page.locator('#status').innerText(), /^Your move is waiting to be sent/);
    await page.locator('#connection-banner', { hasText: 'Your move is waiting to be sent' }).waitFor();
    second = await startServer(first);
    // No click: the page reconnects and sends the Pass again.
    await page.waitForFunction((at) => Number(document.querySelector('#status')?.getAttribute('data-version')) > at, v, { timeout: 30_000 });
    assert.equal(await page.locator('[role=alert]').count(), 0, 'no error shown');
    await page.locator('#connection-banner').waitFor({ state: 'hidden' });
    const log = await (await fetch(`${second.url}/api/games/${id}/record`)).json() as { actions: unknown[] };
    assert.deepEqual(log.actions[v], { pass: {} }, 'the Pass was committed once, as the next action');
    assert.notDeepEqual(log.actions[v + 1], { pass: {} }, 'and not twice');
    // The moves come back on the seat's next turn, and the game is played out.
    while (await act(page, { followers: true })) { /* to the end, without a reload */ }
    await page.locator('#summary').waitFor();
    const text = await (await fetch(`${second.url}/api/games/${id}/record`)).text();
    assert.deepEqual(await shownScores(page), replayScores(second.dir, text));
  } finally {
    await page.close();
    if (second) await second.stop(); else await first.stop();
  }
});
