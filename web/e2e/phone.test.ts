// End-to-end: a phone (390×844, touch). The board is the main view, the
// panel under it folds away, and a whole game is played by tapping.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayScores, serverAndBrowser, startedGame } from './harness';
import { act, shownScores } from './table';

const env = serverAndBrowser();

const DECK = 'base/U base/E base/V base/K base/D base/B base/J base/L'.split(' ');

test('on a phone the board fills the screen\'s width and a game is played to the end by tapping', { timeout: 180_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], deck: DECK, deck_only: true }, ['human', 'greedy']);
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  await page.locator('#status[data-mine="true"]').waitFor();
  const board = async (): Promise<{ width: number; height: number }> => {
    const b = await page.locator('.board-view').boundingBox();
    assert.ok(b);
    return b;
  };
  const open = await board();
  assert.ok(open.width >= 300, `the board is ${open.width} px wide`);
  assert.ok(open.height >= 400, `the board is ${open.height} px high`);
  // Nothing runs off the screen sideways.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  // The panel folds away (the board takes its place) and back.
  await page.locator('#panel-toggle').tap();
  assert.equal(await page.locator('#side-panel').isVisible(), false);
  assert.equal(await page.locator('#panel-toggle').getAttribute('aria-expanded'), 'false');
  const folded = await board();
  assert.ok(folded.height > open.height + 100, `folded ${folded.height} px, open ${open.height} px`);
  await page.locator('#panel-toggle').tap();
  await page.locator('#side-panel').waitFor();

  let actions = 0;
  while (await act(page, { followers: true, touch: true })) actions++;
  assert.ok(actions >= 8, `the person acted ${actions} times`);
  await page.locator('#summary').waitFor();
  const text = await (await fetch(`${env.server.url}/api/games/${id}/record`)).text();
  assert.deepEqual(await shownScores(page), replayScores(env.server.dir, text));
  await context.close();
});

test('on a phone one finger pans the board, two fingers pinch it, and a tap still places the tile', { timeout: 90_000 }, async () => {
  const { id, token } = await startedGame(env.server, { players: ['RED', 'BLUE'], deck: DECK, deck_only: true }, ['human', 'greedy']);
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${env.server.url}/play/${id}#seat=0&token=${token}`);
  // Our own turn: no bot's update comes to redraw (or refit) the board meanwhile.
  await page.locator('#status[data-mine="true"]').waitFor();
  await page.locator('svg.board[data-version] .target').first().waitFor();
  const view = await page.locator('.board-view').boundingBox();
  assert.ok(view);
  const cx = view.x + view.width / 2;
  const cy = view.y + view.height / 2;
  const camera = (): Promise<{ x: number; y: number; scale: number }> => page.evaluate(() => new Promise((done) => {
    // After the frame that writes the camera.
    requestAnimationFrame(() => requestAnimationFrame(() => {
      const t = (document.querySelector('svg.board') as SVGSVGElement).style.transform;
      const m = /translate\((-?[\d.]+)px, (-?[\d.]+)px\) scale\(([\d.]+)\)/.exec(t);
      done({ x: Number(m?.[1]), y: Number(m?.[2]), scale: Number(m?.[3]) });
    }));
  }));
  const cdp = await context.newCDPSession(page);
  const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', points: { x: number; y: number }[]): Promise<void> => {
    await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map((p, i) => ({ x: p.x, y: p.y, id: i })) });
  };
  // The page settles first (the board is fitted again when its viewport's size changes as the panel fills).
  let start = await camera();
  for (let i = 0; i < 20; i++) {
    await page.waitForTimeout(150);
    const again = await camera();
    if (JSON.stringify(again) === JSON.stringify(start)) break;
    start = again;
  }
  // One finger, 80 px left and 60 px up, in steps.
  await touch('touchStart', [{ x: cx, y: cy }]);
  for (let i = 1; i <= 8; i++) await touch('touchMove', [{ x: cx - 10 * i, y: cy - 7.5 * i }]);
  await touch('touchEnd', []);
  const panned = await camera();
  assert.equal(panned.scale, start.scale, 'panning does not zoom');
  assert.ok(Math.abs(panned.x - start.x + 80) < 2 && Math.abs(panned.y - start.y + 60) < 2, `panned from ${JSON.stringify(start)} to ${JSON.stringify(panned)}`);
  // Two fingers, spread from 60 to 180 px apart about the middle: three times the scale.
  await touch('touchStart', [{ x: cx - 30, y: cy }, { x: cx + 30, y: cy }]);
  for (let i = 1; i <= 6; i++) await touch('touchMove', [{ x: cx - 30 - 10 * i, y: cy }, { x: cx + 30 + 10 * i, y: cy }]);
  await touch('touchEnd', []);
  const pinched = await camera();
  assert.ok(Math.abs(pinched.scale / panned.scale - 3) < 0.05, `pinched from scale ${panned.scale} to ${pinched.scale}`);
  // A pinch back in: smaller again.
  await touch('touchStart', [{ x: cx - 90, y: cy }, { x: cx + 90, y: cy }]);
  for (let i = 1; i <= 6; i++) await touch('touchMove', [{ x: cx - 90 + 10 * i, y: cy }, { x: cx + 90 - 10 * i, y: cy }]);
  await touch('touchEnd', []);
  assert.ok((await camera()).scale < pinched.scale * 0.5, 'pinching in zooms out');
  // The board shows all of itself again, and a tap on a lit cell places the tile (to confirm), as a click does.
  await page.locator('#fit-board').tap();
  await page.locator('.target').first().tap();
  await page.locator('#confirm').waitFor();
  await context.close();
});
