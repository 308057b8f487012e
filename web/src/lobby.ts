// The lobby: create a game (sets, options, seats for people and bots),
// list open games to join and running or finished ones to watch or replay.

import { accountPanel } from './account';
import { GameSummary, createGame, listGames, startGame, type Created } from './api';
import { h, errorText } from './dom';
import type { JsonObject } from './json';
import { saveInvite, saveToken } from './tokens';

const EXPANSIONS: [string, string][] = [
  ['river1', 'River I'], ['river2', 'River II'], ['river20', 'River (20th anniversary)'], ['cutcassonne', 'CutCassonne'],
  ['inns-cathedrals', 'Inns & Cathedrals'], ['halfsies1', 'Half-and-half 1'], ['halfsies2', 'Half-and-half 2'], ['plague', 'The Plague'],
  ['gingerbread', 'Gingerbread Man (Winter base)'], ['map-chips', 'Map Chips (Ukraine map)'],
];
const COLOURS = ['RED', 'BLUE', 'GREEN', 'YELLOW', 'BLACK', 'GRAY'];
export const SEAT_KINDS = ['human', 'random', 'greedy', 'mcts:200', 'mcts:2000'];

/**
 * Opens a game just created here (in the lobby, or a rematch) at `mine`,
 * the seat of the person who asked: its token kept in this browser, the
 * other people's tokens kept for their invite links (the waiting room
 * hands them out). Alone with bots the game starts at once; with other
 * people it waits for them in its waiting room.
 */
export async function openCreated(g: Created, mine: number | null, navigate: (path: string) => void): Promise<void> {
  const people = g.seats.filter((s) => s.token !== null);
  const own = people.find((s) => s.seat === mine) ?? null;
  const others = people.filter((s) => s !== own);
  if (own?.token) saveToken(g.id, own.seat, own.token);
  for (const s of others) if (s.token) saveInvite(g.id, s.seat, s.token);
  if (own?.token && others.length === 0) await startGame(g.id, own.token).catch(() => undefined);
  // The seat's token stays out of the address (it is in this browser):
  // the address bar is what people copy.
  navigate(own ? `/play/${g.id}#seat=${own.seat}` : `/watch/${g.id}`);
}

export function lobby(root: HTMLElement, navigate: (path: string) => void): void {
  const message = h('p', { role: 'status', class: 'status' });
  const seatsBox = h('div', { id: 'seats' });
  const count = h('input', { type: 'number', min: 1, max: 6, value: 2, id: 'players', 'aria-label': 'Number of players' });
  const drawSeats = (): void => {
    const n = Math.min(6, Math.max(1, Number(count.value) || 2));
    const old = [...seatsBox.querySelectorAll('select')].map((s) => s.value);
    seatsBox.replaceChildren(...Array.from({ length: n }, (_, i) => h('label', {}, `${COLOURS[i] ?? `P${i}`}: `,
      h('select', { name: `seat${i}`, 'aria-label': `Seat ${i} (${COLOURS[i] ?? ''})` },
        ...SEAT_KINDS.map((k) => h('option', { value: k, selected: (old[i] ?? (i === 0 ? 'human' : 'greedy')) === k }, k))), ' ')));
  };
  count.addEventListener('change', drawSeats);
  drawSeats();
  const base = h('select', { id: 'base', 'aria-label': 'Base game' }, h('option', { value: 'base' }, 'Base game'), h('option', { value: 'winter' }, 'Winter Edition'));
  const exps = EXPANSIONS.map(([id, name]) => h('label', {}, h('input', { type: 'checkbox', value: id, name: 'expansion' }), ` ${name} `));
  const deck = h('input', { id: 'deck', placeholder: 'optional fixed deck: base/U base/E …', size: 40, 'aria-label': 'Fixed deck (tile ids separated by spaces)' });
  const deckOnly = h('input', { type: 'checkbox', id: 'deck-only' });
  const rated = h('input', { type: 'checkbox', id: 'rated' });
  const create = async (e: Event): Promise<void> => {
    e.preventDefault();
    const n = Math.min(6, Math.max(1, Number(count.value) || 2));
    const expansions = exps.map((l) => l.querySelector('input')).filter((i): i is HTMLInputElement => !!i && i.checked).map((i) => i.value);
    const config: JsonObject = { players: COLOURS.slice(0, n), base: base.value, expansions, options: {} };
    if (expansions.includes('map-chips')) config.map = 'ukraine';
    const tiles = deck.value.split(/[\s,]+/).filter((t) => t.length > 0);
    if (tiles.length > 0) { config.deck = tiles; config.deck_only = deckOnly.checked; }
    const seats = [...seatsBox.querySelectorAll('select')].map((s) => s.value);
    try {
      const g = await createGame(config, seats, rated.checked);
      // The creator plays the first person's seat.
      await openCreated(g, g.seats.find((s) => s.token !== null)?.seat ?? null, navigate);
    } catch (err) {
      message.textContent = `Could not create the game: ${errorText(err)}`;
    }
  };
  const lists = h('div', {});
  const refresh = async (): Promise<void> => {
    try {
      const [open, playing, finished] = await Promise.all([listGames('open'), listGames('playing'), listGames('finished')]);
      const row = (g: GameSummary, links: (HTMLElement | string)[]): HTMLElement => h('li', {}, `${g.id}${g.rated ? ' (rated)' : ''} — ${g.players.map((p, i) => `${p} (${g.names[i] ?? g.seats[i]?.kind ?? '?'}) ${g.scores[i] ?? 0}`).join(', ')} — v${g.version} `, ...links);
      lists.replaceChildren(
        h('h2', {}, 'Open games'), h('ul', {}, ...open.map((g) => row(g, [h('a', { href: `/play/${g.id}` }, 'join')]))),
        h('h2', {}, 'Games in progress'), h('ul', {}, ...playing.map((g) => row(g, [h('a', { href: `/watch/${g.id}` }, 'watch'), ' ', h('a', { href: `/play/${g.id}` }, 'play my seat')]))),
        h('h2', {}, 'Finished games'), h('ul', {}, ...finished.map((g) => row(g, [h('a', { href: `/replay/${g.id}` }, 'replay'), ' ', h('a', { href: `/watch/${g.id}` }, 'summary')]))),
      );
    } catch (err) {
      lists.replaceChildren(h('p', { class: 'error' }, `Could not list games: ${errorText(err)}`));
    }
  };
  root.replaceChildren(h('div', { class: 'lobby' },
    accountPanel(navigate, () => { void refresh(); }),
    h('form', { onsubmit: (e: Event) => { void create(e); }, 'aria-label': 'Create a game' },
      h('h1', {}, 'New game'),
      h('fieldset', {}, h('legend', {}, 'Sets'), base, h('br'), ...exps),
      h('fieldset', {}, h('legend', {}, 'Seats'), h('label', {}, 'Players ', count), seatsBox),
      h('fieldset', {}, h('legend', {}, 'Options'), deck, h('label', {}, deckOnly, ' only these tiles'), h('br'),
        h('label', {}, rated, ' rated (every person signed in)')),
      h('button', { type: 'submit', id: 'create' }, 'Create game'), message),
    h('section', {}, h('button', { onclick: () => { void refresh(); } }, 'Refresh'), lists)));
  void refresh();
}
