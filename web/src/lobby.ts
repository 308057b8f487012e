// The lobby: a game against a bot in one click, this person's own games
// (continue, resign), open games to take a seat in, running or finished
// ones to watch or replay (src/gamelist.ts), the account, and a game set
// up in full (sets, options, seats for people and bots, clock, private).

import { accountPanel, myGames } from './account';
import { createGame, startGame, type Created } from './api';
import { gameLists } from './gamelist';
import { FOLLOWERS, RULE_OPTIONS, RULE_PRESETS, optionsConfig } from './options';
import { h, errorText } from './dom';
import type { JsonObject } from './json';
import { saveInvite, saveToken } from './tokens';
import { TIME_CONTROLS, clockRequest } from './clock';
import { PRESETS, SEAT_KINDS, SETS, setInfo, setsConfig } from './sets';

const COLOURS = ['RED', 'BLUE', 'GREEN', 'YELLOW', 'BLACK', 'GRAY'];

/**
 * Opens a game just created here (in the lobby, or a rematch) at `mine`,
 * the seat of the person who asked: its token kept in this browser, the
 * other people's tokens kept for their invite links (the waiting room
 * hands them out). Alone with bots the game starts at once; with other
 * people it waits for them in its waiting room.
 */
export async function openCreated(g: Created, mine: number | null, navigate: (path: string) => void): Promise<void> {
  // A rated game's other seats come without a token (their invite is the game's address).
  const people = g.seats.filter((s) => s.token !== null || s.invite !== null);
  const own = people.find((s) => s.seat === mine && s.token !== null) ?? null;
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
        ...SEAT_KINDS.map((k) => h('option', { value: k.kind, selected: (old[i] ?? (i === 0 ? 'human' : 'greedy')) === k.kind }, k.label))), ' ')));
  };
  count.addEventListener('change', drawSeats);
  drawSeats();
  const baseAbout = h('p', { class: 'set-about', id: 'base-about' });
  const base = h('select', { id: 'base', 'aria-label': 'Base game', 'aria-describedby': 'base-about' }, ...SETS.filter((x) => x.kind === 'base').map((x) => h('option', { value: x.id }, x.name)));
  const showBase = (): void => { baseAbout.textContent = setInfo(base.value)?.about ?? ''; };
  base.addEventListener('change', showBase);
  showBase();
  // Each expansion with its one sentence; one that needs the Winter Edition chooses it.
  const exps = SETS.filter((x) => x.kind === 'expansion').map((x) => {
    const box = h('input', { type: 'checkbox', value: x.id, name: 'expansion', 'aria-describedby': `about-${x.id}` });
    box.addEventListener('change', () => {
      if (box.checked && x.needsBase) { base.value = x.needsBase; showBase(); }
      presetAbout.textContent = '';
    });
    return h('label', { class: 'set' }, box, ' ', h('span', { class: 'set-name' }, x.name), h('span', { class: 'set-about', id: `about-${x.id}` }, x.about));
  });
  const presetAbout = h('p', { class: 'set-about', id: 'preset-about', role: 'status' });
  const presets = h('div', { class: 'presets', role: 'group', 'aria-label': 'Presets' }, ...PRESETS.map((p) => h('button', {
    type: 'button', id: `preset-${p.id}`, 'data-preset': p.id, title: p.about,
    onclick: () => {
      base.value = p.base;
      showBase();
      for (const l of exps) { const i = l.querySelector('input'); if (i) i.checked = p.expansions.includes(i.value); }
      presetAbout.textContent = `${p.name}: ${p.about}`;
    },
  }, p.name)));
  // The rule options, with presets of them (src/options.ts).
  const followers = h('input', { type: 'number', id: 'followers', min: FOLLOWERS.min, max: FOLLOWERS.max, value: FOLLOWERS.standard, 'aria-label': 'Followers per player' });
  const switches = RULE_OPTIONS.map((o) => h('label', { class: 'set' }, h('input', { type: 'checkbox', name: 'rule', value: o.id }), ' ',
    h('span', { class: 'set-name' }, o.label), h('span', { class: 'set-about' }, o.about)));
  const rulesAbout = h('p', { class: 'set-about', id: 'rules-about', role: 'status' });
  const rulePresets = h('div', { class: 'presets', role: 'group', 'aria-label': 'Rule presets' }, ...RULE_PRESETS.map((p) => h('button', {
    type: 'button', id: `rules-${p.id}`, title: p.about,
    onclick: () => {
      followers.value = String(p.choice.followers);
      for (const l of switches) { const i = l.querySelector('input'); if (i) i.checked = p.choice.on.includes(i.value); }
      for (const l of exps) { const i = l.querySelector('input'); if (i && p.expansions.includes(i.value)) i.checked = true; }
      rulesAbout.textContent = `${p.name}: ${p.about}`;
    },
  }, p.name)));
  const deck = h('input', { id: 'deck', placeholder: 'optional fixed deck: base/U base/E …', size: 40, 'aria-label': 'Fixed deck (tile ids separated by spaces)' });
  const deckOnly = h('input', { type: 'checkbox', id: 'deck-only' });
  // The time control (the server's clocks, for the people; bots have their own budget).
  const time = h('select', { id: 'time-control', 'aria-label': 'Time control' }, ...TIME_CONTROLS.map((t) => h('option', { value: t.id }, t.label)));
  const onTimeout = h('select', { id: 'on-timeout', 'aria-label': 'When a person runs out of time' }, h('option', { value: 'lose' }, 'loses the game'), h('option', { value: 'bot' }, 'a bot plays on'));
  const rated = h('input', { type: 'checkbox', id: 'rated' });
  const secret = h('input', { type: 'checkbox', id: 'private' });
  const create = async (e: Event): Promise<void> => {
    e.preventDefault();
    const n = Math.min(6, Math.max(1, Number(count.value) || 2));
    const expansions = exps.map((l) => l.querySelector('input')).filter((i): i is HTMLInputElement => !!i && i.checked).map((i) => i.value);
    const on = switches.map((l) => l.querySelector('input')).filter((i): i is HTMLInputElement => !!i && i.checked).map((i) => i.value);
    const config: JsonObject = { players: COLOURS.slice(0, n), ...setsConfig(base.value, expansions), options: optionsConfig({ followers: Number(followers.value), on }, expansions) };
    const tiles = deck.value.split(/[\s,]+/).filter((t) => t.length > 0);
    if (tiles.length > 0) { config.deck = tiles; config.deck_only = deckOnly.checked; }
    const seats = [...seatsBox.querySelectorAll('select')].map((s) => s.value);
    try {
      const g = await createGame(config, seats, clockRequest(time.value, onTimeout.value), rated.checked, secret.checked);
      // The creator plays the first person's seat.
      await openCreated(g, g.seats.find((s) => s.token !== null)?.seat ?? null, navigate);
    } catch (err) {
      message.textContent = `Could not create the game: ${errorText(err)}`;
    }
  };
  const lists = gameLists(navigate, () => myGames(), (t) => { message.textContent = t; });
  const refresh = lists.refresh;
  // One click to a game: the base game against a greedy bot, untimed.
  const quick = h('p', { role: 'status', class: 'status', id: 'quick-status' });
  const playBot = async (): Promise<void> => {
    try {
      const g = await createGame({ players: COLOURS.slice(0, 2), base: 'base', expansions: [], options: {} }, ['human', 'greedy']);
      await openCreated(g, 0, navigate);
    } catch (err) {
      quick.textContent = `Could not start a game: ${errorText(err)}`;
    }
  };
  root.replaceChildren(h('div', { class: 'lobby' },
    h('section', { id: 'play-now', 'aria-label': 'Play now' },
      h('h1', {}, 'Bastide'),
      h('button', { type: 'button', id: 'play-bot', class: 'primary', onclick: () => { void playBot(); } }, 'Play against a bot now'),
      h('span', { class: 'hint' }, ' the base game against a quick bot; or take a seat in an open game below, or ',
        h('a', { href: '#new-game', id: 'to-new-game' }, 'set up your own'), '.'),
      quick),
    lists.mine,
    h('section', {}, h('button', { type: 'button', id: 'refresh', onclick: () => { void refresh(); } }, 'Refresh'), lists.others),
    accountPanel(navigate, () => { void refresh(); }),
    h('form', { id: 'new-game', onsubmit: (e: Event) => { void create(e); }, 'aria-label': 'Create a game' },
      h('h2', {}, 'New game'),
      h('fieldset', {}, h('legend', {}, 'Presets'), presets, presetAbout),
      h('fieldset', { class: 'sets' }, h('legend', {}, 'Sets'), h('label', {}, 'Base ', base), baseAbout, ...exps),
      h('fieldset', { class: 'sets', id: 'rules' }, h('legend', {}, 'Rules'), rulePresets, rulesAbout, h('label', {}, 'Followers per player ', followers), ...switches),
      h('fieldset', {}, h('legend', {}, 'Seats'), h('label', {}, 'Players ', count), seatsBox,
        h('label', {}, secret, ' private: people take its seats by invite link only (not listed as open)')),
      h('fieldset', {}, h('legend', {}, 'Time'), h('label', {}, 'Clock ', time), ' ', h('label', {}, 'Out of time: ', onTimeout)),
      h('fieldset', {}, h('legend', {}, 'Options'), deck, h('label', {}, deckOnly, ' only these tiles'), h('br'),
        h('label', {}, rated, ' rated (every person signed in)')),
      h('button', { type: 'submit', id: 'create' }, 'Create game'), message)));
  void refresh();
}
