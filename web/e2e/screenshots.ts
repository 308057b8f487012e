// Screenshots of real games for docs/ and the figures of
// docs/performance.md: bots play whole games on a real server, Chromium
// shows them. Run: npm run screenshots (after building the server).

import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { launch, motion, startServer } from './harness';

const DOCS = resolve(import.meta.dirname, '../../docs');

interface Setup { name: string; config: Record<string, unknown>; seats: string[] }

// The base game, each base game and expansion on its own (CutCassonne needs
// a river, the Gingerbread Man Winter, Map Chips a map), and every expansion
// at once (river20 goes only with CutCassonne: River I and II here).
const SETUPS: Setup[] = [
  { name: 'base', config: { players: ['RED', 'BLUE'], base: 'base', expansions: [] }, seats: ['greedy', 'greedy'] },
  { name: 'winter', config: { players: ['RED', 'BLUE'], base: 'winter', expansions: [] }, seats: ['greedy', 'random'] },
  { name: 'inns-cathedrals', config: { players: ['RED', 'BLUE', 'GREEN'], base: 'base', expansions: ['inns-cathedrals'] }, seats: ['greedy', 'random', 'greedy'] },
  { name: 'river1', config: { players: ['RED', 'BLUE'], base: 'base', expansions: ['river1'] }, seats: ['greedy', 'random'] },
  { name: 'river', config: { players: ['RED', 'BLUE'], base: 'base', expansions: ['river2'] }, seats: ['greedy', 'random'] },
  { name: 'river20', config: { players: ['RED', 'BLUE'], base: 'base', expansions: ['river20'] }, seats: ['greedy', 'random'] },
  { name: 'cutcassonne', config: { players: ['RED', 'BLUE'], base: 'base', expansions: ['river20', 'cutcassonne'] }, seats: ['greedy', 'random'] },
  { name: 'halfsies', config: { players: ['RED', 'BLUE', 'GREEN'], base: 'base', expansions: ['halfsies1'] }, seats: ['greedy', 'random', 'greedy'] },
  { name: 'halfsies2', config: { players: ['RED', 'BLUE'], base: 'base', expansions: ['halfsies2'] }, seats: ['greedy', 'random'] },
  { name: 'plague', config: { players: ['RED', 'BLUE'], base: 'base', expansions: ['plague'] }, seats: ['greedy', 'random'] },
  { name: 'gingerbread', config: { players: ['RED', 'BLUE'], base: 'winter', expansions: ['gingerbread'] }, seats: ['greedy', 'random'] },
  { name: 'traders-builders', config: { players: ['RED', 'BLUE', 'GREEN'], base: 'base', expansions: ['river2', 'traders-builders'] }, seats: ['greedy', 'random', 'greedy'] },
  { name: 'map-chips', config: { players: ['RED', 'BLUE'], base: 'base', expansions: ['map-chips'], map: 'ukraine' }, seats: ['greedy', 'random'] },
  { name: 'all', config: { players: ['RED', 'BLUE', 'GREEN', 'YELLOW'], base: 'winter', expansions: ['river1', 'river2', 'cutcassonne', 'halfsies1', 'halfsies2', 'plague', 'gingerbread', 'map-chips', 'inns-cathedrals', 'traders-builders'], map: 'ukraine' }, seats: ['greedy', 'random', 'greedy', 'random'] },
];

// ONLY=plague,all measures just those games (figures.md is written only for a full run); `lobby` in it takes the lobby's picture too.
const only = process.env.ONLY?.split(',') ?? null;
const server = await startServer();
const browser = await launch();
const figures: string[] = [];
try {
  for (const s of SETUPS.filter((x) => !only || only.includes(x.name))) {
    const res = await fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ config: { ...s.config, seed: 11 }, seats: s.seats }) });
    if (!res.ok) { console.error(s.name, await res.text()); continue; }
    const { id } = await res.json() as { id: string };
    for (let i = 0; i < 600; i++) {
      const g = await (await fetch(`${server.url}/api/games/${id}`)).json() as { status: string };
      if (g.status === 'finished') break;
      await new Promise((ok) => setTimeout(ok, 200));
    }
    for (const pass of ['cold', 'warm']) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // tsx compiles with esbuild's keepNames, which wraps the functions
    // passed to page.evaluate in a __name helper the page lacks.
    await page.addInitScript('window.__name = (f) => f');
    const start = Date.now();
    await page.goto(`${server.url}/watch/${id}`);
    await page.locator('#summary').waitFor();
    await page.locator('svg.board[data-version]').waitFor();
    await page.waitForFunction(() => performance.getEntriesByName('bastide:painted').length > 0);
    // The tile art (a client that draws placeholders first marks it separately).
    await page.waitForFunction(() => performance.getEntriesByName('bastide:art-painted').length > 0, undefined, { timeout: 10_000 }).catch(() => undefined);
    const timing = await page.evaluate(() => {
      const board = performance.getEntriesByName('bastide:board')[0] as PerformanceMark | undefined;
      const tiles = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((r) => /\/api\/(tiles\/batch|games\/[0-9a-f]+\/tiles)/.test(r.name));
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      const at = (name: string): number => performance.getEntriesByName(name)[0]?.startTime ?? -1;
      return {
        pieces: Number(board?.detail ?? 0), board: board?.startTime ?? -1, lastTile: Math.max(0, ...tiles.map((r) => r.responseEnd)), fcp: fcp?.startTime ?? -1, kinds: tiles.length,
        welcome: at('bastide:welcome'), painted: at('bastide:painted'), artPainted: at('bastide:art-painted'), script: at('bastide:script'), wsOpen: at('bastide:ws-open'), // The tile requests, from the first sent to the last answered (the client may send several at once).
        batchMs: tiles.length ? Math.max(...tiles.map((r) => r.responseEnd)) - Math.min(...tiles.map((r) => r.requestStart)) : 0,
        batchKb: tiles.reduce((n, r) => n + r.transferSize, 0) / 1024,
      };
    });
    // Zoom for two seconds, one wheel event per frame, counting frames.
    const fps = await motion(page, 'zoom');
    await page.keyboard.press('f');
    await page.screenshot({ path: `${DOCS}/web-${s.name}.png` });
    figures.push(`| ${s.name} (${pass}) | ${timing.pieces} | ${timing.fcp.toFixed(0)} | ${timing.welcome.toFixed(0)} | ${timing.batchMs.toFixed(0)} (${timing.batchKb.toFixed(0)} KiB) | ${timing.board.toFixed(0)} | ${timing.painted.toFixed(0)} | ${timing.artPainted < 0 ? timing.painted.toFixed(0) : timing.artPainted.toFixed(0)} | ${fps.fps.toFixed(1)} | ${fps.worst.toFixed(1)} |`);
    console.log(s.name, pass, id, JSON.stringify(timing), JSON.stringify(fps), Date.now() - start, 'ms');
    if (s.name === 'all' && pass === 'warm') {
      await page.goto(`${server.url}/replay/${id}`);
      await page.locator('#replay-status', { hasText: 'Action 0 of' }).waitFor();
      for (let i = 1; i <= 40; i++) {
        await page.click('#forward');
        await page.locator('#replay-status', { hasText: `Action ${i} of` }).waitFor();
      }
      await page.locator('svg.board[data-version="40"]').waitFor();
      await page.screenshot({ path: `${DOCS}/web-replay.png` });
    }
    await page.close();
    }
  }
  // The lobby with the games above finished (ONLY=…,lobby takes it too).
  if (!only || only.includes('lobby')) {
    // A game of each list of its own (a finished one of bots, a timed one waiting for people), and one of this browser's.
    const post = (body: object): Promise<Response> => fetch(`${server.url}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await post({ config: { players: ['RED', 'BLUE'], base: 'winter', expansions: ['gingerbread'], deck: ['winter/U', 'winter/E', 'winter/V'], deck_only: true }, seats: ['greedy', 'random'] });
    await post({ config: { players: ['RED', 'BLUE', 'GREEN'], base: 'base', expansions: ['river1'] }, seats: ['human', 'human', 'greedy'], clock: { initial_ms: 600_000, increment_ms: 10_000 } });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${server.url}/`);
    await page.click('#play-bot');
    await page.waitForURL(/\/play\//);
    await page.goto(`${server.url}/`);
    await page.locator('#my-games li').first().waitFor();
    await page.locator('#open-games li').first().waitFor();
    await page.screenshot({ path: `${DOCS}/web-lobby.png` });
    await page.close();
    // The same on a phone (the context keeps this browser's seats: a new one has none, so play again).
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(`${server.url}/`);
    await phone.locator('#open-games li').first().waitFor();
    await phone.screenshot({ path: `${DOCS}/web-lobby-phone.png` });
    await phone.close();
  }
  if (only) console.log(figures.join('\n'));
  else {
    // A person's turn against a bot: marked cells, then follower spots.
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${server.url}/`);
    await page.check('input[value="plague"]');
    await page.click('#create');
    await page.waitForURL(/\/play\//);
    for (let turn = 0; turn < 6; turn++) {
      await page.locator('.target').first().waitFor();
      await page.locator('.target').nth(turn % 2 === 1 && await page.locator('.target').count() > 1 ? 1 : 0).click();
      await page.click('#confirm');
      await page.locator('#pass').waitFor();
      if (turn === 5) break;
      if (await page.locator('.spot').count() > 0 && turn % 2 === 0) await page.locator('.spot').first().click();
      else await page.click('#pass');
    }
    await page.screenshot({ path: `${DOCS}/web-followers.png` });
    await page.click('#pass');
    await page.locator('.target').first().waitFor();
    await page.locator('.target').first().click();
    await page.screenshot({ path: `${DOCS}/web-preview.png` });
    // "How to play": the cards of the game's sets (the base game, the Plague).
    await page.click('#how-to-play');
    await page.locator('dialog#rules .rules-card').first().waitFor();
    await page.screenshot({ path: `${DOCS}/web-rules.png` });
    await page.close();
    writeFileSync(resolve(import.meta.dirname, '../figures.md'), `| game | pieces | first paint (ms) | welcome (ms) | tile batch (ms, size) | board in DOM (ms) | board painted (ms) | tile art painted (ms) | pan/zoom fps | worst frame (ms) |\n|---|---|---|---|---|---|---|---|---|---|\n${figures.join('\n')}\n`);
  }
} finally {
  await browser.close();
  await server.stop();
}
