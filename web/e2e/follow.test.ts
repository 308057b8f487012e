// End-to-end: the table a player can follow — the gingerbread man moved by
// clicking his city, each player's last tile outlined, scores shown where
// they happen, the move history after a reload, clocks chosen in the lobby
// and counting down, the lobby's presets, a bot's "thinking".

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { createRaw, serverAndBrowser, startedGame } from './harness';
import { myTurn, status, waitForChange } from './table';

const env = serverAndBrowser();

// BASTIDE_SCREENSHOTS=1: the moments below are saved as docs/web-follow-*.png (docs/web.md shows them).
const DOCS = resolve(import.meta.dirname, '../../docs');
async function shot(page: Page, name: string): Promise<void> {
  if (process.env.BASTIDE_SCREENSHOTS !== '1') return;
  await page.mouse.move(1, 1);
  await page.waitForFunction(() => [...document.images].every((i) => i.complete));
  await page.screenshot({ path: `${DOCS}/web-follow-${name}.png` });
}


/** Places a tile on its first lit cell and confirms. */
async function place(page: Page): Promise<void> {
  await page.locator('.target').first().click();
  await page.locator('.preview').waitFor();
  await page.click('#confirm');
}

test('the gingerbread man moves to a city clicked on the board', { timeout: 90_000 }, async () => {
  const { server, browser } = env;
  // A gingerbread tile first: after its turn the player moves him (three separate caps on tile B).
  const deck = ['gingerbread/B', 'winter/D', 'winter/G', 'winter/E', 'winter/U'];
  const { id, token } = await startedGame(server, { players: ['RED', 'BLUE'], base: 'winter', expansions: ['gingerbread'], deck, seed: 5 }, ['human', 'greedy']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  let moved = false;
  for (let guard = 0; guard < 12 && !moved; guard++) {
    const turn = await myTurn(page);
    if (!turn) break;
    if (await page.locator('.mark-ginger').count() > 0) {
      // His cities: their tiles lit, a disc on each; nothing else offered on the board.
      await page.locator('.mark-city').first().waitFor();
      assert.equal(await page.locator('#choices [data-kind="gingerbread"]').count(), 0, 'no gingerbread buttons in the panel');
      await shot(page, 'gingerbread');
      const cell = page.locator('.mark-city').last();
      const [x, y] = [Number(await cell.getAttribute('data-x')), Number(await cell.getAttribute('data-y'))];
      await cell.click();
      await waitForChange(page, turn.version);
      // The move sent was to the city whose tiles hold the cell clicked.
      const cells = await page.evaluate(async (game) => {
        const record = await (await fetch(`/api/games/${game}/record`)).json() as { actions: Record<string, { x: number; y: number; place: string }>[] };
        const move = record.actions.map((a) => a.gingerbread).filter((g) => g !== undefined).pop();
        if (!move) return null;
        const f = await (await fetch(`/api/games/${game}/feature?x=${move.x}&y=${move.y}&place=${move.place}`)).json() as { cells: [number, number][] };
        return f.cells;
      }, id);
      assert.ok(cells, 'a gingerbread move is in the record');
      assert.ok(cells.some(([cx, cy]) => cx === x && cy === y), `he went to the city clicked (${x}, ${y}): ${JSON.stringify(cells)}`);
      moved = true;
    } else if (await page.locator('.target').count() > 0) {
      await place(page);
      await waitForChange(page, turn.version);
    } else if (await page.locator('#pass').count() > 0) {
      await page.click('#pass');
      await waitForChange(page, turn.version);
    } else {
      break;
    }
  }
  assert.ok(moved, 'a gingerbread move was offered and made on the board');
  assert.equal(await page.locator('#legal-list[open]').count(), 0, 'the list of legal actions stayed closed');
  await page.close();
});

test('each player\'s last tile is outlined in their colour, and the move history survives a reload', { timeout: 90_000 }, async () => {
  const { server, browser } = env;
  const { id, token } = await startedGame(server, { players: ['RED', 'BLUE'], seed: 11 }, ['human', 'greedy']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  let mine: string | null = null;
  for (let guard = 0; guard < 20; guard++) {
    const turn = await myTurn(page);
    if (!turn) break;
    if (await page.locator('.target').count() > 0) {
      if (mine !== null) break;
      const t = page.locator('.target').first();
      mine = `${await t.getAttribute('data-x')},${await t.getAttribute('data-y')}`;
      await place(page);
    } else {
      await page.click('#pass');
    }
    await waitForChange(page, turn.version);
  }
  assert.ok(mine, 'a tile was placed');
  // Back at this seat's turn: both seats have placed a tile.
  await page.locator('.last-tile[data-seat="1"]').waitFor();
  assert.equal(await page.locator('.last-tile[data-seat="0"]').getAttribute('data-cell'), mine, 'the own last tile is outlined');
  assert.equal(await page.locator('.last-tile[data-seat="0"]').getAttribute('stroke'), '#D55E00', "in RED's colour");
  assert.equal(await page.locator('.last-tile[data-seat="1"]').getAttribute('stroke'), '#0072B2', "the bot's in BLUE's");
  await shot(page, 'last-tiles');
  const before = await page.locator('#moves li').count();
  assert.ok(before >= 3, `the moves are listed (${before})`);
  // A reload: the history comes back from the server's log (GET …/log), and so do the outlines.
  const logAsked = page.waitForResponse((r) => r.url().includes(`/api/games/${id}/log?since=0`));
  await page.reload();
  assert.equal((await logAsked).status(), 200, 'the history is read from the move log');
  await page.locator('#moves li').first().waitFor();
  const s = await status(page);
  await page.waitForFunction((n) => document.querySelectorAll('#moves li').length >= n, Math.min(s.version, 80));
  assert.equal(await page.locator('.last-tile[data-seat="0"]').getAttribute('data-cell'), mine, 'the outline survives the reload');
  assert.match(await page.locator('#moves li').last().innerText(), /RED: Place tile/);
  await page.close();
});

test('a time control chosen in the lobby: the clock of the seat to act counts down at the table', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  await page.selectOption('#time-control', 'blitz');
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  const summary = await (await fetch(`${server.url}/api/games/${id}`)).json() as { status: string };
  assert.equal(summary.status, 'playing');
  // The person's turn first: their clock runs, from 3 minutes down.
  const running = page.locator('.clock.clock-running[data-seat="0"]');
  await running.waitFor();
  const first = Number(await running.getAttribute('data-ms'));
  assert.ok(first > 170_000 && first <= 180_000, `about 3 minutes left: ${first}`);
  assert.match(await running.innerText(), /^2:5\d$|^3:00$/);
  await page.waitForTimeout(1200);
  const later = Number(await running.getAttribute('data-ms'));
  assert.ok(later < first - 800, `it counts down: ${first} → ${later}`);
  await shot(page, 'clock');
  // The bot's seat shows its time standing still.
  assert.equal(await page.locator('.clock[data-seat="1"]').innerText(), '3:00');
  assert.equal(await page.locator('.clock.clock-low').count(), 0, 'no low-time warning with minutes left');
  await page.close();
});

test('a lobby preset chooses the sets, says what they are, and the game is created with them', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/`);
  // Every expansion has its sentence.
  assert.ok((await page.locator('.sets .set .set-about').count()) >= 10);
  await page.click('#preset-winter-gingerbread');
  assert.match(await page.locator('#preset-about').innerText(), /gingerbread man/i);
  await shot(page, 'lobby');
  assert.equal(await page.locator('#base').inputValue(), 'winter');
  assert.equal(await page.locator('input[value="gingerbread"]').isChecked(), true);
  assert.equal(await page.locator('input[value="plague"]').isChecked(), false);
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  const g = await (await fetch(`${server.url}/api/games/${id}`)).json() as { config: { base: string; expansions: string[] } };
  assert.equal(g.config.base, 'winter');
  assert.deepEqual(g.config.expansions, ['gingerbread']);
  // Another preset replaces the choice.
  await page.goto(`${server.url}/`);
  await page.click('#preset-ukraine');
  assert.equal(await page.locator('#base').inputValue(), 'base');
  assert.equal(await page.locator('input[value="map-chips"]').isChecked(), true);
  assert.equal(await page.locator('input[value="gingerbread"]').isChecked(), false);
  // "Everything": every expansion at once, on the Ukraine map; the lists name a game's sets.
  await page.click('#preset-everything');
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const all = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
  const ga = await (await fetch(`${server.url}/api/games/${all}`)).json() as { config: { base: string; expansions: string[]; map?: string } };
  assert.equal(ga.config.map, 'ukraine');
  assert.equal(ga.config.expansions.length, 11);
  assert.ok(ga.config.expansions.includes('traders-builders'), 'Everything includes Traders & Builders');
  assert.ok(ga.config.expansions.includes('princess-dragon'), 'Everything includes the Princess & the Dragon');
  await page.goto(`${server.url}/`);
  await page.locator(`#playing-games li[data-game="${id}"]`, { hasText: 'Winter Edition + Gingerbread Man' }).waitFor();
  await page.close();
});

test('a bot choosing its move shows as thinking at its seat', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  // A searching bot takes a while over its move (the server bounds it).
  const { id, token } = await startedGame(server, { players: ['RED', 'BLUE'], seed: 4 }, ['human', 'mcts:2000']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  const turn = await myTurn(page);
  assert.ok(turn);
  assert.equal(await page.locator('.thinking').count(), 0, 'nobody thinks on the person\'s turn');
  await place(page);
  await waitForChange(page, turn.version);
  const s = await status(page);
  if (s.mine) await page.click('#pass');
  await page.locator('.thinking[data-seat="1"]').waitFor({ timeout: 5000 });
  assert.match(await page.locator('#status').innerText(), /BLUE \(look-ahead bot \(2000 tries\)\) is thinking/);
  await shot(page, 'thinking');
  // Its move made, the person is to act again and the bot has stopped thinking.
  await page.waitForFunction(() => document.querySelector('#status')?.getAttribute('data-mine') === 'true', undefined, { timeout: 30_000 });
  assert.equal(await page.locator('.thinking').count(), 0);
  await page.close();
});

test('a completed city shows "+4" over it, its tiles lit, and at the seat', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  // Tile E's city cap joined to the start tile's closes a two-tile city: a follower on it scores 4 at once.
  const { id, token } = await startedGame(server, { players: ['RED', 'BLUE'], deck: ['base/E', 'base/U', 'base/V', 'base/K'], deck_only: true, seed: 2 }, ['human', 'greedy']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  const turn = await myTurn(page);
  assert.ok(turn);
  const north = page.locator('.target[data-x="0"][data-y="-1"]');
  for (let i = 0; i < 4 && await north.count() === 0; i++) await page.click('#rotate');
  await north.click();
  await page.locator('.preview').waitFor();
  await page.click('#confirm');
  await waitForChange(page, turn.version);
  const city = page.locator('.spot[data-feature="city"]');
  await city.first().waitFor();
  await city.first().click();
  const gain = page.locator('text.gain', { hasText: '+4' });
  await gain.waitFor({ timeout: 5000 });
  assert.equal(await gain.getAttribute('fill'), '#D55E00', "in RED's colour");
  await page.locator('.seat-gain[data-gain="4"]').waitFor();
  await page.waitForFunction(() => document.querySelectorAll('.gain-cell').length === 2, undefined, { timeout: 5000 });
  // Gone after a moment.
  await page.waitForFunction(() => document.querySelectorAll('text.gain, .gain-cell').length === 0, undefined, { timeout: 6000 });
  await page.close();
});

test('short time is shown in red, and a seat out of time is named', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  // Three seconds a turn: short from the start, out of time soon after.
  const { id, tokens } = await createRaw(server, JSON.stringify({ config: { players: ['RED', 'BLUE'], seed: 3 }, seats: ['human', 'greedy'], clock: { turn_ms: 3000 } }));
  const token = tokens[0] ?? '';
  const res = await fetch(`${server.url}/api/games/${id}/start`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  assert.ok(res.ok);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  await page.locator('.clock.clock-running.clock-low[data-seat="0"]').waitFor({ timeout: 3000 });
  // A turn limit alone: the waiting seat shows no time.
  assert.equal(await page.locator('.clock[data-seat="1"]').count(), 0);
  await page.locator('#timeout', { hasText: 'RED ran out of time.' }).waitFor({ timeout: 10_000 });
  assert.equal((await status(page)).status, 'resigned');
  assert.equal(await page.locator('.clock-running').count(), 0, 'no clock runs once the game is over');
  await page.close();
});

test('a follower just placed pops in, and not with reduced motion', { timeout: 90_000 }, async () => {
  const { server, browser } = env;
  // Bots play a short game; its replay steps through it with nothing else moving the board.
  const { id } = await createRaw(server, JSON.stringify({ config: { players: ['RED', 'BLUE'], deck: ['base/U', 'base/E', 'base/V', 'base/K', 'base/B', 'base/J'], deck_only: true, seed: 7 }, seats: ['greedy', 'greedy'] }));
  for (let i = 0; i < 100; i++) {
    const g = await (await fetch(`${server.url}/api/games/${id}`)).json() as { status: string };
    if (g.status === 'finished') break;
    await new Promise((ok) => setTimeout(ok, 200));
  }
  const record = await (await fetch(`${server.url}/api/games/${id}/record`)).json() as { actions: Record<string, unknown>[] };
  const at = record.actions.findIndex((a) => 'follower' in a) + 1;
  assert.ok(at > 0, 'a bot placed a follower');
  for (const reduce of [false, true]) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: reduce ? 'reduce' : 'no-preference' });
    await page.goto(`${server.url}/replay/${id}`);
    await page.locator('#replay-status', { hasText: 'Action 0 of' }).waitFor();
    for (let i = 1; i < at; i++) {
      await page.click('#forward');
      await page.locator('#replay-status', { hasText: `Action ${i} of` }).waitFor();
    }
    assert.equal(await page.locator('svg.board .just-placed').count(), 0, 'nothing new before the follower');
    await page.click('#forward');
    await page.locator(`svg.board[data-version="${at}"]`).waitFor();
    const fresh = page.locator('svg.board .just-placed');
    assert.equal(await fresh.count(), 1, 'the follower just placed, and only it');
    const animation = await fresh.evaluate((e) => getComputedStyle(e).animationName);
    assert.equal(animation, reduce ? 'none' : 'pop-in');
    await page.close();
  }
});

test('Half-and-half: the pile beside the hand draws a tile instead of playing a half', { timeout: 60_000 }, async () => {
  const { server, browser } = env;
  const { id, token } = await startedGame(server, { players: ['RED', 'BLUE'], expansions: ['halfsies1'], seed: 9 }, ['human', 'greedy']);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${server.url}/play/${id}#seat=0&token=${token}`);
  let drew = false;
  for (let guard = 0; guard < 10 && !drew; guard++) {
    const turn = await myTurn(page);
    if (!turn) break;
    if (await page.locator('#draw-pile').count() > 0) {
      assert.equal(await page.locator('#choices [data-kind="draw"]').count(), 0, 'no Draw button besides the pile');
      await page.click('#draw-pile');
      await waitForChange(page, turn.version);
      // Now the drawn tile is the one to place (no half, no pile).
      await page.locator('#current-tile').waitFor();
      assert.doesNotMatch(await page.locator('#current-tile').getAttribute('data-tile') ?? '', /^halfsies/);
      assert.equal(await page.locator('#draw-pile').count(), 0);
      drew = true;
    } else if (await page.locator('.target').count() > 0) {
      await place(page);
      await waitForChange(page, turn.version);
    } else {
      await page.click('#pass');
      await waitForChange(page, turn.version);
    }
  }
  assert.ok(drew, 'the pile was offered and drew');
  await page.close();
});
