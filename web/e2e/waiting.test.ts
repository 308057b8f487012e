// End-to-end: two people meet. The creator lands in the game's waiting
// room, copies the invite link for the other seat (never their own seat's
// token), the second person opens it in another browser, and the game
// starts by itself once both seats are taken; they play it to the end.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replayScores, serverAndBrowser } from './harness';
import { playBoth, shownScores, status } from './table';

const env = serverAndBrowser();

test('two browser contexts meet in the waiting room and play', { timeout: 180_000 }, async () => {
  const origin = env.server.url;
  const ctxA = await env.browser.newContext();
  await ctxA.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const ctxB = await env.browser.newContext();
  const pa = await ctxA.newPage();
  await pa.goto(`${origin}/`);
  await pa.fill('#deck', 'base/U base/E base/V base/K base/D base/B');
  await pa.check('#deck-only');
  await pa.selectOption('select[name=seat1]', 'human');
  await pa.click('#create');
  await pa.waitForURL(/\/play\/[0-9a-f]+#seat=0$/);
  const id = /\/play\/([0-9a-f]+)/.exec(pa.url())?.[1] ?? '';
  const own = await pa.evaluate((g) => (JSON.parse(localStorage.getItem('bastide.tokens') ?? '{}') as Record<string, Record<string, string>>)[g]?.['0'] ?? '', id);
  assert.ok(own.length > 0, 'the creator holds seat 0');
  assert.ok(!pa.url().includes(own), 'the own token is not in the address');

  // The waiting room: seat 0 here, seat 1 waiting, the game open.
  await pa.locator('#waiting').waitFor();
  assert.equal((await status(pa)).status, 'open');
  assert.equal(await pa.locator('#waiting li[data-seat="0"]').getAttribute('data-joined'), 'true');
  assert.equal(await pa.locator('#waiting li[data-seat="1"]').getAttribute('data-joined'), 'false');
  assert.match(await pa.locator('#waiting-count').innerText(), /^1 of 2 people here/);
  // One invite to copy: the other seat's, never this one's.
  assert.equal(await pa.locator('.copy-invite').count(), 1);
  await pa.locator('.copy-invite[data-seat="1"]').click();
  await pa.locator('.copied', { hasText: 'copied' }).waitFor();
  const link = await pa.evaluate(() => navigator.clipboard.readText());
  assert.match(link, new RegExp(`^${origin}/play/${id}#seat=1&token=[0-9a-f]+$`));
  assert.ok(!link.includes(own), 'the creator\'s token is never in a link');
  // No raw links with tokens lying on the page.
  assert.ok(!(await pa.locator('body').innerText()).includes('token='), 'no invite URL written out on the page');
  assert.equal(await pa.locator('a[href*="token="], input[value*="token="]').count(), 0);

  const pb = await ctxB.newPage();
  await pb.goto(link);
  // Both seats taken: it starts, for both, without a click.
  await pa.locator('#status[data-status="playing"]').waitFor();
  await pb.locator('#status[data-status="playing"]').waitFor();
  assert.equal(await pa.locator('#waiting').count(), 0, 'the waiting room is gone');
  await playBoth(pa, pb);
  const text = await (await fetch(`${origin}/api/games/${id}/record`)).text();
  const expected = replayScores(env.server.dir, text);
  assert.deepEqual(await shownScores(pa), expected);
  assert.deepEqual(await shownScores(pb), expected);
  await ctxA.close();
  await ctxB.close();
});
