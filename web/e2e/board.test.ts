// End-to-end: the expansion actions played on the board only — fleas and
// flights of the Plague, trades of Map Chips — against a bot, never a
// click in the list of legal actions.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { createRaw, serverAndBrowser, startedGame } from './harness';
import { act, myTurn, status, waitForChange } from './table';

const env = serverAndBrowser();

// BASTIDE_SCREENSHOTS=1: the moments below are saved as docs/web-board-*.png (docs/web.md shows them).
const DOCS = resolve(import.meta.dirname, '../../docs');
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.BASTIDE_SCREENSHOTS !== '1') return;
  // The pictures in the panel have loaded, the pointer is off the board.
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.screenshot({ path: `${DOCS}/web-board-${name}.png` });
}

/** Places a tile by its lit cell (the one `prefer` likes best, else the first) and confirms. */
async function place(page: Page, prefer?: (x: number, y: number) => boolean): Promise<void> {
  const cells = await page.locator('.target').evaluateAll((rs) => rs.map((r) => [Number(r.getAttribute('data-x')), Number(r.getAttribute('data-y'))]));
  const i = prefer ? Math.max(0, cells.findIndex(([x, y]) => prefer(x ?? 0, y ?? 0))) : 0;
  await page.locator('.target').nth(i).click();
  await page.locator('.preview').waitFor();
  await page.click('#confirm');
}

/** Whether the list of legal actions was ever opened (it must not be: the board is the way). */
async function listUnused(page: Page): Promise<void> {
  assert.equal(await page.locator('#legal-list[open]').count(), 0, 'the list of legal actions stayed closed');
}


const hexToRgb = (hex: string): string => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test('Plague: fleas spread and followers flee by clicking the board, tokens in colours no seat uses', { timeout: 90_000 }, async () => {
  const { server, browser } = env;
  // The plague breaks out at once (the first tile is a source); a seeded game, played until a flight was made.
  const deck = ['plague/A', 'base/U', 'base/E', 'base/V', 'base/K', 'base/B', 'base/D', 'base/J', 'base/L'];
  const { id, token } = await startedGame(server, { players: ['RED', 'BLUE'], expansions: ['plague'], deck, seed: 3 }, ['human', 'greedy']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  let spread = 0;
  let fled = 0;
  let cancelled = false;
  for (let guard = 0; guard < 150 && (fled === 0 || spread < 2); guard++) {
    const turn = await myTurn(page);
    if (!turn) break;
    const v = turn.version;
    if (fled === 0 && await page.locator('.mark-flee-from').count() > 0) {
      const from = page.locator('.mark-flee-from').first();
      const place = await from.getAttribute('data-place');
      await from.click();
      // Only the chosen follower and its destinations are lit now.
      await page.locator('.mark-flee-from.selected').waitFor();
      assert.equal(await page.locator('.mark-flee-from').count(), 1);
      assert.equal(await page.locator('.mark-flea-to, .target, .spot').count(), 0, 'nothing else is lit while a flight is half made');
      assert.ok(await page.locator('.mark-flee-to').count() >= 1);
      if (!cancelled) {
        // A click elsewhere on the board cancels.
        const box = await page.locator('.board-view').boundingBox();
        assert.ok(box);
        await page.mouse.click(box.x + 5, box.y + 5);
        await page.locator('.mark-flee-from.selected').waitFor({ state: 'detached' });
        assert.equal(await page.locator('.mark-flee-to').count(), 0);
        cancelled = true;
        await page.locator(`.mark-flee-from[data-place="${place}"]`).first().click();
        await shot(page, 'flight');
      }
      // The keyboard is taken on to the first destination.
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('mark-flee-to') ?? false), true);
      const to = page.locator('.mark-flee-to').first();
      assert.match((await to.getAttribute('aria-label')) ?? '', /^Flee to /);
      await to.click();
      await waitForChange(page, v);
      fled++;
    } else if (await page.locator('.mark-flea-to').count() > 0) {
      if (spread === 1) await shot(page, 'fleas');
      const tile = page.locator('.mark-flea-to').first();
      assert.match((await tile.getAttribute('aria-label')) ?? '', /^Spread a flea to the (start tile|tile just placed|tile with|tile \(|[a-z-]+ half of)(?!.*\(-?\d+, -?\d+\))/);
      await tile.click();
      // Several fleas able to move there: they are lit, one click moves one.
      if (await page.locator('.mark-flea-from').count() > 0) await page.locator('.mark-flea-from').first().click();
      await waitForChange(page, v);
      spread++;
    } else if (await page.locator('.target').count() > 0) {
      await place(page);
      await waitForChange(page, v);
    } else if (await page.locator('.spot').count() > 0) {
      // A field reaches far: a follower there is the likeliest to be able to flee.
      const fields = page.locator('.spot[data-feature="field"]');
      await (await fields.count() > 0 ? fields : page.locator('.spot')).first().click();
      await waitForChange(page, v);
    } else {
      await page.click('#pass');
      await waitForChange(page, v);
    }
  }
  assert.ok(spread >= 1, `fleas spread by clicking a tile: ${spread}`);
  assert.ok(fled >= 1, `followers fled by clicking the board: ${fled}`);
  assert.ok(cancelled, 'a half-made flight was cancelled by a click elsewhere');
  assert.ok(await page.locator('.moves li', { hasText: /^RED: Spread a flea to / }).count() >= 1);
  assert.ok(await page.locator('.moves li', { hasText: /^RED: Flee from / }).count() >= 1);
  await listUnused(page);
  // The tokens: outbreaks (diamonds) and fleas in colours of no seat, with a legend.
  assert.ok(await page.locator('use.tok-outbreak').count() >= 1);
  assert.equal(await page.locator('.board-legend .legend-item').count(), 4);
  const fills = await page.locator('.board-legend svg > :first-child').evaluateAll((els) => els.map((e) => getComputedStyle(e).fill));
  const seats = ['#D55E00', '#009E73', '#0072B2', '#E69F00', '#CC79A7', '#56B4E9'].map(hexToRgb);
  for (const f of fills) assert.ok(!seats.includes(f), `token colour ${f} is no seat's`);
  assert.equal(new Set(fills).size, 4, `active and eradicated outbreaks, active and latent fleas all differ: ${fills.join(' ')}`);
  await page.close();
});

test('Map Chips: a trade chosen at its Chumak square by clicking the square and a chip button', { timeout: 90_000 }, async () => {
  const { server, browser } = env;
  const { id, token } = await startedGame(server, { players: ['RED', 'BLUE'], expansions: ['map-chips'], map: 'ukraine', seed: 7 }, ['human', 'greedy']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  await page.locator('.chumak-sq').first().waitFor();
  const squares = await page.locator('.chumak-sq').evaluateAll((rs) => rs.map((r) => [Number(r.getAttribute('data-x')), Number(r.getAttribute('data-y'))]));
  const nextToSquare = (x: number, y: number): boolean => squares.some(([cx, cy]) => Math.abs((cx ?? 0) - x) + Math.abs((cy ?? 0) - y) === 1);
  let traded = 0;
  for (let guard = 0; guard < 60 && traded === 0; guard++) {
    const turn = await myTurn(page);
    if (!turn) break;
    const v = turn.version;
    if (await page.locator('.mark-trade-at').count() > 0) {
      const square = page.locator('.mark-trade-at').first();
      assert.match((await square.getAttribute('aria-label')) ?? '', /^Trade chips on the Chumak square /);
      await square.click();
      // The chips are offered at the square, by colour.
      const popover = page.locator('.chip-popover');
      await popover.waitFor();
      const chip = popover.locator('.chip-btn').first();
      const colour = await chip.getAttribute('data-colour');
      assert.ok(colour && ['purple', 'blue', 'orange'].includes(colour));
      const [pb, sb] = [await popover.boundingBox(), await square.boundingBox()];
      assert.ok(pb && sb && Math.abs(pb.x + pb.width / 2 - (sb.x + sb.width / 2)) < 4 && Math.abs(pb.y + pb.height - sb.y) < 8, 'the popover stands on the square');
      // Closing and opening again.
      await shot(page, 'trade');
      await popover.locator('.chip-close').click();
      await popover.waitFor({ state: 'detached' });
      await page.locator('.mark-trade-at').first().click();
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('chip-btn') ?? false), true, 'the keyboard is on the first chip button');
      await page.locator('.chip-popover .chip-btn').first().click();
      await waitForChange(page, v);
      traded++;
      assert.ok(await page.locator('.moves li', { hasText: new RegExp(`^RED: Trade ${colour} `) }).count() === 1);
    } else if (await page.locator('.target').count() > 0) {
      await place(page, nextToSquare);
      await waitForChange(page, v);
    } else {
      await page.click('#pass');
      await waitForChange(page, v);
    }
  }
  assert.equal(traded, 1, 'a trade was made on the board');
  assert.equal(await page.locator('.chip-popover').count(), 0, 'the popover is gone once the trade is sent');
  await listUnused(page);
  await page.close();
});

test('Half-and-half: halves in hand are pictures, chosen, turned and dragged onto the board; own halves shown between turns, the other hand counted', { timeout: 90_000 }, async () => {
  const { server, browser } = env;
  // Two people's seats, the second played by a second page (a bot would answer before the first page could look).
  const { id, tokens } = await createRaw(server, JSON.stringify({ config: { players: ['RED', 'BLUE'], expansions: ['halfsies1'], seed: 5 }, seats: ['human', 'human'] }));
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${tokens[0] ?? ''}`);
  await other.goto(`${server.url}/play/${id}#seat=1&token=${tokens[1] ?? ''}`);
  await page.locator('#status[data-status="playing"]').waitFor();
  // The other seat's hand is a count in the seat panel.
  await page.locator('.players li[data-seat="1"] .hand-count').waitFor();
  assert.match(await page.locator('.players li[data-seat="1"] .hand-count').innerText(), /\d+ half|halves/);
  assert.match((await page.locator('.players li[data-seat="1"]').getAttribute('aria-label')) ?? '', /\d+ hal(f|ves)/);
  let dropped = 0;
  let seenWaiting = false;
  for (let guard = 0; guard < 200 && (dropped < 2 || !seenWaiting); guard++) {
    const s = await status(page);
    if (s.status !== 'playing') break;
    if (!s.mine) {
      const o = await status(other);
      if (!o.mine) { await page.waitForTimeout(50); continue; }
      await page.locator(`#status[data-version="${o.version}"]`).waitFor();
      // While the other plays, one's own halves are still shown (not offered).
      if (await page.locator('.hand button[data-tile^="halfsies1/"]').count() > 0) {
        assert.equal(await page.locator('.hand button[data-tile^="halfsies1/"]:not([disabled])').count(), 0);
        assert.equal(await page.locator('.hand button img').first().getAttribute('alt'), '', 'the button names the half, its picture adds nothing to read');
        if (!seenWaiting) await shot(page, 'halves-waiting');
        seenWaiting = true;
      }
      await act(other, { followers: false, preferHalf: true });
      continue;
    }
    await page.locator(`svg.board[data-version="${s.version}"]`).waitFor();
    const halves = page.locator('.hand button[data-tile^="halfsies1/"]:not([disabled])');
    if (await halves.count() > 0 && await page.locator('.target').count() > 0) {
      const half = halves.first();
      const name = (await half.getAttribute('data-tile')) ?? '';
      assert.match((await half.getAttribute('aria-label')) ?? '', /^half tile [A-Z] of Half-and-half 1/);
      await half.click();
      await page.locator(`#current-tile[data-tile="${name}"]`).waitFor();
      if (dropped === 0) await shot(page, 'halves');
      assert.match(await page.locator('#tile-line').innerText(), /^Half tile [A-Z] of Half-and-half 1( with [a-z ,]+)?, .*: fits in \d+ places?$/);
      // Turned by clicking its picture: another rotation with places to go.
      const before = await page.locator('#current-tile').getAttribute('data-rotation');
      await page.click('#current-tile');
      if (await page.locator('.target').count() > 1) assert.notEqual(await page.locator('#current-tile').getAttribute('data-rotation'), before);
      await page.locator('.target').first().waitFor();
      // Dropped: dragged onto a lit cell, then confirmed.
      await page.locator('#current-tile').dragTo(page.locator('.target').first());
      await page.locator(`.preview[data-tile="${name}"]`).waitFor();
      await page.click('#confirm');
      await waitForChange(page, s.version);
      dropped++;
    } else if (await page.locator('.target').count() > 0) {
      await place(page);
      await waitForChange(page, s.version);
    } else if (await page.locator('#pass').count() > 0) {
      await page.click('#pass');
      await waitForChange(page, s.version);
    } else {
      // Half-and-half's choice to draw instead of playing a half: the face-down pile beside the hand.
      await page.locator('#draw-pile').click();
      await waitForChange(page, s.version);
    }
  }
  assert.ok(dropped >= 2, `halves dragged onto the board: ${dropped}`);
  assert.ok(seenWaiting, 'own halves were shown while the bot played');
  assert.ok(await page.locator('use[data-tile^="halfsies1/"]').count() >= 2);
  await listUnused(page);
  await page.close();
  await other.close();
});

test('the list of legal actions: closed at first, in words, kept open across moves, and a flea spread from it by keyboard', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const deck = ['plague/A', 'base/U', 'base/E', 'base/V', 'base/K'];
  const { id, token } = await startedGame(server, { players: ['RED', 'BLUE'], expansions: ['plague'], deck, seed: 3 }, ['human', 'greedy']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  await myTurn(page);
  await listUnused(page);
  // Opened from the keyboard; every entry in words (no tile ids, degrees or place codes).
  await page.locator('#legal-list summary').focus();
  await page.keyboard.press('Enter');
  await page.locator('#legal-list[open]').waitFor();
  const texts = await page.locator('#legal-list .actions button').allInnerTexts();
  assert.ok(texts.length > 0);
  for (const t of texts) assert.doesNotMatch(t, /[a-z0-9]+\/[A-Z]|°|\b[NESWCH]{1,3}[12]? of \(/, t);
  assert.match(texts[0] ?? '', /^Place tile A of the Plague (north|east|south|west) of the start tile, /);
  for (const t of texts) assert.doesNotMatch(t, /\(-?\d+, -?\d+\)/, 'no coordinates');
  let spread = false;
  for (let guard = 0; guard < 30 && !spread; guard++) {
    const turn = await myTurn(page);
    if (!turn) break;
    // Still open after every move, and every step in words.
    await page.locator('#legal-list[open]').waitFor();
    for (const t of await page.locator('#legal-list .actions button').allInnerTexts()) assert.doesNotMatch(t, /[a-z0-9]+\/[A-Z]|°|\b[NESWCH]{1,3}[12]? of \(/, t);
    const flea = page.locator('#legal-list .actions button[data-kind="flea"]');
    if (await flea.count() > 0) {
      await flea.first().focus();
      await page.keyboard.press('Enter');
      spread = true;
    } else if (await page.locator('.target').count() > 0) {
      await place(page);
    } else {
      await page.click('#pass');
    }
    await waitForChange(page, turn.version);
  }
  assert.ok(spread, 'a flea was spread from the list');
  await page.locator('.moves li', { hasText: /^RED: Spread a flea to a tile$/ }).waitFor();
  await page.close();
});
