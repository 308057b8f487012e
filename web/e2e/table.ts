// Playing at a table in the end-to-end tests: reading its status and
// acting by mouse, as a person would.

import type { Locator, Page } from 'playwright-core';

/** The table's status line: the game's status, whether this seat is to act, the version shown. */
export async function status(page: Page): Promise<{ status: string; mine: boolean; version: number }> {
  const el = page.locator('#status');
  await el.waitFor();
  return {
    status: (await el.getAttribute('data-status')) ?? '',
    mine: (await el.getAttribute('data-mine')) === 'true',
    version: Number(await el.getAttribute('data-version')),
  };
}

/** Waits until the table moves past `version` (or the game stops, or it shows an error, which fails). */
export async function waitForChange(page: Page, version: number): Promise<void> {
  await page.waitForFunction((v) => {
    const s = document.querySelector('#status');
    return s !== null && (Number(s.getAttribute('data-version')) !== v || s.getAttribute('data-status') !== 'playing' || document.querySelector('[role=alert]') !== null);
  }, version, { timeout: 20_000 });
  const alert = await page.locator('[role=alert]').count();
  if (alert > 0) throw new Error(`the page shows an error: ${await page.locator('[role=alert]').innerText()}`);
}

/**
 * Plays one of this seat's actions by mouse: a placement (target, then
 * Confirm), else a follower spot (when `followers`), else a flea on a lit
 * tile, else a lit city for the gingerbread man, else a half of the draft,
 * else a lit tile for the dragon, else Pass, else the first other choice; by touch with `touch`. Returns false when the
 * game is over.
 */
export async function act(page: Page, opts: { followers: boolean; preferHalf?: boolean; touch?: boolean }): Promise<boolean> {
  const s = await status(page);
  if (s.status !== 'playing') return false;
  if (!s.mine) {
    await page.waitForFunction((v) => {
      const e = document.querySelector('#status');
      return e !== null && (e.getAttribute('data-mine') === 'true' || e.getAttribute('data-status') !== 'playing' || Number(e.getAttribute('data-version')) !== v);
    }, s.version, { timeout: 30_000 });
    return true;
  }
  // The board draws after the tile layouts arrive: wait for this version's.
  await page.locator(`svg.board[data-version="${s.version}"]`).waitFor();
  if (opts.preferHalf) {
    const half = page.locator('.hand button[data-tile^="halfsies"]:not([disabled])');
    if (await half.count() > 0) {
      await half.first().click();
      await page.locator('.target').first().waitFor({ timeout: 3000 }).catch(() => undefined);
    }
  }
  // A phone's finger taps (touch events), a mouse clicks.
  const press = (l: Locator): Promise<void> => (opts.touch ? l.tap() : l.click());
  const targets = page.locator('.target');
  if (await targets.count() > 0) {
    await press(targets.first());
    await page.locator('.preview').waitFor();
    await press(page.locator('#confirm'));
  } else if (opts.followers && await page.locator('.spot').count() > 0) {
    await press(page.locator('.spot').first());
  } else if (await page.locator('.mark-flea-to').count() > 0) {
    // The Plague's spread is owed before the turn may end: a lit tile (then the flea to move, if several could).
    await press(page.locator('.mark-flea-to').first());
    if (await page.locator('.mark-flea-from').count() > 0) await press(page.locator('.mark-flea-from').first());
  } else if (await page.locator('.mark-ginger').count() > 0) {
    // The gingerbread man's move: a lit city.
    await press(page.locator('.mark-ginger').first());
  } else if (await page.locator('#draft button').count() > 0) {
    // The Half-and-half draft: a half's picture.
    await press(page.locator('#draft button').first());
  } else if (await page.locator('#second-tile').count() > 0) {
    // Traders & Builders: the builder's second tile, taken from the table.
    await press(page.locator('#second-tile'));
  } else if (await page.locator('#draw-pile').count() > 0) {
    // Half-and-half: draw instead of playing a half.
    await press(page.locator('#draw-pile'));
  } else if (await page.locator('.mark-dragon-to').count() > 0) {
    // The Princess & the Dragon: this seat's move of the dragon, a lit tile next to it.
    await press(page.locator('.mark-dragon-to').first());
  } else if (await page.locator('#pass').count() > 0) {
    await press(page.locator('#pass'));
  } else {
    await press(page.locator('#choices button').first());
  }
  await waitForChange(page, s.version);
  return true;
}

/** The final scores the end-of-game summary shows. */
export async function shownScores(page: Page): Promise<number[]> {
  return page.locator('#summary td[data-final]').evaluateAll((tds) => tds.map((td) => Number(td.textContent)));
}


/**
 * Plays a two-person game to its end, each page acting on its turn (only
 * one at a time), followers now and then; both then show the summary.
 */
export async function playBoth(pa: Page, pb: Page): Promise<void> {
  for (let turn = 0; ; turn++) {
    const [sa, sb] = [await status(pa), await status(pb)];
    if (sa.status !== 'playing') break;
    if (sa.mine && sb.mine) throw new Error('both seats are offered moves at once');
    const page = sa.mine ? pa : sb.mine ? pb : null;
    if (page) await act(page, { followers: turn % 3 === 0 });
    else await pa.waitForTimeout(100);
    if (turn >= 200) throw new Error('the game did not end in 200 turns');
  }
  await pa.locator('#summary').waitFor();
  await pb.locator('#summary').waitFor();
}

/** Waits until it is this seat's turn with its board drawn (null: the game is over). */
export async function myTurn(page: Page): Promise<{ version: number } | null> {
  for (;;) {
    const s = await status(page);
    if (s.status !== 'playing') return null;
    if (s.mine) {
      // Only on one's own turn: no newer update can take over the drawing of this version.
      await page.locator(`svg.board[data-version="${s.version}"]`).waitFor();
      return { version: s.version };
    }
    await page.waitForFunction((v) => {
      const e = document.querySelector('#status');
      return e !== null && (e.getAttribute('data-mine') === 'true' || e.getAttribute('data-status') !== 'playing' || Number(e.getAttribute('data-version')) !== v);
    }, s.version, { timeout: 30_000 });
  }
}

/** Waits until it is this page's turn (or move) with the board of that version drawn; that version. */
export async function turnOf(page: Page): Promise<number> {
  await page.waitForFunction(() => {
    const s = document.querySelector('#status');
    return s?.getAttribute('data-mine') === 'true' && s.getAttribute('data-status') === 'playing';
  }, undefined, { timeout: 30_000 });
  const { version } = await status(page);
  await page.locator(`svg.board[data-version="${version}"]`).waitFor();
  return version;
}

/** Places the tile in hand at (x, y) turned `rotation`: "Rotate" until it is, a click on the lit cell, Confirm; waits for the move. */
export async function placeAt(page: Page, x: number, y: number, rotation: number): Promise<void> {
  const version = await turnOf(page);
  for (let i = 0; i < 4 && await page.locator(`#current-tile[data-rotation="${rotation}"]`).count() === 0; i++) {
    const before = await page.locator('#current-tile').getAttribute('data-rotation');
    await page.locator('#rotate').click();
    await page.waitForFunction((b) => document.querySelector('#current-tile')?.getAttribute('data-rotation') !== b, before);
  }
  await page.locator(`#current-tile[data-rotation="${rotation}"]`).waitFor({ timeout: 2000 });
  await page.locator(`.target[data-x="${x}"][data-y="${y}"]`).click();
  await page.locator('.preview').waitFor();
  await page.locator('#confirm').click();
  await waitForChange(page, version);
}
