// End-to-end: real server, real browser, games played by clicking.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { act, playBoth, shownScores, status, waitForChange } from './table';
import { launch, replayScores, startServer, type Server } from './harness';

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

async function createInLobby(page: Page, opts: { deck?: string; deckOnly?: boolean; expansions?: string[]; base?: string; seats?: string[] }): Promise<string> {
  await page.goto(`${server.url}/`);
  if (opts.base) await page.selectOption('#base', opts.base);
  for (const e of opts.expansions ?? []) await page.check(`input[value="${e}"]`);
  if (opts.deck) await page.fill('#deck', opts.deck);
  if (opts.deckOnly) await page.check('#deck-only');
  if (opts.seats) {
    await page.fill('#players', String(opts.seats.length));
    await page.locator('#players').dispatchEvent('change');
    for (const [i, k] of opts.seats.entries()) await page.selectOption(`select[name=seat${i}]`, k);
  }
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1];
  assert.ok(id);
  return id;
}

async function record(id: string): Promise<{ complete: boolean; body: unknown }> {
  const res = await fetch(`${server.url}/api/games/${id}/record`);
  return { complete: res.headers.get('x-bastide-record') === 'complete', body: await res.json() };
}

const DECK = 'base/U base/E base/V base/K base/D base/B base/J base/L';

test('a fixed-deck game against a bot, played to the end by clicking, shows the record\'s scores', { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const id = await createInLobby(page, { deck: DECK, deckOnly: true });
  let actions = 0;
  while (await act(page, { followers: true })) actions++;
  await page.locator('#summary').waitFor();
  const r = await record(id);
  assert.equal(r.complete, true);
  const expected = replayScores(server.dir, r.body);
  assert.deepEqual(await shownScores(page), expected);
  assert.ok(expected.some((s) => s > 0), `some points were scored: ${expected}`);
  assert.ok(actions >= 8, `the person acted ${actions} times`);
  // The score graph and categories are drawn.
  assert.equal(await page.locator('#summary svg polyline').count(), 2);

  // Hovering a tile names the feature under the pointer, outlines it and says what it is worth.
  const start = page.locator('use.tile').first();
  const box = await start.boundingBox();
  assert.ok(box);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.2);
  await page.mouse.move(box.x + box.width / 2 + 2, box.y + box.height * 0.2 + 2);
  await page.locator('#feature-info', { hasText: /worth \d+ now/ }).waitFor();
  assert.ok(await page.locator('.hl').count() >= 1);

  // The replay viewer steps through the same record to the same scores.
  await page.goto(`${server.url}/replay/${id}`);
  await page.locator('#replay-status', { hasText: 'Action 0 of' }).waitFor();
  await page.click('#forward');
  await page.locator('#replay-status', { hasText: 'Action 1 of' }).waitFor();
  await page.locator('svg.board[data-version="1"]').waitFor();
  assert.equal(await page.locator('use.tile').count(), 2);
  await page.click('#last');
  await page.locator('#summary').waitFor();
  assert.deepEqual(await shownScores(page), expected);
  await page.click('#back');
  await page.locator('#replay-status', { hasText: `Action ${(r.body as { actions: unknown[] }).actions.length - 1} of` }).waitFor();
  await page.close();
});

test("a game's page shows its board before any script, and the client takes it over", { timeout: 90_000 }, async () => {
  // Bots play a short game whose players are named to break out of the
  // page's script elements if the server wrote them unescaped.
  const names = ['</script><script>window.pwned = 1</script>', '<!--'];
  const res = await fetch(`${server.url}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config: { players: names, base: 'base', deck: DECK.split(' '), deck_only: true, seed: 4 }, seats: ['random', 'random'] }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  const { id } = await res.json() as { id: string };
  for (let i = 0; i < 200; i++) {
    if ((await (await fetch(`${server.url}/api/games/${id}`)).json() as { status: string }).status === 'finished') break;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  // Without JavaScript: the board the server drew, every piece on screen.
  const bare = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  const still = await bare.newPage();
  await still.goto(`${server.url}/watch/${id}`);
  const pieces = await still.locator('svg.board use.tile').count();
  assert.ok(pieces >= 2, `the server drew the board: ${pieces} tiles`);
  const view = await still.locator('.board-view').boundingBox();
  const first = await still.locator('svg.board use.tile').first().boundingBox();
  assert.ok(view && first && first.width > 20 && first.x >= view.x && first.x + first.width <= view.x + view.width, 'the tiles are in the viewport');
  await bare.close();
  // With it: the client keeps those tiles, asks for no pictures, and the
  // names stay text.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const tileRequests: string[] = [];
  page.on('request', (r) => { if (/\/api\/(tiles|games\/[0-9a-f]+\/tiles)/.test(r.url())) tileRequests.push(r.url()); });
  let dialogs = 0;
  page.on('dialog', (d) => { dialogs++; void d.dismiss(); });
  await page.goto(`${server.url}/watch/${id}`);
  await page.locator('#status[data-status="finished"]').waitFor();
  await page.locator('svg.board[data-version]').waitFor();
  assert.equal(await page.locator('svg.board').count(), 1);
  assert.equal(await page.locator('svg.board.prefit').count(), 0, 'the camera placed the board');
  assert.equal(await page.locator('svg.board use.tile').count(), pieces);
  assert.deepEqual(tileRequests, []);
  assert.equal(await page.evaluate(() => (window as { pwned?: number }).pwned), undefined);
  assert.equal(dialogs, 0);
  assert.equal(await page.locator('.pname').first().innerText(), names[0]);
  assert.equal(await page.locator('#bastide-welcome, #bastide-tiles').count(), 0, 'the embedded state was taken');
  // The client's own board works on it: hovering a tile names its feature.
  const tile = await page.locator('use.tile').first().boundingBox();
  assert.ok(tile);
  await page.mouse.move(tile.x + tile.width / 2, tile.y + tile.height * 0.2);
  await page.mouse.move(tile.x + tile.width / 2 + 2, tile.y + tile.height * 0.2 + 2);
  await page.locator('#feature-info', { hasText: /worth \d+ now/ }).waitFor();
  await context.close();
});

test('a record file is replayed in the viewer', { timeout: 60_000 }, async () => {
  const res = await fetch(`${server.url}/api/games?status=finished`);
  const games = (await res.json() as { games: { id: string }[] }).games;
  assert.ok(games[0], 'a finished game exists (the first test)');
  const r = await record(games[0].id);
  const page = await browser.newPage();
  await page.goto(`${server.url}/replay`);
  await page.setInputFiles('input[type=file]', { name: 'game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(r.body)) });
  await page.locator('#replay-status', { hasText: 'Action 0 of' }).waitFor();
  await page.keyboard.press('End');
  await page.locator('#summary').waitFor();
  assert.deepEqual(await shownScores(page), replayScores(server.dir, r.body));
  await page.close();
});

test('the keyboard alone places a tile, rotates, confirms and passes', { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await createInLobby(page, { deck: DECK, deckOnly: true });
  await page.locator('.target').first().waitFor();
  const before = await page.locator('#current-tile').getAttribute('alt');
  await page.keyboard.press('r');
  assert.notEqual(await page.locator('#current-tile').getAttribute('alt'), before, 'R turns the tile');
  // Tab order reaches the marked cells; Enter chooses one, Enter again confirms.
  await page.locator('.target').first().focus();
  await page.keyboard.press('Enter');
  await page.locator('.preview').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'confirm');
  const v = (await status(page)).version;
  await page.keyboard.press('Enter');
  await waitForChange(page, v);
  await page.locator('#pass').focus();
  await page.keyboard.press('Enter');
  await waitForChange(page, v + 1);
  assert.ok((await status(page)).version >= v + 2);
  await page.close();
});

test('two browser contexts play the two seats of one game', { timeout: 120_000 }, async () => {
  const res = await fetch(`${server.url}/api/games`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ config: { players: ['RED', 'BLUE'], deck: DECK.split(' ').slice(0, 6), deck_only: true }, seats: ['human', 'human'] }),
  });
  const created = await res.json() as { id: string; seats: { token: string }[] };
  const [a, b] = created.seats;
  assert.ok(a && b);
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const pa = await ctxA.newPage();
  const pb = await ctxB.newPage();
  await pa.goto(`${server.url}/play/${created.id}#seat=0&token=${a.token}`);
  await pb.goto(`${server.url}/play/${created.id}#seat=1&token=${b.token}`);
  // Both seats taken: the game starts by itself (seat 0's table asks),
  // and both tables learn it live.
  await pa.locator('#status[data-status="playing"]').waitFor();
  await pb.locator('#status[data-status="playing"]').waitFor();
  await playBoth(pa, pb);
  const expected = replayScores(server.dir, (await record(created.id)).body);
  assert.deepEqual(await shownScores(pa), expected);
  assert.deepEqual(await shownScores(pb), expected);
  await ctxA.close();
  await ctxB.close();
});

test('a reload in the middle of a game continues it', { timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  const id = await createInLobby(page, { deck: DECK, deckOnly: true });
  for (let i = 0; i < 3; i++) await act(page, { followers: false });
  const before = await status(page);
  await page.reload();
  await page.locator('#status').waitFor();
  await page.waitForFunction((v) => Number(document.querySelector('#status')?.getAttribute('data-version')) >= v, before.version);
  // The token came back from this browser's storage: still a player, not a spectator.
  assert.ok(await page.locator('.players li', { hasText: '(you)' }).count() === 1);
  while (await act(page, { followers: true })) { /* to the end */ }
  await page.locator('#summary').waitFor();
  assert.deepEqual(await shownScores(page), replayScores(server.dir, (await record(id)).body));
  await page.close();
});

test('a server killed in the middle of a game: the page reconnects by itself and the game goes on', { timeout: 120_000 }, async () => {
  // A server of its own: this test kills it.
  const first = await startServer();
  const page = await browser.newPage();
  let second: Server | null = null;
  try {
    await page.goto(`${first.url}/`);
    await page.fill('#deck', DECK);
    await page.check('#deck-only');
    await page.click('#create');
    await page.waitForURL(/\/play\//);
    const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1] ?? '';
    for (let i = 0; i < 3; i++) await act(page, { followers: false });
    await first.kill();
    await page.locator('#status', { hasText: 'reconnecting' }).waitFor();
    second = await startServer(first);
    await page.locator('#status', { hasText: 'connected' }).waitFor({ timeout: 20_000 });
    while (await act(page, { followers: true })) { /* to the end, without a reload */ }
    await page.locator('#summary').waitFor();
    const res = await fetch(`${second.url}/api/games/${id}/record`);
    assert.deepEqual(await shownScores(page), replayScores(second.dir, await res.json()));
  } finally {
    await page.close();
    if (second) await second.stop(); else await first.stop();
  }
});

async function someTurns(opts: Parameters<typeof createInLobby>[1], turns: number, preferHalf = false): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await createInLobby(page, opts);
  for (let i = 0; i < turns; i++) if (!(await act(page, { followers: i % 2 === 0, preferHalf }))) break;
  return page;
}

test('Half-and-half: halves from the hand are placed by clicking', { timeout: 120_000 }, async () => {
  const page = await someTurns({ expansions: ['halfsies1'] }, 8, true);
  const halves = await page.locator('use[data-tile^="halfsies1/"]').count();
  assert.ok(halves >= 1, 'a half tile lies on the board');
  assert.ok((await status(page)).version >= 6);
  await page.close();
});

test('Plague: an outbreak appears and its steps are played by clicking', { timeout: 120_000 }, async () => {
  const page = await someTurns({ expansions: ['plague'], deck: 'plague/A base/U base/E base/V base/K base/B' }, 12);
  assert.ok(await page.locator('.tok-outbreak').count() >= 1, 'an outbreak token is drawn');
  assert.ok((await status(page)).version >= 8);
  await page.close();
});

test('Map Chips: the Ukraine map is drawn and turns are played', { timeout: 120_000 }, async () => {
  const page = await someTurns({ expansions: ['map-chips'] }, 8);
  assert.ok(await page.locator('.mapcell').count() > 50, 'the map squares are drawn');
  assert.ok(await page.locator('.chumak-sq').count() >= 1, 'Chumak squares are drawn');
  assert.ok((await status(page)).version >= 6);
  await page.close();
});

test('Inns & Cathedrals: the large follower is chosen and placed by clicking, and drawn bigger on the board, in the log and in the replay', { timeout: 180_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  // A short fixed deck, so that the game ends and its record can be replayed.
  const id = await createInLobby(page, { expansions: ['inns-cathedrals'], deck: 'base/U inns-cathedrals/B base/E base/V inns-cathedrals/D base/K base/B base/L', deckOnly: true });
  // The first tile, then the large follower on it (on a field, which no tile completes).
  await act(page, { followers: false });
  let version = -1;
  for (let guard = 0; guard < 20 && version < 0; guard++) {
    const s = await status(page);
    assert.equal(s.status, 'playing');
    // Only on this seat's turn is the version sure to be drawn (on the bot's a newer update may supersede it).
    if (s.mine) await page.locator(`svg.board[data-version="${s.version}"]`).waitFor();
    if (s.mine && await page.locator('#figure-big').count() > 0) {
      // Both figures are offered; L switches between them from the keyboard.
      assert.equal(await page.locator('#figure-normal').getAttribute('aria-pressed'), 'true');
      assert.ok(await page.locator('.spot').count() > 0 && await page.locator('.spot-big').count() === 0);
      await page.keyboard.press('l');
      assert.equal(await page.locator('#figure-big').getAttribute('aria-pressed'), 'true');
      await page.keyboard.press('l');
      assert.equal(await page.locator('#figure-normal').getAttribute('aria-pressed'), 'true');
      // By mouse: the figure, then a marked place.
      await page.click('#figure-big');
      const fields = page.locator('.spot-big[data-feature="field"]');
      const spot = await fields.count() > 0 ? fields.first() : page.locator('.spot-big').first();
      assert.match((await spot.getAttribute('aria-label')) ?? '', /^Large follower on /);
      await spot.click();
      await waitForChange(page, s.version);
      version = s.version + 1;
    } else {
      await act(page, { followers: false });
    }
  }
  assert.ok(version > 0, 'the large follower was offered');
  // Drawn bigger than a follower, named for screen readers, in the log with its picture
  // (the bot may have placed its own large follower too).
  const mine = 'use.fig-big[aria-label^="RED\'s large follower on the "]';
  await page.locator(mine).waitFor();
  const myMove = page.locator('.moves li.move-big', { hasText: 'RED: Large follower on ' });
  assert.equal(await myMove.count(), 1);
  assert.equal(await myMove.locator('svg.fig-big').count(), 1);
  assert.match((await page.locator('.players li[data-seat="0"]').getAttribute('aria-label')) ?? '', /large follower on the board/);
  // Only one large follower each: not offered again while it stands.
  for (let turn = 0, checked = false; turn < 8 && !checked; turn++) {
    const s = await status(page);
    if (s.status !== 'playing') break;
    if (s.mine) {
      await page.locator(`svg.board[data-version="${s.version}"]`).waitFor();
      if (await page.locator('.spot').count() > 0) {
        assert.equal(await page.locator('#figure-big').count(), 0);
        checked = true;
      }
    }
    if (!(await act(page, { followers: false }))) break;
  }
  while (await act(page, { followers: false })) { /* to the end: a finished game's record replays */ }
  await page.locator('#summary').waitFor();
  // The replay draws it bigger too, and shows it beside the step.
  await page.goto(`${server.url}/replay/${id}`);
  await page.locator('#replay-status', { hasText: 'Action 0 of' }).waitFor();
  for (let i = 1; i <= version; i++) {
    await page.click('#forward');
    await page.locator('#replay-status', { hasText: `Action ${i} of` }).waitFor();
  }
  await page.locator(`svg.board[data-version="${version}"]`).waitFor();
  assert.match(await page.locator('#replay-status').innerText(), /Large follower on /);
  assert.equal(await page.locator('#replay-status svg.fig-big').count(), 1);
  assert.equal(await page.locator(mine).count(), 1);
  const normal = page.locator('use.fig:not(.fig-big)');
  if (await normal.count() > 0) {
    const a = await normal.first().boundingBox();
    const b = await page.locator(mine).boundingBox();
    assert.ok(a && b && b.width > a.width * 1.3, 'the large follower is drawn bigger than a follower');
  }
  await page.close();
});
