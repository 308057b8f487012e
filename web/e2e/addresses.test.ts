// End-to-end: a wrong address says so (and the server answers 404 for
// it), with a link back to the lobby; the client's own pages still work.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverAndBrowser } from './harness';

const env = serverAndBrowser();

const CASES: [string, string][] = [
  ['/play/doesnotexist123', 'No such game'],
  ['/play/0123456789abcdef', 'No such game'],
  ['/watch/zzz', 'No such game'],
  ['/watch/0123456789abcdef', 'No such game'],
  ['/replay/zzz', 'No such game'],
  ['/replay/0123456789abcdef', 'No such game'],
  ['/nonsense/path', 'No such page'],
];

test('wrong addresses say "no such game" or "no such page", answered 404, and lead to the lobby', { timeout: 60_000 }, async () => {
  const page = await env.browser.newPage();
  for (const [path, text] of CASES) {
    const res = await page.goto(`${env.server.url}${path}`);
    assert.equal(res?.status(), 404, path);
    await page.locator('#missing h1', { hasText: text }).waitFor({ timeout: 10_000 });
    // Not the lobby, nor an empty viewer or table behind the message.
    assert.equal(await page.locator('#create, #replay-status, #status').count(), 0, path);
  }
  await page.click('#to-lobby');
  await page.locator('#create').waitFor();
  assert.equal(new URL(page.url()).pathname, '/');
  // The client's own pages are no 404s.
  for (const path of ['/', '/replay']) assert.equal((await page.goto(`${env.server.url}${path}`))?.status(), 200, path);
  await page.locator('input[type=file]').waitFor();
  await page.close();
});
