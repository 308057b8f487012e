// End-to-end: whole games played through the board only (the issue's
// "How it is checked"): River II + Winter + the Gingerbread Man,
// Half-and-half 1 + 2, the Plague and Map Chips on Ukraine, each a short
// fixed deck against the greedy bot, every action of the person by a
// click on the board, a hand picture, the pile or the Choices panel (never
// the list of legal actions), to the record's scores. (The base game,
// Inns & Cathedrals and the phone's game are played to their ends in
// play.test.ts and phone.test.ts.)

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolve } from 'node:path';
import { replayScores, serverAndBrowser, startedGame } from './harness';
import { act, shownScores } from './table';

const env = serverAndBrowser();
// BASTIDE_SCREENSHOTS=1: each game's end is saved as docs/web-whole-NAME.png (docs/web.md shows them).
const DOCS = resolve(import.meta.dirname, '../../docs');

interface Whole { name: string; title: string; config: Record<string, unknown>; halves?: boolean; drawn: string }

const GAMES: Whole[] = [
  { name: 'river-winter-gingerbread', title: 'River II + Winter + the Gingerbread Man', drawn: 'use[data-tile^="river2/"]',
    config: { base: 'winter', expansions: ['river2', 'gingerbread'], deck: ['river2/B', 'river2/D', 'river2/L', 'gingerbread/B', 'winter/D', 'winter/E', 'winter/U', 'winter/G', 'gingerbread/C'] } },
  { name: 'halfsies', title: 'Half-and-half 1 + 2', halves: true, drawn: 'use[data-tile^="halfsies"]',
    config: { base: 'base', expansions: ['halfsies1', 'halfsies2'], deck: ['base/U', 'base/E', 'base/V', 'base/K', 'base/B', 'base/L'] } },
  { name: 'plague', title: 'the Plague', drawn: '.tok-outbreak',
    config: { base: 'base', expansions: ['plague'], deck: ['plague/A', 'base/U', 'base/E', 'base/V', 'base/K', 'base/B', 'base/L', 'base/J'] } },
  { name: 'map-chips', title: 'Map Chips on Ukraine', drawn: '.chumak-sq',
    config: { base: 'base', expansions: ['map-chips'], map: 'ukraine', deck: ['base/U', 'base/E', 'base/V', 'base/K', 'base/B', 'base/L', 'base/J', 'base/D'] } },
];

for (const g of GAMES) {
  test(`${g.title}: a whole game played through the board only, to the record's scores`, { timeout: 240_000 }, async () => {
    const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], ...g.config, deck_only: true, seed: 3 }, ['human', 'greedy']);
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Every feature the table looks up is one (a score at a Chumak square has no feature to ask for: no 404).
    const missing: string[] = [];
    page.on('response', (r) => { if (r.url().includes('/feature?') && r.status() === 404) missing.push(r.url()); });
    await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
    // The list of legal actions is never opened: every action is the board's (or a picture's, or the Choices panel's).
    let actions = 0;
    for (let turn = 0; await act(page, { followers: turn % 2 === 0, preferHalf: g.halves }); turn++) {
      assert.equal(await page.locator('#legal-list[open]').count(), 0, 'the list of legal actions stays closed');
      actions++;
      assert.ok(turn < 200, 'the game ends');
    }
    await page.locator('#summary').waitFor();
    const text = await (await fetch(`${env.server.url}/api/games/${id}/record`)).text();
    const scores = replayScores(env.server.dir, text);
    assert.deepEqual(await shownScores(page), scores);
    assert.deepEqual(missing, [], 'no feature lookup answered 404');
    assert.ok(actions >= 4, `the person acted (${actions} times)`);
    assert.ok(await page.locator(g.drawn).count() >= 1, `the expansion is on the board (${g.drawn})`);
    const record = JSON.parse(text) as { actions: Record<string, unknown>[] };
    if (g.halves) assert.ok(record.actions.some((a) => JSON.stringify(a).includes('halfsies')), 'halves were played');
    if (g.name === 'plague') assert.ok(record.actions.some((a) => 'flea' in a), 'fleas were spread');
    if (process.env.BASTIDE_SCREENSHOTS === '1') {
      await page.mouse.move(1, 1);
      await page.screenshot({ path: `${DOCS}/web-whole-${g.name}.png` });
    }
    await page.close();
  });
}
