// End-to-end: a calm table. Nothing moves under the pointer: pointing
// across the board leaves the Pass button where it is, turning the tile
// leaves the camera where it is, and a previewed placement turns in place
// (by R or a click on it) instead of being dropped.

import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { serverAndBrowser, startedGame } from './harness';
import { act, myTurn } from './table';

const env = serverAndBrowser();

// BASTIDE_SCREENSHOTS=1: the moments below are saved as docs/web-table-*.png (docs/web.md shows them).
const DOCS = resolve(import.meta.dirname, '../../docs');
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.BASTIDE_SCREENSHOTS !== '1') return;
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.screenshot({ path: `${DOCS}/web-table-${name}.png` });
}

const DECK = 'base/U base/E base/V base/K base/D base/B base/J base/L base/U base/E base/V base/K'.split(' ');

/** Where the board shows its first tile on the screen, after the frame that moves the camera. */
function camera(page: Page): Promise<string> {
  return page.evaluate(() => new Promise<string>((done) => {
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const r = document.querySelector('.layer-tiles use.tile')?.getBoundingClientRect();
      done(r ? [r.x, r.y, r.width, r.height].map((v) => v.toFixed(1)).join(' ') : 'none');
    }));
  }));
}

/** The lit cells of the tile as it is turned now. */
function litCells(page: Page): Promise<string[]> {
  return page.locator('.target').evaluateAll((rs) => rs.map((r) => `${r.getAttribute('data-x')},${r.getAttribute('data-y')}`));
}

test('pointing across the board moves no button, turning the tile moves no camera, and a preview turns in place', { timeout: 120_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], deck: DECK, deck_only: true }, ['human', 'greedy']);
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  let turnedInPlace = false;
  let pointed = 0;
  for (let turn = 0; turn < 4; turn++) {
    const mine = await myTurn(page);
    if (!mine) break;
    await page.locator('.target').first().waitFor();
    // Each rotation's lit cells, the camera the same for all of them.
    const before = await camera(page);
    const cells = new Map<string, number>();
    for (let r = 0; r < 4; r++) {
      for (const c of await litCells(page)) cells.set(c, (cells.get(c) ?? 0) + 1);
      assert.equal(await camera(page), before, `turn ${turn}: the camera stayed still while the tile turned (rotation ${r})`);
      await page.keyboard.press('r');
    }
    // A cell where the tile fits turned two ways, if there is one: preview it, then turn it there.
    const twice = [...cells].find(([, n]) => n >= 2)?.[0];
    const target = twice ? page.locator(`.target[data-x="${twice.split(',')[0]}"][data-y="${twice.split(',')[1]}"]`) : page.locator('.target').first();
    while (twice && await target.count() === 0) await page.keyboard.press('r');
    await target.first().click();
    await page.locator('.preview').waitFor();
    const cell = await page.locator('.preview').getAttribute('data-cell');
    if (twice) {
      const r0 = await page.locator('#current-tile').getAttribute('data-rotation');
      await page.locator('.preview').click();
      await page.locator(`#current-tile:not([data-rotation="${r0}"])`).waitFor();
      assert.equal(await page.locator('.preview').getAttribute('data-cell'), cell, 'a click on the preview turns it where it lies');
      const r1 = await page.locator('#current-tile').getAttribute('data-rotation');
      await page.keyboard.press('r');
      await page.locator(`#current-tile:not([data-rotation="${r1}"])`).waitFor();
      assert.equal(await page.locator('.preview').getAttribute('data-cell'), cell, 'R turns the preview where it lies');
      assert.equal(await page.locator('#confirm').count(), 1, 'the placement still waits for Confirm');
      if (!turnedInPlace) await shot(page, 'preview');
      turnedInPlace = true;
    }
    await page.click('#confirm');
    // The follower step: Pass stays where it is while the pointer crosses the board.
    const pass = page.locator('#pass');
    await pass.waitFor();
    await page.mouse.move(1, 1);
    await page.waitForTimeout(200);
    const box = await pass.boundingBox();
    assert.ok(box);
    const view = await page.locator('.board-view').boundingBox();
    assert.ok(view);
    for (let i = 0; i <= 24; i++) {
      await page.mouse.move(view.x + view.width * (0.2 + 0.6 * (i / 24)), view.y + view.height * (0.3 + 0.4 * ((i % 5) / 4)), { steps: 2 });
      await page.waitForTimeout(130);
      if ((await page.locator('#feature-info').textContent() ?? '').includes('worth')) pointed++;
      assert.deepEqual(await pass.boundingBox(), box, `the Pass button did not move while the pointer crossed the board (step ${i})`);
      if (turn === 3 && i === 12) await shot(page, 'hover');
    }
    await pass.click();
  }
  assert.ok(turnedInPlace, 'some turn had a cell where the tile fits two ways');
  assert.ok(pointed > 0, 'the pointer was over a feature and its facts were shown');
  await page.close();
});

/** Every text on the page (text nodes, the tab's title, labels read aloud), with where it is. */
function texts(page: Page): Promise<{ text: string; where: string }[]> {
  return page.evaluate(() => {
    const out: { text: string; where: string }[] = [{ text: document.title, where: 'title' }];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if (el && el.closest('script, style, defs, symbol')) continue;
      out.push({ text: n.textContent ?? '', where: el?.id || el?.className.toString() || el?.tagName || '' });
    }
    for (const el of document.querySelectorAll('[aria-label], [title], img[alt]')) {
      for (const a of ['aria-label', 'title', 'alt']) { const v = el.getAttribute(a); if (v) out.push({ text: v, where: `${el.tagName}[${a}]` }); }
    }
    return out;
  });
}

test('the table shows no game id and its log no coordinates, from the first turn to the end', { timeout: 120_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], deck: DECK.slice(0, 8), deck_only: true }, ['human', 'greedy']);
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  const check = async (when: string): Promise<void> => {
    for (const t of await texts(page)) {
      assert.ok(!/[0-9a-f]{16}/i.test(t.text), `${when}: ${t.where} shows an id: "${t.text}"`);
    }
    const log = await page.locator('.log li').allInnerTexts();
    for (const line of log) assert.ok(!/\(-?\d+, -?\d+\)/.test(line), `${when}: the log names a cell: "${line}"`);
  };
  await myTurn(page);
  await check('the first turn');
  assert.match(await page.locator('#game-name').innerText(), /^RED vs BLUE · Base game$/);
  for (let turn = 0; await act(page, { followers: turn % 2 === 0 }); turn++) if (turn === 3) await check('the fourth turn');
  await page.locator('#summary').waitFor();
  await check('the end');
  await page.close();
});
