// The lobby's lists of games, in words a person reads: each row says the
// sets, the clock and who sits where, never the game's id. Open public
// games offer a seat in one click; this browser's own games (kept in
// localStorage, src/tokens.ts) and the signed-in player's offer continue
// and resign.

import { playerLink } from './account';
import { ApiError, type GameSummary, cancelGame, getGame, listGames, resignGame, sitGame } from './api';
import { clockWords } from './clock';
import { h, errorText } from './dom';
import { setsWords } from './sets';
import { findToken, forgetGame, heldGames, saveToken } from './tokens';
import { seatKindWords } from './words';

/** "1 game", "3 games": a count with its noun. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** A game in words for a list: "Base game + River · 3 min + 5 s a turn · rated". */
export function gameWords(g: GameSummary): string {
  return [setsWords(g.config), clockWords(g.clock), g.rated ? 'rated' : null, g.private ? 'private' : null].filter((x) => x !== null).join(' · ');
}

/** Who sits where: "RED: anna 12, BLUE: greedy bot 9" (scores once the game has begun; a free seat "free"). */
function seatsText(g: GameSummary, mine: number | null, navigate: (path: string) => void): (HTMLElement | string)[] {
  const scored = g.status !== 'open';
  return g.players.flatMap((p, i) => {
    const s = g.seats[i];
    const name = g.names[i];
    const who: HTMLElement | string = i === mine ? 'you' : name ? playerLink(name, navigate) : s?.kind === 'human' ? (s.joined ? 'a guest' : 'free') : seatKindWords(s?.kind ?? '?');
    return [i > 0 ? ', ' : '', `${p}: `, who, scored ? ` ${g.scores[i] ?? 0}` : ''];
  });
}

/**
 * Whose turn it is in one's own game, as its row begins: "Your turn: ",
 * "BLUE to play: " (null: not running, or nobody known to act).
 */
export function turnWords(g: GameSummary, mine: number | null, yourTurn: boolean): string | null {
  if (yourTurn || (g.status === 'playing' && g.toMove !== null && g.toMove === mine)) return 'Your turn: ';
  if (g.status !== 'playing' || g.toMove === null) return null;
  return `${g.players[g.toMove] ?? 'Someone'} to play: `;
}

/** An open game this browser created that nobody else has joined yet (it counts against the creator's open games). */
export function unusedRoom(g: GameSummary, mine: number | null): boolean {
  return g.status === 'open' && g.seats.find((x) => x.kind === 'human')?.seat === mine && g.seats.every((x) => x.kind !== 'human' || x.seat === mine || !x.joined);
}

/** How long a game has been open, in words: "open for 12 min", "open for a moment". */
export function openFor(created: number, now: number): string {
  const min = Math.floor((now - created) / 60_000);
  return min < 1 ? 'open for a moment' : `open for ${min} min`;
}

/** A row of a list: what the game is, who sits where, and what one can do with it (whose turn it is first, in one's own games). */
function row(g: GameSummary, mine: number | null, navigate: (path: string) => void, actions: (HTMLElement | string)[], turn: string | null = null): HTMLElement {
  const yours = turn === 'Your turn: ';
  return h('li', { class: 'game-row', 'data-game': g.id, 'data-status': g.status, 'data-your-turn': String(yours) },
    turn ? (yours ? h('strong', {}, turn) : h('span', { class: 'game-turn' }, turn)) : '', h('span', { class: 'game-what' }, gameWords(g)), ' — ', ...seatsText(g, mine, navigate), ' ', ...actions);
}

/** A link inside the client (a plain click stays in the page). */
function link(href: string, text: string, navigate: (path: string) => void, attrs: Record<string, string> = {}): HTMLElement {
  return h('a', { ...attrs, href, onclick: (e: Event) => { e.preventDefault(); navigate(href); } }, text);
}

export interface Lists {
  /** The games of this browser and of the signed-in player ("Your games"). */
  mine: HTMLElement;
  /** Open public games, games being played, games finished. */
  others: HTMLElement;
  refresh: () => Promise<void>;
}

/**
 * The lobby's lists. `accountGames` gives the signed-in player's games
 * (their seats, held by the account: no token needed in this browser).
 */
export function gameLists(navigate: (path: string) => void, accountGames: () => Promise<{ game: string; seat: number; yourTurn: boolean }[]>, said: (text: string) => void): Lists {
  const mine = h('section', { id: 'your-games', 'aria-label': 'Your games' });
  const others = h('section', { id: 'game-lists' });
  const take = async (g: GameSummary): Promise<void> => {
    try {
      const s = await sitGame(g.id);
      saveToken(g.id, s.seat, s.token);
      navigate(`/play/${g.id}#seat=${s.seat}`);
    } catch (err) {
      said(`Could not take the seat: ${errorText(err)}`);
      await refresh();
    }
  };
  const resign = async (g: GameSummary, token: string): Promise<void> => {
    try {
      await resignGame(g.id, token);
    } catch (err) {
      said(`Could not resign: ${errorText(err)}`);
    }
    await refresh();
  };
  const cancel = async (g: GameSummary, token: string): Promise<void> => {
    try {
      await cancelGame(g.id, token);
      forgetGame(g.id);
    } catch (err) {
      said(`Could not cancel: ${errorText(err)}`);
    }
    await refresh();
  };
  const ownRows = async (): Promise<{ li: HTMLElement; unused: { g: GameSummary; token: string } | null }[]> => {
    const held = heldGames();
    const account = await accountGames().catch(() => []);
    const seats = new Map<string, number>(account.map((a) => [a.game, a.seat]));
    // The server says whose turn it is in the account's games (docs/server.md, GET /api/me/games).
    const turns = new Set(account.filter((a) => a.yourTurn).map((a) => a.game));
    for (const x of held) seats.set(x.game, x.seat);
    const games = await Promise.all([...seats.entries()].slice(-60).map(async ([id, seat]) => {
      try {
        return { g: await getGame(id), seat };
      } catch (e) {
        // A game the server no longer has (an open room that expired): forget it.
        if (e instanceof ApiError && e.code === 'not_found') forgetGame(id);
        return null;
      }
    }));
    const now = Date.now();
    return games.filter((x): x is { g: GameSummary; seat: number } => x !== null && !['finished', 'resigned'].includes(x.g.status))
      .sort((a, b) => Number(turnWords(b.g, b.seat, turns.has(b.g.id)) === 'Your turn: ') - Number(turnWords(a.g, a.seat, turns.has(a.g.id)) === 'Your turn: ') || b.g.created - a.g.created)
      .map(({ g, seat }) => {
        const token = findToken(g.id, seat)?.token ?? null;
        const unused = unusedRoom(g, seat) && token !== null;
        const li = row(g, seat, navigate, [
          link(`/play/${g.id}#seat=${seat}`, g.status === 'open' ? 'open its waiting room' : 'continue', navigate, { class: 'continue' }),
          g.status === 'playing' && token ? [' ', h('button', { type: 'button', class: 'resign', onclick: () => { void resign(g, token); } }, 'resign')] : '',
          // The creator (the first person's seat) may cancel a game still waiting.
          g.status === 'open' && token && g.seats.find((x) => x.kind === 'human')?.seat === seat ? [' ', h('button', { type: 'button', class: 'cancel', onclick: () => { void cancel(g, token); } }, unused ? 'cancel this waiting room' : 'cancel')] : '',
        ].flat(), turnWords(g, seat, turns.has(g.id)));
        // A waiting room nobody came to counts against this browser's open games until cancelled or expired: say so.
        if (unused) {
          li.dataset.unused = 'true';
          li.append(h('span', { class: 'unused-room' }, ` · ${openFor(g.created, now)}, nobody has joined yet; it counts as one of your open games until you cancel it or it expires.`));
        }
        return { li, unused: unused ? { g, token: token ?? '' } : null };
      });
  };
  // Cancels every waiting room of this browser that nobody joined.
  const cancelUnused = async (rooms: { g: GameSummary; token: string }[]): Promise<void> => {
    for (const r of rooms) {
      try {
        await cancelGame(r.g.id, r.token);
        forgetGame(r.g.id);
      } catch (err) {
        said(`Could not cancel: ${errorText(err)}`);
      }
    }
    await refresh();
  };
  const refresh = async (): Promise<void> => {
    try {
      const [own, open, playing, finished] = await Promise.all([ownRows(), listGames('open'), listGames('playing'), listGames('finished')]);
      const unused = own.flatMap((o) => (o.unused ? [o.unused] : []));
      mine.replaceChildren(h('h2', {}, 'Your games'),
        own.length === 0 ? h('p', {}, 'None open or running.') : h('p', { id: 'your-count' }, `${count(own.length, 'game')} open or running:`),
        // Waiting rooms nobody came to, in one click: they count against the caps until cancelled or expired.
        unused.length > 1 ? h('p', { id: 'unused-rooms' }, `${count(unused.length, 'waiting room')} nobody has joined. `,
          h('button', { type: 'button', id: 'cancel-unused', onclick: () => { void cancelUnused(unused); } }, `Cancel all ${unused.length}`)) : '',
        own.length === 0 ? '' : h('ul', { id: 'my-games' }, ...own.map((o) => o.li)));
      // A game this browser holds a seat of is in "Your games": not offered again.
      const held = (g: GameSummary): number | null => findToken(g.id, null)?.seat ?? null;
      const joinable = open.filter((g) => held(g) === null && g.seats.some((s) => s.kind === 'human' && !s.joined));
      others.replaceChildren(
        h('h2', {}, 'Open games'),
        joinable.length === 0 ? h('p', {}, 'Nobody is waiting for players now.') : h('ul', { id: 'open-games' }, ...joinable.map((g) => row(g, null, navigate, [
          h('button', { type: 'button', class: 'take-seat', 'data-game': g.id, onclick: () => { void take(g); } }, 'Take a seat'),
        ]))),
        h('h2', {}, 'Games in progress'),
        h('ul', { id: 'playing-games' }, ...playing.map((g) => {
          const seat = held(g);
          return row(g, seat, navigate, [link(`/watch/${g.id}`, 'watch', navigate), seat !== null ? [' ', link(`/play/${g.id}#seat=${seat}`, 'play my seat', navigate)] : ''].flat());
        })),
        h('h2', {}, 'Finished games'),
        h('ul', { id: 'finished-games' }, ...finished.map((g) => row(g, held(g), navigate, [link(`/replay/${g.id}`, 'replay', navigate), ' ', link(`/watch/${g.id}`, 'summary', navigate)]))),
      );
    } catch (err) {
      others.replaceChildren(h('p', { class: 'error' }, `Could not list games: ${errorText(err)}`));
    }
  };
  return { mine, others, refresh };
}

