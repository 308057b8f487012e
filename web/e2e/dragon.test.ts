// End-to-end: a whole game of the Princess & the Dragon played through the
// board by clicks, two people at two tables (each page acts on its own
// turns, every action a click on the board or a button — never the list
// of legal actions): a follower on a road, a farmer, the volcano bringing
// the dragon (drawn on its tile), the fairy moved by clicking next to
// one's follower (drawn there), a dragon tile, and the dragon's moves made
// by whoever's move it is on the lit tiles, the table naming the mover and
// ringing what it would eat; a farmer eaten (said in the log), the last
// mover with no tile left to enter passing; the final scores are the
// record's. Then a follower through a magic portal onto another tile,
// and a princess sending that knight home.
//
// The fixed deck (deck_only) makes the game. Start tile base/D at (0, 0)
// (its road west–east). RED: a straight road at (1, 0), follower on it.
// BLUE: a straight road at (-1, 0), a farmer. RED: the volcano at (0, 1):
// the dragon jumps onto it; RED moves the fairy next to the road follower
// at (1, 0). BLUE: dragon tile L at (2, 0). The dragon, from (0, 1): BLUE
// to (0, 0) (the only tile next to it), RED to (-1, 0) (the fairy's (1, 0)
// is barred) eating BLUE's farmer; BLUE has nowhere to go and passes.
// RED (1 point from the fairy): magic portal S at (3, 0), a follower
// through it into the start tile's city. BLUE: princess tile AB at (0, -1)
// joining that city, RED's knight sent home.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { replayScores, serverAndBrowser, startedGame, twoTables } from './harness';
import { act, placeAt, shownScores, status, turnOf, waitForChange } from './table';

const env = serverAndBrowser();
// BASTIDE_SCREENSHOTS=1: the dragon's move with its tiles lit saved as docs/web-princess-dragon.png (docs/web.md shows it).
const DOCS = resolve(import.meta.dirname, '../../docs');
const shots = process.env.BASTIDE_SCREENSHOTS === '1';

/** Clicks the first lit spot of `selector`, then waits for the move. */
async function spot(page: Page, selector: string): Promise<void> {
  const version = await turnOf(page);
  assert.ok(await page.locator(selector).count() > 0, `a lit spot ${selector}`);
  await page.locator(selector).first().click();
  await waitForChange(page, version);
}

async function pass(page: Page): Promise<void> {
  const version = await turnOf(page);
  await page.locator('#pass').click();
  await waitForChange(page, version);
}

/** Moves the dragon by a click on its lit tile at (x, y); `eats`: the figures that tile says it would eat. */
async function dragonTo(page: Page, x: number, y: number, eats: number): Promise<void> {
  const version = await turnOf(page);
  const tile = page.locator(`.mark-dragon-to[data-x="${x}"][data-y="${y}"]`);
  assert.equal(await tile.getAttribute('data-eats'), String(eats));
  await tile.click();
  await waitForChange(page, version);
}

test('The Princess & the Dragon: a whole game through the board, the volcano, the fairy, the dragon moved by both players, a portal and a princess', { timeout: 240_000 }, async () => {
  const { server, browser } = env;
  const deck = ['base/U', 'base/U', 'princess-dragon/A', 'princess-dragon/L', 'princess-dragon/S', 'princess-dragon/AB'];
  const config = { players: ['RED', 'BLUE'], expansions: ['princess-dragon'], deck, deck_only: true, seed: 5 };
  const { id, red, blue } = await twoTables(server, browser, config);
  await turnOf(red);

  // RED's follower on the road east of the start; BLUE's farmer west of it.
  await placeAt(red, 1, 0, 0);
  await spot(red, '.spot[data-feature="road"]');
  await placeAt(blue, -1, 0, 0);
  await spot(blue, '.spot[data-feature="field"]');
  // RED lays the volcano: the dragon is on it, and nothing may go there — but the fairy may move.
  await placeAt(red, 0, 1, 0);
  await red.locator('use.tok-dragon-fig[data-x="0"][data-y="1"]').waitFor();
  assert.equal(await red.locator('.spot-follower').count(), 0, 'no follower on the dragon\'s tile');
  assert.equal(await red.locator('.spot-fairy').count(), 1, 'the fairy beside RED\'s one follower');
  await spot(red, '.spot-fairy');
  await blue.locator('use.tok-fairy-fig[data-x="1"][data-y="0"]').waitFor();
  assert.match((await blue.locator('use.tok-fairy-fig').getAttribute('aria-label')) ?? '', /with RED's follower/);
  await blue.locator('#neutrals', { hasText: /The dragon is on .*The fairy is with RED's follower/s }).waitFor();

  // BLUE lays a dragon tile and passes the follower step: the dragon's flight begins, BLUE first.
  await placeAt(blue, 2, 0, 0);
  await pass(blue);
  await red.locator('#dragon-mover', { hasText: 'BLUE moves the dragon: move 1 of 6' }).waitFor();
  assert.equal(await red.locator('.mark-dragon-to').count(), 0, 'only the mover sees the tiles lit');
  assert.equal(await blue.locator('.mark-dragon-to').count(), 1, 'one tile next to the volcano');
  await dragonTo(blue, 0, 0, 0);
  // RED's move: the fairy's tile is barred, the farmer's tile lit and ringed.
  await red.locator('#dragon-mover', { hasText: 'RED moves the dragon: move 2 of 6' }).waitFor();
  await turnOf(red);
  assert.equal(await red.locator('.mark-dragon-to[data-x="1"][data-y="0"]').count(), 0, 'the fairy guards her tile');
  assert.equal(await red.locator('.mark-eaten').count(), 1, 'BLUE\'s farmer ringed');
  if (shots) { await red.mouse.move(1, 1); await red.screenshot({ path: `${DOCS}/web-princess-dragon.png` }); }
  await dragonTo(red, -1, 0, 1);
  await blue.locator('.log li', { hasText: /the dragon eats BLUE's figure on a field/ }).waitFor();
  // BLUE has no tile to move it to: pass ends the flight.
  await pass(blue);

  // RED's turn opens with the fairy's point; RED lays a magic portal east of the road and sends a
  // follower through it into the start tile's city (the only city lit, on another tile).
  await red.locator('.log li', { hasText: /the fairy at the start of the turn: RED \+1/ }).waitFor();
  await placeAt(red, 3, 0, 0);
  await red.locator('#portal').waitFor();
  assert.equal(await red.locator('.spot[data-feature="city"]').count(), 1, 'the start tile\'s city lit through the portal');
  await spot(red, '.spot[data-feature="city"]');
  // BLUE's princess joins that city: her gold ring on RED's knight sends it home.
  await placeAt(blue, 0, -1, 180);
  assert.equal(await blue.locator('.spot-princess').count(), 1, 'RED\'s knight lit for the princess');
  assert.match((await blue.locator('.spot-princess').getAttribute('aria-label')) ?? '', /sends home RED's follower/);
  await spot(blue, '.spot-princess');
  await red.locator('.log li', { hasText: /the princess sends RED's knight home on a city/ }).waitFor();
  await red.locator('#moves li', { hasText: /BLUE: The princess sends home RED's follower/ }).waitFor();

  await red.locator('#summary').waitFor();
  await blue.locator('#summary').waitFor();
  const text = await (await fetch(`${server.url}/api/games/${id}/record`)).text();
  const scores = replayScores(server.dir, text);
  assert.deepEqual(await shownScores(red), scores);
  assert.deepEqual(await shownScores(blue), scores);
  const actions = (JSON.parse(text) as { actions: Record<string, unknown>[] }).actions.map((a) => JSON.stringify(a));
  assert.ok(actions.includes('{"fairy":{"x":1,"y":0,"place":"W"}}') || actions.some((a) => a.startsWith('{"fairy"')), 'the fairy was moved');
  assert.deepEqual(actions.filter((a) => a.startsWith('{"dragon"')), ['{"dragon":{"x":0,"y":0}}', '{"dragon":{"x":-1,"y":0}}']);
  assert.ok(actions.some((a) => a.startsWith('{"follower":{"x":0,"y":0')), 'the follower went through the portal onto the start tile');
  assert.ok(actions.some((a) => a.startsWith('{"princess"')), 'the princess sent a knight home');
  // The fairy's 3 points with RED's road at the final scoring.
  await red.locator('.log li', { hasText: /the fairy by a scored feature: RED \+3/ }).waitFor();
  assert.equal((await status(red)).status, 'finished');
});

test('the lobby offers the Princess & the Dragon: its preset, its rules card, and the volcano lake switch with River II', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  await page.click('#preset-princess-dragon');
  assert.match(await page.locator('#preset-about').innerText(), /dragon/i);
  assert.equal(await page.locator('input[name=expansion][value="princess-dragon"]').isChecked(), true);
  // With River II too, the switch that takes away the volcano lake's extra turn is written as false.
  await page.check('input[name=expansion][value="river2"]');
  await page.check('input[name=rule][value="volcano_extra_turn"]');
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  const g = await (await fetch(`${server.url}/api/games/${id}`)).json() as { config: { expansions: string[]; options?: Record<string, unknown> } };
  assert.deepEqual([...g.config.expansions].sort(), ['princess-dragon', 'river2']);
  assert.deepEqual(g.config.options, { volcano_extra_turn: false });
  // The table's rules card has the set's lines.
  await page.locator('svg.board').waitFor();
  await page.locator('#how-to-play').click();
  await page.getByText(/After a dragon tile the dragon moves six tiles/).waitFor();
  await page.close();
});

test('River II, the Winter Edition, the Gingerbread Man and the Princess & the Dragon: a person plays a whole game against a bot through the board', { timeout: 400_000 }, async () => {
  const { server, browser } = env;
  const config = { players: ['RED', 'BLUE'], base: 'winter', expansions: ['river2', 'gingerbread', 'princess-dragon'], seed: 11 };
  const { id, token } = await startedGame(server, config, ['human', 'greedy']);
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  await page.locator('#status').waitFor();
  // Every move of RED's a click on the board or a button (act): tiles, followers now and then, the dragon's lit tiles, passes.
  let dragonMoves = 0;
  for (let turn = 0; ; turn++) {
    const { mine, version } = await status(page);
    if (mine && await page.locator(`svg.board[data-version="${version}"] .mark-dragon-to`).count() > 0) dragonMoves++;
    if (!await act(page, { followers: turn % 3 === 0 })) break;
    if (turn >= 400) throw new Error('the game did not end in 400 moves');
  }
  assert.ok(dragonMoves > 0, 'RED moved the dragon on the board');
  await page.locator('#summary').waitFor();
  const text = await (await fetch(`${server.url}/api/games/${id}/record`)).text();
  assert.deepEqual(await shownScores(page), replayScores(server.dir, text));
  const actions = (JSON.parse(text) as { actions: Record<string, unknown>[] }).actions.map((a) => JSON.stringify(a));
  assert.ok(actions.some((a) => a.startsWith('{"dragon"')), 'the dragon flew');
});
