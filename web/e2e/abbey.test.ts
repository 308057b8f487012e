// End-to-end: a whole game of the base game with Abbey & Mayor and Traders
// & Builders, a person against the greedy bot, every move of the person's
// a click on the board, a tile picture or a button (never the list of
// legal actions): the abbey offered in the hand beside the draw pile while
// a hole is lit, the mayor and the wagon chosen in the Figure panel and put
// on lit spots, the barn put on a lit corner, the final abbey round (its
// panel, the abbey laid in a lit hole by a click), and the end with the
// record's scores shown.
//
// The fixed deck (deck_only) and the fixed seed make the game the same on
// every run (the bot's ties follow the seed); the person's moves follow
// what the board lights, always the same way: each tile where it closes
// the most holes around an empty cell (the greedy bot takes the first hole
// with its own abbey), the abbey kept for the final round.
//
// A second, short game reaches the wagon step: RED closes the start tile's
// city with its wagon in it, and the wagon rolls on to the lit road.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { replayScores, serverAndBrowser, startedGame } from './harness';
import { placeAt, shownScores, status, turnOf as waitTurn, waitForChange } from './table';

const env = serverAndBrowser();
const ABBEY = 'abbey-mayor/abbey';

/** Waits until it is this page's move with the board of that version drawn (null: the game is over). */
async function turnOf(page: Page): Promise<number | null> {
  await page.waitForFunction(() => {
    const s = document.querySelector('#status');
    return s !== null && (s.getAttribute('data-status') !== 'playing' || s.getAttribute('data-mine') === 'true');
  }, undefined, { timeout: 30_000 });
  const s = await status(page);
  if (s.status !== 'playing') return null;
  await page.locator(`svg.board[data-version="${s.version}"]`).waitFor();
  return s.version;
}

/**
 * Clicks a lit cell, then Confirm: the one that leaves the most holes
 * closed on four sides (then on three) beside it, nearest the start among
 * equals — the person makes room for the abbey.
 */
async function placeTile(page: Page): Promise<void> {
  const cells = await page.locator('.target').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('data-x')), Number(e.getAttribute('data-y'))] as const));
  const filled = new Set(await page.locator('use.tile[data-cell]').evaluateAll((els) => els.map((e) => e.getAttribute('data-cell') ?? '')));
  const around = (x: number, y: number): [number, number][] => [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]];
  const score = (x: number, y: number): number => {
    const after = new Set([...filled, `${x},${y}`]);
    let s = 0;
    for (const [ex, ey] of around(x, y)) {
      if (after.has(`${ex},${ey}`)) continue;
      const n = around(ex, ey).filter(([a, b]) => after.has(`${a},${b}`)).length;
      s += n === 4 ? 100 : n === 3 ? 10 : 0;
    }
    return s - (x * x + y * y) / 100;
  };
  const best = cells.map(([x, y], i) => ({ s: score(x, y), i })).sort((a, b) => b.s - a.s || a.i - b.i)[0];
  assert.ok(best, 'a lit cell');
  await page.locator('.target').nth(best.i).click();
  await page.locator('.preview').waitFor();
  await page.locator('#confirm').click();
}

/** Chooses a figure in the Figure panel, then clicks its first lit spot. */
async function figureOn(page: Page, name: 'mayor' | 'wagon'): Promise<void> {
  await page.locator(`#figure-${name}`).click();
  await page.locator(`#figure-${name}[aria-pressed="true"]`).waitFor();
  await page.locator('.spot-follower').first().click();
}

/** What the person did and saw, for the checks at the end. */
interface Seen { abbeyInHand: number; abbeyLaid: boolean; finalRound: boolean; mayor: boolean; wagon: boolean; barn: boolean; wagonMoved: boolean }

/** One move of the person's, by what the board and the panels offer. */
async function move(page: Page, seen: Seen): Promise<void> {
  const held = await page.locator(`.hand button[data-tile="${ABBEY}"]`).count() > 0;
  const abbeyChosen = await page.locator(`#current-tile[data-tile="${ABBEY}"]`).count() > 0;
  const holes = abbeyChosen ? await page.locator('.target').count() : 0;
  if (await page.locator('#abbey-round').count() > 0) {
    // The final abbey round: the abbey into a lit hole (nearest the start), no monk; or pass.
    seen.finalRound = true;
    if (holes > 0) {
      assert.ok(held, 'the abbey in the hand in the final round');
      assert.match(await page.locator('#abbey-round').innerText(), /lay your abbey in a lit hole/);
      await placeTile(page);
      seen.abbeyLaid = true;
    } else {
      await page.locator('#pass').click();
    }
    return;
  }
  if (held && holes > 0) {
    // The abbey in hand, its holes lit, the pile beside it: kept for the final round, the pile drawn.
    seen.abbeyInHand++;
    await page.locator('#draw-pile').click();
    return;
  }
  if (await page.locator('.target').count() > 0) { await placeTile(page); return; }
  const draw = page.locator('#draw-pile, #choices button[data-kind="draw"]');
  if (await draw.count() > 0) { await draw.first().click(); return; }
  if (await page.locator('#second-tile').count() > 0) { await page.locator('#second-tile').click(); return; }
  if (await page.locator('.spot-wagon').count() > 0) {
    // The wagon's feature was scored: it rolls on to a lit feature.
    seen.wagonMoved = true;
    await page.locator('.spot-wagon').first().click();
    return;
  }
  if (!seen.barn && await page.locator('.mark-barn-at').count() > 0) {
    seen.barn = true;
    await page.locator('.mark-barn-at').first().click();
    return;
  }
  if (!seen.mayor && await page.locator('#figure-mayor').count() > 0) { seen.mayor = true; await figureOn(page, 'mayor'); return; }
  if (!seen.wagon && await page.locator('#figure-wagon').count() > 0) { seen.wagon = true; await figureOn(page, 'wagon'); return; }
  if (await page.locator('#pass').count() > 0) { await page.locator('#pass').click(); return; }
  await page.locator('#choices button').first().click();
}

test('Abbey & Mayor with Traders & Builders: a whole game against a bot through the board, the abbey, the mayor, the wagon, the barn and the final abbey round', { timeout: 120_000 }, async () => {
  const { server, browser } = env;
  const deck = ['base/B', 'base/E', 'base/U', 'base/B', 'abbey-mayor/I', 'base/V', 'base/B', 'base/U', 'abbey-mayor/J', 'base/B', 'base/E', 'base/V',
    'traders-builders/O', 'base/U', 'base/B', 'abbey-mayor/E', 'base/U', 'base/V', 'base/B', 'base/U',
    'base/V', 'base/B', 'base/U', 'base/V', 'base/B', 'base/V', 'base/U', 'base/B', 'base/V', 'base/U'];
  const config = { players: ['RED', 'BLUE'], expansions: ['abbey-mayor', 'traders-builders'], deck, deck_only: true, seed: 7 };
  const { id, token } = await startedGame(server, config, ['human', 'greedy']);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  const seen: Seen = { abbeyInHand: 0, abbeyLaid: false, finalRound: false, mayor: false, wagon: false, barn: false, wagonMoved: false };
  for (let moves = 0; ; moves++) {
    const version = await turnOf(page);
    if (version === null) break;
    await move(page, seen);
    await waitForChange(page, version);
    if (moves >= 200) throw new Error('the game did not end in 200 moves');
  }

  await page.locator('#summary').waitFor();
  const text = await (await fetch(`${server.url}/api/games/${id}/record`)).text();
  assert.deepEqual(await shownScores(page), replayScores(server.dir, text));
  const actions = (JSON.parse(text) as { actions: Record<string, unknown>[] }).actions.map((a) => JSON.stringify(a));
  assert.ok(seen.abbeyInHand > 0, 'the abbey was offered in the hand with its holes lit');
  assert.ok(seen.finalRound, 'the final abbey round was shown');
  assert.ok(seen.abbeyLaid, 'the abbey was laid in a lit hole');
  // Two abbeys laid: the bot's during the game, the person's in the final round (after the last land tile).
  const abbeys = actions.flatMap((a, i) => (a.includes(`"tile":"${ABBEY}"`) ? [i] : []));
  const lastLand = actions.reduce((last, a, i) => (a.startsWith('{"place"') && !a.includes(ABBEY) ? i : last), -1);
  assert.equal(abbeys.length, 2, 'both abbeys laid');
  assert.ok((abbeys[1] ?? -1) > lastLand, 'the person\'s abbey laid after the last land tile');
  assert.ok(seen.mayor && actions.some((a) => a.includes('"figure":"mayor"')), 'the mayor was placed');
  assert.ok(seen.wagon && actions.some((a) => a.includes('"figure":"wagon"')), 'the wagon was placed');
  assert.ok(seen.barn && actions.some((a) => a.startsWith('{"barn"')), 'the barn was placed');
  // The barn stays to the end, drawn on its corner in RED's colour.
  await page.locator('.token.tok-barn[aria-label="RED\'s barn"]').waitFor();
  assert.equal((await shownScores(page)).length, 2, 'both seats\' final scores shown');
  assert.equal((await status(page)).status, 'finished');
});

test('Abbey & Mayor: the wagon, its city completed, rolls on to a lit feature by a click', { timeout: 60_000 }, async () => {
  // The start tile's city closed at once by base/E at (0, -1) turned 180 with RED's wagon in it (+4);
  // the wagon step lights the start tile's road (and the other free features around); a click moves it there.
  const { server, browser } = env;
  const config = { players: ['RED', 'BLUE'], expansions: ['abbey-mayor'], deck: ['base/E', 'base/U'], deck_only: true, seed: 7 };
  const { id, token } = await startedGame(server, config, ['human', 'greedy']);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  await placeAt(page, 0, -1, 180);
  await page.locator('#figure-wagon').click();
  await page.locator('#figure-wagon[aria-pressed="true"]').waitFor();
  const version = await waitTurn(page);
  await page.locator('.spot[data-feature="city"]').click();
  await waitForChange(page, version);
  // The wagon step: its targets lit as wagon spots; the road of the start tile among them.
  await waitTurn(page);
  const road = page.locator('.spot-wagon[data-feature="road"]');
  assert.equal(await road.count(), 1, 'the start tile\'s road lit for the wagon');
  const v2 = await waitTurn(page);
  await road.click();
  await waitForChange(page, v2);
  // The bot's turn, then the final abbey round: RED passes (no hole).
  for (let moves = 0; moves < 10 && (await status(page)).status === 'playing'; moves++) {
    const s = await status(page);
    if (!s.mine) { await page.waitForTimeout(200); continue; }
    await page.locator('svg.board[data-version="' + String(s.version) + '"]').waitFor();
    await page.locator('#pass').click();
    await waitForChange(page, s.version);
  }
  await page.locator('#summary').waitFor();
  const text = await (await fetch(`${server.url}/api/games/${id}/record`)).text();
  const actions = (JSON.parse(text) as { actions: Record<string, unknown>[] }).actions.map((a) => JSON.stringify(a));
  assert.ok(actions.some((a) => a.includes('"figure":"wagon"')), 'the wagon was placed');
  assert.ok(actions.some((a) => a.startsWith('{"wagon":{"x":0,"y":0')), 'the wagon moved onto the start tile');
  assert.deepEqual(await shownScores(page), replayScores(server.dir, text));
  await page.close();
});

test('the lobby sets up Abbey & Mayor with Traders & Builders against a bot: the sets, the fixed deck, the mayor and wagon at the seats', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  await page.check('input[name=expansion][value="abbey-mayor"]');
  await page.check('input[name=expansion][value="traders-builders"]');
  assert.equal(await page.locator('select[name=seat1]').inputValue(), 'greedy');
  await page.fill('#deck', 'base/B abbey-mayor/I base/U traders-builders/O');
  await page.check('#deck-only');
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  const g = await (await fetch(`${server.url}/api/games/${id}`)).json() as { config: { expansions: string[] } };
  assert.deepEqual([...g.config.expansions].sort(), ['abbey-mayor', 'traders-builders']);
  // The person's seat: the mayor and the wagon in the supply, a turn to play.
  await page.locator('.players li[data-seat="0"][aria-label*="mayor and wagon in the supply"]').waitFor();
  assert.equal((await status(page)).mine, true);
  await page.close();
});
