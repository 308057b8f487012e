// End-to-end: the table chat between two browser contexts holding the two
// seats, and a third watching: a seat's line reaches the other seat and
// the spectator; the spectator's line stays among spectators; a line too
// long is explained; a reload shows the lines again (the welcome has them).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createRaw, serverAndBrowser } from './harness';
import { act } from './table';

const env = serverAndBrowser();

/** Says `text` in the page's chat. */
async function say(page: Page, text: string): Promise<void> {
  await page.fill('#chat-input', text);
  await page.click('#chat-send');
}

/** Waits for a line saying `text` from `from`. */
async function heard(page: Page, from: string, text: string): Promise<void> {
  await page.locator('#chat-lines li', { hasText: `${from}: ${text}` }).waitFor();
}

test('two seats and a spectator talk at the table', { timeout: 120_000 }, async () => {
  const origin = env.server.url;
  const { id, tokens } = await createRaw(env.server, JSON.stringify({ config: { players: ['RED', 'BLUE'] }, seats: ['human', 'human'] }));
  const [red, blue, watcher] = await Promise.all([0, 1, 2].map(async () => (await env.browser.newContext()).newPage()));
  assert.ok(red && blue && watcher);
  await red.goto(`${origin}/play/${id}#seat=0&token=${tokens[0] ?? ''}`);
  await blue.goto(`${origin}/play/${id}#seat=1&token=${tokens[1] ?? ''}`);
  await watcher.goto(`${origin}/watch/${id}`);
  for (const p of [red, blue, watcher]) await p.locator('#chat-input').waitFor();
  assert.equal(await red.locator('#chat-lines').getAttribute('aria-live'), 'polite');
  assert.match(await watcher.locator('#chat-note').innerText(), /spectators only/);

  await say(red, 'good luck');
  for (const p of [red, blue, watcher]) await heard(p, 'RED', 'good luck');
  await say(watcher, 'blue should close that city');
  await heard(watcher, 'spectator', 'blue should close that city');
  await say(blue, 'thanks');
  for (const p of [red, blue, watcher]) await heard(p, 'BLUE', 'thanks');
  // The spectators' line never reached a seat (it was said before "thanks").
  for (const p of [red, blue]) assert.equal(await p.locator('#chat-lines li[data-channel="spectators"]').count(), 0);
  // Too long: the box stops at 300 characters; the server's rule is explained if sent anyway.
  await red.evaluate(() => { const i = document.querySelector('#chat-input'); if (i instanceof HTMLInputElement) { i.removeAttribute('maxlength'); i.value = 'x'.repeat(301); } });
  await red.click('#chat-send');
  await red.locator('#chat-status', { hasText: 'At most 300 characters' }).waitFor();
  // Typing survives a redraw of the panels (a move arriving): the chat is not rebuilt.
  await red.locator('#status[data-status="playing"]').waitFor();
  await blue.fill('#chat-input', 'half typed');
  await blue.locator('#chat-input').focus();
  const version = Number(await blue.locator('#status').getAttribute('data-version'));
  assert.ok(await act(red, { followers: false }));
  await blue.waitForFunction((v) => Number(document.querySelector('#status')?.getAttribute('data-version')) > v, version);
  assert.equal(await blue.inputValue('#chat-input'), 'half typed');
  assert.ok(await blue.evaluate(() => document.activeElement?.id === 'chat-input'), 'the box keeps the focus');
  // A reload shows the lines its audience reads.
  await blue.reload();
  await heard(blue, 'RED', 'good luck');
  await heard(blue, 'BLUE', 'thanks');
  assert.equal(await blue.locator('#chat-lines li').count(), 2);
  await watcher.reload();
  await heard(watcher, 'spectator', 'blue should close that city');
  assert.equal(await watcher.locator('#chat-lines li').count(), 3);
  for (const p of [red, blue, watcher]) await p.context().close();
});
