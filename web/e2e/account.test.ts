// End-to-end: sign up in the lobby's player panel, play a rated game
// against a bot to the end by clicking, and see the rating change in the
// panel and on the player's page (/players/NAME, loaded by its address so
// that the server's page route answers it): the rating chart with one
// point and the game in the history; the leaderboard links to the page.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { act, myTurn, status } from './table';
import { serverAndBrowser } from './harness';

const env = serverAndBrowser();

/**
 * Signs `name` up in the lobby's player panel and plays a rated game
 * against the default greedy bot by clicking: the whole game, or (`whole`
 * false) until both seats have moved (a rated game resigned before every
 * seat moved is not rated, docs/server.md) and then resigning; returns
 * the game's id. A rated
 * game is dealt by the server (a fixed deck is refused: its creator would
 * know the draws), so the whole game is a full base game.
 */
async function ratedGameAgainstABot(page: Page, name: string, whole: boolean): Promise<string> {
  await page.goto(`${env.server.url}/`);
  await page.fill('#account-name', name);
  await page.fill('#account-password', 'a long password');
  await page.click('#sign-up');
  await page.locator('#account h2', { hasText: `Signed in as ${name}` }).waitFor();
  await page.locator('#account', { hasText: 'No rated games yet.' }).waitFor();
  await page.check('#rated');
  await page.click('#create');
  await page.waitForURL(/\/play\/[0-9a-f]+/);
  const id = /\/play\/([0-9a-f]+)/.exec(page.url())?.[1];
  assert.ok(id);
  // The seat names its player, linked to their page.
  await page.locator('.players .player-link', { hasText: name }).waitFor();
  if (whole) {
    while (await act(page, { followers: true })) { /* play on */ }
  } else {
    // This seat acts until the bot has replied. The greedy bot may reply
    // before this page reads the status again, so its move shows as a
    // version beyond this seat's own actions (one version an action),
    // not as a turn seen to be the bot's.
    const start = (await status(page)).version;
    let acts = 0;
    for (;;) {
      const s = await status(page);
      assert.equal(s.status, 'playing', 'the game ended before both seats moved');
      if (acts > 0 && s.version > start + acts) break;
      if (s.mine) {
        await act(page, { followers: true });
        acts++;
      } else {
        assert.ok(await myTurn(page), 'the game ended while the bot moved');
      }
    }
    page.once('dialog', (d) => { void d.accept(); });
    await page.getByRole('button', { name: 'Resign' }).click();
  }
  await page.locator('#summary').waitFor();
  return id;
}

test('sign up, play a rated game against a bot to the end, see the rating move', { timeout: 600_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const id = await ratedGameAgainstABot(page, 'e2e_player', true);
  // The end of the game says the player's rating change (the bot has no account).
  const line = page.locator('#rating-changes', { hasText: 'Ratings:' });
  await line.waitFor();
  assert.match(await line.innerText(), /^Ratings: \w+ \(e2e_player\): 1500 → \d+ \((\+|−)\d+\.\d\)$/);
  // The player's rating and history in the lobby.
  await page.goto(`${env.server.url}/`);
  await page.locator('#my-ratings', { hasText: /Two players: \d+ ± \d+ \(1 game,/ }).waitFor();
  const entry = page.locator(`#my-history li[data-game="${id}"]`);
  await entry.waitFor();
  assert.match(await entry.innerText(), /\((\+|−)\d+\.\d\)/);
  const profile = await (await fetch(`${env.server.url}/api/players/e2e_player`)).json() as { ratings: { duel: { games: number; rating: number } } };
  assert.equal(profile.ratings.duel.games, 1);
  assert.notEqual(profile.ratings.duel.rating, 1500);
  // A new password: the old one no longer signs in, the new one does.
  await page.click('#account-manage summary');
  await page.fill('#password-current', 'a long password');
  await page.fill('#password-new', 'another long password');
  await page.click('#change-password');
  await page.locator('#account-status', { hasText: 'Password changed' }).waitFor();
  // Signing out shows the form again.
  await page.click('#sign-out');
  await page.locator('#sign-in').waitFor();
  await page.fill('#account-name', 'e2e_player');
  await page.fill('#account-password', 'a long password');
  await page.click('#sign-in');
  await page.locator('#account .status', { hasText: /./ }).waitFor();
  assert.equal(await page.locator('#sign-out').count(), 0, 'the old password signs in no more');
  await page.fill('#account-password', 'another long password');
  await page.click('#sign-in');
  await page.locator('#account h2', { hasText: 'Signed in as e2e_player' }).waitFor();
  // Signing out everywhere ends this session too.
  await page.click('#account-manage summary');
  await page.click('#sign-out-everywhere');
  await page.locator('#sign-in').waitFor();
});

test('a rated game shows on the player page: one point on the chart, the game in the history', { timeout: 120_000 }, async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
  const id = await ratedGameAgainstABot(page, 'e2e_profile', false);
  // The address itself, as a reload or a shared link would open it.
  const res = await page.goto(`${env.server.url}/players/e2e_profile`);
  assert.equal(res?.status(), 200);
  await page.locator('#profile-name', { hasText: 'e2e_profile' }).waitFor();
  await page.locator('#profile-ratings li[data-class="duel"]', { hasText: /Two players: \d+ ± \d+ \(1 game,/ }).waitFor();
  const chart = page.locator('svg.rating-chart[data-class="duel"]');
  await chart.waitFor();
  assert.equal(await chart.locator('circle.rating-dot').count(), 1);
  assert.equal(await chart.locator('polygon.rating-band').count(), 1);
  const row = page.locator(`#profile-history tr[data-game="${id}"]`);
  await row.waitFor();
  assert.match(await row.locator('.rating-change').innerText(), /^(\+|−)\d+\.\d$/);
  assert.equal(await row.locator('a.record-link').getAttribute('href'), `/api/games/${id}/record`);
  // The leaderboard lists the player and links to the page.
  await page.click('a[href="/players"]');
  await page.locator('#leaderboard [data-class="duel"] .player-link', { hasText: 'e2e_profile' }).click();
  await page.waitForURL(/\/players\/e2e_profile$/);
  await page.locator('svg.rating-chart').waitFor();
  // The replay link opens the viewer.
  await page.locator(`#profile-history tr[data-game="${id}"] a.replay-link`).click();
  await page.waitForURL(new RegExp(`/replay/${id}$`));
  // An unknown player's page says so.
  const missing = await page.goto(`${env.server.url}/players/nobody_here`);
  assert.equal(missing?.status(), 404);
  await page.locator('#missing', { hasText: 'No such player' }).waitFor();
});
